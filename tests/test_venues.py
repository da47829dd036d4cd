"""An event played in several clubs (docs/director-guide.md, "An event in several clubs";
docs/security.md, "Venues"): venues and their roster, groups that stay in one club, the hold-back
of every set until the last venue has played it, each venue's provisional standings for its own
people only, and the central director's view of what each venue owes."""

from __future__ import annotations

import dataclasses
import datetime
import random

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.models import SetRelease, SetScore
from scoring.reports.venues import venue_progress, venue_standings
from tests.factories import login_as_table, play_slots
from tests.test_cache_variance import URLS, _seen, _url
from tournament.models import Event, EventRole, Player, Room, Table, Venue, VenueRole
from tournament.seating import SetupError
from tournament.services import create_event, import_roster, prepare_session
from tournament.venues import add_venue, add_venue_account, set_schedule
from walls.rulesets import get_ruleset

pytestmark = pytest.mark.django_db


def _roster(venues: dict[str, int]) -> str:
    """Teams of four, ``{venue code: teams}``, the 'venue' and 'country' columns filled."""
    lines, t = ["team,player,venue,country"], 0
    for code, teams in venues.items():
        for _k in range(teams):
            t += 1
            lines += [f"Team {t},Team {t} player {m},{code},JPN" for m in range(4)]
    return "\n".join(lines) + "\n"


def _two_clubs(director, ruleset_code: str = "mcr-duplicate", comparison: str = Event.Comparison.FIELD) -> Event:
    """Two clubs of 4 teams each (one group of 4 tables each), one wind round, session 1 prepared:
    the field compared across both (or each group within itself, ``comparison``)."""
    ruleset = dataclasses.replace(get_ruleset(ruleset_code), rounds=1)
    event = create_event(name="Two Clubs Cup", slug="two-clubs", ruleset=ruleset, ruleset_code=ruleset_code, sessions=1,
                         comparison=comparison, base_url="http://testserver/")
    add_venue(event, name="Osaka club", code="osaka", country="JPN", actor="d")
    add_venue(event, name="Paris club", code="paris", country="FRA", offline=True, actor="d")
    import_roster(event, _roster({"osaka": 4, "paris": 4}))
    prepare_session(event, 1)
    EventRole.objects.create(event=event, user=director, role=EventRole.Role.DIRECTOR)
    return event


def _tables(event, code: str) -> list[Table]:
    return list(Table.objects.filter(group__session__event=event, group__venue__code=code).order_by("number"))


def _play(event, code: str) -> None:
    play_slots(event, random.Random(7), tables=[t.number for t in _tables(event, code)])


def test_a_venue_groups_its_own_entrants_in_its_own_rooms(director):
    event = _two_clubs(director)
    for venue in event.venues.all():
        tables = _tables(event, venue.code)
        assert len(tables) == 4
        teams = {s.team for t in tables for s in t.seats.all()}
        assert {team.venue for team in teams} == {venue}
        assert {t.room.venue for t in tables} == {venue}
        assert {p.country for team in teams for p in team.players.all()} == {"JPN"}
    assert Room.objects.filter(event=event).count() == 8


def test_a_roster_naming_an_unknown_venue_is_refused_naming_it_and_stores_nothing(director):
    event = create_event(name="Clubs", slug="clubs", sessions=1)
    add_venue(event, name="Osaka club", code="osaka", actor="d")
    with pytest.raises(SetupError) as caught:
        import_roster(event, _roster({"osaka": 4, "lyon": 4}))
    assert caught.value.field == "roster" and "'lyon'" in caught.value.message and "osaka" in caught.value.message
    assert not event.players.exists() and not event.teams.exists()


def test_a_venue_whose_entrants_do_not_fill_its_groups_is_named(director):
    event = create_event(name="Clubs", slug="clubs", sessions=1)
    add_venue(event, name="Osaka club", code="osaka", actor="d")
    add_venue(event, name="Paris club", code="paris", actor="d")
    with pytest.raises(SetupError) as caught:
        import_roster(event, _roster({"osaka": 4, "paris": 3}))
    assert caught.value.message.startswith("Paris club: ")
    assert not event.players.exists()


def test_venues_are_added_before_the_first_session_and_a_repeat_changes_nothing(director):
    event = _two_clubs(director)
    again = add_venue(event, name="Osaka club", code="osaka", actor="d")
    assert again.number == 1 and event.venues.count() == 2
    with pytest.raises(SetupError) as caught:
        add_venue(event, name="Lyon club", code="lyon", actor="d")
    assert caught.value.field == "venue"
    with pytest.raises(SetupError) as caught:
        add_venue(create_event(name="X", slug="x"), name="Bad", code="Bad Code!", actor="d")
    assert caught.value.field == "code"


