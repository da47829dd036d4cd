"""docs/seating.md through the services: seating stored for whole events of every seat count, entrant
policies, rooms, and the repeat meetings the director sees."""

from collections import Counter, defaultdict
from itertools import combinations

import pytest

from tournament.models import Event, Room, SeatAssignment, Table
from tournament.services import SetupError, create_event, import_roster, seat_session, sitting_out

from factories import individual_roster, team_roster

pytestmark = pytest.mark.django_db


def seat_all(event):
    for n in range(1, event.sessions_planned + 1):
        seat_session(event, n)


def meetings(event):
    count = Counter()
    for session in event.sessions.all():
        for group in session.groups.all():
            teams = {s.team_id for s in SeatAssignment.objects.filter(table__group=group)}
            count.update(combinations(sorted(teams), 2))
    return count


@pytest.mark.parametrize("ruleset,seats", [("mcr-duplicate", 4), ("shiragiku-3p", 3), ("souzu-2p", 2)])
def test_each_team_plays_each_seat_of_each_set_once_per_group(ruleset, seats):
    event = create_event(name=ruleset, slug=ruleset, ruleset_code=ruleset, sessions=2)
    import_roster(event, team_roster(seats * 2, seats))
    seat_all(event)
    for session in event.sessions.all():
        assert session.groups.count() == 2
        for group in session.groups.all():
            seats_of_team = defaultdict(list)
            for table in group.tables.all():
                assigned = list(table.seats.all())
                assert sorted(a.seat for a in assigned) == sorted(event.get_ruleset().seats)
                for a in assigned:
                    seats_of_team[a.team_id].append(a.seat)
            assert all(sorted(v) == sorted(event.get_ruleset().seats) for v in seats_of_team.values())


def test_sixteen_teams_meet_each_other_exactly_once_over_five_sessions():
    event = create_event(name="Five", slug="five", sessions=5)
    import_roster(event, team_roster(16, 4))
    seat_all(event)
    count = meetings(event)
    assert len(count) == 16 * 15 // 2 and set(count.values()) == {1}
    assert all(s.repeat_meetings == 0 == s.repeat_lower_bound for s in event.sessions.all())


def test_each_member_plays_every_wind_over_four_sessions():
    event = create_event(name="Winds", slug="winds", sessions=4)
    import_roster(event, team_roster(16, 4))
    seat_all(event)
    winds = defaultdict(set)
    for a in SeatAssignment.objects.filter(table__group__session__event=event):
        winds[a.player_id].add(a.seat)
    assert all(w == {"E", "S", "W", "N"} for w in winds.values())


def test_individual_event_seats_each_seat_of_each_set_by_different_players_and_balances_winds():
    event = create_event(name="Solo", slug="solo", method=Event.Method.INDIVIDUAL, sessions=4)
    import_roster(event, individual_roster(32))
    seat_all(event)
    winds = defaultdict(list)
    for session in event.sessions.all():
        assert session.groups.count() == 2
        for group in session.groups.all():
            by_seat = defaultdict(set)
            for a in SeatAssignment.objects.filter(table__group=group):
                by_seat[a.seat].add(a.player_id)
                winds[a.player_id].append(a.seat)
            assert all(len(players) == 4 for players in by_seat.values())
    # Groups change every session, so perfect balance is not always possible; no player may hold
    # a wind more than twice in four sessions, and most hold every wind once.
    assert all(max(Counter(w).values()) <= 2 and len(set(w)) >= 3 for w in winds.values())
    assert sum(Counter(w) == Counter("ESWN") for w in winds.values()) >= len(winds) * 3 // 4


def test_entrants_not_filling_the_groups_get_the_options_and_nothing_is_stored():
    event = create_event(name="Fifteen", slug="fifteen", sessions=3)
    with pytest.raises(SetupError) as err:  # refused at import, before the day (docs/director-guide.md, "Roster")
        import_roster(event, team_roster(15, 4))
    assert err.value.field == "entrant_policy"
    for option in ("substitutes", "sit-out-average", "sit-out-datum"):
        assert option in err.value.message
    assert not event.players.exists()
    # Imported under another policy, then set back to "as-is": Prepare refuses with the same choices.
    Event.objects.filter(pk=event.pk).update(entrant_policy=Event.EntrantPolicy.SUBSTITUTES)
    event.refresh_from_db()
    import_roster(event, team_roster(15, 4))
    Event.objects.filter(pk=event.pk).update(entrant_policy=Event.EntrantPolicy.EXACT)
    event.refresh_from_db()
    with pytest.raises(SetupError) as err:
        seat_session(event, 1)
    assert err.value.field == "entrants"
    for option in ("substitutes", "sit-out-average", "sit-out-datum"):
        assert option in err.value.message
    assert not event.sessions.exists()


