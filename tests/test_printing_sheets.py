"""Set-up sheets, pick lists, score sheets and movement sheets (walls/printing)."""

from __future__ import annotations

import re

import pytest
from pdfcheck import decode_qr, hand_made_set, ink, page_count, page_text, render_pages
from reportlab.lib.units import mm

from walls.printing import (
    MovementRow,
    PrintDataError,
    ScoreSheet,
    render_movement_sheet,
    render_pick_list,
    render_score_sheet,
    render_score_sheets,
    render_setup_sheets,
)
from walls.printing.data import set_units, sticker_set_of
from walls.printing.movement_sheets import compress_sets
from walls.printing.stickers import plan_sheets
from walls.rulesets import get_ruleset
from walls.setcode import SetId, parse_payload
from walls.tiles import tile_glyph, tile_name, tile_sort_key

MCR = get_ruleset("mcr-duplicate")


def _face_and_slot_pairs(text: str) -> list[tuple[str, str]]:
    """(code strip of the drawn tile face, slot label under it) in page order."""
    return re.findall(r"(?:^|\n)(\S+)\r\n([HDLX]\d+(?:/X\d+)?)(?=\r\n)", text)


# --- set-up sheets -------------------------------------------------------------------------------

def test_setup_sheet_shows_every_seat_tile_by_tile_in_slot_order():
    pset = hand_made_set(MCR, 7, seed=4)
    pdf = render_setup_sheets([pset], lang="ja")
    assert page_count(pdf) == 1  # an MCR set fits one A4 page
    text = page_text(pdf, 0)
    # per seat in laying order: the hand, then the draw pile's upper row (D1 D3 … D19) drawn over
    # its lower row (D2 D4 … D20 D21)
    order = {"hand": list(range(1, 14)), "draw": list(range(1, 20, 2)) + list(range(2, 21, 2)) + [21]}
    expected = [
        (tile_glyph(pset.piles[pile.name][n - 1]).rstrip("*"), f"{pile.slot_prefix}{n}")
        for pile in MCR.piles
        for n in order[pile.kind]
    ]
    assert _face_and_slot_pairs(text) == expected
    heads = re.findall(rf"{pset.set_id.code} · (\S+)\s+\(([ESWN])\)", text)
    assert heads == [("東家", "E"), ("南家", "S"), ("西家", "W"), ("北家", "N")]
    assert "終局条件: いずれかのツモヤマが尽きたら、各自あと1巡して終局" in text  # the preset's words, translated
    assert pset.commitment in text


@pytest.mark.parametrize("page_size", ["A4", "Letter"])
def test_setup_sheet_qr_code_reads_back_as_the_set(page_size):
    sets = [hand_made_set(MCR, n, seed=n, entry_url="https://mj.example.org/e/sanya" if n == 2 else None)
            for n in (1, 2)]
    pdf = render_setup_sheets(sets, page_size=page_size)
    assert page_count(pdf) == 2
    for page, pset in zip(render_pages(pdf), sets, strict=True):
        found = decode_qr(page.crop(page.width - 50 * mm, page.height - 50 * mm, 50 * mm, 50 * mm))
        assert found == [pset.label_payload]
        assert parse_payload(found[0]) == pset.set_id


def test_setup_sheet_tile_faces_are_drawn():
    pset = hand_made_set(MCR, 1, seed=9)
    page = render_pages(render_setup_sheets([pset]), scale=100 / 72)[0]
    # the East hand row sits under the title block; it must carry real ink (faces), not just labels
    row = page.crop(12 * mm + 20 * mm, page.height - 75 * mm, 150 * mm, 12 * mm)
    assert ink(row, threshold=200) > 0.08


def test_setup_sheet_of_a_shared_wall_draws_dead_wall_stacks():
    riichi = get_ruleset("riichi")
    pset = hand_made_set(riichi, 3, seed=2)
    pdf = render_setup_sheets([pset], lang="zh-hans")
    assert page_count(pdf) == 1
    text = page_text(pdf, 0)
    dead = pset.piles["dead"]
    stacks = [(face, slot) for face, slot in _face_and_slot_pairs(text) if slot.startswith("X")]
    # the upper row X1 X3 … X13 drawn over the lower row X2 X4 … X14, each tile over its label
    assert [slot for _, slot in stacks] == [f"X{n}" for n in range(1, 15, 2)] + [f"X{n}" for n in range(2, 15, 2)]
    assert all(face == tile_glyph(dead[int(slot[1:]) - 1]).rstrip("*") for face, slot in stacks)
    assert all(r in text for r in ("L1–L24", "L25–L48", "L49–L70", "X1–X14")) and "Live wall" not in text
    assert "公共" in text and "Shared" not in text


