"""Tile faces drawn with simple vector primitives, for the set-up sheets and the pick list.

Each face imitates a real tile so staff match paper to tile at a glance: a kanji numeral over a
red 萬 for characters, pip circles for dots, sticks for bamboo, the kanji of winds, dragons and
flowers, a blue frame for the white dragon. A strip at the bottom repeats the short code
(``5p``, ``E``, ``Wh``, red for a red five; ``3s+`` in red on a pink face for a pink three or
seven) for readers who do not know the tiles.

Faces belong on the staff's documents only. Never on a wall sticker: a sticker sits on the back
of a tile, which every other player sees (walls/printing/stickers.py; the sticker renderer does
not even receive the tiles).

A face is drawn once per document in a :data:`FACE_W` × :data:`FACE_H` point box as a Form
XObject (:class:`walls.printing.qr.FormCache`, keyed by :func:`face_key`) and placed scaled
wherever it is needed, so a pick list of 64 sets costs one drawing per distinct tile.
"""

from __future__ import annotations

from typing import Any

from walls.printing.fonts import fonts
from walls.tiles import PINK_TILES, tile_glyph, tile_name

FACE_W = 30.0
FACE_H = 40.0
ASPECT = FACE_W / FACE_H

RED = (0.80, 0.10, 0.12)
GREEN = (0.05, 0.50, 0.22)
BLUE = (0.10, 0.25, 0.65)
BLACK = (0.08, 0.08, 0.10)
FRAME = (0.35, 0.35, 0.38)
IVORY = (1.0, 0.995, 0.965)
PINK = (0.98, 0.78, 0.86)
"""The face of a pink three or seven (docs/rules.md, "Shield tile: pink dora": the white of the
face is pink), so the set-up sheet shows which physical tile goes in the slot."""

# Pip centres in a unit square (y up) and the pip radius, per rank.
_DOTS = {
    1: ([(0.5, 0.5)], 0.40),
    2: ([(0.5, 0.76), (0.5, 0.24)], 0.21),
    3: ([(0.2, 0.82), (0.5, 0.5), (0.8, 0.18)], 0.17),
    4: ([(0.27, 0.75), (0.73, 0.75), (0.27, 0.25), (0.73, 0.25)], 0.2),
    5: ([(0.22, 0.8), (0.78, 0.8), (0.5, 0.5), (0.22, 0.2), (0.78, 0.2)], 0.17),
    6: ([(x, y) for y in (0.84, 0.5, 0.16) for x in (0.28, 0.72)], 0.15),
    7: ([(0.18, 0.9), (0.5, 0.78), (0.82, 0.66)] + [(x, y) for y in (0.38, 0.11) for x in (0.3, 0.7)], 0.12),
    8: ([(x, y) for y in (0.88, 0.63, 0.37, 0.12) for x in (0.28, 0.72)], 0.115),
    9: ([(x, y) for y in (0.83, 0.5, 0.17) for x in (0.18, 0.5, 0.82)], 0.14),
}
_DOT_COLOURS = {
    1: [GREEN],
    2: [GREEN, BLUE],
    3: [BLUE, RED, GREEN],
    4: [BLUE, GREEN, GREEN, BLUE],
    5: [BLUE, GREEN, RED, GREEN, BLUE],
    6: [GREEN, GREEN, RED, RED, RED, RED],
    7: [GREEN, GREEN, GREEN, RED, RED, RED, RED],
    8: [BLUE] * 8,
    9: [BLUE] * 3 + [RED] * 3 + [GREEN] * 3,
}
# Stick centres in a unit square, stick height, and which sticks are red.
_STICKS = {
    1: ([(0.5, 0.5)], 0.86, {0}),
    2: ([(0.5, 0.76), (0.5, 0.24)], 0.42, set()),
    3: ([(0.5, 0.76), (0.27, 0.24), (0.73, 0.24)], 0.42, set()),
    4: ([(0.27, 0.76), (0.73, 0.76), (0.27, 0.24), (0.73, 0.24)], 0.42, set()),
    5: ([(0.18, 0.76), (0.82, 0.76), (0.5, 0.5), (0.18, 0.24), (0.82, 0.24)], 0.42, {2}),
    6: ([(x, y) for y in (0.76, 0.24) for x in (0.18, 0.5, 0.82)], 0.42, set()),
    7: ([(0.5, 0.85)] + [(x, y) for y in (0.5, 0.16) for x in (0.18, 0.5, 0.82)], 0.29, {0}),
    8: ([(x, y) for y in (0.76, 0.24) for x in (0.13, 0.38, 0.62, 0.87)], 0.42, set()),
    9: ([(x, y) for y in (0.83, 0.5, 0.17) for x in (0.18, 0.5, 0.82)], 0.29, {1, 4, 7}),
}
_HONOUR_COLOURS = {1: BLACK, 2: BLACK, 3: BLACK, 4: BLACK, 6: GREEN, 7: RED}

# Inner picture area of the face and the code strip below it, in form units.
_PAD = 2.6
_STRIP = 8.0
_AREA = (_PAD + 0.6, _STRIP + 0.4, FACE_W - 2 * _PAD - 1.2, FACE_H - _STRIP - _PAD - 1.0)


def face_key(code: str) -> str:
    """The :class:`~walls.printing.qr.FormCache` key of the face of tile ``code``."""
    return "tile-" + code


