"""docs/scoring.md, "Fouled sets and reserve walls": fouled sets and play versions (the Laws of Duplicate Bridge, Law 87 and Law 12C,
adapted: docs/scoring.md, "Fouled sets and reserve walls").

The pure rule (:func:`scoring.comparisons.versioned_scores`) is checked against numbers worked
out by hand below; the services (:func:`scoring.actions.fouled.mark_fouled`, ``clear_fouled``,
``play_versions``) on a played 4-team event whose set-1 results are typed; the traveller, its
director's form and the export for what they show and to whom."""

from __future__ import annotations

import pytest
from django.urls import reverse
from factories import client_for, demo_roster, play_up_to, prepared_event
from hypothesis import given
from hypothesis import strategies as st

from scoring.actions.confirmation import confirm_result
from scoring.actions.entry import submit_result
from scoring.actions.errors import ResultError
from scoring.actions.fouled import clear_fouled, mark_fouled
from scoring.actions.rescoring import play_versions, rescore_set
from scoring.comparisons import (
    SeatResult,
    converted_scores,
    version_labels,
    versioned_scores,
)
from scoring.conversion import MCR_MP
from scoring.models import FouledPlay, SetRelease, SetScore
from tournament.exchange import export_event, import_event, public_export
from tournament.models import AuditEntry, Event, Player, Table
from walls.models import ReserveWall, WallSet

SEATS = ("E", "S", "W", "N")
# One group of 4 teams on 4 tables, seats as a Latin square (each team holds every seat once).
LATIN = {1: "ABCD", 2: "BCDA", 3: "CDAB", 4: "DABC"}
# Each table's score changes on the set (zero-sum, MCR points).
CHANGES = {
    1: {"E": 30, "S": -12, "W": -9, "N": -9},
    2: {"E": 6, "S": 12, "W": -9, "N": -9},
    3: {"E": -12, "S": 30, "W": -9, "N": -9},
    4: {"E": 48, "S": -16, "W": -16, "N": -16},
}


def _rows(changes=CHANGES, latin=LATIN) -> list[SeatResult]:
    """The comparison of the hand-worked examples: player key = (table, seat), team = a letter."""
    return [SeatResult(1, 1, 1, table, seat, (table, seat), latin[table][i], changes[table][seat])
            for table in sorted(changes) for i, seat in enumerate(SEATS)]


def _by_key(scores):
    return {s.key: s for s in scores}


# --- the pure rule --------------------------------------------------------------------------------------

def test_a_version_at_a_single_table_gets_the_adjusted_score_team_method():
    # Table 4 fouled alone (F1); tables 1-3 as prepared. Seat datums over tables 1-3:
    # E (30+6-12)/3 = 8, S (-12+12+30)/3 = 10, W = N = -9.
    # Members' differences: T1 A(E) +22, B(S) -22, C(W) 0, D(N) 0; T2 B(E) -2, C(S) +2, D, A 0;
    # T3 C(E) -20, D(S) +20, A, B 0; T4 everyone counts as the datum (0).
    # Teams: A +22, B -24, C -18, D +20 → MCR MP 2, -3, -2, 2; every team had a member at T4.
    # Totals: A 30-9-9-16 = -4, B -12+6-9-16 = -31, C -9+12-12-16 = -25, D -9-9+30+48 = 60.
    scores = _by_key(versioned_scores(_rows(), {4: "F1"}, MCR_MP, by_team=True))
    assert {k: (s.score_change, s.converted.difference, s.converted.points) for k, s in scores.items()} == {
        "A": (-4, 22, 2), "B": (-31, -24, -3), "C": (-25, -18, -2), "D": (60, 20, 2)}
    assert {k: s.converted.datum for k, s in scores.items()} == {"A": -26, "B": -7, "C": -7, "D": 40}
    assert all(s.adjusted and s.version == "*" and s.seat is None for s in scores.values())
    # The adjusted score is added once per team: +3 → 5, 0, 1, 5.
    plus = _by_key(versioned_scores(_rows(), {4: "F1"}, MCR_MP, by_team=True, adjusted_points=3))
    assert {k: s.converted.points for k, s in plus.items()} == {"A": 5, "B": 0, "C": 1, "D": 5}
    # Unversioned, the same results give A -4 → 0, B -31 → -3, C -25 → -3, D +60 → 7 (datum 0).
    plain = _by_key(converted_scores(_rows(), MCR_MP, by_team=True))
    assert {k: s.converted.points for k, s in plain.items()} == {"A": 0, "B": -3, "C": -3, "D": 7}


