"""The standings rows and what they are built from: the score state, the stored converted scores,
the ranking rules.

**Standings rows** are built by one function for both readers: :func:`event_standings`
(uncached: the export and the demo) and :func:`cached_standings` (pages and the API, kept in the
cache under the event's version: :mod:`tournament.cache`), under the event's entrant policy
(:func:`ranking_rules`): substitutes are listed but never ranked, and a sit-out is credited as
the policy says (docs/seating.md); the director's active adjustments
(:func:`active_adjustments`, docs/scoring.md "Penalties and adjustments") and the event's
tie-breaks (``Event.tie_breaks``) are applied there too, the one place ranking rules are built.
:func:`conversion_in_use` names the conversion table versions the stored scores were converted
with.

Standings are also kept incrementally in each process
(:class:`scoring.standings.IncrementalStandings` in a :class:`tournament.cache.Kept`): after a
change only the sets whose score state (:func:`score_state`: rows and largest id per set, one
query) changed are read and replaced. That is right because a stored converted score is never
updated in place: a rescore deletes a comparison's rows and inserts new ones
(:class:`scoring.models.SetScore` refuses an update), so its set's largest id changes with it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from django.db.models import Count, Max, QuerySet

from scoring import visibility
from scoring.models import Adjustment, ConversionTable, SetScore
from scoring.standings import (
    TIE_BREAKS,
    ConvertedScore,
    IncrementalStandings,
    RankingRules,
    StandingRow,
    standings,
    tie_break_codes,
)
from tournament.cache import Kept, cached
from tournament.models import Event

KEPT_TALLIES = 16


# --- score state ----------------------------------------------------------------------------------

def score_state(event: Event, *, public: bool = False) -> dict[tuple[int, int], tuple[int, int]]:
    """The event's score state: ``{(session, set_no): (rows, largest row id)}`` over its SetScore
    rows (one query); ``public``: of released sets only. Any rescore of a comparison changes the
    entry of its set (its rows are written again, with new ids). What the incremental standings
    compare to find the sets to read again, and, with the conversion table, datum method and
    comparison, the key of a set's per-seat rows (:func:`scoring.reports.entrant_reports._set_seat_rows`);
    pages are kept under the version. One entry a set, not a comparison: a page built after a
    release reads 80 entries at 256 teams, not 4,000."""
    scores = SetScore.objects.filter(event=event)
    if public:
        scores = visibility.visible_scores(visibility.PUBLIC, scores)
    rows = scores.values("session_number", "set_no").annotate(n=Count("id"), last=Max("id")).order_by()
    return {(r["session_number"], r["set_no"]): (r["n"], r["last"]) for r in rows}


def cached_score_state(event: Event, *, public: bool = False) -> dict[tuple[int, int], tuple[int, int]]:
    """:func:`score_state` kept under the event's version (``public``: its public version, which
    every change of a released set's scores bumps): the first reader after a release reads it
    (one query), and the standings, the per-player rows and the chart it feeds share it.
    Callers must not change it."""
    return cached(event, f"score-state:{int(public)}", lambda: score_state(event, public=public), public=public)


def released(event: Event, public: bool) -> frozenset[tuple[int, int]] | None:
    """The released sets ``{(session, set_no)}`` when ``public`` (cached under the version),
    else None (every scored set counts)."""
    if not public:
        return None
    return cached(event, "released", lambda: visibility.released_sets(event), public=True)


def entrant_field(event: Event) -> str:
    """The SetScore field naming the entrant: ``team_id`` (team method) or ``player_id``."""
    return "team_id" if event.method == Event.Method.TEAM else "player_id"


def entrants(event: Event) -> QuerySet:
    """The event's entrants: its teams (team method) or players, in their default order."""
    return event.teams.all() if event.method == Event.Method.TEAM else event.players.all()


SET_SCORE_FIELDS = ("session_number", "set_no", "group__number", "team_id", "player_id", "score_change", "datum",
                    "difference", "points", "conversion_table__name", "conversion_table__version")


def set_scores(event: Event, public: bool, **only) -> list[dict]:
    """The stored converted scores as dicts ``{"session_number", "set_no", "group__number",
    "team_id", "player_id", "score_change", "datum", "difference", "points",
    "conversion_table__name", "conversion_table__version"}`` in set order, limited to released
    sets if ``public``; ``only``: SetScore filters (e.g. ``team_id=5``: one entrant's rows, read
    in one indexed query, the cost of the output). Not cached: callers cache what they build."""
    finished = released(event, public)
    rows = SetScore.objects.filter(event=event, **only).order_by("session_number", "set_no").values(*SET_SCORE_FIELDS)
    return [r for r in rows if finished is None or (r["session_number"], r["set_no"]) in finished]


