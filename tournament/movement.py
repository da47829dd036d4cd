"""Seats inside a group and the movement of wall sets between tables (docs/seating.md).

A *group* (section) is N tables, where N is the number of seats of the rule set (2, 3 or 4):
N teams of N members (team event) or N*N players (individual event). Every table of a group plays
every wall set of the session, so results can be compared set by set (docs/rules.md, "Duplicate MCR: the duplicate format").

- Seats: a Latin square puts one member of each team at every table so that each team plays
  every seat of every set exactly once (docs/rules.md, "Duplicate MCR: team event"). Members (and individual player
  slots) turn one seat further each session, so winds even out over the event.
- Movement: the sets of a session are cut into N *blocks* of consecutive sets (MCR duplicate: one
  wind round of 4 hands). Table k starts with block k and, after each block, the framed sets move
  on, so after N slots every table has played every set and no two tables of a group ever play
  the same set at the same time (docs/rules.md, "Duplicate MCR: rotation of the sets"; docs/rules.md, "MIL duplicate rules: sessions need not start with East": tables of a group never play the same
  hand at once).
- Physical copies: a copy of a set is at one table for one hand, then needs ``rebuild_hands``
  hands of staff work (the seed's staff re-set a played wall while the next hand is played)
  before it can be played again. Groups that share the same walls need more copies; offsetting
  the groups inside each block (``stagger``) lets one copy serve several groups.

Indices: tables, seats, team slots, members, slots and hands are 0-based (seat 0 is the dealer,
East); set numbers are 1-based as printed on the labels (walls/setcode.py). Event-wide table
index = ``group * n_tables + table``.

Standalone: no Django import; tournament services store and print what these functions return.
Error messages are translated through :mod:`tournament.i18n` when Django runs.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Sequence
from typing import Any, cast
from dataclasses import dataclass

from tournament.i18n import gettext as _


class MovementError(ValueError):
    """A movement, seating or room plan that cannot work; the message names the field and the fix."""


def _size_name(name: str) -> str:
    """A size checked by :func:`check_size`, named in the active language."""
    return {
        "number of seats": _("number of seats"),
        "tables per group": _("tables per group"),
        "sets per session": _("sets per session"),
        "groups sharing the walls": _("groups sharing the walls"),
        "rebuild hands": _("rebuild hands"),
        "number of rooms": _("number of rooms"),
    }.get(name, name)


def check_size(name: str, value: object, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise MovementError(_("%(field)s must be a whole number of at least %(minimum)s, got %(value)s")
                            % {"field": _size_name(name), "minimum": minimum, "value": repr(value)})
    return value


@dataclass(frozen=True)
class Movement:
    """The set plan of one session, the same for every session of the event.

    - ``n_tables``: tables per group (= seats N); ``sets_per_session``: wall sets per session;
      ``block_size``: sets a table plays between two moves (``sets_per_session // n_tables``);
      ``n_groups``: groups that play the same walls; ``slots``: block rounds (= ``n_tables``).
    - ``copies``: physical copies of each set the session needs (over all groups);
      ``rebuild_hands``: hands of staff work between two plays of one copy.
    - ``plan[slot][table]``: the 1-based sets an event-wide table plays in that slot, in order;
      ``copy_plan[slot][table]``: the copy used for each of those sets.

    Build it with :func:`rotation_movement`.
    """

    n_tables: int
    sets_per_session: int
    block_size: int
    n_groups: int
    copies: int
    slots: int
    rebuild_hands: int
    plan: tuple[tuple[tuple[int, ...], ...], ...]
    copy_plan: tuple[tuple[tuple[int, ...], ...], ...]

    @property
    def total_tables(self) -> int:
        """Tables of all the groups that share the walls: ``n_tables * n_groups``."""
        return self.n_tables * self.n_groups

    def sets_at(self, table: int, slot: int) -> tuple[int, ...]:
        """The 1-based sets event-wide ``table`` plays in 0-based ``slot``, in playing order.

        Raises MovementError if the table or slot is out of range.
        """
        self._check_table(table)
        self._check_slot(slot)
        return self.plan[slot][table]

    def table_of(self, set_no: int, slot: int, group: int = 0) -> int:
        """The event-wide table of ``group`` that plays ``set_no`` (1-based) in ``slot``.

        Raises MovementError if the set, slot or group is out of range.
        """
        self._check_set(set_no)
        self._check_slot(slot)
        if not 0 <= group < self.n_groups:
            raise MovementError(_("group must be 0 to %(last)s, got %(group)s") % {"last": self.n_groups - 1, "group": group})
        for table in range(group * self.n_tables, (group + 1) * self.n_tables):
            if set_no in self.plan[slot][table]:
                return table
        raise MovementError(_("set %(set)s is not played by group %(group)s in slot %(slot)s: the movement is broken, rebuild it")
                            % {"set": set_no, "group": group, "slot": slot})

    def uses(self) -> list[tuple[int, int, int, int]]:
        """Every play of a set: ``(set_no, copy, hand_time, table)`` sorted, where
        ``hand_time = slot * block_size + hand`` counts hands from the start of the session."""
        return sorted(
            (set_no, copy, slot * self.block_size + hand, table)
            for slot, row in enumerate(self.plan)
            for table, sets in enumerate(row)
            for hand, (set_no, copy) in enumerate(zip(sets, self.copy_plan[slot][table]))
        )

    def _check_table(self, table: int) -> None:
        if not 0 <= table < self.total_tables:
            raise MovementError(_("table must be 0 to %(last)s (event-wide), got %(table)s") % {"last": self.total_tables - 1, "table": table})

    def _check_slot(self, slot: int) -> None:
        if not 0 <= slot < self.slots:
            raise MovementError(_("slot must be 0 to %(last)s, got %(slot)s") % {"last": self.slots - 1, "slot": slot})

    def _check_set(self, set_no: int) -> None:
        if not 1 <= set_no <= self.sets_per_session:
            raise MovementError(_("set number must be 1 to %(last)s, got %(set)s") % {"last": self.sets_per_session, "set": set_no})


def ruleset_movement(ruleset: Any, n_groups: int = 1, stagger: bool = False) -> Movement:
    """The rotation (docs/rules.md, "Duplicate MCR: rotation of the sets") that a rule set's tables play: one table per seat
    (``len(ruleset.seats)`` tables a group) and ``ruleset.hands_per_session`` sets, for
    ``n_groups`` groups sharing the walls, staggered or not (``stagger``, :func:`rotation_movement`).
    ``ruleset`` is a :class:`walls.rulesets.RuleSet` (any object with ``seats`` and
    ``hands_per_session``). The one place that says how a rule set moves: seating, the table
    pages, results and print jobs all ask it. Raises MovementError as :func:`rotation_movement`
    does."""
    return _cached_rotation(len(ruleset.seats), ruleset.hands_per_session, n_groups, stagger)


@functools.lru_cache(maxsize=64)
def _cached_rotation(n_tables: int, sets_per_session: int, n_groups: int, stagger: bool) -> Movement:
    return rotation_movement(n_tables, sets_per_session, n_groups=n_groups, stagger=stagger)


def place_tables(ruleset: Any, n_groups: int, capacities: Sequence[int]) -> tuple[list[int], bool]:
    """Put one session's tables (``n_groups`` groups of the rule set's tables) into rooms of
    ``capacities`` (tables per room, room by room) so that no two tables play the same set at
    the same hand in one room (:func:`assign_rooms`). Returns ``(room index of each event-wide
    table, stagger)``: the groups play unstaggered when the rooms allow it; otherwise staggered
    (each group plays its blocks in a turned order, :func:`rotation_movement`), which cuts the
    tables playing one set at one hand from one per group to one per group sharing an offset
    (docs/seating.md, "Rooms"). 32 teams in 4 rooms of 8 tables: unstaggered, table 1 of all 8
    groups plays set 1 at the first hand (8 rooms needed); staggered, only 2 groups share each
    offset. Raises MovementError naming how many rooms of which size would do when neither
    fits (or :func:`assign_rooms`' message for a single group)."""
    n = len(ruleset.seats)
    total = n * n_groups
    try:
        return assign_rooms(total, list(capacities), ruleset_movement(ruleset, n_groups)), False
    except MovementError:
        if n_groups < 2:
            raise
    staggered = ruleset_movement(ruleset, n_groups, stagger=True)
    try:
        return assign_rooms(total, list(capacities), staggered), True
    except MovementError:
        pass
    need = max(len(c) for c in _clash_classes(staggered))
    rooms = need
    while True:  # the fewest equal rooms that would do, as an example for the director
        size = -(-total // rooms)
        try:
            assign_rooms(total, [size] * rooms, staggered)
            break
        except MovementError:
            rooms += 1
    raise MovementError(
        _("the rooms (%(capacity)s tables) cannot hold the %(total)s tables of %(groups)s groups: even with the groups "
          "staggered, %(need)s tables play the same set at the same hand and must be in different rooms. Add rooms or "
          "capacity, e.g. %(rooms)s rooms of %(size)s tables")
        % {"capacity": ", ".join(str(c) for c in capacities), "total": total, "groups": n_groups, "need": need,
           "rooms": rooms, "size": size}
    )


def rotation_movement(
    n_tables: int,
    sets_per_session: int,
    n_groups: int = 1,
    stagger: bool = False,
    rebuild_hands: int = 1,
) -> Movement:
    """Build the rotation (docs/rules.md, "Duplicate MCR: rotation of the sets") for ``n_groups`` groups of ``n_tables`` tables sharing the walls.

    Block ``b`` holds sets ``b * block_size + 1 .. (b + 1) * block_size``. In slot ``k`` table ``t``
    of every group plays block ``(t + k) % n_tables``: table 0 starts with block 0 (MCR: the East
    round, sets 1-4), table 1 with block 1 (South, 5-8)..., and each table then plays the next
    wind round, so after each slot a framed block goes from table ``t`` to table ``t - 1`` (table 0
    hands on to the last table). After ``n_tables`` slots every table has played every set once.

    Copies: a copy is at one table for one hand and then needs ``rebuild_hands`` hands of staff work
    (docs/rules.md, "Duplicate MCR: rotation of the sets": a played wall is re-set while the next hand is played). Without ``stagger`` all
    groups play each set at the same moment, so every group needs its own copy (and two when a
    block is a single hand, as the copy cannot be rebuilt before the next table needs it). With
    ``stagger``, each group plays its block in a turned order (starting ``offset`` hands in) so one
    copy is carried from group to group inside a slot: offsets are taken first ``rebuild_hands + 1``
    hands apart (0, 2, ... for MCR), then the ones between (1, 3, ...), so ``block_size //
    (rebuild_hands + 1)`` groups share one copy (MCR, 4-hand blocks: two groups per copy) and, up to
    ``block_size`` groups, no two tables play the same set at the same hand. Copies are assigned
    play by play to the lowest-numbered copy that is free again, which needs exactly as many copies
    as plays of one set overlap with their rebuild time (interval colouring).

    Raises MovementError if a size is not a whole number or ``sets_per_session`` is not a multiple
    of ``n_tables`` (the message names the nearest sizes that rotate).
    """
    check_size("tables per group", n_tables)
    check_size("sets per session", sets_per_session)
    check_size("groups sharing the walls", n_groups)
    check_size("rebuild hands", rebuild_hands, 0)
    if sets_per_session % n_tables:
        lower = sets_per_session - sets_per_session % n_tables
        upper = lower + n_tables
        values = {"sets": sets_per_session, "tables": n_tables, "lower": lower, "upper": upper}
        if lower:
            raise MovementError(_("sets per session (%(sets)s) must be a multiple of the %(tables)s tables of a group, so each "
                                  "table plays the same number of sets between moves: use %(lower)s or %(upper)s sets per session")
                                % values)
        raise MovementError(_("sets per session (%(sets)s) must be a multiple of the %(tables)s tables of a group, so each "
                              "table plays the same number of sets between moves: use %(upper)s sets per session") % values)
    block = sets_per_session // n_tables
    spaced = sorted(range(block), key=lambda hand: (hand % (rebuild_hands + 1), hand))
    offsets = [spaced[g % block] if stagger else 0 for g in range(n_groups)]
    plan = tuple(
        tuple(
            tuple(((t + slot) % n_tables) * block + (hand + offsets[g]) % block + 1 for hand in range(block))
            for g in range(n_groups)
            for t in range(n_tables)
        )
        for slot in range(n_tables)
    )
    copy_plan, copies = _assign_copies(plan, block, rebuild_hands)
    return Movement(n_tables, sets_per_session, block, n_groups, copies, n_tables, rebuild_hands, plan, copy_plan)


def _assign_copies(plan: tuple[tuple[tuple[int, ...], ...], ...], block: int,
                   rebuild_hands: int) -> tuple[tuple[tuple[tuple[int, ...], ...], ...], int]:
    """Give each play the lowest-numbered copy of its set that is free again; returns the copy plan
    (same shape as ``plan``) and the number of copies of the busiest set."""
    plays = sorted(
        (slot * block + hand, set_no, slot, table, hand)
        for slot, row in enumerate(plan)
        for table, sets in enumerate(row)
        for hand, set_no in enumerate(sets)
    )
    free_at: dict[int, list[int]] = defaultdict(list)
    chosen: dict[tuple[int, int, int], int] = {}
    for time, set_no, slot, table, hand in plays:
        copies = free_at[set_no]
        copy = next((c for c, at in enumerate(copies) if at <= time), len(copies))
        if copy == len(copies):
            copies.append(0)
        copies[copy] = time + 1 + rebuild_hands
        chosen[(slot, table, hand)] = copy
    copy_plan = tuple(
        tuple(tuple(chosen[(slot, table, hand)] for hand in range(len(sets))) for table, sets in enumerate(row))
        for slot, row in enumerate(plan)
    )
    return copy_plan, max(len(c) for c in free_at.values())


def assign_rooms(n_tables: int, rooms: int | Sequence[int], movement: Movement) -> list[int]:
    """Put the event's tables into rooms; returns the 0-based room of each event-wide table.

    ``n_tables``: all tables of the groups sharing the walls (must be ``movement.n_tables *
    movement.n_groups``). ``rooms``: either the number of rooms (any size; tables are spread so
    room sizes differ by at most one) or the capacity (tables) of each room.

    Constraint checked: two tables that play the same set at the same hand go to different rooms,
    or the play at one would be heard at the other while it plays the same wall. Within a group the
    rotation never does that, so only tables of different groups that share the walls can clash
    (without ``stagger``, table ``t`` of every group; with it, groups at the same offset). Tables
    are linked into *clash classes* (connected by such shared plays); a class of size c needs c
    different rooms. It is not checked that a table cannot hear a set it will play later: docs/rules.md, "Duplicate MCR: rooms and separation"
    rules that out only by giving every table its own room (pass ``[1] * n_tables``), which this
    function always accepts.

    Feasibility (max-flow, min-cut): with clash classes sorted by size s_1 >= s_2 >= ..., the plan
    exists iff for every a, sum over rooms of min(capacity, a) >= s_1 + ... + s_a. Classes are
    placed largest first into the rooms with most room left, which succeeds whenever it exists.

    Raises MovementError if the table count does not match the movement, a capacity is negative,
    or the rooms cannot hold the tables under the constraint (the message says how many rooms or
    which capacity would do).
    """
    total = movement.total_tables
    if n_tables != total:
        raise MovementError(
            _("tables (%(tables)s) must be the movement's %(groups)s group(s) x %(per_group)s tables = %(total)s")
            % {"tables": n_tables, "groups": movement.n_groups, "per_group": movement.n_tables, "total": total}
        )
    classes = _clash_classes(movement)
    largest = max(len(c) for c in classes)
    # The tables of the largest clash class as the director sees them: event-wide numbers from 1.
    widest: list[int] = max(classes, key=len)
    example = ", ".join(str(index + 1) for index in sorted(widest))
    if isinstance(rooms, int) and not isinstance(rooms, bool):
        check_size("number of rooms", rooms)
        if rooms < largest:
            raise MovementError(
                _("%(rooms)s room(s) are too few: tables %(tables)s play the same sets at the same time and need %(need)s "
                  "different rooms; use at least %(need)s rooms or stagger the groups")
                % {"rooms": rooms, "tables": example, "need": largest}
            )
        capacity = [total] * rooms
    else:
        capacity = list(cast(Sequence[int], rooms))
        if not capacity or any(isinstance(c, bool) or not isinstance(c, int) or c < 0 for c in capacity):
            raise MovementError(_("room capacities must be whole numbers of tables (0 or more), one per room, got %(rooms)s")
                                % {"rooms": repr(rooms)})
        sizes = [len(c) for c in classes]
        for a in range(1, len(sizes) + 1):
            fits = sum(min(c, a) for c in capacity)
            if fits < sum(sizes[:a]):
                raise MovementError(
                    _("rooms %(capacity)s cannot hold the %(total)s tables: %(need)s tables in %(classes)s clash class(es) "
                      "(e.g. tables %(tables)s, which play the same sets at the same time) fit only %(fits)s with at most one "
                      "per room per class; add rooms or capacity, or stagger the groups")
                    % {"capacity": capacity, "total": total, "need": sum(sizes[:a]), "classes": a, "tables": example,
                       "fits": fits}
                )
    room_of = [0] * total
    load = [0] * len(capacity)
    for tables in classes:
        chosen = sorted(range(len(capacity)), key=lambda r: (load[r] - capacity[r], load[r], r))[: len(tables)]
        for table, room in zip(sorted(tables), sorted(chosen)):
            room_of[table] = room
            load[room] += 1
    return room_of


def _clash_classes(movement: Movement) -> list[list[int]]:
    """Tables linked by playing the same set at the same hand, largest class first."""
    parent = list(range(movement.total_tables))

    def root(t: int) -> int:
        while parent[t] != t:
            parent[t] = parent[parent[t]]
            t = parent[t]
        return t

    first: dict[tuple[int, int], int] = {}
    for set_no, _copy, time, table in movement.uses():
        other = first.setdefault((set_no, time), table)
        parent[root(table)] = root(other)
    classes: dict[int, list[int]] = defaultdict(list)
    for table in range(movement.total_tables):
        classes[root(table)].append(table)
    return sorted(classes.values(), key=lambda c: (-len(c), c[0]))
