"""The plain values the renderers take, and the walk from a wall set to its slots.

:class:`PrintableSet` is one physical wall set with everything printed about it, tiles included:
the set-up sheet and pick list (staff-only documents for laying and checking a set) take it.
:func:`set_units` cuts it into the groups that are printed together: one per seat (its own
piles, in the rule set's order) and one for the piles that belong to no seat (a shared live or
dead wall).

Wall stickers take :class:`StickerSet` instead, which holds **no tile at all**: a sticker sits on
the back of a tile, which every other player sees during play, so it carries only the set, the
seat and the slot (docs/rules.md, "Duplicate MCR: building sets and wall stickers": each tile is marked as a seat's starting hand
or draw pile, with its draw order, so a set mixed in play can be rebuilt). :func:`sticker_set`
builds one from the rule set's layout alone; :func:`sticker_set_of` from a PrintableSet, checking
its wall and then dropping the tiles.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from walls.rulesets.layout import dead_wall
from walls.setcode import SetId
from walls.tiles import is_valid_tile


class PrintDataError(ValueError):
    """Data that cannot be printed (a pile missing or of the wrong size, an unknown tile)."""


@dataclass(frozen=True)
class PrintableSet:
    """One wall set as printed on stickers, labels and set-up sheets.

    ``piles`` maps each pile name of ``ruleset`` to its tiles in order (mpsz codes);
    ``first_table`` is shown as given (``"Table 3"``); ``commitment`` is the SHA-256 hex of the
    event's master seed; with ``entry_url`` (the event's public base URL) the set label's QR code
    opens the entry page (:meth:`SetId.url`), else it holds the bare payload; ``tile_size`` is the
    event's tile size as printed (``"25 × 34 mm"``, :attr:`walls.printing.tilesize.TileSize.text`),
    shown in the set-up sheet's header when not empty; ``counters`` the honba and riichi sticks
    on the table before the hand, fixed for every table of the set, in the sheet's language
    (``"Honba 0 · Riichi sticks 0"``, :func:`walls.print_kinds.base.set_counters`), shown after the
    end rule when not empty; ``copies`` names the set's physical copies in copy order, each by the
    table that plays it first (``("Group 1 · Table 1", "Group 2 · Table 5")``,
    :func:`walls.print_kinds.walls.first_tables`): the set-up sheet prints one row of boxes to tick
    per copy and the pick list one box per copy on every line; empty means one unnamed copy
    (:attr:`copy_names`).
    """

    set_id: SetId
    event_name: str
    ruleset: Any
    piles: Mapping[str, Sequence[str]]
    first_table: str = ""
    commitment: str = ""
    entry_url: str | None = None
    tile_size: str = ""
    counters: str = ""
    copies: tuple[str, ...] = ()

    @property
    def copy_count(self) -> int:
        """How many physical copies of the set are laid: ``len(copies)``, at least 1."""
        return max(1, len(self.copies))

    @property
    def copy_names(self) -> tuple[str, ...]:
        """The copies' names in copy order, ``""`` for an unnamed copy (``copies`` empty: one)."""
        return self.copies or ("",)

    @property
    def label_payload(self) -> str:
        """What the set label's QR code holds."""
        return self.set_id.url(self.entry_url) if self.entry_url else self.set_id.payload


@dataclass(frozen=True)
class Placement:
    """One tile of a wall set: its slot label (``"D21"``), tile code, seat (None when shared),
    pile and position in the wall (0-based)."""

    label: str
    tile: str
    seat: str | None
    pile: str
    kind: str
    index: int


@dataclass(frozen=True)
class Unit:
    """The tiles printed together: one seat's piles, or the shared piles (``seat`` None)."""

    seat: str | None
    piles: tuple[tuple[Any, tuple[Placement, ...]], ...]

    @property
    def placements(self) -> list[Placement]:
        return [p for _, ps in self.piles for p in ps]


def _slot_label(pile: Any, number: int) -> str:
    return f"{getattr(pile, 'slot_prefix', '') or pile.name}{number}"


def placements(pset: PrintableSet) -> list[Placement]:
    """Every tile of the set with its slot, in wall order; checks each pile against the rule set.

    Raises PrintDataError naming the set and pile when a pile is missing, has the wrong number
    of tiles or holds an unknown tile code.
    """
    ruleset = pset.ruleset
    out: list[Placement] = []
    slots = list(ruleset.slots()) if hasattr(ruleset, "slots") else None
    labels: dict[tuple[str, int], str] = {}
    if slots:
        for s in slots:
            labels[(s.pile.name, s.number)] = s.label
    index = 0
    for pile in ruleset.piles:
        tiles = pset.piles.get(pile.name)
        if tiles is None:
            raise PrintDataError(f"set {pset.set_id.code}: pile {pile.name!r} is missing (have {', '.join(pset.piles)})")
        if len(tiles) != pile.size:
            raise PrintDataError(f"set {pset.set_id.code}: pile {pile.name!r} has {len(tiles)} tiles, the rule set says {pile.size}")
        for n, tile in enumerate(tiles, start=1):
            if not is_valid_tile(tile):
                raise PrintDataError(f"set {pset.set_id.code}: pile {pile.name!r} slot {n} holds unknown tile {tile!r}")
            out.append(Placement(labels.get((pile.name, n)) or _slot_label(pile, n), tile,
                                 getattr(pile, "seat", None), pile.name, getattr(pile, "kind", ""), index))
            index += 1
    return out


