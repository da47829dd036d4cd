"""A visitor's page is built at most once a minute (``settings.PUBLIC_PAGE_STALE_SECONDS``,
tournament.cache.cached_or_older): after a release or a correction of a released set, visitors are
served the page as it was built, with its own ETag and an ``Age`` header, until it is a minute
old; the director, staff and anyone signed in see the change at once; a page never built is built."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.actions.confirmation import correct_result
from scoring.models import HandResult
from tests.factories import played_event
from tournament import cache as page_cache
from tournament.models import EventRole
from walls.setcode import set_code

STALE = 60


@pytest.fixture
def small(db, settings):
    settings.PUBLIC_PAGE_STALE_SECONDS = STALE
    settings.PUBLIC_PAGE_BUILD_RATE = None
    cache.clear()
    event = played_event(4, 2, slug="stale-pages")
    return event


@pytest.fixture
def clock(monkeypatch):
    """The cache's clock, moved by hand: ``clock.now``."""
    class Clock:
        now = 1_800_000_000.0

    monkeypatch.setattr(page_cache, "_now", lambda: Clock.now)
    return Clock


def _main(response) -> bytes:
    return response.content.split(b"<main", 1)[1]


def _correct_a_released_result(event) -> None:
    """A released result of set 1-1 corrected by the director: every public page changes (the
    standings' totals, the team's rows)."""
    result = HandResult.objects.filter(event=event, session_number=1, set_no=1).select_related(
        "table__group__session__event").first()
    seats = list(result.changes)
    changes = dict.fromkeys(seats, 0)
    changes[seats[0]], changes[seats[1]] = 96, -96
    before = event.content_versions()[1]
    correct_result(result, actor="director", reason="misread", director=True, changes=changes)
    assert event.content_versions()[1] > before


@pytest.mark.parametrize("page", ["standings", "team", "player-results", "players"])
def test_after_a_correction_visitors_get_the_page_as_it_was_for_a_minute_then_the_new_one(small, clock, page):
    url = reverse(page, args=[small.slug] + ([1] if page in ("team", "player-results") else []))
    phone = Client()
    before = phone.get(url)
    assert before.status_code == 200 and "Age" not in before
    assert "is updated within a minute of each change" in before.content.decode()  # what the visitor is told
    _correct_a_released_result(small)

    clock.now += 20
    with CaptureQueriesContext(connection) as read:
        kept = Client().get(url)
    assert kept.status_code == 200 and _main(kept) == _main(before)
    assert kept["ETag"] == before["ETag"] and kept["Age"] == "20"
    assert len(read.captured_queries) <= 2, [q["sql"] for q in read.captured_queries]  # nothing built
    unchanged = phone.get(url, HTTP_IF_NONE_MATCH=before["ETag"])
    assert unchanged.status_code == 304 and unchanged["Age"] == "20" and unchanged["ETag"] == before["ETag"]

    clock.now += STALE - 20
    new = phone.get(url, HTTP_IF_NONE_MATCH=before["ETag"])
    assert new.status_code == 200 and _main(new) != _main(before)
    assert new["ETag"] != before["ETag"] and "Age" not in new
    assert phone.get(url, HTTP_IF_NONE_MATCH=new["ETag"]).status_code == 304


def test_the_director_staff_and_a_signed_in_player_see_a_correction_at_once(small, clock, django_user_model):
    url = reverse("standings", args=[small.slug])
    before = Client().get(url)
    viewers = {}
    for role in (EventRole.Role.DIRECTOR, EventRole.Role.STAFF, EventRole.Role.PLAYER):
        user = django_user_model.objects.create_user(username=f"stale-{role}")
        EventRole.objects.create(event=small, user=user, role=role)
        viewers[role] = Client()
        viewers[role].force_login(user)
    earlier = {role: viewer.get(url) for role, viewer in viewers.items()}
    _correct_a_released_result(small)
    clock.now += 1
    assert _main(Client().get(url)) == _main(before)  # a visitor: as it was
    for role, viewer in viewers.items():
        now = viewer.get(url)
        assert now.status_code == 200 and "Age" not in now and _main(now) != _main(earlier[role]), role


def test_a_page_never_built_is_built_however_recent_the_others(small, clock):
    Client().get(reverse("team", args=[small.slug, 1]))
    _correct_a_released_result(small)
    clock.now += 1
    other = Client().get(reverse("team", args=[small.slug, 2]))
    assert other.status_code == 200 and "Age" not in other


def test_at_zero_a_change_rebuilds_the_page_at_once(small, clock, settings):
    settings.PUBLIC_PAGE_STALE_SECONDS = 0
    url = reverse("standings", args=[small.slug])
    before = Client().get(url)
    _correct_a_released_result(small)
    after = Client().get(url)
    assert _main(after) != _main(before) and "Age" not in after


def test_with_the_minute_on_two_unplayed_sets_answer_a_visitor_alike(half_played, settings, clock):
    """Session 2's sets are scored for group 1 only: a visitor asking for two of them, before
    and after a released result's correction served within the minute, is told the same but
    for the set's own code and links."""
    settings.PUBLIC_PAGE_STALE_SECONDS = STALE
    settings.PUBLIC_PAGE_BUILD_RATE = None

    def page(set_no: int) -> str:
        answer = Client().get(reverse("traveller", args=[half_played.slug, 2, set_no]))
        assert answer.status_code == 200
        text = _main(answer).decode()
        text = re.sub(r'\s*·?\s*<a href="[^"]*">(Previous|Next) set</a>', "", text)  # where the set stands in the list
        text = re.sub(r'href="[^"]*"', "", text)
        return text.replace(set_code(2, set_no), "SET").replace(f"2-{set_no}", "SET")

    before = page(1), page(2)
    assert before[0] == before[1]
    _correct_a_released_result(half_played)
    clock.now += 20
    assert page(1) == page(2) == before[0]
