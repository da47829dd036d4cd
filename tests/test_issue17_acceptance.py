"""docs/scoring.md acceptance: scores a director can defend.

Written from the issue ("What it must show") and the shared contract, not from the code: every
expected value is computed here by hand or by tests/oracles.py (which imports nothing of the
product), from the raw data the product stores (who sat where, the typed score changes, the
conversion table's rows).

- The three defects (``-k defect``; they fail on the code before the issue, commit 135321c):
  substitutes are ranked; the sit-out-average rule is not applied; conversion table versions mix
  after a save.
- Property tests over small random events (hypothesis): substitutes never hold a rank; a
  sit-out entrant's total is its mean per session played × the sessions planned; after saves
  of conversion tables interleaved with corrections no two scores name different versions.
- Fouled sets (Law 87 adapted): one version at a single table (adjusted), two tables in each
  version, clearing restores; team and individual method.
- Reserve walls: the derivation against a re-implementation of the contract's rule (checked on
  docs/walls.md's own vectors first), never the set it replaces, the verifier catching one
  changed reserve tile in an export.

Names new with docs/scoring.md, "Fouled sets and reserve walls" are imported inside the tests, so that the defect tests can be run against
the code before the issue (where those names do not exist yet).
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import random
import re
from collections import defaultdict
from pathlib import Path

import pytest
from django.test import Client
from factories import individual_roster, play_up_to, prepared_event, team_roster
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracles import (
    convert_by_range,
    derived_wall,
    individual_set_points,
    laid_out,
    ranked,
    reserve_wall,
    round_half_away,
    tally,
    team_set_points,
    versioned_set_points,
    wall_effective_key,
    wall_fingerprint,
)

from scoring.actions.confirmation import confirm_result, correct_result
from scoring.actions.entry import submit_result
from scoring.conversion import ConversionTable as PlainTable
from scoring.conversion import get_table
from scoring.models import ConversionTable, HandResult, SetScore
from scoring.reports import cached_standings, event_standings
from tournament.exchange import export_event, public_export
from tournament.models import Event, SeatAssignment, Table
from tournament.services import table_schedule

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent
FEW = settings(max_examples=8, deadline=None, derandomize=True,
               suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
_SLUGS = itertools.count(1)


# --- building and playing events ----------------------------------------------------------------------


def new_event(roster: str, *, prepare=(1,), **fields) -> Event:
    """An event made as a director makes one (tests/factories.py), converted with ``mcr-mp``
    unless told otherwise, under a slug no other example of the run uses."""
    fields.setdefault("conversion", "mcr-mp")
    fields.setdefault("name", "Issue 17")
    fields["slug"] = f"{fields.pop('slug', 'i17')}-{next(_SLUGS)}"
    return prepared_event(roster, prepare=prepare, **fields)


def random_changes(rng: random.Random, seats) -> dict:
    """Plain MCR payments (docs/scoring.md, ``mcr``; zero-sum) for any number of seats: a draw,
    a self-draw (each other seat pays 8+fan) or a discard win (the discarder 8+fan, each other
    seat 8)."""
    roll = rng.random()
    if roll < 0.1:
        return dict.fromkeys(seats, 0)
    winner, fan = rng.choice(seats), rng.choice((8, 8, 9, 12, 16, 24, 32, 48, 64, 88))
    if roll < 0.35:
        return {s: (len(seats) - 1) * (8 + fan) if s == winner else -(8 + fan) for s in seats}
    discarder = rng.choice([s for s in seats if s != winner])
    return {s: (8 + fan) + 8 * (len(seats) - 2) if s == winner else -(8 + fan) if s == discarder else -8 for s in seats}


def enter(table: Table, set_no: int, changes: dict) -> HandResult:
    """``changes`` typed at ``table`` on ``set_no`` and confirmed by the director."""
    result = submit_result(table, set_no, changes=changes, actor="i17")
    return confirm_result(result, actor="i17", director=True)


def play_session(event: Event, session: int, rng: random.Random) -> None:
    """Every table of ``session`` enters and the director confirms a random result on every set,
    each table in its movement order."""
    seats = tuple(event.get_ruleset().seats)
    for table in Table.objects.filter(group__session__event=event, group__session__number=session).order_by("number"):
        for _, sets in table_schedule(table):
            for set_no in sets:
                enter(table, set_no, random_changes(rng, seats))


def sets_per_session(event: Event) -> int:
    table = Table.objects.filter(group__session__event=event).first()
    return sum(len(sets) for _, sets in table_schedule(table))


# --- the raw data and the oracle's scores ---------------------------------------------------------------


def comparisons(event: Event) -> dict:
    """The event's complete comparisons, read from what it stores (seats and confirmed typed
    changes): ``{(session, set, group number or None): (seating {table number: {seat: entrant
    name}}, changes {table number: {seat: change}})}``; the entrant is the team (team method) or
    the player. Group None when the whole field is compared."""
    by_team = event.method == Event.Method.TEAM
    field = event.comparison == Event.Comparison.FIELD
    seating: dict = defaultdict(dict)  # table pk -> {seat: entrant}
    scope_tables: dict = defaultdict(set)
    where, number = {}, {}
    for a in SeatAssignment.objects.filter(table__group__session__event=event).select_related(
            "table__group__session", "team", "player"):
        t = a.table
        seating[t.pk][a.seat] = a.team.name if by_team else a.player.name
        scope = (t.group.session.number, None if field else t.group.number)
        scope_tables[scope].add(t.pk)
        where[t.pk], number[t.pk] = scope, t.number
    results: dict = defaultdict(dict)
    for r in HandResult.objects.filter(event=event, status=HandResult.Status.CONFIRMED):
        session, group = where[r.table_id]
        results[(session, r.set_no, group)][r.table_id] = {k: int(v) for k, v in r.changes.items()}
    out = {}
    for (session, set_no, group), changes in results.items():
        if set(changes) == scope_tables[(session, group)]:
            out[(session, set_no, group)] = ({number[t]: seating[t] for t in changes},
                                             {number[t]: c for t, c in changes.items()})
    return out


def rows_of(table_model: ConversionTable) -> list[dict]:
    return [dict(r) for r in table_model.rows]


def oracle_scores(event: Event, rows) -> dict:
    """``{(session, set, group): {entrant name: (score change, points)}}`` by the method (docs/rules.md, "Duplicate MCR: team event") of
    the event (tests/oracles.py) with the conversion ``rows``."""
    out = {}
    for scope, (seating, changes) in comparisons(event).items():
        if event.method == Event.Method.TEAM:
            out[scope] = team_set_points(seating, changes, rows, event.datum_method)
        else:
            out[scope] = individual_set_points(seating, changes, rows, event.datum_method)
    return out


def oracle_tallies(event: Event, rows, sessions=None) -> dict:
    """``{entrant name: (points, score total, positive sets)}`` over the complete comparisons (of
    ``sessions`` only, when given)."""
    results = [(name, points, change) for (session, _, _), scores in oracle_scores(event, rows).items()
               if sessions is None or session in sessions for name, (change, points) in scores.items()]
    return tally(results)


def current_rows(event: Event) -> list[dict]:
    return rows_of(ConversionTable.objects.get(event=event, current=True))


def substitutes(event: Event) -> set[str]:
    if event.method == Event.Method.TEAM:
        return set(event.teams.filter(substitute=True).values_list("name", flat=True))
    return set(event.players.filter(substitute=True).values_list("name", flat=True))


# --- the standings on every surface -----------------------------------------------------------------------


def _rank(value):
    if value in (None, ""):
        return None
    return int(str(value).rstrip("="))


def standings_surfaces(event: Event) -> dict[str, list[dict]]:
    """The standings of ``event`` as each surface gives them, as ``[{"name", "rank", "points"}]``
    (rank None when not ranked): the report rows (uncached and cached), the API, the CSV, the
    export's and the public export's ``standings``."""
    client = Client()
    api = client.get(f"/api/events/{event.slug}/standings/")
    assert api.status_code == 200, api.content[:300]
    response = client.get(f"/e/{event.slug}/standings.csv")
    assert response.status_code == 200
    text = b"".join(response.streaming_content).decode() if response.streaming else response.content.decode()
    entrant = "Team" if event.method == Event.Method.TEAM else "Player"
    csv_rows = [{"name": r[entrant], "rank": _rank(r["Rank"]), "points": int(r["Points"])}
                for r in csv.DictReader(io.StringIO(text.lstrip("\ufeff")))]

    def plain(rows):
        return [{"name": r["name"], "rank": _rank(r["rank"]), "points": r["points"]} for r in rows]

    return {
        "report": plain(event_standings(event)),
        "cached": plain(cached_standings(event)),
        "api": plain(api.json()),
        "csv": csv_rows,
        "export": plain(export_event(event)["standings"]),
        "public export": plain(public_export(event)["standings"]),
    }


# === the three defects =========================================================================================


def test_defect_substitutes_are_not_ranked_anywhere(director):
    """5 teams, substitutes policy: 3 substitute teams fill two groups of 4. No substitute holds a
    rank on any surface; the 5 real teams are ranked 1..5 among themselves by the documented
    tie-break over their own results; the substitutes stay listed (their results make the datum)."""
    event = new_event(team_roster(5), sessions=1, entrant_policy=Event.EntrantPolicy.SUBSTITUTES, director=director,
                      slug="five-subs")
    subs = substitutes(event)
    assert len(subs) == 3 and event.teams.count() == 8
    play_session(event, 1, random.Random(17))
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
    play_session(event, 1, rng)
    play_session(event, 2, rng)
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
    play_session(event, 1, random.Random(3))
    first = ConversionTable.objects.get(event=event, current=True)
    before = oracle_scores(event, rows_of(first))
    assert len(before) == 16
    new_rows = [{"from": 0, "to": 3, "points": 0}, {"from": 4, "to": 19, "points": 2}, {"from": 20, "to": 59, "points": 5},
                {"from": 60, "to": None, "points": 11}]
    saved = save_table_version(event, PlainTable.from_rows(new_rows, name="Steep MP", source="issue 17 test"))
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
    play_session(event, 1, random.Random(9))
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
    play_session(event, 1, random.Random(4))
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
    play_session(event, 1, random.Random(8))
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
    play_session(event, 1, random.Random(seed))
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
        play_session(event, session, rng)
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
    play_session(event, 1, rng)
    for op in ops:
        if op[0] == "save":
            save_table_version(event, PlainTable.from_rows(op[1], name="Random table"))
        else:
            choice = random.Random(op[1])
            result = choice.choice(list(HandResult.objects.filter(event=event).order_by("pk")))
            correct_result(result, actor="i17", reason="typing error", director=True,
                           changes=random_changes(choice, tuple(event.get_ruleset().seats)))
        current = ConversionTable.objects.get(event=event, current=True)
        named = set(SetScore.objects.filter(event=event).values_list("conversion_table_id", flat=True))
        assert named == {current.pk}, f"after {op[0]}: scores name tables {named}, the current is {current.pk}"
    expected = oracle_scores(event, rows_of(current))
    for s in SetScore.objects.filter(event=event).select_related("team", "group"):
        assert s.points == expected[(s.session_number, s.set_no, s.group.number)][s.team.name][1]


# === fouled sets ===================================================================================================

# One group of 4 teams (A-D = Team 1-4), session 1 seated by the Latin square of docs/seating.md:
# table 1: E A, S B, W C, N D; table 2: E D, S A, W B, N C; table 3: E C, S D, W A, N B;
# table 4: E B, S C, W D, N A. The results of set 1 (plain MCR payments, zero-sum):
SET1 = {
    1: {"E": 32, "S": -16, "W": -8, "N": -8},     # E wins 8 fan on S's discard
    2: {"E": -16, "S": 48, "W": -16, "N": -16},   # S self-draws 8 fan
    3: {"E": -8, "S": -8, "W": 40, "N": -24},     # W wins 16 fan on N's discard
    4: {"E": 120, "S": -40, "W": -40, "N": -40},  # E self-draws 32 fan
}
LATIN = {1: "ABCD", 2: "DABC", 3: "CDAB", 4: "BCDA"}


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


def _team_scores(event, set_no=1) -> dict:
    return {s.team.name: s for s in SetScore.objects.filter(event=event, set_no=set_no).select_related("team")}


def test_the_latin_square_is_the_documented_one(fouled_event):
    seating = comparisons(fouled_event)[(1, 1, 1)][0]
    assert {t: "".join("ABCD"[int(seating[t][s].split()[1]) - 1] for s in "ESWN") for t in seating} == LATIN


def test_fouled_play_at_one_table_gets_the_adjusted_score(fouled_event, director):
    from scoring.actions.fouled import mark_fouled

    event = fouled_event
    # As prepared: team totals A 32+48+40-40 = 80, B -16-16-24+120 = 64, C -8-16-8-40 = -72,
    # D -8-16-8-40 = -72; datum 0; mcr-mp: 80 and 64 -> 8, -72 -> -8.
    assert {n: (s.points, s.version, s.adjusted) for n, s in _team_scores(event).items()} == {
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
    stored = _team_scores(event)
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
    stored = _team_scores(event)
    assert {n: (s.points, round(s.difference, 6), s.adjusted, s.version) for n, s in stored.items()} == {
        n: (p, d, False, "*") for n, (p, d) in hand.items()}


def test_clearing_a_fouled_mark_restores_the_scores(fouled_event):
    from scoring.actions.fouled import clear_fouled, mark_fouled
    from scoring.models import FouledPlay
    from tournament.models import AuditEntry

    event = fouled_event

    def snapshot():
        return {n: (s.points, s.datum, s.difference, s.score_change, s.version, s.adjusted) for n, s in _team_scores(event).items()}

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


# === reserve walls ===================================================================================================

DOC = (ROOT / "docs" / "walls.md").read_text(encoding="utf-8")
MCR_JSON = json.loads(re.search(r"```json\n(.*?)\n\s*```", DOC, re.DOTALL).group(1))
MCR_TILES, MCR_PILES = MCR_JSON["tiles"], MCR_JSON["piles"]
SMALL_TILES, SMALL_PILES = [["1m", 2], ["2m", 1], ["3m", 1]], [["E-hand", 2], ["S-hand", 2]]


def _vectors():
    out = []
    for block in re.findall(r"```vector\n(.*?)```", DOC, re.DOTALL):
        fields = {}
        for line in block.strip().splitlines():
            key, _, value = line.partition(":")
            fields[key.strip()] = value.strip()
        out.append(fields)
    return out


def test_the_wall_oracle_reproduces_the_documented_vectors():
    """The re-implementation reserve walls are checked with must first reproduce docs/walls.md."""
    checked = 0
    for v in _vectors():
        if v.get("reserve") or "reserve" in v or "rule set" in v and v["rule set"] != "mcr-duplicate":
            continue
        public = None if v["public value"] == "(none)" else v["public value"]
        if "tiles" in v:
            tiles, piles = json.loads(v["tiles"]), json.loads(v["piles"])
        else:
            tiles, piles = MCR_TILES, MCR_PILES
        assert wall_effective_key(v["seed"], public).hex() == v["effective key"]
        assert wall_fingerprint(tiles, piles) == v["fingerprint"]
        wall = derived_wall(v["seed"], v["event uid"], int(v["session"]), int(v["set"]), tiles, piles, public)
        if "wall" in v:
            assert " ".join(wall) == v["wall"]
        laid = laid_out(wall, piles)
        for name, tiles_text in v.items():
            if name.endswith(" 1-5"):
                assert " ".join(laid[name.removesuffix(" 1-5")][:5]) == tiles_text
        checked += 1
    assert checked >= 4


RESERVE_CASES = [
    ("00" * 32, "demo", 1, 1, 1, None, "small"),
    ("00" * 32, "demo", 1, 1, 2, None, "small"),
    ("0123456789abcdef" * 4, "demo", 2, 5, 1, "DJIA close 2025-01-31: 44544.66", "mcr"),
    ("0123456789abcdef" * 4, "sanya-2015", 1, 16, 3, None, "mcr"),
]


def _derive_reserve(seed, uid, session, set_no, reserve, tiles, piles, public):
    """The product's reserve wall (walls.derivation.derive_reserve), called by keyword."""
    from walls.derivation import derive_reserve

    return list(derive_reserve(seed_hex=seed, event_uid=uid, session=session, set_no=set_no, reserve=reserve, tiles=tiles,
                               piles=piles, public_value=public))


