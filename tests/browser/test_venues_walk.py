"""An event in several clubs, walked in Debian's Chromium (docs/director-guide.md, "An event in
several clubs"), for duplicate MCR and riichi duplicate:

1. the central director sees Osaka (online) played and Paris (offline) owing every result, nothing
   released, and downloads Paris's venue package;
2. on Paris's laptop the club director imports the package from the home page, a phone at a Paris
   table enters a hand and another player confirms it, the laptop releases nothing (its standings
   count 0 sets and lead to the club's provisional standings, which count all 4), and the club
   director downloads the results bundle;
3. the central director merges the bundle: every set is released;
4. a player reads the field standings in Japanese.

The laptop is another machine: the walk keeps the central event as its export with the seed and
deletes it while the laptop's copy (same uid) is in the database, then restores it. Screenshots go
to $VENUE_SHOTS (default /tmp/venue-shots/).
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
from pathlib import Path

import pytest
from factories import confirm_with_pin, console_error, enter_outcome, login_as_table_in_browser, save_entry, say_who_is_entering
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE, in_own_connection, once_unlocked
from tests.browser.test_i18n import switch_language

pytestmark = [pytest.mark.browser, pytest.mark.django_db]

SHOTS = Path(os.environ.get("VENUE_SHOTS", "/tmp/venue-shots"))
PASSWORD = "walk-the-clubs-7"


def _central(ruleset_code: str) -> dict:
    """The central event (Osaka online and played, Paris offline), its director, a laptop
    director and an Osaka player's account. ORM, in a connection of its own."""
    from django.contrib.auth import get_user_model

    from factories import play_slots
    from tournament.models import Event, EventRole, Player, Table
    from tournament.services import create_event, import_roster, prepare_session
    from tournament.venues import add_venue
    from walls.rulesets import get_ruleset

    slug = f"clubs-walk-{ruleset_code}"
    ruleset = dataclasses.replace(get_ruleset(ruleset_code), rounds=1)
    event = create_event(name=f"Clubs walk {ruleset_code}", slug=slug, ruleset=ruleset, ruleset_code=ruleset_code,
                         sessions=1, comparison=Event.Comparison.FIELD, base_url="http://testserver/")
    add_venue(event, name="Osaka club", code="osaka", country="JPN", actor="td")
    add_venue(event, name="Paris club", code="paris", country="FRA", offline=True, actor="td")
    lines = ["team,player,venue"] + [f"{'Osaka' if t <= 4 else 'Paris'} {t},{'Osaka' if t <= 4 else 'Paris'} {t}-{m},"
                                     f"{'osaka' if t <= 4 else 'paris'}" for t in range(1, 9) for m in range(4)]
    import_roster(event, "\n".join(lines) + "\n")
    prepare_session(event, 1)
    play_slots(event, random.Random(3), tables=list(Table.objects.filter(
        group__session__event=event, group__venue__code="osaka").values_list("number", flat=True)))
    users = get_user_model().objects
    central = users.create_user(f"td-central-{ruleset_code}", password=PASSWORD, is_staff=True)
    EventRole.objects.create(event=event, user=central, role=EventRole.Role.DIRECTOR)
    laptop = users.create_user(f"td-paris-{ruleset_code}", password=PASSWORD, is_staff=True)
    player = users.create_user(f"osaka-player-{ruleset_code}", password=PASSWORD)
    Player.objects.filter(event=event, name="Osaka 1-0").update(user=player)
    return {"slug": slug, "central": central.username, "laptop": laptop.username, "player": player.username}


def _swap_to_laptop(slug: str) -> dict:
    """The central event kept as its export with the seed, then deleted (the laptop is another
    machine: its copy has the same uid)."""
    from tournament.exchange import export_event
    from tournament.models import Event

    event = Event.objects.get(slug=slug)
    kept = json.loads(json.dumps(export_event(event, include_secret=True), default=str))
    event.delete()
    return kept


def _laptop_table(slug: str) -> dict:
    """A Paris table of the laptop's copy: its code, the set it plays first and two PINs."""
    from factories import first_set, pin
    from tournament.models import Table

    table = Table.objects.filter(group__session__event__slug=slug).select_related("group__session__event").order_by("number").first()
    return {"code": table.login_code, "number": table.number, "set": first_set(table), "pin_s": pin(table, "S"),
            "pin_e": pin(table, "E")}


def _play_the_rest(slug: str) -> None:
    from factories import play_slots
    from tournament.models import Event

    play_slots(Event.objects.get(slug=slug), random.Random(5), skip_entered=True)


def _back_to_central(slug: str, kept: dict) -> None:
    from tournament.exchange import restore_event
    from tournament.models import Event

    Event.objects.filter(slug=slug).delete()
    restore_event(kept)


def _clean(names: dict) -> None:
    from django.contrib.auth import get_user_model

    from tournament.models import Event

    Event.objects.filter(slug=names["slug"]).delete()
    get_user_model().objects.filter(username__in=[names["central"], names["laptop"], names["player"]]).delete()


def _login(page, site, username: str) -> None:
    page.goto(site.page("/accounts/login/"))
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.click("main button[type=submit]")


