"""The size of an event's tiles, and whether a sticker stock fits their backs.

A wall sticker goes on the back of a tile lying face down in a row, so it must fit that back with
a margin, and a row strip (:mod:`walls.printing.strips`) repeats at the tile's width, the *pitch*
of a row of tiles laid side by side. :class:`TileSize` is the back's width (across the row) and
height (the tile's long side), in millimetres.

Presets (:data:`TILE_SIZES`): competition tiles of the World Mahjong Organization standard (2011:
32 to 42 mm tall, about 24 to 30 mm wide; the common sizes 34 × 25, 36 × 26 and 38 × 28 mm)
and Japanese riichi tiles (about 26 × 19 mm, larger sets 28 × 21 mm). Any other size is typed as
``W x H`` (:func:`parse_tile_size`).

:func:`check_stock` refuses a label stock whose labels would overhang the back: larger than the
back less :data:`BACK_MARGIN` on every side.

Standalone: no Django import (messages are translated through :mod:`tournament.i18n`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tournament.i18n import gettext as _
from tournament.i18n import gettext_noop
from walls.printing.templates import LabelTemplate, TemplateError

BACK_MARGIN = 1.0
"""Millimetres left free on every side of a tile's back: a sticker never reaches the edge, where
it would peel when tiles are shuffled or pushed together."""

MIN_SIDE, MAX_SIDE = 16.0, 60.0
"""The range a typed tile side must be in, millimetres."""


@dataclass(frozen=True)
class TileSize:
    """A tile's back: ``width`` across a row of tiles (the row's pitch) and ``height`` along the
    tile's long side, in millimetres; ``code`` is the preset's code or ``"WxH"`` for a typed size;
    ``title`` what a choice list shows (a msgid for presets)."""

    code: str
    width: float
    height: float
    title: str = ""

    @property
    def sticker_area(self) -> tuple[float, float]:
        """The largest sticker (width, height) in mm that fits the back with its margin."""
        return self.width - 2 * BACK_MARGIN, self.height - 2 * BACK_MARGIN

    @property
    def text(self) -> str:
        """``"25 × 34 mm"``: width × height as printed and shown."""
        return f"{_num(self.width)} × {_num(self.height)} mm"


def _num(value: float) -> str:
    return f"{value:g}"


TILE_SIZES: dict[str, TileSize] = {
    t.code: t
    for t in (
        TileSize("wmo-25x34", 25, 34, gettext_noop("Competition tiles 25 × 34 mm (World Mahjong Organization range)")),
        TileSize("wmo-26x36", 26, 36, gettext_noop("Competition tiles 26 × 36 mm (World Mahjong Organization range)")),
        TileSize("wmo-28x38", 28, 38, gettext_noop("Competition tiles 28 × 38 mm (World Mahjong Organization range)")),
        TileSize("riichi-19x26", 19, 26, gettext_noop("Riichi tiles 19 × 26 mm")),
        TileSize("riichi-21x28", 21, 28, gettext_noop("Riichi tiles 21 × 28 mm")),
    )
}
"""The tile-size presets by code, width × height of the back in mm."""

DEFAULT_TILE_SIZE = "wmo-25x34"
"""The size assumed until the director chooses one: the smallest common competition tile."""

RIICHI_TILE_SIZE = "riichi-19x26"
"""The default of an event whose rule set is played with Japanese tiles (:func:`default_tile_size`)."""

_JAPANESE_PAYMENTS = {"riichi", "souzu-2p", "souzu-2p-honba-whole", "shiragiku-3p", "shield-tile"}

_TYPED = re.compile(r"^\s*(\d+(?:[.,]\d+)?)\s*(?:x|×|\*)\s*(\d+(?:[.,]\d+)?)\s*(?:mm)?\s*$", re.IGNORECASE)


def default_tile_size(ruleset: object) -> str:
    """The preset code for an event that chose none: riichi tiles for the rule sets played with
    Japanese tiles (riichi, Souzu, Shiragiku, shield tile), else the competition preset."""
    return RIICHI_TILE_SIZE if getattr(ruleset, "payment_rule", "") in _JAPANESE_PAYMENTS else DEFAULT_TILE_SIZE


def parse_tile_size(value: str, field: str = "tile_size") -> TileSize:
    """A preset code of :data:`TILE_SIZES` or a typed ``"W x H"`` in mm (``"24.5 x 33"``,
    ``"24,5×33 mm"``) as a :class:`TileSize`. Raises TemplateError naming ``field`` with the fix
    for anything else, or a side outside 12-60 mm."""
    text = str(value or "").strip()
    if text in TILE_SIZES:
        return TILE_SIZES[text]
    match = _TYPED.match(text)
    if not match:
        raise TemplateError(field, _("choose a tile size, or type the back of a tile as width × height in mm, "
                                     "e.g. 25 x 34 (got %(value)s)") % {"value": repr(text)})
    width, height = (float(g.replace(",", ".")) for g in match.groups())
    for side in (width, height):
        if not MIN_SIDE <= side <= MAX_SIDE:
            raise TemplateError(field, _("a tile's side is %(min)s to %(max)s mm; measure the back of one tile: "
                                         "width across the row × height (got %(value)s)")
                                % {"min": _num(MIN_SIDE), "max": _num(MAX_SIDE), "value": repr(text)})
    return TileSize(f"{_num(width)}x{_num(height)}", width, height)


def event_tile(value: str, ruleset: object, *, lenient: bool = False) -> TileSize:
    """The tile of an event whose ``tile_size`` setting is ``value`` ("" : the rule set's usual
    tiles, :func:`default_tile_size`). Raises TemplateError (``tile_size``) for a stored value
    that cannot be read; with ``lenient`` the rule set's usual tiles instead (a page that only
    shows the size)."""
    try:
        return parse_tile_size(value or default_tile_size(ruleset))
    except TemplateError:
        if not lenient:
            raise
        return parse_tile_size(default_tile_size(ruleset))


def stock_problem(stock: LabelTemplate, tile: TileSize) -> str:
    """Why labels of ``stock`` do not fit the back of ``tile`` (the message names the stock, the
    tile and the fix), or ``""`` when they fit. A label may be turned: the check passes when it
    fits either way round."""
    area_w, area_h = tile.sticker_area
    w, h = stock.label_width, stock.label_height
    if stock.strips:  # row strips are cut to the tile's back
        return ""
    if (w <= area_w + 0.05 and h <= area_h + 0.05) or (h <= area_w + 0.05 and w <= area_h + 0.05):
        return ""
    return _(
        "label stock %(stock)s has labels of %(label)s, larger than the back of the event's tiles (%(tile)s, "
        "%(area)s for a sticker with %(margin)s mm free on every side): choose the row strips or a stock with "
        "smaller labels, or set the tile size in the event's settings if the tiles are bigger"
    ) % {"stock": stock.name, "label": f"{_num(w)} × {_num(h)} mm", "tile": tile.text,
         "area": f"{_num(area_w)} × {_num(area_h)} mm", "margin": _num(BACK_MARGIN)}


def check_stock(stock: LabelTemplate, tile: TileSize, field: str = "template") -> None:
    """Raise TemplateError naming ``field`` when labels of ``stock`` overhang the back of
    ``tile`` (:func:`stock_problem`)."""
    problem = stock_problem(stock, tile)
    if problem:
        raise TemplateError(field, problem)
