"""Calling the director from a table (the table page's "Call the director" button) and the
director answering (docs/director-guide.md, "Calls from the tables").

A call names the table (and so its room), a reason and an optional note. It is idempotent like a
result write: the phone makes a key for each call (:mod:`scoring.actions.request_keys` is the
same scheme), so a call sent again after a lost connection, or from the page's offline queue, is
stored once. The director's calls page lists the open ones, oldest first, and marks each
answered when the director has gone to the table. A call reveals nothing to anyone but the
director and staff.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.models import DirectorCall, Event, Table
from tournament.seating import SetupError

NOTE_LENGTH = 200


def call_director(table: Table, *, reason: str, note: str = "", actor: str = "",
                  request_key: str | None = None) -> DirectorCall:
    """Store a call of ``table`` (with ``group__session__event`` loaded) for ``reason`` (one of
    :class:`tournament.models.DirectorCall.Reason`) and returns it; ``note``: what the table adds
    (cut to :data:`NOTE_LENGTH` characters); ``actor``: who is calling (the account, or the
    table's scorer). A call with a ``request_key`` already stored is returned as stored, not made
    again. One INSERT (one SELECT more for a repeat). Raises SetupError ``reason`` for an unknown
    reason, naming the reasons."""
    if reason not in DirectorCall.Reason.values:
        raise SetupError("reason", _("choose why you call: %(reasons)s") % {
            "reasons": ", ".join(str(label) for label in DirectorCall.Reason.labels)})
    key = (request_key or "").strip()[:64] or None
    try:
        with transaction.atomic():
            return DirectorCall.objects.create(
                event=table.group.session.event, table=table, reason=reason, note=str(note or "").strip()[:NOTE_LENGTH],
                called_by=(actor or "")[:150], request_key=key)
    except IntegrityError:
        stored = DirectorCall.objects.filter(request_key=key, table=table).first() if key else None
        if stored is None:
            raise
        return stored


def open_calls(event: Event) -> list[dict]:
    """The event's unanswered calls, oldest first: ``{"id", "table", "table_id", "room", "session",
    "reason" (code), "reason_label" (in the active language), "note", "called_by", "called_at"
    (ISO 8601), "waiting_minutes"}``. One query."""
    now = timezone.now()
    rows = (DirectorCall.objects.filter(event=event, answered_at__isnull=True)
            .select_related("table__group__session", "table__room").order_by("called_at", "id"))
    return [{
        "id": c.pk, "table": c.table.number, "table_id": c.table_id,
        "room": c.table.room.name if c.table.room_id else "", "session": c.table.group.session.number,
        "reason": c.reason, "reason_label": str(c.get_reason_display()), "note": c.note, "called_by": c.called_by,
        "called_at": c.called_at.isoformat(), "waiting_minutes": max(0, int((now - c.called_at).total_seconds()) // 60),
    } for c in rows]


@transaction.atomic
def answer_call(event: Event, call_id: int, *, actor: str) -> DirectorCall:
    """Mark the event's call ``call_id`` answered by ``actor`` (now); a call already answered is
    returned as it is. Raises SetupError ``call`` for a call that is not the event's."""
    call = DirectorCall.objects.select_for_update().filter(event=event, pk=call_id).first()
    if call is None:
        raise SetupError("call", _("no such call in this event: reload the calls page"))
    if call.answered_at is None:
        call.answered_at, call.answered_by = timezone.now(), (actor or "")[:150]
        call.save(update_fields=["answered_at", "answered_by"])
    return call
