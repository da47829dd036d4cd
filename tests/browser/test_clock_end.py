"""The end of the session's time, as the room sees it: the table's phone counts down to its own
end (the session's clock and the table's extra time) and then says "Time is up" (an alert, with a
buzz and a tone where the browser allows), and the projector says it over the clock."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from factories import demo_roster, login_as_table_in_browser, prepared_event

from .conftest import PHONE, SCREENSHOTS, in_own_connection

pytestmark = [pytest.mark.browser, pytest.mark.django_db]


@pytest.fixture(scope="module")
def clock_cup(demo_site, browser, django_db_blocker):
    from tournament.models import Event, Table

    with django_db_blocker.unblock():
        event = prepared_event(demo_roster(4), name="Clock Cup", slug="clock-cup", sessions=1,
                               base_url="http://192.168.7.20:8000/")
        event.status = Event.Status.PUBLISHED
        event.save(update_fields=["status"])
        table = Table.objects.filter(group__session__event=event).order_by("number").first()
        values = {"slug": event.slug, "table_id": table.pk, "code": table.login_code, "session_id": table.group.session_id}
    yield values
    with django_db_blocker.unblock():
        Event.objects.filter(slug="clock-cup").delete()


def _run_clock(session_id: int, seconds: int) -> None:
    """Start the session's clock with ``seconds`` left, on a connection of its own
    (:func:`tests.browser.conftest.in_own_connection`)."""
    from django.utils import timezone

    from tournament.models import Session

    in_own_connection(lambda: Session.objects.filter(pk=session_id).update(
        clock_duration=seconds, clock_extra=0, clock_elapsed=0, clock_started_at=timezone.now()))


def test_the_table_phone_and_the_projector_say_when_the_time_is_up(browser, demo_site, clock_cup):
    context = browser.new_context(viewport=PHONE)
    try:
        phone = context.new_page()
        login_as_table_in_browser(phone, demo_site.page(f"/e/{clock_cup['slug']}/entry/login/{clock_cup['code']}"))
        _run_clock(clock_cup["session_id"], 6)
        phone.reload()
        projector = context.new_page()
        projector.goto(demo_site.page(f"/e/{clock_cup['slug']}/projector/"))
        clock = phone.locator("#table-clock")
        expect(clock).to_be_visible()
        expect(clock.locator(".clock-note")).to_have_text("", timeout=3_000)  # still running
        expect(clock.locator(".clock-note")).to_have_text("Time is up: finish the hand being played, then enter it.",
                                                          timeout=15_000)
        expect(clock).to_have_attribute("role", "alert")
        expect(clock).to_have_class(__import__("re").compile("overtime"))
        phone.locator("#call-director summary").click()
        phone.screenshot(path=str(SCREENSHOTS / "table-time-up-phone.png"), full_page=True)
        expect(projector.locator("#clock-up")).to_have_text("Time is up: finish the hand being played.", timeout=15_000)
        projector.screenshot(path=str(SCREENSHOTS / "projector-time-up.png"))
    finally:
        context.close()
