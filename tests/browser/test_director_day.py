"""docs/director-guide.md in Debian's Chromium: the director runs the whole day through the pages, never /admin/.

A staff user with no superuser rights, made for the test and holding no role anywhere, logs in
through the login page and, only by clicking through the product's pages:

1. creates a 32-team event (team method, MCR duplicate, entrant policy "Add substitutes") from
   a roster saved by Japanese Excel: Shift-JIS bytes, Japanese team and player names, the header
   ``team,player``, 4 players per team (one name holds "ソ" and "表", whose second Shift-JIS byte
   is the ASCII backslash);
2. sets the event's public address on the settings page; makes 4 rooms of 8 tables;
3. checks in every team but one for session 1 and prepares session 1: the page says the groups
   are seated, the absent team sits nowhere, the entrant policy added exactly one substitute team,
   and the per-room seating list shows 4 rooms of 8 tables each;
4. publishes the event (the new-event form makes a draft, which table phones cannot open);
   prints everything for session 1 as one ZIP, rendered off the request as in the embedded
   default (``PRINT_IN_THREAD``), downloads it with the page's own session and opens it: PDFs
   named for people ("Wall stickers, session 1.pdf"), each a PDF pypdfium2 opens;
5. substitutes a seated player (new name, reason): the substitution is listed, and the table's
   phone, logged in with the code the director page shows, names the new player, not the old;
6. applies a −10 MP penalty with a reason: that team's points in the standings move by −10 and
   the reason shows; Undo puts the points back;
7. runs the clock of session 1 (30 minutes, Start: two readings differ; Pause: it stands still;
   +5 min: five more minutes), shows an announcement and opens the projector page as director
   and as a visitor (clock, announcement, standings: empty, as no set is finished everywhere);
8. finishes and archives the event on the settings page: the home page then lists it under
   "Archived events" only.

Every request the browser makes is recorded: none goes to /admin/. Any console or page error
fails the test. A second test checks what a draft and the projector show the public: a draft
answers 404 to a visitor, and the projector's standings count released sets only, whoever looks.
Screenshots of each step go to /tmp/i18-shots/.

The browser steps hold no ORM call: the few Django reads and writes (the user, the clean-up) run
in a thread of their own, on a connection outside the test's transaction, as the live server's.
"""

from __future__ import annotations

import io
import random
import re
import secrets
import zipfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pypdfium2
import pytest
from factories import (
    console_error,
    login_as_table_in_browser,
    play_slots,
    prepared_event,
    standings_notes,
    standings_rows,
    team_roster,
)
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, in_own_connection, once_unlocked

pytestmark = [pytest.mark.browser, pytest.mark.django_db]

SHOTS = Path("/tmp/i18-shots")
SLUG = "directors-day"
NAME = "東西交流戦 2026"
PASSWORD = secrets.token_urlsafe(12)
DIRECTOR = "td-day"

# 32 teams named for prefectures, 4 players each: the surname cycles so that every name differs.
PREFECTURES = (
    "北海道", "青森", "岩手", "宮城", "秋田", "山形", "福島", "茨城", "栃木", "群馬", "埼玉", "千葉", "表参道", "神奈川",
    "新潟", "富山", "石川", "福井", "山梨", "長野", "岐阜", "静岡", "愛知", "三重", "滋賀", "京都", "大阪", "兵庫",
    "奈良", "和歌山", "鳥取", "島根",
)
SURNAMES = (
    "佐藤", "鈴木", "高橋", "田中", "伊藤", "渡辺", "山本", "中村", "小林", "加藤", "吉田", "山田", "佐々木", "山口",
    "松本", "井上", "木村", "林", "斎藤", "清水", "山崎", "森", "池田", "橋本", "阿部", "石川", "山下", "中島", "石井",
    "小川", "前田", "岡田",
)
GIVEN = ("太郎", "花子", "健一", "ソウタ")
TEAMS = tuple(f"{p}麻雀会" for p in PREFECTURES)
ROSTER = {team: tuple(f"{SURNAMES[(i + 7 * m) % 32]}{GIVEN[m]}" for m in range(4)) for i, team in enumerate(TEAMS)}
ABSENT = TEAMS[-1]  # 島根麻雀会 does not turn up
SUBSTITUTE_NAME = "新井晴人"
SUBSTITUTION_REASON = "体調不良のため交代 (fell ill after the first round)"
PENALTY_REASON = "Late back from the break (5 minutes)"
ANNOUNCEMENT = "Prize-giving at 18:00 in room 1"
ROOMS, CAPACITY = 4, 8  # the venue: 4 rooms of 8 tables for the 32 tables


