"""A phone at a table scans a set label with the table page's Scan button, as a scorer does: the
label is the printed one (the labels PDF of the event, rendered with pypdfium2), read through the
phone's camera (Chromium's fake video device playing a video of the label) or from a photo of it
(the photo button's file input, as a phone's camera app hands it over). The scan lands on the
right set; a set the movement has not brought to the table is refused before anything is typed,
saying where it is. The labels' links name the event's venue address; the page opens them on the
server it was served from (no traffic goes to that address)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image

from factories import demo_roster, login_as_table_in_browser, prepared_event

from .conftest import CHROMIUM, CHROMIUM_ARGS, PHONE, SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db]

VENUE = "http://192.168.7.20:8000/"  # printed into the codes; never contacted


@dataclass(frozen=True)
class Labels:
    slug: str
    table_id: int
    table_number: int
    code: str
    here: int  # a set at the table now
    later: int  # a set of the table's next block
    here_photo: Path
    later_photo: Path
    here_video: Path


def _label_image(data: bytes) -> Image.Image:
    """The first page of a labels PDF cropped around its first QR code with the label's text: what
    a phone's camera frames."""
    import zxingcpp

    from pdfcheck import render_pages

    page = render_pages(data, scale=3, pages=[0])[0].image.convert("L")
    found = zxingcpp.read_barcodes(page, formats=zxingcpp.BarcodeFormat.QRCode)
    assert found, "the printed label has no readable QR code"
    p = found[0].position
    xs = [p.top_left.x, p.top_right.x, p.bottom_left.x, p.bottom_right.x]
    ys = [p.top_left.y, p.top_right.y, p.bottom_left.y, p.bottom_right.y]
    side = max(xs) - min(xs)
    return page.crop((max(0, min(xs) - side), max(0, min(ys) - side // 2), max(xs) + 2 * side, max(ys) + side // 2))


def _y4m(image: Image.Image, path: Path, size=(640, 480), frames: int = 10) -> Path:
    """A short YUV4MPEG2 video (4:2:0) of ``image`` fitted into ``size`` on white: the fake camera's
    picture (Chromium's ``--use-file-for-fake-video-capture``)."""
    frame = Image.new("RGB", size, "white")
    picture = image.convert("RGB")
    picture.thumbnail(size)
    frame.paste(picture, ((size[0] - picture.width) // 2, (size[1] - picture.height) // 2))
    y, u, v = frame.convert("YCbCr").split()
    half = (size[0] // 2, size[1] // 2)
    planes = y.tobytes() + u.resize(half).tobytes() + v.resize(half).tobytes()
    with path.open("wb") as out:
        out.write(f"YUV4MPEG2 W{size[0]} H{size[1]} F10:1 Ip A1:1 C420jpeg\n".encode())
        for _ in range(frames):
            out.write(b"FRAME\n" + planes)
    return path


@pytest.fixture(scope="module")
def labels(demo_site, browser, django_db_blocker, tmp_path_factory):
    from factories import blocks
    from tournament.models import Event, Table
    from walls.print_jobs import request_print

    folder = tmp_path_factory.mktemp("labels")
    with django_db_blocker.unblock():
        event = prepared_event(demo_roster(4), name="Scan Cup", slug="scan-cup", sessions=1, base_url=VENUE)
        table = Table.objects.filter(group__session__event=event).order_by("number").first()
        order = blocks(table)
        here, later = order[0][1][1], order[1][1][0]
        images = {n: _label_image(request_print(event, "labels", {"session": 1, "sets": [n]}, run_now=True).file.read()) for n in (here, later)}
        values = Labels(slug=event.slug, table_id=table.pk, table_number=table.number, code=table.login_code,
                        here=here, later=later, here_photo=folder / "here.png", later_photo=folder / "later.png",
                        here_video=_y4m(images[here], folder / "here.y4m"))
        images[here].save(values.here_photo)
        images[later].save(values.later_photo)
    yield values
    with django_db_blocker.unblock():
        Event.objects.filter(slug="scan-cup").delete()


def _phone_at_table(page, demo_site, labels):
    login_as_table_in_browser(page, demo_site.page(f"/e/{labels.slug}/entry/login/{labels.code}"))
    table_url = demo_site.page(f"/e/{labels.slug}/table/{labels.table_id}/")
    assert page.url == table_url
    page.wait_for_selector("#scan-camera:not([hidden])")  # the decoder loaded: the button shows
    return table_url


def test_a_photo_of_a_set_label_opens_that_set_at_the_table(new_page, demo_site, labels):
    page = new_page(viewport=PHONE)
    table_url = _phone_at_table(page, demo_site, labels)
    with page.expect_navigation(url=f"{table_url}?set={labels.here}"):
        page.set_input_files("#scan-photo", str(labels.here_photo))
    assert page.locator("#set_no").input_value() == str(labels.here)
    page.screenshot(path=str(SCREENSHOTS / "table-scan-photo-phone.png"))


def test_a_scanned_set_not_at_the_table_now_is_refused_saying_where_it_is(new_page, demo_site, labels):
    page = new_page(viewport=PHONE)
    table_url = _phone_at_table(page, demo_site, labels)
    with page.expect_navigation(url=table_url):
        page.set_input_files("#scan-photo", str(labels.later_photo))
    alert = page.locator(".messages, [role=alert]").filter(has_text="is not for Table").first
    assert f"is not for Table {labels.table_number} now" in alert.inner_text() and "Table" in alert.inner_text()
    assert page.locator("#set_no").input_value() != str(labels.later)  # nothing chosen for entry


def test_the_camera_reads_a_set_label_and_opens_that_set(browser, demo_site, labels):
    """The Scan button with a camera: Chromium's fake device plays a video of the printed label."""
    if not CHROMIUM.exists():
        pytest.skip("needs Debian's Chromium")
    camera = browser.browser_type.launch(executable_path=str(CHROMIUM), args=[
        *CHROMIUM_ARGS, "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
        f"--use-file-for-fake-video-capture={labels.here_video}"])
    try:
        context = camera.new_context(viewport=PHONE)
        context.grant_permissions(["camera"], origin=demo_site.url)
        page = context.new_page()
        table_url = _phone_at_table(page, demo_site, labels)
        with page.expect_navigation(url=f"{table_url}?set={labels.here}", timeout=30_000):
            page.click("#scan-camera")
        assert page.locator("#set_no").input_value() == str(labels.here)
    finally:
        camera.close()


def test_the_scan_box_says_what_it_read_when_the_code_is_no_label(new_page, demo_site, labels, tmp_path):
    import qrcode

    page = new_page(viewport=PHONE)
    _phone_at_table(page, demo_site, labels)
    other = tmp_path / "other.png"
    qrcode.make(f"https://example.org/{secrets.token_hex(4)}").save(other)
    page.set_input_files("#scan-photo", str(other))
    page.wait_for_function("document.getElementById('scan-status').textContent.includes('not a set label')")
