"""Benchmark of the printing layer: a full MCR duplicate print run against bare reportlab.

Renders the wall stickers of 64 physical copies of MCR duplicate sets (64 × 136 = 8,704
stickers) as the director's Print button does by default, row strips on A4 full-sheet labels
(``a4-strips``, 25 × 34 mm tiles) with codes on a 60-character public address (version 4, the
largest a sticker needs), and their 64 set labels, then a *bare loop*: plain reportlab code
drawing, on the same pages and positions, the same outlines, seat boxes and strings in the same
fonts (seat, slot, set code, row word: a sticker names no tile), with a rectangle standing in for
each QR code. The sticker time includes building the tile-free sticker values from the rule set, as the
print job does. The ratio of the two says what layout and vector QR codes cost on top of
reportlab itself; the goals are under 10 s from a cold start (QR matrices not yet cached) and
within 1.5× of the bare loop (best of ``repeat`` warm runs each, in the same process).

Run: ``python manage.py bench printing`` (or ``python -m tests.perf.printing`` from the repository
root; exit status 1 when a goal is missed).
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable

from reportlab.lib.units import mm

from walls.printing import PrintableSet, render_set_labels
from walls.printing.base import finish, new_canvas
from walls.printing.data import sticker_set
from walls.printing.fonts import fonts
from walls.printing.qr import STICKER_MASK, qr_runs
from walls.printing.strips import _HEAD, PAGE_MARGIN, _frame, _pages, render_sticker_strips, sticker_word
from walls.printing.templates import (
    DEFAULT_LABEL_TEMPLATE,
    DEFAULT_TEMPLATE,
    get_template,
    label_boxes,
)
from walls.printing.tilesize import TILE_SIZES
from walls.rulesets import get_ruleset
from walls.setcode import SetId

ADDRESS = "https://tournaments.mahjong-europe.org/open-championship-202"
"""A public address of 60 characters with a path: the longest sticker codes (walls.printing.qr.sticker_ecc)."""
TILE = TILE_SIZES["wmo-25x34"]

SETS = 64
GOAL_SECONDS = 10.0
GOAL_RATIO = 1.5


def sample_sets(count: int = SETS, ruleset_code: str = "mcr-duplicate") -> list[PrintableSet]:
    """``count`` physical copies of one session's 16 sets (4 copies each at 64) with walls
    shuffled by a fixed seed."""
    ruleset = get_ruleset(ruleset_code)
    out = []
    for n in range(count):
        tiles = ruleset.multiset()
        random.Random(n).shuffle(tiles)
        piles, i = {}, 0
        for pile in ruleset.piles:
            piles[pile.name] = tiles[i:i + pile.size]
            i += pile.size
        set_id = SetId("bench", 1, n % 16 + 1)  # a session's 16 sets, in 4 copies each (64: the demo's)
        out.append(PrintableSet(set_id, "Benchmark Open", ruleset, piles, f"Group {n // 16 + 1} · Table {n % 4 + 1}",
                                "ab" * 32, "https://mj.example.org/e/bench" if n % 2 else None))
    return out


def stickers_of(sets: list[PrintableSet]) -> list:
    """The tile-free sticker values of ``sets``, built from set code and rule set as
    walls/print_kinds/walls.py does (one a physical copy, named by its first table)."""
    return [sticker_set(p.set_id, p.event_name, p.ruleset, ADDRESS, "4821", p.first_table) for p in sets]


def render_stickers(sets: list[PrintableSet], lang: str) -> bytes:
    """The default print: row strips on ``a4-strips`` for 25 × 34 mm tiles."""
    return render_sticker_strips(stickers_of(sets), sets[0].ruleset, TILE, get_template(DEFAULT_TEMPLATE), lang=lang)


def _bare_qr(c, data: str, x: float, y: float, size: float) -> None:
    """A QR code as plain code draws it: its matrix computed afresh (the uncached
    :func:`walls.printing.qr.qr_runs`), one page rectangle a run of dark modules, no form."""
    modules, runs = qr_runs.__wrapped__(data, "M", STICKER_MASK)
    module = size / (modules + 4)
    for r, start, length in runs:
        c.rect(x + (start + 2) * module, y + size - (r + 3) * module, length * module, module, stroke=0, fill=1)


def bare_loop(sets: list[PrintableSet], lang: str = "ja") -> bytes:
    """Plain reportlab: the strips' outlines, boxes and strings and the labels' at the same places,
    no layout logic, each QR code drawn run by run on the page (the labels' a filled rectangle)."""
    fs = fonts()
    ruleset = sets[0].ruleset
    frame = _frame(TILE, get_template(DEFAULT_TEMPLATE))
    pages = _pages(stickers_of(sets), ruleset, frame)
    c, buf = new_canvas((frame.page_w, frame.page_h), "bare loop")
    cjk = fs.cjk(lang)
    inset = (frame.pitch - frame.sw) / 2
    margin = PAGE_MARGIN * mm
    for page in pages:
        y_top = frame.page_h - margin - 7 * mm
        for line in page:
            x0 = margin
            for piece in line:
                c.setFont(fs.latin_bold, 7.5)
                c.drawString(x0 + inset, y_top - 2.5 * mm, f"{piece.sset.set_id.code} {piece.row.pile}")
                bottom = y_top - _HEAD - frame.sh
                for k, slot in enumerate(piece.slots):
                    x = x0 + k * frame.pitch + inset
                    c.rect(x, bottom, frame.sw, frame.sh, stroke=1, fill=0)
                    c.rect(x + 2, bottom + frame.sh - 14, 12, 12, stroke=0, fill=1)
                    c.setFont(fs.latin_bold, 14)
                    c.drawString(x + 16, bottom + frame.sh - 13, slot.label)
                    c.setFont(fs.latin_bold, 7)
                    c.drawString(x + 2, bottom + frame.sh - 22, piece.sset.set_id.code)
                    c.setFont(cjk, 6)
                    c.drawString(x + frame.sw - 20, bottom + frame.sh - 22, sticker_word(piece.row, slot, lang))
                    _bare_qr(c, piece.sset.slot_payload(slot), x + 4, bottom + 1, 45)
                x0 += (len(piece.slots) + 1) * frame.pitch
            y_top -= frame.line_h
        c.rect(margin, margin + 8.5 * mm, 100 * mm, 0.6 * mm, stroke=0, fill=1)
        c.showPage()
    label_template = get_template(DEFAULT_LABEL_TEMPLATE)
    label_box = label_boxes(label_template)
    for start in range(0, len(sets), len(label_box)):
        for (x, y, _, h), pset in zip(label_box, sets[start:start + len(label_box)]):
            c.rect(x + 2 * mm, y + 2 * mm, h - 4 * mm, h - 4 * mm, stroke=0, fill=1)
            c.setFont(fs.latin_bold, 8)
            c.drawString(x + h, y + h - 10, pset.event_name)
            c.setFont(fs.latin_bold, 18)
            c.drawString(x + h, y + h - 35, pset.set_id.code)
            c.setFont(fs.latin, 6)
            c.drawString(x + h, y + 12, pset.commitment[:32])
            c.drawString(x + h, y + 6, pset.commitment[32:])
        c.showPage()
    return finish(c, buf)  # same canvas options and stream encoding as the renderers


def _best(fn: Callable[[], object], repeat: int) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def bench_printing(write: Callable[[str], object] = print, *, sets: int = SETS, repeat: int = 2, lang: str = "ja") -> dict:
    """Time stickers + set labels for ``sets`` MCR sets against the bare loop; ``write`` gets one
    line per result. Returns the figures (seconds, ratio, stickers, pages, bytes, goals met)."""
    data = sample_sets(sets)
    fonts()
    bare_loop(data[:1], lang)
    start = time.perf_counter()  # cold: QR matrices and text metrics not cached yet, as in a fresh worker
    render_stickers(data, lang)
    render_set_labels(data, lang=lang)
    cold = time.perf_counter() - start
    t_stickers, stickers_pdf = _best(lambda: render_stickers(data, lang), repeat)
    t_labels, labels_pdf = _best(lambda: render_set_labels(data, lang=lang), repeat)
    t_bare, bare_pdf = _best(lambda: bare_loop(data, lang), repeat)
    total = t_stickers + t_labels
    stickers = sum(s.slot_count for s in stickers_of(data))
    result = {
        "sets": sets,
        "stickers": stickers,
        "stickers_seconds": round(t_stickers, 3),
        "labels_seconds": round(t_labels, 3),
        "total_seconds": round(total, 3),
        "cold_total_seconds": round(cold, 3),
        "bare_seconds": round(t_bare, 3),
        "ratio": round(total / t_bare, 3),
        "stickers_pdf_bytes": len(stickers_pdf),
        "labels_pdf_bytes": len(labels_pdf),
        "bare_pdf_bytes": len(bare_pdf),
        "per_sticker_ms": round(1000 * t_stickers / stickers, 4),
    }
    result["meets_time_goal"] = cold < GOAL_SECONDS
    result["meets_ratio_goal"] = result["ratio"] <= GOAL_RATIO
    write(f"stickers (row strips, a4-strips, 25 × 34 mm, 60-character address): {stickers} for {sets} copies in "
          f"{t_stickers:.2f} s ({result['per_sticker_ms']} ms each, {len(stickers_pdf) / 1e6:.1f} MB)")
    write(f"set labels: {sets} in {t_labels:.2f} s; both on a cold start (QR codes computed): {cold:.2f} s")
    write(f"total {total:.2f} s (goal < {GOAL_SECONDS:g} s) · bare reportlab loop {t_bare:.2f} s · "
          f"ratio {result['ratio']:.2f} (goal ≤ {GOAL_RATIO})")
    return result


if __name__ == "__main__":
    outcome = bench_printing(print)
    sys.exit(0 if outcome["meets_time_goal"] and outcome["meets_ratio_goal"] else 1)
