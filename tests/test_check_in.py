"""Check-in before a session (docs/director-guide.md, "Check-in"): the director ticks who is present; at session 1's Prepare
the no-shows are withdrawn and the entrant policy fills the groups (docs/seating.md); the page says
beforehand what Prepare will do; after Prepare it lists who is missing and points to
Substitutions. A player replaced for good is seated in their place in later sessions."""

import pytest
from django.urls import reverse
from factories import individual_roster, team_roster

from tournament.models import (
    AuditEntry,
    CheckIn,
    Event,
    EventRole,
    Player,
    SeatAssignment,
    Team,
)
from tournament.check_in import check_in, check_in_all
from tournament.services import SetupError, create_event, import_roster, prepare_session

pytestmark = pytest.mark.django_db


def _event(director, roster, **fields):
    event = create_event(**fields)
    import_roster(event, roster)
    EventRole.objects.create(event=event, user=director, role="director")
    return event


def _seated(event, session=1):
    return SeatAssignment.objects.filter(table__group__session__event=event, table__group__session__number=session)


def test_31_of_32_teams_checked_in_the_no_show_withdrawn_and_a_substitute_team_added(director, director_client):
    event = _event(director, team_roster(32), name="Check", slug="check", sessions=2, entrant_policy="substitutes")
    url = reverse("check-in", kwargs={"slug": event.slug, "number": 1})
    page = director_client.get(url).content.decode()
    assert page.count('name="present"') == 32 and "Save check-in" in page and "Check in everyone" in page
    absent = event.teams.get(name="Team 17")
    present = [str(t.pk) for t in event.teams.exclude(pk=absent.pk)]
    director_client.post(url, {"action": "save", "present": present})
    assert CheckIn.objects.filter(event=event, session_number=1).count() == 31
    page = director_client.get(url).content.decode()
    assert "31 teams present." in page and "1 substitute team will be added." in page and "Team 17" in page

    prepare_session(event, 1)
    absent.refresh_from_db()
    assert absent.withdrawn
    entry = AuditEntry.objects.get(event=event, action="no-shows-withdrawn")
    assert entry.detail["names"] == ["Team 17"]
    assert event.teams.filter(substitute=True).count() == 1
    assert event.sessions.get(number=1).groups.count() == 8
    seated_teams = set(_seated(event).values_list("team_id", flat=True))
    assert len(seated_teams) == 32 and absent.pk not in seated_teams
    # Session 2 keeps the no-show out too.
    prepare_session(event, 2)
    assert absent.pk not in set(_seated(event, 2).values_list("team_id", flat=True))
    # After Prepare the page lists who is missing and leads to Substitutions.
    page = director_client.get(url).content.decode()
    assert 'id="not-checked-in"' in page and "Team 17" in page
    assert reverse("substitute", kwargs={"slug": event.slug, "number": 1}) in page
    assert 'name="present"' not in page


def test_check_in_is_exact_and_closed_once_prepared(director):
    event = _event(director, team_roster(8), name="Exact", slug="exact", sessions=2)
    teams = list(event.teams.all())
    check_in(event, 1, [teams[0].pk, teams[1].pk], actor="director")
    check_in(event, 1, [teams[1].pk, teams[2].pk], actor="director")
    assert set(CheckIn.objects.values_list("team_id", flat=True)) == {teams[1].pk, teams[2].pk}
    assert check_in_all(event, 1, actor="director") == 8
    prepare_session(event, 1)
    assert not event.teams.filter(withdrawn=True).exists()
    with pytest.raises(SetupError) as err:
        check_in(event, 1, [], actor="director")
    assert err.value.field == "session" and "Substitutions" in err.value.message


def test_no_check_in_at_all_seats_everyone(director):
    event = _event(director, team_roster(8), name="None", slug="none")
    prepare_session(event, 1)
    assert not event.teams.filter(withdrawn=True).exists() and _seated(event).count() == 32


def test_as_is_policy_with_a_no_show_says_to_change_the_policy(director, director_client):
    event = _event(director, team_roster(8), name="Asis", slug="asis")
    check_in(event, 1, [t.pk for t in event.teams.all()[:7]], actor="director")
    page = director_client.get(reverse("check-in", kwargs={"slug": event.slug, "number": 1})).content.decode()
    assert "as-is: 7 is not a multiple of 4 — change the policy in Settings." in page
    with pytest.raises(SetupError) as err:
        prepare_session(event, 1)
    assert "substitutes" in err.value.message
    assert not event.teams.filter(withdrawn=True).exists()  # nothing stored on a refused Prepare


def test_sit_out_policy_outlook(director, director_client):
    event = _event(director, team_roster(12), name="Sit", slug="sit", sessions=3, entrant_policy="sit-out-datum")
    check_in(event, 1, [t.pk for t in event.teams.all()[:10]], actor="director")
    page = director_client.get(reverse("check-in", kwargs={"slug": event.slug, "number": 1})).content.decode()
    assert "10 teams present." in page and "2 entrants will sit out each session in turn." in page


def _replace(player: Player, name: str) -> Player:
    """A replacement for good, stored the way a substitution leaves it (Player.replaced_by)."""
    event = player.event
    number = max(event.players.values_list("number", flat=True)) + 1
    new = Player.objects.create(event=event, team=player.team, member=player.member, number=number, name=name,
                                substitute=player.team is None)
    player.replaced_by = new
    player.save(update_fields=["replaced_by"])
    return new


