"""Fitting a conversion table to observed score differences, and what it would change.

docs/rules.md, "Duplicate MCR: conversion table" says the MIL organisers set their MP steps by judgement and meant to refit them once
more results exist. :func:`fit_table` proposes such a refit by *quantile matching*: each step of
a reference table (the WBF IMP table by default) is moved to the score difference that is as
common in the observed mahjong results as the step's own threshold is in the reference game.

The reference game's |difference| distribution is an assumption, stated here and in
docs/scoring.md: **exponential**, with its mean chosen so that the reference table gives on
average ``reference_average`` points per comparison (default 4 IMPs a board: about what the two
teams' IMP totals add up to per board in world-championship team finals). An exponential is the
simplest one-parameter model of "small swings are common, big ones rare"; it has a lighter tail
than real bridge (doubled penalties), so the reference's top steps fall at quantiles beyond any
event's data and are dropped (see :func:`fit_table`). :func:`compare_rankings` shows how a
proposed table would reorder the standings of past results before anyone adopts it.

Standalone: no Django import.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence

from scoring.conversion import WBF_IMP, ConversionTable, Step
from scoring.standings import datum, standings, team_set_scores

DEFAULT_REFERENCE_AVERAGE = 4.0
MIN_DIFFERENCES = 20


class FittingError(ValueError):
    """Data or parameters a table cannot be fitted to; the message says what to change."""


def reference_mean(reference: ConversionTable, reference_average: float = DEFAULT_REFERENCE_AVERAGE) -> float:
    """The mean |difference| (reference table's points) of the exponential model under which
    ``reference`` gives on average ``reference_average`` converted points per comparison.

    E[points] = sum over steps of (points increase) × exp(-threshold / mean) grows with the mean
    from 0 to the table's maximum, so it is solved by bisection on log(mean). Raises
    FittingError unless 0 < reference_average < the table's maximum points.
    """
    top = reference.max_points
    if not 0 < reference_average < top:
        raise FittingError(f"reference_average must be between 0 and {top} (the reference's top step), "
                           f"got {reference_average}")
    increments = [(b.min_difference, b.points - a.points) for a, b in zip(reference.steps, reference.steps[1:])]

    def expected(mean: float) -> float:
        return sum(inc * math.exp(-t / mean) for t, inc in increments)

    low, high = math.log(1e-6), math.log(1e12)
    for _ in range(100):
        mid = (low + high) / 2
        if expected(math.exp(mid)) < reference_average:
            low = mid
        else:
            high = mid
    return math.exp((low + high) / 2)


def _quantile(ordered: Sequence[float], q: float) -> float:
    """Linear-interpolation quantile (Hyndman-Fan type 7) of an ascending sequence."""
    position = q * (len(ordered) - 1)
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (position - below) * (ordered[above] - ordered[below])


def fit_table(differences: Sequence[float], reference: ConversionTable = WBF_IMP, unit: int = 1,
              name: str = "Fitted MP", reference_average: float = DEFAULT_REFERENCE_AVERAGE) -> ConversionTable:
    """Propose a conversion table fitted to observed score ``differences`` (points vs the datum;
    the sign is ignored), with thresholds in multiples of the rule set's score ``unit``.

    For each reference step (threshold t, points p): q = 1 - exp(-t / m) is the share of
    reference comparisons below t under the exponential model with mean m =
    :func:`reference_mean`; the fitted threshold is the q-quantile of the observed |differences|,
    rounded to the nearest multiple of ``unit`` and at least one unit (an equal result still
    scores 0). A step is kept only while the data support it: at least one observation is
    expected above it (q ≤ 1 - 1/n), so the table ends near the largest observed swing, as seed
    001's largest step does. Steps that land on the same threshold merge, keeping the higher
    points (that difference is as rare as the larger reference swing). The result is valid:
    starts at 0 with 0 points, thresholds strictly increasing, points never decreasing.

    Raises FittingError for fewer than 20 differences, a value that is not a finite number, a
    ``unit`` that is not a positive whole number, or data whose differences are all below one unit.
    """
    if isinstance(unit, bool) or not isinstance(unit, int) or unit < 1:
        raise FittingError(f"unit must be the rule set's score unit, a positive whole number, got {unit!r}")
    sizes = []
    for value in differences:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise FittingError(f"differences must be finite numbers of points, got {value!r}")
        sizes.append(abs(value))
    if len(sizes) < MIN_DIFFERENCES:
        raise FittingError(f"need at least {MIN_DIFFERENCES} differences to fit a table, got {len(sizes)}: "
                           "add more sessions' results")
    sizes.sort()
    if sizes[-1] < unit:
        raise FittingError(f"every difference is below one score unit ({unit}): there is nothing to separate")
    mean = reference_mean(reference, reference_average)
    supported = 1 - 1 / len(sizes)
    steps = [Step(0, 0)]
    for step in reference.steps[1:]:
        q = 1 - math.exp(-step.min_difference / mean)
        if q > supported:
            break
        threshold = max(unit, unit * math.floor(_quantile(sizes, q) / unit + 0.5))
        if threshold == steps[-1].min_difference:
            steps[-1] = Step(threshold, step.points)
        else:
            steps.append(Step(threshold, step.points))
    source = (f"fitted to {len(sizes)} differences by quantile matching to {reference.name} "
              f"(exponential reference, mean {mean:.0f}, {reference_average:g} points per comparison), "
              f"unit {unit}")
    return ConversionTable(name=name, steps=tuple(steps), source=source)


def observed_differences(results: Mapping[Hashable, Mapping[Hashable, int]], method: str = "average") -> list[float]:
    """Every result's difference from its comparison's datum (points), the input of :func:`fit_table`.

    ``results``: ``{comparison: {key: score change}}`` as for :func:`compare_rankings`.
    Raises ValueError as :func:`scoring.standings.datum` does.
    """
    out: list[float] = []
    for scores in results.values():
        d = datum(list(scores.values()), method)
        out.extend(change - d for change in scores.values())
    return out


def compare_rankings(results: Mapping[Hashable, Mapping[Hashable, int]], current: ConversionTable,
                     proposed: ConversionTable, method: str = "average") -> list[tuple[Hashable, int | None, int | None, int, int]]:
    """Standings of the same results under two tables.

    ``results``: ``{comparison: {key: score change}}``, a comparison being what is scored
    together (team method: one set's teams; individual method: one set and seat, e.g. the key
    ``(session, set, seat)``). Returns ``(key, rank_current, rank_proposed, points_current,
    points_proposed)`` in the current standings' order. Raises ValueError as
    :func:`scoring.standings.datum` and :func:`scoring.standings.standings` do.
    """
    per_table = []
    for table in (current, proposed):
        per_set = [
            (key, comparison, converted, scores[key])
            for comparison, scores in results.items()
            for key, converted in team_set_scores(scores, table, method).items()
        ]
        per_table.append({row.key: row for row in standings(per_set)})
    now, then = per_table
    return [(key, row.rank, then[key].rank, row.points, then[key].points) for key, row in now.items()]
