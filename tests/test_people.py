"""People and entrants without the admin (docs/director-guide.md, "3. People and entrants"): the director invites staff and scorers (a new
account gets a set-password link that works), binds a scorer to tables, removes a role, corrects
a team's or player's name (audited), adds a late team before session 1; nobody else may."""

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from factories import prepared_event, team_roster

from tournament.models import AuditEntry, EventRole, Table
from tournament.entrants import add_entrant, rename_team, update_player
from tournament.roles import accept_invitation, invite, revoke_role, set_scorer_tables
from tournament.services import SetupError, create_event, import_roster, prepare_session

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def event(director):
    event = prepared_event(team_roster(8), name="People Cup", slug="people", sessions=2, director=director)
    return event


def test_invite_a_new_user_gives_a_link_that_sets_a_password(event, director_client):
    tables = list(Table.objects.filter(group__session__event=event).order_by("number")[:2])
    response = director_client.post(reverse("people", kwargs={"slug": event.slug}),
                            {"action": "invite", "username": "kana", "role": "scorer", "tables": [str(t.pk) for t in tables]})
    assert response.status_code == 200
    page = response.content.decode()
    link = response.context["link"]
    assert link and link in page
    user = User.objects.get(username="kana")
    assert not user.has_usable_password()
    grant = EventRole.objects.get(event=event, user=user, role="scorer")
    assert sorted(grant.tables.values_list("number", flat=True)) == [t.number for t in tables]
    assert AuditEntry.objects.filter(event=event, action="role-granted", detail__user="kana").exists()
    # The link, opened by the new user in another browser, sets the password.
    other = Client()
    form = other.get(link, follow=True)
    assert form.status_code == 200 and "new_password1" in form.content.decode()
    done = other.post(form.redirect_chain[-1][0] if form.redirect_chain else link,
                      {"new_password1": "tiles-and-winds-42", "new_password2": "tiles-and-winds-42"})
    assert done.status_code == 302
    login = Client().post(reverse("login"), {"username": "kana", "password": "tiles-and-winds-42"})
    assert login.status_code == 302  # logged in with the password just chosen
    # The page shows the link once: reloaded, it is gone.
    assert 'id="invite-link"' not in director_client.get(reverse("people", kwargs={"slug": event.slug})).content.decode()


def test_invite_an_existing_user_waits_for_the_owner_to_accept(event):
    # docs/security.md, "Threats and the tests that cover them": an existing account never gets the role silently (tests/test_invitations.py).
    ken = User.objects.create_user("ken", password="pw-ken-1")
    invitation = invite(event, username="ken", role="staff", actor="director")
    assert not invitation.created and invitation.set_password_path == "" and invitation.pending is not None
    assert User.objects.get(username="ken").check_password("pw-ken-1")
    assert not EventRole.objects.filter(event=event, user__username="ken").exists()
    again = invite(event, username="ken", role="staff", actor="director")  # a re-posted form
    assert again.pending.pk == invitation.pending.pk and not again.created
    accept_invitation(invitation.pending.pk, user=ken)
    assert EventRole.objects.filter(event=event, user__username="ken", role="staff").count() == 1


def test_scorer_tables_and_revoke(event):
    invite(event, username="sc", role="scorer", actor="director")
    tables = list(Table.objects.filter(group__session__event=event).order_by("number"))
    set_scorer_tables(event, username="sc", tables=[tables[3].pk, tables[5].pk], actor="director")
    grant = EventRole.objects.get(event=event, user__username="sc")
    assert sorted(grant.tables.values_list("number", flat=True)) == [tables[3].number, tables[5].number]
    other = create_event(name="Other", slug="other")
    import_roster(other, team_roster(4))
    prepare_session(other, 1)
    with pytest.raises(SetupError):
        set_scorer_tables(event, username="sc", tables=[Table.objects.filter(group__session__event=other).first().pk], actor="director")
    assert revoke_role(event, username="sc", role="scorer", actor="director")
    assert not EventRole.objects.filter(event=event, user__username="sc").exists()
    assert AuditEntry.objects.filter(event=event, action="role-revoked").exists()
    with pytest.raises(SetupError):  # the last director stays
        revoke_role(event, username="director", role="director", actor="director")


def test_revoke_through_the_page(event, director_client):
    invite(event, username="st", role="staff", actor="director")
    director_client.post(reverse("people", kwargs={"slug": event.slug}), {"action": "revoke", "username": "st", "role": "staff"})
    assert not EventRole.objects.filter(event=event, user__username="st").exists()