def shift_jis_roster() -> bytes:
    """The roster as Japanese Excel saves a CSV: Shift-JIS, CRLF line ends, header team,player."""
    lines = ["team,player"] + [f"{team},{player}" for team in TEAMS for player in ROSTER[team]]
    return ("\r\n".join(lines) + "\r\n").encode("shift_jis")


# --- Django work in a thread of its own ----------------------------------------------------------------------------


def make_director() -> None:
    """A staff user (may create events) with no superuser rights and no role yet."""
    from django.contrib.auth import get_user_model

    get_user_model().objects.filter(username=DIRECTOR).delete()
    user = get_user_model().objects.create_user(DIRECTOR, password=PASSWORD, is_staff=True)
    assert not user.is_superuser


def remove(slug: str, username: str | None = None) -> None:
    from django.contrib.auth import get_user_model

    from tournament.models import Event

    Event.objects.filter(slug=slug).delete()
    if username:
        get_user_model().objects.filter(username=username).delete()


# --- helpers ---------------------------------------------------------------------------------------------------------


@dataclass
class Watch:
    """Every request URL and every console or page error of the pages watched."""

    requests: list
    errors: list

    def on(self, page, who: str):
        page.on("request", lambda request: self.requests.append(request.url))
        page.on("console", lambda m: self.errors.append(f"{who} console: {m.text}") if console_error(m) else None)
        page.on("pageerror", lambda error: self.errors.append(f"{who} page error: {error}"))
        return page

    def admin_requests(self) -> list[str]:
        return [url for url in self.requests if urlsplit(url).path.startswith("/admin/")]


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def click_and_wait(page, locator) -> None:
    with page.expect_navigation():
        locator.click()


def menu(page, label: str) -> None:
    """Follow ``label`` in the director menu (at the top of every director page)."""
    click_and_wait(page, page.locator("main").get_by_role("link", name=label, exact=True).first)


def no_error(page, step: str = "") -> None:
    """The page answered without an error message (messages box or form errors)."""
    errors = page.locator(".messages li.error, .errorlist")
    shown = [t for t in errors.all_inner_texts() if t.strip()]
    if shown:
        shot(page, "failed")
    assert not shown, f"{step or page.url}: {shown}"


def clock_seconds(text: str) -> int:
    """M:SS or H:MM:SS as seconds."""
    parts = [int(p) for p in text.strip().lstrip("−-").split(":")]
    seconds = 0
    for part in parts:
        seconds = seconds * 60 + part
    return seconds


def points_of(page, team: str) -> int:
    rows = {row[1]: row for row in standings_rows(page)}
    assert team in rows, f"{team} is not in the standings: {list(rows)}"
    return int(rows[team][2].replace("−", "-"))


# --- the steps -------------------------------------------------------------------------------------------------------


def log_in(page, base: str) -> None:
    page.goto(base + "/accounts/login/")
    page.fill("#id_username", DIRECTOR)
    page.fill("#id_password", PASSWORD)
    click_and_wait(page, page.locator("main button[type=submit]"))
    assert page.locator("header form[action$='/logout/']").count() == 1, "the director could not log in"


def create_event(page, base: str) -> None:
    page.goto(base + "/")
    click_and_wait(page, page.get_by_role("link", name="New event"))
    page.fill("#id_name", NAME)
    page.fill("#id_slug", SLUG)
    page.select_option("#id_ruleset", "mcr-duplicate")
    page.select_option("#id_method", "team")
    page.fill("#id_sessions", "2")
    page.select_option("#id_entrant_policy", label="Add substitutes to fill the groups (not ranked)")
    page.get_by_label("Roster file (CSV: team,player)").set_input_files(
        files=[{"name": "参加者名簿.csv", "mimeType": "text/csv", "buffer": shift_jis_roster()}])
    click_and_wait(page, page.get_by_role("button", name="Create the event"))
    errors = page.locator("#form-errors, .errorlist")
    assert page.url == f"{base}/e/{SLUG}/director/", (page.url, errors.all_inner_texts() if errors.count() else "")
    shot(page, "01-created")


VENUE = "http://192.168.7.20:8000/"  # the address the phones on the venue's Wi-Fi open (never contacted here)


