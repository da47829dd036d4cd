"""Fonts, mixed Latin/CJK text, tile faces and the printing benchmark (walls/printing)."""

from __future__ import annotations

import pytest
from pdfcheck import decode_qr, difference, ink, page_text, render_pages
from reportlab.lib.units import mm

from tests.perf.printing import bench_printing
from walls.printing import cjk_font_embedded, find_cjk_font
from walls.printing.base import draw_fit, finish, new_canvas, wrap
from walls.printing.fonts import fonts, mixed_width, runs
from walls.printing.qr import FormCache, draw_qr
from walls.printing.tilefaces import place_tile_face
from walls.tiles import ALL_TILES


def _pdf(draw) -> bytes:
    canv, buf = new_canvas((300, 200), "test")
    draw(canv)
    canv.showPage()
    return finish(canv, buf)


def test_a_cjk_truetype_font_is_installed_and_embedded():
    assert find_cjk_font(), "install a CJK TrueType font: apt-get install fonts-droid-fallback (docs/printing.md)"
    assert cjk_font_embedded()


def test_missing_font_override_is_reported(monkeypatch, tmp_path):
    monkeypatch.setenv("DMJ_CJK_FONT", str(tmp_path / "none.ttf"))
    with pytest.raises(FileNotFoundError, match="DMJ_CJK_FONT"):
        find_cjk_font()


def test_mixed_text_is_split_into_latin_and_cjk_runs():
    fs = fonts()
    assert runs("東家 East", "ja") == (("東家 ", fs.cjk_ja), ("East", fs.latin))
    assert runs("Set 1-07-3 – ok", "en") == (("Set 1-07-3 – ok", fs.latin),)
    assert mixed_width("東家 East", 10, "ja") > mixed_width("East", 10, "ja")


@pytest.mark.parametrize("lang, text", [("ja", "一萬 東 發 中"), ("zh", "一万 东风 发财 红中")])
def test_cjk_text_renders_as_distinct_glyphs(lang, text):
    def draw(canv):
        draw_fit(canv, text, 10, 150, 280, 24, lang=lang)
        draw_fit(canv, text[::-1], 10, 100, 280, 24, lang=lang)

    pdf = _pdf(draw)
    assert text in page_text(pdf, 0)
    page = render_pages(pdf)[0]
    first, second = page.crop(10, 145, 200, 30), page.crop(10, 95, 200, 30)
    assert 0.02 < ink(first) < 0.5  # strokes, neither blank nor solid boxes
    assert difference(first, second) > 0.03  # the same text reversed looks different: real glyphs


def test_text_too_long_shrinks_then_ends_with_an_ellipsis():
    long = "Mahjong International League World Mahjong Sport Games Sanya"

    def draw(canv):
        draw_fit(canv, long, 10, 150, 100, 12, min_size=6)

    text = page_text(_pdf(draw), 0)
    assert text.endswith("…") and long.startswith(text[:-1])


def test_wrap_breaks_at_spaces_and_inside_long_words():
    assert wrap("ab cd", 10, 1000) == ["ab cd"]
    lines = wrap("0123456789" * 8, 6, 60)
    assert len(lines) > 2 and "".join(lines) == "0123456789" * 8


def test_every_tile_face_draws():
    def draw(canv):
        forms = FormCache(canv)
        for i, code in enumerate(ALL_TILES):
            place_tile_face(forms, code, 5 + (i % 15) * 19, 150 - (i // 15) * 30, 24)

    page = render_pages(_pdf(draw), scale=200 / 72)[0]
    for i, _ in enumerate(ALL_TILES):
        face = page.crop(5 + (i % 15) * 19 + 2, 150 - (i // 15) * 30 + 7, 14, 14)
        assert ink(face, threshold=200) > 0.05, ALL_TILES[i]


@pytest.mark.parametrize("size_mm", [8, 12, 30])
def test_vector_qr_codes_decode_at_small_and_large_sizes(size_mm):
    payload = "DMJ1|sanya-2015|1|7|3"
    pdf = _pdf(lambda canv: draw_qr(canv, payload, 20, 20, size_mm * mm, quiet=2))
    assert b"/Subtype /Image" not in pdf  # drawn as paths, not a pasted bitmap
    assert decode_qr(render_pages(pdf)[0].image) == [payload]


def test_benchmark_reports_time_and_ratio_against_bare_reportlab():
    lines = []
    result = bench_printing(lines.append, sets=2, repeat=1)
    assert result["stickers"] == 2 * 136
    assert result["ratio"] > 0 and result["bare_seconds"] > 0
    assert any("ratio" in line for line in lines)
