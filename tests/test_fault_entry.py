"""docs/deploy.md, "Faults": database connections killed at random moments while tables enter and
confirm results, through the API and through the table page as a phone does, on PostgreSQL.

A killer thread terminates the live server's database connections (``pg_terminate_backend``) at
random intervals of a few tens of milliseconds, so connections die before, during and after the
writes' statements, their commits and the answers' reads. Each scorer sends every write with a
key made for it (as the table page and the offline queue do) and sends it again until an answer
says it is stored. Shown:

- every hand ends up stored exactly once, confirmed once: one result per table and set, one
  revision per key;
- every answer the scorer saw was true when it was given: "stored" (201/200, a redirect to the
  stored result, "Set N confirmed.") only when the key's revision exists, "not stored" only when
  it does not; the other answers claim nothing (503 "not known", a refused connection);
- no answer is a conflict (409) or "already confirmed": a repeat is answered with the result.
"""

from __future__ import annotations

import random
import re
import threading
import time
import uuid
from dataclasses import dataclass, field

import psycopg
import pytest
import requests
from django.contrib.auth import get_user_model
from django.db import connection

from factories import api_key, blocks, pin
from scoring.models import HandResult, ResultRevision
from tournament.models import EventRole, Table
from walls.setcode import set_code

KILL_EVERY = (0.005, 0.15)  # seconds between two kills, drawn uniformly: some gaps longer than a slow confirmation
IDLE_LOOK = 0.002  # seconds before looking again when no connection was there to kill
MAX_SENDINGS = 200  # of one write before the test gives up
TABLES = {"api": 4, "web": 4}


def _dsn() -> str:
    s = connection.settings_dict
    return psycopg.conninfo.make_conninfo(dbname=s["NAME"], user=s["USER"], password=s["PASSWORD"] or None,
                                          host=s["HOST"] or "127.0.0.1", port=s["PORT"] or 5432)


class Killer(threading.Thread):
    """Terminates every client connection to the test database but ``spare`` (the test's own) at
    random moments, until stopped; counts what it killed."""

    def __init__(self, spare: set[int], seed: int):
        super().__init__(daemon=True)
        self.spare, self.rng, self.stopped, self.killed = spare, random.Random(seed), threading.Event(), 0

    def run(self):
        with psycopg.connect(_dsn(), autocommit=True) as conn:
            gap = self.rng.uniform(*KILL_EVERY)
            while not self.stopped.is_set():
                time.sleep(gap)
                rows = conn.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() "
                    "AND backend_type = 'client backend' AND pid <> pg_backend_pid() AND NOT (pid = ANY(%s))",
                    [list(self.spare)]).fetchall()
                killed = sum(1 for (ok,) in rows if ok)
                self.killed += killed
                # After a kill, a random gap; while no request holds a connection, look again soon,
                # so the count of kills follows the writes, not the speed of the machine.
                gap = self.rng.uniform(*KILL_EVERY) if killed else IDLE_LOOK


@dataclass
class Ledger:
    """Every answer a scorer saw, with what it claimed and what was true when it came."""

    answers: list[tuple[str, int, bool | None, bool]] = field(default_factory=list)

    def saw(self, what: str, status: int, claim: bool | None, key: str) -> bool | None:
        """Record an answer claiming ``claim`` (True stored, False not stored, None nothing) about
        the write keyed ``key``, checked against the database now; returns the claim."""
        stored = ResultRevision.objects.filter(request_key=key).exists()
        self.answers.append((what, status, claim, stored))
        return claim

    def false_answers(self):
        return [a for a in self.answers if a[2] is not None and a[2] != a[3]]


