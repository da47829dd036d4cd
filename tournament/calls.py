"""Calling the director from a table (the table page's "Call the director" button) and the
director answering (docs/director-guide.md, "Calls from the tables").

A call names the table (and so its room), a reason and an optional note. It is idempotent like a
result write: the phone makes a key for each call (:mod:`scoring.actions.request_keys` is the
same scheme), so a call sent again after a lost connection, or from the page's offline queue, is
stored once; a key another table's call used is refused (``request_key``), never a server
error. A table has one open call at most (a database constraint): calling again while it is open
is a repeat of that call, counted on it (``repeats``, with the reason and note of the latest),
and at most one repeat per :data:`REPEAT_SECONDS` is written, so a phone pressing the button in
a loop changes one row, not the director's page (500 calls in 39 s once made 500 rows). The
director's calls page lists the open ones, oldest first, and marks each answered when the
director has gone to the table; the table may then call again. A table makes at most
:data:`CALL_LIMIT` calls (its repeats included) in a window of :data:`CALL_WINDOW_SECONDS` from
its first: more are refused (429) saying when to call again, counted in the database
(:class:`tournament.models.TableCallWindow`) so the limit holds when the cache is down; the
director answering starts a new window. A call reveals nothing to anyone but the director and
staff.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from tournament.models import DirectorCall, Event, Table, TableCallWindow
from tournament.seating import SetupError

NOTE_LENGTH = 200
REPEAT_SECONDS = 30
"""A table's repeat of its open call is written at most once per this many seconds."""
CALL_LIMIT = 10
"""A table's calls (new or repeats) allowed in one window of :data:`CALL_WINDOW_SECONDS`."""
CALL_WINDOW_SECONDS = 600


class CallLimited(SetupError):
    """A table over its limit of calls (:data:`CALL_LIMIT` per :data:`CALL_WINDOW_SECONDS`):
    ``field`` ``call``, ``message`` says when to call again; ``retry_after`` the whole seconds to
    wait (answered as ``Retry-After``), ``until`` the time the table may call again."""

    status = 429

    def __init__(self, message: str, *, retry_after: int, until: datetime):
        super().__init__("call", message)
        self.retry_after = retry_after
        self.until = until


def call_director(table: Table, *, reason: str, note: str = "", actor: str = "",
                  request_key: str | None = None) -> DirectorCall:
    """Store a call of ``table`` (with ``group__session__event`` loaded) for ``reason`` (one of
    :class:`tournament.models.DirectorCall.Reason`) and return it; ``note``: what the table adds
    (cut to :data:`NOTE_LENGTH` characters); ``actor``: who is calling (the account, or the
    table's scorer). A call with a ``request_key`` already stored for this table is returned as
    stored, not made again. While the table has an open call, a new one is a repeat of it: its
    count, time, reason and note are updated (at most once per :data:`REPEAT_SECONDS`; inside
    that, the open call is returned unchanged) and it is returned, marked ``repeated``. Every
    call but a replay of a stored key counts towards the table's limit (:func:`_count_call`).
    At most five queries (and savepoints). Raises SetupError ``reason`` for an unknown reason,
    naming the reasons, ``request_key`` for a key another table's call used (send the call with a
    new key), and :class:`CallLimited` (429) for a table over its limit."""
    if reason not in DirectorCall.Reason.values:
        raise SetupError("reason", _("choose why you call: %(reasons)s") % {
            "reasons": ", ".join(str(label) for label in DirectorCall.Reason.labels)})
    key = (request_key or "").strip()[:64] or None
    note = str(note or "").strip()[:NOTE_LENGTH]
    for _attempt in range(3):  # a race with the table's other phone: its call is then this one's repeat
        try:
            with transaction.atomic():
                if key:
                    used = DirectorCall.objects.filter(request_key=key).first()
                    if used is not None:
                        if used.table_id != table.pk:
                            raise SetupError("request_key", _("this call's key was already used by another table's call: "
                                                              "reload the page and call again"))
                        return used
                _count_call(table)
                open_call = DirectorCall.objects.select_for_update().filter(table=table, answered_at__isnull=True).first()
                if open_call is None:
                    return DirectorCall.objects.create(
                        event=table.group.session.event, table=table, reason=reason, note=note,
                        called_by=(actor or "")[:150], request_key=key)
                return _repeat(open_call, reason, note, actor)
        except IntegrityError:
            continue
    raise SetupError("reason", _("the call could not be stored: send it again"))


