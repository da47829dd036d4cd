"""docs/security.md, "Threats and the tests that cover them", threats 5, 7 and two items of 8.

5. A right table code is never refused: wrong codes are counted per address and per code guessed
   (and in total), and past the limit codes are checked one at a time (429 with Retry-After in
   between) instead of every phone being locked out for ten minutes.
7. The public export is cached per release state and rate-limited per address, as are the other
   public downloads; the director's pages are not limited.
8. Query parameters (``session``, ``rows``, ``version``) that are not a usable whole number are a
   400 naming the parameter, never a 500; a deeply nested JSON body is a 400, never a 500.
"""

import json
from unittest import mock

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from scoring import table_views, visibility
from tournament import exchange
from tournament.entrants import rename_team

from factories import login_as_table, play_slots

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_counters():
    """The throttles count in the cache: start and end each test with none."""
    cache.clear()
    yield
    cache.clear()


def logged_in(client, table) -> bool:
    return str(table.pk) in client.session.get("table_logins", {})


class Clock:
    """A settable clock for the table-login throttle's check slots (seconds since the epoch)."""

    def __init__(self, now=1_800_000_000.0):
        self.now = now

    def __call__(self):
        return self.now


@pytest.fixture
def clock(monkeypatch):
    fake = Clock()
    monkeypatch.setattr("scoring.login_throttle.now", fake)
    return fake



# --- table login --------------------------------------------------------------------------

def test_a_right_code_gets_in_after_120_wrong_codes_from_other_addresses(table, team_event, clock):
    url = reverse("event-table-login", args=[team_event.slug])
    for n in range(120):
        Client().post(url, {"code": f"BADC0DE{n:03d}"}, REMOTE_ADDR=f"10.9.{n // 10}.{n % 10}")
    phone = Client()
    answer = login_as_table(phone, table, event_scoped=True, REMOTE_ADDR="10.9.200.1")
    assert answer.status_code == 302, answer.status_code
    assert logged_in(phone, table)
    assert login_as_table(Client(), table, REMOTE_ADDR="10.9.200.2").status_code == 302


def test_a_right_code_gets_in_on_the_shared_address_after_100_wrong_codes_from_it(table, team_event, clock, settings):
    """A venue's phones share one address; one device there types 100 wrong codes. A player then
    types the right code: at worst told to wait a few seconds (429 with Retry-After), and the
    same code typed again after that gets in."""
    url = reverse("event-table-login", args=[team_event.slug])
    for n in range(100):
        Client().post(url, {"code": f"BADC0DE{n:03d}"}, REMOTE_ADDR="203.0.113.7")
        clock.now += 0.5
    phone = Client()
    first = login_as_table(phone, table, event_scoped=True, REMOTE_ADDR="203.0.113.7")
    # the address's check slot of these seconds went to the device's last wrong code
    assert first.status_code == 429
    wait = int(first["Retry-After"])
    assert 1 <= wait <= settings.TABLE_LOGIN_SLOW_SECONDS
    assert "Try again in" in first.content.decode() and "No table has the code" not in first.content.decode()
    assert not logged_in(phone, table)
    clock.now += wait
    again = login_as_table(phone, table, event_scoped=True, REMOTE_ADDR="203.0.113.7")
    assert again.status_code == 302
    assert logged_in(phone, table)


def test_wrong_codes_past_the_address_limit_are_429_and_checked_one_at_a_time(table, clock, settings):
    assert settings.TABLE_LOGIN_RATE_PER_ADDRESS == "10/10m"
    slow = settings.TABLE_LOGIN_SLOW_SECONDS
    statuses = [Client().post(reverse("table-login"), {"code": f"WR0NGC0DE{n:02d}"}, REMOTE_ADDR="10.1.2.3").status_code
                for n in range(12)]
    assert statuses[:10] == [400] * 10 and statuses[10:] == [429, 429]
    # the 11th was checked (and wrong); the 12th, in the same slot, was not checked at all
    with mock.patch("scoring.table_views.find_table", wraps=table_views.find_table) as found:
        refused = Client().post(reverse("table-login"), {"code": "WR0NGC0DE99"}, REMOTE_ADDR="10.1.2.3")
        assert refused.status_code == 429 and not found.called
        assert int(refused["Retry-After"]) <= slow
        clock.now += slow
        checked = Client().post(reverse("table-login"), {"code": "WR0NGC0DE98"}, REMOTE_ADDR="10.1.2.3")
        assert checked.status_code == 429 and found.call_count == 1
    assert "No table has the code" in checked.content.decode()


def test_the_same_wrong_code_typed_again_counts_once(table, clock):
    for _ in range(30):
        assert Client().post(reverse("table-login"), {"code": "K7Q2M9XZ11"}, REMOTE_ADDR="10.4.4.4").status_code == 400


