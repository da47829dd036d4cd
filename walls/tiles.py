"""Tile codes, their canonical order and their names in English, Japanese and Chinese.

Codes use the mpsz notation of the field (docs/architecture.md):

- suited tiles ``"1m"``..``"9m"`` (characters / 萬子), ``"1p"``..``"9p"`` (dots / 筒子),
  ``"1s"``..``"9s"`` (bamboo / 索子);
- red fives ``"0m"``, ``"0p"``, ``"0s"`` (a five printed red, counted as a five; riichi and
  Shiragiku three-player use them, docs/rules.md, "Shiragiku three-player: tile set and red fives");
- pink threes and sevens ``"3mp"``, ``"7mp"``, ``"3pp"``, ``"7pp"``, ``"3sp"``, ``"7sp"`` (the
  plain tile's code plus ``p`` for pink: a 3 or 7 whose face is pink and back red, one han of
  dora each; the shield-tile rules use them instead of red fives, docs/rules.md, "Shield tile:
  pink dora");
- honours ``"1z"``..``"7z"`` = East, South, West, North, White, Green, Red;
- flowers ``"1f"``..``"8f"`` = plum, orchid, chrysanthemum, bamboo, spring, summer, autumn,
  winter (MCR with flowers, 144 tiles).

Canonical order (:data:`ALL_TILES`, :func:`tile_sort_key`): characters, dots, bamboo, honours,
flowers; inside a suit by rank, the red five right after the plain five, a pink three or seven
right after the plain one. Rule sets list their
tiles in this order, so a rule set's multiset, and therefore its walls (docs/walls.md), do not
depend on how the tiles were typed in.

Standalone: no Django import (the messages of :func:`parse_counts`, which a director reads, are
translated through :mod:`tournament.i18n` when Django runs).
"""

from __future__ import annotations

from collections.abc import Sequence

from tournament.i18n import gettext as _

SUITS = ("m", "p", "s")
"""Suit letters of the numbered tiles, in canonical order."""

RED_FIVES = ("0m", "0p", "0s")
"""Red-five codes; each stands in for one plain five of its suit (``"0p"`` for a ``"5p"``)."""

PINK_TILES = ("3mp", "7mp", "3pp", "7pp", "3sp", "7sp")
"""Pink-dora codes (docs/rules.md, "Shield tile: pink dora"); each stands in for one plain three or
seven of its suit (``"3sp"`` for a ``"3s"``)."""

MARKED_TILES = RED_FIVES + PINK_TILES
"""Every code that stands in for a plain tile: red fives and pink threes and sevens."""


class TileError(ValueError):
    """A tile code or tile count that cannot be used; the message names the tile and the fix."""


def _suit_codes(suit: str) -> list[str]:
    codes = []
    for rank in range(1, 10):
        codes.append(f"{rank}{suit}")
        if rank == 5:
            codes.append(f"0{suit}")
        if rank in (3, 7):
            codes.append(f"{rank}{suit}p")
    return codes


ALL_TILES: tuple[str, ...] = (
    *(code for suit in SUITS for code in _suit_codes(suit)),
    *(f"{rank}z" for rank in range(1, 8)),
    *(f"{rank}f" for rank in range(1, 9)),
)
"""Every valid tile code (51 codes) in canonical order."""

_ORDER = {code: index for index, code in enumerate(ALL_TILES)}

_RANK_EN = ("One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine")
_RANK_CJK = "一二三四五六七八九"
_SUIT_EN = {"m": "Characters", "p": "Dots", "s": "Bamboo"}
_SUIT_JA = {"m": "萬", "p": "筒", "s": "索"}
_SUIT_ZH = {"m": "万", "p": "饼", "s": "条"}
_HONOUR_EN = ("East Wind", "South Wind", "West Wind", "North Wind", "White Dragon", "Green Dragon", "Red Dragon")
_HONOUR_JA = "東南西北白發中"
_HONOUR_ZH = "东南西北白发中"
_HONOUR_GLYPH = ("E", "S", "W", "N", "Wh", "Gr", "Rd")
_FLOWER_EN = ("Plum", "Orchid", "Chrysanthemum", "Bamboo (flower)", "Spring", "Summer", "Autumn", "Winter")
_FLOWER_JA = "梅蘭菊竹春夏秋冬"
_FLOWER_ZH = "梅兰菊竹春夏秋冬"
LANGUAGES = ("en", "ja", "zh")
"""Languages accepted by :func:`tile_name`."""


