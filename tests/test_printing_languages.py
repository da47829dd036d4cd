"""Every PDF follows the sheet language the director chose: in Japanese and Chinese the headings,
column heads, fixed labels and seats are the msgids of walls/printing/i18n.py translated by the
site's own catalogues (locale/), with no English beside them (a Japanese seating sheet used to read
"Seating / Player / Team" under a Japanese event name), and a paper says what the pages say. Text
is extracted with pypdfium2 (tests/pdfcheck.py)."""

from __future__ import annotations

import re

import pytest
from django.utils import translation
from pdfcheck import hand_made_set, page_count, page_text

from walls.printing import (
    ScoreSheet,
    render_movement_sheet,
    render_pick_list,
    render_score_sheets,
    render_seating_sheet,
    render_set_labels,
    render_setup_sheets,
    render_wall_stickers,
)
from walls.printing.data import sticker_set_of
from walls.printing.i18n import (
    NUMBERED,
    WORDS,
    group_table,
    numbered,
    seat_label,
    seat_name,
    table_label,
    translate,
    translate_notes,
    word,
)
from walls.rulesets import get_ruleset
from walls.setcode import SetId

MCR = get_ruleset("mcr-duplicate")
EVENT = "Sanya 2015"  # no word of the printing vocabulary in it


def _set():
    return hand_made_set(MCR, 7, seed=4, event_name=EVENT, first_table="")


def _seating(lang):
    rows = [{"player": "Zhang Wei", "team": "Beijing", "table": 3, "room": "A", "seat": "S"},
            {"player": "Anna Schmidt", "team": "Basel", "table": 1, "room": "B", "seat": "E"}]
    return render_seating_sheet(rows, title=EVENT, session=2, lang=lang)


def _movement(lang):
    rows = [{"slot": slot + 1, "table": table, "sets": [4 * ((table + slot) % 2) + n for n in range(1, 5)],
             "next_table": 3 - table if slot == 0 else None} for table in (1, 2) for slot in range(2)]
    return render_movement_sheet(rows, title=EVENT, session=2, lang=lang)


def _score_sheets(lang):
    codes = [SetId("sanya-2015", 2, n).code for n in range(1, 5)]
    sheet = ScoreSheet(EVENT, 2, "3", "TBL-3", [("E", "Zhang Wei"), ("S", "Yamada"), ("W", "Anna"), ("N", "Li Na")],
                       codes)
    return render_score_sheets([sheet], lang)


def _setup(lang):
    return render_setup_sheets([_set()], lang=lang)


def _pick_list(lang):
    return render_pick_list([_set()], lang=lang)


def _labels(lang):
    return render_set_labels([_set()], lang=lang)


def _stickers(lang):
    return render_wall_stickers([sticker_set_of(_set())], "a4-65", lang=lang)  # margins wide enough for the heading


# kind -> (renderer, the English headings and labels it prints in English, the keys of
# walls/printing/i18n.py whose words it prints in the sheet language; "#key": a numbered word)
KINDS = {
    "seating": (_seating, ["Seating", "Player", "Team", "Table", "Room", "Seat", "Session", "South", "East"],
                ["seating", "player", "team", "table", "room", "seat", "#session"]),
    "movement": (_movement, ["Movement", "Round", "Sets", "then to", "Table", "Session"],
                 ["movement", "#slot", "#sets", "next", "table", "#table", "#session"]),
    "score sheets": (_score_sheets, ["Score sheet", "Scan to enter results", "Players", "Session", "Hand", "Code",
                                     "Set code checked", "Total", "Winner", "Initials", "signatures", "East", "North"],
                     ["score_sheet", "scan_login", "players", "#session", "hand_no", "code", "result_check", "total",
                      "winner", "initials", "sign"]),
    "set-up sheets": (_setup, ["Set-up sheet", "Session", "Rule set", "Hand ends", "Seed commitment", "Starting hand",
                               "Draw pile", "Laid", "Checked", "Stickers on"],
                      ["setup", "#session", "#set", "ruleset", "end_rule", "commitment", "hand", "draw", "laid",
                       "checked", "stuck"]),
    "pick list": (_pick_list, ["Pick list", "Sets", "copies", "One of Characters", "East Wind", "page"],
                  ["pick_list", "#sets", "copies", "#page"]),
    "set labels": (_labels, ["Session", "Set", "Seed commitment"], ["#session", "#set", "commitment"]),
    "wall stickers": (_stickers, ["Wall stickers", "Session", "Set", "stickers", "Starting hand", "Draw pile", "East",
                                  "sheet"],
                      ["stickers", "#session", "#set", "stickers_for", "hand", "draw", "#sheet"]),
}


def _fixed(key: str, lang: str) -> list[str]:
    """The fixed text of a key in ``lang``: its word, or a numbered word's parts around its number
    (ja ``"第 %(n)s 回戦"`` → ``["第", "回戦"]``)."""
    if not key.startswith("#"):
        return [word(key, lang)]
    return [part.strip() for part in re.split(r"%\(\w+\)s", translate(NUMBERED[key[1:]], lang)) if part.strip()]


def _text(pdf: bytes) -> str:
    """The document's text with every run of whitespace made one space (pdfium breaks lines
    where the font changes between Latin and CJK runs)."""
    return " ".join(" ".join(page_text(pdf, i) for i in range(page_count(pdf))).split())


