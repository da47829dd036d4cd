"""Rebuilding a set by scan (docs/staff-guide.md, "Rebuilding a set by scan"): a staff phone
photographs a wall sticker (its QR code cropped out of the real sticker PDF,
``walls.printing.render_wall_stickers``, rendered with pypdfium2) with the sticker page's Scan
button and lands on that slot's page, which names the tile; the check walk shows the seat's rows.
A visitor, a table login and a player who open the same sticker's link see no tile (docs/security.md,
"Wall stickers"). The stickers' links name the event's venue address; the page opens them on the
server it was served from (no traffic goes to that address)."""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image

from factories import demo_roster, login_as_table_in_browser, prepared_event

from .conftest import PHONE, SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db]

VENUE = "http://192.168.7.20:8000/"  # printed into the codes; never contacted
SLUG = "rebuild-cup"
SCANNED = ("E", "D3")  # the sticker photographed: East's 3rd draw (upper row of the draw pile)


@dataclass(frozen=True)
class Rebuild:
    slug: str
    code: str  # the set's code, 1-03-x
    sticker: Path  # the photo of the scanned sticker
    path: str  # the sticker's page on this server: /W/<event number>/<code>/E-D3/
    tile: str  # the tile stored at that slot
    names: tuple[str, ...]  # its code, glyph and names in en/ja/zh
    staff: str
    player: str
    password: str
    table_code: str


