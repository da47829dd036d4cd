"""axe-core (from the npm registry, tests/browser/package.json) run on every page a player, a
scorer or the director uses: no violation of impact 'serious' or 'critical' (labels, contrast,
names of controls, language of the page, ...), and the table's entry form works from the keyboard
with a visible focus."""

import pytest

from .conftest import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db]

BLOCKING = ("serious", "critical")

PUBLIC_PAGES = {
    "home": "/",
    "event": "/e/{slug}/",
    "standings": "/e/{slug}/standings/",
    "login": "/accounts/login/",
    "table login": "/entry/login/",
    "travellers": "/e/{slug}/travellers/",
    "traveller": "/e/{slug}/travellers/1/1/",
    "teams": "/e/{slug}/teams/",
    "team": "/e/{slug}/teams/1/",
    "player standings": "/e/{slug}/standings/players/",
}
DIRECTOR_PAGES = {
    "director": "/e/{slug}/director/",
    "result entry": "/e/{slug}/entry/",
    "live results": "/e/{slug}/director/live/",
    "result history": "/e/{slug}/results/{result}/",
    "wall sets": "/e/{slug}/walls/",
    "seating": "/e/{slug}/seating/1/",
    "wall set": "/e/{slug}/walls/1/1/",
    "new event": "/events/new/",
    "conversion table": "/e/{slug}/director/conversion/",
}


def serious_violations(page, axe_source) -> list[str]:
    """Run axe-core on the loaded page; one line per serious or critical violation."""
    page.add_script_tag(content=axe_source)
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:5]}"
        for v in result["violations"] if v["impact"] in BLOCKING
    ]


def _open(page, demo_site, path):
    response = page.goto(demo_site.page(path.format(slug=demo_site.slug, result=demo_site.pending_result_id)))
    assert response.status == 200, f"{path} answered {response.status}"


@pytest.mark.parametrize("path", PUBLIC_PAGES.values(), ids=PUBLIC_PAGES.keys())
def test_public_page_has_no_serious_accessibility_violation(new_page, demo_site, axe_source, path):
    page = new_page()
    _open(page, demo_site, path)
    assert serious_violations(page, axe_source) == []


@pytest.mark.parametrize("path", DIRECTOR_PAGES.values(), ids=DIRECTOR_PAGES.keys())
def test_director_page_has_no_serious_accessibility_violation(director_page, demo_site, axe_source, path):
    _open(director_page, demo_site, path)
    assert serious_violations(director_page, axe_source) == []


def test_table_entry_page_on_a_phone_has_no_serious_accessibility_violation(scorer_page, axe_source):
    assert scorer_page.locator("form#entry").count() == 1
    assert serious_violations(scorer_page, axe_source) == []


def test_table_entry_errors_on_a_phone_have_no_serious_accessibility_violation(scorer_page, axe_source):
    page = scorer_page
    page.click("label[for=kind-discard]")
    page.check("#win-E")
    page.fill("#value_E", "eight")
    with page.expect_navigation():
        page.click("form#entry button[type=submit]")
    assert page.get_by_role("alert").count() >= 1, "the refused entry shows no error"
    assert serious_violations(page, axe_source) == []


@pytest.mark.parametrize("lang", ["ja", "zh-hans"])
def test_translated_standings_have_no_serious_accessibility_violation(new_page, demo_site, axe_source, lang):
    page = new_page()
    _open(page, demo_site, "/e/{slug}/standings/")
    with page.expect_navigation():
        page.select_option("#lang-select", lang)
    assert page.get_attribute("html", "lang") == lang
    assert serious_violations(page, axe_source) == []


FOCUS_PROBE = """() => {
  const e = document.activeElement;
  return {key: e.id || e.name || e.textContent.trim() || e.tagName, outline: getComputedStyle(e).outlineStyle};
}"""


