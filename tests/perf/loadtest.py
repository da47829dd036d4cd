"""The load test behind ``python manage.py loadtest``: result entry by concurrent scorers against
gunicorn and PostgreSQL on loopback (docs/deploy.md, "Load test"). A benchmark that prints what it measured, never a
timed unit test.

What it does:

1. :func:`build_event` creates a fresh team event with one table per scorer or more (teams =
   scorers rounded up to a multiple of 4; 50 scorers → 52 teams, 52 tables per session),
   seats ``sessions`` sessions with their walls, and gives every scorer a user with the event
   role *scorer* and an API token. Scorer *i* owns tables *i*, *i + scorers*, ... of each
   session, so no two scorers ever enter the same result.
2. :func:`start_gunicorn` serves the project with gunicorn on 127.0.0.1 (gthread workers,
   ``DEBUG`` off, persistent database connections) against the same database.
3. :func:`run_scorers` starts one thread per scorer, all at once. Each enters its tables'
   hands in play order through ``POST /api/events/<slug>/results/`` (a plausible MCR outcome,
   :func:`tournament.demo.plausible_outcome`) and confirms each one with a seated player's PIN
   through ``POST .../results/<id>/confirm/``, until its hands are done or ``duration`` seconds
   have passed. Every request's latency is recorded; an error is any answer other than
   201 (enter) or 200 (confirm), or no answer at all.
4. :func:`count_stored` counts what the database holds, so lost results (accepted but not
   stored) show: stored must equal accepted.

Goal (docs/deploy.md, "Load test"): at least 300 requests per second, p99 latency under 100 ms, no error, no lost
result, with 50 scorers.

Needs the ``bench`` extra (httpx for the scorers' requests, psutil for the CPU figures):
``pip install -e '.[bench]'``.
"""

from __future__ import annotations

import math
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from django.contrib.auth import get_user_model
from django.db import connection

from scoring.models import HandResult
from tournament.api_tokens import issue_token
from tournament.demo import plausible_outcome
from tournament.models import EventRole, Table
from tournament.services import create_event, import_roster, prepare_session
from tournament.table_plan import table_plan

ROOT = Path(__file__).resolve().parents[2]  # the repository root: gunicorn serves the project from it
GOAL_RPS = 300
GOAL_P99_MS = 100
MAX_DURATION = 60.0


@dataclass(frozen=True)
class Hand:
    """One result to enter: session, event-wide table number, set, outcome, and the PIN of a
    seated player who confirms it."""

    session: int
    table: int
    set_no: int
    outcome: dict
    pin: str


@dataclass(frozen=True)
class ScorerPlan:
    """What one scorer enters, in order, with its API token."""

    token: str
    hands: list[Hand]


@dataclass
class Measurements:
    """Raw figures of a run: per-request latencies (seconds), counts of accepted entries and
    confirmations, errors with a few samples, and the wall-clock duration (seconds)."""

    latencies: list[float] = field(default_factory=list)
    accepted: int = 0
    confirmed: int = 0
    errors: int = 0
    error_samples: list[str] = field(default_factory=list)
    duration: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def record(self, latency: float, *, accepted: int = 0, confirmed: int = 0, error: str | None = None) -> None:
        with self.lock:
            self.latencies.append(latency)
            self.accepted += accepted
            self.confirmed += confirmed
            if error is not None:
                self.errors += 1
                if len(self.error_samples) < 5:
                    self.error_samples.append(error)


