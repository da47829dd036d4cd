"""Set-up sheets (each set's walls as tile pictures, seat by seat) and the pick list.

A set-up sheet is what staff lay a wall set from: one page per set, the set code, rule set,
hand-ending rule and tile size on top, then for every seat its rows in laying order
(:func:`walls.rulesets.layout.seat_rows`): the starting hand as one flat row, then each stacked
pile as its upper row drawn over its lower row (upper tile k above lower tile k, as the stacks
stand: MCR duplicate's lower row ``D2 D4 … D20 D21`` under ``D1 D3 … D19``), each row named
("Draw pile, lower row"), the slot label under every tile and "draw from here" at stack 1, the left
end as seen from the seat. A rule set with a dead wall gets a boxed note of its roles (dora
indicator, kong replacement tiles and kan-dora indicators in order, ura-dora;
:func:`walls.rulesets.layout.dead_wall`) and a role mark under each dead-wall tile (``R1``,
``DORA``, ``K1``, ``ura``). At the bottom: the rule set's notes (how its piles are laid and what was
decided where the source is silent) and boxes to tick when the set is laid, checked and stickered.

The pick list sorts every tile of the given sets by tile (canonical order) and then by set, seat
and slot: staff take all copies of one tile and drop each in its place.

Both show every tile: every page carries a black band "STAFF ONLY — shows every tile: never at a
table" (:func:`staff_band`), and the print jobs keep them out of the tables' ZIP.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from reportlab.lib.units import mm

from walls.printing.base import checkbox, draw_fit, finish, new_canvas, wrap
from walls.printing.data import Placement, PrintableSet, placements, set_units
from walls.printing.fonts import fonts, mixed_width
from walls.printing.i18n import (
    check_lang,
    numbered,
    reserve_heading,
    role_mark,
    seat_label,
    seat_name,
    translate,
    translate_notes,
    word,
)
from walls.printing.qr import FormCache
from walls.printing.templates import page_points
from walls.printing.tilefaces import ASPECT, place_tile_face
from walls.rulesets.layout import DeadSlot, DeadWall, Row, dead_wall, seat_rows
from walls.tiles import tile_name, tile_sort_key

MARGIN = 12 * mm
BAND_H = 13.0
"""Height in points of the black "STAFF ONLY" band at the top of every page."""
MIN_TILE_H: float = 6.5 * mm
"""The smallest tile picture (height) a set is shrunk to before it continues on a second page."""
MAX_TILE_H: float = 16 * mm
LABEL_COL: float = 31 * mm
"""Width of the column of row names left of the tiles."""
TILE_GAP: float = 0.8 * mm
SLOT_SIZE = 6.0
"""Point size of the slot label under every tile (never below 5 pt)."""
MARK_SIZE = 5.5
"""Point size of a dead-wall tile's role mark under its slot label."""
SLOT_H = 7.0
MARK_H = 6.0
CAPTION_H = 7.0
SEAT_HEAD_H = 12.5
BAND_GAP = 3.0
_KIND_WORD = {"hand": "hand", "draw": "draw", "live": "live", "dead": "dead"}
"""Pile kind -> key of its name in walls.printing.i18n."""


@dataclass
class _Segment:
    """One pile (or one part of a long pile) in a band: its rows (``upper`` None for a flat row or
    a one-tile pile) starting at stack position ``start`` of the band."""

    pile: Any
    lower: Row
    upper: Row | None
    start: int


@dataclass
class _Band:
    """A horizontal strip of the sheet: a flat row (a starting hand) or the upper and lower rows of
    stacked piles side by side (a seat's draw pile and its dead pile); ``width`` in stack
    positions; ``marks``: it holds dead-wall tiles, each with a role mark under its slot label."""

    stacked: bool
    segments: list[_Segment]
    width: int
    marks: bool


