"""Custom rule sets: :func:`custom_ruleset` builds a :class:`~walls.rulesets.model.RuleSet` from a
tile set and a layout (per-seat draw piles or one shared live wall), saying by how many tiles a
layout misses. The presets and the director's event form use it.

Standalone: no Django import (error messages are translated through :mod:`tournament.i18n` when
Django runs).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

from tournament.i18n import gettext as _
from walls.rulesets.model import Pile, RuleSet, _check_seats, _error, _is_int
from walls.tiles import MARKED_TILES, PINK_TILES, TileError, expand, plain_tile, tile_sort_key

LAYOUTS = ("per_seat", "shared")
"""Layouts :func:`custom_ruleset` builds: private draw piles per seat, or one shared live wall."""


def _sizes(code: object, what: str, values: Sequence[int] | None, seats: tuple[str, ...], minimum: int) -> list[int]:
    if values is None or isinstance(values, (str, bytes)) or len(values) != len(seats):
        raise _error(code, _("%(field)s needs one size per seat (%(count)s: %(seats)s), got %(values)s")
                     % {"field": what, "count": len(seats), "seats": ", ".join(seats), "values": repr(values)})
    for seat, value in zip(seats, values):
        if not _is_int(value) or value < minimum:
            raise _error(code, _("%(field)s of seat %(seat)s must be a whole number from %(minimum)s, got %(value)s")
                         % {"field": what, "seat": seat, "minimum": minimum, "value": repr(value)})
    return list(values)


def _describe(what: str, sizes: Sequence[int]) -> str:
    """``"4 hands of 13"`` or ``"hands of 14, 13, 13, 13"``; ``what`` is ``"hands"``, ``"draw
    piles"`` or ``"dead-wall piles"`` (translated)."""
    if len(set(sizes)) == 1:
        values: dict[str, object] = {"count": len(sizes), "size": sizes[0]}
        if what == "hands":
            return _("%(count)s hands of %(size)s") % values
        if what == "draw piles":
            return _("%(count)s draw piles of %(size)s") % values
        return _("%(count)s dead-wall piles of %(size)s") % values
    values = {"sizes": ", ".join(str(s) for s in sizes)}
    if what == "hands":
        return _("hands of %(sizes)s") % values
    if what == "draw piles":
        return _("draw piles of %(sizes)s") % values
    return _("dead-wall piles of %(sizes)s") % values


def _dead_parts(per_seat_dead: bool, deads: list[int]) -> list[str]:
    """The dead wall as described in a layout message: per-seat piles, one shared wall, or nothing."""
    if per_seat_dead:
        return [_describe("dead-wall piles", deads)]
    return [_("dead wall of %(size)s") % {"size": deads[0]}] if deads[0] else []


def _tile_counts(code: object, tiles: Sequence[tuple[str, int]] | Mapping[str, int], red: Mapping[str, int] | None) -> tuple[tuple[str, int], ...]:
    pairs = list(tiles.items()) if isinstance(tiles, Mapping) else list(tiles)
    try:
        expand(pairs)
    except TileError as error:
        raise _error(code, _("tiles: %(error)s") % {"error": error}) from None
    totals = dict(pairs)
    for red_code, count in (red or {}).items():
        if red_code not in MARKED_TILES:
            raise _error(code, _("red fives and pink tiles are given as %(codes)s with a count, got %(code)s")
                         % {"codes": ", ".join(MARKED_TILES), "code": repr(red_code)})
        five = plain_tile(red_code)
        if not _is_int(count) or count < 1:
            raise _error(code, _("red five %(code)s count must be a whole number from 1, got %(count)s") % {"code": red_code, "count": repr(count)})
        if red_code in PINK_TILES and count > totals.get(five, 0):
            raise _error(code, _(
                "%(count)s pink tiles %(red)s replace %(count)s tiles %(five)s but the tile set has %(have)s %(five)s: "
                "use at most %(have)s"
            ) % {"count": count, "red": red_code, "five": five, "have": totals.get(five, 0)})
        if count > totals.get(five, 0):
            raise _error(code, _(
                "%(count)s red fives %(red)s replace %(count)s tiles %(five)s but the tile set has %(have)s %(five)s: "
                "use at most %(have)s"
            ) % {"count": count, "red": red_code, "five": five, "have": totals.get(five, 0)})
        totals[five] -= count
        totals[red_code] = totals.get(red_code, 0) + count
    return tuple(sorted(((c, n) for c, n in totals.items() if n), key=lambda item: tile_sort_key(item[0])))


