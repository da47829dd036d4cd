"""Fonts for the printed PDFs, registered once per process.

Latin text uses the PDF base fonts Helvetica and Helvetica-Bold: every viewer and printer has
them, so they need no embedding and cost nothing per document.

Japanese and Chinese text (tile names, seat winds, tile faces) uses one embedded TrueType font
that covers kana and both simplified and traditional Han characters. reportlab embeds the subset
of glyphs a document uses. The font is looked up, in order, at:

1. the path in the environment variable ``DMJ_CJK_FONT`` (a ``.ttf`` or ``.ttc`` with TrueType
   outlines; CFF-based ``.otf`` fonts such as Noto Sans CJK are not supported by reportlab);
2. the copy of Droid Sans Fallback bundled in ``walls/printing/fonts/`` (Apache License 2.0, see
   ``DroidSansFallback-COPYRIGHT.txt`` there), so a fresh install needs no system font;
3. Debian's ``fonts-droid-fallback`` (``/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf``);
4. Debian's ``fonts-wqy-microhei`` / ``fonts-wqy-zenhei``.

Without any of them the module falls back to reportlab's CID fonts (``HeiseiKakuGo-W5`` for
Japanese, ``STSong-Light`` for Chinese). Those are *not embedded*: Acrobat with its Asian font
pack shows them, but pdfium (Chrome's viewer) and most printers draw nothing or black boxes, so
:func:`cjk_font_embedded` lets checks and the status page warn about it.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from reportlab.pdfbase import pdfmetrics

LATIN = "Helvetica"
LATIN_BOLD = "Helvetica-Bold"
CJK = "DMJ-CJK"

CJK_FONT_CANDIDATES = (
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "fonts", "DroidSansFallbackFull.ttf"),
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    "/usr/share/fonts-droid-fallback/truetype/DroidSansFallbackFull.ttf",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
)

_CID_FALLBACK = {"ja": "HeiseiKakuGo-W5", "zh": "STSong-Light"}


@dataclass(frozen=True)
class FontSet:
    """The registered font names: ``latin``, ``latin_bold``, ``cjk_ja`` and ``cjk_zh``.

    With an embedded TrueType font both CJK names are the same font; ``cjk_path`` is its file,
    or ``None`` when the non-embedded CID fallback is in use.
    """

    latin: str
    latin_bold: str
    cjk_ja: str
    cjk_zh: str
    cjk_path: str | None

    def cjk(self, lang: str) -> str:
        """The font for text in ``lang`` (``"zh-hans"`` or ``"zh"`` picks the Chinese face, anything
        else Japanese)."""
        return self.cjk_zh if lang.startswith("zh") else self.cjk_ja


def find_cjk_font() -> str | None:
    """Return the path of the CJK TrueType font to embed, or ``None`` when there is none."""
    override = os.environ.get("DMJ_CJK_FONT")
    if override:
        if not os.path.isfile(override):
            raise FileNotFoundError(f"DMJ_CJK_FONT points to {override!r}, which is not a file")
        return override
    for path in CJK_FONT_CANDIDATES:
        if os.path.isfile(path):
            return path
    return None


@lru_cache(maxsize=1)
def fonts() -> FontSet:
    """Register the fonts (first call only) and return their names."""
    path = find_cjk_font()
    if path is not None:
        from reportlab.pdfbase.ttfonts import TTFont

        kwargs = {"subfontIndex": 0} if path.lower().endswith(".ttc") else {}
        pdfmetrics.registerFont(TTFont(CJK, path, **kwargs))
        return FontSet(LATIN, LATIN_BOLD, CJK, CJK, path)
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont

    for name in _CID_FALLBACK.values():
        pdfmetrics.registerFont(UnicodeCIDFont(name))
    return FontSet(LATIN, LATIN_BOLD, _CID_FALLBACK["ja"], _CID_FALLBACK["zh"], None)


def cjk_font_embedded() -> bool:
    """True when Japanese/Chinese text is embedded (renders everywhere), False on the CID fallback."""
    return fonts().cjk_path is not None


def _winansi() -> frozenset[Any]:
    chars = set()
    for i in range(32, 256):
        with contextlib.suppress(UnicodeDecodeError):
            chars.add(bytes([i]).decode("cp1252"))
    return frozenset(chars)


_LATIN_CHARS = _winansi()


@lru_cache(maxsize=16384)
def runs(text: str, lang: str = "en", bold: bool = False) -> tuple[tuple[str, str], ...]:
    """Split ``text`` into ``(run, font)`` pieces: Latin runs in Helvetica, the rest in the CJK font.

    The CJK font may lack Latin letters (Droid Sans Fallback has none), so mixed strings such as
    ``"東家 East"`` are drawn run by run. Spaces stay with the run they follow.
    """
    fs = fonts()
    latin = fs.latin_bold if bold else fs.latin
    cjk = fs.cjk(lang)
    covered = _cjk_coverage()
    out: list[list[str]] = []
    for ch in text:
        if ch in _LATIN_CHARS:
            font = latin
        elif covered is None or ord(ch) in covered:
            font = cjk
        else:  # in neither font: a visible stand-in beats an invisible gap
            ch, font = "?", latin
        if ch == " " and out:
            font = out[-1][1]
        if out and out[-1][1] == font:
            out[-1][0] += ch
        else:
            out.append([ch, font])
    return tuple((run, font) for run, font in out)


@lru_cache(maxsize=1)
def _cjk_coverage() -> frozenset[Any] | None:
    """Code points the embedded CJK font has glyphs for (None for the CID fallback: unknown)."""
    fs = fonts()
    if fs.cjk_path is None:
        return None
    return frozenset(pdfmetrics.getFont(fs.cjk_ja).face.charToGlyph)


@lru_cache(maxsize=65536)
def mixed_width(text: str, size: float, lang: str = "en", bold: bool = False) -> float:
    """Width in points of ``text`` drawn run by run (see :func:`runs`)."""
    width: float = sum(pdfmetrics.stringWidth(run, font, size) for run, font in runs(text, lang, bold))
    return width


@lru_cache(maxsize=65536)
def text_width(text: str, font: str, size: float) -> float:
    """Width of ``text`` in points; cached because labels repeat the same strings thousands of times."""
    width: float = pdfmetrics.stringWidth(text, font, size)
    return width


@lru_cache(maxsize=65536)
def fit_size(text: str, font: str, max_size: float, width: float, min_size: float = 3.0) -> float:
    """Largest size up to ``max_size`` at which ``text`` fits in ``width`` points (not below ``min_size``)."""
    w = text_width(text, font, max_size)
    if w <= width or w == 0:
        return max_size
    return max(min_size, max_size * width / w)