def test_a_venue_account_is_a_new_account(director, django_user_model):
    event = _two_clubs(director)
    osaka = event.venues.get(code="osaka")
    path = add_venue_account(osaka, username="osaka-td", role="director", actor="d")
    assert path.startswith("/") and VenueRole.objects.filter(venue=osaka, user__username="osaka-td").exists()
    with pytest.raises(SetupError) as caught:
        add_venue_account(osaka, username=director.username, role="staff", actor="d")
    assert caught.value.field == "username"
    assert not VenueRole.objects.filter(user=director).exists()


def _browser(kind: str, event, director) -> Client:
    """A browser of ``kind``: ``visitor``; ``<venue> director`` / ``<venue> staff`` (a venue role);
    ``<venue> table`` (a table login at the venue's first table); ``<venue> player`` (an account
    linked to a player seated there); ``<venue> scorer`` (the event's scorer role bound to the
    venue's tables)."""
    client = Client()
    if kind == "central director":
        client.force_login(director)
    elif kind.endswith(" table"):
        login_as_table(client, _tables(event, kind.split()[0])[0])
    elif kind.endswith(" player"):  # an account linked to a player seated at the venue's first table
        seat = _tables(event, kind.split()[0])[0].seats.order_by("seat").first()
        user, _created = type(director).objects.get_or_create(username=kind.replace(" ", "-"))
        Player.objects.filter(pk=seat.player_id).update(user=user)
        client.force_login(user)
    elif kind.endswith(" scorer"):  # the event's scorer role, bound to the venue's tables
        user, _created = type(director).objects.get_or_create(username=kind.replace(" ", "-"))
        role, _created = EventRole.objects.get_or_create(event=event, user=user, role=EventRole.Role.SCORER)
        role.tables.set(_tables(event, kind.split()[0]))
        client.force_login(user)
    elif kind != "visitor":
        code, role = kind.split()
        user, _created = type(director).objects.get_or_create(username=f"{code}-{role}")
        VenueRole.objects.get_or_create(venue=event.venues.get(code=code), user=user, role=role)
        client.force_login(user)
    return client


PAGES = [name for name in URLS if name not in ("traveller", "hand-records.pdf", "live", "live.json")] + [
    "traveller-1-1", "hand-records-1"]
NON_CENTRAL = ["visitor", "paris director", "paris staff", "paris scorer", "paris table", "paris player",
               "osaka director", "osaka staff", "osaka scorer", "osaka table", "osaka player"]


def _read(response) -> object:
    """What a person reads (:func:`tests.test_cache_variance._seen`), less the traveller's count of
    tables with a confirmed result (how far the field has got, which every event shows and which
    says nothing of a result or a tile) and a linked player's own next seat (which moves on once
    their own table has played)."""
    seen = _seen(response)
    own = ('id="progress"', 'id="next-seat"')
    return [line for line in seen if not any(mark in line for mark in own)] if isinstance(seen, list) else seen


def _page(event, name: str) -> str:
    if name == "traveller-1-1":
        return reverse("traveller", args=[event.slug, 1, 1])
    if name == "hand-records-1":
        return reverse("hand-records", args=[event.slug, 1])
    return _url(event, name, everything=True)


@pytest.mark.parametrize(("ruleset_code", "comparison"), [("mcr-duplicate", "field"), ("riichi-duplicate", "group")])
def test_before_the_last_venue_plays_no_other_role_learns_anything_of_the_first_venues_play(director, ruleset_code,
                                                                                              comparison):
    """The crawl of every non-central role: what each reads before Osaka has played and after
    (every Osaka table done, Paris not started) is the same but for the traveller's count of tables
    done, on every public page, API and
    download, the standings asked with ?all=1 too: no walls, no result, no field score. Osaka's
    own people see their tables' entries on the traveller (a table sees its own entry) and their
    provisional standings at once; Paris's and the visitors do not."""
    event = _two_clubs(director)
    browsers = {kind: _browser(kind, event, director) for kind in NON_CENTRAL}
    before = {(kind, name): _read(browsers[kind].get(_page(event, name))) for kind in NON_CENTRAL for name in PAGES}
    _play(event, "osaka")
    assert not SetRelease.objects.filter(event=event).exists()  # the hold-back: Paris has not played
    for kind in NON_CENTRAL:
        for name in PAGES:
            if kind.startswith("osaka") and name == "traveller-1-1":
                continue  # Osaka's own entries, as a table sees its own
            assert _read(browsers[kind].get(_page(event, name))) == before[(kind, name)], (kind, name)
    osaka_page = reverse("venue-standings", args=[event.slug, "osaka"])
    for kind in NON_CENTRAL:
        response = browsers[kind].get(osaka_page)
        if kind.startswith("osaka"):
            assert response.status_code == 200 and b"Provisional" in response.content
            assert len(response.context["rows"]) == 4 and all(r.sets == 4 for r in response.context["rows"])
            assert "private" in response["Cache-Control"] or "no-store" in response["Cache-Control"]
        else:
            assert response.status_code == 404, kind
    # the central director sees every venue's page and the field's own scores
    assert _browser("central director", event, director).get(osaka_page).status_code == 200


