"""Wall stickers: one sticker for the back of every tile of a wall set.

Each seat's stickers form a *block* (one seat's starting hand and draw pile: 13 + 21 = 34 in MCR
duplicate; shared live and dead walls form a block of their own). A block opens with a *header
label* (set code, seat, event, slot range; staff stick it on the frame of that seat's rows) and
then one sticker per tile in slot order: ``H1``..``H13``, ``D1``..``D21`` (``L``/``X`` for shared
walls). A sticker shows the slot label, the seat, the set code with its check digit, the tile as a
drawn face and its name in English plus Japanese or Chinese, and, where the label is big enough,
the set's QR code (bare payload: short enough to scan at 10 mm).

Blocks start on a new row of labels (``seat_break="row"``, the default: two MCR seats per 7×10
sheet, each exactly five rows) or on a new sheet (``seat_break="page"``); a block is not split
across sheets unless it is larger than a sheet, and a sheet that continues a block repeats its
header label. Every sheet with a top or bottom margin of 5 mm or more carries a heading strip
naming the event, the sets and seats on the sheet and the sheet number.

Speed: tile faces and QR codes are Form XObjects drawn once per document; layout and text sizes
are computed once per template and cached per string (walls/bench_printing.py measures it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from reportlab.lib.units import mm

from walls.printing.base import draw_fit, finish, new_canvas
from walls.printing.data import Placement, PrintableSet, Unit, set_units
from walls.printing.fonts import fit_size, fonts
from walls.printing.i18n import both, check_lang, seat_both, word
from walls.printing.qr import FormCache
from walls.printing.rawpdf import ContentWriter
from walls.printing.templates import (
    DEFAULT_TEMPLATE,
    LabelTemplate,
    TemplateError,
    get_template,
    label_boxes,
)
from walls.printing.tilefaces import ASPECT, FACE_H, FACE_W, draw_tile_face, face_key
from walls.tiles import tile_name

SEAT_BREAKS = ("row", "page")
_QR_MIN = 9 * mm
_QR_MAX = 12 * mm


@dataclass(frozen=True)
class _Layout:
    """Positions inside one label, relative to its bottom-left corner (points)."""

    pad: float
    face: tuple[float, float, float]  # x, y, height
    qr: tuple[float, float, float] | None  # x, y, size
    seat_box: tuple[float, float, float, float]  # x, y, w, h
    slot: tuple[float, float, float, float]  # x, baseline, max size, width
    code: tuple[float, float, float, float, str]  # x, baseline, size, width, align
    names: tuple[tuple[float, float, float, float], tuple[float, float, float, float]]  # (x, baseline, size, width)


@lru_cache(maxsize=64)
def sticker_layout(w: float, h: float) -> _Layout:
    """Where everything goes on a ``w`` × ``h`` point sticker: a *wide* layout (face on the left,
    text beside it, QR on the right) or, for squarish labels, a *stacked* one (slot and code on
    top, face and QR in the middle, names at the bottom)."""
    pad = max(1.0 * mm, min(2.0 * mm, h * 0.06))
    if w / h >= 1.55:
        fh = h - 2 * pad
        fw = fh * ASPECT
        if fw > w * 0.3:
            fw = w * 0.3
            fh = fw / ASPECT
        qr_size = min(_QR_MAX, h - 2 * pad)
        text_x = pad + fw + pad
        text_w = w - text_x - pad
        qr = None
        if qr_size >= _QR_MIN and text_w - qr_size - pad >= 16 * mm:
            qr = (w - pad - qr_size, (h - qr_size) / 2, qr_size)
            text_w -= qr_size + pad * 0.5
        inner = h - 2 * pad
        slot_size = min(inner * 0.34, 16)
        small = min(inner * 0.17, 7.5)
        top = h - pad
        slot_base = top - slot_size * 0.78
        box_h = slot_size * 0.8
        seat_box = (text_x, slot_base - slot_size * 0.05, box_h * 0.95, box_h)
        slot = (text_x + box_h * 0.95 + slot_size * 0.22, slot_base, slot_size, text_w - box_h - slot_size * 0.22)
        code_base = slot_base - small * 1.25
        name1 = code_base - small * 1.2
        name2 = name1 - small * 1.25
        return _Layout(pad, (pad, (h - fh) / 2, fh), qr, seat_box, slot,
                       (text_x, code_base, small, text_w, "left"),
                       ((text_x, name1, small, text_w), (text_x, name2, small, text_w)))
    inner_w = w - 2 * pad
    top_h = h * 0.26
    bottom_h = h * 0.24
    mid_h = h - top_h - bottom_h - 2 * pad
    slot_size = min(top_h * 0.8, 15)
    slot_base = h - pad - slot_size * 0.78
    box_h = slot_size * 0.8
    seat_box = (pad, slot_base - slot_size * 0.05, box_h * 0.95, box_h)
    code_size = min(top_h * 0.32, 6.5)
    slot_w = inner_w * 0.55 - box_h
    slot = (pad + box_h * 0.95 + slot_size * 0.22, slot_base, slot_size, slot_w)
    code = (w - pad, slot_base, code_size, inner_w * 0.42, "right")
    fh = mid_h
    fw = fh * ASPECT
    mid_y = pad + bottom_h
    qr = None
    qr_size = min(_QR_MAX, mid_h)
    if qr_size >= _QR_MIN * 0.95 and inner_w - fw - qr_size >= 1 * mm:
        gap = (inner_w - fw - qr_size) / 3
        face = (pad + gap, mid_y, fh)
        qr = (w - pad - gap - qr_size, mid_y + (mid_h - qr_size) / 2, qr_size)
    else:
        face = ((w - fw) / 2, mid_y, fh)
    name_size = min(bottom_h * 0.42, 6.5)
    name1 = pad + bottom_h - name_size * 0.95
    name2 = name1 - name_size * 1.15
    return _Layout(pad, face, qr, seat_box, slot, code,
                   ((pad, name1, name_size, inner_w), (pad, name2, name_size, inner_w)))


@dataclass(frozen=True)
class _Header:
    pset: PrintableSet
    unit: Unit
    continued: bool


@dataclass(frozen=True)
class _Sticker:
    pset: PrintableSet
    placement: Placement


def plan_sheets(blocks: Sequence[tuple[PrintableSet, Unit]], per_sheet: int, columns: int,
                seat_break: str = "row") -> list[list[object]]:
    """Assign header labels and stickers to label positions: a list of sheets, each a list of
    ``per_sheet`` cells holding a header, a sticker or None (left blank)."""
    if seat_break not in SEAT_BREAKS:
        raise ValueError(f"seat_break: use one of {', '.join(SEAT_BREAKS)}, got {seat_break!r}")
    if per_sheet < 2:
        raise TemplateError("rows", "wall stickers need at least 2 labels per sheet (a header and a sticker)")
    sheets: list[list[object]] = []
    sheet: list[object] = []

    def new_sheet():
        nonlocal sheet
        if sheet:
            sheets.append(sheet + [None] * (per_sheet - len(sheet)))
        sheet = []

    for pset, unit in blocks:
        stickers = unit.placements
        need = 1 + len(stickers)
        if seat_break == "page":
            new_sheet()
        else:
            if len(sheet) % columns:
                sheet.extend([None] * (columns - len(sheet) % columns))
            if len(sheet) >= per_sheet or (need <= per_sheet and len(sheet) + need > per_sheet):
                new_sheet()
        sheet.append(_Header(pset, unit, False))
        for p in stickers:
            if len(sheet) >= per_sheet:
                new_sheet()
                sheet.append(_Header(pset, unit, True))
            sheet.append(_Sticker(pset, p))
    new_sheet()
    return sheets


def render_wall_stickers(sets: Sequence[PrintableSet], template: LabelTemplate | str | None = None,
                         lang: str = "en", *, seat_break: str = "row", cut_lines: bool = False) -> bytes:
    """PDF of the wall stickers of ``sets`` on ``template`` label stock (a LabelTemplate or a
    preset name; default :data:`walls.printing.templates.DEFAULT_TEMPLATE`).

    ``lang`` (``en``, ``ja``, ``zh``) picks the second tile name and seat words; ``seat_break``
    is ``"row"`` or ``"page"`` (see the module doc); ``cut_lines`` outlines every label, for
    plain paper cut by hand. Raises PrintDataError for a wall that does not match its rule set,
    TemplateError for labels too small, ValueError for an unknown language.
    """
    check_lang(lang)
    if template is None:
        template = DEFAULT_TEMPLATE
    if isinstance(template, str):
        template = get_template(template)
    if template.label_width < 20 or template.label_height < 10:
        raise TemplateError("label_width" if template.label_width < 20 else "label_height",
                            "wall stickers need labels of at least 20 × 10 mm")
    blocks = [(pset, unit) for pset in sets for unit in set_units(pset)]
    sheets = plan_sheets(blocks, template.per_sheet, template.columns, seat_break)
    title = f"{sets[0].event_name} — {word('stickers', 'en')}" if sets else word("stickers", "en")
    canv, buf = new_canvas(template.page_points, title)
    forms = FormCache(canv)
    boxes = label_boxes(template)
    writer = _StickerWriter(canv, forms, sticker_layout(boxes[0][2], boxes[0][3]), lang)
    for n, sheet in enumerate(sheets, start=1):
        _sheet_heading(canv, template, sheet, n, len(sheets), lang)
        for (x, y, w, h), item in zip(boxes, sheet):
            if item is None:
                continue
            if cut_lines:
                canv.setStrokeColorRGB(0.75, 0.75, 0.75)
                canv.setLineWidth(0.3)
                canv.rect(x, y, w, h, stroke=1, fill=0)
            if isinstance(item, _Sticker):
                writer.draw(item, x, y)
            else:
                _draw_header(canv, forms, item, x, y, w, h, lang)
        canv.showPage()
    if not sheets:
        canv.showPage()
    return finish(canv, buf)


class _StickerWriter:
    """Draws stickers for one document: names, codes and sizes computed once per distinct value,
    page content written with :class:`~walls.printing.rawpdf.ContentWriter`."""

    def __init__(self, canv, forms: FormCache, lay: _Layout, lang: str):
        self.out = ContentWriter(canv)
        self.forms = forms
        self.lay = lay
        self.lang = lang
        self.fs = fonts()
        self._tiles: dict[str, tuple] = {}
        self._codes: dict[object, str] = {}

    def _tile(self, code: str) -> tuple:
        """(English name and size, local name, font and size or None) for tile ``code``."""
        cached = self._tiles.get(code)
        if cached is None:
            fs, lay = self.fs, self.lay
            en = tile_name(code, "en")
            (_, _, n1s, n1w), (_, _, n2s, n2w) = lay.names
            local = tile_name(code, self.lang) if self.lang != "en" else None
            cjk = fs.cjk(self.lang)
            cached = (en, fit_size(en, fs.latin, n1s, n1w),
                      (local, cjk, fit_size(local, cjk, n2s, n2w)) if local else None)
            self._tiles[code] = cached
        return cached

    def draw(self, item: _Sticker, x: float, y: float) -> None:
        p = item.placement
        fs, lay, out = self.fs, self.lay, self.out
        fx, fy, fh = lay.face
        ops = [self.forms.op(face_key(p.tile), FACE_W, FACE_H, lambda c, t=p.tile: draw_tile_face(c, t),
                             x + fx, y + fy, fh / FACE_H), "0 g"]
        bx, by, bw, bh = lay.seat_box
        if p.seat:
            ops.append(out.fill_rect(x + bx, y + by, bw, bh))
            ops.append("1 g")
            ops.append(out.text(fs.latin_bold, bh * 0.9, x + bx + bw / 2, y + by + bh * 0.14, p.seat, "centre"))
            ops.append("0 g")
            sx = x + lay.slot[0]
        else:
            sx = x + bx
        _, sb, ssize, swidth = lay.slot
        ops.append(out.text(fs.latin_bold, fit_size(p.label, fs.latin_bold, ssize, swidth), sx, y + sb, p.label))
        cx, cb, csize, cwidth, align = lay.code
        code = self._codes.get(item.pset.set_id)
        if code is None:
            code = self._codes[item.pset.set_id] = item.pset.set_id.code
        ops.append(out.text(fs.latin, fit_size(code, fs.latin, csize, cwidth), x + cx, y + cb, code, align))
        en, en_size, local = self._tile(p.tile)
        (n1x, n1b, _, _), (n2x, n2b, _, _) = lay.names
        ops.append(out.text(fs.latin, en_size, x + n1x, y + n1b, en))
        if local:
            ops.append(out.text(local[1], local[2], x + n2x, y + n2b, local[0]))
        if lay.qr:
            qx, qy, qs = lay.qr
            ops.append(self.forms.qr_op(item.pset.set_id.payload, x + qx, y + qy, qs, quiet=2))
        out.emit(ops)


def _draw_header(canv, forms: FormCache, item: _Header, x: float, y: float, w: float, h: float, lang: str) -> None:
    """The label opening a block: a black band with set code and seat, then event, session/set,
    the slot range and the set QR code."""
    fs = fonts()
    pset, unit = item.pset, item.unit
    pad = max(1.0 * mm, min(2.0 * mm, h * 0.06))
    band = h * 0.36
    canv.setFillColorRGB(0, 0, 0)
    canv.rect(x, y + h - band, w, band, stroke=0, fill=1)
    canv.setFillColorRGB(1, 1, 1)
    seat_text = unit.seat or word("shared", "en")
    band_size = min(band * 0.62, 16)
    code = pset.set_id.code
    code_size = fit_size(f"{code} {seat_text}", fs.latin_bold, band_size, w - 2 * pad)
    canv.setFont(fs.latin_bold, code_size)
    canv.drawString(x + pad, y + h - band + (band - code_size * 0.72) / 2, f"{code} {seat_text}")
    canv.setFillColorRGB(0, 0, 0)
    body_top = y + h - band - pad
    qr_size = min(h - band - 2 * pad, _QR_MAX * 1.4)
    text_w = w - 2 * pad
    qr = qr_size >= _QR_MIN and w - qr_size - 3 * pad >= 16 * mm
    if qr:
        text_w -= qr_size + pad
        forms.place_qr(pset.set_id.payload, x + w - pad - qr_size, y + pad, qr_size, quiet=2)
    count = len(unit.placements)
    ranges = [f"{ps[0].label}–{ps[-1].label}" if len(ps) > 1 else ps[0].label for _, ps in unit.piles]
    seat_line = seat_both(unit.seat, lang) if unit.seat else both("shared", lang)
    if item.continued:
        seat_line += f" ({word('cont', 'en')})"
    lines = [
        (seat_line, True),
        (pset.event_name, False),
        (f"{word('session', 'en')} {pset.set_id.session} · {word('set', 'en')} {pset.set_id.set_no}", False),
        (f"{count} {word('stickers_for', 'en')}: " + " ".join(ranges), False),
    ]
    avail = body_top - (y + pad)
    size = min(avail / (len(lines) * 1.22), 7.5)
    yy = body_top - size
    for text, bold in lines:
        if yy < y + pad * 0.5:
            break
        draw_fit(canv, text, x + pad, yy, text_w, size, lang=lang, bold=bold, min_size=3.5)
        yy -= size * 1.22


def _sheet_heading(canv, template: LabelTemplate, sheet: list, n: int, total: int, lang: str) -> None:
    """A strip in the top (else bottom) margin: event, sets and seats on the sheet, sheet n/N."""
    page_w, page_h = template.page_points
    if template.margin_top >= 5:
        band_mid = page_h - template.margin_top * mm / 2
    elif template.margin_bottom >= 5:
        band_mid = template.margin_bottom * mm / 2
    else:
        return
    heads: dict[str, list[str]] = {}
    event = ""
    for item in sheet:
        if isinstance(item, _Header):
            event = item.pset.event_name
            heads.setdefault(item.pset.set_id.code, []).append(item.unit.seat or word("shared", "en"))
    what = "; ".join(f"{word('set', 'en')} {code} {', '.join(seats)}" for code, seats in heads.items())
    text = f"{event} — {word('stickers', 'en')} — {what} — {word('sheet', 'en')} {n}/{total}"
    size = 7.0
    canv.setFillColorRGB(0, 0, 0)
    left = max(template.margin_left * mm, 6 * mm)
    draw_fit(canv, text, left, band_mid - size * 0.35, page_w - 2 * left, size, lang=lang, min_size=4)


__all__ = ["render_wall_stickers", "plan_sheets", "sticker_layout", "SEAT_BREAKS"]
