"""The session clock: a countdown per session that the director starts, pauses and extends, shown
on the director's page and the projector (docs/director-guide.md, "Clock and projector").

A clock is four stored values of :class:`~tournament.models.Session`: ``clock_duration`` (the
planned playing time, seconds; 0: no clock set), ``clock_extra`` (seconds added by "+5 min"),
``clock_elapsed`` (seconds run before the last start) and ``clock_started_at`` (when it was last
started; None: paused or never started). The time left is pure arithmetic on these and the
current time (:func:`remaining_seconds`); it goes below zero once the time is up (overtime).

The services lock the session row (``select_for_update``), write it and an
:class:`~tournament.models.AuditEntry` ("clock-started", "clock-paused", "clock-extended",
"clock-set") in one transaction, and are safe to repeat: starting a running clock, or pausing a
paused one, changes nothing and records nothing.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.errors import FieldError
from tournament.models import Event, Session, Table

MAX_MINUTES = 24 * 60
"""The longest playing time or extension one request may set (a day)."""


class ClockError(FieldError):
    """A clock request that cannot be served; ``field`` is ``minutes``."""


def remaining_seconds(duration: float, extra: float, elapsed: float, started_at: datetime | None,
                      now: datetime) -> float:
    """Seconds left on a clock: ``duration + extra - elapsed``, less the time since
    ``started_at`` when it runs (``started_at`` not None). Negative once the time is up
    (overtime). All in seconds; ``started_at`` and ``now`` are aware datetimes (a ``now`` before
    ``started_at``, a clock skew, counts as no time run)."""
    ran = elapsed
    if started_at is not None:
        ran += max(0.0, (now - started_at).total_seconds())
    return duration + extra - ran


def clock_remaining(session: Session, now: datetime | None = None) -> int:
    """Whole seconds left on ``session``'s clock at ``now`` (default: the current time), rounded
    up (a clock shows 0:00 only once the time is up; ``-1`` a second into overtime)."""
    left = remaining_seconds(session.clock_duration, session.clock_extra, session.clock_elapsed,
                             session.clock_started_at, now or timezone.now())
    return math.ceil(left)


def clock_state(session: Session, now: datetime | None = None, *, finished: bool = False) -> dict:
    """The clock of ``session`` for pages and JSON: ``{"session": number, "set": bool (a clock
    is set), "running": bool, "finished": bool, "remaining": int seconds (negative: overtime),
    "duration": seconds, "extra": seconds, "display": "M:SS" / "H:MM:SS" (with a leading "-" in
    overtime)}``.

    ``finished``: the session is over (every set public, :func:`scoring.visibility.session_finished`,
    asked by the caller): its clock no longer counts, whatever was stored (a director rarely stops
    a clock after the last hand), so ``running`` is False, ``remaining`` 0 and ``display``
    ``"0:00"``, and no page says the time is up."""
    remaining = 0 if finished else clock_remaining(session, now)
    return {
        "session": session.number, "set": session.clock_duration > 0,
        "running": session.clock_started_at is not None and not finished, "finished": finished,
        "remaining": remaining, "duration": session.clock_duration, "extra": session.clock_extra,
        "display": format_clock(remaining),
    }


def format_clock(seconds: int) -> str:
    """``754`` → ``"12:34"``, ``3725`` → ``"1:02:05"``, ``-65`` → ``"-1:05"``."""
    sign = "-" if seconds < 0 else ""
    hours, rest = divmod(abs(int(seconds)), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{sign}{hours}:{minutes:02d}:{secs:02d}" if hours else f"{sign}{minutes}:{secs:02d}"


def _minutes(minutes, *, allow_zero: bool = False) -> int:
    """``minutes`` (a number or text) as whole seconds; ClockError ("minutes") when it is not a
    number from 1 (0 with ``allow_zero``) to :data:`MAX_MINUTES`."""
    try:
        value = float(str(minutes).replace(",", ".").strip())
    except ValueError:
        value = math.nan
    low = 0 if allow_zero else 1
    if not (low <= value <= MAX_MINUTES):
        raise ClockError("minutes", _("type the minutes as a number from %(low)s to %(high)s")
                         % {"low": low, "high": MAX_MINUTES})
    return round(value * 60)


def _locked(session: Session) -> Session:
    return Session.objects.select_for_update().select_related("event").get(pk=session.pk)


def _audit(session: Session, action: str, actor, **detail) -> None:
    session.event.log(action, actor, session=session.number, **detail)


def _copy(target: Session, source: Session) -> Session:
    for field in ("clock_duration", "clock_extra", "clock_elapsed", "clock_started_at"):
        setattr(target, field, getattr(source, field))
    return target


@transaction.atomic
def start_clock(session: Session, *, minutes=None, actor) -> Session:
    """Start (or resume) ``session``'s clock. ``minutes``, when given on a clock that never ran,
    sets the playing time (a clock with no time set needs it: ClockError "minutes"); a running
    clock is left as it is (nothing recorded). Audit "clock-started" with the seconds left.
    Returns ``session`` with the stored values."""
    row = _locked(session)
    if row.clock_started_at is not None:
        return _copy(session, row)
    if minutes not in (None, "") and row.clock_elapsed == 0 and row.clock_extra == 0:
        row.clock_duration = _minutes(minutes)
    if row.clock_duration <= 0:
        raise ClockError("minutes", _("type the playing time in minutes, then press Start"))
    now = timezone.now()
    row.clock_started_at = now
    row.save(update_fields=["clock_duration", "clock_started_at"])
    _audit(row, "clock-started", actor, remaining=clock_remaining(row, now))
    return _copy(session, row)


@transaction.atomic
def pause_clock(session: Session, *, actor) -> Session:
    """Pause ``session``'s running clock (the time run so far is kept); a paused clock is left
    as it is (nothing recorded). Audit "clock-paused" with the seconds left."""
    row = _locked(session)
    if row.clock_started_at is None:
        return _copy(session, row)
    now = timezone.now()
    row.clock_elapsed += max(0.0, (now - row.clock_started_at).total_seconds())
    row.clock_started_at = None
    row.save(update_fields=["clock_elapsed", "clock_started_at"])
    _audit(row, "clock-paused", actor, remaining=clock_remaining(row, now))
    return _copy(session, row)


@transaction.atomic
def extend_clock(session: Session, minutes, *, actor) -> Session:
    """Add ``minutes`` of extra time to ``session``'s clock (running or not; it must have a
    playing time). Audit "clock-extended" with the minutes and the seconds left. Each request
    adds once: a re-posted form adds again, as a second press of "+5 min" would."""
    row = _locked(session)
    seconds = _minutes(minutes)
    if row.clock_duration <= 0:
        raise ClockError("minutes", _("set the playing time and start the clock before adding time"))
    row.clock_extra += seconds
    row.save(update_fields=["clock_extra"])
    _audit(row, "clock-extended", actor, minutes=seconds / 60, remaining=clock_remaining(row))
    return _copy(session, row)


@transaction.atomic
def set_clock(session: Session, minutes, *, actor) -> Session:
    """Reset ``session``'s clock to a playing time of ``minutes`` (0: no clock), stopped, with no
    time run and no extra time. Setting the values it already has records nothing. Audit
    "clock-set" with the minutes."""
    row = _locked(session)
    seconds = _minutes(minutes, allow_zero=True)
    if (row.clock_duration, row.clock_extra, row.clock_elapsed, row.clock_started_at) == (seconds, 0, 0, None):
        return _copy(session, row)
    row.clock_duration, row.clock_extra, row.clock_elapsed, row.clock_started_at = seconds, 0, 0.0, None
    row.save(update_fields=["clock_duration", "clock_extra", "clock_elapsed", "clock_started_at"])
    _audit(row, "clock-set", actor, minutes=seconds / 60)
    return _copy(session, row)


def table_clock_state(table: Table, now: datetime | None = None) -> dict:
    """The clock a table plays to (``table`` with its ``group__session`` loaded): its session's
    (:func:`clock_state`) with the table's own extra time (``Table.clock_extra``, seconds) added
    to ``remaining``, ``extra`` and ``display``, and ``table_extra`` (seconds)."""
    state = clock_state(table.group.session, now)
    remaining = state["remaining"] + table.clock_extra
    return {**state, "remaining": remaining, "extra": state["extra"] + table.clock_extra, "table_extra": table.clock_extra,
            "display": format_clock(remaining)}


@transaction.atomic
def give_table_time(table: Table, minutes, *, actor) -> Table:
    """Give ``table`` alone ``minutes`` more (a late start, a fouled set rebuilt at the table): its
    clock (:func:`table_clock_state`) runs that much longer than its session's. The session's
    clock must have a playing time (ClockError "minutes"). Audit "table-time-given" with the
    table, the minutes and the table's extra time now. Each request adds once, as "+5 min" does.
    Returns ``table`` with the stored extra time."""
    row = Table.objects.select_for_update().select_related("group__session__event").get(pk=table.pk)
    seconds = _minutes(minutes)
    if row.group.session.clock_duration <= 0:
        raise ClockError("minutes", _("set the session's playing time and start its clock before giving a table time"))
    row.clock_extra += seconds
    row.save(update_fields=["clock_extra"])
    row.group.session.event.log("table-time-given", actor, session=row.group.session.number, table=row.number,
                                minutes=seconds / 60, table_extra_minutes=row.clock_extra / 60)
    table.clock_extra = row.clock_extra
    return table


def projector_clock(event: Event, finished: Callable[[int], bool], now: datetime | None = None) -> dict | None:
    """The clock the projector shows (:func:`clock_state`), or None: the latest session of
    ``event`` with a clock set (``clock_duration`` > 0) that is still being played; once every
    such session has finished (``finished(session_number)``, the caller's
    :func:`scoring.visibility.session_finished`), the latest of them, marked finished, so a
    finished session's overtime never runs on into the next session. One query, and one
    ``finished`` question per session looked at."""
    latest = None
    for session in event.sessions.filter(clock_duration__gt=0).order_by("-number"):
        if not finished(session.number):
            return clock_state(session, now)
        latest = latest or session
    return clock_state(latest, now, finished=True) if latest else None


ANNOUNCEMENT_MAX = 2000
"""The longest announcement kept (characters); longer text is cut."""


@transaction.atomic
def set_announcement(event: Event, text: str, *, actor) -> Event:
    """Show ``text`` (stripped, at most :data:`ANNOUNCEMENT_MAX` characters; "" for none) on the
    projector of ``event``. The same text again records nothing. Audit "announcement" with the
    text. Returns ``event`` with the stored text."""
    row = Event.objects.select_for_update().get(pk=event.pk)
    text = (text or "").strip()[:ANNOUNCEMENT_MAX]
    if row.announcement != text:
        row.announcement = text
        row.save(update_fields=["announcement"])
        row.log("announcement", actor, text=text)
    event.announcement = text
    return event
