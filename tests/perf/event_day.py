"""The event-day simulation behind ``python manage.py bench event-day``: result entry at 256 tables
and 1,000 phones reading pages, open loop, against the production layout (nginx in front of two
gunicorn pools, docs/deploy.md "Reserved capacity for result entry") on PostgreSQL. A benchmark
that prints what it measured beside a baseline of the same run, never a timed unit test.

**The event** starts with :data:`PLAYED_BEFORE` sessions played (results stored in bulk with
their hands, every set released: :func:`tests.perf.played.played_event`).

**The day it simulates** (real seconds from the start of a run; every arrival is on a schedule
drawn before the run and sent at its time whether or not earlier requests were answered):

- *Play* (the last ``play_minutes`` of the round, default 3, compressed by ``time_scale``,
  default 6: 30 s): each table enters one hand every ``hand_minutes`` (6) of event time, so 256
  tables send 128 hands spread at random over the phase (6 times the rate of the real day). Phones read little while their players play: one
  page per phone every ``phone_play_interval`` seconds (300) on average (Poisson arrivals).
- *Round end* (``burst_seconds``, 20, not compressed): every table enters the hand that ends the
  round, 256 hands at random within the 20 s. The round end is a session's end: before each run
  the tables play ahead (unmeasured) to as many hands before the end of their session as the run
  gives them (:meth:`DayEvent.end_session_with`), so every set still in play is released during
  the run and every public page goes out of date, as on the day. Every phone then reads the standings, its team's
  page and its player's page (3 to 8 s apart), starting at random within ``phone_burst_seconds``
  (30) of the round's end.
- *Break* (``break_seconds``, 30): phones poll, one page per phone every ``phone_break_interval``
  seconds (60) on average, mostly the standings. ``projectors`` projectors (2) poll
  ``projector.json`` every 10 s throughout, and the director's session (logged in through the
  login page) the live grid every ``director_interval`` seconds (5).

Outside the round end a phone's page is the standings, its team's or player's page, the
traveller of a set released before the run, the players list or (rarely) the export download.

Each entry (``POST /api/events/<slug>/results/`` with the table's scorer's token) is confirmed
2 to 6 s after its answer by a seated player's PIN (``POST .../results/<id>/confirm/``). A phone
that was given an ETag for a page sends ``If-None-Match`` the next time it reads that page, and
the cookies it was given (as a browser keeps them).

``scale`` multiplies the load: hands per phase (the extra hands are the tables' next sets) and
phones. Hands go to the tables that have entered fewest so far (over every run of the bench), and
no hand is sent before the hands the room must play first (:func:`in_play_order`): the table's
previous hand, and the same set at the table the wall comes from. The *baseline* is the same schedule with the writers only, in the same run, against the
same servers.

**Failures**: an entry or confirmation fails unless answered 201 (entry) or 200 (confirm) within
``timeout`` seconds (10); a page read fails unless answered 200 or 304 within it. After the runs
every stored result of the sessions played is checked against what was sent
(:meth:`DayEvent.check_stored`); a mismatch is a failure. Goals
(:data:`GOAL_ENTRY_P99_MS`, :data:`GOAL_PAGE_P99_MS`, :data:`GOAL_STALE_SECONDS`): no failed entry or
confirmation, entry p99 under 150 ms, page p99 under 250 ms, no page answered more than a minute
older than another phone had been answered before (:meth:`Figures.stale`). ``find_max`` looks for the highest ``scale`` that meets them.

**Layout**: nginx (when installed) with deploy/nginx/dmj-pools.conf, the production routing, in
front of two gunicorn pools started with deploy/gunicorn.conf.py: the write pool and the read pool,
the read pool's processes at a lower CPU priority (``nice``, the bench's stand-in for the
production units' ``CPUWeight``). Without nginx the client routes each request itself with the same
map (:func:`pool_for`) and says so. Server CPU is measured with psutil over both pools, nginx and
every PostgreSQL process; the client's own CPU is printed apart (it shares the machine).

Needs the ``bench`` extra (httpx, psutil) and PostgreSQL (``DATABASE_URL``).
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import random
import re
import runpy
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import httpx
import redis
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client

from scoring.models import HandResult
from scoring.visibility import released_sets
from tournament.api_tokens import issue_token
from tournament.demo import plausible_outcome
from tournament.models import EventRole, Player
from tournament.services import prepare_session
from tournament.table_plan import session_plan

from tests.perf.loadtest import free_port, percentile, stop, wait_ready
from tests.perf.played import entry_body, played_event

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
POOLS_MAP = DEPLOY / "nginx" / "dmj-pools.conf"
#: seconds between an entry and the next one that must follow it in the room (:func:`in_play_order`)
CARRY_SECONDS = 1.0
GOAL_ENTRY_P99_MS = 150.0
GOAL_PAGE_P99_MS = 250.0
#: a visitor's page is built at most once a minute (settings.PUBLIC_PAGE_STALE_SECONDS): no phone is
#: shown a page more than that older than another phone's answer before it asked
GOAL_STALE_SECONDS = 60.0
_PUBLIC_TAG = re.compile(r'W/"P(\d+)-')
TABLES_PER_SCORER = 8
# A PostgreSQL backend's process title: "postgres: [cluster: ]<user> <database> <client> <state>".
BACKEND_TITLE = re.compile(r"postgres: (?:\S+: )?(\S+) (\S+) (?:\S*\(\d+\)|\[local\])")
SESSIONS_PLANNED = 60
#: sessions already played when the simulation starts (results stored in bulk, sets released)
PLAYED_BEFORE = 3
#: the phone number of the director's session polling the live grid (projectors are -1, -2, ...)
DIRECTOR = -1000


# --- routing: the production map, read from deploy/nginx/dmj-pools.conf -------------------------

def pool_rules(text: str | None = None) -> list[tuple[re.Pattern, str]]:
    """The regex lines of the nginx ``map`` in deploy/nginx/dmj-pools.conf as ``[(pattern, pool
    upstream name)]`` in order (the first match wins), plus the default as a pattern matching
    everything. Raises ValueError when the file has no map or no default."""
    text = POOLS_MAP.read_text(encoding="utf-8") if text is None else text
    rules, default = [], None
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if m := re.fullmatch(r'"~(.+)"\s+(\w+);', line):
            rules.append((re.compile(m.group(1)), m.group(2)))
        elif m := re.fullmatch(r"default\s+(\w+);", line):
            default = m.group(1)
    if default is None or not rules:
        raise ValueError(f"{POOLS_MAP}: no map with a default and regex lines")
    return [*rules, (re.compile(""), default)]


def pool_for(method: str, path: str, rules: list[tuple[re.Pattern, str]] | None = None) -> str:
    """The upstream (``dmj_write`` or ``dmj_read``) the production proxy sends ``method path``
    to (nginx matches ``"$request_method $uri"`` against the map's lines in order)."""
    subject = f"{method.upper()} {path}"
    return next(pool for pattern, pool in (rules or pool_rules()) if pattern.search(subject))


# --- the event ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Hand:
    """One result to enter: session, event-wide table number, set, outcome, the confirming PIN and
    the token of the table's scorer."""

    session: int
    table: int
    set_no: int
    outcome: dict
    pin: str
    token: str
    #: the event-wide number of the table that plays this copy of the set just before (it must
    #: enter it first: the wall is carried from there), None when this table plays it first
    after_table: int | None = None


class DayEvent:
    """The simulated event: ``tables`` teams of four on ``tables`` tables a session, its first
    :data:`PLAYED_BEFORE` sessions already played (:func:`tests.perf.played.played_event`: every
    result stored with its hand, every set released), one scorer (event role and API token) per
    :data:`TABLES_PER_SCORER` tables, a director (who polls the live grid), further sessions
    prepared as hands are needed. :meth:`next_hand` gives a table's next set in play order (the
    next session's first once a session is used up). What the bench sent and was answered is
    kept (:attr:`given`, :attr:`entered`, :attr:`confirmed`) for :meth:`check_stored`."""

    def __init__(self, tables: int, seed: int = 27):
        stamp = f"eventday-{int(time.time())}-{secrets.token_hex(2)}"
        self.event = played_event(tables, PLAYED_BEFORE, slug=stamp, sessions=SESSIONS_PLANNED, seed=seed)
        self.seats = tuple(self.event.get_ruleset().seats)
        self.tables = tables
        #: (session, set) of the sets public at the start: the travellers the phones read
        self.released = sorted(released_sets(self.event))
        self.director_password = secrets.token_urlsafe(16)
        get_user_model().objects.create_user(f"{stamp}-director", password=self.director_password)
        EventRole.objects.create(event=self.event, user=get_user_model().objects.get(username=f"{stamp}-director"),
                                 role=EventRole.Role.DIRECTOR)
        #: every hand given to a table, by (session, table, set); the ids of the entries answered 201
        #: by the same key, and the keys of the confirmations answered 200
        self.given: dict[tuple[int, int, int], Hand] = {}
        self.entered: dict[tuple[int, int, int], int] = {}
        self.confirmed: set[tuple[int, int, int]] = set()
        self.rng = random.Random(seed)
        users = get_user_model().objects
        self.roles, self.tokens = [], []
        for index in range(math.ceil(tables / TABLES_PER_SCORER)):
            user = users.create_user(f"{stamp}-scorer-{index + 1}")  # no password: tokens only
            self.roles.append(EventRole.objects.create(event=self.event, user=user, role=EventRole.Role.SCORER))
            self.tokens.append(issue_token(user))
        self.queues: dict[int, list[Hand]] = {n: [] for n in range(1, tables + 1)}
        #: hands given to each table so far, over every run of the bench (:func:`schedule`)
        self.handed: Counter = Counter()
        self.prepared = PLAYED_BEFORE
        players = Player.objects.filter(event=self.event).select_related("team").order_by("number")
        self.people = [(p.number, p.team.number) for p in players]

    def _prepare_next(self) -> None:
        self.prepared += 1
        if self.prepared > SESSIONS_PLANNED:
            raise RuntimeError(f"the simulation needs more than {SESSIONS_PLANNED} sessions: lower --scale")
        number = self.prepared
        prepare_session(self.event, number)
        plan = session_plan(self.event, number)
        at = {(t.group.number, t.position): t.number for t in plan.tables}
        for table in plan.tables:
            scorer = (table.number - 1) // TABLES_PER_SCORER
            self.roles[scorer].tables.add(table)
            pin = plan.seated[table.pk][self.seats[1]].pin
            for s in plan.sets(table):
                before = plan.previous_play(table, s)
                self.queues[table.number].append(Hand(
                    number, table.number, s, plausible_outcome(self.rng, self.seats), pin, self.tokens[scorer],
                    after_table=at[(before.group, before.position)] if before is not None else None))

    def next_hand(self, table: int) -> Hand:
        """The next hand table ``table`` (1..tables) enters, preparing a session when needed."""
        while not self.queues[table]:
            self._prepare_next()
        self.handed[table] += 1
        hand = self.queues[table].pop(0)
        self.given[(hand.session, hand.table, hand.set_no)] = hand
        return hand

    def end_session_with(self, hands: int) -> int:
        """Enter and confirm, before a run of ``hands`` hands and unmeasured, the hands that leave
        each table as many hands before the end of its session as the run gives it (``hands``
        over the tables, rounded up), so that the run's round end is the session's end: the day's
        hardest moment, every set of the session released then, and with it every public page
        out of date. In play order (the tables that have entered fewest first), each entry and
        confirmation through the API in this process (the bench's own client, not the servers
        measured). Returns how many hands it entered; the sets released since the start are
        added to :attr:`released` (the travellers the phones read). Raises RuntimeError when an
        entry is not answered 201 or its confirmation 200 (the run would not end a session)."""
        owed = hands_ahead({t: len(q) for t, q in self.queues.items()}, math.ceil(hands / self.tables),
                           self.event.get_ruleset().hands_per_session)
        clients: dict[str, Client] = {}
        results = f"/api/events/{self.event.slug}/results/"
        sent = 0
        while any(owed.values()):
            for table in sorted((t for t in owed if owed[t]), key=lambda t: self.handed[t]):
                hand = self.next_hand(table)
                owed[table] -= 1
                api = clients.setdefault(hand.token, Client(HTTP_AUTHORIZATION=f"Token {hand.token}"))
                key = (hand.session, hand.table, hand.set_no)
                entered = api.post(results, entry_body(*key, hand.outcome), content_type="application/json")
                if entered.status_code != 201:
                    raise RuntimeError(f"playing ahead, {key}: {entered.status_code} {entered.content[:200]!r}")
                self.entered[key] = entered.json()["id"]
                confirmed = api.post(f"{results}{self.entered[key]}/confirm/", {"pin": hand.pin}, content_type="application/json")
                if confirmed.status_code != 200:
                    raise RuntimeError(f"playing ahead, {key} confirmed: {confirmed.status_code} {confirmed.content[:200]!r}")
                self.confirmed.add(key)
                sent += 1
        self.released = sorted(released_sets(self.event))
        return sent

    def count_stored(self) -> tuple[int, int]:
        """(results stored, results stored as confirmed)."""
        results = HandResult.objects.filter(event=self.event)
        return results.count(), results.filter(status=HandResult.Status.CONFIRMED).count()

    def check_stored(self) -> tuple[int, list[str]]:
        """Every result stored in the sessions the bench played, checked against what it sent:
        the hand's outcome (kind, winners, discarder, fans) at its table and set, the id the
        entry was answered with, confirmed when its confirmation was answered 200; and every
        entry answered 201 stored. Returns ``(results checked, mismatches)``."""
        stored = (HandResult.objects.filter(event=self.event, session_number__gt=PLAYED_BEFORE)
                  .values_list("pk", "session_number", "table__number", "set_no", "outcome", "status"))
        checked, wrong, seen = 0, [], set()
        for pk, session, table, set_no, outcome, status in stored:
            checked += 1
            key = (session, table, set_no)
            seen.add(key)
            hand = self.given.get(key)
            if hand is None:
                wrong.append(f"result {pk} (session {session}, table {table}, set {set_no}): never sent")
            elif _outcome_key(outcome) != _outcome_key(hand.outcome):
                wrong.append(f"result {pk} (session {session}, table {table}, set {set_no}): stored {outcome}, sent {hand.outcome}")
            elif key in self.entered and self.entered[key] != pk:
                wrong.append(f"result {pk} (session {session}, table {table}, set {set_no}): answered as {self.entered[key]}")
            elif key in self.confirmed and status != HandResult.Status.CONFIRMED:
                wrong.append(f"result {pk} (session {session}, table {table}, set {set_no}): confirmed, stored {status}")
        wrong += [f"entry {key} answered 201 as {pk}: not stored" for key, pk in self.entered.items() if key not in seen]
        return checked, wrong

    def delete(self) -> None:
        get_user_model().objects.filter(username__startswith=f"{self.event.slug}-").delete()
        self.event.delete()


def _outcome_key(outcome: dict | None) -> tuple:
    """What a result's outcome says of the hand, as sent and as stored (the stored one is the
    payment rule's reading of it, with its defaults)."""
    outcome = outcome or {}
    return (outcome.get("kind"), list(outcome.get("winners") or []), outcome.get("discarder"), list(outcome.get("fans") or []))


# --- the schedule ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Day:
    """The simulated day's parameters (see the module's docstring). Times in seconds unless named
    minutes (event time, divided by ``time_scale`` for the run)."""

    tables: int = 256
    phones: int = 1000
    projectors: int = 2
    scale: float = 1.0
    time_scale: float = 6.0
    hand_minutes: float = 6.0
    play_minutes: float = 3.0
    burst_seconds: float = 20.0
    break_seconds: float = 30.0
    phone_play_interval: float = 300.0
    phone_burst_seconds: float = 30.0
    phone_break_interval: float = 60.0
    projector_interval: float = 10.0
    director_interval: float = 5.0
    confirm_delay: tuple[float, float] = (2.0, 6.0)
    timeout: float = 10.0
    seed: int = 27

    @property
    def play_seconds(self) -> float:
        return self.play_minutes * 60 / self.time_scale

    @property
    def length(self) -> float:
        return self.play_seconds + self.burst_seconds + self.break_seconds


@dataclass(frozen=True)
class Arrival:
    """One scheduled request: at ``at`` seconds from the start, an entry of ``hand`` (then its
    confirmation) or a read of ``url`` by phone ``phone`` (-1: a projector)."""

    at: float
    hand: Hand | None = None
    url: str = ""
    phone: int = 0


def hands_ahead(left: dict[int, int], per_table: int, size: int) -> dict[int, int]:
    """Table → how many hands it must play so that ``per_table`` are left in its session:
    ``left``, table → the hands left in its session (0: none prepared yet); ``size``: hands a
    session. A table with fewer left than ``per_table`` finishes its session and plays the next
    one up to that point."""
    return {table: (n - per_table) % size for table, n in left.items()}


def play_hands(day: Day) -> int:
    """How many hands the writers send in the play phase of a run of ``day`` (the round end sends
    one a table, times ``scale``)."""
    return round(day.tables * day.scale * day.play_minutes / day.hand_minutes)


def run_hands(day: Day) -> int:
    """How many hands the writers send in a run of ``day``: the play phase's and the round end's."""
    return play_hands(day) + round(day.tables * day.scale)


def _poisson(rng: random.Random, rate: float, start: float, end: float) -> list[float]:
    times, at = [], start
    while rate > 0:
        at += rng.expovariate(rate)
        if at >= end:
            return times
        times.append(at)
    return times


def schedule(day: Day, event: DayEvent, *, phones: bool) -> list[Arrival]:
    """The run's arrivals, sorted by time: the writers' hands (play phase and round-end burst)
    and, when ``phones``, the phones' and projectors' reads."""
    rng = random.Random(day.seed + (1 if phones else 0))
    out: list[Arrival] = []
    play, burst = day.play_seconds, day.burst_seconds
    order = list(range(1, day.tables + 1))
    rng.shuffle(order)
    hands: list[Arrival] = []
    for start, length, count in ((0.0, play, play_hands(day)), (play, burst, round(day.tables * day.scale))):
        for _ in range(count):
            # the table that has entered the fewest hands so far (every run of the bench counted):
            # the room plays at one pace, no table runs ahead of the tables it passes its walls to
            table = min(order, key=lambda t: event.handed[t])
            hands.append(Arrival(start + rng.uniform(0, length), hand=event.next_hand(table)))
    out += in_play_order(hands)
    if phones:
        slug = event.event.slug
        people = event.people
        n = round(day.phones * day.scale)
        end_of_burst = play + burst

        released = getattr(event, "released", ())

        def page(phone: int, kind: str) -> str:
            player, team = people[phone % len(people)]
            if kind == "traveller":  # the traveller of a released set
                session, set_no = rng.choice(released)
                return f"/e/{slug}/travellers/{session}/{set_no}/"
            return {"standings": f"/e/{slug}/standings/", "team": f"/e/{slug}/teams/{team}/",
                    "player": f"/e/{slug}/players/{player}/", "players": f"/e/{slug}/standings/players/",
                    "export": f"/e/{slug}/export.json"}[kind]

        kinds = ("standings", "team", "player", "traveller", "players", "export") if released else ("standings", "team", "player")
        play_weights, break_weights = (1, 1, 1, 1, 0.5, 0.05)[:len(kinds)], (3, 1, 1, 1, 0.5, 0.05)[:len(kinds)]
        for phone in range(n):
            for at in _poisson(rng, 1 / day.phone_play_interval, 0.0, play):
                out.append(Arrival(at, url=page(phone, rng.choices(kinds, play_weights)[0]), phone=phone))
            at = play + rng.uniform(0, day.phone_burst_seconds)
            for kind in ("standings", "team", "player"):
                out.append(Arrival(at, url=page(phone, kind), phone=phone))
                at += rng.uniform(3, 8)
            for at in _poisson(rng, 1 / day.phone_break_interval, end_of_burst, day.length):
                out.append(Arrival(at, url=page(phone, rng.choices(kinds, break_weights)[0]), phone=phone))
        if day.director_interval:  # the director's logged-in session polls the live grid
            at = rng.uniform(0, day.director_interval)
            while at < day.length:
                out.append(Arrival(at, url=f"/e/{slug}/director/live/", phone=DIRECTOR))
                at += day.director_interval
        for projector in range(max(1, round(day.projectors * day.scale)) if day.projectors else 0):
            at = rng.uniform(0, day.projector_interval)
            while at < day.length:
                out.append(Arrival(at, url=f"/e/{slug}/projector.json", phone=-1 - projector))
                at += day.projector_interval
    return sorted(out, key=lambda a: a.at)


def in_play_order(hands: list[Arrival], carry: float = CARRY_SECONDS) -> list[Arrival]:
    """``hands`` (arrivals of entries, in the order each table was given them) with each one moved
    later, where needed, to ``carry`` seconds after the entries that must come first in the room:
    the same table's previous hand, and the entry of the same set by the table the wall is carried
    from (:attr:`Hand.after_table`) when that entry is in ``hands`` too. Without this a scaled run,
    which gives a table more than one hand in a phase at independent random times, sent sets no
    room could play yet and counted the service's refusal (400, the movement) as a failure."""
    at = [a.at for a in hands]
    index = {(a.hand.session, a.hand.table, a.hand.set_no): i for i, a in enumerate(hands)}
    before: list[list[int]] = []
    last: dict[int, int] = {}
    for i, a in enumerate(hands):
        first = [last[a.hand.table]] if a.hand.table in last else []
        carried = index.get((a.hand.session, a.hand.after_table, a.hand.set_no))
        before.append(first + ([carried] if carried is not None else []))
        last[a.hand.table] = i
    moved = True
    for _ in range(len(hands) + 1):  # each pass settles at least one more hand of every chain
        if not moved:
            break
        moved = False
        for i, earlier in enumerate(before):
            need = max((at[j] + carry for j in earlier), default=at[i])
            if need > at[i]:
                at[i], moved = need, True
    return [replace(a, at=t) for a, t in zip(hands, at, strict=True)]


# --- the servers ----------------------------------------------------------------------------------

@dataclass
class Layout:
    """The running servers: the two gunicorn pools and nginx (None: the client routes itself)."""

    read: subprocess.Popen
    write: subprocess.Popen
    nginx: subprocess.Popen | None
    ports: dict[str, int]
    read_shape: tuple[int, int]
    write_shape: tuple[int, int]
    read_nice: int
    cache: str
    tmp: Path

    def port_for(self, method: str, path: str, rules) -> int:
        """The port the client sends ``method path`` to: nginx's, or that of the pool the map names."""
        if self.nginx is not None:
            return self.ports["proxy"]
        return self.ports["write" if pool_for(method, path, rules) == "dmj_write" else "read"]

    def base_url(self, method: str, path: str, rules) -> str:
        """``http://127.0.0.1:<port>`` of :meth:`port_for`."""
        return f"http://127.0.0.1:{self.port_for(method, path, rules)}"

    def describe(self) -> str:
        proxy = "nginx (deploy/nginx/dmj-pools.conf)" if self.nginx else "no nginx: the client routes by deploy/nginx/dmj-pools.conf"
        return (f"logs in {self.tmp}; {proxy} -> write pool {self.write_shape[0]}x{self.write_shape[1]}, read pool "
                f"{self.read_shape[0]}x{self.read_shape[1]} (nice {self.read_nice}), gunicorn -c deploy/gunicorn.conf.py; "
                f"cache {self.cache}")


def _redis_reachable() -> bool:
    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=1).close()
    except OSError:
        return False
    return True


