"""docs/staff-guide.md, "Rebuilding a set by scan"; docs/security.md, "Wall stickers": the page a
wall sticker's QR code opens (``SetId.slot_url``) shows the staff and the director which tile goes
in that slot and where it lies; everyone else (visitors, players, table logins, scorers) gets a
neutral page that names no tile, for any set in any state, and does not tell whether the set
exists. The check walk goes through a seat's slots in laying order, for staff only.

Tiles are compared with the stored walls (``WallSet.piles``, ``ReserveWall.piles``), never with
constants."""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import unescape

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import translation

from factories import client_for, demo_roster, prepared_event, rolled_back
from scoring import visibility
from tournament import i18n
from tournament.models import EventRole, Table
from tournament.services import draw_reserve
from walls.models import WallSet
from walls.setcode import SetId
from walls.tiles import tile_glyph, tile_name

pytestmark = pytest.mark.django_db

PRESETS = ("mcr-duplicate", "riichi", "riichi-duplicate")
SECRET_ROLES = ("director", "staff")
OTHER_ROLES = ("anonymous", "player", "table_login", "scorer")
LANGS = {"en": "en", "ja": "ja", "zh": "zh-hans"}
# slots probed per rule set: hands, both rows of a draw pile, a live wall, every dead-wall role
SLOTS = {
    "mcr-duplicate": ("E-H1", "E-H13", "S-D1", "S-D2", "W-D20", "W-D21", "N-D19"),
    "riichi": ("E-H1", "N-H13", "L1", "L2", "L70", "X1", "X4", "X5", "X6", "X7", "X14"),
    "riichi-duplicate": ("E-H7", "E-D19", "E-X1", "S-X3", "S-X4", "W-X1", "N-X4", "N-D17"),
}


@dataclass
class World:
    events: dict  # preset code → event
    users: dict  # role → user


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """One prepared event per preset (one group of 4 tables), with a client per role."""
    with rolled_back(django_db_blocker):
        users = {role: get_user_model().objects.create_user(f"rebuild-{role}", password=f"pw-{role}-1")
                 for role in ("director", "staff", "player", "scorer")}
        out = {}
        for code in PRESETS:
            event = prepared_event(demo_roster(4), name=f"Rebuild {code}", slug=f"rebuild-{code}", ruleset_code=code)
            tables = list(Table.objects.filter(group__session__event=event).order_by("number"))
            EventRole.objects.create(event=event, user=users["director"], role=EventRole.Role.DIRECTOR)
            EventRole.objects.create(event=event, user=users["staff"], role=EventRole.Role.STAFF)
            EventRole.objects.create(event=event, user=users["scorer"], role=EventRole.Role.SCORER).tables.add(tables[1])
            if code == "mcr-duplicate":
                player = tables[2].seats.select_related("player").get(seat="E").player
                player.user = users["player"]
                player.save(update_fields=["user"])
                draw_reserve(event, 1, 2, reason="tiles seen", actor="director", tables=[tables[0]])
            out[code] = event
        yield World(out, users)


def client_as(role, world, preset) -> Client:
    """A client of ``role``: a session login, the table login of the event's first table, or none."""
    if role == "anonymous":
        return Client()
    if role == "table_login":
        return client_for(table=Table.objects.filter(group__session__event=world.events[preset]).order_by("number").first())
    return client_for(world.users[role])


def main(response) -> str:
    """The page's own content (the site header with its language menu left out), unescaped."""
    html = response.content.decode()
    found = re.search(r"<main[^>]*>(.*)</main>", html, re.S)
    assert found, html[:500]
    return unescape(found.group(1))


def slot_path(event, where: str, set_id: SetId | None = None) -> str:
    set_id = set_id or SetId(event.slug, 1, 3)
    return reverse("sticker-slot", args=[event.slug, set_id.code, where])


def stored_tile(event, where: str, set_no: int = 3) -> str:
    seat, _, label = where.rpartition("-")
    ruleset = event.get_ruleset()
    pile = next(p for p in ruleset.piles if p.seat == (seat or None) and p.slot_prefix == label[0])
    return WallSet.objects.get(event=event, session_number=1, set_no=set_no).piles[pile.name][int(label[1:]) - 1]


