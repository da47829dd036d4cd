"""Bulk writes benchmark: how many SQL statements the event's large writes issue at 16 and at 256
teams, and what an import costs against the export it reads.

Run ``python manage.py bench writes``. Each event is built inside a transaction that is rolled
back at the end (the database is left as it was): an MCR team event of N teams, two sessions
planned, session 1 prepared and every set of it played (:func:`tests.factories.bulk_results`)
and scored. Figures:

- *statements*: :func:`tournament.services.import_roster`, :func:`tournament.services.prepare_session`
  (session 2), :func:`scoring.conversion_versions.rescore_event` and
  :func:`tournament.exchange.import_event` (of the event's full export), each at 16 and at 256
  teams (:func:`statements`: a bulk insert the backend splits into batches counts once). A
  bulk write issues the same number at both sizes;
- *import vs export*: :func:`tournament.exchange.export_event` then
  :func:`tournament.exchange.import_event` of what it wrote, at 64 and 256 teams, median of
  alternating rounds; the goal is an import within 2× of the export.
"""

from __future__ import annotations

import os
import random
import re
import statistics
import time
from collections.abc import Callable

from django.db import connection, transaction

from tests.factories import bulk_results, team_roster
from scoring.conversion_versions import rescore_event
from tournament.exchange import export_event, import_event
from tournament.models import Event
from tournament.services import create_event, import_roster, prepare_session

_INSERT = re.compile(r'^\s*INSERT INTO\s+("?[\w]+"?)', re.IGNORECASE)


def statements(queries: list[str]) -> int:
    """How many statements ``queries`` (SQL texts, in order) are, a run of consecutive INSERTs into
    one table counted once: one bulk insert, split by SQLite into batches of at most 999
    parameters (Django's limit there), is one statement on PostgreSQL."""
    count, last = 0, None
    for sql in queries:
        match = _INSERT.match(sql)
        table = match.group(1).strip('"') if match else None
        if table is None or table != last:
            count += 1
        last = table
    return count


def counted(fn: Callable[[], object]) -> tuple[object, int]:
    """``fn()``'s value and the number of statements it issued (:func:`statements`; every one
    counted, however many: not the test runner's capture, which keeps the last 9,000)."""
    queries: list[str] = []

    def record(execute, sql, params, many, context):
        queries.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        value = fn()
    return value, statements(queries)


def played_event(teams: int, *, slug: str, seed: int = 7) -> Event:
    """An MCR team event of ``teams`` teams (two sessions planned), its roster imported and
    session 1 prepared, every set of it played (:func:`tests.factories.bulk_results`) and
    scored (:func:`scoring.conversion_versions.rescore_event`)."""
    event = create_event(name=f"Writes {slug}", slug=slug, sessions=2)
    import_roster(event, team_roster(teams))
    prepare_session(event, 1)
    bulk_results(event, random.Random(seed), actor="bench")
    rescore_event(event)
    return event


def write_counts(teams: int, stamp: str) -> dict[str, int]:
    """The statements of each of the four writes on an event of ``teams`` teams
    (module docstring): ``{"import_roster", "prepare_session", "rescore_event", "import_event"}``."""
    event = create_event(name=f"Writes {stamp}", slug=f"{stamp}-r", sessions=2)
    figures = {"import_roster": counted(lambda: import_roster(event, team_roster(teams)))[1]}
    prepare_session(event, 1)
    bulk_results(event, random.Random(7), actor="bench")
    figures["prepare_session"] = counted(lambda: prepare_session(event, 2))[1]
    figures["rescore_event"] = counted(lambda: rescore_event(event))[1]
    data = export_event(event, include_secret=True)
    Event.objects.filter(pk=event.pk).delete()
    figures["import_event"] = counted(lambda: import_event(data))[1]
    return figures


def import_vs_export(teams: int, stamp: str, rounds: int = 3) -> dict[str, float]:
    """Seconds of :func:`tournament.exchange.export_event` and of
    :func:`tournament.exchange.import_event` of its output at ``teams`` teams, medians of
    ``rounds`` alternating rounds (each import rolled back): ``{"export_s", "import_s", "ratio"}``."""
    event = played_event(teams, slug=stamp)
    exports, imports = [], []
    for _ in range(rounds):
        start = time.perf_counter()
        data = export_event(event, include_secret=True)
        exports.append(time.perf_counter() - start)
        with transaction.atomic():
            Event.objects.filter(pk=event.pk).delete()
            start = time.perf_counter()
            import_event(data)
            imports.append(time.perf_counter() - start)
            transaction.set_rollback(True)
    export_s, import_s = statistics.median(exports), statistics.median(imports)
    return {"export_s": export_s, "import_s": import_s, "ratio": import_s / export_s}


def bench_writes(write: Callable[[str], object], counts_at: tuple[int, int] = (16, 256),
                 timed_at: tuple[int, ...] = (64, 256)) -> dict:
    """Print the statement counts of the four writes at ``counts_at`` teams and the import against
    the export at each of ``timed_at`` (module docstring); returns ``{"counts": {teams: {write:
    n}}, "times": {teams: {"export_s", "import_s", "ratio"}}}``."""
    stamp = f"bench-writes-{int(time.time())}"
    counts, times = {}, {}
    small, large = counts_at
    with transaction.atomic():
        for teams in counts_at:
            counts[teams] = write_counts(teams, f"{stamp}-c{teams}")
        write(f"statements per call at {small} and {large} teams ({connection.vendor}; a split bulk insert counts once):")
        for name in counts[small]:
            write(f"  {name:16} {counts[small][name]:>7} -> {counts[large][name]:>7} "
                  f"({counts[large][name] / counts[small][name]:.2f}x)")
        write(f"import_event against export_event (median of alternating rounds, {os.cpu_count()} cores):")
        for teams in timed_at:
            t = times[teams] = import_vs_export(teams, f"{stamp}-t{teams}")
            write(f"  {teams:>4} teams: export {t['export_s']:.2f} s, import {t['import_s']:.2f} s, "
                  f"ratio import / export {t['ratio']:.2f}x (goal <= 2x)")
        transaction.set_rollback(True)
    return {"counts": counts, "times": times}