def _start_pool(pool: str, port: int, workers: int, threads: int, env: dict, log: Path, nice: int) -> subprocess.Popen:
    pool_env = {**env, "DMJ_POOL": pool, "DMJ_BIND": f"127.0.0.1:{port}", "DMJ_WORKERS": str(workers),
                "DMJ_THREADS": str(threads)}
    return subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", str(DEPLOY / "gunicorn.conf.py"), "--log-level", "warning"],
        cwd=ROOT, env=pool_env, stdout=log.open("ab"), stderr=subprocess.STDOUT, start_new_session=True,
        preexec_fn=(lambda: os.nice(nice)) if nice else None,
    )


def collect_static(env: dict, log: Path) -> str:
    """A STATIC_ROOT for the servers: with DEBUG off they serve the hashed files collectstatic
    writes (docs/deploy.md, step 5). Kept in the temporary directory between runs and collected
    again (about 15 s) only when a file of the project's ``static/`` is newer than its manifest."""
    root = Path(tempfile.gettempdir()) / "dmj-bench-static"
    manifest = root / "staticfiles.json"
    newest = max((p.stat().st_mtime for d in (ROOT / "static", *ROOT.glob("*/static")) for p in d.rglob("*") if p.is_file()),
                 default=0.0)
    if not manifest.exists() or manifest.stat().st_mtime < newest:
        subprocess.run([sys.executable, "manage.py", "collectstatic", "--no-input", "-v", "0"], cwd=ROOT,
                       env={**env, "STATIC_ROOT": str(root)}, check=True, stdout=log.open("ab"), stderr=subprocess.STDOUT)
    return str(root)


