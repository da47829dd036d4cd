"""Datum, team and individual converted scores, standings, incremental standings."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.conversion import MCR_MP, WBF_IMP
from scoring.payments import HandOutcome, score_changes
from scoring.standings import (
    ConvertedScore,
    IncrementalStandings,
    StandingRow,
    datum,
    individual_set_scores,
    standings,
    team_set_scores,
)
from tests.perf.standings import bench_standings, per_set_results

from oracles import convert, datum_of, ranked, tally

SEATS = ("E", "S", "W", "N")


def test_average_datum():
    assert datum([48, 16, -8, -56]) == 0
    assert datum([34, -12, -12, -12]) == -0.5


def test_butler_drops_top_and_bottom_from_five_results():
    assert datum([100, 0, 0, 0], "butler") == 25  # four results: plain average
    assert datum([100, 10, 0, 0, -50], "butler") == pytest.approx(10 / 3)


@pytest.mark.parametrize("values, method, match", [
    ([], "average", "at least one"), ([1, 2], "median", "unknown datum method"), ([1, float("nan")], "average", "finite"),
])
def test_datum_errors(values, method, match):
    with pytest.raises(ValueError, match=match):
        datum(values, method)


def test_seed_individual_example_converts_each_difference_keeping_its_sign():
    scores = individual_set_scores({"E": {"a": 48, "b": 16, "c": -8, "d": -56}}, MCR_MP)
    assert {p: s.points for p, s in scores.items()} == {"a": 6, "b": 2, "c": -1, "d": -7}
    assert scores["a"] == ConvertedScore(difference=48, datum=0, points=6)


def test_individual_method_compares_each_seat_separately():
    scores = individual_set_scores({"E": {"a": 32, "b": 0}, "S": {"c": -16, "d": 0}}, MCR_MP)
    assert scores["a"].datum == 16 and scores["c"].datum == -8
    assert [scores[p].points for p in "abcd"] == [2, -2, -1, 1]


def test_individual_errors():
    with pytest.raises(ValueError, match="two seats"):
        individual_set_scores({"E": {"a": 1}, "S": {"a": 2}}, MCR_MP)
    with pytest.raises(ValueError, match="wind letter"):
        individual_set_scores({"East": {"a": 1}}, MCR_MP)
    with pytest.raises(ValueError, match="no results"):
        individual_set_scores({"E": {}}, MCR_MP)


def latin_square_set(rng_outcomes):
    """Four tables, team t holds seat (t + table) % 4 at each table; returns team totals."""
    totals = dict.fromkeys("ABCD", 0)
    for table, outcome in enumerate(rng_outcomes):
        changes = score_changes("mcr", SEATS, outcome)
        for t, team in enumerate("ABCD"):
            totals[team] += changes[SEATS[(t + table) % 4]]
    return totals


outcome = st.one_of(
    st.just(HandOutcome("draw")),
    st.builds(lambda w, f: HandOutcome("self_draw", (w,), None, (f,)), st.sampled_from(SEATS), st.integers(8, 88)),
    st.builds(lambda w, d, f: HandOutcome("discard", (w,), SEATS[(SEATS.index(w) + d) % 4], (f,)),
              st.sampled_from(SEATS), st.integers(1, 3), st.integers(8, 88)),
)


@given(st.lists(outcome, min_size=4, max_size=4))
def test_team_scores_of_a_zero_sum_set_convert_symmetrically(outcomes):
    totals = latin_square_set(outcomes)
    assert sum(totals.values()) == 0
    scores = team_set_scores(totals, MCR_MP)
    mirrored = team_set_scores({t: -v for t, v in totals.items()}, MCR_MP)
    for team, total in totals.items():
        assert scores[team].datum == 0
        assert scores[team].points == MCR_MP.convert(total)
        assert mirrored[team].points == -scores[team].points


def test_datum_is_not_assumed_zero_for_non_zero_sum_rules():
    # MahjongSoft self-draws lose points overall: the datum follows the results.
    totals = {"A": 34 - 12, "B": -12 - 12, "C": -12 + 34, "D": -12 - 12}
    scores = team_set_scores(totals, MCR_MP)
    assert scores["A"].datum == -1
    assert scores["A"].difference == 23 and scores["A"].points == 2


def test_butler_datum_with_eight_teams_of_two_groups():
    totals = dict(zip("ABCDEFGH", [200, 40, 16, 0, 0, -8, -32, -216]))
    scores = team_set_scores(totals, MCR_MP, method="butler")
    assert scores["A"].datum == pytest.approx(16 / 6)


def test_team_set_scores_keep_every_result_in_input_order():
    scores = team_set_scores({"t3": -16, "t1": 32, "t2": -8, "t4": -8}, MCR_MP)
    assert list(scores) == ["t3", "t1", "t2", "t4"]
    assert scores["t1"] == ConvertedScore(difference=32, datum=0, points=4)
    assert all(s.datum == 0 for s in scores.values())


def cs(points):
    return ConvertedScore(difference=0, datum=0, points=points)


def test_tie_break_points_then_score_then_positive_sets_then_shared_rank():
    per_set = [
        ("a", 1, cs(5), 10), ("a", 2, cs(-1), 0),    # 4 points, score 10, 1 positive
        ("b", 1, cs(2), 10), ("b", 2, cs(2), 0),     # 4 points, score 10, 2 positive
        ("c", 1, cs(4), 20),                         # 4 points, score 20
        ("d", 1, cs(1), 0), ("d", 2, cs(1), 0),      # 2 points, tied with e
        ("e", 3, cs(1), 0), ("e", 4, cs(1), 0),
        ("f", 1, cs(-3), -5),
    ]
    rows = standings(per_set)
    assert [(r.key, r.rank, r.tied) for r in rows] == [
        ("c", 1, False), ("b", 2, False), ("a", 3, False), ("d", 4, True), ("e", 4, True), ("f", 6, False)]
    assert rows[1] == StandingRow(rank=2, key="b", points=4, sets_played=2, score_total=10, positive_sets=2, tied=False)


def test_ties_among_uncomparable_keys_are_ordered_deterministically():
    rows = standings([(("x", 1), 1, cs(0), 0), (7, 1, cs(0), 0)])
    assert [r.key for r in rows] == [("x", 1), 7]  # by repr: "('x', 1)" < "7"
    assert all(r.tied and r.rank == 1 for r in rows)


def test_two_results_for_one_key_on_one_set_are_refused():
    with pytest.raises(ValueError, match="two results"):
        standings([("a", 1, cs(1), 0), ("a", 1, cs(2), 0)])


def reference_individual(event, table):
    """Written from docs/rules.md, "Duplicate MCR: individual event" and the tie-break (tests/oracles.py), independently of scoring.standings."""
    rows = table.rows()
    per_set = []
    for by_seat in event.values():
        for results in by_seat.values():
            average = datum_of(results.values())
            per_set += [(player, convert(rows, change - average), change) for player, change in results.items()]
    tallies = tally(per_set)
    sets = Counter(player for player, _, _ in per_set)
    return [StandingRow(rank, player, tallies[player][0], sets[player], tallies[player][1], tallies[player][2], tied)
            for rank, player, tied in ranked(tallies)]


@st.composite
def individual_events(draw):
    """Sets of 2..4 seats, each seat held by 1..5 players (a player once per set)."""
    players = list(range(draw(st.integers(4, 12))))
    event = {}
    for set_no in range(draw(st.integers(1, 6))):
        pool = draw(st.permutations(players))
        seats = draw(st.integers(2, 4))
        per_seat = len(pool) // seats
        event[set_no] = {
            SEATS[s]: {p: draw(st.integers(-300, 300)) for p in pool[s * per_seat:(s + 1) * per_seat]}
            for s in range(seats)
        }
    return event


@given(individual_events(), st.sampled_from([MCR_MP, WBF_IMP]))
def test_individual_scores_and_standings_agree_with_an_independent_recomputation(event, table):
    assert standings(per_set_results(event, table)) == reference_individual(event, table)


@given(st.dictionaries(st.sampled_from("ABCDEFGH"), st.integers(-500, 500), min_size=1))
def test_team_scores_agree_with_an_independent_recomputation(totals):
    average = datum_of(totals.values())
    scores = team_set_scores(totals, MCR_MP)
    for team, total in totals.items():
        diff = total - average
        expected = convert(MCR_MP.rows(), abs(diff))
        assert scores[team].points == (expected if diff >= 0 else -expected)
        assert scores[team].difference == pytest.approx(diff)


@settings(max_examples=60)
@given(individual_events(), st.data())
def test_incremental_standings_equal_a_full_recompute(event, data):
    incremental = IncrementalStandings()
    current = {}
    for set_key in data.draw(st.permutations(list(event))):
        by_seat = event[set_key]
        scores = individual_set_scores(by_seat, MCR_MP)
        changes = {p: c for r in by_seat.values() for p, c in r.items()}
        if data.draw(st.booleans()):
            for player in scores:
                incremental.add(set_key, player, scores[player], changes[player])
        else:
            incremental.replace_set(set_key, {p: (s, changes[p]) for p, s in scores.items()})
        current[set_key] = by_seat
        if data.draw(st.booleans()):
            corrected = {seat: {p: c + data.draw(st.integers(-40, 40)) for p, c in r.items()} for seat, r in by_seat.items()}
            scores = individual_set_scores(corrected, MCR_MP)
            changes = {p: c for r in corrected.values() for p, c in r.items()}
            incremental.replace_set(set_key, {p: (s, changes[p]) for p, s in scores.items()})
            current[set_key] = corrected
        assert incremental.rows() == standings(per_set_results(current, MCR_MP))
    removed = data.draw(st.sampled_from(list(event)))
    incremental.replace_set(removed, {})
    del current[removed]
    assert incremental.rows() == standings(per_set_results(current, MCR_MP))


def test_incremental_add_refuses_a_second_result_on_a_set():
    incremental = IncrementalStandings([("a", 1, cs(1), 8)])
    with pytest.raises(ValueError, match="replace_set"):
        incremental.add(1, "a", cs(2), 8)


def test_bench_reports_figures_on_a_small_event():
    lines = []
    figures = bench_standings(lines.append, players=32, sessions=2, hands=4, repeats=2)
    assert figures["players"] == 32 and figures["results"] == 32 * 2 * 4
    assert figures["full_seconds"] > 0 and figures["one_result_seconds"] > 0
    assert len(lines) == 4 and "full recompute" in lines[1]
