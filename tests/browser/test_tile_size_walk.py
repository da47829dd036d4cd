"""The director sets the event's tile size, is refused a label stock whose labels would overhang the
tiles (the page names the stock, the tiles and the fix), prints the wall stickers as row strips
and the calibration strip, and the printed strips repeat at the tiles' width; a sticker's code,
opened on the director's laptop, shows the slot's tile."""

from __future__ import annotations

import io
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from .conftest import SCREENSHOTS, download_job

pytestmark = [pytest.mark.browser, pytest.mark.django_db]


def _render(page, kind: str, stock: str) -> None:
    page.select_option("#kind-1", kind)
    page.select_option("#template-1", stock)
    with page.expect_navigation():
        page.locator("#kind-1").locator("xpath=ancestor::form").get_by_role("button", name="Render").click()


def test_the_director_sets_the_tiles_and_prints_strips_that_fit_them(director_page, demo_site, django_db_blocker):
    import pypdfium2
    import pypdfium2.raw as raw
    import zxingcpp

    from tournament.models import Event

    page = director_page
    try:
        page.goto(demo_site.page(f"/e/{demo_site.slug}/director/settings/"))
        page.select_option("#id_tile_size", "wmo-28x38")
        page.locator("#id_tile_size").scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENSHOTS / "settings-tile-size.png"))
        with page.expect_navigation():
            page.get_by_role("button", name="Save settings").click()
        expect(page.locator(".messages")).to_contain_text("Settings saved")

        page.goto(demo_site.page(f"/e/{demo_site.slug}/director/"))
        expect(page.locator(".tile-size").first).to_contain_text("Tiles: 28 × 38 mm")
        _render(page, "stickers", "a4-70")  # 30 mm labels on 28 mm tiles: refused before anything is printed
        expect(page.locator(".messages")).to_contain_text("a4-70")
        expect(page.locator(".messages")).to_contain_text("28 × 38 mm")
        expect(page.locator(".messages")).to_contain_text("row strips")
        page.screenshot(path=str(SCREENSHOTS / "stickers-refused-stock.png"))

        _render(page, "calibration", "a4-strips")
        calibration = pypdfium2.PdfDocument(io.BytesIO(download_job(page, "Calibration")))
        assert "pitch 28 mm" in calibration[0].get_textpage().get_text_range()

        _render(page, "stickers", "a4-strips")
        document = pypdfium2.PdfDocument(io.BytesIO(download_job(page, "Wall stickers")))
        first = document[0]
        image = first.render(scale=300 / 72).to_pil()
        image.convert("RGB").resize((image.width // 3, image.height // 3)).save(SCREENSHOTS / "stickers-printed-strips.png")
        lefts: dict[float, list[float]] = {}
        for obj in first.get_objects(max_depth=1):
            if obj.type == raw.FPDF_PAGEOBJ_PATH:
                left, bottom, right, top = (v * 25.4 / 72 for v in obj.get_bounds())
                if 20 < right - left < 28 and 20 < top - bottom < 38:  # a sticker on a 28 × 38 mm back
                    lefts.setdefault(round(bottom), []).append(left)
        assert lefts, "no sticker outline found"
        for row in lefts.values():
            row.sort()
            assert all(abs((b - a) - 28) <= 0.2 for a, b in zip(row, row[1:]))
        codes = [b.text for b in zxingcpp.read_barcodes(image.convert("L"))]
        assert len(codes) >= 20 and all("/W/" in code for code in codes)  # the short upper-case link (walls.setcode.qr_address)
        # the director's laptop opens a sticker's code: the slot's tile, for staff only
        page.goto(demo_site.page(urlsplit(codes[0]).path))
        expect(page.locator("#slot-tile")).to_be_visible()
    finally:
        with django_db_blocker.unblock():
            Event.objects.filter(slug=demo_site.slug).update(tile_size="")
