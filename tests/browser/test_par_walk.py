"""Par walked as a player meets it after a session (docs/scoring.md, "Par: what each seat could
have made"): on the demo event, whose first session is played and confirmed everywhere, a player
on a phone opens a set's traveller and sees under every table's score each seat's par, and beside
the hand record each seat's par and best hand; opens their own player page and reads each result
against par; and downloads the session's hand records, one page per set, with the same par.
Screenshots go to docs/screenshots (traveller-par.png, player-par.png) for the guides."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE, in_own_connection

pytestmark = [pytest.mark.browser, pytest.mark.django_db]

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def par_of_set_one(slug):
    from scoring import par as par_core
    from tournament.models import Event

    event = Event.objects.get(slug=slug)
    wall = event.wall_sets.get(session_number=1, set_no=1)
    return par_core.set_par(event.get_ruleset(), wall.piles, prevalent_wind="E").as_dict()


def a_player_of_set_one(slug):
    from scoring.models import HandResult
    from tournament.models import Event, SeatAssignment

    event = Event.objects.get(slug=slug)
    result = HandResult.objects.filter(event=event, session_number=1, set_no=1).order_by("table__number").first()
    seat = SeatAssignment.objects.select_related("player").get(table=result.table, seat="E")
    return seat.player.number, seat.player.name, result.changes["E"]


def test_a_player_reads_par_on_the_traveller_their_page_and_the_printed_hand_records(new_page, demo_site):
    expected = in_own_connection(par_of_set_one, demo_site.slug)
    number, name, change = in_own_connection(a_player_of_set_one, demo_site.slug)
    east = expected["seats"][0]
    assert east["seat"] == "E" and east["par"] is not None

    phone = new_page(PHONE)
    phone.goto(demo_site.page(f"/e/{demo_site.slug}/travellers/1/1/"))
    par_row = phone.locator("tr.par-row").first  # one under each group's tables
    expect(par_row).to_be_visible()
    expect(par_row.locator("td").first).to_contain_text(f"{east['par']['score']:+d}")
    expect(par_row.locator("td").first).to_contain_text(f"D{east['par']['draw']}")
    section = phone.locator("#par")
    expect(section.locator("#par-E")).to_contain_text(f"D{east['par']['draw']}")
    expect(section.locator("#par-E")).to_contain_text(f"{east['par']['value']} fan")
    section.screenshot(path=str(SCREENSHOTS / "traveller-par.png"))

    desktop = new_page(DESKTOP)
    desktop.goto(demo_site.page(f"/e/{demo_site.slug}/players/{number}/"))
    expect(desktop.locator("h1")).to_contain_text(name)
    first = desktop.locator("#sets tr.set-row").first
    expect(first).to_contain_text(f"{change:+d}")
    expect(first.locator("td.par")).to_contain_text(f"{east['par']['score']:+d}")
    expect(first).to_contain_text(f"{change - east['par']['score']:+d}")
    desktop.locator("#sets").screenshot(path=str(SCREENSHOTS / "player-par.png"))

    desktop.goto(demo_site.page(f"/e/{demo_site.slug}/travellers/"))
    with desktop.expect_download() as download:
        desktop.locator("a.hand-records").first.click()
    pdf = pdfium.PdfDocument(io.BytesIO(Path(download.value.path()).read_bytes()))
    assert len(pdf) == 16
    text = pdf[0].get_textpage().get_text_range()
    assert "Hand record" in text and re.search(r"1-01-\d", text)
    assert f"D{east['par']['draw']} {east['par']['value']} fan {east['par']['score']:+d}" in text
    pdf[0].render(scale=1.2).to_pil().save(str(SCREENSHOTS / "hand-records-page.png"))
