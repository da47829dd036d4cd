"""The rooms of an event, set by its director (docs/director-guide.md, "3. People and entrants";
docs/seating.md, "Rooms"): what the tables need, whether the rooms hold them, and setting them.

Each public write is one transaction, audited (:meth:`tournament.models.Event.log`) and safe to
repeat. Errors are :class:`tournament.seating.SetupError` naming the input.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from tournament.models import (
    Event,
    Room,
)
from tournament.movement import MovementError, place_tables
from tournament.seating import SetupError, current_entrants, group_size

@dataclass(frozen=True)
class RoomNeed:
    """What the roster asks of the rooms: ``entrants`` (present, not withdrawn), ``groups`` and
    ``tables`` per session, ``seats`` per table."""

    entrants: int
    groups: int
    tables: int
    seats: int


def room_need(event: Event) -> RoomNeed:
    """The tables one session of ``event`` needs from its roster: entrants / group size rounded
    up (substitutes fill the last group), rounded down under a sit-out policy (the rest sit
    out), times the seats of the rule set (docs/seating.md, "Entrant counts...")."""
    entrants = len(current_entrants(event))
    size = group_size(event)
    seats = len(event.get_ruleset().seats)
    if event.entrant_policy in (Event.EntrantPolicy.SIT_OUT_AVERAGE, Event.EntrantPolicy.SIT_OUT_DATUM):
        groups = entrants // size
    else:
        groups = math.ceil(entrants / size)
    return RoomNeed(entrants, groups, groups * seats, seats)


def rooms_problem(event: Event, capacities: Sequence[int] | None = None) -> str | None:
    """Why the rooms (``capacities`` in tables, room by room; None: the event's rooms) cannot
    hold one session's tables so that no two tables playing the same set at the same hand share
    a room (:func:`tournament.movement.place_tables`: staggering the groups when that makes them fit); None when they can, when no rooms are set
    (then every table gets a room of its own, docs/rules.md, "Duplicate MCR: rooms and separation") or when there is no roster yet."""
    if capacities is None:
        capacities = list(event.rooms.order_by("number").values_list("capacity", flat=True))
    need = room_need(event)
    if not capacities or not need.groups:
        return None
    if len(capacities) >= need.tables and all(c == 1 for c in capacities):
        return None
    try:
        place_tables(event.get_ruleset(), need.groups, list(capacities))
    except MovementError as exc:
        return str(exc)
    return None


@transaction.atomic
def set_rooms(event: Event, rooms: Iterable[tuple[int | None, str, int]], *, actor: str) -> list[Room]:
    """Make the event's rooms exactly ``rooms``: ``(number, name, capacity in tables)`` each;
    a room whose number exists is renamed and resized in place (its tables stay in it), number
    None adds a room (next free number), a room left out is removed. Returns the rooms by number.

    Raises SetupError ("rooms") for an empty name, a capacity below 1, a name given twice, the
    removal of a room that a seated table uses, or rooms that cannot hold one session's tables
    (:func:`rooms_problem`); nothing changes then. AuditEntry ``rooms-changed`` (before, after)
    when anything changed."""
    rooms = [(number, (name or "").strip(), capacity) for number, name, capacity in rooms]
    existing = {r.number: r for r in event.rooms.select_for_update().order_by("number")}
    for number, name, capacity in rooms:
        if not name:
            raise SetupError("rooms", _("give every room a name"))
        if not isinstance(capacity, int) or capacity < 1:
            raise SetupError("rooms", _("room %(room)s: the capacity is the number of tables it holds, 1 or more") % {"room": name})
        if number is not None and number not in existing:
            raise SetupError("rooms", _("room number %(number)s does not exist: reload the page") % {"number": number})
    names = [name for _, name, _ in rooms]
    if len(set(names)) != len(names):
        raise SetupError("rooms", _("two rooms have the same name: give each its own"))
    kept = {number for number, _, _ in rooms if number is not None}
    removed = [r for number, r in existing.items() if number not in kept]
    used = [r.name for r in removed if r.tables.exists()]
    if used:
        raise SetupError("rooms", _("%(rooms)s holds tables of a seated session and cannot be removed; rename it instead")
                         % {"rooms": ", ".join(used)})
    problem = rooms_problem(event, [c for _, _, c in rooms])
    if problem:
        raise SetupError("rooms", problem)
    before = [[r.name, r.capacity] for r in existing.values()]
    for room in removed:
        room.delete()
    next_number = max(existing, default=0)
    for number, name, capacity in rooms:
        if number is None:
            next_number += 1
            Room.objects.create(event=event, number=next_number, name=name, capacity=capacity)
        elif (existing[number].name, existing[number].capacity) != (name, capacity):
            Room.objects.filter(pk=existing[number].pk).update(name=name, capacity=capacity)
    after = list(event.rooms.order_by("number"))
    if [[r.name, r.capacity] for r in after] != before:
        event.log("rooms-changed", actor, before=before, after=[[r.name, r.capacity] for r in after])
    return after


def quick_rooms(event: Event, rooms: int, capacity: int, *, actor: str) -> list[Room]:
    """``rooms`` rooms of ``capacity`` tables each, numbered 1 to ``rooms``: rooms that exist keep
    their names, new ones are called "Room k", rooms beyond are removed (:func:`set_rooms`, same
    errors). Raises SetupError ("rooms") when ``rooms`` is below 1."""
    if not isinstance(rooms, int) or rooms < 1 or rooms > 500:
        raise SetupError("rooms", _("give the number of rooms, 1 to 500"))
    existing = {r.number: r.name for r in event.rooms.all()}
    kept = {existing[k] for k in range(1, rooms + 1) if k in existing}
    spec: list[tuple[int | None, str, int]] = []
    for k in range(1, rooms + 1):
        if k in existing:
            spec.append((k, existing[k], capacity))
            continue
        name = _("Room %(number)s") % {"number": k}
        while name in kept:  # a kept room renamed to this: number the new one apart
            name += "'"
        kept.add(name)
        spec.append((None, name, capacity))
    return set_rooms(event, spec, actor=actor)