def test_once_every_venue_has_played_a_set_the_field_replaces_the_provisional_standings(director):
    event = _two_clubs(director)
    _play(event, "osaka")
    provisional = venue_standings(event, event.venues.get(code="osaka"))
    assert not SetScore.objects.filter(event=event).exists()  # the field compares both clubs: not scored yet
    _play(event, "paris")
    hands = event.get_ruleset().hands_per_session
    assert SetRelease.objects.filter(event=event).count() == hands
    field = SetScore.objects.filter(event=event)
    assert field.count() == 8 * hands and {s.group_id for s in field} == {None}  # one comparison across both clubs
    assert {r.name for r in provisional} == {f"Team {t}" for t in range(1, 5)}
    assert sum(r.score for r in provisional) == 0  # within the venue: its own zero-sum datum


def test_the_central_director_sees_what_each_venue_still_owes_and_who_is_late(director):
    event = _two_clubs(director)
    now = timezone.now()
    paris = event.venues.get(code="paris")
    set_schedule(paris, 1, now - datetime.timedelta(hours=5), now - datetime.timedelta(hours=1), actor="d")
    _play(event, "osaka")
    progress = {venue.code: rows[0] for venue, rows in venue_progress(event, now)}
    hands = event.get_ruleset().hands_per_session
    assert progress["osaka"].owed == 0 and progress["osaka"].confirmed == 4 * hands and not progress["osaka"].late
    assert progress["paris"].owed == 4 * hands and progress["paris"].late
    page = _browser("central director", event, director).get(reverse("venues", args=[event.slug]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Paris club" in text and "late" in text
    for kind in NON_CENTRAL:
        assert _browser(kind, event, director).get(reverse("venues", args=[event.slug])).status_code in (302, 403), kind
    with pytest.raises(SetupError) as caught:
        set_schedule(paris, 1, now, now, actor="d")
    assert caught.value.field == "ends_at"


def test_the_director_adds_a_venue_and_an_account_on_the_page(director):
    event = create_event(name="Clubs", slug="clubs", sessions=1)
    EventRole.objects.create(event=event, user=director, role=EventRole.Role.DIRECTOR)
    client = _browser("central director", event, director)
    url = reverse("venues", args=[event.slug])
    client.post(url, {"action": "add", "name": "Osaka club", "code": "osaka", "country": "jpn"})
    venue = Venue.objects.get(event=event)
    assert venue.country == "JPN" and not venue.offline and len(venue.bundle_key) == 64
    response = client.post(url, {"action": "add", "name": "Bad", "code": "no spaces"}, follow=True)
    assert "lower-case letters" in response.content.decode() and event.venues.count() == 1
    response = client.post(url, {"action": "account", "venue": "osaka", "username": "osaka-td", "role": "director"}, follow=True)
    assert "/reset/" in response.content.decode() or "password" in response.content.decode()
    assert VenueRole.objects.filter(venue=venue, role="director").exists()


def test_a_venues_provisional_standings_wait_for_every_group_of_the_venue(director):
    """Within groups (riichi duplicate), a venue of two groups: once only its first group has
    played a set, the venue's provisional standings leave the set out, since the second group's
    players may read them before playing it."""
    ruleset = dataclasses.replace(get_ruleset("riichi-duplicate"), rounds=1)
    event = create_event(name="Big club", slug="big-club", ruleset=ruleset, ruleset_code="riichi-duplicate", sessions=1,
                         comparison=Event.Comparison.GROUP)
    add_venue(event, name="Osaka club", code="osaka", actor="d")
    import_roster(event, _roster({"osaka": 8}))
    prepare_session(event, 1)
    osaka = event.venues.get()
    first = [t.number for t in Table.objects.filter(group__session__event=event, group__number=1)]
    play_slots(event, random.Random(2), tables=first)
    assert SetScore.objects.filter(event=event).exists()  # the first group's comparisons are scored
    assert venue_standings(event, osaka) == [] or all(r.sets == 0 for r in venue_standings(event, osaka))
    play_slots(event, random.Random(2), skip_entered=True)
    assert {r.sets for r in venue_standings(event, osaka)} == {event.get_ruleset().hands_per_session}