def test_rename_a_team_and_a_player_audited(event, director_client):
    team = event.teams.get(number=1)
    url = reverse("team-edit", kwargs={"slug": event.slug, "team_id": team.pk})
    page = director_client.get(url).content.decode()
    assert "Team 1 player 0" in page
    members = [p.name for p in team.players.order_by("member")]
    members[2] = "Corrected Name"
    director_client.post(url, {"name": "Dragons", "member": members})
    team.refresh_from_db()
    assert team.name == "Dragons" and team.players.get(member=2).name == "Corrected Name"
    assert AuditEntry.objects.filter(event=event, action="team-renamed", detail__after="Dragons").exists()
    renamed = AuditEntry.objects.get(event=event, action="player-renamed")
    assert renamed.detail["before"] == "Team 1 player 2" and renamed.detail["after"] == "Corrected Name"
    player = team.players.get(member=0)
    director_client.post(reverse("player-edit", kwargs={"slug": event.slug, "player_id": player.pk}), {"name": "Aiko Sato"})
    player.refresh_from_db()
    assert player.name == "Aiko Sato"
    with pytest.raises(SetupError):
        rename_team(event.teams.get(number=2), name="Dragons", actor="director")
    with pytest.raises(SetupError):
        update_player(player, name="  ", actor="director")
    # The seating shows the new names.
    seating = director_client.get(reverse("seating", kwargs={"slug": event.slug, "number": 1})).content.decode()
    assert "Aiko Sato" in seating and "Dragons" in seating


def test_late_team_before_session_1_and_pointer_to_substitutions_after(director, director_client):
    event = create_event(name="Late", slug="late", entrant_policy="substitutes")
    import_roster(event, team_roster(7))
    EventRole.objects.create(event=event, user=director, role="director")
    url = reverse("entrants", kwargs={"slug": event.slug})
    director_client.post(url, {"action": "add", "team": "Latecomers", "players": "L1\nL2\nL3\nL4"})
    team = event.teams.get(name="Latecomers")
    assert [p.name for p in team.players.order_by("member")] == ["L1", "L2", "L3", "L4"]
    assert AuditEntry.objects.filter(event=event, action="entrant-added").exists()
    prepare_session(event, 1)
    assert not event.teams.filter(substitute=True).exists()  # 8 teams: no substitute needed
    seated = {s.team.name for t in Table.objects.filter(group__session__event=event) for s in t.seats.all()}
    assert "Latecomers" in seated
    with pytest.raises(SetupError) as err:
        add_entrant(event, team="Later", players=["a", "b", "c", "d"], actor="director")
    assert "Substitutions" in err.value.message
    page = director_client.get(url).content.decode()
    assert reverse("substitute", kwargs={"slug": event.slug, "number": 1}) in page and 'id="late-entrant"' not in page


def test_entrants_page_lists_teams_with_edit_links(event, director_client):
    page = director_client.get(reverse("entrants", kwargs={"slug": event.slug})).content.decode()
    for team in event.teams.all():
        assert reverse("team-edit", kwargs={"slug": event.slug, "team_id": team.pk}) in page
    player = event.players.first()
    assert reverse("player-edit", kwargs={"slug": event.slug, "player_id": player.pk}) in page


def test_roster_import_on_the_entrants_page_for_an_event_without_one(director, director_client):
    event = create_event(name="Empty", slug="empty")
    EventRole.objects.create(event=event, user=director, role="director")
    url = reverse("entrants", kwargs={"slug": event.slug})
    assert 'name="roster"' in director_client.get(url).content.decode()
    text = "チーム;選手\n" + "".join(f"T{t};P{t}{m}\n" for t in range(4) for m in range(4))
    director_client.post(url, {"action": "import", "roster": SimpleUploadedFile("r.csv", text.encode("shift_jis"))})
    assert event.teams.count() == 4 and event.players.count() == 16


@pytest.mark.parametrize("name", ["rooms", "people", "entrants"])
def test_non_directors_are_refused(event, name):
    staff = User.objects.create_user("staffer", password="pw-s-1")
    EventRole.objects.create(event=event, user=staff, role="staff")
    client = Client()
    client.force_login(staff)
    url = reverse(name, kwargs={"slug": event.slug})
    assert client.get(url).status_code == 403
    assert client.post(url, {"action": "invite", "username": "x", "role": "director"}).status_code == 403
    assert not User.objects.filter(username="x").exists()


def test_non_directors_are_refused_edit_and_check_in(event):
    player = User.objects.create_user("pl", password="pw-p-1")
    client = Client()
    client.force_login(player)
    team = event.teams.first()
    for url in (reverse("team-edit", kwargs={"slug": event.slug, "team_id": team.pk}),
                reverse("player-edit", kwargs={"slug": event.slug, "player_id": team.players.first().pk}),
                reverse("check-in", kwargs={"slug": event.slug, "number": 2})):
        assert client.post(url, {"name": "Hacked"}).status_code == 403
    team.refresh_from_db()
    assert team.name != "Hacked"
