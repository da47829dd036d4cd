"""Acceptance of fouled sets (Law 87 adapted, docs/scoring.md): one version at a single table is
scored with the adjusted points, two tables in each version are compared on their own, clearing
the mark restores the scores, in the team and the individual method, and the marks and versions
round-trip through the export. Expected scores come from tests/oracles.py."""

from __future__ import annotations

import json
import random

import pytest
from acceptance import (
    LATIN,
    SET1,
    comparisons,
    current_rows,
    enter,
    new_event,
    random_changes,
    rows_of,
    team_scores,
)
from factories import (
    individual_roster,
    play_up_to,
    team_roster,
)
from oracles import (
    versioned_set_points,
)

from scoring.models import ConversionTable, SetScore
from tournament.exchange import export_event
from tournament.models import Event, Table

pytestmark = pytest.mark.django_db


# === fouled sets ===================================================================================================



@pytest.fixture
def fouled_event(director):
    """The group above with set 1 played and confirmed at all 4 tables (every earlier set of a
    table's block random); Law 87 parameters: 2 tables at least, 2 MP adjusted."""
    event = new_event(team_roster(4), sessions=1, director=director, slug="fouled")
    event.fouled_min_tables, event.fouled_adjusted_points = 2, 2
    event.save()
    tables = list(Table.objects.filter(group__session__event=event).order_by("number"))
    rng = random.Random(1)
    play_up_to(tables, 1, lambda table, s: enter(table, s, SET1[table.number] if s == 1 else random_changes(rng, "ESWN")))
    return event


def test_the_latin_square_is_the_documented_one(fouled_event):
    seating = comparisons(fouled_event)[(1, 1, 1)][0]
    assert {t: "".join("ABCD"[int(seating[t][s].split()[1]) - 1] for s in "ESWN") for t in seating} == LATIN


def test_fouled_play_at_one_table_gets_the_adjusted_score(fouled_event, director):
    from scoring.actions.fouled import mark_fouled

    event = fouled_event
    # As prepared: team totals A 32+48+40-40 = 80, B -16-16-24+120 = 64, C -8-16-8-40 = -72,
    # D -8-16-8-40 = -72; datum 0; mcr-mp: 80 and 64 -> 8, -72 -> -8.
    assert {n: (s.points, s.version, s.adjusted) for n, s in team_scores(event).items()} == {
        "Team 1": (8, "", False), "Team 2": (8, "", False), "Team 3": (-8, "", False), "Team 4": (-8, "", False)}
    table4 = Table.objects.get(group__session__event=event, number=4)
    fouled = mark_fouled(event, table4, 1, reason="two tiles of E's draw pile swapped", actor="director")
    assert fouled.label == "F1"
    # Tables 1-3 play the set as prepared (3 tables >= 2): seat datums E (32-16-8)/3 = 8/3,
    # S (-16+48-8)/3 = 8, W (-8-16+40)/3 = 16/3, N (-8-16-24)/3 = -16. Table 4's version has one
    # table: its member counts as the datum, the team is adjusted and gets 2 MP more.
    # A: (32-8/3) + (48-8) + (40-16/3) = 104 -> 9 MP, +2 = 11
    # B: (-16-8) + (-16-16/3) + (-24+16) = -53 1/3 -> -6, +2 = -4
    # C: (-8-16/3) + (-16+16) + (-8-8/3) = -24 -> -3, +2 = -1
    # D: (-8+16) + (-16-8/3) + (-8-8) = -26 2/3 -> -3, +2 = -1
    hand = {"Team 1": (11, 104), "Team 2": (-4, -53 - 1 / 3), "Team 3": (-1, -24), "Team 4": (-1, -26 - 2 / 3)}
    seating, changes = comparisons(event)[(1, 1, 1)]
    oracle = versioned_set_points(seating, changes, {4: "F1"}, rows_of(ConversionTable.objects.get(event=event, current=True)),
                                  by_team=True, min_tables=2, adjusted_points=2)
    assert {n: (p, pytest.approx(d)) for n, (p, d, _, _) in oracle.items()} == hand
    stored = team_scores(event)
    assert {n: (s.points, s.adjusted, s.version) for n, s in stored.items()} == {n: (p, True, "*") for n, (p, _) in hand.items()}
    assert {n: s.difference for n, s in stored.items()} == {n: pytest.approx(d) for n, (_, d) in hand.items()}
    assert {n: s.score_change for n, s in stored.items()} == {"Team 1": 80, "Team 2": 64, "Team 3": -72, "Team 4": -72}


def test_fouled_plays_at_two_tables_are_compared_on_their_own(fouled_event):
    from scoring.actions.fouled import mark_fouled

    event = fouled_event
    for number in (3, 4):
        mark_fouled(event, Table.objects.get(group__session__event=event, number=number), 1, reason="tiles exposed",
                    actor="director")
    # Version "" at tables 1-2: seat datums E 8, S 16, W -12, N -12; "F1" at tables 3-4: E 56,
    # S -24, W 0, N -32. A: 24 + 32 + 40 - 8 = 88 -> 9; B: -32 - 4 + 8 + 64 = 36 -> 4;
    # C: 4 - 4 - 64 - 16 = -80 -> -8; D: 4 - 24 + 16 - 40 = -44 -> -5. Nobody is adjusted.
    hand = {"Team 1": (9, 88), "Team 2": (4, 36), "Team 3": (-8, -80), "Team 4": (-5, -44)}
    seating, changes = comparisons(event)[(1, 1, 1)]
    oracle = versioned_set_points(seating, changes, {3: "F1", 4: "F1"}, current_rows(event), by_team=True, min_tables=2,
                                  adjusted_points=2)
    assert {n: (p, d) for n, (p, d, _, _) in oracle.items()} == hand
    stored = team_scores(event)
    assert {n: (s.points, round(s.difference, 6), s.adjusted, s.version) for n, s in stored.items()} == {
        n: (p, d, False, "*") for n, (p, d) in hand.items()}