def test_setup_sheet_refuses_a_set_missing_a_pile():
    pset = hand_made_set(MCR)
    piles = {k: v for k, v in pset.piles.items() if k != "N-draw"}
    bad = type(pset)(pset.set_id, pset.event_name, MCR, piles)
    with pytest.raises(PrintDataError, match="pile 'N-draw' is missing"):
        render_setup_sheets([bad])


# --- pick list -----------------------------------------------------------------------------------

def test_pick_list_sorts_by_tile_then_set_seat_and_slot():
    sets = [hand_made_set(MCR, n, seed=n) for n in (2, 1)]
    pdf = render_pick_list(sets, lang="ja")
    text = "\n".join(page_text(pdf, i) for i in range(page_count(pdf)))
    seat_of = {"東": "E", "南": "S", "西": "W", "北": "N"}  # seats in the sheet's language
    entries = [(code, seat_of[seat], slot) for code, seat, slot in re.findall(r"(\d-\d\d-\d) ([東南西北]) ([HD]\d+)(?=\s|$)", text)]
    assert len(entries) == 2 * 136
    expected = []
    seat_order = {s: i for i, s in enumerate(MCR.seats)}
    for pset in sets:
        for unit in set_units(pset):
            for p in unit.placements:
                expected.append((tile_sort_key(p.tile), pset.set_id.set_no, seat_order[p.seat], p.index,
                                 (pset.set_id.code, p.seat, p.label)))
    assert entries == [e[-1] for e in sorted(expected)]
    headings = re.findall(r"\n(\S+) · (\w+)\r\n(\d+) か所 × 1 部 = (\d+) 枚", text)  # one copy of each set
    assert [h[:2] for h in headings][:3] == [(tile_name(t, "ja"), t) for t in ("1m", "2m", "3m")]
    assert all(h[2:] == ("8", "8") for h in headings) and len(headings) == 34
    assert "Characters" not in text and "copies" not in text


# --- score sheets --------------------------------------------------------------------------------

def _sheet(login="https://mj.example.org/e/sanya/entry/login/K7Q2-99XZ", table="3"):
    codes = [SetId("sanya-2015", 1, n).code for n in (9, 10, 11, 12, 13, 14, 15, 16, 1, 2, 3, 4, 5, 6, 7, 8)]
    return ScoreSheet("MIL Sanya 2015 Duplicate", 1, table, login,
                      [("E", "Zhang Wei"), ("S", "山田 太郎"), ("W", "Anna Schmidt"), ("N", "李娜")], codes,
                      ruleset_name="MCR duplicate")


def test_score_sheet_login_qr_reads_back_and_sets_are_in_play_order():
    sheet = _sheet()
    pdf = render_score_sheet(sheet, lang="ja")
    page = render_pages(pdf)[0]
    assert decode_qr(page.image) == [sheet.login]
    text = page_text(pdf, 0)
    positions = [text.index(code) for code in sheet.sets]
    assert positions == sorted(positions)
    for name in ("Zhang Wei", "山田 太郎", "Anna Schmidt", "李娜", "第 3 卓", "第 1 回戦"):
        assert name in text
    rows = re.findall(r"\n(\d+) (\d-\d\d-\d)(?=\r\n)", text)
    assert rows == [(str(i), code) for i, code in enumerate(sheet.sets, start=1)]


def test_score_sheet_names_the_room_and_the_rule_sets_unit():
    """A riichi table's sheet asks for the winner's han, an MCR table's for fan; the table's room
    is named beside it, so staff carrying sheets know where the table is."""
    riichi = ScoreSheet("Riichi Cup", 1, "3", "https://mj.example.org/e/r/entry/login/K7Q2", [("E", "A"), ("S", "B"),
                        ("W", "C"), ("N", "D")], ["1-01-6"], room="Room B", value_unit="han")
    text = page_text(render_score_sheet(riichi), 0)
    assert "Score sheet — Table 3 · Room B" in text
    assert "Winner / han" in text and "fan" not in text
    ja = page_text(render_score_sheet(riichi, lang="ja"), 0)
    assert "第 3 卓 · Room B" in ja and "和了者 / 翻" in ja
    assert "Winner / fan" in page_text(render_score_sheet(_sheet()), 0)


