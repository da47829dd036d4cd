"""Label templates, wall stickers, set labels and the calibration page (walls/printing)."""

from __future__ import annotations

import re

import pytest
from pdfcheck import (
    TextPages,
    decode_qr,
    difference,
    hand_made_set,
    ink,
    page_count,
    page_text,
    render_pages,
)
from reportlab.lib.units import mm

from walls.printing import (
    PRESETS,
    LabelTemplate,
    PrintableSet,
    PrintDataError,
    TemplateError,
    cjk_font_embedded,
    custom_template,
    get_template,
    render_calibration,
    render_set_labels,
    render_wall_stickers,
)
from walls.printing.data import sticker_set_of
from walls.printing.i18n import word
from walls.printing.stickers import sticker_layout
from walls.printing.templates import label_boxes
from walls.rulesets import get_ruleset
from walls.setcode import parse_payload
from walls.tiles import tile_glyph, tile_name

MCR = get_ruleset("mcr-duplicate")


@pytest.fixture(scope="module")
def mcr_set():
    return hand_made_set(MCR, 7, seed=11)


def stickers(pset, template=None, lang="en", **kwargs) -> bytes:
    """The wall stickers of one PrintableSet: its tiles are dropped before rendering."""
    return render_wall_stickers([sticker_set_of(pset)], template, lang=lang, **kwargs)


@pytest.fixture(scope="module")
def stickers_ja(mcr_set):
    return stickers(mcr_set, "a4-70", lang="ja")


def _expected_cells(pset):
    """What a4-70 in row mode holds: per seat a header then its 34 stickers, two seats a sheet;
    each cell is (slot label or "header", seat, pile kind, the tile lying there)."""
    cells = []
    for seat in MCR.seats:
        cells.append(("header", seat, None, None))
        for pile in MCR.piles:
            if pile.seat == seat:
                for n, tile in enumerate(pset.piles[pile.name], start=1):
                    cells.append((f"{pile.slot_prefix}{n}", seat, pile.kind, tile))
    return [cells[i:i + 70] for i in range(0, len(cells), 70)]


def _names_of(tile):
    """Every reading of a tile but its glyph: code and names in three languages."""
    return {tile, *(tile_name(tile, lang) for lang in ("en", "ja", "zh"))}


# --- templates -----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_places_all_labels_inside_the_page(name):
    t = PRESETS[name]
    boxes = label_boxes(t)
    page_w, page_h = t.page_points
    assert len(boxes) == t.rows * t.columns == t.per_sheet
    for x, y, w, h in boxes:
        assert -0.2 <= x and x + w <= page_w + 0.2
        assert -0.2 <= y and y + h <= page_h + 0.2
        assert w == pytest.approx(t.label_width * mm) and h == pytest.approx(t.label_height * mm)


def test_presets_include_common_a4_and_letter_sheets():
    assert get_template("a4-70").per_sheet == 70
    assert (get_template("a4-40").label_width, get_template("a4-40").label_height) == (52.5, 29.7)
    assert get_template("a4-65").per_sheet == 65
    assert get_template("letter-30").per_sheet == 30 and get_template("letter-30").page_size == "Letter"
    assert get_template("letter-80").per_sheet == 80


@pytest.mark.parametrize("changes, field", [
    ({"columns": 8}, "columns"),
    ({"rows": 11}, "rows"),
    ({"label_width": 31}, "label_width"),
    ({"label_height": 30}, "label_height"),
    ({"rows": 0}, "rows"),
    ({"margin_top": -1}, "margin_top"),
    ({"pitch_x": 0}, "pitch_x"),
    ({"page_size": "A5"}, "page_size"),
    ({"page_size": (100, -5)}, "page_size"),
    ({"name": ""}, "name"),
])
def test_template_validation_names_the_field(changes, field):
    values = dict(name="t", page_size="A4", rows=10, columns=7, margin_top=0, margin_left=0,
                  pitch_x=30, pitch_y=29.7, label_width=30, label_height=29.7)
    values.update(changes)
    with pytest.raises(TemplateError) as err:
        LabelTemplate(**values)
    assert err.value.field == field
    assert str(err.value).startswith(field)


