"""The pictures of the guides (docs/screenshots/), taken from the running demo event by the browser,
never drawn by hand. Each test checks what the picture must show before saving it."""

import io

import pypdfium2
import pytest
from PIL import Image

from .conftest import SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db]


def save(page, name, *, full_page=True):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / name
    page.screenshot(path=str(path), full_page=full_page)
    return Image.open(path)


def test_standings_screenshot_shows_every_team_ranked(new_page, demo_site):
    page = new_page()
    page.goto(demo_site.page(f"/e/{demo_site.slug}/standings/"))
    rows = page.locator("#standings tbody tr")
    assert rows.count() == len(demo_site.teams)
    assert rows.first.locator("td").nth(1).inner_text() == demo_site.teams[0]

    image = save(page, "standings.png")

    assert image.width == page.viewport_size["width"]


def test_table_entry_screenshot_is_a_phone_screen_with_the_seats_and_the_form(scorer_page, demo_site):
    page = scorer_page
    assert page.viewport_size == {"width": 390, "height": 844}
    assert page.get_by_role("table", name="Players at this table").locator("tr").count() == 4
    assert page.locator(f"#confirm-{demo_site.pending_result_id}").is_visible()
    scroll_width = page.evaluate("() => document.documentElement.scrollWidth")
    assert scroll_width <= 390, f"the entry page scrolls sideways on a phone ({scroll_width}px wide)"

    image = save(page, "table-entry-phone.png", full_page=False)

    assert image.size == (390, 844)


def test_director_screenshot_shows_commitment_sessions_and_printing(director_page, demo_site):
    page = director_page
    page.goto(demo_site.page(f"/e/{demo_site.slug}/director/"))
    text = page.locator("main").inner_text()
    assert "Commitment (publish before the event)" in text
    assert "Session 1" in text and "Session 2" in text
    assert page.locator("select[name=kind]").count() == 2

    save(page, "director.png")


def test_live_results_screenshot_shows_the_waiting_result(director_page, demo_site):
    page = director_page
    page.goto(demo_site.page(f"/e/{demo_site.slug}/director/live/"))
    assert page.locator("#live-session").inner_text() == "2"
    assert page.locator("#live td.status-entered").count() == 1

    save(page, "live.png")


def test_result_history_screenshot_shows_the_correction_form(director_page, demo_site):
    page = director_page
    page.goto(demo_site.page(f"/e/{demo_site.slug}/results/{demo_site.pending_result_id}/"))
    assert page.locator("#history tbody tr").count() >= 1
    assert page.locator("#reason").is_visible()

    save(page, "result-history.png")


@pytest.mark.parametrize(("kind", "name"), [("stickers", "wall-stickers.png"), ("setup", "setup-sheet.png")])
def test_staff_sheet_rendered_from_the_directors_print_button(director_page, demo_site, kind, name):
    page = director_page
    page.goto(demo_site.page(f"/e/{demo_site.slug}/director/"))
    page.select_option("#kind-1", kind)
    with page.expect_navigation():
        page.click("#kind-1 ~ button[type=submit]:not([value])")
    link = page.locator("#jobs tbody tr").first.get_by_role("link")
    assert link.count() == 1, "the print job did not finish"
    response = page.request.get(demo_site.page(link.get_attribute("href")))
    assert response.ok and response.body().startswith(b"%PDF")

    pdf = pypdfium2.PdfDocument(io.BytesIO(response.body()))
    first = pdf[0].render(scale=1.5).to_pil()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    first.save(SCREENSHOTS / name)

    assert first.width > 500 and first.getextrema() != ((255, 255), (255, 255), (255, 255))


# --- the director's day (docs/director-guide.md): settings, rooms, check-in, penalties, projector ---------------------------------


def test_settings_screenshot_shows_the_public_address_and_what_is_frozen(director_page, demo_site):
    page = director_page
    page.goto(demo_site.page(f"/e/{demo_site.slug}/director/settings/"))
    menu = page.locator("main").get_by_role("link", name="Rooms", exact=True)
    assert menu.count() >= 1, "the director menu is missing"
    assert page.get_by_label("Public address").is_visible()
    # the demo's walls exist: the rule set is frozen, and the page says so next to it
    assert page.locator("#frozen-ruleset").is_visible()
    assert page.get_by_role("button", name="Save settings").is_visible()
    assert page.get_by_role("button", name="Finish the event").count() == 1

    save(page, "settings.png")


