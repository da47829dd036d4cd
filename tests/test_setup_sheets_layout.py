"""Set-up sheets as staff read them (walls/printing/setup_sheets.py): each seat's rows in laying
order with the upper row drawn over the lower one, the dead wall's roles, the tile size, one page
per set for every preset on A4 and Letter, the STAFF ONLY band on every page of the set-up sheets
and the pick list, and the staff documents packed apart from the tables' ZIP."""

from __future__ import annotations

import dataclasses
import io
import re
import zipfile

import pypdfium2.raw as pdfium_c
import pytest
from django.urls import reverse
from pdfcheck import hand_made_set, ink, open_pdf, page_count, page_text, render_pages

from walls import print_kinds
from walls.print_jobs import document_name, request_print
from walls.printing import render_pick_list, render_setup_sheets
from walls.printing.setup_sheets import BAND_H, MARGIN, MIN_TILE_H, dead_wall_lines
from walls.rulesets import PRESETS, get_ruleset
from walls.rulesets.layout import dead_wall
from walls.tiles import tile_glyph

MCR = get_ruleset("mcr-duplicate")
STAFF_ONLY = "STAFF ONLY — shows every tile: never at a table"
SLOT = re.compile(r"[HDLX]\d+")


def _words(pdf: bytes, index: int = 0) -> list[tuple[str, float, float]]:
    """Every word pdfium reads on a page with the centre of its box: ``(text, x, y)`` in points,
    origin bottom-left, in content order."""
    text = open_pdf(pdf)[index].get_textpage()
    out: list[tuple[str, float, float]] = []
    word, boxes = "", []
    for i in range(text.count_chars()):
        ch = text.get_text_range(i, 1)
        if ch.strip():
            word += ch
            boxes.append(text.get_charbox(i))
            continue
        if word:
            out.append((word, (boxes[0][0] + boxes[-1][2]) / 2, (min(b[1] for b in boxes) + max(b[3] for b in boxes)) / 2))
        word, boxes = "", []
    if word:
        out.append((word, (boxes[0][0] + boxes[-1][2]) / 2, (min(b[1] for b in boxes) + max(b[3] for b in boxes)) / 2))
    return out


def _slots(pdf: bytes, index: int = 0) -> list[tuple[str, float, float]]:
    """The slot labels printed under the tiles, in content order, with their positions."""
    return [w for w in _words(pdf, index) if SLOT.fullmatch(w[0])]


def _seat_sections(words: list[tuple[str, float, float]], code: str) -> list[list[tuple[str, float, float]]]:
    """The slot labels of a page cut at each seat heading (``1-07-3``, then a seat)."""
    sections: list[list[tuple[str, float, float]]] = []
    for w in words:
        if w[0] == code:
            sections.append([])
        elif sections and SLOT.fullmatch(w[0]):
            sections[-1].append(w)
    return [s for s in sections if s]


# --- rows in laying order --------------------------------------------------------------------------

def test_each_mcr_seat_reads_hand_then_the_upper_row_over_the_lower_row():
    pset = hand_made_set(MCR, 7, seed=4)
    pdf = render_setup_sheets([pset])
    assert page_count(pdf) == 1
    sections = _seat_sections(_words(pdf), pset.set_id.code)
    assert len(sections) == 4
    hand = [f"H{n}" for n in range(1, 14)]
    upper = [f"D{n}" for n in range(1, 20, 2)]                 # D1 D3 … D19
    lower = [f"D{n}" for n in range(2, 21, 2)] + ["D21"]       # D2 D4 … D20 D21
    for section in sections:
        labels = [w[0] for w in section]
        assert labels == hand + upper + lower
        at = {w[0]: (w[1], w[2]) for w in section}
        for k in range(10):  # stack k: its upper tile right above its lower tile
            (ux, uy), (lx, ly) = at[upper[k]], at[lower[k]]
            assert abs(ux - lx) < 0.5 and uy > ly
        assert at["D21"][0] > at["D19"][0] + 5  # the 11th stack has no upper tile
        assert at["D1"][0] < at["D3"][0] < at["D19"][0]  # stack 1 at the left end
    text = page_text(pdf, 0)
    assert text.count("Draw pile, lower row") == 4 and text.count("Starting hand") == 4
    assert len(re.findall(r"Draw pile, upper row \(lift\s+onto the lower row\)", text)) == 4
    assert text.count("draw from here") == 4


