"""Result entry benchmark: the CPU and the SQL statements of one entry or confirmation, beside a
minimal endpoint doing the same write, measured in the same run.

Run ``python manage.py bench entry`` (with ``DATABASE_URL`` naming a PostgreSQL database to measure
what production runs; the default SQLite file works too). Builds a 16-team MCR event (one session
prepared) inside a transaction that is rolled back at the end, so the database is left as it was,
and answers every request in-process through the test client (the whole Django stack: the
project's middleware, URL resolution, authentication, the view, the service, the response).

Measured per request, in alternating rounds (one request of each kind per round, in turn, so
a slow moment of the machine falls on every kind alike):

- *baseline*: the minimal endpoint this module defines, :class:`MinimalWrite` — a DRF
  ``APIView`` with the project's token authentication and middleware that reads one row and
  inserts one row in a transaction, mounted by a URLconf of its own (:data:`urlpatterns`, which
  also includes the project's URLs);
- *API entry*: ``POST /api/events/<slug>/results/`` by a scorer account with the entering
  player's seat and PIN;
- *API confirmation*: ``POST .../results/<id>/confirm/`` with another seat's PIN, split into the
  confirmations that leave their comparison incomplete and the one that completes it (it scores
  the set for the group);
- *table page entry*: the table page's form POST of a phone logged in with the table's code.

Figures: CPU time of the process per request (``time.process_time``: the database server's own
work is not in it on PostgreSQL, it is on SQLite), median over the rounds, and the statements
per request (every statement sent through a cursor, SAVEPOINT and RELEASE included: :func:`_measure`), each
beside the baseline with the ratio, and the machine's core count. Goal: entry and confirmation
at most :data:`GOAL_RATIO` times the baseline's CPU per request.

The ratio is the median over the rounds of each request's CPU over the CPU of its own round's
baseline request (:func:`paired_ratio`), with the ratio of the two medians beside it. On the
shared virtual machines this is measured on, the CPU runs at two speeds, switching every few
tenths of a second (a plain Python loop timed 400 times: its slow runs come in stretches of
about a hundred, at twice the time of the others), so the medians of two kinds taken
separately can fall in different speeds; a request and the baseline of its round, run a few
milliseconds apart, almost always share one.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.test import Client
from django.test.utils import override_settings
from django.urls import include, path, reverse
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from tests.perf.loadtest import roster_csv
from tournament.api_tokens import issue_token
from tournament.models import AuditEntry, EventRole, Table
from tournament.services import create_event, import_roster, prepare_session
from tournament.table_plan import session_plan

GOAL_RATIO = 1.5
CHANGES = {"E": 34, "S": -18, "W": -8, "N": -8}  # a 10-fan discard win of East on South (MCR)


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


def _measure(call: Callable[[], object]) -> tuple[float, int, object]:
    """``(CPU seconds, statements, what call returned)`` of one call. The statements are counted
    by a wrapper around the connection's cursor (:meth:`~django.db.backends.base.base.BaseDatabaseWrapper.execute_wrapper`),
    not by Django's debug cursor, which formats every statement's SQL and (on SQLite) asks the
    database to quote its parameters: a cost production, with ``DEBUG`` off, does not pay."""
    sent = [0]

    def count(execute, sql, params, many, context):
        sent[0] += 1
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        start = time.process_time()
        answer = call()
        cpu = time.process_time() - start
    return cpu, sent[0], answer


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


def bench_entry(write: Callable[[str], object], teams: int = 16) -> dict:
    """Measure entries and confirmations beside the minimal endpoint (module docstring); ``write``
    each figure as a line. Returns ``{kind: {"cpu_ms", "queries", "n"}}`` for ``baseline``,
    ``api_entry``, ``api_confirm``, ``api_confirm_completing`` and ``page_entry`` (each but the
    baseline with ``ratio``, :func:`paired_ratio`, and ``ratio_of_medians``), with ``cores``."""
    samples: dict[str, list[tuple[float, int, int]]] = {k: [] for k in
                                                  ("baseline", "api_entry", "api_confirm", "api_confirm_completing",
                                                   "page_entry")}
    with override_settings(ROOT_URLCONF=__name__, DEBUG=False), transaction.atomic():
        stamp = f"bench-entry-{int(time.time())}"
        event = create_event(name=f"Bench entry {stamp}", slug=stamp, sessions=2)
        import_roster(event, roster_csv(teams, 4))
        prepare_session(event, 1)
        user = get_user_model().objects.create_user(f"{stamp}-scorer", password="unused-bench-pw")
        EventRole.objects.create(event=event, user=user, role=EventRole.Role.SCORER).tables.set(
            Table.objects.filter(group__session__event=event))
        token = issue_token(user)
        api = Client(HTTP_AUTHORIZATION=f"Token {token}")
        pins = {(t.pk, a.seat): a.player.pin for t in Table.objects.filter(group__session__event=event)
                for a in t.seats.select_related("player")}
        phones: dict[int, Client] = {}
        results_url = reverse("result-list", args=[event.slug])
        minimal_url = reverse("bench-minimal-write")
        plays = _plays(event)
        tables_per_group = len({t.position for t, _s in plays})
        confirmed_in_scope: dict[tuple[int, int], int] = {}

        def baseline(table):
            return api.post(minimal_url, {"table": table.pk, "event": event.pk}, content_type="application/json")

        def api_entry(table, set_no):
            return api.post(results_url, {"table": table.number, "set_no": set_no, "changes": CHANGES,
                                          "entered_by_seat": "E", "entry_pin": pins[(table.pk, "E")]},
                            content_type="application/json")

        table_urls = {t.pk: reverse("table", args=[event.slug, t.pk]) for t, _s in plays}  # URLs are the client's work:
        # made before measuring (reversing the confirmation's URL alone costs a few hundred microseconds)

        def page_entry(table, set_no):
            phone = phones[table.pk]
            return phone.post(table_urls[table.pk], {
                "set_no": str(set_no), "mode": "outcome", "kind": "discard", "winners": "E", "discarder": "S",
                "value_E": "10", "entered_by_seat": "E", "entry_pin": pins[(table.pk, "E")]})

        def confirm(table, url):
            return api.post(url, {"pin": pins[(table.pk, "S")]}, content_type="application/json")

        for round_no, (table, set_no) in enumerate(plays):
            if table.pk not in phones:
                phones[table.pk] = Client()
                assert phones[table.pk].post(reverse("table-login"), {"code": table.login_code}).status_code == 302
            cpu, n, _ = _measure(lambda table=table: baseline(table))
            samples["baseline"].append((cpu, n, round_no))
            by_page = table.number % 2 == 0  # half the tables enter by the page, half through the API
            if by_page:
                cpu, n, response = _measure(lambda table=table, set_no=set_no: page_entry(table, set_no))
                assert response.status_code == 302, response.content[:500]
                samples["page_entry"].append((cpu, n, round_no))
                result_id = int(response["Location"].split("confirm=")[1].split("#")[0])
            else:
                cpu, n, response = _measure(lambda table=table, set_no=set_no: api_entry(table, set_no))
                assert response.status_code == 201, response.content[:500]
                samples["api_entry"].append((cpu, n, round_no))
                result_id = response.json()["id"]
            scope = (table.group_id, set_no)
            confirmed_in_scope[scope] = confirmed_in_scope.get(scope, 0) + 1
            url = reverse("result-confirm", args=[event.slug, result_id])
            cpu, n, response = _measure(lambda table=table, url=url: confirm(table, url))
            assert response.status_code == 200, response.content[:500]
            kind = "api_confirm_completing" if confirmed_in_scope[scope] == tables_per_group else "api_confirm"
            samples[kind].append((cpu, n, round_no))
        transaction.set_rollback(True)

    figures: dict = {"cores": os.cpu_count(), "teams": teams}
    base_of_round = {r: c for c, _n, r in samples["baseline"]}
    for kind, rows in samples.items():
        figures[kind] = {"cpu_ms": 1000 * statistics.median(c for c, _n, _r in rows),
                         "queries": statistics.median(n for _c, n, _r in rows), "n": len(rows)}
        if kind != "baseline":
            figures[kind]["ratio"] = paired_ratio([(r, c) for c, _n, r in rows], base_of_round)
    base = figures["baseline"]
    for kind, f in figures.items():
        if isinstance(f, dict) and kind != "baseline":
            f["ratio_of_medians"] = f["cpu_ms"] / base["cpu_ms"]
    write(f"entry at {teams} teams, {figures['cores']} cores, in-process (test client), {connection.vendor}; "
          f"CPU per request (median), statements per request (through a cursor, SAVEPOINT included); "
          f"ratio: median over the rounds of each request over its round's baseline")
    write(f"  {'minimal endpoint (baseline)':32} {base['cpu_ms']:7.2f} ms  {base['queries']:4.0f} statements  (n={base['n']})")
    for kind, label in (("api_entry", "API entry"), ("api_confirm", "API confirmation"),
                        ("api_confirm_completing", "API confirmation completing"), ("page_entry", "table page entry")):
        f = figures[kind]
        ratio = f["ratio"]
        goal = "" if kind == "api_confirm_completing" else f"  goal <= {GOAL_RATIO}x: {'ok' if ratio <= GOAL_RATIO else 'MISSED'}"
        write(f"  {label:32} {f['cpu_ms']:7.2f} ms  {f['queries']:4.0f} statements  (n={f['n']})  "
              f"{ratio:.2f}x CPU (per round; {f['ratio_of_medians']:.2f}x of the medians), "
              f"{f['queries'] / base['queries']:.1f}x statements{goal}")
    return figures
