"""The score-state cache and the standings rows.

**Caching.** Every cached value is keyed by the event's *score state*: for each scored
comparison (session, set, group), the number of its SetScore rows and their largest id
(:func:`score_state`). ``rescore_set`` replaces a comparison's rows with new ones, and ids are
never reused, so any change of a converted score changes the state: a stale value is never
read, and no signal is needed. Values live in Django's cache (shared by every process).
Standings are also kept incrementally in each process
(:class:`scoring.standings.IncrementalStandings`): after a change only the comparisons whose
state changed are read and replaced, so a confirmed result costs the size of its set, not of
the event.

**Standings rows** are built by one function for both readers: :func:`event_standings`
(uncached: the export and the demo) and :func:`cached_standings` (pages and the API).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping

from django.core.cache import cache
from django.db.models import Count, Max, QuerySet

from scoring import visibility
from scoring.models import SetScore
from scoring.standings import ConvertedScore, IncrementalStandings, StandingRow, standings
from tournament.models import Event

CACHE_PREFIX = "scoring-reports"
CACHE_SECONDS = 6 * 3600
KEPT_TALLIES = 16


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
    """A short key for ``state``. A public value's state holds only released sets, so its key
    changes with every release too. A value that also depends on the current conversion table
    (the per-player comparison) names the table in its cache name."""
    text = repr(sorted(state.items(), key=repr))
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def cache_key(event: Event, name: str, state: Mapping) -> str:
    """The cache key of the value ``name`` of ``event`` at score state ``state``."""
    return f"{CACHE_PREFIX}:{event.uid}:{name}:{state_digest(event, state)}"


def public_state(event: Event, public: bool) -> tuple[dict, frozenset]:
    """The score state (of released sets only when ``public``: one query) and the released sets
    ``{(session, set_no)}`` it covers (empty when not ``public``)."""
    state = score_state(event, public=public)
    return state, frozenset((k[0], k[1]) for k in state) if public else frozenset()


def cached(event: Event, name: str, state: Mapping, compute: Callable[[], object]):
    """The value ``name`` of ``event`` at score state ``state``: from Django's cache, or
    ``compute()`` stored there for :data:`CACHE_SECONDS`."""
    key = cache_key(event, name, state)
    value = cache.get(key)
    if value is None:
        value = compute()
        cache.set(key, value, CACHE_SECONDS)
    return value


def entrant_field(event: Event) -> str:
    """The SetScore field naming the entrant: ``team_id`` (team method) or ``player_id``."""
    return "team_id" if event.method == Event.Method.TEAM else "player_id"


def entrants(event: Event) -> QuerySet:
    """The event's entrants: its teams (team method) or players, in their default order."""
    return event.teams.all() if event.method == Event.Method.TEAM else event.players.all()


def set_scores(event: Event, public: bool) -> list[dict]:
    """Every stored converted score as a dict ``{"session_number", "set_no", "group__number",
    "team_id", "player_id", "score_change", "datum", "difference", "points",
    "conversion_table__name", "conversion_table__version"}`` in set order, limited to released
    sets if ``public``; cached under the score state."""
    state, released = public_state(event, public)

    def compute():
        finished = released if public else None
        rows = SetScore.objects.filter(event=event).order_by("session_number", "set_no").values(
            "session_number", "set_no", "group__number", "team_id", "player_id", "score_change", "datum", "difference",
            "points", "conversion_table__name", "conversion_table__version")
        return [r for r in rows if finished is None or (r["session_number"], r["set_no"]) in finished]

    return cached(event, f"scores:{int(public)}", state, compute)


# --- standings rows -----------------------------------------------------------------------------

def _stored_scores(event: Event, scores: QuerySet) -> Iterator[tuple[tuple, object, ConvertedScore, int]]:
    """``((session, set_no, group id or None), entrant, ConvertedScore, score change)`` for each
    SetScore row of ``scores`` (one query)."""
    rows = scores.values_list("session_number", "set_no", "group_id", entrant_field(event), "difference", "datum",
                              "points", "score_change")
    for session, set_no, group, entrant, difference, datum, points, change in rows:
        yield (session, set_no, group), entrant, ConvertedScore(difference, datum, points), change


def _standing_rows(event: Event, ranking: Iterable[StandingRow]) -> list[dict]:
    """The standings rows of ``ranking``: ``{"rank", "key", "name", "points", "score_total",
    "sets_played", "positive_sets", "tied"}`` in its order, then every entrant with no scored set
    (rank None, zeros) in the entrants' order. One query."""
    names = dict(entrants(event).values_list("pk", "name"))
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
    return rows


def event_standings(event: Event, session_number: int | None = None, *, public: bool = True) -> list[dict]:
    """Standings of the event (or of one session), read afresh from the stored converted scores:
    rows ``{"rank", "key", "name", "points", "score_total", "sets_played", "positive_sets",
    "tied"}`` ordered by the documented tie-break (:func:`scoring.standings.standings`), then the
    entrants with no scored set (rank None). ``public`` (default): only released sets count
    (:mod:`scoring.visibility`); False: every scored comparison (director and staff). The same
    rows as :func:`cached_standings`, without the cache (the export and the demo)."""
    scores = SetScore.objects.filter(event=event)
    if public:
        scores = visibility.visible_scores(visibility.PUBLIC, scores)
    if session_number is not None:
        scores = scores.filter(session_number=session_number)
    per_set = [(entrant, scope[:2], converted, change) for scope, entrant, converted, change in _stored_scores(event, scores)]
    return _standing_rows(event, standings(per_set))


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
    """The rows of :func:`event_standings` (same rows, same order, ``public`` as there), cached
    and brought up to date incrementally: the pages and the API.

    Each call reads the score state (one query) and looks the rows up in the cache under it; a
    repeated view stops there. After a change, the process's kept
    :class:`~scoring.standings.IncrementalStandings` replaces only the comparisons whose state
    changed (reading just their SetScore rows), and the new rows are cached for every process.
    """
    state = public_state(event, public)[0]
    if session_number is not None:
        state = {k: v for k, v in state.items() if k[0] == session_number}
    name = f"standings:{session_number or 'all'}:{'public' if public else 'all'}"
    key = cache_key(event, name, state)
    rows = cache.get(key)
    if rows is not None:
        return rows
    with _TALLIES.lock:
        kept, tally = _TALLIES.get(f"{event.uid}:{name}")
        changed = {k for k, v in state.items() if kept.get(k) != v} | {k for k in kept if k not in state}
        fresh: dict[tuple, dict] = {k: {} for k in changed}
        if changed:
            scores = SetScore.objects.filter(event=event, session_number__in={k[0] for k in changed},
                                             set_no__in={k[1] for k in changed})
            for scope, entrant, converted, change in _stored_scores(event, scores):
                if scope in fresh:
                    fresh[scope][entrant] = (converted, change)
        for scope, results in fresh.items():
            tally.replace_set(scope, results)
        _TALLIES.put(f"{event.uid}:{name}", state, tally)
        ranking = tally.rows()
    rows = _standing_rows(event, ranking)
    cache.set(key, rows, CACHE_SECONDS)
    return rows
