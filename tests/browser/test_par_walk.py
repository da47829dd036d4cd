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

from tests.browser.conftest import DESKTOP, PHONE, in_own_connection, once_unlocked

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


def riichi_cup_released(director_name: str) -> tuple[str, int]:
    """A riichi-duplicate event (4 teams of 4) whose set 1 gives East a double yakuman (four
    concealed pungs and a single 5z, the second 5z at D2), played at every table (draws entered
    and confirmed by the director's services), so it is released: ``(slug, event id)``."""
    from django.contrib.auth import get_user_model

    from factories import play_up_to, prepared_event
    from scoring.actions.confirmation import confirm_result
    from scoring.actions.entry import submit_result
    from scoring.visibility import is_public
    from test_par import full_wall, tiles
    from tournament.models import Table
    from walls.models import WallSet

    roster = "team,player\n" + "".join(f"Team {t},{t}{m}\n" for t in "ABCD" for m in range(4))
    director = get_user_model().objects.get(username=director_name)
    event = prepared_event(roster, name="Riichi par walk", slug="riichi-par-walk", ruleset_code="riichi-duplicate",
                           director=director)
    wall = WallSet.objects.get(event=event, session_number=1, set_no=1)
    wall.piles = full_wall(event.get_ruleset(), {"E-hand": tiles("111m 222p 333s 444m 5z"), "E-draw": tiles("9s 5z")})
    wall.par = None
    wall.save(update_fields=["piles", "par"])
    tables = list(Table.objects.filter(group__session__event=event).select_related("group__session__event"))

    def enter(table, set_no):
        confirm_result(submit_result(table, set_no, outcome={"kind": "draw"}, actor="director"), actor="director", director=True)

    play_up_to(tables, 1, enter)
    assert is_public(event, 1, 1)
    return event.slug, event.pk


def remove_event(event_id: int) -> None:
    from tournament.models import Event

    Event.objects.filter(pk=event_id).delete()


def test_a_player_reads_a_riichi_par_in_japanese_double_yakuman_and_no_luck(new_page, demo_site):
    """Riichi duplicate on a phone in Japanese: par says what it means, leaves out ippatsu and
    ura-dora and says so, and names East's Suu Ankou Tanki a double yakuman paid +96000, never
    26 han."""
    slug, event_id = in_own_connection(riichi_cup_released, demo_site.director)
    try:
        phone = new_page(PHONE)
        phone.context.add_cookies([{"name": "django_language", "value": "ja", "url": demo_site.page("/")}])
        phone.goto(demo_site.page(f"/e/{slug}/travellers/1/1/"))
        section = phone.locator("#par")
        expect(section).to_contain_text("パー：その席が自分の牌を知ったうえで、鳴かずに単独で達成できる最も早いツモ和了。")
        expect(section).to_contain_text("一発と裏ドラは誰にも当てにできないため数えません")
        east = section.locator("#par-E")
        expect(east).to_contain_text("ダブル役満")
        expect(east).to_contain_text("+96000")
        assert "26" not in east.inner_text().replace("+96000", "")
        section.screenshot(path=str(SCREENSHOTS / "traveller-par-riichi-ja.png"))
    finally:
        once_unlocked(remove_event, event_id)
