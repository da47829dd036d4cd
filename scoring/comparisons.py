"""Comparisons: which results are scored against each other, and the converted scores they give.

A *comparison* holds the results of one wall set that are compared with each other: the tables
of one group, or with the field comparison every table of the session (every group plays copies
of the same walls). It is scored only once every table in it has a confirmed result on the set
(:func:`complete_scopes`). Inside it, the team method (docs/rules.md, "Duplicate MCR: team event") compares each team's total (the sum
of its members' score changes) with the datum of all the totals; the individual method compares
each player with the datum of the players who held the same seat.

:func:`converted_scores` is the one path from a comparison's results to converted scores: what
:func:`scoring.actions.rescoring.rescore_set` stores (one SetScore per entrant) and what the per-player
comparison of :mod:`scoring.reports` shows; :func:`versioned_scores` is that path when tables of
one comparison played different versions of the set (a fouled set, a reserve wall: Law 87 of the
Laws of Duplicate Bridge, adapted). :func:`team_comparisons` and
:func:`seat_comparisons` give the same grouping as plain score changes (the input of conversion
table fitting). The arithmetic (datum, conversion) is :mod:`scoring.standings`.

Standalone: no Django import. See docs/scoring.md.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any
from dataclasses import dataclass, replace

from scoring.conversion import ConversionTable
from scoring.standings import (
    ConvertedScore,
    datum,
    individual_set_scores,
    team_set_scores,
)

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
    seat compared, individual method; None for a team). ``version``: the version of the set the
    score compares (:func:`versioned_scores`: ``""`` as prepared, ``"R1"`` a reserve wall,
    ``"F1"`` a fouled version, ``"*"`` a team score over several versions); ``adjusted``: an
    artificial adjusted score (Law 87: the version had too few tables to compare)."""

    key: Hashable
    score_change: int
    converted: ConvertedScore
    seat: str | None
    version: str = ""
    adjusted: bool = False


