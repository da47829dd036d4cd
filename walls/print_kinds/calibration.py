"""The calibration page of a label stock (docs/printing.md, "Label templates"): no event data."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from tournament.models import Event
from walls import printing
from walls.print_kinds.base import PrintKind


def _calibration(event: Event, template: str = printing.DEFAULT_TEMPLATE) -> bytes:
    return printing.render_calibration(printing.get_template(template))



KINDS = (
    PrintKind("calibration", gettext_lazy("Calibration page"), _calibration, ("template",), in_batch=False,
              per_session=False),
)
"""The calibration page's kind."""
