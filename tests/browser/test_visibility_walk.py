"""The visibility rule walked as the people at an event meet it (docs/security.md): a set is
released once every table of its session, in every group, has a confirmed result on it.

The module's event ("Walk Cup", built through the services and removed by this module) has 8
teams in 2 groups of 4 tables. Group 1 has played, at every table, up to and including the first
block of sets (1-4) and confirmed them; group 2 has not played them yet. Then:

1. a player of group 2, not logged in, opens the standings, the traveller of set 1, its wall
   page and a group-1 team's page: nothing is counted, the traveller says the set is still being
   played and shows no tiles, the team lists no set, and the wall page is refused;
2. the scorer of group 2's first table logs in on a phone with the table code (the login page's
   button), enters set 1 by its outcome, choosing who is entering, and a player of another seat
   confirms it with their PIN: the page shows the table's own entry, the standings still count
   nothing;
3. the director logs in: the standings' public view counts nothing; the director's view
   (``?all=1``, through the page's link) warns at the top and shows group 1's points; the wall
   page and the traveller with every table's result open;
4. group 2 finishes sets 1-4 (through the services): the visitor now sees the traveller with
   every result and the hand record, the wall page, and standings counting those sets.

Any console error (or uncaught page error) fails the test, except the one expected refusal of the
wall page in step 1 (Chromium logs its 403 as "Failed to load resource"). Screenshots of every
step go to the test's tmp_path.
"""

from __future__ import annotations

import random
import secrets
import threading
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import expect

from factories import (
    confirm_with_pin, demo_roster, fill_discard_win, login_as_table_in_browser, play_slots, prepared_event,
    say_who_is_entering,
    standings_rows,
)
from tests.browser.conftest import DESKTOP, PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db]

FIRST_BLOCK = (1, 2, 3, 4)


@dataclass(frozen=True)
class Walk:
    """Plain values of the module's event (no ORM in the browser steps)."""

    slug: str
    director: str
    password: str
    group1_teams: tuple[str, ...]
    group2_teams: tuple[str, ...]
    group1_team_number: int
    table_id: int
    table_number: int
    code: str
    names: dict
    pins: dict
    tables_total: int


@pytest.fixture(scope="module")
def walk(demo_site, browser, django_db_blocker):
    from django.contrib.auth import get_user_model

    from tournament.models import Event

    password = secrets.token_urlsafe(12)
    with django_db_blocker.unblock():
        user = get_user_model().objects.create_user("td-walk", password=password)
        # the first 8 teams of the demo roster
        event = prepared_event(demo_roster(8), name="Walk Cup", slug="walk-cup", sessions=1, director=user)
        groups = list(event.sessions.get(number=1).groups.order_by("number"))
        assert len(groups) == 2, "8 teams make 2 groups of 4 tables"
        group1 = list(groups[0].tables.select_related("group__session__event").order_by("position"))
        group2 = list(groups[1].tables.select_related("group__session__event").order_by("position"))
        assert len(group1) == len(group2) == 4
        play_slots(event, random.Random(2015), groups=[1], through_set=FIRST_BLOCK[-1], entered_by_seat="E",
                   actor="walk setup")

        def teams(tables):
            return tuple(sorted({s.team.name for t in tables for s in t.seats.select_related("team")}))

        table = group2[0]  # position 0 plays the first block first
        seats = {s.seat: s for s in table.seats.select_related("player")}
        team1 = sorted({s.team for t in group1 for s in t.seats.select_related("team")}, key=lambda t: t.number)[0]
        values = Walk(
            slug=event.slug, director=user.username, password=password, group1_teams=teams(group1),
            group2_teams=teams(group2), group1_team_number=team1.number, table_id=table.pk,
            table_number=table.number, code=table.login_code,
            names={seat: s.player.name for seat, s in seats.items()},
            pins={seat: s.player.pin for seat, s in seats.items()}, tables_total=len(group1) + len(group2),
        )
    yield values
    with django_db_blocker.unblock():
        Event.objects.filter(pk=event.pk).delete()
        get_user_model().objects.filter(pk=user.pk).delete()


