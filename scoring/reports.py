"""Read side of scoring: travellers with their hand record, per-player standings inside team
events, running totals for the chart, standings exports (CSV, XLSX) and cached standings.

Nothing here writes results or converted scores: those come from :mod:`scoring.services`
(``rescore_set`` stores one :class:`~scoring.models.SetScore` row per entrant per set and
comparison). The arithmetic is :mod:`scoring.standings`.

**What is public** is decided by :mod:`scoring.visibility` alone: a set counts in anything
public (travellers, standings, a team's or player's set-by-set results, the per-player
comparison, the chart, the exports) once it is *released*: every table of its session, in every
group, has a confirmed result on it. Until then a set's results, or a swing in the standings,
would tell players who have not played it yet what its wall holds. ``public=False`` (the
event's director and staff) counts every comparison already scored.

**Caching.** Every cached value is keyed by the event's *score state*: for each scored
comparison (session, set, group), the number of its SetScore rows and their largest id
(:func:`score_state`). ``rescore_set`` replaces a comparison's rows with new ones, and ids are
never reused, so any change of a converted score changes the state: a stale value is never
read, and no signal is needed. Values live in Django's cache (shared by every process).
Standings are also kept incrementally in each process
(:class:`scoring.standings.IncrementalStandings`): after a change only the comparisons whose
state changed are read and replaced, so a confirmed result costs the size of its set, not of
the event.
"""

from __future__ import annotations

import csv
import hashlib
import io
import math
import threading
from collections import OrderedDict, defaultdict
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Count, Max
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scoring.models import HandResult, SetScore
from scoring.standings import ConvertedScore, IncrementalStandings, standings
from scoring.standings import traveller as traveller_rows
from tournament.models import Event, Player, Table, Team
from scoring import visibility
from scoring.visibility import Viewer
from walls.models import WallSet
from walls.tiles import tile_glyph, tile_name, tile_sort_key

CACHE_PREFIX = "scoring-reports"
CACHE_SECONDS = 6 * 3600
KEPT_TALLIES = 16
CHART_TOP = 16
CHART_COLOURS = (
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf", "#393b79", "#843c39", "#637939", "#b5cf6b", "#7b4173", "#3182bd",
)


# --- score state and caching -------------------------------------------------------------------

def score_state(event: Event, *, public: bool = False) -> dict[tuple[int, int, int | None], tuple[int, int]]:
    """The event's score state: ``{(session, set_no, group id or None): (rows, largest row id)}``
    over its SetScore rows (one query); ``public``: of released sets only. Any rescore changes the
    entry of its comparison."""
    scores = SetScore.objects.filter(event=event)
    if public:
        scores = visibility.visible_scores(visibility.PUBLIC, scores)
    rows = (scores.values("session_number", "set_no", "group_id")
            .annotate(n=Count("id"), last=Max("id")).order_by())
    return {(r["session_number"], r["set_no"], r["group_id"]): (r["n"], r["last"]) for r in rows}


def state_digest(event: Event, state: Mapping) -> str:
    """A short key for ``state`` plus the event's current conversion table (the per-player
    comparison converts with it). A public value's state holds only released sets, so its key
    changes with every release too."""
    text = repr((event.conversion_table_id, sorted(state.items(), key=repr)))
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _public_state(event: Event, public: bool) -> tuple[dict, frozenset]:
    """The score state (of released sets only when ``public``: one query) and the released sets
    it covers (empty when not ``public``)."""
    state = score_state(event, public=public)
    return state, frozenset((k[0], k[1]) for k in state) if public else frozenset()


def _cached(event: Event, name: str, state: Mapping, compute):
    key = f"{CACHE_PREFIX}:{event.uid}:{name}:{state_digest(event, state)}"
    value = cache.get(key)
    if value is None:
        value = compute()
        cache.set(key, value, CACHE_SECONDS)
    return value


def _entrant_field(event: Event) -> str:
    return "team_id" if event.method == Event.Method.TEAM else "player_id"


