"""Acceptance of the standings: scores a director can defend.

Written from the documented rules (docs/scoring.md, docs/standings.md) and the shared contract,
not from the code: every expected value is computed here by hand or by tests/oracles.py (which
imports nothing of the product), from the raw data the product stores (who sat where, the typed
score changes, the conversion table's rows).

- Three defects (``-k defect``): substitutes were ranked; the sit-out-average rule was not
  applied; conversion table versions mixed after a save.
- Property tests over small random events (hypothesis): substitutes never hold a rank; a
  sit-out entrant's total is its mean per session played × the sessions planned; after saves
  of conversion tables interleaved with corrections no two scores name different versions; an
  export reader checks each score against the version it names; the pure ranking rules agree
  with the oracle.

Names of the ranking, conversion-version and export modules are imported inside some tests.
"""

from __future__ import annotations

import random
import re
from collections import defaultdict

import pytest
from acceptance import (
    FEW,
    current_rows,
    new_event,
    oracle_scores,
    oracle_tallies,
    random_changes,
    rows_of,
    sets_per_session,
    standings_surfaces,
    substitutes,
)
from django.test import Client
from factories import (
    individual_roster,
    play_slots,
    team_roster,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import (
    convert_by_range,
    ranked,
    round_half_away,
    tally,
)

from scoring.conversion import ConversionTable as PlainTable
from scoring.conversion import get_table
from scoring.models import ConversionTable, HandResult, SetScore
from scoring.reports import event_standings
from scoring.actions.confirmation import correct_result
from tournament.exchange import export_event
from tournament.models import Event, SeatAssignment

pytestmark = pytest.mark.django_db


# === the three defects =========================================================================================


def test_defect_substitutes_are_not_ranked_anywhere(director):
    """5 teams, substitutes policy: 3 substitute teams fill two groups of 4. No substitute holds a
    rank on any surface; the 5 real teams are ranked 1..5 among themselves by the documented
    tie-break over their own results; the substitutes stay listed (their results make the datum)."""
    event = new_event(team_roster(5), sessions=1, entrant_policy=Event.EntrantPolicy.SUBSTITUTES, director=director,
                      slug="five-subs")
    subs = substitutes(event)
    assert len(subs) == 3 and event.teams.count() == 8
    play_slots(event, random.Random(17), session=1, changes=random_changes, director=True)
    tallies = oracle_tallies(event, current_rows(event))
    assert len(tallies) == 8
    real = {name: t for name, t in tallies.items() if name not in subs}
    expected = {name: rank for rank, name, _ in ranked(real)}
    assert min(expected.values()) == 1 and max(expected.values()) <= 5
    for surface, rows in standings_surfaces(event).items():
        by_name = {r["name"]: r for r in rows}
        assert set(by_name) == set(tallies), f"{surface}: every team, substitutes included, is listed"
        ranked_subs = {name: by_name[name]["rank"] for name in subs if by_name[name]["rank"] is not None}
        assert not ranked_subs, f"{surface}: substitutes hold ranks {ranked_subs}"
        assert {name: by_name[name]["rank"] for name in real} == expected, f"{surface}: real teams' ranks"
        assert {name: by_name[name]["points"] for name in tallies} == {n: t[0] for n, t in tallies.items()}, surface
        # ranked rows first, then the substitutes
        ranks = [r["rank"] for r in rows]
        assert ranks.index(None) == len(real) and all(r is None for r in ranks[len(real):]), f"{surface}: order {ranks}"


def test_defect_sit_out_average_is_applied(director):
    """5 teams, sit-out-average, 2 sessions: one team sits out each session. After both, a team
    that sat out one session totals its session's points × 2 (its mean per session played × the 2
    sessions planned), and its row says so: 16 sets sat out, credited with those points."""
    event = new_event(team_roster(5), prepare=(1, 2), sessions=2, entrant_policy=Event.EntrantPolicy.SIT_OUT_AVERAGE,
                      director=director, slug="five-sit")
    rng = random.Random(5)
    play_slots(event, rng, session=1, changes=random_changes, director=True)
    play_slots(event, rng, session=2, changes=random_changes, director=True)
    teams = set(event.teams.values_list("name", flat=True))
    seated = {s: set(SeatAssignment.objects.filter(table__group__session__event=event, table__group__session__number=s)
                     .values_list("team__name", flat=True)) for s in (1, 2)}
    sat_out = {s: teams - seated[s] for s in (1, 2)}
    assert all(len(out) == 1 for out in sat_out.values()) and sat_out[1] != sat_out[2]
    rows = current_rows(event)
    per_session = {s: oracle_tallies(event, rows, sessions={s}) for s in (1, 2)}
    sets = sets_per_session(event)
    assert sets == 16
    expected_points = {}
    for name in teams:
        played = [s for s in (1, 2) if name in seated[s]]
        points = sum(per_session[s][name][0] for s in played)
        expected_points[name] = points * 2 / len(played)  # the mean per session played × 2 sessions planned
    credited = {name: expected_points[name] - sum(per_session[s][name][0] for s in (1, 2) if name in seated[s])
                for name in teams}
    assert any(credited[name] != 0 for name in sat_out[1] | sat_out[2]), "choose another seed: the sit-outs scored 0"

    surfaces = standings_surfaces(event)
    for surface in ("report", "cached", "api", "csv", "export", "public export"):
        shown = {r["name"]: r["points"] for r in surfaces[surface]}
        assert shown == expected_points, f"{surface}: totals {shown}, want {expected_points}"
    report = {r["name"]: r for r in event_standings(event)}
    for session in (1, 2):
        (name,) = sat_out[session]
        assert report[name]["sit_out_sets"] == sets
        assert report[name]["sit_out_points"] == credited[name]
    for name in teams - sat_out[1] - sat_out[2]:
        assert (report[name]["sit_out_sets"], report[name]["sit_out_points"]) == (0, 0)
    # ranked on the credited totals, by the documented tie-break
    tallies = oracle_tallies(event, rows)
    credited_tallies = {n: (expected_points[n], t[1], t[2]) for n, t in tallies.items()}
    assert {n: r["rank"] for n, r in report.items()} == {n: rank for rank, n, _ in ranked(credited_tallies)}


def test_defect_conversion_save_rescores_every_score(director):
    """A new conversion table version saved (scoring.conversion_versions.save_table_version): every
    stored score names the new version and equals an independent conversion of the same results
    with the new rows, with no Rescore pressed."""
    from scoring.conversion_versions import save_table_version

    event = new_event(team_roster(4), sessions=1, director=director, slug="versions")
    play_slots(event, random.Random(3), session=1, changes=random_changes, director=True)
    first = ConversionTable.objects.get(event=event, current=True)
    before = oracle_scores(event, rows_of(first))
    assert len(before) == 16
    new_rows = [{"from": 0, "to": 3, "points": 0}, {"from": 4, "to": 19, "points": 2}, {"from": 20, "to": 59, "points": 5},
                {"from": 60, "to": None, "points": 11}]
    saved = save_table_version(event, PlainTable.from_rows(new_rows, name="Steep MP", source="acceptance test"))
    assert saved.version == first.version + 1 and saved.current
    after = oracle_scores(event, new_rows)
    assert any(after[k][n][1] != before[k][n][1] for k in after for n in after[k]), "the new table must change some score"
    stored = list(SetScore.objects.filter(event=event).select_related("conversion_table", "team"))
    assert len(stored) == 16 * 4
    assert {(s.conversion_table_id, s.conversion_table.version) for s in stored} == {(saved.pk, saved.version)}
    for s in stored:
        assert s.points == after[(s.session_number, s.set_no, s.group.number)][s.team.name][1], (s.set_no, s.team.name)


# === the documented rules around the defects ==================================================================


def test_substitute_rows_are_flagged_and_listed_after_the_ranked(director):
    event = new_event(team_roster(5), sessions=1, entrant_policy=Event.EntrantPolicy.SUBSTITUTES, director=director,
                      slug="subs-flag")
    play_slots(event, random.Random(9), session=1, changes=random_changes, director=True)
    subs = substitutes(event)
    rows = event_standings(event)
    assert {r["name"] for r in rows if r["substitute"]} == subs
    assert [r["substitute"] for r in rows] == [False] * 5 + [True] * 3
    sub_points = [r["points"] for r in rows if r["substitute"]]
    assert sub_points == sorted(sub_points, reverse=True), "substitutes in merit order among themselves"
    api = {r["name"]: r for r in Client().get(f"/api/events/{event.slug}/standings/").json()}
    export = {r["name"]: r for r in export_event(event)["standings"]}
    for name in subs:
        assert api[name]["substitute"] is True and api[name]["rank"] is None
        assert export[name]["substitute"] is True and export[name]["rank"] is None
    page = Client().get(f"/e/{event.slug}/standings/").content.decode()
    assert "not ranked" in page


def test_conversion_save_is_audited_and_named_on_the_standings(director):
    from scoring.conversion_versions import save_table_version
    from scoring.reports import conversion_in_use
    from tournament.models import AuditEntry

    event = new_event(team_roster(4), sessions=1, director=director, slug="named")
    play_slots(event, random.Random(4), session=1, changes=random_changes, director=True)
    in_use = conversion_in_use(event)
    assert [(u["version"], u["current"], u["scores"]) for u in in_use] == [(1, True, 64)]
    plain = get_table("wbf-imp")
    saved = save_table_version(event, PlainTable.from_rows(plain.rows(), name="Renamed IMP"))
    entry = AuditEntry.objects.filter(event=event, action="conversion-table-saved").get()
    assert entry.detail["version"] == saved.version and entry.detail["rescored"]
    in_use = conversion_in_use(event)
    assert [(u["name"], u["version"], u["current"], u["scores"]) for u in in_use] == [("Renamed IMP", 2, True, 64)]
    page = Client().get(f"/e/{event.slug}/standings/").content.decode()
    assert re.search(r"Renamed IMP.{0,40}version\s*2", page, re.DOTALL), "the standings name the table version they use"


def test_sit_out_credit_counts_only_released_sets_during_the_event(director):
    """During the event the credit covers the sat-out sets already scored in the scope shown: after
    session 1 only, the team sitting out session 1 has played nothing and is credited nothing."""
    event = new_event(team_roster(5), prepare=(1, 2), sessions=2, entrant_policy=Event.EntrantPolicy.SIT_OUT_AVERAGE,
                      director=director, slug="sit-during")
    play_slots(event, random.Random(8), session=1, changes=random_changes, director=True)
    teams = set(event.teams.values_list("name", flat=True))
    seated = set(SeatAssignment.objects.filter(table__group__session__event=event, table__group__session__number=1)
                 .values_list("team__name", flat=True))
    (out,) = teams - seated
    rows = {r["name"]: r for r in event_standings(event)}
    assert (rows[out]["points"], rows[out]["sit_out_points"]) == (0, 0)
    # nobody has sat out a scored set of session 2 yet
    assert all(rows[name]["sit_out_sets"] == 0 for name in seated)


# === property tests ==============================================================================================


def _small_event(method: str, entrants: int, sessions: int, policy: str, director):
    """A small two-player (Souzu) event: teams of 2 in groups of 2 teams, or players in groups of
    4; ``policy`` for the entrants that do not fill the groups."""
    roster = team_roster(entrants, 2) if method == "team" else individual_roster(entrants)
    return new_event(roster, prepare=range(1, sessions + 1), ruleset_code="souzu-2p", method=method, sessions=sessions,
                     entrant_policy=policy, director=director, slug="prop")


@FEW
@given(method=st.sampled_from(["team", "individual"]), entrants=st.sampled_from([3, 5, 6, 7]), seed=st.integers(0, 10 ** 6))
def test_property_substitutes_never_hold_a_rank(director, method, entrants, seed):
    if method == "team" and entrants % 2 == 0:
        entrants += 1
    event = _small_event(method, entrants, 1, Event.EntrantPolicy.SUBSTITUTES, director)
    subs = substitutes(event)
    assert subs
    play_slots(event, random.Random(seed), session=1, changes=random_changes, director=True)
    tallies = oracle_tallies(event, current_rows(event))
    expected = {name: rank for rank, name, _ in ranked({n: t for n, t in tallies.items() if n not in subs})}
    for surface, rows in standings_surfaces(event).items():
        by_name = {r["name"]: r["rank"] for r in rows}
        assert all(by_name[name] is None for name in subs), surface
        assert {n: r for n, r in by_name.items() if n not in subs} == expected, surface


@FEW
@given(method=st.sampled_from(["team", "individual"]), entrants=st.sampled_from([3, 5, 6, 7]),
       sessions=st.integers(2, 3), seed=st.integers(0, 10 ** 6))
def test_property_sit_out_total_is_its_mean_per_session_times_the_sessions_planned(director, method, entrants, sessions,
                                                                                         seed):
    if method == "team" and entrants % 2 == 0:
        entrants += 1
    if method == "individual" and entrants < 5:
        entrants = 5
    event = _small_event(method, entrants, sessions, Event.EntrantPolicy.SIT_OUT_AVERAGE, director)
    rng = random.Random(seed)
    for session in range(1, sessions + 1):
        play_slots(event, rng, session=session, changes=random_changes, director=True)
    rows = current_rows(event)
    field = "team__name" if method == "team" else "player__name"
    played = defaultdict(set)
    for session, name in SeatAssignment.objects.filter(table__group__session__event=event).values_list(
            "table__group__session__number", field):
        played[name].add(session)
    per_session = {s: oracle_tallies(event, rows, sessions={s}) for s in range(1, sessions + 1)}
    shown = {r["name"]: r for r in event_standings(event)}
    assert any(len(p) < sessions for p in played.values())
    for name, sessions_played in played.items():
        points = sum(per_session[s][name][0] for s in sessions_played)
        mean_total = points / len(sessions_played) * sessions
        assert abs(shown[name]["points"] - mean_total) <= 0.5, (name, shown[name], mean_total)
        assert shown[name]["points"] - shown[name]["sit_out_points"] == points
        sets = sets_per_session(event)
        # the contract's credit: points per set played × sets sat out, halves away from zero
        assert shown[name]["sit_out_points"] == round_half_away(points / (len(sessions_played) * sets)
                                                                * (sessions - len(sessions_played)) * sets)
        assert shown[name]["sit_out_sets"] == (sessions - len(sessions_played)) * sets_per_session(event)


def _table_rows(draw) -> list[dict]:
    starts = sorted(draw(st.sets(st.integers(1, 120), min_size=1, max_size=6)))
    points = sorted(draw(st.lists(st.integers(0, 15), min_size=len(starts), max_size=len(starts))))
    froms = [0, *starts]
    pts = [0, *points]
    return [{"from": f, "to": (froms[i + 1] - 1 if i + 1 < len(froms) else None), "points": p}
            for i, (f, p) in enumerate(zip(froms, pts))]


conversion_rows = st.composite(_table_rows)


@FEW
@given(ops=st.lists(st.one_of(conversion_rows().map(lambda rows: ("save", rows)),
                              st.tuples(st.just("correct"), st.integers(0, 10 ** 6))), min_size=1, max_size=5),
       seed=st.integers(0, 10 ** 6))
def test_property_no_two_scores_name_different_versions_after_saves(director, ops, seed):
    from scoring.conversion_versions import save_table_version

    event = _small_event("team", 4, 1, Event.EntrantPolicy.EXACT, director)
    rng = random.Random(seed)
    play_slots(event, rng, session=1, changes=random_changes, director=True)
    for op in ops:
        if op[0] == "save":
            save_table_version(event, PlainTable.from_rows(op[1], name="Random table"))
        else:
            choice = random.Random(op[1])
            result = choice.choice(list(HandResult.objects.filter(event=event).order_by("pk")))
            correct_result(result, actor="acceptance", reason="typing error", director=True,
                           changes=random_changes(choice, tuple(event.get_ruleset().seats)))
        current = ConversionTable.objects.get(event=event, current=True)
        named = set(SetScore.objects.filter(event=event).values_list("conversion_table_id", flat=True))
        assert named == {current.pk}, f"after {op[0]}: scores name tables {named}, the current is {current.pk}"
    expected = oracle_scores(event, rows_of(current))
    for s in SetScore.objects.filter(event=event).select_related("team", "group"):
        assert s.points == expected[(s.session_number, s.set_no, s.group.number)][s.team.name][1]


def test_an_export_reader_checks_each_score_against_the_version_it_names(director):
    """docs/export.md: readers check each converted score against the conversion table version it
    names. After a correction and a new table, every score of the export passes that check with
    the rows of the version it names (and all name the current one)."""
    from scoring.conversion_versions import save_table_version

    event = new_event(team_roster(4), sessions=1, director=director, slug="reader")
    rng = random.Random(11)
    play_slots(event, rng, session=1, changes=random_changes, director=True)
    result = HandResult.objects.filter(event=event).order_by("pk").first()
    correct_result(result, actor="acceptance", reason="typing error", director=True, changes={"E": 64, "S": -32, "W": -16, "N": -16})
    save_table_version(event, PlainTable.from_rows([{"from": 0, "to": 9, "points": 0}, {"from": 10, "to": None, "points": 3}],
                                                   name="Coarse"))
    data = export_event(event)
    tables = {(t["code"], t["version"]): t for t in data["conversion_tables"]}
    current = next(t for t in data["conversion_tables"] if t["current"])
    for score in data["scores"]:
        named = tables[(score["conversion_table"]["code"], score["conversion_table"]["version"])]
        assert named is current
        assert score["points"] == convert_by_range(named["rows"], score["difference"])


# === the pure ranking rules, against the oracle ======================================================================

entrant_results = st.dictionaries(
    st.sampled_from("abcdef"),
    st.lists(st.tuples(st.integers(-12, 12), st.integers(-200, 200)), min_size=0, max_size=4),
    min_size=2, max_size=6,
)


@settings(max_examples=60, deadline=None)
@given(results=entrant_results, data=st.data())
def test_property_ranking_rules_match_the_documented_policies(results, data):
    """scoring.standings with RankingRules: unranked keys (substitutes) get no rank and take or
    shift no place; with sit_out_average a key's points gain its points per set played × sets sat
    out (halves away from zero). Ranks of the rest by the oracle's tie-break over the credited points."""
    from scoring.standings import (
        ConvertedScore,
        IncrementalStandings,
        RankingRules,
        standings,
    )

    keys = sorted(results)
    unranked = frozenset(data.draw(st.sets(st.sampled_from(keys), max_size=len(keys) - 1)))
    sat_out = data.draw(st.dictionaries(st.sampled_from(keys), st.integers(1, 8), max_size=len(keys)))
    per_set = [(key, (key, i), ConvertedScore(float(points), 0.0, points), change)
               for key, rows in results.items() for i, (points, change) in enumerate(rows)]
    rules = RankingRules(unranked=unranked, sat_out=sat_out, sit_out_average=True)
    rows = standings(per_set, rules)
    incremental = IncrementalStandings()
    for key, set_key, converted, change in per_set:
        incremental.add(set_key, key, converted, change)
    assert incremental.rows(rules) == rows

    tallies = {k: tally((k, p, c) for p, c in results[k]).get(k, (0, 0, 0)) for k in keys}
    played = {k: len(results[k]) for k in keys}
    credit = {k: round_half_away(tallies[k][0] / played[k] * sat_out.get(k, 0)) if played[k] else 0 for k in keys}
    credited = {k: (tallies[k][0] + credit[k], tallies[k][1], tallies[k][2]) for k in keys}
    listed = {k for k in keys if played[k] or sat_out.get(k)}
    by_key = {r.key: r for r in rows}
    assert set(by_key) == listed
    waiting = {k for k in listed - unranked if not played[k]}  # sat out, no set played: no average to rank by
    expected = {k: (rank, tied) for rank, k, tied in ranked({k: credited[k] for k in listed - unranked - waiting})}
    assert {k: (r.rank, r.tied) for k, r in by_key.items() if k not in unranked | waiting} == expected
    assert all(by_key[k].rank is None and not by_key[k].ranked for k in listed & (unranked | waiting))
    part = [0 if r.key not in unranked | waiting else 1 if r.key in unranked else 2 for r in rows]
    assert part == sorted(part), "ranked, then substitutes, then those that have played nothing yet"
    for k in listed:
        assert (by_key[k].points, by_key[k].sit_out_points, by_key[k].sit_out_sets) == (
            credited[k][0], credit[k], sat_out.get(k, 0))
