"""docs/security.md, "The rule: a set is released when every table has played it": nothing about a set reaches a player before every table has played it.

Built from the URL configuration and the API schema, so that a new page or endpoint that nobody
classified here fails :func:`test_every_url_and_api_path_is_classified`. The fixture event has two
groups playing copies of the same walls: group 1 has finished every set of session 1, group 2 is
still playing (one table has entered, not confirmed, its first set). So no set is released, and for
every role but the director and staff:

- no response body contains a draw pile of any wall of the session (as tile codes, glyphs or
  names, in HTML, JSON, CSV, XLSX or PDF text), a score change of group 1, its winning hand, or a
  converted team total;
- no standings (page, CSV, XLSX, API, team pages) count a set.

The director's responses are the positive control: they must trip the same detectors, or the
detectors prove nothing. Roles: anonymous, a player of group 2 (logged in, linked to their
entrant), a scorer of another table (table login at a group 2 table), the event scorer (scorer
role bound to a group 2 table), a staff user with view permission on every model in the admin,
and the director.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import random
import re
import zipfile
from dataclasses import dataclass, field
from html import unescape

import pytest
from django.contrib import admin
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse

from scoring import visibility
from scoring.models import ConversionTable, HandResult, SetScore
from scoring.actions.confirmation import confirm_result
from scoring.actions.entry import submit_result
from tournament.models import Event, EventRole, Player, Table, Team
from tournament.services import draw_reserve
from factories import client_for, login_as_table, prepared_event, rolled_back, team_roster, blocks
from tournament.check_in import card_token
from walls.setcode import SetId
from walls.tiles import tile_glyph, tile_name

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "player", "other_table_scorer", "event_scorer", "admin_viewer", "director")
HAND = "123m 456m 789m 234p 5p +5p"


@dataclass
class World:
    event: Event
    group1_tables: list
    group2_tables: list
    group1_results: list
    entry2: HandResult  # group 2, table position 0: entered, not confirmed
    team1: Team  # a team of group 1
    player2: Player  # the logged-in player, seated in group 2
    users: dict
    job_id: int
    markers: set = field(default_factory=set)  # numbers of group 1 (results, team totals)
    entry_markers: set = field(default_factory=set)  # numbers of group 2's own entry
    piles: list = field(default_factory=list)  # draw piles of every wall of session 1, and of its reserve wall
    reserve_id: int = 0  # a reserve wall of set 1-01, unreleased


def _changes(rng: random.Random, used: set, avoid=frozenset()) -> dict:
    """Zero-sum typed changes whose numbers are 4 digits, not round and unique in the event,
    within MCR's range of a typed change (at most 4,896: docs/security.md, "Threats and the tests that cover them"): three payments of 1,011 to
    1,589, East gets their sum (3,033 to 4,767); none in ``avoid`` (numbers the pages show anyway,
    such as the conversion table's, and the other markers)."""
    values = []
    while len(values) < 3:
        v = rng.randrange(1011, 1589)
        if v % 10 and not {v, sum(values) + v} & (used | avoid):
            used.add(v)
            values.append(v)
    east = sum(values)
    used.add(east)
    return {"E": east, "S": -values[0], "W": -values[1], "N": -values[2]}


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    from django.contrib.auth import get_user_model

    from walls.print_jobs import request_print

    rng = random.Random(14)
    with rolled_back(django_db_blocker):
        event = prepared_event(team_roster(8), name="Integrity Cup", slug="integrity-cup", sessions=2)
        tables = list(Table.objects.filter(group__session__event=event).select_related("group").order_by("number"))
        group1 = [t for t in tables if t.group.number == 1]
        group2 = [t for t in tables if t.group.number == 2]
        used: set[int] = set()
        shown = {abs(n) for row in ConversionTable.objects.current(event).rows for n in row.values() if isinstance(n, int)}
        results = []
        for slot in range(4):
            for table in group1:
                confirmer = table.seats.select_related("player").get(seat="S").player
                for set_no in blocks(table)[slot][1]:
                    if not results:  # one result entered by its outcome, with the winning hand (a made-up hand
                        # that does not fit the wall: it is stored with a wall flag for the director)
                        result = submit_result(table, set_no, outcome={"kind": "discard", "winners": ["E"], "discarder": "S",
                                                                       "fans": [8], "hand": HAND},
                                               actor="t", entered_by_seat="E")
                        assert result.wall_flag
                    else:
                        result = submit_result(table, set_no, changes=_changes(rng, used, shown), actor="t", entered_by_seat="E")
                    results.append(confirm_result(result, actor="t", pin=confirmer.pin))
        first = blocks(group2[0])[0][1][0]
        entry_used: set[int] = set()
        entry2 = submit_result(group2[0], first, changes=_changes(rng, entry_used, shown | used), actor="t", entered_by_seat="E")
        users = {}
        for role in ROLES:
            if role in ("anonymous", "other_table_scorer"):
                continue
            users[role] = get_user_model().objects.create_user(role, password=f"pw-{role}-1")
        EventRole.objects.create(event=event, user=users["director"], role=EventRole.Role.DIRECTOR)
        EventRole.objects.create(event=event, user=users["event_scorer"], role=EventRole.Role.SCORER).tables.add(group2[3])
        viewer = users["admin_viewer"]
        viewer.is_staff = True
        viewer.save()
        viewer.user_permissions.set(Permission.objects.filter(codename__startswith="view_"))
        player2 = group2[2].seats.select_related("player").get(seat="W").player
        player2.user = users["player"]
        player2.save(update_fields=["user"])
        job = request_print(event, "setup", {"session": 1}, run_now=True)
        # a reserve wall for an unreleased set, played at group 2's last table, with its set-up sheet
        reserve = draw_reserve(event, 1, 1, reason="tiles dropped", actor="director", tables=[group2[3]])
        request_print(event, "reserve_setup", {"session": 1, "reserve": reserve.pk}, run_now=True)
        world = World(event, group1, group2, results, entry2, group1[0].seats.get(seat="E").team, player2, users, job.pk)
        world.markers = used | {abs(s.score_change) for s in SetScore.objects.filter(event=event) if abs(s.score_change) >= 1000}
        world.entry_markers = entry_used
        world.piles = [(w.set_no, tiles) for w in [*event.wall_sets.filter(session_number=1), reserve]
                       for name, tiles in w.piles.items() if not name.endswith("hand")]
        world.reserve_id = reserve.pk
        assert visibility.released_sets(event) == frozenset()
        yield world


def as_role(role: str, w: World) -> Client:
    """A test client acting as ``role``: users by session login, the other table's scorer by the
    code of group 2's second table."""
    return client_for(w.users.get(role), table=w.group2_tables[1] if role == "other_table_scorer" else None)


# --- reading a response as a person would --------------------------------------------------------

def body_text(response) -> str:
    """The response as text: HTML/JSON/CSV as is, XLSX as its sheets' XML, PDF as its text."""
    content = b"".join(response.streaming_content) if response.streaming else response.content
    if response.get("Content-Encoding") == "gzip":  # sent compressed as kept (tournament.cache)
        content = gzip.decompress(content)
    kind = response.get("Content-Type", "")
    if "spreadsheetml" in kind:
        with zipfile.ZipFile(io.BytesIO(content)) as book:
            return " ".join(book.read(n).decode("utf-8") for n in book.namelist() if n.endswith(".xml"))
    if "pdf" in kind:
        import pypdfium2

        pdf = pypdfium2.PdfDocument(content)
        return " ".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    return unescape(content.decode("utf-8", errors="replace"))


CODE = re.compile(r"(?<![0-9A-Za-z])([0-9][mpsz]|[1-8]f)(?![0-9A-Za-z])")


def leaked_piles(text: str, piles) -> list:
    """The draw piles whose first six tiles appear in order in ``text``, as codes, glyphs or names."""
    codes = "".join(CODE.findall(text))
    squeezed = re.sub(r"\s+", "", text)
    found = []
    for set_no, tiles in piles:
        head = tiles[:6]
        if "".join(head) in codes or "".join(tile_glyph(t) for t in head) in squeezed \
                or any("".join(tile_name(t, lang).replace(" ", "") for t in head) in squeezed for lang in ("en", "ja", "zh")):
            found.append((set_no, head))
    return found


def leaked_numbers(text: str, numbers) -> set:
    """The marker ``numbers`` standing alone in ``text``. A number that is a segment of an address
    or a query value (``/3239/change/``, ``?event__id__exact=3239``) or quoted as the admin quotes
    an object's id (“Confirmation attempt with ID “3239” doesn't exist”, the message of a hidden
    row's change page) is a row id, not a score: ids reach four digits on PostgreSQL, whose
    sequences go on across the run."""
    present = set(int(n) for n in re.findall(r"(?<![0-9A-Za-z.,/=“])\d{4,5}(?![0-9A-Za-z./&”])", text))
    return present & set(numbers)


def leaks(role: str, text: str, w: World) -> list[str]:
    out = []
    if piles := leaked_piles(text, w.piles):
        out.append(f"draw piles {piles[:2]}")
    if numbers := leaked_numbers(text, w.markers):
        out.append(f"group 1 score changes {sorted(numbers)[:5]}")
    if HAND in text or HAND.replace(" ", "") in text:
        out.append("the winning hand")
    if "does not fit the wall" in text or "wall_flag" in text:  # the wall check's answer is the director's
        out.append("a wall flag")
    if role not in ("event_scorer",) and (numbers := leaked_numbers(text, w.entry_markers)):
        out.append(f"another table's entry {sorted(numbers)}")
    return out


# --- every URL, classified -----------------------------------------------------------------------

def _sets():
    return (1, 6)


def _results(w):
    return [w.group1_results[0].pk, w.group1_results[-1].pk, w.entry2.pk]


def _api(w):
    return f"/api/events/{w.event.slug}"


# url name → requests (method, path, data) built from the world. "admin" patterns are walked
# through the admin registry in test_admin_shows_no_secret_to_a_staff_viewer.
URLS = {
    "home": lambda w: [("get", reverse("home"), None)],
    "login": lambda w: [("get", reverse("login"), None)],
    "logout": lambda w: [],  # POST only; answers with a redirect, no event data
    # the logged-in user's own pending invitations (docs/security.md, "Threats and the tests that cover them"); an accept of a made-up id is refused
    "invitations": lambda w: [("get", reverse("invitations"), None),
                              ("post", reverse("invitations"), {"action": "accept", "invitation": "999999"})],
    "set_language": lambda w: [("post", reverse("set_language"), {"language": "ja", "next": f"/e/{w.event.slug}/"})],
    "new-event": lambda w: [("get", reverse("new-event"), None)],
    "event": lambda w: [("get", reverse("event", args=[w.event.slug]), None)],
    "standings": lambda w: [("get", reverse("standings", args=[w.event.slug]) + q, None) for q in ("", "?session=1", "?all=1")],
    "entry": lambda w: [("get", reverse("entry", args=[w.event.slug]), None)],
    "director": lambda w: [("get", reverse("director", args=[w.event.slug]), None)],
    "live": lambda w: [("get", reverse("live", args=[w.event.slug]), None)],
    "live-json": lambda w: [("get", reverse("live-json", args=[w.event.slug]), None)],
    "table": lambda w: [("get", reverse("table", args=[w.event.slug, t.pk]), None)
                        for t in (w.group1_tables[0], w.group2_tables[0], w.group2_tables[1])],
    "table-confirm": lambda w: [("post", reverse("table-confirm", args=[w.event.slug, w.entry2.table_id, w.entry2.pk]),
                                 {"pin": "0000"})],
    "result": lambda w: [("get", reverse("result", args=[w.event.slug, pk]), None) for pk in _results(w)],
    "table-login": lambda w: [("get", reverse("table-login"), None)],
    "table-login-code": lambda w: [("get", reverse("table-login-code", args=[w.group1_tables[0].login_code]), None)],
    "event-table-login": lambda w: [("get", reverse("event-table-login", args=[w.event.slug]), None),
                                    ("post", reverse("event-table-login", args=[w.event.slug]), {"code": "0000000000"})],
    "event-table-login-code": lambda w: [("get", reverse("event-table-login-code",
                                                         args=[w.event.slug, w.group1_tables[0].login_code]), None)],
    "reveal-seed": lambda w: [("get", reverse("reveal-seed", args=[w.event.slug]), None),
                              ("post", reverse("reveal-seed", args=[w.event.slug]), {"confirm": "on"})],
    "scan": lambda w: [("get", reverse("scan", args=[SetId(w.event.slug, 1, 1).payload]), None)],
    "service-worker": lambda w: [("get", reverse("service-worker"), None)],  # no event data: Workbox and routes
    "table-call": lambda w: [("post", reverse("table-call", args=[w.event.slug, w.group1_tables[0].pk]), {"reason": "dispute"})],
    "director-calls": lambda w: [("get", reverse("director-calls", args=[w.event.slug]), None)],
    "table-clock": lambda w: [("get", reverse("table-clock", args=[w.event.slug, w.group1_tables[0].pk]), None)],
    "table-extra-time": lambda w: [("post", reverse("table-extra-time", args=[w.event.slug, w.group1_tables[0].pk]),
                                    {"minutes": "5"})],
    "director-calls-json": lambda w: [("get", reverse("director-calls-json", args=[w.event.slug]), None)],
    "director-call-answer": lambda w: [("post", reverse("director-call-answer", args=[w.event.slug, 999999]), None)],
    "prepare-session": lambda w: [("get", reverse("prepare-session", args=[w.event.slug]), None)],
    "walls-commitment": lambda w: [("get", reverse("walls-commitment", args=[w.event.slug]), None)],
    "event-export": lambda w: [("get", reverse("event-export", args=[w.event.slug]), None)],
    "event-export-secret": lambda w: [("get", reverse("event-export-secret", args=[w.event.slug]), None)],
    "print-request": lambda w: [("get", reverse("print-request", args=[w.event.slug]), None)],
    "print-status": lambda w: [("get", reverse("print-status", args=[w.event.slug]), None)],
    "print-download": lambda w: [("get", reverse("print-download", args=[w.event.slug, w.job_id]), None)],
    "print-retry": lambda w: [("post", reverse("print-retry", args=[w.event.slug, w.job_id]), None)],
    "travellers": lambda w: [("get", reverse("travellers", args=[w.event.slug]), None)],
    "luck": lambda w: [("get", reverse("luck", args=[w.event.slug]), None)],  # released sets only
    "traveller": lambda w: [("get", reverse("traveller", args=[w.event.slug, 1, n]), None) for n in _sets()],
    "hand-records": lambda w: [("get", reverse("hand-records", args=[w.event.slug, 1]), None)],
    "players": lambda w: [("get", reverse("players", args=[w.event.slug]) + q, None) for q in ("", "?order=score")],
    "standings-csv": lambda w: [("get", reverse("standings-csv", args=[w.event.slug]) + q, None) for q in ("", "?all=1")],
    "standings-xlsx": lambda w: [("get", reverse("standings-xlsx", args=[w.event.slug]) + q, None) for q in ("", "?all=1")],
    "federation-csv": lambda w: [("get", reverse("federation-csv", args=[w.event.slug]), None)],
    "teams": lambda w: [("get", reverse("teams", args=[w.event.slug]), None)],
    "team": lambda w: [("get", reverse("team", args=[w.event.slug, w.team1.number]), None)],
    "player-results": lambda w: [("get", reverse("player-results", args=[w.event.slug, p.number]), None)
                                 for p in (w.group1_tables[0].seats.get(seat="E").player, w.player2)],
    "entrant": lambda w: [("get", reverse("entrant", args=[w.event.slug, w.team1.pk]), None)],
    "my-results": lambda w: [("get", reverse("my-results", args=[w.event.slug]), None)],
    "venues": lambda w: [("get", reverse("venues", args=[w.event.slug]), None)],
    "venue-package": lambda w: [("get", reverse("venue-package", args=[w.event.slug, "none"]), None)],
    "results-bundle": lambda w: [("get", reverse("results-bundle", args=[w.event.slug]), None)],
    "venue-package-import": lambda w: [("get", reverse("venue-package-import"), None)],
    "venue-standings": lambda w: [("get", reverse("venue-standings", args=[w.event.slug, "none"]), None)],
    "conversion-csv": lambda w: [("get", reverse("conversion-csv", args=[w.event.slug]), None)],
    "conversion": lambda w: [("get", reverse("conversion", args=[w.event.slug]), None)],
    "conversion-rescore": lambda w: [("get", reverse("conversion-rescore", args=[w.event.slug]), None)],
    "walls": lambda w: [("get", reverse("walls", args=[w.event.slug]), None)],
    "traveller-fouled": lambda w: [("post", reverse("traveller-fouled", args=[w.event.slug, 1, n]),
                                    {"action": "mark", "table": w.group1_tables[0].pk, "version": "1", "reason": "probe"})
                                   for n in _sets()],
    "reserve-draw": lambda w: [("post", reverse("reserve-draw", args=[w.event.slug, 1, n]),
                                {"reason": "probe", "tables": [w.group1_tables[0].pk]}) for n in _sets()],
    "reserve-tables": lambda w: [("post", reverse("reserve-tables", args=[w.event.slug, w.reserve_id]),
                                  {"tables": [w.group2_tables[3].pk]})],
    "wall": lambda w: [("get", reverse("wall", args=[w.event.slug, 1, n]), None) for n in _sets()],
    # a wall sticker's QR code (the set's, its reserve wall's) and the staff's check walk: no tile for anyone else
    "sticker-slot": lambda w: [("get", reverse("sticker-slot", args=[w.event.slug, set_id.code, where]), None)
                               for set_id in (*(SetId(w.event.slug, 1, n) for n in _sets()), SetId(w.event.slug, 1, 1, 1))
                               for where in ("E-D1", "S-H1", "N-D21")],
    "sticker-short": lambda w: [("get", reverse("sticker-short", args=[w.event.pk, set_id.code, where]), None)
                                for set_id in (*(SetId(w.event.slug, 1, n) for n in _sets()), SetId(w.event.slug, 1, 1, 1))
                                for where in ("E-D1", "S-H1", "N-D21")],
    "sticker-check": lambda w: [("get", reverse("sticker-check", args=[w.event.slug, SetId(w.event.slug, 1, n).code, seat])
                                 + "?step=15", None) for n in _sets() for seat in ("E", "W")],
    "api-walls": lambda w: [("get", f"{_api(w)}/walls/", None)],
    "seating": lambda w: [("get", reverse("seating", args=[w.event.slug, 1]), None)],
    # the director's day (docs/director-guide.md): director pages probed with harmless or refused input
    "event-settings": lambda w: [("get", reverse("event-settings", args=[w.event.slug]), None)],
    "event-status": lambda w: [("post", reverse("event-status", args=[w.event.slug]), {"status": "probe"})],
    "event-delete": lambda w: [("get", reverse("event-delete", args=[w.event.slug]), None),
                               ("post", reverse("event-delete", args=[w.event.slug]), {"confirm_slug": "not-the-slug"})],
    "rooms": lambda w: [("get", reverse("rooms", args=[w.event.slug]), None)],
    "people": lambda w: [("get", reverse("people", args=[w.event.slug]), None)],
    "entrants": lambda w: [("get", reverse("entrants", args=[w.event.slug]), None)],
    "api-tokens": lambda w: [("get", reverse("api-tokens", args=[w.event.slug]), None),
                             ("post", reverse("api-tokens", args=[w.event.slug]), {"user": "probe", "days": "1"})],
    "api-token-revoke": lambda w: [("post", reverse("api-token-revoke", args=[w.event.slug, 999999]), {})],
    "team-edit": lambda w: [("get", reverse("team-edit", args=[w.event.slug, pk]), None)
                            for pk in w.event.teams.values_list("pk", flat=True)[:1]],
    "player-edit": lambda w: [("get", reverse("player-edit", args=[w.event.slug, pk]), None)
                              for pk in w.event.players.values_list("pk", flat=True)[:1]],
    "check-in": lambda w: [("get", reverse("check-in", args=[w.event.slug, n]), None) for n in (1, 2)],
    "check-in-board": lambda w: [("get", reverse("check-in-board", args=[w.event.slug, n]), None) for n in (1, 2)],
    # a player card's own check-in link (and a wrong one): the player's own seat at most, never a set
    "card-check-in": lambda w: [(method, reverse("card-check-in", args=[w.event.slug, p.number, token]), None)
                                for p in w.event.players.order_by("number")[:1]
                                for token in (card_token(p), "0" * 20) for method in ("get", "post")],
    "room-seating": lambda w: [("get", reverse("room-seating", args=[w.event.slug, 1]), None)],
    "substitute": lambda w: [("get", reverse("substitute", args=[w.event.slug, 1]), None)],
    "penalties": lambda w: [("get", reverse("penalties", args=[w.event.slug]), None)],
    "fixed-counters": lambda w: [("get", reverse("fixed-counters", args=[w.event.slug]), None)],
    "penalty-undo": lambda w: [("post", reverse("penalty-undo", args=[w.event.slug, 999999]), {})],
    "session-clock": lambda w: [("post", reverse("session-clock", args=[w.event.slug, 1]), {"action": "probe"})],
    "announcement": lambda w: [("post", reverse("announcement", args=[w.event.slug]), {"text": "probe"})],
    "projector": lambda w: [("get", reverse("projector", args=[w.event.slug]), None)],
    "projector-json": lambda w: [("get", reverse("projector-json", args=[w.event.slug]), None)],
    "find-seat": lambda w: [("get", reverse("find-seat", args=[w.event.slug]) + "?name=" + q, None) for q in ("a", "e", "Player")],
    "password_reset_confirm": lambda w: [("get", reverse("password_reset_confirm", args=["MQ", "probe-token"]), None)],
    "password_reset_complete": lambda w: [("get", reverse("password_reset_complete"), None)],
    "favicon": lambda w: [("get", "/favicon.ico", None)],
    # the venue's first-run page (404 once a director exists; a wrong setup code creates nothing) and its public certificate
    "first-director": lambda w: [("get", reverse("first-director"), None),
                                 ("post", reverse("first-director"), {"code": "probe", "username": "probe", "password1": "x",
                                                                      "password2": "x"})],
    "venue-certificate": lambda w: [("get", reverse("venue-certificate"), None)],
    "event-list": lambda w: [("get", "/api/events/", None), ("get", "/api/events.json", None)],
    "event-detail": lambda w: [("get", f"/api/events/{w.event.slug}/", None)],
    "result-list": lambda w: [("get", f"{_api(w)}/results/" + q, None)
                              for q in ("", "?session_number=1", "?status=confirmed", "?status=entered")],
    "result-detail": lambda w: [("get", f"{_api(w)}/results/{pk}/", None) for pk in _results(w)],
    "result-confirm": lambda w: [("post", f"{_api(w)}/results/{pk}/confirm/", {"pin": "0000"}) for pk in _results(w)],
    "result-correct": lambda w: [("post", f"{_api(w)}/results/{pk}/correct/", {"changes": {"E": 1, "S": -1, "W": 0, "N": 0},
                                                                               "reason": "probe"}) for pk in _results(w)[:1]],
    "result-dispute": lambda w: [("post", f"{_api(w)}/results/{pk}/dispute/", {"reason": "probe"}) for pk in _results(w)[:1]],
    "api-root": lambda w: [("get", "/api/", None)],
    "api-standings": lambda w: [("get", f"{_api(w)}/standings/" + q, None) for q in ("", "?all=1", "?session=1")],
    "schema": lambda w: [("get", "/api/schema/", None)],
    "api-docs": lambda w: [("get", "/api/docs/", None)],
}


def _walk(patterns, namespace=None):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _walk(pattern.url_patterns, pattern.namespace or namespace)
        elif isinstance(pattern, URLPattern):
            yield namespace, pattern.name, str(pattern.pattern)


def test_every_url_and_api_path_is_classified():
    """A page or endpoint added without a line in URLS fails here: classify it, then it is checked."""
    unclassified = sorted({f"{name} ({route})" for namespace, name, route in _walk(get_resolver().url_patterns)
                           if namespace != "admin" and name not in URLS})
    assert not unclassified, f"classify these in tests/test_integrity.py URLS: {unclassified}"
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    names = set()
    for path in schema["paths"]:
        concrete = re.sub(r"\{[^}]+\}", lambda m: "1" if m.group(0) in ("{id}", "{pk}") else "some-slug", path)
        names.add(resolve(concrete).url_name)
    assert names - set(URLS) == set()
    assert {"result-list", "result-confirm", "api-standings", "api-walls", "event-detail"} <= names


def _request(client, method, path, data):
    if method == "get":
        return client.get(path)
    if path.startswith("/api/"):
        return client.post(path, json.dumps(data), content_type="application/json")
    return client.post(path, data)


@pytest.mark.parametrize("role", [r for r in ROLES if r != "director"])
def test_no_response_leaks_a_set_still_in_play(world, role):
    """Every classified URL, as ``role``: no pile, score change, hand or total of a set that group
    2 is still playing; and no stored result changed by a refused write."""
    before = {r.pk: (r.status, r.changes, r.revision) for r in HandResult.objects.filter(event=world.event)}
    client = as_role(role, world)
    found, compressed = {}, 0
    for build in URLS.values():
        for method, path, data in build(world):
            response = _request(client, method, path, data)
            assert response.status_code < 500, (path, response.status_code)
            if problems := leaks(role, body_text(response), world):
                found[f"{method.upper()} {path}"] = problems
            if method == "get":  # again as a phone asks, accepting gzip: the compressed bytes kept beside the page
                packed = client.get(path, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
                if packed.get("Content-Encoding") == "gzip":
                    compressed += 1
                    assert body_text(packed) == body_text(response), f"{path}: the gzip copy is another page"
                if problems := leaks(role, body_text(packed), world):
                    found[f"GET {path} (gzip)"] = problems
    assert not found, f"{role} learns about sets still in play: {found}"
    assert compressed, "no answer came compressed: the gzip copies went unchecked"
    after = {r.pk: (r.status, r.changes, r.revision) for r in HandResult.objects.filter(event=world.event)}
    assert after == before


def test_the_director_sees_what_the_detectors_look_for(world):
    """The positive control: the same detectors find the walls, results and hand for the director."""
    client = as_role("director", world)
    wall = body_text(client.get(reverse("wall", args=[world.event.slug, 1, 1])))
    assert leaked_piles(wall, world.piles)
    export = body_text(client.get(reverse("event-export", args=[world.event.slug])))
    assert leaked_piles(export, world.piles) and leaked_numbers(export, world.markers) and HAND in export
    api = body_text(client.get(f"{_api(world)}/results/?session_number=1"))
    assert leaked_numbers(api, world.markers) and leaked_numbers(api, world.entry_markers)
    traveller = body_text(client.get(reverse("traveller", args=[world.event.slug, 1, 1])))
    assert leaked_numbers(traveller, world.markers)
    live = body_text(client.get(reverse("live", args=[world.event.slug])))
    assert "does not fit the wall" in live  # the made-up hand's wall flag
    assert '"wall_flag": {' in export
    everything = json.loads(client.get(f"{_api(world)}/standings/?all=1").content)
    assert sum(r["sets_played"] for r in everything) == 16 * 4


def test_a_table_sees_its_own_entry_and_nothing_else(world):
    client = as_role("other_table_scorer", world)
    login_as_table(client, world.group2_tables[0])
    page = body_text(client.get(reverse("table", args=[world.event.slug, world.group2_tables[0].pk])))
    assert leaked_numbers(page, world.entry_markers) and not leaked_numbers(page, world.markers)


def _standings_counts(role, w):
    """Sets counted by each standings surface, as ``role`` sees them."""
    client = as_role(role, w)
    out = {}
    for q in ("", "?all=1", "?session=1"):
        rows = json.loads(client.get(f"{_api(w)}/standings/{q}").content)
        out[f"api{q}"] = sum(r["sets_played"] for r in rows) + sum(abs(r["points"]) for r in rows)
        text = client.get(reverse("standings-csv", args=[w.event.slug]) + q).content.decode("utf-8")
        out[f"csv{q}"] = sum(int(r[4] or 0) + abs(int(r[2] or 0)) for r in list(csv.reader(io.StringIO(text)))[1:])
        from openpyxl import load_workbook

        book = load_workbook(io.BytesIO(client.get(reverse("standings-xlsx", args=[w.event.slug]) + q).content))
        out[f"xlsx{q}"] = sum(abs(row[2] or 0) + (row[4] or 0) for row in book.worksheets[0].iter_rows(min_row=2, values_only=True))
        page = client.get(reverse("standings", args=[w.event.slug]) + q).content.decode("utf-8")
        cells = re.findall(r'<td class="num">(-?\d+)</td><td class="num">-?\d+</td><td class="num">(\d+)</td>', page)
        out[f"page{q}"] = sum(abs(int(p)) + int(s) for p, s in cells)
    team = client.get(reverse("team", args=[w.event.slug, w.team1.number])).content.decode("utf-8")
    out["team page rows"] = team.count('class="set-row"')
    return out


@pytest.mark.parametrize("role", [r for r in ROLES if r != "director"])
def test_no_standings_count_a_set_still_in_play(world, role):
    counts = _standings_counts(role, world)
    assert counts == dict.fromkeys(counts, 0)


def test_the_directors_all_view_counts_scored_sets_and_the_public_view_does_not(world):
    counts = _standings_counts("director", world)
    assert counts["api"] == counts["csv"] == counts["xlsx"] == counts["page"] == 0
    assert counts["api?all=1"] > 0 and counts["csv?all=1"] > 0 and counts["xlsx?all=1"] > 0 and counts["page?all=1"] > 0


def test_admin_shows_no_secret_to_a_staff_viewer(world):
    """Every registered model's list and change pages, and a search, as a staff user who may view
    everything in the admin but holds no role in the event."""
    client = as_role("admin_viewer", world)
    found = {}
    for model in admin.site._registry:
        info = (model._meta.app_label, model._meta.model_name)
        pages = [reverse("admin:%s_%s_changelist" % info), reverse("admin:%s_%s_changelist" % info) + "?q=1"]
        pages += [reverse("admin:%s_%s_change" % info, args=[pk]) for pk in model.objects.values_list("pk", flat=True)[:40]]
        for path in pages:
            response = client.get(path)
            assert response.status_code < 500, path
            if problems := leaks("admin_viewer", body_text(response), world):
                found[path] = problems
            text = body_text(response)
            if world.event.master_seed in text:
                found[path] = ["the master seed"]
    assert not found, found


def test_a_release_makes_the_set_public_and_a_later_dispute_does_not_hide_it_again(world):
    """Group 2 finishes set 1: it is released, everyone sees it; the director then reopens a
    result of it: it stays public (docs/security.md)."""
    set_no = blocks(world.group2_tables[0])[0][1][0]
    assert set_no == world.entry2.set_no
    for table in world.group2_tables:
        result = HandResult.objects.filter(table=table, set_no=set_no).first()
        if result is None:
            result = HandResult.objects.create(event=world.event, table=table, session_number=1, set_no=set_no,
                                               changes={"E": 8, "S": -8, "W": 0, "N": 0}, entered_by="t")
        confirm_result(result, actor="director", director=True)
    assert visibility.released_sets(world.event) == {(1, set_no)}
    anonymous = Client()
    wall = anonymous.get(reverse("wall", args=[world.event.slug, 1, set_no]))
    assert wall.status_code == 200 and leaked_piles(body_text(wall), [p for p in world.piles if p[0] == set_no])
    rows = json.loads(anonymous.get(f"{_api(world)}/standings/").content)
    assert sum(r["sets_played"] for r in rows) == 8
    from scoring.actions.confirmation import dispute_result

    disputed = HandResult.objects.get(table=world.group1_tables[0], set_no=set_no)
    dispute_result(disputed, actor="director", reason="E says 32", director=True)
    assert visibility.is_public(world.event, 1, set_no)
    assert anonymous.get(reverse("wall", args=[world.event.slug, 1, set_no])).status_code == 200
    rows = json.loads(anonymous.get(f"{_api(world)}/standings/").content)
    assert sum(r["sets_played"] for r in rows) == 4  # group 1's comparison waits for the director
