"""Rooms (docs/director-guide.md, "4. Rooms", docs/seating.md "Rooms"): the director sets rooms with capacities on the rooms
page; the seating puts tables into them so that no two tables playing the same set in the same
slot share a room and no room holds more tables than its capacity; rooms that cannot do it are
refused with the reason before Prepare; the per-room seating list shows every seat."""

from collections import Counter, defaultdict

import pytest
from django.urls import reverse
from factories import prepared_event, team_roster, blocks

from tournament.models import AuditEntry, Room, Table
from tournament.rooms import quick_rooms, rooms_problem, set_rooms
from tournament.table_plan import seating_list
from tournament.services import (
    SetupError,
    create_event,
    import_roster,
    prepare_session,
)

pytestmark = pytest.mark.django_db


def _clashes(event, session=1):
    """Pairs of tables (numbers) sharing a room that play the same set at the same hand, found
    from each table's own schedule (independent of the room placement code)."""
    tables = list(Table.objects.filter(group__session__event=event, group__session__number=session).select_related("room"))
    playing = defaultdict(list)
    for table in tables:
        schedule = blocks(table)
        block = len(schedule[0][1])
        for slot, sets in schedule:
            for hand, set_no in enumerate(sets):
                playing[(slot * block + hand, set_no)].append(table)
    return [(a.number, b.number) for plays in playing.values() for i, a in enumerate(plays) for b in plays[i + 1:]
            if a.room_id == b.room_id]


@pytest.mark.parametrize("rooms, capacity", [(8, 4), (8, 5), (16, 2), (10, 4), (4, 8), (2, 16)])
def test_32_teams_are_placed_without_clashes_and_within_capacity(rooms, capacity):
    event = create_event(name="Rooms", slug="rooms")
    import_roster(event, team_roster(32))
    quick_rooms(event, rooms, capacity, actor="director")
    prepare_session(event, 1)
    tables = Table.objects.filter(group__session__event=event)
    assert tables.count() == 32
    assert _clashes(event) == []
    load = Counter(t.room_id for t in tables)
    assert all(load[r.pk] <= r.capacity for r in event.rooms.all())
    assert all(t.room_id is not None for t in tables)


def test_rooms_that_cannot_hold_32_teams_even_staggered_are_refused_with_the_reason():
    """Staggered, the 8 groups of 32 teams share 4 offsets: 2 tables play each set at each hand
    and need 2 rooms. A hall of 31 and a side room of 1 cannot do it (docs/seating.md, "Rooms");
    4 rooms of 8 can (above)."""
    event = create_event(name="Rooms", slug="rooms")
    import_roster(event, team_roster(32))
    assert rooms_problem(event, [8, 8, 8, 8]) is None
    assert "room" in rooms_problem(event, [31, 1])
    with pytest.raises(SetupError) as err:
        set_rooms(event, [(None, "Hall", 31), (None, "Side room", 1)], actor="director")
    assert err.value.field == "rooms"
    assert "add rooms" in err.value.message or "rooms" in err.value.message
    assert not event.rooms.exists()


def test_rooms_are_renamed_and_resized_in_place_added_and_removed_with_an_audit():
    event = create_event(name="Rooms", slug="rooms")
    import_roster(event, team_roster(8))
    quick_rooms(event, 2, 4, actor="director")
    first = event.rooms.get(number=1)
    set_rooms(event, [(1, "Hall A", 5), (2, "Hall B", 4), (None, "Annex", 2)], actor="director")
    assert [(r.number, r.name, r.capacity) for r in event.rooms.all()] == [(1, "Hall A", 5), (2, "Hall B", 4), (3, "Annex", 2)]
    assert event.rooms.get(number=1).pk == first.pk  # in place
    set_rooms(event, [(1, "Hall A", 5), (2, "Hall B", 4)], actor="director")
    assert event.rooms.count() == 2
    changes = AuditEntry.objects.filter(event=event, action="rooms-changed")
    assert changes.count() == 3
    set_rooms(event, [(1, "Hall A", 5), (2, "Hall B", 4)], actor="director")  # the same again: nothing to audit
    assert changes.count() == 3


