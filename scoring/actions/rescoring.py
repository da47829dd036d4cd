"""Converted scores: rescoring a set once its comparison scopes are complete, and which version
of a set each table played (fouled plays, reserve walls). Converted scores come from
:func:`scoring.comparisons.versioned_scores`; standings are read side (:mod:`scoring.reports`)."""

from __future__ import annotations

import json
from collections import defaultdict
from functools import lru_cache
from typing import Any, cast

from django.db import connection, transaction
from django.db.models import Exists, F, JSONField, OuterRef, QuerySet, Subquery, TextField

from scoring import visibility
from scoring.comparisons import TableSeats, complete_scopes, version_labels, versioned_scores
from scoring.conversion import ConversionTable as PlainTable
from scoring.models import ConversionTable, FouledPlay, HandResult, SetScore
from tournament.models import Event, Group, SeatAssignment, Substitution, Table
from tournament.prepared import PreparedQuery
from tournament.seats import seat_holders
from tournament.table_plan import plans_for_tables
from walls.models import ReserveWall


def _scopes(event: Event, session_number: int, group_id: int | None = None) -> list[tuple[Group | None, list[Table]]]:
    tables = (Table.objects.filter(group__session__event=event, group__session__number=session_number)
              .select_related("group__session__event", "room"))
    if event.comparison == Event.Comparison.FIELD:
        return [(None, list(tables))]
    if group_id is not None:
        tables = tables.filter(group_id=group_id)
    by_group = defaultdict(list)
    for table in tables:
        by_group[table.group].append(table)
    return list(by_group.items())


@transaction.atomic
def rescore_set(event: Event, session_number: int, set_no: int, group_id: int | None = None) -> int:
    """Recompute the converted scores of one set; returns how many were stored.

    ``group_id``: rescore only that group's comparison (what a change to one of its results can
    affect); ignored when the whole field is compared. None rescores every group of the session.

    A comparison scope (one group, or the whole field) is scored once every table in it has a
    confirmed result on the set; until then its scores are removed. The scores are those of
    :func:`scoring.comparisons.versioned_scores` (team method: a team's score change is the sum
    of its members', docs/rules.md, "Duplicate MCR: team event"; individual method: each player against the datum of the same
    seat), which is :func:`~scoring.comparisons.converted_scores` unless tables played different
    versions of the set (:func:`play_versions`: fouled plays, reserve walls; Law 87 adapted with
    the event's ``fouled_min_tables`` and ``fouled_adjusted_points``). Each seat's result is
    credited to whoever held the seat on the set (the table plan, :meth:`tournament.table_plan.SessionPlan.holders`: a substitute on
    the sets of its substitution, docs/scoring.md "Substitutions"). Each stored score records
    its datum, conversion table, version and whether it is an artificial adjusted score.
    Then the set is released (made public) if every table of the session has a confirmed result
    on it (:func:`scoring.visibility.release_if_finished`).
    """
    table_model = ConversionTable.objects.current(event)
    conversion = table_model.as_table()
    by_team = event.method == Event.Method.TEAM
    field = event.comparison == Event.Comparison.FIELD
    versions = play_versions(event, session_number, set_no)
    stored = 0
    for group, tables in _scopes(event, session_number, group_id):
        SetScore.objects.filter(event=event, session_number=session_number, set_no=set_no, group=group).delete()
        plan = plans_for_tables(tables)[session_number]  # the scope's tables only
        seating = {t.pk: TableSeats(session_number, t.group.number, t.number,
                                    {seat: (p.pk, p.team_id) for seat, p in plan.holders(t, set_no).items()})
                   for t in tables}
        results = HandResult.objects.filter(table__in=tables, set_no=set_no, status=HandResult.Status.CONFIRMED).values_list(
            "table_id", "set_no", "changes")
        for rows in complete_scopes(seating, results, field=field).values():
            scores = versioned_scores(rows, {t.number: versions.get(t.pk, "") for t in tables}, conversion,
                                      event.datum_method, by_team=by_team, min_tables=event.fouled_min_tables,
                                      adjusted_points=event.fouled_adjusted_points)
            SetScore.objects.bulk_create(
                SetScore(event=event, session_number=session_number, set_no=set_no, group=group,
                         team_id=score.key if by_team else None, player_id=None if by_team else score.key,
                         score_change=score.score_change, datum=score.converted.datum,
                         difference=score.converted.difference, points=score.converted.points,
                         conversion_table=table_model, version=score.version, adjusted=score.adjusted)
                for score in scores)
            stored += len(scores)
    public = visibility.release_if_finished(event, session_number, set_no)
    event.changed(public=public)  # the last lock of the write; the public sees the set once released
    return stored


