"""Rules found by the review of the director's day (docs/director-guide.md), each checked as the director or a player meets it:
reprints follow what changed, settings never accept a roster that would fail at Prepare, cached
standings follow a rename, deletion needs an export newer than the last change and takes the
print files with it, a player's next seat follows substitutions, a draft's labels say nothing,
the projector's clock stops when play is over, and the invitation page is the site's own."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from factories import prepared_event, team_roster
from scoring.adjustments import add_adjustment
from scoring.reports.standing_rows import cached_standings
from scoring.result_pages import next_seat
from tournament.clock import start_clock
from tournament.event_setup import change_status, delete_event, deletion_refusal, record_final_export, update_settings
from tournament.models import Event, Table
from tournament.entrants import rename_team
from tournament.roles import invite
from tournament.seating import SetupError
from tournament.services import create_event, import_roster, prepare_session
from tournament.substitutions import substitute
from walls.models import PrintJob
from walls.print_jobs import request_print
from walls.print_kinds.people import player_cards
from walls.setcode import SetId

pytestmark = pytest.mark.django_db


def test_a_reprint_after_a_new_session_or_a_substitution_renders_again_and_shows_it():
    event = prepared_event(team_roster(4), name="Reprint", slug="reprint", sessions=2)
    first = request_print(event, "player_cards", {"lang": "en"})
    assert all(len(card.seats) == 1 for card in player_cards(event))
    prepare_session(event, 2)
    second = request_print(event, "player_cards", {"lang": "en"})
    assert second.pk != first.pk and all(len(card.seats) == 2 for card in player_cards(event))
    rooms = request_print(event, "room_seating", {"session": 1})
    table = Table.objects.filter(group__session__event=event, group__session__number=1).first()
    substitute(event, 1, player_out=table.seats.get(seat="E").player, name="Late Reserve", reason="ill", actor="td")
    again = request_print(event, "room_seating", {"session": 1})
    assert again.pk != rooms.pk
    assert request_print(event, "room_seating", {"session": 1}).pk == again.pk  # nothing changed since: reused


def test_a_rule_set_with_fewer_seats_than_the_imported_teams_is_refused():
    event = create_event(name="Seats", slug="seats")
    import_roster(event, team_roster(12))
    with pytest.raises(SetupError) as err:
        update_settings(event, actor="td", ruleset="shiragiku-3p")
    assert err.value.field == "ruleset" and "4 players" in err.value.message
    event.refresh_from_db()
    assert event.ruleset_code == "mcr-duplicate"


def test_going_back_to_as_is_with_a_roster_that_cannot_fill_the_groups_is_refused_at_once():
    event = create_event(name="Thirty", slug="thirty", entrant_policy="substitutes")
    import_roster(event, team_roster(30))
    with pytest.raises(SetupError) as err:
        update_settings(event, actor="td", entrant_policy="as-is")
    assert err.value.field == "entrant_policy" and "30 entrants" in err.value.message
    assert Event.objects.get(pk=event.pk).entrant_policy == "substitutes"


def test_a_renamed_team_shows_its_new_name_in_the_cached_standings_at_once():
    event = prepared_event(team_roster(4), name="Names", slug="names")
    assert "Team 1" in {r["name"] for r in cached_standings(event)}
    rename_team(event.teams.get(number=1), name="Renamed Team", actor="td")
    names = {r["name"] for r in cached_standings(event)}
    assert "Renamed Team" in names and "Team 1" not in names


def test_deletion_needs_an_export_newer_than_the_last_change_and_removes_the_print_files():
    event = prepared_event(team_roster(4), name="Gone", slug="gone")
    job = request_print(event, "movement", {"session": 1})
    change_status(event, "finished", actor="td")
    record_final_export(event, actor="td", seed=True)  # the seed is not revealed: the export with it (docs/security.md, "Threats and the tests that cover them")
    change_status(event, "archived", actor="td")
    assert deletion_refusal(Event.objects.get(pk=event.pk)) == ""  # archiving after the export asks for no other
    add_adjustment(event, team=event.teams.first(), unit="mp", amount=-5, reason="late", actor="td")
    assert "changed after its last full export" in deletion_refusal(Event.objects.get(pk=event.pk))
    record_final_export(event, actor="td", seed=True)
    with pytest.raises(SetupError):
        delete_event(Event.objects.get(pk=event.pk), confirm_slug="wrong", actor="td")
    delete_event(Event.objects.get(pk=event.pk), confirm_slug="gone", actor="td")
    assert not Event.objects.filter(slug="gone").exists() and not PrintJob.objects.filter(pk=job.pk).exists()


@pytest.mark.django_db(transaction=True)
def test_deleting_an_event_removes_its_print_files_from_storage():
    import os

    event = prepared_event(team_roster(4), name="Files", slug="files")
    path = request_print(event, "movement", {"session": 1}, run_now=True).file.path
    assert os.path.exists(path)
    change_status(event, "finished", actor="td")
    record_final_export(event, actor="td", seed=True)
    delete_event(Event.objects.get(pk=event.pk), confirm_slug="files", actor="td")
    assert not os.path.exists(path)


def test_the_next_seat_follows_a_substitution():
    event = prepared_event(team_roster(4), name="Next", slug="next")
    table = Table.objects.filter(group__session__event=event).order_by("number").first()
    east = table.seats.get(seat="E").player
    assert next_seat(event, east)["table"] == table.number
    sub = substitute(event, 1, player_out=east, name="Late Reserve", reason="ill", actor="td")
    assert next_seat(event, east) is None
    seat = next_seat(event, sub.player_in)
    assert (seat["table"], seat["seat"], seat["from_set"]) == (table.number, "E", sub.sets[0])


def test_a_drafts_set_label_is_not_found_for_a_visitor():
    prepared_event(team_roster(4), name="Secret", slug="secret-cup", status="draft")
    response = Client().get(reverse("scan", args=[SetId("secret-cup", 1, 1).payload]))
    assert response.status_code == 404
    unknown = Client().get(reverse("scan", args=[SetId("no-such-cup", 1, 1).payload]))
    assert unknown.status_code == 404


def test_finishing_the_event_stops_the_projector_clock(client):
    event = prepared_event(team_roster(4), name="Clock", slug="clock")
    start_clock(event.sessions.get(number=1), minutes=30, actor="td")
    change_status(event, "finished", actor="td")
    assert event.sessions.get(number=1).clock_started_at is None
    clock = client.get(reverse("projector-json", args=[event.slug])).json()["clock"]
    assert clock["running"] is False and 0 < clock["remaining"] <= 30 * 60


def test_the_invitation_link_opens_the_sites_own_page_to_set_a_password():
    event = create_event(name="Invite", slug="invite")
    invitation = invite(event, username="newscorer", role="scorer", actor="td")
    page = Client().get(invitation.set_password_path, follow=True)
    text = page.content.decode()
    assert page.status_code == 200 and "Set your password" in text and "Django administration" not in text
    assert "/admin/" not in text
    assert get_user_model().objects.filter(username="newscorer").exists()
