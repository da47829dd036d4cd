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
import random
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from scoring.conversion import WBF_IMP, ConversionTable, Step
from scoring.payments import PAYMENT_RULES, HandOutcome, PaymentError, PaymentRule, settle
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


# --- simulated results: a table for a rule family before any event has played it --------------

SIMULATION_SEED = 2015
"""The seed of the simulations behind the family presets (:data:`scoring.conversion.FAMILY_PRESETS`)."""
SIMULATION_SETS = 2000
"""Sets simulated per family for the presets: 2,000 sets × 4 tables × the seats' comparisons."""
SIMULATION_SAME = 0.5
"""The share of tables that reproduce a set's most likely result (same winner, value and way):
duplicate walls make tables alike, so their results are not independent. An assumption, not a
measurement: refit on real results (``fit_conversion``) once an event has them."""

_KINDS = (("discard", 0.55), ("self_draw", 0.30), ("draw", 0.15))
# Riichi-like han of a won hand (dora included): mostly 1-4 han, mangan and above rarer.
_HAN = ((1, 20), (2, 28), (3, 24), (4, 13), (5, 7), (6, 3), (7, 1), (8, 1.5), (9, 0.5), (10, 0.3), (11, 0.3),
        (12, 0.1), (13, 0.3))
# Souzu's minimum is mangan (docs/rules.md, "Two-player Souzu: payments"): its hands start at 5 han.
_SOUZU_HAN = ((5, 45), (6, 20), (7, 10), (8, 12), (9, 4), (10, 3), (11, 3), (12, 1), (13, 2))
_FU = ((30, 45), (40, 35), (50, 8), (60, 4), (70, 2), (25, 6))


def _pick(rng: random.Random, weighted: Sequence[tuple[Any, float]]) -> Any:
    return rng.choices([value for value, _weight in weighted], [weight for _value, weight in weighted])[0]


def _hand_value(rule: PaymentRule, rng: random.Random, min_fan: int | None) -> int:
    """One winner's hand value in the rule's unit: MCR fan 8 + an exponential of mean 5 (a few
    big hands of 24-88 fan, 1 in 100); Yangzhou the minimum (7 unless the rule set's) + an
    exponential of mean 6; Souzu from mangan; the other han rules the riichi-like han above
    (Shiragiku one more: its hands count their dora as han too)."""
    low, high = rule.bounds(min_fan)
    if rule.value_unit == "fan":
        if rule.code == "yangzhou":
            value = max(low, 7) + int(rng.expovariate(1 / 6))
        else:
            value = low + int(rng.expovariate(1 / 5))
            if rng.random() < 0.01:
                value += rng.choice((16, 24, 32, 48, 64, 80))
        return min(high, value)
    han = int(_pick(rng, _SOUZU_HAN if rule.code == "souzu-2p" else _HAN))
    if rule.code == "shiragiku-3p":
        han += 1
    return max(low, min(high, han))


def simulated_outcome(rule: PaymentRule, seats: tuple[str, ...], rng: random.Random, min_fan: int | None = None) -> HandOutcome:
    """One plausible hand outcome of payment rule ``rule`` at ``seats`` (dealer first): a win on
    a discard (55 %), a self-draw (30 %) or a draw (15 %); one winner; the hand value of
    :func:`_hand_value`, a riichi fu of 30 or 40 mostly; riichi declared by the winner 2 times in
    5 and by each other seat 1 in 7; at a draw each seat tenpai 2 times in 5 (declarers always);
    no honba (fixed per set: :mod:`scoring.payments.counters`). Outcomes the rule refuses are
    drawn again by :func:`simulated_changes`."""
    kind = _pick(rng, _KINDS)
    takes = rule.inputs
    riichi: tuple[str, ...] = ()
    if kind == "draw":
        tenpai = tuple(seat for seat in seats if rng.random() < 0.4) if "tenpai" in takes else ()
        if "riichi" in takes:
            riichi = tuple(seat for seat in tenpai if rng.random() < 0.5)
        return HandOutcome("draw", riichi=riichi, tenpai=tenpai)
    winner = rng.choice(seats)
    discarder = rng.choice([seat for seat in seats if seat != winner]) if kind == "discard" else None
    value = _hand_value(rule, rng, min_fan)
    fu: tuple[int, ...] = ()
    if "fu" in takes:
        fu = (_pick(rng, _FU if kind == "discard" else ((20, 15), *_FU)),)
    if "riichi" in takes:
        riichi = tuple(seat for seat in seats if rng.random() < (0.4 if seat == winner else 1 / 7))
    return HandOutcome(kind, winners=(winner,), discarder=discarder, fans=(value,), fu=fu, riichi=riichi)


