"""Wall stickers as row strips: each seat's stickers printed as the rows its tiles lie in.

The first duplicate event stuck its stickers a row at a time (docs/rules.md, "Duplicate MCR: seat
layout and private draw piles": per seat a strip of 13 for the starting hand, 11 for the lower and
10 for the upper draw row). This module prints those rows on a full-sheet label
(:data:`walls.printing.templates.PRESETS` ``a4-strips``, ``letter-strips``), one strip per row of
:func:`walls.rulesets.layout.rows` in laying order (docs/printing.md, "Row strips"):

- the stickers repeat at the **tile pitch**, the width of the event's tiles
  (:class:`walls.printing.tilesize.TileSize`), so the strip reads like the row of tiles laid side
  by side; each sticker is the back of the tile less :data:`~walls.printing.tilesize.BACK_MARGIN`
  on every side (at most :data:`MAX_STICKER_HEIGHT` tall), so 2 mm of label lie between two
  stickers;
- **the cut line is the sticker's outline**: staff cut each sticker out and stick it on its tile;
  what a sticker needs after the cut is inside it: seat, slot, set code, its row (``Hand``,
  ``Lower``, ``Upper``) or a dead-wall slot's role mark (``R1``, ``DORA``, ``K1``, ``ura``; a
  legend on the sheet), the black triangle on stack 1 of a stacked row, where drawing starts,
  and the QR code of its slot (:meth:`walls.setcode.SetId.slot_url`), never the tile;
- each sticker's code has modules of at least :data:`MIN_MODULE` mm (:func:`code_module`,
  docs/printing.md, "Sticker codes"), what a phone reads at close range;
- above each strip: set, seat, row, slot range and, for a row longer than the page, its part
  ("part 1/2, the row goes on in part 2/2"); the parts of a row follow each other on one sheet;
- every sheet holds one copy of one set (``StickerSet.copy``) and whole seats where they fit;
  its heading names the event, set, copy, seats, tile size and the sheet number; its foot carries
  a 100 mm scale bar ("print at 100 %"), the cut hint and the role marks' legend.

:func:`render_strip_calibration` prints one strip of numbered stickers at the pitch with the same
100 mm bar, to tell a printer that scales the page from a wrong tile size before a session is
printed. :func:`strip_sheets` counts a document's sheets without drawing it.

No Django import. Speed: each sticker's QR code is drawn once (one per slot); the layout of a
sticker is computed once per document.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from reportlab.lib.units import mm

from walls.printing.base import draw_fit, finish, new_canvas
from walls.printing.data import PrintableSet, StickerSet, StickerSlot
from walls.printing.fonts import fonts, mixed_width, text_width
from walls.printing.i18n import check_lang, numbered, reserve_heading, role_mark, seat_name, word
from walls.printing.qr import FormCache, sticker_module
from walls.printing.stickers import _CAP, _Layout, _Sticker, _StickerWriter
from walls.printing.templates import LabelTemplate, TemplateError
from walls.printing.tilesize import TileSize
from walls.rulesets.layout import Row, rows

MAX_STICKER_HEIGHT = 24.0
"""Millimetres: a strip's stickers are no taller than this (less on a shorter tile)."""

PAGE_MARGIN = 6.5
"""Millimetres kept free at the page edges (printers do not print to the edge)."""

MIN_MODULE = 0.4
"""Millimetres: the smallest module (one black or white square) of a sticker's QR code that a
phone reads at close range, from a photo with some blur, tilt and uneven light."""

QR_SIDE = 16.0
"""Millimetres: a sticker's QR code with its quiet zone of 2 modules on each side, at most (less
on a back narrower than 17 mm). Version 4 (33 modules) then has modules of 16 / 37 = 0.43 mm."""

SCALE_BAR = 100.0
"""Millimetres: the scale bar at the foot of every sticker sheet and on the calibration page."""

MIN_WORD_SIZE = 5.0
"""Points: the smallest type of a sticker's row word or role mark."""