@dataclass(frozen=True)
class LoadReport:
    """A run's figures. Latencies in milliseconds. ``lost`` = accepted but not stored;
    ``unanswered`` = stored although the client got no 2xx answer (a timeout whose request still
    committed): neither is a loss, but the scorer would send it again and get a 409."""

    scorers: int
    tables: int
    sessions: int
    workers: int
    threads: int
    requests: int
    duration: float
    rps: float
    p50_ms: float
    p99_ms: float
    max_ms: float
    errors: int
    error_samples: list[str]
    accepted: int
    stored: int
    confirmed: int
    stored_confirmed: int
    cpu: dict[str, float] = field(default_factory=dict)

    @property
    def lost(self) -> int:
        return max(0, self.accepted - self.stored)

    @property
    def lost_confirmations(self) -> int:
        return max(0, self.confirmed - self.stored_confirmed)

    @property
    def unanswered(self) -> int:
        return max(0, self.stored - self.accepted)

    @property
    def cpu_ms_per_request(self) -> float:
        """All CPU time measured during the load (server, database, client), per request, in ms."""
        return 1000 * sum(self.cpu.values()) / self.requests if self.requests else 0.0

    def goal_misses(self) -> list[str]:
        """The parts of the goal this run missed (empty when it met all of them)."""
        misses = []
        if self.rps < GOAL_RPS:
            misses.append(f"throughput {self.rps:.0f} req/s < {GOAL_RPS}")
        if self.p99_ms >= GOAL_P99_MS:
            misses.append(f"p99 {self.p99_ms:.0f} ms >= {GOAL_P99_MS} ms")
        if self.errors:
            misses.append(f"{self.errors} errors")
        if self.lost or self.lost_confirmations:
            misses.append(f"{self.lost} results and {self.lost_confirmations} confirmations lost")
        return misses

    def lines(self) -> list[str]:
        misses = self.goal_misses()
        lines = [
            f"load test: {self.scorers} scorers, {self.tables} tables x {self.sessions} sessions, "
            f"gunicorn {self.workers} workers x {self.threads} threads on 127.0.0.1, PostgreSQL, {os.cpu_count()} CPUs",
            f"requests: {self.requests} in {self.duration:.1f} s = {self.rps:.1f} req/s",
            f"latency: p50 {self.p50_ms:.1f} ms, p99 {self.p99_ms:.1f} ms, max {self.max_ms:.1f} ms",
            f"errors: {self.errors}",
            *(f"  {sample}" for sample in self.error_samples),
            f"results: accepted {self.accepted}, stored {self.stored}, lost {self.lost}, "
            f"stored without an answer {self.unanswered}",
            f"confirmations: accepted {self.confirmed}, stored {self.stored_confirmed}, lost {self.lost_confirmations}",
            *(["CPU seconds during the load: " + ", ".join(f"{name} {seconds:.1f}" for name, seconds in self.cpu.items())
               + (f" ({self.cpu_ms_per_request:.1f} ms of CPU per request)" if self.requests else "")]
              if self.cpu else []),
            "goal (>= 300 req/s, p99 < 100 ms, 0 errors, 0 lost): "
            + ("met" if not misses else "not met: " + "; ".join(misses)),
        ]
        return lines


def percentile(values: list[float], q: int) -> float:
    """The ``q``-th percentile (1..99) of ``values`` (inclusive method); 0 for no values."""
    if len(values) < 2:
        return values[0] if values else 0.0
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def roster_csv(teams: int, seats: int) -> str:
    """A roster of ``teams`` teams with ``seats`` players each (``team,player`` CSV)."""
    rows = ["team,player"]
    rows += [f"Load Team {t},Player {t}.{m}" for t in range(1, teams + 1) for m in range(1, seats + 1)]
    return "\n".join(rows) + "\n"


def build_event(*, scorers: int, sessions: int, seed: int = 9):
    """Create the load-test event and its scorers; returns ``(event, [ScorerPlan, ...])``.

    Uses the same services as the web pages (create_event, import_roster, prepare_session). The event's slug and the users' names start with ``loadtest-``.
    """
    stamp = f"loadtest-{int(time.time())}-{secrets.token_hex(2)}"
    event = create_event(name=f"Load test {stamp}", slug=stamp, sessions=sessions)
    ruleset = event.get_ruleset()
    seats = tuple(ruleset.seats)
    teams = len(seats) * math.ceil(scorers / len(seats))
    import_roster(event, roster_csv(teams, len(seats)))
    for number in range(1, sessions + 1):
        prepare_session(event, number)
    rng = random.Random(seed)
    users = get_user_model().objects
    plans = []
    tables = list(Table.objects.filter(group__session__event=event).select_related("group__session")
                  .prefetch_related("seats__player").order_by("group__session__number", "number"))
    for index in range(scorers):
        user = users.create_user(f"{stamp}-scorer-{index + 1}", password=secrets.token_urlsafe(16))
        role = EventRole.objects.create(event=event, user=user, role=EventRole.Role.SCORER)
        hands = []
        for table in tables:
            if (table.number - 1) % scorers != index:
                continue
            role.tables.add(table)
            pin = next(s.player.pin for s in table.seats.all() if s.seat == seats[1])
            for _, sets in table_plan(table).blocks(table):
                hands += [Hand(table.group.session.number, table.number, s, plausible_outcome(rng, seats), pin) for s in sets]
        plans.append(ScorerPlan(issue_token(user), hands))
    return event, plans


