"""The seats of a table as entry and confirmation use them: the seat whose PIN or account showed
who acted (asked of the table plan, :mod:`tournament.table_plan`), how the history names them,
and how wrong PINs hold back PIN checks from a device at a table: the helpers of entry (:mod:`scoring.actions.entry`) and
confirmation (:mod:`scoring.actions.confirmation`)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from datetime import UTC

from django.conf import settings
from django.db.models import Exists, F, Func, QuerySet, Subquery
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from scoring.models import ConfirmationAttempt
from tournament.models import Player, Table
from tournament.table_plan import SessionPlan


@dataclass(frozen=True)
class SeatHolder:
    """A seat of a table and the :class:`~tournament.models.Player` holding it on a set."""

    seat: str
    player: Player


def seat_actor(holder: SeatHolder, table: Table) -> str:
    """How the history (:class:`~scoring.models.ResultRevision` ``actor``, ``entered_by``, ``confirmed_by``)
    names a change made by a seated player whose PIN (or account) showed it was them:
    ``"Wang Wei (W), Table 6"`` — the player, the seat, the table. At most 150 characters."""
    return f"{holder.player.name} ({holder.seat}), {table}"[:150]


def account_seat(plan: SessionPlan, table: Table, set_no: int, actor: str) -> SeatHolder | None:
    """The seat of ``table`` whose holder on ``set_no`` (the table plan ``plan``) plays under the
    account named ``actor`` (a player using their own account), else None."""
    if not actor:
        return None
    return next((SeatHolder(seat, player) for seat, player in sorted(plan.holders(table, set_no).items())
                 if player.user_id and player.user.get_username() == actor), None)


def holder_for_pin(plan: SessionPlan, table: Table, pin: str | None, exclude_seat: str | None = None,
                   set_no: int | None = None) -> SeatHolder | None:
    """The seat of ``table`` whose holder on ``set_no`` (the table plan ``plan``; None: now) has PIN
    ``pin`` (other than ``exclude_seat``, the seat that entered the result), or None; None for an
    empty PIN (:meth:`tournament.table_plan.SessionPlan.holder_for_pin`)."""
    found = plan.holder_for_pin(table, pin, set_no=set_no, exclude_seat=exclude_seat)
    return SeatHolder(*found) if found else None


@dataclass(frozen=True)
class Device:
    """Where a PIN was typed: ``id`` names the device (``"phone:<random>"`` for a browser, kept in
    its session from its first table page; ``"account:<user id>"`` for an account, the API's
    scorers included; ``""`` for the demo and imports), ``address`` the client address it came
    from, kept for the director (:func:`wrong_pin_devices`)."""

    id: str = ""
    address: str = ""


@dataclass(frozen=True)
class PinCounts:
    """The wrong PINs at a table not yet cleared by the director, as one read finds them
    (:func:`pin_count_columns`): all of them (``table_wrong``, the last at ``table_last``), those
    typed on the asking device (``device_wrong``, ``device_last``), and whether that device has
    typed a right PIN at the table (``trusted``: the table's own phone)."""

    table_wrong: int = 0
    table_last: datetime | None = None
    device_wrong: int = 0
    device_last: datetime | None = None
    trusted: bool = False


def backoff_seconds(over: int) -> int:
    """The wait after a wrong PIN ``over`` (≥ 0) past a limit: ``settings.CONFIRM_PIN_BACKOFF``
    seconds doubled for each one past it, at most ``settings.CONFIRM_PIN_BACKOFF_MAX``."""
    return min(settings.CONFIRM_PIN_BACKOFF * 2 ** min(max(over, 0), 20), settings.CONFIRM_PIN_BACKOFF_MAX)


def pin_wait(counts: PinCounts, now: datetime) -> int:
    """Whole seconds before a PIN typed on the asking device may be checked at the table (0: now).

    Wrong PINs are counted per device and table (docs/security.md, "Entering and confirming at the
    table"): a device with ``settings.CONFIRM_PIN_LIMIT_PER_DEVICE`` wrong PINs waits
    :func:`backoff_seconds` after its last one, doubling with each further wrong one; once the
    table has ``settings.CONFIRM_PIN_LIMIT_PER_TABLE`` from all devices together, every device
    that has not typed a right PIN there waits the same way after the table's last wrong PIN.
    A device that has typed a right PIN at the table (the table's own phone) is never held back by
    other devices' wrong PINs, so someone holding the table's code cannot lock its players out;
    guessing stays bounded in rate. Nothing is locked for good: a right PIN after the wait goes
    through, and the director clears the count (:func:`scoring.actions.confirmation.unlock_confirmation`)."""
    waits = [0.0]
    if counts.device_wrong >= settings.CONFIRM_PIN_LIMIT_PER_DEVICE and counts.device_last is not None:
        until = counts.device_last.timestamp() + backoff_seconds(counts.device_wrong - settings.CONFIRM_PIN_LIMIT_PER_DEVICE)
        waits.append(until - now.timestamp())
    if (not counts.trusted and counts.table_wrong >= settings.CONFIRM_PIN_LIMIT_PER_TABLE
            and counts.table_last is not None):
        until = counts.table_last.timestamp() + backoff_seconds(counts.table_wrong - settings.CONFIRM_PIN_LIMIT_PER_TABLE)
        waits.append(until - now.timestamp())
    return max(0, math.ceil(max(waits)))


def pin_count_columns(table_id, device_id) -> dict:
    """The annotations that read a table's :class:`PinCounts` for the device ``device_id`` in the
    row of another query (five scalar subqueries: :func:`counts_from`); ``table_id`` a table's id
    (or an expression), ``device_id`` a string."""
    wrong = ConfirmationAttempt.objects.filter(table_id=table_id, ok=False, cleared=False)
    mine = wrong.filter(device=device_id)
    return {
        "pin_table_wrong": count_of(wrong), "pin_table_last": _last(wrong),
        "pin_device_wrong": count_of(mine), "pin_device_last": _last(mine),
        "pin_trusted": Exists(ConfirmationAttempt.objects.filter(table_id=table_id, ok=True, device=device_id).exclude(device="")),
    }


def count_of(queryset: QuerySet) -> Func:
    """The number of rows of ``queryset`` as a scalar subquery (``SELECT COUNT(id) ...``, 0 for
    none), to annotate onto another query's row."""
    return Subquery(queryset.order_by().annotate(n=Func(F("pk"), function="COUNT")).values("n")[:1])


def _last(attempts: QuerySet) -> Subquery:
    """The time of the latest of ``attempts`` as a scalar subquery (NULL for none)."""
    return Subquery(attempts.order_by("-at").values("at")[:1])


def counts_from(row) -> PinCounts:
    """The :class:`PinCounts` in ``row`` (a dict or an object) read with :func:`pin_count_columns`."""
    get = row.get if isinstance(row, dict) else lambda name: getattr(row, name, None)
    return PinCounts(table_wrong=get("pin_table_wrong") or 0, table_last=_aware(get("pin_table_last")),
                     device_wrong=get("pin_device_wrong") or 0, device_last=_aware(get("pin_device_last")),
                     trusted=bool(get("pin_trusted")))


def _aware(value):
    """A timestamp read through an annotation (SQLite gives a string): an aware datetime, or None."""
    if value is None or isinstance(value, datetime):
        return value
    parsed = parse_datetime(str(value))
    return parsed if parsed is None or parsed.tzinfo else parsed.replace(tzinfo=UTC)


def pin_counts(table: Table, device: Device | None) -> PinCounts:
    """The :class:`PinCounts` of ``table`` for ``device`` (None: no device; one query)."""
    row = Table.objects.filter(pk=table.pk).annotate(**pin_count_columns(table.pk, device.id if device else "")).values(
        "pin_table_wrong", "pin_table_last", "pin_device_wrong", "pin_device_last", "pin_trusted").first()
    return counts_from(row or {})


def pin_refusal_message(counts: PinCounts, wait: int) -> str:
    """What a device held back by :func:`pin_wait` is told (the ``pin``/``entry_pin`` refusal, 429)."""
    if counts.device_wrong >= settings.CONFIRM_PIN_LIMIT_PER_DEVICE:
        return _("too many wrong PINs from this phone: type the PIN again in %(seconds)s s, or ask the director "
                 "to clear them") % {"seconds": wait}
    return _("too many wrong PINs at this table from other phones: type the PIN again in %(seconds)s s, or ask "
             "the director to clear them") % {"seconds": wait}


def wrong_pin_devices(table: Table) -> list[dict]:
    """What the director sees of the wrong PINs at ``table`` not yet cleared, one row per device,
    most wrong first: ``{"device", "address", "actor", "wrong", "last", "trusted", "wait"}`` (the
    device's id shortened for reading, its last address and name, the count, the last one's time,
    whether it has typed a right PIN here, and the seconds it still waits). Two queries."""
    attempts = list(ConfirmationAttempt.objects.filter(table=table, ok=False, cleared=False).order_by("at", "pk")
                    .values("device", "address", "actor", "at"))
    trusted = set(ConfirmationAttempt.objects.filter(table=table, ok=True).exclude(device="")
                  .values_list("device", flat=True).distinct())
    rows: dict[str, dict] = {}
    for a in attempts:
        row = rows.setdefault(a["device"], {"device": a["device"], "wrong": 0, "trusted": a["device"] in trusted})
        row.update(address=a["address"], actor=a["actor"], last=a["at"], wrong=row["wrong"] + 1)
    total = len(attempts)
    last = attempts[-1]["at"] if attempts else None
    now = timezone.now()
    for row in rows.values():
        counts = PinCounts(table_wrong=total, table_last=last, device_wrong=row["wrong"], device_last=row["last"],
                           trusted=row["trusted"])
        row["wait"] = pin_wait(counts, now)
        row["device"] = row["device"].split(":", 1)[-1][:8] or "—"
    return sorted(rows.values(), key=lambda r: (-r["wrong"], r["device"]))
