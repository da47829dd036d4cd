"""Test helper: look at rendered PDFs the way a printer and a phone would.

Pages are rasterised with pypdfium2 (Chrome's PDF engine) into PIL images, QR codes are read back
with zxing-cpp, and text is extracted with pdfium's text layer. Coordinates given in PDF points
use the PDF convention (origin bottom-left), as reportlab and walls.printing.templates do.
"""

from __future__ import annotations

from dataclasses import dataclass

import pypdfium2 as pdfium
import zxingcpp
from PIL import Image, ImageChops

DPI = 300
SCALE = DPI / 72


@dataclass
class Page:
    """One rendered page: its image at ``scale`` pixels per point and its size in points."""

    image: Image.Image
    width: float
    height: float
    scale: float

    def crop(self, x: float, y: float, w: float, h: float, *, grow: float = 0.0) -> Image.Image:
        """The region ``(x, y, w, h)`` in points (origin bottom-left), grown by ``grow`` points."""
        s = self.scale
        left = max(0, int((x - grow) * s))
        right = min(self.image.width, int((x + w + grow) * s))
        top = max(0, int((self.height - (y + h + grow)) * s))
        bottom = min(self.image.height, int((self.height - (y - grow)) * s))
        return self.image.crop((left, top, right, bottom))


def open_pdf(data: bytes) -> pdfium.PdfDocument:
    return pdfium.PdfDocument(data)


def page_count(data: bytes) -> int:
    return len(open_pdf(data))


def render_pages(data: bytes, scale: float = SCALE, pages: list[int] | None = None, *,
                 colour: bool = False) -> list[Page]:
    """Rasterise the given pages (all by default) at ``scale`` pixels per point, in greyscale
    (``colour=True``: in RGB)."""
    doc = open_pdf(data)
    out = []
    for i in pages if pages is not None else range(len(doc)):
        page = doc[i]
        w, h = page.get_size()
        if colour:
            image = page.render(scale=scale).to_pil().convert("RGB")
        else:
            image = page.render(scale=scale, grayscale=True).to_pil().convert("L")
        out.append(Page(image, w, h, scale))
    return out


def coloured(image: Image.Image, tolerance: int = 24) -> float:
    """Share of pixels that are not grey: their red, green and blue differ by more than
    ``tolerance`` (0 for a black-and-white page)."""
    r, g, b = image.convert("RGB").split()
    spread = ImageChops.subtract(ImageChops.lighter(ImageChops.lighter(r, g), b),
                                 ImageChops.darker(ImageChops.darker(r, g), b))
    hist = spread.histogram()
    return sum(hist[tolerance + 1:]) / max(1, image.width * image.height)


def form_names(data: bytes) -> set[str]:
    """Names of the Form XObjects a reportlab PDF places (``walls.printing.qr.FormCache`` names
    them ``F`` + 20 hex digits: QR codes, tile faces)."""
    import re

    return {m.decode() for m in re.findall(rb"/FormXob\.(\w+)", data)}


def tile_face_form_names(codes=None) -> dict[str, str]:
    """Tile code -> the Form XObject name a document gives that tile's face (walls/printing/tilefaces.py),
    for every tile by default: what a drawn face leaves in a PDF."""
    from walls.printing.base import new_canvas
    from walls.printing.qr import FormCache
    from walls.printing.tilefaces import FACE_H, FACE_W, draw_tile_face, face_key
    from walls.tiles import ALL_TILES

    canv, _ = new_canvas((100, 100), "faces")
    forms = FormCache(canv)
    return {code: forms.define(face_key(code), FACE_W, FACE_H, lambda c, t=code: draw_tile_face(c, t))
            for code in (codes or ALL_TILES)}


def decode_qr(image: Image.Image) -> list[str]:
    """Every QR code zxing-cpp reads in ``image``, as text, in no particular order."""
    if image.mode != "L":
        image = image.convert("L")
    return [b.text for b in zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)]


def page_text(data: bytes, index: int) -> str:
    """All text of one page, in content order."""
    return open_pdf(data)[index].get_textpage().get_text_range()


class TextPages:
    """Text pages of one document kept open, for many bounded look-ups."""

    def __init__(self, data: bytes):
        self.doc = open_pdf(data)
        self._pages: dict[int, object] = {}

    def __len__(self) -> int:
        return len(self.doc)

    def box(self, index: int, x: float, y: float, w: float, h: float) -> str:
        if index not in self._pages:
            self._pages[index] = self.doc[index].get_textpage()
        return self._pages[index].get_text_bounded(left=x, bottom=y, right=x + w, top=y + h)


def ink(image: Image.Image, threshold: int = 160) -> float:
    """Share of pixels darker than ``threshold`` (0 = blank, 1 = solid)."""
    grey = image.convert("L")
    hist = grey.histogram()
    dark = sum(hist[:threshold])
    return dark / max(1, grey.width * grey.height)


def difference(a: Image.Image, b: Image.Image) -> float:
    """Share of pixels that differ between two images of the same size."""
    diff = ImageChops.difference(a.convert("L"), b.convert("L")).point(lambda v: 255 if v > 40 else 0)
    return diff.histogram()[255] / max(1, a.width * a.height)


# --- sample wall sets -----------------------------------------------------------------------------

def derived_set(ruleset, set_no: int = 3, *, session: int = 1, event: str = "sanya-2015",
                event_name: str = "MIL Sanya 2015 Duplicate", seed: str = "5eed" * 16):
    """A PrintableSet whose wall is really derived (walls/derivation.py) from a fixed master seed,
    as an event's walls are."""
    from walls.derivation import commitment, derive_wall, lay_out
    from walls.printing import PrintableSet
    from walls.setcode import SetId

    wall = derive_wall(seed, event, session, set_no, ruleset.tiles, ruleset.piles)
    return PrintableSet(SetId(event, session, set_no), event_name, ruleset, lay_out(wall, ruleset.piles),
                        "Table 1", commitment(seed))


def hand_made_set(ruleset, set_no: int = 7, *, session: int = 1, seed: int = 0, event: str = "sanya-2015",
                  event_name: str = "MIL Sanya 2015 Duplicate", entry_url: str | None = None,
                  first_table: str = "Table 3", commitment: str = "5e" * 32):
    """A PrintableSet whose wall is a shuffle of ``ruleset``'s tiles by ``random.Random(seed)``
    (any permutation will do: printing does not depend on how walls are derived)."""
    import random

    from walls.derivation import lay_out
    from walls.printing import PrintableSet
    from walls.setcode import SetId

    tiles = ruleset.multiset()
    random.Random(seed).shuffle(tiles)
    return PrintableSet(SetId(event, session, set_no), event_name, ruleset, lay_out(tiles, ruleset.piles), first_table,
                        commitment, entry_url)
