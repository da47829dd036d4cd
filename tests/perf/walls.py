"""Wall benchmark: derive and store 1,024 wall sets, against a bare in-process shuffle.

Run with ``python manage.py bench walls``. Goal (docs/walls.md, "Wall derivation"): under 2 s and within 3× of the bare
loop. The baseline is ``random.shuffle`` of the same multiset, 1,024 times, in the same run.
"""

from __future__ import annotations

import random
import time

from django.db import transaction

from tournament.services import create_event
from walls.rulesets import get_ruleset
from walls.services import generate_walls, wall_deriver

SETS = 1024


def bench_walls(write) -> dict:
    """Time :func:`walls.services.generate_walls` for 1,024 MCR wall sets (64 sessions × 16) in a
    rolled-back transaction; prints seconds and the ratio to the bare shuffle loop."""
    tiles = get_ruleset("mcr-duplicate").multiset()
    start = time.perf_counter()
    rng = random.Random(1)
    for _ in range(SETS):
        wall = list(tiles)
        rng.shuffle(wall)
    bare = time.perf_counter() - start

    class Rollback(Exception):
        pass

    try:
        with transaction.atomic():
            event = create_event(name="bench walls", slug="bench-walls-tmp", sessions=SETS // 16)
            derive = wall_deriver(event)
            start = time.perf_counter()
            for n in range(SETS):
                derive(n // 16 + 1, n % 16 + 1)
            derivation = time.perf_counter() - start
            start = time.perf_counter()
            stored = sum(len(generate_walls(event, s)) for s in range(1, SETS // 16 + 1))
            ours = time.perf_counter() - start
            raise Rollback
    except Rollback:
        pass
    write(f"baseline: random.shuffle (Mersenne Twister) of the same tiles {SETS} times in {bare:.3f} s")
    write(f"derivation only (SHA-256 stream, unbiased Fisher-Yates, laid out): {derivation:.3f} s, "
          f"{derivation / bare:.2f}x the bare loop (goal <= 3x)")
    write(f"derived and stored through generate_walls: {stored} wall sets in {ours:.3f} s (goal < 2 s), "
          f"{ours / bare:.2f}x the bare loop; storage is {max(0.0, ours - derivation):.3f} s of it")
    return {"sets": stored, "seconds": ours, "derivation": derivation, "baseline": bare, "ratio": ours / bare,
            "derivation_ratio": derivation / bare}
