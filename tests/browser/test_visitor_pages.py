"""Phones of visitors reading the public pages the way a hall full of players does: the second
phone is served the page the first one built, cached whole and sent compressed (gzip, as it is
kept), and each phone's language switcher works (it needs no CSRF token); a phone that reads the
page again is answered 304 and keeps showing it."""

import pytest

from .conftest import PHONE
from .test_i18n import switch_language

pytestmark = [pytest.mark.browser, pytest.mark.django_db]

TEAM_HEADING = {"ja": "チーム", "zh-hans": "团队"}


@pytest.mark.parametrize("path", ["teams/1/", "players/5/", "standings/", "standings/players/"])
def test_two_phones_read_the_same_public_page_and_each_switches_language(new_page, demo_site, path, tmp_path):
    url = demo_site.page(f"/e/{demo_site.slug}/{path}")
    first, second = new_page(PHONE), new_page(PHONE)
    first.goto(url)
    answer = second.goto(url)  # the page the first phone built, from the cache
    assert answer.all_headers().get("content-encoding") == "gzip"  # Chromium accepts gzip: sent as kept
    assert first.locator("main").inner_text() == second.locator("main").inner_text()
    assert first.locator("h1").inner_text() == second.locator("h1").inner_text()

    # the phone asks again with the ETag it was given and its own cookies: 304 (Chromium shows a
    # revalidated page as 200 to the page itself, so the phone's own request context asks)
    tag = answer.all_headers()["etag"]
    assert tag.startswith('W/"P')  # a public page: the public version
    assert second.request.get(url, headers={"If-None-Match": tag}).status == 304
    second.reload()
    assert second.locator("main").inner_text() == first.locator("main").inner_text()

    for page, lang in ((second, "ja"), (first, "zh-hans")):
        switch_language(page, lang)
        assert page.url == url, "the switcher returns to the page it was used on"
        assert page.get_attribute("html", "lang") == lang
        assert "Forbidden" not in page.content() and "CSRF" not in page.content()
    second.screenshot(path=str(tmp_path / "second-ja.png"), full_page=True)
    first.screenshot(path=str(tmp_path / "first-zh.png"), full_page=True)
    if path == "teams/1/":
        assert TEAM_HEADING["ja"] in second.locator("main").inner_text()
        assert TEAM_HEADING["zh-hans"] in first.locator("main").inner_text()
