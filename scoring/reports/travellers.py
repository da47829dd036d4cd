"""Travellers: every table's result on one set, its converted scores and its hand record.

Scores shown are the stored :class:`~scoring.models.SetScore` rows
(:func:`scoring.actions.rescoring.rescore_set`, computed by :func:`scoring.comparisons.versioned_scores`);
each table shows the version of the set it played (as prepared, a reserve wall, a fouled version:
:func:`scoring.comparisons.version_labels`, docs/scoring.md "Fouled sets and reserve walls").
What a viewer may see is decided by :mod:`scoring.visibility`.
"""

from __future__ import annotations

from collections import defaultdict

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scoring import visibility
from scoring.comparisons import MIXED_VERSIONS, version_labels
from scoring.models import FouledPlay, HandResult, SetScore
from scoring.reports.analysis import set_par_report
from tournament.table_plan import session_plan
from scoring.visibility import Viewer
from tournament.models import Event, Table
from walls.models import ReserveWall, WallSet
from walls.setcode import SetId
from walls.tiles import tile_label, tile_name, tile_sort_key


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
    return _laid_out(event, wall.piles)


def _laid_out(event: Event, stored: dict) -> list[dict]:
    """Stored piles (pile name → tiles) as the hand record shows them, pile by pile in the rule
    set's order: ``{"name", "seat", "kind", "tiles": [{"slot", "code", "glyph", "name"}]}``, a
    starting hand sorted, a draw pile kept in draw order."""
    language = _tile_language()
    piles = []
    for pile in event.get_ruleset().piles:
        tiles = [{"slot": f"{pile.slot_prefix}{i}", "code": code, "glyph": tile_label(code, language), "name": tile_name(code, language)}
                 for i, code in enumerate(stored[pile.name], 1)]
        if pile.kind == "hand":
            tiles.sort(key=lambda t: tile_sort_key(t["code"]))
        piles.append({"name": pile.name, "seat": pile.seat, "kind": pile.kind, "tiles": tiles})
    return piles


def version_name(label: str) -> str:
    """A play version's label in words: ``""`` "as prepared", ``"R1"`` "reserve wall R1", ``"F1"``
    "fouled F1", ``"*"`` "several versions" (docs/scoring.md, "Fouled sets and reserve walls")."""
    if not label:
        return _("as prepared")
    if label == MIXED_VERSIONS:
        return _("several versions")
    if label.startswith("R"):
        return _("reserve wall %(label)s") % {"label": label}
    return _("fouled %(label)s") % {"label": label}


def fouled_rule(event: Event) -> str:
    """The event's rule for a set played in several versions, in words with its parameters
    (``fouled_min_tables``, ``fouled_adjusted_points``; the Laws of Duplicate Bridge, Law 87 and
    Law 12C, adapted: docs/scoring.md, "Fouled sets and reserve walls")."""
    values = {"tables": event.fouled_min_tables, "points": f"{event.fouled_adjusted_points:+d}" if event.fouled_adjusted_points
              else "0"}
    rule = _("Fouled set (Law 87): each version played at %(tables)s or more tables is compared on its own; "
             "a version at fewer tables gets an artificial adjusted score of %(points)s") % values
    if event.method == Event.Method.TEAM:
        rule += " " + _("(team method: its players count as their seat's datum and the team receives the adjusted score "
                        "in addition).")
    else:
        rule += "."
    return rule