def pool_shape(pool: str, workers: int | None = None, threads: int | None = None) -> tuple[int, int]:
    """``(processes, threads per process)`` of ``pool`` (``"read"`` or ``"write"``): ``workers``
    and ``threads`` where given, else deploy/gunicorn.conf.py's defaults for this machine."""
    saved = {name: os.environ.pop(name, None) for name in ("DMJ_POOL", "DMJ_WORKERS", "DMJ_THREADS")}
    try:
        os.environ["DMJ_POOL"] = pool
        config = runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))
    finally:
        os.environ.pop("DMJ_POOL", None)
        os.environ.update({name: value for name, value in saved.items() if value is not None})
    return workers or config["workers"], threads or config["threads"]


def upstream_keepalive() -> list[str]:
    """The keep-alive directives of the production site's upstream blocks (deploy/nginx/dmj.conf),
    each once, in order: ``["keepalive 16;", "keepalive_timeout 1s;"]``."""
    site = (DEPLOY / "nginx" / "dmj.conf").read_text(encoding="utf-8")
    blocks = re.findall(r"^upstream\s+\w+\s*\{(.*?)^\}", site, re.M | re.S)
    found = [d for block in blocks for d in re.findall(r"^\s*(keepalive\w*\s+[^;#]+;)", block, re.M)]
    return list(dict.fromkeys(found))