def test_every_tile_sits_above_its_own_slot_label():
    pset = hand_made_set(get_ruleset("riichi-duplicate"), 2, seed=11)
    text = page_text(render_setup_sheets([pset]), 0)
    pairs = re.findall(r"(?:^|\n)(\S+)\r\n([HDX]\d+)(?=\r\n)", text)
    seen = []
    for seat_pairs in re.split(r"1-02-\d · ", text)[1:]:
        seat = seat_pairs[seat_pairs.index("(") + 1]
        for face, slot in re.findall(r"(?:^|\n)(\S+)\r\n([HDX]\d+)(?=\r\n)", seat_pairs):
            pile = {"H": "hand", "D": "draw", "X": "dead"}[slot[0]]
            tile = pset.piles[f"{seat}-{pile}"][int(slot[1:]) - 1]
            assert face == tile_glyph(tile).rstrip("*"), (seat, slot)
            seen.append((seat, slot))
    assert len(seen) == len(pairs) == 136


# --- the dead wall -----------------------------------------------------------------------------------

def test_riichi_prints_the_dead_wall_box_and_a_role_under_each_dead_tile():
    pset = hand_made_set(get_ruleset("riichi"), 3, seed=2)
    pdf = render_setup_sheets([pset])
    assert page_count(pdf) == 1
    text = page_text(pdf, 0)
    box = text[text.index("Dead wall"):text.index(f"{pset.set_id.code} · East")]
    assert "Dora indicator (DORA): X5" in box
    assert "Kong replacement tiles, in order (R1–R4): X1, X2, X3, X4" in box
    assert "Kan-dora indicators, in order (K1–K4): X7, X9, X11, X13" in box
    assert "Ura-dora: the tile under each indicator (ura): X6, X8, X10, X12, X14" in box
    marks = dict(re.findall(r"\r\n(X\d+)\r\n(R\d|DORA|K\d|ura)(?=\r\n)", text))
    assert marks == {"X1": "R1", "X2": "R2", "X3": "R3", "X4": "R4", "X5": "DORA", "X6": "ura", "X7": "K1",
                     "X8": "ura", "X9": "K2", "X10": "ura", "X11": "K3", "X12": "ura", "X13": "K4", "X14": "ura"}
    words = _words(pdf)
    slots: dict[str, tuple[float, float]] = {}
    for w in words[[w[0] for w in words].index("X1–X14"):]:  # the dead wall's tiles (the notes name slots too)
        if SLOT.fullmatch(w[0]):
            slots.setdefault(w[0], (w[1], w[2]))
    for n in range(1, 14, 2):  # X1 over X2, X3 over X4, …: the stacks of the dead wall
        assert abs(slots[f"X{n}"][0] - slots[f"X{n + 1}"][0]) < 0.5 and slots[f"X{n}"][1] > slots[f"X{n + 1}"][1]
    # the live wall in pairs of rows, each named with its slots
    assert all(r in text for r in ("L1–L24", "L25–L48", "L49–L70", "X1–X14"))


def test_riichi_duplicate_names_whose_dead_pile_holds_each_role():
    pset = hand_made_set(get_ruleset("riichi-duplicate"), 3, seed=5)
    text = page_text(render_setup_sheets([pset]), 0)
    assert "Dora indicator (DORA): South's dead pile X3" in text
    assert "Kong replacement tiles, in order (R1–R4): East X1, East X2, South X1, South X2" in text
    assert "Kan-dora indicators, in order (K1–K4): West X1, West X3, North X1, North X3" in text
    south = text[text.index(f"{pset.set_id.code} · South"):text.index(f"{pset.set_id.code} · West")]
    assert re.search(r"\r\nX3\r\nDORA\r\n", south) and re.search(r"\r\nX1\r\nR3\r\n", south)


