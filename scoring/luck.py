"""Luck measured: how much of the spread of raw table scores duplicate play removes, on an event's
own hands (docs/scoring.md, "Luck measured"). Pure core: plain values in, a frozen dataclass out.

Input: :class:`SeatScore` rows, one per player per set as played: ``session``, ``set_no``,
``table`` (the table's number), ``seat`` (``"E"``...), ``player`` (any hashable key) and
``change``, the score change in points (the rule set's unit). :func:`luck_by_session` answers one
:class:`LuckFigures` per session; :func:`session_luck` one session's.

The figures of a session (points, points², or plain ratios):

- **raw variance**: the sample variance of every score change of the session (points²,
  denominator ``N - 1`` over its ``N`` scores).
- **field variance**: the variance of the scores against the field, each score change minus the
  datum of its seat on its set: the mean of the score changes of everyone who held that seat on
  that set, at every table of the session that played it. One degree of freedom is spent on each
  datum, so its denominator is ``N - G`` (``G`` the (set, seat) pairs): the pooled variance within
  the (set, seat) pairs. Results with no luck of the tiles in them then give a ratio near 1, not
  the ``(k - 1) / k`` of ``k`` tables that the plain ``N`` denominator would give.
- **ratio** = field variance / raw variance, and **luck removed** = 1 - ratio: the share of the
  raw variance the comparison with the field takes away.
- their **bootstrap interval**: the sets of the session are resampled with replacement
  (``resamples`` times, a :class:`random.Random` seeded with ``seed``: the same answer on every
  run), the ratio computed on each resample, and the central ``confidence`` share of those
  ratios taken (percentile interval; a resample whose raw variance is 0 is skipped). Luck
  removed's interval is ``(1 - high, 1 - low)``. A percentile interval is not forced to contain
  the point estimate: with very few or very uneven sets it may fall beside it.
- **σ** (points): the standard deviation of one player's score against the field on one set,
  the square root of the field variance.
- **spread** ``d`` (points per set): each player's mean score against the field per set played
  in the session; players sorted by it; ``d`` is the median of the gaps between adjacent players.
- **sets to separate** ``n = 2 · (z · σ / d)²``, ``z`` = 1.96 at 95 %: about how many sets two
  players whose true means per set differ by ``d`` must each play before the difference of their
  means, whose standard deviation is ``σ · √(2 / n)``, exceeds ``z`` of those standard deviations.
  Assumptions: each player's sets are independent, with the same σ for everyone, and the mean of
  ``n`` sets is close to normal (the normal approximation); the two players' sets are
  independent of each other.

Sets with fewer than two tables in the rows are left out (a seat alone has no field: its score
against the field would be 0 without telling anything). Raises :class:`LuckError` (a
:class:`tournament.errors.FieldError`) naming the field: ``rows`` when there are none, or none of
the session ``session`` with two tables on a set.
"""

from __future__ import annotations

import math
import random
import statistics
from collections import defaultdict
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

from tournament.errors import FieldError
from tournament.i18n import gettext as _

RESAMPLES = 2000
CONFIDENCE = 0.95
SEED = 2015  # the bootstrap's fixed seed: the first duplicate MCR event's year


class LuckError(FieldError):
    """Rows that cannot be measured: ``field`` is ``rows`` (none given) or ``session`` (none of
    that session with two tables on one set)."""


@dataclass(frozen=True)
class SeatScore:
    """One player's score change (``change``, points) on set ``set_no`` of session ``session``,
    at table number ``table``, seat ``seat``."""

    session: int
    set_no: int
    table: int
    seat: str
    player: Hashable
    change: float


@dataclass(frozen=True)
class LuckFigures:
    """The luck measured on one session (see the module's docstring for each formula).

    ``sets``, ``tables``, ``players``, ``scores``: what was measured (sets with two tables or more,
    distinct table numbers, distinct players, score rows). ``raw_variance`` and
    ``field_variance``: points². ``ratio`` and ``luck_removed``: plain numbers, None when the raw
    variance is 0; ``ratio_interval`` and ``removed_interval``: ``(low, high)`` of the bootstrap,
    None when no resample had a raw variance. ``sigma`` and ``spread``: points (``spread`` None
    with fewer than two players). ``sets_to_separate``: sets, None when the spread is 0 or
    unknown (a 0 σ gives 0). ``resamples``, ``confidence``, ``seed``: the bootstrap's."""

    session: int
    sets: int
    tables: int
    players: int
    scores: int
    raw_variance: float
    field_variance: float
    ratio: float | None
    luck_removed: float | None
    ratio_interval: tuple[float, float] | None
    removed_interval: tuple[float, float] | None
    sigma: float
    spread: float | None
    sets_to_separate: float | None
    resamples: int
    confidence: float
    seed: int


def field_scores(rows: Iterable[SeatScore]) -> list[tuple[SeatScore, float]]:
    """Each row with its score against the field (points): its change minus the mean change of
    the rows of the same session, set and seat."""
    rows = list(rows)
    held: dict[tuple[int, int, str], list[float]] = defaultdict(list)
    for row in rows:
        held[(row.session, row.set_no, row.seat)].append(row.change)
    datum = {key: sum(changes) / len(changes) for key, changes in held.items()}
    return [(row, row.change - datum[(row.session, row.set_no, row.seat)]) for row in rows]