def nginx_config(tmp: Path, *, proxy: int, read: int, write: int) -> str:
    """An nginx.conf for the bench: the production map, proxy headers and upstream keep-alive
    (deploy/nginx/: :func:`upstream_keepalive`) in front of the two pools on loopback, logs and
    temporary files under ``tmp``."""
    temps = "\n".join(f"    {name}_temp_path {tmp / name};" for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    keepalive = " ".join(upstream_keepalive())
    return f"""daemon off;
worker_processes 1;
pid {tmp / 'nginx.pid'};
error_log {tmp / 'nginx-error.log'} warn;
events {{ worker_connections 8192; }}
http {{
    access_log off;
{temps}
    include {POOLS_MAP};
    upstream dmj_write {{ server 127.0.0.1:{write}; {keepalive} }}
    upstream dmj_read {{ server 127.0.0.1:{read}; {keepalive} }}
    server {{
        listen 127.0.0.1:{proxy} backlog=4096;
        location / {{
            proxy_pass http://$dmj_pool;
            include {DEPLOY / 'nginx' / 'dmj-proxy.conf'};
        }}
    }}
}}
"""


def start_layout(*, read_shape: tuple[int, int], write_shape: tuple[int, int], read_nice: int,
                 use_nginx: bool = True) -> Layout:
    """Start both pools (DEBUG off, behind a proxy, persistent connections, the public download
    limit lifted: every phone of the simulation has the address 127.0.0.1) and nginx in front of
    them when it is installed and ``use_nginx``. Cache: ``CACHE_URL`` if set, else Redis on
    127.0.0.1:6379 when reachable (a key prefix of this run), else each process's local memory.
    Raises RuntimeError when a server does not start."""
    tmp = Path(tempfile.mkdtemp(prefix="dmj-eventday-"))
    cache = os.environ.get("CACHE_URL") or (
        f"redis://127.0.0.1:6379/13?key_prefix={tmp.name}" if _redis_reachable() else "locmemcache://")
    env = {**os.environ, "DEBUG": "0", "SECRET_KEY": secrets.token_urlsafe(50), "ALLOWED_HOSTS": "127.0.0.1",
           "CONN_MAX_AGE": os.environ.get("CONN_MAX_AGE", "60"), "LOG_LEVEL": "ERROR", "SECURE": "0",
           "BEHIND_PROXY": "1", "PUBLIC_DOWNLOAD_RATE": "1000000/m", "CACHE_URL": cache}
    ports = {"read": free_port(), "write": free_port(), "proxy": free_port()}
    log = tmp / "gunicorn.log"
    env["STATIC_ROOT"] = collect_static(env, log)
    write = _start_pool("write", ports["write"], *write_shape, env, log, 0)
    read = _start_pool("read", ports["read"], *read_shape, env, log, read_nice)
    nginx = None
    binary = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.path.exists(p)), None)
    layout = Layout(read, write, None, ports, read_shape, write_shape, read_nice, cache.split("?")[0], tmp)
    try:
        wait_ready(f"http://127.0.0.1:{ports['write']}", write)
        wait_ready(f"http://127.0.0.1:{ports['read']}", read)
        if use_nginx and binary:
            conf = tmp / "nginx.conf"
            conf.write_text(nginx_config(tmp, proxy=ports["proxy"], read=ports["read"], write=ports["write"]))
            nginx = subprocess.Popen([binary, "-c", str(conf), "-p", str(tmp)], stdout=(tmp / "nginx.out").open("ab"),
                                     stderr=subprocess.STDOUT, start_new_session=True)
            layout.nginx = nginx
            wait_ready(f"http://127.0.0.1:{ports['proxy']}", nginx)
    except Exception:
        stop_layout(layout)
        raise
    return layout


