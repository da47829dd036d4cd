"""Wall stickers: one sticker for the back of every tile of a wall set.

**A sticker never says which tile it is on.** Staff stick it on the tile's *back*, which every
other player sees during play (standing hands, draw piles): a face, a code such as ``5p``, a
name or a colour would let the table read every tile. As in docs/rules.md, "Duplicate MCR: building sets and wall stickers"
(牌ヤマシール: every tile marked as a seat's starting hand or draw pile, with its draw order, so
a set mixed in play can be rebuilt), a sticker carries only

- the **seat** (its letter, white on black) and the **slot** label in large type (``E`` ``H1``,
  ``S`` ``D21``; shared walls: ``L12``, ``X5`` without a seat box);
- the **set code** with its check digit (``1-07-3``) and the pile in words in the sheet's
  language (``Starting hand``, ``配牌``, ``摸牌墙``); the seat box keeps the seat's letter in every
  language (a lone 東 would also name the East Wind tile), the header labels and the sheet's
  heading name the seat in the sheet's language (``東家``);
- where the label leaves room for 9 mm, the set's **QR code**: the bare set payload of
  :attr:`walls.setcode.SetId.payload` (``DMJ1|event|session|set|check``), never a tile.

A reserve wall's stickers (docs/walls.md, "Reserve walls") carry its own set code
(``1-07R1-4``) and payload, and its header labels say "RESERVE WALL R1 for set 1-07".

The renderer cannot leak a tile by accident: it takes :class:`~walls.printing.data.StickerSet`
values, which hold no tile (:func:`~walls.printing.data.sticker_set` builds them from the rule
set; :func:`~walls.printing.data.sticker_set_of` from a PrintableSet, dropping its tiles). Which
tile goes in a slot is on the set-up sheet and pick list, the staff's documents.

Each seat's stickers form a *block* (one seat's starting hand and draw pile: 13 + 21 = 34 in MCR
duplicate; shared live and dead walls form a block of their own). A block opens with a *header
label* (set code, seat, event, slot range; staff stick it on the frame of that seat's rows) and
then one sticker per tile in slot order: ``H1``..``H13``, ``D1``..``D21`` (``L``/``X`` for shared
walls).

Blocks start on a new row of labels (``seat_break="row"``, the default: two MCR seats per 7×10
sheet, each exactly five rows) or on a new sheet (``seat_break="page"``); a block is not split
across sheets unless it is larger than a sheet, and a sheet that continues a block repeats its
header label. Every sheet with a top or bottom margin of 5 mm or more carries a heading strip
naming the event, the sets and seats on the sheet and the sheet number.

Speed: QR codes are Form XObjects drawn once per document; layout and text sizes are computed
once per document and the pile words once per kind (tests/perf/printing.py measures it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast
from dataclasses import dataclass
from functools import lru_cache

from reportlab.lib.units import mm

from walls.printing.base import draw_fit, finish, new_canvas
from walls.printing.data import (
    PrintableSet,
    StickerSet,
    StickerSlot,
    StickerUnit,
    sticker_set,
    sticker_set_of,
)
from walls.printing.fonts import fit_size, fonts, mixed_width, runs, text_width
from walls.printing.i18n import check_lang, numbered, reserve_heading, seat_name, word
from walls.printing.qr import STICKER_MASK, FormCache, sticker_ecc
from walls.printing.rawpdf import ContentWriter
from walls.printing.templates import (
    LabelTemplate,
    TemplateError,
    get_template,
    label_boxes,
)

SEAT_BREAKS = ("row", "page")
GRID_TEMPLATE = "a4-70"
"""The stock :func:`render_wall_stickers` uses when given none."""
_QR_MIN = 9 * mm
_QR_MAX = 12 * mm
_CAP = 0.718  # cap height of Helvetica-Bold, in em
_BOX_W = 0.9  # seat box width / height
_SLOT_CAP = 0.75  # slot label cap height / seat box height
_SEAT_SIZE = 0.8  # seat letter size / seat box height (a "W" still fits the box)
_KIND_WORD = {"hand": "hand", "draw": "draw", "live": "live", "dead": "dead"}
"""Pile kind -> key of its name in walls.printing.i18n."""


def word_key(slot: StickerSlot) -> str:
    """What a sticker says under its code: the pile kind (``"draw"``), or for a dead-wall slot
    with a role the role and its order (``"role_replacement 2"``, ``"role_indicator"``):
    :func:`slot_word` turns it into words."""
    if slot.role:
        numbered_role = slot.role in ("replacement", "kan_indicator")
        return f"role_{slot.role} {slot.order}" if numbered_role else f"role_{slot.role}"
    return slot.kind


def slot_word(key: str, lang: str) -> str:
    """The words of :func:`word_key` in ``lang``: ``"draw"`` → ``"Draw pile"``,
    ``"role_replacement 2"`` → ``"Replacement 2"``; an unknown key has none."""
    name, _, number = key.partition(" ")
    known = _KIND_WORD.get(name) or (name if name.startswith("role_") else None)
    if not known:
        return ""
    return f"{word(known, lang)} {number}".strip()


@dataclass(frozen=True)
class _Layout:
    """Positions inside one label, relative to its bottom-left corner (points).

    ``seat_box`` is the black box of the seat letter (x, y, w, h); the slot label starts at
    ``slot_x`` (``shared_x`` for a block without a seat) in ``slot_size`` points, vertically
    centred on the box; ``code`` and ``word`` are (x, baseline, size, width, align) of the set code
    and the pile word; ``qr`` is (x, y, size) or None when the label is too small for 9 mm.
    """

    pad: float
    seat_box: tuple[float, float, float, float]
    seat_size: float
    slot_x: float
    shared_x: float
    slot_size: float
    code: tuple[float, float, float, float, str]
    word: tuple[float, float, float, float, str]
    qr: tuple[float, float, float] | None

    @property
    def slot_baseline(self) -> float:
        _, by, _, bh = self.seat_box
        return by + (bh - _CAP * self.slot_size) / 2


def _text_rows(x: float, y: float, w: float, h: float) -> tuple[tuple[float, float, float, float, str], tuple[float, float, float, float, str]]:
    """Set code and pile word in the box (x, y, w, h): two centred lines when there is room, else
    one line with the word right-aligned."""
    if h >= 14:
        code_size = min(13.0, h * 0.5)
        word_size = min(7.0, max(4.0, h * 0.24))
        gap = code_size * 0.3
        block = code_size * _CAP + gap + word_size * 0.8
        code_base = y + (h + block) / 2 - code_size * _CAP
        word_base = code_base - gap - word_size * 0.8
        return (x, code_base, code_size, w, "left"), (x, word_base, word_size, w, "left")
    size = max(4.0, min(9.0, h * 0.9 / _CAP))
    base = y + (h - size * _CAP) / 2
    return (x, base, size, w * 0.5, "left"), (x + w, base, min(size, 6.5), w * 0.48, "right")


@lru_cache(maxsize=64)
def sticker_layout(w: float, h: float, widest: float = 1.834) -> _Layout:
    """Where everything goes on a ``w`` × ``h`` point sticker whose widest slot label is
    ``widest`` em wide in Helvetica-Bold (``"D21"``: 1.834).

    Two arrangements are tried and the one with the larger slot label wins (a QR code counts for
    15 %): *stacked* (seat and slot across the top, set code, pile word and QR code below) and
    *wide* (seat, slot and below them code and word on the left, QR code on the right over the
    full height) and, for a label taller than wide (a row strip's cell on a tile's back), *tall*
    (seat and slot across the top, code and word, the QR code across the bottom). Every slot
    label of the document gets the same size.
    """
    pad = max(1.0 * mm, min(2.0 * mm, h * 0.06))
    inner_w, inner_h = w - 2 * pad, h - 2 * pad
    gap = max(2.0, pad * 0.8)
    per_box = _BOX_W + widest * _SLOT_CAP / _CAP  # row width per point of box height

    def stacked() -> _Layout:
        box_h = min(inner_h * 0.5, (inner_w - gap) / per_box)
        top = h - pad
        seat_box = (pad, top - box_h, box_h * _BOX_W, box_h)
        bottom_h = inner_h - box_h - gap
        qr = None
        text_w = inner_w
        qr_size = min(_QR_MAX, bottom_h)
        if qr_size >= _QR_MIN * 0.95 and inner_w - qr_size - gap >= 12 * mm:
            qr = (w - pad - qr_size, pad + (bottom_h - qr_size) / 2, qr_size)
            text_w -= qr_size + gap
        code, word_ = _text_rows(pad, pad, text_w, bottom_h)
        return _Layout(pad, seat_box, box_h * _SEAT_SIZE, pad + box_h * _BOX_W + gap, pad,
                       box_h * _SLOT_CAP / _CAP, code, word_, qr)

    def wide() -> _Layout:
        qr = None
        left_w = inner_w
        qr_size = min(_QR_MAX, inner_h)
        if qr_size >= _QR_MIN and inner_w - qr_size - gap >= 20 * mm:
            qr = (w - pad - qr_size, (h - qr_size) / 2, qr_size)
            left_w -= qr_size + gap
        box_h = min(inner_h * 0.62, (left_w - gap) / per_box)
        top = h - pad
        seat_box = (pad, top - box_h, box_h * _BOX_W, box_h)
        code, word_ = _text_rows(pad, pad, left_w, inner_h - box_h - gap * 0.7)
        return _Layout(pad, seat_box, box_h * _SEAT_SIZE, pad + box_h * _BOX_W + gap, pad,
                       box_h * _SLOT_CAP / _CAP, code, word_, qr)

    def tall() -> _Layout:
        box_h = min(inner_h * 0.22, (inner_w - gap) / per_box)
        seat_box = (pad, h - pad - box_h, box_h * _BOX_W, box_h)
        rest = inner_h - box_h - gap
        qr = None
        qr_size = min(_QR_MAX, inner_w, rest - 4.5 * mm - gap)
        text_h = rest
        if qr_size >= _QR_MIN * 0.95:
            qr = ((w - qr_size) / 2, pad, qr_size)
            text_h = rest - qr_size - gap
        code, word_ = _text_rows(pad, pad + (qr_size + gap if qr else 0), inner_w, text_h)
        return _Layout(pad, seat_box, box_h * _SEAT_SIZE, pad + box_h * _BOX_W + gap, pad,
                       box_h * _SLOT_CAP / _CAP, code, word_, qr)

    candidates = [stacked(), wide()] + ([tall()] if h >= 0.8 * w else [])
    return max(candidates, key=lambda lay: lay.slot_size * (1.15 if lay.qr else 1.0))


@dataclass(frozen=True)
class _Header:
    sset: StickerSet
    unit: StickerUnit
    continued: bool


@dataclass(frozen=True)
class _Sticker:
    sset: StickerSet
    slot: StickerSlot


def plan_sheets(blocks: Sequence[tuple[StickerSet, StickerUnit]], per_sheet: int, columns: int,
                seat_break: str = "row") -> list[list[object]]:
    """Assign header labels and stickers to label positions: a list of sheets, each a list of
    ``per_sheet`` cells holding a header, a sticker or None (left blank)."""
    if seat_break not in SEAT_BREAKS:
        raise ValueError(f"seat_break: use one of {', '.join(SEAT_BREAKS)}, got {seat_break!r}")
    if per_sheet < 2:
        raise TemplateError("rows", "wall stickers need at least 2 labels per sheet (a header and a sticker)")
    sheets: list[list[object]] = []
    sheet: list[object] = []

    def new_sheet() -> None:
        nonlocal sheet
        if sheet:
            sheets.append(sheet + [None] * (per_sheet - len(sheet)))
        sheet = []

    for sset, unit in blocks:
        stickers = unit.slots
        need = 1 + len(stickers)
        if seat_break == "page":
            new_sheet()
        else:
            if len(sheet) % columns:
                sheet.extend([None] * (columns - len(sheet) % columns))
            if len(sheet) >= per_sheet or (need <= per_sheet and len(sheet) + need > per_sheet):
                new_sheet()
        sheet.append(_Header(sset, unit, False))
        for slot in stickers:
            if len(sheet) >= per_sheet:
                new_sheet()
                sheet.append(_Header(sset, unit, True))
            sheet.append(_Sticker(sset, slot))
    new_sheet()
    return sheets


def render_wall_stickers(sets: Sequence[StickerSet], template: LabelTemplate | str | None = None,
                         lang: str = "en", *, seat_break: str = "row") -> bytes:
    """PDF of the wall stickers of ``sets`` on ``template`` label stock, one per label (a
    LabelTemplate or a preset name; default :data:`GRID_TEMPLATE`; a full-sheet stock of row
    strips is :func:`walls.printing.strips.render_sticker_strips`'s).

    ``sets`` are :class:`~walls.printing.data.StickerSet` values: set, seats and slots, no tile
    (build them with :func:`~walls.printing.data.sticker_set` or
    :func:`~walls.printing.data.sticker_set_of`). ``lang`` (``en``, ``ja``, ``zh``) picks the
    pile word on each sticker and the seat words of the header labels; ``seat_break`` is
    ``"row"`` or ``"page"`` (see the module doc). Raises TypeError for a value holding tiles (a
    PrintableSet), TemplateError for labels smaller than 20 × 10 mm, ValueError for an unknown
    language.
    """
    lang = check_lang(lang)
    for sset in sets:
        if not isinstance(sset, StickerSet):
            kind = "PrintableSet" if isinstance(sset, PrintableSet) else type(sset).__name__
            raise TypeError(f"render_wall_stickers takes StickerSet values, got a {kind}: pass "
                            "sticker_set_of(pset) (walls.printing.data), which drops the tiles — "
                            "a sticker on the back of a tile must never name it")
    if template is None:
        template = GRID_TEMPLATE
    if isinstance(template, str):
        template = get_template(template)
    if template.strips:
        raise TemplateError("template", f"label stock {template.name} is a full sheet for row strips: render them with "
                                        "walls.printing.strips.render_sticker_strips, or choose a stock of labels")
    if template.label_width < 20 or template.label_height < 10:
        raise TemplateError("label_width" if template.label_width < 20 else "label_height",
                            "wall stickers need labels of at least 20 × 10 mm")
    fs = fonts()
    blocks = [(sset, unit) for sset in sets for unit in sset.units]
    sheets = plan_sheets(blocks, template.per_sheet, template.columns, seat_break)
    title = f"{sets[0].event_name} — {word('stickers', lang)}" if sets else word("stickers", lang)
    canv, buf = new_canvas(template.page_points, title)
    forms = FormCache(canv)
    boxes = label_boxes(template)
    labels = {s.label for _, unit in blocks for s in unit.slots} or {"D21"}
    widest = max(text_width(label, fs.latin_bold, 1.0) for label in labels)
    writer = _StickerWriter(canv, forms, sticker_layout(boxes[0][2], boxes[0][3], round(widest, 4)), lang)
    for n, sheet in enumerate(sheets, start=1):
        _sheet_heading(canv, template, sheet, n, len(sheets), lang)
        for (x, y, w, h), item in zip(boxes, sheet):
            if item is None:
                continue
            if isinstance(item, _Sticker):
                writer.draw(item, x, y)
            else:
                _draw_header(canv, forms, cast(_Header, item), x, y, w, h, lang)
        canv.showPage()
    if not sheets:
        canv.showPage()
    return finish(canv, buf)


class _StickerWriter:
    """Draws stickers for one document: the seat box and letter, the slot label, the set code, the
    pile word and the set's QR code. Sizes and encoded strings are computed once per distinct
    value; page content is written with :class:`~walls.printing.rawpdf.ContentWriter`."""

    def __init__(self, canv: Any, forms: FormCache, lay: _Layout, lang: str) -> None:
        self.out = ContentWriter(canv)
        self.forms = forms
        self.lay = lay
        self.lang = lang
        self.fs = fonts()
        self._codes: dict[object, tuple[str, float]] = {}
        self._words: dict[str, tuple[tuple[str, float, str, float], ...]] = {}

    def _code(self, sset: StickerSet) -> tuple[str, float]:
        cached = self._codes.get(sset.set_id)
        if cached is None:
            code = sset.set_id.code
            _, _, size, width, _ = self.lay.code
            cached = self._codes[sset.set_id] = (code, fit_size(code, self.fs.latin_bold, size, width))
        return cached

    def _word(self, text: str) -> tuple[tuple[str, float, str, float], ...]:
        """The word ``text`` in the sheet's language as (font, x offset, run, size) pieces: Latin
        and CJK runs in their fonts, shrunk to the layout's width, offsets shifted for its
        alignment."""
        cached = self._words.get(text)
        if cached is None:
            _, _, size, width, align = self.lay.word
            pieces = runs(text, self.lang) if text else ()
            total = sum(text_width(run, font, size) for run, font in pieces)
            if total > width > 0:
                size = max(3.0, size * width / total)
                total = sum(text_width(run, font, size) for run, font in pieces)
            dx = -total if align == "right" else 0.0
            out = []
            for run, font in pieces:
                out.append((font, dx, run, size))
                dx += text_width(run, font, size)
            cached = self._words[text] = tuple(out)
        return cached

    def draw(self, item: _Sticker, x: float, y: float, word: str | None = None) -> None:
        """Draw the sticker of ``item`` with its bottom-left corner at ``(x, y)``; its word is
        ``word`` when given (a strip's row word), else its pile word or role (:func:`slot_word`)."""
        s = item.slot
        fs, lay, out = self.fs, self.lay, self.out
        ops = ["0 g"]
        bx, by, bw, bh = lay.seat_box
        if s.seat:
            ops.append(out.fill_rect(x + bx, y + by, bw, bh))
            ops.append("1 g")
            ops.append(out.text(fs.latin_bold, lay.seat_size, x + bx + bw / 2, y + by + (bh - lay.seat_size * _CAP) / 2,
                                s.seat, "centre"))
            ops.append("0 g")
            sx = x + lay.slot_x
        else:
            sx = x + lay.shared_x
        ops.append(out.text(fs.latin_bold, lay.slot_size, sx, y + lay.slot_baseline, s.label))
        code, code_size = self._code(item.sset)
        cx, cb, _, _, _ = lay.code
        ops.append(out.text(fs.latin_bold, code_size, x + cx, y + cb, code))
        wx, wb, _, _, _ = lay.word
        for font, dx, run, size in self._word(slot_word(word_key(s), self.lang) if word is None else word):
            ops.append(out.text(font, size, x + wx + dx, y + wb, run))
        if lay.qr:
            qx, qy, qs = lay.qr
            payload = item.sset.slot_payload(s)
            ops.append(self.forms.qr_op(payload, x + qx, y + qy, qs, quiet=2, ecc=sticker_ecc(payload),
                                        mask=STICKER_MASK))
        out.emit(ops)


def _draw_header(canv: Any, forms: FormCache, item: _Header, x: float, y: float, w: float, h: float, lang: str) -> None:
    """The label opening a block: a black band with set code and seat, then event, session/set,
    the slot range and the set QR code."""
    sset, unit = item.sset, item.unit
    pad = max(1.0 * mm, min(2.0 * mm, h * 0.06))
    band = h * 0.36
    canv.setFillColorRGB(0, 0, 0)
    canv.rect(x, y + h - band, w, band, stroke=0, fill=1)
    canv.setFillColorRGB(1, 1, 1)
    seat_text = unit.seat or word("shared", lang)
    band_size = min(band * 0.62, 16)
    code = sset.set_id.code
    band_text = f"{code} {seat_text}"
    full = mixed_width(band_text, band_size, lang, True)
    code_size = max(3.0, band_size * (w - 2 * pad) / full) if full > w - 2 * pad else band_size
    draw_fit(canv, band_text, x + pad, y + h - band + (band - code_size * 0.72) / 2, w - 2 * pad, code_size,
             lang=lang, bold=True, min_size=3.0)
    canv.setFillColorRGB(0, 0, 0)
    body_top = y + h - band - pad
    qr_size = min(h - band - 2 * pad, _QR_MAX * 1.4)
    text_w = w - 2 * pad
    qr = qr_size >= _QR_MIN and w - qr_size - 3 * pad >= 16 * mm
    if qr:
        text_w -= qr_size + pad
        forms.place_qr(sset.payload, x + w - pad - qr_size, y + pad, qr_size, quiet=2)
    count = len(unit.slots)
    ranges = [f"{ps[0].label}–{ps[-1].label}" if len(ps) > 1 else ps[0].label for _, ps in unit.piles]
    seat_line = seat_name(unit.seat, lang) if unit.seat else word("shared", lang)
    if item.continued:
        seat_line += f" ({word('cont', lang)})"
    lines = [
        (seat_line, True),
        (sset.event_name, False),
        (f"{numbered('session', sset.set_id.session, lang)} · {numbered('set', sset.set_id.set_no, lang)}", False),
        (f"{count} {word('stickers_for', lang)}: " + " ".join(ranges), False),
    ]
    if sset.set_id.reserve:
        lines.insert(1, (reserve_heading(sset.set_id.reserve_label, sset.set_id.set_code, lang), True))
    avail = body_top - (y + pad)
    size = min(avail / (len(lines) * 1.22), 7.5)
    yy = body_top - size
    for text, bold in lines:
        if yy < y + pad * 0.5:
            break
        draw_fit(canv, text, x + pad, yy, text_w, size, lang=lang, bold=bold, min_size=3.5)
        yy -= size * 1.22


def _sheet_heading(canv: Any, template: LabelTemplate, sheet: list[Any], n: int, total: int, lang: str) -> None:
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
            event = item.sset.event_name
            heads.setdefault(item.sset.set_id.code, []).append(
                seat_name(item.unit.seat, lang) if item.unit.seat else word("shared", lang))
    what = "; ".join(f"{numbered('set', code, lang)} {', '.join(seats)}" for code, seats in heads.items())
    text = f"{event} — {word('stickers', lang)} — {what} — {numbered('sheet', f'{n}/{total}', lang)}"
    size = 7.0
    canv.setFillColorRGB(0, 0, 0)
    left = max(template.margin_left * mm, 6 * mm)
    draw_fit(canv, text, left, band_mid - size * 0.35, page_w - 2 * left, size, lang=lang, min_size=4)


__all__ = ["render_wall_stickers", "plan_sheets", "sticker_layout", "SEAT_BREAKS", "StickerSet",
           "sticker_set", "sticker_set_of"]
