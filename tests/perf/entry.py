"""Result entry benchmark: the CPU of the server and of the database per entry and confirmation,
each committed, beside a minimal endpoint doing the same write the same way, measured in the
same run.

Run ``python manage.py bench entry`` (with ``DATABASE_URL`` naming a PostgreSQL database to measure
what production runs; the default SQLite file works too). Builds a scratch 16-team MCR event (one
session prepared: 16 sets, groups of four tables) and removes it at the end. No transaction
around the run: every request commits its own (``COMMIT`` per request, as on the event day). Each
request is answered in-process through the test client (the whole Django stack: the project's
middleware, URL resolution, authentication, the view, the service, the response).

Measured per request, in alternating rounds (a baseline request before each measured one, so a
slow moment of the machine falls on every kind alike):

- *baseline*: the minimal endpoint this module defines, :class:`MinimalWrite` — a DRF
  ``APIView`` with the project's token authentication and middleware that reads one row and
  inserts one row in a transaction of its own, mounted by a URLconf of its own
  (:data:`urlpatterns`, which also includes the project's URLs);
- *API entry*: ``POST /api/events/<slug>/results/`` by a scorer account bound to the tables with
  the body the event day sends (:func:`tests.perf.played.entry_body`: the hand's outcome);
- *API confirmation*: ``POST .../results/<id>/confirm/`` with another seat's PIN, split into the
  confirmations that leave their comparison incomplete and the one that completes it (one in
  four: it scores the set for the group, and the last group's releases the set).

Every table enters every set of the session in the room's order, so the completing
confirmations come in the day's proportion.

CPU per request: this process's (``time.process_time``: the view, the ORM, the database client)
plus, on PostgreSQL, the database server's backend serving this connection (``SELECT
pg_backend_pid()``; its time on the CPU read from ``/proc/<pid>/schedstat`` in nanoseconds, or
``/proc/<pid>/stat``'s user and system ticks where that is missing), read before and after the
request. On SQLite the database's work is in this process already. Statements: every statement
sent through a cursor (:func:`_measure`; ``BEGIN`` and ``COMMIT`` are not).

Goal (:data:`GOAL_RATIO`): the day's mix — entries and confirmations, completing confirmations
included — at most 1.5 times the baseline's server plus database CPU per request: the sum of
the mix's CPU over the sum of the CPU of the baseline requests paired with it. Each kind is also
printed on its own with the median over the rounds of each request over its round's baseline
(:func:`paired_ratio`): on the shared virtual machines this is measured on, the CPU runs at two
speeds, switching every few tenths of a second, and a request and the baseline just before it
almost always share one.
"""

from __future__ import annotations

import os
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.test import Client
from django.test.utils import override_settings
from django.urls import include, path, reverse
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from tests.perf.loadtest import roster_csv
from tests.perf.played import entry_body
from tournament.api_tokens import issue_token
from tournament.demo import plausible_outcome
from tournament.models import AuditEntry, EventRole, Table
from tournament.services import create_event, import_roster, prepare_session
from tournament.table_plan import session_plan

GOAL_RATIO = 1.5


class MinimalWrite(APIView):
    """The baseline: token authentication (the project's default classes), one SELECT and one
    INSERT in a transaction, a small JSON answer."""

    permission_classes = [IsAuthenticated]

    def post(self, request):
        with transaction.atomic():
            table = Table.objects.filter(pk=int(request.data["table"])).values_list("pk", "number").get()
            entry = AuditEntry.objects.create(event_id=int(request.data["event"]), action="bench", actor="bench",
                                              detail={"table": table[1]})
        return Response({"id": entry.pk, "table": table[1]}, status=201)


urlpatterns = [
    path("bench/minimal-write/", MinimalWrite.as_view(), name="bench-minimal-write"),
    path("", include("tournament.urls")),
]


