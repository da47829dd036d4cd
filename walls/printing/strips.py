"""Wall stickers as row strips: each seat's stickers printed as the rows its tiles lie in.

The first duplicate event stuck its stickers a row at a time (docs/rules.md, "Duplicate MCR: seat
layout and private draw piles": per seat a strip of 13 for the starting hand, 11 for the lower and
10 for the upper draw row, stuck on the backs of a whole row of face-down tiles in one motion,
then separated along their cuts). This module prints those strips on a full-sheet label
(:data:`walls.printing.templates.PRESETS` ``a4-strips``, ``letter-strips``), one strip per row of
:func:`walls.rulesets.layout.rows` in laying order:

- the cells repeat at the **tile pitch**, the width of the event's tiles
  (:class:`walls.printing.tilesize.TileSize`), so the strip lies on a row of tiles laid side by side;
- each cell's sticker (outlined) is the back of the tile less :data:`~walls.printing.tilesize.BACK_MARGIN`
  on every side, at most :data:`MAX_STICKER_HEIGHT` tall, and says what a grid sticker says (seat,
  slot, set code, pile word or dead-wall role, the QR code of its slot's URL): never the tile;
- cut marks above and below every joint between cells, and a dashed line across it: cut the strip
  out, lay it on its row (its arrow at the first draw), press, then cut at the marks;
- above each strip: set, seat, row and slot range, in the sheet's language;
- a row longer than the page is split into parts of even length, named "part 1/2";
- a seat's rows are kept on one page when they fit; every page is headed with the event, the
  sets and seats on it, the tile size and pitch, and the page number.

:func:`render_strip_calibration` prints one strip of numbered cells at the pitch with a millimetre
ruler, to lay tiles on before printing a session.

No Django import. Speed: each cell's QR code is drawn once (one per slot); the layout of a cell is
computed once per document.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from reportlab.lib.units import mm

from walls.printing.base import draw_fit, finish, new_canvas
from walls.printing.data import PrintableSet, StickerSet, StickerSlot
from walls.printing.fonts import fonts, text_width
from walls.printing.i18n import check_lang, numbered, reserve_heading, seat_name, word
from walls.printing.qr import FormCache
from walls.printing.stickers import _Sticker, _StickerWriter, slot_word, sticker_layout
from walls.printing.templates import LabelTemplate, TemplateError
from walls.printing.tilesize import TileSize
from walls.rulesets.layout import Row, rows

MAX_STICKER_HEIGHT = 26.0
"""Millimetres: a strip's stickers are no taller than this (less on a shorter tile)."""

PAGE_MARGIN = 8.0
"""Millimetres kept free at the page edges (printers do not print to the edge)."""

_HEAD = 4.0 * mm  # the line above a strip
_MARK = 2.4 * mm  # cut marks above and below a strip
_GAP = 2.2 * mm  # between one strip's marks and the next strip's line


@dataclass(frozen=True)
class StripPiece:
    """One strip as printed: ``sset`` and ``seat`` it belongs to, the :class:`Row` and which
    ``part`` of it (1-based, of ``parts``: a row too long for the page is cut in even parts), and
    the ``slots`` of its cells, left to right."""

    sset: StickerSet
    row: Row
    part: int
    parts: int
    slots: tuple[StickerSlot, ...]