@pytest.mark.parametrize("ruleset_code", ["mcr-duplicate", "riichi-duplicate"])
def test_a_club_plays_offline_and_the_central_director_merges_it_into_one_field(browser, demo_site, ruleset_code, tmp_path):
    SHOTS.mkdir(parents=True, exist_ok=True)
    names = in_own_connection(_central, ruleset_code)
    slug, suffix = names["slug"], "" if ruleset_code == "mcr-duplicate" else "-riichi"
    errors: list[str] = []

    def watched(context):
        page = context.new_page()
        page.on("console", lambda message: errors.append(message.text) if console_error(message) else None)
        page.on("pageerror", lambda error: errors.append(str(error)))
        return page

    try:
        # 1. the central director: Osaka played, Paris owes everything; the package
        central = watched(browser.new_context(viewport=DESKTOP, accept_downloads=True))
        _login(central, demo_site, names["central"])
        central.goto(demo_site.page(f"/e/{slug}/director/venues/"))
        expect(central.locator("#venue-paris .venue-progress tbody tr").first).to_contain_text("16")  # 4 tables × 4 sets owed
        expect(central.locator("#venue-osaka")).to_contain_text("Osaka club")
        central.screenshot(path=str(SHOTS / f"venues-1-central{suffix}.png"), full_page=True)
        central.goto(demo_site.page(f"/e/{slug}/standings/"))
        expect(central.locator("#standings-scope")).to_contain_text("0 of 4 sets counted")  # held back: Paris has not played
        central.goto(demo_site.page(f"/e/{slug}/director/venues/"))
        with central.expect_download() as download:
            central.click("#package-paris")
        package = tmp_path / "paris-package.json"
        download.value.save_as(package)
        assert json.loads(package.read_text())["package"]["venue"] == "paris"

        # 2. Paris's laptop: import, a phone enters and confirms, the bundle
        kept = once_unlocked(_swap_to_laptop, slug)
        laptop = watched(browser.new_context(viewport=DESKTOP, accept_downloads=True))
        _login(laptop, demo_site, names["laptop"])
        laptop.goto(demo_site.page("/"))
        with laptop.expect_navigation():
            laptop.click("#import-venue-package")
        laptop.set_input_files("#package", str(package))
        with laptop.expect_navigation():
            laptop.get_by_role("button", name="Import the package").click()
        expect(laptop.locator("#venue-copy")).to_contain_text("This laptop plays Paris club")
        laptop.screenshot(path=str(SHOTS / f"venues-2-laptop-imported{suffix}.png"), full_page=True)

        table = in_own_connection(_laptop_table, slug)
        phone = watched(browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True))
        login_as_table_in_browser(phone, demo_site.page("/entry/login/"), table["code"])
        if ruleset_code == "mcr-duplicate":
            enter_outcome(phone, set_no=table["set"], kind="discard", winners=("S",), discarder="W", values={"S": 12})
        else:
            enter_outcome(phone, set_no=table["set"], kind="discard", winners=("S",), discarder="W", values={"S": 3},
                          fu={"S": 30})
        say_who_is_entering(phone, "S", table["pin_s"])
        save_entry(phone)
        confirm_with_pin(phone, table["pin_e"])
        expect(phone.locator(f"#played-{table['set']}")).to_contain_text("Confirmed")
        phone.screenshot(path=str(SHOTS / f"venues-3-phone{suffix}.png"), full_page=True)
        in_own_connection(_play_the_rest, slug)  # the other hands of the session, as the room plays them

        laptop.goto(demo_site.page(f"/e/{slug}/standings/"))
        expect(laptop.locator("#provisional")).to_contain_text("Paris club")
        expect(laptop.locator("#standings-scope")).to_contain_text("0 of 4 sets counted")  # the central site releases
        with laptop.expect_navigation():
            laptop.click("#venue-standings-link")
        rows = laptop.locator("#venue-standings tbody tr")
        expect(rows).to_have_count(4)
        assert all(rows.nth(i).locator("td").nth(4).inner_text().strip() == "4" for i in range(4))  # the club's 4 sets
        laptop.screenshot(path=str(SHOTS / f"venues-4-laptop-standings{suffix}.png"), full_page=True)
        laptop.goto(demo_site.page(f"/e/{slug}/director/venues/"))
        with laptop.expect_download() as download:
            laptop.click("#results-bundle")
        bundle = tmp_path / "paris-results.json"
        download.value.save_as(bundle)
        assert len(json.loads(bundle.read_text())["results"]) == 16

        # 3. the central director merges: every set released
        once_unlocked(_back_to_central, slug, kept)
        central.goto(demo_site.page(f"/e/{slug}/director/venues/"))
        central.set_input_files("#bundle-paris", str(bundle))
        with central.expect_navigation():
            central.locator("#venue-paris").get_by_role("button", name="Merge the results bundle").click()
        expect(central.locator(".messages")).to_contain_text("16 new results")
        expect(central.locator(".messages")).to_contain_text("4 released")
        expect(central.locator("#uploads")).to_contain_text("Merged")
        central.screenshot(path=str(SHOTS / f"venues-5-central-merged{suffix}.png"), full_page=True)

        # 4. a player reads the field standings in Japanese
        player = watched(browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True))
        _login(player, demo_site, names["player"])
        player.goto(demo_site.page(f"/e/{slug}/standings/"))
        switch_language(player, "ja")  # on a phone, from the header's Menu
        assert player.get_attribute("html", "lang") == "ja"
        expect(player.locator("h1")).to_contain_text("順位")
        rows = player.locator("#standings tbody tr")
        expect(rows).to_have_count(8)
        text = player.locator("#standings").inner_text()
        assert "Osaka 1" in text and "Paris 5" in text  # one field: both clubs ranked together
        player.screenshot(path=str(SHOTS / f"venues-6-player-ja{suffix}.png"), full_page=True)
        assert errors == []
    finally:
        once_unlocked(_clean, names)  # the live server may still answer a page's last poll
