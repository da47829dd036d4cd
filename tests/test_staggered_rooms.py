"""32 teams in 4 rooms of 8 tables (docs/seating.md, "Rooms"): unstaggered, table 1 of all 8 groups would play
set 1 at the same hand, so 8 rooms would be needed; the seating staggers the groups instead
(tournament.movement.place_tables) and every table follows its group's turned order. Checked from
the stored tables, not from the movement's own claims: at every hand of the session, two tables
in one room never hold the same set, each room holds at most its capacity, each table plays every
set once, and a whole session plays through result entry in that order."""

import random
from collections import defaultdict

import pytest

from factories import play_slots, blocks
from scoring.models import SetScore
from tournament.models import Table
from tournament.movement import MovementError, place_tables
from walls.print_kinds.tables import movement_rows, score_sheets
from walls.rulesets import get_ruleset
from walls.setcode import SetId

pytestmark = pytest.mark.django_db


def _hand_plays(tables):
    """(hand time, set) → the tables holding it then, from each table's stored schedule."""
    plays = defaultdict(list)
    for table in tables:
        schedule = blocks(table)
        block = len(schedule[0][1])
        for slot, sets in schedule:
            for hand, set_no in enumerate(sets):
                plays[(slot * block + hand, set_no)].append(table)
    return plays


def test_four_rooms_of_eight_hold_32_teams_without_two_tables_of_one_room_on_the_same_set(staggered_event):
    session = staggered_event.sessions.get(number=1)
    tables = list(Table.objects.filter(group__session=session).select_related("room", "group__session__event"))
    assert session.staggered and len(tables) == 32
    per_room = defaultdict(int)
    for table in tables:
        per_room[table.room.name] += 1
    assert sorted(per_room.values()) == [8, 8, 8, 8]
    for (time, set_no), holders in _hand_plays(tables).items():
        rooms = [t.room_id for t in holders]
        assert len(rooms) == len(set(rooms)), f"set {set_no} at hand {time + 1} twice in one room"
    for table in tables:
        played = [s for _slot, sets in blocks(table) for s in sets]
        assert sorted(played) == list(range(1, 17))
    by_group_time = defaultdict(list)
    for (time, set_no), holders in _hand_plays(tables).items():
        for t in holders:
            by_group_time[(t.group_id, time)].append(set_no)
    assert all(len(sets) == len(set(sets)) == 4 for sets in by_group_time.values())


def test_score_sheets_and_movement_sheet_follow_each_tables_turned_order(staggered_event):
    tables = {t.number: t for t in Table.objects.filter(group__session__event=staggered_event).select_related("group__session__event")}
    orders = {t.number: [s for _slot, sets in blocks(t) for s in sets] for t in tables.values()}
    assert len({tuple(o) for o in orders.values()}) > 4, "staggered groups play in more than the 4 unstaggered orders"
    for sheet in score_sheets(staggered_event, 1):
        assert sheet.sets == [SetId("stagger-cup", 1, s).code for s in orders[int(sheet.table_label)]]
    for row in movement_rows(staggered_event, 1):
        table = tables[row["table"]]
        assert row["sets"] == list(blocks(table)[row["slot"] - 1][1])
        if row["next_table"] is not None:
            nxt = tables[row["next_table"]]
            assert nxt.group_id == table.group_id
            assert set(row["sets"]) == set(blocks(nxt)[row["slot"]][1])


def test_a_staggered_session_plays_through_and_every_set_is_scored(staggered_event):
    play_slots(staggered_event, random.Random(3), session=1)
    scores = SetScore.objects.filter(event=staggered_event, session_number=1)
    assert scores.count() == 16 * 32  # 16 sets × 32 teams
    assert set(scores.values_list("set_no", flat=True)) == set(range(1, 17))


def test_rooms_that_fit_unstaggered_keep_the_plain_rotation():
    ruleset = get_ruleset("mcr-duplicate")
    placement, stagger = place_tables(ruleset, 2, [4, 4])
    assert not stagger and sorted(placement) == [0] * 4 + [1] * 4
    placement, stagger = place_tables(ruleset, 8, [8, 8, 8, 8])
    assert stagger and sorted(placement) == sorted([0, 1, 2, 3] * 8)
    placement, stagger = place_tables(ruleset, 8, [16, 16])  # staggered: 2 groups share each offset, so 2 rooms do
    assert stagger and sorted(placement) == [0] * 16 + [1] * 16
    with pytest.raises(MovementError, match="rooms"):
        place_tables(ruleset, 8, [32])  # one room: the 2 groups sharing an offset would clash there


def test_a_substitute_at_a_staggered_table_comes_in_from_the_first_set_the_table_plays(staggered_event, client):
    from tournament.table_plan import seating_list
    from tournament.substitutions import substitute

    tables = Table.objects.filter(group__session__event=staggered_event).select_related("group__session__event")
    table = next(t for t in tables if list(blocks(t)[0][1]) != sorted(blocks(t)[0][1]))
    order = [s for _slot, sets in blocks(table) for s in sets]
    player = table.seats.get(seat="S").player
    substitute(staggered_event, 1, player_out=player, name="Late Reserve", reason="ill", actor="td")
    row = next(r for r in seating_list(staggered_event, 1) if r["table"] == table.number and r["seat"] == "S")
    assert row["player"] == "Late Reserve" and row["from_set"] == order[0] != min(order)
    page = client.get(f"/e/{staggered_event.slug}/find/", {"name": "Late Reserve"}).content.decode()
    assert f"from set {order[0]}" in page