def test_clearing_a_fouled_mark_restores_the_scores(fouled_event):
    from scoring.models import FouledPlay
    from scoring.actions.fouled import clear_fouled, mark_fouled
    from tournament.models import AuditEntry

    event = fouled_event

    def snapshot():
        return {n: (s.points, s.datum, s.difference, s.score_change, s.version, s.adjusted) for n, s in team_scores(event).items()}

    before = snapshot()
    table4 = Table.objects.get(group__session__event=event, number=4)
    fouled = mark_fouled(event, table4, 1, reason="tiles exposed", actor="director")
    again = mark_fouled(event, table4, 1, reason="tiles exposed and swapped", actor="director")
    assert FouledPlay.objects.filter(event=event).count() == 1 and again.reason == "tiles exposed and swapped"
    assert snapshot() != before
    clear_fouled(again, actor="director", reason="the set was checked and is right")
    assert not FouledPlay.objects.filter(pk=fouled.pk).exists()
    assert snapshot() == before
    actions = list(AuditEntry.objects.filter(event=event).values_list("action", flat=True))
    assert actions.count("fouled-marked") >= 1 and actions.count("fouled-cleared") == 1


def test_marking_fouled_needs_a_reason_and_a_table_playing_the_set(fouled_event, director):
    from scoring.actions.fouled import mark_fouled
    from tournament.errors import FieldError

    event = fouled_event
    table4 = Table.objects.get(group__session__event=event, number=4)
    with pytest.raises(FieldError) as err:
        mark_fouled(event, table4, 1, reason="  ", actor="director")
    assert err.value.field == "reason"
    with pytest.raises(FieldError):
        mark_fouled(event, table4, 99, reason="tiles exposed", actor="director")
    assert not event.fouled_plays.exists()


def test_fouled_play_in_the_individual_method(director):
    """16 players on 4 tables, set 1 played at all 4, table 4 fouled: players at tables 1-3 are
    compared with their seat's datum over those 3 tables; table 4's players get the event's
    adjusted score (3 MP), adjusted, version F1."""
    from scoring.actions.fouled import mark_fouled

    event = new_event(individual_roster(16), sessions=1, method="individual", director=director, slug="fouled-ind")
    event.fouled_adjusted_points = 3
    event.save()
    tables = list(Table.objects.filter(group__session__event=event).order_by("number"))
    rng = random.Random(2)
    play_up_to(tables, 1, lambda table, s: enter(table, s, SET1[table.number] if s == 1 else random_changes(rng, "ESWN")))
    mark_fouled(event, tables[3], 1, reason="a tile was dropped face up", actor="director")
    seating, changes = comparisons(event)[(1, 1, 1)]
    oracle = versioned_set_points(seating, changes, {4: "F1"}, current_rows(event), by_team=False, min_tables=2,
                                  adjusted_points=3)
    # by hand, table 1's East: 32 - 8/3 = 29 1/3 -> 3 MP; table 4's players: 3 MP adjusted
    assert oracle[seating[1]["E"]][:2] == (3, pytest.approx(32 - 8 / 3))
    stored = {s.player.name: (s.points, s.adjusted, s.version)
              for s in SetScore.objects.filter(event=event, set_no=1).select_related("player")}
    assert stored == {name: (p, adj, v) for name, (p, _, adj, v) in oracle.items()}
    assert {stored[seating[4][seat]] for seat in "ESWN"} == {(3, True, "F1")}


def test_fouled_marks_and_versions_round_trip_through_the_export(fouled_event):
    """The export names each score's version and adjusted flag, lists the fouled plays and the
    event's Law 87 parameters (docs/export.md); importing it restores them exactly."""
    from scoring.actions.fouled import mark_fouled
    from tournament.exchange import import_event

    event = fouled_event
    table4 = Table.objects.get(group__session__event=event, number=4)
    mark_fouled(event, table4, 1, reason="tiles exposed", actor="director")
    data = json.loads(json.dumps(export_event(event, include_secret=True)))
    assert (data["event"]["fouled_min_tables"], data["event"]["fouled_adjusted_points"]) == (2, 2)
    assert [{k: f[k] for k in ("session", "set", "table", "version", "reason", "marked_by")} for f in data["fouled"]] == [
        {"session": 1, "set": 1, "table": 4, "version": 1, "reason": "tiles exposed", "marked_by": "director"}]
    team_number = {t["name"]: t["number"] for t in data["teams"]}
    set1 = {s["team"]: (s["points"], s["version"], s["adjusted"]) for s in data["scores"] if s["set"] == 1}
    assert set1 == {team_number["Team 1"]: (11, "*", True), team_number["Team 2"]: (-4, "*", True),
                    team_number["Team 3"]: (-1, "*", True), team_number["Team 4"]: (-1, "*", True)}
    Event.objects.filter(pk=event.pk).delete()
    again = json.loads(json.dumps(export_event(import_event(data), include_secret=True)))
    data.pop("exported_at"), again.pop("exported_at")
    assert again == data
