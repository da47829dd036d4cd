"""A member of staff prints the demo's session 1 (16 sets in 64 physical copies) by following
docs/staff-guide.md, "Printing a session's papers", literally: every bold name in its steps is read
from the guide and found on the page (the line to read, the choices and buttons to press), and the
papers that come out agree with each other and with the guide: as many sticker sheets as the page
counted, 136 stickers a copy, the pick list's tiles = 136 × copies, one row of boxes per copy on
the set-up sheets, one set label per copy."""

from __future__ import annotations

import io
import re
import secrets
import zipfile
from pathlib import Path

import pytest

from .conftest import SCREENSHOTS, download_job, in_own_connection, once_unlocked

pytestmark = [pytest.mark.browser, pytest.mark.django_db]

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "staff-guide.md"
MM = 72 / 25.4


def _steps() -> list[str]:
    """The numbered steps of the guide's "Printing a session's papers", each as one line."""
    text = GUIDE.read_text()
    section = text.split("## Printing a session's papers", 1)[1].split("\n## ", 1)[0]
    steps = re.split(r"\n(?=\d\. )", section.split("\n1. ", 1)[1])
    return [" ".join(step.split()) for step in ["1. " + steps[0]] + steps[1:]]


def _bold(step: str) -> list[str]:
    return re.findall(r"\*\*(.+?)\*\*", step)


def _add_staff(slug: str, password: str) -> str:
    from django.contrib.auth import get_user_model

    from tournament.models import Event, EventRole

    user = get_user_model().objects.create_user(f"staff-{secrets.token_hex(3)}", password=password)
    EventRole.objects.create(event=Event.objects.get(slug=slug), user=user, role=EventRole.Role.STAFF)
    return user.username


def _remove_user(username: str) -> None:
    from django.contrib.auth import get_user_model

    get_user_model().objects.filter(username=username).delete()


def _render(page, form, choice: str, button: str = "Render") -> None:
    form.get_by_label("Print", exact=True).select_option(label=choice)
    with page.expect_navigation():
        form.get_by_role("button", name=button, exact=True).click()


def test_staff_print_a_session_as_the_guide_says_and_the_counts_agree(new_page, demo_site):
    import pypdfium2
    import pypdfium2.raw as raw
    import zxingcpp

    steps = _steps()
    assert len(steps) == 5 and all(_bold(step) for step in steps)
    password = secrets.token_urlsafe(12)
    username = in_own_connection(_add_staff, demo_site.slug, password)
    try:
        page = new_page()
        page.goto(demo_site.page("/accounts/login/"))
        page.fill("#id_username", username)
        page.fill("#id_password", password)
        with page.expect_navigation():
            page.click("main button[type=submit]")
        page.goto(demo_site.page(f"/e/{demo_site.slug}/director/"))
        form = page.locator("#kind-1").locator("xpath=ancestor::form")

        # 1. the line under the print form, word for word as the guide quotes it (the demo's figures)
        line = " ".join(page.locator("#sticker-paper-1").inner_text().split()).rstrip(".")
        assert line.startswith(_bold(steps[0])[0]), (line, _bold(steps[0])[0])
        sets, copies, stickers, sheets, per_copy = (int(n.replace(",", "")) for n in re.findall(r"[\d,]+", line)[:5])
        assert (sets, copies, stickers) == (16, 64, 64 * 136) and sheets == copies * per_copy
        assert page.locator("#sticker-code-warning-1").count() == 0
        page.locator("#sticker-paper-1").scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENSHOTS / "staff-print-counts.png"))

        # 2. Calibration page in Print, Render, Download: the 100 mm bar and the two checks
        calibration_choice, print_label, render, *rest = _bold(steps[1])
        assert print_label == "Print" and render == "Render" and "Download" in rest and "100 mm bar" in rest
        _render(page, form, calibration_choice, render)
        calibration = pypdfium2.PdfDocument(io.BytesIO(download_job(page, calibration_choice)))
        text = calibration[0].get_textpage().get_text_range()
        assert "this bar measures 100 mm" in text and "Do not change the tile size" in text
        calibration[0].render(scale=1.5).to_pil().save(SCREENSHOTS / "strip-calibration.png")

        # 3. Wall stickers: as many sheets as counted, 136 stickers a copy, one copy a sheet
        stickers_choice = _bold(steps[2])[0]
        _render(page, form, stickers_choice)
        document = pypdfium2.PdfDocument(io.BytesIO(download_job(page, stickers_choice)))
        assert len(document) == sheets
        outlines, per_copy_sheet = 0, {}
        for index in range(len(document)):
            sheet = document[index]
            heading = sheet.get_textpage().get_text_range().split("\n", 1)[0]
            copy = re.search(r"Set (\d-\d\d-\d) \(copy: ([^)]+)\)", heading)
            assert copy, heading
            per_copy_sheet.setdefault(copy.groups(), []).append(index)
            assert "this bar measures 100 mm" in sheet.get_textpage().get_text_range()
            for obj in sheet.get_objects(max_depth=1):
                if obj.type == raw.FPDF_PAGEOBJ_PATH:
                    left, bottom, right, top = (v / MM for v in obj.get_bounds())
                    if 15 < right - left < 30 and 15 < top - bottom < 30:
                        outlines += 1
        assert len(per_copy_sheet) == copies and all(len(v) == per_copy for v in per_copy_sheet.values())
        assert outlines == stickers
        document[0].render(scale=1.5).to_pil().save(SCREENSHOTS / "sticker-strips.png")

        # 4. the staff documents: set-up sheets with a row of boxes per copy, the pick list's total
        staff_button = _bold(steps[3])[0]
        with page.expect_navigation():
            form.get_by_role("button", name=staff_button, exact=True).click()
        archive = zipfile.ZipFile(io.BytesIO(download_job(page, "staff")))
        names = archive.namelist()
        pick_name = next(n for n in names if "Pick list" in n)
        setup_name = next(n for n in names if "Set-up sheets" in n)
        pick = pypdfium2.PdfDocument(io.BytesIO(archive.read(pick_name)))
        last = " ".join(pick[len(pick) - 1].get_textpage().get_text_range().split())
        total = _bold(steps[3])[-1]
        assert total in last, (total, last[-300:])
        assert int(re.search(r"([\d,]+) tiles in all", total)[1].replace(",", "")) == stickers == 136 * copies
        setup = pypdfium2.PdfDocument(io.BytesIO(archive.read(setup_name)))
        rows = sum(" ".join(setup[i].get_textpage().get_text_range().split()).count("Stickers on")
                   for i in range(len(setup)))
        assert len(setup) == sets and rows == copies

        # 5. Set labels: one label per copy
        labels_choice = _bold(steps[4])[0]
        _render(page, form, labels_choice)
        labels = pypdfium2.PdfDocument(io.BytesIO(download_job(page, labels_choice)))
        found = [r.text for i in range(len(labels))
                 for r in zxingcpp.read_barcodes(labels[i].render(scale=200 / 72, grayscale=True).to_pil())]
        assert len(found) == copies and len(set(found)) == sets  # a label per copy, the copies of a set alike
    finally:
        once_unlocked(_remove_user, username)
