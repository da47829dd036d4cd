"""docs/scoring.md in Debian's Chromium: scores a director can defend, as the director and a player see
them.

A small event is built through the services (5 teams, the substitutes policy: 3 substitute teams
fill two groups of 4; MCR, converted with ``mcr-mp``) and played: every table enters every set but
table 1 its last one, so that set stays unreleased. Then, as the event's director (the demo's
staff user, not a superuser, logged in through the login page):

- the standings page shows the substitutes as "substitute, not ranked", the five real teams ranked
  1..5 among themselves as tests/oracles.py ranks them from the stored results, and names the
  conversion table version the scores use;
- on the unreleased set's wall page the director draws reserve wall R1 with a reason for table 1;
  the page shows its set code (the Luhn digit computed here) and its tiles, which equal an
  independent derivation (tests/oracles.py, the contract's "dmj-reserve-v1" rule); the set-up
  sheet and the QR set label of R1 are printed, downloaded, rendered with pypdfium2, and the QR
  decoded with zxing-cpp must carry the reserve's payload;
- on that set's traveller the director marks table 5's play fouled with a reason and sees every
  table's version (R1 at table 1, F1 at table 5, as prepared elsewhere) and the rule with the
  event's Law 87 parameters.

An anonymous visitor and a player logged in at table 5 then see nothing of the reserve wall or
the fouled mark while the set is unreleased (traveller, wall list, wall page, public export);
once table 1's result is in, they see both. Any console or page error fails the test.
Screenshots go to /tmp/defensible-scores-shots/.

The browser steps hold no ORM call: Django reads and writes run in a thread of their own, on a
connection outside the test's transaction, as the live server does.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import pytest
from factories import (
    console_error,
    login_as_table_in_browser,
    prepared_event,
    standings_notes,
    standings_rows,
    team_roster,
)
from oracles import (
    laid_out,
    ranked,
    reserve_set_code,
    reserve_wall,
    tally,
    team_set_points,
)
from pdfcheck import decode_qr, page_text, render_pages
from walls.setcode import parse_payload
from playwright.sync_api import expect

from tests.browser.conftest import in_own_connection, once_unlocked
from tests.browser.test_rule_sets_at_table import delete_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db]

SHOTS = Path("/tmp/defensible-scores-shots")
SLUG = "defensible"
REASON_RESERVE = "Two tiles of the set dropped face up at table 1 before play"
REASON_FOULED = "E and S draw piles swapped when the set was laid at table 5"


@dataclass(frozen=True)
class Built:
    """Plain values of the built event (no ORM in the browser steps)."""

    set_no: int                     # the set left unreleased (table 1's last)
    reserve_table_id: int           # table 1: will play reserve wall R1
    fouled_table: int               # table 5's number: a table of group 2 that played the set
    scorer_code: str                # table 5's login code
    table_numbers: tuple[int, ...]  # every table of the session
    expected: dict                  # team name -> rank text on the standings page ("–" for substitutes)
    substitutes: tuple[str, ...]
    conversion: str                 # "Converted with <name>, version <v>"
    reserve_piles: dict             # pile name -> tiles of R1 by the independent derivation
    pile_names: tuple[str, ...]


def _random_changes(rng: random.Random) -> dict:
    """Plain MCR payments (docs/scoring.md): a discard win or a self-draw, zero-sum."""
    winner, fan = rng.choice("ESWN"), rng.choice((8, 12, 16, 24, 32, 64))
    if rng.random() < 0.3:
        return {s: 3 * (8 + fan) if s == winner else -(8 + fan) for s in "ESWN"}
    discarder = rng.choice([s for s in "ESWN" if s != winner])
    return {s: 8 + fan + 16 if s == winner else -(8 + fan) if s == discarder else -8 for s in "ESWN"}


def _enter(table, set_no: int, changes: dict) -> None:
    from scoring.actions.confirmation import confirm_result
    from scoring.actions.entry import submit_result

    confirm_result(submit_result(table, set_no, changes=changes, actor="acceptance"), actor="acceptance", director=True)


def build(director: str) -> Built:
    """Create and play the event (see the module's docstring) and work out what the pages must show."""
    from django.contrib.auth import get_user_model
    from acceptance import comparisons

    from scoring.models import ConversionTable
    from tournament.models import Table
    from factories import blocks

    user = get_user_model().objects.get(username=director)
    event = prepared_event(team_roster(5), name="Defensible scores", slug=SLUG, sessions=1, conversion="mcr-mp",
                           entrant_policy="substitutes", director=user)
    tables = list(Table.objects.filter(group__session__event=event).order_by("number"))
    first = tables[0]
    held_back = blocks(first)[-1][1][-1]
    rng = random.Random(1717)
    for table in tables:
        for _, sets in blocks(table):
            for set_no in sets:
                if not (table.pk == first.pk and set_no == held_back):
                    _enter(table, set_no, _random_changes(rng))
    conversion = ConversionTable.objects.get(event=event, current=True)
    rows = [dict(r) for r in conversion.rows]
    results = []
    for (_, set_no, _), (seating, changes) in comparisons(event).items():
        if set_no != held_back:  # the public standings count released sets only
            results += [(team, points, total) for team, (total, points) in team_set_points(seating, changes, rows).items()]
    tallies = tally(results)
    subs = tuple(sorted(event.teams.filter(substitute=True).values_list("name", flat=True)))
    expected = {name: f"{rank}{'=' if tied else ''}" for rank, name, tied in ranked({n: t for n, t in tallies.items()
                                                                                   if n not in subs})}
    expected.update(dict.fromkeys(subs, "–"))
    ruleset = event.get_ruleset()
    tiles, piles = [list(t) for t in ruleset.tiles], [(p.name, p.size) for p in ruleset.piles]
    wall = reserve_wall(event.master_seed, event.uid, 1, held_back, 1, tiles, piles, event.public_value or None)
    fouled = next(t for t in tables if t.group.number == 2)
    return Built(
        set_no=held_back, reserve_table_id=first.pk, fouled_table=fouled.number, scorer_code=fouled.login_code,
        table_numbers=tuple(t.number for t in tables), expected=expected, substitutes=subs,
        conversion=f"Converted with {conversion.name}, version {conversion.version}",
        reserve_piles=laid_out(wall, piles), pile_names=tuple(name for name, _ in piles),
    )


def release(slug: str, set_no: int) -> None:
    """Table 1 plays the held-back set (its reserve wall) and the director confirms: the set is released."""
    from tournament.models import Table

    table = Table.objects.filter(group__session__event__slug=slug).order_by("number").first()
    _enter(table, set_no, {"E": -8, "S": 32, "W": -16, "N": -8})


# --- steps ---------------------------------------------------------------------------------------------------


def watch(page, errors: list, who: str) -> None:
    """Record ``page``'s console errors (its own answer to a refused page aside) and page errors."""
    page.on("console", lambda message: errors.append(f"{who} console: {message.text}") if console_error(message) else None)
    page.on("pageerror", lambda error: errors.append(f"{who} page error: {error}"))


def check_standings(page, demo_site, built: Built) -> None:
    page.goto(demo_site.page(f"/e/{SLUG}/standings/"))
    rows = standings_rows(page)
    page.screenshot(path=str(SHOTS / "standings.png"), full_page=True)
    assert {row[1]: row[0] for row in rows} == built.expected
    assert [row[1] in built.substitutes for row in rows] == [False] * 5 + [True] * 3, "substitutes after the ranked"
    for name, note in standings_notes(page).items():
        assert ("substitute, not ranked" in note) == (name in built.substitutes), (name, note)
    expect(page.locator("#conversion-in-use")).to_contain_text(built.conversion)
    expect(page.locator("#conversion-mixed")).to_have_count(0)


def download(page, link) -> bytes:
    """The file behind ``link``, fetched with the page's own session (the PDF is served inline, which
    headless Chromium would open rather than save)."""
    response = page.request.get(link.evaluate("a => a.href"))
    assert response.ok and response.headers["content-type"] == "application/pdf", response.status
    return response.body()


def print_reserve(page, card, kind: str) -> bytes:
    """Press ``kind``'s print button of the reserve card, then download the finished job's PDF."""
    with page.expect_navigation():
        card.locator("form.reserve-print").get_by_role("button", name=kind).click()
    job = page.locator("#reserve-1 .reserve-jobs li").filter(has_text=kind).first
    expect(job.get_by_role("link", name="Download")).to_be_visible()
    return download(page, job.get_by_role("link", name="Download"))


def draw_and_print_reserve(page, demo_site, built: Built) -> str:
    """Draw R1 for the held-back set with a reason, for table 1; check its code and tiles; print
    its set-up sheet and QR label. Returns the reserve's set code."""
    code = reserve_set_code(1, built.set_no, 1)
    page.goto(demo_site.page(f"/e/{SLUG}/walls/1/{built.set_no}/"))
    expect(page.locator("#no-reserve")).to_be_visible()
    form = page.locator("#draw-reserve")
    form.locator("#reserve-reason").fill(REASON_RESERVE)
    form.locator(f"input[name=tables][value='{built.reserve_table_id}']").check()
    with page.expect_navigation():
        form.get_by_role("button", name="Draw reserve wall R1").click()
    card = page.locator("#reserve-1")
    expect(card.locator("h3")).to_contain_text(f"Reserve wall R1 — set code {code}")
    expect(card).to_contain_text(REASON_RESERVE)
    expect(card).to_contain_text("table 1")
    card.locator("details summary").click()
    grids = card.locator("details table.grid")
    assert grids.count() == len(built.pile_names)
    shown = {name: [c.strip() for c in grids.nth(i).locator("td code").all_inner_texts()]
             for i, name in enumerate(built.pile_names)}
    assert shown == built.reserve_piles, "the reserve's tiles are the documented derivation"
    page.screenshot(path=str(SHOTS / "reserve-drawn.png"), full_page=True)

    sheet = print_reserve(page, card, "Reserve wall: set-up sheet")
    assert sheet.startswith(b"%PDF")
    text = page_text(sheet, 0)
    assert code in text and f"RESERVE WALL R1 for set 1-{built.set_no:02d}" in text, text[:400]
    label = print_reserve(page, card, "Reserve wall: set label")
    assert label.startswith(b"%PDF")
    check = code.rsplit("-", 1)[1]
    payloads = [p for rendered in render_pages(label) for p in decode_qr(rendered.image)]
    assert len(payloads) == 1 and payloads[0].endswith(f"/entry/scan/DMJ1%7C{SLUG}%7C1%7C{built.set_no}%7C{check}%7CR1"), payloads
    assert parse_payload(payloads[0]).reserve == 1  # a link to the reserve wall's set, naming no tile
    assert code in page_text(label, 0)
    render_pages(label, scale=2)[0].image.save(SHOTS / "reserve-label.png")
    page.screenshot(path=str(SHOTS / "reserve-printed.png"), full_page=True)
    return code


def mark_fouled_on_traveller(page, demo_site, built: Built) -> None:
    page.goto(demo_site.page(f"/e/{SLUG}/travellers/1/{built.set_no}/"))
    page.screenshot(path=str(SHOTS / "traveller-director.png"), full_page=True)
    row = page.locator(f"#table-{built.fouled_table}")
    row.locator("details.fouled-controls summary").click()  # the controls fold, so the table fits the page
    form = row.locator("form.fouled-mark")
    form.locator("input[name=reason]").fill(REASON_FOULED)
    with page.expect_navigation():
        form.get_by_role("button", name="Mark fouled").click()
    expect(page.locator(".messages")).to_contain_text(f"Table {built.fouled_table}: marked as fouled version F1")
    versions = {n: page.locator(f"#table-{n} td.version").get_attribute("data-version") for n in built.table_numbers}
    assert versions == {n: "R1" if n == 1 else "F1" if n == built.fouled_table else "" for n in built.table_numbers}
    expect(page.locator(f"#table-{built.fouled_table} td.version")).to_contain_text(REASON_FOULED)
    expect(page.locator("#table-1 td.version")).to_contain_text("reserve wall R1")
    rule = page.locator("#fouled-rule")
    expect(rule).to_contain_text("Law 87")
    expect(rule).to_contain_text("2 or more tables")        # the event's fouled_min_tables (default 2)
    expect(rule).to_contain_text("adjusted score of 0")     # the event's fouled_adjusted_points (default 0)
    page.screenshot(path=str(SHOTS / "traveller-fouled.png"), full_page=True)


def check_hidden(page, demo_site, built: Built, code: str, who: str) -> None:
    """Nothing of R1 or of the fouled mark before the set is released."""
    page.goto(demo_site.page(f"/e/{SLUG}/travellers/1/{built.set_no}/"))
    expect(page.locator("#not-yet")).to_be_visible()
    body = page.locator("main").inner_text()
    for secret in ("R1", "F1", "fouled", REASON_FOULED, REASON_RESERVE, code):
        assert secret not in body, f"{who}: the traveller shows {secret!r}"
    page.screenshot(path=str(SHOTS / f"{who}-traveller-hidden.png"), full_page=True)
    response = page.goto(demo_site.page(f"/e/{SLUG}/walls/1/{built.set_no}/"))
    assert response.status == 403, f"{who}: the unreleased wall page answered {response.status}"
    assert code not in page.content() and REASON_RESERVE not in page.content()
    page.goto(demo_site.page(f"/e/{SLUG}/walls/"))
    assert "R1" not in page.locator("main").inner_text(), f"{who}: the wall list names the reserve"
    data = page.request.get(demo_site.page(f"/e/{SLUG}/export.json")).json()
    assert data["walls"]["reserves"] == [] and data["fouled"] == [], f"{who}: the export holds them"
    assert all(s["set"] != built.set_no for s in data["scores"])


def check_shown_once_released(page, demo_site, built: Built, code: str) -> None:
    page.goto(demo_site.page(f"/e/{SLUG}/travellers/1/{built.set_no}/"))
    expect(page.locator("#not-yet")).to_have_count(0)
    expect(page.locator(f"#table-{built.fouled_table} td.version")).to_have_attribute("data-version", "F1")
    expect(page.locator("#table-1 td.version")).to_have_attribute("data-version", "R1")
    expect(page.locator("#fouled-rule")).to_contain_text("Law 87")
    expect(page.locator("form.fouled-mark")).to_have_count(0)
    page.screenshot(path=str(SHOTS / "public-traveller-released.png"), full_page=True)
    page.goto(demo_site.page(f"/e/{SLUG}/walls/1/{built.set_no}/"))
    expect(page.locator("#reserve-1 h3")).to_contain_text(code)
    expect(page.locator("#draw-reserve")).to_have_count(0)
    data = page.request.get(demo_site.page(f"/e/{SLUG}/export.json")).json()
    assert [(r["session"], r["set"], r["reserve"]) for r in data["walls"]["reserves"]] == [(1, built.set_no, 1)]
    assert [(f["set"], f["table"], f["version"]) for f in data["fouled"]] == [(built.set_no, built.fouled_table, 1)]


# --- the test ----------------------------------------------------------------------------------------------------


def test_a_director_defends_the_scores_and_players_learn_nothing_early(browser, demo_site, director_page, new_page):
    SHOTS.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    try:
        built = in_own_connection(build, demo_site.director)
        desk = director_page
        watch(desk, errors, "director")
        check_standings(desk, demo_site, built)
        code = draw_and_print_reserve(desk, demo_site, built)
        mark_fouled_on_traveller(desk, demo_site, built)

        visitor = new_page()
        watch(visitor, errors, "anonymous")
        check_hidden(visitor, demo_site, built, code, "anonymous")
        player = new_page()
        watch(player, errors, "player")
        login_as_table_in_browser(player, demo_site.page(f"/e/{SLUG}/entry/login/{built.scorer_code}"))
        check_hidden(player, demo_site, built, code, "player")

        in_own_connection(release, SLUG, built.set_no)
        check_shown_once_released(visitor, demo_site, built, code)
        assert not errors, errors
    finally:
        once_unlocked(delete_event, SLUG)
