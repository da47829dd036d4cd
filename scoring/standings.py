"""Datum, converted scores and standings (the team and individual methods: docs/rules.md, "Duplicate MCR: team event", docs/rules.md, "Duplicate MCR: individual event").

A *comparison* is a set of results that played the same wall set and are scored against each
other: in the team method, the teams of one group (or of every group that played the same
walls: the caller passes what to compare); in the individual method, the players who held the
same seat of the set. Each result's difference from the comparison's *datum* is converted with
a :class:`~scoring.conversion.ConversionTable`, keeping its sign.

The datum is computed from the results themselves and never assumed to be 0: duplicate MCR
under MahjongSoft's payments is not zero-sum.

The standings apply the event's entrant policy through :class:`RankingRules`: substitutes
listed but never ranked, the sit-out-average credit (:func:`sit_out_credit`), the director's
adjustments (penalties) and the event's tie-breaks (:data:`TIE_BREAKS`).

Standalone: no Django import. See docs/scoring.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import ClassVar
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any, cast

from scoring.conversion import ConversionTable
from tournament.i18n import gettext as translated
from tournament.i18n import gettext_noop

DATUM_METHODS = ("average", "butler")
BUTLER_MIN_VALUES = 5  # below this, dropping the top and bottom would leave too few results


def datum(values: Sequence[float], method: str = "average") -> float:
    """The datum (points) of one comparison's score changes ``values``.

    ``'average'``: the mean (docs/rules.md, "Duplicate MCR: individual event"). ``'butler'``: with at least 5 values, the mean after
    dropping one highest and one lowest result, so a single freak result does not move everyone's
    score (bridge Butler scoring; bridge also rounds the datum to 10, which we do not); with
    fewer than 5 values, the plain mean. Raises ValueError for no values, a value that is not a
    finite number, or an unknown method.
    """
    values = list(values)
    if method not in DATUM_METHODS:
        raise ValueError(f"unknown datum method {method!r}: choose one of {', '.join(DATUM_METHODS)}")
    if not values:
        raise ValueError("a datum needs at least one result: enter the set's results first")
    for value in values:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ValueError(f"a score change must be a finite number, got {value!r}")
    if method == "butler" and len(values) >= BUTLER_MIN_VALUES:
        values.sort()
        values = values[1:-1]
    return sum(values) / len(values)


@dataclass(frozen=True)
class ConvertedScore:
    """One result in its comparison: ``difference`` (points vs the datum), ``datum`` (points) and
    ``points`` (converted, signed: IMP/MP)."""

    difference: float
    datum: float
    points: int


def team_set_scores(team_totals: Mapping[Hashable, int], table: ConversionTable,
                    method: str = "average") -> dict[Hashable, ConvertedScore]:
    """The team method (docs/rules.md, "Duplicate MCR: team event"): ``team_totals`` maps each team to its total on one set (the sum of
    its members' score changes, points); each team's difference from the datum of all those
    totals is converted with ``table``. Returns ``{team: ConvertedScore}``.

    Raises ValueError as :func:`datum` does.
    """
    d = datum(list(team_totals.values()), method)
    return {team: ConvertedScore(total - d, d, table.convert(total - d)) for team, total in team_totals.items()}


def individual_set_scores(seat_results: Mapping[str, Mapping[Hashable, int]], table: ConversionTable,
                          method: str = "average") -> dict[Hashable, ConvertedScore]:
    """The individual method (docs/rules.md, "Duplicate MCR: individual event"): ``seat_results`` maps each seat (``'E'``..``'N'``) of one set to
    ``{player: score change}`` of the players who held that seat; each player is compared with the
    datum of their seat and the difference converted keeping its sign (seed example: +48, +16,
    -8, -56 on one seat → datum 0 → each difference converts as is).
    Returns ``{player: ConvertedScore}``.

    Raises ValueError for a seat that is not a wind letter, a player listed on two seats, or as
    :func:`datum` does (e.g. a seat with no results).
    """
    scores: dict[Hashable, ConvertedScore] = {}
    convert = table.convert
    for seat, results in seat_results.items():
        if seat not in ("E", "S", "W", "N"):
            raise ValueError(f"seat {seat!r} is not a wind letter: use E, S, W or N")
        if not results:
            raise ValueError(f"seat {seat} has no results: enter them or leave the seat out")
        d = datum(list(results.values()), method)
        for player, change in results.items():
            if player in scores:
                raise ValueError(f"player {player!r} appears on two seats of the set: fix the seating of seat {seat}")
            difference = change - d
            scores[player] = ConvertedScore(difference, d, convert(difference))
    return scores


@dataclass(frozen=True)
class StandingRow:
    """One line of the standings: ``rank`` (1-based, shared when tied; None for a key that is not
    ranked), ``key`` (team or player), ``points`` (sum of converted points, the sit-out credit
    included), ``sets_played``, ``score_total`` (sum of score changes, points), ``positive_sets``
    (sets with converted points above 0), ``tied`` (shares its rank), ``ranked`` (False for a
    substitute), ``sit_out_sets`` (scored sets of the sessions it sat out) and ``sit_out_points``
    (the converted points credited for them, already in ``points``; 0 unless the sit-out-average
    rule applies), ``adjustment_points`` (MP of the director's adjustments, already in
    ``points``) and ``adjustment_score`` (score points of adjustments in points, already in
    ``score_total``)."""

    rank: int | None
    key: Hashable
    points: int
    sets_played: int
    score_total: int
    positive_sets: int
    tied: bool
    ranked: bool = True
    sit_out_sets: int = 0
    sit_out_points: int = 0
    adjustment_points: int = 0
    adjustment_score: int = 0

    FIGURES: ClassVar[tuple[str, ...]] = ("rank", "tied", "points", "score_total", "sets_played", "positive_sets", "sit_out_sets", "sit_out_points",
               "adjustment_points", "adjustment_score")

    def figures(self) -> dict[str, object]:
        """The row's figures as the standings pages, API and exports show them: ``{"rank",
        "tied", "points", "score_total", "sets_played", "positive_sets", "sit_out_sets",
        "sit_out_points", "adjustment_points", "adjustment_score"}`` (each as above). The one
        place a standings row's figures are spelled; a list adds its own keys (name, team...)."""
        return {name: getattr(self, name) for name in self.FIGURES}

    @classmethod
    def unscored(cls, key: Hashable) -> StandingRow:
        """The row of ``key`` with no scored set: unranked, every figure 0."""
        return cls(rank=None, key=key, points=0, sets_played=0, score_total=0, positive_sets=0, tied=False, ranked=False)


