"""Venues benchmark: combined standings after an offline venue's results bundle is uploaded.

Run ``python manage.py bench venues``. Builds an MCR team event of 4 venues × 52 tables (52
teams a venue: 13 groups of 4, the nearest whole number of groups to 50 tables; one session of
16 sets; the field compared across every venue) inside a transaction rolled back at the end. The
first three venues' results are stored (832 each); nothing is scored yet, since the field compares
every venue's tables. Then, measured:

- *upload*: the fourth venue's signed bundle (832 results) merged
  (:func:`tournament.venue_exchange.queue_bundle`: signatures checked, results stored, the 16
  sets rescored across 208 tables and released), then the public standings page requested until
  it shows them: the time from upload to refreshed standings, against the goal
  :data:`GOAL_SECONDS`;
- *plain recompute*: the same sets rescored from scratch (:func:`scoring.actions.rescoring.rescore_set`
  for every set) and the standings page requested, on the same data, in the same run.

The ratio upload / plain recompute is what the bundle's checks and writes cost above the
scoring itself (docs/performance.md, "Venues").
"""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Callable

from django.core.cache import cache
from django.db import transaction
from django.test import Client
from django.urls import reverse

from scoring.actions.rescoring import rescore_set
from scoring.bundles import BundleRow, make_bundle
from scoring.models import HandResult, SetScore
from tournament.models import Event, Table
from tournament.services import create_event, import_roster, prepare_session
from tournament.venue_exchange import queue_bundle
from tournament.venues import add_venue

GOAL_SECONDS = 5.0
VENUES = ("osaka", "paris", "lyon", "kyoto")
TEAMS = 52
RUNS = 3


def _roster() -> str:
    lines, t = ["team,player,venue"], 0
    for code in VENUES:
        for _k in range(TEAMS):
            t += 1
            lines += [f"Team {t},Team {t} player {m},{code}" for m in range(4)]
    return "\n".join(lines) + "\n"


def _rows(event: Event, code: str, rng: random.Random) -> list[BundleRow]:
    seats = tuple(event.get_ruleset().seats)
    rows = []
    for table in Table.objects.filter(group__session__event=event, group__venue__code=code).order_by("number"):
        for set_no in range(1, event.get_ruleset().hands_per_session + 1):
            winner, fan = rng.choice(seats), 8 + int(rng.expovariate(1 / 6))
            rows.append(BundleRow(1, table.number, set_no, 1, {s: (3 * (fan + 8) if s == winner else -(fan + 8)) for s in seats},
                                  {"kind": "self_draw", "winners": [winner], "fans": [fan]}))
    return rows


def _standings_shown(client: Client, url: str) -> None:
    response = client.get(url, REMOTE_ADDR="198.51.100.7")
    assert response.status_code == 200 and b"Team 1" in response.content


def bench_venues(write: Callable[[str], object]) -> dict:
    """Time the upload-to-standings of the last venue's bundle against a plain recompute (module
    docstring); ``write`` each figure as a line. Returns ``{'upload_s', 'plain_s', 'ratio',
    'results', 'tables'}`` (medians of :data:`RUNS` runs, seconds)."""
    uploads, plains = [], []
    for run in range(RUNS):
        with transaction.atomic():
            stamp = f"bench-venues-{int(time.time())}-{run}"
            event = create_event(name=f"Bench venues {stamp}", slug=stamp, sessions=1, comparison=Event.Comparison.FIELD)
            for code in VENUES:
                add_venue(event, name=f"{code.title()} club", code=code, offline=True, actor="bench")
            import_roster(event, _roster())
            prepare_session(event, 1)
            rng = random.Random(47)
            tables = {t.number: t for t in Table.objects.filter(group__session__event=event)}
            for code in VENUES[:-1]:
                HandResult.objects.bulk_create(
                    HandResult(event=event, table=tables[r.table], session_number=1, set_no=r.set_no, changes=dict(r.changes),
                               outcome=r.outcome, status=HandResult.Status.CONFIRMED, entered_by="bench", confirmed_by="bench")
                    for r in _rows(event, code, rng))
            last = event.venues.get(code=VENUES[-1])
            bundle = json.loads(json.dumps(make_bundle(last.bundle_key, event.uid, last.code, _rows(event, last.code, rng))))
            url = reverse("standings", args=[event.slug])
            client = Client()
            cache.clear()
            start = time.perf_counter()
            merged = queue_bundle(last, bundle, actor="bench")
            _standings_shown(client, url)
            uploads.append(time.perf_counter() - start)
            assert merged.status == "merged" and merged.report["released"] == 16, merged.report
            cache.clear()
            start = time.perf_counter()
            SetScore.objects.filter(event=event).delete()
            for set_no in range(1, 17):
                rescore_set(event, 1, set_no)
            _standings_shown(client, url)
            plains.append(time.perf_counter() - start)
            transaction.set_rollback(True)
    cache.clear()
    figures = {"upload_s": statistics.median(uploads), "plain_s": statistics.median(plains),
               "results": len(bundle["results"]), "tables": len(tables)}
    figures["ratio"] = figures["upload_s"] / figures["plain_s"]
    write(f"venues: {len(VENUES)} venues, {figures['tables']} tables, the last venue's bundle of {figures['results']} results")
    write(f"  upload to refreshed standings: {figures['upload_s']:.2f} s (median of {RUNS}; goal <= {GOAL_SECONDS:.0f} s)")
    write(f"  plain recompute (16 sets rescored, standings): {figures['plain_s']:.2f} s")
    write(f"  ratio upload / plain recompute: {figures['ratio']:.2f}x")
    return figures
