"""The seats of a table as entry and confirmation use them: the seat whose PIN or account showed
who acted (asked of the table plan, :mod:`tournament.table_plan`), how the history names them,
and where wrong PINs lock PIN confirmation at a table: the helpers of entry (:mod:`scoring.actions.entry`) and
confirmation (:mod:`scoring.actions.confirmation`)."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db.models import Count

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


def holder_for_pin(plan: SessionPlan, table: Table, pin: str, exclude_seat: str | None = None,
                   set_no: int | None = None) -> SeatHolder | None:
    """The seat of ``table`` whose holder on ``set_no`` (the table plan ``plan``; None: now) has PIN
    ``pin`` (other than ``exclude_seat``, the seat that entered the result), or None; None for an
    empty PIN (:meth:`tournament.table_plan.SessionPlan.holder_for_pin`)."""
    found = plan.holder_for_pin(table, pin, set_no=set_no, exclude_seat=exclude_seat)
    return SeatHolder(*found) if found else None


def confirmation_locks(table: Table) -> dict:
    """Where PIN confirmation is locked at ``table`` by wrong PINs not yet cleared by the
    director: ``{"table": bool, "results": {result id, ...}, "wrong": {result id: count}}``.
    Limits: ``settings.CONFIRM_PIN_LIMIT_PER_RESULT`` and ``CONFIRM_PIN_LIMIT_PER_TABLE``. One
    query."""
    wrong = dict(ConfirmationAttempt.objects.filter(table=table, ok=False, cleared=False).order_by()
                 .values("result_id").annotate(n=Count("pk")).values_list("result_id", "n"))
    per_result = settings.CONFIRM_PIN_LIMIT_PER_RESULT
    return {
        "table": sum(wrong.values()) >= settings.CONFIRM_PIN_LIMIT_PER_TABLE,
        "results": {pk for pk, n in wrong.items() if pk is not None and n >= per_result},
        "wrong": wrong,
    }