def sets_to_separate(sigma: float, spread: float, confidence: float = CONFIDENCE) -> float | None:
    """``n = 2 · (z · sigma / spread)²`` (sets): about how many sets two players whose true
    means per set differ by ``spread`` points, each with a per-set standard deviation of
    ``sigma`` points, must play to be told apart at ``confidence`` (``z`` of the normal
    distribution: 1.96 at 0.95). Independent sets, normal approximation. None when ``spread``
    is 0."""
    if spread == 0:
        return None
    z = statistics.NormalDist().inv_cdf(1 - (1 - confidence) / 2)
    return 2 * (z * sigma / spread) ** 2


def _sums(units: Sequence[tuple[int, float, float, float, int]]) -> tuple[float, float] | None:
    """Raw and field variance of the sets ``units`` (each: its count of scores, their sum and sum
    of squares, the sum of squares of its scores against the field, its (set, seat) pairs), or
    None when too few scores to have them. Sums only: a resample costs one pass over the sets."""
    count = sum(u[0] for u in units)
    pairs = sum(u[4] for u in units)
    if count < 2 or count - pairs < 1:
        return None
    total = sum(u[1] for u in units)
    raw_variance = max(sum(u[2] for u in units) - total * total / count, 0.0) / (count - 1)
    field_variance = sum(u[3] for u in units) / (count - pairs)
    return raw_variance, field_variance


def session_luck(rows: Iterable[SeatScore], *, resamples: int = RESAMPLES, seed: int = SEED,
                 confidence: float = CONFIDENCE) -> LuckFigures:
    """The :class:`LuckFigures` of ``rows``, all of one session (the first row's; rows of another
    session raise). Raises :class:`LuckError`: ``rows`` when empty or of several sessions,
    ``session`` when no set has two tables."""
    rows = list(rows)
    if not rows:
        raise LuckError("rows", _("There are no scores to measure."))
    session = rows[0].session
    if any(row.session != session for row in rows):
        raise LuckError("rows", _("The scores measured together must be of one session."))
    tables_of: dict[int, set[int]] = defaultdict(set)
    for row in rows:
        tables_of[row.set_no].add(row.table)
    compared = [row for row in rows if len(tables_of[row.set_no]) >= 2]
    by_set: dict[int, list[tuple[SeatScore, float]]] = defaultdict(list)
    for row, against in field_scores(compared):
        by_set[row.set_no].append((row, against))
    units = [(len(scored), float(sum(row.change for row, _a in scored)), float(sum(row.change * row.change for row, _a in scored)),
              sum(a * a for _r, a in scored), len({row.seat for row, _a in scored}))
             for _set_no, scored in sorted(by_set.items())]
    figures = _sums(units)
    if figures is None:
        raise LuckError("session", _("Session %(session)s has no set played at two tables or more.") % {"session": session})
    raw_variance, field_variance = figures
    ratio = field_variance / raw_variance if raw_variance > 0 else None

    rng = random.Random(seed)
    ratios = []
    for _i in range(resamples):
        drawn = _sums([units[rng.randrange(len(units))] for _u in units])
        if drawn is not None and drawn[0] > 0:
            ratios.append(drawn[1] / drawn[0])
    ratio_interval = None
    if ratios:
        ratios.sort()
        tail = (1 - confidence) / 2
        ratio_interval = (_quantile(ratios, tail), _quantile(ratios, 1 - tail))

    sigma = math.sqrt(field_variance)
    played: dict[Hashable, list[float]] = defaultdict(list)
    for scored in by_set.values():
        for row, against in scored:
            played[row.player].append(against)
    means = sorted(sum(scores) / len(scores) for scores in played.values())
    spread = statistics.median(b - a for a, b in zip(means, means[1:])) if len(means) >= 2 else None
    return LuckFigures(
        session=session, sets=len(units), tables=len({row.table for row in compared}), players=len(played), scores=len(compared),
        raw_variance=raw_variance, field_variance=field_variance, ratio=ratio,
        luck_removed=None if ratio is None else 1 - ratio, ratio_interval=ratio_interval,
        removed_interval=None if ratio_interval is None else (1 - ratio_interval[1], 1 - ratio_interval[0]),
        sigma=sigma, spread=spread,
        sets_to_separate=None if spread is None else sets_to_separate(sigma, spread, confidence),
        resamples=resamples, confidence=confidence, seed=seed)


def _quantile(ordered: Sequence[float], share: float) -> float:
    """The ``share`` quantile of the sorted ``ordered``, interpolated between neighbours."""
    position = share * (len(ordered) - 1)
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (position - below)


def luck_by_session(rows: Iterable[SeatScore], *, resamples: int = RESAMPLES, seed: int = SEED,
                    confidence: float = CONFIDENCE) -> list[LuckFigures]:
    """:func:`session_luck` of each session of ``rows``, in session order; a session with no set
    played at two tables is left out. Raises :class:`LuckError` (``rows``) when ``rows`` is empty."""
    by_session: dict[int, list[SeatScore]] = defaultdict(list)
    for row in rows:
        by_session[row.session].append(row)
    if not by_session:
        raise LuckError("rows", _("There are no scores to measure."))
    out = []
    for session in sorted(by_session):
        try:
            out.append(session_luck(by_session[session], resamples=resamples, seed=seed, confidence=confidence))
        except LuckError as exc:
            if exc.field != "session":
                raise
    return out
