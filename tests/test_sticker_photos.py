"""Wall stickers on event day (docs/printing.md, "Sticker codes" and "Row strips"): every tile-size
preset on A4 and on Letter, with a public https address of 60 characters, measured from the
rendered PDF as staff and a phone meet it.

- A phone reads a code at close range when its modules are 0.4 mm or more: measured from the
  code as zxing-cpp finds it in a 300 dpi render (its corners and its version).
- Every code is read from a simulated phone photo of its sticker, made here from the render:
  Gaussian blur of σ 1 px at 300 dpi, the camera tilted 15° (perspective) and turned 15°, uneven
  light (a shadow across the sticker down to 45 %), saved as JPEG at quality 60.
- The only cut lines on a sheet are the stickers' outlines, each the back of the tile less 1 mm
  (capped at the strip height), and a sheet carries a 100 mm scale bar, 100 ± 0.2 mm long.
- A sheet holds whole seats of one copy of one set, as docs/printing.md's table says.
"""

from __future__ import annotations

import ctypes
import io
import math
import re
from functools import cache, lru_cache
from pathlib import Path

import pypdfium2.raw as pdfium_raw
import pytest
import zxingcpp
from PIL import Image, ImageChops, ImageFilter
from pdfcheck import open_pdf, render_pages

from walls.printing.data import sticker_set
from walls.printing.strips import MAX_STICKER_HEIGHT, MIN_MODULE, SCALE_BAR, strip_sheets
from walls.printing.templates import get_template
from walls.printing.tilesize import TILE_SIZES
from walls.rulesets import PRESETS
from walls.setcode import SetId

ADDRESS = "https://tournaments.mahjong-europe.org/open-championship-202"
assert len(ADDRESS) == 60
DPI = 300
PX_PER_MM = DPI / 25.4
MM = 72 / 25.4
STOCKS = ("a4-strips", "letter-strips")
RULESET = "mcr-duplicate"
COPY = "Group 2 · Table 6"


def _set():
    return sticker_set(SetId("open-2026", 1, 7), "Open 2026", PRESETS[RULESET], ADDRESS, "4821", COPY)


@cache
def _pdf(size: str, stock: str, copies: int = 1) -> bytes:
    from walls.printing.strips import render_sticker_strips

    sets = [sticker_set(SetId("open-2026", 1, 7), "Open 2026", PRESETS[RULESET], ADDRESS, "4821", f"Group {c} · Table 6")
            for c in range(1, copies + 1)]
    return render_sticker_strips(sets, PRESETS[RULESET], TILE_SIZES[size], get_template(stock))


@lru_cache(maxsize=2)  # a few 300 dpi pages at a time
def _pages(size: str, stock: str):
    return render_pages(_pdf(size, stock), scale=DPI / 72)


def _expected() -> set[str]:
    sset = _set()
    return {sset.slot_payload(s) for unit in sset.units for s in unit.slots}


def _paths(pdf: bytes):
    """Per page, ``(stroked, filled, left, bottom, right, top)`` of every path (mm; the bounds
    of a stroked path include half its line)."""
    out = []
    for page in open_pdf(pdf):
        found = []
        for obj in page.get_objects(max_depth=1):
            if obj.type != pdfium_raw.FPDF_PAGEOBJ_PATH:
                continue
            fill, stroke = ctypes.c_int(), ctypes.c_int()
            pdfium_raw.FPDFPath_GetDrawMode(obj.raw, fill, stroke)
            left, bottom, right, top = (v / MM for v in obj.get_bounds())
            found.append((bool(stroke.value), bool(fill.value), left, bottom, right, top))
        out.append(found)
    return out


def _outlines(pdf: bytes):
    """Per page, the stroked paths: the cut lines."""
    return [[p[2:] for p in page if p[0]] for page in _paths(pdf)]


CASES = [(size, stock) for size in TILE_SIZES for stock in STOCKS]