def _sticker_photo(pdf: bytes, wanted: str) -> Image.Image:
    """The sticker whose QR code holds ``wanted``, cropped out of the rendered sticker PDF with a
    margin around it: what a phone's camera frames. AssertionError when no page holds it."""
    import zxingcpp

    from pdfcheck import render_pages

    for page in render_pages(pdf, scale=4):
        image = page.image.convert("L")
        for found in zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode):
            if found.text != wanted:
                continue
            p = found.position
            xs = [p.top_left.x, p.top_right.x, p.bottom_left.x, p.bottom_right.x]
            ys = [p.top_left.y, p.top_right.y, p.bottom_left.y, p.bottom_right.y]
            side = max(xs) - min(xs)
            return image.crop((max(0, min(xs) - 3 * side), max(0, min(ys) - side), max(xs) + side // 2, max(ys) + side // 2))
    raise AssertionError(f"no sticker of the PDF holds {wanted}")


@pytest.fixture(scope="module")
def rebuild(demo_site, browser, django_db_blocker, tmp_path_factory):
    from django.contrib.auth import get_user_model

    from tournament.models import Event, EventRole, Table
    from walls.printing import render_wall_stickers
    from walls.printing.data import sticker_set
    from walls.setcode import SetId
    from walls.tiles import tile_glyph, tile_name

    folder = tmp_path_factory.mktemp("stickers")
    password = secrets.token_urlsafe(12)
    with django_db_blocker.unblock():
        event = prepared_event(demo_roster(4), name="Rebuild Cup", slug=SLUG, sessions=1, base_url=VENUE)
        users = get_user_model().objects
        staff = users.create_user("rebuild-staff", password=password)
        EventRole.objects.create(event=event, user=staff, role=EventRole.Role.STAFF)
        player_user = users.create_user("rebuild-player", password=password)
        table = Table.objects.filter(group__session__event=event).order_by("number").first()
        player = table.seats.select_related("player").get(seat="S").player
        player.user = player_user
        player.save(update_fields=["user"])
        set_id = SetId(event.slug, 1, 3)
        seat, label = SCANNED
        url = set_id.slot_url(VENUE, seat, label, str(event.pk))  # the short upper-case link a sticker prints
        pdf = render_wall_stickers([sticker_set(set_id, event.name, event.get_ruleset(), VENUE.rstrip("/"), str(event.pk))],
                                   "a4-24")
        photo = folder / "sticker.png"
        _sticker_photo(pdf, url).save(photo)
        tile = event.wall_sets.get(session_number=1, set_no=3).piles[f"{seat}-draw"][int(label[1:]) - 1]
        values = Rebuild(slug=event.slug, code=set_id.code, sticker=photo, path=f"/W/{event.pk}/{set_id.code}/{seat}-{label}/",
                         tile=tile, names=(tile, tile_glyph(tile), *{tile_name(tile, lang) for lang in ("en", "ja", "zh")}),
                         staff=staff.username, player=player_user.username, password=password, table_code=table.login_code)
    yield values
    with django_db_blocker.unblock():
        Event.objects.filter(slug=SLUG).delete()
        get_user_model().objects.filter(username__in=[values.staff, values.player]).delete()


def _log_in(page, demo_site, username, password):
    page.goto(demo_site.page("/accounts/login/"))
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    with page.expect_navigation():
        page.click("main button[type=submit]")
    assert page.locator("header form[action$='/logout/']").count() == 1, f"{username} could not log in"


def _scan_ready(page):
    page.wait_for_selector("#scan-camera:not([hidden])")  # the decoder loaded: the button shows


def test_a_staff_phone_scans_a_sticker_and_sees_the_tile_of_its_slot(new_page, demo_site, rebuild):
    from walls.tiles import tile_name

    page = new_page(viewport=PHONE)
    _log_in(page, demo_site, rebuild.staff, rebuild.password)
    page.goto(demo_site.page(f"/w/{rebuild.slug}/{rebuild.code}/E-H1/"))  # the sticker before, as a rebuild goes
    _scan_ready(page)
    with page.expect_navigation(url=demo_site.page(rebuild.path)):
        page.set_input_files("#scan-photo", str(rebuild.sticker))
    card = page.locator("#slot-tile").inner_text()
    assert tile_name(rebuild.tile, "en") in card and rebuild.tile in card
    assert "Draw pile, upper row, tile 2 from the left" in page.locator("#slot-where").inner_text()
    assert page.locator("#slot-row li.here").inner_text() == "D3"
    page.screenshot(path=str(SCREENSHOTS / "rebuild-slot.png"), full_page=True)

    with page.expect_navigation():
        page.click("#check-seat")
    assert page.url.endswith("?step=26")  # E: 13 in hand, 11 in the lower row, then D1 and D3
    assert "26 of 34" in page.locator("#walk-progress").inner_text()
    assert tile_name(rebuild.tile, "en") in page.locator("#slot-tile").inner_text()
    page.screenshot(path=str(SCREENSHOTS / "rebuild-check.png"), full_page=True)

    _scan_ready(page)  # scanned from the check walk: the slot page links back to its step
    with page.expect_navigation(url=demo_site.page(rebuild.path + "?check=1")):
        page.set_input_files("#scan-photo", str(rebuild.sticker))
    assert page.locator("#back-to-check").get_attribute("href").endswith("/E/check/?step=26")


def _shows_no_tile(page, rebuild) -> None:
    text = page.locator("main").inner_text()
    assert "where each tile goes is shown to staff only" in text
    for name in rebuild.names:
        assert not re.search(rf"(?<![0-9A-Za-z]){re.escape(name)}(?![0-9A-Za-z])", text), (name, text)
    assert page.locator(".tile-face, #slot-row, #scan-box").count() == 0


def test_a_visitor_a_table_and_a_player_see_no_tile_on_the_stickers_page(new_page, demo_site, rebuild):
    visitor = new_page(viewport=PHONE)
    visitor.goto(demo_site.page(rebuild.path.rstrip("/")))  # the printed link has no trailing slash: served as it is
    assert visitor.url == demo_site.page(rebuild.path.rstrip("/"))
    _shows_no_tile(visitor, rebuild)

    table = new_page(viewport=PHONE)
    login_as_table_in_browser(table, demo_site.page(f"/e/{rebuild.slug}/entry/login/{rebuild.table_code}"))
    table.goto(demo_site.page(rebuild.path))
    _shows_no_tile(table, rebuild)

    player = new_page(viewport=PHONE)
    _log_in(player, demo_site, rebuild.player, rebuild.password)
    player.goto(demo_site.page(rebuild.path))
    _shows_no_tile(player, rebuild)
    assert player.goto(demo_site.page(f"/w/{rebuild.slug}/{rebuild.code}/E/check/")).status == 403


def test_the_sticker_scanner_refuses_another_events_sticker_and_other_codes(new_page, demo_site, rebuild, tmp_path):
    import qrcode

    from walls.setcode import SetId

    page = new_page(viewport=PHONE)
    _log_in(page, demo_site, rebuild.staff, rebuild.password)
    page.goto(demo_site.page(rebuild.path))
    _scan_ready(page)
    other = tmp_path / "other-event.png"
    qrcode.make(SetId("another-cup", 1, 3).slot_url(VENUE, "E", "D3")).save(other)
    page.set_input_files("#scan-photo", str(other))
    page.wait_for_function("document.getElementById('scan-status').textContent.includes('of another event')")
    label = tmp_path / "set-label.png"
    qrcode.make(SetId(rebuild.slug, 1, 3).url(VENUE)).save(label)  # a set label, not a sticker
    page.set_input_files("#scan-photo", str(label))
    page.wait_for_function("document.getElementById('scan-status').textContent.includes('not a wall sticker')")
    assert page.url == demo_site.page(rebuild.path)