def set_units(pset: PrintableSet) -> list[Unit]:
    """The set's tiles grouped for printing: one unit per seat in the rule set's seat order,
    then one unit of the shared piles if there are any. Raises PrintDataError (see
    :func:`placements`)."""
    by_pile: dict[str, list[Placement]] = {}
    for p in placements(pset):
        by_pile.setdefault(p.pile, []).append(p)
    units = []
    piles = list(pset.ruleset.piles)
    for seat in pset.ruleset.seats:
        own = tuple((pile, tuple(by_pile[pile.name])) for pile in piles if getattr(pile, "seat", None) == seat)
        if own:
            units.append(Unit(seat, own))
    shared = tuple((pile, tuple(by_pile[pile.name])) for pile in piles if getattr(pile, "seat", None) not in pset.ruleset.seats)
    if shared:
        units.append(Unit(None, shared))
    return units


@dataclass(frozen=True)
class StickerSlot:
    """What one wall sticker says, and nothing more: the slot label (``"H1"``, ``"D21"``,
    ``"L12"``, ``"X5"``), the seat owning the pile (``"E"``; None for a shared pile), the pile's
    name (``"E-draw"``) and kind (``"hand"``, ``"draw"``, ``"live"``, ``"dead"``) and the slot's
    0-based position in the wall; for a dead-wall slot its ``role`` and ``order``
    (:class:`walls.rulesets.layout.DeadSlot`: ``"indicator"``, 1), which say which tile staff and
    players turn or take, never what it is. There is deliberately no tile field."""

    label: str
    seat: str | None
    pile: str
    kind: str
    index: int
    role: str = ""
    order: int = 0


@dataclass(frozen=True)
class StickerUnit:
    """The stickers printed together as one block: one seat's piles, or the shared piles
    (``seat`` None). ``piles`` is ``((pile name, (StickerSlot, ...)), ...)`` in wall order."""

    seat: str | None
    piles: tuple[tuple[str, tuple[StickerSlot, ...]], ...]

    @property
    def slots(self) -> list[StickerSlot]:
        """Every slot of the block in wall order."""
        return [s for _, ss in self.piles for s in ss]


@dataclass(frozen=True)
class StickerSet:
    """The wall stickers of one physical wall set: ``set_id`` (code with check digit, QR payload),
    ``event_name`` (printed on the header labels) and ``units``, one :class:`StickerUnit` per
    seat in the rule set's seat order, then one for the shared piles if there are any.

    ``event_key`` (the event's number) makes the stickers' codes the short URL of
    :meth:`walls.setcode.SetId.slot_url`; ``copy`` names the physical copy the stickers are for
    (``"Group 2 · Table 6"``, the table that plays it first; "" one copy), printed in the sheets'
    headings.

    Holds no tile, by design (see the module doc); build it with :func:`sticker_set` or
    :func:`sticker_set_of`.
    """

    set_id: SetId
    event_name: str
    units: tuple[StickerUnit, ...]
    entry_url: str | None = None
    event_key: str = ""
    copy: str = ""

    @property
    def payload(self) -> str:
        """What the stickers' QR code holds: the set's scan URL on the event's public address
        (``entry_url``: :meth:`walls.setcode.SetId.url`, which names the set, never a tile), else
        the bare payload."""
        return self.set_id.url(self.entry_url) if self.entry_url else self.set_id.payload

    def slot_payload(self, slot: StickerSlot) -> str:
        """What one sticker's QR code holds: the URL of its slot on the event's public address
        (:meth:`walls.setcode.SetId.slot_url`, ``.../w/open/1-07-3/E-D21``: the set, seat and
        slot, never the tile; the short form with ``event_key``), or without an address the set's
        bare payload."""
        if not self.entry_url:
            return self.set_id.payload
        return self.set_id.slot_url(self.entry_url, slot.seat, slot.label, self.event_key)

    @property
    def slot_count(self) -> int:
        """Number of tile stickers (header labels not counted): the rule set's tile count."""
        return sum(len(u.slots) for u in self.units)


