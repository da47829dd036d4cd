"""Benchmark of the printing layer: a full MCR duplicate print run against bare reportlab.

Renders the wall stickers of 64 MCR duplicate sets (64 × 136 = 8,704 stickers on the default
A4 70-up stock) and their 64 set labels, then a *bare loop*: plain reportlab code drawing, on the
same pages and positions, the same seat boxes and the same strings in the same fonts (seat,
slot, set code, pile word: a sticker names no tile), with a rectangle standing in for each QR
code. The sticker time includes building the tile-free sticker values from the rule set, as the
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

from walls.printing import PrintableSet, render_set_labels, render_wall_stickers
from walls.printing.base import finish, new_canvas
from walls.printing.data import sticker_set
from walls.printing.fonts import fonts, text_width
from walls.printing.i18n import word
from walls.printing.stickers import _KIND_WORD, _Sticker, plan_sheets, sticker_layout
from walls.printing.templates import (
    DEFAULT_LABEL_TEMPLATE,
    get_template,
    label_boxes,
)
from walls.rulesets import get_ruleset
from walls.setcode import SetId

GRID_TEMPLATE = "a4-70"
"""The stickers measured: one per label on a grid stock (the row strips are walls.printing.strips)."""

SETS = 64
GOAL_SECONDS = 10.0
GOAL_RATIO = 1.5


def sample_sets(count: int = SETS, ruleset_code: str = "mcr-duplicate") -> list[PrintableSet]:
    """``count`` sets of one session-like run with walls shuffled by a fixed seed."""
    ruleset = get_ruleset(ruleset_code)
    out = []
    for n in range(count):
        tiles = ruleset.multiset()
        random.Random(n).shuffle(tiles)
        piles, i = {}, 0
        for pile in ruleset.piles:
            piles[pile.name] = tiles[i:i + pile.size]
            i += pile.size
        set_id = SetId("bench", n // 16 + 1, n % 16 + 1)
        out.append(PrintableSet(set_id, "Benchmark Open", ruleset, piles, f"Table {n % 4 + 1}", "ab" * 32,
                                "https://mj.example.org/e/bench" if n % 2 else None))
    return out


def stickers_of(sets: list[PrintableSet]) -> list:
    """The tile-free sticker values of ``sets``, built from set code and rule set as
    walls/print_kinds/walls.py does."""
    return [sticker_set(p.set_id, p.event_name, p.ruleset) for p in sets]


def bare_loop(sets: list[PrintableSet], lang: str = "ja") -> bytes:
    """Plain reportlab: the stickers' and labels' boxes and strings at the same places, no layout
    logic, no QR codes (a filled rectangle each)."""
    fs = fonts()
    template = get_template(GRID_TEMPLATE)
    boxes = label_boxes(template)
    ssets = stickers_of(sets)
    blocks = [(sset, unit) for sset in ssets for unit in sset.units]
    widest = max(text_width(s.label, fs.latin_bold, 1.0) for _, unit in blocks for s in unit.slots)
    lay = sticker_layout(boxes[0][2], boxes[0][3], round(widest, 4))
    sheets = plan_sheets(blocks, template.per_sheet, template.columns)
    c, buf = new_canvas(template.page_points, "bare loop")
    cjk = fs.cjk(lang)
    for sheet in sheets:
        for (x, y, _, _), item in zip(boxes, sheet):
            if not isinstance(item, _Sticker):
                continue
            s = item.slot
            bx, by, bw, bh = lay.seat_box
            c.setFillColorRGB(0, 0, 0)
            c.rect(x + bx, y + by, bw, bh, stroke=0, fill=1)
            c.setFillColorRGB(1, 1, 1)
            c.setFont(fs.latin_bold, lay.seat_size)
            c.drawCentredString(x + bx + bw / 2, y + by + 2, s.seat or "")
            c.setFillColorRGB(0, 0, 0)
            c.setFont(fs.latin_bold, lay.slot_size)
            c.drawString(x + lay.slot_x, y + lay.slot_baseline, s.label)
            c.setFont(fs.latin_bold, lay.code[2])
            c.drawString(x + lay.code[0], y + lay.code[1], item.sset.set_id.code)
            c.setFont(cjk, lay.word[2])
            c.drawString(x + lay.word[0], y + lay.word[1], word(_KIND_WORD[s.kind], lang))
            if lay.qr:
                c.rect(x + lay.qr[0], y + lay.qr[1], lay.qr[2], lay.qr[2], stroke=0, fill=1)
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
    render_wall_stickers(stickers_of(data), GRID_TEMPLATE, lang=lang)
    render_set_labels(data, lang=lang)
    cold = time.perf_counter() - start
    t_stickers, stickers_pdf = _best(lambda: render_wall_stickers(stickers_of(data), GRID_TEMPLATE, lang=lang), repeat)
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
    write(f"stickers: {stickers} for {sets} sets in {t_stickers:.2f} s ({result['per_sticker_ms']} ms each, "
          f"{len(stickers_pdf) / 1e6:.1f} MB)")
    write(f"set labels: {sets} in {t_labels:.2f} s; both on a cold start (QR codes computed): {cold:.2f} s")
    write(f"total {total:.2f} s (goal < {GOAL_SECONDS:g} s) · bare reportlab loop {t_bare:.2f} s · "
          f"ratio {result['ratio']:.2f} (goal ≤ {GOAL_RATIO})")
    return result


if __name__ == "__main__":
    outcome = bench_printing(print)
    sys.exit(0 if outcome["meets_time_goal"] and outcome["meets_ratio_goal"] else 1)