def in_own_thread(function, *args, **kwargs):
    """Run ``function`` (ORM work) in a thread of its own, hence on a database connection of its
    own in autocommit mode, and return its value. The test's own connection stays inside the
    test's transaction, and in the shared-cache in-memory SQLite test database the locks of that
    transaction would keep the live server from reading what is written (or the test from
    writing what the server has read); so the test body never touches the ORM directly."""
    outcome = {}

    def run():
        try:
            outcome["value"] = function(*args, **kwargs)
        except BaseException as exc:  # re-raised in the test's thread
            outcome["error"] = exc

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


def standings_of(slug, *, public):
    from scoring.reports import event_standings
    from tournament.models import Event

    return event_standings(Event.objects.get(slug=slug), public=public)


def group2_finishes_the_first_block(slug):
    """Group 2's tables play the rest of the first block (sets already entered are left as they are)."""
    from tournament.models import Event

    play_slots(Event.objects.get(slug=slug), random.Random(2016), groups=[2], through_set=FIRST_BLOCK[-1],
               entered_by_seat="E", skip_entered=True, actor="walk setup")


class Console:
    """Every console error and uncaught page error of the pages it watches."""

    def __init__(self):
        self.errors: list[str] = []
        self.allowed: list[tuple[str, str]] = []  # (url, text fragment) of an expected error

    def watch(self, page):
        page.on("console", lambda message: self._console(message))
        page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))
        return page

    def _console(self, message):
        if message.type != "error":
            return
        url = (message.location or {}).get("url", "")
        if any(url == allowed_url and fragment in message.text for allowed_url, fragment in self.allowed):
            return
        self.errors.append(f"{url}: {message.text}")


class Shots:
    def __init__(self, directory: Path):
        self.directory = directory
        self.paths: dict[str, Path] = {}

    def take(self, page, name: str, *, full_page=True) -> Path:
        path = self.directory / f"{len(self.paths) + 1:02d}-{name}.png"
        page.screenshot(path=str(path), full_page=full_page)
        self.paths[name] = path
        return path


def assert_nothing_counted(page, who):
    rows = standings_rows(page)
    assert len(rows) == 8, f"{who}: every team is listed"
    assert all(row[0] == "–" and row[2] == "0" and row[3] == "0" and row[4] == "0" for row in rows), \
        f"{who}: no set is released, so nothing is counted: {rows}"


