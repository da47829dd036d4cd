"""Penalties and adjustments (docs/scoring.md, "Penalties and adjustments"): the director adds an
amount to an entrant's total, with a reason, and may undo it. Audited, never deleted.

An adjustment in ``mp`` adds ``amount`` converted points (IMP/MP) to the entrant's total; one in
``points`` adds ``amount`` score points to its score total and the conversion of that amount with
the event's *current* conversion table to its total (read by :mod:`scoring.reports`, which
applies the adjustments to every ranked list). A session's adjustment counts in that session's
standings and in the event total; one without a session only in the event total.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.models import Adjustment
from tournament.errors import FieldError
from tournament.models import Event, Player, Team

REPEAT_SECONDS = 60
"""A form posted again within this time with the same entrant, session, unit, amount, reason and
director returns the adjustment already given instead of giving it twice."""

MAX_AMOUNT = 100_000
"""The largest amount (either sign) accepted: a guard against a typing slip."""


class AdjustmentError(FieldError):
    """An adjustment that cannot be given or undone; ``field`` names the input (``entrant``,
    ``amount``, ``unit``, ``session``, ``reason``)."""


def entrant_of(adjustment: Adjustment) -> Team | Player:
    """The team or player ``adjustment`` is given to."""
    return adjustment.team if adjustment.team_id else adjustment.player


def _whole_number(value, field: str) -> int:
    if isinstance(value, bool):
        raise AdjustmentError(field, _("give a whole number, e.g. -5"))
    try:
        number = int(str(value).strip().replace("\u2212", "-"))
    except (TypeError, ValueError):
        raise AdjustmentError(field, _("give a whole number, e.g. -5; got %(value)s") % {"value": repr(value)}) from None
    return number


@transaction.atomic
def add_adjustment(event: Event, *, team: Team | None = None, player: Player | None = None,
                   session_number: int | None = None, unit: str, amount: int, reason: str, actor: str) -> Adjustment:
    """Give ``amount`` (a signed whole number; negative for a penalty) in ``unit`` (``"mp"``:
    converted points; ``"points"``: score points, converted with the event's current table) to
    ``team`` (team events) or ``player`` (individual events), for session ``session_number``
    (None: the whole event), because of ``reason``. Writes an
    :class:`~tournament.models.AuditEntry` (``adjustment-added``). The same form posted again
    within :data:`REPEAT_SECONDS` returns the adjustment already given.

    Raises AdjustmentError: no entrant, both, a team in an individual event or a player in a
    team event, an entrant of another event (``entrant``); an amount of 0, not a whole number or
    beyond :data:`MAX_AMOUNT` (``amount``); an unknown unit (``unit``); a session that is not
    one of the event's planned sessions (``session``); no reason (``reason``).
    """
    team_event = event.method == Event.Method.TEAM
    entrant = team if team_event else player
    if (team is not None and player is not None) or entrant is None:
        raise AdjustmentError("entrant", _("choose the team that gets the adjustment") if team_event
                              else _("choose the player who gets the adjustment"))
    if entrant.event_id != event.pk:
        raise AdjustmentError("entrant", _("%(name)s is not an entrant of this event: choose one from the list")
                              % {"name": entrant.name})
    if unit not in Adjustment.Unit.values:
        raise AdjustmentError("unit", _("choose the unit: MP (converted points) or score points"))
    amount = _whole_number(amount, "amount")
    if amount == 0:
        raise AdjustmentError("amount", _("an adjustment of 0 changes nothing: give the amount, negative for a penalty (e.g. -5)"))
    if abs(amount) > MAX_AMOUNT:
        raise AdjustmentError("amount", _("%(amount)s is beyond %(max)s either way: check the amount") % {
            "amount": amount, "max": MAX_AMOUNT})
    if session_number in ("", None):
        session_number = None
    else:
        session_number = _whole_number(session_number, "session")
        if not 1 <= session_number <= event.sessions_planned:
            raise AdjustmentError("session", _("session %(session)s does not exist: the event has sessions 1 to %(last)s; "
                                               "leave it empty for the whole event") % {
                "session": session_number, "last": event.sessions_planned})
    reason = str(reason or "").strip()
    if not reason:
        raise AdjustmentError("reason", _("give the reason, e.g. 'late arrival' or 'slow play after two warnings'"))
    actor = str(actor or "")[:150]
    reason = reason[:300]
    same = {"event": event, "team": team if team_event else None, "player": None if team_event else player,
                "session_number": session_number, "unit": unit, "amount": amount, "reason": reason, "actor": actor}
    list(Event.objects.select_for_update().filter(pk=event.pk).values_list("pk", flat=True))  # identical posts: one after the other
    repeated = (Adjustment.objects.filter(undone_at__isnull=True, **same,
                                                              at__gte=timezone.now() - timedelta(seconds=REPEAT_SECONDS))
                .order_by("-id").first())
    if repeated is not None:
        return repeated
    adjustment = Adjustment.objects.create(**same)
    event.log("adjustment-added", actor, adjustment=adjustment.pk, team=team.pk if team_event else None,
              player=None if team_event else player.pk, entrant=entrant.name, session=session_number, unit=unit,
              amount=amount, reason=reason)
    return adjustment


@transaction.atomic
def undo_adjustment(adjustment: Adjustment, *, actor: str) -> Adjustment:
    """Undo ``adjustment``: it stays listed, marked undone (``undone_at``, ``undone_by``), and no
    longer counts. Writes an :class:`~tournament.models.AuditEntry` (``adjustment-undone``).
    Undoing it again changes nothing and writes nothing. Returns the adjustment as stored."""
    adjustment = (Adjustment.objects.select_for_update(of=("self",)).select_related("event", "team", "player")
                  .get(pk=adjustment.pk))  # PostgreSQL locks no row of an outer join: the adjustment alone
    if adjustment.undone_at is not None:
        return adjustment
    actor = str(actor or "")[:150]
    adjustment.undone_at = timezone.now()
    adjustment.undone_by = actor
    adjustment.save(update_fields=["undone_at", "undone_by"])
    adjustment.event.log("adjustment-undone", actor, adjustment=adjustment.pk, entrant=entrant_of(adjustment).name,
                         session=adjustment.session_number, unit=adjustment.unit, amount=adjustment.amount,
                         reason=adjustment.reason)
    return adjustment