@pytest.mark.parametrize("case", RESERVE_CASES, ids=lambda c: f"{c[1]}-{c[2]}-{c[3]}-R{c[4]}-{c[6]}")
def test_reserve_derivation_follows_the_documented_rule(case):
    from walls.derivation import reserve_wall_key

    seed, uid, session, set_no, reserve, public, kind = case
    tiles, piles = (SMALL_TILES, SMALL_PILES) if kind == "small" else (MCR_TILES, MCR_PILES)
    key = wall_effective_key(seed, public)
    fingerprint = wall_fingerprint(tiles, piles)
    message = f"dmj-reserve-v1|{uid}|{session}|{set_no}|{reserve}|0|{fingerprint}".encode()
    import hashlib
    import hmac

    assert reserve_wall_key(key, uid, session, set_no, reserve, 0, fingerprint) == hmac.new(key, message, hashlib.sha256).digest()
    want = reserve_wall(seed, uid, session, set_no, reserve, tiles, piles, public)
    assert _derive_reserve(seed, uid, session, set_no, reserve, tiles, piles, public) == want
    assert want != derived_wall(seed, uid, session, set_no, tiles, piles, public)


def test_docs_reserve_vectors_agree_with_the_independent_rule():
    """docs/walls.md's "Reserve walls" vectors (```vector blocks naming a reserve) give the keys,
    the rejected attempts and the walls the independent re-implementation derives."""
    import hashlib
    import hmac

    from oracles import keyed_shuffle

    vectors = [v for v in _vectors() if "reserve" in v]
    assert len(vectors) >= 3, "docs/walls.md needs reserve wall vectors"
    assert any("rejected" in v for v in vectors), "a vector should show a rejected attempt"
    for v in vectors:
        public = None if v["public value"] == "(none)" else v["public value"]
        if "tiles" in v:
            tiles, piles = json.loads(v["tiles"]), json.loads(v["piles"])
        else:
            assert v.get("rule set", "mcr-duplicate") == "mcr-duplicate"
            tiles, piles = MCR_TILES, MCR_PILES
        session, set_no, reserve = int(v["session"]), int(v["set"]), int(v["reserve"])
        set_wall = derived_wall(v["seed"], v["event uid"], session, set_no, tiles, piles, public)
        if "set wall" in v:
            assert " ".join(set_wall) == v["set wall"]
        key = wall_effective_key(v["seed"], public)
        fingerprint = wall_fingerprint(tiles, piles)

        def attempt_key(a, v=v, session=session, set_no=set_no, reserve=reserve, key=key, fingerprint=fingerprint):
            message = f"dmj-reserve-v1|{v['event uid']}|{session}|{set_no}|{reserve}|{a}|{fingerprint}"
            return hmac.new(key, message.encode(), hashlib.sha256).digest()

        assert attempt_key(int(v["attempt"])).hex() == v["reserve key"]
        earlier = [reserve_wall(v["seed"], v["event uid"], session, set_no, r, tiles, piles, public) for r in range(1, reserve)]
        multiset = [c for c, n in tiles for _ in range(n)]
        for a in v.get("rejected", "").split():
            assert keyed_shuffle(multiset, attempt_key(int(a))) in [set_wall, *earlier], f"attempt {a} was rejected"
        wall = reserve_wall(v["seed"], v["event uid"], session, set_no, reserve, tiles, piles, public)
        assert wall == keyed_shuffle(multiset, attempt_key(int(v["attempt"])))
        if "wall" in v:
            assert " ".join(wall) == v["wall"]
        laid = laid_out(wall, piles)
        for name, text in v.items():
            if name.endswith(" 1-5") or name in laid:
                assert " ".join(laid[name.removesuffix(" 1-5")][:5 if name.endswith(" 1-5") else None]) == text, name