def _stop(process: subprocess.Popen | None) -> None:
    if process is not None:
        stop(process)


def stop_layout(layout: Layout) -> None:
    """Stop nginx and both pools (their process groups), and clear this run's Redis cache keys."""
    for process in (layout.nginx, layout.read, layout.write):
        _stop(process)
    if layout.cache.startswith("redis://127.0.0.1:6379/13"):
        try:
            client = redis.Redis.from_url(layout.cache)
            for key in client.scan_iter(f"{layout.tmp.name}:*"):
                client.delete(key)
        except Exception:  # noqa: BLE001 - tidying only
            pass
    for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
        shutil.rmtree(layout.tmp / name, ignore_errors=True)


def cpu_seconds(layout: Layout) -> dict[str, float | dict[int, float]]:
    """CPU seconds (user + system) used so far by each part: the write pool, the read pool, nginx
    (each with its children), the ``postgres`` processes (``{pid: seconds}``: backends come and go,
    :func:`cpu_used` subtracts per process; backends of other databases are left out: other work
    on the same server), this process (the client) and the whole machine
    (every process: what the others used shows as the difference)."""
    import psutil

    def used(process) -> float:
        try:
            times = process.cpu_times()
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            return 0.0
        return times.user + times.system

    def tree(popen: subprocess.Popen | None) -> float:
        if popen is None:
            return 0.0
        try:
            root = psutil.Process(popen.pid)
            return used(root) + sum(used(child) for child in root.children(recursive=True))
        except psutil.NoSuchProcess:
            return 0.0

    database = connection.settings_dict["NAME"]
    postgres = {}
    for process in psutil.process_iter(["name", "cmdline"]):
        if not (process.info["name"] or "").startswith("postgres"):
            continue
        # count this run's database's backends and the server's own processes (WAL writer, ...)
        backend = BACKEND_TITLE.match(" ".join(process.info["cmdline"] or []))
        if backend is None or backend.group(2) == database:
            postgres[process.pid] = used(process)
    own = os.times()
    machine = psutil.cpu_times()
    busy = machine.user + machine.system + getattr(machine, "nice", 0.0) + getattr(machine, "irq", 0.0) + getattr(machine, "softirq", 0.0)
    return {"write pool": tree(layout.write), "read pool": tree(layout.read), "nginx": tree(layout.nginx),
            "postgresql": postgres, "client": own.user + own.system, "machine": busy}


def cpu_used(before: dict, after: dict) -> dict[str, float]:
    """CPU seconds each part used between two :func:`cpu_seconds` readings (a PostgreSQL backend
    that ended in between is not counted; one that started counts whole)."""
    out = {}
    for name, value in after.items():
        if isinstance(value, dict):
            out[name] = sum(max(0.0, v - before[name].get(pid, 0.0)) for pid, v in value.items())
        else:
            out[name] = value - before[name]
    return out


# --- the run --------------------------------------------------------------------------------------

