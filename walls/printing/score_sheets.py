"""Score sheets: one page per table and session, filled in by hand as a paper backup of entry.

The top carries the event, session, table and room, the players by seat, and the table's login QR code
(the same login the table device uses for result entry). The grid has one row per hand in play
order with the set code printed, a box to tick once the code on the set's label has been checked
against the row (bridge's lesson: check the board number against the round), a cell per seat for
its score change, the total (0 when the rule set is zero-sum), the winner and the hand's value (fan or han, as the
rule set counts), and the
players' initials; a thicker rule separates the blocks between moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reportlab.lib.units import mm

from walls.printing.base import checkbox, draw_fit, finish, new_canvas
from walls.printing.data import ScoreSheet
from walls.printing.fonts import fonts
from walls.printing.i18n import check_lang, numbered, seat_label, seat_name, table_label, translate, word
from walls.printing.qr import draw_qr
from walls.printing.templates import page_points

MARGIN = 12 * mm


def render_score_sheet(sheet: ScoreSheet, lang: str = "en", *, page_size: Any = "A4") -> bytes:
    """PDF of one table's score sheet (see :func:`render_score_sheets`)."""
    return render_score_sheets([sheet], lang, page_size=page_size)


def render_score_sheets(sheets: Sequence[ScoreSheet], lang: str = "en", *, page_size: Any = "A4") -> bytes:
    """PDF with one page per :class:`ScoreSheet` (a session's tables). Headings, column heads
    and seats are in ``lang`` (``記録用紙``, ``局``, ``東``; walls/printing/i18n.py). Raises
    ValueError for an unknown language."""
    lang = check_lang(lang)
    pw, ph = page_points(page_size)
    title = f"{sheets[0].event_name} — {word('score_sheets', lang)}" if sheets else word("score_sheets", lang)
    canv, buf = new_canvas((pw, ph), title)
    for sheet in sheets:
        _draw_sheet(canv, sheet, pw, ph, lang)
        canv.showPage()
    if not sheets:
        canv.showPage()
    return finish(canv, buf)