def delete_event(event) -> None:
    """Remove the load-test event and its scorer users."""
    get_user_model().objects.filter(username__startswith=f"{event.slug}-scorer-").delete()
    event.delete()


def count_stored(event) -> tuple[int, int]:
    """(results stored, results stored as confirmed) of ``event``."""
    results = HandResult.objects.filter(event=event)
    return results.count(), results.filter(status=HandResult.Status.CONFIRMED).count()


def cpu_seconds(server_pid: int) -> dict[str, float]:
    """CPU time (user + system, seconds) used so far by gunicorn (``server_pid`` and its
    workers), PostgreSQL (every ``postgres`` process on this machine) and this process (the
    client threads): ``{"gunicorn": s, "postgresql": s, "client": s}``, read with psutil.
    Processes that end in between (or belong to another user) are not counted."""
    import psutil

    def used(process: psutil.Process) -> float:
        try:
            times = process.cpu_times()
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            return 0.0
        return times.user + times.system

    totals = {"gunicorn": 0.0, "postgresql": 0.0}
    try:
        server = psutil.Process(server_pid)
        totals["gunicorn"] = used(server) + sum(used(child) for child in server.children(recursive=True))
    except psutil.NoSuchProcess:
        pass
    for process in psutil.process_iter(["name"]):
        if (process.info["name"] or "").startswith("postgres"):
            totals["postgresql"] += used(process)
    own = os.times()
    totals["client"] = own.user + own.system
    return totals


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_gunicorn(port: int, *, workers: int, threads: int, log: Path) -> subprocess.Popen:
    """gunicorn serving the project on 127.0.0.1:``port`` as in production (DEBUG off, a random
    secret key, persistent database connections), on the database of this process's
    ``DATABASE_URL``. Its output goes to ``log``."""
    env = {
        **os.environ, "DEBUG": "0", "SECRET_KEY": secrets.token_urlsafe(50), "ALLOWED_HOSTS": "127.0.0.1",
        "CONN_MAX_AGE": os.environ.get("CONN_MAX_AGE", "60"), "LOG_LEVEL": "ERROR",
    }
    return subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "tournament.wsgi:application", "--bind", f"127.0.0.1:{port}",
         "--workers", str(workers), "--worker-class", "gthread", "--threads", str(threads),
         "--backlog", "2048", "--log-level", "warning"],
        cwd=ROOT, env=env, stdout=log.open("ab"), stderr=subprocess.STDOUT, start_new_session=True,
    )