def _entrants(event: Event):
    return event.teams.all() if event.method == Event.Method.TEAM else event.players.all()


class _Tallies:
    """The incremental standings this process keeps per event and session: ``{key: (state,
    IncrementalStandings)}``, the least recently used dropped beyond :data:`KEPT_TALLIES`. Kept in
    memory, not in the shared cache: pickling a 160,000-result tally costs about a second, while
    every process can bring its own copy up to date from the score state alone."""

    def __init__(self):
        self._kept: OrderedDict[str, tuple[dict, IncrementalStandings]] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: str) -> tuple[dict, IncrementalStandings]:
        if key in self._kept:
            self._kept.move_to_end(key)
            return self._kept[key]
        return {}, IncrementalStandings()

    def put(self, key: str, state: dict, tally: IncrementalStandings) -> None:
        self._kept[key] = (state, tally)
        self._kept.move_to_end(key)
        while len(self._kept) > KEPT_TALLIES:
            self._kept.popitem(last=False)


_TALLIES = _Tallies()


def cached_standings(event: Event, session_number: int | None = None, *, public: bool = True) -> list[dict]:
    """The standings of :func:`scoring.services.event_standings` (same rows, same order:
    ``{"rank", "key", "name", "points", "score_total", "sets_played", "positive_sets", "tied"}``),
    cached and brought up to date incrementally. ``public`` (the default): only released sets
    count (:mod:`scoring.visibility`); ``public=False`` is the director's and staff's view.

    Each call reads the score state (one query) and looks the rows up in the cache under it; a
    repeated view stops there. After a change, the process's kept
    :class:`~scoring.standings.IncrementalStandings` replaces only the comparisons whose state
    changed (reading just their SetScore rows), and the new rows are cached for every process.
    """
    state = _public_state(event, public)[0]
    if session_number is not None:
        state = {k: v for k, v in state.items() if k[0] == session_number}
    name = f"standings:{session_number or 'all'}:{'public' if public else 'all'}"
    key = f"{CACHE_PREFIX}:{event.uid}:{name}:{state_digest(event, state)}"
    rows = cache.get(key)
    if rows is not None:
        return rows
    with _TALLIES.lock:
        kept, tally = _TALLIES.get(f"{event.uid}:{name}")
        changed = {k for k, v in state.items() if kept.get(k) != v} | {k for k in kept if k not in state}
        fresh: dict[tuple, dict] = {k: {} for k in changed}
        if changed:
            rows = SetScore.objects.filter(
                event=event, session_number__in={k[0] for k in changed}, set_no__in={k[1] for k in changed},
            ).values_list("session_number", "set_no", "group_id", _entrant_field(event), "difference", "datum", "points",
                          "score_change")
            for session, set_no, group, entrant, difference, datum, points, change in rows:
                if (session, set_no, group) in fresh:
                    fresh[(session, set_no, group)][entrant] = (ConvertedScore(difference, datum, points), change)
        for scope, results in fresh.items():
            tally.replace_set(scope, results)
        _TALLIES.put(f"{event.uid}:{name}", state, tally)
        ranking = tally.rows()
    names = dict(_entrants(event).values_list("pk", "name"))
    rows = [
        {"rank": r.rank, "key": r.key, "name": names[r.key], "points": r.points, "score_total": r.score_total,
         "sets_played": r.sets_played, "positive_sets": r.positive_sets, "tied": r.tied}
        for r in ranking
    ]
    seen = {row["key"] for row in rows}
    rows += [
        {"rank": None, "key": pk, "name": entrant, "points": 0, "score_total": 0, "sets_played": 0,
         "positive_sets": 0, "tied": False}
        for pk, entrant in names.items() if pk not in seen
    ]
    cache.set(key, rows, CACHE_SECONDS)
    return rows


# --- comparisons from raw results (plain) -----------------------------------------------------

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