def set_public_address(page, base: str) -> None:
    """The director first types the address the laptop's own browser shows (127.0.0.1): the page
    says that phones would reach themselves; then the venue's address, which is kept."""
    menu(page, "Settings")
    address = page.get_by_label("Public address")
    address.fill(base + "/")
    click_and_wait(page, page.get_by_role("button", name="Save settings"))
    no_error(page)
    expect(page.locator("#base-url-problem")).to_contain_text("127.0.0.1 is the address of the device that opens it")
    page.get_by_label("Public address").fill(VENUE)
    click_and_wait(page, page.get_by_role("button", name="Save settings"))
    no_error(page)
    page.reload()
    expect(page.get_by_label("Public address")).to_have_value(VENUE)
    expect(page.locator("#base-url-problem")).to_have_count(0)
    shot(page, "02-settings")


def make_rooms(page) -> None:
    menu(page, "Rooms")
    page.fill("#quick-rooms", str(ROOMS))
    page.fill("#quick-capacity", str(CAPACITY))
    click_and_wait(page, page.get_by_role("button", name="Create rooms"))
    no_error(page)
    capacities = page.locator("#rooms-table tbody tr:not(.new-room) input[name=capacity]")
    expect(capacities).to_have_count(ROOMS)
    assert [capacities.nth(i).input_value() for i in range(ROOMS)] == [str(CAPACITY)] * ROOMS
    shot(page, "03-rooms")


def check_in_all_but_one(page, base: str) -> None:
    menu(page, "Check-in")
    assert urlsplit(page.url).path == f"/e/{SLUG}/director/check-in/1/", page.url
    boxes = page.locator("input[type=checkbox][name=present]")
    expect(boxes).to_have_count(len(TEAMS))
    for team in TEAMS:
        box = page.get_by_label(team, exact=True)
        if team == ABSENT:
            box.uncheck()
        else:
            box.check()
    click_and_wait(page, page.get_by_role("button", name="Save check-in"))
    no_error(page)
    page.goto(f"{base}/e/{SLUG}/director/check-in/1/")
    expect(page.get_by_label(ABSENT, exact=True)).not_to_be_checked()
    expect(page.locator("input[type=checkbox][name=present]:checked")).to_have_count(len(TEAMS) - 1)
    shot(page, "04-check-in")


def prepare(page, base: str) -> None:
    page.goto(f"{base}/e/{SLUG}/director/")
    page.select_option("#prep-session", "1")
    click_and_wait(page, page.get_by_role("button", name="Prepare", exact=True))
    expect(page.locator(".messages")).to_contain_text("Session 1 is seated: 8 groups on 32 tables")
    shot(page, "05-prepared")

    page.goto(f"{base}/e/{SLUG}/standings/")
    notes = standings_notes(page)
    substitutes = [name for name, note in notes.items() if "substitute, not ranked" in note]
    assert len(substitutes) == 1, f"one substitute team fills the 8th group: {notes}"
    seating = page.goto(f"{base}/e/{SLUG}/seating/1/")
    assert seating.ok
    text = page.locator("main").inner_text()
    assert ABSENT not in text, "the team that did not check in is seated"
    for player in ROSTER[ABSENT]:
        assert player not in text, f"{player} did not check in but is seated"
    for team in TEAMS[:-1]:
        assert team in text, f"{team} checked in but is not seated"


def room_lists(page, base: str) -> None:
    """The per-room seating list: 4 rooms, each with 8 tables, sorted by table and seat."""
    response = page.goto(f"{base}/e/{SLUG}/seating/1/rooms/")
    assert response.ok
    rooms = page.locator("main section.room-list")
    expect(rooms).to_have_count(ROOMS)
    every_table = []
    for i in range(ROOMS):
        numbers = [int(n) for n in rooms.nth(i).locator("th[scope=rowgroup]").all_inner_texts()]
        assert len(numbers) == CAPACITY and numbers == sorted(numbers), f"room {i + 1} lists tables {numbers}"
        every_table += numbers
        seats = rooms.nth(i).locator("tbody tr")
        assert seats.count() == 4 * CAPACITY, f"room {i + 1}: {seats.count()} seats, not {CAPACITY} tables of 4"
    assert sorted(every_table) == list(range(1, 33)), every_table
    shot(page, "06-rooms-seating")


def publish_event(page, base: str) -> None:
    """The new-event form makes a draft, hidden from everyone without a role (players, table
    phones): the director publishes it before play, on the settings page."""
    page.goto(f"{base}/e/{SLUG}/director/settings/")
    click_and_wait(page, page.get_by_role("button", name="Publish", exact=True))
    no_error(page, "Publish")
    expect(page.get_by_role("button", name="Publish", exact=True)).to_have_count(0)