def test_team_event_later_sessions_seat_the_end_of_the_replaced_by_chain(director):
    event = _event(director, team_roster(8), name="Chain", slug="chain", sessions=3)
    prepare_session(event, 1)
    original = event.players.get(name="Team 3 player 2")
    first = _replace(original, "First replacement")
    prepare_session(event, 2)
    names = set(_seated(event, 2).values_list("player__name", flat=True))
    assert "First replacement" in names and "Team 3 player 2" not in names
    seat = _seated(event, 2).get(player=first)
    assert seat.team_id == original.team_id
    second = _replace(first, "Second replacement")
    prepare_session(event, 3)
    names = set(_seated(event, 3).values_list("player__name", flat=True))
    assert "Second replacement" in names and not {"First replacement", "Team 3 player 2"} & names
    assert _seated(event, 3).filter(team=original.team).count() == 4
    assert _seated(event, 3).get(player=second).team_id == original.team_id


def test_individual_event_replacement_takes_the_replaced_players_place(director):
    event = _event(director, individual_roster(16), name="Solo", slug="solo", sessions=2, method="individual")
    prepare_session(event, 1)
    plan_before = event.grouping_plan
    original = event.players.get(name="Player 5")
    _replace(original, "Stand-in")
    prepare_session(event, 2)
    event.refresh_from_db()
    assert event.grouping_plan == plan_before  # same plan: the replacement holds the replaced place
    names = set(_seated(event, 2).values_list("player__name", flat=True))
    assert len(names) == 16 and "Stand-in" in names and "Player 5" not in names


def test_individual_check_in_by_player(director):
    event = _event(director, individual_roster(17), name="Solo17", slug="solo17", entrant_policy="substitutes",
                   method="individual")
    missing = event.players.get(name="Player 17")
    check_in(event, 1, [p.pk for p in event.players.exclude(pk=missing.pk)], actor="director")
    prepare_session(event, 1)
    missing.refresh_from_db()
    assert missing.withdrawn and not event.players.filter(substitute=True).exists()
    assert _seated(event).count() == 16
    assert Team.objects.filter(event=event).count() == 0 and Event.objects.get(pk=event.pk).grouping_plan["entrants"] == 16


def test_a_late_team_withdrawn_at_session_1_is_taken_back_and_seated_from_the_next_session(director, director_client):
    """A team arrives after session 1 was prepared without it: the director takes it back on the
    check-in page; it is ranked again, checked in for session 2 and seated by Prepare."""
    event = _event(director, team_roster(8), name="Late", slug="late", sessions=2, entrant_policy="substitutes")
    late = event.teams.get(name="Team 5")
    check_in(event, 1, [t.pk for t in event.teams.exclude(pk=late.pk)], actor="director")
    prepare_session(event, 1)
    late.refresh_from_db()
    assert late.withdrawn
    url = reverse("check-in", kwargs={"slug": event.slug, "number": 2})
    page = director_client.get(url).content.decode()
    assert 'id="withdrawn"' in page and "Team 5" in page and "Take back" in page
    director_client.post(url, {"action": "reinstate", "entrant": late.pk})
    late.refresh_from_db()
    assert not late.withdrawn and not late.substitute
    entry = AuditEntry.objects.get(event=event, action="entrant-reinstated")
    assert entry.detail["name"] == "Team 5" and entry.detail["from_session"] == 2
    page = director_client.get(url).content.decode()
    assert f'value="{late.pk}"' in page.split('id="check-in-form"')[1]  # listed for session 2's check-in
    assert entry.detail["stood_down"] and event.teams.get(name=entry.detail["stood_down"]).withdrawn  # its stand-in
    check_in_all(event, 2, actor="director")
    prepare_session(event, 2)
    assert late.pk in set(_seated(event, 2).values_list("team_id", flat=True))
    with pytest.raises(SetupError) as again:
        from tournament.check_in import reinstate
        reinstate(event, late.pk, actor="director")
    assert again.value.field == "entrant"


def test_a_team_event_checks_in_by_player_and_names_who_is_not_here(director, director_client):
    event = _event(director, team_roster(8), name="By player", slug="by-player", sessions=2)
    url = reverse("check-in", kwargs={"slug": event.slug, "number": 1})
    page = director_client.get(url).content.decode()
    assert page.count('name="present_player"') == 32 and 'name="by_player"' in page
    late = event.players.get(name="Team 2 player 3")
    players = [str(p.pk) for p in event.players.exclude(pk=late.pk)]
    director_client.post(url, {"action": "save", "present": [str(t.pk) for t in event.teams.all()], "by_player": "1",
                               "present_player": players})
    assert CheckIn.objects.filter(event=event, session_number=1, team__isnull=False).count() == 8
    assert CheckIn.objects.filter(event=event, session_number=1, player__isnull=False).count() == 31
    page = director_client.get(url).content.decode()
    assert "8 teams present." in page and "Players not here yet: Team 2 player 3 (Team 2)" in page
    prepare_session(event, 1)
    assert not event.teams.filter(withdrawn=True).exists()  # the team is present: its missing player is replaced later
    assert _seated(event).count() == 32
