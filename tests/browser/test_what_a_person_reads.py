"""What a person reads (issue 48): every table-page state (entry, refused, waiting for
confirmation, confirmed, offline queued, locked), for a riichi and an MCR event, read as the player
sees it (``innerText``) in English, Japanese and Chinese on a 390 × 844 phone: no markup, no
attribute text, no internal ids or repository paths, no English words on a Japanese or Chinese
page outside a short allow-list (the players' and teams' names, units and abbreviations a player
uses: PIN, QR, MCR...), and nothing wider than the phone. The public pages and the director's main
pages are held to the width too, the public ones to the words as well."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from factories import demo_roster, enter_outcome, login_as_table_in_browser, prepared_event, say_who_is_entering

from .conftest import PHONE, SCREENSHOTS, in_own_connection, once_unlocked, phone_offline

pytestmark = [pytest.mark.browser, pytest.mark.django_db]

LANGUAGES = ("en", "ja", "zh-hans")
ALLOWED = {
    # what a player reads in any language: abbreviations, units, the tile notation's letters
    "PIN", "QR", "MCR", "WBF", "OK", "IMP", "IMPs", "MP", "CSV", "XLSX", "PDF", "JSON", "Wi-Fi", "ID",
    "MIL",  # Mahjong International League, in a rule set's name
}
MARKUP = re.compile(r'<[a-zA-Z/!]|">|&[a-z]+;|&#\d+;|\{\{|\{%|%\(|\{[a-z]+\}')
INTERNAL = re.compile(r"docs/|\.md\b|\.py\b|riichi-duplicate|mcr-duplicate|\b[a-z]+_[a-z_]+\b|SHA-256|None\b|True\b|False\b")
WORD = re.compile(r"[A-Za-z][A-Za-z'\-]*[A-Za-z]")


@dataclass(frozen=True)
class Cup:
    slug: str
    table_id: int
    code: str
    sets: tuple[int, ...]
    pins: dict
    names: frozenset


def _cup(code: str) -> Cup:
    from factories import blocks
    from tournament.models import Table

    event = prepared_event(demo_roster(4), name=f"Reading Cup {code[0].upper()}", slug=f"reading-{code}", ruleset_code=code, sessions=1,
                           base_url="http://192.168.7.20:8000/")
    table = Table.objects.filter(group__session__event=event).order_by("number").first()
    names = {event.name, *event.teams.values_list("name", flat=True), *event.players.values_list("name", flat=True)}
    return Cup(slug=event.slug, table_id=table.pk, code=table.login_code, sets=tuple(s for _b, sets in blocks(table) for s in sets),
               pins={s.seat: s.player.pin for s in table.seats.select_related("player")},
               names=frozenset(word for name in names for word in WORD.findall(name)))


@pytest.fixture(scope="module")
def cups(demo_site, browser, django_db_blocker):
    from tournament.models import Event

    with django_db_blocker.unblock():
        made = {code: _cup(code) for code in ("riichi-duplicate", "mcr-duplicate")}
    yield made
    with django_db_blocker.unblock():
        Event.objects.filter(slug__startswith="reading-").delete()


HEX = re.compile(r"\b[0-9a-f]{16,}\b")  # a commitment or seed: a code to compare, not words


def problems(text: str, language: str, names=frozenset(), full_names=()) -> list[str]:
    """What a person should not read in ``text`` (a page's innerText) in ``language``."""
    text = HEX.sub(" ", text)
    for name in sorted(full_names, key=len, reverse=True):  # names people typed (an event "Wall Cup riichi-duplicate")
        text = text.replace(name, " ")
    found = [f"markup {m.group(0)!r}" for m in MARKUP.finditer(text)]
    found += [f"internal {m.group(0)!r}" for m in INTERNAL.finditer(text)]
    if language != "en":
        found += [f"English {m.group(0)!r} in {text[max(0, m.start() - 30):m.end() + 30]!r}" for m in WORD.finditer(text)
                  if m.group(0) not in ALLOWED and m.group(0) not in names]
    return found


def read(page, language: str, names=frozenset(), where: str = "") -> str:
    """The page as a person reads it, checked: words and width."""
    text = page.evaluate("document.body.innerText")
    found = problems(text, language, names, _event_names())
    assert not found, f"{where} ({language}): {sorted(set(found))[:20]}"
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{where} ({language}): {width} px wide on a {PHONE['width']} px phone"
    return text


def _event_names() -> tuple[str, ...]:
    """Every event's name, as the directors typed them (the home page lists them all)."""
    from tournament.models import Event

    return tuple(in_own_connection(lambda: list(Event.objects.values_list("name", flat=True))))


def _phone(browser, demo_site, language):
    context = browser.new_context(viewport=PHONE)
    context.add_cookies([{"name": "django_language", "value": language, "url": demo_site.url}])
    return context


def _lock(table_id: int, on: bool) -> None:
    from django.conf import settings

    from scoring.models import ConfirmationAttempt

    def write():
        if on:  # every device that typed a PIN here (the phone) makes its limit of wrong ones: it waits
            devices = set(ConfirmationAttempt.objects.filter(table_id=table_id).values_list("device", flat=True))
            ConfirmationAttempt.objects.bulk_create(
                ConfirmationAttempt(table_id=table_id, result=None, seat="", ok=False, actor="t", device=device)
                for device in devices for _ in range(settings.CONFIRM_PIN_LIMIT_PER_DEVICE))
        else:
            ConfirmationAttempt.objects.filter(table_id=table_id).update(cleared=True)
    once_unlocked(write)  # the live server may hold SQLite's table lock for a moment


def _clear(table_id: int) -> None:
    from scoring.models import HandResult

    once_unlocked(lambda: HandResult.objects.filter(table_id=table_id).delete())


@pytest.mark.parametrize("code", ["riichi-duplicate", "mcr-duplicate"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_table_page_state_reads_as_words_on_the_phone(browser, demo_site, cups, code, language):
    cup = cups[code]
    _clear(cup.table_id)
    _lock(cup.table_id, False)
    riichi = code.startswith("riichi")
    value = {"E": 3} if riichi else {"E": 10}
    fu = {"E": 40} if riichi else None
    context = _phone(browser, demo_site, language)
    where = f"{code} table page"
    try:
        page = context.new_page()
        table_url = demo_site.page(f"/e/{cup.slug}/table/{cup.table_id}/")
        login_as_table_in_browser(page, demo_site.page(f"/e/{cup.slug}/entry/login/{cup.code}"))
        page.wait_for_selector("#queue[data-ready='1']", state="attached", timeout=20_000)
        read(page, language, cup.names, f"{where}, entry")

        first, second = cup.sets[0], cup.sets[1]
        enter_outcome(page, set_no=first, kind="discard", winners=("E",), discarder="W", values=value, fu=fu)
        say_who_is_entering(page, "E", "0000" if cup.pins["E"] != "0000" else "1111")
        with page.expect_navigation():
            page.click("#save")
        assert page.locator(".errorlist").count()
        read(page, language, cup.names, f"{where}, refused")

        enter_outcome(page, set_no=first, kind="discard", winners=("E",), discarder="W", values=value, fu=fu)
        say_who_is_entering(page, "E", cup.pins["E"])
        with page.expect_navigation():
            page.click("#save")
        assert page.locator("form.confirm").count() == 1
        read(page, language, cup.names, f"{where}, waiting for confirmation")
        if language != "en" and riichi:
            page.screenshot(path=str(SCREENSHOTS / f"table-waiting-phone-{language}.png"))

        card = page.locator("form.confirm").first
        card.locator("input[name=pin]").fill(cup.pins["S"])
        with page.expect_navigation():
            card.locator("button[type=submit]").first.click()
        assert page.locator("form.confirm").count() == 0
        read(page, language, cup.names, f"{where}, confirmed")

        context.set_offline(True)
        phone_offline(page)
        enter_outcome(page, set_no=second, kind="draw")
        say_who_is_entering(page, "E", cup.pins["E"])
        page.click("#save")
        page.locator("#queue-items li").first.wait_for()
        read(page, language, cup.names, f"{where}, offline queued")
        with page.expect_navigation(url=table_url, timeout=30_000):
            context.set_offline(False)

        _lock(cup.table_id, True)
        page.goto(table_url)
        read(page, language, cup.names, f"{where}, locked")
    finally:
        _lock(cup.table_id, False)
        context.close()


PUBLIC = ("/", "/e/{slug}/", "/e/{slug}/standings/", "/e/{slug}/standings/players/", "/e/{slug}/teams/",
          "/e/{slug}/teams/1/", "/e/{slug}/travellers/", "/e/{slug}/travellers/1/1/", "/e/{slug}/find/")
SHOWN = {"/e/{slug}/standings/players/": "players-phone-ja.png", "/e/{slug}/teams/1/": "team-phone-ja.png",
         "/e/{slug}/travellers/1/1/": "traveller-phone-ja.png"}
DIRECTOR = ("/e/{slug}/director/", "/e/{slug}/director/live/", "/e/{slug}/seating/1/", "/e/{slug}/director/rooms/",
            "/e/{slug}/director/check-in/2/", "/e/{slug}/director/calls/", "/e/{slug}/director/settings/",
            "/e/{slug}/director/entrants/")


def _demo_names(slug: str) -> frozenset:
    from tournament.models import Event

    def names():
        event = Event.objects.get(slug=slug)
        found = {*Event.objects.values_list("name", flat=True), *event.teams.values_list("name", flat=True),
                 *event.players.values_list("name", flat=True)}
        return frozenset(word for name in found for word in WORD.findall(name))
    return in_own_connection(names)


@pytest.mark.parametrize("language", LANGUAGES)
def test_public_pages_read_as_words_and_fit_the_phone(browser, demo_site, language):
    names = _demo_names(demo_site.slug)
    context = _phone(browser, demo_site, language)
    try:
        page = context.new_page()
        for path in PUBLIC:
            page.goto(demo_site.page(path.format(slug=demo_site.slug)))
            read(page, language, names, path)
            if path == "/e/{slug}/teams/1/":  # a team's points per set are on screen, not behind a scroll
                box = page.locator("#sets thead th").nth(1).bounding_box()
                assert box["x"] + box["width"] <= PHONE["width"], box
            if language == "ja" and path in SHOWN:
                page.screenshot(path=str(SCREENSHOTS / SHOWN[path]), full_page=False)
    finally:
        context.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_director_s_main_pages_fit_the_phone(browser, demo_site, language):
    from .test_director_day import click_and_wait

    context = _phone(browser, demo_site, language)
    try:
        page = context.new_page()
        page.goto(demo_site.page("/accounts/login/"))
        page.fill("#id_username", demo_site.director)
        page.fill("#id_password", demo_site.password)
        click_and_wait(page, page.locator("main button[type=submit]"))
        for path in DIRECTOR:
            page.goto(demo_site.page(path.format(slug=demo_site.slug)))
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE["width"], f"{path} ({language}): {width} px wide on a {PHONE['width']} px phone"
    finally:
        context.close()
