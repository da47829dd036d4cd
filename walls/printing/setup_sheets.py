"""Set-up sheets (each set's walls as tile pictures, seat by seat) and the pick list.

A set-up sheet is what staff lay a wall set from: one page per set (more when a rule set's
piles do not fit), the set code, rule set and hand-ending rule on top, then for every seat its
piles in slot order as drawn tile faces with the slot label under each tile. Long piles wrap into
even rows (21 draws → 11 + 10, as the rows are laid on the table). Dead-wall piles are drawn as
stacks: odd slots on top, even slots below (walls/rulesets/model.py numbers them from the far end).
At the bottom: the rule set's notes (how its piles are laid and what was decided where the
source is silent) and boxes to tick when the set is laid, checked and stickered.

The pick list sorts every tile of the given sets by tile (canonical order) and then by set, seat
and slot: staff take all copies of one tile and drop each in its place.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reportlab.lib.units import mm

from walls.printing.base import checkbox, draw_fit, finish, new_canvas, wrap
from walls.printing.data import PrintableSet, set_units
from walls.printing.fonts import fonts
from walls.printing.i18n import (
    check_lang,
    numbered,
    reserve_heading,
    seat_label,
    seat_name,
    translate,
    translate_notes,
    word,
)
from walls.printing.qr import FormCache
from walls.printing.templates import page_points
from walls.printing.tilefaces import ASPECT, place_tile_face
from walls.tiles import tile_name, tile_sort_key

MARGIN = 12 * mm
_MAX_ROW = 13
_KIND_WORD = {"hand": "hand", "draw": "draw", "live": "live", "dead": "dead"}
"""Pile kind -> key of its name in walls.printing.i18n."""


def _pile_rows(size: int, per_row: int) -> list[int]:
    """Split a pile into the fewest rows of at most ``per_row``, as even as possible (21 → 11, 10)."""
    n_rows = -(-size // per_row)
    base, extra = divmod(size, n_rows)
    return [base + (1 if i < extra else 0) for i in range(n_rows)]


def render_setup_sheets(sets: Sequence[PrintableSet], lang: str = "en", *, page_size: Any = "A4") -> bytes:
    """PDF with the set-up sheet of every set in ``sets`` (``page_size`` ``A4`` or ``Letter``).

    Tiles are sized so that a set fits one page when it can (MCR duplicate: 4 seats × 34 tiles);
    otherwise the set continues on further pages. Raises PrintDataError when a set's piles do not
    match its rule set, ValueError for an unknown language.

    Headings, seats (``東家``), pile names and the boxes to tick are in ``lang``
    (walls/printing/i18n.py); the rule set's name, hand-ending rule and notes too when they are a
    built-in rule set's (msgids of the catalogues), else as the rule set states them.
    """
    lang = check_lang(lang)
    pw, ph = page_points(page_size)
    title = f"{sets[0].event_name} — {word('setup_sheets', lang)}" if sets else word("setup_sheets", lang)
    canv, buf = new_canvas((pw, ph), title)
    forms = FormCache(canv)
    fs = fonts()
    usable_w = pw - 2 * MARGIN
    label_col = 20 * mm
    tile_gap = 1.0 * mm
    label_h = 7.5
    for pset in sets:
        units = set_units(pset)
        y = _set_header(canv, forms, pset, pw, ph, lang, False)
        blocks = []
        for unit in units:
            for pile, placements in unit.piles:
                if pile.kind == "dead":
                    stacks = -(-len(placements) // 2)
                    rows = _pile_rows(stacks, _MAX_ROW)
                else:
                    rows = _pile_rows(len(placements), _MAX_ROW)
                blocks.append((unit, pile, placements, rows))
        per_row = max(max(b[3]) for b in blocks)
        tile_w = min(12 * mm, (usable_w - label_col - (per_row - 1) * tile_gap) / per_row)
        plain_rows = sum(len(b[3]) for b in blocks if b[1].kind != "dead")
        dead_rows = sum(len(b[3]) for b in blocks if b[1].kind == "dead")
        fixed = len(units) * 15 + len(blocks) * 3 + plain_rows * (label_h + 2) + dead_rows * (label_h + 3)
        notes = _notes_lines(pset, usable_w, lang)
        floor = MARGIN + 12 * mm + len(notes) * _NOTE_LEADING
        avail = y - floor - fixed - 2  # slack for rounding
        tile_h = min(tile_w / ASPECT, max(9 * mm, avail / (plain_rows + 2 * dead_rows)))
        tile_w = tile_h * ASPECT
        current = None
        for unit, pile, placements, rows in blocks:
            height = sum((2 * tile_h + label_h + 3) if pile.kind == "dead" else (tile_h + label_h + 2) for _ in rows) + 3
            if unit is not current:
                height += 15
            if y - height < floor:
                _footer(canv, pset, pw, lang, notes)
                canv.showPage()
                y = _set_header(canv, forms, pset, pw, ph, lang, True)
                current = None
            if unit is not current:
                seat_text = seat_name(unit.seat, lang) if unit.seat else word("shared", lang)
                canv.setFillColorRGB(0.9, 0.9, 0.9)
                canv.rect(MARGIN, y - 11, usable_w, 11, stroke=0, fill=1)
                canv.setFillColorRGB(0, 0, 0)
                head = f"{seat_text}  ({unit.seat})" if unit.seat else seat_text
                draw_fit(canv, f"{pset.set_id.code} · {head}", MARGIN + 2, y - 8.3, usable_w - 4, 9, lang=lang, bold=True)
                y -= 15
                current = unit
            kind = _KIND_WORD.get(pile.kind)
            draw_fit(canv, word(kind, lang) if kind else pile.name, MARGIN, y - 8, label_col - 2, 8, lang=lang, bold=True)
            draw_fit(canv, f"{placements[0].label}–{placements[-1].label}", MARGIN, y - 17, label_col - 2, 7)
            x0 = MARGIN + label_col
            if pile.kind == "dead":
                y = _draw_stacks(canv, forms, fs, placements, rows, y, x0, tile_w, tile_h, tile_gap, label_h)
            else:
                i = 0
                for count in rows:
                    x = x0
                    for p in placements[i:i + count]:
                        place_tile_face(forms, p.tile, x, y - tile_h, tile_h)
                        canv.setFont(fs.latin_bold, 6.5)
                        canv.drawCentredString(x + tile_w / 2, y - tile_h - 7, p.label)
                        x += tile_w + tile_gap
                    i += count
                    y -= tile_h + label_h + 2
            y -= 3
        _footer(canv, pset, pw, lang, notes)
        canv.showPage()
    if not sets:
        canv.showPage()
    return finish(canv, buf)


def _draw_stacks(canv: Any, forms: Any, fs: Any, placements: Any, rows: Any, y: float, x0: float, tile_w: float, tile_h: float,
                 tile_gap: float, label_h: float) -> float:
    """Dead wall as stacks of two: upper tile (odd slot) above the lower one (even slot)."""
    i = 0
    for count in rows:
        x = x0
        for _ in range(count):
            pair = placements[i:i + 2]
            if not pair:
                break
            for level, p in enumerate(pair):
                place_tile_face(forms, p.tile, x, y - (level + 1) * tile_h - level * 1.0, tile_h)
            canv.setFont(fs.latin_bold, 6)
            canv.drawCentredString(x + tile_w / 2, y - 2 * tile_h - 7.5, "/".join(p.label for p in pair))
            x += tile_w + tile_gap
            i += 2
        y -= 2 * tile_h + label_h + 3
    return y


def _set_header(canv: Any, forms: FormCache, pset: PrintableSet, pw: float, ph: float, lang: str, continued: bool) -> float:
    """Title block of a set's page, opened by a reserve wall's heading in a black band
    ("RESERVE WALL R1 for set 1-07"); returns the y where the piles start."""
    sid = pset.set_id
    top = ph - MARGIN
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
    draw_fit(canv, f"{word('ruleset', lang)}: {name} · {word('end_rule', lang)}: {end_rule}",
             MARGIN, top - 39, text_w, 8, lang=lang)
    if pset.commitment:
        draw_fit(canv, f"{word('commitment', lang)}: {pset.commitment}", MARGIN, top - 50, text_w, 7, lang=lang, min_size=4)
    bottom: float = min(top - 54, ph - MARGIN - qr) - 4 * mm
    return bottom


_NOTE_SIZE = 5.6
_NOTE_LEADING = 6.6


def _notes_lines(pset: PrintableSet, width: float, lang: str = "en") -> list[str]:
    """The rule set's notes (layout and choices where the source is silent) in ``lang``, wrapped."""
    notes = translate_notes(getattr(pset.ruleset, "notes", "") or "", lang)
    return wrap(notes, _NOTE_SIZE, width, lang) if notes else []