def conversion_in_use(event: Event, *, public: bool = True) -> list[dict]:
    """The conversion table versions the stored converted scores in scope were converted with
    (``public``: of released sets only): ``[{"code", "name", "version", "current" (the version
    the event converts with now), "scores" (how many)}]`` by code and version. One entry when
    every score names the same version (a save rescores everything:
    :func:`scoring.conversion_versions.save_table_version`); more than one means the standings
    mix versions and the event needs a rescore. One query."""
    scores = SetScore.objects.filter(event=event)
    if public:
        scores = visibility.visible_scores(visibility.PUBLIC, scores)
    rows = (scores.values("conversion_table__code", "conversion_table__name", "conversion_table__version",
                          "conversion_table__current")
            .annotate(n=Count("id")).order_by("conversion_table__code", "conversion_table__version"))
    return [{"code": r["conversion_table__code"], "name": r["conversion_table__name"],
             "version": r["conversion_table__version"], "current": r["conversion_table__current"], "scores": r["n"]}
            for r in rows]


# --- standings rows -----------------------------------------------------------------------------

def _stored_scores(event: Event, scores: QuerySet) -> Iterator[tuple[tuple, object, ConvertedScore, int]]:
    """``((session, set_no, group id or None), entrant, ConvertedScore, score change)`` for each
    SetScore row of ``scores`` (one query)."""
    rows = scores.values_list("session_number", "set_no", "group_id", entrant_field(event), "difference", "datum",
                              "points", "score_change")
    for session, set_no, group, entrant, difference, datum, points, change in rows:
        yield (session, set_no, group), entrant, ConvertedScore(difference, datum, points), change


def entrant_list(event: Event) -> list[tuple[int, str, bool]]:
    """``[(pk, name, substitute)]`` of the event's entrants (teams or players) by number, leaving
    out those withdrawn at check-in (they never played: docs/director-guide.md, "Check-in"). One
    query."""
    return list(entrants(event).filter(withdrawn=False).order_by("number").values_list("pk", "name", "substitute"))


def sit_outs(event: Event, entrant_keys: Sequence) -> dict[int, frozenset]:
    """``{session: entrant keys sitting it out}`` under a sit-out policy (``sit-out-average``,
    ``sit-out-datum``), from the stored grouping plan (``event.grouping_plan["sit_outs"]``:
    per session, indices into the plan's ``entrant_ids``, or, in plans stored before check-in
    existed, into the entrants by number; :func:`tournament.seating.sitting_out`).
    ``entrant_keys``: the entrants' keys in number order. Empty under any other policy."""
    if event.entrant_policy not in (Event.EntrantPolicy.SIT_OUT_AVERAGE, Event.EntrantPolicy.SIT_OUT_DATUM):
        return {}
    plan = event.grouping_plan or {}
    ids = plan.get("entrant_ids") or list(entrant_keys)  # plans since check-in name their entrants (withdrawn ones left out)
    out = {}
    for session, indices in enumerate(plan.get("sit_outs") or [], start=1):
        keys = frozenset(ids[i] for i in indices if 0 <= i < len(ids))
        if keys:
            out[session] = keys
    return out


def event_tie_breaks(event: Event) -> tuple[str, ...]:
    """The event's tie-breaks (``Event.tie_breaks``; codes not in
    :data:`~scoring.standings.TIE_BREAKS` are skipped; none: the default order)."""
    return tie_break_codes([code for code in (event.tie_breaks or []) if code in TIE_BREAKS])


def active_adjustments(event: Event) -> list[dict]:
    """The event's adjustments not undone (docs/scoring.md, "Penalties and adjustments"), in the
    order given: ``[{"id", "key" (the team's pk in a team event, else the player's), "session"
    (number, None for the whole event), "unit" ("mp" or "points"), "amount", "reason", "mp"
    (converted points it adds to the total), "score" (score points it adds to the score
    total)}]``. An adjustment in points is converted with the event's *current* conversion
    table (``ConversionTable.convert``: signed, like a score difference). One query, two with
    an adjustment in points."""
    field = entrant_field(event)
    rows = list(Adjustment.objects.filter(event=event, undone_at__isnull=True).order_by("id").values_list(
        "pk", field, "session_number", "unit", "amount", "reason"))
    table = None
    if any(unit == Adjustment.Unit.POINTS for _, _, _, unit, _, _ in rows):
        stored = ConversionTable.objects.current(event)
        table = stored.as_table() if stored is not None else None
    out = []
    for pk, key, session, unit, amount, reason in rows:
        if unit == Adjustment.Unit.POINTS:
            mp, score = (table.convert(amount) if table is not None else 0), amount
        else:
            mp, score = amount, 0
        out.append({"id": pk, "key": key, "session": session, "unit": unit, "amount": amount, "reason": reason,
                    "mp": mp, "score": score})
    return out


