"""Wall stickers that fit real tiles (docs/printing.md, "Row strips"; docs/staff-guide.md,
"Printing and sticking the strips"): the rendered strips measured with pypdfium2, their QR codes
decoded with zxing-cpp, and the label stocks checked against the event's tiles.

What a person at the table needs: every sticker lies inside the back of the tile it goes on; a
strip lies on a row of tiles side by side, so its stickers repeat at the tile's width; a seat's
strips are its rows (MCR duplicate: 13, 11, 10, seed 001); scanning a sticker opens its slot, and
its code names no tile."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pypdfium2.raw as pdfium_raw
import pytest
from pdfcheck import decode_qr, open_pdf, render_pages

from walls.print_kinds.base import PrintError
from walls.printing.data import sticker_set
from walls.printing.strips import render_sticker_strips, render_strip_calibration
from walls.printing.templates import PRESETS as STOCKS
from walls.printing.templates import TemplateError, get_template
from walls.printing.tilesize import TILE_SIZES, TileSize, check_stock, parse_tile_size, stock_problem
from walls.rulesets import PRESETS
from walls.setcode import SetId, parse_code, parse_slot_key
from walls.tiles import tile_name

MM = 72 / 25.4
BASE = "http://192.168.1.20:8000"
STROKE = 0.3  # mm: an outline's bounds include its line


def _stickers(code: str, event: str = "open"):
    return sticker_set(SetId(event, 1, 7), "Open 2026", PRESETS[code], BASE)


def _strips(code: str, tile: TileSize, stock: str = "a4-strips", lang: str = "en") -> bytes:
    return render_sticker_strips([_stickers(code)], PRESETS[code], tile, get_template(stock), lang=lang)


def _outlines(pdf: bytes, tile: TileSize) -> list[list[tuple[float, float, float, float]]]:
    """Per page, the sticker outlines (left, bottom, right, top in mm): the rectangles about the
    size of a sticker, read from the page's paths."""
    pages = []
    for page in open_pdf(pdf):
        found = []
        for obj in page.get_objects(max_depth=1):
            if obj.type != pdfium_raw.FPDF_PAGEOBJ_PATH:
                continue
            left, bottom, right, top = (v / MM for v in obj.get_bounds())
            if 10 < right - left < tile.width and 12 < top - bottom < tile.height:
                found.append((left, bottom, right, top))
        pages.append(found)
    return pages


def _strips_of(outlines: list[tuple[float, float, float, float]]) -> list[list[tuple[float, float, float, float]]]:
    """Outlines grouped into strips: same line (bottom within 0.5 mm), no gap wider than one
    pitch and a half between neighbours, left to right."""
    lines: dict[float, list] = {}
    for box in outlines:
        key = next((k for k in lines if abs(k - box[1]) < 0.5), box[1])
        lines.setdefault(key, []).append(box)
    strips = []
    for key in sorted(lines, reverse=True):
        boxes = sorted(lines[key])
        current = [boxes[0]]
        for box in boxes[1:]:
            if box[0] - current[-1][0] > 1.5 * (current[-1][2] - current[-1][0]) + 3:
                strips.append(current)
                current = []
            current.append(box)
        strips.append(current)
    return strips


_CELL = re.compile(r"(?:([ESWN]) )?([HDLX])(\d+) 1-07-\d")


def _cells(text, strip) -> list[tuple[str | None, str, int]]:
    """What each sticker of ``strip`` prints first, read inside its outline: (seat, slot prefix,
    number)."""
    out = []
    for left, bottom, right, top in strip:
        cell = " ".join(text.get_text_bounded(left=left * MM, bottom=bottom * MM, right=right * MM, top=top * MM).split())
        match = _CELL.match(cell)
        assert match, cell
        out.append((match[1], match[2], int(match[3])))
    return out


@pytest.mark.parametrize("size", list(TILE_SIZES))
def test_every_sticker_lies_within_the_back_of_its_tile_at_the_tile_pitch(size):
    tile = TILE_SIZES[size]
    pdf = _strips("mcr-duplicate", tile)
    strips = [s for page in _outlines(pdf, tile) for s in _strips_of(page)]
    stickers = [box for strip in strips for box in strip]
    assert len(stickers) == 136
    for left, bottom, right, top in stickers:  # the back less 1 mm on every side, measured
        assert right - left <= tile.width - 2 + STROKE and top - bottom <= tile.height - 2 + STROKE
    for strip in strips:
        lefts = [box[0] for box in strip]
        for a, b in zip(lefts, lefts[1:]):
            assert abs((b - a) - tile.width) <= 0.2, (size, a, b)


