"""Read pages benchmark: CPU per request of every page whose content changes only with the
event's content version, at 256 teams (1,024 players) beside the same page at 16 teams.

Run ``python manage.py bench pages`` (with ``DATABASE_URL`` naming PostgreSQL and ``CACHE_URL``
naming Redis to measure the production layout; the defaults work too). ``DEBUG`` off, as in
production. Builds two team events, 16 and 256 teams, of the day's rule set (MCR, 16 sets a
session), :data:`PLAYED` sessions played, confirmed, scored and released with every result's
hand stored, and one more session in play: every set entered and confirmed but for one table's
result (:func:`tests.perf.played.hold_back`), each inside a transaction rolled back at the end,
so the database is left as it was. For each page, through Django's test client in this process
(CPU time of this process: the view, the templates, the cache and the database client; the
database server's own time is not counted, the number of statements is printed instead):

- *first*: the first request after a release (a held-back result confirmed through the service
  a phone's confirmation calls: the set is scored and released, the public version grows), which
  computes what the page shows; for the team and player pages the median of
  :data:`FIRST_REPEATS` releases, with the goal: 256 teams within 1.5 times 16;
- *second*: the next request of the same kind for another entrant or set (another team's page
  after the first team's: the whole-event data already computed, its own body not yet);
- *warm*: the median of repeated requests of the same page at an unchanged version (the body
  read from the cache);
- *304*: the same with the ETag sent back (``If-None-Match``).

Each figure at 256 teams is printed beside the same page at 16 teams, the baseline, with the
ratio; the goals: a ratio within 1.5 warm, and for the team and player pages first after a
release. Both events are built first; *warm* and *304* are
then measured in rounds, each round one request at each size, and their ratio is the median of
the rounds' ratios (the machine's speed changes in stretches; both sizes see the same ones).
Times depend on the machine; its core count is printed.

The clients send ``Accept-Encoding: gzip, deflate, br``, as every browser and phone does (what
changes with it: the public export is sent compressed, :func:`tournament.views.event_export`);
``bytes`` is what the page's answer holds, as sent.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import transaction
from django.test import Client
from django.test.utils import override_settings
from django.urls import reverse

from tests.perf.entry import _measure as measure_call
from tests.perf.entry import paired_ratio
from tests.perf.played import hold_back, played_event, release
from tournament.models import EventRole

SIZES = (16, 256)
PLAYED = 4  # sessions played before the one in play (16 sets each: 64 sets, 16,384 results at 256 teams)
REPEATS = 15
FIRST_REPEATS = 3  # releases before the team and player pages' first requests (one for the other pages)
FIRST_GOAL = ("team page", "player page")  # first request after a release: 256 teams within GOAL_RATIO of 16
GOAL_RATIO = 1.5  # warm, 256 teams over 16 (docs/performance.md)
ACCEPT_ENCODING = "gzip, deflate, br"  # what browsers send


def _pages(event) -> list[tuple[str, str, str, bool]]:
    """``(name, first URL, second URL, director)`` of each page measured."""
    slug = event.slug
    team = lambda n: reverse("team", args=[slug, n])  # noqa: E731
    player = lambda n: reverse("player-results", args=[slug, n])  # noqa: E731
    traveller = lambda s, k: reverse("traveller", args=[slug, s, k])  # noqa: E731
    standings = reverse("standings", args=[slug])
    api = reverse("api-standings", args=[slug])
    return [
        ("standings", standings, standings + f"?session={PLAYED}", False),
        ("standings API", api, api + f"?session={PLAYED}", False),
        ("team page", team(1), team(2), False),
        ("player page", player(1), player(5), False),
        ("players", reverse("players", args=[slug]), reverse("players", args=[slug]) + "?order=score", False),
        ("traveller", traveller(PLAYED, 4), traveller(PLAYED, 3), False),
        ("projector.json", reverse("projector-json", args=[slug]), reverse("projector-json", args=[slug]) + "?rows=20", False),
        ("live grid", reverse("live", args=[slug]), reverse("live", args=[slug]) + f"?session={PLAYED}", True),
        ("live.json", reverse("live-json", args=[slug]), reverse("live-json", args=[slug]) + f"?session={PLAYED}", True),
        ("export.json", reverse("event-export", args=[slug]), reverse("event-export", args=[slug]), False),
        ("standings.csv", reverse("standings-csv", args=[slug]), reverse("standings-csv", args=[slug]) + f"?session={PLAYED}", False),
        ("standings.xlsx", reverse("standings-xlsx", args=[slug]), reverse("standings-xlsx", args=[slug]) + f"?session={PLAYED}", False),
    ]


def _cpu(fn: Callable[[], object]) -> tuple[float, object, int]:
    """CPU milliseconds of this process spent in ``fn()``, its result and the statements it sent
    (:func:`tests.perf.entry._measure`)."""
    spent, _database, statements, value = measure_call(fn)
    return 1000 * spent, value, statements


def _measure(events: dict[int, tuple], held: dict[int, list]) -> dict:
    """``{teams: {page: {"first", "second", "warm", "304" (ms), "queries" (warm), "bytes"}},
    "ratio": {page: {"warm", "304"}}}`` for ``events`` (``{teams: (event, director)}``), each
    page's first request after a release of one of ``held`` (``{teams: [held-back results]}``,
    :func:`tests.perf.played.hold_back`); a page
    that does not answer 200 at some size is reported with its status instead. *first* and
    *second* are measured size after size; *warm* and *304* in rounds, each round one request
    at every size, and their ratio is the median of the rounds' ratios
    (:func:`tests.perf.entry.paired_ratio`: the machine's speed changes in stretches,
    docs/performance.md, which a ratio of two medians taken minutes apart would count as the
    page's)."""
    clients = {}
    for teams, (_event, director) in events.items():
        public, staff = Client(HTTP_ACCEPT_ENCODING=ACCEPT_ENCODING), Client(HTTP_ACCEPT_ENCODING=ACCEPT_ENCODING)
        staff.force_login(director)
        clients[teams] = (public, staff)
    pages = {teams: _pages(event) for teams, (event, _d) in events.items()}
    out: dict = {teams: {} for teams in events} | {"ratio": {}}
    small, large = SIZES[0], SIZES[-1]
    for n, (name, *_urls) in enumerate(pages[small]):
        rounds: dict[int, dict[str, dict[int, float]]] = {}  # teams -> kind -> {round: ms}
        tags, refused = {}, None
        for teams in events:
            _name, first, second, as_director = pages[teams][n]
            client = clients[teams][1 if as_director else 0]
            firsts = []
            for _ in range(FIRST_REPEATS if name in FIRST_GOAL else 1):
                release(held[teams].pop(0))  # a set released: the public version grows
                cold, response, _ = _cpu(lambda url=first, c=client: c.get(url))
                firsts.append(cold)
            cold = statistics.median(firsts)
            if response.status_code != 200:  # e.g. a page refused at one size: reported, not measured
                refused = f"HTTP {response.status_code}"
                break
            other, _, _ = _cpu(lambda url=second, c=client: c.get(url))
            out[teams][name] = {"first": cold, "second": other, "bytes": len(response.content)}
            tags[teams], rounds[teams] = response.headers.get("ETag"), {"warm": {}, "304": {}}
        if refused:
            for teams in events:
                out[teams][name] = dict.fromkeys(("first", "second", "warm", "304"), float("nan")) | {
                    "queries": refused, "bytes": 0}
            out["ratio"][name] = {"warm": float("nan"), "304": float("nan")}
            continue
        for r in range(REPEATS):
            for teams in events:
                _name, first, _second, as_director = pages[teams][n]
                client = clients[teams][1 if as_director else 0]
                rounds[teams]["warm"][r], _response, out[teams][name]["queries"] = _cpu(lambda url=first, c=client: c.get(url))
                if tags[teams]:
                    spent, answer, _ = _cpu(lambda url=first, c=client, t=tags[teams]: c.get(url, HTTP_IF_NONE_MATCH=t))
                    if answer.status_code == 304:
                        rounds[teams]["304"][r] = spent
        out["ratio"][name] = {kind: paired_ratio(list(rounds[large][kind].items()), rounds[small][kind])
                              if rounds[large][kind] and rounds[small][kind] else float("nan") for kind in ("warm", "304")}
        for teams in events:
            for kind in ("warm", "304"):
                measured = rounds[teams][kind].values()
                out[teams][name][kind] = statistics.median(measured) if measured else float("nan")
    return out


def bench_pages(write: Callable[[str], object]) -> dict:
    """Measure every page at each size of :data:`SIZES` (module docstring); ``write`` each figure
    as a line. Returns ``{teams: {page: figures}, "ratio": {page: {"warm", "304"}}}``."""
    user = get_user_model()
    # PUBLIC_PAGE_STALE_SECONDS 0: the first request after a release builds the page (with the
    # default a visitor would be served the page as built before it, which measures nothing)
    with override_settings(PUBLIC_DOWNLOAD_RATE=None, DEBUG=False, PUBLIC_PAGE_STALE_SECONDS=0), transaction.atomic():
        events, held = {}, {}
        for teams in SIZES:
            started = time.perf_counter()
            stamp = f"bench-pages-{teams}-{int(time.time())}"
            event = played_event(teams, PLAYED, slug=stamp, sessions=PLAYED + 1)
            held[teams] = hold_back(event, PLAYED + 1)
            director = user.objects.create_user(username=f"{stamp}-director")
            EventRole.objects.create(event=event, user=director, role=EventRole.Role.DIRECTOR)
            write(f"built {teams} teams, {PLAYED} sessions played and one in play ({len(held[teams])} sets held back "
                  f"a result each) in {time.perf_counter() - started:.0f} s")
            events[teams] = (event, director)
        needed = len(_pages(event)) + (FIRST_REPEATS - 1) * len(FIRST_GOAL)
        assert needed <= len(held[teams]), f"{needed} releases needed, {len(held[teams])} sets held back"
        cache.clear()
        figures = _measure(events, held)
        transaction.set_rollback(True)
    cache.clear()
    small, large = figures[SIZES[0]], figures[SIZES[-1]]
    write(f"CPU ms per request (this process), DEBUG off, first: after a release; {SIZES[-1]} teams beside {SIZES[0]} (the baseline); "
          f"os.cpu_count() = {os.cpu_count()}; warm and 304: medians of {REPEATS} rounds, the ratio the median "
          f"of each round's (both sizes in every round)")
    write(f"{'page':<15} {'kind':<7} {SIZES[0]:>9} {SIZES[-1]:>9} {'ratio':>7}")
    for name in small:
        for kind in ("first", "second", "warm", "304"):
            a, b = small[name][kind], large[name][kind]
            if kind in ("warm", "304"):
                ratio = figures["ratio"][name][kind]
                goal = f"  goal <= {GOAL_RATIO}x: {'ok' if ratio <= GOAL_RATIO else 'MISSED'}" if kind == "warm" and ratio == ratio else ""
            else:
                ratio, goal = (b / a if a == a and a > 0 else float("nan")), ""
                if kind == "first" and name in FIRST_GOAL and ratio == ratio:
                    goal = (f"  goal (after a release, median of {FIRST_REPEATS}) <= {GOAL_RATIO}x: "
                            f"{'ok' if ratio <= GOAL_RATIO else 'MISSED'}")
            write(f"{name:<15} {kind:<7} {a:>9.2f} {b:>9.2f} {ratio:>6.2f}x{goal}")
        write(f"{name:<15} queries {small[name]['queries']:>9} {large[name]['queries']:>9}   "
              f"bytes {small[name]['bytes']} / {large[name]['bytes']}")
    return figures