def adjustments_in(adjustments: Iterable[dict], session_number: int | None) -> list[dict]:
    """The adjustments of :func:`active_adjustments` that count in the standings of
    ``session_number`` (None: the event total, where every adjustment counts; a session: only
    the adjustments given for that session)."""
    return [a for a in adjustments if session_number is None or a["session"] == session_number]


def ranking_rules(event: Event, entrant_keys: Sequence, substitutes: Iterable, scored_sets: Iterable[tuple[int, int]],
                  average_over: Mapping | None = None, *, adjustments: Iterable[dict] = ()) -> RankingRules:
    """The event's :class:`~scoring.standings.RankingRules` for standings over ``scored_sets``
    (the ``(session, set_no)`` scored in the scope shown: public, released sets only):
    ``substitutes`` (keys) unranked; each entrant that sits out a session (:func:`sit_outs`,
    ``entrant_keys`` in number order) sat out the scored sets of that session; the credit of
    the sit-out-average policy, averaged over ``average_over`` when given (one session's
    standings: the entrant's totals over the whole scope); the event's tie-breaks
    (:func:`event_tie_breaks`); ``adjustments`` (those of :func:`active_adjustments` that count
    in these standings: :func:`adjustments_in`) summed per key as ``(MP, score points)``. No
    query. Every ranked list of the event takes its rules from here."""
    per_session = Counter(session for session, _ in set(scored_sets))
    sat_out: Counter = Counter()
    for session, keys in sit_outs(event, entrant_keys).items():
        for key in keys:
            sat_out[key] += per_session[session]
    totals: dict = {}
    for a in adjustments:
        mp, score = totals.get(a["key"], (0, 0))
        totals[a["key"]] = (mp + a["mp"], score + a["score"])
    return RankingRules(unranked=frozenset(substitutes), sat_out={k: n for k, n in sat_out.items() if n},
                        sit_out_average=event.entrant_policy == Event.EntrantPolicy.SIT_OUT_AVERAGE,
                        average_over=average_over or {}, tie_breaks=event_tie_breaks(event), adjustments=totals)


def _rules_of(event: Event, listed: list[tuple[int, str, bool]], scored_sets: Iterable[tuple[int, int]],
              average_over: Mapping | None = None, adjustments: Iterable[dict] = ()) -> RankingRules:
    return ranking_rules(event, [pk for pk, _, _ in listed], [pk for pk, _, sub in listed if sub], scored_sets,
                         average_over, adjustments=adjustments)


def _average_elsewhere(event: Event, session_number: int | None) -> bool:
    """One session's standings under the sit-out-average policy credit a session sat out with the
    entrant's average over the whole scope, so they read every session's scores."""
    return session_number is not None and event.entrant_policy == Event.EntrantPolicy.SIT_OUT_AVERAGE


def _standing_rows(ranking: Iterable[StandingRow], listed: list[tuple[int, str, bool]],
                   adjustments: Iterable[dict] = ()) -> list[dict]:
    """The standings rows of ``ranking``: ``{"rank", "key", "name", "points", "score_total",
    "sets_played", "positive_sets", "tied", "substitute", "sit_out_sets", "sit_out_points",
    "adjustment_points", "adjustment_score", "adjustments"}`` in its order (ranked rows, then
    substitutes), then every entrant with no scored set (rank None, zeros) in number order.
    ``listed``: :func:`entrant_list`; ``adjustments``: those counted (:func:`adjustments_in`),
    listed on their entrant's row as ``[{"amount", "unit", "mp", "score", "session",
    "reason"}]``."""
    names: dict[Hashable, tuple[str, bool]] = {pk: (name, substitute) for pk, name, substitute in listed}
    notes: dict = {}
    for a in adjustments:
        notes.setdefault(a["key"], []).append({k: a[k] for k in ("amount", "unit", "mp", "score", "session", "reason")})
    ranked = [r for r in ranking if r.key in names]
    seen = {r.key for r in ranked}
    ranked += [StandingRow.unscored(pk) for pk, _name, _substitute in listed if pk not in seen]
    return [{**r.figures(), "key": r.key, "name": names[r.key][0], "substitute": names[r.key][1],
             "adjustments": notes.get(r.key, [])} for r in ranked]


