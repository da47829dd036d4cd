"""docs/scoring.md, "Standings": converted scores, standings, travellers, per-player standings, running totals and the
standings exports of generated events, each recomputed here from the raw hand results, the
seating and the conversion table's rows without the scoring code's helpers."""

import csv
import io
import random
from collections import Counter, defaultdict

import pytest
from django.core.cache import cache
from openpyxl import load_workbook

from django.db.models import Count

from scoring import reports, visibility
from scoring.models import ConversionTable, HandResult, SetScore
from scoring.reports import event_standings
from tournament.cache import forget_kept
from scoring.actions.confirmation import correct_result, dispute_result
from tournament.demo import build_demo, play_session
from tournament.models import Event, SeatAssignment, Table
from tournament.services import prepare_session

from factories import individual_roster, play_slots, prepared_event, rolled_back, team_roster
from oracles import convert, datum_of, ranked, tally
from entrant_parity import assert_entrant_pages_match

pytestmark = pytest.mark.django_db


# --- the raw data, read without the scoring code's helpers; the arithmetic is in tests/oracles.py --

def raw(event):
    """The raw data: confirmed results and who sat where, straight from the tables."""
    seats = {}
    for a in SeatAssignment.objects.filter(table__group__session__event=event).values(
            "table_id", "seat", "player_id", "team_id", "table__group_id", "table__number"):
        seats[(a["table_id"], a["seat"])] = a
    results = list(HandResult.objects.filter(event=event, status=HandResult.Status.CONFIRMED).values(
        "table_id", "session_number", "set_no", "changes"))
    return seats, results


def comparisons(event, by_seat):
    """{(session, set, group id or None[, seat]): {entrant id: change}} for complete comparisons."""
    seats, results = raw(event)
    field = event.comparison == Event.Comparison.FIELD
    tables_in = defaultdict(set)
    for t in Table.objects.filter(group__session__event=event).values("pk", "group_id", "group__session__number"):
        tables_in[(t["group__session__number"], None if field else t["group_id"])].add(t["pk"])
    done = defaultdict(set)
    out = defaultdict(lambda: defaultdict(int))
    for r in results:
        for seat, change in r["changes"].items():
            a = seats[(r["table_id"], seat)]
            group = None if field else a["table__group_id"]
            done[(r["session_number"], r["set_no"], group)].add(r["table_id"])
            if by_seat or event.method == Event.Method.INDIVIDUAL:
                out[(r["session_number"], r["set_no"], group, seat)][a["player_id"]] += change
            else:
                out[(r["session_number"], r["set_no"], group)][a["team_id"]] += change
    return {k: dict(v) for k, v in out.items() if done[k[:3]] == tables_in[(k[0], k[2])]}


def expected_scores(event):
    """{(session, set, entrant id): (score change, datum, points)} recomputed."""
    rows = ConversionTable.objects.current(event).rows
    out = {}
    for key, changes in comparisons(event, by_seat=False).items():
        d = datum_of(list(changes.values()), event.datum_method)
        for entrant, change in changes.items():
            out[(key[0], key[1], entrant)] = (change, d, convert(rows, change - d))
    return out


def expected_standings(event, session=None):
    tallies = tally((entrant, points, change) for (s, _, entrant), (change, _, points) in expected_scores(event).items()
                    if session is None or s == session)
    return [(rank, key, tied, tallies[key]) for rank, key, tied in ranked(tallies)]


def entrant_of(score):
    return score.team_id or score.player_id


# --- generated events ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def events(django_db_setup, django_db_blocker, tmp_path_factory):
    """Two generated events, built once for the module and rolled back at the end:

    - ``demo``: the 16-team demo (one session of MCR results, group comparison, plain average);
    - ``solo``: a 32-player individual event compared across the field with the Butler datum
      (8 players a seat, so the top and bottom are dropped), two sessions played.
    """
    with rolled_back(django_db_blocker):
        demo = build_demo(out_dir=tmp_path_factory.mktemp("pdfs"), prints=()).event
        solo = prepared_event(individual_roster(32), prepare=(), name="Solo Open", slug="solo-open",
                              method=Event.Method.INDIVIDUAL, conversion="mcr-mp", datum_method=Event.Datum.BUTLER,
                              comparison=Event.Comparison.FIELD, sessions=2)
        for session in (1, 2):
            prepare_session(solo, session)
            play_session(solo, session, random.Random(session))
        yield {"demo": demo, "solo": solo}


