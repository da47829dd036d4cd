"""Write paths for an event's conversion table: new versions (edited, imported or fitted) and
rescoring every set with the current version.

Every save creates a NEW :class:`scoring.models.ConversionTable` row (same event and code, the
next version), marks it ``current`` in place of the previous one and rescores every scored set
with it in the same transaction (:func:`save_table_version`): the event's stored converted
scores never mix versions after a save, and each names the version it was converted with.
Validation is :mod:`scoring.conversion`'s: a refused table raises
:class:`~scoring.conversion.ConversionTableError` naming the row, and nothing is stored or
rescored.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable

from django.db import transaction
from django.db.models import Count, Max, Q
from django.utils.translation import gettext as _

from scoring import visibility
from scoring.comparisons import TableSeats, complete_scopes, version_labels, versioned_scores
from scoring.conversion import ConversionTable as PlainTable
from scoring.conversion import ConversionTableError
from scoring.models import ConversionTable, FouledPlay, HandResult, SetScore
from tournament.models import Event, Group, Session, Table
from tournament.table_plan import event_plans
from walls.models import ReserveWall

SAVED_ACTION = "conversion-table-saved"


@transaction.atomic
def save_table_version(event: Event, table: PlainTable, *, source: str = "", actor: str = "") -> ConversionTable:
    """Store ``table`` (a validated :class:`scoring.conversion.ConversionTable`) as the event's next
    conversion table version, make it current and rescore every scored set with it
    (:func:`rescore_event`), all in one transaction; returns the stored row.

    The code stays the current table's (``mcr-mp``, ``wbf-imp``...); the version is one more
    than the highest stored for that code in the event (the event row is locked, so two
    directors saving at once get two versions). ``source`` defaults to the table's own.
    Afterwards every stored converted score names the new version (docs/scoring.md, "Conversion tables": a save never
    leaves scores of two versions in the standings). Writes an
    :class:`~tournament.models.AuditEntry` (``conversion-table-saved``, by ``actor``) with
    ``{"code", "version", "rescored"}`` (converted scores stored).
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    current = ConversionTable.objects.current(event)
    code = current.code if current else "custom"
    highest = event.conversion_tables.filter(code=code).aggregate(v=Max("version"))["v"] or 0
    ConversionTable.objects.filter(event=event, current=True).update(current=False)
    saved = ConversionTable.objects.create(event=event, code=code, name=table.name.strip() or code,
                                           source=source or table.source, version=highest + 1, rows=table.rows(),
                                           current=True)
    rescored = rescore_event(event)
    event.log(SAVED_ACTION, actor, code=code, version=saved.version, rescored=rescored)
    return saved


def save_table_csv(event: Event, csv_text: str, *, name: str, source: str = "", actor: str = "") -> ConversionTable:
    """Read ``csv_text`` (header ``from,to,points``, docs/scoring.md) and store it as the next
    version, rescoring the event with it (:func:`save_table_version`). Raises
    ConversionTableError naming the row and CSV line (or ``name`` when the name is empty);
    nothing is stored or rescored then."""
    if not name.strip():
        raise ConversionTableError(None, "name", _("give the table a name, e.g. MCR duplicate MP"))
    return save_table_version(event, PlainTable.from_csv(csv_text, name=name.strip(), source=source), source=source,
                              actor=actor)


