"""The table plan (docs/seating.md, "The table plan") walked in Debian's Chromium as the people
would, one flow per test:

a) a player's phone (390×844) at table 1 logs in with the table code and enters its first block,
   then tries the first set of its second block while that set's copy is still at table 2: the page
   refuses, saying the set is still being played at Table 2 and to enter it once Table 2 has,
   and nothing is stored; once table 2 has entered that set, the same entry from the phone is
   taken;
b) the director of an individual event in which a substitute came in before set 1 opens the live
   grid after play: the substitute is in the converted-scores table with a rank (or "–") and
   their points, every cell of table 1 names them at East in its title, and the standings give
   them the same rank (or "–" with the note "not ranked");
c) the director prints the player cards after a substitution for good from the director's page:
   the PDF (rendered to PNG with pypdfium2) holds the substitute's card and no card of the player
   replaced.

Each module fixture builds and removes its own event on the package's live server. Screenshots of
each step go to ``$TABLE_PLAN_SHOTS_DIR`` when set (else /tmp/walk).
"""

from __future__ import annotations

import io
import os
import random
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import expect

from factories import (
    confirm_with_pin, console_error, demo_roster, fill_discard_win, individual_roster, login_as_table_in_browser, play_slots, prepared_event,
    say_who_is_entering, standings_notes, standings_rows,
)
from tests.browser.conftest import PHONE
from tests.browser.test_visibility_walk import in_own_thread
from walls.setcode import set_code

pytestmark = [pytest.mark.browser, pytest.mark.django_db]

SHOTS = Path(os.environ.get("TABLE_PLAN_SHOTS_DIR") or "/tmp/walk")


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _director(demo_site):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(username=demo_site.director)


# --- a) a phone at table 1 and the copy still at table 2 ------------------------------------------


@dataclass(frozen=True)
class Follow:
    """Plain values of the movement walk's event (no ORM in the browser steps)."""

    slug: str
    table_id: int
    table_number: int
    code: str
    next_number: int
    next_id: int
    first: tuple[int, ...]
    second: tuple[int, ...]
    pins: dict


@pytest.fixture(scope="module")
def follow(demo_site, browser, django_db_blocker):
    from tournament.models import Event
    from tournament.table_plan import session_plan

    with django_db_blocker.unblock():
        event = prepared_event(demo_roster(4), name="Movement Walk", slug="movement-walk", sessions=1,
                               director=_director(demo_site))
        plan = session_plan(event, 1)
        t1, t2 = list(event.sessions.get(number=1).groups.get(number=1).tables.order_by("position"))[:2]
        first, second = (sets for _block, sets in plan.blocks(t1)[:2])
        previous = plan.previous_play(t1, second[0])
        assert (previous.group, previous.position) == (1, t2.position), "table 1's second block comes from table 2"
        values = Follow(slug=event.slug, table_id=t1.pk, table_number=t1.number, code=t1.login_code,
                        next_number=t2.number, next_id=t2.pk, first=tuple(first), second=tuple(second),
                        pins={s.seat: s.player.pin for s in t1.seats.select_related("player")})
    yield values
    with django_db_blocker.unblock():
        Event.objects.filter(pk=event.pk).delete()


def _results(table_id):
    from scoring.models import HandResult

    return sorted(HandResult.objects.filter(table_id=table_id).values_list("set_no", flat=True))


def _table_enters(table_id, set_no):
    from scoring.actions.entry import submit_result
    from tournament.models import Table

    table = Table.objects.select_related("group__session__event").get(pk=table_id)
    east = table.seats.select_related("player").get(seat="E").player
    submit_result(table, set_no, changes={"E": 24, "S": -8, "W": -8, "N": -8}, actor="table 2",
                  entered_by_seat="E", entry_pin=east.pin)


