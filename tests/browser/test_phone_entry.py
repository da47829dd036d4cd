"""Result entry at the table on a phone (Debian's Chromium, 390×844): the scorer opens the score
sheet's login link and confirms the login with its button (or types the code), enters a hand by
its outcome, saying who is entering with that player's own PIN (a save without them, or with a
PIN that is not the chosen seat's, is refused), a second player confirms it with their PIN (the
entering seat's PIN is refused), and the director sees it on the live page and in the standings.
A second phone logged in with the same code sees an entry appear without reloading and confirms
it, while the director's live grid follows without reloading.

The tests run on their own event ("Phone Cup", built and removed by this module) on the package's
live server, so the shared demo event keeps the state the other browser tests expect. Its other
tables of the first group have already reached and confirmed the set the phone enters, so that
set becomes complete — and scored — when the phone's result is confirmed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from playwright.sync_api import expect

from factories import (
    confirm_with_pin, console_error, demo_roster, fill_discard_win, login_as_table_in_browser, prepared_event, say_who_is_entering,
    sets_through, standings_rows,
)
from tests.browser.conftest import PHONE
from walls.setcode import set_code

pytestmark = [pytest.mark.browser, pytest.mark.django_db]


@dataclass(frozen=True)
class Cup:
    """Plain values of the module's event (no ORM in the browser steps)."""

    slug: str
    table_id: int
    table_number: int
    code: str
    sets: tuple[int, ...]
    names: dict
    pins: dict
    group_teams: tuple[str, ...]
    entrants: int


@pytest.fixture(scope="module")
def cup(demo_site, browser, django_db_blocker):
    from django.contrib.auth import get_user_model

    from scoring.actions.confirmation import confirm_result
    from scoring.actions.entry import submit_result
    from tournament.models import Event
    from factories import blocks

    with django_db_blocker.unblock():
        director = get_user_model().objects.get(username=demo_site.director)
        event = prepared_event(demo_roster(), name="Phone Cup", slug="phone-cup", sessions=1, director=director)
        group = event.sessions.get(number=1).groups.order_by("number").first()
        tables = list(group.tables.select_related("group__session__event").order_by("position"))
        table = tables[0]
        first_block = blocks(table)[0][1]
        target = first_block[0]
        for other in tables[1:]:
            for set_no in sets_through(other, target):
                result = submit_result(other, set_no, changes={"E": 24, "S": -8, "W": -8, "N": -8}, actor="setup")
                confirm_result(result, actor="setup", director=True)
        seats = {s.seat: s for s in table.seats.select_related("player")}
        values = Cup(
            slug=event.slug, table_id=table.pk, table_number=table.number, code=table.login_code, sets=tuple(first_block),
            names={seat: s.player.name for seat, s in seats.items()}, pins={seat: s.player.pin for seat, s in seats.items()},
            group_teams=tuple(sorted({s.team.name for t in tables for s in t.seats.select_related("team")})),
            entrants=event.teams.count(),
        )
    yield values
    with django_db_blocker.unblock():
        Event.objects.filter(pk=event.pk).delete()