def is_valid_tile(code: object) -> bool:
    """True if ``code`` is one of the 51 tile codes of :data:`ALL_TILES` (exact, case-sensitive)."""
    return isinstance(code, str) and code in _ORDER


def _check(code: object) -> str:
    if not is_valid_tile(code):
        raise TileError(
            f"unknown tile code {code!r}: use mpsz codes 1m-9m, 1p-9p, 1s-9s, 0m/0p/0s (red fives), "
            f"3mp/7mp/3pp/7pp/3sp/7sp (pink threes and sevens), 1z-7z (East South West North White Green Red), 1f-8f (flowers)"
        )
    return code  # type: ignore[return-value]


def tile_sort_key(code: str) -> int:
    """Position of ``code`` in the canonical order (0 for ``"1m"``; ``"0m"`` sorts right after ``"5m"``).

    Raises TileError for an unknown code.
    """
    return _ORDER[_check(code)]


def plain_tile(code: str) -> str:
    """The plain tile a code stands for: ``"0p"`` -> ``"5p"``, ``"7sp"`` -> ``"7s"``; every other
    code is returned as is.

    Raises TileError for an unknown code.
    """
    _check(code)
    if code in PINK_TILES:
        return code[:2]
    return f"5{code[1]}" if code in RED_FIVES else code


def tile_name(code: str, lang: str = "en") -> str:
    """Full name of a tile in ``lang`` (``"en"``, ``"ja"`` or ``"zh"``; the site's ``"zh-hans"``
    is Chinese too).

    Examples: ``"0m"`` -> ``"Five of Characters (red)"`` / ``"赤五萬"`` / ``"红五万"``;
    ``"3sp"`` -> ``"Three of Bamboo (pink)"`` / ``"桃三索"`` / ``"粉三条"``;
    ``"1z"`` -> ``"East Wind"`` / ``"東"`` / ``"东"``; ``"1f"`` -> ``"Plum"`` / ``"梅"`` / ``"梅"``.
    Chinese suit names follow the MCR rule book (万 / 饼 / 条). Raises TileError for an unknown
    code or language.
    """
    _check(code)
    lang = "zh" if lang in ("zh-hans", "zh_Hans") else lang
    if lang not in LANGUAGES:
        raise TileError(f"unknown language {lang!r} for tile names: use one of {', '.join(LANGUAGES)}")
    pink = code in PINK_TILES
    number, kind = int(code[0]), code[1]
    if kind == "z":
        return {"en": _HONOUR_EN, "ja": _HONOUR_JA, "zh": _HONOUR_ZH}[lang][number - 1]
    if kind == "f":
        return {"en": _FLOWER_EN, "ja": _FLOWER_JA, "zh": _FLOWER_ZH}[lang][number - 1]
    red = number == 0
    rank = 5 if red else number
    if lang == "en":
        return f"{_RANK_EN[rank - 1]} of {_SUIT_EN[kind]}" + (" (red)" if red else " (pink)" if pink else "")
    if lang == "ja":
        return ("赤" if red else "桃" if pink else "") + _RANK_CJK[rank - 1] + _SUIT_JA[kind]
    return ("红" if red else "粉" if pink else "") + _RANK_CJK[rank - 1] + _SUIT_ZH[kind]


def tile_glyph(code: str) -> str:
    """Short ASCII label for set-up sheets and plain-text listings (at most 3 characters).

    Suited tiles keep their code (``"5m"``), a red five is its plain five with a star
    (``"0m"`` -> ``"5m*"``), a pink three or seven its plain tile with a plus (``"3sp"`` ->
    ``"3s+"``), honours are ``E S W N Wh Gr Rd``, flowers ``F1``..``F8``.
    Raises TileError for an unknown code.
    """
    _check(code)
    if code in PINK_TILES:
        return f"{code[:2]}+"
    number, kind = int(code[0]), code[1]
    if kind == "z":
        return _HONOUR_GLYPH[number - 1]
    if kind == "f":
        return f"F{number}"
    return f"5{kind}*" if number == 0 else code