@pytest.fixture
def demo(events):
    return events["demo"]


@pytest.fixture
def solo(events):
    return events["solo"]


def team_event_of(slug, teams=4, director=None):
    """``teams`` teams (groups of 4 on 4 tables), session 1 seated with walls, nothing played;
    ``director`` gets the director role."""
    return prepared_event(team_roster(teams), name=f"Cup {slug}", slug=slug, conversion="mcr-mp", director=director)


# --- converted scores and standings ---------------------------------------------------------------

@pytest.mark.parametrize("which", ["demo", "solo"])
def test_every_converted_score_equals_the_table_applied_to_raw_results(which, events):
    event = events[which]
    expected = expected_scores(event)
    stored = list(SetScore.objects.filter(event=event).select_related("conversion_table"))
    assert len(stored) == len(expected) == (16 * 16 if which == "demo" else 32 * 16 * 2)
    for s in stored:
        change, d, points = expected[(s.session_number, s.set_no, entrant_of(s))]
        assert (s.score_change, s.points) == (change, points)
        assert s.datum == pytest.approx(d)
        assert s.difference == pytest.approx(change - d)
        assert s.conversion_table_id == ConversionTable.objects.current(event).pk


def test_butler_datum_differs_from_the_mean_somewhere_in_the_solo_event(solo):
    """The field comparison has 8 players a seat, so Butler really drops two results."""
    differing = [k for k, changes in comparisons(solo, by_seat=True).items()
                 if datum_of(list(changes.values()), "butler") != pytest.approx(datum_of(list(changes.values()), "average"))]
    assert differing


@pytest.mark.parametrize("which", ["demo", "solo"])
def test_standings_equal_an_independent_ranking_with_the_documented_tie_break(which, events):
    event = events[which]
    for session in (None, 1):
        rows = reports.cached_standings(event, session)
        assert rows == event_standings(event, session)
        got = [(r["rank"], r["key"], r["tied"], (r["points"], r["score_total"], r["positive_sets"])) for r in rows]
        assert got == expected_standings(event, session)


def test_session_two_standings_count_only_that_session(solo):
    both = {r["key"]: r["points"] for r in reports.cached_standings(solo)}
    one = {r["key"]: r["points"] for r in reports.cached_standings(solo, 1)}
    two = {r["key"]: r["points"] for r in reports.cached_standings(solo, 2)}
    assert all(both[k] == one[k] + two[k] for k in both)
    assert all(r["sets_played"] == 16 for r in reports.cached_standings(solo, 2))


def test_a_repeated_standings_view_costs_one_query_and_recomputes_nothing(demo, django_assert_num_queries):
    first = reports.cached_standings(demo)
    with django_assert_num_queries(1):
        again = reports.cached_standings(demo)
    assert again == first


def test_cached_standings_follow_corrections_and_disputes_set_by_set():
    event = team_event_of("fix")
    rng = random.Random(3)
    play_slots(event, rng, slots=range(4))
    before = reports.cached_standings(event)
    assert before == event_standings(event)
    result = HandResult.objects.filter(event=event, set_no=5).order_by("table__number").first()
    seats = list(result.changes)
    changed = {seat: 0 for seat in seats}
    changed[seats[0]], changed[seats[1]] = 200, -200
    correct_result(result, actor="director", reason="wrong winner", director=True, changes=changed)
    after = reports.cached_standings(event)
    assert after == event_standings(event)
    assert [(r["rank"], r["key"], r["tied"], (r["points"], r["score_total"], r["positive_sets"])) for r in after] \
        == expected_standings(event)
    assert after != before
    dispute_result(result, actor="E", reason="the fan was wrong", director=True)
    disputed = reports.cached_standings(event)
    assert disputed == event_standings(event)
    assert all(r["sets_played"] == 15 for r in disputed)


