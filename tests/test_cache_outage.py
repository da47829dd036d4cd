"""docs/deploy.md, "Faults": Redis stops during an event day. The cache
(:class:`tournament.cache_backend.FailSoftRedisCache`) then answers as a miss: pages are built from
the database, the request limits let requests through, nothing answers 500, and once Redis is back
the cache is used again.

The fault test runs a redis-server of its own (a free port, no persistence) as the site's cache,
and plays two tables' first sets through the API and the table page while phones and visitors read
the standings page, the standings API and CSV, ``projector.json``, the players page and a traveller,
and a phone logs in with its table's code. Mid-way Redis first hangs (SIGSTOP: nothing answers,
the socket timeouts run out), then is killed, then is started again, empty. Every page read is
compared with the same request answered with no cache at all (Django's ``DummyCache``: built from
the database). Skipped when redis-server is not installed (``apt-get install redis-server``).

The unit tests check the backend's answers while Redis cannot be reached, that it waits for a
server that does not answer once per skip window and no more, and that it logs an outage once, not
once per operation.
"""

from __future__ import annotations

import json
import logging
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis
from django.core.cache import cache
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from factories import api_key, entering, pin, play_slots
from tournament import cache_backend
from tournament.models import EventRole, Table

ROOT = Path(__file__).resolve().parent.parent
REDIS_SERVER = shutil.which("redis-server")
NO_CACHE = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
CSRF = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]+"')
#: seconds a request may take while Redis hangs or is gone: never the 10 s a reader waits for
#: another one's build, never a socket timeout per cache operation
SLOWEST = 2.0
CHANGES = {"E": 48, "S": -16, "W": -16, "N": -16}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PrivateRedis:
    """A redis-server of this test alone on a free port of 127.0.0.1, keeping nothing on disk:
    started, hung (SIGSTOP), killed and started again on the same port."""

    def __init__(self, log: Path):
        self.port, self.log = _free_port(), log
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [str(REDIS_SERVER), "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=self.log.open("ab"), stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 10
        while True:
            try:
                self.client().ping()
                return
            except redis.ConnectionError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"redis-server did not start: {self.log.read_text(errors='replace')[-2000:]}")
                time.sleep(0.05)

    def hang(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGSTOP)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()  # SIGKILL: also a stopped process
            self.process.wait(timeout=10)

    def client(self) -> redis.Redis:
        return redis.Redis.from_url(self.url, socket_timeout=2)

    def keys(self) -> int:
        return self.client().dbsize()


@pytest.fixture
def private_redis(tmp_path):
    """A started :class:`PrivateRedis`, killed after the test; skips without redis-server."""
    if REDIS_SERVER is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server): the cache outage test runs one "
                    "of its own")
    server = PrivateRedis(tmp_path / "redis.log")
    server.start()
    try:
        yield server
    finally:
        server.kill()


@pytest.fixture(scope="module")
def redis_url_settings() -> tuple[dict, bool]:
    """``(CACHES["default"], RATELIMIT_FAIL_OPEN)`` as tournament/settings.py makes them for a
    ``redis://`` CACHE_URL (read in a new process, where the settings read the environment)."""
    shown = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); from django.conf import settings; import json; "
         "print(json.dumps([settings.CACHES['default'], getattr(settings, 'RATELIMIT_FAIL_OPEN', False)]))"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "tournament.settings",
             "CACHE_URL": "redis://127.0.0.1:6379/13?key_prefix=dmj"})
    assert shown.returncode == 0, shown.stderr[-2000:]
    cache_settings, fail_open = json.loads(shown.stdout)
    return cache_settings, fail_open


@pytest.fixture
def redis_cache(private_redis, redis_url_settings, settings, monkeypatch):
    """The site's cache is ``private_redis``, through the backend the settings choose for a
    ``redis://`` CACHE_URL; Redis is skipped for 1 s after a failure (5 s in production), so
    the test sees it used again soon after it is back."""
    monkeypatch.setattr(cache_backend, "SKIP_SECONDS", 1.0)
    settings.CACHES = {"default": {**redis_url_settings[0], "LOCATION": private_redis.url, "KEY_PREFIX": ""}}
    cache.clear()
    return private_redis


def test_the_settings_choose_the_fail_soft_backend_for_a_redis_cache_url(redis_url_settings):
    cache_settings, fail_open = redis_url_settings
    assert cache_settings["BACKEND"] == "tournament.cache_backend.FailSoftRedisCache"
    assert cache_settings["LOCATION"] == "redis://127.0.0.1:6379/13" and cache_settings["KEY_PREFIX"] == "dmj"
    assert fail_open is True


