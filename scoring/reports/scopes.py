"""The complete comparisons of a stored event or of an export, as
:func:`scoring.comparisons.complete_scopes` gives them (the raw results the per-player
comparison and conversion table fitting read)."""

from __future__ import annotations

from collections.abc import Mapping

from scoring.comparisons import SeatResult, TableSeats, complete_scopes
from scoring.models import HandResult
from tournament.models import Event, Table


def event_scopes(event: Event) -> dict[tuple[int, int, int | None], list[SeatResult]]:
    """:func:`~scoring.comparisons.complete_scopes` of a stored event (player and team keys are
    primary keys; groups are group numbers). Two queries."""
    tables: dict[int, dict] = {}
    for table_id, session, group, number, seat, player, team in Table.objects.filter(
            group__session__event=event).values_list(
            "pk", "group__session__number", "group__number", "number", "seats__seat", "seats__player_id",
            "seats__team_id"):
        entry = tables.setdefault(table_id, {"session": session, "group": group, "number": number, "seats": {}})
        if seat:
            entry["seats"][seat] = (player, team)
    results = HandResult.objects.filter(event=event, status=HandResult.Status.CONFIRMED).values_list("table_id", "set_no", "changes")
    return complete_scopes({k: TableSeats(**v) for k, v in tables.items()}, results,
                           field=event.comparison == Event.Comparison.FIELD)


def export_scopes(data: Mapping) -> dict[tuple[int, int, int | None], list[SeatResult]]:
    """:func:`~scoring.comparisons.complete_scopes` of a ``dmj-event/1`` export
    (docs/export.md): keys are player and team numbers. Raises ValueError (or KeyError) for an
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
    return complete_scopes(tables, results, field=data["event"].get("comparison") == Event.Comparison.FIELD)
