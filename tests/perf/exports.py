"""Public export benchmark: N anonymous downloads of ``/e/<slug>/export.json`` at 64 teams.

Run ``python manage.py bench export``. Builds a 64-team MCR event (256 players, one session
prepared, seated, with its walls; every set of session 1 entered, confirmed and released) inside
a transaction that is rolled back at the end, so the database is left as it was. Figures:

- *uncached*: what each request cost before the fix of threat 7 (docs/security.md, "Threats and the tests that cover them") (:func:`tournament.exchange.public_export`
  and its JSON serialisation, every time);
- *cached*: the same N requests through the view (test client, each from its own address so the
  rate limit does not answer them): the first builds the export, the others read it from the
  cache under the public state's key (:mod:`tournament.cache`);
- *after a release change*: the first request after the state changes (a miss) and the next (a hit).

The ratio uncached / cached per request is the figure to read; times depend on the machine.

Then *build at 256 teams*: the public export built uncached, as the download's JSON bytes
(:func:`tournament.exchange.public_export_bytes`), of a 256-team event with 8 sessions
played and released (:func:`tests.factories.played_event`, as ``bench pages`` builds it), the
median of :data:`BUILDS` builds and its statements, against the goal :data:`BUILD_GOAL_S`
(docs/performance.md).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from django.core.cache import cache
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse

from tests.factories import play_slots, played_event
from tests.perf.loadtest import roster_csv
from tournament.entrants import rename_team
from tournament.exchange import public_export_bytes
from tournament.services import create_event, import_roster, prepare_session


def _timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def bench_export(write: Callable[[str], object], teams: int = 64, requests: int = 20) -> dict:
    """Time ``requests`` public-export downloads uncached and cached (module docstring); ``write``
    each figure as a line. Returns ``{'teams', 'bytes', 'uncached_ms', 'cached_ms',
    'first_ms', 'miss_ms', 'hit_ms', 'ratio'}`` (medians per request, milliseconds) and 'build', the
    figures of :func:`bench_build`."""
    figures = {}
    with transaction.atomic():
        stamp = f"bench-export-{int(time.time())}"
        event = create_event(name=f"Bench export {stamp}", slug=stamp, sessions=2)
        import_roster(event, roster_csv(teams, 4))
        prepare_session(event, 1)
        play_slots(event, random.Random(7), actor="bench")
        url = reverse("event-export", args=[event.slug])

        uncached = [_timed(lambda: public_export_bytes(event)) for _ in range(requests)]
        cache.clear()
        client = Client()
        first = _timed(lambda: client.get(url, REMOTE_ADDR="198.51.100.1"))
        size = len(client.get(url, REMOTE_ADDR="198.51.100.2").content)
        cached = [_timed(lambda n=n: client.get(url, REMOTE_ADDR=f"198.51.100.{10 + n}")) for n in range(requests)]
        rename_team(event.teams.get(number=1), name="Bench Renamed", actor="bench")
        miss = _timed(lambda: client.get(url, REMOTE_ADDR="198.51.100.250"))
        hit = _timed(lambda: client.get(url, REMOTE_ADDR="198.51.100.251"))
        figures = {
            "teams": teams, "bytes": size,
            "uncached_ms": 1000 * statistics.median(uncached), "cached_ms": 1000 * statistics.median(cached),
            "first_ms": 1000 * first, "miss_ms": 1000 * miss, "hit_ms": 1000 * hit,
        }
        figures["ratio"] = figures["uncached_ms"] / figures["cached_ms"]
        transaction.set_rollback(True)
    cache.clear()
    write(f"public export at {teams} teams: {figures['bytes'] / 1e6:.2f} MB, {requests} requests")
    write(f"  uncached (before): {figures['uncached_ms']:.1f} ms per request (median)")
    write(f"  cached (after):    {figures['cached_ms']:.1f} ms per request (median); the first {figures['first_ms']:.1f} ms")
    write(f"  after a change:    {figures['miss_ms']:.1f} ms (rebuilt), then {figures['hit_ms']:.1f} ms")
    write(f"  ratio uncached / cached: {figures['ratio']:.1f}x")
    figures["build"] = bench_build(write)
    return figures


BUILD_TEAMS = 256
BUILD_SESSIONS = 8
BUILDS = 5
BUILD_GOAL_S = 1.0


def bench_build(write: Callable[[str], object]) -> dict:
    """Time building the public export's JSON bytes, uncached, at :data:`BUILD_TEAMS` teams
    (module docstring); ``write`` each figure as a line. Returns ``{'teams', 'sessions', 'bytes',
    'build_s' (median of BUILDS), 'queries'}``."""
    with transaction.atomic():
        started = time.perf_counter()
        event = played_event(BUILD_TEAMS, BUILD_SESSIONS, slug=f"bench-export-build-{int(time.time())}")
        write(f"built {BUILD_TEAMS} teams, {BUILD_SESSIONS} sessions played in {time.perf_counter() - started:.0f} s")
        statements = []

        def count(execute, sql, params, many, context):
            statements.append(sql)
            return execute(sql, params, many, context)

        with connection.execute_wrapper(count):
            size = len(public_export_bytes(event))
        builds = [_timed(lambda: public_export_bytes(event)) for _ in range(BUILDS)]
        transaction.set_rollback(True)
    figures = {"teams": BUILD_TEAMS, "sessions": BUILD_SESSIONS, "bytes": size,
               "build_s": statistics.median(builds), "queries": len(statements)}
    met = "ok" if figures["build_s"] <= BUILD_GOAL_S else "MISSED"
    write(f"public export build at {BUILD_TEAMS} teams ({BUILD_SESSIONS} sessions, uncached, JSON bytes): "
          f"{figures['build_s']:.3f} s (median of {BUILDS}), {figures['queries']} statements, "
          f"{size / 1e6:.2f} MB; goal <= {BUILD_GOAL_S:.0f} s: {met}")
    return figures
