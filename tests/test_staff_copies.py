"""The staff's papers count physical copies, read as the staff read them (docs/printing.md, "Set-up
sheets and the pick list"): a session lays each wall set as several copies, one per group sharing
the walls (``first_tables``), so the pick list must ask for every copy's tiles and the set-up sheet
must have boxes to tick for every copy it is laid as.

The demo's 16 sets laid as 4 copies each need 8,704 tiles, not the 2,176 of one copy per set."""

from __future__ import annotations

import dataclasses
import io
import re
import zipfile

import pypdfium2.raw as pdfium_c
import pytest
from pdfcheck import form_names, hand_made_set, open_pdf, page_count, page_text, tile_face_form_names

from tournament.movement import ruleset_movement
from walls.print_jobs import request_print
from walls.print_kinds.walls import first_tables, printable_sets
from walls.printing import render_pick_list, render_setup_sheets
from walls.printing.setup_sheets import COPY_BOX, COPY_BOX_TIGHT, PICK_BOX, PICK_BOX_MIN
from walls.rulesets import PRESETS, get_ruleset

MCR = get_ruleset("mcr-duplicate")
LINE = re.compile(r"(\d-\d\d-\d) ([ESWN]) ([HDLX]\d+)")
BOX_LINE = 0.6
"""The boxes' line width in points."""
HEADING = re.compile(r"([\d,]+) places × ([\d,]+) copies = ([\d,]+) tiles")
TOTAL = re.compile(r"([\d,]+) sets, ([\d,]+) copies, ([\d,]+) tiles per copy: ([\d,]+) tiles in all")


def _n(text: str) -> int:
    return int(text.replace(",", ""))


def _text(pdf: bytes) -> str:
    """Every page's text, whitespace run together (a wrapped line reads as one)."""
    return re.sub(r"\s+", " ", " ".join(page_text(pdf, i) for i in range(page_count(pdf))))


def _squares(pdf: bytes, index: int, low: float, high: float) -> list[tuple[float, float, float]]:
    """The boxes to tick drawn on a page (squares outside the tile faces), side between ``low``
    and ``high`` points: ``(left, bottom, side)``."""
    page = open_pdf(pdf)[index]
    out = []
    for obj in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_PATH], max_depth=0):
        left, bottom, right, top = obj.get_bounds()  # the outer edge of the 0.6 pt stroke, pdfium's way
        w, h = right - left - 2 * BOX_LINE, top - bottom - 2 * BOX_LINE
        if abs(w - h) < 0.3 and low - 0.3 <= w <= high + 0.3:
            out.append((left + BOX_LINE, bottom + BOX_LINE, w))
    return out


@pytest.fixture
def copies_of(staggered_event):
    """The staggered event's copies per set in session 1 (its movement's), with the event."""
    session = staggered_event.sessions.get(number=1)
    movement = ruleset_movement(staggered_event.get_ruleset(), n_groups=session.groups.count(), stagger=True)
    return staggered_event, movement.copies


# --- the sets carry their copies ---------------------------------------------------------------------

def test_printable_sets_name_every_copy_in_copy_order(copies_of):
    event, copies = copies_of
    first = first_tables(event, 1)
    sets = printable_sets(event, 1)
    assert [p.set_id.set_no for p in sets] == sorted(first)
    for pset in sets:
        assert pset.copies == tuple(first[pset.set_id.set_no]) and pset.copy_count == copies > 1
        assert pset.first_table == ", ".join(first[pset.set_id.set_no])
    per_copy = printable_sets(event, 1, per_copy=True)
    assert [p.copies for p in per_copy] == [(name,) for n in sorted(first) for name in first[n]]
    assert hand_made_set(MCR, 1).copy_count == 1 and hand_made_set(MCR, 1).copy_names == ("",)


# --- (a) the pick list -------------------------------------------------------------------------------

def test_the_pick_list_asks_for_every_copys_tiles(copies_of):
    event, copies = copies_of
    pdf = request_print(event, "picklist", {"session": 1}).file.read()
    text = _text(pdf)
    sets = event.wall_sets.filter(session_number=1).count()
    total = TOTAL.findall(text)
    assert len(total) == 2  # the first page's title line, and the end of the document
    assert text.rstrip().endswith("tiles in all")
    assert re.search(rf"Pick list — Stagger Cup — {TOTAL.pattern} — page 1", page_text(pdf, 0))
    assert re.search(rf"Total: {TOTAL.pattern}$", text.rstrip())
    n_sets, n_copies, per_copy, tiles = (_n(t) for t in total[-1])
    assert (n_sets, n_copies, per_copy) == (sets, sets * copies, 136)
    assert tiles == n_copies * 136 == sets * copies * 136
    headings = [tuple(_n(v) for v in h) for h in HEADING.findall(text)]
    assert len(headings) == 34  # one per kind of tile
    assert all(c == copies and p * c == t for p, c, t in headings)
    assert sum(t for _, _, t in headings) == tiles
    assert sum(p for p, _, _ in headings) == len(LINE.findall(text)) == sets * 136
    # the legend: every set's copies by the table that plays each first
    first = first_tables(event, 1)
    legend = page_text(pdf, 0)
    for pset in printable_sets(event, 1):
        names = ", ".join(f"Copy {k}: {name}" for k, name in enumerate(first[pset.set_id.set_no], 1))
        assert f"{pset.set_id.code}: {names}" in re.sub(r"\s+", " ", legend)


