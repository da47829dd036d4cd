"""Result entry at the table on a phone for rule sets whose scores are typed (a custom rule set
with the ``typed`` payment rule, four and three seats): the scorer logs in with the table's code,
sees one score box per seat, visible and usable (there is no outcome to choose), says who is
entering with that player's PIN, types the changes — a minus from the ± button, as an iPhone
number pad has none, or the Unicode minus "−" — and saves; a wrong sum is refused naming the fix,
with the boxes still on screen. A rule set that computes its scores keeps typed changes as an
adjustment, its boxes shown once that mode is chosen.

Each test builds its own individual event on the package's live server and removes it; any
console error on the table page fails the test.
"""

from __future__ import annotations

import dataclasses

import pytest
from playwright.sync_api import expect

from factories import (
    console_error, individual_roster, login_as_table_in_browser, prepared_event, save_entry, say_who_is_entering,
)
from tests.browser.conftest import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db]


def _table_values(event):
    from factories import blocks

    table = event.sessions.get(number=1).groups.first().tables.order_by("position").first()
    pins = {s.seat: s.player.pin for s in table.seats.select_related("player")}
    return table.login_code, f"/e/{event.slug}/table/{table.pk}/", pins, blocks(table)[0][1][0]


@pytest.fixture(scope="module", params=["riichi-duplicate", "shiragiku-3p"])
def typed_table(demo_site, django_db_blocker, request):
    """``(login code, table page path, {seat: PIN}, first set, seats)`` of table 1 of a new
    individual event whose rule set is the preset ``request.param`` with its payment rule set to
    ``typed`` (a custom rule set), built outside the tests' transactions so the live server sees it."""
    from tournament.models import Event
    from walls.rulesets import get_ruleset

    with django_db_blocker.unblock():
        ruleset = dataclasses.replace(get_ruleset(request.param), code=f"{request.param}-typed", payment_rule="typed")
        event = prepared_event(individual_roster(len(ruleset.seats) ** 2), name=f"Typed {request.param}",
                               slug=f"typed-{request.param}", ruleset=ruleset, method="individual")
        values = (*_table_values(event), ruleset.seats)
    yield values
    with django_db_blocker.unblock():
        Event.objects.filter(pk=event.pk).delete()


def phone_page(browser):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    problems = []
    page.on("console", lambda message: problems.append(message.text) if console_error(message) else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    return context, page, problems


def test_a_phone_types_the_score_changes_of_a_typed_rule_set(browser, demo_site, typed_table, tmp_path_factory):
    code, path, pins, set_no, seats = typed_table
    context, page, problems = phone_page(browser)
    try:
        login_as_table_in_browser(page, demo_site.page("/entry/login/"), code)
        assert page.url == demo_site.page(path)
        for seat in seats:  # what the scorer must see: a box per seat with its ± button, no outcome choice
            expect(page.locator(f"#seat_{seat}")).to_be_visible()
            expect(page.locator(f"button.sign[data-for=seat_{seat}]")).to_be_visible()
        assert page.locator("input[type=radio][name=mode]").count() == 0
        assert page.locator("input[name=kind]").count() == 0
        save = page.locator("#save").bounding_box()
        assert save["y"] + save["height"] <= PHONE["height"], "Save must be on the first screen"

        say_who_is_entering(page, seats[0], pins[seats[0]])
        page.select_option("#set_no", str(set_no))
        for seat in seats:
            page.fill(f"#seat_{seat}", "1000")
        save_entry(page)
        expect(page.locator("#entry-errors")).to_contain_text("must sum to 0")
        expect(page.locator(f"#seat_{seats[0]}")).to_be_visible()  # the boxes to fix stay on screen
        page.screenshot(path=str(tmp_path_factory.mktemp("typed") / f"typed-{len(seats)}p-refused.png"), full_page=True)

        # East wins 8,000 off South's discard: South's minus from the ± button, a zero typed "−0".
        say_who_is_entering(page, seats[0], pins[seats[0]])
        page.select_option("#set_no", str(set_no))
        page.fill(f"#seat_{seats[0]}", "8000")
        page.fill(f"#seat_{seats[1]}", "8000")
        page.click(f"button.sign[data-for=seat_{seats[1]}]")
        expect(page.locator(f"#seat_{seats[1]}")).to_have_value("-8000")
        for seat in seats[2:]:
            page.fill(f"#seat_{seat}", "\u22120")
        save_entry(page)
        expect(page.locator(".messages")).to_contain_text(f"Saved set {set_no}: Score changes: E +8000, S -8000")
        card = page.locator("#pending form")
        expect(card.locator("p.outcome-words")).to_contain_text("E +8000, S -8000")  # waiting for another seat's PIN
        page.screenshot(path=str(tmp_path_factory.mktemp("typed") / f"typed-{len(seats)}p-saved.png"), full_page=True)
        assert problems == [], problems
    finally:
        context.close()


@pytest.fixture(scope="module")
def computed_table(demo_site, django_db_blocker):
    """Table 1 of a new individual event of the riichi duplicate preset (scores computed)."""
    from tournament.models import Event

    with django_db_blocker.unblock():
        event = prepared_event(individual_roster(16), name="Adjusted riichi", slug="adjusted-riichi",
                               ruleset_code="riichi-duplicate", method="individual")
        values = _table_values(event)
    yield values
    with django_db_blocker.unblock():
        Event.objects.filter(pk=event.pk).delete()


def test_a_computed_rule_set_types_an_adjustment_with_the_boxes_shown(browser, demo_site, computed_table):
    code, path, pins, set_no = computed_table
    context, page, problems = phone_page(browser)
    try:
        login_as_table_in_browser(page, demo_site.page("/entry/login/"), code)
        expect(page.locator("#mode-outcome")).to_be_checked()
        expect(page.locator("#seat_E")).to_be_hidden()
        page.click("label[for=mode-changes]")
        for seat in "ESWN":
            expect(page.locator(f"#seat_{seat}")).to_be_visible()
        expect(page.locator("label[for=kind-discard]")).to_be_hidden()
        say_who_is_entering(page, "S", pins["S"])
        page.select_option("#set_no", str(set_no))
        # A chombo settled by the director: North pays 8,000, 4,000 to the dealer and 2,000 to each other seat.
        for seat, change in {"E": "4000", "S": "2000", "W": "2000", "N": "8000"}.items():
            page.fill(f"#seat_{seat}", change)
        page.click("button.sign[data-for=seat_N]")
        save_entry(page)
        expect(page.locator("#pending form p.outcome-words")).to_contain_text("E +4000, S +2000, W +2000, N -8000")
        assert problems == [], problems
    finally:
        context.close()
