"""Browser tests: a live server holding a real demo event, driven by Debian's Chromium through
Playwright.

The event is built once for the package (the full 16-team demo with session 1 confirmed, then
session 2 seated with one result waiting for confirmation at its first table), committed so that
the live server's thread sees it, and flushed when the package's last test ends. Test modules mark
their tests ``django_db`` so that pytest-django creates the test database; each test then runs in
a transaction of its own, rolled back after it. Tests skip with a message when /usr/bin/chromium
is missing (``apt-get install chromium``); Playwright never downloads a browser here. The
accessibility tests use axe-core from the npm registry (``npm ci --prefix tests/browser``).
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
HERE = Path(__file__).resolve().parent
AXE_JS = HERE / "node_modules" / "axe-core" / "axe.min.js"
SCREENSHOTS = HERE.parent.parent / "docs" / "screenshots"


@dataclass(frozen=True)
class DemoSite:
    """What the browser tests need from the built event, as plain values (no ORM in the tests:
    Playwright's sync API runs an event loop in the test thread, where Django refuses the ORM)."""

    url: str
    slug: str
    teams: tuple[str, ...]
    director: str
    password: str
    table_id: int
    table_code: str
    pending_result_id: int

    def page(self, path: str) -> str:
        return self.url + path

    @property
    def table_url(self) -> str:
        return self.page(f"/e/{self.slug}/table/{self.table_id}/")


@pytest.fixture(scope="package")
def demo_site(django_db_setup, django_db_blocker, tmp_path_factory):
    """The demo event on a live server. Yields a :class:`DemoSite`."""
    if not CHROMIUM.exists():
        pytest.skip(f"browser tests need Debian's Chromium at {CHROMIUM}: apt-get install chromium")
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test.utils import modify_settings
    from pytest_django.live_server_helper import LiveServer

    from factories import first_set
    from scoring.actions.entry import submit_result
    from tournament.demo import build_demo
    from tournament.models import EventRole, Table
    from tournament.services import prepare_session

    with django_db_blocker.unblock():
        report = build_demo(out_dir=tmp_path_factory.mktemp("demo-pdfs"), prints=())
        event = report.event
        prepare_session(event, 2)
        table = Table.objects.filter(group__session__event=event, group__session__number=2).order_by("number").first()
        pending = submit_result(table, first_set(table), outcome={"kind": "discard", "winners": ["S"], "discarder": "W", "fans": [12]},
                                actor="browser test")
        password = secrets.token_urlsafe(12)
        user = get_user_model().objects.create_user("td-browser", password=password, is_staff=True)
        EventRole.objects.create(event=event, user=user, role=EventRole.Role.DIRECTOR)
        hosts = modify_settings(ALLOWED_HOSTS={"append": "127.0.0.1"})
        hosts.enable()
        server = LiveServer("127.0.0.1")
        try:
            yield DemoSite(
                url=server.url, slug=event.slug, teams=tuple(row["name"] for row in report.standings),
                director=user.username, password=password, table_id=table.pk, table_code=table.login_code,
                pending_result_id=pending.pk,
            )
        finally:
            server.stop()
            hosts.disable()
            call_command("flush", interactive=False, verbosity=0)


@pytest.fixture(scope="package")
def browser(demo_site):
    """Debian's Chromium, headless, through Playwright (started after the event is built).

    Playwright's sync API keeps an asyncio loop in this thread, so Django's async-safety check
    would refuse the per-test database set-up that runs in between; nothing here runs the ORM from
    a coroutine, so the check is lifted while the browser runs (Django's documented switch).
    """
    from django.db import connections
    from playwright.sync_api import sync_playwright

    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            yield chromium
            chromium.close()
            # Code run inside Playwright's block has its own context, hence its own database
            # connections (Django keeps them per context): close them before the test database goes.
            connections.close_all()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def new_page(browser):
    """``new_page(viewport=DESKTOP)`` → a fresh page in its own browser context (own cookies)."""
    contexts = []

    def make(viewport=DESKTOP):
        context = browser.new_context(viewport=viewport)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def director_page(new_page, demo_site):
    """A desktop page logged in through the login page as the event's director (a staff user, so
    the new-event page opens too)."""
    page = new_page()
    page.goto(demo_site.page("/accounts/login/"))
    page.fill("#id_username", demo_site.director)
    page.fill("#id_password", demo_site.password)
    with page.expect_navigation():
        page.click("main button[type=submit]")
    assert page.locator("header form[action$='/logout/']").count() == 1, "the director could not log in"
    return page


@pytest.fixture
def scorer_page(new_page, demo_site):
    """A phone-sized page (390×844) logged in as the scorer of the first session-2 table: the
    score sheet's login link (the event's login page with the code filled in), then its "Log in
    as this table's scorer" button; showing that table's entry page."""
    from factories import login_as_table_in_browser

    page = new_page(viewport=PHONE)
    login_as_table_in_browser(page, demo_site.page(f"/e/{demo_site.slug}/entry/login/{demo_site.table_code}"))
    assert page.url == demo_site.table_url, "the table code did not open the table's page"
    return page


@pytest.fixture(scope="session")
def axe_source() -> str:
    """axe-core's ``axe.min.js`` from tests/browser/node_modules, installed with ``npm ci`` from the
    lock file when missing and npm is available."""
    if not AXE_JS.exists() and shutil.which("npm"):
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=HERE, check=False, timeout=600,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if not AXE_JS.exists():
        pytest.skip("axe-core is not installed: run `npm ci --prefix tests/browser` (needs Node.js and npm)")
    return AXE_JS.read_text(encoding="utf-8")


def phone_offline(page) -> None:
    """Wait until ``page`` knows it is offline (``navigator.onLine`` false) after
    ``context.set_offline(True)``: Chromium tells the page a moment later, and a form sent in
    between would still be posted."""
    page.wait_for_function("!navigator.onLine", timeout=10_000)


def in_own_connection(function, *args, **kwargs):
    """Run ``function(*args, **kwargs)`` (ORM work) in a thread of its own, on a database connection
    outside the test's transaction, and return its value (its exception is raised here): the live
    server sees what it writes, and the test sees what the server wrote (the test's own
    connection is inside its transaction; tests/browser/test_visibility_walk.py explains why)."""
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connections

    def run():
        try:
            return function(*args, **kwargs)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run).result()


def once_unlocked(function, *args, attempts: int = 20, **kwargs):
    """``in_own_connection(function, ...)`` for one atomic piece of work (a delete, a
    ``bulk_create``), tried again while SQLite's shared-cache test database answers "database
    table is locked": that lock is not waited for by the busy timeout, and the live server may
    still be answering a page's last poll when a test cleans up. Each try runs in one
    transaction, so a refused try leaves nothing behind; any other error is raised at once."""
    from django.db import OperationalError, transaction

    def atomic():
        with transaction.atomic():
            return function(*args, **kwargs)

    for attempt in range(attempts):
        try:
            return in_own_connection(atomic)
        except OperationalError as error:
            if "locked" not in str(error) or attempt == attempts - 1:
                raise
            time.sleep(0.25)
    raise AssertionError("unreachable")


def download_job(page, has_text: str, timeout: int = 180_000) -> bytes:
    """The file of the newest print job whose row on the director page holds ``has_text``, once
    its Download link shows (the page polls the jobs), fetched with the page's login."""
    from playwright.sync_api import expect

    row = page.locator("#jobs tbody tr").filter(has_text=has_text).first
    link = row.get_by_role("link", name="Download")
    expect(link).to_be_visible(timeout=timeout)
    response = page.request.get(link.evaluate("a => a.href"))
    assert response.ok, response.status
    return response.body()