def test_a_reserve_needing_more_arrangements_than_exist_is_refused():
    """Two 1m and a 2m lay out 3 ways: the set's wall, R1 and R2; R3 cannot differ (docs/walls.md)."""
    from walls.derivation import DerivationError

    tiles, piles = [["1m", 2], ["2m", 1]], [["E-hand", 1], ["S-hand", 2]]
    walls = [derived_wall("00" * 32, "demo", 1, 1, tiles, piles)]
    walls += [_derive_reserve("00" * 32, "demo", 1, 1, r, tiles, piles, None) for r in (1, 2)]
    assert sorted(map(tuple, walls)) == [("1m", "1m", "2m"), ("1m", "2m", "1m"), ("2m", "1m", "1m")]
    with pytest.raises(DerivationError):
        _derive_reserve("00" * 32, "demo", 1, 1, 3, tiles, piles, None)


@settings(max_examples=25, deadline=None)
@given(seed=st.binary(min_size=32, max_size=32), set_no=st.integers(1, 16), reserves=st.integers(1, 2))
def test_property_reserve_wall_never_equals_the_set_it_replaces(seed, set_no, reserves):
    """A 4-tile multiset has only 12 orders, so a first attempt often repeats the set's wall:
    the reserve must still differ from the set's wall and from every earlier reserve."""
    seed_hex = seed.hex()
    original = derived_wall(seed_hex, "tiny", 1, set_no, SMALL_TILES, SMALL_PILES)
    walls = [original]
    for reserve in range(1, reserves + 1):
        wall = _derive_reserve(seed_hex, "tiny", 1, set_no, reserve, SMALL_TILES, SMALL_PILES, None)
        assert wall not in walls
        assert wall == reserve_wall(seed_hex, "tiny", 1, set_no, reserve, SMALL_TILES, SMALL_PILES)
        walls.append(wall)


