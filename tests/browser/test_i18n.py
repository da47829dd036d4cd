"""The language switcher in the page header: a player picks Japanese or Simplified Chinese and the
standings and the table's entry page speak it (the choice is kept for the next pages); the
director prints the staff's sheets in their language."""

import io

import pypdfium2
import pytest

from .conftest import SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db]

# Words each page must show once switched: headings, column heads, form labels, buttons.
STANDINGS_WORDS = {
    "ja": ["順位表", "順位", "チーム", "ポイント", "得失点合計", "総合"],
    "zh-hans": ["排名", "名次", "团队", "积分", "得失分合计", "总排名"],
}
TABLE_LABEL = {"ja": "この卓の選手", "zh-hans": "本桌选手"}  # the seat table's accessible name
TABLE_WORDS = {
    "ja": ["局の結果を入力", "和了の内容で入力", "ロン和了", "ツモ和了", "流局", "あなたの PIN", "確認待ち", "保存"],
    "zh-hans": ["录入一盘成绩", "按和牌结果录入", "点和", "自摸", "荒庄", "您的 PIN", "等待确认", "保存"],
}


def open_menu(page):
    """Unfold the header's menu where it is folded (a phone): click its "Menu" button."""
    if not page.is_visible("#lang-select"):
        page.click("#site-menu > summary")


def switch_language(page, code):
    """Choose ``code`` in the header's language select (it submits itself) and wait for the reload;
    on a phone the menu is unfolded first."""
    open_menu(page)
    with page.expect_navigation():
        page.select_option("#lang-select", code)


@pytest.mark.parametrize("lang", ["ja", "zh-hans"])
def test_switcher_translates_the_standings_page(new_page, demo_site, lang):
    page = new_page()
    standings = demo_site.page(f"/e/{demo_site.slug}/standings/")
    page.goto(standings)
    assert page.locator("h1").inner_text().startswith("Standings")

    switch_language(page, lang)

    assert page.url == standings, "the switcher returns to the page it was used on"
    assert page.get_attribute("html", "lang") == lang
    text = page.locator("main").inner_text()
    missing = [w for w in STANDINGS_WORDS[lang] if w not in text]
    assert not missing, f"standings in {lang} lack {missing}"
    assert "Standings" not in page.locator("h1").inner_text()
    assert page.locator("#standings tbody tr").count() == len(demo_site.teams)


@pytest.mark.parametrize("lang", ["ja", "zh-hans"])
def test_switcher_translates_the_table_entry_page_on_a_phone(scorer_page, demo_site, lang):
    page = scorer_page
    table = demo_site.table_url
    assert "Enter a hand" in page.locator("main").inner_text()

    switch_language(page, lang)

    assert page.url == table
    text = page.locator("main").inner_text()
    missing = [w for w in TABLE_WORDS[lang] if w not in text]
    assert not missing, f"table entry page in {lang} lacks {missing}"
    assert page.get_by_role("table", name=TABLE_LABEL[lang]).count() == 1
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"table-entry-phone-{lang}.png"))
    assert "Enter a hand" not in text


def test_chosen_language_is_kept_on_the_next_pages(scorer_page, demo_site):
    page = scorer_page
    page.goto(demo_site.page(f"/e/{demo_site.slug}/standings/"))
    switch_language(page, "ja")

    page.goto(demo_site.table_url)

    assert page.get_attribute("html", "lang") == "ja"
    assert "局の結果を入力" in page.locator("main").inner_text()
    assert page.locator("#lang-select").input_value() == "ja"
    assert page.get_by_role("table", name=TABLE_LABEL["ja"]).locator("th").all_inner_texts() == ["東", "南", "西", "北"]


def test_switching_back_to_english_restores_english(new_page, demo_site):
    page = new_page()
    page.goto(demo_site.page(f"/e/{demo_site.slug}/standings/"))
    switch_language(page, "zh-hans")
    assert page.locator("h1").inner_text().startswith("排名")

    switch_language(page, "en")

    assert page.get_attribute("html", "lang") == "en"
    assert page.locator("h1").inner_text().startswith("Standings")


@pytest.mark.parametrize(("sheet_lang", "words"), [("ja", ["牌セット配置表", "配牌", "東家"]), ("zh-hans", ["牌组摆放表", "起手牌", "东家"])])
def test_director_prints_the_set_up_sheets_in_the_chosen_language(director_page, demo_site, sheet_lang, words):
    page = director_page
    page.goto(demo_site.page(f"/e/{demo_site.slug}/director/"))
    page.select_option("#kind-2", "setup")
    page.select_option("#sheet-lang-2", sheet_lang)
    with page.expect_navigation():
        page.click("#kind-2 ~ button[type=submit]:not([value])")
    link = page.locator("#jobs tbody tr").first.get_by_role("link")
    response = page.request.get(demo_site.page(link.get_attribute("href")))

    text = pypdfium2.PdfDocument(io.BytesIO(response.body()))[0].get_textpage().get_text_range()
    missing = [w for w in words if w not in text]
    assert not missing, f"set-up sheet in {sheet_lang} lacks {missing}"


SEATING_WORDS = {"ja": ["席順", "選手", "チーム", "卓", "席", "東家"], "zh-hans": ["座位", "选手", "团队", "桌", "东家"]}  # the pages' words


@pytest.mark.parametrize("sheet_lang", ["ja", "zh-hans"])
def test_the_seating_sheet_is_printed_in_the_chosen_language(director_page, demo_site, sheet_lang):
    page = director_page
    page.goto(demo_site.page(f"/e/{demo_site.slug}/seating/2/"))
    page.select_option("#sheet-lang", sheet_lang)
    with page.expect_navigation():
        page.click("button[value=seating]")
    page.goto(demo_site.page(f"/e/{demo_site.slug}/director/"))
    row = page.locator("#jobs tbody tr", has_text=f"Seating sheet, session 2 ({sheet_lang})").first
    response = page.request.get(demo_site.page(row.get_by_role("link").get_attribute("href")))

    text = pypdfium2.PdfDocument(io.BytesIO(response.body()))[0].get_textpage().get_text_range()
    missing = [w for w in SEATING_WORDS[sheet_lang] if w not in text]
    assert not missing, f"seating sheet in {sheet_lang} lacks {missing}"
    assert "Seating" not in text and "Player" not in text


def test_the_seating_page_names_seats_and_the_regrouping_in_japanese(new_page, demo_site):
    page = new_page()
    page.goto(demo_site.page(f"/e/{demo_site.slug}/seating/1/"))
    switch_language(page, "ja")
    heads = page.locator("main table").first.locator("thead th").all_inner_texts()
    assert heads[2:6] == ["東家", "南家", "西家", "北家"]
    assert "アフィン幾何 AG(2,4)" in page.locator("main").inner_text()