@pytest.mark.parametrize("size", ["wmo-25x34", "riichi-19x26"])
def test_an_mcr_seat_is_printed_as_its_rows_13_11_and_10(size):
    """Seed 001: per seat a strip for the 13 of the starting hand, one for the lower row of 11 and
    one for the upper row of 10; a row wider than the page is cut into parts that add up."""
    tile = TILE_SIZES[size]
    pdf = _strips("mcr-duplicate", tile)
    doc = open_pdf(pdf)
    by_seat: dict[str, list[list[str]]] = {}
    for index, page_boxes in enumerate(_outlines(pdf, tile)):
        text = doc[index].get_textpage()
        for strip in _strips_of(page_boxes):
            labels = [(seat, f"{prefix}{number}") for seat, prefix, number in _cells(text, strip)]
            assert all(seat for seat, _ in labels) and len({seat for seat, _ in labels}) == 1
            by_seat.setdefault(labels[0][0], []).append([label for _, label in labels])
    for seat, strips in by_seat.items():
        rows: list[list[str]] = []
        for strip in strips:  # parts of one row follow each other: join them
            if rows and strip[0][0] == rows[-1][-1][0] and _continues(rows[-1], strip):
                rows[-1].extend(strip)
            else:
                rows.append(list(strip))
        assert [len(r) for r in rows] == [13, 11, 10], (seat, rows)
        assert rows[0] == [f"H{n}" for n in range(1, 14)]
        # stacked rows: the upper row's tile k lies on the lower row's tile k, and the pile is drawn
        # upper before lower, stack by stack (D1 on D2, ..., D19 on D20, D21 alone at the end)
        assert [int(label[1:]) for label in rows[1]] == [2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 21]
        assert [int(label[1:]) for label in rows[2]] == [1, 3, 5, 7, 9, 11, 13, 15, 17, 19]


def _continues(row: list[str], strip: list[str]) -> bool:
    if row[0].startswith("H"):
        return len(row) < 13
    return False


@pytest.mark.parametrize("code", ["mcr-duplicate", "riichi", "riichi-duplicate", "souzu-2p", "shiragiku-3p",
                                  "shield-tile", "yangzhou", "mcr-flowers"])
def test_every_stickers_code_opens_its_own_slot_and_names_no_tile(code):
    ruleset = PRESETS[code]
    tile = TILE_SIZES["riichi-19x26"]  # the smallest backs: the smallest codes
    pdf = _strips(code, tile)
    found = [text for page in render_pages(pdf, scale=300 / 72) for text in decode_qr(page.image)]
    expected = {SetId("open", 1, 7).slot_url(BASE, s.pile.seat, s.label) for s in ruleset.slots()}
    assert len(found) == ruleset.tile_count and set(found) == expected
    names = {tile_name(t, lang) for t in {c for c, _ in ruleset.tiles} for lang in ("en", "ja", "zh")}
    for url in found:
        parts = urlsplit(url)
        assert f"{parts.scheme}://{parts.netloc}" == BASE
        _, w, event, set_code, where = parts.path.split("/")
        assert (w, event) == ("w", "open") and parse_code(event, set_code) == SetId("open", 1, 7)
        seat, label = parse_slot_key(where)
        assert re.fullmatch(r"[HDLX]\d+", label) and seat in (None, *ruleset.seats)
        assert not any(name in url for name in names)


@pytest.mark.parametrize("size", list(TILE_SIZES))
def test_codes_decode_on_every_tile_size(size):
    pdf = _strips("mcr-duplicate", TILE_SIZES[size])
    found = [text for page in render_pages(pdf, scale=300 / 72) for text in decode_qr(page.image)]
    assert len(set(found)) == 136