def phone(browser):
    """A new phone-sized browser context (own cookies: a separate device) and its page."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=3)
    return context, context.new_page()


def log_in_with_the_table_code(page, demo_site, cup, *, scanned=False):
    """Log a phone in as the table's scorer: ``scanned``, by the score sheet's QR link (the event's
    login page with the code filled in: nothing happens until the button is pressed); else by
    typing the code, in lower case and without its dash, into the login form."""
    if scanned:
        page.goto(demo_site.page(f"/e/{cup.slug}/entry/login/{cup.code[:5]}-{cup.code[5:]}"))
        expect(page.locator("#code")).to_have_value(f"{cup.code[:5]}-{cup.code[5:]}")
        assert page.url.endswith("/entry/login/" + f"{cup.code[:5]}-{cup.code[5:]}"), "the link alone must not log in"
        expect(page.get_by_role("button", name="Log in as this table's scorer")).to_be_visible()
        login_as_table_in_browser(page)
    else:
        login_as_table_in_browser(page, demo_site.page("/entry/login/"), cup.code.lower())
    assert page.url == demo_site.page(f"/e/{cup.slug}/table/{cup.table_id}/")


def test_a_phone_enters_a_hand_a_second_player_confirms_and_the_director_sees_it(browser, demo_site, cup, director_page):
    set_no = cup.sets[0]
    director_page.goto(demo_site.page(f"/e/{cup.slug}/standings/"))
    before = standings_rows(director_page)
    assert len(before) == cup.entrants and all(row[4] == "0" for row in before), "no set is complete before the phone's entry"

    context, page = phone(browser)
    problems = []
    page.on("console", lambda message: problems.append(message.text) if console_error(message) else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    log_in_with_the_table_code(page, demo_site, cup, scanned=True)
    players = page.get_by_role("table", name="Players at this table")
    for name in cup.names.values():
        expect(players).to_contain_text(name)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    save = page.locator("#save").bounding_box()
    assert save["y"] + save["height"] <= PHONE["height"], "Save must be on the first screen of a fresh table page"

    fill_discard_win(page, set_no, "E", "S", 10)
    with page.expect_navigation():
        page.get_by_role("button", name="Save").click()
    expect(page.locator("#err-entered_by_seat")).to_contain_text("choose who is entering")  # nothing saved yet
    expect(page.locator("#err-entry_pin")).to_contain_text("type your own 4-digit PIN")
    expect(page.locator("#pending form")).to_have_count(0)
    expect(page.locator("#value_E")).to_have_value("10")  # the outcome stays as entered
    expect(page.locator("#kind-discard")).to_be_checked()
    expect(page.locator("#discarder-S")).to_be_checked()
    say_who_is_entering(page, "S", cup.pins["E"])  # E names S as the one entering: E's PIN is not S's
    with page.expect_navigation():
        page.get_by_role("button", name="Save").click()
    expect(page.locator("#err-entry_pin")).to_contain_text("that is not the PIN of the player at seat S")
    expect(page.locator("#pending form")).to_have_count(0)
    expect(page.locator("#entry_pin")).to_have_value("")  # the PIN typed is not sent back
    say_who_is_entering(page, "E", cup.pins["E"])
    with page.expect_navigation():
        page.get_by_role("button", name="Save").click()

    card = page.locator("#pending form")
    expect(card).to_have_count(1)
    expect(card).to_contain_text(f"Set {set_code(1, set_no)} waits for confirmation")
    # MCR: E wins 10 fan on S's discard: S pays 8 + 10, W and N 8 each.
    expect(card.locator("p.outcome-words")).to_have_text("East won on South's discard, 10 fan: E +34, S -18, W -8, N -8")
    expect(card.locator("input[name=pin]")).to_have_attribute("type", "password")

    confirm_with_pin(page, cup.pins["E"])
    expect(page.locator(".messages")).to_contain_text("seat E entered this result")
    expect(page.locator("#pending form")).to_have_count(1)

    confirm_with_pin(page, cup.pins["S"])
    expect(page.locator(".messages")).to_contain_text(f"Set {set_code(1, set_no)} confirmed.")
    expect(page.locator("#pending form")).to_have_count(0)
    expect(page.locator(f"#played-{set_no}")).to_contain_text("East won on South's discard, 10 fan")
    assert problems == [], problems
    context.close()

    director_page.goto(demo_site.page(f"/e/{cup.slug}/director/live/"))
    cell = director_page.locator(f"#live tr[data-table='{cup.table_number}'] td[data-set='{set_no}']")
    expect(cell).to_have_class(re.compile(r"\bstatus-confirmed\b"))

    director_page.goto(demo_site.page(f"/e/{cup.slug}/standings/?all=1"))  # the director's view: every scored set
    after = standings_rows(director_page)
    played = sorted(row[1] for row in after if row[4] == "1")
    assert played == list(cup.group_teams), "the set's four teams are scored once every table confirmed it"
    from scoring.reports import event_standings
    from tournament.models import Event

    expected = event_standings(Event.objects.get(slug=cup.slug), public=False)
    assert [(row[1], row[2], row[3]) for row in after] == [(r["name"], str(r["points"]), str(r["score_total"])) for r in expected]


def test_a_second_phone_sees_the_entry_without_reloading_and_the_live_grid_follows(browser, demo_site, cup, director_page):
    set_no = cup.sets[1]
    director_page.goto(demo_site.page(f"/e/{cup.slug}/director/live/"))
    director_page.evaluate("() => { window.notReloaded = true; }")
    row = director_page.locator(f"#live tr[data-table='{cup.table_number}']")
    expect(row).to_have_class(re.compile(r"\blate\b"))  # the group's other tables are blocks ahead
    cell = row.locator(f"td[data-set='{set_no}']")
    expect(cell).to_have_class(re.compile(r"\bstatus-missing\b"))

    first_context, first = phone(browser)
    second_context, second = phone(browser)
    log_in_with_the_table_code(first, demo_site, cup)
    log_in_with_the_table_code(second, demo_site, cup)
    second.evaluate("() => { window.notReloaded = true; }")
    expect(second.locator("#pending form")).to_have_count(0)

    first.select_option("#set_no", str(set_no))
    first.check("input[name=mode][value=changes]")  # an adjustment: typed score changes
    for seat, change in {"E": "8", "S": "-8", "W": "24", "N": "-8"}.items():
        first.fill(f"#seat_{seat}", change)
    first.click("button.sign[data-for=seat_E]")  # the ± button: an iPhone number pad has no minus key
    expect(first.locator("#seat_E")).to_have_value("-8")
    say_who_is_entering(first, "W", cup.pins["W"])
    with first.expect_navigation():
        first.get_by_role("button", name="Save").click()
    expect(first.locator("#pending form")).to_have_count(1)

    expect(second.locator("#pending form")).to_have_count(1, timeout=15_000)
    expect(second.locator("#pending form")).to_contain_text("W +24")
    assert second.evaluate("() => window.notReloaded") is True
    expect(cell).to_have_class(re.compile(r"\bstatus-entered\b"), timeout=15_000)

    confirm_with_pin(second, cup.pins["N"])
    expect(second.locator(".messages")).to_contain_text(f"Set {set_code(1, set_no)} confirmed.")

    expect(cell).to_have_class(re.compile(r"\bstatus-confirmed\b"), timeout=15_000)
    assert director_page.evaluate("() => window.notReloaded") is True
    first_context.close()
    second_context.close()