def simulated_changes(rule_code: str, seats: Sequence[str], rng: random.Random, min_fan: int | None = None) -> dict[str, int]:
    """The score changes of one :func:`simulated_outcome` settled with ``rule_code`` (an outcome
    the rule refuses, e.g. 1 han 25 fu, is drawn again)."""
    rule, order = PAYMENT_RULES[rule_code], tuple(seats)
    for _attempt in range(100):
        try:
            return settle(rule_code, order, simulated_outcome(rule, order, rng, min_fan), min_fan).changes
        except PaymentError:
            continue
    raise FittingError(f"{rule_code}: no simulated outcome could be settled in 100 draws")


def simulated_differences(rule_code: str, seats: Sequence[str], *, min_fan: int | None = None, sets: int = SIMULATION_SETS,
                          tables: int = 4, same: float = SIMULATION_SAME, seed: int = SIMULATION_SEED) -> list[float]:
    """Score differences (points vs the datum) of simulated duplicate play, the input of
    :func:`fit_table` before real results exist. Reproducible: the same arguments give the same
    list (``random.Random(seed)``).

    Each of ``sets`` sets is played at ``tables`` tables; the set has a most likely result
    (:func:`simulated_changes`) that each table reproduces with probability ``same``, else it
    plays a result of its own. For each seat the tables' changes are compared with their
    average (the individual method, docs/scoring.md, "Methods"), giving ``sets × tables × seats``
    differences. Raises FittingError for fewer than 2 tables, or ``same`` outside 0..1."""
    if tables < 2 or not 0 <= same <= 1 or sets < 1:
        raise FittingError(f"simulate at least 1 set on 2 tables or more with 'same' from 0 to 1; got sets={sets}, "
                           f"tables={tables}, same={same}")
    rng = random.Random(seed)
    out: list[float] = []
    for _set in range(sets):
        likely = simulated_changes(rule_code, seats, rng, min_fan)
        played = [likely if rng.random() < same else simulated_changes(rule_code, seats, rng, min_fan) for _table in range(tables)]
        for seat in seats:
            column = [changes[seat] for changes in played]
            mean = sum(column) / tables
            out.extend(change - mean for change in column)
    return out


def simulated_table(rule_code: str, seats: Sequence[str], unit: int, name: str, *, smallest: int = 0,
                    min_fan: int | None = None, sets: int = SIMULATION_SETS, seed: int = SIMULATION_SEED,
                    same: float = SIMULATION_SAME) -> ConversionTable:
    """:func:`fit_table` (WBF IMP reference, ``unit`` the rule set's score unit) on
    :func:`simulated_differences`: how each family preset of :mod:`scoring.conversion` was made.

    ``smallest`` (points): the smallest difference worth a point, as the WBF table ignores an
    overtrick and docs/rules.md, "Duplicate MCR: conversion table" ignores tiny differences:
    fitted steps below it are dropped and the points of the others lowered by as many, so the
    first kept step gives 1 and the steps keep their spacing."""
    differences = simulated_differences(rule_code, seats, min_fan=min_fan, sets=sets, seed=seed, same=same)
    fitted = fit_table(differences, unit=unit, name=name)
    dropped = [step for step in fitted.steps[1:] if step.min_difference < smallest]
    lower = dropped[-1].points if dropped else 0
    steps = [Step(0, 0)] + [Step(step.min_difference, step.points - lower) for step in fitted.steps[1 + len(dropped):]]
    source = (f"simulated duplicate play of {rule_code} ({sets} sets x 4 tables, seed {seed}, {same:g} of the tables "
              f"alike), {fitted.source}, smallest step {smallest}")
    return ConversionTable(name=name, steps=tuple(steps), source=source)