def test_every_line_of_the_pick_list_has_one_box_per_copy(copies_of):
    event, copies = copies_of
    pdf = request_print(event, "picklist", {"session": 1}).file.read()
    for index in (0, page_count(pdf) - 1):
        lines = LINE.findall(page_text(pdf, index))
        rows: dict[tuple[int, int], int] = {}
        for left, bottom, _side in _squares(pdf, index, PICK_BOX_MIN, PICK_BOX):
            rows[(int(left // 100), round(bottom))] = rows.get((int(left // 100), round(bottom)), 0) + 1
        assert lines and len(rows) == len(lines), index  # a row of boxes for every line
        assert set(rows.values()) == {copies}, index


@pytest.mark.parametrize("copies", [1, 4, 8])
def test_pick_list_boxes_follow_the_copies_of_hand_made_sets(copies):
    names = tuple(f"Group {g} · Table {g * 4}" for g in range(1, copies + 1)) if copies > 1 else ()
    sets = [dataclasses.replace(hand_made_set(MCR, n, seed=n), copies=names) for n in (1, 2)]
    pdf = render_pick_list(sets)
    text = _text(pdf)
    assert TOTAL.findall(text)[-1] == ("2", str(2 * copies), "136", f"{2 * copies * 136:,}")
    squares = _squares(pdf, 0, PICK_BOX_MIN, PICK_BOX)
    assert len(squares) == len(LINE.findall(page_text(pdf, 0))) * copies
    if copies == 1:
        assert "1-01-6: Copy 1 " in text


# --- (b) the set-up sheets ---------------------------------------------------------------------------

def test_each_set_up_sheet_has_a_row_of_boxes_per_copy_named_for_its_first_table(copies_of):
    event, copies = copies_of
    pdf = request_print(event, "setup", {"session": 1}).file.read()
    first = first_tables(event, 1)
    assert page_count(pdf) == len(first)  # still one page per set
    for index in range(page_count(pdf)):
        text = page_text(pdf, index)
        set_no = int(re.search(r"Session 1 · Set (\d+)", text).group(1))
        assert _copy_rows(text) == first[set_no], index
        assert len(_squares(pdf, index, COPY_BOX_TIGHT, COPY_BOX)) == 3 * copies


def _copy_rows(text: str) -> list[str]:
    """The names of the footer's rows of boxes, in the order printed: each row reads ``<name>
    Laid Checked Stickers on``."""
    return re.findall(r"(?:^|\n)((?:Group \d+ · Table \d+)|Copy \d+)\s+Laid\s+Checked\s+Stickers on", text)


def _footer_clear_of_tiles(pdf: bytes, index: int) -> None:
    """The footer's boxes sit under the lowest slot label of the tiles."""
    text = open_pdf(pdf)[index].get_textpage()
    lowest = min(text.get_charbox(i)[1] for i in range(text.count_chars())
                 if re.fullmatch(r"[HDLX]", text.get_text_range(i, 1))
                 and re.fullmatch(r"\d", text.get_text_range(i + 1, 1) or " "))
    boxes = _squares(pdf, index, COPY_BOX_TIGHT, COPY_BOX)
    assert boxes and max(b + side for _, b, side in boxes) < lowest


@pytest.mark.parametrize("copies", [4, 8])
@pytest.mark.parametrize("page_size", ["A4", "Letter"])
def test_four_and_eight_copies_still_fit_every_preset_on_one_page(copies, page_size):
    names = tuple(f"Group {g} · Table {g * 4 - 3}" for g in range(1, copies + 1))
    sets = [dataclasses.replace(hand_made_set(ruleset, n, seed=n), copies=names, tile_size="25 × 34 mm",
                                first_table=", ".join(names))
            for n, ruleset in enumerate(PRESETS.values(), start=1)]
    for lang in ("en", "ja"):
        pdf = render_setup_sheets(sets, lang=lang, page_size=page_size)
        assert page_count(pdf) == len(sets)
        for index in range(len(sets)):
            _footer_clear_of_tiles(pdf, index)
            assert len(_squares(pdf, index, COPY_BOX_TIGHT, COPY_BOX)) == 3 * copies


def test_an_unnamed_copy_is_copy_1():
    pdf = render_setup_sheets([hand_made_set(MCR, 3, seed=3)])
    assert _copy_rows(page_text(pdf, 0)) == ["Copy 1"]
    assert len(_squares(pdf, 0, COPY_BOX_TIGHT, COPY_BOX)) == 3
    assert "第 1 部" in page_text(render_setup_sheets([hand_made_set(MCR, 3, seed=3)], lang="ja"), 0)


# --- (c) nothing of it in the tables' papers ---------------------------------------------------------

def test_no_count_of_tiles_leaks_into_the_tables_papers(copies_of):
    event, _copies = copies_of
    faces = set(tile_face_form_names().values())
    tables = zipfile.ZipFile(io.BytesIO(request_print(event, "session_zip", {"session": 1}).file.read()))
    assert tables.namelist()
    for name in tables.namelist():
        data = tables.read(name)
        text = _text(data)
        for staff_word in ("STAFF ONLY", "places ×", "tiles in all", "tiles per copy", "Laid", "Stickers on"):
            assert staff_word not in text, (name, staff_word)
        assert not form_names(data) & faces, name
