"""A result checked against the wall, walked as the table, the director and the table again
(Debian's Chromium, phone 390×844), for both families the check reads piles of (docs/security.md,
"The wall check"):

- duplicate MCR: the table enters a self-draw whose winning tile (tapped in the picker) is not
  among the winner's draws;
- riichi duplicate: South wins on a tile that lies only under West's dead-wall slots (an
  indicator, never drawn), where a win on East X1 after a kong would fit.

The phone sees exactly what it sees for any entry: "Set n waits for confirmation", no flag, no
tile of the wall; a second seat confirms. The director opens the set's traveller and the live
grid and sees the table flagged, with the reason. Once every table has played the set (the
others entered by the services here), the table's own page shows the flag beside its result.

Runs on its own events (built and removed by this module, written outside the test's
transaction) on the package's live server. Screenshots: docs/screenshots/wall-check-phone.png,
wall-check-director.png and wall-check-released.png (MCR), and the riichi ones with -riichi.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from playwright.sync_api import expect

from factories import (
    confirm_with_pin,
    console_error,
    demo_roster,
    enter_outcome,
    login_as_table_in_browser,
    prepared_event,
    save_entry,
    say_who_is_entering,
)
from tests.browser.conftest import PHONE, SCREENSHOTS, in_own_connection
from walls.setcode import set_code

pytestmark = [pytest.mark.browser, pytest.mark.django_db]


@dataclass(frozen=True)
class Cup:
    """Plain values of one module event (no ORM in the browser steps)."""

    ruleset: str
    slug: str
    event_id: int
    table_id: int
    table_number: int
    code: str
    set_no: int
    winner: str
    pin_winner: str
    pin_other: str
    tile: str
    says: str


def _cup(ruleset: str, director):
    from factories import first_set
    from scoring.wall_check import KINDS, kind_of
    from walls.models import WallSet

    event = prepared_event(demo_roster(), name=f"Wall Cup {ruleset}", slug=f"wall-cup-{ruleset}", sessions=1,
                           ruleset_code=ruleset, director=director)
    group = event.sessions.get(number=1).groups.order_by("number").first()
    table = group.tables.select_related("group__session__event").order_by("position").first()
    set_no = first_set(table)
    wall = WallSet.objects.get(event=event, session_number=1, set_no=set_no)
    if ruleset == "mcr-duplicate":
        winner = "E"
        drawn = {kind_of(t) for t in wall.piles["E-draw"]}
        tile = next(k for k in KINDS if k not in drawn)
        says = f"the winning tile {tile} is not among East's draws (D1-D21)"
    else:  # a tile under West's dead-wall slot X1 (a kan-dora indicator), found in no draw and no replacement tile
        winner = "S"
        reachable = {kind_of(t) for t in wall.piles["S-draw"] + wall.piles["E-dead"] + wall.piles["S-dead"][:2]}
        tile = next(k for k in KINDS if k not in reachable)
        piles = dict(wall.piles)
        west = list(piles["W-dead"])
        if kind_of(west[0]) != tile:  # bring a copy under West X1 from wherever South cannot reach it
            # (the wall is random: a copy may be in any pile South never draws, West's own dead wall included)
            swap_from = next(name for name in ("W-hand", "N-hand", "E-hand", "W-draw", "N-draw", "E-draw", "W-dead", "N-dead")
                             if name in piles and any(kind_of(t) == tile for t in piles[name]))
            row = west if swap_from == "W-dead" else list(piles[swap_from])
            at = next(i for i, t in enumerate(row) if kind_of(t) == tile)
            row[at], west[0] = west[0], row[at]  # the tile now lies under West X1 (as far as South can reach)
            if swap_from != "W-dead":
                piles[swap_from] = row
        piles["W-dead"] = west
        wall.piles = piles
        wall.save(update_fields=["piles"])
        says = f"the winning tile {tile} is not among South's draws (D1-D17, replacement tiles East X1"
    seats = {s.seat: s.player.pin for s in table.seats.select_related("player")}
    other = next(s for s in seats if s != winner)
    return Cup(ruleset, event.slug, event.pk, table.pk, table.number, table.login_code, set_no, winner, seats[winner],
               seats[other], tile, says)


@pytest.fixture(scope="module")
def cups(demo_site, browser, django_db_blocker):
    from django.contrib.auth import get_user_model

    from tournament.models import Event

    with django_db_blocker.unblock():
        director = get_user_model().objects.get(username=demo_site.director)
        made = {code: _cup(code, director) for code in ("mcr-duplicate", "riichi-duplicate")}
    yield made
    with django_db_blocker.unblock():
        Event.objects.filter(pk__in=[c.event_id for c in made.values()]).delete()


def _release(cup: Cup) -> None:
    """Every other table of the session plays the set (entered and confirmed by the director's
    services), so it is released everywhere. Run in a connection of its own
    (:func:`tests.browser.conftest.in_own_connection`): the live server sees what it writes."""
    from factories import play_up_to
    from scoring.actions.confirmation import confirm_result
    from scoring.actions.entry import submit_result
    from scoring.visibility import is_public
    from tournament.models import Event, Table

    event = Event.objects.get(pk=cup.event_id)
    tables = list(Table.objects.filter(group__session__event=event).select_related("group__session__event"))

    def enter(table, set_no):
        confirm_result(submit_result(table, set_no, outcome={"kind": "draw"}, actor="director"), actor="director", director=True)

    play_up_to(tables, cup.set_no, enter)
    assert is_public(event, 1, cup.set_no)


@pytest.mark.parametrize("ruleset", ["mcr-duplicate", "riichi-duplicate"])
def test_a_hand_that_does_not_fit_is_entered_as_any_other_and_flagged_for_the_director(
        browser, demo_site, cups, director_page, ruleset):
    cup = cups[ruleset]
    suffix = "" if ruleset == "mcr-duplicate" else "-riichi"
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    page = context.new_page()
    problems = []
    page.on("console", lambda message: problems.append(message.text) if console_error(message) else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    login_as_table_in_browser(page, demo_site.page("/entry/login/"), cup.code)
    assert page.url == demo_site.page(f"/e/{cup.slug}/table/{cup.table_id}/")

    picker = page.locator("#winning-tile-field")
    expect(picker).to_be_hidden()  # shown only once someone won
    if ruleset == "mcr-duplicate":
        enter_outcome(page, set_no=cup.set_no, kind="self_draw", winners=(cup.winner,), values={cup.winner: 8})
    else:
        enter_outcome(page, set_no=cup.set_no, kind="self_draw", winners=(cup.winner,), values={cup.winner: 3},
                      fu={cup.winner: 30})
    expect(picker).to_be_visible()
    tile = page.locator(f"label[for=wt-{cup.tile}]")
    expect(tile).to_be_hidden()  # folded, so Save stays on the first screen
    picker.locator("summary").click()
    expect(picker).to_contain_text("the director checks it against the wall")
    tile.click()
    expect(page.locator(f"#wt-{cup.tile}")).to_be_checked()
    say_who_is_entering(page, cup.winner, cup.pin_winner)
    save_entry(page)

    # Stored as any entry: the card to confirm, the usual message, no word about the wall.
    card = page.locator("#pending form")
    expect(card).to_have_count(1)
    expect(card).to_contain_text(f"Set {set_code(1, cup.set_no)} waits for confirmation")
    expect(page.locator(".messages")).to_contain_text(f"Saved set {cup.set_no}")
    assert "does not fit" not in page.locator("main").inner_text()
    expect(page.locator(".wall-flag")).to_have_count(0)
    card.scroll_into_view_if_needed()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"wall-check-phone{suffix}.png"))
    confirm_with_pin(page, cup.pin_other)
    expect(page.locator("#pending form")).to_have_count(0)
    expect(page.locator(f"#played-{cup.set_no}")).to_contain_text("Confirmed")
    expect(page.locator(".wall-flag")).to_have_count(0)

    # The director: the traveller's box and the live grid, with the reason.
    director_page.goto(demo_site.page(f"/e/{cup.slug}/travellers/1/{cup.set_no}/"))
    box = director_page.locator("#wall-flags")
    expect(box).to_contain_text("Entries that do not fit the wall")
    expect(box).to_contain_text(f"Table {cup.table_number}")
    expect(box).to_contain_text(cup.says)
    expect(box).to_contain_text("Law 87")
    box.scroll_into_view_if_needed()
    director_page.screenshot(path=str(SCREENSHOTS / f"wall-check-director{suffix}.png"))
    director_page.goto(demo_site.page(f"/e/{cup.slug}/director/live/"))
    expect(director_page.locator("td.flagged").first).to_be_visible()
    assert cup.says in (director_page.locator("td.flagged").first.get_attribute("title") or "")

    # Released everywhere: the table's own page now shows its flag beside its result.
    director_page.goto("about:blank")  # the live grid polls: let it rest while the other tables play
    in_own_connection(_release, cup)
    page.reload()
    flag = page.locator(f"#played-{cup.set_no} .wall-flag")
    expect(flag).to_contain_text("does not fit the wall")
    expect(flag).to_contain_text(cup.says)
    flag.scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / f"wall-check-released{suffix}.png"))
    assert not problems, problems
    context.close()
