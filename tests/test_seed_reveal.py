"""docs/security.md, "The master seed": the master seed is revealed only after the event, after a confirmation step,
once; afterwards no session can be prepared (its walls would follow from public data).

The event is built through the services: 4 teams of the demo roster (one group of 4 tables),
3 planned sessions; sessions are played with :func:`tournament.demo.play_session` (submit and
confirm every result with an opponent's PIN), so sets are released the way they are at an event.
"""

import html
import random
from dataclasses import dataclass

import pytest
from django.test import Client
from django.urls import reverse

from scoring.visibility import event_finished, session_finished, sets_to_play
from tournament.models import AuditEntry, Event, EventRole
from tournament.services import SetupError, prepare_session, reveal_seed, seat_session
from walls.services import WallError, generate_walls

from factories import client_for, demo_roster, prepared_event, rolled_back

pytestmark = pytest.mark.django_db

SESSIONS = 3
SETS = 16  # MCR duplicate: 16 sets a session


@dataclass
class Built:
    event: Event
    director: object
    staff: object


@pytest.fixture(scope="module")
def built(django_db_setup, django_db_blocker):
    """An event with sessions 1 and 2 of 3 played everywhere and session 3 seated, unplayed;
    rolled back at the end of the module (each test runs in its own nested transaction)."""
    from django.contrib.auth import get_user_model

    from tournament.demo import play_session

    with rolled_back(django_db_blocker):
        # the first 4 teams of the demo roster: one group of 4 tables
        event = prepared_event(demo_roster(4), prepare=(), name="Reveal Cup", slug="reveal-cup", sessions=SESSIONS)
        rng = random.Random(14)
        for number in (1, 2):
            prepare_session(event, number)
            play_session(event, number, rng)
        prepare_session(event, 3)
        users = get_user_model().objects
        director = users.create_user("reveal-director", password="pw-director-1")
        staff = users.create_user("reveal-staff", password="pw-staff-1")
        EventRole.objects.create(event=event, user=director, role=EventRole.Role.DIRECTOR)
        EventRole.objects.create(event=event, user=staff, role=EventRole.Role.STAFF)
        yield Built(event, director, staff)


def finish(event):
    from tournament.demo import play_session

    play_session(event, 3, random.Random(3))
    assert event_finished(event)


def fresh(event):
    return Event.objects.get(pk=event.pk)


# --- the service ---------------------------------------------------------------------------------

def test_the_fixture_has_sessions_1_and_2_of_3_finished(built):
    event = built.event
    assert session_finished(event, 1) and session_finished(event, 2) and not session_finished(event, 3)
    assert sets_to_play(event) == SETS and not event_finished(event)


def test_reveal_is_refused_with_the_number_of_sets_still_to_play_when_a_planned_session_is_unplayed(built):
    with pytest.raises(SetupError) as err:
        reveal_seed(built.event, actor="reveal-director")
    assert err.value.field == "seed"
    assert "16 sets" in err.value.message and "reveal the master seed after the event" in err.value.message
    assert not fresh(built.event).seed_revealed
    assert not AuditEntry.objects.filter(event=built.event, action="reveal-seed").exists()


def test_reveal_is_refused_while_a_planned_session_is_not_even_seated(built):
    event = create_small_event(sessions=3)  # session 1 played, sessions 2 and 3 not seated
    with pytest.raises(SetupError) as err:
        reveal_seed(event, actor="x")
    assert "32 sets" in err.value.message
    assert not fresh(event).seed_revealed


def create_small_event(sessions):
    from tournament.demo import play_session

    event = prepared_event(demo_roster(4), name="Small", slug=f"small-{sessions}", sessions=sessions)
    play_session(event, 1, random.Random(1))
    return event


def test_one_set_left_is_named_in_the_singular(built):
    from tournament.demo import play_session

    from scoring.models import SetRelease

    play_session(built.event, 3, random.Random(3))
    SetRelease.objects.filter(event=built.event, session_number=3, set_no=16).delete()
    with pytest.raises(SetupError) as err:
        reveal_seed(built.event, actor="x")
    assert err.value.message.startswith("1 set of the planned sessions is still to be played")