@dataclass(frozen=True)
class TieBreak:
    """One tie-break of the standings (docs/scoring.md, "Standings"): ``code`` (stored in
    ``Event.tie_breaks``), ``label`` and ``description`` in the active language (the English
    text is kept in ``label_text`` and ``description_text``). The figure it compares is
    computed in :func:`_rank` (the larger ranks first; fewer negative sets counts as more)."""

    code: str
    label_text: str
    description_text: str

    @property
    def label(self) -> str:
        return translated(self.label_text)

    @property
    def description(self) -> str:
        return translated(self.description_text)


TIE_BREAKS: dict[str, TieBreak] = {tb.code: tb for tb in (
    TieBreak("score_total", gettext_noop("Score total"),
             gettext_noop("the larger sum of score changes (points), adjustments in points included")),
    TieBreak("positive_sets", gettext_noop("More positive sets"),
             gettext_noop("more sets with converted points above 0")),
    TieBreak("best_set", gettext_noop("Best single set"),
             gettext_noop("the most converted points on one set")),
    TieBreak("fewer_negative_sets", gettext_noop("Fewer negative sets"),
             gettext_noop("fewer sets with converted points below 0")),
)}
"""Every tie-break by code, in the order a settings page lists them. After the event's list,
entrants still equal share their place."""