@pytest.mark.parametrize("code", sorted(PRESETS))
def test_the_dead_wall_box_is_printed_exactly_for_the_rule_sets_with_a_dead_wall(code):
    ruleset = PRESETS[code]
    text = page_text(render_setup_sheets([hand_made_set(ruleset, 1, seed=1)]), 0)
    if dead_wall(ruleset) is None:
        assert dead_wall_lines(ruleset) == []
        assert "Dead wall" not in text and "Dora indicator" not in text and "DORA" not in text
    else:
        assert text.index("Dead wall") < text.index("· East")  # the box comes before the seats
        assert all(line in text for line in dead_wall_lines(ruleset))
        if ruleset.dora_indicator:
            assert f"DORA): {ruleset.dora_indicator}" in text or "dead pile" in text


def test_souzu_has_no_kan_dora_line():
    lines = dead_wall_lines(get_ruleset("souzu-2p"))
    assert lines[0] == "Dora indicator (DORA): X7"
    assert lines[1] == "Kong replacement tiles, in order (R1–R6): X1, X2, X3, X4, X5, X6"
    assert not any("Kan-dora" in line for line in lines)


# --- header, size, pages -----------------------------------------------------------------------------

def test_the_tile_size_is_printed_in_the_header_when_given():
    pset = hand_made_set(MCR, 1, seed=1)
    assert "Tile size" not in page_text(render_setup_sheets([pset]), 0)
    sized = dataclasses.replace(pset, tile_size="25 × 34 mm")
    text = page_text(render_setup_sheets([sized]), 0)
    assert "Tile size: 25 × 34 mm" in text
    assert text.index("Tile size") < text.index("· East")


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("page_size", ["A4", "Letter"])
def test_every_preset_fits_one_page_per_set(page_size, lang):
    sets = [hand_made_set(ruleset, n, seed=n, first_table="Group 4 · Table 12, Group 5 · Table 13")
            for n, ruleset in enumerate(PRESETS.values(), start=1)]
    sets = [dataclasses.replace(s, tile_size="25 × 34 mm") for s in sets]
    pdf = render_setup_sheets(sets, lang=lang, page_size=page_size)
    assert page_count(pdf) == len(sets)


def test_tiles_and_labels_stay_legible_when_shrunk():
    """The fullest sheet (riichi duplicate on Letter, in Japanese: the longest notes) keeps its
    tiles above the floor and its slot and role labels at 5 pt or more."""
    pdf = render_setup_sheets([hand_made_set(get_ruleset("riichi-duplicate"), 1, seed=3)], page_size="Letter", lang="ja")
    assert page_count(pdf) == 1
    text = open_pdf(pdf)[0].get_textpage()
    sizes = {}
    start = 0
    chars = [text.get_text_range(i, 1) for i in range(text.count_chars())]
    for i, ch in enumerate(chars + [" "]):
        if not ch.strip():
            word = "".join(chars[start:i])
            if SLOT.fullmatch(word) or re.fullmatch(r"[RK]\d|ドラ|裏", word):
                sizes[word] = min(sizes.get(word, 99), pdfium_c.FPDFText_GetFontSize(text.raw, start))
            start = i + 1
    assert len(sizes) > 40 and min(sizes.values()) >= 5, sizes
    # the tile pitch from two neighbouring hand labels: tiles at least MIN_TILE_H tall (faces are 3:4)
    h1, h2 = [w for w in _slots(pdf) if w[0] in ("H1", "H2")][:2]
    assert h2[1] - h1[1] >= MIN_TILE_H * 0.75


# --- staff only --------------------------------------------------------------------------------------

