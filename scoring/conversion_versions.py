"""Write paths for an event's conversion table: new versions (edited, imported or fitted) and
rescoring every set with the current version.

Every save creates a NEW :class:`scoring.models.ConversionTable` row (same event and code, the
next version), marks it ``current`` in place of the previous one and rescores every scored set
with it in the same transaction (:func:`save_table_version`): the event's stored converted
scores never mix versions after a save, and each names the version it was converted with.
Validation is :mod:`scoring.conversion`'s: a refused table raises
:class:`~scoring.conversion.ConversionTableError` naming the row, and nothing is stored or
rescored.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Count, Max
from django.utils.translation import gettext as _

from scoring.actions.rescoring import rescore_set
from scoring.conversion import ConversionTable as PlainTable
from scoring.conversion import ConversionTableError
from scoring.models import ConversionTable, HandResult, SetScore
from tournament.models import Event

SAVED_ACTION = "conversion-table-saved"


@transaction.atomic
def save_table_version(event: Event, table: PlainTable, *, source: str = "", actor: str = "") -> ConversionTable:
    """Store ``table`` (a validated :class:`scoring.conversion.ConversionTable`) as the event's next
    conversion table version, make it current and rescore every scored set with it
    (:func:`rescore_event`), all in one transaction; returns the stored row.

    The code stays the current table's (``mcr-mp``, ``wbf-imp``...); the version is one more
    than the highest stored for that code in the event (the event row is locked, so two
    directors saving at once get two versions). ``source`` defaults to the table's own.
    Afterwards every stored converted score names the new version (docs/scoring.md, "Conversion tables": a save never
    leaves scores of two versions in the standings). Writes an
    :class:`~tournament.models.AuditEntry` (``conversion-table-saved``, by ``actor``) with
    ``{"code", "version", "rescored"}`` (converted scores stored).
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    current = ConversionTable.objects.current(event)
    code = current.code if current else "custom"
    highest = event.conversion_tables.filter(code=code).aggregate(v=Max("version"))["v"] or 0
    ConversionTable.objects.filter(event=event, current=True).update(current=False)
    saved = ConversionTable.objects.create(event=event, code=code, name=table.name.strip() or code,
                                           source=source or table.source, version=highest + 1, rows=table.rows(),
                                           current=True)
    rescored = rescore_event(event)
    event.log(SAVED_ACTION, actor, code=code, version=saved.version, rescored=rescored)
    return saved


def save_table_csv(event: Event, csv_text: str, *, name: str, source: str = "", actor: str = "") -> ConversionTable:
    """Read ``csv_text`` (header ``from,to,points``, docs/scoring.md) and store it as the next
    version, rescoring the event with it (:func:`save_table_version`). Raises
    ConversionTableError naming the row and CSV line (or ``name`` when the name is empty);
    nothing is stored or rescored then."""
    if not name.strip():
        raise ConversionTableError(None, "name", _("give the table a name, e.g. MCR duplicate MP"))
    return save_table_version(event, PlainTable.from_csv(csv_text, name=name.strip(), source=source), source=source,
                              actor=actor)


@transaction.atomic
def rescore_event(event: Event) -> int:
    """Rescore every set that has a result or a stored score with the event's current conversion
    table (:func:`scoring.actions.rescoring.rescore_set`, one transaction for all); returns how many
    converted scores were stored."""
    event = Event.objects.get(pk=event.pk)
    sets = set(HandResult.objects.filter(event=event).values_list("session_number", "set_no").distinct())
    sets |= set(SetScore.objects.filter(event=event).values_list("session_number", "set_no").distinct())
    return sum(rescore_set(event, session, set_no) for session, set_no in sorted(sets))


def table_versions(event: Event) -> list[dict]:
    """Every stored version of the event's conversion tables, newest first: ``{"table" (the
    row), "current", "scores" (converted scores computed with it)}``."""
    used = dict(SetScore.objects.filter(event=event).values("conversion_table_id").annotate(n=Count("id"))
                .order_by().values_list("conversion_table_id", "n"))
    return [{"table": t, "current": t.current, "scores": used.get(t.pk, 0)}
            for t in event.conversion_tables.order_by("-pk")]