def _count_call(table: Table) -> None:
    """Count a call of ``table`` in its window (locked until the call's transaction ends, so
    the table's calls are counted one at a time), starting a new window when the last one is
    over. Raises :class:`CallLimited` when the window already holds :data:`CALL_LIMIT` calls;
    a refused call is not counted, so the window still ends when it said."""
    now = timezone.now()
    window, made = TableCallWindow.objects.select_for_update().get_or_create(
        table=table, defaults={"started_at": now, "calls": 1})
    if made:
        return
    until = window.started_at + timedelta(seconds=CALL_WINDOW_SECONDS)
    if until <= now:
        window.started_at, window.calls = now, 0
    elif window.calls >= CALL_LIMIT:
        wait = max(1, math.ceil((until - now).total_seconds()))
        raise CallLimited(_("Table %(table)s has called the director %(calls)s times in %(minutes)s minutes and the "
                            "call is on the director's list: stay at the table. Call again after %(time)s (in "
                            "%(wait)s min).") % {
            "table": table.number, "calls": window.calls, "minutes": CALL_WINDOW_SECONDS // 60,
            "time": formats.time_format(timezone.localtime(until), "TIME_FORMAT"), "wait": math.ceil(wait / 60)},
            retry_after=wait, until=until)
    window.calls += 1
    window.save(update_fields=["started_at", "calls"])


def _repeat(call: DirectorCall, reason: str, note: str, actor: str) -> DirectorCall:
    """The table called again while ``call`` (locked) is open: count it, with the latest reason,
    note and caller, unless the last call was less than :data:`REPEAT_SECONDS` ago."""
    now = timezone.now()
    last = call.last_called_at or call.called_at
    if (now - last).total_seconds() >= REPEAT_SECONDS:
        call.repeats += 1
        call.last_called_at, call.reason, call.called_by = now, reason, (actor or "")[:150]
        if note:
            call.note = note
        call.save(update_fields=["repeats", "last_called_at", "reason", "note", "called_by"])
    call.repeated = True
    return call


def open_calls(event: Event) -> list[dict]:
    """The event's unanswered calls, oldest first: ``{"id", "table", "table_id", "room", "session",
    "reason" (code), "reason_label" (in the active language), "note", "called_by", "called_at"
    (ISO 8601), "waiting_minutes", "repeats"}``. One query."""
    now = timezone.now()
    rows = (DirectorCall.objects.filter(event=event, answered_at__isnull=True)
            .select_related("table__group__session", "table__room").order_by("called_at", "id"))
    return [{
        "id": c.pk, "table": c.table.number, "table_id": c.table_id,
        "room": c.table.room.name if c.table.room_id else "", "session": c.table.group.session.number,
        "reason": c.reason, "reason_label": str(c.get_reason_display()), "note": c.note, "called_by": c.called_by,
        "called_at": c.called_at.isoformat(), "waiting_minutes": max(0, int((now - c.called_at).total_seconds()) // 60),
        "repeats": c.repeats,
    } for c in rows]


@transaction.atomic
def answer_call(event: Event, call_id: int, *, actor: str) -> DirectorCall:
    """Mark the event's call ``call_id`` answered by ``actor`` (now) and start a new window of the
    table's calls (the director has been to the table: it may call again at once); a call
    already answered is returned as it is. Raises SetupError ``call`` for a call that is not the event's."""
    call = DirectorCall.objects.select_for_update().filter(event=event, pk=call_id).first()
    if call is None:
        raise SetupError("call", _("no such call in this event: reload the calls page"))
    if call.answered_at is None:
        call.answered_at, call.answered_by = timezone.now(), (actor or "")[:150]
        call.save(update_fields=["answered_at", "answered_by"])
        TableCallWindow.objects.filter(table_id=call.table_id).delete()
    return call