def test_score_sheets_put_one_table_per_page_and_print_a_bare_login_code():
    sheets = [_sheet(login=f"TBL-{n}", table=f"Table {n}") for n in (1, 2, 3)]
    pdf = render_score_sheets(sheets)
    assert page_count(pdf) == 3
    for i, page in enumerate(render_pages(pdf, scale=200 / 72)):
        assert decode_qr(page.image) == [f"TBL-{i + 1}"]
        assert f"TBL-{i + 1}" in page_text(pdf, i)


# --- movement sheets -----------------------------------------------------------------------------

def _rows():
    rows = []
    for table in range(1, 5):
        for slot in range(4):
            block = (table - 1 + slot) % 4
            rows.append({"slot": slot + 1, "table": table, "sets": list(range(block * 4 + 1, block * 4 + 5)),
                         "next_table": (table - 2) % 4 + 1 if slot < 3 else None})
    return rows


def test_movement_sheet_lists_sets_per_table_and_round_and_where_they_go():
    pdf = render_movement_sheet(_rows(), title="MIL Sanya 2015", session=1)
    text = page_text(pdf, 0)
    assert text.startswith("Movement — MIL Sanya 2015 — Session 1")
    assert "Round 1" in text and "Round 4" in text
    assert "Sets 1–4" in text and "Sets 13–16" in text
    table3 = text[text.index("Table 3 Sets"):text.index("Table 4 Sets")]
    assert re.findall(r"Sets (\d+–\d+)", table3) == ["9–12", "13–16", "1–4", "5–8"]
    assert table3.count("then to Table 2") == 3


def test_movement_sheet_accepts_movement_rows_and_set_codes():
    rows = [MovementRow(1, "Room A", ["1-01-6", "1-02-4"], "Room B"), MovementRow(2, "Room B", ["1-01-6"])]
    text = page_text(render_movement_sheet(rows), 0)
    assert "Sets 1-01-6, 1-02-4" in text and "Room A" in text and "then to Room B" in text


def test_movement_sheet_names_each_tables_room_and_the_next_one():
    rows = [{"slot": 1, "table": 1, "sets": [1, 2], "next_table": 2, "room": "Hall A", "next_room": "Hall B"},
            {"slot": 2, "table": 1, "sets": [3, 4], "room": "Hall A"},
            {"slot": 1, "table": 2, "sets": [3, 4], "next_table": 1, "room": "Hall B", "next_room": "Hall A"},
            {"slot": 2, "table": 2, "sets": [1, 2], "room": "Hall B"}]
    text = page_text(render_movement_sheet(rows, title="Cup", session=1), 0)
    table1 = text[text.index("Table 1\r\n"):text.index("Table 2\r\n")]
    table2 = text[text.index("Table 2\r\n"):]
    assert table1.startswith("Table 1\r\nHall A") and "then to Table 2 (Hall B)" in table1
    assert table2.startswith("Table 2\r\nHall B") and "then to Table 1 (Hall A)" in table2


def test_movement_rows_missing_keys_are_refused():
    with pytest.raises(PrintDataError, match="slot, table and sets"):
        render_movement_sheet([{"table": 1}])


def test_compress_sets_joins_runs():
    assert compress_sets([1, 2, 3, 4, 9, 11, 12]) == "1–4, 9, 11–12"
    assert compress_sets(["1-01-6"]) == "1-01-6"


# --- sheet planning ------------------------------------------------------------------------------

def test_sticker_blocks_never_split_when_they_fit_a_sheet():
    sets = [sticker_set_of(hand_made_set(MCR, n, seed=n)) for n in (1, 2)]
    blocks = [(s, u) for s in sets for u in s.units]
    assert [len(u.slots) for _, u in blocks] == [34] * 8
    sheets = plan_sheets(blocks, 40, 4, "row")  # a4-40: one seat (35 labels) per sheet
    assert len(sheets) == 8
    sheets = plan_sheets(blocks, 70, 7, "row")  # a4-70: two seats per sheet, exactly
    assert len(sheets) == 4 and all(cell is not None for sheet in sheets for cell in sheet)
    sheets = plan_sheets(blocks, 10, 2, "row")  # tiny sheets: blocks continue with a header
    assert len(sheets) == sum(-(-35 // 9) for _ in blocks)
