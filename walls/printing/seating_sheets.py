"""Seating sheets: every entrant's table, room and seat (wind) for one session, by table and seat;
and the same per room (one list per room, each starting on a new page), to post at each room's door.

Posted at the venue entrance and read out before each session: the practice session of a
national federation failed on seating errors in the last round (docs/rules.md, "Printed seating"), so the printed,
validated seat assignment per session is what players and staff check against.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from dataclasses import dataclass

from reportlab.lib.units import mm

from walls.printing.base import draw_fit, finish, new_canvas
from walls.printing.i18n import check_lang, numbered, seat_name, word
from walls.printing.templates import page_points

MARGIN = 14 * mm
ROW_H = 15


@dataclass(frozen=True)
class SeatingRow:
    """One line of the seating sheet: ``player`` name, ``team`` (blank in individual events),
    ``table`` number, ``room`` name, ``seat`` wind letter."""

    player: str
    team: str
    table: int
    room: str
    seat: str


def _row(r: SeatingRow | Mapping[Any, Any]) -> SeatingRow:
    return r if isinstance(r, SeatingRow) else SeatingRow(**{k: r[k] for k in ("player", "team", "table", "room", "seat")})


def _heading(key: str, title: str, session: int | None, lang: str, room: str = "") -> str:
    return " — ".join(part for part in (word(key, lang), title, numbered("session", session, lang) if session else "", room)
                      if part)


def render_seating_sheet(rows: Sequence[SeatingRow | Mapping[Any, Any]], title: str = "", lang: str = "en", *,
                         session: int | None = None, page_size: Any = "A4") -> bytes:
    """PDF list of ``rows`` in the order given (the print job gives them by table, then seat in the
    rule set's order), continuing over pages as needed.

    The heading (``Seating — <title> — Session <session>``), the column heads and the seats (``東家``) are in
    ``lang`` (``席順``, ``選手``...; walls/printing/i18n.py); ``title`` (the event's name)
    is printed as given. A mapping row may carry more keys (``tournament.seating.seating_list``
    rows); those of :class:`SeatingRow` are read. Raises ValueError for an unknown language,
    KeyError for a mapping row missing a field.
    """
    lang = check_lang(lang)
    heading = _heading("seating", title, session, lang)
    canv, buf = new_canvas(page_points(page_size), heading)
    _list_pages(canv, [_row(r) for r in rows], heading, lang, page_points(page_size))
    return finish(canv, buf)


def render_room_seating(rows: Sequence[SeatingRow | Mapping[Any, Any]], title: str = "", lang: str = "en", *,
                        session: int | None = None, page_size: Any = "A4") -> bytes:
    """PDF of one seating list per room, in the order the rooms first appear in ``rows`` (the
    print job gives them by room, table and seat), each starting on a new page headed
    ``Seating by room — <title> — Session <session> — <room>`` in ``lang``; a table with no room
    is listed under the heading without a room. Raises as :func:`render_seating_sheet`."""
    lang = check_lang(lang)
    size = page_points(page_size)
    canv, buf = new_canvas(size, _heading("room_seating", title, session, lang))
    rooms: dict[str, list[SeatingRow]] = {}
    for r in rows:
        row = _row(r)
        rooms.setdefault(row.room, []).append(row)
    for room, room_rows in (rooms.items() or [("", [])]):
        _list_pages(canv, room_rows, _heading("room_seating", title, session, lang, room), lang, size)
    return finish(canv, buf)


def _list_pages(canv: Any, rows: list[SeatingRow], heading: str, lang: str, size: tuple[float, float]) -> None:
    """Draw ``rows`` under ``heading`` on as many pages as they need (each page closed)."""
    pw, ph = size
    usable = pw - 2 * MARGIN
    columns = [("player", 0.36), ("team", 0.30), ("table", 0.10), ("room", 0.14), ("seat", 0.10)]
    per_page = max(1, int((ph - 2 * MARGIN - 40) // ROW_H))
    pages = [rows[i:i + per_page] for i in range(0, max(len(rows), 1), per_page)]
    for n, page in enumerate(pages, start=1):
        y = ph - MARGIN - 14
        page_heading = f"{heading} ({n}/{len(pages)})" if len(pages) > 1 else heading
        draw_fit(canv, page_heading, MARGIN, y, usable, 15, lang=lang, bold=True)
        y -= 24
        x = MARGIN
        for name, share in columns:
            draw_fit(canv, word(name, lang), x + 2, y, usable * share - 4, 10, lang=lang, bold=True)
            x += usable * share
        canv.setLineWidth(0.6)
        canv.line(MARGIN, y - 4, MARGIN + usable, y - 4)
        for row in page:
            y -= ROW_H
            values = [row.player, row.team, str(row.table), row.room, seat_name(row.seat, lang)]
            x = MARGIN
            for (name, share), value in zip(columns, values):
                draw_fit(canv, value, x + 2, y, usable * share - 4, 10, lang=lang, bold=name == "seat")
                x += usable * share
            canv.setLineWidth(0.2)
            canv.line(MARGIN, y - 4, MARGIN + usable, y - 4)
        canv.showPage()
