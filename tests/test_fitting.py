"""Fitting a conversion table to observed differences; comparing rankings under two tables."""

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.conversion import MCR_MP, WBF_IMP, ConversionTable
from scoring.fitting import (
    DEFAULT_REFERENCE_AVERAGE,
    FittingError,
    compare_rankings,
    fit_table,
    observed_differences,
    reference_mean,
)


def test_reference_mean_reproduces_the_assumed_imps_per_board():
    mean = reference_mean(WBF_IMP)
    expected = sum((b.points - a.points) * math.exp(-b.min_difference / mean)
                   for a, b in zip(WBF_IMP.steps, WBF_IMP.steps[1:]))
    assert expected == pytest.approx(DEFAULT_REFERENCE_AVERAGE)
    assert reference_mean(WBF_IMP, 6.0) > mean


def test_reference_average_must_be_reachable():
    with pytest.raises(FittingError, match="between 0 and 24"):
        reference_mean(WBF_IMP, 30)


@given(st.lists(st.one_of(st.integers(-400, 400), st.floats(-400, 400)), min_size=20, max_size=300),
       st.sampled_from([1, 2, 8, 100]))
def test_fitted_table_is_valid_monotone_and_in_score_units(differences, unit):
    if max(abs(d) for d in differences) < unit:
        with pytest.raises(FittingError, match="below one score unit"):
            fit_table(differences, unit=unit)
        return
    table = fit_table(differences, unit=unit)
    table.validate()
    starts = [s.min_difference for s in table.steps]
    points = [s.points for s in table.steps]
    assert starts[0] == 0 and points[0] == 0
    assert all(a < b for a, b in zip(starts, starts[1:]))
    assert all(a <= b for a, b in zip(points, points[1:]))
    assert all(s % unit == 0 for s in starts)
    assert points[-1] <= WBF_IMP.max_points
    assert ConversionTable.from_csv(table.to_csv(), name=table.name).steps == table.steps


def test_exponential_data_maps_the_imp_steps_proportionally():
    # If the data are exponential too, quantile matching just rescales the thresholds.
    rng = random.Random(7)
    scale = 0.1
    mean = reference_mean(WBF_IMP) * scale
    data = [rng.expovariate(1 / mean) for _ in range(50_000)]
    table = fit_table(data, unit=1)
    fitted = {s.points: s.min_difference for s in table.steps}
    for step in WBF_IMP.steps[1:8]:
        assert fitted[step.points] == pytest.approx(step.min_difference * scale, abs=2)


def test_steps_the_data_cannot_support_are_dropped():
    table = fit_table(list(range(-50, 50)), unit=1)
    assert table.max_points < WBF_IMP.max_points
    assert table.steps[-1].min_difference <= 50


def test_fitting_errors_name_the_fix():
    with pytest.raises(FittingError, match="at least 20"):
        fit_table([8] * 5)
    with pytest.raises(FittingError, match="finite"):
        fit_table([8] * 19 + [float("nan")])
    with pytest.raises(FittingError, match="unit"):
        fit_table([8] * 30, unit=0)


def test_observed_differences_are_against_each_comparison_datum():
    results = {("s1", "E"): {"a": 48, "b": 16, "c": -8, "d": -56}, ("s1", "S"): {"e": 10, "f": 20}}
    assert observed_differences(results) == [48, 16, -8, -56, -5, 5]


def test_compare_rankings_same_table_changes_nothing_and_lists_everyone():
    rng = random.Random(3)
    results = {n: {p: rng.randint(-100, 100) for p in "abcdefgh"} for n in range(10)}
    rows = compare_rankings(results, MCR_MP, MCR_MP)
    assert sorted(r[0] for r in rows) == list("abcdefgh")
    assert all(r[1] == r[2] and r[3] == r[4] for r in rows)
    assert [r[1] for r in rows] == sorted(r[1] for r in rows)


def test_compare_rankings_shows_a_reordering():
    # a: one big swing; b: steady small gains. A flat table ranks b first, MCR MP ranks a first.
    results = {1: {"a": 400, "b": 20, "c": -210, "d": -210}, 2: {"a": -8, "b": 8, "c": 0, "d": 0},
               3: {"a": -8, "b": 8, "c": 0, "d": 0}}
    flat = ConversionTable.from_rows([{"from": 0, "to": 4, "points": 0}, {"from": 5, "to": None, "points": 1}],
                                     name="win/lose")
    rows = {r[0]: r for r in compare_rankings(results, MCR_MP, flat)}
    assert rows["a"][1] == 1 and rows["b"][2] == 1