def test_a_dead_wall_sticker_says_which_tile_is_turned_and_never_what_it_is():
    pdf = _strips("riichi", TILE_SIZES["riichi-21x28"])
    text = " ".join(" ".join(page.get_textpage().get_text_range().split()) for page in open_pdf(pdf))
    assert re.search(r"X5 1-07-\d DORA", text)
    assert re.search(r"X1 1-07-\d R1", text) and re.search(r"X7 1-07-\d K1", text)
    assert "DORA dora indicator" in text  # the marks' legend at the sheet's foot


def test_a_stock_larger_than_the_tile_is_refused_naming_the_stock_the_tile_and_the_fix():
    tile = TILE_SIZES["wmo-25x34"]
    with pytest.raises(TemplateError) as refused:
        check_stock(get_template("a4-70"), tile)
    assert refused.value.field == "template"
    message = refused.value.message
    assert "a4-70" in message and "30 × 29.7 mm" in message and "25 × 34 mm" in message
    assert "row strips" in message and "tile size" in message
    assert stock_problem(get_template("a4-strips"), tile) == ""
    # a label that fits turned is accepted: 38.1 × 21.2 mm on a 40 × 45 mm back
    small = get_template("a4-65")
    assert stock_problem(small, TileSize("big", 40, 45)) == ""


@pytest.mark.parametrize("size", list(TILE_SIZES))
def test_every_grid_stock_is_checked_against_every_tile_size(size):
    tile = TILE_SIZES[size]
    area_w, area_h = tile.width - 2, tile.height - 2
    for name, stock in STOCKS.items():
        fits = stock.strips or any(w <= area_w + 0.05 and h <= area_h + 0.05
                                   for w, h in ((stock.label_width, stock.label_height),
                                                (stock.label_height, stock.label_width)))
        assert (stock_problem(stock, tile) == "") == fits, (name, size)


def test_typed_tile_sizes():
    assert parse_tile_size("24.5 x 33").text == "24.5 × 33 mm"
    assert parse_tile_size("24,5×33 mm").code == "24.5x33"
    assert parse_tile_size("wmo-26x36") is TILE_SIZES["wmo-26x36"]
    for bad in ("", "big", "5 x 30", "25 x 90"):
        with pytest.raises(TemplateError) as refused:
            parse_tile_size(bad)
        assert refused.value.field == "tile_size"


def test_the_calibration_strip_repeats_at_the_tile_pitch():
    tile = TILE_SIZES["wmo-26x36"]
    pdf = render_strip_calibration(tile, get_template("a4-strips"))
    boxes = sorted(_outlines(pdf, tile)[0])
    assert len(boxes) == 10  # 281 mm of page: ten 26 mm tiles
    for a, b in zip(boxes, boxes[1:]):
        assert abs((b[0] - a[0]) - 26) <= 0.2
    text = open_pdf(pdf)[0].get_textpage().get_text_range()
    assert "26 × 36 mm" in text and "pitch 26 mm" in text


# --- the print jobs: the event's tile size and stock -------------------------------------------------

@pytest.mark.django_db
def test_a_sticker_print_on_a_stock_larger_than_the_tiles_is_refused_when_asked(team_event):
    from walls.print_jobs import request_print
    from walls.models import PrintJob

    with pytest.raises(PrintError) as refused:
        request_print(team_event, "stickers", {"session": 1, "template": "a4-70"})
    assert refused.value.field == "template" and "a4-70" in refused.value.message
    with pytest.raises(PrintError):
        request_print(team_event, "session_zip", {"session": 1, "template": "a4-40"})
    assert not PrintJob.objects.filter(event=team_event, kind__in=["stickers", "session_zip"]).exists()
    job = request_print(team_event, "stickers", {"session": 1, "sets": [1]})  # the default: row strips
    assert job.params["template"] == "a4-strips"
    pdf = job.file.read()
    tile = TILE_SIZES["wmo-25x34"]  # the default for an MCR event
    assert sum(len(page) for page in _outlines(pdf, tile)) == 136 * team_event.sessions.get(number=1).groups.count()