SEAT_WORDS = set()
for _lang in LANGS.values():
    with translation.override(_lang):
        SEAT_WORDS |= {i18n.seat_name(s) for s in "ESWN"} | {i18n.seat_label(s) for s in "ESWN"}


FIXED_MSGIDS = (
    "Wall sticker", "Wall sticker: set %(code)s, %(seat)s, %(slot)s — where each tile goes is shown to staff only.",
    "You are logged in as %(name)s, without a staff role in this event.", "Log in as staff",
)
"""The neutral page's own sentences: fixed words, which may share a character with a tile's name
(没有工作人员 holds 中, the Red Dragon's name in Chinese)."""
FIXED_WORDS = set()
for _lang in LANGS.values():
    with translation.override(_lang):
        for _msgid in FIXED_MSGIDS:
            FIXED_WORDS |= {piece for piece in re.split(r"%\(\w+\)s", translation.gettext(_msgid)) if piece.strip()}


def names_a_tile(text: str, tile: str) -> list[str]:
    """What of ``tile`` the text shows: its code, glyph or name in English, Japanese or Chinese
    (seat words, which share characters with the wind tiles, and the page's fixed sentences
    scrubbed first)."""
    for word in sorted(SEAT_WORDS | FIXED_WORDS, key=len, reverse=True):
        if len(word) > 1 or not word.isascii():
            text = text.replace(word, " ")
    shown = []
    if re.search(rf"(?<![0-9A-Za-z]){re.escape(tile)}(?![0-9A-Za-z])", text):
        shown.append(tile)
    glyph = tile_glyph(tile)
    if len(glyph) > 1 and re.search(rf"(?<![0-9A-Za-z]){re.escape(glyph)}(?![0-9A-Za-z*])", text):
        shown.append(glyph)
    shown += [name for name in {tile_name(tile, lang) for lang in ("en", "ja", "zh")} if name in text]
    return shown


# --- staff and director ---------------------------------------------------------------------------

@pytest.mark.parametrize("role", SECRET_ROLES)
@pytest.mark.parametrize("preset", PRESETS)
def test_staff_see_the_tile_of_each_slot_and_its_row(world, preset, role):
    event = world.events[preset]
    client = client_as(role, world, preset)
    for where in SLOTS[preset]:
        response = client.get(slot_path(event, where))
        assert response.status_code == 200, (where, response.status_code)
        text = main(response)
        tile = stored_tile(event, where)
        assert tile_name(tile, "en") in text and f"<code>{tile}</code>" in response.content.decode(), where
        label = where.rpartition("-")[2]
        strip = re.search(r'<ol class="row-strip"[^>]*>(.*?)</ol>', text, re.S).group(1)
        assert re.search(rf'class="here" aria-current="true">{label}<', strip), where
        assert "from the left" in text
        cache = response["Cache-Control"]
        assert "private" in cache and "no-store" in cache


def test_the_slot_page_says_which_row_and_place(world):
    event = world.events["mcr-duplicate"]
    client = client_as("staff", world, "mcr-duplicate")
    text = main(client.get(slot_path(event, "E-D21")))
    assert "Draw pile, lower row, tile 11 from the left" in text
    strip = re.search(r'<ol class="row-strip"[^>]*>(.*?)</ol>', text, re.S).group(1)
    assert re.findall(r">(D\d+)<", strip) == [f"D{n}" for n in range(2, 21, 2)] + ["D21"]
    text = main(client.get(slot_path(event, "S-D3")))
    assert "Draw pile, upper row, tile 2 from the left" in text
    assert "Starting hand, one row, tile 5 from the left" in main(client.get(slot_path(event, "W-H5")))


@pytest.mark.parametrize(("where", "role"), [
    ("X1", "Replacement tile 1"), ("X4", "Replacement tile 4"), ("X5", "Dora indicator"),
    ("X6", "Ura-dora (under the dora indicator)"), ("X7", "Kan-dora indicator 1"), ("X14", "Ura-dora (under kan-dora indicator 4)"),
])
def test_a_dead_wall_slot_says_its_role(world, where, role):
    event = world.events["riichi"]
    text = main(client_as("director", world, "riichi").get(slot_path(event, where)))
    assert f'id="slot-role">{role}<' in text