def test_the_visibility_rule_walked_by_a_player_a_table_and_the_director(browser, demo_site, walk, tmp_path):
    console = Console()
    shots = Shots(tmp_path)
    url = demo_site.page
    base = f"/e/{walk.slug}"
    traveller_url = url(f"{base}/travellers/1/1/")
    wall_url = url(f"{base}/walls/1/1/")

    # 1. A player of group 2, not logged in.
    visitor_context = browser.new_context(viewport=DESKTOP)
    visitor = console.watch(visitor_context.new_page())
    visitor.goto(url(f"{base}/standings/"))
    assert_nothing_counted(visitor, "a visitor")
    expect(visitor.locator("#standings-scope")).to_contain_text("Counts only the sets every table has played")
    expect(visitor.locator("#standings-scope a")).to_have_count(0)  # no director's link for players
    shots.take(visitor, "visitor-standings-before")

    visitor.goto(traveller_url)
    expect(visitor.locator("#not-yet")).to_contain_text("still being played at other tables")
    expect(visitor.locator("#progress")).to_contain_text(f"4 of {walk.tables_total} tables have a confirmed result")
    expect(visitor.locator("#traveller table")).to_have_count(0)
    expect(visitor.locator("#hand-record")).to_be_empty()
    expect(visitor.locator("#hand-record abbr")).to_have_count(0)  # not a tile
    for name in walk.group1_teams:
        expect(visitor.locator("main")).not_to_contain_text(name)
    shots.take(visitor, "visitor-traveller-before")

    console.allowed.append((wall_url, "403"))
    response = visitor.goto(wall_url)
    assert response.status == 403, "the wall of a set still in play is refused"
    expect(visitor.locator("main [role=alert]")).to_contain_text("is secret until every table has played it")
    expect(visitor.locator("main table")).to_have_count(0)
    shots.take(visitor, "visitor-wall-refused")
    console.allowed.clear()

    visitor.goto(url(f"{base}/teams/{walk.group1_team_number}/"))
    expect(visitor.locator("#sets tr.set-row")).to_have_count(0)
    expect(visitor.locator("#sets")).to_contain_text("No set finished everywhere yet.")
    expect(visitor.locator("#standing")).to_contain_text("Points 0")
    expect(visitor.locator("#standing")).to_contain_text("Sets 0")
    expect(visitor.locator("#chart")).to_have_count(0)
    shots.take(visitor, "visitor-team-before")

    # 2. The scorer of group 2's first table, on a phone.
    phone_context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    phone = console.watch(phone_context.new_page())
    login_link = url(f"{base}/entry/login/{walk.code}")
    phone.goto(login_link)
    assert phone.url == login_link, "opening the link alone does not log in"
    expect(phone.get_by_role("button", name="Log in as this table's scorer")).to_be_visible()
    login_as_table_in_browser(phone)  # the confirm button: a POST
    assert phone.url == url(f"{base}/table/{walk.table_id}/")
    players = phone.get_by_role("table", name="Players at this table")
    for name in walk.names.values():
        expect(players).to_contain_text(name)

    say_who_is_entering(phone, "W", walk.pins["W"])
    fill_discard_win(phone, 1, "W", "N", 16)
    with phone.expect_navigation():
        phone.get_by_role("button", name="Save").click()
    card = phone.locator("#pending form")
    expect(card).to_have_count(1)
    expect(card).to_contain_text("Set 1-01-6 waits for confirmation")
    expect(card).to_contain_text("West won on North's discard, 16 fan: E -8, S -8, W +40, N -24")
    expect(card).to_contain_text("Entered by seat W")
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"], "the table page scrolls sideways"
    shots.take(phone, "phone-entry-waiting", full_page=False)

    confirm_with_pin(phone, walk.pins["E"])
    expect(phone.locator(".messages")).to_contain_text("Set 1-01-6 confirmed.")
    expect(phone.locator("#pending form")).to_have_count(0)
    expect(phone.locator("#set_no option[value='1']")).to_contain_text("Confirmed")  # its own entry
    shots.take(phone, "phone-entry-confirmed")

    phone.goto(url(f"{base}/standings/"))
    assert_nothing_counted(phone, "the table's scorer")
    phone.goto(traveller_url)
    expect(phone.locator("#not-yet")).to_be_visible()
    expect(phone.locator("#progress")).to_contain_text(f"5 of {walk.tables_total} tables have a confirmed result")
    shots.take(phone, "phone-traveller-before")
    phone_context.close()  # its page polls the live server: closed before the test itself writes

    # 3. The director.
    director_context = browser.new_context(viewport=DESKTOP)
    director = console.watch(director_context.new_page())
    director.goto(url("/accounts/login/"))
    director.fill("#id_username", walk.director)
    director.fill("#id_password", walk.password)
    with director.expect_navigation():
        director.click("main button[type=submit]")
    assert director.locator("header form[action$='/logout/']").count() == 1, "the director could not log in"

    director.goto(url(f"{base}/standings/"))
    assert_nothing_counted(director, "the director's public view")
    link = director.get_by_role("link", name="Director's view: include every scored set")
    with director.expect_navigation():
        link.click()
    assert director.url.endswith("/standings/?all=1")
    warning = director.locator("main > p.warning#standings-scope")
    expect(warning).to_contain_text("Director's view: includes sets still being played at other tables. Do not show it to players.")
    assert director.evaluate("() => document.querySelector('#standings-scope').getBoundingClientRect().top "
                             "< document.querySelector('#standings').getBoundingClientRect().top"), "the warning is above the table"
    rows = standings_rows(director)
    sets = {row[1]: row[4] for row in rows}
    assert all(sets[name] == "4" for name in walk.group1_teams), f"group 1's four sets count for the director: {rows}"
    assert all(sets[name] == "0" for name in walk.group2_teams), f"group 2 has no scored comparison yet: {rows}"
    assert any(row[2] != "0" for row in rows), "group 1's points show"
    expected = in_own_thread(standings_of, walk.slug, public=False)
    assert [(row[1], row[2], row[3], row[4]) for row in rows] == [
        (r["name"], str(r["points"]), str(r["score_total"]), str(r["sets_played"])) for r in expected]
    shots.take(director, "director-standings-all")

    response = director.goto(wall_url)
    assert response.status == 200
    expect(director.locator("main h1")).to_contain_text("Wall set")
    assert director.locator("main table tbody tr").count() >= 4 * 13, "the director reads every tile of the wall"
    shots.take(director, "director-wall")

    director.goto(traveller_url)
    expect(director.locator("#traveller .status-entered").first).to_contain_text("Director's view")
    result_rows = director.locator("#traveller table.results tbody tr")
    expect(result_rows).to_have_count(walk.tables_total)
    expect(director.locator("#traveller td.status-confirmed")).to_have_count(5)
    expect(director.locator("#traveller td.status-missing")).to_have_count(3)
    expect(director.locator("#traveller table.scores")).to_have_count(1)  # group 1 is scored, group 2 not yet
    expect(director.locator("#traveller")).to_contain_text("Not scored yet")
    expect(director.locator("#hand-record abbr").first).to_be_visible()
    shots.take(director, "director-traveller")

    # 4. Group 2 finishes the first block.
    in_own_thread(group2_finishes_the_first_block, walk.slug)
    public = in_own_thread(standings_of, walk.slug, public=True)
    assert all(r["sets_played"] == len(FIRST_BLOCK) for r in public)

    visitor.goto(traveller_url)
    expect(visitor.locator("#not-yet")).to_have_count(0)
    expect(visitor.locator("#progress")).to_contain_text(f"{walk.tables_total} of {walk.tables_total} tables")
    expect(visitor.locator("#progress")).to_contain_text("Finished everywhere.")
    expect(visitor.locator("#traveller table.results tbody tr")).to_have_count(walk.tables_total)
    expect(visitor.locator("#traveller td.status-confirmed")).to_have_count(walk.tables_total)
    expect(visitor.locator("#traveller table.scores")).to_have_count(2)
    expect(visitor.locator("#traveller .status-entered")).to_have_count(0)  # no director's banner
    expect(visitor.locator("#hand-record h2").first).to_have_text("Hand record")  # then "Par"
    assert visitor.locator("#hand-record abbr").count() >= 4 * 13
    shots.take(visitor, "visitor-traveller-after")

    response = visitor.goto(wall_url)
    assert response.status == 200
    assert visitor.locator("main table tbody tr").count() >= 4 * 13
    shots.take(visitor, "visitor-wall-after")

    visitor.goto(url(f"{base}/standings/"))
    rows = standings_rows(visitor)
    assert [(row[1], row[2], row[3], row[4]) for row in rows] == [
        (r["name"], str(r["points"]), str(r["score_total"]), str(r["sets_played"])) for r in public]
    assert all(row[4] == str(len(FIRST_BLOCK)) for row in rows)
    shots.take(visitor, "visitor-standings-after")

    visitor.goto(url(f"{base}/teams/{walk.group1_team_number}/"))
    expect(visitor.locator("#sets tr.set-row")).to_have_count(len(FIRST_BLOCK))
    shots.take(visitor, "visitor-team-after")

    visitor_context.close()
    director_context.close()

    assert not console.errors, "console errors:\n" + "\n".join(console.errors)