_HEAD: float = 3.5 * mm  # the line above a strip
_GAP: float = 2.0 * mm  # under a strip, before the next strip's line
_TOP: float = 7.0 * mm  # the page heading
_FOOT: float = 12.0 * mm  # scale bar, cut hint and legend
_TEXT_PAD: float = 0.6 * mm  # between a sticker's edge and its text
_QR_FOOT: float = 0.4 * mm  # between a sticker's bottom edge and its code's quiet zone


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


def qr_side(tile: TileSize) -> float:
    """Millimetres: the side of a sticker's QR code with its quiet zone on ``tile``:
    :data:`QR_SIDE`, or the sticker's width less 1 mm on a narrower back."""
    return min(QR_SIDE, tile.sticker_area[0] - 1.0)


def code_module(tile: TileSize, payload: str) -> float:
    """Millimetres: the module of the QR code of ``payload`` on a strip sticker of ``tile``
    (:func:`walls.printing.qr.sticker_module` in the square of :func:`qr_side`). A sticker's URL
    on any public address of up to 60 characters is version 4, 33 modules: 0.43 mm on every
    preset tile (docs/printing.md, "Sticker codes")."""
    return sticker_module(qr_side(tile), payload)


def sticker_layout_for(tile: TileSize, widest: float, word_width: float) -> _Layout:
    """Where everything goes on a strip sticker of ``tile`` (:class:`walls.printing.stickers._Layout`,
    points from the sticker's bottom-left corner): the QR code of :func:`qr_side` across the
    bottom, centred; above it the seat box and slot label (the widest slot label ``widest`` em
    wide in Helvetica-Bold), then the set code (left) and the row word or role mark (right,
    ``word_width`` em wide at most, never under :data:`MIN_WORD_SIZE` points)."""
    _, sw, sh = strip_geometry(tile)
    side = qr_side(tile) * mm
    qr = ((sw - side) / 2, _QR_FOOT, side)
    text_h = sh - side - _QR_FOOT - _TEXT_PAD
    inner = sw - 2 * _TEXT_PAD
    box_h = min(6 * mm, text_h * 0.56, (inner - 4 * mm) / (0.9 + widest * 0.75 / _CAP))
    top = sh - _TEXT_PAD
    seat_box = (_TEXT_PAD, top - box_h, box_h * 0.9, box_h)
    line = text_h - box_h - 0.4 * mm  # the code and word's line, points
    size = max(MIN_WORD_SIZE, min(8.0, line / 0.95))
    word_size = max(MIN_WORD_SIZE, min(size, (inner * 0.45) / max(word_width, 0.1)))
    base = _QR_FOOT + side + 0.15 * mm + 0.22 * size
    word_w = word_width * word_size
    code = (_TEXT_PAD, base, size, inner - word_w - 1 * mm, "left")
    word_ = (sw - _TEXT_PAD, base, word_size, word_w + 0.5, "right")
    return _Layout(_TEXT_PAD, seat_box, box_h * 0.8, _TEXT_PAD + box_h * 0.9 + 0.6 * mm, _TEXT_PAD,
                   box_h * 0.75 / _CAP, code, word_, qr)


def sticker_word(row: Row, slot: StickerSlot, lang: str) -> str:
    """What a strip sticker says beside its set code: a dead-wall slot's role mark
    (:func:`walls.printing.i18n.role_mark`), else its row: ``Hand row``, ``Lower``, ``Upper``, ``Row``."""
    if slot.role:
        return role_mark(slot.role, slot.order, lang)
    return word("sticker_hand" if row.kind == "hand" else f"sticker_{row.level}", lang)


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


@dataclass(frozen=True)
class _Frame:
    """A sticker sheet's measures in points: the page, the strips' pitch and sticker, how many
    stickers a strip holds and how many strips a page."""

    page_w: float
    page_h: float
    pitch: float
    sw: float
    sh: float
    per_strip: int
    per_page: int

    @property
    def line_h(self) -> float:
        return _HEAD + self.sh + _GAP