def complete_scopes(tables: Mapping[Hashable, TableSeats], results: Iterable[tuple[Hashable, int, Mapping[str, int]]],
                    field: bool = False) -> dict[tuple[int, int, int | None], list[SeatResult]]:
    """The comparisons every table of which has a result: ``{(session, set_no, group): [SeatResult]}``.

    ``tables``: table key → :class:`TableSeats`; ``results``: the confirmed results as
    ``(table key, set_no, {seat: score change})``. A comparison is one group's tables, or with
    ``field`` every table of the session (group None) — as :func:`scoring.services.rescore_set`
    scores them. Raises ValueError for a result at a table not in ``tables`` or on a seat nobody
    held.
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


def team_comparisons(scopes: Mapping[tuple, list[SeatResult]]) -> dict[tuple, dict[Hashable, int]]:
    """Team method input: ``{(session, set_no, group): {team: total score change}}`` (seed 001:
    the sum of the team's members' score changes). Raises ValueError for a seat with no team."""
    out = {}
    for scope, rows in scopes.items():
        totals: dict[Hashable, int] = defaultdict(int)
        for row in rows:
            if row.team is None:
                raise ValueError(f"player {row.player!r} has no team: the team method needs teams")
            totals[row.team] += row.change
        out[scope] = dict(totals)
    return out


def seat_comparisons(scopes: Mapping[tuple, list[SeatResult]]) -> dict[tuple, dict[Hashable, int]]:
    """Individual method input: ``{(session, set_no, group, seat): {player: score change}}``
    (seed 001: the players who held the same seat of the same set)."""
    out: dict[tuple, dict] = defaultdict(dict)
    for (session, set_no, group), rows in scopes.items():
        for row in rows:
            out[(session, set_no, group, row.seat)][row.player] = row.change
    return dict(out)


def event_scopes(event: Event) -> dict[tuple[int, int, int | None], list[SeatResult]]:
    """:func:`complete_scopes` of a stored event (player and team keys are primary keys; groups
    are group numbers). Two queries."""
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
    """:func:`complete_scopes` of a ``dmj-event/1`` export (docs/export.md): keys are player and
    team numbers. Raises ValueError (or KeyError) for an export missing the parts it needs."""
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


# --- per-player standings -----------------------------------------------------------------------

def _seat_results(event: Event, public: bool) -> list[dict]:
    state, released = _public_state(event, public)

    def compute():
        table = event.conversion_table.as_table()
        scopes = event_scopes(event)
        if public:
            scopes = {k: v for k, v in scopes.items() if (k[0], k[1]) in released}
        where = {(r.session, r.set_no, r.player): r for rows in scopes.values() for r in rows}
        out = []
        for (session, set_no, group, seat), changes in seat_comparisons(scopes).items():
            for row in traveller_rows(changes, table, event.datum_method):
                at = where[(session, set_no, row["key"])]
                out.append({"session": session, "set_no": set_no, "group": group, "seat": seat, "table": at.table,
                            "player": row["key"], "team": at.team, "score_change": row["score_change"],
                            "datum": row["datum"], "difference": row["difference"], "points": row["points"]})
        out.sort(key=lambda r: (r["session"], r["set_no"], r["table"], r["seat"]))
        return out

    return _cached(event, f"seats:{int(public)}", state, compute)


def player_standings(event: Event, *, public: bool = True, order: str = "points") -> list[dict]:
    """Per-player standings: every player's score-change total and sets played, and as extra
    information their comparison with the same seat of the same set (the individual method of
    seed 001 applied inside a team event, converted with the event's current table).

    Rows ``{"rank", "tied", "player", "number", "name", "team", "team_number", "points",
    "score_total", "sets_played", "positive_sets", "difference_total"}``; ``rank`` follows the
    standings tie-break on the seat comparison (points, then score total, then positive sets).
    ``order``: ``"points"`` (default) or ``"score"`` (score-change total first, then points).
    ``public``: only sets finished everywhere. Players with no set yet are listed last, unranked.
    Raises ValueError for an unknown ``order``.
    """
    if order not in ("points", "score"):
        raise ValueError(f"unknown order {order!r}: use points or score")
    seat_rows = _seat_results(event, public)
    differences: dict[int, float] = defaultdict(float)
    per_set = []
    for r in seat_rows:
        differences[r["player"]] += r["difference"]
        per_set.append((r["player"], (r["session"], r["set_no"]),
                        ConvertedScore(r["difference"], r["datum"], r["points"]), r["score_change"]))
    ranked = standings(per_set)
    players = {p.pk: p for p in Player.objects.filter(event=event).select_related("team")}
    out = []
    for row in ranked:
        player = players[row.key]
        out.append({"rank": row.rank, "tied": row.tied, "player": player.pk, "number": player.number, "name": player.name,
                    "team": player.team.name if player.team else "", "team_number": player.team.number if player.team else None,
                    "points": row.points, "score_total": row.score_total, "sets_played": row.sets_played,
                    "positive_sets": row.positive_sets, "difference_total": differences[row.key]})
    if order == "score":
        out.sort(key=lambda r: (-r["score_total"], -r["points"], r["number"]))
    seen = {r["player"] for r in out}
    out += [{"rank": None, "tied": False, "player": p.pk, "number": p.number, "name": p.name,
             "team": p.team.name if p.team else "", "team_number": p.team.number if p.team else None,
             "points": 0, "score_total": 0, "sets_played": 0, "positive_sets": 0, "difference_total": 0.0}
            for p in players.values() if p.pk not in seen and not p.substitute]
    return out


# --- travellers -----------------------------------------------------------------------------

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


# --- team and player pages ----------------------------------------------------------------------

def _set_scores(event: Event, public: bool) -> list[dict]:
    """Every stored converted score as a dict, limited to released sets if ``public``."""
    state, released = _public_state(event, public)

    def compute():
        finished = released if public else None
        rows = SetScore.objects.filter(event=event).order_by("session_number", "set_no").values(
            "session_number", "set_no", "group__number", "team_id", "player_id", "score_change", "datum", "difference",
            "points", "conversion_table__name", "conversion_table__version")
        return [r for r in rows if finished is None or (r["session_number"], r["set_no"]) in finished]

    return _cached(event, f"scores:{int(public)}", state, compute)


def team_report(event: Event, team: Team, *, public: bool = True) -> dict:
    """A team's page: its standings row, its members' totals and seat comparisons (as
    :func:`player_standings`) and its set-by-set results ``[{"session", "set_no", "group",
    "score_change", "datum", "difference", "points", "running", "table_version"}]`` (running =
    points so far). ``public``: only sets finished everywhere."""
    row = next((r for r in cached_standings(event, public=public) if r["key"] == team.pk), None)
    members = [r for r in player_standings(event, public=public) if r["team_number"] == team.number]
    sets = []
    running = 0
    for s in _set_scores(event, public):
        if s["team_id"] != team.pk:
            continue
        running += s["points"]
        sets.append({"session": s["session_number"], "set_no": s["set_no"], "group": s["group__number"],
                     "score_change": s["score_change"], "datum": s["datum"], "difference": s["difference"],
                     "points": s["points"], "running": running,
                     "table_version": f"{s['conversion_table__name']} v{s['conversion_table__version']}"})
    return {"standing": row, "members": members, "sets": sets}


def player_report(event: Event, player: Player, *, public: bool = True) -> dict:
    """A player's page: their row of :func:`player_standings`, their standings row in an
    individual event, and their set-by-set results against the same seat ``[{"session",
    "set_no", "group", "table", "seat", "score_change", "datum", "difference", "points",
    "running"}]``. In an individual event the points are the stored converted scores; in a team
    event they are the per-player comparison (extra information)."""
    row = next((r for r in player_standings(event, public=public) if r["player"] == player.pk), None)
    standing = None
    if event.method == Event.Method.INDIVIDUAL:
        standing = next((r for r in cached_standings(event, public=public) if r["key"] == player.pk), None)
    sets = []
    running = 0
    for s in _seat_results(event, public):
        if s["player"] != player.pk:
            continue
        running += s["points"]
        sets.append({**s, "running": running})
    return {"row": row, "standing": standing, "sets": sets}


# --- running totals and the chart -----------------------------------------------------------

def running_totals(event: Event, *, public: bool = True) -> dict:
    """Each entrant's running total of converted points after each set, in set order:
    ``{"sets": [(session, set_no), ...], "series": [{"key", "name", "number", "values": [points
    after each set]}]}``, series ordered by final total (then name). An entrant with no score on
    a set keeps its total. ``public``: only sets finished everywhere."""
    scores = _set_scores(event, public)
    field = "team_id" if event.method == Event.Method.TEAM else "player_id"
    sets = sorted({(s["session_number"], s["set_no"]) for s in scores})
    index = {key: i for i, key in enumerate(sets)}
    gains: dict[int, list[int]] = defaultdict(lambda: [0] * len(sets))
    for s in scores:
        gains[s[field]][index[(s["session_number"], s["set_no"])]] += s["points"]
    series = []
    for entrant in _entrants(event):
        if entrant.pk not in gains:
            continue
        values, total = [], 0
        for gain in gains[entrant.pk]:
            total += gain
            values.append(total)
        series.append({"key": entrant.pk, "name": entrant.name, "number": entrant.number, "values": values})
    series.sort(key=lambda s: (-s["values"][-1], s["name"]))
    return {"sets": sets, "series": series}


def _nice_step(span: float, ticks: int = 6) -> float:
    raw = max(span, 1) / ticks
    magnitude = 10 ** math.floor(math.log10(raw))
    return next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)


def line_chart(labels: list[str], series: list[dict], *, width: int = 760, height: int = 380,
               highlight: Hashable | None = None) -> dict:
    """Geometry of a line chart for an inline SVG, computed on the server (no script).

    ``labels``: one per x position; ``series``: ``[{"key", "name", "values"}]`` with one value
    per label. Returns ``{"width", "height", "plot": {"left", "top", "right", "bottom"},
    "x_ticks": [{"x", "label"}], "y_ticks": [{"y", "label"}], "zero_y", "lines": [{"key",
    "name", "colour", "points" ("x,y x,y ..."), "last_x", "last_y", "last", "highlight"}]}``.
    Colours cycle through :data:`CHART_COLOURS`. Raises ValueError when a series has not one
    value per label.
    """
    left, right, top, bottom = 48, width - 16, 16, height - 40
    values = [v for s in series for v in s["values"]]
    for s in series:
        if len(s["values"]) != len(labels):
            raise ValueError(f"series {s['name']!r} has {len(s['values'])} values for {len(labels)} sets")
    low, high = min(values + [0]), max(values + [0])
    step = _nice_step(high - low)
    low, high = step * math.floor(low / step), step * math.ceil(high / step)
    if high == low:
        high = low + step

    def x_of(i: int) -> float:
        return left + (right - left) * (i + 1) / max(len(labels), 1)

    def y_of(v: float) -> float:
        return bottom - (bottom - top) * (v - low) / (high - low)

    every = max(1, math.ceil(len(labels) / 16))
    x_ticks = [{"x": round(x_of(i), 1), "label": label} for i, label in enumerate(labels) if i % every == every - 1 or i == 0]
    y_ticks = []
    tick = low
    while tick <= high + step / 2:
        y_ticks.append({"y": round(y_of(tick), 1), "label": f"{tick:g}"})
        tick += step
    lines = []
    for i, s in enumerate(series):
        points = [(left, y_of(0))] + [(x_of(j), y_of(v)) for j, v in enumerate(s["values"])]
        lines.append({"key": s["key"], "name": s["name"], "colour": CHART_COLOURS[i % len(CHART_COLOURS)],
                      "points": " ".join(f"{x:.1f},{y:.1f}" for x, y in points),
                      "last_x": round(points[-1][0], 1), "last_y": round(points[-1][1], 1),
                      "last": s["values"][-1] if s["values"] else 0, "highlight": s["key"] == highlight})
    return {"width": width, "height": height, "plot": {"left": left, "top": top, "right": right, "bottom": bottom},
            "x_ticks": x_ticks, "y_ticks": y_ticks, "zero_y": round(y_of(0), 1), "lines": lines}


def event_chart(event: Event, *, public: bool = True, highlight: Hashable | None = None, top: int = CHART_TOP) -> dict | None:
    """The chart of each entrant's running total by set (:func:`running_totals`, :func:`line_chart`),
    or None before any set is scored. With more than ``top`` entrants (individual events) the
    ``top`` leaders are drawn, plus ``highlight`` wherever it stands."""
    totals = running_totals(event, public=public)
    if not totals["sets"]:
        return None
    series = totals["series"]
    if len(series) > top:
        series = series[:top] + [s for s in series[top:] if s["key"] == highlight]
    labels = [f"{session}-{set_no}" for session, set_no in totals["sets"]]
    chart = line_chart(labels, series, highlight=highlight)
    chart["shown"], chart["entrants"] = len(series), len(totals["series"])
    return chart


# --- exports ----------------------------------------------------------------------------------

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_text(value):
    """``value`` safe for a CSV cell: text that a spreadsheet would read as a formula (beginning
    with ``=``, ``+``, ``-``, ``@``, tab or carriage return) gets a leading apostrophe, as OWASP's
    "CSV Injection" advice says; numbers and other text are returned unchanged."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def _xlsx_row(sheet, values: Iterable) -> None:
    """Append ``values`` to an openpyxl ``sheet``, text stored as text (never a formula)."""
    sheet.append(list(values))
    for cell in sheet[sheet.max_row]:
        if isinstance(cell.value, str):
            cell.data_type = "s"


def _standing_columns(event: Event) -> list[str]:
    entrant = _("Team") if event.method == Event.Method.TEAM else _("Player")
    return [_("Rank"), entrant, _("Points"), _("Score total"), _("Sets"), _("Positive sets"), _("Tied")]


def _standing_values(row: dict) -> list:
    return [row["rank"], row["name"], row["points"], row["score_total"], row["sets_played"], row["positive_sets"],
            "=" if row["tied"] else ""]


def standings_csv(event: Event, session_number: int | None = None, *, public: bool = True) -> str:
    """The standings (:func:`cached_standings`, ``public`` as there) as CSV text: rank, entrant,
    points (converted), score total (points), sets, positive sets, tied (``'=``); unranked rows
    have an empty rank. Text cells pass through :func:`spreadsheet_text`."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(_standing_columns(event))
    for row in cached_standings(event, session_number, public=public):
        writer.writerow([spreadsheet_text("" if v is None else v) for v in _standing_values(row)])
    return buffer.getvalue()


def standings_xlsx(event: Event, session_number: int | None = None, *, public: bool = True) -> bytes:
    """The standings as an XLSX workbook (openpyxl): sheet "Standings" as :func:`standings_csv`;
    in a team event also sheet "Players" (:func:`player_standings`); ``public`` as in
    :func:`cached_standings`. Names and every other text are stored as text, never as a formula.
    Returns the file's bytes."""
    from openpyxl import Workbook
    from openpyxl.styles import Font

    book = Workbook()
    sheet = book.active
    sheet.title = _("Standings")[:31]
    _xlsx_row(sheet, _standing_columns(event))
    for row in cached_standings(event, session_number, public=public):
        _xlsx_row(sheet, _standing_values(row))
    if event.method == Event.Method.TEAM:
        players = book.create_sheet(_("Players")[:31])
        _xlsx_row(players, [_("Rank"), _("Player"), _("Team"), _("Seat comparison points"), _("Score total"), _("Sets"),
                            _("Positive sets")])
        for row in player_standings(event, public=public):
            _xlsx_row(players, [row["rank"], row["name"], row["team"], row["points"], row["score_total"],
                                row["sets_played"], row["positive_sets"]])
    for ws in book.worksheets:
        for cell in ws[1]:
            cell.font = Font(bold=True)
        ws.freeze_panes = "A2"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