@transaction.atomic
def rescore_event(event: Event) -> int:
    """Rescore every set that has a result or a stored score with the event's current conversion
    table, in one transaction; returns how many converted scores were stored.

    The same scores and releases as :func:`scoring.actions.rescoring.rescore_set` on each of those
    sets (the rules are its: :func:`scoring.comparisons.complete_scopes` and
    :func:`scoring.comparisons.versioned_scores` over the table plan's seat holders and each
    table's version of the set, docs/scoring.md, "Fouled sets and reserve walls"), computed in
    memory from the whole event read at once, so the number of statements does not grow with the
    number of tables, sets or scores: the session rows are locked first (as a release does), the
    event's plans, its confirmed results, reserve walls and fouled marks read once, the old
    scores deleted in one statement and the new ones stored in one bulk insert; the sets every
    table of whose session has a confirmed result are released
    (:func:`scoring.visibility.release_sets`) and the event's content version bumped once, last
    (:meth:`tournament.models.Event.changed`).
    """
    event = Event.objects.get(pk=event.pk)
    sets = set(HandResult.objects.filter(event=event).order_by().values_list("session_number", "set_no").distinct())
    sets |= set(SetScore.objects.filter(event=event).order_by().values_list("session_number", "set_no").distinct())
    if not sets:
        return 0  # nothing scored, nothing changed
    table_model = ConversionTable.objects.current(event)
    conversion = table_model.as_table()
    by_team = event.method == Event.Method.TEAM
    field = event.comparison == Event.Comparison.FIELD
    list(Session.objects.select_for_update().filter(event=event).values_list("pk", flat=True))  # releases: sessions first
    plans = event_plans(event)
    results: dict[tuple[int, int], dict] = {}
    confirmed: dict[tuple[int, int], int] = defaultdict(int)
    for table_id, session_number, set_no, changes in HandResult.objects.filter(
            event=event, status=HandResult.Status.CONFIRMED).order_by().values_list("table_id", "session_number", "set_no", "changes"):
        results[(table_id, set_no)] = changes
        confirmed[(session_number, set_no)] += 1
    versions = _play_versions(event)
    scopes = {number: _scopes(plan.tables, field) for number, plan in plans.items()}
    doomed = Q(pk__in=[])
    for session_number in sorted({key[0] for key in sets}):
        numbers = sorted(n for s, n in sets if s == session_number)
        groups = [scope[0] for scope in scopes.get(session_number, [])]
        if field or groups:
            doomed |= Q(session_number=session_number, set_no__in=numbers,
                        **({"group__isnull": True} if field else {"group__in": groups}))
    SetScore.objects.filter(doomed, event=event).delete()
    stored = []
    for session_number, set_no in sorted(sets):
        if session_number not in plans:
            continue  # no tables: nothing compared (as rescore_set)
        plan = plans[session_number]
        labels = versions.get((session_number, set_no), {})
        for group, tables in scopes[session_number]:
            seating = {t.pk: TableSeats(session_number, t.group.number, t.number,
                                        {seat: (p.pk, p.team_id) for seat, p in plan.holders(t, set_no).items()})
                       for t in tables}
            mine = [(t.pk, set_no, results[(t.pk, set_no)]) for t in sorted(tables, key=lambda t: t.number)
                    if (t.pk, set_no) in results]
            for rows in complete_scopes(seating, mine, field=field).values():
                scores = versioned_scores(rows, {t.number: labels.get(t.pk, "") for t in tables}, conversion,
                                          event.datum_method, by_team=by_team, min_tables=event.fouled_min_tables,
                                          adjusted_points=event.fouled_adjusted_points)
                stored += [SetScore(event=event, session_number=session_number, set_no=set_no, group=group,
                                    team_id=score.key if by_team else None, player_id=None if by_team else score.key,
                                    score_change=score.score_change, datum=score.converted.datum,
                                    difference=score.converted.difference, points=score.converted.points,
                                    conversion_table=table_model, version=score.version, adjusted=score.adjusted)
                           for score in scores]
    SetScore.objects.bulk_create(stored)
    counts = {number: len(plan.tables) for number, plan in plans.items()}
    visibility.release_sets(event, {key for key in sets if counts.get(key[0]) and confirmed.get(key) == counts[key[0]]})
    event.changed()  # the last lock of the write (tournament.models.Event.changed)
    return len(stored)


def _scopes(tables: list[Table], field: bool) -> list[tuple[Group | None, list[Table]]]:
    """A session's comparison scopes: ``[(group, its tables)]``, or the whole field as one scope
    (group None) when ``field``; what :func:`scoring.actions.rescoring.rescore_set` compares."""
    if field:
        return [(None, list(tables))]
    by_group: dict[Group, list[Table]] = defaultdict(list)
    for table in tables:
        by_group[table.group].append(table)
    return list(by_group.items())


def _play_versions(event: Event) -> dict[tuple[int, int], dict[Hashable, str]]:
    """:func:`scoring.actions.rescoring.play_versions` for every set of ``event`` at once:
    ``{(session, set): {table id: label}}``. Two queries."""
    reserves: dict[tuple[int, int], list] = defaultdict(list)
    for table_id, session_number, set_no, number in ReserveWall.tables.through.objects.filter(
            reservewall__event=event).values_list("table_id", "reservewall__session_number", "reservewall__set_no",
                                                  "reservewall__number"):
        reserves[(session_number, set_no)].append((table_id, number))
    fouled: dict[tuple[int, int], list] = defaultdict(list)
    for table_id, session_number, set_no, version in FouledPlay.objects.filter(event=event).values_list(
            "table_id", "session_number", "set_no", "version"):
        fouled[(session_number, set_no)].append((table_id, version))
    return {key: version_labels(reserves.get(key, []), fouled.get(key, [])) for key in set(reserves) | set(fouled)}


def table_versions(event: Event) -> list[dict]:
    """Every stored version of the event's conversion tables, newest first: ``{"table" (the
    row), "current", "scores" (converted scores computed with it)}``."""
    used = dict(SetScore.objects.filter(event=event).values("conversion_table_id").annotate(n=Count("id"))
                .order_by().values_list("conversion_table_id", "n"))
    return [{"table": t, "current": t.current, "scores": used.get(t.pk, 0)}
            for t in event.conversion_tables.order_by("-pk")]
