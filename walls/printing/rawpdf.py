"""Lean page-content writer for the sticker loop.

reportlab's ``drawString`` builds a text object, tracks the cursor and reformats every number on
each call; a print run draws 40,000+ short strings at a few dozen distinct positions, sizes and
texts. :class:`ContentWriter` writes the same PDF operators directly (``BT /F1 9 Tf 1 0 0 1 x y
Tm (H1) Tj ET``) and caches each string's encoded form per document, leaving fonts, subsets and
resources to reportlab: standard fonts are named by ``doc.getInternalFontName`` and TrueType
text is split into subsets by the font itself (``splitString``), exactly as reportlab would.
Callers wrap their operators in ``q`` … ``Q`` so the canvas's own graphics state is untouched.
"""

from __future__ import annotations

from typing import Any

from reportlab.pdfbase import pdfmetrics

from walls.printing.fonts import text_width


class ContentWriter:
    """Formats text and shapes as PDF operators for one document (``canv``)."""

    def __init__(self, canv: Any) -> None:
        self.canv = canv
        self.doc = canv._doc
        self._escape = canv._escape
        self._names: dict[str, str] = {}
        self._encoded: dict[tuple[str, str], tuple[tuple[str, str], ...]] = {}

    def _pieces(self, font: str, text: str) -> tuple[tuple[str, str], ...]:
        """``text`` as (internal font name, escaped bytes) pieces, cached per document."""
        key = (font, text)
        pieces = self._encoded.get(key)
        if pieces is None:
            face = pdfmetrics.getFont(font)
            if face._dynamicFont:
                pieces = tuple((face.getSubsetInternalName(subset, self.doc), self._escape(chunk))
                               for subset, chunk in face.splitString(text, self.doc))
            else:
                name = self._names.get(font)
                if name is None:
                    name = self._names[font] = self.doc.getInternalFontName(font)
                pieces = ((name, self._escape(text.encode("cp1252"))),)
            self._encoded[key] = pieces
        return pieces

    def text(self, font: str, size: float, x: float, y: float, text: str, align: str = "left") -> str:
        """One line of ``text`` with its baseline at ``(x, y)``; ``align`` left/right/centre."""
        if align != "left":
            width = text_width(text, font, size)
            x -= width if align == "right" else width / 2
        ops = [f"BT 1 0 0 1 {x:.3f} {y:.3f} Tm"]
        for name, chunk in self._pieces(font, text):
            ops.append(f"{name} {size:.3f} Tf ({chunk}) Tj")
        ops.append("ET")
        return " ".join(ops)

    @staticmethod
    def fill_rect(x: float, y: float, w: float, h: float) -> str:
        return f"{x:.3f} {y:.3f} {w:.3f} {h:.3f} re f"

    def emit(self, ops: list[str]) -> None:
        """Append ``ops`` to the current page inside ``q`` … ``Q``."""
        self.canv._code.append("q\n" + "\n".join(ops) + "\nQ")