def test_no_reserve_wall_exists_for_a_single_tile_kind():
    from walls.derivation import DerivationError

    with pytest.raises(DerivationError):
        _derive_reserve("00" * 32, "demo", 1, 1, 1, [["1m", 4]], [["E-hand", 2], ["S-hand", 2]], None)


@pytest.fixture
def reserve_export(director):
    """An event with a reserve wall drawn for session 1, set 3 (tournament.services.draw_reserve),
    exported with its seed."""
    from tournament.services import draw_reserve

    event = new_event(team_roster(4), sessions=1, director=director, slug="reserve")
    reserve = draw_reserve(event, 1, 3, reason="tiles dropped and seen", actor="director")
    assert reserve.label == "R1"
    return event, export_event(event, include_secret=True)


def test_an_exported_reserve_wall_is_the_documented_derivation(reserve_export):
    _, data = reserve_export
    (entry,) = data["walls"]["reserves"]
    assert (entry["session"], entry["set"], entry["reserve"]) == (1, 3, 1)
    tiles = [list(t) for t in data["ruleset"]["tiles"]]
    piles = [[p["name"], p["size"]] for p in data["ruleset"]["piles"]]
    want = reserve_wall(data["walls"]["seed"], data["event"]["uid"], 1, 3, 1, tiles, piles, data["walls"]["public_value"])
    assert entry["piles"] == laid_out(want, piles)
    original = next(w for w in data["walls"]["sets"] if (w["session"], w["set"]) == (1, 3))
    assert entry["piles"] != original["piles"]


