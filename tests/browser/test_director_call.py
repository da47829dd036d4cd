"""A table calls the director from its phone and the director, with the calls page open on the
laptop, sees the call come in by itself (the page polls), with the table and the reason, and marks
it answered once at the table. A call made without a connection waits in the phone's queue and
reaches the director when the connection returns."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import PHONE, SCREENSHOTS, phone_offline

pytestmark = [pytest.mark.browser, pytest.mark.django_db]


def _call(page, reason: str, note: str) -> None:
    page.locator("#call-director summary").click()
    page.get_by_label(reason).check()
    page.fill("#call-note", note)
    page.click("#call-button")


def test_a_call_from_the_table_appears_on_the_director_s_page_and_is_answered(director_page, scorer_page, demo_site):
    calls_url = demo_site.page(f"/e/{demo_site.slug}/director/calls/")
    director_page.goto(calls_url)
    expect(director_page.locator("#no-calls")).to_be_visible()

    with scorer_page.expect_navigation():
        _call(scorer_page, "A tile missing or a sticker wrong", "no sticker on S3")
    expect(scorer_page.locator(".messages")).to_contain_text("The director is called to Table")
    expect(scorer_page.locator("#call-open")).to_contain_text("stay at the table")

    call = director_page.locator("#call-list li").filter(has_text="no sticker on S3")
    expect(call).to_be_visible(timeout=15_000)  # came in without a reload
    expect(call).to_contain_text("A tile missing or a sticker wrong")
    expect(director_page).to_have_title(__import__("re").compile(r"^\(1\) "))
    director_page.screenshot(path=str(SCREENSHOTS / "director-calls.png"))
    with director_page.expect_navigation():
        call.get_by_role("button", name="Answered").click()
    expect(director_page.locator("#no-calls")).to_be_visible()
    scorer_page.reload()
    expect(scorer_page.locator("#call-open")).to_have_count(0)


def test_a_call_made_offline_waits_and_reaches_the_director(browser, director_page, demo_site):
    from factories import login_as_table_in_browser

    context = browser.new_context(viewport=PHONE)
    try:
        phone = context.new_page()
        login_as_table_in_browser(phone, demo_site.page(f"/e/{demo_site.slug}/entry/login/{demo_site.table_code}"))
        context.set_offline(True)
        phone_offline(phone)
        _call(phone, "A dispute at the table", "offline call")
        expect(phone.locator("#queue-items li")).to_contain_text("Call the director")
        director_page.goto(demo_site.page(f"/e/{demo_site.slug}/director/calls/"))
        expect(director_page.locator("#call-list li").filter(has_text="offline call")).to_have_count(0)
        context.set_offline(False)
        expect(director_page.locator("#call-list li").filter(has_text="offline call")).to_be_visible(timeout=20_000)
        director_page.locator("#call-list li").filter(has_text="offline call").get_by_role("button", name="Answered").click()
    finally:
        context.close()