# --- travellers ----------------------------------------------------------------------------------

def test_traveller_lists_every_tables_result_the_datum_and_each_converted_score(demo, director):
    seats, results = raw(demo)
    expected = expected_scores(demo)
    teams = {t.pk: t.name for t in demo.teams.all()}
    for set_no in range(1, 17):
        report = reports.traveller_report(demo, 1, set_no, visibility.viewer_for(director, demo))
        assert report["finished"] and report["visible"]
        assert len(report["comparisons"]) == 4
        listed_tables = [t["number"] for c in report["comparisons"] for t in c["tables"]]
        assert sorted(listed_tables) == list(range(1, 17))
        by_table = {seats[(r["table_id"], "E")]["table__number"]: r["changes"] for r in results if r["set_no"] == set_no}
        for c in report["comparisons"]:
            for t in c["tables"]:
                assert {s["seat"]: s["change"] for s in t["seats"]} == by_table[t["number"]]
            assert len(c["entries"]) == 4
            for e in c["entries"]:
                team_id = next(k for k, v in teams.items() if v == e["name"])
                change, d, points = expected[(1, set_no, team_id)]
                assert (e["score_change"], e["points"]) == (change, points)
                assert e["datum"] == pytest.approx(d)
                assert e["table_version"].endswith("v1")


def test_individual_traveller_gives_each_seat_its_datum(solo):

    expected = expected_scores(solo)
    names = {p.pk: p.name for p in solo.players.all()}
    report = reports.traveller_report(solo, 2, 7, visibility.PUBLIC)
    (field,) = report["comparisons"]
    assert field["group"] is None and len(field["tables"]) == 8
    assert [s["seat"] for s in field["seats"]] == ["E", "S", "W", "N"]
    for seat in field["seats"]:
        assert len(seat["entries"]) == 8
        for e in seat["entries"]:
            player = next(k for k, v in names.items() if v == e["name"])
            change, d, points = expected[(2, 7, player)]
            assert (e["score_change"], e["points"], e["seat"]) == (change, points, seat["seat"])
            assert seat["datum"] == pytest.approx(d)


def test_a_traveller_and_its_hand_record_stay_hidden_from_the_public_until_the_set_is_finished_everywhere(director):

    event = team_event_of("hidden", director=director)
    rng = random.Random(5)
    play_slots(event, rng, slots=[0])
    assert visibility.released_sets(event) == set()
    anonymous = reports.traveller_report(event, 1, 1, visibility.PUBLIC)
    assert (anonymous["finished"], anonymous["visible"], anonymous["comparisons"], anonymous["hand_record"]) \
        == (False, False, [], None)
    assert anonymous["tables_done"] == 1
    staff = reports.traveller_report(event, 1, 1, visibility.viewer_for(director, event))
    assert staff["visible"] and staff["hand_record"] and not staff["comparisons"][0]["scored"]
    play_slots(event, rng, slots=[1, 2, 3])
    public = reports.traveller_report(event, 1, 1, visibility.PUBLIC)
    assert public["finished"] and public["comparisons"][0]["scored"]
    wall = event.wall_sets.get(session_number=1, set_no=1)
    hand = {p["name"]: sorted(t["code"] for t in p["tiles"]) for p in public["hand_record"]}
    assert hand == {name: sorted(tiles) for name, tiles in wall.piles.items()}


def test_a_set_is_released_exactly_when_every_table_has_a_confirmed_result_on_it():
    event = team_event_of("finish")
    rng = random.Random(9)
    for slot in range(4):
        play_slots(event, rng, slots=[slot])
        confirmed = defaultdict(int)
        for r in HandResult.objects.filter(event=event, status=HandResult.Status.CONFIRMED):
            confirmed[(r.session_number, r.set_no)] += 1
        tables = event.sessions.get(number=1).groups.aggregate(n=Count("tables"))["n"]
        assert visibility.released_sets(event) == {key for key, n in confirmed.items() if n == tables}
    assert visibility.released_sets(event) == {(1, n) for n in range(1, 17)}


