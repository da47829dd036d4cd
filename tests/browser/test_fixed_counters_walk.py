"""Honba and riichi sticks fixed per set, walked (docs/scoring.md, "Fixed honba and riichi
sticks"): the director of a riichi duplicate event fixes one honba on set 2 on the "Honba and
sticks" page; the table's phone then shows set 2's fixed counters instead of a honba box, and a
self-draw entered there is paid its honba, as at every other table of the set."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from factories import enter_outcome, login_as_table_in_browser, save_entry, say_who_is_entering, team_roster
from tests.browser.conftest import PHONE, SCREENSHOTS, in_own_connection, once_unlocked

pytestmark = [pytest.mark.browser, pytest.mark.django_db]


def riichi_event(director_name):
    from django.contrib.auth import get_user_model

    from factories import prepared_event

    director = get_user_model().objects.get(username=director_name)
    event = prepared_event(team_roster(4, 4), name="Honba Cup", slug="honba-cup", sessions=1, ruleset_code="riichi-duplicate",
                           director=director)
    table = event.sessions.get(number=1).groups.get(number=1).tables.order_by("position").first()
    seats = {s.seat: s.player.pin for s in table.seats.select_related("player")}
    return event.slug, table.login_code, seats


def stored(slug):
    from scoring.models import HandResult

    result = HandResult.objects.filter(event__slug=slug, set_no=2).first()
    return (result.changes, result.outcome.get("honba")) if result else None


def delete(slug):
    from tournament.models import Event

    Event.objects.filter(slug=slug).delete()


def test_the_director_fixes_a_honba_and_the_table_is_paid_it(director_page, new_page, demo_site):
    slug, code, pins = in_own_connection(riichi_event, demo_site.director)
    try:
        page = director_page
        page.goto(demo_site.page(f"/e/{slug}/director/counters/"))
        expect(page.locator("h1")).to_contain_text("Honba and sticks")
        page.fill("#honba-1-2", "1")
        with page.expect_navigation():
            page.locator("#counters-form").get_by_role("button", name="Save").click()
        expect(page.locator(".messages")).to_contain_text("Saved")
        expect(page.locator("#honba-1-2")).to_have_value("1")
        page.locator("#counters").screenshot(path=str(SCREENSHOTS / "fixed-counters.png"))

        phone = new_page(PHONE)
        login_as_table_in_browser(phone, demo_site.page(f"/e/{slug}/entry/login/{code}"))
        expect(phone.locator("#honba")).to_have_count(0)  # nobody types them at the table
        phone.select_option("#set_no", "2")
        expect(phone.locator("#fixed-counters")).to_have_text("Fixed for set 1-2: Honba 1 · riichi sticks 0")
        phone.select_option("#set_no", "1")
        expect(phone.locator("#fixed-counters")).to_have_text("Fixed for set 1-1: Honba 0 · riichi sticks 0")
        # S self-draws a mangan on set 2: 2,000 from each non-dealer and 4,000 from the dealer,
        # plus 100 from each payer for the honba fixed for the set.
        enter_outcome(phone, set_no=2, kind="self_draw", winners=("S",), values={"S": 5})
        say_who_is_entering(phone, "S", pins["S"])
        save_entry(phone)
        changes, honba = in_own_connection(stored, slug)
        assert honba == 1
        assert changes == {"E": -4100, "S": 8300, "W": -2100, "N": -2100}
    finally:
        once_unlocked(delete, slug)