def complete_scopes(tables: Mapping[Hashable, TableSeats], results: Iterable[tuple[Hashable, int, Mapping[str, int]]],
                    field: bool = False) -> dict[Scope, list[SeatResult]]:
    """The comparisons every table of which has a result: ``{(session, set_no, group): [SeatResult]}``.

    ``tables``: table key → :class:`TableSeats`; ``results``: the confirmed results as
    ``(table key, set_no, {seat: score change})``. A comparison is one group's tables, or with
    ``field`` every table of the session (group None). Rows are listed table by table (by table
    number), each table's seats in the order of its result. Raises ValueError for a result at a
    table not in ``tables`` or on a seat nobody held.
    """
    members: dict[tuple[Any, ...], set[Any]] = defaultdict(set)
    for key, seated in tables.items():
        members[(seated.session, None if field else seated.group)].add(key)
    found: dict[tuple[Any, ...], dict[Any, Any]] = defaultdict(dict)
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
    (docs/rules.md, "Duplicate MCR: team event": a team's result is the sum of its members'). Raises ValueError for a seat with no
    team."""
    totals: dict[Hashable, int] = defaultdict(int)
    for row in rows:
        if row.team is None:
            raise ValueError(f"player {row.player!r} has no team: the team method needs teams")
        totals[row.team] += row.change
    return dict(totals)


def _seat_changes(rows: Iterable[SeatResult]) -> dict[str, dict[Hashable, int]]:
    """``{seat: {player: score change}}`` of one comparison (docs/rules.md, "Duplicate MCR: individual event": the players who held the
    same seat), seats and players in the order they first appear."""
    by_seat: dict[str, dict[Hashable, int]] = defaultdict(dict)
    for row in rows:
        by_seat[row.seat][row.player] = row.change
    return dict(by_seat)


def team_comparisons(scopes: Mapping[Scope, Sequence[SeatResult]]) -> dict[Scope, dict[Hashable, int]]:
    """Team method input: ``{(session, set_no, group): {team: total score change}}`` (docs/rules.md, "Duplicate MCR: team event":
    the sum of the team's members' score changes). Raises ValueError for a seat with no team."""
    return {scope: _team_totals(rows) for scope, rows in scopes.items()}


def seat_comparisons(scopes: Mapping[Scope, Sequence[SeatResult]]) -> dict[tuple[Any, ...], dict[Hashable, int]]:
    """Individual method input: ``{(session, set_no, group, seat): {player: score change}}``
    (docs/rules.md, "Duplicate MCR: individual event": the players who held the same seat of the same set)."""
    return {(*scope, seat): changes for scope, rows in scopes.items() for seat, changes in _seat_changes(rows).items()}


def converted_scores(rows: Sequence[SeatResult], table: ConversionTable, datum_method: str = "average", *,
                     by_team: bool) -> list[EntrantScore]:
    """The converted scores of one complete comparison (one scope of :func:`complete_scopes`).

    ``by_team``: the team method of docs/rules.md, "Duplicate MCR: team event" (each team's total against the datum of every team's
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


MIXED_VERSIONS = "*"
"""The version label of a team score whose members played several versions of the set."""


def versioned_scores(rows: Sequence[SeatResult], versions: Mapping[int, str], table: ConversionTable,
                     datum_method: str = "average", *, by_team: bool, min_tables: int = 2,
                     adjusted_points: int = 0) -> list[EntrantScore]:
    """The converted scores of one complete comparison whose tables may have played different
    versions of the set, adapted from the Laws of Duplicate Bridge (2017): Law 87 (a fouled
    board: the director divides the scores into groups by the form in which the board was played
    and scores each group separately) and Law 12C2 (an artificial adjusted score where no result
    can be compared). See docs/scoring.md, "Fouled sets and reserve walls".

    ``rows``: one comparison as :func:`complete_scopes` gives it; ``versions``: ``{table number:
    label}`` (``""`` as prepared, ``"R1"`` a reserve wall, ``"F1"`` a fouled version; a table
    missing from it played the set as prepared). ``min_tables``: the fewest tables a version
    needs to be compared (the event's ``fouled_min_tables``); ``adjusted_points``: the
    artificial adjusted score in converted points (IMP/MP; the event's
    ``fouled_adjusted_points``, 0 = average).

    - One version only: exactly :func:`converted_scores`, each score labelled with the version.
    - Several versions, **individual method**: a player whose version has at least
      ``min_tables`` tables is compared with the datum (``datum_method``) of the players who held
      the same seat in the same version; one whose version has fewer tables gets
      ``adjusted_points``, ``adjusted=True``, its own change as datum (difference 0).
    - Several versions, **team method**: each member's difference is its change minus the datum
      of its seat within its version (a member of a version with fewer than ``min_tables``
      tables counts as that datum: difference 0); the team's difference is the sum of its
      members', converted with ``table``; a team with such a member gets ``adjusted=True`` and
      ``adjusted_points`` added once. Its datum is its total minus that difference; its version
      is its members' one version, or ``"*"`` when they played several. (In one group with the
      average datum every team holds each seat once, so the sum of members' differences is the
      team total minus the mean of the totals: the unversioned rule, version by version.)

    Returns one :class:`EntrantScore` per team or player in :func:`converted_scores`' order.
    Raises ValueError as :func:`converted_scores` does, and for ``min_tables`` below 1.
    """
    if not rows:
        raise ValueError("a comparison needs at least one result: score complete comparisons only")
    if min_tables < 1:
        raise ValueError(f"a version needs at least 1 table to be compared, got min_tables={min_tables}")
    version_of = {row.table: versions.get(row.table, "") for row in rows}
    labels = set(version_of.values())
    if len(labels) == 1:
        label = labels.pop()
        return [replace(score, version=label)
                for score in converted_scores(rows, table, datum_method, by_team=by_team)]
    tables_in: dict[str, set[int]] = defaultdict(set)
    for number, label in version_of.items():
        tables_in[label].add(number)
    compared = {label for label, numbers in tables_in.items() if len(numbers) >= min_tables}
    seat_data: dict[tuple[str, str], float] = {}
    by_version_seat: dict[tuple[str, str], list[int]] = defaultdict(list)
    for row in rows:
        if version_of[row.table] in compared:
            by_version_seat[(version_of[row.table], row.seat)].append(row.change)
    for key, seat_changes in by_version_seat.items():
        seat_data[key] = datum(seat_changes, datum_method)

    def difference(row: SeatResult) -> float | None:
        """The row's difference from its seat's datum in its version; None: too few tables."""
        label = version_of[row.table]
        return row.change - seat_data[(label, row.seat)] if label in compared else None

    if by_team:
        totals = _team_totals(rows)  # also refuses a seat with no team
        differences: dict[Hashable, float] = defaultdict(float)
        adjusted: set[Hashable] = set()
        team_versions: dict[Hashable, set[str]] = defaultdict(set)
        for row in rows:
            member = difference(row)
            team_versions[row.team].add(version_of[row.table])
            if member is None:
                adjusted.add(row.team)
            else:
                differences[row.team] += member
        out = []
        for team, total in totals.items():
            diff = differences[team]
            points = table.convert(diff) + (adjusted_points if team in adjusted else 0)
            played = team_versions[team]
            out.append(EntrantScore(team, total, ConvertedScore(diff, total - diff, points), None,
                                    version=next(iter(played)) if len(played) == 1 else MIXED_VERSIONS,
                                    adjusted=team in adjusted))
        return out
    by_seat = _seat_changes(rows)  # checks a player on two seats below, as converted_scores does
    row_of = {row.player: row for row in rows}
    out = []
    seen: set[Any] = set()
    for seat, changes in by_seat.items():
        if seat not in ("E", "S", "W", "N"):
            raise ValueError(f"seat {seat!r} is not a wind letter: use E, S, W or N")
        for player, change in changes.items():
            if player in seen:
                raise ValueError(f"player {player!r} appears on two seats of the set: fix the seating of seat {seat}")
            seen.add(player)
            row = row_of[player]
            gap = difference(row)
            label = version_of[row.table]
            if gap is None:
                out.append(EntrantScore(player, change, ConvertedScore(0.0, float(change), adjusted_points), seat,
                                        version=label, adjusted=True))
            else:
                out.append(EntrantScore(player, change, ConvertedScore(gap, seat_data[(label, seat)], table.convert(gap)),
                                        seat, version=label))
    return out


def version_labels(reserve_tables: Iterable[tuple[Hashable, int]],
                   fouled_tables: Iterable[tuple[Hashable, int]]) -> dict[Hashable, str]:
    """Which version of one set each table played (docs/scoring.md, "Fouled sets and reserve
    walls"): ``{table: label}`` for the tables that did not play it as prepared (``""``, left
    out). ``reserve_tables``: ``(table, reserve wall number)`` for each table that played a
    reserve wall (``"R1"``...; a table listed by several reserves plays the highest-numbered one);
    ``fouled_tables``: ``(table, fouled version)`` for each table marked fouled (``"F1"``...).
    A fouled mark wins over a reserve wall: the director says the table's play was not the deal
    it was meant to be."""
    labels: dict[Hashable, str] = {}
    best: dict[Hashable, int] = {}
    for table, number in reserve_tables:
        if number > best.get(table, 0):
            best[table] = number
            labels[table] = f"R{number}"
    for table, version in fouled_tables:
        labels[table] = f"F{version}"
    return labels