def play_versions(event: Event, session_number: int, set_no: int) -> dict[int, str]:
    """Which version of set ``set_no`` each table of session ``session_number`` played:
    ``{table id: label}`` for the tables that did not play it as prepared (a table missing from
    it played the set as prepared, ``""``). A fouled mark (:class:`~scoring.models.FouledPlay`,
    ``"F1"``...) wins over a reserve wall the table played (:class:`walls.models.ReserveWall`'s
    ``tables``, ``"R1"``...): :func:`scoring.comparisons.version_labels`. docs/scoring.md,
    "Fouled sets and reserve walls". Two queries."""
    reserves = ReserveWall.tables.through.objects.filter(
        reservewall__event=event, reservewall__session_number=session_number, reservewall__set_no=set_no,
    ).values_list("table_id", "reservewall__number")
    fouled = FouledPlay.objects.filter(event=event, session_number=session_number, set_no=set_no).values_list("table_id", "version")
    return cast(dict[int, str], version_labels(reserves, fouled))  # keyed by the tables' ids


# --- one comparison rescored inside a result's write ------------------------------------------------

def _scope_seats(field: bool) -> PreparedQuery:
    """The read of :func:`rescore_scope`, compiled once per process: called with ``(event id,
    session number, set, scope id)`` (the scope: the session when the whole field is compared,
    else the group). One row per seat of the scope's tables (``SeatAssignment`` with ``table``,
    ``table.group`` and ``table.group.session`` holding their keys and numbers only), each
    annotated with the seated player's team (``player_team``), its table's confirmed result on the set
    (``changes``, None without one), the highest reserve wall the table played on the set
    (``reserve``) and its fouled mark (``fouled``), whether the table has a substitution
    (``substituted``) and the event's current conversion table (``conversion_id``,
    ``conversion_name``, ``conversion_rows``: the stored JSON as text). Group comparisons lock
    the session's row in the same statement (``FOR UPDATE OF`` the session, where the database
    has row locks), the lock a release takes before counting the session's results
    (:func:`scoring.visibility.release_if_finished`); the whole field's comparison holds it
    already (its scope lock)."""

    def build(event_id: int, session_number: int, set_no: int, scope_id: int) -> QuerySet:
        seats = SeatAssignment.objects.filter(**{"table__group__session_id" if field else "table__group_id": scope_id})
        table = OuterRef("table_id")
        current = ConversionTable.objects.filter(event_id=event_id, current=True).order_by()
        seats = seats.select_related("table__group__session").only(
            "seat", "player", "table__number", "table__group__number", "table__group__session__id").annotate(
            player_team=F("player__team_id"),
            changes=Subquery(HandResult.objects.filter(table_id=table, set_no=set_no, status=HandResult.Status.CONFIRMED)
                             .order_by().values("changes")[:1], output_field=JSONField()),
            reserve=Subquery(ReserveWall.tables.through.objects.filter(
                table_id=table, reservewall__event_id=event_id, reservewall__session_number=session_number,
                reservewall__set_no=set_no).order_by("-reservewall__number").values("reservewall__number")[:1]),
            fouled=Subquery(FouledPlay.objects.filter(table_id=table, event_id=event_id, session_number=session_number,
                                                      set_no=set_no).order_by().values("version")[:1]),
            substituted=Exists(Substitution.objects.filter(table_id=table)),
            conversion_id=Subquery(current.values("pk")[:1]),
            conversion_name=Subquery(current.values("name")[:1]),
            conversion_rows=Subquery(current.values("rows")[:1], output_field=TextField()),
        ).order_by()
        return seats if field else seats.select_for_update(of=("table__group__session",))

    return PreparedQuery(SeatAssignment, build)


_SCOPE_SEATS = {field: _scope_seats(field) for field in (False, True)}


@lru_cache(maxsize=32)
def _conversion(pk: int, name: str, rows: str) -> PlainTable:
    """The plain conversion table of the stored row ``pk`` with ``name`` and ``rows`` (its JSON as
    stored, text): parsed once per process for each such row as it reads (an edited row reads
    differently, so it is parsed again)."""
    return ConversionTable(pk=pk, name=name, rows=json.loads(rows)).as_table()