def test_rooms_screenshot_shows_the_quick_form_and_the_room_table(director_page, demo_site):
    page = director_page
    page.goto(demo_site.page(f"/e/{demo_site.slug}/director/rooms/"))
    assert page.locator("#quick-rooms").is_visible() and page.locator("#quick-capacity").is_visible()
    assert page.get_by_role("button", name="Create rooms").is_visible()
    assert page.locator("#rooms-need").inner_text().strip()
    rows = page.locator("#rooms-table tbody tr:not(.new-room)")
    assert rows.count() >= 1, "the demo's rooms are listed"
    assert page.get_by_role("button", name="Save rooms").is_visible()

    save(page, "rooms.png")


def test_check_in_screenshot_shows_a_checkbox_per_team_and_the_outlook(director_page, demo_site):
    """Session 3 of the demo is not seated yet: every team checked in but the last, saved; the page
    then says what Prepare will do."""
    page = director_page
    page.goto(demo_site.page(f"/e/{demo_site.slug}/director/check-in/3/"))
    boxes = page.locator("#check-in-form input[name=present]")
    assert boxes.count() == len(demo_site.teams)
    for team in demo_site.teams:
        page.get_by_label(team, exact=True).set_checked(team != demo_site.teams[-1])
    with page.expect_navigation():
        page.get_by_role("button", name="Save check-in").click()
    assert page.locator("#check-in-form input[name=present]:checked").count() == len(demo_site.teams) - 1
    assert not page.get_by_label(demo_site.teams[-1], exact=True).is_checked()
    assert page.locator("#prepare-outlook li").count() >= 1

    save(page, "check-in.png")


def test_penalties_screenshot_shows_a_penalty_given_and_one_undone(director_page, demo_site):
    """Two penalties on the demo's leading team; the second is undone; the picture shows both.
    The first is undone afterwards, so the demo's standings are as before for the other tests."""
    page = director_page
    team = demo_site.teams[0]
    url = demo_site.page(f"/e/{demo_site.slug}/director/penalties/")
    reasons = ("Slow play after two warnings", "Wrong seat at the start of session 2")

    def give(amount, unit, reason):
        page.goto(url)
        entrant = page.locator("#id_entrant")
        entrant.select_option(entrant.locator("option").filter(has_text=team).first.get_attribute("value"))
        page.fill("#id_amount", amount)
        page.select_option("#id_unit", unit)
        page.fill("#id_reason", reason)
        with page.expect_navigation():
            page.get_by_role("button", name="Apply").click()

    def undo(reason):
        row = page.locator("#adjustments tbody tr").filter(has_text=reason)
        with page.expect_navigation():
            row.get_by_role("button", name="Undo").click()

    try:
        give("-10", "mp", reasons[0])
        give("-40", "points", reasons[1])
        undo(reasons[1])
        rows = page.locator("#adjustments tbody tr")
        assert rows.filter(has_text=reasons[0]).get_by_role("button", name="Undo").count() == 1
        assert "undone" in rows.filter(has_text=reasons[1]).inner_text()

        save(page, "penalties.png")
    finally:
        page.goto(url)
        for reason in reasons:
            row = page.locator("#adjustments tbody tr").filter(has_text=reason)
            if row.get_by_role("button", name="Undo").count():
                undo(reason)


def test_projector_screenshot_shows_the_clock_the_announcement_and_the_standings(director_page, new_page, demo_site):
    """The director sets session 2's clock (45 minutes, started) and an announcement; the hall's
    screen (a visitor's page, full HD) shows them with the public standings."""
    page = director_page
    page.goto(demo_site.page(f"/e/{demo_site.slug}/director/"))
    page.fill("#clock-minutes-2", "45")
    with page.expect_navigation():
        page.locator("#clock-box-2").get_by_role("button", name="Start", exact=True).click()
    page.fill("#announcement-text", "Session 2 ends at 16:30. Scorers: confirm every hand before you leave the table.")
    with page.expect_navigation():
        page.get_by_role("button", name="Show on projector").click()

    hall = new_page(viewport={"width": 1920, "height": 1080})
    hall.goto(demo_site.page(f"/e/{demo_site.slug}/projector/"))
    clock = hall.locator("#projector-clock")
    assert clock.is_visible()
    minutes = int(clock.inner_text().strip().split(":")[0])
    assert 43 <= minutes <= 45, clock.inner_text()
    assert "Session 2 ends at 16:30" in hall.locator("#projector-announcement").inner_text()
    rows = hall.locator("#projector-standings tbody tr")
    assert rows.count() >= 1 and demo_site.teams[0] in rows.first.inner_text()
    assert rows.nth(2).bounding_box()["y"] + rows.nth(2).bounding_box()["height"] <= 1080, "the podium is off screen"

    save(hall, "projector.png", full_page=False)
