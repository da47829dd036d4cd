"""Seats inside a group and who holds them (docs/seating.md, "Seats"; docs/scoring.md, "Substitutions").

The pure seat arithmetic: the Latin square that puts one member of each team at every table, the
seating of team and individual groups session by session, the balancing of winds when groups
change, and :func:`seat_holders`, the one rule for who holds a seat on a set once substitutions are
made. :mod:`tournament.table_plan` applies them to the stored event; :mod:`tournament.movement`
moves the wall sets between the tables.

Indices are 0-based (seat 0 is the dealer, East). Standalone: no Django import.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from tournament.i18n import gettext as _
from tournament.movement import MovementError, check_size

Holder = TypeVar("Holder")  # whatever the caller says holds a seat: a Player, (player id, team id)...


def latin_square(n: int) -> list[list[int]]:
    """Return the seat of each team at each table: ``square[table][team_slot] -> seat``.

    ``n`` is the number of seats (= tables = teams of a group). Row ``t`` is ``(t + slot) % n``:
    at table 0 team slot 0 is East, slot 1 South...; each further table turns every team one seat
    on. Every row and every column is a permutation of ``range(n)`` (docs/rules.md, "Duplicate MCR: team event": over
    the group's tables each team plays every seat of every set exactly once).

    Raises MovementError if ``n`` is not a whole number of at least 1.
    """
    check_size("number of seats", n)
    return [[(table + slot) % n for slot in range(n)] for table in range(n)]


@dataclass(frozen=True)
class SeatPlacement:
    """One member's place for a session: 0-based ``table`` of the group, ``seat`` (index into the
    rule set's seats, 0 = dealer/East), ``team_slot`` (position of the team in the group) and
    ``member`` (0-based member of that team)."""

    table: int
    seat: int
    team_slot: int
    member: int


def team_group_seating(n: int, session_index: int = 0) -> list[SeatPlacement]:
    """Seat the N members of each of the N teams of a group at its N tables for one session.

    ``n``: seats per table (2, 3 or 4); ``session_index``: 0-based session (session 1 -> 0).
    Returns ``n * n`` placements sorted by (table, seat).

    Seats follow :func:`latin_square` (docs/rules.md, "Duplicate MCR: team event": each team plays every seat of every set once
    across the group's tables, since every table plays every set). Member ``m`` always takes seat
    ``(m + session_index) % n``, whatever the team's slot in the group, so over any ``n``
    consecutive sessions each member plays each seat (wind) exactly once; the member's table is
    the one where the Latin square gives the team that seat.

    Raises MovementError if ``n`` or ``session_index`` is not a whole number (>= 1, >= 0).
    """
    square = latin_square(n)
    check_size("session index", session_index, 0)
    placements = [
        SeatPlacement(table, seat, slot, (seat - session_index) % n)
        for table, row in enumerate(square)
        for slot, seat in enumerate(row)
    ]
    return sorted(placements, key=lambda p: (p.table, p.seat))


def individual_group_seating(n: int, session_index: int = 0) -> list[tuple[int, int, int]]:
    """Seat the ``n * n`` players of an individual-event group at its ``n`` tables.

    Returns ``(table, seat, player_slot)`` triples sorted by (table, seat); ``player_slot`` is the
    0-based position of the player in the group (0 to n*n-1). Each table has every seat once, so
    each seat of each set is played by ``n`` different players, one per table: the players the
    datum of that seat is taken over (docs/rules.md, "Duplicate MCR: individual event").

    Slot ``p`` takes seat ``(p % n + session_index) % n``, so a slot turns one seat on each session;
    to balance every player's winds when groups change between sessions, order each group's
    players with :func:`balance_seats` first.

    Raises MovementError if ``n`` or ``session_index`` is not a whole number (>= 1, >= 0).
    """
    return sorted((p.table, p.seat, p.team_slot * n + p.member) for p in team_group_seating(n, session_index))


def balance_seats(sessions: Sequence[Sequence[Sequence[int]]], n: int) -> list[list[tuple[int, ...]]]:
    """Order the players of each individual-event group so that each player's seats even out.

    ``sessions[s][g]`` lists the ``n * n`` player ids of group ``g`` in session ``s`` (as
    regrouping.regroup returns them). Returns the same groups with the players reordered into
    player slots for :func:`individual_group_seating` with ``session_index = s``.

    Session by session, the players of each group are given seats by a minimum-cost assignment
    (each seat ``n`` times) where a seat costs the square of how often the player already held
    it, so the seats a player played least come first. With the same groups every session this
    gives every player every seat once per ``n`` sessions; with changing groups it is the best
    balance for each session given the earlier ones.

    Raises MovementError if a group does not hold ``n * n`` players or a player is in two groups
    of one session.
    """
    check_size("number of seats", n)
    counts: dict[int, list[int]] = defaultdict(lambda: [0] * n)
    seated: list[list[tuple[int, ...]]] = []
    for s, groups in enumerate(sessions):
        seen: set[int] = set()
        ordered = []
        for g, group in enumerate(groups):
            if len(group) != n * n:
                raise MovementError(_("session %(session)s, group %(group)s: an individual group holds %(players)s players for "
                                      "%(seats)s seats, got %(got)s")
                                    % {"session": s + 1, "group": g + 1, "players": n * n, "seats": n, "got": len(group)})
            if seen & set(group) or len(set(group)) != len(group):
                raise MovementError(_("session %(session)s, group %(group)s: a player appears twice in the session; give each "
                                      "player one place") % {"session": s + 1, "group": g + 1})
            seen |= set(group)
            cost = [[counts[player][seat] ** 2 for seat in range(n) for _slot in range(n)] for player in group]
            slots: list[int] = [0] * (n * n)
            free = {seat: [p for p in range(n * n) if (p % n + s) % n == seat] for seat in range(n)}
            for player, column in zip(group, _min_cost_assignment(cost)):
                seat = column // n
                counts[player][seat] += 1
                slots[free[seat].pop(0)] = player
            ordered.append(tuple(slots))
        seated.append(ordered)
    return seated


def _min_cost_assignment(cost: list[list[int]]) -> list[int]:
    """Column for each row of a square cost matrix, minimising the total (Hungarian method)."""
    size = len(cost)
    inf = float("inf")
    u = [0.0] * (size + 1)
    v = [0.0] * (size + 1)
    row_of = [0] * (size + 1)
    way = [0] * (size + 1)
    for row in range(1, size + 1):
        row_of[0] = row
        col0 = 0
        minv = [inf] * (size + 1)
        used = [False] * (size + 1)
        while True:
            used[col0] = True
            r0, delta, col1 = row_of[col0], inf, 0
            for col in range(1, size + 1):
                if not used[col]:
                    cur = cost[r0 - 1][col - 1] - u[r0] - v[col]
                    if cur < minv[col]:
                        minv[col], way[col] = cur, col0
                    if minv[col] < delta:
                        delta, col1 = minv[col], col
            for col in range(size + 1):
                if used[col]:
                    u[row_of[col]] += delta
                    v[col] -= delta
                else:
                    minv[col] -= delta
            col0 = col1
            if row_of[col0] == 0:
                break
        while col0:
            col1 = way[col0]
            row_of[col0] = row_of[col1]
            col0 = col1
    columns = [0] * size
    for col in range(1, size + 1):
        columns[row_of[col] - 1] = col - 1
    return columns


def seat_holders(seats: Mapping[str, Holder], substitutions: Iterable[tuple[str, Iterable[int], Holder]],
                 set_no: int | None = None) -> dict[str, Holder]:
    """Who held each seat of one table on set ``set_no`` (docs/scoring.md, "Substitutions"): the
    ``seats`` as seated (seat → holder: any value, e.g. ``(player, team)``), with each
    substitution ``(seat, sets, holder)`` whose ``sets`` (the sets the replacement plays) include
    ``set_no`` giving that seat to its holder; later substitutions (in the order given) win.
    ``set_no`` None: the seat's holder now, every substitution applied. A substitution of a seat
    nobody held is ignored. This is the one rule every score, per-player figure, traveller,
    table page and PIN check follows (through :mod:`tournament.table_plan` and
    :func:`scoring.reports.scopes.event_scopes`)."""
    held = dict(seats)
    for seat, sets, holder in substitutions:
        if seat in held and (set_no is None or set_no in set(sets)):
            held[seat] = holder
    return held