def _draw_sheet(canv: Any, sheet: ScoreSheet, pw: float, ph: float, lang: str) -> None:
    fs = fonts()
    top = ph - MARGIN
    qr = 30 * mm
    draw_qr(canv, sheet.login, pw - MARGIN - qr, top - qr, qr, quiet=2)
    canv.setFillColorRGB(0, 0, 0)
    draw_fit(canv, word("scan_login", lang), pw - MARGIN - qr / 2, top - qr - 8, qr + 6 * mm, 7, lang=lang, align="centre")
    code = sheet.code or ("" if "://" in sheet.login else sheet.login)
    if code:  # the code as text, and where to type it: a phone that cannot scan still gets in
        draw_fit(canv, f"{word('table_code', lang)}: {code}", pw - MARGIN - qr / 2, top - qr - 18, qr + 12 * mm, 9,
                 lang=lang, bold=True, align="centre")
    if code and "://" in sheet.login:
        typed_at = sheet.login[:len(sheet.login) - len(code)] if sheet.login.endswith(code) else sheet.login
        draw_fit(canv, word("or_type_at", lang), pw - MARGIN - qr / 2, top - qr - 26, qr + 12 * mm, 6.5, lang=lang,
                 align="centre")
        draw_fit(canv, typed_at.split("://", 1)[1], pw - MARGIN - qr / 2, top - qr - 33, qr + 12 * mm, 6.5, align="centre")
    text_w = pw - 2 * MARGIN - qr - 6 * mm
    where = table_label(sheet.table_label, lang) + (f" · {sheet.room}" if sheet.room else "")
    draw_fit(canv, f"{word('score_sheet', lang)} — {where}", MARGIN, top - 15, text_w, 16,
             lang=lang, bold=True)
    draw_fit(canv, f"{sheet.event_name} · {numbered('session', sheet.session, lang)}"
             + (f" · {translate(sheet.ruleset_name, lang)}" if sheet.ruleset_name else ""), MARGIN, top - 29, text_w, 10, lang=lang)
    y = top - 44
    draw_fit(canv, word("players", lang), MARGIN, y, text_w, 8, lang=lang, bold=True)
    y -= 4
    for seat, name in sheet.seats:
        y -= 12
        draw_fit(canv, seat_name(seat, lang), MARGIN, y, 32 * mm, 9, lang=lang, bold=True)
        draw_fit(canv, name or "", MARGIN + 34 * mm, y, text_w - 34 * mm, 10, lang=lang)
        canv.setLineWidth(0.3)
        canv.line(MARGIN + 34 * mm, y - 2, MARGIN + text_w, y - 2)
    y = min(y - 14, top - qr - 40)

    seats = [seat for seat, _ in sheet.seats]
    col_defs = [("hand_no", 10 * mm), ("code", 18 * mm), ("result_check", 15 * mm)]
    col_defs += [(seat, None) for seat in seats]
    col_defs += [("total", 16 * mm), ("winner", 26 * mm), ("initials", 18 * mm)]
    fixed = sum(w for _, w in col_defs if w)
    seat_w = (pw - 2 * MARGIN - fixed) / max(1, len(seats))
    widths = [w if w else seat_w for _, w in col_defs]
    head_h = 22
    rows = len(sheet.sets)
    bottom_reserved = 30 * mm
    row_h = min(26, (y - head_h - MARGIN - bottom_reserved) / max(rows, 1))
    x = MARGIN
    canv.setFillColorRGB(0.9, 0.9, 0.9)
    canv.rect(MARGIN, y - head_h, sum(widths), head_h, stroke=0, fill=1)
    canv.setFillColorRGB(0, 0, 0)
    for (key, _), w in zip(col_defs, widths):
        if key in seats:
            name = dict(sheet.seats).get(key, "")
            draw_fit(canv, seat_label(key, lang), x + w / 2, y - 9, w - 3, 8, lang=lang, bold=True, align="centre")
            draw_fit(canv, name, x + w / 2, y - 18, w - 3, 7, lang=lang, align="centre")
        else:
            key = "winner_han" if key == "winner" and sheet.value_unit == "han" else key
            draw_fit(canv, word(key, lang), x + w / 2, y - 13, w - 3, 7, lang=lang, bold=True, align="centre")
        x += w
    grid_top = y
    y -= head_h
    for i, code in enumerate(sheet.sets, start=1):
        x = MARGIN
        base = y - row_h / 2 - 3.5
        canv.setFont(fs.latin, 10)
        canv.drawCentredString(x + widths[0] / 2, base, str(i))
        x += widths[0]
        canv.setFont(fs.latin_bold, 10)
        canv.drawCentredString(x + widths[1] / 2, base, code)
        x += widths[1]
        checkbox(canv, x + widths[2] / 2 - 5, y - row_h / 2 - 5, 10)
        y -= row_h
        canv.setLineWidth(1.4 if sheet.block_size and i % sheet.block_size == 0 else 0.4)
        canv.line(MARGIN, y, MARGIN + sum(widths), y)
    canv.setLineWidth(0.8)
    canv.rect(MARGIN, y, sum(widths), grid_top - y, stroke=1, fill=0)
    canv.setLineWidth(0.4)
    canv.line(MARGIN, grid_top - head_h, MARGIN + sum(widths), grid_top - head_h)
    x = MARGIN
    for w in widths[:-1]:
        x += w
        canv.line(x, grid_top, x, y)
    y -= 12
    draw_fit(canv, word("sign", lang), MARGIN, y, 80 * mm, 8, lang=lang, bold=True)
    y -= 22
    sig_w = (pw - 2 * MARGIN) / max(1, len(seats))
    canv.setLineWidth(0.4)
    for k, seat in enumerate(seats):
        x = MARGIN + k * sig_w
        canv.line(x + 2, y, x + sig_w - 8, y)
        draw_fit(canv, seat_name(seat, lang), x + 2, y - 9, sig_w - 10, 7, lang=lang)
