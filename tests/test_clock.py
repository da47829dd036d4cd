"""The session clock (tournament/clock.py): the arithmetic of the time left, the director's
start / pause / +5 min services (idempotent, audited, one locked transaction), the director-only
view and what the director's page shows."""

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from tournament import clock
from tournament.models import AuditEntry, EventRole

T0 = datetime(2025, 5, 1, 9, 0, tzinfo=UTC)


def test_a_stopped_clock_shows_the_playing_time_plus_extra_less_the_time_run():
    assert clock.remaining_seconds(90 * 60, 0, 0, None, T0) == 5400
    assert clock.remaining_seconds(90 * 60, 300, 600, None, T0 + timedelta(hours=5)) == 5400 + 300 - 600


def test_a_running_clock_counts_down_from_its_start():
    started = T0
    assert clock.remaining_seconds(3600, 0, 0, started, T0 + timedelta(minutes=10)) == 3000
    # paused after 10 minutes (elapsed 600), started again, 5 more minutes
    assert clock.remaining_seconds(3600, 0, 600, T0 + timedelta(hours=1), T0 + timedelta(hours=1, minutes=5)) == 2700


def test_time_up_goes_negative_overtime():
    assert clock.remaining_seconds(600, 0, 0, T0, T0 + timedelta(minutes=12)) == -120
    assert clock.format_clock(-120) == "-2:00"


def test_extra_time_moves_the_end():
    assert clock.remaining_seconds(600, 300, 0, T0, T0 + timedelta(minutes=12)) == 180


def test_a_clock_skew_counts_as_no_time_run():
    assert clock.remaining_seconds(600, 0, 30, T0, T0 - timedelta(seconds=5)) == 570


@given(duration=st.integers(0, 10 * 3600), extra=st.integers(0, 3600), elapsed=st.floats(0, 5 * 3600),
       run=st.floats(0, 5 * 3600))
def test_pausing_never_changes_the_time_left(duration, extra, elapsed, run):
    """The time left just before a pause equals the time left of the paused clock: elapsed grows
    by the time run, started_at is cleared (what pause_clock stores)."""
    now = T0 + timedelta(seconds=run)
    running = clock.remaining_seconds(duration, extra, elapsed, T0, now)
    paused = clock.remaining_seconds(duration, extra, elapsed + run, None, now + timedelta(hours=3))
    assert abs(running - paused) < 1e-6


@pytest.mark.parametrize("seconds, shown", [(0, "0:00"), (59, "0:59"), (754, "12:34"), (3600, "1:00:00"),
                                            (3725, "1:02:05"), (-1, "-0:01"), (-3725, "-1:02:05")])
def test_format(seconds, shown):
    assert clock.format_clock(seconds) == shown


@pytest.mark.django_db
def test_start_pause_extend_are_audited_and_repeat_safely(team_event):
    session = team_event.sessions.get(number=1)
    clock.start_clock(session, minutes="90", actor="director")
    session.refresh_from_db()
    assert session.clock_duration == 5400 and session.clock_started_at is not None
    first_start = session.clock_started_at
    clock.start_clock(session, minutes="30", actor="director")  # running: nothing changes
    session.refresh_from_db()
    assert session.clock_duration == 5400 and session.clock_started_at == first_start
    assert AuditEntry.objects.filter(event=team_event, action="clock-started").count() == 1
    state = clock.clock_state(session)
    assert state["running"] and 5390 <= state["remaining"] <= 5400

    clock.pause_clock(session, actor="director")
    clock.pause_clock(session, actor="director")  # paused: nothing changes
    session.refresh_from_db()
    assert session.clock_started_at is None and session.clock_elapsed >= 0
    assert AuditEntry.objects.filter(event=team_event, action="clock-paused").count() == 1
    left = clock.clock_remaining(session)

    clock.extend_clock(session, 5, actor="director")
    session.refresh_from_db()
    assert session.clock_extra == 300 and clock.clock_remaining(session) == left + 300
    entry = AuditEntry.objects.get(event=team_event, action="clock-extended")
    assert entry.detail["session"] == 1 and entry.detail["minutes"] == 5 and entry.actor == "director"

    # resume: the minutes typed do not reset a clock that has run
    clock.start_clock(session, minutes="10", actor="director")
    session.refresh_from_db()
    assert session.clock_duration == 5400 and session.clock_started_at is not None


@pytest.mark.django_db
def test_a_clock_without_playing_time_asks_for_minutes(team_event):
    session = team_event.sessions.get(number=1)
    with pytest.raises(clock.ClockError) as error:
        clock.start_clock(session, actor="director")
    assert error.value.field == "minutes"
    for bad in ("abc", "-5", "0", "100000"):
        with pytest.raises(clock.ClockError):
            clock.start_clock(session, minutes=bad, actor="director")
    with pytest.raises(clock.ClockError):
        clock.extend_clock(session, 5, actor="director")
    assert not AuditEntry.objects.filter(event=team_event, action__startswith="clock-").exists()