def draw_tile_face(canv: Any, code: str) -> None:
    """Draw the face of tile ``code`` in the box (0, 0, FACE_W, FACE_H) of ``canv``."""
    fs = fonts()
    kind = code[1]
    rank = int(code[0])
    red = rank == 0
    pink = code in PINK_TILES
    rank = 5 if red else rank
    canv.setLineWidth(0.8)
    canv.setStrokeColorRGB(*FRAME)
    canv.setFillColorRGB(*(PINK if pink else IVORY))
    canv.roundRect(0.6, 0.6, FACE_W - 1.2, FACE_H - 1.2, 3.2, stroke=1, fill=1)
    x0, y0, aw, ah = _AREA
    if kind == "m":
        name = tile_name(code, "ja").lstrip("赤桃")
        numeral, suit = name[0], name[1]
        canv.setFillColorRGB(*(RED if red else BLACK))
        _centred_glyph(canv, numeral, fs.cjk_ja, x0 + aw / 2, y0 + ah * 0.56, aw * 0.80, ah * 0.42)
        canv.setFillColorRGB(*RED)
        _centred_glyph(canv, suit, fs.cjk_ja, x0 + aw / 2, y0 + ah * 0.04, aw * 0.86, ah * 0.46)
    elif kind == "p":
        centres, radius = _DOTS[rank]
        colours = [RED] * len(centres) if red else _DOT_COLOURS[rank]
        unit = min(aw, ah)
        ox, oy = x0 + (aw - unit) / 2, y0 + (ah - unit) / 2
        if rank in (6, 7, 8):  # tall layouts use the full height
            unit_y, oy = ah, y0
        else:
            unit_y = unit
        for (cx, cy), colour in zip(centres, colours):
            _pip(canv, ox + cx * unit, oy + cy * unit_y, radius * unit, colour)
    elif kind == "s":
        centres, height, reds = _STICKS[rank]
        stick_w = aw * (0.15 if rank == 8 else 0.2 if rank != 1 else 0.3)
        for i, (cx, cy) in enumerate(centres):
            colour = RED if (red or i in reds) else GREEN
            _stick(canv, x0 + cx * aw, y0 + cy * ah, stick_w, height * ah, colour)
    elif kind == "z":
        if rank == 5:
            canv.setStrokeColorRGB(*BLUE)
            canv.setLineWidth(1.6)
            canv.rect(x0 + aw * 0.12, y0 + ah * 0.1, aw * 0.76, ah * 0.8, stroke=1, fill=0)
            canv.setLineWidth(0.7)
            canv.rect(x0 + aw * 0.2, y0 + ah * 0.17, aw * 0.6, ah * 0.66, stroke=1, fill=0)
        else:
            canv.setFillColorRGB(*_HONOUR_COLOURS[rank])
            _centred_glyph(canv, tile_name(code, "ja"), fs.cjk_ja, x0 + aw / 2, y0 + ah * 0.18, aw, ah * 0.66)
    else:
        canv.setFillColorRGB(*(GREEN if rank <= 4 else BLUE))
        _centred_glyph(canv, tile_name(code, "ja"), fs.cjk_ja, x0 + aw / 2, y0 + ah * 0.18, aw, ah * 0.6)
        canv.setFillColorRGB(*RED)
        canv.setFont(fs.latin_bold, 7)
        canv.drawString(x0 + 0.5, y0 + ah - 6, str(rank))
    glyph = tile_glyph(code).rstrip("*")  # a pink tile keeps its "+" under the pink face
    canv.setFillColorRGB(*(RED if red or pink else BLACK))
    size = 6.5 if len(glyph) <= 2 else 6.0
    canv.setFont(fs.latin_bold, size)
    canv.drawCentredString(FACE_W / 2, 2.6, glyph)
    canv.setStrokeColorRGB(*FRAME)
    canv.setLineWidth(0.3)
    canv.line(_PAD + 1, _STRIP, FACE_W - _PAD - 1, _STRIP)


def _centred_glyph(canv: Any, text: str, font: str, cx: float, base_y: float, max_w: float, max_h: float) -> None:
    """One or two CJK characters centred on ``cx``, baseline at ``base_y``, fitting the box."""
    size = min(max_h / 0.88, max_w / max(1, len(text)))
    canv.setFont(font, size)
    canv.drawCentredString(cx, base_y + size * 0.06, text)


def _pip(canv: Any, cx: float, cy: float, r: float, colour: Any) -> None:
    canv.setFillColorRGB(*colour)
    canv.circle(cx, cy, r, stroke=0, fill=1)
    canv.setFillColorRGB(*IVORY)
    canv.circle(cx, cy, r * 0.62, stroke=0, fill=1)
    canv.setFillColorRGB(*colour)
    canv.circle(cx, cy, r * 0.3, stroke=0, fill=1)


def _stick(canv: Any, cx: float, cy: float, w: float, h: float, colour: Any) -> None:
    canv.setFillColorRGB(*colour)
    canv.roundRect(cx - w / 2, cy - h / 2, w, h, w * 0.35, stroke=0, fill=1)
    canv.setStrokeColorRGB(*IVORY)
    canv.setLineWidth(max(0.3, w * 0.12))
    canv.line(cx - w * 0.3, cy, cx + w * 0.3, cy)
    canv.line(cx, cy - h * 0.36, cx, cy + h * 0.36)


def place_tile_face(forms: Any, code: str, x: float, y: float, height: float) -> float:
    """Draw tile ``code`` with its bottom-left corner at ``(x, y)`` and the given height (points);
    return its width. ``forms`` is the document's :class:`~walls.printing.qr.FormCache`."""
    forms.place(face_key(code), FACE_W, FACE_H, lambda c: draw_tile_face(c, code), x, y, height / FACE_H)
    return height * ASPECT
