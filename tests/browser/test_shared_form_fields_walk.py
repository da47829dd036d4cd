"""Two phones at two tables of the same event, one in English and one in Japanese, each open
their table page while the other does: the entry form's fields are set up once per language,
rule set, table's players and seat choice and then shared (``scoring.forms._FieldSets``), so
this walk looks at what each player sees — their own table's players under "Who is entering?",
in their own language — after the other phone's form was built, and enters a hand on the
Japanese phone with its players' PINs. Screenshots go to docs/screenshots/
(``table-shared-fields-<lang>.png``)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from factories import fill_discard_win, first_set, login_as_table_in_browser, say_who_is_entering
from tests.browser.conftest import PHONE, SCREENSHOTS
from tests.browser.test_i18n import switch_language
from tests.browser.test_visibility_walk import in_own_thread

pytestmark = [pytest.mark.browser, pytest.mark.django_db]

SEAT_WORDS = {"en": ["E", "S", "W", "N"], "ja": ["東", "南", "西", "北"]}


def _two_tables(slug):
    """Two session-2 tables with no result yet: their ids, login codes, players (seat → name, PIN)
    and first set."""
    from scoring.models import HandResult
    from tournament.models import Table

    out = []
    for table in Table.objects.filter(group__session__event__slug=slug, group__session__number=2).order_by("number"):
        if HandResult.objects.filter(table=table).exists():
            continue
        players = {a.seat: (a.player.name, a.player.pin) for a in table.seats.select_related("player")}
        out.append((table.pk, table.login_code, players, first_set(table)))
        if len(out) == 2:
            return out
    raise AssertionError("the demo event has no two session-2 tables without results")


def _options(page) -> list[str]:
    return [t.strip() for t in page.locator("#entered_by_seat option").all_inner_texts()]


def test_two_tables_in_two_languages_each_see_their_own_players_in_their_own_words(new_page, demo_site):
    (first_id, first_code, first_players, _first_set), (second_id, second_code, second_players, second_set) = \
        in_own_thread(_two_tables, demo_site.slug)
    phones = {}
    for lang, code, table_id in (("en", first_code, first_id), ("ja", second_code, second_id)):
        page = new_page(viewport=PHONE)
        login_as_table_in_browser(page, demo_site.page(f"/e/{demo_site.slug}/entry/login/{code}"))
        assert page.url == demo_site.page(f"/e/{demo_site.slug}/table/{table_id}/")
        if lang != "en":
            switch_language(page, lang)
        phones[lang] = page
    phones["en"].reload()  # built again after the Japanese form: still English, still table 1's players

    for lang, players in (("en", first_players), ("ja", second_players)):
        options = _options(phones[lang])
        assert len(options) == 5, options
        for seat_word, seat in zip(SEAT_WORDS[lang], "ESWN", strict=True):
            name = players[seat][0]
            assert any(o.startswith(seat_word) and o.endswith(name) for o in options), (lang, seat, options)
        others = second_players if lang == "en" else first_players
        assert not any(o.endswith(others[s][0]) for o in options for s in "ESWN"), (lang, options)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        phones[lang].screenshot(path=str(SCREENSHOTS / f"table-shared-fields-{lang}.png"), full_page=True)
    assert "choose your seat" in _options(phones["en"])[0]
    assert "choose your seat" not in _options(phones["ja"])[0]

    page = phones["ja"]  # the Japanese phone enters a hand: East wins on South's discard, North confirms
    fill_discard_win(page, second_set, "E", "S", 8)
    say_who_is_entering(page, "E", second_players["E"][1])
    with page.expect_navigation():
        page.get_by_role("button", name="保存").click()
    expect(page.locator("#pending form")).to_have_count(1)
    card = page.locator("#pending form").first
    card.locator("input[name=pin]").fill(second_players["N"][1])
    with page.expect_navigation():
        card.get_by_role("button", name="確認").click()
    expect(page.locator("#pending form")).to_have_count(0)
    page.screenshot(path=str(SCREENSHOTS / "table-shared-fields-ja-confirmed.png"), full_page=True)
