"""The venue on HTTPS, as a director runs it and a phone meets it: the real ``manage.py venue``
(HTTPS by default, its own certificate) serves a fresh checkout's database with gunicorn; the
director opens the first-director address it printed and creates the first director; a phone
that trusts exactly the venue's certificate (Chromium's ``--ignore-certificate-errors-spki-list``
with the certificate's public-key hash, as a phone that installed ``/venue-certificate.crt``;
no blanket "ignore HTTPS errors") logs in as a table at 390×844, scans a printed set label with
its camera (Chromium's fake camera playing a video of the label, as in test_scan_label.py), lands
on that set, and reloads the table page with the Wi-Fi gone: the page comes from its service
worker, not the browser's error page. On a plain-HTTP venue address the scan box says why the
camera is missing (the package's live server, reached under a venue name)."""

from __future__ import annotations

import json
import os
import re
import socket
import ssl
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from .conftest import CHROMIUM, CHROMIUM_ARGS, PHONE, SCREENSHOTS, phone_offline
from .test_scan_label import _label_image, _y4m

pytestmark = [pytest.mark.browser, pytest.mark.django_db]

ROOT = Path(__file__).resolve().parent.parent.parent

SETUP = """
import json, sys
import django
django.setup()
from factories import blocks, demo_roster, prepared_event
from tournament.models import Table
event = prepared_event(demo_roster(4), name="Venue Cup", slug="venue-cup", sessions=1, base_url="http://127.0.0.1:8000/")
table = Table.objects.filter(group__session__event=event).order_by("number").first()
print(json.dumps({"slug": event.slug, "table_id": table.pk, "code": table.login_code, "set": blocks(table)[0][1][1]}))
"""

LABEL = """
import json, sys
import django
django.setup()
from tournament.models import Event
from walls.print_jobs import request_print
event = Event.objects.get(slug="venue-cup")
open(sys.argv[1], "wb").write(request_print(event, "labels", {"session": 1, "sets": [int(sys.argv[2])]}, run_now=True).file.read())
print(event.base_url)
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("0.0.0.0", 0))
        return s.getsockname()[1]


def _trusting(tls: Path) -> ssl.SSLContext:
    """A client that trusts the venue's authority only, as a phone that installed it."""
    return ssl.create_default_context(cafile=str(tls / "venue-ca.crt"))


