"""docs/security.md, "Threats and the tests that cover them", threat 5, walked in Chromium: on a venue's shared address (every page of the live
server comes from 127.0.0.1), one device types wrong table codes until the login slows down; a
player's phone then types the right code of its table. It is never refused as wrong: at worst the
phone is told to try again in a few seconds, and pressing the button again opens the table's page.
Screenshots go to /work/notes/shots-throttle/ when that folder exists."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from django.core.cache import cache
from playwright.sync_api import expect

from tests.browser.conftest import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db]

SHOTS = Path("/work/notes/shots-throttle")


def shot(page, name: str) -> None:
    if SHOTS.is_dir():
        page.screenshot(path=str(SHOTS / name), full_page=True)


def test_a_player_gets_in_with_the_right_code_after_another_device_guessed_from_the_same_address(new_page, demo_site, settings):
    settings.TABLE_LOGIN_SLOW_SECONDS = 6
    cache.clear()
    login = demo_site.page(f"/e/{demo_site.slug}/entry/login/")
    phone = new_page(viewport=PHONE)  # the player's phone, its code typed, ready to press the button
    phone.goto(login)
    phone.fill("#code", demo_site.table_code.lower())
    guesser = new_page(viewport=PHONE)
    guesser.goto(login)
    statuses = []
    for n in range(12):
        guesser.fill("#code", f"WR0NG-C0D{n:02d}")
        with guesser.expect_navigation() as navigation:
            guesser.click("main form[method=post] button[type=submit]")
        statuses.append(navigation.value.status)
    assert statuses[:10] == [400] * 10 and statuses[10:] == [429, 429], statuses
    with phone.expect_navigation() as navigation:
        phone.click("main form[method=post] button[type=submit]")
    if navigation.value.status == 429:  # the address's check slot was taken by the guesser's last try
        wait = int(navigation.value.headers["retry-after"])
        assert 1 <= wait <= 6
        expect(phone.get_by_role("alert")).to_contain_text(re.compile(r"Try again in \d+ seconds"))
        expect(phone.get_by_role("alert")).not_to_contain_text("No table has the code")
        shot(phone, "2-right-code-asked-to-wait.png")
        time.sleep(wait)
        with phone.expect_navigation():
            phone.click("main form[method=post] button[type=submit]")
    expect(guesser.get_by_role("alert")).to_contain_text("Too many wrong table codes")
    shot(guesser, "1-guessing-device-slowed.png")
    assert phone.url == demo_site.table_url, "the right code did not open the table's page"
    shot(phone, "3-right-code-in.png")
    cache.clear()
