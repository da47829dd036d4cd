"""docs/director-guide.md: a whole duplicate MCR team event end to end on the embedded default.

The checks on the export recompute everything from the raw data in the JSON (walls, seating,
hand results, the conversion table rows) without calling the scoring code.
"""

import json
from collections import Counter, defaultdict

import pytest
from django.core.management import call_command

from tournament.demo import build_demo
from tournament.exchange import export_event, import_event
from tournament.models import Event
from walls.rulesets import get_ruleset

from factories import rolled_back
from oracles import convert, datum_of, export_seating

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def built(django_db_setup, django_db_blocker, tmp_path_factory):
    """The demo event built once for the module, rolled back at the end."""
    with rolled_back(django_db_blocker):
        report = build_demo(out_dir=tmp_path_factory.mktemp("pdfs"), prints=("stickers", "labels"))
        yield report, export_event(report.event, include_secret=True)


@pytest.fixture
def demo(built):
    return built[0]


@pytest.fixture
def exported(built):
    return json.loads(json.dumps(built[1]))


def test_demo_builds_standings_of_16_teams_and_the_pdfs(demo):
    assert len(demo.standings) == 16
    assert all(row["sets_played"] == 16 for row in demo.standings)
    assert sum(row["score_total"] for row in demo.standings) == 0  # plain MCR is zero-sum
    assert [p.suffix for p in demo.pdfs] == [".pdf", ".pdf"]
    assert all(p.read_bytes().startswith(b"%PDF") for p in demo.pdfs)
    assert demo.hands == 16 * 16  # 16 tables, 16 sets each


def test_export_walls_are_permutations_of_the_136_tiles(exported):
    data = exported
    multiset = Counter(get_ruleset("mcr-duplicate").multiset())
    assert sum(multiset.values()) == 136
    assert len(data["walls"]["sets"]) == 16
    for wall in data["walls"]["sets"]:
        tiles = [t for pile in wall["piles"].values() for t in pile]
        assert Counter(tiles) == multiset
        for seat in "ESWN":
            assert len(wall["piles"][f"{seat}-hand"]) == 13
            assert len(wall["piles"][f"{seat}-draw"]) == 21


def test_export_each_team_holds_each_seat_of_each_set_exactly_once(exported):
    data = exported
    team_of = {p["number"]: p["team"] for p in data["players"]}
    results = defaultdict(set)
    for r in data["results"]:
        results[r["table"]].add(r["set"])
    (session,) = data["sessions"]
    assert len(session["groups"]) == 4
    for group in session["groups"]:
        seats_of_team = defaultdict(list)
        for table in group["tables"]:
            assert sorted(table["seats"]) == ["E", "N", "S", "W"]
            assert len({team_of[n] for n in table["seats"].values()}) == 4
            # every table of the group plays every set of the session
            assert results[table["number"]] == set(range(1, 17))
            for seat, number in table["seats"].items():
                seats_of_team[team_of[number]].append(seat)
        assert len(seats_of_team) == 4
        for seats in seats_of_team.values():
            assert sorted(seats) == ["E", "N", "S", "W"]


def test_export_converted_scores_equal_the_table_applied_to_team_totals(exported):
    data = exported
    rows = next(t for t in data["conversion_tables"] if t["current"])["rows"]
    team_of = {p["number"]: p["team"] for p in data["players"]}
    seat_player, group_of_table = export_seating(data["sessions"][0])
    totals = defaultdict(int)
    for r in data["results"]:
        assert r["status"] == "confirmed"
        assert sum(r["changes"].values()) == 0
        for seat, change in r["changes"].items():
            team = team_of[seat_player[(r["table"], seat)]]
            totals[(r["set"], group_of_table[r["table"]], team)] += change
    assert len(data["scores"]) == 16 * 16
    for score in data["scores"]:
        key = (score["set"], score["group"], score["team"])
        assert score["score_change"] == totals[key]
        group_totals = [v for (s, g, _), v in totals.items() if s == score["set"] and g == score["group"]]
        datum = datum_of(group_totals)
        assert score["datum"] == pytest.approx(datum)
        assert score["points"] == convert(rows, totals[key] - datum)


def test_export_import_round_trips_without_loss(demo, tmp_path):
    path = tmp_path / "event.json"
    call_command("export_event", demo.event.slug, output=str(path), include_secret=True)
    before = json.loads(path.read_text())
    Event.objects.filter(pk=demo.event.pk).delete()
    call_command("import_event", str(path))
    after = export_event(Event.objects.get(slug=before["event"]["slug"]), include_secret=True)
    before.pop("exported_at"), after.pop("exported_at")
    assert after == before


def test_import_refuses_an_event_already_present_and_stores_nothing(demo):
    data = export_event(demo.event)
    count = Event.objects.count()
    from tournament.exchange import ExchangeError

    with pytest.raises(ExchangeError, match="exists already"):
        import_event(data)
    assert Event.objects.count() == count


def test_demo_command_prints_standings_and_pdf_paths(tmp_path, capsys):
    call_command("demo", no_serve=True, out=str(tmp_path / "out"))
    out = capsys.readouterr().out
    assert "Sanya Sparrows" in out
    assert out.count(".pdf") == 7
    assert "Director login: director / " in out