def _send(ledger: Ledger, what: str, key: str, post) -> requests.Response:
    """Send ``post()`` again until an answer says the write is stored; returns that answer."""
    for _ in range(MAX_SENDINGS):
        try:
            response = post()
        except requests.ConnectionError:
            ledger.answers.append((what, 0, None, False))
            continue
        claim = _claim(response)
        ledger.saw(what, response.status_code, claim, key)
        if claim:
            return response
        assert response.status_code in (500, 502, 503), (what, response.status_code, response.text[:500])
        time.sleep(0.005)
    pytest.fail(f"{what}: not stored after {MAX_SENDINGS} sendings")


def _claim(response: requests.Response) -> bool | None:
    """What an answer says of the write: stored (True), not stored (False), or nothing (None)."""
    if response.status_code in (200, 201):
        return True
    if response.status_code == 302:
        location = response.headers["Location"]
        return True if "confirm=" in location or location.rstrip("/").endswith(tuple("0123456789")) else None
    if response.status_code == 503:
        if "application/json" in response.headers.get("Content-Type", ""):
            return response.json().get("stored")
        text = response.text
        return False if "Not stored" in text else (True if "Stored:" in text else None)
    return None


def _get(session: requests.Session, url: str) -> requests.Response:
    """A page read, again until it answers 200 (a read claims nothing)."""
    for _ in range(MAX_SENDINGS):
        try:
            response = session.get(url, allow_redirects=False, timeout=30)
        except requests.ConnectionError:
            continue
        if response.status_code == 200:
            return response
        assert response.status_code in (500, 503), (url, response.status_code, response.text[:300])
    pytest.fail(f"GET {url}: no page after {MAX_SENDINGS} tries")


def _hidden(html: str, name: str, after: str = "") -> str:
    html = html.split(after, 1)[1] if after else html
    return re.search(rf'name="{name}" value="([^"]+)"', html).group(1)


def _api_scorer(base, event, tables, ledger, token):
    api = requests.Session()
    api.headers["Authorization"] = f"Token {token}"
    for table in tables:
        for set_no in blocks(table)[0][1]:
            key = f"api-enter-{uuid.uuid4()}"
            body = {"table": table.number, "set_no": set_no, "changes": {"E": 48, "S": -16, "W": -16, "N": -16},
                    "entered_by_seat": "E", "entry_pin": pin(table, "E")}
            entered = _send(ledger, "api enter", key, lambda body=body, key=key: api.post(
                f"{base}/api/events/{event.slug}/results/", json=body, headers={"Idempotency-Key": key}, timeout=30)).json()
            key, confirming = f"api-confirm-{uuid.uuid4()}", {"pin": pin(table, "S")}
            url = f"{base}/api/events/{event.slug}/results/{entered['id']}/confirm/"
            confirmed = _send(ledger, "api confirm", key, lambda key=key, url=url, confirming=confirming: api.post(
                url, json=confirming, headers={"Idempotency-Key": key}, timeout=30)).json()
            assert confirmed["status"] == "confirmed" and confirmed["id"] == entered["id"]


