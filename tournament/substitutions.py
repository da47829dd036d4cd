"""Substitutions after Prepare (docs/scoring.md, "Substitutions"): a seated player who cannot go on
is replaced at their seat for the sets their table has not played yet, for the rest of the
session or for good.

Scoring follows one rule (:func:`tournament.seats.seat_holders`, asked through the table plan,
:mod:`tournament.table_plan`): each set is credited to whoever held the seat on
it. Team events: the replacement joins the same team in the same member slot, so the team's
score stays the sum of its seats; individual events: the replacement is a substitute (never
ranked) and the replaced player keeps the sets played.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from scoring.models import HandResult
from tournament.errors import FieldError
from tournament.models import Event, Player, Substitution
from tournament.table_plan import session_plan, table_plan


class SubstitutionError(FieldError):
    """A substitution that cannot be made; ``field`` names the input (``session``, ``player_out``,
    ``name``, ``reason``)."""


def seated_now(event: Event, session_number: int) -> list[dict]:
    """Who holds each seat of session ``session_number`` now (the substitutions made so far
    applied): ``[{"player" (Player), "table" (Table), "seat"}]`` by table number and the rule
    set's seat order. Four queries."""
    plan = session_plan(event, session_number)
    if plan is None:
        return []
    return [{"player": player, "table": t, "seat": seat} for t in plan.tables for seat, player in plan.ordered_holders(t)]


@transaction.atomic
def substitute(event: Event, session_number: int, *, player_out: Player, name: str, for_good: bool = False,
               reason: str, actor: str) -> Substitution:
    """Replace ``player_out``, seated in session ``session_number``, by a new player ``name``.

    The replacement plays, at ``player_out``'s table and seat, every set of the table's schedule
    (:meth:`tournament.table_plan.SessionPlan.sets`, in play order) that has no result there yet
    (:attr:`Substitution.sets`). Team events: the new player joins ``player_out``'s team in the
    same member slot (not a substitute); individual events: the new player is a substitute (not
    ranked, no team). ``for_good``: ``player_out.replaced_by`` is set, so later sessions seat the
    replacement instead. Writes an :class:`~tournament.models.AuditEntry`
    (``player-substituted``). The same form posted again (same session, player out and name)
    returns the substitution already made.

    Raises SubstitutionError: a session not seated (``session``), a player of another event or
    not holding a seat of that session now (``player_out``), no name (``name``), no reason
    (``reason``), a table with a result on every set already (``player_out``).
    """
    name = " ".join(str(name or "").split())[:100]
    reason = str(reason or "").strip()[:300]
    actor = str(actor or "")[:150]
    if not event.sessions.filter(number=session_number).exists():
        raise SubstitutionError("session", _("session %(session)s is not seated yet: substitute once it is prepared")
                                % {"session": session_number})
    if player_out is None or player_out.event_id != event.pk:
        raise SubstitutionError("player_out", _("choose the player to replace from the list of seated players"))
    if not name:
        raise SubstitutionError("name", _("type the name of the player who comes in"))
    repeated = (Substitution.objects.filter(event=event, session_number=session_number, player_out=player_out,
                                            player_in__name=name).order_by("-id").first())
    if repeated is not None:
        return repeated
    if not reason:
        raise SubstitutionError("reason", _("give the reason, e.g. 'ill after set 4'"))
    Event.objects.select_for_update().filter(pk=event.pk).values_list("pk", flat=True).first()  # one substitution at a time
    seat = next((s for s in seated_now(event, session_number) if s["player"].pk == player_out.pk), None)
    if seat is None:
        raise SubstitutionError("player_out", _("%(name)s holds no seat in session %(session)s now: choose a seated player")
                                % {"name": player_out.name, "session": session_number})
    table = seat["table"]
    done = set(HandResult.objects.filter(table=table).values_list("set_no", flat=True))
    sets = [s for s in table_plan(table).sets(table) if s not in done]
    if not sets:
        raise SubstitutionError("player_out", _("Table %(table)s has a result on every set of session %(session)s: "
                                                "there is nothing left for a replacement to play")
                                % {"table": table.number, "session": session_number})
    team_event = event.method == Event.Method.TEAM
    number = (Player.objects.filter(event=event).aggregate(n=Max("number"))["n"] or 0) + 1
    player_in = Player.objects.create(event=event, number=number, name=name,
                                      team=player_out.team if team_event else None,
                                      member=player_out.member if team_event else 0, substitute=not team_event)
    substitution = Substitution.objects.create(event=event, session_number=session_number, table=table, seat=seat["seat"],
                                               player_out=player_out, player_in=player_in, sets=sets, for_good=for_good,
                                               reason=reason, actor=actor)
    if for_good:
        Player.objects.filter(pk=player_out.pk).update(replaced_by=player_in)
        player_out.replaced_by = player_in
    event.log("player-substituted", actor, substitution=substitution.pk, session=session_number, table=table.number,
              seat=seat["seat"], player_out=player_out.name, player_out_id=player_out.pk, player_in=player_in.name,
              player_in_id=player_in.pk, sets=sets, for_good=for_good, reason=reason)
    return substitution