def test_the_verifier_catches_one_changed_reserve_tile(reserve_export):
    from walls.verify import verify_export

    _, data = reserve_export
    seed = data["walls"]["seed"]
    untouched = verify_export(data, seed)
    assert untouched.ok and not untouched.mismatches
    spoiled = json.loads(json.dumps(data))
    pile = next(iter(spoiled["walls"]["reserves"][0]["piles"].values()))
    was = pile[4]
    pile[4] = next(t for t in ("1m", "2m", "3z") if t != was)
    report = verify_export(spoiled, seed)
    assert not report.ok
    assert [(m.session, m.set_no, m.reserve, m.expected, m.found) for m in report.mismatches] == [(1, 3, 1, was, pile[4])]


def test_the_public_export_holds_no_reserve_of_an_unreleased_set(reserve_export):
    event, _ = reserve_export
    data = public_export(event)
    assert data["walls"]["reserves"] == []
    assert data["walls"]["sets"] == []


def test_a_reserve_wall_moves_its_tables_to_its_version(director):
    """Tables given a reserve wall play version R1 (scoring.actions.rescoring.play_versions); a fouled mark
    wins over the reserve wall."""
    from scoring.actions.fouled import mark_fouled
    from scoring.actions.rescoring import play_versions
    from tournament.services import draw_reserve

    event = new_event(team_roster(4), sessions=1, director=director, slug="reserve-tables")
    tables = list(Table.objects.filter(group__session__event=event).order_by("number"))
    draw_reserve(event, 1, 1, reason="set lost", actor="director", tables=tables[:2])
    versions = play_versions(event, 1, 1)
    assert {t.number: versions.get(t.pk, "") for t in tables} == {1: "R1", 2: "R1", 3: "", 4: ""}
    rng = random.Random(6)
    play_up_to(tables, 1, lambda table, s: enter(table, s, SET1[table.number] if s == 1 else random_changes(rng, "ESWN")))
    mark_fouled(event, tables[0], 1, reason="tiles exposed", actor="director")
    versions = play_versions(event, 1, 1)
    assert {t.number: versions.get(t.pk, "") for t in tables} == {1: "F1", 2: "R1", 3: "", 4: ""}
    # three versions: "" at tables 3-4 is compared on its own; F1 and R1 (one table each) are short,
    # so every team (one member at each table) is adjusted, with 0 MP extra
    seating, changes = comparisons(event)[(1, 1, 1)]
    oracle = versioned_set_points(seating, changes, {1: "F1", 2: "R1"}, current_rows(event), by_team=True, min_tables=2,
                                  adjusted_points=0)
    stored = _team_scores(event)
    assert {n: (s.points, s.adjusted, s.version) for n, s in stored.items()} == {
        n: (p, adj, v) for n, (p, _, adj, v) in oracle.items()}