# --- the backend while Redis cannot be reached -----------------------------------------------------


def _unreachable(location: str) -> cache_backend.FailSoftRedisCache:
    return cache_backend.FailSoftRedisCache(location, {})


def test_an_unreachable_redis_answers_every_operation_as_a_miss(monkeypatch):
    monkeypatch.setattr(cache_backend, "SKIP_SECONDS", 0.0)  # every operation asks the dead server
    dead = _unreachable(f"redis://127.0.0.1:{_free_port()}/0")  # nothing listens there
    assert dead.get("k") is None and dead.get("k", "default") == "default"
    assert dead.get_many(["k", "l"]) == {}
    assert dead.has_key("k") is False
    assert dead.set("k", 1) is None
    assert sorted(dead.set_many({"k": 1, "l": 2})) == ["k", "l"]  # not stored
    assert dead.add("k", 1) is True  # nobody else holds it: a build lock or a throttle's first count is this one
    assert dead.touch("k") is False and dead.delete("k") is False and dead.delete_many(["k"]) is None
    with pytest.raises(ValueError):
        dead.incr("k")  # as for a missing key, which django-ratelimit and the login throttle catch
    with pytest.raises(ValueError):
        dead.decr("k")
    assert dead.get_or_set("k", lambda: "built") == "built"
    assert dead.clear() is False


def test_the_socket_timeouts_are_a_quarter_second_unless_the_cache_url_says_otherwise():
    default = cache_backend.FailSoftRedisCache("redis://127.0.0.1:6379/1", {})._options
    assert default["socket_timeout"] == default["socket_connect_timeout"] == 0.25
    distant = cache_backend.FailSoftRedisCache("redis://10.0.0.10:6379/1", {"OPTIONS": {"socket_timeout": 1.0}})._options
    assert distant["socket_timeout"] == distant["socket_connect_timeout"] == 1.0


def test_a_redis_that_does_not_answer_costs_one_timeout_per_skip_window_and_one_log_line(caplog, monkeypatch):
    """A server that accepts connections and never answers (a hung Redis): the first operation
    waits the socket timeout (0.25 s), the next ones in the skip window do not ask it at all; the
    outage is one log line naming the server without its password, however many operations."""
    monkeypatch.setattr(cache_backend, "SKIP_SECONDS", 0.6)
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(16)  # the kernel completes the connections; nobody ever reads or answers
        port = silent.getsockname()[1]
        hung = _unreachable(f"redis://:s3cret-pass@127.0.0.1:{port}/2")
        with caplog.at_level(logging.WARNING, logger="tournament.cache_backend"):
            started = time.monotonic()
            assert hung.get("k") is None
            first = time.monotonic() - started
            started = time.monotonic()
            for n in range(200):
                assert hung.get(f"k{n}") is None and hung.add(f"k{n}", 1) is True
            rest = time.monotonic() - started
            time.sleep(0.7)  # the window is over: asked again, and waits again
            started = time.monotonic()
            assert hung.get("k") is None
            again = time.monotonic() - started
    assert 0.2 <= first < 1.0 and 0.2 <= again < 1.0
    assert rest < 0.2  # 400 operations without asking
    lines = [r.getMessage() for r in caplog.records if r.name == "tournament.cache_backend"]
    assert len(lines) == 1, lines
    assert f"127.0.0.1:{port}/2 unreachable" in lines[0] and "TimeoutError" in lines[0]
    assert "s3cret" not in lines[0]


def test_an_outage_logs_again_after_a_while_and_when_redis_is_back(private_redis, caplog, monkeypatch):
    monkeypatch.setattr(cache_backend, "SKIP_SECONDS", 0.0)
    monkeypatch.setattr(cache_backend, "LOG_EVERY", 0.3)
    backend = _unreachable(private_redis.url)
    backend.set("kept", "value")
    assert backend.get("kept") == "value"
    with caplog.at_level(logging.WARNING, logger="tournament.cache_backend"):
        private_redis.kill()
        for _ in range(50):
            assert backend.get("kept") is None
        time.sleep(0.35)
        for _ in range(50):
            assert backend.get("kept") is None
        private_redis.start()
        backend.set("kept", "again")
        assert backend.get("kept") == "again"
    lines = [r.getMessage() for r in caplog.records if r.name == "tournament.cache_backend"]
    assert len(lines) == 3, lines
    assert "unreachable" in lines[0] and "ConnectionError" in lines[0]
    assert "still unreachable" in lines[1] and "50 cache operations answered without it" in lines[1]
    assert "reachable again" in lines[2]