def print_zip(page, base: str) -> None:
    page.goto(f"{base}/e/{SLUG}/director/")
    with page.expect_navigation(timeout=600_000):
        page.get_by_role("button", name="Print the table documents (ZIP)").first.click()
    row = page.locator("#jobs tbody tr").filter(has_text="Table documents, session 1 (ZIP)").first
    link = row.get_by_role("link", name="Download")
    expect(link).to_be_visible(timeout=600_000)
    shot(page, "07-printed")
    response = page.request.get(link.evaluate("a => a.href"), timeout=120_000)
    assert response.ok, response.status
    archive = zipfile.ZipFile(io.BytesIO(response.body()))
    names = archive.namelist()
    assert any(Path(n).name.startswith("Wall stickers, session 1") for n in names), names
    pdfs = [n for n in names if n.endswith(".pdf")]
    assert pdfs and len(pdfs) == len([n for n in names if not n.endswith("/")]), names
    for name in pdfs:
        assert not re.search(r"[a-z]+_[a-z]+", Path(name).stem), f"{name}: an internal name, not one for people"
        data = archive.read(name)
        document = pypdfium2.PdfDocument(data)
        assert len(document) >= 1, name
        document.close()


def substitute_player(page, base: str, new_page, watch) -> tuple[str, int]:
    """Replace the first player offered; returns (the replaced player's name, the table number)."""
    page.goto(f"{base}/e/{SLUG}/director/")
    menu(page, "Substitutions")
    select = page.locator("select[name=player_out]")
    options = [o.strip() for o in select.locator("option").all_inner_texts() if re.fullmatch(r".+ — Table \d+, .+", o.strip())]
    assert options, "no seated player is offered"
    label = options[0]
    replaced, where = (part.strip() for part in label.split("—", 1))
    table = int(re.search(r"Table (\d+)", where).group(1))
    select.select_option(label=label)
    page.fill("input[name=name]", SUBSTITUTE_NAME)
    page.fill("input[name=reason]", SUBSTITUTION_REASON)
    click_and_wait(page, page.get_by_role("button", name="Substitute", exact=True))
    no_error(page)
    main = page.locator("main")
    expect(main).to_contain_text(SUBSTITUTE_NAME)
    expect(main).to_contain_text(SUBSTITUTION_REASON)
    expect(main).to_contain_text(replaced)
    shot(page, "08-substituted")

    # The table's phone (logged in with the code the director page shows) names who sits there now.
    page.goto(f"{base}/e/{SLUG}/director/")
    code = page.locator("table.grid tbody tr").filter(
        has=page.locator("td:first-child", has_text=re.compile(rf"^{table}$"))).locator("code.login-code").first.inner_text()
    phone = watch.on(new_page(viewport=PHONE), "table phone")
    login_as_table_in_browser(phone, f"{base}/e/{SLUG}/entry/login/{code.strip()}")
    players = phone.get_by_role("table", name="Players at this table")
    expect(players).to_contain_text(SUBSTITUTE_NAME)
    expect(players).not_to_contain_text(replaced)
    shot(phone, "08b-table-phone")
    return replaced, table


def penalty_and_undo(page, base: str, team: str) -> None:
    page.goto(f"{base}/e/{SLUG}/standings/")
    before = points_of(page, team)

    page.goto(f"{base}/e/{SLUG}/director/")
    menu(page, "Penalties")
    entrant = page.locator("select[name=entrant]")
    option = entrant.locator("option").filter(has_text=re.compile(rf"^\s*(\d+\.\s*)?{re.escape(team)}\s*$"))
    expect(option).to_have_count(1)
    entrant.select_option(option.get_attribute("value"))
    page.fill("input[name=amount]", "-10")
    page.locator("select[name=unit]").select_option("mp")
    page.locator("select[name=session]").select_option(label="Whole event")
    page.fill("input[name=reason]", PENALTY_REASON)
    click_and_wait(page, page.get_by_role("button", name="Apply"))
    no_error(page)
    row = page.locator("table#adjustments tbody tr").filter(has_text=PENALTY_REASON)
    expect(row).to_have_count(1)
    shot(page, "09-penalty")

    page.goto(f"{base}/e/{SLUG}/standings/")
    assert points_of(page, team) == before - 10, "the penalty is not in the team's points"
    expect(page.locator("main")).to_contain_text(PENALTY_REASON)
    shot(page, "10-standings-penalty")

    page.goto(f"{base}/e/{SLUG}/director/penalties/")
    row = page.locator("table#adjustments tbody tr").filter(has_text=PENALTY_REASON)
    click_and_wait(page, row.get_by_role("button", name="Undo"))
    expect(page.locator("table#adjustments tbody tr").filter(has_text=PENALTY_REASON)).to_contain_text("undone")
    page.goto(f"{base}/e/{SLUG}/standings/")
    assert points_of(page, team) == before, "Undo did not put the points back"


