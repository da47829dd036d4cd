"""The calibration page of a label stock (docs/printing.md, "Label templates"): no event data."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from tournament.models import Event
from walls import printing
from walls.print_kinds.base import PrintKind, event_tile
from walls.printing.strips import render_strip_calibration


def _calibration(event: Event, template: str = printing.DEFAULT_TEMPLATE, lang: str = "en") -> bytes:
    """A grid stock's alignment page; for a full-sheet stock of row strips, a strip at the pitch of
    the event's tiles to lay tiles on (:func:`walls.printing.strips.render_strip_calibration`)."""
    stock = printing.get_template(template)
    if stock.strips:
        return render_strip_calibration(event_tile(event), stock, lang=lang)
    return printing.render_calibration(stock)



KINDS = (
    PrintKind("calibration", gettext_lazy("Calibration page"), _calibration, ("template", "lang"), in_batch=False,
              per_session=False),
)
"""The calibration page's kind."""
