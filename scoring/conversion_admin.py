"""Write paths for an event's conversion table: new versions (edited, imported or fitted) and
rescoring every set with the current version.

Every save creates a NEW :class:`scoring.models.ConversionTable` row (same event and code, the
next version) and marks it ``current`` in place of the previous one; nothing stored is changed, so every
converted score keeps the version it was computed with until the director explicitly rescores
(:func:`rescore_event`). Validation is :mod:`scoring.conversion`'s: a refused table raises
:class:`~scoring.conversion.ConversionTableError` naming the row, and nothing is stored.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Count, Max
from django.utils.translation import gettext as _

from scoring.conversion import ConversionTable as PlainTable
from scoring.conversion import ConversionTableError
from scoring.models import ConversionTable, HandResult, SetScore
from scoring.services import rescore_set
from tournament.models import Event


@transaction.atomic
def save_table_version(event: Event, table: PlainTable, *, source: str = "") -> ConversionTable:
    """Store ``table`` (a validated :class:`scoring.conversion.ConversionTable`) as the event's next
    conversion table version and make it current; returns the stored row.

    The code stays the current table's (``mcr-mp``, ``wbf-imp``...); the version is one more
    than the highest stored for that code in the event (the event row is locked, so two
    directors saving at once get two versions). ``source`` defaults to the table's own.
    Stored converted scores keep their version.
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    current = ConversionTable.objects.current(event)
    code = current.code if current else "custom"
    highest = event.conversion_tables.filter(code=code).aggregate(v=Max("version"))["v"] or 0
    ConversionTable.objects.filter(event=event, current=True).update(current=False)
    return ConversionTable.objects.create(event=event, code=code, name=table.name.strip() or code, source=source or table.source,
                                          version=highest + 1, rows=table.rows(), current=True)


def save_table_csv(event: Event, csv_text: str, *, name: str, source: str = "") -> ConversionTable:
    """Read ``csv_text`` (header ``from,to,points``, docs/scoring.md) and store it as the next
    version (:func:`save_table_version`). Raises ConversionTableError naming the row and CSV line
    (or ``name`` when the name is empty); nothing is stored then."""
    if not name.strip():
        raise ConversionTableError(None, "name", _("give the table a name, e.g. MCR duplicate MP"))
    return save_table_version(event, PlainTable.from_csv(csv_text, name=name.strip(), source=source), source=source)


@transaction.atomic
def rescore_event(event: Event) -> int:
    """Rescore every set that has a result with the event's current conversion table
    (:func:`scoring.services.rescore_set`, one transaction for all); returns how many converted
    scores were stored."""
    event = Event.objects.get(pk=event.pk)
    sets = (HandResult.objects.filter(event=event).values_list("session_number", "set_no")
            .distinct().order_by("session_number", "set_no"))
    return sum(rescore_set(event, session, set_no) for session, set_no in sets)


def table_versions(event: Event) -> list[dict]:
    """Every stored version of the event's conversion tables, newest first: ``{"table" (the
    row), "current", "scores" (converted scores computed with it)}``."""
    used = dict(SetScore.objects.filter(event=event).values("conversion_table_id").annotate(n=Count("id"))
                .order_by().values_list("conversion_table_id", "n"))
    return [{"table": t, "current": t.current, "scores": used.get(t.pk, 0)}
            for t in event.conversion_tables.order_by("-pk")]