def test_labels_running_off_the_page_say_where_they_end():
    with pytest.raises(TemplateError, match=r"last column ends at 240.0 mm but the page is 210.0 mm wide"):
        LabelTemplate("t", "A4", 10, 8, 0, 0, 30, 29.7, 30, 29.7)


def test_unknown_template_name_lists_the_presets():
    with pytest.raises(TemplateError, match="a4-70"):
        get_template("avery-9999")


def test_custom_template_centres_the_grid_by_default():
    t = custom_template("mine", "Letter", 10, 3, label_width=60, label_height=25)
    assert t.margin_left == pytest.approx(t.margin_right, abs=0.01)
    assert t.margin_top == pytest.approx(t.margin_bottom, abs=0.01)
    custom = custom_template("points", (500, 700), 2, 2, label_width=50, label_height=50, pitch_x=60)
    assert custom.page_points == (500, 700)


# --- calibration ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["a4-70", "a4-65", "letter-30"])
def test_calibration_outlines_every_label_at_its_place(name):
    t = get_template(name)
    pdf = render_calibration(t)
    assert page_count(pdf) == 1
    page = render_pages(pdf, scale=150 / 72)[0]
    assert (page.width, page.height) == pytest.approx(t.page_points, abs=0.5)
    text = page_text(pdf, 0)
    assert name in text and "100 mm" in text
    for x, y, w, h in label_boxes(t):
        # the outline's top and bottom edges and the centre cross
        assert ink(page.crop(x + w / 2 - 2, y + h - 2, 4, 4), threshold=230) > 0.1, (x, y)
        assert ink(page.crop(x + w * 0.7, y - 1, 4, 2), threshold=230) > 0.1, (x, y)
        assert ink(page.crop(x + w / 2 - 1, y + h / 2 - 1, 2, 2), threshold=230) > 0.1, (x, y)


# --- wall stickers -------------------------------------------------------------------------------

def test_stickers_of_an_mcr_set_fill_two_sheets_with_136_stickers_and_4_headers(stickers_ja, mcr_set):
    assert page_count(stickers_ja) == 2
    assert sum(len(sheet) for sheet in _expected_cells(mcr_set)) == 4 + 136


def test_sticker_text_is_seat_slot_set_and_pile_and_never_the_tile(stickers_ja, mcr_set):
    t = get_template("a4-70")
    boxes = label_boxes(t)
    texts = TextPages(stickers_ja)
    code = mcr_set.set_id.code
    for page, cells in enumerate(_expected_cells(mcr_set)):
        for (x, y, w, h), (label, seat, kind, tile) in zip(boxes, cells, strict=False):
            text = texts.box(page, x, y, w, h)
            if label == "header":
                assert code in text and seat in text.split()
                continue
            assert text.split() == [seat, label, code, word(kind, "ja")], (label, text)
            for name in _names_of(tile) | {tile_glyph(tile)} - {seat}:
                assert name not in text.split() and (len(name) < 2 or name not in text), (label, tile, name)


def test_sticker_page_text_lists_seats_and_slots_in_wall_order(stickers_ja, mcr_set):
    for page, cells in enumerate(_expected_cells(mcr_set)):
        text = page_text(stickers_ja, page)
        pos = 0
        for label, seat, kind, _ in cells:
            if label == "header":
                continue
            found = re.compile(rf"(^|\s){seat}\s+{label}\s+{mcr_set.set_id.code}\s+{word(kind, 'ja')}(\s|$)").search(text, pos)
            assert found, (page, seat, label)
            pos = found.end()


def test_every_sticker_qr_code_reads_back_as_its_set(stickers_ja, mcr_set):
    t = get_template("a4-70")
    boxes = label_boxes(t)
    for page_no, (page, cells) in enumerate(zip(render_pages(stickers_ja), _expected_cells(mcr_set), strict=True)):
        for (x, y, w, h), (label, *_) in zip(boxes, cells, strict=False):
            if label == "header":
                continue
            found = decode_qr(page.crop(x, y, w, h))
            assert found == [mcr_set.set_id.payload], (page_no, label, found)
            assert parse_payload(found[0]) == mcr_set.set_id


def test_sticker_qr_codes_also_read_from_the_whole_page(stickers_ja, mcr_set):
    assert b"/Subtype /Image" not in stickers_ja  # QR codes are vector drawings
    page = render_pages(stickers_ja, pages=[0])[0]
    found = decode_qr(page.image)
    assert found and set(found) == {mcr_set.set_id.payload}