@dataclass
class Figures:
    """What one run measured: latencies in ms by kind, failures with a few samples, page answers
    304, the client's worst lateness against the schedule (s), CPU seconds by part and the wall
    time (s)."""

    label: str
    entry: list[float] = field(default_factory=list)
    confirm: list[float] = field(default_factory=list)
    page: list[float] = field(default_factory=list)
    failed: dict[str, int] = field(default_factory=lambda: {"entry": 0, "confirm": 0, "page": 0})
    samples: list[str] = field(default_factory=list)
    not_modified: int = 0
    lag: float = 0.0
    cpu: dict[str, float] = field(default_factory=dict)
    wall: float = 0.0
    stored: tuple[int, int] = (0, 0)
    #: ``(seconds since the start when sent, when answered, public version)`` of every page answer
    #: whose ETag names a public version (``W/"P<n>-…"``): how stale a page was (:meth:`stale`)
    versions: list[tuple[float, float, int]] = field(default_factory=list)
    #: the ``Age`` of every page answered as it was built earlier (tournament.cache.cached_or_older)
    ages: list[int] = field(default_factory=list)
    #: ``(seconds since the start when sent, kind, ms or None when it failed)`` of every request
    #: (kind ``entry``, ``confirm`` or :func:`page_kind`), written beside the servers' logs (where
    #: in the day the slow ones were, and which pages)
    timeline: list[tuple[float, str, float | None]] = field(default_factory=list)

    def fail(self, kind: str, what: str) -> None:
        self.failed[kind] += 1
        if len(self.samples) < 6:
            self.samples.append(f"{kind}: {what}")

    @property
    def server_cpu(self) -> float:
        return sum(v for k, v in self.cpu.items() if k not in ("client", "machine"))

    @property
    def other_cpu(self) -> float:
        """CPU seconds used meanwhile by processes that are not part of the run (other work on the
        machine: it makes the figures noisier)."""
        return max(0.0, self.cpu.get("machine", 0.0) - self.server_cpu - self.cpu.get("client", 0.0))

    def p(self, kind: str, q: int) -> float:
        return percentile(getattr(self, kind), q)

    def stale(self) -> float:
        """The longest a phone was shown a page older than one another phone had been answered
        before it asked (seconds; 0: none), measured by the client alone: a page answered at public
        version v, asked at t, is stale by t minus the first answer of any version above v, if
        that answer came before t."""
        first: dict[int, float] = {}
        for _sent, answered, version in self.versions:
            first[version] = min(answered, first.get(version, math.inf))
        newer, worst = math.inf, 0.0
        earliest_above: dict[int, float] = {}
        for version in sorted(first, reverse=True):
            earliest_above[version] = newer
            newer = min(newer, first[version])
        for sent, _answered, version in self.versions:
            worst = max(worst, sent - earliest_above[version])
        return worst

    def misses(self) -> list[str]:
        """The goals this run missed (empty: all met)."""
        out = []
        if self.failed["entry"] or self.failed["confirm"]:
            out.append(f"{self.failed['entry']} failed entries, {self.failed['confirm']} failed confirmations")
        if self.p("entry", 99) >= GOAL_ENTRY_P99_MS:
            out.append(f"entry p99 {self.p('entry', 99):.0f} ms >= {GOAL_ENTRY_P99_MS:.0f}")
        if self.page and self.p("page", 99) >= GOAL_PAGE_P99_MS:
            out.append(f"page p99 {self.p('page', 99):.0f} ms >= {GOAL_PAGE_P99_MS:.0f}")
        if self.stale() > GOAL_STALE_SECONDS:
            out.append(f"a page {self.stale():.0f} s stale > {GOAL_STALE_SECONDS:.0f} s")
        return out


@dataclass(frozen=True)
class Answer:
    """An HTTP answer as the simulated client reads it: status, headers (lower-case names), body."""

    status: int
    headers: dict[str, str]
    body: bytes


