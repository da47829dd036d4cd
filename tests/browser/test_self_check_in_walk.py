"""Self check-in on a phone (docs/player-guide.md, "Checking in with your card"; docs/director-guide.md,
"Self check-in"): the QR code of a printed player card, decoded from the PDF with zxing-cpp, opens
the player's own check-in page at 390×844; "Check me in" checks them in, and the director's
check-in page, open in another browser context, ticks them and marks "checked in themselves"
without a reload. Screenshots docs/screenshots/self-check-in-*.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from pdfcheck import decode_qr, render_pages
from tests.browser.conftest import PHONE, SCREENSHOTS, in_own_connection, once_unlocked

pytestmark = [pytest.mark.browser, pytest.mark.django_db]

SLUG = "self-check-in-walk"
VENUE = "http://192.168.7.20:8000"  # the venue address printed into the cards; the test opens its path here


def make_event(director: str) -> dict:
    """A team event of 4 teams, not prepared, with ``director`` holding the director role; the
    player cards rendered and the first card's QR code read back."""
    from django.contrib.auth import get_user_model

    from factories import team_roster
    from tournament.models import Event, EventRole
    from tournament.services import create_event, import_roster
    from walls.print_kinds.people import player_cards
    from walls.printing import render_player_cards

    Event.objects.filter(slug=SLUG).delete()
    event = create_event(name="Self Check-in Cup", slug=SLUG, base_url=VENUE, sessions=2)
    import_roster(event, team_roster(4))
    EventRole.objects.create(event=event, user=get_user_model().objects.get(username=director), role="director")
    cards = player_cards(event)
    pdf = render_player_cards(cards[:1])
    page = render_pages(pdf, scale=200 / 72)[0].image
    width, height = page.size
    page.crop((0, 0, width // 2, height // 4)).save(SCREENSHOTS / "self-check-in-card.png")
    player = event.players.get(name=cards[0].player)
    return {"urls": decode_qr(page), "player": player.name, "player_id": player.pk, "team_id": player.team_id}


def clean_up() -> None:
    from tournament.models import Event

    Event.objects.filter(slug=SLUG).delete()


def check_ins() -> list[tuple]:
    from tournament.models import CheckIn

    return sorted(CheckIn.objects.filter(event__slug=SLUG).values_list("team_id", "player_id", "by"), key=str)


def test_a_player_checks_in_from_their_card_and_the_directors_page_follows(demo_site, new_page, director_page):
    made = in_own_connection(make_event, demo_site.director)
    try:
        assert len(made["urls"]) == 1, made["urls"]
        printed = made["urls"][0]
        assert printed.startswith(f"{VENUE}/e/{SLUG}/card/")
        url = demo_site.url + printed[len(VENUE):]  # the phone on the venue's network opens the same path

        director_page.goto(demo_site.page(f"/e/{SLUG}/director/check-in/1/"))
        team_box = director_page.locator(f'input[name="present"][value="{made["team_id"]}"]')
        expect(team_box).not_to_be_checked()

        phone = new_page(viewport=PHONE)
        phone.goto(url)
        expect(phone.locator("#card-check-in")).to_contain_text(made["player"])
        expect(phone.get_by_role("button", name="Check me in")).to_be_visible()
        assert in_own_connection(check_ins) == [], "opening the link checked the player in"
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        phone.screenshot(path=str(SCREENSHOTS / "self-check-in-phone.png"), full_page=True)

        with phone.expect_navigation():
            phone.get_by_role("button", name="Check me in").click()
        expect(phone.locator("#checked-in")).to_contain_text("You are checked in for session 1.")
        text = phone.locator("main").inner_text()
        assert "Set " not in text and "set " not in text  # nothing about any set
        phone.screenshot(path=str(SCREENSHOTS / "self-check-in-phone-done.png"), full_page=True)
        rows = in_own_connection(check_ins)
        assert (made["team_id"], None, "(self)") in rows and (None, made["player_id"], "(self)") in rows

        # the director's page, not reloaded, ticks the team and the player and says who did it
        expect(team_box).to_be_checked(timeout=10_000)
        expect(director_page.locator(f'[data-player="{made["player_id"]}"]')).to_be_visible()
        expect(director_page.locator(f'[data-entrant="{made["team_id"]}"]')).to_have_text("(checked in themselves)")
        expect(director_page.locator(f'input[name="present_player"][value="{made["player_id"]}"]')).to_be_checked()
        director_page.locator("#check-in-form").screenshot(path=str(SCREENSHOTS / "self-check-in-director.png"))

        # again: nothing changes, the page says so
        phone.reload()
        expect(phone.locator("#checked-in")).to_be_visible()
        expect(phone.get_by_role("button", name="Check me in")).to_have_count(0)
        assert len(in_own_connection(check_ins)) == 2
    finally:
        once_unlocked(clean_up)
