"""Travellers: every table's result on one set, its converted scores and its hand record.

Scores shown are the stored :class:`~scoring.models.SetScore` rows
(:func:`scoring.services.rescore_set`, computed by :func:`scoring.comparisons.converted_scores`);
what a viewer may see is decided by :mod:`scoring.visibility`.
"""

from __future__ import annotations

from collections import defaultdict

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scoring import visibility
from scoring.models import HandResult, SetScore
from scoring.visibility import Viewer
from tournament.models import Event, Table
from walls.models import WallSet
from walls.tiles import tile_glyph, tile_name, tile_sort_key


def _tile_language() -> str:
    language = (get_language() or "en").lower()
    return "ja" if language.startswith("ja") else "zh" if language.startswith("zh") else "en"


def hand_record(event: Event, session_number: int, set_no: int, viewer: Viewer) -> list[dict] | None:
    """The wall of a set laid out pile by pile, or None when ``viewer`` may not read it yet
    (:func:`scoring.visibility.can_see_set`: director and staff always, everyone once the set is
    released) or it was never generated. Piles ``{"name", "seat", "kind", "tiles":
    [{"slot", "code", "glyph", "name"}]}``; a starting hand is sorted, a draw pile kept in
    draw order."""
    if not visibility.can_see_set(viewer, event, session_number, set_no):
        return None
    wall = WallSet.objects.filter(event=event, session_number=session_number, set_no=set_no).first()
    if wall is None:
        return None
    language = _tile_language()
    piles = []
    for pile in event.get_ruleset().piles:
        tiles = [{"slot": f"{pile.slot_prefix}{i}", "code": code, "glyph": tile_glyph(code), "name": tile_name(code, language)}
                 for i, code in enumerate(wall.piles[pile.name], 1)]
        if pile.kind == "hand":
            tiles.sort(key=lambda t: tile_sort_key(t["code"]))
        piles.append({"name": pile.name, "seat": pile.seat, "kind": pile.kind, "tiles": tiles})
    return piles


def traveller_report(event: Event, session_number: int, set_no: int, viewer: Viewer) -> dict:
    """The traveller of one set: every table's result on it, the datum and each converted score.

    Returns ``{"session", "set_no", "finished", "visible", "tables_done", "tables_total",
    "comparisons", "hand_record"}``. ``finished``: the set is released (every table of the
    session has had a confirmed result: :mod:`scoring.visibility`). ``visible``: finished, or
    ``viewer`` is the director or staff; otherwise ``comparisons`` is empty. A comparison is ``{"group" (number,
    None across the field), "scored", "tables": [{"number", "status", "status_label", "seats": [{"seat",
    "player", "team", "change"}], "total"}], "entries", "seats"}``: team method ``entries``
    ``[{"name", "number", "score_change", "datum", "difference", "points", "table_version"}]``;
    individual method ``seats`` ``[{"seat", "datum", "entries": [...]}]``. The stored datum and
    points are shown (:class:`~scoring.models.SetScore`), with the conversion table version they
    were computed with. ``hand_record`` as :func:`hand_record`.
    """
    finished = visibility.is_public(event, session_number, set_no)
    visible = visibility.can_see_set(viewer, event, session_number, set_no)
    tables = list(Table.objects.filter(group__session__event=event, group__session__number=session_number)
                  .select_related("group").prefetch_related("seats__player", "seats__team"))
    results = {r.table_id: r for r in HandResult.objects.filter(table__in=tables, set_no=set_no)}
    report = {
        "session": session_number, "set_no": set_no, "finished": finished, "visible": visible,
        "tables_done": sum(r.status == HandResult.Status.CONFIRMED for r in results.values()),
        "tables_total": len(tables), "comparisons": [],
        "hand_record": hand_record(event, session_number, set_no, viewer),
    }
    if not visible:
        return report
    seat_order = {seat: i for i, seat in enumerate(event.get_ruleset().seats)}
    field = event.comparison == Event.Comparison.FIELD
    by_scope: dict[int | None, list[Table]] = defaultdict(list)
    for table in tables:
        by_scope[None if field else table.group.number].append(table)
    scores = defaultdict(list)
    for s in SetScore.objects.filter(event=event, session_number=session_number, set_no=set_no).select_related(
            "group", "team", "player", "conversion_table"):
        scores[s.group.number if s.group_id else None].append(s)
    team_method = event.method == Event.Method.TEAM
    seat_of_player = {}
    for scope in sorted(by_scope, key=lambda g: -1 if g is None else g):
        rows = []
        for table in by_scope[scope]:
            result = results.get(table.pk)
            seats = []
            for assignment in sorted(table.seats.all(), key=lambda a: seat_order.get(a.seat, 99)):
                seat_of_player[assignment.player_id] = assignment.seat
                seats.append({"seat": assignment.seat, "player": assignment.player.name,
                              "team": assignment.team.name if assignment.team_id else "",
                              "change": result.changes.get(assignment.seat) if result else None})
            rows.append({"number": table.number, "status": result.status if result else "missing",
                         "status_label": result.get_status_display() if result else _("missing"), "seats": seats,
                         "total": sum(result.changes.values()) if result else None})
        entries = [
            {"name": (s.team if team_method else s.player).name, "number": (s.team if team_method else s.player).number,
             "seat": None if team_method else seat_of_player.get(s.player_id), "score_change": s.score_change,
             "datum": s.datum, "difference": s.difference, "points": s.points, "table_version": str(s.conversion_table)}
            for s in scores.get(scope, [])
        ]
        entries.sort(key=lambda e: (-e["difference"], e["number"]))
        comparison = {"group": scope, "scored": bool(entries), "tables": rows, "entries": entries if team_method else [],
                      "seats": []}
        if not team_method:
            for seat in sorted({e["seat"] for e in entries}, key=lambda s: seat_order.get(s, 99)):
                in_seat = [e for e in entries if e["seat"] == seat]
                comparison["seats"].append({"seat": seat, "datum": in_seat[0]["datum"], "entries": in_seat})
        report["comparisons"].append(comparison)
    return report


def traveller_index(event: Event) -> list[dict]:
    """Every session's sets with whether they are released (finished everywhere):
    ``[{"session", "sets": [{"set_no", "finished"}]}]`` for the seated sessions."""
    finished = visibility.released_sets(event)
    hands = event.get_ruleset().hands_per_session
    return [
        {"session": number, "sets": [{"set_no": n, "finished": (number, n) in finished} for n in range(1, hands + 1)]}
        for number in event.sessions.order_by("number").values_list("number", flat=True)
    ]