@transaction.atomic(savepoint=False)
def rescore_scope(table: Table, set_no: int, scope_tables: int) -> int:
    """Rescore the comparison of set ``set_no`` that ``table`` (loaded with
    ``group__session__event``) belongs to, inside a result's write (a confirmation, dispute or
    correction: :mod:`scoring.actions.confirmation`) holding the scope's lock; returns how many
    converted scores were stored. The scope is the table's group, or its session when the whole
    field is compared; ``scope_tables``: how many tables it has, as the write read them under
    its lock.

    The same converted scores, release and version bump as :func:`rescore_set` for that group
    (the rules are its), in fewer statements: the scope's seats, results, versions played and
    conversion table in one read (:data:`_SCOPE_SEATS`; it also takes the session's lock for a
    group's comparison), the substitutions when a table has one, the scope's scores deleted in
    one statement and the new ones inserted in one (:func:`_replace_scores`), the set released
    in one statement when every table of the session has a confirmed result on it
    (:func:`scoring.visibility.release_complete_set`; a release is never withdrawn), the version bumped last
    (public when the set is released: :func:`scoring.visibility.released_now`). Falls back to
    :func:`rescore_set` when the read does not find a seated table for each of
    ``scope_tables`` or the event has no current conversion table. Runs in the caller's
    transaction (no savepoint of its own: a failure rolls the whole write back). Raises
    ValueError as :func:`scoring.comparisons.complete_scopes` and
    :func:`scoring.comparisons.versioned_scores` do."""
    session = table.group.session
    event, session_number = session.event, session.number
    field = event.comparison == Event.Comparison.FIELD
    rows = _SCOPE_SEATS[field](event.pk, session_number, set_no, session.pk if field else table.group_id)
    tables = {row.table_id: row.table for row in rows}
    if not rows or len(tables) != scope_tables or rows[0].conversion_id is None:
        return rescore_set(event, session_number, set_no, table.group_id)
    seated: dict[int, dict[str, tuple[int, int | None]]] = defaultdict(dict)
    changes: dict[int, dict[str, Any]] = {}
    reserves, fouled = [], []
    for row in rows:
        seated[row.table_id][row.seat] = (row.player_id, row.player_team)
        if row.changes is not None:
            changes[row.table_id] = row.changes
        if row.reserve is not None:
            reserves.append((row.table_id, row.reserve))
        if row.fouled is not None:
            fouled.append((row.table_id, row.fouled))
    subs: dict[int, list[Any]] = defaultdict(list)
    if any(row.substituted for row in rows):
        for table_id, seat, sets, holder, team in Substitution.objects.filter(table_id__in=list(tables)).order_by("id").values_list(
                "table_id", "seat", "sets", "player_in_id", "player_in__team_id"):
            subs[table_id].append((seat, sets, (holder, team)))
    seating = {pk: TableSeats(session_number, t.group.number, t.number, seat_holders(seated[pk], subs.get(pk, ()), set_no))
               for pk, t in tables.items()}
    labels = version_labels(reserves, fouled)
    versions = {t.number: labels.get(pk, "") for pk, t in tables.items()}
    first = rows[0]
    conversion = _conversion(first.conversion_id, first.conversion_name, first.conversion_rows)
    by_team = event.method == Event.Method.TEAM
    scope_group = None if field else table.group_id
    stored = []
    for found in complete_scopes(seating, [(pk, set_no, c) for pk, c in changes.items()], field=field).values():
        for score in versioned_scores(found, versions, conversion, event.datum_method, by_team=by_team,
                                      min_tables=event.fouled_min_tables, adjusted_points=event.fouled_adjusted_points):
            stored.append((event.pk, session_number, set_no, scope_group, score.key if by_team else None,
                           None if by_team else score.key, score.score_change, score.converted.datum,
                           score.converted.difference, score.converted.points, first.conversion_id, score.version,
                           score.adjusted))
    _replace_scores(event.pk, session_number, set_no, scope_group, stored)
    visibility.release_complete_set(event.pk, session.pk, session_number, set_no)  # the caller holds the session's lock
    event.changed(public=visibility.released_now(event, session_number, set_no))  # the last lock of the write
    return len(stored)


_SCORE_COLUMNS = ("event", "session_number", "set_no", "group", "team", "player", "score_change", "datum", "difference",
                  "points", "conversion_table", "version", "adjusted")


def _replace_scores(event_id: int, session_number: int, set_no: int, group_id: int | None, rows: list[tuple[Any, ...]]) -> None:
    """Delete the converted scores of one comparison (``group_id`` None: the whole field's) and
    insert ``rows`` (tuples of :data:`_SCORE_COLUMNS`' values) in their place: one DELETE and,
    when there are rows, one INSERT, written in SQL (every completing confirmation sends them;
    ``SetScore`` has no signals and is never updated in place)."""
    meta = SetScore._meta
    column = {name: meta.get_field(name).column for name in _SCORE_COLUMNS}
    group = f"{column['group']} = %s" if group_id is not None else f"{column['group']} IS NULL"
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {meta.db_table} WHERE {column['event']} = %s AND {column['session_number']} = %s"  # noqa: S608 - names from the model
                       f" AND {column['set_no']} = %s AND {group}",
                       (event_id, session_number, set_no, *((group_id,) if group_id is not None else ())))
        if rows:
            one = "(" + ", ".join(["%s"] * len(_SCORE_COLUMNS)) + ")"
            cursor.execute(f"INSERT INTO {meta.db_table} ({', '.join(column[n] for n in _SCORE_COLUMNS)}) "  # noqa: S608
                           f"VALUES {', '.join([one] * len(rows))}", [v for row in rows for v in row])

