"""Converted scores: rescoring a set once its comparison scopes are complete, and which version
of a set each table played (fouled plays, reserve walls). Converted scores come from
:func:`scoring.comparisons.versioned_scores`; standings are read side (:mod:`scoring.reports`)."""

from __future__ import annotations

from collections import defaultdict

from django.db import transaction

from scoring import visibility
from scoring.comparisons import TableSeats, complete_scopes, version_labels, versioned_scores
from scoring.models import ConversionTable, FouledPlay, HandResult, SetScore
from tournament.models import Event, Group, Table
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
    return version_labels(reserves, fouled)
