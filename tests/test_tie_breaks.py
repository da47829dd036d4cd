"""docs/director-guide.md, "9. Penalties and tie-breaks": configurable tie-breaks (docs/scoring.md, "Standings"). The pure standings follow the
lexicographic rule (points, then each tie-break in order, then a shared place) under any list of
tie-breaks, incrementally as in one pass; the event's list reaches the cached standings. The
oracle here ranks from the raw per-set results on its own."""

import random
from collections import defaultdict

import pytest
from factories import play_slots, prepared_event, team_roster
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.adjustments import add_adjustment
from scoring.models import SetScore
from scoring.reports import cached_standings, event_standings
from scoring.standings import (
    DEFAULT_TIE_BREAKS,
    TIE_BREAKS,
    ConvertedScore,
    IncrementalStandings,
    RankingRules,
    standings,
)
from tournament.models import Event

KEYS = "abcdef"


def oracle(results: dict, codes, adjustments=None) -> list[tuple]:
    """``[(key, rank, tied)]`` from ``{(key, set): (points, change)}``: figures per key, sorted
    by points then each code's figure (larger first, fewer negative sets first), competition
    ranking on equal figures, equal keys in key order."""
    adjustments = adjustments or {}
    figures = defaultdict(lambda: {"points": 0, "score_total": 0, "positive_sets": 0, "best_set": None,
                                   "negatives": 0})
    for (key, _set), (points, change) in results.items():
        f = figures[key]
        f["points"] += points
        f["score_total"] += change
        f["positive_sets"] += points > 0
        f["negatives"] += points < 0
        f["best_set"] = points if f["best_set"] is None else max(f["best_set"], points)

    def merit(key):
        f = figures[key]
        mp, score = adjustments.get(key, (0, 0))
        values = {"score_total": f["score_total"] + score, "positive_sets": f["positive_sets"],
                  "best_set": f["best_set"] or 0, "fewer_negative_sets": -f["negatives"]}
        return tuple([f["points"] + mp] + [values[c] for c in codes])

    keys = sorted(figures, key=lambda k: (tuple(-v for v in merit(k)), k))
    out = []
    for key in keys:
        first = next(j for j in range(len(keys)) if merit(keys[j]) == merit(key))
        tied = sum(merit(k) == merit(key) for k in keys) > 1
        out.append((key, first + 1, tied))
    return out


codes_lists = st.lists(st.sampled_from(sorted(TIE_BREAKS)), unique=True, max_size=len(TIE_BREAKS))
results_maps = st.dictionaries(st.tuples(st.sampled_from(KEYS), st.integers(1, 6)),
                               st.tuples(st.integers(-3, 3), st.integers(-40, 40)), max_size=30)


def per_set(results):
    return [(key, set_key, ConvertedScore(0, 0, points), change) for (key, set_key), (points, change) in results.items()]


@settings(max_examples=200, deadline=None)
@given(results_maps, codes_lists)
def test_batch_standings_follow_the_lexicographic_rule(results, codes):
    rows = standings(per_set(results), RankingRules(tie_breaks=tuple(codes)))
    expected = oracle(results, tuple(codes) or DEFAULT_TIE_BREAKS)
    assert [(r.key, r.rank, r.tied) for r in rows] == expected


@settings(max_examples=150, deadline=None)
@given(st.lists(results_maps, min_size=1, max_size=4), codes_lists,
       st.dictionaries(st.sampled_from(KEYS), st.tuples(st.integers(-5, 5), st.integers(-50, 50)), max_size=3))
def test_incremental_standings_equal_batch_under_any_tie_breaks(steps, codes, adjustments):
    rules = RankingRules(tie_breaks=tuple(codes), adjustments=adjustments)
    incremental = IncrementalStandings()
    current: dict = {}
    for step in steps:  # each step replaces whole sets, as a correction does
        by_set = defaultdict(dict)
        for (key, set_key), value in step.items():
            by_set[set_key][key] = value
        for set_key, found in by_set.items():
            current = {k: v for k, v in current.items() if k[1] != set_key}
            current.update({(key, set_key): value for key, value in found.items()})
            incremental.replace_set(set_key, {key: (ConvertedScore(0, 0, p), c) for key, (p, c) in found.items()})
        rows = incremental.rows(rules)
        assert rows == standings(per_set(current), rules)
        live = {k: v for k, v in adjustments.items() if v != (0, 0)}
        with_sets = {key for key, _ in current}
        expected = [e for e in oracle(current, tuple(codes) or DEFAULT_TIE_BREAKS, live)]
        assert [(r.key, r.rank, r.tied) for r in rows if r.key in with_sets] == expected


def test_best_single_set_breaks_a_tie_the_default_leaves_shared():
    """a and b: 4 points and a score total of 0 each, two positive sets each; a's best set is 3,
    b's 2: shared place by default, a first with best_set."""
    results = {("a", 1): (3, 0), ("a", 2): (1, 0), ("b", 1): (2, 0), ("b", 2): (2, 0)}
    default = standings(per_set(results))
    assert [(r.rank, r.tied) for r in default] == [(1, True), (1, True)]
    best = standings(per_set(results), RankingRules(tie_breaks=("best_set",)))
    assert [(r.key, r.rank, r.tied) for r in best] == [("a", 1, False), ("b", 2, False)]


def test_the_registry_labels_every_code_and_the_default_is_the_old_order():
    assert DEFAULT_TIE_BREAKS == ("score_total", "positive_sets")
    assert all(tb.code == code and tb.label and tb.description for code, tb in TIE_BREAKS.items())
    assert {"score_total", "positive_sets", "best_set"} <= set(TIE_BREAKS)


@pytest.mark.django_db
def test_the_events_tie_breaks_reach_the_cached_standings():
    event = prepared_event(team_roster(4), name="Tie Cup", slug="tie-cup", conversion="mcr-mp")
    play_slots(event, random.Random(11))
    results = {(s.team_id, (s.session_number, s.set_no)): (s.points, s.score_change)
               for s in SetScore.objects.filter(event=event)}
    for codes in (["best_set", "fewer_negative_sets"], ["positive_sets"], []):
        Event.objects.filter(pk=event.pk).update(tie_breaks=codes)
        event.refresh_from_db()
        rows = cached_standings(event)
        assert rows == event_standings(event)
        assert [(r["key"], r["rank"], r["tied"]) for r in rows] == oracle(results, tuple(codes) or DEFAULT_TIE_BREAKS)
    team = event.teams.order_by("number").first()
    add_adjustment(event, team=team, unit="mp", amount=1, reason="bonus", actor="d")
    adjusted = oracle(results, DEFAULT_TIE_BREAKS, {team.pk: (1, 0)})
    assert [(r["key"], r["rank"], r["tied"]) for r in cached_standings(event)] == adjusted