DEFAULT_TIE_BREAKS: tuple[str, ...] = ("score_total", "positive_sets")
"""The tie-breaks of an event that chose none (``Event.tie_breaks`` empty): score total, then
positive sets, the order the standings always had."""


def tie_break_codes(codes: Any) -> tuple[str, ...]:
    """``codes`` (an event's stored list) as a tuple of known codes, each once, in order; empty or
    None gives :data:`DEFAULT_TIE_BREAKS`. Raises ValueError naming an unknown code."""
    out: list[str] = []
    for code in codes or ():
        if code not in TIE_BREAKS:
            raise ValueError(f"unknown tie-break {code!r}: choose from {', '.join(TIE_BREAKS)}")
        if code not in out:
            out.append(code)
    return tuple(out) or DEFAULT_TIE_BREAKS


@dataclass(frozen=True)
class RankingRules:
    """What the standings apply besides the converted points (docs/seating.md, "Entrant counts
    that are not a multiple of the group size"; docs/scoring.md, "Standings").

    - ``unranked``: keys that are listed but never ranked (substitutes: they play and count in
      the datum, but take no place);
    - ``sat_out``: ``{key: sets it sat out}``, counting only the sets of its sit-out sessions that
      are already scored in the standings' scope;
    - ``sit_out_average``: credit each key that sat out with :func:`sit_out_credit` (the
      sit-out-average policy); False (sit-out-datum, or no sit-outs): a sat-out set scores 0,
      the datum;
    - ``average_over``: ``{key: (converted points, sets played)}`` the credit's average is taken
      from when it is not the standings' own totals (one session's standings credit a session
      sat out with the entrant's average over the whole event); keys missing here use their own;
    - ``tie_breaks``: codes of :data:`TIE_BREAKS` applied in order after the converted points
      (docs/scoring.md, "Standings");
    - ``adjustments``: ``{key: (MP, score points)}``, the director's active adjustments in scope
      (docs/scoring.md, "Penalties and adjustments"): the MP are added to the points, the score
      points to the score total, before ranking.
    """

    unranked: frozenset[Any] = frozenset()
    sat_out: Mapping[Hashable, int] = field(default_factory=dict)
    sit_out_average: bool = False
    average_over: Mapping[Hashable, tuple[int, int]] = field(default_factory=dict)
    tie_breaks: tuple[str, ...] = DEFAULT_TIE_BREAKS
    adjustments: Mapping[Hashable, tuple[int, int]] = field(default_factory=dict)


NO_RULES = RankingRules()


def sit_out_credit(points: int, sets_played: int, sets_sat_out: int) -> int:
    """The converted points a sit-out entrant is credited under the sit-out-average policy: its
    ``points`` per set played times the ``sets_sat_out``, rounded half away from zero to an
    integer (exact integer arithmetic); 0 when it has played no set or sat out none.

    With equal sets per session, the total at the end of the event, ``points + credit``, is the
    entrant's mean per session played times the sessions planned (docs/seating.md). Raises
    ValueError for a negative count.
    """
    if sets_played < 0 or sets_sat_out < 0:
        raise ValueError(f"set counts cannot be negative: {sets_played} played, {sets_sat_out} sat out")
    if not sets_played or not sets_sat_out:
        return 0
    numerator = abs(points) * sets_sat_out
    credit = (2 * numerator + sets_played) // (2 * sets_played)
    return credit if points >= 0 else -credit


class _Tally:
    __slots__ = ("points", "sets", "score", "positive", "negative")

    def __init__(self) -> None:
        self.points = self.sets = self.score = self.positive = self.negative = 0

    def add(self, points: int, score: int, sign: int) -> None:
        self.points += sign * points
        self.sets += sign
        self.score += sign * score
        self.positive += sign * (points > 0)
        self.negative += sign * (points < 0)