def test_a_room_holding_seated_tables_cannot_be_removed():
    event = create_event(name="Rooms", slug="rooms", sessions=2)
    import_roster(event, team_roster(8))
    quick_rooms(event, 2, 4, actor="director")
    prepare_session(event, 1)
    used = {t.room.number for t in Table.objects.filter(group__session__event=event)}
    assert used == {1, 2}
    with pytest.raises(SetupError) as err:
        set_rooms(event, [(1, "Room 1", 4)], actor="director")
    assert "Room 2" in err.value.message and event.rooms.count() == 2


def test_without_rooms_every_table_gets_a_room_of_its_own():
    event = prepared_event(team_roster(8), name="Own", slug="own")
    tables = Table.objects.filter(group__session__event=event)
    assert len({t.room_id for t in tables}) == tables.count() == 8


def test_rooms_page_shows_the_need_refuses_infeasible_rooms_and_saves(director_client, director):
    client = director_client
    event = create_event(name="Rooms", slug="rooms")
    import_roster(event, team_roster(32))
    event.roles.create(user=director, role="director")
    url = reverse("rooms", kwargs={"slug": event.slug})
    page = client.get(url).content.decode()
    assert "32 tables per session" in page and 'id="quick-rooms"' in page and 'id="quick-capacity"' in page
    assert "Create rooms" in page and "Save rooms" in page
    response = client.post(url, {"action": "quick", "rooms": "1", "capacity": "32"}, follow=True)
    assert "rooms" in response.content.decode() and not event.rooms.exists()
    client.post(url, {"action": "quick", "rooms": "8", "capacity": "4"})
    assert event.rooms.count() == 8
    page = client.get(url).content.decode()
    assert 'id="rooms-ok"' in page
    numbers = [str(r.number) for r in event.rooms.all()]
    names = [f"Hall {n}" for n in numbers]
    client.post(url, {"action": "save", "number": numbers + [""], "name": names + [""], "capacity": ["4"] * 8 + [""]})
    assert sorted(event.rooms.values_list("name", flat=True)) == sorted(names)
    # Shrinking a room below what the tables need is refused with the reason; nothing changes.
    response = client.post(url, {"action": "save", "number": numbers, "name": names, "capacity": ["3"] * 8}, follow=True)
    assert "cannot hold" in response.content.decode()
    assert set(event.rooms.values_list("capacity", flat=True)) == {4}


def test_room_seating_page_lists_each_room_by_table_and_seat(director_client, director):
    client = director_client
    event = create_event(name="Rooms", slug="rooms")
    import_roster(event, team_roster(8))
    set_rooms(event, [(None, "Hall A", 4), (None, "Hall B", 4)], actor="director")
    prepare_session(event, 1)
    rows = seating_list(event, 1)
    assert len(rows) == 32
    keys = [(r["room_number"], r["table"], r["seat_index"]) for r in rows]
    assert keys == sorted(keys)
    assert [r["seat"] for r in rows[:4]] == list(event.get_ruleset().seats)
    page = client.get(reverse("room-seating", kwargs={"slug": event.slug, "number": 1})).content.decode()
    assert page.index("Hall A") < page.index("Hall B")
    for r in rows:
        assert r["player"] in page
    assert "@media print" in page
    seating_page = client.get(reverse("seating", kwargs={"slug": event.slug, "number": 1})).content.decode()
    assert reverse("room-seating", kwargs={"slug": event.slug, "number": 1}) in seating_page
    assert Room.objects.filter(event=event).count() == 2


def test_the_score_and_movement_sheets_name_each_tables_room():
    """Staff carrying papers and sets between rooms read the room on the sheet (issue 48, item 10)."""
    from walls.print_kinds.tables import movement_rows, score_sheets

    event = create_event(name="Papers", slug="papers", ruleset_code="riichi-duplicate", base_url="http://192.168.7.20:8000/")
    import_roster(event, team_roster(8))
    set_rooms(event, [(None, "Hall A", 4), (None, "Hall B", 4)], actor="director")
    prepare_session(event, 1)
    rooms = {t.number: t.room.name for t in Table.objects.filter(group__session__event=event).select_related("room")}
    sheets = score_sheets(event, 1)
    assert {int(s.table_label): s.room for s in sheets} == rooms and set(rooms.values()) == {"Hall A", "Hall B"}
    assert {s.value_unit for s in sheets} == {"han"}  # a riichi rule set counts han
    for row in movement_rows(event, 1):
        assert row["room"] == rooms[row["table"]]
        assert row["next_room"] == (rooms[row["next_table"]] if row["next_table"] else "")