def tile_label(code: str, lang: str = "en") -> str:
    """The short label of a tile on a page for a reader of ``lang`` (``"en"``, ``"ja"``, ``"zh"``
    or the site's ``"zh-hans"``): :func:`tile_glyph`, except that an honour reads as its one
    character on a Japanese or Chinese page (``"7z"`` -> ``"中"``, ``"5z"`` -> ``"白"`` / ``"白"``,
    ``"1z"`` -> ``"東"`` / ``"东"``), where ``Wh Gr Rd`` would be English. Raises TileError for an
    unknown code or language."""
    if code[1:2] == "z" and lang.split("-")[0].split("_")[0] in ("ja", "zh"):
        return tile_name(code, lang)
    return tile_glyph(code)


def expand(counts: Sequence[tuple[str, int]]) -> list[str]:
    """Expand ``[(code, count), ...]`` into a list of tiles in canonical order.

    ``expand([("1z", 2), ("1m", 1)])`` -> ``["1m", "1z", "1z"]``. Each code may appear once and
    each count must be a positive integer. Raises TileError naming the offending entry.
    """
    seen: set[str] = set()
    for entry in counts:
        if not (isinstance(entry, (tuple, list)) and len(entry) == 2):
            raise TileError(f"tile counts must be (code, count) pairs, got {entry!r}")
        code, count = entry
        _check(code)
        if code in seen:
            raise TileError(f"tile {code} is listed twice: give each tile code once with its total count")
        seen.add(code)
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise TileError(f"count of tile {code} must be a positive integer, got {count!r}")
    ordered = sorted(counts, key=lambda entry: _ORDER[entry[0]])
    return [code for code, count in ordered for _copy in range(count)]


def collapse(tiles: Sequence[str]) -> tuple[tuple[str, int], ...]:
    """Count a list of tiles into ``((code, count), ...)`` in canonical order; inverse of :func:`expand`.

    Raises TileError for an unknown code.
    """
    totals: dict[str, int] = {}
    for code in tiles:
        _check(code)
        totals[code] = totals.get(code, 0) + 1
    return tuple(sorted(totals.items(), key=lambda item: _ORDER[item[0]]))


def parse_counts(text: str) -> tuple[tuple[str, int], ...]:
    """Read a tile set typed by a director: items separated by commas or spaces, each
    ``code:count`` or a range of one suit ``from-to:count`` (``"1m-9m:4, 1z-7z:4, 0p:1"``).

    Returns ``(code, count)`` pairs in canonical order. Raises TileError naming the item that
    cannot be read (unknown code, a range across suits, a count that is not a whole number >= 1,
    a tile given twice).
    """
    counts: dict[str, int] = {}
    for item in text.replace(",", " ").split():
        code_part, _colon, count_part = item.partition(":")
        if not count_part.isdigit() or int(count_part) < 1:
            raise TileError(_("%(item)s: write code:count with a whole count of at least 1, e.g. 1m:4") % {"item": repr(item)})
        first, _dash, last = code_part.partition("-")
        codes = [first]
        if last:
            if not (is_valid_tile(first) and is_valid_tile(last)) or len(first) != 2 or len(last) != 2 or first[-1] != last[-1]:
                raise TileError(_("%(item)s: a range runs inside one suit, e.g. 1m-9m:4") % {"item": repr(item)})
            lo, hi = int(first[:-1]), int(last[:-1])
            if lo > hi or lo < 1:
                raise TileError(_("%(item)s: a range goes from low to high, e.g. 1p-9p:4") % {"item": repr(item)})
            codes = [f"{rank}{first[-1]}" for rank in range(lo, hi + 1)]
        for code in codes:
            if not is_valid_tile(code):
                raise TileError(_("%(item)s: %(code)s is not a tile code (1m-9m, 1p-9p, 1s-9s, 1z-7z, 0m/0p/0s red fives, "
                                  "3mp/7mp/3pp/7pp/3sp/7sp pink threes and sevens, 1f-8f flowers)")
                                % {"item": repr(item), "code": repr(code)})
            if code in counts:
                raise TileError(_("%(item)s: %(code)s is given twice") % {"item": repr(item), "code": code})
            counts[code] = int(count_part)
    if not counts:
        raise TileError(_("the tile set is empty: list tiles like 1m-9m:4, 1z-7z:4"))
    return tuple(sorted(counts.items(), key=lambda kv: tile_sort_key(kv[0])))