def test_a_phone_cannot_enter_a_set_still_at_the_table_before_it_and_can_once_that_table_entered_it(browser, demo_site, follow):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    page = context.new_page()
    problems = []
    page.on("console", lambda message: problems.append(message.text) if console_error(message) else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    try:
        login_as_table_in_browser(page, demo_site.page("/entry/login/"), follow.code)
        table_url = demo_site.page(f"/e/{follow.slug}/table/{follow.table_id}/")
        assert page.url == table_url
        shot(page, "a01-phone-logged-in")

        # The first block, one hand each, entered by the players in turn with their own PINs.
        seats = "ESWN"
        for i, set_no in enumerate(follow.first):
            winner, discarder = seats[i % 4], seats[(i + 1) % 4]
            fill_discard_win(page, set_no, winner, discarder, 8)
            say_who_is_entering(page, winner, follow.pins[winner])
            with page.expect_navigation():
                page.get_by_role("button", name="Save").click()
            expect(page.locator("#err-set_no")).to_have_count(0)
            confirm_with_pin(page, follow.pins[discarder])  # another player confirms it
            expect(page.locator(".messages")).to_contain_text(f"Set {set_code(1, set_no)} confirmed.")
        assert in_own_thread(_results, follow.table_id) == sorted(follow.first)
        shot(page, "a02-first-block-entered")

        # The second block's first set: its copy is still at table 2.
        target = follow.second[0]
        fill_discard_win(page, target, "E", "S", 10)
        say_who_is_entering(page, "E", follow.pins["E"])
        with page.expect_navigation():
            page.get_by_role("button", name="Save").click()
        page.screenshot(path=str(SHOTS / "a03a-refused-first-screen.png"))
        error = page.locator("#err-set_no")
        expect(error).to_have_text(f"set {target} is still being played at Table {follow.next_number}: "
                                   f"enter it once Table {follow.next_number} has entered it")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        shot(page, "a03-refused-copy-at-table-2")
        assert target not in in_own_thread(_results, follow.table_id), "a refused entry stores nothing"

        # Table 2 plays and enters the set; the copy moves on to table 1.
        in_own_thread(_table_enters, follow.next_id, target)
        page.goto(table_url)
        fill_discard_win(page, target, "E", "S", 10)
        say_who_is_entering(page, "E", follow.pins["E"])
        with page.expect_navigation():
            page.get_by_role("button", name="Save").click()
        expect(page.locator("#err-set_no")).to_have_count(0)
        expect(page.locator("#pending form").filter(has_text=f"Set {set_code(1, target)} waits for confirmation")).to_have_count(1)
        assert target in in_own_thread(_results, follow.table_id)
        shot(page, "a04-entered-after-table-2")
        assert problems == [], problems
    finally:
        context.close()


# --- b) the live grid of an individual event with a substitute ----------------------------------------


@dataclass(frozen=True)
class Solo:
    slug: str
    substitute: str
    replaced: str
    points: tuple[int, ...]


@pytest.fixture(scope="module")
def solo(demo_site, browser, django_db_blocker):
    from scoring.table_views import live_state
    from tournament.models import Event, SeatAssignment, Table
    from tournament.substitutions import substitute

    with django_db_blocker.unblock():
        event = prepared_event(individual_roster(16), name="Solo Walk", slug="solo-walk", method=Event.Method.INDIVIDUAL,
                               conversion="mcr-mp", director=_director(demo_site))
        table = Table.objects.get(group__session__event=event, number=1)
        replaced = SeatAssignment.objects.get(table=table, seat="E").player
        sub = substitute(event, 1, player_out=replaced, name="Walk In Wu", reason="did not come", actor="director")
        play_slots(event, random.Random(11))
        board = {entry["name"]: entry for entry in live_state(event, 1)["scores"]}
        values = Solo(slug=event.slug, substitute=sub.player_in.name, replaced=replaced.name,
                      points=tuple(board[sub.player_in.name]["points"]))
    yield values
    with django_db_blocker.unblock():
        Event.objects.filter(pk=event.pk).delete()


def test_the_directors_live_grid_of_an_individual_event_shows_the_substitute(director_page, demo_site, solo):
    page = director_page
    page.goto(demo_site.page(f"/e/{solo.slug}/director/live/"))
    shot(page, "b01-live-grid")
    row = page.locator("#converted tbody tr").filter(has=page.locator("th", has_text=solo.substitute))
    expect(row).to_have_count(1)
    cells = [c.strip() for c in row.locator("td").all_inner_texts()]
    rank = cells[0]
    assert re.fullmatch(r"\d+|–", rank), cells
    assert cells[1:-1] == [f"{p:+d}" for p in solo.points], cells
    assert cells[-1] == f"{sum(solo.points):+d}"
    replaced = page.locator("#converted tbody tr").filter(has=page.locator("th", has_text=re.compile(rf"^{re.escape(solo.replaced)}$")))
    for i in range(replaced.count()):  # the player replaced before set 1 has no points of this session
        texts = [c.strip() for c in replaced.nth(i).locator("td").all_inner_texts()]
        assert texts[0] == "–" and set(texts[1:-1]) == {"·"}, texts
    cells_t1 = page.locator("#live tr[data-table='1'] td[data-set]")
    assert cells_t1.count() == 16
    titles = [cells_t1.nth(i).get_attribute("title") for i in range(cells_t1.count())]
    for set_no, (title, points) in enumerate(zip(titles, solo.points), start=1):
        assert f"· E {solo.substitute} {points:+d}" in title, (set_no, title)
    row.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "b02-substitute-row.png"))

    # The standings say the same: the substitute unranked (or ranked) as on the live grid.
    page.goto(demo_site.page(f"/e/{solo.slug}/standings/?all=1"))
    shot(page, "b03-standings")
    rows = standings_rows(page)
    standing = next(r for r in rows if r[1] == solo.substitute)
    assert (standing[0] or "–") == rank, (standing, rank)
    if rank == "–":
        assert "not ranked" in standings_notes(page)[solo.substitute]


