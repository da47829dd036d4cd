"""docs/security.md, "Threats and the tests that cover them", threat 2 in Debian's Chromium: the director creates an API token on the event's API
tokens page, copies its key with the page's Copy button, uses it, and revokes it; the key is on
the create page once and on no page after. Screenshots go to $TOKEN_SHOTS (default
/tmp/tokens-shots/).

No ORM in the browser steps: the API is called with Playwright's own request context.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from factories import console_error
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP

pytestmark = [pytest.mark.browser, pytest.mark.django_db]

SHOTS = Path(os.environ.get("TOKEN_SHOTS", "/tmp/tokens-shots"))


def test_the_director_creates_copies_uses_and_revokes_a_token(browser, demo_site):
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport=DESKTOP, permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    errors = []
    page.on("console", lambda message: errors.append(message.text) if console_error(message) else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(demo_site.page("/accounts/login/"))
        page.fill("#id_username", demo_site.director)
        page.fill("#id_password", demo_site.password)
        with page.expect_navigation():
            page.click("main button[type=submit]")
        page.goto(demo_site.page(f"/e/{demo_site.slug}/director/settings/"))
        with page.expect_navigation():
            page.locator("#director-menu").get_by_role("link", name="API tokens").click()
        assert page.url.endswith(f"/e/{demo_site.slug}/director/api-tokens/")

        page.fill("#id_token_days", "3")
        with page.expect_navigation():
            page.get_by_role("button", name="Create token").click()
        key = page.locator("#api-token-key").inner_text().strip()
        assert len(key) == 64
        assert page.content().count(key) == 1
        expect(page.locator("#new-token")).to_contain_text("shown only this once")
        page.get_by_role("button", name="Copy").click()
        expect(page.locator("#copy-token")).to_have_text("Copied")
        assert page.evaluate("navigator.clipboard.readText()") == key
        page.screenshot(path=str(SHOTS / "1-created.png"), full_page=True)

        results = demo_site.page(f"/api/events/{demo_site.slug}/results/?session_number=2")
        device = browser.new_context()  # another device: no session cookie, the key only
        api = device.request
        assert api.get(results).status in (401, 403) or api.get(results).json() == []  # without the key: nothing of set in play
        answer = api.get(results, headers={"Authorization": f"Token {key}"})
        assert answer.status == 200 and answer.json(), answer.status

        page.reload()  # sends the create form again: no second token, and no key
        expect(page.locator(".messages")).to_contain_text("This form was sent already")
        assert key not in page.content() and key[15:] not in page.content()
        assert page.locator("#api-tokens tbody tr").count() == 1
        page.goto(page.url)  # a GET: the key is gone for good, the list names the token by its prefix
        assert key not in page.content() and key[15:] not in page.content()
        row = page.locator(f"#api-tokens tr[data-prefix='{key[:15]}']")
        expect(row).to_contain_text(demo_site.director)
        expect(row).to_contain_text(key[:15])
        page.screenshot(path=str(SHOTS / "2-listed.png"), full_page=True)
        with page.expect_navigation():
            row.get_by_role("button", name="Revoke").click()
        expect(page.locator(".messages")).to_contain_text(f"Revoked the token {key[:15]}")
        assert page.locator(f"#api-tokens tr[data-prefix='{key[:15]}']").count() == 0
        page.screenshot(path=str(SHOTS / "3-revoked.png"), full_page=True)
        refused = api.get(results, headers={"Authorization": f"Token {key}"})
        assert refused.status == 401, refused.status
        device.close()
    finally:
        context.close()
    assert errors == []
