"""A result checked against the wall at the table (Debian's Chromium, phone 390×844): the table
enters a self-draw whose winning tile (tapped in the winning-tile picker) is not among the
winner's draws; the phone refuses it, says why next to the hand and asks again; the table
insists ("Store it anyway, flagged for the director"), so it is stored flagged; the director
opens the set's traveller and sees the table in "Entries that do not fit the wall".

Runs on its own event ("Wall Cup", built and removed by this module, written outside the test's
transaction) on the package's live server. Screenshots: docs/screenshots/wall-check-phone.png
and docs/screenshots/wall-check-director.png.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from playwright.sync_api import expect

from factories import console_error, demo_roster, enter_outcome, login_as_table_in_browser, prepared_event, say_who_is_entering
from tests.browser.conftest import PHONE, SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db]


@dataclass(frozen=True)
class Cup:
    """Plain values of the module's event (no ORM in the browser steps)."""

    slug: str
    table_id: int
    table_number: int
    code: str
    set_no: int
    pin_e: str
    tile: str


@pytest.fixture(scope="module")
def cup(demo_site, browser, django_db_blocker):
    from django.contrib.auth import get_user_model

    from factories import first_set
    from scoring.wall_check import KINDS, kind_of
    from tournament.models import Event
    from walls.models import WallSet

    with django_db_blocker.unblock():
        director = get_user_model().objects.get(username=demo_site.director)
        event = prepared_event(demo_roster(), name="Wall Cup", slug="wall-cup", sessions=1, director=director)
        group = event.sessions.get(number=1).groups.order_by("number").first()
        table = group.tables.select_related("group__session__event").order_by("position").first()
        set_no = first_set(table)
        piles = WallSet.objects.get(event=event, session_number=1, set_no=set_no).piles
        drawn = {kind_of(t) for t in piles["E-draw"]}
        tile = next(k for k in KINDS if k not in drawn)
        values = Cup(slug=event.slug, table_id=table.pk, table_number=table.number, code=table.login_code, set_no=set_no,
                     pin_e=table.seats.select_related("player").get(seat="E").player.pin, tile=tile)
    yield values
    with django_db_blocker.unblock():
        Event.objects.filter(pk=event.pk).delete()


def test_a_self_draw_not_in_the_winners_pile_is_asked_again_then_stored_flagged_for_the_director(
        browser, demo_site, cup, director_page):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    page = context.new_page()
    problems = []
    page.on("console", lambda message: problems.append(message.text) if console_error(message) else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    login_as_table_in_browser(page, demo_site.page("/entry/login/"), cup.code)
    assert page.url == demo_site.page(f"/e/{cup.slug}/table/{cup.table_id}/")

    picker = page.locator("#winning-tile-field")
    expect(picker).to_be_hidden()  # shown only once someone won
    enter_outcome(page, set_no=cup.set_no, kind="self_draw", winners=("E",), values={"E": 8})
    expect(picker).to_be_visible()
    tile = page.locator(f"label[for=wt-{cup.tile}]")
    expect(tile).to_be_hidden()  # folded, so Save stays on the first screen
    picker.locator("summary").click()
    tile.click()
    expect(page.locator(f"#wt-{cup.tile}")).to_be_checked()
    tile.click()  # a second tap clears it
    expect(page.locator(f"#wt-{cup.tile}")).not_to_be_checked()
    tile.click()
    say_who_is_entering(page, "E", cup.pin_e)
    with page.expect_navigation():
        page.click("#save")

    # Refused: nothing stored, the message next to the hand, the phone asks again.
    expect(page.locator("#pending form")).to_have_count(0)
    expect(page.locator("#err-winning_tile")).to_contain_text(f"the winning tile {cup.tile} is not among East's draws (D1-D21)")
    expect(page.locator("#wall-mismatch")).to_contain_text("This does not fit the wall you played.")
    expect(page.locator(f"#wt-{cup.tile}")).to_be_checked()  # the entry stays as typed
    insist = page.get_by_role("button", name="Store it anyway, flagged for the director")
    expect(insist).to_be_visible()
    page.locator("#winning-tile-field").evaluate("el => el.scrollIntoView({block: 'start'})")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "wall-check-phone.png"))

    say_who_is_entering(page, "E", cup.pin_e)  # the PIN is typed again: it is never sent back into the page
    with page.expect_navigation():
        insist.click()
    card = page.locator("#pending form")
    expect(card).to_have_count(1)
    expect(card.locator(".flag")).to_contain_text("does not fit the wall")

    director_page.goto(demo_site.page(f"/e/{cup.slug}/travellers/1/{cup.set_no}/"))
    box = director_page.locator("#wall-flags")
    expect(box).to_contain_text("Entries that do not fit the wall")
    expect(box).to_contain_text(f"Table {cup.table_number}")
    expect(box).to_contain_text(f"the winning tile {cup.tile} is not among East's draws")
    expect(box).to_contain_text("Law 87")
    box.scroll_into_view_if_needed()
    director_page.screenshot(path=str(SCREENSHOTS / "wall-check-director.png"))
    assert not problems, problems
    context.close()