def _bands(ruleset: Any) -> list[tuple[str | None, list[_Band]]]:
    """The sheet's bands per seat in laying order (:func:`walls.rulesets.layout.seat_rows`), the
    shared piles last under ``None``. A stacked pile joins the band of the stacked pile before it
    when both fit the widest row side by side, one stack position apart (riichi duplicate: a
    seat's dead pile beside its draw pile)."""
    piles = {p.name: p for p in ruleset.piles}
    grouped = seat_rows(ruleset)
    widest = max(r.stacks for _, rows in grouped for r in rows)
    out: list[tuple[str | None, list[_Band]]] = []
    for seat, rows in grouped:
        bands: list[_Band] = []
        i = 0
        while i < len(rows):
            row = rows[i]
            pile = piles[row.pile]
            if row.level == "flat":
                bands.append(_Band(False, [_Segment(pile, row, None, 0)], row.stacks, False))
                i += 1
                continue
            nxt = rows[i + 1] if i + 1 < len(rows) else None
            upper = nxt if nxt is not None and nxt.level == "upper" and nxt.pile == row.pile and nxt.part == row.part else None
            i += 2 if upper is not None else 1
            dead = row.kind == "dead"
            last = bands[-1] if bands else None
            if (last is not None and last.stacked and last.segments[-1].pile.name != row.pile
                    and last.width + 1 + row.stacks <= widest):
                last.segments.append(_Segment(pile, row, upper, last.width + 1))
                last.width += 1 + row.stacks
                last.marks = last.marks or dead
            else:
                bands.append(_Band(True, [_Segment(pile, row, upper, 0)], row.stacks, dead))
        out.append((seat, bands))
    return out


def _band_height(band: _Band, tile_h: float) -> float:
    """Height in points of a band drawn with tiles ``tile_h`` tall."""
    if not band.stacked:
        return tile_h + SLOT_H + BAND_GAP
    return CAPTION_H + 2 * (tile_h + SLOT_H + (MARK_H if band.marks else 0)) + 1 + BAND_GAP


def _tile_height(groups: list[tuple[str | None, list[_Band]]], avail: float, usable_w: float) -> float:
    """The tile height in points that fits every band of a set across ``usable_w`` and, when it
    can, down ``avail`` points: never above :data:`MAX_TILE_H` nor below :data:`MIN_TILE_H`."""
    widest = max(b.width for _, bands in groups for b in bands)
    tile_w = (usable_w - LABEL_COL - (widest - 1) * TILE_GAP) / widest
    fixed = sum(SEAT_HEAD_H + sum(_band_height(b, 0) for b in bands) for _, bands in groups)
    rows = sum((2 if b.stacked else 1) for _, bands in groups for b in bands)
    return max(MIN_TILE_H, min(tile_w / ASPECT, (avail - fixed) / rows, MAX_TILE_H))


def _role_mark(slot: DeadSlot | None, lang: str) -> str:
    """What is printed under a dead-wall tile's slot label (:func:`walls.printing.i18n.role_mark`)."""
    return role_mark(slot.role, slot.order, lang) if slot is not None else ""


def dead_wall_lines(ruleset: Any, lang: str = "en") -> list[str]:
    """The lines of the set-up sheet's "Dead wall" box for ``ruleset`` in ``lang`` (empty for a
    rule set without dead piles): the dora indicator (with its seat's pile when each seat keeps a
    dead pile: ``"South's dead pile X3"``), the kong replacement tiles in order, the kan-dora
    indicators in order and the ura-dora under them, each with the mark printed under those tiles
    (:func:`walls.rulesets.layout.dead_wall`)."""
    lang = check_lang(lang)
    wall = dead_wall(ruleset)
    if wall is None:
        return []
    per_seat = any(s.seat for s in wall.slots)

    def name(s: DeadSlot) -> str:
        return f"{seat_name(s.seat, lang)} {s.label}" if per_seat and s.seat else s.label

    def span(prefix: str, count: int) -> str:
        return f"{prefix}1–{prefix}{count}" if count > 1 else f"{prefix}1"

    lines = []
    indicator = wall.indicator
    if indicator is not None:
        where = (word("seat_dead_pile", lang) % {"seat": seat_name(indicator.seat, lang), "slot": indicator.label}
                 if per_seat and indicator.seat else indicator.label)
        lines.append(f"{word('dora_indicator', lang)} ({word('dora_mark', lang)}): {where}")
    for role, key, prefix in (("replacement", "replacements", "R"), ("kan_indicator", "kan_dora", "K")):
        found = wall.of_role(role)
        if found:
            lines.append(f"{word(key, lang)} ({span(prefix, len(found))}): {', '.join(name(s) for s in found)}")
    uras = wall.of_role("ura")
    if uras:
        lines.append(f"{word('ura_dora', lang)} ({word('ura_mark', lang)}): {', '.join(name(s) for s in uras)}")
    return lines


def staff_band(canv: Any, pw: float, ph: float, lang: str) -> float:
    """Draw the black band "STAFF ONLY — shows every tile: never at a table" (in ``lang``) across
    the top of a page ``pw`` × ``ph`` points; return the y under it."""
    top = ph - MARGIN
    canv.setFillColorRGB(0, 0, 0)
    canv.rect(MARGIN, top - BAND_H, pw - 2 * MARGIN, BAND_H, stroke=0, fill=1)
    canv.setFillColorRGB(1, 1, 1)
    draw_fit(canv, word("staff_only", lang), pw / 2, top - BAND_H + 3.7, pw - 2 * MARGIN - 8, 9, lang=lang, bold=True,
             align="centre")
    canv.setFillColorRGB(0, 0, 0)
    return float(top - BAND_H - 2 * mm)