@pytest.mark.django_db
def test_set_resets_the_clock(team_event):
    session = team_event.sessions.get(number=1)
    clock.start_clock(session, minutes=60, actor="d")
    clock.extend_clock(session, 5, actor="d")
    clock.set_clock(session, 45, actor="d")
    session.refresh_from_db()
    assert (session.clock_duration, session.clock_extra, session.clock_elapsed, session.clock_started_at) == (2700, 0, 0, None)
    clock.set_clock(session, 45, actor="d")
    assert AuditEntry.objects.filter(event=team_event, action="clock-set").count() == 1


@pytest.mark.django_db
def test_only_the_director_runs_the_clock(client, team_event, director, django_user_model):
    url = reverse("session-clock", args=[team_event.slug, 1])
    assert client.post(url, {"action": "start", "minutes": "60"}).status_code in (302, 403)
    staff = django_user_model.objects.create_user("staffer", password="pw-staff-1")
    EventRole.objects.create(event=team_event, user=staff, role=EventRole.Role.STAFF)
    client.force_login(staff)
    assert client.post(url, {"action": "start", "minutes": "60"}).status_code == 403
    assert team_event.sessions.get(number=1).clock_started_at is None

    client.force_login(director)
    response = client.post(url, {"action": "start", "minutes": "60"})
    assert response.status_code == 302 and response["Location"].endswith("#clock-box-1")
    assert team_event.sessions.get(number=1).clock_started_at is not None
    client.post(url, {"action": "extend"})
    assert team_event.sessions.get(number=1).clock_extra == 300
    client.post(url, {"action": "pause"})
    assert team_event.sessions.get(number=1).clock_started_at is None
    assert client.post(reverse("session-clock", args=[team_event.slug, 9]), {"action": "start"}).status_code == 404
    assert client.get(url).status_code == 405


@pytest.mark.django_db
def test_the_director_page_shows_the_clock_controls_and_time_left(client, team_event, director):
    client.force_login(director)
    client.post(reverse("session-clock", args=[team_event.slug, 1]), {"action": "start", "minutes": "75"})
    client.post(reverse("session-clock", args=[team_event.slug, 1]), {"action": "pause"})
    page = client.get(reverse("director", args=[team_event.slug]))
    html = page.content.decode()
    assert 'id="clock-minutes-1"' in html and 'name="minutes"' in html
    for label in (">Start<", ">Pause<", ">+5 min<", ">Show on projector<"):
        assert label in html
    shown = re.search(r'id="clock-1"[^>]*>([^<]*)<', html).group(1)
    assert shown in ("1:15:00", "1:14:59")
    assert 'id="announcement-text"' in html and reverse("projector", args=[team_event.slug]) in html


@pytest.mark.django_db
def test_a_bad_minutes_value_is_shown_to_the_director(client, team_event, director):
    client.force_login(director)
    response = client.post(reverse("session-clock", args=[team_event.slug, 1]), {"action": "start", "minutes": "soon"}, follow=True)
    assert "type the minutes as a number" in response.content.decode()
    assert team_event.sessions.get(number=1).clock_started_at is None


# --- one table's extra time, the table page's clock -------------------------------------------------


@pytest.mark.django_db
def test_a_table_given_extra_time_plays_longer_than_its_session(team_event, director):
    from factories import first_table

    table = first_table(team_event)
    session = table.group.session
    with pytest.raises(clock.ClockError):  # no playing time yet: nothing to add to
        clock.give_table_time(table, 5, actor="td")
    clock.start_clock(session, minutes=90, actor="td")
    table.refresh_from_db()
    before = clock.table_clock_state(table)
    clock.give_table_time(table, 5, actor="td")
    table.refresh_from_db()
    after = clock.table_clock_state(table)
    assert table.clock_extra == 300 and after["table_extra"] == 300
    assert 299 <= after["remaining"] - before["remaining"] <= 300
    other = team_event.sessions.get(number=1).groups.first().tables.exclude(pk=table.pk).first()
    assert clock.table_clock_state(other)["table_extra"] == 0  # the other tables keep the session's time
    entry = AuditEntry.objects.filter(event=team_event, action="table-time-given").get()
    assert entry.detail["table"] == table.number and entry.detail["minutes"] == 5


@pytest.mark.django_db
def test_only_the_director_gives_a_table_time_and_the_table_reads_its_clock(team_event, director_client):
    from factories import client_for, first_table

    table = first_table(team_event)
    clock.start_clock(table.group.session, minutes=60, actor="td")
    phone = client_for(table=table)
    url = reverse("table-extra-time", args=[team_event.slug, table.pk])
    assert phone.post(url, {"minutes": "5"}).status_code == 403
    page = phone.get(reverse("table", args=[team_event.slug, table.pk])).content.decode()
    assert 'id="table-clock"' in page and 'id="table-extra-time"' not in page
    state = phone.get(reverse("table-clock", args=[team_event.slug, table.pk])).json()
    assert state["running"] and 3500 < state["remaining"] <= 3600 and state["table_extra"] == 0
    assert director_client.post(url, {"minutes": "5"}).status_code == 302
    assert phone.get(reverse("table-clock", args=[team_event.slug, table.pk])).json()["table_extra"] == 300
    assert 'id="table-extra-time"' in director_client.get(reverse("table", args=[team_event.slug, table.pk])).content.decode()