def test_substitutes_fill_the_last_group_and_are_marked():
    event = create_event(name="Subs", slug="subs", sessions=2)
    event.entrant_policy = Event.EntrantPolicy.SUBSTITUTES
    event.save()
    import_roster(event, team_roster(15, 4))
    seat_session(event, 1)
    assert event.teams.count() == 16 and event.teams.filter(substitute=True).count() == 1
    assert event.players.filter(substitute=True).count() == 4


def test_sit_outs_rotate_and_the_rest_play():
    event = create_event(name="Sit", slug="sit", sessions=5)
    event.entrant_policy = Event.EntrantPolicy.SIT_OUT_DATUM
    event.save()
    import_roster(event, team_roster(17, 4))
    seat_all(event)
    out = [frozenset(t.pk for t in sitting_out(event, n)) for n in range(1, 6)]
    assert all(len(o) == 1 for o in out) and len(set(out)) == 5
    for n, session in enumerate(event.sessions.all(), start=1):
        playing = {a.team_id for a in SeatAssignment.objects.filter(table__group__session=session)}
        assert len(playing) == 16 and not (playing & out[n - 1])


def test_rooms_too_few_for_the_plain_rotation_stagger_the_groups_and_rooms_too_small_are_refused():
    """Two halls of 8 for 4 groups: plain, table 1 of every group plays set 1 at the first hand
    (4 rooms needed), so the groups are staggered (docs/seating.md, "Rooms"); halls of 8 and 7
    cannot hold 16 tables at all."""
    event = create_event(name="Rooms", slug="rooms", sessions=1)
    import_roster(event, team_roster(16, 4))
    Room.objects.create(event=event, number=1, name="Hall A", capacity=8)
    Room.objects.create(event=event, number=2, name="Hall B", capacity=7)
    with pytest.raises(SetupError) as err:
        seat_session(event, 1)
    assert err.value.field == "rooms" and "Add rooms or capacity" in err.value.message
    assert not event.sessions.exists()
    Room.objects.filter(event=event, number=2).update(capacity=8)
    session = seat_session(event, 1)
    assert session.staggered
    assert sorted(Table.objects.filter(group__session=session).values_list("room__name", flat=True)) == ["Hall A"] * 8 + ["Hall B"] * 8


def test_tables_playing_the_same_set_at_the_same_time_are_in_different_rooms():
    event = create_event(name="Halls", slug="halls", sessions=1)
    import_roster(event, team_roster(16, 4))
    for number in range(1, 5):
        Room.objects.create(event=event, number=number, name=f"Hall {number}", capacity=4)
    session = seat_session(event, 1)
    by_position = defaultdict(list)
    for group in session.groups.all():
        for table in group.tables.all():
            by_position[table.position].append(table.room_id)
    assert all(len(set(rooms)) == len(rooms) == 4 for rooms in by_position.values())


def test_seating_page_shows_every_player_and_where_sets_go(client, team_event):
    from django.urls import reverse

    page = client.get(reverse("seating", args=[team_event.slug, 1])).content.decode()
    for player in team_event.players.all():
        assert player.name in page
    assert "Physical copies of each set needed: 4" in page
    assert page.count("→ table") == 16 * 3  # each table passes its sets on after rounds 1-3


def test_seating_sheet_pdf_lists_every_player(team_event):
    import pypdfium2

    from walls.print_jobs import request_print

    job = request_print(team_event, "seating", {"session": 1})
    pdf = pypdfium2.PdfDocument(job.file.read())
    text = "".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    for seat in SeatAssignment.objects.filter(table__group__session__event=team_event).select_related("player", "table"):
        assert seat.player.name in text