# --- c) player cards after a substitution for good ------------------------------------------------------


@dataclass(frozen=True)
class Cards:
    slug: str
    substitute: str
    replaced: str


@pytest.fixture(scope="module")
def cards(demo_site, browser, django_db_blocker):
    from tournament.models import Event, SeatAssignment, Table
    from tournament.substitutions import substitute

    with django_db_blocker.unblock():
        event = prepared_event(demo_roster(4), name="Card Walk", slug="card-walk", sessions=2,
                               entrant_policy="substitutes", director=_director(demo_site))
        table = Table.objects.get(group__session__event=event, number=1)
        replaced = SeatAssignment.objects.get(table=table, seat="E").player
        sub = substitute(event, 1, player_out=replaced, name="Forgood Fang", for_good=True, reason="left the event",
                         actor="director")
        values = Cards(slug=event.slug, substitute=sub.player_in.name, replaced=replaced.name)
    yield values
    with django_db_blocker.unblock():
        Event.objects.filter(pk=event.pk).delete()


def test_the_director_prints_player_cards_after_a_substitution_for_good(director_page, demo_site, cards):
    import pypdfium2

    page = director_page
    page.goto(demo_site.page(f"/e/{cards.slug}/director/"))
    page.select_option("#kind-1", "player_cards")
    shot(page, "c01-director-page-print-form")
    with page.expect_navigation():
        page.locator("#kind-1").locator("xpath=ancestor::form").get_by_role("button", name="Render").click()
    row = page.locator("#jobs tbody tr").filter(has_text="Player cards").first
    link = row.get_by_role("link", name="Download")
    expect(link).to_be_visible(timeout=120_000)
    shot(page, "c02-print-job-done")
    response = page.request.get(link.evaluate("a => a.href"))
    assert response.ok, response.status
    document = pypdfium2.PdfDocument(io.BytesIO(response.body()))
    text = ""
    for number, pdf_page in enumerate(document):
        text += pdf_page.get_textpage().get_text_range() + "\n"
        pdf_page.render(scale=1.5).to_pil().save(SHOTS / f"c03-player-cards-page-{number + 1}.png")
    document.close()
    assert cards.substitute in text, "the substitute has a card"
    assert cards.replaced not in text, "the player replaced for good has no card"
    assert text.count(cards.substitute) == 1, "one card for the seat's holder"