def event_standings(event: Event, session_number: int | None = None, *, public: bool = True) -> list[dict]:
    """Standings of the event (or of one session), read afresh from the stored converted scores:
    rows ``{"rank", "key", "name", "points", "score_total", "sets_played", "positive_sets",
    "tied", "substitute", "sit_out_sets", "sit_out_points", "adjustment_points",
    "adjustment_score", "adjustments"}`` ordered by the event's tie-breaks
    (:func:`scoring.standings.standings`) under the event's entrant policy
    (:func:`ranking_rules`): the ranked rows, then the substitutes (rank None), then the
    entrants with no scored set (rank None). ``points`` include the sit-out credit
    (``sit_out_points``, for ``sit_out_sets`` sets sat out) and the adjustments
    (``adjustment_points``; ``score_total`` includes ``adjustment_score``; each adjustment
    counted is listed in ``adjustments``: :func:`active_adjustments`; a session's standings
    count only that session's). ``public`` (default): only
    released sets count (:mod:`scoring.visibility`); False: every scored comparison (director
    and staff). The same rows as :func:`cached_standings`, without the cache (the export and
    the demo)."""
    scores = SetScore.objects.filter(event=event)
    if public:
        scores = visibility.visible_scores(visibility.PUBLIC, scores)
    elsewhere = _average_elsewhere(event, session_number)
    if session_number is not None and not elsewhere:
        scores = scores.filter(session_number=session_number)
    every = [(entrant, scope[:2], converted, change) for scope, entrant, converted, change in _stored_scores(event, scores)]
    per_set = [r for r in every if session_number is None or r[1][0] == session_number]
    average_over = IncrementalStandings(every).totals() if elsewhere else None
    listed = entrant_list(event)
    counted = adjustments_in(active_adjustments(event), session_number)
    rules = _rules_of(event, listed, (r[1] for r in per_set), average_over, counted)
    return _standing_rows(standings(per_set, rules), listed, counted)
#: the incremental standings this process keeps, ``{name: (state, IncrementalStandings)}``
_TALLIES: Kept[tuple[dict, IncrementalStandings]] = Kept(KEPT_TALLIES)
#: held while a kept tally is brought up to date and read (:func:`kept_tally`)
TALLIES_LOCK = _TALLIES.lock


def kept_tally(name: str, state: Mapping, results_of: Callable[[set], Mapping[Any, Mapping]]) -> IncrementalStandings:
    """The process's kept :class:`~scoring.standings.IncrementalStandings` ``name`` brought to
    ``state`` (``{set key: anything that changes when that set's results do}``): the sets whose
    state changed, appeared or went are replaced by ``results_of(those keys)`` (``{set key:
    {entrant: (ConvertedScore, score change)}}``; a key left out is removed), the others kept.
    The caller holds :data:`TALLIES_LOCK` while it reads the tally."""
    kept, tally = _TALLIES.get(name) or ({}, IncrementalStandings())
    changed = {k for k, v in state.items() if kept.get(k) != v} | {k for k in kept if k not in state}
    if changed:
        fresh = results_of(changed)
        for key in changed:
            tally.replace_set(key, fresh.get(key, {}))
    _TALLIES.put(name, (dict(state), tally))
    return tally


def _up_to_date(event: Event, name: str, state: dict) -> IncrementalStandings:
    """The process's kept tally ``name`` of ``event`` brought to score state ``state``: only the
    sets whose state changed are read (one query, none when nothing changed) and replaced
    (:func:`kept_tally`). The caller holds ``_TALLIES.lock``."""

    def results_of(changed: set) -> dict[tuple, dict]:
        fresh: dict[tuple, dict] = {k: {} for k in changed}
        scores = SetScore.objects.filter(event=event, session_number__in={k[0] for k in changed},
                                         set_no__in={k[1] for k in changed})
        for scope, entrant, converted, change in _stored_scores(event, scores):
            if scope[:2] in fresh:
                fresh[scope[:2]][entrant] = (converted, change)
        return fresh

    return kept_tally(f"{event.uid}:{name}", state, results_of)


def cached_standings(event: Event, session_number: int | None = None, *, public: bool = True) -> list[dict]:
    """The rows of :func:`event_standings` (same rows, same order, ``public`` as there), cached
    under the event's content version (:func:`cached`): the pages and the API. A repeated view
    costs the version's query and the cache read.

    After a change the first reader reads the score state (:func:`score_state`, one query) and
    the process's kept :class:`~scoring.standings.IncrementalStandings` replaces only the
    comparisons whose state changed (reading just their SetScore rows); the new rows are cached
    for every process. One session's standings under the sit-out-average policy also depend on
    the other sessions (the average a session sat out is credited with), so they bring the
    overall tally up to date too.
    """
    scope = "public" if public else "all"
    name = f"standings:{session_number or 'all'}:{scope}"

    def compute() -> list[dict]:
        whole = cached_score_state(event, public=public)
        state = whole if session_number is None else {k: v for k, v in whole.items() if k[0] == session_number}
        elsewhere = _average_elsewhere(event, session_number)
        counted = adjustments_in(active_adjustments(event), session_number)
        listed = entrant_list(event)
        with TALLIES_LOCK:
            tally = _up_to_date(event, name, state)
            average_over = _up_to_date(event, f"standings:all:{scope}", whole).totals() if elsewhere else None
            ranking = tally.rows(_rules_of(event, listed, state, average_over, counted))
        return _standing_rows(ranking, listed, counted)

    return cached(event, name, compute, public=public)
