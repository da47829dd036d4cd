"""Rule sets: the tiles of a wall set, how its wall is cut into piles, and the scoring frame.

A :class:`RuleSet` says which tiles a wall set holds (a multiset in canonical order,
walls/tiles.py), which seats play (dealer first), and how a shuffled wall is laid out: a tuple
of :class:`Pile` in wall order, each pile the next consecutive slice of the wall, the sizes
summing to the tile count. Piles are of four kinds:

- ``hand``: a seat's starting hand (slots ``H1``..);
- ``draw``: a seat's private draw pile in draw order (duplicate layouts; slots ``D1``..);
- ``live``: the shared live wall in draw order (slots ``L1``..);
- ``dead``: a dead wall (slots ``X1``..), shared or per seat.

Dead-wall slots are numbered by stacks of two counted from the far end of the wall (the end the
replacement tiles are taken from): ``X1`` upper and ``X2`` lower tile of the last stack, ``X3``
and ``X4`` of the stack before it, and so on. Replacement tiles are then taken in slot order and
the dora indicator is an upper (odd) slot: ``X5`` in riichi (3rd stack from the end), ``X7`` in
two-player Souzu (4th stack, seed 000), ``X9`` in Shiragiku three-player (5th stack, seed 002).

:data:`PRESETS` holds every rule set of the seeds (``/work/shared/seeds``) plus the standard
references (riichi, MCR with flowers); :func:`custom_ruleset` builds and checks others.

Standalone: no Django import (error messages are translated through :mod:`tournament.i18n` when
Django runs).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tournament.i18n import gettext as _
from walls import derivation
from walls.tiles import RED_FIVES, TileError, expand, plain_tile, tile_sort_key

WINDS = ("E", "S", "W", "N")
"""Seat winds in playing order."""

PILE_KINDS = {"hand": "H", "draw": "D", "live": "L", "dead": "X"}
"""Pile kind -> slot prefix printed on wall stickers."""

PAYMENT_RULES = ("mcr", "mcr-duplicate-mahjongsoft", "typed")
"""Payment rules known to scoring/payments.py: plain MCR, MahjongSoft's duplicate MCR, or score
changes typed in by the table (riichi and the other typed systems)."""

LAYOUTS = ("per_seat", "shared")
"""Layouts :func:`custom_ruleset` builds: private draw piles per seat, or one shared live wall."""


class RuleSetError(ValueError):
    """A rule set that cannot be used; the message names the field and the fix."""


@dataclass(frozen=True)
class Pile:
    """One pile of a wall set: a consecutive slice of the wall.

    ``name``: unique in the rule set (``"E-hand"``, ``"E-draw"``, ``"live"``, ``"dead"``);
    ``kind``: ``"hand"``, ``"draw"``, ``"live"`` or ``"dead"``; ``seat``: the wind owning the
    pile, None for a shared pile; ``size``: tiles in the pile; ``slot_prefix``: ``"H"``, ``"D"``,
    ``"L"`` or ``"X"`` for the kind (:data:`PILE_KINDS`).
    """

    name: str
    kind: str
    seat: str | None
    size: int
    slot_prefix: str


@dataclass(frozen=True)
class Slot:
    """One tile position of a wall set.

    ``index_in_wall``: 0-based position in the derived wall; ``pile``: the pile holding it;
    ``number``: 1-based position inside the pile (draw order for draw piles and the live wall);
    ``label``: slot prefix + number as printed on the sticker (``"H1"``, ``"D21"``, ``"X5"``).
    """

    index_in_wall: int
    pile: Pile
    number: int
    label: str


@dataclass(frozen=True)
class RuleSet:
    """A playable rule system: tiles, seats, wall layout and scoring frame.

    - ``code``: short identifier (lowercase letters, digits, ``-``); ``name``: display name.
    - ``seats``: winds, dealer first (``("E", "S", "W", "N")``).
    - ``tiles``: ``((code, count), ...)`` in canonical tile order.
    - ``piles``: :class:`Pile` tuple in wall order; sizes sum to the tile count.
    - ``rounds``: wind rounds per session; a session has ``rounds * len(seats)`` wall sets.
    - ``starting_points``, ``score_unit``: points at the start and the smallest score step.
    - ``zero_sum``: whether the score changes of a hand always sum to 0.
    - ``payment_rule``: one of :data:`PAYMENT_RULES`; ``min_fan``: minimum fan/han to win, or None.
    - ``end_rule``: how a hand ends when no one wins, printed on set-up sheets.
    - ``deposit``: riichi sticks are deposited.
    - ``source``: the seed file or reference; ``notes``: choices made where the source is silent.
    - ``dora_indicator``: slot label of the first dora indicator in the rule set's only dead
      pile, or None.

    Construction validates (:meth:`validate`) and raises RuleSetError.
    """

    code: str
    name: str
    seats: tuple[str, ...]
    tiles: tuple[tuple[str, int], ...]
    piles: tuple[Pile, ...]
    rounds: int
    starting_points: int
    zero_sum: bool
    payment_rule: str
    min_fan: int | None
    score_unit: int
    end_rule: str
    deposit: bool
    source: str = ""
    notes: str = ""
    dora_indicator: str | None = None

    def __post_init__(self):
        self.validate()

    @property
    def tile_count(self) -> int:
        """Number of tiles in a wall set."""
        return sum(count for _code, count in self.tiles)

    def multiset(self) -> list[str]:
        """Every tile of a wall set, in canonical order (the list the derivation shuffles)."""
        return expand(self.tiles)

    @property
    def hands_per_session(self) -> int:
        """Wall sets per session: ``rounds * len(seats)``."""
        return self.rounds * len(self.seats)

    def slots(self) -> list[Slot]:
        """Every slot of a wall set in wall order (``len == tile_count``)."""
        result, index = [], 0
        for pile in self.piles:
            for number in range(1, pile.size + 1):
                result.append(Slot(index, pile, number, f"{pile.slot_prefix}{number}"))
                index += 1
        return result

    def dora_indicator_slot(self) -> Slot | None:
        """The slot of the first dora indicator, or None when the rule set marks none."""
        if self.dora_indicator is None:
            return None
        return next(s for s in self.slots() if s.pile.kind == "dead" and s.label == self.dora_indicator)

    @property
    def fingerprint(self) -> str:
        """SHA-256 hex of the tiles and piles (docs/walls.md, :func:`walls.derivation.ruleset_fingerprint`)."""
        return derivation.ruleset_fingerprint(self.tiles, self.piles)

    def to_dict(self) -> dict:
        """JSON-safe dict; ``RuleSet.from_dict(r.to_dict()) == r``.

        Holds every field plus ``fingerprint``; ``tiles`` is ``[[code, count], ...]`` and
        ``piles`` is ``[{"name", "kind", "seat", "size", "slot_prefix"}, ...]`` (docs/walls.md,
        "Export fields used by the verifier").
        """
        return {
            "code": self.code,
            "name": self.name,
            "seats": list(self.seats),
            "tiles": [[code, count] for code, count in self.tiles],
            "piles": [
                {"name": p.name, "kind": p.kind, "seat": p.seat, "size": p.size, "slot_prefix": p.slot_prefix}
                for p in self.piles
            ],
            "rounds": self.rounds,
            "starting_points": self.starting_points,
            "zero_sum": self.zero_sum,
            "payment_rule": self.payment_rule,
            "min_fan": self.min_fan,
            "score_unit": self.score_unit,
            "end_rule": self.end_rule,
            "deposit": self.deposit,
            "dora_indicator": self.dora_indicator,
            "source": self.source,
            "notes": self.notes,
            "fingerprint": self.fingerprint,
        }

    @classmethod
    def from_dict(cls, data: Mapping) -> RuleSet:
        """Rebuild a rule set from :meth:`to_dict` output (e.g. read from an export).

        ``source``, ``notes``, ``dora_indicator`` and ``fingerprint`` may be missing. Raises
        RuleSetError for unknown or missing keys, malformed values, or a ``fingerprint`` that
        does not match the tiles and piles.
        """
        if not isinstance(data, Mapping):
            raise RuleSetError(f"rule set JSON must be an object, got {type(data).__name__}")
        optional = {"source", "notes", "dora_indicator", "fingerprint"}
        known = {f for f in cls.__dataclass_fields__} | {"fingerprint"}
        unknown = set(data) - known
        missing = known - optional - set(data)
        if unknown or missing:
            raise RuleSetError(
                f"rule set JSON has unknown keys {sorted(unknown)} and lacks keys {sorted(missing)}: "
                f"write it with RuleSet.to_dict()"
            )
        try:
            seats = tuple(data["seats"])
            tiles = tuple((code, count) for code, count in data["tiles"])
            piles = tuple(Pile(**pile) for pile in data["piles"])
        except (TypeError, ValueError) as error:
            raise RuleSetError(
                f"rule set JSON: seats must be a list of winds, tiles [code, count] pairs and piles objects "
                f"with name, kind, seat, size, slot_prefix ({error})"
            ) from None
        values = {k: v for k, v in data.items() if k != "fingerprint"}
        ruleset = cls(**{**values, "seats": seats, "tiles": tiles, "piles": piles})
        if "fingerprint" in data and data["fingerprint"] != ruleset.fingerprint:
            raise RuleSetError(
                f"rule set {ruleset.code}: fingerprint {data['fingerprint']} does not match its tiles and "
                f"piles ({ruleset.fingerprint}); the tiles or piles were edited: re-export the rule set"
            )
        return ruleset

    def validate(self) -> None:
        """Check every field; raise RuleSetError naming the field and the fix.

        Checks: code and name; seats are unique winds (2 to 4); tiles are valid codes with
        positive counts, each once, in canonical order; piles have unique names, a known kind
        with its slot prefix, a positive size, a seat among ``seats`` (hand and draw piles must
        have one, the live wall must not), one hand pile per seat, sizes summing to the tile
        count; rounds and score unit are positive; payment rule known; dora indicator a slot
        of the only dead pile.
        """
        code = self.code
        if not isinstance(self.code, str) or not self.code or not set(self.code) <= set("abcdefghijklmnopqrstuvwxyz0123456789-"):
            raise _error(code, _("code must be lowercase letters, digits and '-', e.g. 'riichi-red3'"))
        if not isinstance(self.name, str) or not self.name.strip():
            raise _error(code, _("name must be non-empty text"))
        _check_seats(code, self.seats)
        self._validate_tiles(code)
        self._validate_piles(code)
        for name in ("rounds", "score_unit"):
            value = getattr(self, name)
            if not _is_int(value) or value < 1:
                raise _error(code, _("%(field)s must be a whole number from 1, got %(value)s") % {"field": name, "value": repr(value)})
        if not _is_int(self.starting_points):
            raise _error(code, _("starting_points must be a whole number, got %(value)s") % {"value": repr(self.starting_points)})
        if self.min_fan is not None and (not _is_int(self.min_fan) or self.min_fan < 0):
            raise _error(code, _("min_fan must be a whole number from 0 or None, got %(value)s") % {"value": repr(self.min_fan)})
        for name in ("zero_sum", "deposit"):
            if not isinstance(getattr(self, name), bool):
                raise _error(code, _("%(field)s must be true or false, got %(value)s") % {"field": name, "value": repr(getattr(self, name))})
        if self.payment_rule not in PAYMENT_RULES:
            raise _error(code, _("payment_rule %(rule)s is unknown: use one of %(rules)s")
                         % {"rule": repr(self.payment_rule), "rules": ", ".join(PAYMENT_RULES)})
        if not isinstance(self.end_rule, str) or not self.end_rule.strip():
            raise _error(code, _("end_rule must say how a hand ends without a win, e.g. 'ends when the live wall is empty'"))
        if not isinstance(self.source, str) or not isinstance(self.notes, str):
            raise _error(code, _("source and notes must be text"))
        if self.dora_indicator is not None:
            dead = [p for p in self.piles if p.kind == "dead"]
            labels = {f"X{n}" for n in range(1, dead[0].size + 1)} if len(dead) == 1 else set()
            if self.dora_indicator not in labels:
                raise _error(code, _(
                    "dora_indicator %(slot)s must be a slot X1..X<size> of the rule set's only dead pile (it has "
                    "%(dead)s dead piles); use None to mark no indicator"
                ) % {"slot": repr(self.dora_indicator), "dead": len(dead)})

    def _validate_tiles(self, code: object) -> None:
        if not isinstance(self.tiles, tuple) or not self.tiles:
            raise _error(code, _("tiles must be a non-empty tuple of (code, count) pairs"))
        try:
            expand(self.tiles)
        except TileError as error:
            raise _error(code, _("tiles: %(error)s") % {"error": error}) from None
        codes = [tile for tile, _count in self.tiles]
        if codes != sorted(codes, key=tile_sort_key):
            raise _error(code, _("tiles must be listed in canonical order (sort by tile_sort_key), got %(codes)s") % {"codes": codes})

    def _validate_piles(self, code: object) -> None:
        if not isinstance(self.piles, tuple) or not self.piles or not all(isinstance(p, Pile) for p in self.piles):
            raise _error(code, _("piles must be a non-empty tuple of Pile"))
        names = [p.name for p in self.piles]
        if len(set(names)) != len(names):
            raise _error(code, _("pile names must be unique, got %(names)s") % {"names": names})
        for pile in self.piles:
            if not isinstance(pile.name, str) or not pile.name:
                raise _error(code, _("every pile needs a name, e.g. 'E-hand'"))
            if pile.kind not in PILE_KINDS:
                raise _error(code, _("pile %(pile)s has kind %(kind)s: use one of %(kinds)s")
                             % {"pile": pile.name, "kind": repr(pile.kind), "kinds": ", ".join(PILE_KINDS)})
            if pile.slot_prefix != PILE_KINDS[pile.kind]:
                raise _error(code, _("pile %(pile)s is a %(kind)s pile, so its slot prefix must be %(prefix)s, got %(got)s")
                             % {"pile": pile.name, "kind": pile.kind, "prefix": repr(PILE_KINDS[pile.kind]), "got": repr(pile.slot_prefix)})
            if not _is_int(pile.size) or pile.size < 1:
                raise _error(code, _("pile %(pile)s must hold at least 1 tile, got size %(size)s") % {"pile": pile.name, "size": repr(pile.size)})
            if pile.seat is not None and pile.seat not in self.seats:
                raise _error(code, _("pile %(pile)s belongs to seat %(seat)s, which is not one of the seats %(seats)s")
                             % {"pile": pile.name, "seat": repr(pile.seat), "seats": self.seats})
            if pile.kind == "hand" and pile.seat is None:
                raise _error(code, _("hand pile %(pile)s must belong to a seat") % {"pile": pile.name})
            if pile.kind == "draw" and pile.seat is None:
                raise _error(code, _("draw pile %(pile)s must belong to a seat") % {"pile": pile.name})
            if pile.kind == "live" and pile.seat is not None:
                raise _error(code, _("the live wall %(pile)s is shared: its seat must be None") % {"pile": pile.name})
        for seat in self.seats:
            hands = [p.name for p in self.piles if p.kind == "hand" and p.seat == seat]
            if len(hands) != 1:
                raise _error(code, _("seat %(seat)s must have exactly one starting hand pile, has %(piles)s") % {"seat": seat, "piles": hands})
        total = sum(p.size for p in self.piles)
        if total != self.tile_count:
            values = {"total": total, "count": self.tile_count, "diff": abs(total - self.tile_count)}
            if total > self.tile_count:
                raise _error(code, _("piles hold %(total)s tiles but the tile set has %(count)s: %(diff)s too few tiles; "
                                     "make the pile sizes add up to %(count)s") % values)
            raise _error(code, _("piles hold %(total)s tiles but the tile set has %(count)s: %(diff)s tiles left over; "
                                 "make the pile sizes add up to %(count)s") % values)


def _error(code: object, problem: str) -> RuleSetError:
    """The RuleSetError of rule set ``code``: ``rule set 'code': problem`` (``problem`` already translated)."""
    return RuleSetError(_("rule set %(code)s: %(problem)s") % {"code": repr(code), "problem": problem})


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_seats(code: object, seats: object) -> None:
    if not isinstance(seats, tuple) or not 2 <= len(seats) <= 4:
        raise _error(code, _("seats must be a tuple of 2 to 4 winds, dealer first, e.g. ('E', 'S', 'W', 'N'); got %(seats)s")
                     % {"seats": repr(seats)})
    if any(seat not in WINDS for seat in seats):
        raise _error(code, _("seats must be winds %(winds)s; got %(seats)s") % {"winds": ", ".join(WINDS), "seats": repr(seats)})
    if len(set(seats)) != len(seats):
        raise _error(code, _("each seat may appear once; got %(seats)s") % {"seats": repr(seats)})


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
        values = {"count": len(sizes), "size": sizes[0]}
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
        if red_code not in RED_FIVES:
            raise _error(code, _("red fives are given as %(codes)s with a count, got %(code)s") % {"codes": ", ".join(RED_FIVES), "code": repr(red_code)})
        five = plain_tile(red_code)
        if not _is_int(count) or count < 1:
            raise _error(code, _("red five %(code)s count must be a whole number from 1, got %(count)s") % {"code": red_code, "count": repr(count)})
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

    - ``tiles``: ``(code, count)`` pairs or a mapping, any order; ``red``: red fives to swap in,
      e.g. ``{"0p": 2, "0m": 1}`` replaces two ``5p`` and one ``5m``.
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
        deads = _sizes(code, "dead_wall", dead_wall, seats, 0)
    else:
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
        piles.append(Pile("dead", "dead", None, dead_wall, "X"))
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


# --- tile sets ---------------------------------------------------------------------------------

_SUITED = [f"{rank}{suit}" for suit in "mps" for rank in range(1, 10)]
_HONOURS = [f"{rank}z" for rank in range(1, 8)]
TILES_136 = tuple((code, 4) for code in _SUITED + _HONOURS)
"""The standard set without flowers: 34 kinds x 4 = 136 tiles."""
TILES_144 = TILES_136 + tuple((f"{rank}f", 1) for rank in range(1, 9))
"""The standard set with the 8 flowers: 144 tiles (MCR with flowers)."""
TILES_SOUZU_70 = (
    ("1m", 3), ("9m", 3), ("1p", 3), ("9p", 3),
    *((f"{rank}s", 4) for rank in range(1, 10)),
    ("1z", 4), ("2z", 4), ("3z", 3), ("4z", 2), ("5z", 3), ("6z", 3), ("7z", 3),
)  # fmt: skip
"""Two-player Souzu set (seed 000_7c77fa1e26bc973a.txt): the 136 minus one 1m, 9m, 1p, 9p, West,
White, Green, Red, two North and every 2m-8m and 2p-8p: 70 tiles."""
TILES_SHIRAGIKU_108 = tuple(pair for pair in TILES_136 if pair[0] not in {f"{r}m" for r in range(2, 9)})
"""Shiragiku three-player set (seed 002_33d89288069ec9a0.txt): the 136 without 2m-8m, 108 tiles."""
TILES_SHIRAGIKU_112 = tuple(sorted(TILES_SHIRAGIKU_108 + (("5m", 4),), key=lambda pair: tile_sort_key(pair[0])))
"""Shiragiku with the four 5m (seed 002): 112 tiles."""

_MCR_SOURCE = "seed 001_99051c9fed935a8b.txt (MIL duplicate MCR, Sanya 2015)"
_RIICHI_SOURCE = "standard Japanese riichi rules (reference, not in the seeds)"
_RIICHI_END = "ends when the live wall is empty; the 14-tile dead wall is only drawn for kan replacements"


def _mcr_duplicate(code: str, name: str, payment_rule: str, zero_sum: bool, source: str, notes: str) -> RuleSet:
    return custom_ruleset(
        code, name, WINDS, TILES_136, "per_seat", [13] * 4, [21] * 4,
        rounds=4, starting_points=0, zero_sum=zero_sum, payment_rule=payment_rule, min_fan=8, score_unit=1,
        end_rule="one more turn each after any draw pile runs out",
        source=source,
        notes="Each seat gets 34 tiles: a 13-tile starting hand and a private draw pile of 21, laid as a lower "
        "row of 11 with a row of 10 lifted onto it; D1..D21 number the draws in order. East takes no 14th "
        "tile: its first draw is E-draw D1. Every draw, kong replacements included, comes from the drawer's "
        "own pile. When a draw pile runs out, that player discards and the other three draw and discard once "
        "each (last draw haitei, last discard houtei). No flowers. " + notes,
    )  # fmt: skip


def _riichi(code: str, name: str, red: Mapping[str, int] | None, notes: str) -> RuleSet:
    return custom_ruleset(
        code, name, WINDS, TILES_136, "shared", [13] * 4, None, 14, red,
        rounds=2, starting_points=25000, zero_sum=True, payment_rule="typed", min_fan=1, score_unit=100,
        end_rule=_RIICHI_END, deposit=True, source=_RIICHI_SOURCE, dora_indicator="X5",
        notes="Starting hands of 13; the dealer's 14th tile is live-wall L1. Dead wall of 14 tiles as 7 stacks; "
        "X1-X4 are the kan replacement tiles in order, X5 (upper tile of the 3rd stack from the end) is the "
        "first dora indicator, X7, X9, X11, X13 the kan-dora indicators, the even slots below them ura-dora. " + notes,
    )  # fmt: skip


_SHIRAGIKU_REDS: dict[str, tuple[str, dict[str, int] | None]] = {
    "": ("no red fives", None),
    "-r1p": ("1 red 5p", {"0p": 1}),
    "-r2p": ("2 red 5p", {"0p": 2}),
    "-r4p": ("all four 5p red", {"0p": 4}),
    "-r2p1s": ("2 red 5p and 1 red 5s", {"0p": 2, "0s": 1}),
    "-r4p4s": ("all 5p and 5s red", {"0p": 4, "0s": 4}),
}
"""Code suffix -> (label, red fives) for the red-five options of seed 002 that tile codes can express."""


def _shiragiku(with_5m: bool, suffix: str) -> RuleSet:
    label, red = _SHIRAGIKU_REDS[suffix]
    size = 112 if with_5m else 108
    manzu = (
        "112 tiles: the four 5m are in play, which seed 002 allows only when North, 1m, 5m and 9m are all "
        "nuki-dora; the seed then sizes the dead wall by the replacement tiles needed during play and gives "
        "no starting size, so this preset lays the same 14-tile dead wall as the North-only option. "
        if with_5m
        else "108 tiles (no 2m-8m), 18 stacks per player when built by hand. "
    )
    return custom_ruleset(
        f"shiragiku-3p{'-112' if with_5m else ''}{suffix}",
        f"Shiragiku three-player ({size} tiles, {label})",
        ("E", "S", "W"), TILES_SHIRAGIKU_112 if with_5m else TILES_SHIRAGIKU_108, "shared", [13] * 3, None, 14, red,
        rounds=3, starting_points=0, zero_sum=True, payment_rule="typed", min_fan=1, score_unit=1,
        end_rule="ends when the live wall is empty (the last draw is the tile before the dora indicator)",
        source="seed 002_33d89288069ec9a0.txt (Shiragiku Mahjong three-player)", dora_indicator="X9",
        notes=manzu + "North is the only nuki-dora, so the dead wall is always 14 and the dora indicator is the "
        "upper tile of the 5th stack from the end (X9; with rinshan dora the seed turns the 6th, X11). The seed "
        "plays 9 hands per game, always in the East round, the winner dealing next; 3 rounds of 3 seats give "
        "the 9 wall sets. Scoring is 1 han = 1 point (2 base points, +1 for the dealer, limit 50, yakuman 100); "
        "the seed gives no starting points (0 here) and no riichi-stick deposit. The red-five option "
        "'one red 3p and one red 3s' of the seed has no tile code and is not offered.",
    )  # fmt: skip


def _build_presets() -> dict[str, RuleSet]:
    presets = [
        _mcr_duplicate(
            "mcr-duplicate", "MCR duplicate (MIL, per-seat piles)", "mcr", True, _MCR_SOURCE,
            "Payment: plain MCR (zero-sum).",
        ),
        _mcr_duplicate(
            "mcr-duplicate-mahjongsoft", "MCR duplicate, MahjongSoft payments", "mcr-duplicate-mahjongsoft", False,
            _MCR_SOURCE + "; payments: MahjongSoft duplicate MCR rules (docs: /work/shared/domain.md)",
            "Payment: self-draw winner fan+24, each other player ceil(fan/3)+8; several discard winners each "
            "fan+24 and pay 8 to each other winner: not zero-sum.",
        ),
        custom_ruleset(
            "mcr-flowers", "MCR with flowers (144 tiles, shared wall)", WINDS, TILES_144, "shared", [13] * 4,
            rounds=4, starting_points=0, zero_sum=True, payment_rule="mcr", min_fan=8, score_unit=1,
            end_rule="ends when the live wall is empty",
            source="Chinese Official (MCR) rules with flowers (reference, not in the seeds)",
            notes="Starting hands of 13; no dead wall: the dealer's first draw is live-wall L1 and flower "
            "replacements are drawn from the live wall as the table's rules say.",
        ),
        _riichi("riichi", "Riichi (no red fives)", None, ""),
        _riichi("riichi-red3", "Riichi, three red fives", {"0m": 1, "0p": 1, "0s": 1}, "One each of 5m 5p 5s is red."),
        _riichi("riichi-red4", "Riichi, four red fives", {"0m": 1, "0p": 2, "0s": 1}, "Two 5p, one 5m and one 5s are red."),
        custom_ruleset(
            "riichi-duplicate", "Riichi duplicate (per-seat piles and dead wall)", WINDS, TILES_136, "per_seat",
            [13] * 4, [19, 17, 17, 17], [2, 4, 4, 4],
            rounds=2, starting_points=25000, zero_sum=True, payment_rule="typed", min_fan=1, score_unit=100,
            end_rule="ends when the live wall is empty (every draw pile used up)", deposit=True,
            source="published riichi duplicate layout (docs: /work/shared/domain.md, facts outside the seeds)",
            notes="Per seat: East 13 hand + 19 draws + 2 dead-wall tiles, the others 13 + 17 + 4; the 14 dead-wall "
            "tiles are kept per seat. The source does not say which dead-wall tile is the dora indicator or how "
            "replacement tiles are ordered across seats, so none is marked: the director announces it.",
        ),
        custom_ruleset(
            "riichi-duplicate-dead14", "Riichi duplicate (private draw piles, shared dead wall)", WINDS, TILES_136,
            "per_seat", [13] * 4, [18, 18, 17, 17], 14,
            rounds=2, starting_points=25000, zero_sum=True, payment_rule="typed", min_fan=1, score_unit=100,
            end_rule="ends when the live wall is empty (every draw pile used up)", deposit=True, dora_indicator="X5",
            source="published riichi duplicate layout (docs: /work/shared/domain.md, facts outside the seeds)",
            notes="The 70 live tiles are split into private draw piles in turn order (East and South draw 18 "
            "times at most, West and North 17; the dealer's 14th tile is E-draw D1); the shared dead wall of "
            "14 is laid as in riichi: X1-X4 replacement tiles, X5 the first dora indicator.",
        ),
        custom_ruleset(
            "souzu-2p", "Two-player Souzu mahjong (70 tiles)", ("E", "S"), TILES_SOUZU_70, "shared", [13, 13], None, 8,
            rounds=3, starting_points=60000, zero_sum=True, payment_rule="typed", min_fan=None, score_unit=1000,
            end_rule="ends when the next draw would be the dora indicator", deposit=True, dora_indicator="X7",
            source="seed 000_7c77fa1e26bc973a.txt (two-player Souzu mahjong)",
            notes="Dealer East, other South; start and settle at 60,000; hundreds rounded up, so scores move in "
            "thousands. North may be set aside as nuki-dora (at most 2), so the dora indicator is the upper tile "
            "of the 4th stack from the end of the dead wall (X7) and the dead wall is those 4 stacks, 8 tiles "
            "(X1-X6 replacement tiles); draws go up to the tile before the indicator. Rounds: East and South, "
            "then West as a rule (3 rounds here); the seed adds a North round when both players are at 80,000 "
            "or less, which a fixed duplicate session cannot follow. Mangan minimum without dora (min_fan left "
            "empty: the minimum is a score, not a han count); tsumo wins collect half.",
        ),
        *(_shiragiku(with_5m, suffix) for with_5m in (False, True) for suffix in _SHIRAGIKU_REDS),
        custom_ruleset(
            "shield-tile", "Shield tile (盾牌) variant", WINDS, TILES_136, "shared", [16, 15, 15, 15],
            rounds=3, starting_points=0, zero_sum=True, payment_rule="typed", min_fan=None, score_unit=100,
            end_rule="ends when the wall is empty: there is no dead wall, every tile is drawn",
            source="seed 003_01ddf542a26ec613.txt (盾牌 shield-tile rules)",
            notes="The dealer receives 16 tiles and the others 15 (13 or 14 for the hand plus 2 shield tiles); "
            "no dead wall, no red fives, no dora, no deposits. The seed ends a game after 10 hands or when top "
            "and bottom are more than 50,000 apart; duplicate play needs the same sets at every table, so this "
            "preset plays 3 rounds (12 sets). Unused shield tiles carried into the next hand would leave that "
            "hand's wall at one table and not another: the director rules on carry-over. Scores are 1000, 2000, "
            "4000, 8000 then +2000 per han; the seed does not say how a self-draw is split (unit 100 here) nor "
            "a minimum. The seed's pink 3 and 7 dora have no tile code.",
        ),
        custom_ruleset(
            "yangzhou", "Yangzhou mahjong", WINDS, TILES_136, "shared", [14, 13, 13, 13],
            rounds=4, starting_points=0, zero_sum=True, payment_rule="typed", min_fan=None, score_unit=1,
            end_rule="ends when the wall is used up without a tile left",
            source="seed 004_f0f50996b898f4e1.txt (Yangzhou mahjong)",
            notes="136 tiles without flowers; the dealer takes 14, the others 13; no dead wall. The seed plays "
            "4 dealer rotations (8 in some places): 4 rounds here. The minimum to win is 13, 18 or 7 fan "
            "depending on the table's agreement (min_fan left empty: set it per event); the discarder pays "
            "double the hand, on a self-draw each pays the hand. The seed gives no starting points (0 here).",
        ),
    ]  # fmt: skip
    return {ruleset.code: ruleset for ruleset in presets}


PRESETS: dict[str, RuleSet] = _build_presets()
"""Every built-in rule set by code (see docs/walls.md, "Presets")."""


def get_ruleset(code: str) -> RuleSet:
    """The preset with ``code``; raises RuleSetError listing the valid codes."""
    try:
        return PRESETS[code]
    except KeyError:
        raise RuleSetError(_("unknown rule set %(code)s: use one of %(codes)s") % {"code": repr(code), "codes": ", ".join(PRESETS)}) from None