def test_a_version_at_a_single_table_gets_the_adjusted_score_individual_method():
    scores = _by_key(versioned_scores(_rows(), {4: "F1"}, MCR_MP, by_team=False, adjusted_points=-1))
    # Tables 1-3 against their seat's datum (E 8, S 10, W -9, N -9): +22 → 2, -22 → -2, -2 → 0,
    # +2 → 0, -20 → -2, +20 → 2, W and N 0.
    compared = {(1, "E"): 2, (1, "S"): -2, (2, "E"): 0, (2, "S"): 0, (3, "E"): -2, (3, "S"): 2,
                (1, "W"): 0, (1, "N"): 0, (2, "W"): 0, (2, "N"): 0, (3, "W"): 0, (3, "N"): 0}
    for key, points in compared.items():
        assert (scores[key].converted.points, scores[key].adjusted, scores[key].version) == (points, False, "")
    assert scores[(1, "E")].converted.datum == 8 and scores[(3, "S")].converted.difference == 20
    for seat in SEATS:  # table 4: the artificial adjusted score, its own change as datum
        s = scores[(4, seat)]
        assert (s.converted.points, s.converted.difference, s.converted.datum, s.adjusted, s.version, s.seat) == \
               (-1, 0, CHANGES[4][seat], True, "F1", seat)


def test_two_versions_each_at_two_tables_are_compared_separately():
    versions = {3: "F1", 4: "F1"}
    # As prepared (T1, T2): E (30+6)/2 = 18, S 0, W = N = -9. F1 (T3, T4): E (-12+48)/2 = 18,
    # S (30-16)/2 = 7, W = N = -12.5.
    # T1 A(E) +12, B(S) -12, C, D 0; T2 B(E) -12, C(S) +12, D, A 0;
    # T3 C(E) -30, D(S) +23, A(W) +3.5, B(N) +3.5; T4 D(E) +30, A(S) -23, B(W) -3.5, C(N) -3.5.
    # Teams: A 12+3.5-23 = -7.5 → 0; B -12-12+3.5-3.5 = -24 → -3; C 12-30-3.5 = -21.5 → -2;
    # D 23+30 = 53 → 6.
    teams = _by_key(versioned_scores(_rows(), versions, MCR_MP, by_team=True))
    assert {k: (s.converted.difference, s.converted.points) for k, s in teams.items()} == {
        "A": (-7.5, 0), "B": (-24, -3), "C": (-21.5, -2), "D": (53, 6)}
    assert not any(s.adjusted for s in teams.values()) and {s.version for s in teams.values()} == {"*"}
    players = _by_key(versioned_scores(_rows(), versions, MCR_MP, by_team=False))
    assert {k: s.converted.points for k, s in players.items() if s.converted.points} == {
        (1, "E"): 1, (1, "S"): -1, (2, "E"): -1, (2, "S"): 1, (3, "E"): -3, (3, "S"): 2, (4, "E"): 3, (4, "S"): -2}
    assert players[(3, "W")].converted.datum == -12.5 and players[(3, "W")].converted.difference == 3.5
    assert {k: s.version for k, s in players.items() if k[0] >= 3} == {(t, seat): "F1" for t in (3, 4) for seat in SEATS}
    # With 3 tables needed, both versions are too small: every player gets the adjusted score.
    small = versioned_scores(_rows(), versions, MCR_MP, by_team=False, min_tables=3, adjusted_points=2)
    assert all(s.adjusted and s.converted.points == 2 for s in small)


def test_one_version_is_exactly_the_plain_comparison_labelled():
    for by_team in (True, False):
        plain = converted_scores(_rows(), MCR_MP, "butler", by_team=by_team)
        same = versioned_scores(_rows(), {t: "R1" for t in CHANGES}, MCR_MP, "butler", by_team=by_team, min_tables=9)
        assert [(s.key, s.score_change, s.converted, s.seat) for s in same] == \
               [(s.key, s.score_change, s.converted, s.seat) for s in plain]
        assert {(s.version, s.adjusted) for s in same} == {("R1", False)}


def test_a_version_needs_a_positive_table_count_and_rows():
    with pytest.raises(ValueError, match="min_tables"):
        versioned_scores(_rows(), {4: "F1"}, MCR_MP, by_team=True, min_tables=0)
    with pytest.raises(ValueError, match="at least one result"):
        versioned_scores([], {}, MCR_MP, by_team=True)