def _run(script: str, env: dict, *args: str) -> str:
    done = subprocess.run([sys.executable, "-c", script, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip().splitlines()[-1]


@pytest.fixture(scope="module")
def venue(tmp_path_factory):
    """``manage.py venue --port <free>`` on a database of its own holding one event whose address
    is the demo's ``http://127.0.0.1:8000/``; yields the address it serves, the event, the
    certificate folder and its log."""
    if not CHROMIUM.exists():
        pytest.skip(f"needs Debian's Chromium at {CHROMIUM}")
    from tournament.venue import lan_addresses

    if not lan_addresses():
        pytest.skip("this machine has no network address besides loopback for the venue to serve")
    folder = tmp_path_factory.mktemp("venue")
    port = _free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{folder / 'venue.sqlite3'}", "STATIC_ROOT": str(folder / "static"),
           "MEDIA_ROOT": str(folder / "media"), "SECRET_KEY": "venue-https-test-" + "k" * 50, "VENUE_TLS_DIR": str(folder / "tls"),
           "DJANGO_SETTINGS_MODULE": "tournament.settings", "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])}
    for name in ("DEBUG", "ALLOWED_HOSTS", "DJANGO_ALLOW_ASYNC_UNSAFE"):
        env.pop(name, None)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True, timeout=300)
    event = json.loads(_run(SETUP, env))
    log_path = folder / "venue.log"
    log = log_path.open("wb")
    server = subprocess.Popen([sys.executable, "manage.py", "venue", "--port", str(port), "--workers", "1"], cwd=ROOT, env=env,
                              stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 180
        address = None
        while True:
            text = log_path.read_text(errors="replace")
            found = re.search(r"Phones on the venue's network open (\S+) ", text)
            if found:
                address = found.group(1)
                try:
                    if httpx.get(address, verify=_trusting(folder / "tls"), timeout=5).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
            assert server.poll() is None and time.monotonic() < deadline, text[-3000:]
            time.sleep(0.5)
        yield {"address": address, "event": event, "tls": folder / "tls", "log": log_path, "env": env, "folder": folder}
    finally:
        os.killpg(server.pid, 15)
        server.wait(timeout=30)


def test_a_phone_trusting_the_venue_certificate_scans_with_the_camera_and_reloads_offline(venue, browser, tmp_path):
    from tournament.venue import fingerprint, spki_sha256

    address, event = venue["address"], venue["event"]
    log = venue["log"].read_text()
    ca = (venue["tls"] / "venue-ca.crt").read_bytes()
    assert address.startswith("https://") and fingerprint(ca) in log  # what the director compares on the phone
    assert f"Venue Cup: public address http://127.0.0.1:8000/ -> {address}" in log  # the demo's address followed
    first_run = re.search(r"open (\S+/first-director/\?code=\S+) ", log).group(1)
    assert httpx.get(f"{address}venue-certificate.crt", verify=_trusting(venue["tls"])).content == ca

    label_pdf = tmp_path / "label.pdf"
    printed_for = _run(LABEL, venue["env"], str(label_pdf), str(event["set"]))
    assert printed_for == address  # the label's code opens this https server
    video = _y4m(_label_image(label_pdf.read_bytes()), tmp_path / "label.y4m")

    phones = browser.browser_type.launch(executable_path=str(CHROMIUM), args=[
        *CHROMIUM_ARGS, f"--ignore-certificate-errors-spki-list={spki_sha256(ca)}",
        "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream", f"--use-file-for-fake-video-capture={video}"])
    try:
        # the director, on the laptop or a phone: the first-run address the command printed
        director = phones.new_context(viewport=PHONE)
        page = director.new_page()
        page.goto(first_run)
        assert page.locator("#id_code").input_value()  # the code came with the address
        page.fill("#id_username", "td")
        page.fill("#id_password1", "a-long-venue-pw-42")
        page.fill("#id_password2", "a-long-venue-pw-42")
        page.screenshot(path=str(SCREENSHOTS / "venue-https-first-director.png"))
        with page.expect_navigation():
            page.click("#first-director button[type=submit]")
        assert page.url == address and "first director" in page.inner_text("main")
        assert page.locator("header form[action$='/logout/']").count() == 1
        assert page.goto(first_run).status == 404  # closed once a director exists
        director.close()

        # a table's phone
        phone = phones.new_context(viewport=PHONE)
        phone.grant_permissions(["camera"], origin=address.rstrip("/"))
        page = phone.new_page()
        page.goto(f"{address}e/{event['slug']}/entry/login/{event['code']}")
        with page.expect_navigation():
            page.click("main form[method=post] button[type=submit]")
        table_url = f"{address}e/{event['slug']}/table/{event['table_id']}/"
        assert page.url == table_url
        assert page.evaluate("window.isSecureContext && !!(navigator.mediaDevices && navigator.mediaDevices.getUserMedia)")
        page.wait_for_selector("#scan-camera:not([hidden])")
        with page.expect_navigation(url=f"{table_url}?set={event['set']}", timeout=30_000):
            page.click("#scan-camera")
        assert page.locator("#set_no").input_value() == str(event["set"])
        page.screenshot(path=str(SCREENSHOTS / "venue-https-scan-phone.png"))

        page.wait_for_selector("#queue[data-ready='1']", state="attached", timeout=30_000)  # page and files kept
        phone.set_offline(True)
        phone_offline(page)
        page.reload()
        page.wait_for_selector("#set_no")
        assert page.url.startswith(table_url) and page.locator("#scan-camera").count() == 1
        assert page.evaluate("navigator.serviceWorker.controller !== null")  # served by the table page's service worker
        page.screenshot(path=str(SCREENSHOTS / "venue-https-offline-reload-phone.png"))
        phone.close()
    finally:
        phones.close()


def test_on_a_plain_http_venue_address_the_scan_box_says_the_camera_needs_https(browser, demo_site, settings):
    """A phone on ``http://<venue>/`` (not the laptop's own loopback address, which browsers count
    as secure) presses Scan label: no camera, and the box says why and what to do, in the reader's
    language."""
    from factories import login_as_table_in_browser

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "venue.test"]
    venue_url = f"http://venue.test:{demo_site.url.rsplit(':', 1)[1]}"
    phones = browser.browser_type.launch(executable_path=str(CHROMIUM), args=[
        *CHROMIUM_ARGS, "--host-resolver-rules=MAP venue.test 127.0.0.1"])
    try:
        for language, words in (("en", "The camera works only on an https address"), ("ja", "カメラは https のアドレスでしか使えません"),
                                ("zh-hans", "相机只能在 https 地址上使用")):
            context = phones.new_context(viewport=PHONE)
            context.add_cookies([{"name": "django_language", "value": language, "url": venue_url}])
            page = context.new_page()
            login_as_table_in_browser(page, f"{venue_url}/e/{demo_site.slug}/entry/login/{demo_site.table_code}")
            assert page.evaluate("window.isSecureContext") is False
            page.wait_for_selector("#scan-camera:not([hidden])")
            with page.expect_file_chooser():  # the photo instead
                page.click("#scan-camera")
            status = page.locator("#scan-status")
            assert words in status.inner_text() and status.is_visible()
            if language == "en":
                assert "ask the director for the https address" in status.inner_text()
                page.screenshot(path=str(SCREENSHOTS / "venue-http-scan-phone.png"))
            context.close()
    finally:
        phones.close()