def test_reveal_works_once_every_planned_session_is_finished_and_writes_an_audit_entry(built):
    finish(built.event)
    event = reveal_seed(built.event, actor="reveal-director")
    assert event.seed_revealed and fresh(event).seed_revealed
    entry = AuditEntry.objects.get(event=event, action="reveal-seed")
    assert (entry.action, entry.actor, entry.detail) == ("reveal-seed", "reveal-director", {"commitment": event.commitment})


def test_revealing_twice_is_refused_and_changes_nothing(built):
    finish(built.event)
    reveal_seed(built.event, actor="reveal-director")
    with pytest.raises(SetupError) as err:
        reveal_seed(built.event, actor="someone else")
    assert "already revealed" in err.value.message
    assert AuditEntry.objects.filter(event=built.event, action="reveal-seed").count() == 1


def test_nothing_can_be_prepared_after_the_reveal(built):
    finish(built.event)
    event = fresh(built.event)  # read before the reveal: this instance still says "not revealed"
    reveal_seed(built.event, actor="reveal-director")
    Event.objects.filter(pk=event.pk).update(sessions_planned=4)  # e.g. raised afterwards
    event.sessions_planned = 4
    assert not event.seed_revealed  # the services read the flag from the database
    reason = "the master seed is revealed: walls of a new session would follow from public data"
    with pytest.raises(SetupError) as err:
        prepare_session(event, 4)
    assert err.value.field == "seed" and err.value.message == reason
    with pytest.raises(SetupError) as err:
        seat_session(event, 4)
    assert err.value.message == reason
    with pytest.raises(WallError) as err:
        generate_walls(event, 4)
    assert err.value.field == "seed" and err.value.message == reason
    assert not event.sessions.filter(number=4).exists() and not event.wall_sets.filter(session_number=4).exists()


# --- the pages -----------------------------------------------------------------------------------

def test_director_page_says_why_the_reveal_is_not_available_yet(built):
    body = client_for(built.director).get(reverse("director", args=[built.event.slug])).content.decode()
    assert "16 sets are still to be played" in body
    assert reverse("reveal-seed", args=[built.event.slug]) not in body


def test_director_page_offers_the_reveal_once_finished(built):
    finish(built.event)
    body = client_for(built.director).get(reverse("director", args=[built.event.slug])).content.decode()
    assert reverse("reveal-seed", args=[built.event.slug]) in body and "Reveal the master seed…" in body
    assert built.event.master_seed not in body


def test_confirmation_page_says_what_revealing_does(built):
    finish(built.event)
    response = client_for(built.director).get(reverse("reveal-seed", args=[built.event.slug]))
    body = response.content.decode()
    assert response.status_code == 200
    for consequence in ("anyone can then re-derive every wall of this event", "no session can be prepared afterwards",
                        "this cannot be undone"):
        assert consequence in body
    assert 'name="confirm_slug"' in body and built.event.master_seed not in body
    assert not fresh(built.event).seed_revealed  # GET changes nothing


def test_confirmation_page_before_the_end_offers_no_form(built):
    body = client_for(built.director).get(reverse("reveal-seed", args=[built.event.slug])).content.decode()
    assert "16 sets are still to be played" in body and 'name="confirm_slug"' not in body


@pytest.mark.parametrize("data", [{}, {"confirm_slug": ""}, {"confirm_slug": "reveal"}, {"confirm_slug": "REVEAL-CUP"}])
def test_a_post_without_the_confirmation_reveals_nothing(built, data):
    finish(built.event)
    response = client_for(built.director).post(reverse("reveal-seed", args=[built.event.slug]), data)
    assert response.status_code == 400
    assert "Type the event's short name, reveal-cup, to confirm" in html.unescape(response.content.decode())
    assert not fresh(built.event).seed_revealed and not AuditEntry.objects.filter(event=built.event, action="reveal-seed").exists()


def test_the_old_one_click_reveal_only_leads_to_the_confirmation_page(built):
    finish(built.event)
    response = client_for(built.director).post(reverse("walls-commitment", args=[built.event.slug]), {"action": "reveal"})
    assert response.status_code == 302 and response["Location"] == reverse("reveal-seed", args=[built.event.slug])
    assert not fresh(built.event).seed_revealed