def test_a_fouled_mark_wins_over_a_reserve_wall():
    assert version_labels([(1, 1), (2, 1), (2, 2)], [(1, 1), (3, 2)]) == {1: "F1", 2: "R2", 3: "F2"}
    assert version_labels([], []) == {}


changes_strategy = st.lists(st.lists(st.integers(-300, 300), min_size=4, max_size=4), min_size=4, max_size=4)


@given(changes_strategy, st.sampled_from(["average", "butler"]), st.booleans())
def test_without_marks_the_scores_are_the_plain_comparison(values, method, by_team):
    rows = _rows({t: dict(zip(SEATS, values[t - 1])) for t in range(1, 5)})
    plain = converted_scores(rows, MCR_MP, method, by_team=by_team)
    for versions in ({}, {1: "", 2: "", 3: "", 4: ""}):
        assert versioned_scores(rows, versions, MCR_MP, method, by_team=by_team) == plain


@given(changes_strategy, st.lists(st.sampled_from(["", "F1", "R1"]), min_size=4, max_size=4))
def test_compared_team_differences_sum_to_zero_with_the_average_datum(values, labels):
    """Average datum, every version compared: each (version, seat) deviates from its own mean, so
    the teams' differences sum to 0 whatever the versions."""
    rows = _rows({t: dict(zip(SEATS, values[t - 1])) for t in range(1, 5)})
    scores = versioned_scores(rows, dict(zip(range(1, 5), labels)), MCR_MP, by_team=True, min_tables=1)
    assert abs(sum(s.converted.difference for s in scores)) < 1e-9
    assert not any(s.adjusted for s in scores)
    for s in scores:
        assert s.converted.datum + s.converted.difference == pytest.approx(s.score_change)


# --- services ---------------------------------------------------------------------------------------------

@pytest.fixture
def played(db, director):
    """A 4-team MCR event (one group, tables 1-4) with set 1 played at every table with
    :data:`CHANGES` (the table with the n-th lowest number gets CHANGES[n]); other sets played on
    the way are draws. Converted with the MCR MP table."""
    event = prepared_event(demo_roster(4), name="Fouled Cup", slug="fouled-cup", conversion="mcr-mp", sessions=1,
                           director=director)
    tables = list(Table.objects.filter(group__session__event=event).order_by("number"))
    index = {t.pk: i for i, t in enumerate(tables, 1)}

    def enter(table, set_no):
        changes = CHANGES[index[table.pk]] if set_no == 1 else dict.fromkeys(SEATS, 0)
        confirm_result(submit_result(table, set_no, changes=changes, actor="t"), actor="director", director=True)

    play_up_to(tables, 1, enter)
    return event, tables


def _team_points(event):
    return {s.team_id: (s.points, s.difference, s.datum, s.version, s.adjusted)
            for s in SetScore.objects.filter(event=event, session_number=1, set_no=1)}


def _team_diffs(tables, member_diffs):
    """Each team's difference: the sum of its members' differences ``{(table index, seat): d}``."""
    out = {}
    for i, table in enumerate(tables, 1):
        for a in table.seats.all():
            out[a.team_id] = out.get(a.team_id, 0) + member_diffs.get((i, a.seat), 0)
    return out


def test_marking_a_single_table_fouled_gives_every_team_an_adjusted_score(played):
    event, tables = played
    before = _team_points(event)
    assert len(before) == 4 and {v[3:] for v in before.values()} == {("", False)}
    fouled = mark_fouled(event, tables[3], 1, reason="two tiles swapped between piles", actor="director")
    assert fouled.label == "F1" and play_versions(event, 1, 1) == {tables[3].pk: "F1"}
    # Hand-worked above: tables 1-3 against seat datums E 8, S 10, W/N -9; table 4 counts as datum.
    diffs = _team_diffs(tables, {(1, "E"): 22, (1, "S"): -22, (2, "E"): -2, (2, "S"): 2, (3, "E"): -20, (3, "S"): 20})
    mp = {22: 2, -24: -3, -18: -2, 20: 2, -22: -2, 24: 3, 18: 2, -20: -2, 0: 0, -2: 0, 2: 0}
    after = _team_points(event)
    assert {team: row[:2] for team, row in after.items()} == {team: (mp[d], d) for team, d in diffs.items()}
    assert {row[3:] for row in after.values()} == {("*", True)}