def run_clock(page, base: str) -> None:
    page.goto(f"{base}/e/{SLUG}/director/")
    clock = page.locator("#clock-1")

    def controls():  # session 1's clock controls: the nearest block holding its minutes and its buttons
        return page.locator("#clock-minutes-1").locator("xpath=ancestor::*[.//button[normalize-space()='Pause']][1]")

    page.fill("#clock-minutes-1", "30")
    click_and_wait(page, controls().get_by_role("button", name="Start", exact=True))
    expect(clock).to_have_text(re.compile(r"^\s*(\d+:)?\d{1,2}:\d\d\s*$"))
    first = clock_seconds(clock.inner_text())
    assert 28 * 60 <= first <= 30 * 60, clock.inner_text()
    page.wait_for_timeout(2500)
    second = clock_seconds(clock.inner_text())
    assert second < first, f"the clock does not count down: {first} s then {second} s"

    click_and_wait(page, controls().get_by_role("button", name="Pause", exact=True))
    paused = clock_seconds(clock.inner_text())
    assert paused <= second
    page.wait_for_timeout(2000)
    assert clock_seconds(clock.inner_text()) == paused, "a paused clock still runs"
    click_and_wait(page, controls().get_by_role("button", name="+5 min", exact=True))
    extended = clock_seconds(clock.inner_text())
    assert abs(extended - (paused + 300)) <= 1, f"+5 min: {paused} s became {extended} s"
    page.wait_for_timeout(1500)
    assert clock_seconds(clock.inner_text()) == extended, "+5 min started a paused clock"
    shot(page, "11-clock")


def projector(page, base: str, visitor) -> None:
    page.goto(f"{base}/e/{SLUG}/director/")
    page.fill("#announcement-text", ANNOUNCEMENT)
    click_and_wait(page, page.get_by_role("button", name="Show on projector"))
    href = page.locator("main").get_by_role("link", name="Projector", exact=True).first.get_attribute("href")
    assert urlsplit(href).path == f"/e/{SLUG}/projector/", href
    for who in (page, visitor):
        who.goto(f"{base}/e/{SLUG}/projector/")
        expect(who.locator("#projector-clock")).to_be_visible()
        expect(who.locator("#projector-standings")).to_be_visible()
        expect(who.locator("#projector-announcement")).to_contain_text(ANNOUNCEMENT)
        # no set is finished everywhere yet: the public standings the projector shows are empty
        expect(who.locator("#projector-standings")).to_contain_text("No set finished everywhere yet.")
    shot(visitor, "12-projector")


def lifecycle(page, base: str) -> None:
    page.goto(f"{base}/e/{SLUG}/director/settings/")
    for label in ("Publish", "Finish the event", "Archive"):
        button = page.get_by_role("button", name=label, exact=True)
        if label == "Publish" and not button.count():
            continue  # already published
        click_and_wait(page, button)
        no_error(page, label)
    shot(page, "13-archived")
    page.goto(base + "/")
    text = page.locator("main").text_content()
    assert "Archived events" in text, "the home page has no archived list"
    before, after = text.split("Archived events", 1)
    assert NAME not in before, "the archived event is still in the home page's main list"
    assert NAME in after, "the archived event is not under 'Archived events'"
    shot(page, "14-home")


# --- the tests -------------------------------------------------------------------------------------------------------


def test_a_director_without_superuser_rights_runs_the_whole_day_through_the_pages(browser, demo_site, new_page, settings):
    settings.PRINT_IN_THREAD = True  # the embedded default: print jobs render off the request
    watch = Watch(requests=[], errors=[])
    base = demo_site.url
    in_own_connection(make_director)
    try:
        page = watch.on(new_page(), "director")
        page.set_default_timeout(60_000)
        log_in(page, base)
        create_event(page, base)
        set_public_address(page, base)
        make_rooms(page)
        check_in_all_but_one(page, base)
        prepare(page, base)
        room_lists(page, base)
        publish_event(page, base)
        print_zip(page, base)
        replaced, _table = substitute_player(page, base, new_page, watch)
        penalised = next(team for team in TEAMS if replaced not in ROSTER[team] and team != ABSENT)
        penalty_and_undo(page, base, penalised)
        run_clock(page, base)
        visitor = watch.on(new_page(), "visitor")
        projector(page, base, visitor)
        lifecycle(page, base)

        assert not watch.admin_requests(), watch.admin_requests()
        assert not watch.errors, watch.errors
        assert len(watch.requests) > 50, "the requests were not recorded"
    finally:
        once_unlocked(remove, SLUG, DIRECTOR)


