"""A visitor downloads the public export in Debian's Chromium: the server sends it compressed
(gzip, as it keeps it: tournament.views.event_export) and the file the visitor
gets is the event's JSON, the same as a client that does not accept gzip is sent, not gzip bytes.
A second download at the same public version is answered from the browser's copy (304).
Screenshot: $EXPORT_SHOTS (default /tmp/export-shots/).
"""

from __future__ import annotations

import json
import os
import urllib.request
from pathlib import Path

import pytest

from tests.browser.conftest import DESKTOP

pytestmark = [pytest.mark.browser, pytest.mark.django_db]

SHOTS = Path(os.environ.get("EXPORT_SHOTS", "/tmp/export-shots"))


def test_a_visitor_downloads_the_public_export_and_gets_the_json(browser, demo_site):
    SHOTS.mkdir(parents=True, exist_ok=True)
    url = demo_site.page(f"/e/{demo_site.slug}/export.json")
    with urllib.request.urlopen(urllib.request.Request(url, headers={"Accept-Encoding": "identity"})) as plain:
        assert plain.headers.get("Content-Encoding") is None
        expected = json.loads(plain.read())
    context = browser.new_context(viewport=DESKTOP, accept_downloads=True)
    page = context.new_page()
    answers = []
    page.on("response", lambda response: answers.append(response) if response.url == url else None)
    try:
        page.goto(demo_site.page(f"/e/{demo_site.slug}/"))
        page.screenshot(path=str(SHOTS / "event-page.png"), full_page=True)
        with page.expect_download() as download_info:
            page.evaluate("url => { const a = document.createElement('a'); a.href = url; document.body.append(a); a.click(); }", url)
        download = download_info.value
        saved = Path(download.path()).read_bytes()
        assert saved[:2] != b"\x1f\x8b", "the visitor got gzip bytes, not the JSON"
        assert json.loads(saved) == expected
        assert download.suggested_filename == f"{demo_site.slug}.json"
        sent = [a for a in answers if a.status == 200]
        assert sent and sent[-1].headers.get("content-encoding") == "gzip"  # sent compressed, saved decoded
        again = page.request.get(url, headers={"If-None-Match": sent[-1].headers["etag"], "Accept-Encoding": "gzip"})
        assert again.status == 304
        assert page.request.get(url).json() == expected
    finally:
        context.close()