def render_setup_sheets(sets: Sequence[PrintableSet], lang: str = "en", *, page_size: Any = "A4") -> bytes:
    """PDF with the set-up sheet of every set in ``sets`` (``page_size`` ``A4`` or ``Letter``).

    One page per set for every built-in rule set (tiles shrink down to :data:`MIN_TILE_H`; only a
    set that does not fit even then continues on further pages). Every page carries the "STAFF
    ONLY" band. Per seat, its rows in laying order (:func:`walls.rulesets.layout.seat_rows`): the
    starting hand flat, then each stacked pile as its upper row drawn over its lower row, upper
    tile k above lower tile k, the slot label under every tile and "draw from here" at stack 1;
    a rule set with a dead wall gets the "Dead wall" box (:func:`dead_wall_lines`) and a role mark
    under each dead-wall tile. Raises PrintDataError when a set's piles do not match its rule
    set, ValueError for an unknown language.

    Headings, seats (``東家``), pile and row names and the boxes to tick are in ``lang``
    (walls/printing/i18n.py); the rule set's name, hand-ending rule and notes too when they are a
    built-in rule set's (msgids of the catalogues), else as the rule set states them.
    """
    lang = check_lang(lang)
    pw, ph = page_points(page_size)
    title = f"{sets[0].event_name} — {word('setup_sheets', lang)}" if sets else word("setup_sheets", lang)
    canv, buf = new_canvas((pw, ph), title)
    forms = FormCache(canv)
    usable_w = pw - 2 * MARGIN
    for pset in sets:
        tiles = {(pile.name, n): p for unit in set_units(pset) for pile, ps in unit.piles for n, p in enumerate(ps, 1)}
        groups = _bands(pset.ruleset)
        wall = dead_wall(pset.ruleset)
        y = _set_header(canv, forms, pset, pw, staff_band(canv, pw, ph, lang), lang, False)
        y = _dead_box(canv, pset.ruleset, y, usable_w, lang)
        notes = _notes_lines(pset, usable_w, lang)
        floor = MARGIN + _footer_height(pset) + 5 * mm + len(notes) * _NOTE_LEADING  # the notes, then the boxes
        tile_h = _tile_height(groups, y - floor - 1, usable_w)  # a point of slack for rounding
        for seat, bands in groups:
            head = True
            for band in bands:
                height = _band_height(band, tile_h) + (SEAT_HEAD_H if head else 0)
                if y - height < floor:
                    _footer(canv, pset, pw, lang, notes)
                    canv.showPage()
                    y = _set_header(canv, forms, pset, pw, staff_band(canv, pw, ph, lang), lang, True)
                    head = True
                if head:
                    y = _seat_heading(canv, pset, seat, y, usable_w, lang)
                    head = False
                y = _draw_band(canv, forms, band, tiles, wall, y, tile_h, lang)
        _footer(canv, pset, pw, lang, notes)
        canv.showPage()
    if not sets:
        canv.showPage()
    return finish(canv, buf)


def _seat_heading(canv: Any, pset: PrintableSet, seat: str | None, y: float, width: float, lang: str) -> float:
    """A seat's grey heading bar (``1-07-3 · East (E)``, ``Shared`` for the shared piles)."""
    text = seat_name(seat, lang) if seat else word("shared", lang)
    canv.setFillColorRGB(0.9, 0.9, 0.9)
    canv.rect(MARGIN, y - 10.5, width, 10.5, stroke=0, fill=1)
    canv.setFillColorRGB(0, 0, 0)
    head = f"{text}  ({seat})" if seat else text
    draw_fit(canv, f"{pset.set_id.code} · {head}", MARGIN + 2, y - 7.9, width - 4, 8.8, lang=lang, bold=True)
    return y - SEAT_HEAD_H


def _dead_box(canv: Any, ruleset: Any, y: float, width: float, lang: str) -> float:
    """The boxed "Dead wall" note under the header (nothing without a dead wall); returns the y
    under it."""
    lines = dead_wall_lines(ruleset, lang)
    if not lines:
        return y
    height = 12 + 8 * len(lines) + 2.5
    canv.setLineWidth(1)
    canv.rect(MARGIN, y - height, width, height, stroke=1, fill=0)
    draw_fit(canv, word("dead", lang), MARGIN + 4, y - 9.5, width - 8, 8.5, lang=lang, bold=True)
    line_y = y - 12 - 6.5
    for line in lines:
        draw_fit(canv, line, MARGIN + 4, line_y, width - 8, 7, lang=lang, min_size=5)
        line_y -= 8
    return float(y - height - 2.5 * mm)


