"""The rule-set model: :class:`RuleSet`, its piles and slots, and the checks every rule set passes.

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
two-player Souzu (4th stack, docs/rules.md, "Two-player Souzu: seats, rounds and dead wall"), ``X9`` in Shiragiku
three-player (5th stack, docs/rules.md, "Shiragiku three-player: dead wall and nuki-dora").

The payment rule is checked against the registry :data:`scoring.payments.PAYMENT_RULES`.

Standalone: no Django import (error messages are translated through :mod:`tournament.i18n` when
Django runs).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from dataclasses import dataclass

from scoring.payments import PAYMENT_RULES
from tournament.i18n import gettext as _
from walls import derivation
from walls.tiles import TileError, expand, tile_sort_key

WINDS = ("E", "S", "W", "N")
"""Seat winds in playing order."""

PILE_KINDS = {"hand": "H", "draw": "D", "live": "L", "dead": "X"}
"""Pile kind -> slot prefix printed on wall stickers."""


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
    - ``payment_rule``: a code of :data:`scoring.payments.PAYMENT_RULES`; ``min_fan``: minimum fan/han to win, or None.
    - ``end_rule``: how a hand ends when no one wins, printed on set-up sheets.
    - ``deposit``: riichi sticks are deposited.
    - ``source``: the docs/rules.md section or reference; ``notes``: choices made where the source is silent.
    - ``dora_indicator``: position of the first dora indicator in the dead wall (``"X5"``: its
      dead piles in wall order, numbered across them; :func:`walls.rulesets.layout.dead_wall`), or None.

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

    def __post_init__(self) -> None:
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

    @property
    def fingerprint(self) -> str:
        """SHA-256 hex of the tiles and piles (docs/walls.md, :func:`walls.derivation.ruleset_fingerprint`)."""
        return derivation.ruleset_fingerprint(self.tiles, self.piles)

    def to_dict(self) -> dict[Any, Any]:
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
    def from_dict(cls, data: Mapping[Any, Any]) -> RuleSet:
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
        count; rounds and score unit are positive; payment rule known; dora indicator a
        position of the dead wall.
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
        rule = PAYMENT_RULES[self.payment_rule]
        if rule.seat_counts and len(self.seats) not in rule.seat_counts:
            raise _error(code, _("payment_rule %(rule)s is for %(counts)s seats, this rule set has %(seats)s: "
                                 "choose another payment rule, or typed")
                         % {"rule": repr(self.payment_rule), "counts": " / ".join(map(str, rule.seat_counts)),
                            "seats": len(self.seats)})
        if rule.zero_sum is False and self.zero_sum:
            raise _error(code, _("payment_rule %(rule)s does not sum to zero: set zero_sum to false")
                         % {"rule": repr(self.payment_rule)})
        if not isinstance(self.end_rule, str) or not self.end_rule.strip():
            raise _error(code, _("end_rule must say how a hand ends without a win, e.g. 'ends when the live wall is empty'"))
        if not isinstance(self.source, str) or not isinstance(self.notes, str):
            raise _error(code, _("source and notes must be text"))
        if self.dora_indicator is not None:
            dead = [p for p in self.piles if p.kind == "dead"]
            total = sum(p.size for p in dead)
            if self.dora_indicator not in {f"X{n}" for n in range(1, total + 1)}:
                raise _error(code, _(
                    "dora_indicator %(slot)s must be a position X1..X%(total)s of the dead wall (its dead piles in wall "
                    "order, numbered across them); use None to mark no indicator"
                ) % {"slot": repr(self.dora_indicator), "total": total})

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
