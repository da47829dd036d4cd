"""The seating benchmark behind ``python manage.py bench seating`` (docs/seating.md).

For 16, 32, 64, 128 and 256 teams in groups of 4 and 4, 8 and 12 sessions it runs
:func:`tournament.regrouping.regroup` and, in the same run, a baseline: session 1 in the given
order and every later session a seeded random shuffle, the regrouping a director gets without a
plan. Figures print beside the baseline's as ratios. Each case has its own time limit
(``CASE_TIME_LIMIT`` = 10 s, the goal), so the whole run takes at most 15 x 10 s; in practice the
designs answer at once and only the tabu search cases take time.

Standalone: no Django import; the management command passes ``self.stdout.write``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from tournament.regrouping import regroup, repeat_meetings

TEAMS = (16, 32, 64, 128, 256)
SESSIONS = (4, 8, 12)
GROUP_SIZE = 4
CASE_TIME_LIMIT = 10.0


def _random_sessions(n: int, group_size: int, n_sessions: int, seed: int) -> list[list[tuple[int, ...]]]:
    """Baseline: session 1 in order, later sessions shuffled by ``random.Random(seed)``."""
    rng = random.Random(seed)
    sessions = []
    for s in range(n_sessions):
        order = list(range(n))
        if s:
            rng.shuffle(order)
        sessions.append([tuple(order[i:i + group_size]) for i in range(0, n, group_size)])
    return sessions


def bench_seating(write: Callable[[str], None], seed: int = 0) -> list[dict]:
    """Run every case, write one line per case to ``write`` and return the rows.

    Each row: ``teams``, ``sessions``, ``repeats``, ``lower_bound``, ``method``, ``seconds``,
    ``baseline_repeats``, ``baseline_seconds``, ``repeat_ratio`` (repeats / baseline repeats, 0 when
    the baseline has none), ``at_bound`` (repeats == lower bound, so no regrouping does better) and
    ``in_time`` (seconds <= ``CASE_TIME_LIMIT``). Seconds are wall-clock on the machine running it.
    """
    write(f"seating bench: groups of {GROUP_SIZE}, time limit {CASE_TIME_LIMIT:g} s per case, seed {seed}")
    write(f"{'teams':>5} {'sess':>4} {'repeats':>7} {'bound':>5} {'random':>6} {'ratio':>6} {'seconds':>8} {'random s':>8}  method")
    rows = []
    for teams in TEAMS:
        for sessions in SESSIONS:
            result = regroup(teams, GROUP_SIZE, sessions, seed=seed, time_limit=CASE_TIME_LIMIT)
            start = time.perf_counter()
            baseline = repeat_meetings(_random_sessions(teams, GROUP_SIZE, sessions, seed))
            baseline_seconds = time.perf_counter() - start
            row = {
                "teams": teams,
                "sessions": sessions,
                "repeats": result.repeats,
                "lower_bound": result.lower_bound,
                "method": result.method,
                "seconds": result.seconds,
                "baseline_repeats": baseline,
                "baseline_seconds": baseline_seconds,
                "repeat_ratio": result.repeats / baseline if baseline else 0.0,
                "at_bound": result.repeats == result.lower_bound,
                "in_time": result.seconds <= CASE_TIME_LIMIT,
            }
            rows.append(row)
            write(
                f"{teams:>5} {sessions:>4} {result.repeats:>7} {result.lower_bound:>5} {baseline:>6} "
                f"{row['repeat_ratio']:>6.2f} {result.seconds:>8.3f} {baseline_seconds:>8.3f}  {result.method}"
            )
    at_bound = sum(r["at_bound"] for r in rows)
    in_time = sum(r["in_time"] for r in rows)
    write(f"{at_bound}/{len(rows)} cases at the lower bound, {in_time}/{len(rows)} within {CASE_TIME_LIMIT:g} s")
    return rows