def _arrow(canv: Any, x: float, y: float, size: float) -> None:
    """A filled triangle pointing right, its left edge at ``x``, centred on ``y``."""
    path = canv.beginPath()
    path.moveTo(x, y - size / 2)
    path.lineTo(x + size * 0.9, y)
    path.lineTo(x, y + size / 2)
    path.close()
    canv.drawPath(path, stroke=0, fill=1)


def _row_label(canv: Any, text: str, extra: str, x: float, y_top: float, height: float, lang: str) -> None:
    """A row's name (bold, wrapped to the label column) and under it ``extra`` (a slot range),
    from ``y_top`` down within ``height`` points."""
    width = LABEL_COL - 3
    size = 6.6
    lines = wrap(text, size, width, lang, bold=True)
    while len(lines) * (size + 1) + (7 if extra else 0) > height and size > 5:
        size -= 0.3
        lines = wrap(text, size, width, lang, bold=True)
    y = y_top - size
    for line in lines:
        draw_fit(canv, line, x, y, width, size, lang=lang, bold=True, min_size=4.5)
        y -= size + 1
    if extra:
        draw_fit(canv, extra, x, y - 0.5, width, 6.5, lang=lang)


def _draw_band(canv: Any, forms: FormCache, band: _Band, tiles: dict[tuple[str, int], Placement], wall: DeadWall | None, y: float, tile_h: float,
               lang: str) -> float:
    """Draw one band from ``y`` down: its row names, then its tiles (upper row above the lower row
    for stacked piles), the slot label under each tile and, on the dead wall, its role mark.
    Returns the y under the band."""
    fs = fonts()
    tile_w = tile_h * ASPECT
    pitch = tile_w + TILE_GAP
    x0 = MARGIN + LABEL_COL
    mark_h = MARK_H if band.marks else 0
    level_h = tile_h + SLOT_H + mark_h

    def draw_row(row: Row, start: int, top: float) -> None:
        for k, number in enumerate(row.numbers):
            p = tiles[(row.pile, number)]
            x = x0 + (start + k) * pitch
            place_tile_face(forms, p.tile, x, top - tile_h, tile_h)
            role = wall.role_of(row.pile, p.label) if wall is not None and row.kind == "dead" else None
            if role is not None and role.role == "indicator":  # the dora indicator stands out
                canv.setLineWidth(1.4)
                canv.rect(x - 0.9, top - tile_h - 0.9, tile_w + 1.8, tile_h + 1.8, stroke=1, fill=0)
            canv.setFont(fs.latin_bold, SLOT_SIZE)
            canv.drawCentredString(x + tile_w / 2, top - tile_h - 6.2, p.label)
            mark = _role_mark(role, lang)
            if mark:
                draw_fit(canv, mark, x + tile_w / 2, top - tile_h - 6.2 - MARK_H, pitch - 0.5, MARK_SIZE, lang=lang,
                         bold=role is not None and role.role == "indicator", align="centre", min_size=5)

    first = band.segments[0]
    pile_word = _pile_word(first.pile, lang)
    if not band.stacked:
        _row_label(canv, pile_word, _range(first.lower), MARGIN, y, tile_h + SLOT_H, lang)
        draw_row(first.lower, 0, y)
        return y - _band_height(band, tile_h)
    rows_top = y - CAPTION_H
    lower_top = rows_top - level_h - 1
    for seg in band.segments:  # the dead wall on a light ground, so its stacks read as one block
        if seg.pile.kind == "dead":
            x = x0 + seg.start * pitch - 1.2
            canv.setFillColorRGB(0.9, 0.9, 0.9)
            canv.roundRect(x, lower_top - level_h + 1, seg.lower.stacks * pitch - TILE_GAP + 2.4,
                           rows_top - lower_top + level_h + 0.5, 2, stroke=0, fill=1)
            canv.setFillColorRGB(0, 0, 0)
    if first.upper is not None:
        _row_label(canv, word("row_upper", lang) % {"pile": pile_word}, "", MARGIN, rows_top, level_h, lang)
    _row_label(canv, word("row_lower", lang) % {"pile": pile_word}, _range(first.lower, first.upper),
               MARGIN, lower_top, level_h, lang)
    for seg in band.segments:
        x = x0 + seg.start * pitch
        if seg.pile.kind != "dead" and seg.lower.part == 1:  # stack 1, where drawing starts
            _arrow(canv, x, y - 3.2, 5)
            draw_fit(canv, word("draw_here", lang), x + 6, y - 5.2, 60 * mm, 6.2, lang=lang, bold=True)
            _arrow(canv, x0 - 5.5, rows_top - tile_h / 2, 4.5)
        elif seg is not first:
            draw_fit(canv, _pile_word(seg.pile, lang), x, y - 5.2, (band.width - seg.start) * pitch + 20, 6.2,
                     lang=lang, bold=True, min_size=4.5)
        if seg.upper is not None:
            draw_row(seg.upper, seg.start, rows_top)
        draw_row(seg.lower, seg.start, lower_top)
    return y - _band_height(band, tile_h)