# --- per-player standings and running totals ---------------------------------------------------

def test_player_standings_compare_each_player_with_the_same_seat_of_the_same_set(demo):
    rows = ConversionTable.objects.current(demo).rows
    per_set = []
    for changes in comparisons(demo, by_seat=True).values():
        d = datum_of(list(changes.values()), demo.datum_method)
        per_set += [(player, convert(rows, change - d), change) for player, change in changes.items()]
    tallies = tally(per_set)
    sets = Counter(player for player, _, _ in per_set)
    expected = ranked(tallies)
    got = reports.player_standings(demo)
    assert len(got) == 64
    assert [(r["rank"], r["player"], r["tied"]) for r in got] == expected
    for r in got:
        assert (r["points"], r["score_total"], r["positive_sets"]) == tuple(tallies[r["player"]])
        assert r["sets_played"] == sets[r["player"]] == 16
    by_score = reports.player_standings(demo, order="score")
    assert [r["score_total"] for r in by_score] == sorted((r["score_total"] for r in got), reverse=True)


def test_per_player_standings_kept_from_one_release_to_the_next_equal_those_computed_afresh():
    """The per-player ranking is kept in memory and each released set replaces only its own rows
    (:func:`scoring.reports.standing_rows.kept_tally`): after every slot played, and after a result
    corrected, it equals the ranking computed afresh from nothing kept."""
    event = team_event_of("kept-players", teams=8)
    rng = random.Random(11)
    seen = []

    def both(public):
        cache.clear()
        kept = reports.player_standings(event, public=public)
        cache.clear()
        forget_kept()
        return kept, reports.player_standings(event, public=public)

    for slot in range(4):
        play_slots(event, rng, slots=[slot])
        for public in (True, False):
            kept, afresh = both(public)
            assert kept == afresh
            seen.append(sum(r["sets_played"] for r in kept))
        cache.clear()  # keep the tallies of this state for the next step, which replaces only what changed
        reports.player_standings(event, public=True)
        reports.player_standings(event, public=False)
    result = HandResult.objects.filter(event=event, status=HandResult.Status.CONFIRMED).first()
    changes = {seat: -change for seat, change in result.changes.items()}
    correct_result(result, actor="director", reason="swapped", director=True, changes=changes)
    for public in (True, False):
        kept, afresh = both(public)
        assert kept == afresh
    public_sets = seen[0::2]
    assert public_sets == sorted(public_sets) and public_sets[-1] > public_sets[0]  # released sets came in step by step


def test_a_teams_members_score_totals_add_up_to_the_teams_score_total(demo):
    team = demo.teams.get(number=3)
    report = reports.team_report(demo, team)
    assert len(report["members"]) == 4
    assert sum(m["score_total"] for m in report["members"]) == report["standing"]["score_total"]
    assert [s["running"] for s in report["sets"]][-1] == report["standing"]["points"]


def test_running_totals_add_each_sets_points_in_set_order(solo):
    expected = expected_scores(solo)
    totals = reports.running_totals(solo)
    assert totals["sets"] == [(s, n) for s in (1, 2) for n in range(1, 17)]
    assert len(totals["series"]) == 32
    for series in totals["series"]:
        running, values = 0, []
        for session, set_no in totals["sets"]:
            running += expected[(session, set_no, series["key"])][2]
            values.append(running)
        assert series["values"] == values
    finals = [s["values"][-1] for s in totals["series"]]
    assert finals == sorted(finals, reverse=True)


def test_public_pages_leave_out_sets_another_group_is_still_playing():
    event = team_event_of("partial", teams=8)
    rng = random.Random(11)
    play_slots(event, rng, slots=range(4), groups=[1])
    assert visibility.released_sets(event) == set()
    assert reports.running_totals(event)["sets"] == []
    assert reports.event_chart(event) is None
    assert reports.player_standings(event)[0]["rank"] is None
    assert len(reports.running_totals(event, public=False)["sets"]) == 16
    assert all(r["sets_played"] == 16 for r in reports.player_standings(event, public=False)[:16])
    play_slots(event, rng, slots=range(4), groups=[2])
    assert len(reports.running_totals(event)["sets"]) == 16