@pytest.mark.django_db
def test_the_events_tile_size_sets_the_pitch(team_event):
    from tournament.event_setup import update_settings
    from walls.print_jobs import request_print

    update_settings(team_event, actor="director", tile_size="28 x 38")
    team_event.refresh_from_db()
    assert team_event.tile_size == "28x38"
    pdf = request_print(team_event, "stickers", {"session": 1, "sets": [2]}).file.read()
    tile = TileSize("typed", 28, 38)
    strips = [s for page in _outlines(pdf, tile) for s in _strips_of(page)]
    lefts = [[box[0] for box in strip] for strip in strips]
    assert all(abs((b - a) - 28) <= 0.2 for row in lefts for a, b in zip(row, row[1:]))


@pytest.mark.django_db
def test_settings_refuse_a_default_stock_larger_than_the_tiles(team_event):
    from tournament.event_setup import update_settings
    from tournament.seating import SetupError

    with pytest.raises(SetupError) as refused:
        update_settings(team_event, actor="director", default_label_stock="a4-70")
    assert refused.value.field == "default_label_stock" and "a4-70" in refused.value.message
    with pytest.raises(SetupError) as refused:
        update_settings(team_event, actor="director", tile_size="huge")
    assert refused.value.field == "tile_size"
    team_event.refresh_from_db()
    assert team_event.default_label_stock == "" and team_event.tile_size == ""
    update_settings(team_event, actor="director", tile_size="40 x 45", default_label_stock="a4-65")
    team_event.refresh_from_db()
    assert (team_event.tile_size, team_event.default_label_stock) == ("40x45", "a4-65")


@pytest.mark.parametrize("code", ["riichi-duplicate", "riichi", "souzu-2p", "shiragiku-3p", "shield-tile", "yangzhou"])
def test_every_presets_strips_are_its_rows_at_the_pitch(code):
    """Each preset's own rows: a hand as one row H1..Hn; a pile that is drawn from as stacks, its
    lower row the even slots (and an odd pile's last) and its upper row the odd ones; every slot
    of the set on exactly one strip; every strip at the tile's pitch."""
    ruleset = PRESETS[code]
    tile = TILE_SIZES["riichi-21x28"]
    pdf = _strips(code, tile)
    doc = open_pdf(pdf)
    printed = []
    for index, page_boxes in enumerate(_outlines(pdf, tile)):
        text = doc[index].get_textpage()
        for strip in _strips_of(page_boxes):
            lefts = [box[0] for box in strip]
            assert all(abs((b - a) - 21) <= 0.2 for a, b in zip(lefts, lefts[1:]))
            labels = _cells(text, strip)
            seat, prefix = labels[0][0], labels[0][1]
            numbers = [n for _, _, n in labels]
            assert all((s, p) == (seat, prefix) for s, p, _ in labels)
            steps = {b - a for a, b in zip(numbers, numbers[1:])}
            assert steps <= ({1} if prefix == "H" else {1, 2}), (code, labels)  # a hand in order; stacks by two
            if prefix != "H" and len(numbers) > 2:
                assert all(n % 2 == numbers[0] % 2 for n in numbers[:-1])  # one level of the stacks
            printed.extend(labels)
    def key(t):
        return (t[0] or "", t[1], t[2])

    expected = [(s.pile.seat, s.pile.slot_prefix, s.number) for s in ruleset.slots()]
    assert sorted(printed, key=key) == sorted(expected, key=key)


def test_set_codes_and_slots_that_cannot_be_read_are_refused():
    from walls.setcode import SetCodeError

    assert parse_code("open", "1-07r1-" + str(SetId("open", 1, 7, 1).check)) == SetId("open", 1, 7, 1)
    for bad in ("²-07-3", "1-07R-3", "1-07R0-3", "1-07", "1-0x-3", "", "1-07-4"):
        with pytest.raises(SetCodeError):
            parse_code("open", bad)
    for bad in ("E-", "-D1", "E-S-", "D²"):
        with pytest.raises(SetCodeError):
            parse_slot_key(bad)


@pytest.mark.django_db
def test_an_imported_tile_size_is_checked_and_a_bad_one_refused(team_event):
    from tournament.exchange import ExchangeError, export_event, restore_event

    data = export_event(team_event)
    team_event.delete()  # the copy comes back with the same uid
    data["event"]["tile_size"] = "bogus"
    with pytest.raises(ExchangeError, match="tile_size"):
        restore_event(data)
    data["event"]["tile_size"] = "26 x 36"
    restored = restore_event(data)
    event = getattr(restored, "event", restored)
    assert event.tile_size == "26x36"