def backend_cpu(pid: int) -> float:
    """CPU seconds process ``pid`` of this machine has used so far: its time on the CPU from
    ``/proc/<pid>/schedstat`` (nanoseconds), or user plus system from ``/proc/<pid>/stat``
    (clock ticks) where that is missing. Raises OSError when there is no such process here."""
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0]) / 1e9
    except (OSError, IndexError, ValueError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def database_clock() -> tuple[Callable[[], float] | None, str]:
    """``(a reader of the CPU seconds the database has used for this connection, what it
    measures)``: on PostgreSQL the backend serving ``connection`` (``pg_backend_pid()``) when it
    runs on this machine; None on SQLite (its work is in this process) or for a remote server."""
    if connection.vendor != "postgresql":
        return None, f"{connection.vendor}: the database's work is in this process"
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    try:
        backend_cpu(pid)
    except OSError:
        return None, f"PostgreSQL backend {pid} not on this machine: its CPU NOT counted"
    return (lambda: backend_cpu(pid)), f"PostgreSQL backend {pid} (/proc)"


def _measure(call: Callable[[], object], database: Callable[[], float] | None = None) -> tuple[float, float, int, object]:
    """``(CPU seconds of this process, CPU seconds of the database backend, statements, what
    call returned)`` of one call; ``database``: :func:`database_clock`'s reader (None: 0). The
    statements are counted by a wrapper around the connection's cursor
    (:meth:`~django.db.backends.base.base.BaseDatabaseWrapper.execute_wrapper`), not by Django's
    debug cursor, which formats every statement's SQL and (on SQLite) asks the database to quote
    its parameters: a cost production, with ``DEBUG`` off, does not pay."""
    sent = [0]

    def count(execute, sql, params, many, context):
        sent[0] += 1
        return execute(sql, params, many, context)

    db_before = database() if database else 0.0
    with connection.execute_wrapper(count):
        start = time.process_time()
        answer = call()
        cpu = time.process_time() - start
    db = database() - db_before if database else 0.0
    return cpu, db, sent[0], answer


def paired_ratio(rows: list[tuple[int, float]], baseline: dict[int, float]) -> float:
    """The median over ``rows`` (``(round, CPU seconds)``) of each CPU over its round's
    ``baseline`` CPU (``{round: CPU seconds}``): the ratio of a kind to the baseline when both
    were measured in the same round (module docstring). Raises ``statistics.StatisticsError``
    when no row has a baseline."""
    return statistics.median(cpu / baseline[r] for r, cpu in rows if baseline.get(r))


def _plays(event) -> list[tuple[Table, int]]:
    """Every (table, set) of session 1 in the order the room plays them (by time, then group and
    position): entering in this order, each set has reached its table."""
    plan = session_plan(event, 1)
    by_place = {(t.group.number, t.position): t for t in plan.tables}
    plays = [p for s in range(1, event.get_ruleset().hands_per_session + 1) for p in plan.plays(s)]
    plays.sort(key=lambda p: (p.time, p.group, p.position))
    return [(by_place[(p.group, p.position)], p.set_no) for p in plays]


KINDS = {"baseline": "minimal endpoint (baseline)", "api_entry": "API entry",
         "api_confirm": "API confirmation", "api_confirm_completing": "API confirmation completing"}


def bench_entry(write: Callable[[str], object], teams: int = 16, seed: int = 27) -> dict:
    """Measure entries and confirmations beside the minimal endpoint (module docstring); ``write``
    each figure as a line. Returns ``{kind: {"cpu_ms", "server_ms", "database_ms", "queries",
    "n"}}`` for each of :data:`KINDS` (each but the baseline with ``ratio``, :func:`paired_ratio`),
    ``"mix"`` (``{"ratio", "n"}``: the goal's) and ``cores``."""
    samples: dict[str, list[tuple[float, float, int, int]]] = {k: [] for k in KINDS}  # (server, db, statements, round)
    stamp = f"bench-entry-{int(time.time())}"
    user_model = get_user_model()
    with override_settings(ROOT_URLCONF=__name__, DEBUG=False):
        event = create_event(name=f"Bench entry {stamp}", slug=stamp, sessions=2)
        try:
            import_roster(event, roster_csv(teams, 4))
            prepare_session(event, 1)
            user = user_model.objects.create_user(f"{stamp}-scorer", password="unused-bench-pw")
            EventRole.objects.create(event=event, user=user, role=EventRole.Role.SCORER).tables.set(
                Table.objects.filter(group__session__event=event))
            api = Client(HTTP_AUTHORIZATION=f"Token {issue_token(user)}")
            pins = {(t.pk, a.seat): a.player.pin for t in Table.objects.filter(group__session__event=event)
                    for a in t.seats.select_related("player")}
            results_url = reverse("result-list", args=[event.slug])
            minimal_url = reverse("bench-minimal-write")
            plays = _plays(event)
            tables_per_group = len({t.position for t, _s in plays})
            seats = tuple(event.get_ruleset().seats)
            rng = random.Random(seed)
            confirmed_in_scope: dict[tuple[int, int], int] = {}
            database, measured_how = database_clock()
            assert not connection.in_atomic_block  # each request's transaction commits

            def measure(kind: str, round_no: int, call: Callable[[], object]) -> object:
                """The baseline, then ``call``, each measured: a pair sharing ``round_no``."""
                cpu, db, n, _ = _measure(lambda: api.post(minimal_url, {"table": plays[0][0].pk, "event": event.pk},
                                                          content_type="application/json"), database)
                samples["baseline"].append((cpu, db, n, round_no))
                cpu, db, n, answer = _measure(call, database)
                samples[kind].append((cpu, db, n, round_no))
                return answer

            round_no = 0
            for table, set_no in plays:
                body = entry_body(1, table.number, set_no, plausible_outcome(rng, seats))
                response = measure("api_entry", round_no, lambda body=body: api.post(
                    results_url, body, content_type="application/json"))
                assert response.status_code == 201, response.content[:500]
                url = reverse("result-confirm", args=[event.slug, response.json()["id"]])
                scope = (table.group_id, set_no)
                confirmed_in_scope[scope] = confirmed_in_scope.get(scope, 0) + 1
                kind = "api_confirm_completing" if confirmed_in_scope[scope] == tables_per_group else "api_confirm"
                response = measure(kind, round_no + 1, lambda table=table, url=url: api.post(
                    url, {"pin": pins[(table.pk, "S")]}, content_type="application/json"))
                assert response.status_code == 200, response.content[:500]
                round_no += 2
            assert database_clock()[1] == measured_how, "the connection changed backend: its CPU was not all counted"
        finally:
            event.delete()
            user_model.objects.filter(username=f"{stamp}-scorer").delete()
    return _report(write, samples, teams, measured_how)


def _report(write: Callable[[str], object], samples: dict, teams: int, measured_how: str) -> dict:
    figures: dict = {"cores": os.cpu_count(), "teams": teams}
    base_of_round = {r: c + d for c, d, _n, r in samples["baseline"]}
    for kind, rows in samples.items():
        figures[kind] = {"cpu_ms": 1000 * statistics.median(c + d for c, d, _n, _r in rows),
                         "server_ms": 1000 * statistics.median(c for c, _d, _n, _r in rows),
                         "database_ms": 1000 * statistics.median(d for _c, d, _n, _r in rows),
                         "queries": statistics.median(n for _c, _d, n, _r in rows), "n": len(rows)}
        if kind != "baseline":
            figures[kind]["ratio"] = paired_ratio([(r, c + d) for c, d, _n, r in rows], base_of_round)
    mix = [(c + d, r) for kind in ("api_entry", "api_confirm", "api_confirm_completing") for c, d, _n, r in samples[kind]]
    figures["mix"] = {"ratio": sum(c for c, _r in mix) / sum(base_of_round[r] for _c, r in mix), "n": len(mix)}
    base = figures["baseline"]
    write(f"entry at {teams} teams, {figures['cores']} cores, in-process (test client), {connection.vendor}, "
          f"COMMIT per request; CPU per request (median) = server (this process) + database ({measured_how}); "
          f"statements through a cursor; ratio: median over the rounds of each request over the baseline just before it")
    for kind, label in KINDS.items():
        f = figures[kind]
        ratio = "" if kind == "baseline" else (f"  {f['ratio']:.2f}x CPU, "
                                               f"{f['queries'] / base['queries']:.1f}x statements")
        write(f"  {label:30} {f['cpu_ms']:7.2f} ms (server {f['server_ms']:.2f} + database {f['database_ms']:.2f})  "
              f"{f['queries']:4.0f} statements  (n={f['n']}){ratio}")
    mix = figures["mix"]
    write(f"goal: entry and confirmation, completing confirmations included (the day's mix, n={mix['n']}), "
          f"server plus database CPU, COMMIT per request: <= {GOAL_RATIO}x the minimal endpoint: "
          f"{mix['ratio']:.2f}x {'ok' if mix['ratio'] <= GOAL_RATIO else 'MISSED'} "
          f"(sum of the mix's CPU over the sum of its paired baselines')")
    return figures