async def request(port: int, method: str, path: str, *, headers: dict[str, str] | None = None,
                  body: dict | None = None) -> Answer:
    """One HTTP/1.1 request to 127.0.0.1:``port`` on a connection of its own (``Connection: close``:
    the answer ends with the connection). A few hundred microseconds of the client's CPU, where an
    httpx client takes milliseconds: on a two-core machine the client shares the CPU with the
    servers it measures. Raises OSError or ValueError on a broken connection or answer."""
    data = json.dumps(body).encode() if body is not None else b""
    lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Connection: close", "Accept: */*",
             *(f"{k}: {v}" for k, v in (headers or {}).items())]
    if body is not None:
        lines += ["Content-Type: application/json", f"Content-Length: {len(data)}"]
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + data)
        raw = await reader.read(-1)
    finally:
        writer.close()
    head, _, content = raw.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    parts = status_line.split(" ", 2)
    if len(parts) < 2 or not parts[1].isdigit():
        raise ValueError(f"no HTTP answer ({len(raw)} bytes)")
    fields = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        name = name.strip().lower()
        if name == "set-cookie" and name in fields:  # every cookie, one per line
            fields[name] += "\n" + value.strip()
        else:
            fields[name] = value.strip()
    if fields.get("transfer-encoding", "").lower() == "chunked":
        content = _unchunk(content)
    return Answer(int(parts[1]), fields, content)


def _unchunk(data: bytes) -> bytes:
    out, at = bytearray(), 0
    while True:
        end = data.index(b"\r\n", at)
        size = int(data[at:end].split(b";")[0], 16)
        if size == 0:
            return bytes(out)
        out += data[end + 2:end + 2 + size]
        at = end + 2 + size + 2


def page_kind(path: str) -> str:
    """``"page:<what>"`` for the timeline: the page a phone, a projector or the director read
    (``/e/<slug>/teams/7/`` is ``"page:teams"``, ``/e/<slug>/standings/`` ``"page:standings"``)."""
    parts = [p for p in path.split("?", 1)[0].split("/") if p]
    words = [p for p in parts[2:] if not p.isdigit()]
    return "page:" + ("/".join(words) or "event")


async def _drive(day: Day, event: DayEvent, arrivals: list[Arrival], layout: Layout, out: Figures,
                 director_cookies: dict[str, str] | None = None) -> None:
    rules = pool_rules()
    slug = event.event.slug
    etags: dict[tuple[int, str], str] = {}
    cookies: dict[int, dict[str, str]] = {DIRECTOR: dict(director_cookies or {})}
    rng = random.Random(day.seed + 7)
    loop = asyncio.get_running_loop()
    tasks: set[asyncio.Task] = set()
    start = loop.time()

    async def timed(method: str, path: str, **kwargs) -> tuple[float, Answer | str]:
        """The answer and its latency (ms), or what went wrong: no answer within ``day.timeout``
        seconds (the whole request: a phone gives up) or a broken connection."""
        began = loop.time()
        kind = page_kind(path) if method == "GET" else ("confirm" if path.endswith("/confirm/") else "entry")
        at = len(out.timeline)
        out.timeline.append((round(began - start, 3), kind, None))
        answered = await _timed(method, path, began, **kwargs)
        if not isinstance(answered[1], str) and answered[1].status in (200, 201, 304):
            out.timeline[at] = (out.timeline[at][0], kind, round(answered[0], 1))
        return answered

    async def _timed(method: str, path: str, began: float, **kwargs) -> tuple[float, Answer | str]:
        port = layout.port_for(method, path, rules)
        try:
            answer = await asyncio.wait_for(request(port, method, path, **kwargs), day.timeout)
        except TimeoutError:
            return (loop.time() - began) * 1000, f"{method} {path}: no answer within {day.timeout:g} s"
        except (OSError, ValueError) as exc:
            return (loop.time() - began) * 1000, f"{method} {path}: {type(exc).__name__}: {exc}"
        return (loop.time() - began) * 1000, answer

    def failure(answer: Answer | str) -> str:
        return answer if isinstance(answer, str) else f"{answer.status} {answer.body[:160].decode(errors='replace')}"

    async def write(hand: Hand) -> None:
        path = f"/api/events/{slug}/results/"
        headers = {"Authorization": f"Token {hand.token}"}
        key = (hand.session, hand.table, hand.set_no)
        ms, answer = await timed("POST", path, body=entry_body(*key, hand.outcome), headers=headers)
        if isinstance(answer, str) or answer.status != 201:
            out.fail("entry", failure(answer))
            return
        out.entry.append(ms)
        result = event.entered[key] = json.loads(answer.body)["id"]
        await asyncio.sleep(rng.uniform(*day.confirm_delay))
        ms, answer = await timed("POST", f"{path}{result}/confirm/", body={"pin": hand.pin}, headers=headers)
        if isinstance(answer, str) or answer.status != 200:
            out.fail("confirm", failure(answer))
            return
        event.confirmed.add(key)
        out.confirm.append(ms)

    async def read(phone: int, url: str) -> None:
        etag = etags.get((phone, url))
        headers = {"Accept-Encoding": "gzip, deflate, br"} | ({"If-None-Match": etag} if etag else {})
        if cookies.get(phone):  # a phone's browser keeps the cookies it was given (the CSRF cookie)
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies[phone].items())
        began = loop.time()
        ms, answer = await timed("GET", url, headers=headers)
        if isinstance(answer, str) or answer.status not in (200, 304):
            out.fail("page", f"{url}: {failure(answer)[:80]}")
            return
        out.page.append(ms)
        for line in answer.headers.get("set-cookie", "").splitlines():
            name, _, value = line.split(";", 1)[0].partition("=")
            if name.strip():
                cookies.setdefault(phone, {})[name.strip()] = value.strip()
        tag = _PUBLIC_TAG.match(answer.headers.get("etag", ""))
        if tag:
            out.versions.append((began - start, loop.time() - start, int(tag.group(1))))
        if answer.headers.get("age"):
            out.ages.append(int(answer.headers["age"]))
        if answer.status == 304:
            out.not_modified += 1
        elif answer.headers.get("etag"):
            etags[(phone, url)] = answer.headers["etag"]

    for arrival in arrivals:
        delay = start + arrival.at - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        else:
            out.lag = max(out.lag, -delay)
        task = asyncio.create_task(write(arrival.hand) if arrival.hand else read(arrival.phone, arrival.url))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    if tasks:
        await asyncio.wait(set(tasks))


def warm_up(event: DayEvent, layout: Layout, hands: int = 12, reads: int = 16) -> None:
    """Unmeasured requests before the first run, as a server that has been up all day has had:
    ``hands`` entries and confirmations one at a time, and ``reads`` page reads of every kind."""
    rules, slug = pool_rules(), event.event.slug
    person, team = event.people[0]
    session, set_no = event.released[0]
    pages = [f"/e/{slug}/standings/", f"/e/{slug}/teams/{team}/", f"/e/{slug}/players/{person}/", f"/e/{slug}/projector.json",
             f"/e/{slug}/travellers/{session}/{set_no}/", f"/e/{slug}/standings/players/", f"/e/{slug}/export.json"]
    with httpx.Client(timeout=60) as client:
        for n in range(hands):
            hand = event.next_hand(n % event.tables + 1)
            key = (hand.session, hand.table, hand.set_no)
            path = f"/api/events/{slug}/results/"
            headers = {"Authorization": f"Token {hand.token}"}
            answer = client.post(layout.base_url("POST", path, rules) + path, json=entry_body(*key, hand.outcome), headers=headers)
            if answer.status_code == 201:
                event.entered[key] = answer.json()["id"]
                confirm = f"{path}{answer.json()['id']}/confirm/"
                if client.post(layout.base_url("POST", confirm, rules) + confirm, json={"pin": hand.pin},
                               headers=headers).status_code == 200:
                    event.confirmed.add(key)
        for n in range(reads):
            page = pages[n % len(pages)]
            client.get(layout.base_url("GET", page, rules) + page)


def settle(layout: Layout, *, quiet: float = 0.2, longest: float = 120.0) -> float:
    """Wait until both pools are idle (less than ``quiet`` CPU seconds in a second) or ``longest``
    seconds have passed: requests a client gave up on are still served, and the next run must not
    inherit them. Returns the seconds waited."""
    began = time.monotonic()
    last = cpu_seconds(layout)
    while time.monotonic() - began < longest:
        time.sleep(1.0)
        now = cpu_seconds(layout)
        busy = sum(now[pool] - last[pool] for pool in ("write pool", "read pool"))
        last = now
        if busy < quiet:
            break
    return time.monotonic() - began


def director_login(event: DayEvent, layout: Layout) -> dict[str, str]:
    """The cookies of the director's session, logged in through the login page as a browser does
    (its CSRF cookie and token, then the form's POST). Raises RuntimeError when it fails."""
    rules, path = pool_rules(), "/accounts/login/"
    with httpx.Client(timeout=60, base_url=layout.base_url("GET", path, rules)) as client:
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', client.get(path).text)
        answer = client.post(path, data={"username": f"{event.event.slug}-director", "password": event.director_password,
                                         "csrfmiddlewaretoken": token.group(1) if token else ""})
        if answer.status_code != 302 or "sessionid" not in client.cookies:
            raise RuntimeError(f"the director's login failed: {answer.status_code}")
        return dict(client.cookies.items())


def run_once(day: Day, event: DayEvent, layout: Layout, *, phones: bool, label: str,
             director_cookies: dict[str, str] | None = None) -> Figures:
    """Play ahead to the run's session end (:meth:`DayEvent.end_session_with`), draw the schedule,
    send it, and return what was measured (stored results counted after)."""
    event.end_session_with(run_hands(day))
    arrivals = schedule(day, event, phones=phones)
    settle(layout)
    out = Figures(label)
    before, began = cpu_seconds(layout), time.perf_counter()
    samples: list[tuple[float, dict[str, float]]] = []
    done = threading.Event()

    def sample() -> None:  # each part's CPU second by second, to set beside the requests' timeline
        last = before
        while not done.wait(CPU_SAMPLE_SECONDS):
            now = cpu_seconds(layout)
            samples.append((round(time.perf_counter() - began, 1), {k: round(v, 2) for k, v in cpu_used(last, now).items()}))
            last = now

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        asyncio.run(_drive(day, event, arrivals, layout, out, director_cookies))
    finally:
        done.set()
        sampler.join()
    out.wall = time.perf_counter() - began
    after = cpu_seconds(layout)
    out.cpu = cpu_used(before, after)
    out.stored = event.count_stored()
    (layout.tmp / f"timeline-{label}.json").write_text(json.dumps(out.timeline))
    (layout.tmp / f"cpu-{label}.json").write_text(json.dumps(samples))
    return out


#: how often :func:`run_once` samples each part's CPU (seconds), written to ``cpu-<run>.json``
CPU_SAMPLE_SECONDS = 2.0


def _ms(values: list[float], q: int) -> str:
    return f"{percentile(values, q):.0f}" if values else "-"


def report(day: Day, layout: Layout, baseline: Figures, loaded: list[Figures]) -> list[str]:
    """The printed figures: one column for the baseline, one per loaded run, the ratio of the
    first loaded run to the baseline, and the goal verdicts."""
    cores = os.cpu_count()
    lines = [
        f"event-day: {day.tables} tables (a hand every ~{day.hand_minutes:g} min, time scale {day.time_scale:g}: "
        f"{day.play_minutes:g} min of play in {day.play_seconds:.0f} s), round end: {day.tables} hands in "
        f"{day.burst_seconds:g} s, break {day.break_seconds:g} s; {day.phones} phones, {day.projectors} projectors; "
        f"PostgreSQL; os.cpu_count() = {cores}; load average before the run {os.getloadavg()[0]:.1f}",
        f"layout: {layout.describe()}",
    ]
    columns = [baseline, *loaded]
    rows = [("", [c.label for c in columns])]

    def row(name: str, cell: Callable[[Figures], str]) -> None:
        rows.append((name, [cell(c) for c in columns]))

    row("entries (hands sent)", lambda c: f"{len(c.entry) + c.failed['entry']}")
    row("entry p50 / p99 ms", lambda c: f"{_ms(c.entry, 50)} / {_ms(c.entry, 99)}")
    row("confirm p50 / p99 ms", lambda c: f"{_ms(c.confirm, 50)} / {_ms(c.confirm, 99)}")
    row("failed entries / confirms", lambda c: f"{c.failed['entry']} / {c.failed['confirm']}")
    row("page reads (304)", lambda c: f"{len(c.page) + c.failed['page']} ({c.not_modified})" if c.page or c.failed["page"] else "-")
    row("page p50 / p99 ms", lambda c: f"{_ms(c.page, 50)} / {_ms(c.page, 99)}")
    row("failed pages", lambda c: f"{c.failed['page']}")
    row("pages as built earlier, Age max s", lambda c: f"{len(c.ages)}, {max(c.ages, default=0)}" if c.page else "-")
    row("stale at most s (client)", lambda c: f"{c.stale():.1f}" if c.page else "-")
    row("server CPU s (cores)", lambda c: f"{c.server_cpu:.1f} ({c.server_cpu / c.wall:.2f})" if c.wall else "-")
    row("  write/read/pg/nginx s", lambda c: " / ".join(f"{c.cpu.get(k, 0):.1f}" for k in ("write pool", "read pool", "postgresql", "nginx")))
    row("client CPU s", lambda c: f"{c.cpu.get('client', 0):.1f}")
    row("other processes' CPU s", lambda c: f"{c.other_cpu:.1f}")
    row("wall s, client late max s", lambda c: f"{c.wall:.0f}, {c.lag:.2f}")
    row("goal", lambda c: "met" if not c.misses() else "NOT met")
    width = max(len(name) for name, _ in rows) + 2
    cell = max(14, *(len(v) + 2 for _, values in rows for v in values))
    for name, values in rows:
        lines.append(name.ljust(width) + "".join(v.rjust(cell) for v in values))
    if loaded and baseline.entry and loaded[0].entry:
        first = loaded[0]
        lines.append(f"ratio {first.label} / baseline: entry p99 {first.p('entry', 99) / baseline.p('entry', 99):.1f}x, "
                     f"confirm p99 {first.p('confirm', 99) / max(baseline.p('confirm', 99), 1e-9):.1f}x, "
                     f"server CPU {first.server_cpu / max(baseline.server_cpu, 1e-9):.1f}x")
    for c in columns:
        for miss in c.misses():
            lines.append(f"  {c.label}: {miss}")
        for sample in c.samples:
            lines.append(f"  {c.label} sample failure: {sample}")
    lines.append(f"goals: 0 failed entries (and confirmations), every stored result checked (0 mismatched), "
                 f"entry p99 < {GOAL_ENTRY_P99_MS:.0f} ms, page p99 < {GOAL_PAGE_P99_MS:.0f} ms, "
                 f"no page more than {GOAL_STALE_SECONDS:.0f} s stale")
    return lines


def next_scale(best: float, worst: float) -> float | None:
    """The next multiple ``--find-max`` tries, given the highest that met the goals so far
    (``best``, 0 for none) and the lowest that missed them (``worst``, infinite for none): double
    until one misses, halve until one meets, then bisect; None once the interval is narrow
    (0.25, or 15 % of ``best``)."""
    if math.isinf(worst):
        return best * 2
    if best == 0.0:
        return worst / 2
    if worst - best <= max(0.25, best * 0.15):
        return None
    return round((best + worst) / 2, 2)


def run(day: Day, *, find_max: bool = False, max_runs: int = 6, read_shape: tuple[int, int] | None = None,
        write_shape: tuple[int, int] = (2, 4), read_nice: int = 10, use_nginx: bool = True, keep: bool = False,
        say: Callable[[str], None] = print) -> list[str]:
    """Build the event, start the layout, run the baseline (writers only) and the loaded run at
    ``day.scale`` (or, with ``find_max``, loaded runs at rising then bisected scales, at most
    ``max_runs``), stop everything; returns the report's lines. Raises RuntimeError when the
    database is not PostgreSQL or a server does not start."""
    if connection.vendor != "postgresql":
        raise RuntimeError("the event-day simulation runs against PostgreSQL: set DATABASE_URL=postgres://... (a scratch database)")
    read_shape = read_shape or pool_shape("read")
    say(f"building the event ({day.tables} tables) on {connection.settings_dict['NAME']}...")
    event = DayEvent(day.tables, seed=day.seed)
    layout = start_layout(read_shape=read_shape, write_shape=write_shape, read_nice=read_nice, use_nginx=use_nginx)
    say(f"layout: {layout.describe()}")
    try:
        warm_up(event, layout)
        director = director_login(event, layout)
        baseline_day = replace(day, scale=1.0 if find_max else day.scale)
        say(f"baseline (writers only, scale {baseline_day.scale:g}): {baseline_day.length - baseline_day.break_seconds:.0f} s...")
        baseline = run_once(replace(baseline_day, break_seconds=0.0), event, layout, phones=False,
                            label="baseline")
        loaded: list[Figures] = []

        def attempt(scale: float) -> bool:
            at = replace(day, scale=scale)
            say(f"with phones, scale {scale:g} ({round(at.phones * scale)} phones): {at.length:.0f} s...")
            figures = run_once(at, event, layout, phones=True, label=f"x{scale:g}", director_cookies=director)
            loaded.append(figures)
            say(f"  entry p99 {figures.p('entry', 99):.0f} ms, page p99 {figures.p('page', 99):.0f} ms, "
                f"failed {figures.failed}: " + ("met" if not figures.misses() else "not met"))
            return not figures.misses()

        best = 0.0
        if not find_max:
            attempt(day.scale)
        else:
            worst, scale = math.inf, day.scale
            while len(loaded) < max_runs:
                if attempt(scale):
                    best = scale
                else:
                    worst = scale
                following = next_scale(best, worst)
                if following is None:
                    break
                scale = following
        lines = report(day, layout, baseline, loaded)
        checked, wrong = event.check_stored()
        lines.append(f"stored results checked against what was sent (sessions {PLAYED_BEFORE + 1}+, every run and the "
                     f"warm-up): {checked} checked, {len(wrong)} mismatched: " + ("met" if not wrong else "NOT met"))
        lines += [f"  mismatch: {w}" for w in wrong[:10]]
        if find_max:
            lines.append(f"highest multiple meeting the goals: {best:g}" if best else
                         "no multiple tried meets the goals (lowest tried: x"
                         f"{min(float(f.label[1:]) for f in loaded):g})")
        return lines
    finally:
        stop_layout(layout)
        if not keep:
            event.delete()
