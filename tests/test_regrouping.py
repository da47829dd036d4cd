"""Regrouping between sessions: designs, tabu search, lower bound, entrant options
(tournament/regrouping.py) and the seating bench (tests/perf/seating.py)."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.perf.seating import bench_seating
from tournament.regrouping import (
    RegroupError,
    entrant_options,
    meeting_lower_bound,
    regroup,
    repeat_meetings,
    sit_out_schedule,
)

from oracles import fewest_repeats


def assert_partitions(result, n, group_size, present=None):
    for s, groups in enumerate(result.sessions):
        here = list(range(n)) if present is None else present[s]
        assert sorted(e for g in groups for e in g) == here
        assert all(len(g) == group_size for g in groups)


# team groups (N teams for N seats) and individual groups (N*N players)
group_sizes = st.sampled_from([2, 3, 4, 9, 16])


@given(group_sizes, st.integers(1, 6), st.integers(1, 6), st.integers(0, 3))
@settings(max_examples=40, deadline=None)
def test_every_entrant_is_in_exactly_one_group_of_the_right_size_each_session(group_size, n_groups, n_sessions, seed):
    n = group_size * n_groups
    result = regroup(n, group_size, n_sessions, seed=seed, time_limit=0.3)
    assert len(result.sessions) == n_sessions
    assert_partitions(result, n, group_size)
    assert result.repeats == repeat_meetings(result.sessions)
    assert result.repeats >= result.lower_bound == meeting_lower_bound(n, group_size, n_sessions)


@given(st.sampled_from([2, 3, 4]), st.integers(1, 8), st.integers(1, 4))
@settings(max_examples=20, deadline=None)
def test_session_one_keeps_the_given_order(group_size, n_groups, n_sessions):
    n = group_size * n_groups
    first = regroup(n, group_size, n_sessions, time_limit=0.3).sessions[0]
    assert first == [tuple(range(i, i + group_size)) for i in range(0, n, group_size)]


@pytest.mark.parametrize(
    "n, group_size, n_sessions, method",
    [
        (16, 4, 5, "AG(2,4)"),
        (64, 4, 21, "AG(3,4)"),
        (9, 3, 4, "AG(2,3)"),
        (27, 3, 13, "AG(3,3)"),
        (15, 3, 7, "KTS(15)"),
        (25, 5, 6, "AG(2,5)"),
        (49, 7, 8, "AG(2,7)"),
        (64, 8, 9, "AG(2,8)"),
        (81, 9, 10, "AG(2,9)"),
        (256, 16, 17, "AG(2,16)"),
        (12, 2, 11, "round robin"),
        (32, 4, 9, "TD(4,8)"),
        (128, 4, 41, "TD(4,32)"),
        (20, 4, 5, "TD(4,5)"),
    ],
)
def test_designs_give_zero_repeats_for_all_their_sessions(n, group_size, n_sessions, method):
    result = regroup(n, group_size, n_sessions)
    assert_partitions(result, n, group_size)
    assert result.repeats == 0 and method in result.method


def test_256_teams_in_groups_of_4_meet_once_over_85_sessions_quickly():
    result = regroup(256, 4, 85)
    assert (result.repeats, result.method) == (0, "affine geometry AG(4,4)")
    assert result.seconds < 5


def test_one_session_without_a_design_is_the_given_order():
    result = regroup(12, 4, 1)
    assert (result.repeats, result.method) == (0, "given order")


def test_a_complete_design_repeated_meets_the_lower_bound():
    result = regroup(16, 4, 8)
    assert result.repeats == result.lower_bound == 72
    assert result.method == "affine geometry AG(2,4) repeated"


def test_32_teams_over_12_sessions_reach_the_lower_bound_by_tabu_search():
    result = regroup(32, 4, 12, seed=1)
    assert_partitions(result, 32, 4)
    assert result.repeats == result.lower_bound == 80
    assert result.method == "transversal design TD(4,8) + tabu search"


def test_tabu_search_finds_zero_repeats_without_a_design():
    result = regroup(48, 4, 8)
    assert (result.repeats, result.method) == (0, "tabu search")


@pytest.mark.parametrize("n, group_size, n_sessions", [(6, 3, 4), (8, 4, 4), (8, 2, 3), (9, 3, 3), (12, 4, 2)])
def test_small_cases_reach_the_true_minimum_and_the_bound_is_below_it(n, group_size, n_sessions):
    best = fewest_repeats(n, group_size, n_sessions)
    result = regroup(n, group_size, n_sessions, time_limit=2)
    assert meeting_lower_bound(n, group_size, n_sessions) <= best == result.repeats


@pytest.mark.parametrize(
    "n, group_size, n_sessions, bound",
    [(16, 4, 5, 0), (16, 4, 8, 72), (8, 4, 2, 4), (12, 4, 2, 3), (32, 16, 3, 224), (4, 4, 3, 12)],
)
def test_lower_bound_values(n, group_size, n_sessions, bound):
    assert meeting_lower_bound(n, group_size, n_sessions) == bound


def test_repeat_meetings_counts_meetings_beyond_the_first():
    sessions = [[(0, 1, 2, 3)], [(0, 1, 2, 3)], [(0, 1, 2, 3)]]
    assert repeat_meetings(sessions) == 6 * 2
    assert repeat_meetings([[(0, 1), (2, 3)], [(0, 2), (1, 3)]]) == 0


def test_the_same_seed_gives_the_same_groups():
    first = regroup(12, 4, 5, seed=5, time_limit=1)
    again = regroup(12, 4, 5, seed=5, time_limit=1)
    assert "time limit" not in first.method
    assert first.sessions == again.sessions and first.repeats == again.repeats


@pytest.mark.parametrize("n, group_size", [(18, 4), (10, 3), (5, 2)])
def test_sizes_that_do_not_split_point_to_entrant_options(n, group_size):
    with pytest.raises(RegroupError, match=f"entrant_options\\({n}, {group_size}\\)"):
        regroup(n, group_size, 3)


@pytest.mark.parametrize("args, field", [((0, 4, 3), "entrants"), ((16, 1, 3), "group size"), ((16, 4, 0), "sessions"), ((16.0, 4, 3), "entrants")])
def test_bad_sizes_name_the_field(args, field):
    with pytest.raises(RegroupError, match=field):
        regroup(*args)


def test_time_limit_must_be_positive():
    with pytest.raises(RegroupError, match="time limit"):
        regroup(16, 4, 3, time_limit=0)


def test_multiples_of_the_group_size_play_as_is():
    (option,) = entrant_options(64, 4)
    assert (option.kind, option.entrants, option.substitutes, option.sit_outs) == ("as-is", 64, 0, 0)


def test_odd_entrant_counts_offer_substitutes_or_sit_outs_with_a_scoring_rule():
    options = {o.kind: o for o in entrant_options(18, 4)}
    assert set(options) == {"substitutes", "sit-out-average", "sit-out-datum"}
    assert (options["substitutes"].substitutes, options["substitutes"].entrants) == (2, 20)
    assert (options["sit-out-average"].sit_outs, options["sit-out-average"].entrants, options["sit-out-average"].cycle) == (2, 16, 9)
    assert "average converted score" in options["sit-out-average"].scoring
    assert "0" in options["sit-out-datum"].scoring


def test_too_few_entrants_for_one_group_can_only_add_substitutes():
    assert [o.kind for o in entrant_options(3, 4)] == ["substitutes"]
    with pytest.raises(RegroupError, match="add 1 substitutes"):
        sit_out_schedule(3, 4, 2)


@given(st.integers(2, 40), st.sampled_from([2, 3, 4, 9, 16]), st.integers(1, 30))
def test_sit_outs_rotate_so_counts_differ_by_at_most_one(n, group_size, n_sessions):
    if n < group_size:
        return
    schedule = sit_out_schedule(n, group_size, n_sessions)
    counts = [sum(e in out for out in schedule) for e in range(n)]
    assert all(len(out) == n % group_size for out in schedule)
    assert max(counts) - min(counts) <= 1
    option = entrant_options(n, group_size)[-1]
    if option.cycle:
        full = sit_out_schedule(n, group_size, option.cycle)
        assert len({sum(e in out for out in full) for e in range(n)}) == 1


def test_regrouping_around_sit_outs_seats_everyone_else_once():
    schedule = sit_out_schedule(18, 4, 5)
    result = regroup(18, 4, 5, sit_outs=schedule, time_limit=2)
    present = [[e for e in range(18) if e not in out] for out in schedule]
    assert_partitions(result, 18, 4, present)
    assert result.repeats >= result.lower_bound


def test_sit_outs_that_leave_odd_sizes_are_refused():
    with pytest.raises(RegroupError, match="session 1: 17 entrants play"):
        regroup(18, 4, 2, sit_outs=[(0,), (1, 2)])
    with pytest.raises(RegroupError, match="one list per session"):
        regroup(18, 4, 2, sit_outs=[(0, 1)])


def test_bench_reaches_the_bound_in_time_for_every_case():
    lines = []
    rows = bench_seating(lines.append)
    assert len(rows) == 15 and len(lines) == 15 + 3
    assert all(r["at_bound"] and r["in_time"] for r in rows)
    assert all(r["repeats"] == 0 for r in rows if r["teams"] == 64)
    assert all(r["baseline_repeats"] >= r["repeats"] for r in rows)
    assert math.isclose(sum(r["repeat_ratio"] for r in rows if r["teams"] == 16 and r["sessions"] == 4), 0.0)
