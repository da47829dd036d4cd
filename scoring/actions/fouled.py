"""The director's fouled marks: a table's play of a set was not the same deal as at the other
tables (docs/scoring.md, "Fouled sets and reserve walls"). Each mark or clearing locks the
comparison scope (:func:`scoring.actions.locks.lock_scope`), writes an audit entry and rescores
the set."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.actions.errors import ResultError
from scoring.actions.locks import lock_scope
from scoring.actions.rescoring import rescore_set
from scoring.models import FouledPlay
from scoring.payments import signed_points
from tournament.models import Event, Table
from tournament.table_plan import table_plan

MAX_FOULED_VERSION = 99
"""The highest fouled version number a director may give (versions group tables: a handful)."""


@transaction.atomic
def mark_fouled(event: Event, table: Table, set_no: int, *, version: int = 1, reason: str, actor: str) -> FouledPlay:
    """The director marks ``table``'s play of set ``set_no`` fouled (the Laws of Duplicate Bridge,
    Law 87, adapted: docs/scoring.md, "Fouled sets and reserve walls"): the set was not the same
    deal there as at the other tables. ``version`` (1, 2...) groups the tables that played the
    same wrong deal. Marking again updates the mark (version, reason); marking again with the
    same version and reason changes nothing. Writes an :class:`~tournament.models.AuditEntry`
    (``fouled-marked``: table, session, set, version, reason, previous version) and rescores
    the set (:func:`~scoring.actions.rescoring.rescore_set`). Returns the mark.

    Raises ResultError: no reason (``reason``), a version that is not a whole number from 1 to
    99 (``version``), a table of another event (``table``), a set the table does not play in
    its session (``set``).
    """
    reason = str(reason or "").strip()
    if not reason:
        raise ResultError("reason", _("give the reason the set was fouled at this table, e.g. 'two tiles swapped between piles'"))
    number = signed_points(version)
    if number is None or not 1 <= number <= MAX_FOULED_VERSION:
        raise ResultError("version", _("the version must be a whole number from 1 to %(max)s: tables that played the same wrong "
                                       "set share a number") % {"max": MAX_FOULED_VERSION})
    version = number
    table = Table.objects.select_related("group__session").get(pk=table.pk)
    if table.group.session.event_id != event.pk:
        raise ResultError("table", _("Table %(table)s is not a table of this event") % {"table": table.number})
    _check_table_plays(table, set_no)
    lock_scope(event, table.pk)
    session_number = table.group.session.number
    fouled = FouledPlay.objects.select_for_update().filter(table=table, set_no=set_no).first()
    previous = fouled.version if fouled is not None else None
    if fouled is not None and fouled.version == version and fouled.reason == reason:
        return fouled
    if fouled is None:
        fouled = FouledPlay.objects.create(event=event, table=table, session_number=session_number, set_no=set_no,
                                           version=version, reason=reason, marked_by=str(actor)[:150])
    else:
        fouled.version, fouled.reason, fouled.marked_by = version, reason, str(actor)[:150]
        fouled.save(update_fields=["version", "reason", "marked_by"])
    rescore_set(event, session_number, set_no, table.group_id)
    event.log("fouled-marked", actor, table=table.number, table_id=table.pk, session=session_number, set=set_no,
              version=version, reason=reason, previous_version=previous)  # last: it bumps the version row
    return fouled


def _check_table_plays(table: Table, set_no: int) -> None:
    """Refuse (``set``) a set that ``table`` does not play in its session (the movement's
    schedule in its table plan, :mod:`tournament.table_plan`)."""
    played = sorted(table_plan(table).sets(table))
    if set_no not in played:
        raise ResultError("set", _("Table %(table)s does not play set %(set)s in session %(session)s: it plays sets %(sets)s")
                          % {"table": table.number, "set": set_no, "session": table.group.session.number,
                             "sets": ", ".join(str(s) for s in played)})


@transaction.atomic
def clear_fouled(fouled: FouledPlay, *, actor: str, reason: str = "") -> None:
    """The director's undo of :func:`mark_fouled`: the table's play of the set counts again as the
    version it played before (as prepared, or its reserve wall). Writes an
    :class:`~tournament.models.AuditEntry` (``fouled-cleared``: table, session, set, the version
    cleared, the mark's reason and ``reason``) and rescores the set. Clearing a mark already
    cleared does nothing."""
    table = Table.objects.select_related("group__session__event").get(pk=fouled.table_id)
    event = table.group.session.event
    lock_scope(event, table.pk)
    found = FouledPlay.objects.select_for_update().filter(pk=fouled.pk).first()
    if found is None:
        return
    found.delete()
    rescore_set(event, found.session_number, found.set_no, table.group_id)
    event.log("fouled-cleared", actor, table=table.number, table_id=table.pk, session=found.session_number,
              set=found.set_no, version=found.version, marked_reason=found.reason, reason=str(reason or "").strip())
