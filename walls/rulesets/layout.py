"""How a wall set lies on the table: each seat's rows in laying order, and the dead wall's roles.

**Rows** (:func:`rows`, :func:`seat_rows`). Staff lay every seat's tiles in rows in front of that
seat, nearest first (docs/rules.md, "Duplicate MCR: seat layout and private draw piles": 「手前から
順に、配牌 13枚、下ヤマ 11枚、上ヤマ 10枚」): the starting hand as one flat row, then each pile that
is drawn from as a *lower* and an *upper* row, the upper row then lifted onto the lower one. A
pile is drawn in the usual order, upper tile before lower tile of each stack (「普通のツモと同じ順序で
牌をツモる」), so slot ``n`` of a stacked pile sits in stack ``ceil(n / 2)``: odd slots in the upper
row, even slots in the lower row; an odd pile's last slot has no tile above it and lies in the
lower row (21 draws: a lower row of 11, ``D2 D4 … D20 D21``, and an upper row of 10, ``D1 D3 …
D19``, as the seed lays them). Dead walls are numbered the same way (walls/rulesets/model.py:
``X1`` upper, ``X2`` lower of the first stack). Stack 1 is at the left end of the row as seen from
the seat, where drawing starts (the seeds do not say which end: the product's convention, printed
on the set-up sheet). A pile longer than :data:`MAX_STACKS` stacks (a shared live wall) is laid
as several pairs of rows of even length.

**Dead wall** (:func:`dead_wall`). The dead piles in wall order form one dead wall, numbered
``1..n`` across them (a per-seat layout keeps its dead tiles in front of each seat: East's 2,
then South's 4, ...). With the rule set's ``dora_indicator`` at position ``d``: positions
``1..d-1`` are the replacement tiles for kongs (and nuki-dora), taken in that order whoever
declares; ``d`` is the dora indicator; every second position after it (``d+2``, ``d+4``, ...) a
kan-dora indicator, turned in that order; the tile under each indicator (the next even
position) its ura-dora. That is riichi's dead wall (``X1``-``X4`` replacements, ``X5`` the
indicator, ``X7``-``X13`` kan-dora) and the seeds' Souzu (``X7``) and Shiragiku (``X9``). Without a
``dora_indicator`` every dead tile is a replacement tile, in order.

**Draws without calls** (:func:`draw_sequence`, :func:`reachable_draws`). With private draw
piles the seats draw in turn order from the dealer, each the next tile of its own pile, and the
hand ends when the seat to draw has no tile left (docs/rules.md, "Duplicate MCR: end of a hand":
the player whose pile ran out discards, then the next three each draw and discard once). Piles
of equal size are all drawn to the end and the last draw is the one of the seat before the dealer
(MCR duplicate, 21 each: North's ``D21``); unequal piles are not: in ``riichi-duplicate`` (East 19,
the others 17) South's pile runs out first, so East draws ``D18`` last and its ``D19`` is drawn
only when calls or kongs skip a seat (docs/rules.md, "Riichi duplicate layouts").

Standalone: no Django import.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

MAX_STACKS = 17
"""Most stacks in one row: one side of a 136-tile wall."""


@dataclass(frozen=True)
class Row:
    """One row of tiles as staff lay it and as a sticker strip covers it.

    ``seat`` owns the pile (None: shared); ``pile`` is the pile's name and ``kind`` its kind
    (``hand``, ``draw``, ``live``, ``dead``); ``level`` is ``flat``, ``lower`` or ``upper``;
    ``part`` counts the pairs of rows of a pile longer than :data:`MAX_STACKS` stacks (1 for
    others) and ``parts`` how many there are; ``labels`` are the slot labels left to right as seen
    from the seat (``("D2", "D4", …, "D21")``); ``numbers`` their 1-based numbers in the pile;
    ``stacks`` is the row's length in stack positions (the lower row's tile count: an upper row
    of 10 over 11 stacks has ``stacks == 11``)."""

    seat: str | None
    pile: str
    kind: str
    level: str
    part: int
    parts: int
    labels: tuple[str, ...]
    numbers: tuple[int, ...]
    stacks: int

    def __len__(self) -> int:
        return len(self.labels)


def _even_split(total: int, most: int) -> list[int]:
    """``total`` in the fewest parts of at most ``most``, as even as possible (35, 17 → 12, 12, 11)."""
    count = max(1, -(-total // most))
    base, extra = divmod(total, count)
    return [base + (1 if i < extra else 0) for i in range(count)]


def pile_rows(pile: Any, max_stacks: int = MAX_STACKS) -> list[Row]:
    """The rows of one pile (a :class:`walls.rulesets.Pile`) in laying order: a hand is one flat
    row ``H1..Hn``; any other pile pairs of lower and upper rows of stacks (module doc), lower
    first. Raises ValueError for ``max_stacks`` below 1."""
    if max_stacks < 1:
        raise ValueError(f"max_stacks must be at least 1, got {max_stacks}")
    prefix = pile.slot_prefix
    seat = getattr(pile, "seat", None)
    if pile.kind == "hand":
        numbers = tuple(range(1, pile.size + 1))
        return [Row(seat, pile.name, pile.kind, "flat", 1, 1, tuple(f"{prefix}{n}" for n in numbers), numbers, pile.size)]
    stacks = -(-pile.size // 2)
    out: list[Row] = []
    parts = _even_split(stacks, max_stacks)
    first = 1
    for part, count in enumerate(parts, start=1):
        stack_numbers = range(first, first + count)
        upper = tuple(2 * k - 1 for k in stack_numbers if 2 * k <= pile.size)
        lower = tuple(2 * k if 2 * k <= pile.size else 2 * k - 1 for k in stack_numbers)
        for level, numbers in (("lower", lower), ("upper", upper)):
            if numbers:
                out.append(Row(seat, pile.name, pile.kind, level, part, len(parts),
                               tuple(f"{prefix}{n}" for n in numbers), numbers, count))
        first += count
    return out


def rows(ruleset: Any, max_stacks: int = MAX_STACKS) -> list[Row]:
    """Every row of a wall set of ``ruleset`` in laying order: per seat (the rule set's seat order)
    its piles in wall order, then the shared piles. Each slot of the rule set is in exactly one
    row."""
    seats = tuple(ruleset.seats)
    own = [p for seat in seats for p in ruleset.piles if getattr(p, "seat", None) == seat]
    shared = [p for p in ruleset.piles if getattr(p, "seat", None) not in seats]
    return [row for pile in own + shared for row in pile_rows(pile, max_stacks)]


def seat_rows(ruleset: Any, max_stacks: int = MAX_STACKS) -> list[tuple[str | None, list[Row]]]:
    """:func:`rows` grouped by seat: ``[(seat, rows), ...]`` in seat order, the shared piles last
    under ``None``."""
    out: list[tuple[str | None, list[Row]]] = []
    for row in rows(ruleset, max_stacks):
        if not out or out[-1][0] != row.seat:
            out.append((row.seat, []))
        out[-1][1].append(row)
    return out


def row_of(ruleset: Any, pile: str, number: int) -> tuple[Row, int]:
    """The row holding slot ``number`` of pile ``pile`` and the slot's 0-based position in it
    (from the left, as seen from the seat). Raises KeyError for a slot the rule set lacks."""
    for row in rows(ruleset):
        if row.pile == pile and number in row.numbers:
            return row, row.numbers.index(number)
    raise KeyError(f"{pile} {number}")


@dataclass(frozen=True)
class DeadSlot:
    """One tile of the dead wall: its pile, the pile's seat (None: shared), the slot label in the
    pile (``"X3"``), its 1-based ``position`` in the whole dead wall (module doc), and its
    ``role`` (``replacement``, ``indicator``, ``kan_indicator`` or ``ura``) with ``order``: the
    1-based replacement or kan-dora number (1 for the dora indicator; for an ura-dora the number
    of the indicator above it: 0 under the dora indicator)."""

    pile: str
    seat: str | None
    label: str
    position: int
    role: str
    order: int


@dataclass(frozen=True)
class DeadWall:
    """The dead wall's tiles in position order (:class:`DeadSlot`) and shortcuts to them."""

    slots: tuple[DeadSlot, ...]

    def of_role(self, role: str) -> list[DeadSlot]:
        """The slots of one role in their order."""
        return sorted((s for s in self.slots if s.role == role), key=lambda s: s.order)

    @property
    def indicator(self) -> DeadSlot | None:
        """The dora indicator, or None when the rule set marks none."""
        found = self.of_role("indicator")
        return found[0] if found else None

    def role_of(self, pile: str, label: str) -> DeadSlot | None:
        """The dead slot at ``label`` of pile ``pile``, or None for a slot outside the dead wall."""
        return next((s for s in self.slots if s.pile == pile and s.label == label), None)


def dead_wall(ruleset: Any) -> DeadWall | None:
    """The roles of the dead wall of ``ruleset`` (module doc), or None for a rule set without dead
    piles. The rule set's ``dora_indicator`` (``"X5"``) is a position in the whole dead wall."""
    dead = [p for p in ruleset.piles if p.kind == "dead"]
    if not dead:
        return None
    indicator = int(ruleset.dora_indicator[1:]) if getattr(ruleset, "dora_indicator", None) else None
    total = sum(p.size for p in dead)
    slots = []
    position = 0
    for pile in dead:
        for n in range(1, pile.size + 1):
            position += 1
            if indicator is None or position < indicator:
                role, order = "replacement", position
            elif (position - indicator) % 2 == 0:
                role, order = ("indicator", 1) if position == indicator else ("kan_indicator", (position - indicator) // 2)
            else:
                role, order = "ura", (position - 1 - indicator) // 2
            slots.append(DeadSlot(pile.name, getattr(pile, "seat", None), f"{pile.slot_prefix}{n}", position, role, order))
    assert position == total
    return DeadWall(tuple(slots))


def _draw_sizes(ruleset: Any) -> dict[str, int]:
    """Each seat's draw-pile tiles, in seat order; empty without private draw piles."""
    if not any(p.kind == "draw" for p in ruleset.piles):
        return {}
    return {seat: sum(p.size for p in ruleset.piles if p.kind == "draw" and getattr(p, "seat", None) == seat)
            for seat in ruleset.seats}


def draw_sequence(ruleset: Any) -> list[tuple[str, int]]:
    """The draws of a wall set of ``ruleset`` played without calls (module doc): ``[(seat, n),
    ...]`` in play order, ``n`` the 1-based draw of that seat's own draw pile (``("N", 21)``: North's
    ``D21``); the last entry is the hand's last draw. Empty for a rule set without private draw
    piles (a shared live wall is dealt in turn order by :func:`scoring.par.seat_tiles`)."""
    sizes = _draw_sizes(ruleset)
    seats = tuple(sizes)
    drawn = dict.fromkeys(seats, 0)
    out: list[tuple[str, int]] = []
    for turn in range(sum(sizes.values())):
        seat = seats[turn % len(seats)]
        if drawn[seat] >= sizes[seat]:
            break
        drawn[seat] += 1
        out.append((seat, drawn[seat]))
    return out


def reachable_draws(ruleset: Any) -> dict[str, int]:
    """How many tiles of its own draw pile each seat draws in a hand without calls
    (:func:`draw_sequence`): ``{seat: draws}`` in seat order (``mcr-duplicate``: 21 each;
    ``riichi-duplicate-dead14``: 18, 18, 17, 17; ``riichi-duplicate``: East 18 of its 19, the others
    17). Empty for a rule set without private draw piles."""
    counts = dict.fromkeys(_draw_sizes(ruleset), 0)
    for seat, n in draw_sequence(ruleset):
        counts[seat] = n
    return counts
