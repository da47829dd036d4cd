"""Movement sheet: which table plays which sets in each round, and where the sets go next.

One row per table, one column per round (slot) of the session; each cell lists the sets the table
plays in that round and the table the staff carry them to afterwards. Printed landscape and
posted for staff and players: the seed's event moved framed sets between rooms after every wind
round, and a federation's practice session failed on seating errors in the last round.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from reportlab.lib.pagesizes import landscape
from reportlab.lib.units import mm

from walls.printing.base import draw_fit, finish, new_canvas
from walls.printing.data import MovementRow
from walls.printing.i18n import check_lang, numbered, table_label, word
from walls.printing.templates import page_points

MARGIN = 12 * mm


def compress_sets(sets: Sequence[Any]) -> str:
    """``[1, 2, 3, 4, 9]`` → ``"1–4, 9"``; set codes and other values are joined as they are."""
    if not sets or not all(isinstance(s, int) for s in sets):
        return ", ".join(str(s) for s in sets)
    parts, start, prev = [], sets[0], sets[0]
    for s in list(sets[1:]) + [None]:
        if s is not None and s == prev + 1:
            prev = s
            continue
        parts.append(str(start) if start == prev else f"{start}–{prev}")
        if s is not None:
            start = prev = s
    return ", ".join(parts)


def render_movement_sheet(rows: Sequence[MovementRow | Mapping[Any, Any]], title: str = "", lang: str = "en", *,
                          session: int | None = None, page_size: Any = "A4") -> bytes:
    """PDF grid of a session's movement from plain rows (``slot``, ``table``, ``sets``,
    ``next_table``, optional ``room`` and ``next_room``; MovementRow or mappings). Each table's
    room is printed under it, and the next table's room beside it. Tables are listed in first-seen order, rounds in
    number order; the sheet continues on further pages when there are many tables.

    The heading (``Movement — <title> — Session <session>``), the round heads and the words of
    each cell (``Sets 1–4``, ``then to Table 2``) are in ``lang`` (walls/printing/i18n.py);
    ``title`` (the event's name) is printed as given.

    Raises PrintDataError for a row missing a key, ValueError for an unknown language.
    """
    lang = check_lang(lang)
    plain = [MovementRow.of(r) for r in rows]
    tables: list[Any] = []
    for r in plain:
        if r.table not in tables:
            tables.append(r.table)
    slots = sorted({r.slot for r in plain})
    cells = {(r.table, r.slot): r for r in plain}
    rooms = {r.table: r.room for r in plain if r.room}
    pw, ph = landscape(page_points(page_size))
    heading = " — ".join(part for part in (word("movement", lang), title,
                                           numbered("session", session, lang) if session else "") if part)
    canv, buf = new_canvas((pw, ph), heading)
    usable_w = pw - 2 * MARGIN
    first_w = 28 * mm
    col_w = (usable_w - first_w) / max(1, len(slots))
    head_h = 18
    row_h = 34
    per_page = max(1, int((ph - 2 * MARGIN - 30 - head_h) // row_h))
    pages = [tables[i:i + per_page] for i in range(0, max(len(tables), 1), per_page)] or [[]]
    for n, page_tables in enumerate(pages, start=1):
        top = ph - MARGIN
        canv.setFillColorRGB(0, 0, 0)
        page_heading = f"{heading} ({n}/{len(pages)})" if len(pages) > 1 else heading
        draw_fit(canv, page_heading, MARGIN, top - 14, usable_w, 15, lang=lang, bold=True)
        y = top - 28
        canv.setFillColorRGB(0.9, 0.9, 0.9)
        canv.rect(MARGIN, y - head_h, usable_w, head_h, stroke=0, fill=1)
        canv.setFillColorRGB(0, 0, 0)
        draw_fit(canv, word("table", lang), MARGIN + 4, y - 12, first_w - 8, 9, lang=lang, bold=True)
        for k, slot in enumerate(slots):
            x = MARGIN + first_w + k * col_w
            draw_fit(canv, numbered("slot", slot, lang), x + col_w / 2, y - 12, col_w - 6, 9, lang=lang, bold=True,
                     align="centre")
        grid_top = y
        y -= head_h
        for table in page_tables:
            room = rooms.get(table, "")
            draw_fit(canv, table_label(table, lang), MARGIN + 4, y - row_h / 2 + (2 if room else -4), first_w - 8, 12,
                     lang=lang, bold=True)
            if room:
                draw_fit(canv, room, MARGIN + 4, y - row_h / 2 - 10, first_w - 8, 9, lang=lang)
            for k, slot in enumerate(slots):
                x = MARGIN + first_w + k * col_w
                cell = cells.get((table, slot))
                if cell is None:
                    continue
                draw_fit(canv, numbered("sets", compress_sets(list(cell.sets)), lang), x + 4, y - 14, col_w - 8, 11,
                         lang=lang, bold=True)
                if cell.next_table is not None:
                    where = table_label(cell.next_table, lang) + (f" ({cell.next_room})" if cell.next_room else "")
                    draw_fit(canv, f"» {word('next', lang)} {where}", x + 4, y - 27, col_w - 8, 9, lang=lang)
            y -= row_h
            canv.setLineWidth(0.4)
            canv.line(MARGIN, y, MARGIN + usable_w, y)
        canv.setLineWidth(0.8)
        canv.rect(MARGIN, y, usable_w, grid_top - y, stroke=1, fill=0)
        canv.setLineWidth(0.4)
        for k in range(len(slots)):
            x = MARGIN + first_w + k * col_w
            canv.line(x, grid_top, x, y)
        canv.showPage()
    return finish(canv, buf)

