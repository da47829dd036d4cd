"""Shared plumbing of the renderers: the canvas, text that fits, simple wrapping."""

from __future__ import annotations

import io
from typing import Any

from reportlab import rl_config
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas as rl_canvas

from walls.printing.fonts import fonts, mixed_width, runs

CREATOR = "duplicate-mahjong walls.printing"


def new_canvas(pagesize: Any, title: str, subject: str = "") -> tuple[rl_canvas.Canvas, io.BytesIO]:
    """A canvas writing to memory. ``invariant`` makes the bytes depend on the content alone, so
    re-running a print job with the same inputs yields the same file."""
    fonts()
    buf = io.BytesIO()
    canv = rl_canvas.Canvas(buf, pagesize=pagesize, pageCompression=1, invariant=1)
    canv.setTitle(title)
    canv.setSubject(subject or title)
    canv.setCreator(CREATOR)
    canv.setAuthor(CREATOR)
    return canv, buf


def finish(canv: Any, buf: io.BytesIO) -> bytes:
    """Write the PDF and return its bytes. Streams are Flate-compressed binary: reportlab's
    default ASCII85 wrapping makes files 25 % larger and took a third of a sticker run."""
    saved = rl_config.useA85
    rl_config.useA85 = 0
    try:
        canv.save()
    finally:
        rl_config.useA85 = saved
    return buf.getvalue()


def draw_fit(canv: Any, text: str, x: float, y: float, width: float, max_size: float, *, lang: str = "en",
             bold: bool = False, align: str = "left", min_size: float = 4.0) -> float:
    """Draw one line of ``text`` in at most ``width`` points: shrunk down to ``min_size``, then cut
    with an ellipsis. Latin and CJK runs get their own fonts. Returns the size used. ``align`` is
    ``left``, ``centre`` or ``right`` (``x`` is then the centre or the right edge)."""
    if not text:
        return max_size
    full = mixed_width(text, max_size, lang, bold)
    size = max(min_size, max_size * width / full) if full > width else max_size
    if mixed_width(text, size, lang, bold) > width + 0.01:
        text = _cut(text, size, width, lang, bold)
    pieces = runs(text, lang, bold)
    if align != "left":
        total = mixed_width(text, size, lang, bold)
        x -= total / 2 if align == "centre" else total
    if len(pieces) == 1:
        canv.setFont(pieces[0][1], size)
        canv.drawString(x, y, text)
        return size
    t = canv.beginText(x, y)
    for run, font in pieces:
        t.setFont(font, size)
        t.textOut(run)
    canv.drawText(t)
    return size


def _cut(text: str, size: float, width: float, lang: str, bold: bool) -> str:
    """The longest prefix of ``text`` that fits in ``width`` with an ellipsis after it."""
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if mixed_width(text[:mid].rstrip() + "…", size, lang, bold) <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…"


def wrap(text: str, size: float, width: float, lang: str = "en", bold: bool = False) -> list[str]:
    """Break ``text`` into lines of at most ``width`` points: at spaces where there are any, else
    anywhere (hex digests, CJK)."""
    def fits(candidate: str) -> bool:
        return mixed_width(candidate, size, lang, bold) <= width

    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            candidate = f"{line} {word}" if line else word
            if fits(candidate):
                line = candidate
                continue
            if line:
                lines.append(line)
            line = ""
            for ch in word:
                if line and not fits(line + ch):
                    lines.append(line)
                    line = ""
                line += ch
        lines.append(line)
    return lines


def draw_lines(canv: Any, lines: list[str], x: float, y_top: float, size: float, *, lang: str = "en",
               bold: bool = False, leading: float | None = None, width: float = 10000) -> float:
    """Draw ``lines`` from ``y_top`` (top of the first line) down; returns the y below the last line."""
    leading = leading or size * 1.2
    y = y_top - size
    for line in lines:
        draw_fit(canv, line, x, y, width, size, lang=lang, bold=bold, min_size=size)
        y -= leading
    return y + leading - size * 0.25


def checkbox(canv: Any, x: float, y: float, size: float = 3 * mm) -> None:
    """An empty square to tick, bottom-left corner at ``(x, y)``."""
    canv.rect(x, y, size, size, stroke=1, fill=0)
