"""docs/security.md, "Threats and the tests that cover them" in Debian's Chromium, as the people meet it (threats 3 and 8).

A staff user creates an event from a roster saved by a Western European Windows spreadsheet
(Windows-1252: "Ærøskøbing"): the form names the guessed encoding and previews the names before
anything is stored; choosing Windows-1252 shows them right and the event is created with them.
The director then invites an existing account, typed in another case (``Rin.Ota`` for
``rin.ota``): the page says the account exists and lists it as "invited, waiting", with no role;
the account's owner logs in on a phone, follows the menu's "Invitations" link and accepts; the
director's People page then lists the role. Screenshots go to /work/notes/shots-invite/ (or
$INVITE_SHOTS).

The browser steps hold no ORM call: the users and the clean-up run in a thread of their own
(:func:`in_own_connection`), on a connection outside the test's transaction, as the live
server's.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

import pytest
from factories import console_error
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, in_own_connection, once_unlocked

pytestmark = [pytest.mark.browser, pytest.mark.django_db]

SHOTS = Path(os.environ.get("INVITE_SHOTS", "/work/notes/shots-invite"))
SLUG = "danish-open"
DIRECTOR, OWNER = "td-invite", "rin.ota"
PASSWORD = secrets.token_urlsafe(12)
TEAMS = ("Ærøskøbing", "Næstved", "Åbenrå", "Køge")
FIRST = ("Søren", "Bjørn", "Åse", "Mette")
ROSTER = ("team,player\r\n" + "".join(f"{t},{f} {t[:3]}\r\n" for t in TEAMS for f in FIRST)).encode("cp1252")


def make_users() -> None:
    from django.contrib.auth import get_user_model

    from tournament.models import Event

    Event.objects.filter(slug=SLUG).delete()
    users = get_user_model().objects
    users.filter(username__in=[DIRECTOR, OWNER]).delete()
    users.create_user(DIRECTOR, password=PASSWORD, is_staff=True)
    users.create_user(OWNER, password=PASSWORD)


def clean_up() -> None:
    from django.contrib.auth import get_user_model

    from tournament.models import Event

    Event.objects.filter(slug=SLUG).delete()
    get_user_model().objects.filter(username__in=[DIRECTOR, OWNER]).delete()


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def click_and_wait(page, locator) -> None:
    with page.expect_navigation():
        locator.click()


def log_in(page, base: str, username: str) -> None:
    page.goto(base + "/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    click_and_wait(page, page.locator("main button[type=submit]"))
    assert page.locator("header form[action$='/logout/']").count() == 1, f"{username} could not log in"


def test_a_guessed_roster_is_previewed_and_an_existing_account_accepts_its_invitation(browser, demo_site, new_page):
    in_own_connection(make_users)
    errors: list[str] = []
    try:
        base = demo_site.url
        director = new_page()
        director.on("console", lambda m: errors.append(f"console: {m.text}") if console_error(m) else None)
        director.on("pageerror", lambda e: errors.append(f"page error: {e}"))
        log_in(director, base, DIRECTOR)

        # The Windows-1252 roster is previewed before anything is stored.
        director.goto(base + "/events/new/")
        director.fill("#id_name", "Danish Open")
        director.fill("#id_slug", SLUG)
        director.select_option("#id_ruleset", "mcr-duplicate")
        director.select_option("#id_method", "team")
        director.fill("#id_sessions", "2")
        director.get_by_label("Roster file (CSV: team,player)").set_input_files(
            files=[{"name": "deltagere.csv", "mimeType": "text/csv", "buffer": ROSTER}])
        click_and_wait(director, director.get_by_role("button", name="Create the event"))
        preview = director.locator("#roster-preview")
        expect(preview).to_be_visible()
        assert director.url.endswith("/events/new/"), director.url  # nothing created yet
        guessed = director.locator("#id_roster_encoding option:checked").inner_text()
        assert "guessed" in guessed, guessed
        shot(director, "01-roster-guessed")
        if "Windows-1252" not in guessed:  # the guess reads the names wrong: the preview shows it
            expect(director.locator("#roster-preview-names")).not_to_contain_text("Ærøskøbing")
        director.select_option("#id_roster_encoding", "cp1252")
        click_and_wait(director, director.get_by_role("button", name="Show the names in this encoding"))
        names = director.locator("#roster-preview-names")
        expect(names).to_contain_text("Ærøskøbing")
        expect(names).to_contain_text("Søren Ærø")
        director.locator("#roster-preview").scroll_into_view_if_needed()
        shot(director, "02-roster-windows-1252")
        click_and_wait(director, director.get_by_role("button", name="Create the event"))
        assert director.url == f"{base}/e/{SLUG}/director/", director.url
        director.goto(f"{base}/e/{SLUG}/director/entrants/")
        expect(director.locator("#entrants")).to_contain_text("Ærøskøbing")
        expect(director.locator("#entrants")).to_contain_text("Bjørn Køg")
        shot(director, "03-entrants-stored-right")

        # An existing account, typed in another case, waits for its owner.
        people = f"{base}/e/{SLUG}/director/people/"
        director.goto(people)
        director.fill("#id_username", "Rin.Ota")
        director.select_option("#id_role", "staff")
        click_and_wait(director, director.locator("#invite").get_by_role("button", name="Invite"))
        expect(director.locator(".messages")).to_contain_text("already exists")
        waiting = director.locator("#invited-waiting")
        expect(waiting).to_contain_text(OWNER)
        expect(waiting).to_contain_text("invited, waiting")
        expect(director.locator("#roles")).not_to_contain_text(OWNER)
        assert director.locator("#invite-link").count() == 0
        shot(director, "04-people-invited-waiting")

        owner = new_page(viewport=PHONE)
        owner.on("pageerror", lambda e: errors.append(f"owner page error: {e}"))
        log_in(owner, base, OWNER)
        owner.goto(base + "/")
        expect(owner.locator("#invitations-waiting")).to_be_visible()
        shot(owner, "05-owner-home")
        click_and_wait(owner, owner.locator("#invitations-waiting").get_by_role("link", name="Invitations"))
        card = owner.locator(".invitation")
        expect(card).to_contain_text("Danish Open")
        expect(card).to_contain_text("Staff")
        shot(owner, "06-owner-invitations")
        click_and_wait(owner, card.get_by_role("button", name="Accept"))
        expect(owner.locator(".messages")).to_contain_text("You now hold the role Staff in Danish Open")
        expect(owner.locator(".invitation")).to_have_count(0)
        shot(owner, "07-owner-accepted")

        director.goto(people)
        expect(director.locator("#roles")).to_contain_text(OWNER)
        assert director.locator("#invited-waiting").count() == 0
        shot(director, "08-people-role-held")
        assert not errors, errors
    finally:
        once_unlocked(clean_up)