def _pile_word(pile: Any, lang: str) -> str:
    kind = _KIND_WORD.get(pile.kind)
    return word(kind, lang) if kind else pile.name


def _range(lower: Row, upper: Row | None = None) -> str:
    """The slots a pile's rows hold: ``H1–H13``, ``D1–D21``, a long pile's part ``L25–L48``."""
    numbers = sorted(lower.numbers + (upper.numbers if upper is not None else ()))
    prefix = lower.labels[0][: len(lower.labels[0]) - len(str(lower.numbers[0]))]
    return f"{prefix}{numbers[0]}–{prefix}{numbers[-1]}"


def _set_header(canv: Any, forms: FormCache, pset: PrintableSet, pw: float, top: float, lang: str, continued: bool) -> float:
    """Title block of a set's page from ``top`` down, opened by a reserve wall's heading in a black
    band ("RESERVE WALL R1 for set 1-07"), with the tile size when the set has one; returns the y
    where the piles start."""
    sid = pset.set_id
    qr_top = top
    qr = 22 * mm
    forms.place_qr(pset.label_payload, pw - MARGIN - qr, top - qr, qr, quiet=2)
    text_w = pw - 2 * MARGIN - qr - 4 * mm
    canv.setFillColorRGB(0, 0, 0)
    title = f"{word('setup', lang)} — {numbered('set', sid.code, lang)}"
    if continued:
        title += f" ({word('cont', lang)})"
    if sid.reserve:  # a reserve wall: its heading above everything, so nobody lays it as the set itself
        canv.rect(MARGIN, top - 17, text_w, 17, stroke=0, fill=1)
        canv.setFillColorRGB(1, 1, 1)
        draw_fit(canv, reserve_heading(sid.reserve_label, sid.set_code, lang), MARGIN + 3, top - 12.5, text_w - 6, 13,
                 lang=lang, bold=True)
        canv.setFillColorRGB(0, 0, 0)
        top -= 21
    draw_fit(canv, title, MARGIN, top - 14, text_w, 15, lang=lang, bold=True)
    draw_fit(canv, f"{pset.event_name} · {numbered('session', sid.session, lang)} · {numbered('set', sid.set_no, lang)}"
             + (f" · {word('first', lang)}: {pset.first_table}" if pset.first_table else ""),
             MARGIN, top - 27, text_w, 9.5, lang=lang)
    rs = pset.ruleset
    name, end_rule = translate(getattr(rs, "name", ""), lang), translate(getattr(rs, "end_rule", ""), lang)
    counters = f" · {pset.counters}" if getattr(pset, "counters", "") else ""  # "Honba 0 · Riichi sticks 0"
    draw_fit(canv, f"{word('ruleset', lang)}: {name} · {word('end_rule', lang)}: {end_rule}{counters}",
             MARGIN, top - 39, text_w, 8, lang=lang)
    x = MARGIN
    if getattr(pset, "tile_size", ""):  # "Tile size: 25 × 34 mm", then the commitment on the same line
        size_text = f"{word('tile_size', lang)}: {pset.tile_size}"
        size = draw_fit(canv, size_text, x, top - 50, text_w / 2, 8, lang=lang, bold=True)
        x += mixed_width(size_text, size, lang, True) + 4 * mm
    if pset.commitment:
        draw_fit(canv, f"{word('commitment', lang)}: {pset.commitment}", x, top - 50, MARGIN + text_w - x, 7, lang=lang,
                 min_size=4)
    bottom: float = min(top - 54, qr_top - qr) - 3 * mm
    return bottom


_NOTE_SIZE = 5.6
_NOTE_LEADING = 6.6