def _key_order(keys: Iterable[Hashable]) -> dict[Hashable, int]:
    """A deterministic order of keys: their natural order, or by repr when they do not compare."""
    keys = list(keys)
    try:
        ordered = sorted(cast(list[Any], keys))  # keys that do not compare raise TypeError
    except TypeError:
        ordered = sorted(keys, key=repr)
    return {key: i for i, key in enumerate(ordered)}


def _rank(tallies: Mapping[Hashable, _Tally], rules: RankingRules | None = None,
          best: Mapping[Hashable, int] | None = None) -> list[StandingRow]:
    """The ranked rows of ``tallies`` under ``rules``; ``best``: ``{key: most converted points on
    one set}`` (needed only when ``rules.tie_breaks`` holds ``best_set``; a key missing: 0)."""
    rules = rules or NO_RULES
    best = best or {}
    codes = tie_break_codes(rules.tie_breaks)
    empty = _Tally()
    keys_in = (set(tallies) | {key for key, sets in rules.sat_out.items() if sets > 0}
               | {key for key, (mp, score) in rules.adjustments.items() if mp or score})
    order = _key_order(keys_in)
    credit: dict[Hashable, int] = {}
    merit = {}
    for key in keys_in:
        t = tallies.get(key, empty)
        sat = rules.sat_out.get(key, 0)
        if rules.sit_out_average and sat:
            points, played = rules.average_over.get(key, (t.points, t.sets))
            credit[key] = sit_out_credit(points, played, sat)
        adj_points, adj_score = rules.adjustments.get(key, (0, 0))
        figures = {"score_total": t.score + adj_score, "positive_sets": t.positive, "best_set": best.get(key, 0),
                   "fewer_negative_sets": -t.negative}
        merit[key] = (-(t.points + credit.get(key, 0) + adj_points), *(-figures[code] for code in codes))

    def has_played(key: Any) -> bool:  # a sit-out entrant with no set played yet has no average to be ranked by
        return tallies.get(key, empty).sets > 0 or rules.average_over.get(key, (0, 0))[1] > 0

    def listed_in(key: Any) -> int:  # ranked, then substitutes, then entrants that have played nothing yet
        return 1 if key in rules.unranked else 0 if has_played(key) else 2

    rows: list[StandingRow] = []
    for part in (0, 1, 2):
        ranked = part == 0
        keys = sorted((k for k in keys_in if listed_in(k) == part), key=lambda k: (merit[k], order[k]))
        for i, key in enumerate(keys):
            t = tallies.get(key, empty)
            rank, tied = None, False
            if ranked:
                same_before = i > 0 and merit[keys[i - 1]] == merit[key]
                same_after = i + 1 < len(keys) and merit[keys[i + 1]] == merit[key]
                rank = rows[-1].rank if same_before else i + 1
                tied = same_before or same_after
            extra = credit.get(key, 0)
            adj_points, adj_score = rules.adjustments.get(key, (0, 0))
            rows.append(StandingRow(rank=rank, key=key, points=t.points + extra + adj_points, sets_played=t.sets,
                                    score_total=t.score + adj_score, positive_sets=t.positive, tied=tied,
                                    ranked=ranked, sit_out_sets=rules.sat_out.get(key, 0), sit_out_points=extra,
                                    adjustment_points=adj_points, adjustment_score=adj_score))
    return rows