def _frame(tile: TileSize, stock: LabelTemplate) -> _Frame:
    """The measures of a sticker sheet of ``stock`` for ``tile``. Raises TemplateError naming
    ``template`` for a stock that is not a full-sheet label, ``tile_size`` for a back too small
    for a sticker."""
    if not stock.strips:
        raise TemplateError("template", f"label stock {stock.name} has separate labels: row strips need a full-sheet "
                                        "label such as a4-strips")
    pitch, sw, sh = strip_geometry(tile)
    if sw < 12 * mm or sh < 14 * mm:
        raise TemplateError("tile_size", f"tiles of {tile.text} leave less than 12 × 14 mm for a sticker: "
                                         "measure a tile's back and set the tile size in the event's settings")
    page_w, page_h = _landscape(stock)
    margin = PAGE_MARGIN * mm
    per_strip = int((page_w - 2 * margin + (pitch - sw) / 2 + 0.01) // pitch)
    per_page = int((page_h - 2 * margin - _TOP - _FOOT) // (_HEAD + sh + _GAP))
    return _Frame(page_w, page_h, pitch, sw, sh, per_strip, max(1, per_page))


def _lines(pieces: list[StripPiece], per_strip: int) -> list[list[StripPiece]]:
    """Short strips of one seat side by side on a line (a pitch apart) when they fit: a per-seat
    dead wall's two rows of one or two tiles."""
    lines: list[list[StripPiece]] = []
    for piece in pieces:
        line = lines[-1] if lines else None
        if (line and line[0].sset is piece.sset and line[0].row.seat == piece.row.seat
                and sum(len(p.slots) + 1 for p in line) + len(piece.slots) <= per_strip):
            line.append(piece)
        else:
            lines.append([piece])
    return lines


def _chunks(block: list[list[StripPiece]], per_page: int) -> list[list[list[StripPiece]]]:
    """A seat's lines in chunks of at most ``per_page`` lines, cut between rows, never between
    the parts of a row (unless a row alone is longer than a page)."""
    out: list[list[list[StripPiece]]] = [[]]
    i = 0
    while i < len(block):
        row = block[i][-1].row
        j = i + 1
        while j < len(block) and block[j][0].row == row and block[j][0].part > 1:
            j += 1
        group = block[i:j]
        if out[-1] and len(out[-1]) + len(group) > per_page:
            out.append([])
        for line in group:
            if len(out[-1]) >= per_page:
                out.append([])
            out[-1].append(line)
        i = j
    return out


def _paginate(lines: list[list[StripPiece]], per_page: int) -> list[list[list[StripPiece]]]:
    """Lines of strips to pages of at most ``per_page`` lines: a new page for each copy of a set;
    a seat's lines start a new page unless they all fit on what is left of the current one."""
    pages: list[list[list[StripPiece]]] = []
    page: list[list[StripPiece]] = []
    i = 0
    while i < len(lines):
        sset, seat = lines[i][0].sset, lines[i][0].row.seat
        j = i
        while j < len(lines) and lines[j][0].sset is sset and lines[j][0].row.seat == seat:
            j += 1
        block = lines[i:j]
        if page and (page[0][0].sset is not sset or len(page) + len(block) > per_page):
            pages.append(page)
            page = []
        chunks = _chunks(block, per_page)
        for chunk in chunks[:-1]:
            if page:
                pages.append(page)
            pages.append(chunk)
            page = []
        page.extend(chunks[-1])
        i = j
    if page:
        pages.append(page)
    return pages


def _pages(sets: Sequence[StickerSet], ruleset: Any, frame: _Frame) -> list[list[list[StripPiece]]]:
    pieces = [p for sset in sets for p in strip_pieces(sset, ruleset, frame.per_strip)]
    return _paginate(_lines(pieces, frame.per_strip), frame.per_page)


def strip_sheets(sset: StickerSet, ruleset: Any, tile: TileSize, stock: LabelTemplate) -> int:
    """How many sheets of ``stock`` the strips of one copy of a set take (every copy of every set
    of a rule set takes as many: a sheet holds one copy). Raises like :func:`render_sticker_strips`."""
    return len(_pages([sset], ruleset, _frame(tile, stock)))


def _check_sets(sets: Sequence[object]) -> None:
    for sset in sets:
        if not isinstance(sset, StickerSet):
            kind = "PrintableSet" if isinstance(sset, PrintableSet) else type(sset).__name__
            raise TypeError(f"render_sticker_strips takes StickerSet values, got a {kind}: a sticker on the back "
                            "of a tile must never name it")


def render_sticker_strips(sets: Sequence[StickerSet], ruleset: Any, tile: TileSize, stock: LabelTemplate,
                          lang: str = "en") -> bytes:
    """PDF of the wall stickers of ``sets`` (all of ``ruleset``; one value per physical copy) as
    row strips at the pitch of ``tile`` on the full-sheet label ``stock`` (a
    :class:`LabelTemplate` with ``strips``), pages turned landscape. See the module doc for what is
    printed.

    Raises TypeError for a value holding tiles (a PrintableSet), TemplateError naming
    ``template`` for a stock that is not a full-sheet label, or ``tile_size`` for a tile that
    leaves no room for a sticker (narrower than 14 mm or shorter than 16 mm), ValueError for an
    unknown language."""
    lang = check_lang(lang)
    _check_sets(sets)
    frame = _frame(tile, stock)
    pages = _pages(sets, ruleset, frame)
    title = f"{sets[0].event_name} — {word('strips', lang)}" if sets else word("strips", lang)
    canv, buf = new_canvas((frame.page_w, frame.page_h), title)
    fs = fonts()
    slots = [(p.row, s) for page in pages for line in page for p in line for s in p.slots]
    widest = max((text_width(s.label, fs.latin_bold, 1.0) for _, s in slots), default=1.834)
    words = {sticker_word(row, s, lang) for row, s in slots} or {""}
    word_width = max(mixed_width(w, 1.0, lang) for w in words)
    writer = _StickerWriter(canv, FormCache(canv), sticker_layout_for(tile, round(widest, 4), word_width), lang)
    marks = any(s.role for _, s in slots)
    margin = PAGE_MARGIN * mm
    for n, page in enumerate(pages, start=1):
        _page_heading(canv, page, n, len(pages), tile, frame, lang)
        y = frame.page_h - margin - _TOP
        for line in page:
            x = margin
            for k, piece in enumerate(line):
                step = (len(piece.slots) + 1) * frame.pitch
                room = (step - frame.pitch * 0.5) if k + 1 < len(line) else frame.page_w - margin - x
                _draw_piece(canv, writer, piece, x, y, frame, lang, room)
                x += step
            y -= frame.line_h
        _page_foot(canv, frame, lang, marks)
        canv.showPage()
    if not pages:
        canv.showPage()
    return finish(canv, buf)


def _triangle(x: float, y_mid: float, height: float) -> str:
    """PDF operators of a black triangle pointing right, its left edge at ``x``."""
    return (f"{x:.3f} {y_mid + height / 2:.3f} m {x + height * 0.8:.3f} {y_mid:.3f} l "
            f"{x:.3f} {y_mid - height / 2:.3f} l h f")


def _draw_piece(canv: Any, writer: _StickerWriter, piece: StripPiece, x0: float, y_top: float, frame: _Frame,
                lang: str, room: float) -> None:
    """One strip: its line (in ``room`` points, up to the next strip or the page's margin), each
    sticker's outline (the cut line) and the stickers, the triangle on stack 1 of a stacked row."""
    sset, row = piece.sset, piece.row
    seat = seat_name(row.seat, lang) if row.seat else word("shared", lang)
    first, last = piece.slots[0].label, piece.slots[-1].label
    head = f"{sset.set_id.code} · {seat} · {_row_words(row, lang)} · {first}–{last}"
    if piece.parts > 1:
        head += f" · {word('part', lang)} {piece.part}/{piece.parts}"
        if piece.part < piece.parts:
            head += ", " + word("row_continues", lang) % {"part": f"{piece.part + 1}/{piece.parts}"}
        else:
            head += ", " + word("row_joins", lang) % {"part": f"{piece.part - 1}/{piece.parts}"}
    canv.setFillColorRGB(0, 0, 0)
    inset = (frame.pitch - frame.sw) / 2
    draw_fit(canv, head, x0 + inset, y_top - 2.5 * mm, room - inset, 7.5, lang=lang, bold=True, min_size=5)
    bottom = y_top - _HEAD - frame.sh
    lefts = [x0 + k * frame.pitch + inset for k in range(len(piece.slots))]
    # the cut lines: each sticker's outline, a thin dark line
    ops = ["q 0.35 G 0.35 w"]
    ops.extend(f"{x:.3f} {bottom:.3f} {frame.sw:.3f} {frame.sh:.3f} re S" for x in lefts)
    ops.append("Q")
    writer.out.emit(ops)
    for x, slot in zip(lefts, piece.slots):
        writer.draw(_Sticker(sset, slot), x, bottom, word=sticker_word(row, slot, lang))
    if row.kind in ("draw", "live") and row.level != "flat" and piece.part == 1:  # stack 1, where drawing starts
        bx, by, _bw, bh = writer.lay.seat_box
        size = min(bh * 0.8, 3 * mm)
        writer.out.emit(["q 0 g", _triangle(lefts[0] + frame.sw - _TEXT_PAD - size * 0.8, bottom + by + bh / 2, size),
                         "Q"])


def _page_heading(canv: Any, page: list[list[StripPiece]], n: int, total: int, tile: TileSize, frame: _Frame,
                  lang: str) -> None:
    """Event, set and copy, its seats on the sheet, tile size and pitch, sheet n/N."""
    first = page[0][0].sset
    seats: list[str] = []
    for piece in (p for line in page for p in line):
        name = seat_name(piece.row.seat, lang) if piece.row.seat else word("shared", lang)
        if name not in seats:
            seats.append(name)
    event = first.event_name
    if first.set_id.reserve:  # a reserve wall's strips say so on every page, so nobody sticks them on the set itself
        event += f" — {reserve_heading(first.set_id.reserve_label, first.set_id.set_code, lang)}"
    what = f"{numbered('set', first.set_id.code, lang)}"
    if first.copy:
        what += f" ({word('copy', lang)}: {first.copy})"
    text = (f"{event} — {what} — {', '.join(seats)} — {word('tiles', lang)} {tile.text}, {word('pitch', lang)} "
            f"{tile.width:g} mm — {numbered('sheet', f'{n}/{total}', lang)}")
    margin = PAGE_MARGIN * mm
    canv.setFillColorRGB(0, 0, 0)
    draw_fit(canv, text, margin, frame.page_h - margin - 4 * mm, frame.page_w - 2 * margin, 8.5, lang=lang,
             bold=True, min_size=5)


def scale_bar(canv: Any, x: float, y: float, lang: str, width: float) -> None:
    """The 100 mm scale bar at ``(x, y)`` (points, its bottom-left corner): a filled bar
    :data:`SCALE_BAR` mm long and 0.6 mm thick, ticks every 10 mm, and "print at 100 %: this bar
    measures 100 mm" after it in ``width`` points."""
    length = SCALE_BAR * mm
    ops = ["q 0 g", f"{x:.3f} {y:.3f} {length:.3f} {0.6 * mm:.3f} re f"]
    ops.extend(f"{x + k * 10 * mm - (0.25 * mm if k == 10 else 0):.3f} {y + 0.6 * mm:.3f} {0.25 * mm:.3f} "
               f"{(2.0 if k in (0, 5, 10) else 1.2) * mm:.3f} re f" for k in range(11))
    ops.append("Q")
    canv._code.append("\n".join(ops))
    canv.setFillColorRGB(0, 0, 0)
    draw_fit(canv, word("scale_bar", lang), x + length + 3 * mm, y, width - length - 3 * mm, 7.5, lang=lang, bold=True,
             min_size=5)


def _page_foot(canv: Any, frame: _Frame, lang: str, marks: bool) -> None:
    """The sheet's foot: the scale bar, the cut hint, and the role marks' legend when the sheet's
    rule set has a dead wall."""
    margin = PAGE_MARGIN * mm
    width = frame.page_w - 2 * margin
    scale_bar(canv, margin, margin + 8.5 * mm, lang, width)
    draw_fit(canv, word("cut_hint", lang), margin, margin + 4.5 * mm, width, 7, lang=lang, min_size=5)
    if marks:
        draw_fit(canv, word("marks_legend", lang), margin, margin + 0.8 * mm, width, 7, lang=lang, min_size=5)


def render_strip_calibration(tile: TileSize, stock: LabelTemplate, lang: str = "en", cells: int = 13) -> bytes:
    """A page to check the printer and the tile size before printing a session's strips: the
    100 mm scale bar (:func:`scale_bar`) with step 1, "measure it: if it is not 100 mm the printer
    scales the page, print at 100 %; do not change the tile size", then one strip of ``cells``
    numbered stickers at the pitch of ``tile`` (outlined as on the strips) with a millimetre
    ruler, and step 2, "only then lay tiles on the stickers: a sticker outside its tile's back
    means a wrong tile size". On ``stock``'s page, turned landscape; a row longer than the page is
    cut to what fits."""
    lang = check_lang(lang)
    page_w, page_h = _landscape(stock)
    pitch, sw, sh = strip_geometry(tile)
    margin = PAGE_MARGIN * mm
    cells = max(1, min(cells, int((page_w - 2 * margin + (pitch - sw) / 2 + 0.01) // pitch)))
    canv, buf = new_canvas((page_w, page_h), f"{word('calibration_strip', lang)} — {tile.text}")
    fs = fonts()
    width = page_w - 2 * margin
    canv.setFillColorRGB(0, 0, 0)
    draw_fit(canv, f"{word('calibration_strip', lang)} — {word('tiles', lang)} {tile.text}, {word('pitch', lang)} "
             f"{tile.width:g} mm", margin, page_h - margin - 6 * mm, width, 12, lang=lang, bold=True)
    draw_fit(canv, word("calibration_step1", lang), margin, page_h - margin - 13 * mm, width, 8.5, lang=lang,
             min_size=5)
    scale_bar(canv, margin, page_h - margin - 24 * mm, lang, width)
    draw_fit(canv, word("calibration_step2", lang), margin, page_h - margin - 33 * mm, width, 8.5, lang=lang,
             min_size=5)
    strip_top = page_h - margin - 40 * mm
    strip_bottom = strip_top - sh
    inset = (pitch - sw) / 2
    for k in range(cells):
        cx = margin + k * pitch + inset
        canv.setStrokeColorRGB(0.35, 0.35, 0.35)
        canv.setLineWidth(0.35)
        canv.rect(cx, strip_bottom, sw, sh, stroke=1, fill=0)
        canv.setFont(fs.latin_bold, 14)
        canv.drawCentredString(cx + sw / 2, strip_bottom + sh / 2 - 5, str(k + 1))
    canv.setStrokeColorRGB(0, 0, 0)
    ruler_y = strip_bottom - 6 * mm
    length_mm = int(cells * tile.width)
    canv.setLineWidth(0.3)
    canv.line(margin, ruler_y, margin + length_mm * mm, ruler_y)
    canv.setFont(fs.latin, 6)
    for i in range(length_mm + 1):
        tick = 4 * mm if i % 10 == 0 else 2.5 * mm if i % 5 == 0 else 1.5 * mm
        canv.line(margin + i * mm, ruler_y, margin + i * mm, ruler_y - tick)
        if i % 10 == 0:
            canv.drawCentredString(margin + i * mm, ruler_y - 7 * mm, str(i))
    draw_fit(canv, f"{cells} × {tile.width:g} mm = {cells * tile.width:g} mm", margin, ruler_y - 13 * mm, 120 * mm, 9,
             lang=lang)
    canv.showPage()
    return finish(canv, buf)


__all__ = ["MAX_STICKER_HEIGHT", "MIN_MODULE", "StripPiece", "code_module", "render_strip_calibration",
           "render_sticker_strips", "scale_bar", "sticker_word", "strip_geometry", "strip_pieces", "strip_sheets"]