def _notes_lines(pset: PrintableSet, width: float, lang: str = "en") -> list[str]:
    """The rule set's notes (layout and choices where the source is silent) in ``lang``, wrapped."""
    notes = translate_notes(getattr(pset.ruleset, "notes", "") or "", lang)
    return wrap(notes, _NOTE_SIZE, width, lang) if notes else []


COPY_ROW_H: float = 4.6 * mm
"""Height of one copy's row of boxes to tick in the set-up sheet's footer, up to two rows."""
COPY_ROW_H_TIGHT: float = 3.6 * mm
"""The rows' height when there are more than two (five copies and more): the tiles keep their room."""
COPY_BOX: float = 3.2 * mm
"""Side of a box to tick in the footer (:data:`COPY_BOX_TIGHT` in tight rows)."""
COPY_BOX_TIGHT: float = 2.6 * mm
COPIES_PER_COLUMN = 2
"""A set of more copies gets its rows of boxes in two columns: copies 1-2 left and 3-4 right,
1-4 left and 5-8 right."""
_CODE_W: float = 12 * mm
"""Room kept at the right of the footer for the set code."""


def copy_name(pset: PrintableSet, index: int, lang: str) -> str:
    """The name copy ``index`` (0-based) of ``pset`` is printed under: the table that plays it
    first (``"Group 2 · Table 6"``), else ``"Copy 1"`` in ``lang``."""
    names = pset.copy_names
    return names[index] or word("copy_n", lang) % {"n": index + 1}


