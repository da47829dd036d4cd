"""Someone who read a table's code on its score sheet guesses PINs from their own phone (issue 44,
item 2; docs/security.md, "Entering and confirming at the table"), for a riichi and an MCR event.

Walked as the people at the venue meet it, at 390×844: the table's own phone enters a hand with
the entering player's PIN; a stranger's phone logs in with the printed code and types wrong PINs
at the waiting result until it is told to wait (the seconds on the page, no PIN box); the table's
phone still confirms with another player's PIN; the director's table page lists the stranger's
phone (its address and count) and clears it. Screenshots: docs/screenshots/pin-wait-phone.png,
docs/screenshots/wrong-pins-director.png.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from factories import demo_roster, enter_outcome, login_as_table_in_browser, prepared_event, say_who_is_entering

from .conftest import DESKTOP, PHONE, SCREENSHOTS, in_own_connection

pytestmark = [pytest.mark.browser, pytest.mark.django_db]


@dataclass(frozen=True)
class Cup:
    slug: str
    table_id: int
    code: str
    first_set: int
    pins: dict


@pytest.fixture(scope="module")
def cups(demo_site, browser, django_db_blocker):
    from factories import blocks
    from tournament.models import Event, EventRole, Table

    from django.contrib.auth import get_user_model

    made = {}
    with django_db_blocker.unblock():
        director = get_user_model().objects.get(username=demo_site.director)
        for code in ("riichi-duplicate", "mcr-duplicate"):
            event = prepared_event(demo_roster(4), name=f"Guess Cup {code[0].upper()}", slug=f"guess-{code}",
                                   ruleset_code=code, sessions=1, base_url="http://192.168.7.20:8000/")
            EventRole.objects.create(event=event, user=director, role=EventRole.Role.DIRECTOR)
            table = Table.objects.filter(group__session__event=event).order_by("number").first()
            made[code] = Cup(slug=event.slug, table_id=table.pk, code=table.login_code, first_set=blocks(table)[0][1][0],
                             pins={s.seat: s.player.pin for s in table.seats.select_related("player")})
    yield made
    with django_db_blocker.unblock():
        Event.objects.filter(slug__startswith="guess-").delete()


def _status(table_id: int) -> dict:
    from scoring.models import HandResult

    return in_own_connection(lambda: dict(HandResult.objects.filter(table_id=table_id).values_list("set_no", "status")))


@pytest.mark.parametrize("code", ["riichi-duplicate", "mcr-duplicate"])
def test_a_stranger_with_the_code_waits_and_the_tables_phone_still_confirms(browser, demo_site, cups, code):
    cup = cups[code]
    login = demo_site.page(f"/e/{cup.slug}/entry/login/{cup.code}")
    table_url = demo_site.page(f"/e/{cup.slug}/table/{cup.table_id}/")
    own = browser.new_context(viewport=PHONE)
    stranger = browser.new_context(viewport=PHONE)
    desk = browser.new_context(viewport=DESKTOP)
    try:
        phone = own.new_page()
        login_as_table_in_browser(phone, login)
        enter_outcome(phone, set_no=cup.first_set, kind="self_draw", winners=("E",), values={"E": 3 if code.startswith("riichi") else 8},
                      fu={"E": 30} if code.startswith("riichi") else None)
        say_who_is_entering(phone, "E", cup.pins["E"])
        with phone.expect_navigation():
            phone.click("#save")
        card = phone.locator("form.confirm")
        assert card.count() == 1

        guesser = stranger.new_page()
        login_as_table_in_browser(guesser, login)
        wrong = [p for p in (f"{n:04d}" for n in range(1000, 1100)) if p not in cup.pins.values()][:5]
        for typed in wrong:
            box = guesser.locator("form.confirm input[name=pin]")
            box.fill(typed)
            with guesser.expect_navigation():
                guesser.locator("form.confirm button[type=submit]").first.click()
            assert "belongs to no player" in guesser.inner_text("body")
        guesser.goto(table_url)
        warning = guesser.locator("#table-locked")
        assert warning.is_visible()
        assert "30" in warning.inner_text() and guesser.locator("form.confirm input[name=pin]").count() == 0
        guesser.screenshot(path=str(SCREENSHOTS / "pin-wait-phone.png"))

        phone.goto(table_url)  # the table's own phone: no wait, the PIN box is there
        assert phone.locator("#table-locked").count() == 0
        phone.locator("form.confirm input[name=pin]").fill(cup.pins["S"])
        with phone.expect_navigation():
            phone.locator("form.confirm button[type=submit]").first.click()
        assert _status(cup.table_id) == {cup.first_set: "confirmed"}

        director = desk.new_page()
        director.goto(demo_site.page("/accounts/login/"))
        director.fill("#id_username", demo_site.director)
        director.fill("#id_password", demo_site.password)
        with director.expect_navigation():
            director.click("main button[type=submit]")
        director.goto(table_url)
        rows = director.locator("#wrong-pins tbody tr")
        assert rows.count() == 1
        assert "127.0.0.1" in rows.first.inner_text() and "5" in rows.first.inner_text()
        director.locator("#unlock").screenshot(path=str(SCREENSHOTS / "wrong-pins-director.png"))
        with director.expect_navigation():
            director.click("#unlock button[type=submit]")
        assert director.locator("#wrong-pins").count() == 0
        guesser.goto(table_url)
        assert guesser.locator("#table-locked").count() == 0  # cleared: the stranger's PINs are checked again
    finally:
        for context in (own, stranger, desk):
            context.close()