def test_riichi_duplicate_dora_indicator_is_south_x3(world):
    event = world.events["riichi-duplicate"]
    client = client_as("staff", world, "riichi-duplicate")
    assert 'id="slot-role">Dora indicator<' in main(client.get(slot_path(event, "S-X3")))
    assert 'id="slot-role">Replacement tile 3<' in main(client.get(slot_path(event, "S-X1")))
    assert 'id="slot-role"' not in main(client.get(slot_path(event, "S-D1")))


def test_the_tile_name_follows_the_page_language(world):
    event = world.events["mcr-duplicate"]
    client = client_as("staff", world, "mcr-duplicate")
    for lang, accept in LANGS.items():
        tile = stored_tile(event, "N-D7")
        text = main(client.get(slot_path(event, "N-D7"), HTTP_ACCEPT_LANGUAGE=accept))
        assert tile_name(tile, lang) in text, lang


def test_a_reserve_wall_code_reads_the_reserve_walls_piles(world):
    event = world.events["mcr-duplicate"]
    reserve = event.reserve_walls.get(session_number=1, set_no=2, number=1)
    client = client_as("staff", world, "mcr-duplicate")
    for where, pile, n in (("E-H1", "E-hand", 1), ("S-D9", "S-draw", 9), ("N-D21", "N-draw", 21)):
        tile = reserve.piles[pile][n - 1]
        text = main(client.get(slot_path(event, where, SetId(event.slug, 1, 2, 1))))
        assert tile_name(tile, "en") in text and "1-02R1-" in text


def test_scanned_in_the_check_walk_the_slot_page_links_back_at_its_step(world):
    event = world.events["mcr-duplicate"]
    client = client_as("staff", world, "mcr-duplicate")
    code = SetId(event.slug, 1, 3).code
    text = main(client.get(slot_path(event, "W-D1") + "?check=1"))
    # W: H1-H13 (13), lower row D2..D20, D21 (11), then the upper row: D1 is step 25
    back = reverse("sticker-check", args=[event.slug, code, "W"]) + "?step=25"
    assert f'href="{back}" id="back-to-check"' in text and "25 of 34" in text
    assert 'data-query="check=1"' in text
    plain = main(client.get(slot_path(event, "W-D1")))
    assert f'href="{back}" id="check-seat"' in plain and "data-query" not in plain
    assert f'data-prefix="/W/{event.pk}/ /w/{event.slug}/"' in plain


# --- everyone else --------------------------------------------------------------------------------

@pytest.mark.parametrize("role", OTHER_ROLES)
@pytest.mark.parametrize("preset", ("mcr-duplicate", "riichi"))
def test_others_see_a_neutral_page_without_any_tile(world, preset, role):
    event = world.events[preset]
    client = client_as(role, world, preset)
    for where in SLOTS[preset]:
        tile = stored_tile(event, where)
        for accept in LANGS.values():
            response = client.get(slot_path(event, where), HTTP_ACCEPT_LANGUAGE=accept)
            assert response.status_code == 200
            text = main(response)
            assert 'id="sticker-neutral"' in text and 'id="staff-login"' in text
            assert names_a_tile(text, tile) == [], (role, where, accept)
            assert "tile-face" not in text and "row-strip" not in text and "scan-box" not in text
    staff = main(client_as("staff", world, preset).get(slot_path(event, SLOTS[preset][0])))
    assert names_a_tile(staff, stored_tile(event, SLOTS[preset][0]))  # the detector finds the tile where it is shown


def _without_tokens(text: str) -> str:
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", text)


@pytest.mark.parametrize("role", OTHER_ROLES)
def test_the_neutral_page_does_not_tell_whether_the_set_exists_or_is_released(world, role):
    """Same page for a prepared set, a session not prepared, a reserve wall never drawn and a
    released set: only the code printed on the sticker differs."""
    event = world.events["mcr-duplicate"]
    client = client_as(role, world, "mcr-duplicate")
    codes = [SetId(event.slug, 1, 3), SetId(event.slug, 4, 9), SetId(event.slug, 1, 3, 7), SetId(event.slug, 1, 5)]
    visibility.release_sets(event, {(1, 5)})
    pages = set()
    for set_id in codes:
        response = client.get(slot_path(event, "S-D4", set_id))
        assert response.status_code == 200
        pages.add(_without_tokens(main(response)).replace(set_id.code, "CODE"))
    assert len(pages) == 1
    released = main(client.get(slot_path(event, "S-D4", SetId(event.slug, 1, 5))))
    assert names_a_tile(released, stored_tile(event, "S-D4", 5)) == []


