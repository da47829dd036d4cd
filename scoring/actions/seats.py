"""Who holds the seats of a table on a set, how the history names them, and where wrong PINs
lock PIN confirmation at a table: the helpers of entry (:mod:`scoring.actions.entry`) and
confirmation (:mod:`scoring.actions.confirmation`)."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db.models import Count

from scoring.models import ConfirmationAttempt
from tournament.models import Player, Table
from tournament.seating import table_seat_holders


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


def _account_seat(table: Table, set_no: int, actor: str) -> SeatHolder | None:
    """The seat of ``table`` whose holder on ``set_no`` plays under the account named ``actor``
    (a player using their own account), else None."""
    if not actor:
        return None
    return next((SeatHolder(seat, player) for seat, player in sorted(seat_players(table, set_no).items())
                 if player.user_id and player.user.get_username() == actor), None)


def seat_players(table: Table, set_no: int | None = None) -> dict[str, Player]:
    """``{seat: Player}`` (team loaded) of whoever held each seat of ``table`` on ``set_no``
    (None: now): :func:`tournament.seating.table_seat_holders`. The table page's names, the entering and confirming
    PINs follow it. Three queries."""
    held = table_seat_holders([table], set_no)[table.pk]
    players = Player.objects.select_related("team", "user").in_bulk([player for player, _team in held.values()])
    return {seat: players[player] for seat, (player, _team) in held.items() if player in players}


def seated_player_for_pin(table: Table, pin: str, exclude_seat: str | None = None,
                          set_no: int | None = None) -> SeatHolder | None:
    """The seat of ``table`` whose holder on ``set_no`` (:func:`seat_players`; None: now) has PIN
    ``pin`` (other than ``exclude_seat``, the seat that entered the result), or None; None for an
    empty PIN."""
    pin = str(pin or "").strip()
    if not pin:
        return None
    for seat, player in sorted(seat_players(table, set_no).items()):
        if player.pin == pin and seat != exclude_seat:
            return SeatHolder(seat, player)
    return None


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
