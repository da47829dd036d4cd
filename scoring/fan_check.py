"""Optional MCR fan check: the winning hand as typed at the table → its fan, counted by PyMahjongGB.

We do not count fan ourselves: PyMahjongGB (``pip install PyMahjongGB``, import name
``MahjongGB``; the Chinese Official rules' fan calculator of the Botzone platform) does. This
module only reads the hand notation below and converts it to the library's input.

Hand notation (``"123456789m 11z 22z +1z"``): space-separated tokens, tiles in the project's
codes (:mod:`walls.tiles`: ``m`` characters, ``p`` dots, ``s`` bamboo, ``z`` honours 1-7 =
East South West North White Green Red; ``0`` is a red five and counts as a five).

- ``123m`` ``55z`` ...: the concealed (standing) tiles held before the winning tile, several
  digits before one suit letter.
- ``chi:123s``, ``pung:5z`` (or ``pung:555z``), ``kong:7p``, ``ckong:1m``: a declared chow, pung,
  exposed kong or concealed kong.
- ``+1z``: the winning tile (exactly one).
- ``flowers:2``: flowers set aside (MCR with flowers).
- ``last``: won on the last tile of the wall; ``kong``: won on a kong's replacement tile or by
  robbing a kong; ``fourth``: the winning tile is the last of its kind.

The concealed tiles and the melds (a kong counts as 3) make 13 tiles. Whether the win was a
self-draw comes from the outcome, the seat wind from the winner's seat and the prevalent wind
from the set's wind round (docs/rules.md, "Duplicate MCR: sessions and seats": a session is East, South, West and North rounds).

Standalone: no Django import (messages are translated through :mod:`tournament.i18n` when Django
runs).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from tournament.i18n import gettext as _

WINDS = ("E", "S", "W", "N")
MELD_KINDS = ("chi", "pung", "kong", "ckong")
_SUIT_LETTER = {"m": "W", "p": "B", "s": "T"}  # PyMahjongGB: W wan, B bing, T tiao
_HONOUR = {1: "F1", 2: "F2", 3: "F3", 4: "F4", 5: "J3", 6: "J2", 7: "J1"}  # F winds; J1 Red, J2 Green, J3 White
_TILES = re.compile(r"^([0-9]+)([mpsz])$")


class HandNotationError(ValueError):
    """A hand that cannot be read or is not a complete winning hand; the message says which token
    or tile is wrong and how to write it."""


class FanCheckUnavailable(RuntimeError):
    """PyMahjongGB is not installed, so no fan can be counted."""


@dataclass(frozen=True)
class WinningHand:
    """A winning hand read from the notation. ``standing``: concealed tile codes before the win;
    ``melds``: ``(kind, tile)`` with kind one of :data:`MELD_KINDS` and, for a chow, its middle
    tile; ``winning_tile``; ``flowers``; the three special-win options."""

    standing: tuple[str, ...]
    melds: tuple[tuple[str, str], ...]
    winning_tile: str
    flowers: int = 0
    last_tile_of_wall: bool = False
    about_kong: bool = False
    fourth_tile: bool = False


@dataclass(frozen=True)
class FanCount:
    """The counted fan: ``total`` (flowers included) and ``fans``, ``(English name, fan)`` per
    fan pattern, a pattern counted twice giving twice its fan."""

    total: int
    fans: tuple[tuple[str, int], ...]

    def describe(self) -> str:
        """``"Pure Straight 16, Half Flush 6"``."""
        return ", ".join(f"{name} {fan}" for name, fan in self.fans)


def available() -> bool:
    """Whether PyMahjongGB can be imported."""
    try:
        import MahjongGB  # noqa: F401
    except ImportError:
        return False
    return True


def _tiles(group: str, token: str) -> list[str]:
    match = _TILES.match(group)
    if not match:
        raise HandNotationError(_("cannot read %(token)s: write tiles as digits and one suit letter, e.g. 123m, 55z or +1z")
                                % {"token": repr(token)})
    digits, suit = match.groups()
    tiles = []
    for digit in digits:
        number = 5 if digit == "0" and suit != "z" else int(digit)
        if suit == "z" and not 1 <= number <= 7:
            raise HandNotationError(_("%(digit)sz in %(token)s is not an honour: honours are 1z to 7z (East to Red)")
                                    % {"digit": digit, "token": repr(token)})
        tiles.append(f"{number}{suit}")
    return tiles


def _meld(kind: str, group: str, token: str) -> tuple[str, str, list[str]]:
    tiles = _tiles(group, token)
    if kind == "chi":
        numbers = sorted(int(t[0]) for t in tiles)
        suit = tiles[0][1]
        if len(tiles) != 3 or suit == "z" or numbers != [numbers[0], numbers[0] + 1, numbers[0] + 2]:
            raise HandNotationError(_("%(token)s is not a chow: give three consecutive tiles of one suit, e.g. chi:234s")
                                    % {"token": repr(token)})
        return kind, f"{numbers[1]}{suit}", [f"{n}{suit}" for n in numbers]
    size = 4 if kind in ("kong", "ckong") else 3
    if len(set(tiles)) != 1 or len(tiles) not in (1, size):
        raise HandNotationError(_("%(token)s: a %(kind)s is one tile, written once or %(size)s times, e.g. %(kind)s:5z")
                                % {"token": repr(token), "kind": kind, "size": size})
    return kind, tiles[0], tiles * (size if len(tiles) == 1 else 1)


def parse_hand(text: str) -> WinningHand:
    """Read the notation of the module docstring. Raises HandNotationError naming the token:
    unreadable tiles, an unknown meld kind, no or several winning tiles, more than four of a
    tile, or concealed tiles and melds that do not make 13 tiles."""
    standing: list[str] = []
    melds: list[tuple[str, str]] = []
    used: list[str] = []
    winning: list[str] = []
    flowers, last, kong, fourth = 0, False, False, False
    for token in text.split():
        lowered = token.lower()
        if lowered == "last":
            last = True
        elif lowered == "kong":
            kong = True
        elif lowered == "fourth":
            fourth = True
        elif lowered.startswith("flowers:"):
            count = lowered.split(":", 1)[1]
            if not count.isdigit() or int(count) > 8:
                raise HandNotationError(_("%(token)s: give the number of flowers, 0 to 8, e.g. flowers:2") % {"token": repr(token)})
            flowers = int(count)
        elif lowered.startswith("+"):
            winning.extend(_tiles(lowered[1:], token))
        elif ":" in lowered:
            kind, group = lowered.split(":", 1)
            if kind not in MELD_KINDS:
                raise HandNotationError(_("%(token)s: a meld is %(kinds)s followed by its tiles")
                                        % {"token": repr(token), "kinds": ", ".join(k + ":" for k in MELD_KINDS)})
            kind, tile, tiles = _meld(kind, group, token)
            melds.append((kind, tile))
            used.extend(tiles)
        else:
            standing.extend(_tiles(lowered, token))
    if len(winning) != 1:
        raise HandNotationError(_("mark the winning tile, and only that one, with + (e.g. +1z)"))
    held = len(standing) + 3 * len(melds)
    if held != 13:
        raise HandNotationError(_("the concealed tiles and melds make %(held)s tiles before the winning tile; "
                                  "a hand has 13 (count a kong as 3)") % {"held": held})
    for tile, times in Counter(standing + used + winning).items():
        if times > 4:
            raise HandNotationError(_("%(tile)s appears %(count)s times; a set has four of each tile") % {"tile": tile, "count": times})
    return WinningHand(tuple(standing), tuple(melds), winning[0], flowers, last, kong, fourth)


def _library_tile(code: str) -> str:
    number, suit = int(code[0]), code[1]
    return _HONOUR[number] if suit == "z" else f"{_SUIT_LETTER[suit]}{number}"


def count_fan(hand: WinningHand, *, seat_wind: str, prevalent_wind: str, self_drawn: bool) -> FanCount:
    """Count the fan of ``hand`` with PyMahjongGB for a winner sitting at ``seat_wind`` in the
    ``prevalent_wind`` round (wind letters). Raises FanCheckUnavailable without the library and
    HandNotationError when the tiles do not form a winning hand."""
    try:
        from MahjongGB import MahjongFanCalculator
    except ImportError as exc:
        raise FanCheckUnavailable("PyMahjongGB is not installed: pip install PyMahjongGB") from exc
    packs = tuple(
        ("CHI" if kind == "chi" else "PENG" if kind == "pung" else "GANG", _library_tile(tile), 0 if kind == "ckong" else 1)
        for kind, tile in hand.melds
    )
    try:
        counted = MahjongFanCalculator(
            packs, tuple(_library_tile(t) for t in hand.standing), _library_tile(hand.winning_tile), hand.flowers,
            self_drawn, hand.fourth_tile, hand.about_kong, hand.last_tile_of_wall,
            WINDS.index(seat_wind), WINDS.index(prevalent_wind), True,
        )
    except TypeError as exc:
        if "NOT_WIN" in str(exc):
            raise HandNotationError(_("these tiles are not a complete winning hand: check each tile and the winning tile")) from exc
        raise HandNotationError(_("PyMahjongGB refused the hand (%(error)s): check the tiles") % {"error": exc}) from exc
    fans = tuple((english, points * count) for points, count, _chinese, english in counted)
    return FanCount(sum(fan for _, fan in fans), fans)
