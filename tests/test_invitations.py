"""An invitation never hands an event to a stranger (docs/security.md, "Threats and the tests that cover them", threat 3): an invitation to an
existing account waits until the account's owner accepts it while logged in; the director sees
"invited, waiting" and may withdraw it; accounts are matched case-insensitively; an invitation
that creates a new account keeps its set-password link (setting the password is the acceptance)."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from factories import prepared_event, team_roster

from tournament.models import AuditEntry, EventRole, Invitation, Table
from tournament.roles import accept_invitation, decline_invitation, invite, revoke_role, set_scorer_tables, withdraw_invitation
from tournament.services import SetupError, create_event

pytestmark = pytest.mark.django_db
User = get_user_model()
PASSWORD = "tiles-and-winds-42"


@pytest.fixture
def event(director):
    return prepared_event(team_roster(4), name="Secret Cup", slug="secret", sessions=2, director=director)


def _people(event):
    return reverse("people", kwargs={"slug": event.slug})


def _set_password_through_the_link(link: str) -> None:
    """What the holder of a set-password link does in their own browser."""
    browser = Client()
    form = browser.get(link, follow=True)
    assert form.status_code == 200 and "new_password1" in form.content.decode()
    done = browser.post(form.redirect_chain[-1][0] if form.redirect_chain else link,
                        {"new_password1": PASSWORD, "new_password2": PASSWORD})
    assert done.status_code == 302


def _stranger_takes_alice_chen() -> Client:
    """The director of another event (any staff user may create one) invites alice.chen, takes
    the set-password link and sets a password: the stranger now owns the account."""
    stranger_director = User.objects.create_user("mallory", password="pw-mal-1", is_staff=True)
    other = create_event(name="Other Cup", slug="other")
    EventRole.objects.create(event=other, user=stranger_director, role=EventRole.Role.DIRECTOR)
    mallory = Client()
    mallory.force_login(stranger_director)
    response = mallory.post(_people(other), {"action": "invite", "username": "alice.chen", "role": "staff"})
    assert response.status_code == 200
    _set_password_through_the_link(response.context["link"])
    stranger = Client()
    assert stranger.post(reverse("login"), {"username": "alice.chen", "password": PASSWORD}).status_code == 302
    return stranger


def test_an_invitation_to_an_existing_account_does_not_hand_the_event_to_a_stranger(event, director_client):
    stranger = _stranger_takes_alice_chen()
    wall = reverse("wall", args=[event.slug, 1, 1])
    export = reverse("event-export", args=[event.slug])
    assert stranger.get(wall).status_code in (403, 404)
    # This event's director invites the real Alice Chen, typing her name as she writes it.
    response = director_client.post(_people(event), {"action": "invite", "username": "Alice.Chen", "role": "staff"}, follow=True)
    page = response.content.decode()
    assert "now holds the role" not in page
    assert User.objects.filter(username__iexact="alice.chen").count() == 1  # no second account beside alice.chen
    # The stranger holding alice.chen reads no secret wall and no PIN.
    assert not EventRole.objects.filter(event=event, user__username="alice.chen").exists()
    assert stranger.get(wall).status_code in (403, 404)
    data = stranger.get(export).json()
    assert all("pin" not in p for p in data["players"])


def test_the_director_is_told_the_account_exists_and_sees_invited_waiting(event, director_client):
    User.objects.create_user("alice.chen", password="pw-alice-1")
    response = director_client.post(_people(event), {"action": "invite", "username": "Alice.Chen", "role": "staff"}, follow=True)
    page = response.content.decode()
    assert "already exists" in page and "only when its owner accepts" in page
    waiting = page[page.index('id="invited-waiting"'):]
    assert "alice.chen" in waiting[:3000] and "invited, waiting" in waiting[:3000] and "Withdraw" in waiting[:3000]
    assert 'id="invite-link"' not in page  # no link for an existing account
    pending = Invitation.objects.get(event=event)
    assert (pending.username, pending.user.username, pending.role, pending.invited_by, pending.status) == (
        "Alice.Chen", "alice.chen", "staff", "director", Invitation.Status.PENDING)
    assert AuditEntry.objects.filter(event=event, action="invitation-sent", detail__user="alice.chen").exists()


def test_accepting_while_logged_in_grants_exactly_the_role_invited(event, director_client):
    alice = User.objects.create_user("alice.chen", password="pw-alice-1")
    tables = list(Table.objects.filter(group__session__event=event).order_by("number")[:2])
    director_client.post(_people(event), {"action": "invite", "username": "ALICE.CHEN", "role": "scorer",
                                  "tables": [str(t.pk) for t in tables]})
    assert not EventRole.objects.filter(event=event, user=alice).exists()
    owner = Client()
    owner.force_login(alice)
    home = owner.get(reverse("home")).content.decode()
    assert reverse("invitations") in home  # reachable from the site menu and the home page
    page = owner.get(reverse("invitations")).content.decode()
    assert "Secret Cup" in page and "Scorer" in page
    pending = Invitation.objects.get(event=event, user=alice)
    response = owner.post(reverse("invitations"), {"action": "accept", "invitation": pending.pk})
    assert response.status_code == 302
    grants = EventRole.objects.filter(event=event, user=alice)
    assert [g.role for g in grants] == ["scorer"]
    assert sorted(grants[0].tables.values_list("number", flat=True)) == [t.number for t in tables]
    pending.refresh_from_db()
    assert pending.status == Invitation.Status.ACCEPTED and pending.decided_at is not None
    entry = AuditEntry.objects.get(event=event, action="invitation-accepted")
    assert entry.actor == "alice.chen" and entry.detail["role"] == "scorer" and entry.detail["invited_by"] == "director"
    # Repeating the accept changes nothing; the director's page now lists the role, not the invitation.
    owner.post(reverse("invitations"), {"action": "accept", "invitation": pending.pk})
    assert EventRole.objects.filter(event=event, user=alice).count() == 1
    assert AuditEntry.objects.filter(event=event, action="invitation-accepted").count() == 1
    people = director_client.get(_people(event)).content.decode()
    assert 'id="invited-waiting"' not in people
    roles = people[people.index('id="roles"'):]
    assert "alice.chen" in roles[:4000]
    assert reverse("invitations") not in owner.get(reverse("home")).content.decode()
    # The director removes the role: the old invitation, posted again, never brings it back.
    revoke_role(event, username="alice.chen", role="scorer", actor="director")
    owner.post(reverse("invitations"), {"action": "accept", "invitation": pending.pk})
    assert not EventRole.objects.filter(event=event, user=alice).exists()


def test_nobody_else_can_accept_and_a_decline_or_withdrawal_grants_nothing(event, director):
    alice = User.objects.create_user("alice.chen", password="pw-alice-1")
    bob = User.objects.create_user("bob", password="pw-bob-1")
    sent = invite(event, username="alice.chen", role="director", actor="director")
    assert sent.pending is not None and not sent.created and sent.set_password_path == ""
    with pytest.raises(SetupError):
        accept_invitation(sent.pending.pk, user=bob)
    bob_client = Client()
    bob_client.force_login(bob)
    assert bob_client.post(reverse("invitations"), {"action": "accept", "invitation": sent.pending.pk}).status_code == 302
    assert not EventRole.objects.filter(event=event, user__in=[alice, bob], role="director").exists()
    assert decline_invitation(sent.pending.pk, user=alice)
    assert not decline_invitation(sent.pending.pk, user=alice)  # repeated: nothing more
    with pytest.raises(SetupError):
        accept_invitation(sent.pending.pk, user=alice)
    assert not EventRole.objects.filter(event=event, user=alice).exists()
    assert AuditEntry.objects.filter(event=event, action="invitation-declined").count() == 1
    # Invited again, then withdrawn by the director before the owner answers.
    again = invite(event, username="alice.chen", role="staff", actor="director")
    assert again.pending.pk != sent.pending.pk
    assert withdraw_invitation(event, again.pending.pk, actor="director")
    assert not withdraw_invitation(event, again.pending.pk, actor="director")
    with pytest.raises(SetupError):
        accept_invitation(again.pending.pk, user=alice)
    assert not EventRole.objects.filter(event=event, user=alice).exists()
    assert AuditEntry.objects.filter(event=event, action="invitation-withdrawn").count() == 1


def test_withdraw_through_the_page_and_a_repeated_invitation_is_one(event, director_client):
    User.objects.create_user("alice.chen", password="pw-alice-1")
    for _ in range(2):  # a re-posted form
        director_client.post(_people(event), {"action": "invite", "username": "alice.chen", "role": "staff"})
    assert Invitation.objects.filter(event=event, status=Invitation.Status.PENDING).count() == 1
    assert AuditEntry.objects.filter(event=event, action="invitation-sent").count() == 1
    pending = Invitation.objects.get(event=event)
    response = director_client.post(_people(event), {"action": "withdraw", "invitation": pending.pk}, follow=True)
    assert 'id="invited-waiting"' not in response.content.decode()
    pending.refresh_from_db()
    assert pending.status == Invitation.Status.WITHDRAWN


def test_an_invitation_of_another_event_cannot_be_withdrawn_from_this_one(event, director):
    alice = User.objects.create_user("alice.chen", password="pw-alice-1")
    other = create_event(name="Other Cup", slug="other")
    sent = invite(other, username="alice.chen", role="staff", actor="someone")
    with pytest.raises(SetupError):
        withdraw_invitation(event, sent.pending.pk, actor="director")
    assert accept_invitation(sent.pending.pk, user=alice).role == "staff"


def test_a_new_account_keeps_its_set_password_link_and_the_role(event, director_client):
    response = director_client.post(_people(event), {"action": "invite", "username": "Kana.Sato", "role": "staff"})
    link = response.context["link"]
    assert link and 'id="invite-link"' in response.content.decode()
    user = User.objects.get(username="Kana.Sato")
    assert EventRole.objects.filter(event=event, user=user, role="staff").exists()
    assert not Invitation.objects.exists()
    # The same person typed in another case later: the same account, already holding the role.
    again = invite(event, username="kana.sato", role="staff", actor="director")
    assert not again.created and again.pending is None and again.already
    assert User.objects.filter(username__iexact="kana.sato").count() == 1


def test_roles_are_looked_up_case_insensitively(event):
    invite(event, username="Sc.Orer", role="scorer", actor="director")
    tables = list(Table.objects.filter(group__session__event=event).order_by("number"))
    assert [t.number for t in set_scorer_tables(event, username="sc.orer", tables=[tables[1].pk], actor="director")] == [tables[1].number]
    assert revoke_role(event, username="SC.ORER", role="scorer", actor="director")
    assert not EventRole.objects.filter(event=event, user__username="Sc.Orer").exists()


def test_two_accounts_differing_only_in_case_are_refused_by_name(event):
    User.objects.create_user("twin", password="pw-t-1")
    User.objects.create_user("Twin", password="pw-t-2")
    with pytest.raises(SetupError) as err:
        invite(event, username="TWIN", role="staff", actor="director")
    assert err.value.field == "username"
    assert not Invitation.objects.exists() and not EventRole.objects.filter(event=event, role="staff").exists()
