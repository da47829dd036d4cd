"""The individual method (docs/rules.md, "Duplicate MCR: individual event") end to end: for each set and seat, the average of the players
who held that seat is the datum; each player's difference is converted keeping its sign. The
test recomputes every converted score from the export's raw data."""

import random
from collections import defaultdict

import pytest

from tournament.demo import play_session
from tournament.exchange import export_event
from tournament.models import Event

from factories import individual_roster, prepared_event
from oracles import convert, datum_of, export_seating

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("datum_method", ["average", "butler"])
def test_individual_scores_compare_each_player_with_the_same_seat(datum_method):
    event = prepared_event(individual_roster(32), name="Solo", slug="solo", method=Event.Method.INDIVIDUAL,
                           conversion="mcr-mp", datum_method=datum_method)
    play_session(event, 1, random.Random(7))
    data = export_event(event)
    rows = next(t for t in data["conversion_tables"] if t["current"])["rows"]
    seat_of, group_of = export_seating(data["sessions"][0])
    by_set_seat = defaultdict(dict)
    for r in data["results"]:
        for seat, change in r["changes"].items():
            by_set_seat[(r["set"], group_of[r["table"]], seat)][seat_of[(r["table"], seat)]] = change
    assert len(data["scores"]) == 32 * 16
    checked = 0
    for score in data["scores"]:
        key = next(k for k, players in by_set_seat.items()
                   if k[0] == score["set"] and k[1] == score["group"] and score["player"] in players)
        changes = by_set_seat[key]
        # 4 players per seat: Butler needs 5 or more, so both methods are the plain average here
        datum = datum_of(changes.values())
        assert score["score_change"] == changes[score["player"]]
        assert score["datum"] == pytest.approx(datum)
        assert score["points"] == convert(rows, changes[score["player"]] - datum)
        checked += 1
    assert checked == 512
    ranked = [row for row in data["standings"] if row["rank"] is not None]
    assert len(ranked) == 32
    totals = defaultdict(int)
    for score in data["scores"]:
        totals[score["player"]] += score["points"]
    assert sorted((row["points"] for row in ranked), reverse=True) == sorted(totals.values(), reverse=True)