def traveller_report(event: Event, session_number: int, set_no: int, viewer: Viewer) -> dict:
    """The traveller of one set: every table's result on it, the datum and each converted score.

    Returns ``{"session", "set_no", "finished", "visible", "tables_done", "tables_total",
    "comparisons", "hand_record", "versions", "rule"}``. ``finished``: the set is released (every
    table of the session has had a confirmed result: :mod:`scoring.visibility`). ``visible``:
    finished, or ``viewer`` is the director or staff; otherwise ``comparisons`` is empty,
    ``versions`` too and ``rule`` None. A comparison is ``{"group" (number, None across the
    field), "scored", "tables": [{"number", "id", "status", "status_label", "seats": [{"seat",
    "player", "team", "change"}], "total", "version", "version_name", "fouled"}], "entries",
    "seats"}``: ``version`` is the label of the version of the set the table played (``""`` as
    prepared, ``"R1"``, ``"F1"``), ``fouled`` the director's mark ``{"id", "version", "reason",
    "marked_by", "marked_at"}`` or None; team method ``entries`` ``[{"name", "number",
    "score_change", "datum", "difference", "points", "table_version", "version",
    "version_name", "adjusted"}]``; individual method ``seats`` ``[{"seat", "version",
    "version_name", "datum", "adjusted", "entries": [...]}]``, one per seat and version compared.
    ``versions``: the labels of the versions played (sorted, ``""`` first); ``rule``: the event's
    rule for several versions in words (:func:`fouled_rule`) when more than one was played, else
    None. The stored datum and points are shown (:class:`~scoring.models.SetScore`), with the
    conversion table version they were computed with. ``hand_record`` as :func:`hand_record`; ``reserve_walls`` as :func:`reserve_hand_records`;
    ``par``: each seat's solo par on the wall as prepared, seen as the hand record is
    (:func:`scoring.reports.analysis.set_par_report`), else None.
    """
    finished = visibility.is_public(event, session_number, set_no)
    visible = visibility.can_see_set(viewer, event, session_number, set_no)
    plan = session_plan(event, session_number)
    tables = plan.tables if plan else []
    results = {r.table_id: r for r in HandResult.objects.filter(table__in=tables, set_no=set_no)}
    report = {
        "session": session_number, "set_no": set_no, "finished": finished, "visible": visible,
        "tables_done": sum(r.status == HandResult.Status.CONFIRMED for r in results.values()),
        "tables_total": len(tables), "comparisons": [],
        "hand_record": hand_record(event, session_number, set_no, viewer),
        "par": set_par_report(event, session_number, set_no, viewer),
        "reserve_walls": reserve_hand_records(event, session_number, set_no, viewer), "versions": [], "rule": None,
    }
    if not visible:
        return report
    fouled = {f.table_id: f for f in FouledPlay.objects.filter(event=event, session_number=session_number, set_no=set_no)}
    reserves = ReserveWall.tables.through.objects.filter(
        reservewall__event=event, reservewall__session_number=session_number, reservewall__set_no=set_no,
    ).values_list("table_id", "reservewall__number")
    labels = version_labels(reserves, ((table_id, f.version) for table_id, f in fouled.items()))
    played = sorted({labels.get(t.pk, "") for t in tables})
    report["versions"] = played
    report["rule"] = fouled_rule(event) if len(played) > 1 else None
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
            for seat, holder in plan.ordered_holders(table, set_no):  # docs/scoring.md "Substitutions"
                seat_of_player[holder.pk] = seat
                seats.append({"seat": seat, "player": holder.name, "team": holder.team.name if holder.team_id else "",
                              "change": result.changes.get(seat) if result else None})
            mark = fouled.get(table.pk)
            label = labels.get(table.pk, "")
            rows.append({"number": table.number, "id": table.pk, "status": result.status if result else "missing",
                         "status_label": result.get_status_display() if result else _("missing"), "seats": seats,
                         "total": sum(result.changes.values()) if result else None,
                         "version": label, "version_name": version_name(label),
                         "fouled": {"id": mark.pk, "version": mark.version, "reason": mark.reason, "marked_by": mark.marked_by,
                                    "marked_at": mark.marked_at} if mark else None})
        entries = [
            {"name": (s.team if team_method else s.player).name, "number": (s.team if team_method else s.player).number,
             "seat": None if team_method else seat_of_player.get(s.player_id), "score_change": s.score_change,
             "datum": s.datum, "difference": s.difference, "points": s.points, "table_version": str(s.conversion_table),
             "version": s.version, "version_name": version_name(s.version), "adjusted": s.adjusted}
            for s in scores.get(scope, [])
        ]
        entries.sort(key=lambda e: (-e["difference"], e["number"]))
        comparison = {"group": scope, "scored": bool(entries), "tables": rows, "entries": entries if team_method else [],
                      "seats": []}
        if not team_method:
            groups = sorted({(e["seat"], e["version"]) for e in entries}, key=lambda k: (seat_order.get(k[0], 99), k[1]))
            for seat, version in groups:
                in_seat = [e for e in entries if e["seat"] == seat and e["version"] == version]
                comparison["seats"].append({"seat": seat, "version": version, "version_name": version_name(version),
                                            "datum": in_seat[0]["datum"], "adjusted": in_seat[0]["adjusted"],
                                            "entries": in_seat})
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


def reserve_hand_records(event: Event, session_number: int, set_no: int, viewer: Viewer) -> list[dict]:
    """The set's reserve walls (docs/walls.md, "Reserve walls") that ``viewer`` may read
    (:func:`scoring.visibility.visible_reserve_walls`: director and staff always, everyone once
    the set is released), laid out as :func:`hand_record` lays out the set: ``[{"label" ("R1"),
    "code" ("1-07R1-4"), "tables" (numbers of the tables that played it), "reason", "piles"}]``
    in reserve order; empty when there is none to show."""
    drawn = visibility.visible_reserve_walls(viewer, ReserveWall.objects.filter(
        event=event, session_number=session_number, set_no=set_no))
    return [{"label": reserve.label, "code": SetId(event.slug, session_number, set_no, reserve.number).code,
             "tables": sorted(t.number for t in reserve.tables.all()), "reason": reserve.reason,
             "piles": _laid_out(event, reserve.piles)}
            for reserve in drawn.prefetch_related("tables").order_by("number")]