def wait_ready(base_url: str, server: subprocess.Popen, timeout: float = 30.0) -> None:
    """Wait until the server answers ``/api/events/``; raises RuntimeError if it exits or times out."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"gunicorn exited with status {server.returncode} before answering")
        try:
            if httpx.get(f"{base_url}/api/events/", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"gunicorn did not answer within {timeout:.0f} s")


def stop(server: subprocess.Popen) -> None:
    """Stop gunicorn (its whole process group): TERM, then KILL after 10 s."""
    import signal

    if server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


def _scorer(base_url: str, slug: str, plan: ScorerPlan, start: threading.Barrier, deadline_box: list,
            out: Measurements) -> None:
    url = f"{base_url}/api/events/{slug}/results/"
    with httpx.Client(headers={"Authorization": f"Token {plan.token}"}, timeout=10.0) as client:
        start.wait()
        for hand in plan.hands:
            if time.monotonic() >= deadline_box[0]:
                return
            body = {"session_number": hand.session, "table": hand.table, "set_no": hand.set_no, "outcome": hand.outcome}
            result_id = _timed(client, "post", url, body, 201, out, counts="accepted")
            if result_id is None:
                continue
            _timed(client, "post", f"{url}{result_id}/confirm/", {"pin": hand.pin}, 200, out, counts="confirmed")


def _timed(client: httpx.Client, method: str, url: str, body: dict, expected: int, out: Measurements, *, counts: str):
    began = time.perf_counter()
    try:
        response = client.request(method, url, json=body)
    except httpx.HTTPError as exc:
        out.record(time.perf_counter() - began, error=f"{method.upper()} {url}: {type(exc).__name__}: {exc}")
        return None
    latency = time.perf_counter() - began
    if response.status_code != expected:
        out.record(latency, error=f"{method.upper()} {url}: {response.status_code} {response.text[:200]}")
        return None
    out.record(latency, **{counts: 1})
    return response.json()["id"]


def run_scorers(base_url: str, slug: str, plans: list[ScorerPlan], duration: float) -> Measurements:
    """One thread per plan, started together; stops after ``duration`` seconds at the latest."""
    out = Measurements()
    start = threading.Barrier(len(plans) + 1)
    deadline_box = [math.inf]
    threads = [threading.Thread(target=_scorer, args=(base_url, slug, plan, start, deadline_box, out), daemon=True)
               for plan in plans]
    for thread in threads:
        thread.start()
    deadline_box[0] = time.monotonic() + duration
    began = time.perf_counter()
    start.wait()
    for thread in threads:
        thread.join()
    out.duration = time.perf_counter() - began
    return out


def serve_and_run(slug: str, plans: list[ScorerPlan], *, duration: float, workers: int, threads: int,
                  log: Path) -> tuple[Measurements, dict[str, float]]:
    """Serve the project with gunicorn on a free loopback port, run ``plans`` against event
    ``slug`` for at most ``duration`` seconds, stop gunicorn; returns the measurements and the
    CPU seconds each part used meanwhile (:func:`cpu_seconds`). Works on any database the
    settings name (the load test proper insists on PostgreSQL; tests use it on SQLite).
    Raises RuntimeError when gunicorn does not start."""
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    server = start_gunicorn(port, workers=workers, threads=threads, log=log)
    try:
        wait_ready(base_url, server)
        before = cpu_seconds(server.pid)
        measured = run_scorers(base_url, slug, plans, duration)
        after = cpu_seconds(server.pid)
    finally:
        stop(server)
    return measured, {name: after[name] - before.get(name, 0.0) for name in after}


def run(*, scorers: int = 50, sessions: int = 4, duration: float = 40.0, workers: int | None = None,
        threads: int = 8, keep: bool = False, log: Path | None = None) -> LoadReport:
    """Build the event, serve it with gunicorn, run the scorers, count what was stored, clean up.

    ``duration``: upper bound of the load phase in seconds (at most 60). ``workers``: gunicorn
    processes (default: CPUs + 1). Raises ValueError for out-of-range arguments and RuntimeError
    when the database is not PostgreSQL or gunicorn does not start.
    """
    if connection.vendor != "postgresql":
        raise RuntimeError("the load test runs against PostgreSQL: set DATABASE_URL=postgres://... (docs/deploy.md)")
    if not 0 < duration <= MAX_DURATION:
        raise ValueError(f"duration: give 1 to {MAX_DURATION:.0f} seconds")
    if scorers < 1 or sessions < 1:
        raise ValueError("scorers and sessions: give at least 1")
    workers = workers or (os.cpu_count() or 1) + 1
    event, plans = build_event(scorers=scorers, sessions=sessions)
    log = log or Path(os.environ.get("TMPDIR", "/tmp")) / f"{event.slug}-gunicorn.log"
    measured, cpu = serve_and_run(event.slug, plans, duration=duration, workers=workers, threads=threads, log=log)
    stored, stored_confirmed = count_stored(event)
    latencies_ms = [latency * 1000 for latency in measured.latencies]
    report = LoadReport(
        scorers=scorers, tables=event.teams.count(), sessions=sessions, workers=workers, threads=threads,
        requests=len(latencies_ms), duration=measured.duration,
        rps=len(latencies_ms) / measured.duration if measured.duration else 0.0,
        p50_ms=percentile(latencies_ms, 50), p99_ms=percentile(latencies_ms, 99), max_ms=max(latencies_ms, default=0.0),
        errors=measured.errors, error_samples=measured.error_samples, accepted=measured.accepted, stored=stored,
        confirmed=measured.confirmed, stored_confirmed=stored_confirmed, cpu=cpu,
    )
    if not keep:
        delete_event(event)
    return report