def test_line_chart_puts_every_point_inside_the_plot_and_zero_on_its_line():
    series = [{"key": 1, "name": "A", "values": [5, 12, -3]}, {"key": 2, "name": "B", "values": [-40, -10, 27]}]
    chart = reports.line_chart(["1-1", "1-2", "1-3"], series, highlight=2)
    plot = chart["plot"]
    for line in chart["lines"]:
        points = [tuple(map(float, p.split(","))) for p in line["points"].split()]
        assert len(points) == 4 and points[0][1] == pytest.approx(chart["zero_y"])
        assert all(plot["left"] <= x <= plot["right"] and plot["top"] <= y <= plot["bottom"] for x, y in points)
    a, b = chart["lines"]
    assert (a["highlight"], b["highlight"], a["last"], b["last"]) == (False, True, -3, 27)
    assert b["last_y"] < chart["zero_y"] < a["last_y"]  # SVG y grows downwards
    labels = [float(t["label"]) for t in chart["y_ticks"]]
    assert labels[0] <= -40 and labels[-1] >= 27
    with pytest.raises(ValueError, match="2 values for 3 sets"):
        reports.line_chart(["a", "b", "c"], [{"key": 1, "name": "A", "values": [1, 2]}])


def test_complete_scopes_skip_a_comparison_with_a_table_missing():
    tables = {t: reports.TableSeats(1, 1 + t // 2, t + 1, {"E": (f"e{t}", "x"), "S": (f"s{t}", "y")}) for t in range(4)}
    results = [(0, 1, {"E": 8, "S": -8}), (1, 1, {"E": -8, "S": 8}), (2, 1, {"E": 16, "S": -16})]
    scopes = reports.complete_scopes(tables, results)
    assert list(scopes) == [(1, 1, 1)]
    assert reports.team_comparisons(scopes) == {(1, 1, 1): {"x": 0, "y": 0}}
    assert reports.complete_scopes(tables, results, field=True) == {}
    with pytest.raises(ValueError, match="seat W, where nobody sat"):
        reports.complete_scopes(tables, [(0, 1, {"W": 1})])


# --- exports --------------------------------------------------------------------------------------

def test_standings_csv_and_xlsx_contain_the_standings(demo):
    standings = reports.cached_standings(demo)
    parsed = list(csv.reader(io.StringIO(reports.standings_csv(demo))))
    assert parsed[0] == ["Rank", "Team", "Points", "Score total", "Sets", "Positive sets", "Tied", "Substitute", "Sets sat out",
                         "Sit-out points", "Adjustment (MP)", "Adjustment (score points)", "Adjustments"]
    assert [[int(r[0]), r[1], int(r[2]), int(r[3]), int(r[4])] for r in parsed[1:]] == \
        [[r["rank"], r["name"], r["points"], r["score_total"], r["sets_played"]] for r in standings]
    book = load_workbook(io.BytesIO(reports.standings_xlsx(demo)))
    assert book.sheetnames == ["Standings", "Players"]
    sheet = [list(row) for row in book["Standings"].iter_rows(values_only=True)]
    assert sheet[0] == parsed[0]
    assert [row[:6] for row in sheet[1:]] == [[r["rank"], r["name"], r["points"], r["score_total"], r["sets_played"],
                                               r["positive_sets"]] for r in standings]
    players = list(book["Players"].iter_rows(values_only=True))
    assert [row[1] for row in players[1:]] == [r["name"] for r in reports.player_standings(demo)]


def test_the_team_and_player_pages_read_their_own_rows_as_the_whole_event_gives_them(demo, solo):
    """Team and individual events: the members, the player rows and the chart lines of each
    entrant's page equal the whole-event values (a short chart: the highlighted line beyond the
    top ones)."""
    assert_entrant_pages_match(demo)
    assert_entrant_pages_match(solo, top=5)
