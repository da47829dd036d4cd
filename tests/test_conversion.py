"""Conversion tables: presets, conversion, CSV/JSON round trips, validation errors by row."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.conversion import MCR_MP, PRESETS, WBF_IMP, ConversionTable, ConversionTableError, Step, get_table

from oracles import convert_by_range

# The WBF IMP table as published (bridge scores are multiples of 10).
PUBLISHED_IMP = [
    (0, 10, 0), (20, 40, 1), (50, 80, 2), (90, 120, 3), (130, 160, 4), (170, 210, 5), (220, 260, 6),
    (270, 310, 7), (320, 360, 8), (370, 420, 9), (430, 490, 10), (500, 590, 11), (600, 740, 12),
    (750, 890, 13), (900, 1090, 14), (1100, 1290, 15), (1300, 1490, 16), (1500, 1740, 17),
    (1750, 1990, 18), (2000, 2240, 19), (2250, 2490, 20), (2500, 2990, 21), (3000, 3490, 22),
    (3500, 3990, 23), (4000, 7600, 24),
]


@st.composite
def tables(draw):
    """Any valid table: starts at 0 with 0 points, strictly rising thresholds, non-decreasing points."""
    n = draw(st.integers(1, 12))
    starts, points = [0], [0]
    for _ in range(n - 1):
        starts.append(starts[-1] + draw(st.integers(1, 500)))
        points.append(points[-1] + draw(st.integers(0, 5)))
    return ConversionTable("random", tuple(Step(s, p) for s, p in zip(starts, points)))


def test_wbf_imp_matches_every_published_bridge_score():
    for low, high, imps in PUBLISHED_IMP:
        for score in range(low, high + 1, 10):
            assert WBF_IMP.convert(score) == imps
            assert WBF_IMP.convert(-score) == -imps


def test_wbf_imp_integer_ranges_have_no_gaps():
    rows = WBF_IMP.rows()
    assert rows[0] == {"from": 0, "to": 19, "points": 0}
    assert rows[1] == {"from": 20, "to": 49, "points": 1}
    assert rows[-1] == {"from": 4000, "to": None, "points": 24}
    assert all(a["to"] + 1 == b["from"] for a, b in zip(rows, rows[1:]))


def test_wbf_imp_worked_examples_from_bridge_tutorials():
    # 250 points -> 6 IMPs; 280 -> 7; 480 -> 10 (cross-IMP example).
    assert [WBF_IMP.convert(d) for d in (250, 280, 480, 30, -250)] == [6, 7, 10, 1, -6]


def test_mcr_mp_steps_fall_on_mcr_payment_values():
    convert = MCR_MP.convert
    assert convert(7) == 0  # less than one base payment
    assert convert(8) == 1
    assert convert(16) == 2  # deal-in of an 8-fan hand
    assert convert(32) == 4  # discard win of an 8-fan hand
    assert convert(48) == 6  # self-draw of an 8-fan hand
    assert convert(3 * (8 + 88)) == 12  # self-draw of 88 fan
    assert convert(3 * (8 + 88 + 1 + 4)) == MCR_MP.max_points == 13
    assert convert(10_000) == 13
    assert convert(-40) == -5


def test_fractional_difference_is_not_rounded_up_to_a_step():
    assert WBF_IMP.convert(19.5) == 0
    assert WBF_IMP.convert(-20.0) == -1
    assert MCR_MP.convert(15.99) == 1


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), "12", None, True])
def test_convert_rejects_what_is_not_a_finite_number(bad):
    with pytest.raises(ValueError, match="finite number"):
        WBF_IMP.convert(bad)


@given(tables(), st.floats(-5000, 5000, allow_nan=False))
def test_convert_is_odd_and_agrees_with_the_rows(table, difference):
    assert table.convert(-difference) == -table.convert(difference)
    assert table.convert(difference) == convert_by_range(table.rows(), difference)


@given(tables(), st.integers(0, 5000), st.integers(0, 5000))
def test_convert_is_monotone_in_the_absolute_difference(table, a, b):
    small, large = sorted((a, b))
    assert table.convert(small) <= table.convert(large)
    assert table.convert(-small) >= table.convert(-large)


@pytest.mark.parametrize("code", sorted(PRESETS))
def test_presets_are_valid_and_have_a_source(code):
    table = get_table(code)
    table.validate()
    assert table.source
    assert ConversionTable.from_rows(table.rows(), name=table.name).steps == table.steps


def test_unknown_preset_code_lists_the_codes():
    with pytest.raises(ConversionTableError, match="wbf-imp, mcr-mp") as exc:
        get_table("imp")
    assert exc.value.field == "code"


@given(tables())
def test_csv_round_trip(table):
    text = table.to_csv()
    assert text.splitlines()[0] == "from,to,points"
    back = ConversionTable.from_csv(text, name="random")
    assert back.steps == table.steps


@given(tables())
def test_json_round_trip(table):
    data = json.loads(json.dumps(table.to_dict()))
    assert ConversionTable.from_dict(data) == table


def test_csv_from_a_spreadsheet_with_bom_spaces_and_blank_lines():
    text = "\ufeffFrom, To ,Points\n0,7,0\n\n 8 ,15, 1\n16,,2\n"
    table = ConversionTable.from_csv(text, name="sheet")
    assert table.steps == (Step(0, 0), Step(8, 1), Step(16, 2))


def error(rows):
    with pytest.raises(ConversionTableError) as exc:
        ConversionTable.from_rows(rows, name="t")
    return exc.value


def r(start, end, points):
    return {"from": start, "to": end, "points": points}


def test_gap_between_rows_is_named_with_the_missing_range_and_fix():
    e = error([r(0, 7, 0), r(8, 15, 1), r(20, None, 2)])
    assert (e.row, e.field) == (3, "from")
    assert "row 3" in str(e) and "16-19 are not covered" in str(e) and "set 'from' to 16" in str(e)


def test_overlap_between_rows_is_named():
    e = error([r(0, 7, 0), r(8, 15, 1), r(12, None, 2)])
    assert (e.row, e.field) == (3, "from")
    assert "row 3" in str(e) and "already covers up to 15" in str(e)


def test_first_row_must_start_at_zero():
    e = error([r(5, 9, 0), r(10, None, 1)])
    assert (e.row, e.field) == (1, "from")
    assert "row 1" in str(e) and "set it to 0" in str(e)


def test_first_row_must_give_zero_points():
    e = error([r(0, 9, 1), r(10, None, 2)])
    assert (e.row, e.field) == (1, "points")


def test_decreasing_points_are_named():
    e = error([r(0, 7, 0), r(8, 15, 3), r(16, None, 2)])
    assert (e.row, e.field) == (3, "points")
    assert "row 3" in str(e) and "must not decrease" in str(e)


@pytest.mark.parametrize("value", ["19.5", "abc", 19.5, "", None])
def test_non_integer_cell_is_named(value):
    e = error([r(0, 7, 0), {"from": 8, "to": 15, "points": value}, r(16, None, 2)])
    assert (e.row, e.field) == (2, "points")
    assert "row 2" in str(e)


def test_negative_value_is_named():
    e = error([r(0, 7, 0), r(8, 15, -1), r(16, None, 2)])
    assert (e.row, e.field) == (2, "points")
    assert "must not be negative" in str(e)


def test_to_below_from_is_named():
    e = error([r(0, 7, 0), r(8, 4, 1), r(16, None, 2)])
    assert (e.row, e.field) == (2, "to")


def test_open_row_before_the_last_is_named():
    e = error([r(0, None, 0), r(8, None, 1)])
    assert (e.row, e.field) == (1, "to")
    assert "only the last row is open-ended" in str(e)


def test_closed_last_row_is_named():
    e = error([r(0, 7, 0), r(8, 15, 1)])
    assert (e.row, e.field) == (2, "to")
    assert "add a row from 16" in str(e)


def test_missing_cell_and_empty_table():
    e = error([r(0, 7, 0), {"from": 8, "points": 1}])
    assert (e.row, e.field) == (2, "to")
    e = error([])
    assert (e.row, e.field) == (None, "rows")


def test_csv_errors_give_the_row_and_the_csv_line():
    with pytest.raises(ConversionTableError) as exc:
        ConversionTable.from_csv("from,to,points\n0,7,0\n\n8,15,1\n20,,2\n", name="t")
    assert exc.value.row == 3
    assert "row 3 (CSV line 5)" in str(exc.value)


def test_csv_header_and_cell_count_are_checked():
    with pytest.raises(ConversionTableError) as exc:
        ConversionTable.from_csv("min,max,imp\n0,,0\n", name="t")
    assert exc.value.field == "header"
    with pytest.raises(ConversionTableError) as exc:
        ConversionTable.from_csv("from,to,points\n0,7\n", name="t")
    assert (exc.value.row, exc.value.field) == (1, "row")
    with pytest.raises(ConversionTableError, match="empty"):
        ConversionTable.from_csv("\n", name="t")


def test_steps_built_directly_are_validated_by_row():
    with pytest.raises(ConversionTableError) as exc:
        ConversionTable("t", (Step(0, 0), Step(20, 1), Step(20, 2)))
    assert (exc.value.row, exc.value.field) == (3, "from")
    with pytest.raises(ConversionTableError) as exc:
        ConversionTable("t", (Step(0, 0), Step(20, 2), Step(30, 1)))
    assert (exc.value.row, exc.value.field) == (3, "points")
    with pytest.raises(ConversionTableError) as exc:
        ConversionTable("t", (Step(0, 0), Step(20.0, 1)))
    assert (exc.value.row, exc.value.field) == (2, "from")
    with pytest.raises(ConversionTableError) as exc:
        ConversionTable("t", (Step(0, 0),), version=0)
    assert exc.value.field == "version"


def test_from_dict_names_missing_rows():
    with pytest.raises(ConversionTableError) as exc:
        ConversionTable.from_dict({"name": "t"})
    assert exc.value.field == "rows"
