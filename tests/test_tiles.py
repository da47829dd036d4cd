"""Tile codes, canonical order and names (walls/tiles.py)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from walls.tiles import (
    ALL_TILES,
    LANGUAGES,
    PINK_TILES,
    TileError,
    collapse,
    expand,
    is_valid_tile,
    parse_counts,
    plain_tile,
    tile_glyph,
    tile_name,
    tile_sort_key,
)


def test_all_tiles_canonical_order():
    assert len(ALL_TILES) == 9 * 3 + 3 + 6 + 7 + 8 == 51
    assert ALL_TILES[:8] == ("1m", "2m", "3m", "3mp", "4m", "5m", "0m", "6m")
    assert ALL_TILES.index("1p") == 12 and ALL_TILES.index("1z") == 36 and ALL_TILES[-1] == "8f"
    assert [tile_sort_key(code) for code in ALL_TILES] == list(range(51))


@pytest.mark.parametrize("code", ["", "10m", "5M", "8z", "9f", "0z", "0f", "m1", None, 5])
def test_invalid_codes_are_refused(code):
    assert not is_valid_tile(code)
    with pytest.raises(TileError, match="unknown tile code"):
        tile_sort_key(code)


@pytest.mark.parametrize(
    "code, en, ja, zh",
    [
        ("0m", "Five of Characters (red)", "赤五萬", "红五万"),
        ("1m", "One of Characters", "一萬", "一万"),
        ("9p", "Nine of Dots", "九筒", "九饼"),
        ("0s", "Five of Bamboo (red)", "赤五索", "红五条"),
        ("1z", "East Wind", "東", "东"),
        ("4z", "North Wind", "北", "北"),
        ("6z", "Green Dragon", "發", "发"),
        ("7z", "Red Dragon", "中", "中"),
        ("1f", "Plum", "梅", "梅"),
        ("8f", "Winter", "冬", "冬"),
    ],
)
def test_tile_names(code, en, ja, zh):
    assert (tile_name(code), tile_name(code, "ja"), tile_name(code, "zh")) == (en, ja, zh)


def test_every_tile_has_distinct_names_in_every_language():
    for lang in LANGUAGES:
        names = [tile_name(code, lang) for code in ALL_TILES]
        assert len(set(names)) == len(ALL_TILES), lang


def test_unknown_language_is_refused():
    with pytest.raises(TileError, match="en, ja, zh"):
        tile_name("1m", "fr")


def test_glyphs_are_short_unique_ascii():
    glyphs = [tile_glyph(code) for code in ALL_TILES]
    assert len(set(glyphs)) == 51
    assert all(g.isascii() and 1 <= len(g) <= 3 for g in glyphs)
    assert (tile_glyph("0m"), tile_glyph("5m"), tile_glyph("5z"), tile_glyph("3f")) == ("5m*", "5m", "Wh", "F3")


def test_plain_tile():
    assert [plain_tile(c) for c in ("0m", "0p", "0s", "5p", "1z")] == ["5m", "5p", "5s", "5p", "1z"]


def test_expand_sorts_canonically():
    assert expand([("1z", 2), ("0p", 1), ("5p", 1), ("1m", 1)]) == ["1m", "5p", "0p", "1z", "1z"]


@pytest.mark.parametrize(
    "counts, message",
    [
        ([("1m", 1), ("1m", 2)], "listed twice"),
        ([("1m", 0)], "positive integer"),
        ([("1m", True)], "positive integer"),
        ([("1m", 1.0)], "positive integer"),
        ([("xx", 1)], "unknown tile code"),
        (["1m"], "pairs"),
    ],
)
def test_expand_refuses_bad_counts(counts, message):
    with pytest.raises(TileError, match=message):
        expand(counts)


@given(st.lists(st.sampled_from(ALL_TILES), max_size=60))
def test_collapse_is_the_inverse_of_expand(tiles):
    assert expand(collapse(tiles)) == sorted(tiles, key=tile_sort_key)


def test_pink_threes_and_sevens():
    """docs/rules.md, "Shield tile: pink dora": a pink 3 or 7 stands in for its plain tile, sorts
    right after it, and is named and printed as pink."""
    assert PINK_TILES == ("3mp", "7mp", "3pp", "7pp", "3sp", "7sp")
    assert [plain_tile(code) for code in PINK_TILES] == ["3m", "7m", "3p", "7p", "3s", "7s"]
    assert tile_sort_key("3s") + 1 == tile_sort_key("3sp") == tile_sort_key("4s") - 1
    assert (tile_name("3sp"), tile_name("7mp", "ja"), tile_name("3pp", "zh")) == ("Three of Bamboo (pink)", "桃七萬", "粉三饼")
    assert tile_glyph("7pp") == "7p+"
    assert parse_counts("3sp:1, 3s:3") == (("3s", 3), ("3sp", 1))
    with pytest.raises(TileError, match="range"):
        parse_counts("3mp-7mp:1")


def test_a_page_labels_honours_in_the_reader_s_script():
    """Issue 48: the winning-tile picker read "E S W N Wh Gr Rd" on Japanese and Chinese pages."""
    from walls.tiles import tile_label

    honours = [f"{n}z" for n in range(1, 8)]
    assert [tile_label(c, "en") for c in honours] == ["E", "S", "W", "N", "Wh", "Gr", "Rd"]
    assert "".join(tile_label(c, "ja") for c in honours) == "東南西北白發中"
    assert "".join(tile_label(c, "zh-hans") for c in honours) == "东南西北白发中"
    assert [tile_label(c, "ja") for c in ("8m", "0p", "3sp")] == ["8m", "5p*", "3s+"]  # suited tiles keep their code