def _footer(canv: Any, pset: PrintableSet, pw: float, lang: str, notes: list[str]) -> None:
    """The rule set's notes, then boxes to tick: laid, checked, stickers on."""
    fs = fonts()
    y = MARGIN + 9 * mm + len(notes) * _NOTE_LEADING
    for line in notes:
        draw_fit(canv, line, MARGIN, y, pw - 2 * MARGIN, _NOTE_SIZE, lang=lang, min_size=_NOTE_SIZE)
        y -= _NOTE_LEADING
    y = MARGIN
    x = MARGIN
    canv.setLineWidth(0.6)
    for key in ("laid", "checked", "stuck"):
        checkbox(canv, x, y, 3.5 * mm)
        x += 5 * mm
        draw_fit(canv, word(key, lang), x, y + 2.5, 45 * mm, 8, lang=lang)
        x += 47 * mm
    canv.setFont(fs.latin, 6)
    canv.drawRightString(pw - MARGIN, y + 1, pset.set_id.code)


def render_pick_list(sets: Sequence[PrintableSet], lang: str = "en", *, page_size: Any = "A4") -> bytes:
    """PDF of every tile of ``sets`` sorted by tile, then set, seat and slot.

    Each tile opens with its face, names and number of copies; its copies follow as
    ``set · seat · slot`` lines in four columns per page. Raises like :func:`render_setup_sheets`.
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
    line_h = 10.5
    head_h = 30
    top = ph - MARGIN - 16
    bottom = MARGIN
    page = 1
    col = 0
    y = top

    def page_title() -> None:
        canv.setFillColorRGB(0, 0, 0)
        codes = ", ".join(p.set_id.code for p in sets[:8]) + (" …" if len(sets) > 8 else "")
        draw_fit(canv, f"{word('pick_list', lang)} — {sets[0].event_name if sets else ''} — {numbered('sets', codes, lang)}"
                 f" — {numbered('page', page, lang)}",
                 MARGIN, ph - MARGIN - 8, pw - 2 * MARGIN, 9, lang=lang, bold=True)

    def next_column() -> None:
        nonlocal col, y, page
        col += 1
        y = top
        if col == columns:
            canv.showPage()
            page += 1
            col = 0
            page_title()

    page_title()
    i = 0
    while i < len(entries):
        tile = entries[i][6].tile
        j = i
        while j < len(entries) and entries[j][6].tile == tile:
            j += 1
        first = True
        for k in range(i, j):
            need = (head_h if first else 0) + line_h
            if y - need < bottom:
                next_column()
                if not first:
                    draw_fit(canv, f"{tile_name(tile, lang)} ({word('cont', lang)})", MARGIN + col * col_w, y - 8,
                             col_w - 6, 7, lang=lang, bold=True)
                    y -= 11
            x = MARGIN + col * col_w
            if first:
                face_h = head_h - 6
                place_tile_face(forms, tile, x, y - face_h - 2, face_h)
                tx = x + face_h * ASPECT + 4
                draw_fit(canv, tile_name(tile, lang), tx, y - 10, col_w - (tx - x) - 6, 8.5, lang=lang, bold=True)
                draw_fit(canv, f"{tile} · {j - i} {word('copies', lang)}", tx, y - 21, col_w - (tx - x) - 6, 8,
                         lang=lang)
                y -= head_h
                first = False
            p = entries[k][6]
            pset = entries[k][5]
            canv.setFont(fs.latin, 8)
            canv.drawString(x + 4, y - 8, pset.set_id.code)
            draw_fit(canv, seat_label(p.seat, lang) if p.seat else "–", x + 38, y - 8, 12, 8, lang=lang, bold=True)
            canv.setFont(fs.latin_bold, 8)
            canv.drawString(x + 52, y - 8, p.label)
            checkbox(canv, x + col_w - 16, y - 8.5, 7)
            y -= line_h
        y -= 4
        i = j
    canv.showPage()
    return finish(canv, buf)