# --- what the public sees ------------------------------------------------------------------------------------------

DRAFT = "projector-draft"


def build_draft() -> None:
    """8 teams (2 groups of 4 tables), session 1 seated. Group 1 plays the whole session; group 2
    too, but for the last set of its first table: that set is scored in group 1 yet not released,
    every other set is. Stored as a draft, the director holding the role."""
    from django.contrib.auth import get_user_model

    from scoring.actions.confirmation import confirm_result
    from scoring.actions.entry import submit_result
    from tournament.demo import plausible_outcome
    from tournament.models import Event, Table
    from factories import blocks

    user = get_user_model().objects.get(username=DIRECTOR)
    event = prepared_event(team_roster(8), name="Projector draft", slug=DRAFT, sessions=1, director=user)
    rng = random.Random(1818)
    play_slots(event, rng, groups=[1])
    seats = tuple(event.get_ruleset().seats)
    tables = list(Table.objects.filter(group__session__event=event, group__number=2).order_by("position"))
    held = (tables[0].pk, blocks(tables[0])[-1][1][-1])
    for table in tables:
        pin = table.seats.select_related("player").get(seat=seats[1]).player.pin
        for _, sets in blocks(table):
            for set_no in sets:
                if (table.pk, set_no) != held:
                    result = submit_result(table, set_no, outcome=plausible_outcome(rng, seats), actor="draft setup")
                    confirm_result(result, actor="draft setup", pin=pin)
    Event.objects.filter(pk=event.pk).update(status="draft")


def publish(slug: str) -> None:
    from tournament.models import Event

    Event.objects.filter(slug=slug).update(status="published")


def test_a_draft_is_hidden_and_the_projector_shows_no_unreleased_points(browser, demo_site, new_page):
    base = demo_site.url
    watch = Watch(requests=[], errors=[])
    in_own_connection(make_director)
    in_own_connection(build_draft)
    try:
        visitor = new_page()
        visitor.on("pageerror", lambda error: watch.errors.append(f"visitor page error: {error}"))
        for path in ("/", "standings/", "projector/", "projector.json", "seating/1/", "export.json"):
            response = visitor.goto(f"{base}/e/{DRAFT}/{path.lstrip('/')}")
            assert response.status == 404, f"a draft's {path} answered {response.status} to a visitor"
        visitor.goto(base + "/")
        assert "Projector draft" not in visitor.locator("main").inner_text(), "the home page lists a draft"

        director = watch.on(new_page(), "director")
        log_in(director, base)
        director.goto(f"{base}/e/{DRAFT}/standings/?all=1")
        every_scored = {row[1]: row[2] for row in standings_rows(director)}
        director.goto(f"{base}/e/{DRAFT}/standings/")
        released = {row[1]: row[2] for row in standings_rows(director)}
        assert len(released) == 8 and released != every_scored, \
            "the test needs a scored set that is not released and moves some team's points"

        in_own_connection(publish, DRAFT)
        watch.on(visitor, "visitor")
        for who in (visitor, director):
            who.goto(f"{base}/e/{DRAFT}/projector/")
            table = who.locator("#projector-standings")
            expect(table).to_be_visible()
            heads = [h.strip() for h in table.locator("thead th").all_inner_texts()]
            rows = table.locator("tbody tr")
            shown = {}
            for i in range(rows.count()):
                cells = dict(zip(heads, (c.strip() for c in rows.nth(i).locator("td").all_inner_texts()), strict=False))
                shown[cells["Name"]] = cells["Points"]
            assert shown == released, f"the projector's points are not the released sets' only: {shown}"
            data = who.request.get(f"{base}/e/{DRAFT}/projector.json").json()
            assert {r["name"]: r["points"] for r in data["standings"]} == {
                name: int(points.replace("−", "-")) for name, points in released.items()}, data["standings"]
        assert not watch.errors, watch.errors
    finally:
        once_unlocked(remove, DRAFT)
        in_own_connection(remove, "", DIRECTOR)
