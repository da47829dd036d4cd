"""The federation results file (docs/scoring.md, "The federation results file"): the pure writer
and reader of scoring/federation.py, and the download /e/<slug>/results/federation.csv built from
the public standings."""

from __future__ import annotations

import csv
import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.federation import COLUMNS, FORMULA_STARTS, FederationFileError, ResultRow, read_results, write_results

# Text as names come: any printable character (commas, quotes, CJK, apostrophes, leading '=' or
# '+'), line breaks too; no surrogates (not UTF-8) and no NUL.
_TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=30)
_SPICY = st.sampled_from(["=1+2", "+81 Tanaka", "-Lee", "@SUM(A1)", "'quoted", "''", "Müller, Jan", 'Ann "Ace" Bo',
                          "山田 太郎", "王小明", "\tTab", "\rCR", "line\nbreak", ""])
_NAMES = st.one_of(_TEXT, _SPICY, st.builds(lambda a, b: a + b, _SPICY, _TEXT))
_COUNTRY = st.one_of(st.just(""), st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=3, max_size=3))
_ROWS = st.lists(st.builds(ResultRow, place=st.integers(1, 10_000), name=_NAMES, country=_COUNTRY,
                           score=st.integers(-10**6, 10**6), sets=st.integers(0, 10_000), team=_NAMES, venue=_NAMES),
                 max_size=12)


@given(_ROWS)
def test_write_then_read_gives_the_same_rows(rows):
    text = write_results(rows)
    assert read_results(text) == rows
    assert read_results(text.encode("utf-8").decode("utf-8-sig")) == rows
    assert read_results("\ufeff" + text) == rows  # as a spreadsheet saves "CSV UTF-8"


@given(_ROWS)
def test_no_text_cell_reads_as_a_formula(rows):
    records = list(csv.reader(io.StringIO(write_results(rows), newline="")))
    assert tuple(records[0]) == COLUMNS
    for record in records[1:]:
        for column, cell in zip(COLUMNS, record, strict=True):
            if column in ("name", "team", "venue"):
                assert not cell.startswith(FORMULA_STARTS)


def test_the_formula_starts_are_the_standings_csvs():
    from scoring.reports.spreadsheets import FORMULA_STARTS as STANDINGS

    assert FORMULA_STARTS == STANDINGS


def test_the_file_as_documented():
    rows = [ResultRow(1, "=Yamada, Taro", "JPN", 42, 16, "Team 'A'", "Osaka"), ResultRow(2, "王小明", "", -7, 16)]
    assert write_results(rows) == ("place,name,country,score,sets,team,venue\r\n"
                                   "1,\"'=Yamada, Taro\",JPN,42,16,Team 'A',Osaka\r\n"
                                   "2,王小明,,-7,16,,\r\n")


HEADER = ",".join(COLUMNS) + "\n"


@pytest.mark.parametrize(("text", "line", "column", "fix"), [
    ("", 1, "place", "header"),
    ("place,name,country,score,sets,team\n", 1, "venue", "header"),
    ("place,player,country,score,sets,team,venue\n", 1, "name", "header"),
    (HEADER + "1,Ann,JPN,3,4,,\nx,Bo,JPN,3,4,,\n", 3, "place", "whole number"),
    (HEADER + "0,Ann,JPN,3,4,,\n", 2, "place", "1 or more"),
    (HEADER + "1,Ann,JPN,3.5,4,,\n", 2, "score", "whole number"),
    (HEADER + "1,Ann,JPN,3,-1,,\n", 2, "sets", "0 or more"),
    (HEADER + "1,Ann,Japan,3,4,,\n", 2, "country", "three capital letters"),
    (HEADER + "1,Ann,jpn,3,4,,\n", 2, "country", "three capital letters"),
    (HEADER + "1,Ann,JPN,3\n", 2, "sets", "one cell per column"),
    (HEADER + '1,"Ann\nBo",JPN,3,4,,\n1,Cy,JPN,3,4,,,extra\n', 4, "venue", "one cell per column"),
])
def test_a_bad_file_is_refused_naming_the_line_the_column_and_the_fix(text, line, column, fix):
    with pytest.raises(FederationFileError) as raised:
        read_results(text)
    assert raised.value.field == "federation"
    assert f"line {line}" in raised.value.message
    assert f"'{column}'" in raised.value.message
    assert fix in raised.value.message


def test_an_empty_line_is_skipped():
    assert read_results(HEADER + "\n1,Ann,JPN,3,4,,\n\n") == [ResultRow(1, "Ann", "JPN", 3, 4)]
