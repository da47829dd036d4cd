"""docs/security.md, "Threats and the tests that cover them", threat 1, walked on a phone (Debian's Chromium, 390×844) as the players at a table
would: one player cannot set a result and have it confirmed by themselves.

The table's phone logs in with the score sheet's code; South enters a hand with South's PIN; on
the same phone someone opens the result's page and tries to correct it to West's 88-fan
self-draw without saying who they are: the page asks for the correcting seat and that player's
PIN and keeps the stored result. West corrects it with West's own PIN: the correction becomes
West's entry, so West's PIN cannot confirm it; South's PIN does. The history names the player and
seat of each change.

Screenshots of each step go to ``$CORRECTION_SHOTS_DIR`` when set (else a temporary directory).
The module builds and removes its own event ("Correction Cup") on the package's live server.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import expect

from factories import (
    confirm_with_pin, console_error, demo_roster, enter_outcome, fill_discard_win, login_as_table_in_browser, prepared_event,
    say_who_is_entering,
)
from tests.browser.conftest import PHONE
from walls.setcode import set_code

pytestmark = [pytest.mark.browser, pytest.mark.django_db]


@dataclass(frozen=True)
class Table:
    """Plain values of the module's table (no ORM in the browser steps)."""

    slug: str
    table_id: int
    label: str
    code: str
    set_no: int
    names: dict
    pins: dict


@pytest.fixture(scope="module")
def cup(demo_site, browser, django_db_blocker):
    from django.contrib.auth import get_user_model

    from tournament.models import Event
    from factories import blocks

    with django_db_blocker.unblock():
        director = get_user_model().objects.get(username=demo_site.director)
        event = prepared_event(demo_roster(), name="Correction Cup", slug="correction-cup", sessions=1, director=director)
        table = event.sessions.get(number=1).groups.order_by("number").first().tables.order_by("position").first()
        seats = {s.seat: s.player for s in table.seats.select_related("player")}
        values = Table(slug=event.slug, table_id=table.pk, label=str(table), code=table.login_code,
                       set_no=blocks(table)[0][1][0], names={seat: p.name for seat, p in seats.items()},
                       pins={seat: p.pin for seat, p in seats.items()})
    yield values
    with django_db_blocker.unblock():
        Event.objects.filter(pk=event.pk).delete()


@pytest.fixture
def shots(tmp_path):
    folder = Path(os.environ.get("CORRECTION_SHOTS_DIR") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return lambda page, name: page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def test_one_player_cannot_correct_a_result_and_confirm_it_themselves(browser, demo_site, cup, shots):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    page = context.new_page()
    problems = []
    page.on("console", lambda message: problems.append(message.text) if console_error(message) else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    login_as_table_in_browser(page, demo_site.page(f"/e/{cup.slug}/entry/login/{cup.code}"))
    table_url = demo_site.page(f"/e/{cup.slug}/table/{cup.table_id}/")
    assert page.url == table_url

    # South enters East's 8-fan win on North's discard, with South's own PIN.
    fill_discard_win(page, cup.set_no, "E", "N", 8)
    say_who_is_entering(page, "S", cup.pins["S"])
    with page.expect_navigation():
        page.get_by_role("button", name="Save").click()
    card = page.locator("#pending form")
    expect(card.locator("p.outcome-words")).to_have_text("East won on North's discard, 8 fan: E +32, S -8, W -8, N -16")
    shots(page, "01-south-entered")

    # The same phone opens the result's page and tries West's 88-fan self-draw, saying nobody.
    with page.expect_navigation():
        card.get_by_role("link", name="History / dispute").click()
    result_url = page.url
    expect(page.locator("#entered_by_seat")).to_be_visible()
    expect(page.get_by_label("Your PIN (the player correcting)")).to_have_attribute("type", "password")
    shots(page, "02-result-page-asks-who-corrects")
    enter_outcome(page, kind="self_draw", winners=("W",), values={"W": 88})
    with page.expect_navigation():
        page.get_by_role("button", name="Save correction").click()
    expect(page.locator("#err-entered_by_seat")).to_contain_text("choose who is correcting")
    expect(page.locator("#err-entry_pin")).to_contain_text("type your own 4-digit PIN")
    expect(page.locator("#outcome")).to_contain_text("East won on North's discard, 8 fan")  # nothing changed
    expect(page.locator("#history tbody tr")).to_have_count(1)
    expect(page.locator("#kind-self_draw")).to_be_checked()  # the correction typed stays on the page
    expect(page.locator("#value_W")).to_have_value("88")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    shots(page, "03-correction-without-pin-refused")

    # Naming West with South's PIN is refused too; West corrects with West's own PIN.
    page.select_option("#entered_by_seat", "W")
    page.fill("#entry_pin", cup.pins["S"])
    with page.expect_navigation():
        page.get_by_role("button", name="Save correction").click()
    expect(page.locator("#err-entry_pin")).to_contain_text("that is not the PIN of the player at seat W")
    expect(page.locator("#entry_pin")).to_have_value("")  # the PIN typed is not sent back
    expect(page.locator("#history tbody tr")).to_have_count(1)
    page.select_option("#entered_by_seat", "W")
    page.fill("#entry_pin", cup.pins["W"])
    with page.expect_navigation():
        page.get_by_role("button", name="Save correction").click()
    assert page.url == result_url
    expect(page.locator("#outcome")).to_contain_text("W +288")
    expect(page.locator("h1 .status-entered")).to_be_visible()
    expect(page.locator("main")).to_contain_text("Entered by seat")
    expect(page.locator("#history tbody tr").nth(1)).to_contain_text(f"{cup.names['W']} (W), {cup.label}")
    shots(page, "04-west-corrected-with-own-pin")

    # West's PIN cannot confirm West's correction; South's PIN can.
    page.goto(table_url)
    confirm_with_pin(page, cup.pins["W"])
    expect(page.locator(".messages")).to_contain_text("seat W entered this result")
    expect(page.locator("#pending form")).to_have_count(1)
    shots(page, "05-west-pin-cannot-confirm")
    confirm_with_pin(page, cup.pins["S"])
    expect(page.locator(".messages")).to_contain_text(f"Set {set_code(1, cup.set_no)} confirmed.")
    expect(page.locator("#pending form")).to_have_count(0)
    shots(page, "06-south-pin-confirms")

    page.goto(result_url)
    rows = page.locator("#history tbody tr")
    expect(rows).to_have_count(3)
    for row, (action, seat) in enumerate((("entered", "S"), ("corrected", "W"), ("confirmed", "S"))):
        expect(rows.nth(row).locator("td").nth(1)).to_have_text(action)
        expect(rows.nth(row).locator("td").nth(2)).to_have_text(f"{cup.names[seat]} ({seat}), {cup.label}")
    expect(page.locator("#confirmed-note")).to_be_visible()  # confirmed: only the director changes it now
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    shots(page, "07-history-names-each-player")
    assert problems == [], problems
    context.close()


def test_the_correction_form_of_a_table_on_a_phone_has_no_serious_accessibility_violation(scorer_page, demo_site, axe_source):
    from tests.browser.test_accessibility import serious_violations

    scorer_page.goto(demo_site.page(f"/e/{demo_site.slug}/results/{demo_site.pending_result_id}/"))
    expect(scorer_page.locator("#entered_by_seat")).to_be_visible()
    with scorer_page.expect_navigation():
        scorer_page.get_by_role("button", name="Save correction").click()  # nothing said: the errors show
    expect(scorer_page.locator("#err-entry_pin")).to_be_visible()
    assert serious_violations(scorer_page, axe_source) == []