def test_table_entry_form_is_reachable_with_the_keyboard_and_shows_focus(scorer_page, demo_site):
    page = scorer_page
    reached = []
    for _ in range(60):
        page.keyboard.press("Tab")
        focus = page.evaluate(FOCUS_PROBE)
        reached.append(focus["key"])
        assert focus["outline"] != "none", f"{focus['key']} shows no focus outline"
        if focus["key"] == "save":
            break
    # A fresh page shows the outcome's kind buttons; winners, discarder and values appear once a kind is chosen.
    # On a phone the header's links and language select fold behind its "Menu" button.
    controls = ("Skip to content", "Menu", f"pin-{demo_site.pending_result_id}", "set_no", "mode-outcome", "kind-discard",
                "entered_by_seat", "entry_pin", "save")
    for control in controls:
        assert control in reached, f"Tab never reaches {control}: reached {reached}"
    assert reached[0] == "Skip to content"


def test_entry_mode_switches_with_the_arrow_keys(scorer_page):
    page = scorer_page
    page.focus("input[name=mode][value=outcome]")
    assert page.is_visible("#outcome-fields") and page.is_hidden("#change-fields")

    page.keyboard.press("ArrowDown")

    assert page.is_checked("input[name=mode][value=changes]")
    assert page.is_visible("#change-fields") and page.is_hidden("#outcome-fields")


# --- the phone header ---------------------------------------------------------------------------

def _header_height(page) -> float:
    return page.evaluate("document.querySelector('header.site').getBoundingClientRect().height")


@pytest.mark.parametrize("javascript", [True, False], ids=["script", "no script"])
def test_the_phone_header_folds_the_menu_behind_a_button(browser, demo_site, axe_source, javascript):
    context = browser.new_context(viewport=PHONE, java_script_enabled=javascript)
    try:
        page = context.new_page()
        page.goto(demo_site.page(f"/e/{demo_site.slug}/standings/"))
        assert _header_height(page) < PHONE["height"] / 12, "the folded header still takes a large part of the screen"
        assert page.is_hidden("header nav >> text=Travellers") and page.is_hidden("#lang-select")

        page.click("#site-menu > summary")

        assert page.is_visible("header nav >> text=Travellers") and page.is_visible("#lang-select")
        assert page.is_visible("header >> text=Log in")
        if javascript:
            assert serious_violations(page, axe_source) == []
        page.click("#site-menu > summary")
        assert page.is_hidden("header nav >> text=Travellers")
    finally:
        context.close()


def test_a_wide_screen_shows_the_whole_menu_without_a_button(new_page, demo_site):
    page = new_page()
    page.goto(demo_site.page(f"/e/{demo_site.slug}/standings/"))
    assert page.is_visible("header nav >> text=Travellers") and page.is_visible("#lang-select")
    assert page.is_hidden("#site-menu > summary")


def test_the_skip_link_moves_the_keyboard_to_the_page_content(new_page, demo_site):
    page = new_page(viewport=PHONE)
    page.goto(demo_site.page(f"/e/{demo_site.slug}/standings/"))
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip-link"
    assert page.is_visible(".skip-link")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"


def test_a_phone_logged_in_as_a_table_names_its_table_and_offers_no_login(scorer_page, demo_site):
    page = scorer_page
    badge = page.locator("header .table-badge")
    assert badge.is_visible() and badge.get_attribute("href") == f"/e/{demo_site.slug}/table/{demo_site.table_id}/"
    page.click("#site-menu > summary")
    assert page.locator("header a", has_text="Log in").count() == 0
    assert page.is_visible("#save") and page.locator("#save").bounding_box()["y"] < PHONE["height"]


def test_result_entry_leads_a_visitor_to_the_table_login(new_page, demo_site):
    page = new_page(viewport=PHONE)
    page.goto(demo_site.page(f"/e/{demo_site.slug}/"))
    page.click("#site-menu > summary")
    with page.expect_navigation():
        page.click("header nav >> text=Result entry")
    assert page.url == demo_site.page(f"/e/{demo_site.slug}/entry/login/")
    assert page.locator("main input[name=code]").count() == 1