def test_two_fouled_tables_in_one_version_are_compared_on_their_own_and_clearing_restores(played):
    event, tables = played
    before = _team_points(event)
    for table in tables[2:]:
        mark_fouled(event, table, 1, version=1, reason="the set was built from another rack", actor="director")
    diffs = _team_diffs(tables, {(1, "E"): 12, (1, "S"): -12, (2, "E"): -12, (2, "S"): 12, (3, "E"): -30, (3, "S"): 23,
                                 (3, "W"): 3.5, (3, "N"): 3.5, (4, "E"): 30, (4, "S"): -23, (4, "W"): -3.5, (4, "N"): -3.5})
    after = _team_points(event)
    assert sorted(row[1] for row in after.values()) == sorted(diffs.values())
    assert {team: row[1] for team, row in after.items()} == diffs
    assert not any(row[4] for row in after.values())
    for fouled in FouledPlay.objects.filter(event=event):
        clear_fouled(fouled, actor="director", reason="marked by mistake")
    assert _team_points(event) == before
    assert list(AuditEntry.objects.filter(event=event, action__startswith="fouled").values_list("action", flat=True)) == \
           ["fouled-marked", "fouled-marked", "fouled-cleared", "fouled-cleared"]
    cleared = AuditEntry.objects.filter(event=event, action="fouled-cleared").first()
    assert cleared.actor == "director" and cleared.detail["reason"] == "marked by mistake" and cleared.detail["set"] == 1


def test_marking_twice_is_idempotent_and_marking_again_updates(played):
    event, tables = played
    first = mark_fouled(event, tables[3], 1, reason="tiles seen", actor="director")
    scores = _team_points(event)
    again = mark_fouled(event, tables[3], 1, reason="tiles seen", actor="director")
    assert again.pk == first.pk and FouledPlay.objects.count() == 1 and _team_points(event) == scores
    assert AuditEntry.objects.filter(action="fouled-marked").count() == 1
    updated = mark_fouled(event, tables[3], 1, version="2", reason="tiles seen and swapped", actor="director")
    assert (updated.pk, updated.version, updated.label) == (first.pk, 2, "F2")
    entry = AuditEntry.objects.filter(action="fouled-marked").last()
    assert entry.detail == {"table": tables[3].number, "table_id": tables[3].pk, "session": 1, "set": 1, "version": 2,
                            "reason": "tiles seen and swapped", "previous_version": 1}
    clear_fouled(updated, actor="director")
    clear_fouled(updated, actor="director")  # already cleared: nothing happens
    assert AuditEntry.objects.filter(action="fouled-cleared").count() == 1


def test_bad_marks_are_refused_naming_the_field(played):
    event, tables = played
    with pytest.raises(ResultError) as missing:
        mark_fouled(event, tables[0], 1, reason="  ", actor="director")
    assert missing.value.field == "reason"
    for version in (0, "x", 100):
        with pytest.raises(ResultError) as bad:
            mark_fouled(event, tables[0], 1, version=version, reason="r", actor="director")
        assert bad.value.field == "version"
    hands = event.get_ruleset().hands_per_session
    with pytest.raises(ResultError) as unplayed:
        mark_fouled(event, tables[0], hands + 1, reason="r", actor="director")
    assert unplayed.value.field == "set" and f"Table {tables[0].number}" in unplayed.value.message
    other = prepared_event(demo_roster(4), name="Other Cup", slug="other-cup", sessions=1)
    with pytest.raises(ResultError) as foreign:
        mark_fouled(other, tables[0], 1, reason="r", actor="director")
    assert foreign.value.field == "table"
    assert not FouledPlay.objects.exists() and not AuditEntry.objects.filter(action="fouled-marked").exists()


def test_a_table_of_a_reserve_wall_plays_version_r1(played, client, director):
    event, tables = played
    piles = WallSet.objects.get(event=event, session_number=1, set_no=1).piles  # stands in for a derived reserve
    reserve = ReserveWall.objects.create(event=event, session_number=1, set_no=1, number=1, piles=piles,
                                         reason="tiles dropped", drawn_by="director")
    reserve.tables.add(tables[0])
    assert play_versions(event, 1, 1) == {tables[0].pk: "R1"}
    rescore_set(event, 1, 1)
    # R1 at one table only (fewer than 2): every team has a member there, so all are adjusted.
    assert {row[3:] for row in _team_points(event).values()} == {("*", True)}
    mark_fouled(event, tables[0], 1, reason="and then fouled", actor="director")
    assert play_versions(event, 1, 1) == {tables[0].pk: "F1"}
    clear_fouled(FouledPlay.objects.get(), actor="director")
    assert play_versions(event, 1, 1) == {tables[0].pk: "R1"}
    client.force_login(director)
    page = client.get(reverse("traveller", args=[event.slug, 1, 1])).content.decode()
    assert 'data-version="R1"' in page and "reserve wall R1" in page
    assert "each version played at 2 or more tables is compared on its own" in page


