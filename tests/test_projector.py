"""The projector (tournament/clock_views.py): a public page for the hall with the clock, the
announcement and the top of the standings, refreshed from projector.json. Its standings are the
public ones whoever is logged in: the director's laptop drives the screen, and a set still in
play at another table must never show there (scoring.visibility)."""

import random

import pytest
from django.urls import reverse
from factories import play_slots

from scoring.models import SetScore
from tournament import clock
from tournament.models import AuditEntry

pytestmark = pytest.mark.django_db


def _names_on_projector(html: str) -> str:
    return html.split('id="projector-standings"', 1)[1].split("</table>", 1)[0]


def test_a_logged_in_director_sees_only_released_sets_on_the_projector(client, team_event, director):
    """Groups 1-3 play the whole session, group 4 nothing: every set has scores, none is released
    (a set is public once every table played it). The director's own standings have points;
    the projector has none. When group 4 has played, the projector ranks everyone."""
    play_slots(team_event, random.Random(3), groups=[1, 2, 3])
    assert SetScore.objects.filter(event=team_event).exclude(points=0).exists()
    client.force_login(director)
    secret = client.get(reverse("standings", args=[team_event.slug]) + "?all=1")
    assert secret.status_code == 200
    data = client.get(reverse("projector-json", args=[team_event.slug])).json()
    assert data["standings"] == []  # no released set: nobody ranked, no points
    html = client.get(reverse("projector", args=[team_event.slug])).content.decode()
    table = _names_on_projector(html)
    assert all(team.name not in table for team in team_event.teams.all())

    play_slots(team_event, random.Random(4), groups=[4])
    data = client.get(reverse("projector-json", args=[team_event.slug])).json()
    anonymous = client.__class__().get(reverse("projector-json", args=[team_event.slug])).json()
    assert len(data["standings"]) == 10 and data["standings"] == anonymous["standings"]
    totals = {}
    for score in SetScore.objects.filter(event=team_event).select_related("team"):
        totals[score.team.name] = totals.get(score.team.name, 0) + score.points
    for row in data["standings"]:
        assert row["points"] == totals[row["name"]]
    points = [row["points"] for row in data["standings"]]
    assert points == sorted(points, reverse=True)


def test_projector_json_shape_and_the_clock_of_the_latest_session_with_one(client, team_event, director):
    data = client.get(reverse("projector-json", args=[team_event.slug])).json()
    assert set(data) == {"event", "announcement", "clock", "standings", "updated"}
    assert data["event"] == team_event.name and data["clock"] is None and data["announcement"] == ""

    session = team_event.sessions.get(number=1)
    clock.start_clock(session, minutes=90, actor="director")
    clock.set_announcement(team_event, "Lunch at 12:30 in room B", actor="director")
    data = client.get(reverse("projector-json", args=[team_event.slug])).json()
    assert data["announcement"] == "Lunch at 12:30 in room B"
    assert set(data["clock"]) == {"session", "set", "running", "finished", "remaining", "duration", "extra", "display"}
    assert data["clock"]["session"] == 1 and data["clock"]["running"] and 5380 <= data["clock"]["remaining"] <= 5400
    html = client.get(reverse("projector", args=[team_event.slug])).content.decode()
    for element in ('id="projector-clock"', 'id="projector-standings"', 'id="projector-announcement"'):
        assert element in html
    assert "Lunch at 12:30 in room B" in html and "setInterval(refresh, 10000)" in html
    assert "<script src=" not in html  # no external JS
    assert 'class="site-menu"' not in html  # no navigation chrome


def test_the_announcement_is_the_directors_and_audited(client, team_event, director, django_user_model):
    url = reverse("announcement", args=[team_event.slug])
    someone = django_user_model.objects.create_user("someone", password="pw-someone-1")
    client.force_login(someone)
    assert client.post(url, {"text": "hello"}).status_code == 403
    client.force_login(director)
    assert client.post(url, {"text": "  Final round starts at 15:00  "}).status_code == 302
    team_event.refresh_from_db()
    assert team_event.announcement == "Final round starts at 15:00"
    client.post(url, {"text": "Final round starts at 15:00"})  # the same again: recorded once
    entries = AuditEntry.objects.filter(event=team_event, action="announcement")
    assert entries.count() == 1 and entries.get().detail["text"] == "Final round starts at 15:00"
    client.post(url, {"text": ""})
    team_event.refresh_from_db()
    assert team_event.announcement == ""


def test_a_finished_session_s_clock_stops_and_gives_way_to_the_next(client, director):
    """Issue 48: during session 2 the projector still showed "-9:04 Time is up … Session 1". A
    session whose sets are all public is over: its clock no longer counts and no page says the
    time is up; once session 2's clock is set the projector shows it."""
    from datetime import timedelta

    from django.utils import timezone
    from factories import demo_roster, prepared_event

    from tournament.models import Session

    event = prepared_event(demo_roster(4), name="Two Sessions", slug="two-sessions", sessions=2, prepare=(1, 2),
                           director=director)
    first, second = (event.sessions.get(number=n) for n in (1, 2))
    Session.objects.filter(pk=first.pk).update(clock_duration=60, clock_started_at=timezone.now() - timedelta(minutes=10))
    url = reverse("projector-json", args=[event.slug])
    running = client.get(url).json()["clock"]
    assert running["session"] == 1 and running["running"] and running["remaining"] < 0  # overtime while it is played
    assert not running["finished"]

    play_slots(event, random.Random(5), session=1)
    finished = client.get(url).json()["clock"]
    assert finished["session"] == 1 and finished["finished"] and not finished["running"] and finished["remaining"] == 0
    html = client.get(reverse("projector", args=[event.slug])).content.decode()
    shown = html.split('id="projector-clock"', 1)[1].split("</header>", 1)[0]
    assert "Session 1 is finished" in shown and "–:––" in shown and "-9:" not in shown and 'class=" overtime"' not in shown
    client.force_login(director)
    director_page = client.get(reverse("director", args=[event.slug])).content.decode()
    box = director_page.split('id="clock-box-1"', 1)[1].split("</div>", 1)[0]
    assert "Session 1 is finished" in box and 'data-running="1"' not in box

    clock.start_clock(second, minutes=90, actor="director")
    now = client.get(url).json()["clock"]
    assert now["session"] == 2 and now["running"] and not now["finished"] and 5380 <= now["remaining"] <= 5400