def _footer_grid(pset: PrintableSet) -> tuple[int, int, float, float]:
    """The footer's rows of boxes: ``(columns, rows, row height, box side)``, heights in points."""
    columns = 1 if pset.copy_count <= COPIES_PER_COLUMN else 2
    rows = -(-pset.copy_count // columns)
    return (columns, rows, COPY_ROW_H, COPY_BOX) if rows <= 2 else (columns, rows, COPY_ROW_H_TIGHT, COPY_BOX_TIGHT)


def _footer_height(pset: PrintableSet) -> float:
    """Height in points of the footer's rows of boxes (one row per copy, in one or two columns)."""
    _columns, rows, row_h, _box = _footer_grid(pset)
    return float(rows * row_h)


def _footer(canv: Any, pset: PrintableSet, pw: float, lang: str, notes: list[str]) -> None:
    """The rule set's notes, then one row of boxes to tick per physical copy of the set: the
    copy's name (its first table, or "Copy 1"), then laid, checked, stickers on; the set code at
    the bottom right."""
    fs = fonts()
    height = _footer_height(pset)
    y = MARGIN + height + 2 * mm + len(notes) * _NOTE_LEADING
    for line in notes:
        draw_fit(canv, line, MARGIN, y, pw - 2 * MARGIN, _NOTE_SIZE, lang=lang, min_size=_NOTE_SIZE)
        y -= _NOTE_LEADING
    columns, rows, row_h, box = _footer_grid(pset)
    gap = 3 * mm
    col_w = (pw - 2 * MARGIN - _CODE_W - (columns - 1) * gap) / columns
    name_w = col_w * (0.26 if columns == 1 else 0.3)
    step = (col_w - name_w) / 3
    size = 7.5 if columns == 1 else 6.5
    canv.setLineWidth(0.6)
    for index in range(pset.copy_count):
        column, row = divmod(index, rows)
        x = MARGIN + column * (col_w + gap)
        y = MARGIN + (rows - 1 - row) * row_h
        text_y = y + box / 2 - size * 0.35
        draw_fit(canv, copy_name(pset, index, lang), x, text_y, name_w - 2 * mm, size, lang=lang, bold=True)
        x += name_w
        for key in ("laid", "checked", "stuck"):
            checkbox(canv, x, y, box)
            draw_fit(canv, word(key, lang), x + box + 1.2 * mm, text_y, step - box - 2.4 * mm, size, lang=lang)
            x += step
    canv.setFont(fs.latin, 6)
    canv.drawRightString(pw - MARGIN, MARGIN + 1, pset.set_id.code)


def _count(n: int) -> str:
    """A count as printed: ``8704`` → ``"8,704"``."""
    return f"{n:,}"


def pick_totals(sets: Sequence[PrintableSet]) -> tuple[int, int, str, int]:
    """What the pick list's total line counts: ``(sets, copies, tiles per copy, tiles)``, the
    physical copies summed over the sets, the tiles per copy as the rule set's tile count
    (``"136"`` in MCR; several counts joined by ``/`` should the sets' rule sets differ) and the
    tiles to pick, each set's tile count times its copies (16 MCR sets × 4 copies: 8,704)."""
    counts = [len(placements(p)) for p in sets]
    per_copy = "/".join(_count(c) for c in sorted(set(counts)))
    return (len(sets), sum(p.copy_count for p in sets), per_copy,
            sum(c * p.copy_count for c, p in zip(counts, sets, strict=True)))


def pick_total_text(sets: Sequence[PrintableSet], lang: str) -> str:
    """The pick list's total line in ``lang``: ``"16 sets, 64 copies, 136 tiles per copy: 8,704
    tiles in all"``."""
    n_sets, copies, per_copy, tiles = pick_totals(sets)
    return word("pick_total", lang) % {"sets": _count(n_sets), "copies": _count(copies), "per_copy": per_copy,
                                      "tiles": _count(tiles)}


def copies_legend(pset: PrintableSet, lang: str) -> str:
    """One set's line of the pick list's legend: ``"1-07-3: Copy 1: Group 1 · Table 1, Copy 2:
    Group 2 · Table 5"`` (just ``"1-07-3: Copy 1"`` for one unnamed copy)."""
    copies = [word("copy_n", lang) % {"n": k + 1} + (f": {name}" if name else "") for k, name in enumerate(pset.copy_names)]
    return f"{pset.set_id.code}: {', '.join(copies)}"


PICK_BOX: float = 7.0
"""Largest side in points of a pick-list line's box to tick (one per copy of its set)."""
PICK_BOX_MIN: float = 4.0
"""Smallest box side: more copies than fit in a line at this size take a second row of boxes."""
PICK_BOX_GAP: float = 1.8


def render_pick_list(sets: Sequence[PrintableSet], lang: str = "en", *, page_size: Any = "A4") -> bytes:
    """PDF of every tile of ``sets`` sorted by tile, then set, seat and slot, counting the sets'
    physical copies (:attr:`PrintableSet.copies`).

    Each tile opens with its face, names and the count to pick, ``"12 places × 4 copies = 48
    tiles"``; its places follow as ``set · seat · slot`` lines in four columns per page, each with
    one small box to tick per copy of its set, left to right in copy order (the copy numbers over
    the boxes under each tile's heading). The first page's title line gives the totals
    (:func:`pick_total_text`: sets, copies, tiles per copy, tiles in all) and a legend names every
    set's copies (:func:`copies_legend`); the document ends with the totals again. Every page
    carries the "STAFF ONLY" band (:func:`staff_band`). Raises like :func:`render_setup_sheets`.
    """
    lang = check_lang(lang)
    entries = []
    for pset in sets:
        seat_order = {s: i for i, s in enumerate(pset.ruleset.seats)}
        for unit in set_units(pset):
            for p in unit.placements:
                entries.append((tile_sort_key(p.tile), pset.set_id.session, pset.set_id.set_no,
                                seat_order.get(p.seat, len(seat_order)), p.index, pset, p))
    entries.sort(key=lambda e: e[:5])
    pw, ph = page_points(page_size)
    title = f"{sets[0].event_name} — {word('pick_list', lang)}" if sets else word("pick_list", lang)
    canv, buf = new_canvas((pw, ph), title)
    forms = FormCache(canv)
    fs = fonts()
    columns = 4
    col_w = (pw - 2 * MARGIN) / columns
    box_x = 73.0  # the boxes' left edge from a column's left edge, after set, seat and slot
    box_room = col_w - box_x - 4
    most = max((p.copy_count for p in sets), default=1)
    per_row = max(1, min(most, int((box_room + PICK_BOX_GAP) / (PICK_BOX_MIN + PICK_BOX_GAP))))
    box = min(PICK_BOX, (box_room + PICK_BOX_GAP) / per_row - PICK_BOX_GAP)
    line_h = max(10.5, -(-most // per_row) * (box + PICK_BOX_GAP) + 3.5)
    head_h = 34
    title_y = ph - MARGIN - BAND_H - 2 * mm - 8  # under the STAFF ONLY band
    top = title_y - 8
    bottom = MARGIN
    page = 1
    col = 0
    y = top
    first_page_top = top  # page 1's columns start under the legend (set below)
    totals = pick_total_text(sets, lang)

    def page_title() -> None:
        staff_band(canv, pw, ph, lang)
        event = sets[0].event_name if sets else ""
        if page == 1:  # the totals on the first page's title line
            text = f"{word('pick_list', lang)} — {event} — {totals} — {numbered('page', page, lang)}"
        else:
            codes = ", ".join(p.set_id.code for p in sets[:8]) + (" …" if len(sets) > 8 else "")
            text = f"{word('pick_list', lang)} — {event} — {numbered('sets', codes, lang)} — {numbered('page', page, lang)}"
        draw_fit(canv, text, MARGIN, title_y, pw - 2 * MARGIN, 9, lang=lang, bold=True)

    def legend(y: float) -> float:
        """The first page's legend of every set's copies, from ``y`` down; returns the y under it."""
        width = pw - 2 * MARGIN
        draw_fit(canv, word("copies_legend", lang), MARGIN, y - 8, width, 7.5, lang=lang, bold=True)
        y -= 10
        for pset in sets:
            for line in wrap(copies_legend(pset, lang), 6.8, width - 8, lang):
                draw_fit(canv, line, MARGIN + 4, y - 7, width - 8, 6.8, lang=lang)
                y -= 8
        canv.setLineWidth(0.5)
        canv.line(MARGIN, y - 3, pw - MARGIN, y - 3)
        return y - 6

    def next_column() -> None:
        nonlocal col, y, page
        col += 1
        y = first_page_top if page == 1 else top  # page 1's columns start under the legend
        if col == columns:
            canv.showPage()
            page += 1
            col = 0
            y = top
            page_title()

    def boxes(x: float, y: float, count: int) -> None:
        """``count`` boxes to tick, ``per_row`` a row, their first row's top at ``y``."""
        canv.setLineWidth(0.6)
        for k in range(count):
            row, place = divmod(k, per_row)
            checkbox(canv, x + box_x + place * (box + PICK_BOX_GAP), y - 1.5 - box - row * (box + PICK_BOX_GAP), box)

    page_title()
    y = legend(top) if sets else top
    first_page_top = y
    i = 0
    while i < len(entries):
        tile = entries[i][6].tile
        j = i
        while j < len(entries) and entries[j][6].tile == tile:
            j += 1
        first = True
        for k in range(i, j):
            pset = entries[k][5]
            need = (head_h if first else 0) + line_h
            if y - need < bottom:
                next_column()
                if not first:
                    draw_fit(canv, f"{tile_name(tile, lang)} ({word('cont', lang)})", MARGIN + col * col_w, y - 8,
                             col_w - 6, 7, lang=lang, bold=True)
                    y -= 11
            x = MARGIN + col * col_w
            if first:
                face_h = head_h - 10
                place_tile_face(forms, tile, x, y - face_h - 2, face_h)
                tx = x + face_h * ASPECT + 4
                places = j - i
                picked = sum(e[5].copy_count for e in entries[i:j])
                counts = {e[5].copy_count for e in entries[i:j]}
                count = (word("places_copies", lang) % {"places": _count(places), "copies": _count(counts.pop()),
                                                        "tiles": _count(picked)}
                         if len(counts) == 1 else word("places_tiles", lang) % {"places": _count(places),
                                                                                 "tiles": _count(picked)})
                draw_fit(canv, f"{tile_name(tile, lang)} · {tile}", tx, y - 10, col_w - (tx - x) - 6, 8.5, lang=lang,
                         bold=True)
                draw_fit(canv, count, tx, y - 20.5, col_w - (tx - x) - 6, 7.5, lang=lang, min_size=5.5)
                canv.setFont(fs.latin, 4.5)
                for n in range(min(most, per_row)):  # the copy numbers over the boxes
                    canv.drawCentredString(x + box_x + n * (box + PICK_BOX_GAP) + box / 2, y - head_h + 1.5, str(n + 1))
                y -= head_h
                first = False
            p = entries[k][6]
            canv.setFont(fs.latin, 8)
            canv.drawString(x + 4, y - 8, pset.set_id.code)
            draw_fit(canv, seat_label(p.seat, lang) if p.seat else "–", x + 38, y - 8, 12, 8, lang=lang, bold=True)
            canv.setFont(fs.latin_bold, 8)
            canv.drawString(x + 52, y - 8, p.label)
            boxes(x, y, pset.copy_count)
            y -= line_h
        y -= 4
        i = j
    if sets:  # the totals close the document
        lines = wrap(f"{word('total', lang)}: {totals}", 8, col_w - 6, lang, bold=True)
        if y - (len(lines) * 10 + 6) < bottom:
            next_column()
        x = MARGIN + col * col_w
        canv.setLineWidth(0.8)
        canv.line(x, y - 1, x + col_w - 6, y - 1)
        y -= 4
        for line in lines:
            draw_fit(canv, line, x, y - 8, col_w - 6, 8, lang=lang, bold=True)
            y -= 10
    canv.showPage()
    return finish(canv, buf)
