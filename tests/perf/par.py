"""Par benchmark: the solo par of every seat of 64 MCR wall sets, against a baseline of the same
number of fan calculations alone.

Run with ``python manage.py bench par``. Goal (docs/scoring.md, "Par: what each seat could have
made"): under 10 s on the project's two-core machine. The baseline calls PyMahjongGB's
calculator on a fixed winning hand as many times as the analysis called it, in the same run, so
the ratio is what the search around the calculator costs.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from MahjongGB import MahjongFanCalculator

from scoring import par
from walls import derivation
from walls.rulesets import get_ruleset

SETS = 64


def bench_par(write: Callable[[str], object], sets: int = SETS) -> dict:
    """Time :func:`scoring.par.set_par` for ``sets`` derived MCR wall sets (four seats each),
    then the same number of fan calculations alone; prints both, the ratio and the goal."""
    ruleset = get_ruleset("mcr-duplicate")
    key = derivation.effective_key("3c" * 32)
    layout = [(p.name, p.size) for p in ruleset.piles]
    walls = [derivation.lay_out(derivation.shuffle(ruleset.multiset(), derivation.wall_key(
        key, "bench-par", n // 16 + 1, n % 16 + 1, ruleset.fingerprint)), layout) for n in range(sets)]
    start = time.perf_counter()
    results = [par.set_par(ruleset, wall, prevalent_wind=par.prevalent_of(n % 16 + 1, 4)) for n, wall in enumerate(walls)]
    ours = time.perf_counter() - start
    calculations = sum(r.fan_calculations for r in results)
    seats = sum(len(r.seats) for r in results)
    without = sum(1 for r in results for s in r.seats if s.par is None)
    hand = ("W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "B1", "B2", "B3", "B5")
    start = time.perf_counter()
    for _ in range(calculations):
        MahjongFanCalculator((), hand, "B5", 0, True, False, False, False, 0, 0, True)
    bare = time.perf_counter() - start
    write(f"baseline: {calculations} fan calculations by PyMahjongGB alone in {bare:.3f} s")
    write(f"par of {seats} seats of {sets} MCR wall sets: {ours:.3f} s (goal < 10 s), {ours / bare:.2f}x the baseline; "
          f"{without} seats without a call-free win")
    return {"sets": sets, "seats": seats, "seconds": ours, "baseline": bare, "ratio": ours / bare,
            "calculations": calculations, "without_par": without}