@pytest.mark.parametrize(("size", "stock"), CASES)
def test_every_code_has_modules_of_0_4_mm_or_more(size, stock):
    found = []
    for page in _pages(size, stock):
        for result in zxingcpp.read_barcodes(page.image, formats=zxingcpp.BarcodeFormat.QRCode):
            pos = result.position
            side_px = (math.dist((pos.top_left.x, pos.top_left.y), (pos.top_right.x, pos.top_right.y))
                       + math.dist((pos.top_left.x, pos.top_left.y), (pos.bottom_left.x, pos.bottom_left.y))) / 2
            version = int(result.extra["Version"])
            module = side_px / (17 + 4 * version) / PX_PER_MM
            found.append((result.text, module))
    assert {text for text, _ in found} == _expected() and len(found) == 136
    smallest = min(module for _, module in found)
    assert smallest >= MIN_MODULE, (size, stock, smallest)


def _solve(matrix: list[list[float]], values: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (8 × 8: the perspective's coefficients)."""
    n = len(values)
    rows = [row[:] + [v] for row, v in zip(matrix, values)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(n):
            if r != col:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col])]
    return [rows[i][n] / rows[i][i] for i in range(n)]


def _tilted(image: Image.Image, degrees: float) -> Image.Image:
    """``image`` as a camera tilted ``degrees`` about the horizontal axis sees it, from a distance
    of twice its height: the far (top) edge shorter and nearer the middle than the near one."""
    w, h = image.size
    theta, f = math.radians(degrees), 2.0 * h

    def project(x: float, y: float) -> tuple[float, float]:  # from the image's centre, y down
        depth = f + (h / 2 - y) * math.sin(theta)
        return (w / 2 + (x - w / 2) * f / depth, h / 2 + (y - h / 2) * math.cos(theta) * f / depth)

    corners = [(0, 0), (w, 0), (w, h), (0, h)]
    seen = [project(x, y) for x, y in corners]
    # PIL maps each output pixel back to the input: solve for the seen → source perspective
    matrix, values = [], []
    for (xo, yo), (xi, yi) in zip(seen, corners):
        matrix.append([xo, yo, 1, 0, 0, 0, -xi * xo, -xi * yo])
        values.append(xi)
        matrix.append([0, 0, 0, xo, yo, 1, -yi * xo, -yi * yo])
        values.append(yi)
    return image.transform((w, h), Image.Transform.PERSPECTIVE, _solve(matrix, values), Image.Resampling.BICUBIC,
                           fillcolor=255)


def phone_photo(crop: Image.Image, blur: float = 1.0) -> Image.Image:
    """A close-range phone photo of a sticker simulated from its 300 dpi render: blurred
    (Gaussian, σ ``blur`` px), tilted 15° and turned 15°, lit unevenly (a shadow from 100 % to
    45 % across it), saved as JPEG at quality 60."""
    image = crop.convert("L").filter(ImageFilter.GaussianBlur(blur))
    image = _tilted(image, 15).rotate(15, resample=Image.Resampling.BICUBIC, expand=True, fillcolor=255)
    light = Image.linear_gradient("L").rotate(-35, expand=False).resize(image.size)
    light = light.point(lambda v: 115 + int(v * 140 / 255))  # 45 % to 100 %
    image = ImageChops.multiply(image, light)
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=60)
    return Image.open(io.BytesIO(buffer.getvalue()))


def _photos_read(pdf: bytes, blur: float) -> tuple[set[str], int]:
    """The codes read from a simulated photo of each sticker of ``pdf``, and how many photos
    gave none."""
    read, missed = set(), 0
    for page, outlines in zip(render_pages(pdf, scale=DPI / 72), _outlines(pdf)):
        for left, bottom, right, top in outlines:
            crop = page.crop(left * MM, bottom * MM, (right - left) * MM, (top - bottom) * MM, grow=3 * MM)
            found = zxingcpp.read_barcodes(phone_photo(crop, blur), formats=zxingcpp.BarcodeFormat.QRCode)
            if len(found) == 1:
                read.add(found[0].text)
            else:
                missed += 1
    return read, missed


@pytest.mark.parametrize(("size", "stock", "blur"), [(size, stock, 1.0) for size, stock in CASES]
                         + [("riichi-19x26", stock, 2.0) for stock in STOCKS])