def test_in_total_past_the_limit_codes_are_checked_at_a_bounded_rate(table, clock, settings):
    settings.TABLE_LOGIN_RATE_TOTAL = "50/10m"
    settings.TABLE_LOGIN_SLOW_TOTAL_PER_SECOND = 2
    for n in range(50):
        Client().post(reverse("table-login"), {"code": f"BADC0DE{n:03d}"}, REMOTE_ADDR=f"10.6.{n}.1")
    statuses = [Client().post(reverse("table-login"), {"code": f"BADC0DE{n:03d}"}, REMOTE_ADDR=f"10.6.{n}.2").status_code
                for n in range(100, 110)]
    assert statuses[:2] == [429, 429]  # checked, wrong
    assert set(statuses[2:]) == {429}
    clock.now += 1
    assert login_as_table(Client(), table, REMOTE_ADDR="10.6.200.1").status_code == 302


# --- the public export --------------------------------------------------------------------

def test_the_public_export_is_built_once_per_public_version(client, team_event):
    import random

    url = reverse("event-export", args=[team_event.slug])
    with mock.patch("tournament.exchange.public_export", wraps=exchange.public_export) as built:
        first = client.get(url, REMOTE_ADDR="10.20.0.1")
        for n in range(4):
            again = client.get(url, REMOTE_ADDR=f"10.20.0.{n + 2}")
            assert again.status_code == 200
        assert built.call_count == 1
        assert json.loads(again.content)["released"] == json.loads(first.content)["released"] == []
        play_slots(team_event, random.Random(5), groups=[1, 2, 3])  # scored, none released yet
        assert not visibility.released_sets(team_event)
        before = team_event.content_versions()
        unchanged = client.get(url, REMOTE_ADDR="10.20.0.8")
        client.get(url, REMOTE_ADDR="10.20.0.11")
        # keyed by the event's public version, which entries on unreleased sets leave alone: not
        # built again, the same bytes, though the content version moved on
        assert built.call_count == 1 and unchanged.content == first.content
        assert before[0] > 0 and before[1] < before[0]
        play_slots(team_event, random.Random(6), groups=[4])
        assert visibility.released_sets(team_event)
        released = client.get(url, REMOTE_ADDR="10.20.0.9")
        assert built.call_count == 2
        assert json.loads(released.content)["released"]
        client.get(url, REMOTE_ADDR="10.20.0.10")
        assert built.call_count == 2


def test_a_renamed_team_shows_in_the_public_export_at_once(client, team_event):
    url = reverse("event-export", args=[team_event.slug])
    client.get(url)
    rename_team(team_event.teams.get(number=1), name="Renamed Dragons", actor="director")
    assert "Renamed Dragons" in client.get(url).content.decode()


def test_anonymous_loops_on_public_downloads_get_429_and_the_director_is_not_limited(client, team_event, director, settings):
    settings.PUBLIC_DOWNLOAD_RATE = "5/m"
    urls = [reverse("event-export", args=[team_event.slug]), reverse("standings-csv", args=[team_event.slug]),
            reverse("standings-xlsx", args=[team_event.slug]), reverse("projector-json", args=[team_event.slug])]
    for url in urls:
        statuses = [Client().get(url, REMOTE_ADDR="10.30.0.1").status_code for _ in range(8)]
        assert statuses[:5] == [200] * 5 and statuses[5:] == [429] * 3, (url, statuses)
        limited = Client().get(url, REMOTE_ADDR="10.30.0.1")
        assert int(limited["Retry-After"]) >= 1
        assert "Too many downloads" in limited.content.decode()
        assert Client().get(url, REMOTE_ADDR="10.30.0.2").status_code == 200
    client.force_login(director)
    for url in urls + [reverse("director", args=[team_event.slug])]:
        assert {client.get(url, REMOTE_ADDR="10.30.0.1").status_code for _ in range(8)} == {200}, url


# --- query parameters and deep JSON -------------------------------------------------------

BAD_NUMBERS = ["²", "-1", "99999999999999999999", "abc", "1.5", "0"]


@pytest.mark.parametrize("name,param", [
    ("standings", "session"), ("standings-csv", "session"), ("standings-xlsx", "session"),
    ("api-standings", "session"), ("projector", "rows"), ("projector-json", "rows"), ("conversion-csv", "version"),
])
def test_a_bad_number_in_a_public_query_parameter_is_a_400_naming_it(client, team_event, name, param):
    kwargs = {"event_slug": team_event.slug} if name.startswith("api-") else {"slug": team_event.slug}
    url = reverse(name, kwargs=kwargs)
    for value in BAD_NUMBERS:
        answer = client.get(url, {param: value})
        assert answer.status_code == 400, (name, value, answer.status_code)
        assert param in answer.content.decode(), (name, value)
    assert client.get(url).status_code in (200, 404)


def test_a_director_page_with_a_bad_session_is_a_400(client, team_event, director):
    client.force_login(director)
    for name in ("live", "live-json"):
        answer = client.get(reverse(name, args=[team_event.slug]), {"session": "²"})
        assert answer.status_code == 400 and "session" in answer.content.decode()


def deep_json(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_a_50000_deep_json_body_to_the_api_is_a_400(client, team_event, director):
    client.force_login(director)
    url = reverse("result-list", kwargs={"event_slug": team_event.slug})
    answer = client.post(url, deep_json(50_000), content_type="application/json")
    assert answer.status_code == 400, answer.status_code
    assert "nested too deeply" in answer.json()["detail"]
    shallow = client.post(url, json.dumps({"set": 1}), content_type="application/json")
    assert shallow.status_code == 400 and "detail" not in shallow.json()
