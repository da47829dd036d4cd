"""docs/scoring.md, "Fitting a table to data": ``python manage.py fit_conversion`` on a generated 16-team event prints the
current and the proposed table side by side and both rankings; ``--adopt`` stores the proposal
as a new version while stored scores keep theirs. The observed differences and both rankings are
recomputed here from the raw results, the seating and the tables' rows."""

import io
import json
import re
from collections import defaultdict

import pytest
from django.core.management import CommandError, call_command

from scoring.fitting import fit_table
from scoring.models import ConversionTable, HandResult, SetScore
from tournament.demo import build_demo
from tournament.exchange import export_event
from tournament.models import SeatAssignment

from factories import rolled_back
from oracles import convert, datum_of, ranked, tally

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def built(django_db_setup, django_db_blocker, tmp_path_factory):
    """The 16-team demo event (a session of MCR results), built once, rolled back at the end."""
    with rolled_back(django_db_blocker):
        yield build_demo(out_dir=tmp_path_factory.mktemp("pdfs"), prints=()).event


@pytest.fixture
def demo(built):
    built.refresh_from_db()
    return built


def team_totals(event):
    """{(set, group number): {team name: total}} from the raw results and seating."""
    seat_of = {(a.table_id, a.seat): a for a in SeatAssignment.objects.filter(table__group__session__event=event)
               .select_related("team", "table__group")}
    totals = defaultdict(lambda: defaultdict(int))
    for r in HandResult.objects.filter(event=event, status=HandResult.Status.CONFIRMED):
        for seat, change in r.changes.items():
            a = seat_of[(r.table_id, seat)]
            totals[(r.set_no, a.table.group.number)][a.team.name] += change
    return totals


def ranking(totals, rows):
    """{team: (rank, points)}: points, then score total, then positive sets; ties share a rank."""
    per_set = []
    for teams in totals.values():
        datum = datum_of(teams.values())
        per_set += [(team, convert(rows, total - datum), total) for team, total in teams.items()]
    tallies = tally(per_set)
    return {team: (rank, tallies[team][0]) for rank, team, _ in ranked(tallies)}


def run(*args):
    out = io.StringIO()
    call_command("fit_conversion", *args, stdout=out)
    return out.getvalue()


def printed_tables(text):
    """The side-by-side table block → (current rows, proposed rows) as printed."""
    block = text.split(": conversion tables\n", 1)[1].split("\n\n", 1)[0].splitlines()[2:]
    current, proposed = [], []
    for line in block:
        left, right = line[:25], line[31:]
        for cells, out in ((left.split(), current), (right.split(), proposed)):
            if cells:
                out.append({"from": int(cells[0]), "to": int(cells[1]) if len(cells) == 3 else None, "points": int(cells[-1])})
    return current, proposed


def printed_rankings(text):
    """team → (current rank, current points, proposed rank, proposed points) as printed."""
    block = text.split(" datum)\n", 1)[1].splitlines()[1:]
    out = {}
    for line in block:
        match = re.match(r"(.+?)\s+(\d+)\s+(-?\d+)\s+(\d+)\s+(-?\d+)\s+(=|[+-]\d+)$", line)
        if match:
            out[match[1]] = tuple(int(match[i]) for i in range(2, 6))
    return out


def test_fit_conversion_prints_both_tables_and_both_rankings_of_a_16_team_event(demo):
    text = run(demo.slug)
    totals = team_totals(demo)
    differences = [total - datum_of(teams.values()) for teams in totals.values() for total in teams.values()]
    assert len(differences) == 16 * 16
    proposed = fit_table(differences, unit=demo.get_ruleset().score_unit).rows()
    current = ConversionTable.objects.current(demo).rows

    assert printed_tables(text) == (current, proposed)
    assert f"Observed 256 score differences in 64 comparisons of {demo.slug}" in text
    assert "current: MCR duplicate MP v1" in text and f"proposed: Fitted MP ({demo.slug})" in text

    rankings = printed_rankings(text)
    now, then = ranking(totals, current), ranking(totals, proposed)
    assert len(rankings) == 16
    for team, (rank_now, points_now, rank_then, points_then) in rankings.items():
        assert (rank_now, points_now) == now[team]
        assert (rank_then, points_then) == then[team]
    moved = sum(1 for r in rankings.values() if r[0] != r[2])
    assert f"{moved} of 16 entrants would change rank." in text


def test_an_export_file_gives_the_same_proposal_and_rankings_as_the_event(demo, tmp_path):
    path = tmp_path / "demo.json"
    path.write_text(json.dumps(export_event(demo)), encoding="utf-8")
    from_event, from_file = run(demo.slug), run(str(path))
    assert printed_tables(from_file) == printed_tables(from_event)
    assert printed_rankings(from_file) == printed_rankings(from_event)


def test_adopt_stores_the_proposal_as_a_new_version_and_rescores_with_it(demo):
    old = ConversionTable.objects.current(demo)
    text = run(demo.slug, "--adopt")
    demo.refresh_from_db()
    new = ConversionTable.objects.current(demo)
    assert (new.code, new.version) == (old.code, 2)
    assert new.rows == printed_tables(text)[1]
    assert "Adopted as Fitted MP (demo) v2" in text
    assert set(SetScore.objects.filter(event=demo).values_list("conversion_table_id", flat=True)) == {new.pk}
    again = run(demo.slug)
    assert "current: Fitted MP (demo) v2" in again
    assert printed_tables(again)[0] == new.rows


def test_fit_conversion_refuses_what_it_cannot_use(demo, tmp_path):
    with pytest.raises(CommandError, match="no such file and no event"):
        run("no-such-event")
    path = tmp_path / "demo.json"
    path.write_text(json.dumps(export_event(demo)), encoding="utf-8")
    with pytest.raises(CommandError, match="--adopt: give exactly one event"):
        run(str(path), "--adopt")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(CommandError, match="not a readable dmj-event/1 JSON export"):
        run(str(bad))


def test_fit_conversion_needs_enough_results(team_event):
    with pytest.raises(CommandError, match="need at least 20 differences"):
        run(team_event.slug)