@pytest.mark.parametrize("role", OTHER_ROLES)
def test_others_may_not_open_the_check_walk(world, role):
    event = world.events["mcr-duplicate"]
    response = client_as(role, world, "mcr-duplicate").get(
        reverse("sticker-check", args=[event.slug, SetId(event.slug, 1, 3).code, "E"]))
    assert response.status_code == 403
    assert names_a_tile(main(response), stored_tile(event, "E-H1")) == []


# --- bad codes --------------------------------------------------------------------------------------

@pytest.mark.parametrize("role", ("staff", "anonymous"))
@pytest.mark.parametrize(("code", "where"), [
    ("1-03-0", "E-H1"),  # wrong check digit (1-03's is not 0)
    ("1-03", "E-H1"), ("nonsense", "E-H1"), ("1-03R0-1", "E-H1"),
    (None, "E-D22"), (None, "Q-H1"), (None, "E-Z1"), (None, "H1"), (None, "X5"), (None, "E-"), (None, "E-D²"),
])
def test_a_bad_code_or_slot_is_a_404_that_says_so(world, role, code, where):
    event = world.events["mcr-duplicate"]
    good = SetId(event.slug, 1, 3)
    if code == "1-03-0":
        assert good.check != 0
    response = client_as(role, world, "mcr-duplicate").get(
        reverse("sticker-slot", args=[event.slug, code or good.code, where]))
    assert response.status_code == 404
    text = main(response)
    assert 'id="sticker-error"' in text
    assert ("is not a set code" in text) if code else ("is not a slot" in text)


def test_staff_are_told_when_the_set_has_no_wall(world):
    event = world.events["mcr-duplicate"]
    response = client_as("staff", world, "mcr-duplicate").get(slot_path(event, "E-H1", SetId(event.slug, 4, 1)))
    assert response.status_code == 404 and "has no wall" in main(response)


def test_an_unknown_event_is_a_404(world):
    assert Client().get(reverse("sticker-slot", args=["no-such-cup", "1-03-1", "E-H1"])).status_code == 404


def test_the_printed_url_without_its_slash_lands_on_the_page(world):
    event = world.events["mcr-duplicate"]
    url = SetId(event.slug, 1, 3).slot_url("http://testserver", "E", "D21")
    response = client_as("staff", world, "mcr-duplicate").get(url, follow=True)
    assert response.status_code == 200 and tile_name(stored_tile(event, "E-D21"), "en") in main(response)


def test_the_short_printed_url_opens_the_slot_page_at_once(world):
    """A sticker's code is the short upper-case URL (walls.setcode.qr_address): it opens the slot
    page itself, without a redirect (one round trip on a venue's Wi-Fi), for staff the tile and for
    a player the neutral page, whatever case the phone sends the slot in."""
    event = world.events["mcr-duplicate"]
    url = SetId(event.slug, 1, 3).slot_url("http://testserver", "E", "D21", str(event.pk))
    assert url == f"HTTP://TESTSERVER/W/{event.pk}/{SetId(event.slug, 1, 3).code}/E-D21"
    path = url.removeprefix("HTTP://TESTSERVER")
    staff = client_as("staff", world, "mcr-duplicate").get(path)
    assert staff.status_code == 200 and tile_name(stored_tile(event, "E-D21"), "en") in main(staff)
    assert client_as("staff", world, "mcr-duplicate").get(path.lower().replace("/w/", "/W/") + "/").status_code == 200
    neutral = Client().get(path)
    assert neutral.status_code == 200 and tile_name(stored_tile(event, "E-D21"), "en") not in main(neutral)
    assert Client().get(f"/W/999999/{SetId(event.slug, 1, 3).code}/E-D21").status_code == 404


