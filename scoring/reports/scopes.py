"""The complete comparisons of a stored event or of an export, as
:func:`scoring.comparisons.complete_scopes` gives them (the raw results the per-player
comparison and conversion table fitting read). Each seat's result belongs to whoever held the
seat on that set: the substitutions are applied by :func:`tournament.seats.seat_holders`
(docs/scoring.md, "Substitutions"), the rule every score follows; a stored event's seats and
substitutions are read from its table plans (:func:`tournament.table_plan.event_plans`)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import replace

from scoring.comparisons import SeatResult, TableSeats, complete_scopes
from scoring.models import HandResult
from tournament.models import Event, SeatAssignment, Substitution, Table
from tournament.seats import seat_holders
from tournament.table_plan import event_plans


def _scopes_with_substitutions(tables: Mapping[Hashable, TableSeats], results: Iterable[tuple[Hashable, int, Mapping]],
                               changes: Mapping[Hashable, list], field: bool):
    """:func:`complete_scopes` where ``changes`` (``{table key: [(seat, sets, (player, team))]}``,
    in the order given) replace the seat holders on the sets they list, set by set."""
    if not changes:
        return complete_scopes(tables, results, field=field)
    by_set: dict[int, list] = defaultdict(list)
    for result in results:
        by_set[result[1]].append(result)
    out = {}
    for set_no, found in by_set.items():
        seating = {key: replace(seats, seats=seat_holders(seats.seats, changes[key], set_no)) if key in changes else seats
                   for key, seats in tables.items()}
        out.update(complete_scopes(seating, found, field=field))
    return dict(sorted(out.items(), key=lambda item: repr(item[0])))


def event_scopes(event: Event) -> dict[tuple[int, int, int | None], list[SeatResult]]:
    """:func:`~scoring.comparisons.complete_scopes` of a stored event (player and team keys are
    primary keys; groups are group numbers), substitutions applied. Five queries (the table plans
    and the confirmed results)."""
    results = HandResult.objects.filter(event=event, status=HandResult.Status.CONFIRMED)
    return _plan_scopes(event, event_plans(event), results)


def set_scopes(event: Event, session_number: int, set_no: int) -> dict[tuple[int, int, int | None], list[SeatResult]]:
    """:func:`event_scopes` of one set: the complete comparisons ``{(session, set_no, group
    number or None): [SeatResult]}`` of set ``set_no`` of session ``session_number``,
    substitutions applied. Four queries, each reading plain values (the session's tables, seats
    and substitutions, the set's confirmed results), no model instances: the cost of one set
    after its release, not of the session."""
    where = {"group__session__event": event, "group__session__number": session_number}
    seated: dict[int, dict[str, tuple]] = {}
    for table_id, seat, player_id, team_id in SeatAssignment.objects.filter(
            **{f"table__{k}": v for k, v in where.items()}).values_list("table_id", "seat", "player_id", "player__team_id"):
        seated.setdefault(table_id, {})[seat] = (player_id, team_id)
    tables = {pk: TableSeats(session_number, group, number, seated.get(pk, {}))
              for pk, group, number in Table.objects.filter(**where).values_list("pk", "group__number", "number")}
    changes: dict[int, list] = {}
    for table_id, seat, sets, player_id, team_id in Substitution.objects.filter(
            **{f"table__{k}": v for k, v in where.items()}).order_by("id").values_list(
            "table_id", "seat", "sets", "player_in_id", "player_in__team_id"):
        changes.setdefault(table_id, []).append((seat, list(sets), (player_id, team_id)))
    rows = list(HandResult.objects.filter(event=event, session_number=session_number, set_no=set_no,
                                          status=HandResult.Status.CONFIRMED).values_list("table_id", "set_no", "changes"))
    return _scopes_with_substitutions(tables, rows, changes, event.comparison == Event.Comparison.FIELD)


def _plan_scopes(event: Event, plans: Mapping, results) -> dict[tuple[int, int, int | None], list[SeatResult]]:
    """The complete comparisons of the sessions of ``plans`` (``{number: SessionPlan}``) over
    ``results`` (a HandResult queryset of confirmed results)."""
    tables: dict[int, TableSeats] = {}
    changes: dict[int, list] = {}
    for number, plan in plans.items():
        for t in plan.tables:
            tables[t.pk] = TableSeats(number, t.group.number, t.number,
                                      {seat: (p.pk, p.team_id) for seat, p in plan.seated[t.pk].items()})
            if t.pk in plan.changes:
                changes[t.pk] = [(seat, sets, (p.pk, p.team_id)) for seat, sets, p in plan.changes[t.pk]]
    rows = list(results.values_list("table_id", "set_no", "changes"))
    return _scopes_with_substitutions(tables, rows, changes, event.comparison == Event.Comparison.FIELD)


def export_scopes(data: Mapping) -> dict[tuple[int, int, int | None], list[SeatResult]]:
    """:func:`~scoring.comparisons.complete_scopes` of a ``dmj-event/1`` export
    (docs/export.md): keys are player and team numbers; its ``substitutions`` applied. Raises ValueError (or KeyError) for an
    export missing the parts it needs."""
    team_of = {p["number"]: p["team"] for p in data["players"]}
    tables = {}
    for session in data["sessions"]:
        for group in session["groups"]:
            for table in group["tables"]:
                tables[(session["number"], table["number"])] = TableSeats(
                    session["number"], group["number"], table["number"],
                    {seat: (number, team_of[number]) for seat, number in table["seats"].items()})
    results = [((r["session"], r["table"]), r["set"], r["changes"]) for r in data["results"] if r["status"] == "confirmed"]
    changes: dict[tuple, list] = defaultdict(list)
    for sub in data.get("substitutions", []):  # older exports: none
        changes[(sub["session"], sub["table"])].append((sub["seat"], sub["sets"], (sub["player_in"], team_of[sub["player_in"]])))
    return _scopes_with_substitutions(tables, results, changes, data["event"].get("comparison") == Event.Comparison.FIELD)
