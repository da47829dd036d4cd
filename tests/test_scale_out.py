"""docs/deploy.md, "Scaling out": two gunicorn nodes sharing PostgreSQL and Redis behave as one
site. Two gunicorn processes on different ports, with the same ``DATABASE_URL`` (the test
database) and the same ``CACHE_URL=redis://...``:

- the table-login throttle counts wrong codes from one address across both nodes: spread over
  the two, the limit is hit at the same total as on one node (docs/security.md, "Table login");
- a cached page is seen consistently: after the director gives a penalty through node A, node B
  serves the new standings, not its cached copy.

Runs in the services half of .ci/run (PostgreSQL and Redis on 127.0.0.1); skipped elsewhere.
The nodes run with DEBUG on only so that they serve static file URLs without a collectstatic run;
nothing the test checks depends on it.
"""

import os
import re
import secrets
import socket
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
import redis
from django.conf import settings as django_settings
from django.db import connection
from django.test import Client

from scoring.models import Adjustment
from test_entry_concurrency import _reachable
from tests.perf.loadtest import wait_ready

ROOT = Path(__file__).resolve().parent.parent
REDIS = ("127.0.0.1", 6379)
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"')


def _database_url() -> str:
    s = connection.settings_dict
    auth = quote(s["USER"]) + (f":{quote(s['PASSWORD'])}" if s["PASSWORD"] else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def two_nodes(tmp_path):
    """Two gunicorn nodes on the test database and one Redis cache (a key prefix of this test);
    yields their base URLs. Stops both and removes the cache keys afterwards."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL shared by both nodes: the services half of .ci/run (DATABASE_URL=postgres://...)")
    if not _reachable(REDIS):
        pytest.skip("needs Redis at 127.0.0.1:6379 for the shared cache: the services half of .ci/run")
    prefix = f"dmj-scale-out-{os.getpid()}-{secrets.token_hex(3)}"
    env = {**os.environ, "DATABASE_URL": _database_url(), "CACHE_URL": f"redis://127.0.0.1:6379/14?key_prefix={prefix}",
           "SECRET_KEY": django_settings.SECRET_KEY, "DEBUG": "1", "SECURE": "0", "BEHIND_PROXY": "1",
           "CONN_MAX_AGE": "0", "LOG_LEVEL": "ERROR",
           # a change is seen at once through either node (a visitor's page kept up to a minute is
           # tests/test_stale_pages.py's)
           "PUBLIC_PAGE_STALE_SECONDS": "0"}
    nodes, urls = [], []
    log = tmp_path / "gunicorn.log"
    try:
        for _ in range(2):
            port = _free_port()
            nodes.append(subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "tournament.wsgi:application", "--bind", f"127.0.0.1:{port}",
                 "--workers", "1", "--worker-class", "gthread", "--threads", "2", "--log-level", "warning"],
                cwd=ROOT, env=env, stdout=log.open("ab"), stderr=subprocess.STDOUT, start_new_session=True))
            urls.append(f"http://127.0.0.1:{port}")
        for url, node in zip(urls, nodes):
            _wait_ready(url, node, log)
        yield urls
    finally:
        for node in nodes:
            if node.poll() is None:
                node.terminate()
                try:
                    node.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    node.kill()
                    node.wait()
        client = redis.Redis.from_url("redis://127.0.0.1:6379/14")
        for key in client.scan_iter(f"{prefix}:*"):
            client.delete(key)


def _wait_ready(url: str, node: subprocess.Popen, log: Path) -> None:
    try:
        wait_ready(url, node)
    except RuntimeError as exc:
        pytest.fail(f"{exc}: {log.read_text(errors='replace')[-2000:]}")


def _wrong_codes_until_429(urls: list[str], address: str, limit: int = 40) -> list[int]:
    """Post distinct wrong table codes from ``address`` (X-Real-IP, as the proxy sets it), taking
    the nodes of ``urls`` in turn, until one is answered 429; the statuses in order."""
    statuses = []
    with httpx.Client(timeout=10) as client:
        for n in range(limit):
            base = urls[n % len(urls)]
            form = client.get(f"{base}/entry/login/", headers={"X-Real-IP": address})
            token = CSRF.search(form.text).group(0).split('value="')[1][:-1]
            answer = client.post(f"{base}/entry/login/", data={"code": f"WR0NGC0DE{n:02d}", "csrfmiddlewaretoken": token},
                                 headers={"X-Real-IP": address, "Referer": f"{base}/entry/login/"})
            statuses.append(answer.status_code)
            if answer.status_code == 429:
                break
    return statuses


@pytest.mark.django_db(transaction=True)
def test_the_table_login_throttle_counts_across_both_nodes(two_nodes, settings):
    assert settings.TABLE_LOGIN_RATE_PER_ADDRESS == "10/10m"
    one_node = _wrong_codes_until_429(two_nodes[:1], "10.61.0.1")
    both_nodes = _wrong_codes_until_429(two_nodes, "10.61.0.2")
    assert one_node == [400] * 10 + [429]
    assert both_nodes == one_node  # five wrong codes on each node, then 429 from node A


def _page(client: httpx.Client, url: str) -> str:
    answer = client.get(url)
    assert answer.status_code == 200, (url, answer.status_code)
    return CSRF.sub("", answer.text)  # the language form's token differs per response


@pytest.mark.django_db(transaction=True)
def test_a_cached_page_changed_through_one_node_is_new_on_the_other(two_nodes, team_event, director):
    node_a, node_b = two_nodes
    standings = f"/e/{team_event.slug}/standings/"
    with httpx.Client(timeout=30) as public:
        before = {url: _page(public, url + standings) for url in two_nodes}
        assert _page(public, node_b + standings) == before[node_b]  # node B now answers from the cache
    assert before[node_a] == before[node_b]
    assert "-37" not in before[node_b]

    browser = Client()
    browser.force_login(director)  # a session in the database, which both nodes read
    team = team_event.teams.order_by("number").first()
    penalties = f"{node_a}/e/{team_event.slug}/director/penalties/"
    with httpx.Client(timeout=30, cookies={"sessionid": browser.cookies["sessionid"].value}) as client:
        form = client.get(penalties)
        assert form.status_code == 200
        token = CSRF.search(form.text).group(0).split('value="')[1][:-1]
        given = client.post(penalties, data={"entrant": team.pk, "amount": "-37", "unit": Adjustment.Unit.MP, "session": "",
                                             "reason": "late", "csrfmiddlewaretoken": token}, headers={"Referer": penalties})
        assert given.status_code == 302, given.text[:500]
    assert Adjustment.objects.filter(event=team_event, team=team, amount=-37).count() == 1

    with httpx.Client(timeout=30) as public:
        after_b = _page(public, node_b + standings)
        after_a = _page(public, node_a + standings)
    assert after_b != before[node_b] and "-37" in after_b
    assert after_b == after_a
