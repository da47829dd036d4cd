"""A substitution after Prepare reaches every page that says who sits where (docs/director-guide.md, "8. Substitutions"): the
seating page, the per-room lists (web and print rows), "find my seat" for the player coming in
and the player going out, and the player cards. Checked as a visitor reads the pages."""

import pytest
from django.urls import reverse

from factories import prepared_event, team_roster
from scoring.actions.entry import submit_result
from tournament.models import Table
from tournament.table_plan import seating_list
from factories import blocks
from tournament.substitutions import substitute
from tournament.table_plan import itineraries

pytestmark = pytest.mark.django_db


@pytest.fixture
def substituted():
    event = prepared_event(team_roster(4), name="Sub Cup", slug="sub-cup")
    table = Table.objects.filter(group__session__event=event).order_by("number").first()
    first = blocks(table)[0][1][0]
    submit_result(table, first, changes={"E": 48, "S": -16, "W": -16, "N": -16}, actor="t")  # played by the original East
    east = table.seats.get(seat="E").player
    sub = substitute(event, 1, player_out=east, name="Hanako Reserve", reason="taken ill", actor="td")
    sub.first_set = [s for _slot, sets in blocks(table) for s in sets][1]  # the next set the table plays
    return event, table, east, sub


def test_seating_lists_name_the_player_now_at_the_seat_and_whom_they_replace(client, substituted):
    event, table, east, sub = substituted
    row = next(r for r in seating_list(event, 1) if r["table"] == table.number and r["seat"] == "E")
    assert (row["player"], row["replaces"], row["player_id"]) == ("Hanako Reserve", east.name, sub.player_in_id)
    assert row["from_set"] == sub.first_set and len(sub.sets) == 15
    for name in ("seating", "room-seating"):
        page = client.get(reverse(name, args=[event.slug, 1])).content.decode()
        assert "Hanako Reserve" in page and f"replaces {east.name} from set {sub.first_set}" in page


def test_find_my_seat_finds_the_player_coming_in_and_marks_the_one_going_out(client, substituted):
    event, table, east, sub = substituted
    page = client.get(reverse("find-seat", args=[event.slug]), {"name": "Hanako"}).content.decode()
    assert "Not seated in any session yet." not in page and f"from set {sub.first_set}" in page
    page = client.get(reverse("find-seat", args=[event.slug]), {"name": east.name}).content.decode()
    assert "replaced by Hanako Reserve" in page
    cards = itineraries(event)
    assert cards[sub.player_in_id] == [{"session": 1, "group": 1, "table": table.number, "room": table.room.name,
                                        "seat": "E", "from_set": sub.first_set, "replaced_by": ""}]
    assert cards[east.pk][0]["replaced_by"] == "Hanako Reserve"


def test_a_reprinted_score_sheet_names_the_player_now_at_the_seat(substituted):
    from walls.print_kinds.tables import score_sheets

    event, table, east, sub = substituted
    sheet = next(s for s in score_sheets(event, 1) if s.table_label == str(table.number))
    assert dict(sheet.seats)["E"] == "Hanako Reserve"