def custom_ruleset(
    code: str,
    name: str,
    seats: Sequence[str],
    tiles: Sequence[tuple[str, int]] | Mapping[str, int],
    layout: str,
    hand_sizes: Sequence[int],
    draw_sizes: Sequence[int] | None = None,
    dead_wall: int | Sequence[int] = 0,
    red: Mapping[str, int] | None = None,
    *,
    rounds: int,
    starting_points: int,
    zero_sum: bool,
    payment_rule: str,
    min_fan: int | None = None,
    score_unit: int = 1,
    end_rule: str,
    deposit: bool = False,
    source: str = "custom",
    notes: str = "",
    dora_indicator: str | None = None,
) -> RuleSet:
    """Build and check a rule set from a tile set and a layout.

    - ``tiles``: ``(code, count)`` pairs or a mapping, any order; ``red``: red fives (or pink
      threes and sevens, :data:`walls.tiles.PINK_TILES`) to swap in, e.g. ``{"0p": 2, "0m": 1}``
      replaces two ``5p`` and one ``5m``, ``{"3sp": 1}`` one ``3s``.
    - ``layout="per_seat"``: for each seat in turn a hand pile ``<seat>-hand`` of
      ``hand_sizes[i]`` and a private draw pile ``<seat>-draw`` of ``draw_sizes[i]`` (None:
      the tiles left after hands and dead wall, split equally); ``dead_wall`` is either one
      shared pile ``dead`` at the end of the wall (an int) or a per-seat pile ``<seat>-dead``
      after each seat's draw pile (a sequence; 0 for no dead tiles at that seat).
    - ``layout="shared"``: the hands ``<seat>-hand``, then the shared ``live`` wall holding
      every remaining tile, then a shared ``dead`` wall of ``dead_wall`` tiles (0: none);
      ``draw_sizes`` must be None.

    The remaining keyword arguments are the :class:`RuleSet` fields. Raises RuleSetError for
    unknown tile codes, red fives exceeding the fives they replace, seats that are not unique
    winds, sizes below 1, or tiles that cannot fill the layout, saying by how many tiles and
    where, e.g. "layout needs 140 tiles (4 hands of 13, 4 draw piles of 22) but the tile set
    has 136: 4 too few; shorten the draw piles or add tiles".
    """
    seats = tuple(seats)
    _check_seats(code, seats)
    counts = _tile_counts(code, tiles, red)
    tile_count = sum(n for _tile, n in counts)
    if layout not in LAYOUTS:
        raise _error(code, _("layout %(layout)s is unknown: use 'per_seat' (private draw piles) or 'shared' (one live wall)")
                     % {"layout": repr(layout)})
    hands = _sizes(code, "hand_sizes", hand_sizes, seats, 1)
    per_seat_dead = not _is_int(dead_wall)
    if per_seat_dead:
        if layout != "per_seat":
            raise _error(code, _("a per-seat dead wall needs layout 'per_seat'; give dead_wall as one number for a shared layout"))
        deads = _sizes(code, "dead_wall", cast(Sequence[int], dead_wall), seats, 0)
    else:
        dead_wall = cast(int, dead_wall)  # _is_int held
        if dead_wall < 0:
            raise _error(code, _("dead_wall must be 0 (none) or more tiles, got %(value)s") % {"value": dead_wall})
        deads = [dead_wall]
    fixed = sum(hands) + sum(deads)
    piles: list[Pile] = []
    if layout == "per_seat":
        if draw_sizes is None:
            rest = tile_count - fixed
            if rest < len(seats) or rest % len(seats):
                raise _error(code, _(
                    "%(rest)s tiles remain after %(parts)s, which do not split into %(seats)s equal draw piles: give draw_sizes"
                ) % {"rest": rest, "parts": ", ".join([_describe("hands", hands), *_dead_parts(per_seat_dead, deads)]),
                     "seats": len(seats)})
            draw_sizes = [rest // len(seats)] * len(seats)
        draws = _sizes(code, "draw_sizes", draw_sizes, seats, 1)
        need = fixed + sum(draws)
        if need != tile_count:
            parts = [_describe("hands", hands), _describe("draw piles", draws), *_dead_parts(per_seat_dead, deads)]
            values = {"need": need, "parts": ", ".join(parts), "count": tile_count, "diff": abs(need - tile_count)}
            if need > tile_count:
                raise _error(code, _("layout needs %(need)s tiles (%(parts)s) but the tile set has %(count)s: %(diff)s too few; "
                                     "shorten the draw piles or add tiles") % values)
            raise _error(code, _("layout needs %(need)s tiles (%(parts)s) but the tile set has %(count)s: %(diff)s left over; "
                                 "lengthen the draw piles or remove tiles") % values)
        for i, seat in enumerate(seats):
            piles.append(Pile(f"{seat}-hand", "hand", seat, hands[i], "H"))
            piles.append(Pile(f"{seat}-draw", "draw", seat, draws[i], "D"))
            if per_seat_dead and deads[i]:
                piles.append(Pile(f"{seat}-dead", "dead", seat, deads[i], "X"))
    else:
        if draw_sizes is not None:
            raise _error(code, _("a shared layout has one live wall holding the tiles left after hands and dead wall: leave draw_sizes out"))
        live = tile_count - fixed
        if live < 1:
            raise _error(code, _(
                "layout needs at least %(need)s tiles (%(parts)s, live wall of at least 1) but the tile set has %(count)s: "
                "%(diff)s too few; shrink the hands or the dead wall, or add tiles"
            ) % {"need": fixed + 1, "parts": ", ".join([_describe("hands", hands), *_dead_parts(per_seat_dead, deads)]),
                 "count": tile_count, "diff": fixed + 1 - tile_count})
        piles.extend(Pile(f"{seat}-hand", "hand", seat, size, "H") for seat, size in zip(seats, hands))
        piles.append(Pile("live", "live", None, live, "L"))
    if not per_seat_dead and dead_wall:
        piles.append(Pile("dead", "dead", None, cast(int, dead_wall), "X"))
    return RuleSet(
        code=code,
        name=name,
        seats=seats,
        tiles=counts,
        piles=tuple(piles),
        rounds=rounds,
        starting_points=starting_points,
        zero_sum=zero_sum,
        payment_rule=payment_rule,
        min_fan=min_fan,
        score_unit=score_unit,
        end_rule=end_rule,
        deposit=deposit,
        source=source,
        notes=notes,
        dora_indicator=dora_indicator,
    )
