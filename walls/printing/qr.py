"""QR codes drawn as vector paths (one filled rectangle per run of dark modules).

Vector codes stay sharp at any printer resolution and cost a few hundred bytes; the matrix of a
payload is computed once and cached, and :class:`FormCache` lets a document draw the same code
many times (a set's code on each of its 136 stickers) while storing it once.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from collections.abc import Callable
from typing import Any

import qrcode
from qrcode.constants import (
    ERROR_CORRECT_H,
    ERROR_CORRECT_L,
    ERROR_CORRECT_M,
    ERROR_CORRECT_Q,
)

_ECC = {"L": ERROR_CORRECT_L, "M": ERROR_CORRECT_M, "Q": ERROR_CORRECT_Q, "H": ERROR_CORRECT_H}


STICKER_MASK = 2
"""The mask pattern of the wall stickers' codes, one per slot (thousands a session): a fixed
pattern (any of the eight is a valid QR code) spares the search for the best one, which is nearly
all of the time spent making a code; tests/test_sticker_strips.py decodes every one."""


STICKER_VERSION = 4
"""The largest QR version (33 modules a side) a wall sticker's code should need: at error
correction M its URL of up to 90 alphanumeric characters (docs/printing.md, "Sticker codes")."""


@lru_cache(maxsize=8192)
def sticker_ecc(data: str) -> str:
    """The error correction of a wall sticker's code holding ``data``: ``"M"`` (15 % of the code
    may be lost) when that fits :data:`STICKER_VERSION`, else ``"L"`` (7 %), which keeps a URL
    whose address has a lower-case path (written a byte a character) at version 4 up to 80 bytes."""
    modules, _ = qr_runs(data, "M", STICKER_MASK)
    return "M" if modules <= 17 + 4 * STICKER_VERSION else "L"


def sticker_module(side: float, data: str) -> float:
    """The module of a wall sticker's code holding ``data`` drawn in a square of ``side`` (any
    unit; the result is in it) with a quiet zone of 2 modules a side, at the error correction of
    :func:`sticker_ecc`."""
    modules, _ = qr_runs(data, sticker_ecc(data), STICKER_MASK)
    return side / (modules + 4)


@lru_cache(maxsize=8192)
def qr_runs(data: str, ecc: str = "M", mask: int | None = None) -> tuple[int, tuple[tuple[int, int, int], ...]]:
    """The QR code of ``data`` as ``(modules, runs)``: the side in modules (quiet zone excluded)
    and each horizontal run of dark modules as ``(row, first column, length)``, row 0 at the top.
    ``mask`` fixes the mask pattern (0-7); None picks the best, as the standard describes."""
    code = qrcode.QRCode(error_correction=_ECC[ecc], border=0, mask_pattern=mask)
    code.add_data(data)
    code.make(fit=True)
    matrix = code.get_matrix()
    runs = []
    for r, row in enumerate(matrix):
        c = 0
        while c < len(row):
            if row[c]:
                start = c
                while c < len(row) and row[c]:
                    c += 1
                runs.append((r, start, c - start))
            else:
                c += 1
    return len(matrix), tuple(runs)


def draw_qr(canv: Any, data: str, x: float, y: float, size: float, *, quiet: int = 4, ecc: str = "M",
            mask: int | None = None) -> None:
    """Draw the QR code of ``data`` in the square ``(x, y, size)`` (points, bottom-left corner).

    ``size`` includes a white quiet zone of ``quiet`` modules on each side (the standard asks for
    4; 2 still scans when the surroundings are blank). The square is painted white first so the
    code also reads on a tinted background.
    """
    n, runs = qr_runs(data, ecc, mask)
    module = size / (n + 2 * quiet)
    top = y + size - quiet * module
    left = x + quiet * module
    ops = ["q 1 g", f"{x:.3f} {y:.3f} {size:.3f} {size:.3f} re f 0 g"]  # written as PDF operators: thousands a run
    ops.extend(f"{left + c * module:.3f} {top - (r + 1) * module:.3f} {length * module:.3f} {module:.3f} re"
               for r, c, length in runs)
    ops.append("f Q")
    canv._code.append("\n".join(ops))


class FormCache:
    """Per-document cache of Form XObjects: drawn once, placed many times, stored once.

    :meth:`place` defines the form named by ``key`` on first use by calling ``draw(canvas)`` in a
    ``width`` × ``height`` box with the origin at its bottom-left corner, then draws it with its
    origin at ``(x, y)``, scaled by ``scale``. Placing writes one line of page content
    (``q s 0 0 s x y cm /Name Do Q``) instead of reportlab's save/transform/restore calls: a
    print run places a form on each of thousands of stickers and labels.
    """

    def __init__(self, canv: Any) -> None:
        self.canv = canv
        self._defined: dict[str, str] = {}

    def define(self, key: str, width: float, height: float, draw: Callable[..., Any]) -> str:
        """Define the form for ``key`` if needed; returns its reportlab form name."""
        name = self._defined.get(key)
        if name is None:
            name = "F" + hashlib.sha1(key.encode()).hexdigest()[:20]
            self.canv.beginForm(name, 0, 0, width, height)
            draw(self.canv)
            self.canv.endForm()
            self._defined[key] = name
        return name

    def place(self, key: str, width: float, height: float, draw: Callable[..., Any], x: float, y: float,
              scale: float = 1.0) -> None:
        op = self.op(key, width, height, draw, x, y, scale)  # first: defining a form may swap the page's code list
        self.canv._code.append(op)

    def op(self, key: str, width: float, height: float, draw: Callable[..., Any], x: float, y: float, scale: float = 1.0) -> str:
        """The page-content line that places the form (defining it first if needed) and marks the
        form as used on the current page; the caller appends the line to the page."""
        name = self.define(key, width, height, draw)
        xobject = self.canv._doc.getXObjectName(name)
        self.canv._formsinuse.append(name)
        return f"q {scale:.5f} 0 0 {scale:.5f} {x:.3f} {y:.3f} cm /{xobject} Do Q"

    def place_qr(self, data: str, x: float, y: float, size: float, *, quiet: int = 4, ecc: str = "M") -> None:
        """Draw the QR code of ``data`` as a cached form (see :func:`draw_qr`)."""
        op = self.qr_op(data, x, y, size, quiet=quiet, ecc=ecc)
        self.canv._code.append(op)

    def qr_op(self, data: str, x: float, y: float, size: float, *, quiet: int = 4, ecc: str = "M",
              mask: int | None = None) -> str:
        """:meth:`op` for the QR code of ``data`` (``mask``: :func:`qr_runs`)."""
        unit = 100.0
        return self.op(f"qr{quiet}{ecc}{mask}{data}", unit, unit,
                       lambda c: draw_qr(c, data, 0, 0, unit, quiet=quiet, ecc=ecc, mask=mask), x, y, size / unit)