def _band_is_black(pdf: bytes) -> None:
    for page in render_pages(pdf, scale=72 / 72 * 2):
        band = page.crop(MARGIN + 2, page.height - MARGIN - BAND_H + 1, 30, BAND_H - 2)
        assert ink(band) > 0.9  # a black band (white letters only in the middle)


def test_every_page_of_the_set_up_sheets_and_the_pick_list_says_staff_only():
    sets = [hand_made_set(MCR, n, seed=n) for n in (1, 2, 3)]
    for pdf in (render_setup_sheets(sets), render_pick_list(sets)):
        assert page_count(pdf) >= 2
        for i in range(page_count(pdf)):
            assert page_text(pdf, i).startswith(STAFF_ONLY), i
        _band_is_black(pdf)


@pytest.mark.parametrize(("lang", "mark"), [("ja", "スタッフ専用"), ("zh-hans", "仅限工作人员")])
def test_the_staff_only_band_speaks_the_sheet_language(lang, mark):
    sets = [hand_made_set(get_ruleset("riichi-duplicate"), 1, seed=1)]
    for pdf in (render_setup_sheets(sets, lang=lang), render_pick_list(sets, lang=lang)):
        text = page_text(pdf, 0)
        assert text.startswith(mark) and "STAFF" not in text
    text = page_text(render_setup_sheets(sets, lang=lang), 0)
    assert "DORA" not in text and "Dead wall" not in text and "lower row" not in text


# --- staff documents apart from the tables' ---------------------------------------------------------

def test_the_staff_only_kinds():
    staff = {k.name for k in print_kinds.PRINT_KINDS.values() if k.staff_only}
    assert {"setup", "picklist", "reserve_setup", "staff_zip"} == staff
    assert not set(print_kinds.ZIP_KINDS) & staff
    assert set(print_kinds.STAFF_ZIP_KINDS) == {"setup", "picklist"}


@pytest.mark.django_db
def test_the_tables_zip_holds_no_tile_and_the_staff_zip_only_staff_files(client, team_event, director):
    tables = zipfile.ZipFile(request_print(team_event, "session_zip", {"session": 1}).file)
    names = tables.namelist()
    assert names and not [n for n in names if "Set-up" in n or "Pick list" in n or "STAFF" in n]
    for name in names:  # nothing in it shows the tiles' band either
        data = tables.read(name)
        assert all(STAFF_ONLY not in page_text(data, i) for i in range(min(2, page_count(data))))
    client.force_login(director)
    page = client.get(reverse("director", args=[team_event.slug])).content.decode()
    assert 'value="staff_zip"' in page
    client.post(reverse("print-request", args=[team_event.slug]), {"kind": "staff_zip", "session": 1})
    job = team_event.print_jobs.get(kind="staff_zip")
    assert job.status == "done" and (job.progress, job.total) == (2, 2)
    download = client.get(reverse("print-download", args=[team_event.slug, job.pk]))
    assert 'filename="STAFF ONLY - Staff documents, session 1.zip"' in download["Content-Disposition"]
    staff = zipfile.ZipFile(io.BytesIO(b"".join(download.streaming_content)))
    assert staff.namelist() == ["STAFF ONLY - Set-up sheets, session 1.pdf", "STAFF ONLY - Pick list, session 1.pdf"]
    setup = staff.read("STAFF ONLY - Set-up sheets, session 1.pdf")
    assert page_count(setup) == team_event.wall_sets.filter(session_number=1).count()  # one page per set
    for i in range(page_count(setup)):
        assert page_text(setup, i).startswith(STAFF_ONLY)
    assert f"Tile size: {team_event_tile(team_event)}" in page_text(setup, 0)
    assert document_name("setup", {"session": 2}) == "STAFF ONLY - Set-up sheets, session 2.pdf"


def team_event_tile(event) -> str:
    from walls.print_kinds.base import event_tile

    return event_tile(event).text
