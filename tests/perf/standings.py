"""Standings benchmark: a large individual event, scored in full and one result at a time.

Run ``python manage.py bench standings`` (or, without Django, ``python -m tests.perf.standings``
from the repository root). Synthetic data: 1,000 players (rounded up to 1,008, the next
multiple of 16, as the individual method (docs/rules.md, "Duplicate MCR: individual event") needs), 10 sessions of 16 hands, groups of 16
on 4 tables, regrouped at random every session; each table's hand is a seeded random MCR
outcome scored with :func:`scoring.payments.score_changes`. Goals: a full recompute under 2 s,
absorbing one new result under 50 ms. The baseline is the same arithmetic in plain dicts and
loops, measured in the same run, so the ratio shows what the dataclasses and checks cost.
"""

from __future__ import annotations

import random
import statistics
import time
from bisect import bisect_right
from collections.abc import Callable

from scoring.conversion import MCR_MP
from scoring.payments import WINDS, HandOutcome, score_changes
from scoring.standings import IncrementalStandings, individual_set_scores, standings

GOAL_FULL_SECONDS = 2.0
GOAL_ONE_RESULT_SECONDS = 0.05


def _random_outcome(rng: random.Random) -> HandOutcome:
    roll = rng.random()
    if roll < 0.15:
        return HandOutcome("draw")
    fan = min(88, 8 + int(rng.expovariate(1 / 6)))
    winner = rng.choice(WINDS)
    if roll < 0.45:
        return HandOutcome("self_draw", (winner,), None, (fan,))
    return HandOutcome("discard", (winner,), rng.choice([s for s in WINDS if s != winner]), (fan,))


def synthetic_event(players: int = 1000, sessions: int = 10, hands: int = 16, seed: int = 2015) -> dict:
    """``{(session, group, set): {seat: {player: score change}}}`` for a random individual event
    (players rounded up to a multiple of 16). Deterministic for a given ``seed``."""
    rng = random.Random(seed)
    players = -(-players // 16) * 16
    event = {}
    for session in range(1, sessions + 1):
        ids = list(range(players))
        rng.shuffle(ids)
        for group in range(players // 16):
            tables = [ids[group * 16 + 4 * t: group * 16 + 4 * t + 4] for t in range(4)]
            for set_no in range(1, hands + 1):
                by_seat = {seat: {} for seat in WINDS}
                for table in tables:
                    changes = score_changes("mcr", WINDS, _random_outcome(rng))
                    for seat, player in zip(WINDS, table):
                        by_seat[seat][player] = changes[seat]
                event[(session, group, set_no)] = by_seat
    return event


def per_set_results(event: dict, table) -> list:
    """``[(player, set key, converted score, score change)]`` of ``event`` (``{set key: {seat:
    {player: score change}}}``), converted with ``table`` by the individual method: the input of
    :func:`scoring.standings.standings`."""
    per_set = []
    for set_key, by_seat in event.items():
        scores = individual_set_scores(by_seat, table)
        for seat_results in by_seat.values():
            for player, change in seat_results.items():
                per_set.append((player, set_key, scores[player], change))
    return per_set


def _full(event: dict) -> list:
    return standings(per_set_results(event, MCR_MP))


def _baseline(event: dict) -> list:
    thresholds = [s.min_difference for s in MCR_MP.steps]
    points_of = [s.points for s in MCR_MP.steps]
    totals: dict = {}
    for by_seat in event.values():
        for seat_results in by_seat.values():
            avg = sum(seat_results.values()) / len(seat_results)
            for player, change in seat_results.items():
                diff = change - avg
                p = points_of[bisect_right(thresholds, abs(diff)) - 1]
                p = -p if diff < 0 else p
                t = totals.get(player)
                if t is None:
                    t = totals[player] = [0, 0, 0]
                t[0] += p
                t[1] += change
                t[2] += p > 0
    return sorted(totals.items(), key=lambda kv: (-kv[1][0], -kv[1][1], -kv[1][2], kv[0]))


def bench_standings(write: Callable[[str], object], players: int = 1000, sessions: int = 10, hands: int = 16,
                    repeats: int = 20) -> dict:
    """Time a full standings recompute, the absorption of one new result, and the plain-Python
    baseline; ``write`` each figure as a line. Returns ``{'players', 'results', 'full_seconds',
    'baseline_seconds', 'full_vs_baseline', 'one_result_seconds', 'full_ok', 'one_result_ok'}``
    (one result = the median over ``repeats`` replacements of a set: convert it, replace it in
    :class:`~scoring.standings.IncrementalStandings`, rebuild the rows)."""
    event = synthetic_event(players, sessions, hands)
    results = sum(len(r) for by_seat in event.values() for r in by_seat.values())

    start = time.perf_counter()
    rows = _full(event)
    full = time.perf_counter() - start
    start = time.perf_counter()
    base = _baseline(event)
    baseline = time.perf_counter() - start
    if [r.key for r in rows] != [k for k, _ in base]:
        raise AssertionError("the standings and the baseline disagree: the benchmark measured different work")

    *earlier, last = event
    incremental = IncrementalStandings()
    for set_key in earlier:
        for player, score in individual_set_scores(event[set_key], MCR_MP).items():
            change = next(r[player] for r in event[set_key].values() if player in r)
            incremental.add(set_key, player, score, change)
    rng = random.Random(1)
    times = []
    for _ in range(repeats):
        by_seat = {seat: {p: c + rng.choice((-8, 0, 8)) for p, c in r.items()} for seat, r in event[last].items()}
        start = time.perf_counter()
        scores = individual_set_scores(by_seat, MCR_MP)
        changes = {p: c for r in by_seat.values() for p, c in r.items()}
        incremental.replace_set(last, {p: (s, changes[p]) for p, s in scores.items()})
        incremental.rows()
        times.append(time.perf_counter() - start)
    one = statistics.median(times)

    figures = {
        "players": len({p for by_seat in event.values() for r in by_seat.values() for p in r}),
        "results": results,
        "full_seconds": full,
        "baseline_seconds": baseline,
        "full_vs_baseline": full / baseline,
        "one_result_seconds": one,
        "full_ok": full < GOAL_FULL_SECONDS,
        "one_result_ok": one < GOAL_ONE_RESULT_SECONDS,
    }
    write(f"{figures['players']} players, {sessions} sessions x {hands} hands: {results} player results")
    write(f"full recompute      {full * 1000:8.1f} ms  (goal < {GOAL_FULL_SECONDS * 1000:.0f} ms: "
          f"{'ok' if figures['full_ok'] else 'MISSED'})")
    write(f"plain-Python basis  {baseline * 1000:8.1f} ms  (full / baseline = {figures['full_vs_baseline']:.2f})")
    write(f"one new result      {one * 1000:8.2f} ms  (goal < {GOAL_ONE_RESULT_SECONDS * 1000:.0f} ms: "
          f"{'ok' if figures['one_result_ok'] else 'MISSED'}; "
          f"{one / full * 100:.2f}% of a full recompute)")
    return figures


if __name__ == "__main__":
    bench_standings(print)
