"""A hall's phones after the director changes the standings (a penalty), with the production
setting of a visitor's page rebuilt at most once a minute (``PUBLIC_PAGE_STALE_SECONDS`` 60): the
director sees the new points at once; a phone that reloads within the minute is shown the page as
it was built, told on the page that it is updated within a minute of each change, and answered with
the page's age."""

import re

import pytest

from .conftest import PHONE
from .test_director_day import click_and_wait, points_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db]


def test_a_phone_sees_a_penalty_within_a_minute_and_the_director_at_once(new_page, director_page, demo_site, settings,
                                                                          tmp_path):
    settings.PUBLIC_PAGE_STALE_SECONDS = 60
    team = demo_site.teams[0]
    standings = demo_site.page(f"/e/{demo_site.slug}/standings/")
    phone = new_page(PHONE)
    phone.goto(standings)
    before = points_of(phone, team)
    assert "is updated within a minute of each change" in phone.locator("#standings-scope").inner_text()

    page = director_page
    page.goto(demo_site.page(f"/e/{demo_site.slug}/director/penalties/"))
    entrant = page.locator("select[name=entrant]")
    option = entrant.locator("option").filter(has_text=re.compile(rf"^\s*(\d+\.\s*)?{re.escape(team)}\s*$"))
    entrant.select_option(option.get_attribute("value"))
    page.fill("input[name=amount]", "-10")
    page.locator("select[name=unit]").select_option("mp")
    page.locator("select[name=session]").select_option(label="Whole event")
    page.fill("input[name=reason]", "Slow play (stale page walk)")
    click_and_wait(page, page.get_by_role("button", name="Apply"))
    page.goto(standings)
    assert points_of(page, team) == before - 10, "the director does not see the penalty at once"

    answer = phone.reload()
    assert points_of(phone, team) == before, "a phone within the minute is shown the page as it was built"
    assert answer.all_headers().get("age") is not None
    phone.screenshot(path=str(tmp_path / "phone-within-the-minute.png"), full_page=True)
    page.screenshot(path=str(tmp_path / "director-at-once.png"), full_page=True)

    settings.PUBLIC_PAGE_STALE_SECONDS = 0  # the minute has passed
    phone.reload()
    assert points_of(phone, team) == before - 10

    # the demo event is shared by the package's tests: the penalty is undone as the director does
    page.goto(demo_site.page(f"/e/{demo_site.slug}/director/penalties/"))
    row = page.locator("table#adjustments tbody tr").filter(has_text="Slow play (stale page walk)")
    click_and_wait(page, row.get_by_role("button", name="Undo"))
    page.goto(standings)
    assert points_of(page, team) == before