@pytest.mark.django_db
def test_while_the_cache_is_unreachable_the_limits_let_requests_through_and_a_right_code_logs_in(
        team_event, settings, monkeypatch):
    """The limits fail open: wrong table codes are not counted (each answered "wrong", never
    429), the right code logs in, and downloads and page builds past their rates are served."""
    monkeypatch.setattr(cache_backend, "SKIP_SECONDS", 0.0)
    settings.CACHES = {"default": {"BACKEND": "tournament.cache_backend.FailSoftRedisCache",
                                   "LOCATION": f"redis://127.0.0.1:{_free_port()}/0"}}  # nothing listens there
    settings.TABLE_LOGIN_RATE_PER_ADDRESS, settings.TABLE_LOGIN_RATE_TOTAL = "2/10m", "3/10m"
    settings.PUBLIC_DOWNLOAD_RATE = settings.PUBLIC_PAGE_BUILD_RATE = "1/m"
    table = Table.objects.filter(group__session__event=team_event).order_by("number").first()
    phone, login = Client(), f"/e/{team_event.slug}/entry/login/"
    assert [phone.post(login, {"code": f"WR0NGC0DE{n}"}).status_code for n in range(6)] == [400] * 6
    assert phone.post(login, {"code": table.login_code}).status_code == 302
    for path in ("standings.csv", "projector.json", "standings/", "standings/players/", "teams/"):
        for _ in range(3):
            answer = Client().get(f"/e/{team_event.slug}/{path}")
            assert answer.status_code == 200, (path, answer.status_code)


# --- the site while Redis hangs, dies and comes back ------------------------------------------------


def _normal(response) -> object:
    """What a response says, apart from what differs per request (the CSRF token; the time
    ``projector.json`` was made)."""
    if response["Content-Type"].startswith("application/json"):
        data = response.json()
        if isinstance(data, dict):
            data.pop("updated", None)
        return data
    return CSRF.sub(r'\1"', response.content.decode())


class Visitors:
    """The readers of an event day: anonymous phones and the hall's projector reading the public
    pages, and a phone logging in with its table's printed code."""

    def __init__(self, event, table: Table):
        self.event, self.table = event, table
        slug = event.slug
        self.pages = [f"/e/{slug}/standings/", f"/api/events/{slug}/standings/", f"/e/{slug}/standings.csv",
                      f"/e/{slug}/projector.json", f"/e/{slug}/standings/players/", f"/e/{slug}/travellers/1/1/"]
        self.slowest = 0.0

    def timed(self, call):
        """``call()``'s response; the slowest answer so far is kept in ``slowest`` (seconds)."""
        started = time.monotonic()
        response = call()
        self.slowest = max(self.slowest, time.monotonic() - started)
        return response

    def read(self) -> dict[str, object]:
        """Every page, read by a new phone (a visitor with no cookie) and checked against the same
        request with no cache; ``{path: what it says}``."""
        seen = {}
        for path in self.pages:
            response = self.timed(lambda path=path: Client().get(path))
            assert response.status_code == 200, (path, response.status_code, response.content[:300])
            with override_settings(CACHES=NO_CACHE):
                built = Client().get(path)
            assert built.status_code == 200
            assert _normal(response) == _normal(built), path
            seen[path] = _normal(response)
        return seen

    def log_in_by_the_score_sheet(self) -> None:
        """The score sheet's QR code: its page, then its button; the table's page after."""
        phone = Client()
        link = f"/e/{self.event.slug}/entry/login/{self.table.login_code}"
        assert self.timed(lambda: phone.get(link)).status_code == 200
        answer = self.timed(lambda: phone.post(link, {"code": self.table.login_code}))
        assert answer.status_code == 302, answer.content[:300]
        assert self.timed(lambda: phone.get(answer["Location"])).status_code == 200


