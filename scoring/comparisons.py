"""Comparisons: which results are scored against each other, and the converted scores they give.

A *comparison* holds the results of one wall set that are compared with each other: the tables
of one group, or with the field comparison every table of the session (every group plays copies
of the same walls). It is scored only once every table in it has a confirmed result on the set
(:func:`complete_scopes`). Inside it, seed 001's team method compares each team's total (the sum
of its members' score changes) with the datum of all the totals; the individual method compares
each player with the datum of the players who held the same seat.

:func:`converted_scores` is the one path from a comparison's results to converted scores: what
:func:`scoring.services.rescore_set` stores (one SetScore per entrant) and what the per-player
comparison of :mod:`scoring.reports` shows. :func:`team_comparisons` and
:func:`seat_comparisons` give the same grouping as plain score changes (the input of conversion
table fitting). The arithmetic (datum, conversion) is :mod:`scoring.standings`.

Standalone: no Django import. See docs/scoring.md.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from scoring.conversion import ConversionTable
from scoring.standings import ConvertedScore, individual_set_scores, team_set_scores

Scope = tuple[int, int, int | None]


@dataclass(frozen=True)
class TableSeats:
    """Who sat at one table: ``session``, ``group`` (its number), ``number`` (event-wide table
    number) and ``seats``: seat → (player key, team key or None)."""

    session: int
    group: int
    number: int
    seats: Mapping[str, tuple[Hashable, Hashable | None]]


@dataclass(frozen=True)
class SeatResult:
    """One player's score change (points) on one set, at ``table`` (number) and ``seat``."""

    session: int
    set_no: int
    group: int | None
    table: int
    seat: str
    player: Hashable
    team: Hashable | None
    change: int


@dataclass(frozen=True)
class EntrantScore:
    """One entrant's converted score in its comparison: ``key`` (the team, team method; the
    player, individual method), ``score_change`` (points: the team's total, or the player's own
    change), ``converted`` (difference from the datum, datum, converted points) and ``seat`` (the
    seat compared, individual method; None for a team)."""

    key: Hashable
    score_change: int
    converted: ConvertedScore
    seat: str | None


def complete_scopes(tables: Mapping[Hashable, TableSeats], results: Iterable[tuple[Hashable, int, Mapping[str, int]]],
                    field: bool = False) -> dict[Scope, list[SeatResult]]:
    """The comparisons every table of which has a result: ``{(session, set_no, group): [SeatResult]}``.

    ``tables``: table key → :class:`TableSeats`; ``results``: the confirmed results as
    ``(table key, set_no, {seat: score change})``. A comparison is one group's tables, or with
    ``field`` every table of the session (group None). Rows are listed table by table (by table
    number), each table's seats in the order of its result. Raises ValueError for a result at a
    table not in ``tables`` or on a seat nobody held.
    """
    members: dict[tuple, set] = defaultdict(set)
    for key, table in tables.items():
        members[(table.session, None if field else table.group)].add(key)
    found: dict[tuple, dict] = defaultdict(dict)
    for table_key, set_no, changes in results:
        table = tables.get(table_key)
        if table is None:
            raise ValueError(f"a result names table {table_key!r}, which has no seating: import the seating first")
        for seat in changes:
            if seat not in table.seats:
                raise ValueError(f"table {table.number} has a result for seat {seat}, where nobody sat")
        found[(table.session, set_no, None if field else table.group)][table_key] = changes
    out = {}
    for scope, by_table in sorted(found.items(), key=lambda item: repr(item[0])):
        session, set_no, group = scope
        if set(by_table) != members[(session, group)]:
            continue
        rows = []
        for table_key in sorted(by_table, key=lambda k: tables[k].number):
            table = tables[table_key]
            for seat, change in by_table[table_key].items():
                player, team = table.seats[seat]
                rows.append(SeatResult(session, set_no, group, table.number, seat, player, team, change))
        out[scope] = rows
    return out


def _team_totals(rows: Iterable[SeatResult]) -> dict[Hashable, int]:
    """``{team: total score change}`` of one comparison, teams in the order they first appear
    (seed 001: a team's result is the sum of its members'). Raises ValueError for a seat with no
    team."""
    totals: dict[Hashable, int] = defaultdict(int)
    for row in rows:
        if row.team is None:
            raise ValueError(f"player {row.player!r} has no team: the team method needs teams")
        totals[row.team] += row.change
    return dict(totals)


def _seat_changes(rows: Iterable[SeatResult]) -> dict[str, dict[Hashable, int]]:
    """``{seat: {player: score change}}`` of one comparison (seed 001: the players who held the
    same seat), seats and players in the order they first appear."""
    by_seat: dict[str, dict[Hashable, int]] = defaultdict(dict)
    for row in rows:
        by_seat[row.seat][row.player] = row.change
    return dict(by_seat)


def team_comparisons(scopes: Mapping[Scope, Sequence[SeatResult]]) -> dict[Scope, dict[Hashable, int]]:
    """Team method input: ``{(session, set_no, group): {team: total score change}}`` (seed 001:
    the sum of the team's members' score changes). Raises ValueError for a seat with no team."""
    return {scope: _team_totals(rows) for scope, rows in scopes.items()}


def seat_comparisons(scopes: Mapping[Scope, Sequence[SeatResult]]) -> dict[tuple, dict[Hashable, int]]:
    """Individual method input: ``{(session, set_no, group, seat): {player: score change}}``
    (seed 001: the players who held the same seat of the same set)."""
    return {(*scope, seat): changes for scope, rows in scopes.items() for seat, changes in _seat_changes(rows).items()}


def converted_scores(rows: Sequence[SeatResult], table: ConversionTable, datum_method: str = "average", *,
                     by_team: bool) -> list[EntrantScore]:
    """The converted scores of one complete comparison (one scope of :func:`complete_scopes`).

    ``by_team``: seed 001's team method (each team's total against the datum of every team's
    total, :func:`scoring.standings.team_set_scores`); otherwise the individual method (each
    player against the datum of the same seat, :func:`scoring.standings.individual_set_scores`),
    which team events also show per player as extra information. ``datum_method``: ``"average"``
    or ``"butler"`` (:func:`scoring.standings.datum`). Returns one :class:`EntrantScore` per
    team (in the order the teams first appear in ``rows``) or per player (seat by seat).

    Raises ValueError for no rows, a seat with no team (team method), a player on two seats or
    a seat that is not a wind letter (individual method), or as :func:`scoring.standings.datum`.
    """
    if not rows:
        raise ValueError("a comparison needs at least one result: score complete comparisons only")
    if by_team:
        totals = _team_totals(rows)
        scores = team_set_scores(totals, table, datum_method)
        return [EntrantScore(team, total, scores[team], None) for team, total in totals.items()]
    by_seat = _seat_changes(rows)
    scores = individual_set_scores(by_seat, table, datum_method)
    return [EntrantScore(player, change, scores[player], seat)
            for seat, changes in by_seat.items() for player, change in changes.items()]