# --- pages and export ----------------------------------------------------------------------------------------

def test_the_director_marks_and_clears_on_the_traveller(played, director):
    event, tables = played
    Event.objects.filter(pk=event.pk).update(fouled_adjusted_points=3)
    client = client_for(director)
    url = reverse("traveller-fouled", args=[event.slug, 1, 1])
    page = client.get(reverse("traveller", args=[event.slug, 1, 1])).content.decode()
    assert page.count('name="action" value="mark"') == 4
    response = client.post(url, {"action": "mark", "table": tables[3].pk, "version": "1", "reason": ""}, follow=True)
    assert "reason: give the reason the set was fouled" in response.content.decode() and not FouledPlay.objects.exists()
    response = client.post(url, {"action": "mark", "table": tables[3].pk, "version": "1", "reason": "tiles exposed"},
                           follow=True)
    text = response.content.decode()
    assert FouledPlay.objects.get().reason == "tiles exposed"
    assert "fouled F1" in text and "tiles exposed" in text and "adjusted" in text
    assert "a version at fewer tables gets an artificial adjusted score of +3" in text
    fouled = FouledPlay.objects.get()
    client.post(url, {"action": "clear", "table": tables[3].pk})  # not confirmed: kept
    assert FouledPlay.objects.filter(pk=fouled.pk).exists()
    client.post(url, {"action": "clear", "table": tables[3].pk, "confirm": "yes"})
    assert not FouledPlay.objects.exists()
    assert {row[3:] for row in _team_points(event).values()} == {("", False)}


def test_a_player_cannot_mark_nor_see_the_marks_of_a_set_in_play(played, django_user_model):
    event, tables = played
    user = django_user_model.objects.create_user("player-one", password="pw-player-1")
    Player.objects.filter(pk=tables[0].seats.get(seat="E").player_id).update(user=user)
    client = client_for(user)
    url = reverse("traveller-fouled", args=[event.slug, 1, 1])
    assert client.post(url, {"action": "mark", "table": tables[0].pk, "reason": "mine"}).status_code == 403
    assert client_for().post(url, {"action": "mark", "table": tables[0].pk, "reason": "mine"}).status_code == 403
    assert not FouledPlay.objects.exists()
    # Set 1 is released; the set after it at table 1 is still in play elsewhere.
    assert SetRelease.objects.filter(event=event, session_number=1, set_no=1).exists()
    in_play = next(n for n in range(2, 17) if not SetRelease.objects.filter(event=event, set_no=n).exists())
    mark_fouled(event, tables[0], in_play, reason="secret-reason-in-play", actor="director")
    mark_fouled(event, tables[1], 1, reason="public-reason-released", actor="director")
    hidden = client.get(reverse("traveller", args=[event.slug, 1, in_play])).content.decode()
    assert "secret-reason-in-play" not in hidden and "fouled F1" not in hidden and "Law 87" not in hidden
    shown = client.get(reverse("traveller", args=[event.slug, 1, 1])).content.decode()
    assert "public-reason-released" in shown and "Mark fouled" not in shown
    exported = public_export(event)
    assert [(f["set"], f["reason"]) for f in exported["fouled"]] == [(1, "public-reason-released")]


def test_the_export_round_trip_keeps_fouled_marks_and_score_versions(played):
    event, tables = played
    Event.objects.filter(pk=event.pk).update(fouled_min_tables=3, fouled_adjusted_points=-2)
    event.refresh_from_db()
    mark_fouled(event, tables[3], 1, reason="tiles exposed", actor="director")
    before = export_event(event, include_secret=True)
    assert before["event"]["fouled_min_tables"] == 3 and before["event"]["fouled_adjusted_points"] == -2
    assert [(f["set"], f["table"], f["version"], f["reason"], f["marked_by"]) for f in before["fouled"]] == [
        (1, tables[3].number, 1, "tiles exposed", "director")]
    set1 = [s for s in before["scores"] if s["set"] == 1]
    assert len(set1) == 4 and {(s["version"], s["adjusted"]) for s in set1} == {("*", True)}
    Event.objects.filter(pk=event.pk).delete()
    restored = import_event(before)
    after = export_event(restored, include_secret=True)
    before.pop("exported_at"), after.pop("exported_at")
    assert after == before
    assert FouledPlay.objects.get(event=restored).marked_at.isoformat() == before["fouled"][0]["marked_at"]