class Scorers:
    """Table 1 scoring through the API with a scorer's token, table 5 on the table page as its
    phone does (logged in with the table's code); each set entered by East, confirmed by South."""

    def __init__(self, event, api_table: Table, web_table: Table, token: str, timed):
        self.event, self.api_table, self.web_table, self.timed = event, api_table, web_table, timed
        self.api = Client(HTTP_AUTHORIZATION=f"Token {token}")
        self.phone = Client()
        assert self.phone.post(f"/e/{event.slug}/entry/login/", {"code": web_table.login_code}).status_code == 302

    def through_the_api(self, set_no: int) -> None:
        table, results = self.api_table, f"/api/events/{self.event.slug}/results/"
        entered = self.timed(lambda: self.api.post(results, json.dumps(
            {"table": table.number, "set_no": set_no, "changes": CHANGES, "entered_by_seat": "E",
             "entry_pin": pin(table, "E")}), content_type="application/json", HTTP_IDEMPOTENCY_KEY=f"outage-enter-{set_no}"))
        assert entered.status_code == 201, entered.content[:300]
        confirmed = self.timed(lambda: self.api.post(
            f"{results}{entered.json()['id']}/confirm/", json.dumps({"pin": pin(table, "S")}),
            content_type="application/json", HTTP_IDEMPOTENCY_KEY=f"outage-confirm-{set_no}"))
        assert confirmed.status_code == 200 and confirmed.json()["status"] == "confirmed", confirmed.content[:300]

    def on_the_table_page(self, set_no: int) -> None:
        table = self.web_table
        url = f"/e/{self.event.slug}/table/{table.pk}/"
        page = self.timed(lambda: self.phone.get(url))
        assert page.status_code == 200
        form = {"set_no": str(set_no), "mode": "outcome", "kind": "discard", "winners": "E", "discarder": "S",
                "value_E": "10", "request_key": page.context["form"]["request_key"].value(), **entering(table, "E")}
        saved = self.timed(lambda: self.phone.post(url, form))
        assert saved.status_code == 302 and "confirm=" in saved["Location"], saved.content[:300]
        result = int(saved["Location"].split("confirm=")[1].split("#")[0])
        page = self.timed(lambda: self.phone.get(url)).content.decode()
        key = page.split(f'id="confirm-{result}"', 1)[1].split('name="request_key" value="', 1)[1].split('"', 1)[0]
        confirmed = self.timed(lambda: self.phone.post(f"{url}confirm/{result}/", {
            "pin": pin(table, "S"), "revision": "1", "request_key": key}, follow=True))
        assert confirmed.status_code == 200 and "confirmed." in confirmed.content.decode()


@pytest.mark.django_db
def test_redis_hung_then_killed_mid_event_serves_every_page_from_the_database_and_entry_goes_on(
        redis_cache, team_event, django_user_model, caplog):
    tables = {t.number: t for t in Table.objects.filter(group__session__event=team_event, group__session__number=1)}
    api_table, web_table = tables[1], tables[5]
    # every other table has played set 1 (and the sets before it): the two tables release it
    play_slots(team_event, random.Random(44), through_set=1, tables=[n for n in tables if n not in (1, 5)])
    user = django_user_model.objects.create_user("outage-scorer", password="pw-outage-scorer")
    EventRole.objects.create(event=team_event, user=user, role=EventRole.Role.SCORER).tables.add(api_table)
    visitors = Visitors(team_event, web_table)
    scorers = Scorers(team_event, api_table, web_table, api_key(user), visitors.timed)

    with caplog.at_level(logging.WARNING, logger="tournament.cache_backend"):
        # Redis up: set 1 at table 1, the pages read and cached
        scorers.through_the_api(1)
        before = visitors.read()
        visitors.log_in_by_the_score_sheet()
        assert redis_cache.keys() > 0

        # Redis hangs: table 5 plays set 1, which releases it; the pages show it at once
        redis_cache.hang()
        visitors.slowest = 0.0
        scorers.on_the_table_page(1)
        released = visitors.read()
        assert released[f"/e/{team_event.slug}/standings.csv"] != before[f"/e/{team_event.slug}/standings.csv"]
        visitors.log_in_by_the_score_sheet()
        scorers.through_the_api(2)
        visitors.read()

        # Redis killed: refused connections
        redis_cache.kill()
        scorers.on_the_table_page(2)
        scorers.through_the_api(3)
        visitors.read()
        visitors.log_in_by_the_score_sheet()
        assert visitors.slowest < SLOWEST, f"a request took {visitors.slowest:.2f} s while Redis was down"

        # Redis back, empty: once the skip window is over, the cache is used again
        redis_cache.start()
        assert redis_cache.keys() == 0
        time.sleep(cache_backend.SKIP_SECONDS + 0.1)
        scorers.on_the_table_page(3)
        visitors.read()
        visitors.log_in_by_the_score_sheet()
        assert redis_cache.keys() > 0
        standings = f"/e/{team_event.slug}/standings/"
        with override_settings(CACHES=NO_CACHE), CaptureQueriesContext(connection) as built:
            assert Client().get(standings).status_code == 200
        with CaptureQueriesContext(connection) as cached:
            assert Client().get(standings).status_code == 200
        assert len(cached.captured_queries) < len(built.captured_queries)  # read from Redis, not built

    lines = [r.getMessage() for r in caplog.records if r.name == "tournament.cache_backend"]
    assert 2 <= len(lines) <= 3, lines  # the start, perhaps once more after LOG_EVERY, the end
    assert "unreachable" in lines[0] and "reachable again" in lines[-1]
