"""Set labels (one per physical wall set) and the calibration page of a label template.

A set label goes on the box or frame of a physical set. Its QR code holds the set's payload, or
the entry URL when the event is public (scanning it opens result entry for that set); beside it
the event, session and set number, the set code with its check digit in large type, the table
that plays the set first, and the event's seed commitment: the first 16 hex digits large enough
to read aloud and the full SHA-256 in small print, so anyone can later check the revealed seed.
A reserve wall's label (docs/walls.md, "Reserve walls") carries its own set code and payload and
says "RESERVE WALL R1 for set 1-07" where the first table would be.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reportlab.lib.units import mm

from walls.printing.base import draw_fit, draw_lines, finish, new_canvas, wrap
from walls.printing.data import PrintableSet
from walls.printing.fonts import fonts
from walls.printing.i18n import check_lang, numbered, reserve_heading, word
from walls.printing.qr import FormCache
from walls.printing.templates import (
    DEFAULT_LABEL_TEMPLATE,
    LabelTemplate,
    get_template,
    label_boxes,
)


def _template(template: LabelTemplate | str | None, default: str) -> LabelTemplate:
    if template is None:
        template = default
    return get_template(template) if isinstance(template, str) else template


def render_set_labels(sets: Sequence[PrintableSet], template: LabelTemplate | str | None = None,
                      lang: str = "en") -> bytes:
    """PDF with one label per set on ``template`` stock (default ``a4-21``, 63.5 × 38.1 mm).

    The words on a label (session, set, first table, seed commitment) are in ``lang``
    (walls/printing/i18n.py). Raises ValueError for an unknown language, TemplateError for an
    unknown template name.
    """
    lang = check_lang(lang)
    template = _template(template, DEFAULT_LABEL_TEMPLATE)
    title = f"{sets[0].event_name} — {word('labels', lang)}" if sets else word("labels", lang)
    canv, buf = new_canvas(template.page_points, title)
    forms = FormCache(canv)
    boxes = label_boxes(template)
    per = len(boxes)
    for start in range(0, max(len(sets), 1), per):
        for (x, y, w, h), pset in zip(boxes, sets[start:start + per]):
            _draw_set_label(canv, forms, pset, x, y, w, h, lang)
        canv.showPage()
    return finish(canv, buf)


def _draw_set_label(canv: Any, forms: FormCache, pset: PrintableSet, x: float, y: float, w: float, h: float, lang: str) -> None:
    pad = max(1.2 * mm, min(2.5 * mm, h * 0.06))
    inner_h = h - 2 * pad
    qr_size = min(inner_h, w * 0.45)
    forms.place_qr(pset.label_payload, x + pad, y + h - pad - qr_size, qr_size, quiet=2, ecc="M")
    tx = x + pad + qr_size + pad
    tw = x + w - pad - tx
    top = y + h - pad
    sid = pset.set_id
    canv.setFillColorRGB(0, 0, 0)
    unit = min(inner_h / 9.5, 8.5)
    draw_fit(canv, pset.event_name, tx, top - unit, tw, unit, lang=lang, bold=True, min_size=3.5)
    session = f"{numbered('session', sid.session, lang)} · {numbered('set', sid.set_no, lang)}"
    draw_fit(canv, session, tx, top - unit * 2.25, tw, unit * 0.95, lang=lang, min_size=3.5)
    draw_fit(canv, sid.code, tx, top - unit * 4.35, tw, unit * 2.2, bold=True, min_size=6)
    if sid.reserve:
        draw_fit(canv, reserve_heading(sid.reserve_label, sid.set_code, lang), tx, top - unit * 5.6, tw, unit * 0.95,
                 lang=lang, bold=True, min_size=3.5)
    elif pset.first_table:
        draw_fit(canv, f"{word('first', lang)}: {pset.first_table}", tx, top - unit * 5.6, tw, unit * 0.95,
                 lang=lang, bold=True, min_size=3.5)
    if pset.commitment:
        # the word, then the commitment once, in full (a verifier compares every digit)
        draw_fit(canv, f"{word('commitment', lang)}:", tx, top - unit * 6.75, tw, unit * 0.8, lang=lang, min_size=3.2)
        small = max(3.0, unit * 0.5)
        lines = wrap(pset.commitment, small, tw)
        bottom = y + pad
        avail = top - unit * 7.2 - bottom
        if len(lines) * small * 1.15 > avail:
            lines = wrap(pset.commitment, small, x + w - pad - (x + pad))
            draw_lines(canv, lines, x + pad, bottom + len(lines) * small * 1.15, small, leading=small * 1.15)
        else:
            draw_lines(canv, lines, tx, top - unit * 7.2, small, leading=small * 1.15)
    ruleset_name = getattr(pset.ruleset, "name", "")
    if ruleset_name and not pset.commitment:
        draw_fit(canv, ruleset_name, tx, top - unit * 6.75, tw, unit * 0.8, min_size=3.2)


def render_calibration(template: LabelTemplate | str) -> bytes:
    """A page to check printer alignment for ``template``: every label outlined and numbered,
    a cross at each label centre, millimetre rulers along the top and left edges, and 100 mm
    reference bars. Print it on plain paper at 100 %, lay it on a label sheet against the light:
    the outlines must match the labels."""
    template = _template(template, "a4-70")
    fs = fonts()
    canv, buf = new_canvas(template.page_points, f"Calibration — {template.name}")
    page_w, page_h = template.page_points
    canv.setStrokeColorRGB(0, 0, 0)
    canv.setFillColorRGB(0, 0, 0)
    _rulers(canv, page_w, page_h)
    canv.setLineWidth(0.8)
    bar_x, bar_y = page_w / 2 - 50 * mm, page_h / 2
    canv.line(bar_x, bar_y, bar_x + 100 * mm, bar_y)
    for dx in (0, 100 * mm):
        canv.line(bar_x + dx, bar_y - 2 * mm, bar_x + dx, bar_y + 2 * mm)
    canv.line(page_w / 2, bar_y - 50 * mm, page_w / 2, bar_y + 50 * mm)
    for dy in (-50 * mm, 50 * mm):
        canv.line(page_w / 2 - 2 * mm, bar_y + dy, page_w / 2 + 2 * mm, bar_y + dy)
    t = template
    lines = [
        f"Label template {t.name}: {t.describe()}",
        f"page {t.page_mm[0]:.1f} × {t.page_mm[1]:.1f} mm · {t.rows} rows × {t.columns} columns · "
        f"labels {t.label_width:g} × {t.label_height:g} mm · pitch {t.pitch_x:g} × {t.pitch_y:g} mm · "
        f"margins top {t.margin_top:g}, left {t.margin_left:g} mm",
        "Print at 100 % (actual size, no 'fit to page'). Both bars must measure 100 mm.",
        "Lay this page on a label sheet against the light: the outlines must match the labels. If they are",
        "shifted, correct the printer's offset or the template margins, then print this page again.",
    ]
    box_w = 150 * mm
    box_h = len(lines) * 10 + 8
    bx, by = (page_w - box_w) / 2, bar_y - 50 * mm - 8 * mm - box_h
    canv.setFillColorRGB(1, 1, 1)
    canv.rect(bx, by, box_w, box_h, stroke=1, fill=1)
    canv.setFillColorRGB(0, 0, 0)
    yy = by + box_h - 12
    for line in lines:
        draw_fit(canv, line, bx + 4, yy, box_w - 8, 7.5)
        yy -= 10
    # outlines last, so that the notes and bars never hide one
    canv.setLineWidth(0.4)
    canv.setStrokeColorRGB(0.2, 0.2, 0.7)
    for i, (x, y, w, h) in enumerate(label_boxes(template), start=1):
        canv.rect(x, y, w, h, stroke=1, fill=0)
        cx, cy = x + w / 2, y + h / 2
        arm = min(w, h) * 0.12
        canv.line(cx - arm, cy, cx + arm, cy)
        canv.line(cx, cy - arm, cx, cy + arm)
        canv.setFillColorRGB(0.2, 0.2, 0.7)
        canv.setFont(fs.latin, min(7, h * 0.2))
        canv.drawString(x + 1.2 * mm, y + h - min(7, h * 0.2) - 0.8 * mm, str(i))
    canv.showPage()
    return finish(canv, buf)


def _rulers(canv: Any, page_w: float, page_h: float) -> None:
    """Millimetre ticks along the top and left page edges, numbered every 10 mm from the corner."""
    fs = fonts()
    canv.setLineWidth(0.25)
    canv.setFont(fs.latin, 5)
    for i in range(0, int(page_w / mm) + 1):
        length = 4 if i % 10 == 0 else 2.5 if i % 5 == 0 else 1.5
        x = i * mm
        canv.line(x, page_h, x, page_h - length * mm)
        if i % 10 == 0 and i:
            canv.drawCentredString(x, page_h - 6.5 * mm, str(i))
    for i in range(0, int(page_h / mm) + 1):
        length = 4 if i % 10 == 0 else 2.5 if i % 5 == 0 else 1.5
        y = page_h - i * mm
        canv.line(0, y, length * mm, y)
        if i % 10 == 0 and i:
            canv.drawString(5 * mm, y - 1.7, str(i))