def _has(phrase: str, text: str) -> bool:
    """``phrase`` in ``text`` as whole words when it is Latin, anywhere when it is CJK."""
    if phrase.isascii():
        return re.search(rf"(?<![A-Za-z]){re.escape(phrase)}(?![A-Za-z])", text) is not None
    return phrase in text


@pytest.mark.parametrize("lang", ["ja", "zh-hans"])
@pytest.mark.parametrize("kind", KINDS)
def test_headings_are_in_the_sheet_language_and_english_is_gone(kind, lang):
    render, english, keys = KINDS[kind]
    text = _text(render(lang))
    assert [phrase for phrase in english if _has(phrase, text)] == []
    assert [part for key in keys for part in _fixed(key, lang) if not _has(part, text)] == []


@pytest.mark.parametrize("kind", KINDS)
def test_english_sheets_keep_their_english_headings(kind):
    render, _english, keys = KINDS[kind]
    text = _text(render("en"))
    assert [part for key in keys for part in _fixed(key, "en") if not _has(part, text)] == []
    if kind not in ("set-up sheets", "pick list"):  # tile faces carry their Han glyphs in every language
        assert not re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", text)  # no kana, no Han


@pytest.mark.parametrize("lang", ["ja", "zh-hans"])
def test_seats_are_named_in_the_sheet_language(lang):
    seating = _text(_seating(lang))
    assert seat_name("S", lang) in seating and seat_name("E", lang) in seating
    score = _text(_score_sheets(lang))
    for seat in "ESWN":
        assert seat_name(seat, lang) in score  # players and signatures
    heads = re.search(r"(\S+) Zhang Wei (\S+) Yamada (\S+) Anna (\S+) Li Na", score.split(word("result_check", lang), 1)[1])
    assert heads and heads.groups() == tuple(seat_label(s, lang) for s in "ESWN")  # the grid's column heads
    picks = _text(_pick_list(lang))
    assert len(re.findall(rf"\d-\d\d-\d [{''.join(seat_label(s, lang) for s in 'ESWN')}] [HD]\d+", picks)) == 136


def test_stickers_keep_the_seat_letter_in_the_box_in_every_language():
    """A lone 東 on the back of a tile would also read as the East Wind tile: the box keeps the
    letter, the header label names the seat in words."""
    text = _text(_stickers("ja"))
    assert len(re.findall(r"(?<!\S)E H\d+ ", text)) == 13
    assert "東家" in text and not re.search(r"(?<!\S)東(?!家)", text)


def test_numbers_sit_where_each_language_puts_them():
    assert numbered("session", 2, "en") == "Session 2"
    assert numbered("session", 2, "ja") == "第 2 回戦"
    assert table_label(3, "zh-hans") == "3 号桌" and table_label("3", "ja") == "第 3 卓"
    assert table_label("Room A", "ja") == "Room A"
    assert group_table(2, 6, "en") == "Group 2 · Table 6"
    assert group_table(2, 6, "ja") == "第 2 組 · 第 6 卓"
    assert numbered("session", 2, "zh") == numbered("session", 2, "zh-hans") == "第 2 轮"  # "zh": earlier versions


@pytest.mark.parametrize("lang", ["ja", "zh-hans"])
def test_every_printed_word_is_in_the_sites_catalogues(lang):
    untranslated = [m for m in [*WORDS.values(), *NUMBERED.values()] if translate(m, lang) == m]
    assert untranslated == ["PIN"]


@pytest.mark.parametrize("lang", ["ja", "zh-hans"])
def test_paper_and_pages_say_the_same_word(lang):
    """One msgid, one word: "Seating" is 席順 on the site and on paper (it was 座席表 on paper)."""
    with translation.override(lang):
        for key in ("seating", "room_seating", "stickers", "team", "room", "ruleset", "player_cards"):
            assert word(key, lang) == translation.gettext(WORDS[key]), key
        assert numbered("slot", 3, lang) == translation.gettext("Round %(slot)s") % {"slot": 3}
    assert word("seating", "ja") == "席順"


def test_a_japanese_set_up_sheet_prints_its_rules_line_in_japanese():
    """The rule set's name, how a hand ends and its notes (the footnote) are msgids of the
    catalogues too."""
    text = _text(_setup("ja"))
    assert "ルール: MCR デュプリケート（MIL、各席のツモヤマ）" in text
    assert "終局条件: いずれかのツモヤマが尽きたら、各自あと1巡して終局" in text
    assert MCR.name not in text and MCR.end_rule not in text
    assert "各席に34枚" in text and "Each seat gets" not in text  # the footnote: the rule set's notes
    chinese = _text(_setup("zh-hans"))
    assert "规则: 国标复式（MIL，各座位独立摸牌墙）" in chinese and "终局条件: 任一摸牌墙摸完后" in chinese


@pytest.mark.parametrize("lang", ["ja", "zh-hans"])
def test_every_presets_notes_are_translated_whole(lang):
    from walls.rulesets import PRESETS

    for code, ruleset in PRESETS.items():
        notes = translate_notes(ruleset.notes, lang)
        assert not re.search(r"[A-Za-z]{5,}", notes), (code, notes[:80])  # codes such as 5m or X11 stay
    assert translate_notes("Lay it my way. One each of 5m 5p 5s is red.", "ja") == "Lay it my way. 5m・5p・5sが1枚ずつ赤。"