def test_slot_and_seat_are_the_biggest_print_on_a_sticker():
    for name in ("a4-70", "a4-40", "a4-65", "letter-80", "letter-30"):
        box = label_boxes(get_template(name))[0]
        lay = sticker_layout(box[2], box[3], 1.834)  # "D21"
        assert lay.slot_size >= 19 and lay.seat_size >= 15, name  # at least 5 mm capitals
        assert lay.slot_size > 1.5 * lay.code[2] and lay.slot_size > 2.5 * lay.word[2], name
        x, y, w, h = lay.seat_box
        assert 0 < x and x + w < lay.slot_x and y + h <= box[3], name
        assert lay.slot_x + 1.834 * lay.slot_size <= box[2] - lay.pad + 0.01, name  # "D21" fits the label


def test_japanese_pile_words_and_seats_render_as_real_glyphs_not_boxes(stickers_ja, mcr_set):
    assert cjk_font_embedded(), "no CJK TrueType font: apt-get install fonts-droid-fallback (docs/printing.md)"
    assert b"FontFile2" in stickers_ja  # the CJK font is embedded, not left to the viewer
    t = get_template("a4-70")
    boxes = label_boxes(t)
    lay = sticker_layout(boxes[0][2], boxes[0][3], 1.834)
    wx, wy, ws, ww, _ = lay.word
    page = render_pages(stickers_ja, pages=[0])[0]
    cells = _expected_cells(mcr_set)[0]
    crops = {}
    for (x, y, _, _), (label, _, kind, _) in zip(boxes, cells, strict=False):
        if label != "header" and kind not in crops:
            crops[kind] = page.crop(x + wx, y + wy - 2, ww, ws + 3)
    assert set(crops) == {"hand", "draw"}
    for kind, crop in crops.items():
        assert 0.004 < ink(crop) < 0.5, kind  # glyph strokes: neither blank nor a solid box
    # box glyphs ("tofu") would look the same for 配牌 and ツモヤマ; real glyphs differ
    assert difference(crops["hand"], crops["draw"]) > 0.02


def test_chinese_stickers_use_chinese_pile_words_and_no_tile_name(mcr_set):
    pdf = stickers(mcr_set, "a4-40", lang="zh-hans")
    text = page_text(pdf, 0)
    assert text.count(word("hand", "zh-hans")) == 13 and "东家" in text and "East" not in text
    for tile in mcr_set.piles["E-hand"]:
        assert not _names_of(tile) & set(text.split())
        assert tile_name(tile, "zh") not in text.replace("东家", "")


def test_english_stickers_print_no_cjk_and_no_tile_but_all_slots(mcr_set):
    pdf = stickers(mcr_set, "letter-80", lang="en")
    text = "".join(page_text(pdf, i) for i in range(page_count(pdf)))
    for n in range(1, 22):
        assert re.search(rf"(^|\s)D{n}\s", text)
    assert text.count("Draw pile") == 4 * 21 and text.count("Starting hand") == 4 * 13
    assert not re.search(r"[\u3000-\u9fff]", text)
    for name in ("One of", "Two of", "Characters", "Dots", "Bamboo", "Dragon", "Wind"):
        assert name not in text


def test_a_set_with_tiles_is_refused_by_the_sticker_renderer(mcr_set):
    with pytest.raises(TypeError, match="sticker_set_of"):
        render_wall_stickers([mcr_set])


def test_page_break_mode_starts_every_seat_on_a_new_sheet(mcr_set):
    pdf = stickers(mcr_set, "a4-70", seat_break="page")
    assert page_count(pdf) == 4
    for page, seat in enumerate(MCR.seats):
        assert f"Set {mcr_set.set_id.code} {seat}" in page_text(pdf, page) or f"{mcr_set.set_id.code} {seat}" in page_text(pdf, page)


def test_sheet_heading_names_sets_seats_and_sheet_number(mcr_set):
    pdf = render_wall_stickers([sticker_set_of(mcr_set), sticker_set_of(hand_made_set(MCR, 8, seed=3))], "a4-65")
    first = page_text(pdf, 0)
    assert "Set 1-07-3 E" in first and "sheet 1/" in first