def test_every_code_reads_from_a_simulated_phone_photo_of_its_sticker(size, stock, blur):
    """σ 1 px as the day's photo; σ 2 px for the margin on the smallest stickers: a shakier hand
    still reads every code."""
    read, missed = _photos_read(_pdf(size, stock), blur)
    assert missed == 0 and read == _expected(), (size, stock, blur, missed)


def test_the_simulated_photo_tells_a_too_small_code(monkeypatch):
    """The photo is hard enough to fail the codes this layout replaced: in a 10.85 mm square (0.26
    mm modules with this address) on riichi 19 mm tiles, most of them read nothing at σ 2 px."""
    from walls.printing import strips

    monkeypatch.setattr(strips, "QR_SIDE", 10.85)
    pdf = strips.render_sticker_strips([_set()], PRESETS[RULESET], TILE_SIZES["riichi-19x26"], get_template("a4-strips"))
    _read, missed = _photos_read(pdf, 2.0)
    assert missed > 100


@pytest.mark.parametrize(("size", "stock"), CASES)
def test_the_cut_lines_are_the_stickers_outlines(size, stock):
    """Staff cut along the only lines drawn as lines: each one outlines a sticker exactly the back
    less 1 mm on every side (capped at the strip height), 2 mm of label between neighbours."""
    tile = TILE_SIZES[size]
    width, height = tile.width - 2, min(tile.height - 2, MAX_STICKER_HEIGHT)
    pages = _outlines(_pdf(size, stock))
    assert sum(len(page) for page in pages) == 136
    stroke = 2 * 0.35 / MM  # pdfium counts a 0.35 pt line whole on each side of the path
    rows: dict[tuple[int, int], list[float]] = {}
    for index, page in enumerate(pages):
        for left, bottom, right, top in page:
            assert abs((right - left - stroke) - width) < 0.02 and abs((top - bottom - stroke) - height) < 0.02
            rows.setdefault((index, round(bottom)), []).append(left)
    for lefts in rows.values():
        lefts.sort()
        for a, b in zip(lefts, lefts[1:]):
            assert abs((b - a) - tile.width) < 0.02 or b - a > tile.width * 1.9  # the pitch, or the next strip


@pytest.mark.parametrize(("size", "stock"), CASES)
def test_every_sheet_carries_a_100_mm_scale_bar(size, stock):
    pdf = _pdf(size, stock)
    doc = open_pdf(pdf)
    for index, page in enumerate(_paths(pdf)):
        bars = [p for p in page if p[1] and not p[0] and abs((p[4] - p[2]) - SCALE_BAR) < 5 and p[5] - p[3] < 1]
        assert len(bars) == 1, index
        assert abs((bars[0][4] - bars[0][2]) - SCALE_BAR) <= 0.2
        assert "this bar measures 100 mm" in doc[index].get_textpage().get_text_range()
    # and measured on the render, as a person with a ruler would: the bar's black run in pixels
    image = _pages(size, stock)[0].image
    row = round(image.height - (bars[0][3] + bars[0][5]) / 2 * PX_PER_MM)
    start = next(x for x in range(image.width) if image.getpixel((x, row)) < 128)
    end = next(x for x in range(start, image.width) if image.getpixel((x, row)) >= 128)
    assert abs((end - start) / PX_PER_MM - SCALE_BAR) <= 0.2