def _web_scorer(base, event, table, ledger):
    """A phone at ``table``: logs in with the table's code, enters each set of the first block on
    the table page and has another seat confirm it there, sending each form again (same key) until
    the answer says it is stored."""
    phone = requests.Session()
    login = _get(phone, f"{base}/entry/login/")
    for _ in range(MAX_SENDINGS):
        try:
            answer = phone.post(f"{base}/entry/login/", data={"code": table.login_code, "csrfmiddlewaretoken": _hidden(
                login.text, "csrfmiddlewaretoken")}, headers={"Referer": f"{base}/entry/login/"}, allow_redirects=False, timeout=30)
        except requests.ConnectionError:
            continue
        if answer.status_code == 302:
            break
        login = _get(phone, f"{base}/entry/login/")
    page_url = f"{base}/e/{event.slug}/table/{table.pk}/"
    for set_no in blocks(table)[0][1]:
        page = _get(phone, page_url)
        key = _hidden(page.text, "request_key", 'id="entry"')
        form = {"csrfmiddlewaretoken": _hidden(page.text, "csrfmiddlewaretoken"), "request_key": key, "set_no": str(set_no),
                "mode": "outcome", "kind": "discard", "winners": "E", "discarder": "S", "value_E": "10",
                "entered_by_seat": "E", "entry_pin": pin(table, "E")}
        saved = _send(ledger, "web enter", key, lambda form=form: phone.post(page_url, data=form, headers={"Referer": page_url},
                                                                             allow_redirects=False, timeout=30))
        result_id = int(saved.headers["Location"].split("confirm=")[1].split("#")[0])
        page = _get(phone, page_url)
        key = _hidden(page.text, "request_key", f'id="confirm-{result_id}"')
        form = {"csrfmiddlewaretoken": _hidden(page.text, "csrfmiddlewaretoken"), "request_key": key, "revision": "1",
                "pin": pin(table, "S")}
        confirm_url = f"{base}/e/{event.slug}/table/{table.pk}/confirm/{result_id}/"
        for _ in range(MAX_SENDINGS):
            try:
                answer = phone.post(confirm_url, data=form, headers={"Referer": page_url}, allow_redirects=False, timeout=30)
            except requests.ConnectionError:
                ledger.answers.append(("web confirm", 0, None, False))
                continue
            stored_then = ResultRevision.objects.filter(request_key=key).exists()
            if answer.status_code == 302:  # the answer is the message on the page it leads to
                text = _get(phone, page_url).text
                claim = True if f"Set {set_code(1, set_no)} confirmed." in text else (False if "Not stored" in text else None)
                assert "already confirmed" not in text
            else:
                claim = _claim(answer)
            ledger.answers.append(("web confirm", answer.status_code, claim, stored_then))
            if claim:
                break
        else:
            pytest.fail(f"web confirm of table {table.number} set {set_no}: not stored")


@pytest.mark.django_db(transaction=True)
def test_killed_connections_lose_nothing_double_nothing_and_every_answer_is_true(team_event, live_server, settings):
    if connection.vendor != "postgresql":
        pytest.skip("kills PostgreSQL server processes: run with DATABASE_URL on PostgreSQL (.ci/run's services half)")
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "localhost", "127.0.0.1"]
    user = get_user_model().objects.create_user("fault-scorer", password="pw-fault-scorer")
    tables = list(Table.objects.filter(group__session__event=team_event, group__session__number=1).order_by("number")
                  [:TABLES["api"] + TABLES["web"]])
    EventRole.objects.create(event=team_event, user=user, role=EventRole.Role.SCORER).tables.set(tables)
    token = api_key(user)
    connection.ensure_connection()
    ledger = Ledger()
    killer = Killer({connection.connection.info.backend_pid}, seed=28)
    killer.start()
    try:
        _api_scorer(live_server.url, team_event, tables[:TABLES["api"]], ledger, token)
        for table in tables[TABLES["api"]:]:
            _web_scorer(live_server.url, team_event, table, ledger)
    finally:
        killer.stopped.set()
        killer.join(timeout=10)

    hands = sum(len(blocks(t)[0][1]) for t in tables)
    assert killer.killed >= hands, f"only {killer.killed} connections were killed: the test did not test faults"
    assert not ledger.false_answers(), ledger.false_answers()
    assert HandResult.objects.filter(table__in=tables).count() == hands
    assert not HandResult.objects.filter(table__in=tables).exclude(status="confirmed").exists()
    assert ResultRevision.objects.filter(result__table__in=tables, action="enter").count() == hands
    assert ResultRevision.objects.filter(result__table__in=tables, action="confirm").count() == hands
    faults = [a for a in ledger.answers if a[2] is not True]
    assert faults, "no sending met a fault"
    print(f"\n{hands} hands, {len(ledger.answers)} answers, {len(faults)} met a fault "
          f"({sum(1 for a in faults if a[2] is False)} said not stored), {killer.killed} connections killed")
