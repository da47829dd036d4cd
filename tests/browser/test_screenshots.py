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