# --- the check walk ---------------------------------------------------------------------------------

def _check(client, event, seat, step=None):
    url = reverse("sticker-check", args=[event.slug, SetId(event.slug, 1, 3).code, seat])
    return client.get(url + (f"?step={step}" if step else ""))


@pytest.mark.parametrize("seat", ("E", "N"))
def test_the_check_walks_all_34_slots_of_an_mcr_seat_in_laying_order(world, seat):
    event = world.events["mcr-duplicate"]
    client = client_as("director", world, "mcr-duplicate")
    expected = [f"H{n}" for n in range(1, 14)] + [f"D{n}" for n in range(2, 21, 2)] + ["D21"] + [f"D{n}" for n in range(1, 20, 2)]
    seen = []
    for step in range(1, 35):
        response = _check(client, event, seat, step)
        assert response.status_code == 200
        text = main(response)
        label = re.search(r'<p class="slot-chip">.*?</span> (\w+)</p>', text, re.S).group(1)
        seen.append(label)
        assert f"{step} of 34" in text
        tile = stored_tile(event, f"{seat}-{label}")
        assert tile_name(tile, "en") in re.search(r'<section class="slot-card".*?</section>', text, re.S).group(0)
        assert ('id="walk-next"' in text) is (step < 34) and ('id="walk-back"' in text) is (step > 1)
        assert "no-store" in response["Cache-Control"]
    assert seen == expected
    assert _check(client, event, seat, 35).status_code == 400


def test_the_check_page_shows_every_row_as_a_strip_of_tiles(world):
    event = world.events["mcr-duplicate"]
    text = main(_check(client_as("staff", world, "mcr-duplicate"), event, "S", 14))
    strips = re.findall(r'<ol class="tile-strip">(.*?)</ol>', text, re.S)
    assert [len(re.findall(r"<li", s)) for s in strips] == [13, 11, 10]
    cells = re.findall(r'<span class="lab">(\w+)</span><span class="g[^"]*">([^<]+)</span>', "".join(strips))
    assert len(cells) == 34
    for label, glyph in cells:
        assert glyph == tile_glyph(stored_tile(event, f"S-{label}"))
    assert re.search(r'class="here" aria-current="step"><a [^>]*><span class="lab">D2<', text)


def test_the_check_walk_of_the_shared_piles(world):
    event = world.events["riichi"]
    client = client_as("staff", world, "riichi")
    first = main(_check(client, event, "shared"))
    assert "1 of 84" in first
    last = main(_check(client, event, "shared", 84))
    label = re.search(r'<p class="slot-chip">(\w+)</p>', last).group(1)
    assert label == "X13"  # the dead wall's upper row ends the walk
    assert _check(client, event, "Q").status_code == 404


def test_the_check_walk_of_an_unprepared_set_or_a_bad_code_is_a_404(world):
    event = world.events["mcr-duplicate"]
    client = client_as("staff", world, "mcr-duplicate")
    assert client.get(reverse("sticker-check", args=[event.slug, SetId(event.slug, 4, 1).code, "E"])).status_code == 404
    assert client.get(reverse("sticker-check", args=[event.slug, "1-03-0", "E"])).status_code == 404


# --- cost -------------------------------------------------------------------------------------------

def test_the_pages_cost_a_fixed_handful_of_queries(world, django_assert_max_num_queries):
    """Staff: event, session, user, roles, seated tables, the wall, the header's invitations. A
    visitor: the event alone (no wall is read). A table login: its table and session checks and the
    header's table badge."""
    event = world.events["mcr-duplicate"]
    clients = {role: client_as(role, world, "mcr-duplicate") for role in ("staff", "anonymous", "table_login", "player")}
    for client in clients.values():  # warm: the session's first read
        client.get(slot_path(event, "E-H1"))
    for role, most in (("staff", 7), ("anonymous", 1), ("table_login", 6), ("player", 6)):
        with django_assert_max_num_queries(most):
            assert clients[role].get(slot_path(event, "E-D5")).status_code == 200, role
    with django_assert_max_num_queries(7):
        assert _check(clients["staff"], event, "E", 20).status_code == 200