def test_reserve_tables_changed_after_play_rescore_the_set(director):
    """A reserve wall drawn for a set, its tables chosen later (tournament.services.set_reserve_tables):
    the set is scored again with those tables as version R1, and the change is audited."""
    from tournament.models import AuditEntry
    from tournament.services import draw_reserve, set_reserve_tables

    event = new_event(team_roster(4), sessions=1, director=director, slug="reserve-later")
    tables = list(Table.objects.filter(group__session__event=event).order_by("number"))
    reserve = draw_reserve(event, 1, 1, reason="set lost", actor="director")
    rng = random.Random(7)
    play_up_to(tables, 1, lambda table, s: enter(table, s, SET1[table.number] if s == 1 else random_changes(rng, "ESWN")))
    assert {s.version for s in SetScore.objects.filter(event=event, set_no=1)} == {""}
    set_reserve_tables(reserve, tables[2:], actor="director")
    # "" at tables 1-2, R1 at tables 3-4: the hand computation of the two-version case above
    # (where tables 3-4 were F1) gives the same points: A 9, B 4, C -8, D -5.
    assert {n: (s.points, s.adjusted, s.version) for n, s in _team_scores(event).items()} == {
        "Team 1": (9, False, "*"), "Team 2": (4, False, "*"), "Team 3": (-8, False, "*"), "Team 4": (-5, False, "*")}
    assert AuditEntry.objects.filter(event=event, action="reserve-tables").exists()
    assert AuditEntry.objects.filter(event=event, action="reserve-drawn").exists()


def test_a_reserve_wall_needs_a_reason(director):
    from tournament.errors import FieldError
    from tournament.services import draw_reserve

    event = new_event(team_roster(4), sessions=1, director=director, slug="reserve-reason")
    with pytest.raises(FieldError) as err:
        draw_reserve(event, 1, 2, reason=" ", actor="director")
    assert err.value.field == "reason"
    assert not event.reserve_walls.exists()


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


def test_an_export_reader_checks_each_score_against_the_version_it_names(director):
    """docs/export.md: readers check each converted score against the conversion table version it
    names. After a correction and a new table, every score of the export passes that check with
    the rows of the version it names (and all name the current one)."""
    from scoring.conversion_versions import save_table_version

    event = new_event(team_roster(4), sessions=1, director=director, slug="reader")
    rng = random.Random(11)
    play_session(event, 1, rng)
    result = HandResult.objects.filter(event=event).order_by("pk").first()
    correct_result(result, actor="i17", reason="typing error", director=True, changes={"E": 64, "S": -32, "W": -16, "N": -16})
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
    from scoring.standings import ConvertedScore, IncrementalStandings, RankingRules, standings

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