def test_a_confirmed_post_before_the_end_is_refused_with_the_count(built):
    response = client_for(built.director).post(reverse("reveal-seed", args=[built.event.slug]), {"confirm_slug": "reveal-cup"})
    assert response.status_code == 409 and "16 sets of the planned sessions" in response.content.decode()
    assert not fresh(built.event).seed_revealed


def test_staff_may_not_reveal(built):
    finish(built.event)
    client = client_for(built.staff)
    assert client.get(reverse("reveal-seed", args=[built.event.slug])).status_code == 403
    assert client.post(reverse("reveal-seed", args=[built.event.slug]), {"confirm_slug": "reveal-cup"}).status_code == 403
    assert not fresh(built.event).seed_revealed


def test_reveal_through_the_pages_then_the_event_page_shows_the_seed_and_the_audit_log_the_reveal(built):
    finish(built.event)
    client = client_for(built.director)
    response = client.post(reverse("reveal-seed", args=[built.event.slug]), {"confirm_slug": " reveal-cup "})
    assert response.status_code == 302 and response["Location"] == reverse("director", args=[built.event.slug])
    event = fresh(built.event)
    assert event.seed_revealed
    entry = AuditEntry.objects.get(event=event, action="reveal-seed")
    assert entry.actor == "reveal-director" and entry.action == "reveal-seed"

    public = Client().get(reverse("event", args=[event.slug])).content.decode()
    assert event.master_seed in public and "python -m walls.verify export.json" in public
    assert reverse("event-export", args=[event.slug]) in public

    director_page = client.get(reverse("director", args=[event.slug])).content.decode()
    assert "Audit log" in director_page and "reveal-seed" in director_page and event.commitment in director_page
    again = client.post(reverse("reveal-seed", args=[event.slug]), {"confirm_slug": "reveal-cup"})
    assert again.status_code == 409 and "already revealed" in again.content.decode()
    assert AuditEntry.objects.filter(event=event, action="reveal-seed").count() == 1


def test_the_directors_prepare_is_refused_after_the_reveal(built):
    finish(built.event)
    reveal_seed(built.event, actor="reveal-director")
    Event.objects.filter(pk=built.event.pk).update(sessions_planned=4)
    client = client_for(built.director)
    page = client.get(reverse("director", args=[built.event.slug])).content.decode()
    assert "No session can be prepared" in page and 'action="%s"' % reverse("prepare-session", args=[built.event.slug]) not in page
    response = client.post(reverse("prepare-session", args=[built.event.slug]), {"session": "4"}, follow=True)
    assert "walls of a new session would follow from public data" in response.content.decode()
    assert not built.event.sessions.filter(number=4).exists()


def test_the_audit_log_lists_the_newest_50_entries_first(built):
    for n in range(60):
        AuditEntry.objects.create(event=built.event, action=f"test-{n:02d}", actor="someone")
    body = client_for(built.staff).get(reverse("director", args=[built.event.slug])).content.decode()
    assert "test-59" in body and "test-10" in body and "test-09" not in body
    assert body.index("test-59") < body.index("test-10")


def test_the_reveal_pages_are_translated(built):
    from django.utils import translation

    finish(built.event)
    client = client_for(built.director)
    for language, expected in (("ja", "この操作は取り消せません"), ("zh-hans", "此操作无法撤销")):
        with translation.override(language):  # the request activates its language; restore it afterwards
            client.cookies["django_language"] = language
            body = client.get(reverse("reveal-seed", args=[built.event.slug])).content.decode()
            assert expected in body, language
            director_page = client.get(reverse("director", args=[built.event.slug])).content.decode()
            assert translation.gettext("Reveal the master seed…") in director_page
            assert translation.gettext("Audit log") in director_page
    unfinished = create_small_event(sessions=2)
    for language, expected in (("ja", "16 セット"), ("zh-hans", "16 个牌组")):
        with translation.override(language), pytest.raises(SetupError) as err:
            reveal_seed(unfinished, actor="x")
        assert expected in err.value.message, language