def test_shared_walls_get_their_own_block_with_live_and_dead_slots():
    riichi = get_ruleset("riichi")
    pset = hand_made_set(riichi, 2, seed=5)
    pdf = stickers(pset, "a4-70", lang="ja")
    text = "".join(page_text(pdf, i) for i in range(page_count(pdf)))
    assert word("shared", "ja") in text and "Shared" not in text
    for label in ("L1", "L70", "X1", "X14", "H13"):
        assert re.search(rf"(^|\s){label}(\s|$)", text), label


def test_a_pile_of_the_wrong_size_is_refused_naming_set_and_pile(mcr_set):
    piles = dict(mcr_set.piles)
    piles["S-draw"] = list(piles["S-draw"])[:-1]
    bad = PrintableSet(mcr_set.set_id, mcr_set.event_name, MCR, piles)
    with pytest.raises(PrintDataError, match=r"set 1-07-3: pile 'S-draw' has 20 tiles, the rule set says 21"):
        stickers(bad)


def test_labels_too_small_for_stickers_are_refused():
    tiny = custom_template("tiny", "A4", 20, 10, label_width=18, label_height=12)
    with pytest.raises(TemplateError, match="label_width"):
        stickers(hand_made_set(MCR), tiny)


def test_rendering_is_deterministic(mcr_set):
    assert stickers(mcr_set, "a4-40") == stickers(mcr_set, "a4-40")


def test_unknown_language_is_refused(mcr_set):
    with pytest.raises(ValueError, match="lang"):
        stickers(mcr_set, lang="fr")


# --- set labels ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def label_sets():
    return [
        hand_made_set(MCR, n, seed=n, entry_url="https://mj.example.org/e/sanya" if n % 2 else None,
                      first_table=f"Table {n % 4 + 1}")
        for n in range(1, 6)
    ]


@pytest.mark.parametrize("template", ["a4-21", "letter-10", "a4-24", "letter-30"])
def test_set_label_qr_codes_read_back_as_their_sets(template, label_sets):
    pdf = render_set_labels(label_sets, template)
    page = render_pages(pdf)[0]
    boxes = label_boxes(get_template(template))
    for (x, y, w, h), pset in zip(boxes, label_sets, strict=False):
        found = decode_qr(page.crop(x, y, w, h))
        assert found == [pset.label_payload], (template, pset.set_id.code, found)
        assert parse_payload(found[0]) == pset.set_id
        if pset.entry_url:
            assert found[0] == pset.set_id.url(pset.entry_url)
        else:
            assert found[0] == pset.set_id.payload


def test_set_label_text_shows_event_code_first_table_and_the_commitment_once(label_sets):
    pdf = render_set_labels(label_sets, "a4-21")
    boxes = label_boxes(get_template("a4-21"))
    texts = TextPages(pdf)
    for (x, y, w, h), pset in zip(boxes, label_sets, strict=False):
        text = texts.box(0, x, y, w, h)
        flat = re.sub(r"\s", "", text)
        assert pset.event_name in text
        assert pset.set_id.code in text
        assert f"Session {pset.set_id.session} · Set {pset.set_id.set_no}" in text
        assert pset.first_table in text
        assert "…" not in text  # no shortened copy beside the full one
        assert text.count("Seed commitment") == 1
        assert flat.count(pset.commitment) == 1, "the commitment is printed once, in full"
        assert len(flat.split("commitment:", 1)[1]) == len(pset.commitment)  # and nothing else after it


@pytest.mark.parametrize("template", ["a4-21", "a4-65", "letter-10"])
def test_set_labels_print_nothing_outside_their_labels(template, label_sets):
    t = get_template(template)
    pdf = render_set_labels(label_sets * 3, t)
    page = render_pages(pdf, scale=100 / 72)[0]
    mask = page.image.copy()
    for x, y, w, h in label_boxes(t):
        left, top = int(x * page.scale), int((page.height - y - h) * page.scale)
        mask.paste(255, (left - 1, top - 1, int((x + w) * page.scale) + 2, int((page.height - y) * page.scale) + 2))
    assert ink(mask, threshold=200) == 0


def test_set_labels_fill_a_second_sheet_when_needed(label_sets):
    pdf = render_set_labels(label_sets * 3, "letter-10")
    assert page_count(pdf) == 2
