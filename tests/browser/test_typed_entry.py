"""Result entry at the table on a phone for rule sets whose scores are typed (riichi, the
three-player Shiragiku): the scorer logs in with the table's code, sees one score-change field per
seat (there is no outcome to choose), says who is entering with that player's PIN, types the
changes and saves; a wrong sum is refused naming the fix, with the fields still on screen.

Each test builds its own individual event on the package's live server and removes it.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from factories import individual_roster, login_as_table_in_browser, prepared_event, say_who_is_entering
from tests.browser.conftest import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db]


@pytest.fixture(scope="module", params=["riichi-duplicate", "shiragiku-3p"])
def typed_table(demo_site, django_db_blocker, request):
    """``(login code, table page path, {seat: PIN}, first set, seats)`` of table 1 of a new
    individual event of the rule set ``request.param``, built outside the tests' transactions so
    the live server sees it."""
    from tournament.models import Event
    from tournament.services import table_schedule

    ruleset_code = request.param
    with django_db_blocker.unblock():
        from walls.rulesets import get_ruleset

        seats = get_ruleset(ruleset_code).seats
        event = prepared_event(individual_roster(len(seats) ** 2), name=f"Typed {ruleset_code}",
                               slug=f"typed-{ruleset_code}", ruleset_code=ruleset_code, method="individual")
        table = event.sessions.get(number=1).groups.first().tables.order_by("position").first()
        pins = {s.seat: s.player.pin for s in table.seats.select_related("player")}
        values = (table.login_code, f"/e/{event.slug}/table/{table.pk}/", pins, table_schedule(table)[0][1][0], seats)
    yield values
    with django_db_blocker.unblock():
        Event.objects.filter(pk=event.pk).delete()


def test_a_phone_types_the_score_changes_of_a_typed_rule_set(browser, demo_site, typed_table, tmp_path_factory):
    code, path, pins, set_no, seats = typed_table
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        login_as_table_in_browser(page, demo_site.page("/entry/login/"), code)
        assert page.url == demo_site.page(path)
        for seat in seats:  # what the scorer must see: a field per seat, no outcome choice
            expect(page.locator(f"#seat_{seat}")).to_be_visible()
        assert page.locator("input[type=radio][name=mode]").count() == 0

        say_who_is_entering(page, seats[0], pins[seats[0]])
        page.select_option("#set_no", str(set_no))
        wrong = {seat: 1000 for seat in seats}
        for seat, change in wrong.items():
            page.fill(f"#seat_{seat}", str(change))
        page.get_by_role("button", name="Save").click()
        expect(page.locator(".errorlist").first).to_be_visible()
        expect(page.locator(f"#seat_{seats[0]}")).to_be_visible()  # the fields to fix stay on screen
        page.screenshot(path=str(tmp_path_factory.mktemp("typed") / f"typed-{len(seats)}p-refused.png"), full_page=True)

        say_who_is_entering(page, seats[0], pins[seats[0]])
        page.select_option("#set_no", str(set_no))
        changes = [8000, -8000] + [0] * (len(seats) - 2)  # East wins 8,000 off South's discard
        for seat, change in zip(seats, changes):
            page.fill(f"#seat_{seat}", str(change))
        page.get_by_role("button", name="Save").click()
        expect(page.get_by_text("Saved set %d." % set_no)).to_be_visible()
        expect(page.get_by_text("E 8000, S -8000").first).to_be_visible()  # waiting for another seat's PIN
        page.screenshot(path=str(tmp_path_factory.mktemp("typed") / f"typed-{len(seats)}p-saved.png"), full_page=True)
    finally:
        context.close()