def strip_pieces(sset: StickerSet, ruleset: Any, per_strip: int) -> list[StripPiece]:
    """The strips of one set in laying order (:func:`walls.rulesets.layout.rows`), each row cut
    into the fewest parts of at most ``per_strip`` cells, as even as possible (13 at 11 a strip →
    7 + 6). Raises TemplateError (``tile_size``) when not one cell fits."""
    if per_strip < 1:
        raise TemplateError("tile_size", "the tile is wider than the page: check the tile size in the event's settings")
    by_label = {(s.pile, s.label): s for unit in sset.units for s in unit.slots}
    out = []
    for row in rows(ruleset):
        slots = tuple(by_label[(row.pile, label)] for label in row.labels)
        count = -(-len(slots) // per_strip)
        base, extra = divmod(len(slots), count)
        start = 0
        for part in range(count):
            size = base + (1 if part < extra else 0)
            out.append(StripPiece(sset, row, part + 1, count, slots[start:start + size]))
            start += size
    return out


def strip_geometry(tile: TileSize) -> tuple[float, float, float]:
    """``(pitch, sticker width, sticker height)`` in points for ``tile``: the pitch is the tile's
    width; a sticker is the back less the margin on each side, at most
    :data:`MAX_STICKER_HEIGHT` tall."""
    width, height = tile.sticker_area
    return tile.width * mm, width * mm, min(height, MAX_STICKER_HEIGHT) * mm


def _landscape(stock: LabelTemplate) -> tuple[float, float]:
    w, h = stock.page_points
    return (h, w) if w < h else (w, h)


def _row_words(row: Row, lang: str) -> str:
    kind = {"hand": "hand", "draw": "draw", "live": "live", "dead": "dead"}.get(row.kind, "")
    level = word(f"strip_{row.level}", lang)
    text = f"{word(kind, lang) if kind else row.pile}, {level}"
    if row.parts > 1:
        text += f" {row.part}/{row.parts}"
    return text


def render_sticker_strips(sets: Sequence[StickerSet], ruleset: Any, tile: TileSize, stock: LabelTemplate,
                          lang: str = "en") -> bytes:
    """PDF of the wall stickers of ``sets`` (all of ``ruleset``) as row strips at the pitch of
    ``tile`` on the full-sheet label ``stock`` (a :class:`LabelTemplate` with ``strips``), pages
    turned landscape. See the module doc for what is printed.

    Raises TypeError for a value holding tiles (a PrintableSet), TemplateError naming
    ``template`` for a stock that is not a full-sheet label, or ``tile_size`` for a tile that
    leaves no room for a sticker (narrower than 14 mm or shorter than 14 mm once the margins
    are taken), ValueError for an unknown language."""
    lang = check_lang(lang)
    for sset in sets:
        if not isinstance(sset, StickerSet):
            kind = "PrintableSet" if isinstance(sset, PrintableSet) else type(sset).__name__
            raise TypeError(f"render_sticker_strips takes StickerSet values, got a {kind}: a sticker on the back "
                            "of a tile must never name it")
    if not stock.strips:
        raise TemplateError("template", f"label stock {stock.name} has separate labels: row strips need a full-sheet "
                                        "label such as a4-strips")
    pitch, sw, sh = strip_geometry(tile)
    if sw < 12 * mm or sh < 14 * mm:
        raise TemplateError("tile_size", f"tiles of {tile.text} leave less than 12 × 14 mm for a sticker: "
                                         "measure a tile's back and set the tile size in the event's settings")
    page_w, page_h = _landscape(stock)
    margin = PAGE_MARGIN * mm
    per_strip = int((page_w - 2 * margin + 0.01) // pitch)
    top = page_h - margin - 9 * mm
    bottom = margin + 7 * mm
    strip_h = _HEAD + sh + 2 * _MARK + _GAP
    pieces = [p for sset in sets for p in strip_pieces(sset, ruleset, per_strip)]
    pages = _paginate(_lines(pieces, per_strip), (top - bottom) // strip_h)
    title = f"{sets[0].event_name} — {word('strips', lang)}" if sets else word("strips", lang)
    canv, buf = new_canvas((page_w, page_h), title)
    forms = FormCache(canv)
    labels = {s.label for p in pieces for s in p.slots} or {"D21"}
    fs = fonts()
    widest = max(text_width(label, fs.latin_bold, 1.0) for label in labels)
    writer = _StickerWriter(canv, forms, sticker_layout(sw, sh, round(widest, 4), want_qr=True), lang)
    for n, page in enumerate(pages, start=1):
        _page_heading(canv, page, n, len(pages), tile, page_w, page_h, lang)
        y = top
        for line in page:
            x = margin
            for k, piece in enumerate(line):
                step = (len(piece.slots) + 1) * pitch
                room = (step - pitch * 0.5) if k + 1 < len(line) else page_w - margin - x
                _draw_piece(canv, writer, piece, x, y, pitch, sw, sh, lang, room)
                x += step
            y -= strip_h
        draw_fit(canv, word("cut_hint", lang), margin, margin, page_w - 2 * margin, 7, lang=lang, min_size=5)
        canv.showPage()
    if not pages:
        canv.showPage()
    return finish(canv, buf)


def _lines(pieces: list[StripPiece], per_strip: int) -> list[list[StripPiece]]:
    """Short strips of one seat side by side on a line (a pitch apart) when they fit: a per-seat
    dead wall's two rows of one or two tiles."""
    lines: list[list[StripPiece]] = []
    for piece in pieces:
        line = lines[-1] if lines else None
        if (line and (line[0].sset.set_id, line[0].row.seat) == (piece.sset.set_id, piece.row.seat)
                and sum(len(p.slots) + 1 for p in line) + len(piece.slots) <= per_strip):
            line.append(piece)
        else:
            lines.append([piece])
    return lines


def _paginate(lines: list[list[StripPiece]], per_page: float) -> list[list[list[StripPiece]]]:
    """Lines of strips to pages of at most ``per_page`` lines; a seat's lines start a new page
    unless they all fit on what is left of the current one."""
    per_page = max(1, int(per_page))
    pages: list[list[list[StripPiece]]] = []
    page: list[list[StripPiece]] = []
    i = 0
    while i < len(lines):
        key = (lines[i][0].sset.set_id, lines[i][0].row.seat)
        j = i
        while j < len(lines) and (lines[j][0].sset.set_id, lines[j][0].row.seat) == key:
            j += 1
        block = lines[i:j]
        if page and len(page) + len(block) > per_page and len(block) <= per_page:
            pages.append(page)
            page = []
        for piece in block:
            if len(page) >= per_page:
                pages.append(page)
                page = []
            page.append(piece)
        i = j
    if page:
        pages.append(page)
    return pages


def _draw_piece(canv: Any, writer: _StickerWriter, piece: StripPiece, x0: float, y_top: float, pitch: float,
                sw: float, sh: float, lang: str, room: float) -> None:
    """One strip: its line (in ``room`` points, up to the next strip or the page's margin), the
    arrow at the first draw, the outline, cells, joints and marks."""
    sset, row = piece.sset, piece.row
    seat = seat_name(row.seat, lang) if row.seat else word("shared", lang)
    first, last = piece.slots[0].label, piece.slots[-1].label
    head = f"{sset.set_id.code} · {seat} · {_row_words(row, lang)} · {first}–{last}"
    if piece.parts > 1:
        head += f" · {word('part', lang)} {piece.part}/{piece.parts}"
    canv.setFillColorRGB(0, 0, 0)
    width = len(piece.slots) * pitch
    draw_fit(canv, head, x0 + 4 * mm, y_top - 3.2 * mm, room - 4 * mm, 7.5, lang=lang, bold=True, min_size=3.5)
    if row.kind != "hand" and piece.part == 1:  # the end drawing starts from
        canv.setFillColorRGB(0, 0, 0)
        path = canv.beginPath()
        path.moveTo(x0, y_top - 0.8 * mm)
        path.lineTo(x0 + 3 * mm, y_top - 2.3 * mm)
        path.lineTo(x0, y_top - 3.8 * mm)
        path.close()
        canv.drawPath(path, stroke=0, fill=1)
    strip_top = y_top - _HEAD - _MARK
    strip_bottom = strip_top - sh
    count, inset = len(piece.slots), (pitch - sw) / 2
    joints = [x0 + k * pitch for k in range(count + 1)]
    # outline, cut marks, dashed joints and each sticker's outline, written as PDF operators
    ops = ["q 0.55 G 0.4 w", f"{x0:.3f} {strip_bottom:.3f} {width:.3f} {sh:.3f} re S", "0 G 0.5 w"]
    for x in joints:
        ops.append(f"{x:.3f} {strip_top + 0.4 * mm:.3f} m {x:.3f} {strip_top + _MARK:.3f} l S "
                   f"{x:.3f} {strip_bottom - 0.4 * mm:.3f} m {x:.3f} {strip_bottom - _MARK:.3f} l S")
    ops.append("0.6 G 0.3 w [1.2 1.2] 0 d")
    ops.extend(f"{x:.3f} {strip_bottom:.3f} m {x:.3f} {strip_top:.3f} l S" for x in joints[1:-1])
    ops.append("[] 0 d 0.8 G 0.25 w")
    ops.extend(f"{x + inset:.3f} {strip_bottom:.3f} {sw:.3f} {sh:.3f} re S" for x in joints[:-1])
    ops.append("Q")
    writer.out.emit(ops)
    for x, slot in zip(joints, piece.slots):
        writer.draw(_Sticker(sset, slot), x + inset, strip_bottom)


def _page_heading(canv: Any, page: list[list[StripPiece]], n: int, total: int, tile: TileSize, page_w: float,
                  page_h: float, lang: str) -> None:
    heads: dict[str, list[str]] = {}
    for piece in (p for line in page for p in line):
        seats = heads.setdefault(piece.sset.set_id.code, [])
        name = seat_name(piece.row.seat, lang) if piece.row.seat else word("shared", lang)
        if name not in seats:
            seats.append(name)
    event = page[0][0].sset.event_name if page else ""
    reserve = next((p.sset.set_id for line in page for p in line if p.sset.set_id.reserve), None)
    if reserve is not None:  # a reserve wall's strips say so on every page, so nobody sticks them on the set itself
        event += f" — {reserve_heading(reserve.reserve_label, reserve.set_code, lang)}"
    what = "; ".join(f"{numbered('set', code, lang)} {', '.join(seats)}" for code, seats in heads.items())
    text = (f"{event} — {word('strips', lang)} — {what} — {word('tiles', lang)} {tile.text}, {word('pitch', lang)} "
            f"{tile.width:g} mm — {numbered('page', f'{n}/{total}', lang)}")
    margin = PAGE_MARGIN * mm
    draw_fit(canv, text, margin, page_h - margin - 4 * mm, page_w - 2 * margin, 8, lang=lang, min_size=4.5)


def render_strip_calibration(tile: TileSize, stock: LabelTemplate, lang: str = "en", cells: int = 13) -> bytes:
    """A page to check the pitch before printing a session's strips: one strip of ``cells``
    numbered cells at the pitch of ``tile`` (outlined stickers, cut marks as on the strips), a
    millimetre ruler under it, the tile size and pitch, and how to check (lay tiles face down on
    the strip: every mark on a joint). On ``stock``'s page, turned landscape; a row longer than the
    page is cut to what fits."""
    lang = check_lang(lang)
    page_w, page_h = _landscape(stock)
    pitch, sw, sh = strip_geometry(tile)
    margin = PAGE_MARGIN * mm
    cells = max(1, min(cells, int((page_w - 2 * margin + 0.01) // pitch)))
    canv, buf = new_canvas((page_w, page_h), f"{word('calibration_strip', lang)} — {tile.text}")
    fs = fonts()
    canv.setFillColorRGB(0, 0, 0)
    draw_fit(canv, f"{word('calibration_strip', lang)} — {word('tiles', lang)} {tile.text}, {word('pitch', lang)} "
             f"{tile.width:g} mm", margin, page_h - margin - 6 * mm, page_w - 2 * margin, 12, lang=lang, bold=True)
    draw_fit(canv, word("calibration_hint", lang), margin, page_h - margin - 13 * mm, page_w - 2 * margin, 8,
             lang=lang, min_size=5)
    strip_top = page_h - margin - 24 * mm
    strip_bottom = strip_top - sh
    x0 = margin
    canv.setLineWidth(0.5)
    for k in range(cells + 1):
        x = x0 + k * pitch
        canv.line(x, strip_top + 0.4 * mm, x, strip_top + _MARK)
        canv.line(x, strip_bottom - 0.4 * mm, x, strip_bottom - _MARK)
    inset = (pitch - sw) / 2
    for k in range(cells):
        cx = x0 + k * pitch + inset
        canv.setStrokeColorRGB(0.6, 0.6, 0.6)
        canv.rect(cx, strip_bottom, sw, sh, stroke=1, fill=0)
        canv.setFont(fs.latin_bold, 14)
        canv.drawCentredString(cx + sw / 2, strip_bottom + sh / 2 - 5, str(k + 1))
    canv.setStrokeColorRGB(0, 0, 0)
    ruler_y = strip_bottom - _MARK - 6 * mm
    length_mm = int(cells * tile.width)
    canv.setLineWidth(0.3)
    canv.line(x0, ruler_y, x0 + length_mm * mm, ruler_y)
    canv.setFont(fs.latin, 6)
    for i in range(length_mm + 1):
        tick = 4 * mm if i % 10 == 0 else 2.5 * mm if i % 5 == 0 else 1.5 * mm
        canv.line(x0 + i * mm, ruler_y, x0 + i * mm, ruler_y - tick)
        if i % 10 == 0:
            canv.drawCentredString(x0 + i * mm, ruler_y - 7 * mm, str(i))
    draw_fit(canv, f"{cells} × {tile.width:g} mm = {cells * tile.width:g} mm", x0, ruler_y - 13 * mm, 120 * mm, 9,
             lang=lang)
    canv.showPage()
    return finish(canv, buf)


__all__ = ["MAX_STICKER_HEIGHT", "StripPiece", "render_strip_calibration", "render_sticker_strips", "slot_word",
           "strip_geometry", "strip_pieces"]