def standings(per_set: Iterable[tuple[Hashable, Hashable, ConvertedScore, int]],
              rules: RankingRules | None = None) -> list[StandingRow]:
    """Standings from every result ``(key, set_key, converted, score_change)``.

    Order: more converted points (adjustments and the sit-out credit included); then each
    tie-break of ``rules.tie_breaks`` in turn (:data:`TIE_BREAKS`; default
    :data:`DEFAULT_TIE_BREAKS`: a larger score change total, then more sets with positive
    points); still equal → the same rank (competition ranking 1, 2, 2, 4) with ``tied=True``,
    listed in the keys' natural order (by repr when keys do not compare).

    ``rules`` (:class:`RankingRules`, default none): with ``sit_out_average``, each key's
    :func:`sit_out_credit` is added to its points before ranking (score total and positive sets
    count played sets only); a key in ``sat_out`` that has played no set yet (no average to
    credit) is listed last, unranked (``rank=None``), until it has. Keys in ``unranked`` get ``rank=None``, ``ranked=False``, ``tied=False`` and are
    listed after every ranked key, in the same merit order among themselves: they never take
    or shift a place. Raises ValueError when a key has two results on the same set.
    """
    tallies: dict[Hashable, _Tally] = {}
    best: dict[Hashable, int] = {}
    seen: set[Any] = set()
    for key, set_key, converted, change in per_set:
        size = len(seen)
        seen.add((key, set_key))
        if len(seen) == size:
            raise ValueError(f"{key!r} has two results on set {set_key!r}: keep one")
        tally = tallies.get(key)
        if tally is None:
            tally = tallies[key] = _Tally()
        points = converted.points
        tally.points += points
        tally.sets += 1
        tally.score += change
        tally.positive += points > 0
        tally.negative += points < 0
        best[key] = points if key not in best else max(best[key], points)
    return _rank(tallies, rules, best)


class IncrementalStandings:
    """Standings kept up to date one set at a time; ``rows()`` equals :func:`standings` over the
    same results.

    Absorbing a set costs the size of that set (plus the sort in ``rows()``), not of the event:
    used to refresh standings after every confirmed result. Construct with optional
    ``per_set`` tuples as :func:`standings` takes.
    """

    def __init__(self, per_set: Iterable[tuple[Hashable, Hashable, ConvertedScore, int]] = ()):
        self._sets: dict[Hashable, dict[Hashable, tuple[int, int]]] = {}
        self._tallies: dict[Hashable, _Tally] = {}
        for key, set_key, converted, change in per_set:
            self.add(set_key, key, converted, change)

    def add(self, set_key: Hashable, key: Hashable, converted: ConvertedScore, score_change: int) -> None:
        """Add one result of ``key`` on ``set_key``. Raises ValueError if it already has one there
        (a changed set changes every datum in it: use :meth:`replace_set`)."""
        results = self._sets.setdefault(set_key, {})
        if key in results:
            raise ValueError(f"{key!r} already has a result on set {set_key!r}: use replace_set to change a set")
        results[key] = (converted.points, score_change)
        tally = self._tallies.get(key)
        if tally is None:
            tally = self._tallies[key] = _Tally()
        tally.add(converted.points, score_change, 1)

    def replace_set(self, set_key: Hashable, results: Mapping[Hashable, tuple[ConvertedScore, int]]) -> None:
        """Replace every result of ``set_key`` by ``results`` (``{key: (converted, score_change)}``);
        an empty mapping removes the set."""
        for key, (points, change) in self._sets.pop(set_key, {}).items():
            tally = self._tallies[key]
            tally.add(points, change, -1)
            if not tally.sets:
                del self._tallies[key]
        for key, (converted, change) in results.items():
            self.add(set_key, key, converted, change)

    def rows(self, rules: RankingRules | None = None) -> list[StandingRow]:
        """The current standings under ``rules``, ordered and ranked as :func:`standings` does.
        The best single set of each key (tie-break ``best_set``) is read from the stored sets,
        only when ``rules`` asks for it (one pass over the results)."""
        best: dict[Hashable, int] = {}
        if "best_set" in tie_break_codes((rules or NO_RULES).tie_breaks):
            for results in self._sets.values():
                for key, (points, _change) in results.items():
                    if key not in best or points > best[key]:
                        best[key] = points
        return _rank(self._tallies, rules, best)

    def totals(self) -> dict[Hashable, tuple[int, int]]:
        """``{key: (converted points, sets played)}`` of every key with a result: what
        :attr:`RankingRules.average_over` takes."""
        return {key: (t.points, t.sets) for key, t in self._tallies.items()}