def sticker_units(ruleset: Any) -> tuple[StickerUnit, ...]:
    """The sticker blocks of any wall set of ``ruleset``, from its piles alone: per seat (rule set's
    seat order) its own piles in wall order, then the piles of no seat. Slot labels are the rule
    set's (:meth:`walls.rulesets.RuleSet.slots`; ``<slot_prefix><n>`` for a rule set without
    ``slots()``). MCR duplicate (docs/rules.md, "Duplicate MCR: seat layout and private draw piles"): 4 units of 34 slots, ``H1``..``H13`` then
    ``D1``..``D21``."""
    labels: dict[tuple[str, int], str] = {}
    if hasattr(ruleset, "slots"):
        for s in ruleset.slots():
            labels[(s.pile.name, s.number)] = s.label
    by_pile: dict[str, tuple[StickerSlot, ...]] = {}
    dead = dead_wall(ruleset) if hasattr(ruleset, "dora_indicator") else None
    index = 0
    for pile in ruleset.piles:
        seat = getattr(pile, "seat", None)
        kind = getattr(pile, "kind", "")
        slots = []
        for n in range(1, pile.size + 1):
            label = labels.get((pile.name, n)) or _slot_label(pile, n)
            role = dead.role_of(pile.name, label) if dead and kind == "dead" else None
            slots.append(StickerSlot(label, seat, pile.name, kind, index, role.role if role else "",
                                     role.order if role else 0))
            index += 1
        by_pile[pile.name] = tuple(slots)
    seats = tuple(ruleset.seats)
    units = []
    for seat in seats:
        own = tuple((p.name, by_pile[p.name]) for p in ruleset.piles if getattr(p, "seat", None) == seat)
        if own:
            units.append(StickerUnit(seat, own))
    shared = tuple((p.name, by_pile[p.name]) for p in ruleset.piles if getattr(p, "seat", None) not in seats)
    if shared:
        units.append(StickerUnit(None, shared))
    return tuple(units)


def sticker_set(set_id: SetId, event_name: str, ruleset: Any, entry_url: str | None = None, event_key: str = "",
                copy: str = "") -> StickerSet:
    """The stickers of set ``set_id`` of an event played with ``ruleset``, their QR codes linking
    to ``entry_url`` (the event's public address) when given, in the short form with
    ``event_key``; ``copy`` names the physical copy. Needs no wall, since a sticker names no tile
    (print jobs use this and never read the stored walls)."""
    return StickerSet(set_id, event_name, sticker_units(ruleset), entry_url, event_key, copy)


def sticker_set_of(pset: PrintableSet) -> StickerSet:
    """The stickers of a :class:`PrintableSet`: its wall is checked against its rule set first
    (PrintDataError naming the set and pile, as :func:`placements`), then every tile is dropped."""
    placements(pset)
    return sticker_set(pset.set_id, pset.event_name, pset.ruleset, pset.entry_url)


@dataclass(frozen=True)
class ScoreSheet:
    """One table's score sheet for a session.

    ``table_label`` is the table's number (printed as ``Table 3`` / ``第 3 卓`` in the sheet's
    language) or a label printed as given; ``login`` is what the table's login QR code holds (the
    table login URL with the code); ``code`` the table's login code, printed as text under the QR
    code with the address to type it at (the login URL without the code), so a table whose phone
    cannot scan has both to type;
    ``seats`` lists ``(seat, player name)`` in seat order; ``sets`` the set codes in play order;
    a thicker line is drawn after every ``block_size`` hands (one wind round in MCR duplicate);
    ``room`` the table's room name ("" when rooms are not used), printed beside the table;
    ``value_unit`` what the rule set counts a hand's value in, ``"fan"`` (MCR) or ``"han"``
    (riichi and its kin), named in the winner's column.
    """

    event_name: str
    session: int
    table_label: str
    login: str
    seats: Sequence[tuple[str, str]]
    sets: Sequence[str]
    block_size: int = 4
    ruleset_name: str = ""
    code: str = ""
    room: str = ""
    value_unit: str = "fan"


@dataclass(frozen=True)
class MovementRow:
    """One table in one slot of a movement: the ``sets`` it plays and where they go next
    (``next_table`` None after the last slot); ``room`` and ``next_room`` name the rooms of the
    two tables ("" when rooms are not used), so staff carrying sets know where to walk."""

    slot: int
    table: Any
    sets: Sequence[Any]
    next_table: Any = None
    room: str = ""
    next_room: str = ""

    @classmethod
    def of(cls, row: MovementRow | Mapping[Any, Any]) -> MovementRow:
        """Accept a MovementRow or a mapping with the same keys."""
        if isinstance(row, MovementRow):
            return row
        try:
            return cls(row["slot"], row["table"], tuple(row["sets"]), row.get("next_table"),
                       row.get("room") or "", row.get("next_room") or "")
        except (KeyError, TypeError) as exc:
            raise PrintDataError(f"movement row needs slot, table and sets, got {row!r}") from exc


__all__ = ["PrintableSet", "Placement", "Unit", "ScoreSheet", "MovementRow", "PrintDataError",
           "StickerSlot", "StickerUnit", "StickerSet", "placements", "set_units", "sticker_units",
           "sticker_set", "sticker_set_of"]