def _documented_sheets() -> dict[tuple[str, str], int]:
    """docs/printing.md's table of sheets per copy: ``| riichi-19x26 | A4 | 2 | 2 |`` rows (tile
    size, paper, seats a sheet, sheets a copy) of MCR duplicate."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "printing.md").read_text()
    rows = re.findall(r"^\| `([\w-]+)` \| (A4|Letter) \| (\d+) \| (\d+) \|$", text, re.M)
    return {(size, paper): (int(seats), int(sheets)) for size, paper, seats, sheets in rows}


def test_seats_a_sheet_and_sheets_a_copy_are_as_documented():
    documented = _documented_sheets()
    assert set(documented) == {(size, paper) for size in TILE_SIZES for paper in ("A4", "Letter")}
    for (size, paper), (seats, sheets) in documented.items():
        stock = "a4-strips" if paper == "A4" else "letter-strips"
        assert strip_sheets(_set(), PRESETS[RULESET], TILE_SIZES[size], get_template(stock)) == sheets
        doc = open_pdf(_pdf(size, stock, copies=2))
        assert len(doc) == 2 * sheets
        seen: dict[str, set[int]] = {}
        for index in range(len(doc)):
            heading = doc[index].get_textpage().get_text_range().split(" — ")
            copy = next(part for part in heading if "copy:" in part)
            names = [n.strip() for n in heading[2].split(",")]
            assert len(names) == seats and len({copy}) == 1, (size, paper, index, heading)
            for name in names:  # a seat is on one sheet of its copy
                seen.setdefault(f"{copy} {name}", set()).add(index)
        assert all(len(sheets_of) == 1 for sheets_of in seen.values())
        assert len(seen) == 8  # 4 seats of 2 copies


@pytest.mark.parametrize("ruleset", ["riichi", "riichi-duplicate-dead14", RULESET])
def test_every_word_on_a_sticker_is_5_pt_or_more(ruleset):
    """On the smallest stickers (riichi 19 mm tiles), every character inside a sticker's outline,
    the role marks of a dead wall included (R1, DORA, K1, ura), is set in 5 pt or more."""
    sset = sticker_set(SetId("open-2026", 1, 7), "Open 2026", PRESETS[ruleset], ADDRESS, "4821")
    from walls.printing.strips import render_sticker_strips

    pdf = render_sticker_strips([sset], PRESETS[ruleset], TILE_SIZES["riichi-19x26"], get_template("a4-strips"))
    doc, sizes, marks = open_pdf(pdf), [], set()
    for index, outlines in enumerate(_outlines(pdf)):
        text = doc[index].get_textpage()
        for i in range(text.count_chars()):
            left, bottom, right, top = (v / MM for v in text.get_charbox(i))
            x, y = (left + right) / 2, (bottom + top) / 2
            if text.get_text_range(i, 1).strip() and any(a < x < c and b < y < d for a, b, c, d in outlines):
                sizes.append(pdfium_raw.FPDFText_GetFontSize(text.raw, i))
        for a, b, c, d in outlines:
            marks.update(text.get_text_bounded(left=a * MM, bottom=b * MM, right=c * MM, top=d * MM).split())
    assert sizes and min(sizes) >= 5.0
    if ruleset != RULESET:  # the rule sets with a dead wall print its roles' marks
        assert {"DORA", "R1", "ura"} <= marks


@pytest.mark.parametrize("stock", STOCKS)
def test_the_calibration_page_checks_the_printer_before_the_tile_size(stock):
    """A printer that scales the page (a 96 % "fit to page") is caught by the 100 mm bar, measured
    first; only then do tiles laid on the numbered stickers judge the tile size."""
    from walls.printing.strips import render_strip_calibration

    pdf = render_strip_calibration(TILE_SIZES["riichi-19x26"], get_template(stock))
    bars = [p for p in _paths(pdf)[0] if p[1] and not p[0] and abs((p[4] - p[2]) - SCALE_BAR) < 5 and p[5] - p[3] < 1]
    assert len(bars) == 1 and abs((bars[0][4] - bars[0][2]) - SCALE_BAR) <= 0.2
    text = " ".join(open_pdf(pdf)[0].get_textpage().get_text_range().split())
    first, second = text.index("1. Measure the 100 mm bar"), text.index("2. Only when the bar measures 100 mm")
    assert first < second and "Do not change the tile size for this" in text[first:second]
    assert "set the tile size" in text[second:]
    outlines = [box for box in _outlines(pdf)[0] if box[2] - box[0] > 10 and box[3] - box[1] > 10]  # not the ruler
    assert len(outlines) == 13 and all(abs((right - left - 2 * 0.35 / MM) - 17) < 0.02 for left, _b, right, _t in outlines)
