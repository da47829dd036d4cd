"""The director's penalties page (docs/scoring.md, "Penalties and adjustments"): give an adjustment
to a team (team events) or player (individual events), see every adjustment, undo one. Thin: the
writes are :func:`scoring.adjustments.add_adjustment` and :func:`~scoring.adjustments.undo_adjustment`.
And the page fixing each set's honba and riichi sticks (:func:`fixed_counters`)."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from scoring.actions.counters import fix_counters
from scoring.actions.errors import ResultError
from scoring.adjustments import AdjustmentError, add_adjustment, undo_adjustment
from scoring.models import Adjustment
from scoring.payments import PAYMENT_RULES
from scoring.payments.counters import carried_inputs, set_key
from tournament.access import DIRECTOR, event_view
from tournament.models import Event

director_page = event_view(roles=(DIRECTOR,), login=True,
                           denied=gettext_lazy("only the event's director gives or undoes penalties"))


def _entrants(event: Event):
    """The entrants a penalty may go to: teams (team events) or players, by number."""
    return event.teams.order_by("number") if event.method == Event.Method.TEAM else event.players.order_by("number")


def _form_values(request) -> dict:
    return {key: request.POST.get(key, "").strip() for key in ("entrant", "amount", "unit", "session", "reason")}


@director_page
def penalties(request, event):
    """GET: the form (entrant, amount, unit, session or the whole event, reason) and every
    adjustment with its Undo button. POST: give the adjustment (a re-posted form gives it once)
    and come back here; an error is shown on the form, the values kept."""
    values = {"unit": Adjustment.Unit.MP, "session": ""}
    errors: dict[str, str] = {}
    entrants = list(_entrants(event))
    if request.method == "POST":
        values = _form_values(request)
        chosen = next((e for e in entrants if str(e.pk) == values["entrant"]), None)
        try:
            if chosen is None:
                raise AdjustmentError("entrant", _("choose the team that gets the adjustment") if event.method == Event.Method.TEAM
                                      else _("choose the player who gets the adjustment"))
            team_event = event.method == Event.Method.TEAM
            adjustment = add_adjustment(event, team=chosen if team_event else None, player=None if team_event else chosen,
                                        session_number=values["session"] or None, unit=values["unit"],
                                        amount=values["amount"], reason=values["reason"],
                                        actor=request.user.get_username())
        except AdjustmentError as exc:
            errors[exc.field] = exc.message
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Applied %(amount)+d %(unit)s to %(name)s.") % {
                "amount": adjustment.amount, "unit": adjustment.get_unit_display(), "name": chosen.name})
            return redirect("penalties", slug=event.slug)
    adjustments = Adjustment.objects.filter(event=event).select_related("team", "player").order_by("-id")
    return render(request, "scoring/penalties.html", {
        "event": event, "entrants": entrants, "values": values, "errors": errors, "adjustments": adjustments,
        "units": Adjustment.Unit.choices, "sessions": range(1, event.sessions_planned + 1),
        "team_event": event.method == Event.Method.TEAM,
    }, status=400 if errors else 200)


@require_POST
@director_page
def penalty_undo(request, event, adjustment_id):
    """Undo one adjustment (POST); undoing it again changes nothing."""
    adjustment = get_object_or_404(Adjustment, pk=adjustment_id, event=event)
    undo_adjustment(adjustment, actor=request.user.get_username())
    messages.success(request, _("Undone: %(amount)+d %(unit)s, %(reason)s.") % {
        "amount": adjustment.amount, "unit": adjustment.get_unit_display(), "reason": adjustment.reason})
    return redirect("penalties", slug=event.slug)


counters_page = event_view(roles=(DIRECTOR,), login=True,
                           denied=gettext_lazy("only the event's director fixes the honba and riichi sticks of the sets"))


@counters_page
def fixed_counters(request, event):
    """The honba and riichi sticks every table of a set starts with (docs/scoring.md, "Fixed honba
    and riichi sticks"): one row per set of every planned session, 0 unless fixed. POST stores
    them all (:func:`scoring.actions.counters.fix_counters`: transactional, audited); an error is
    shown at its input, the values typed kept."""
    ruleset = event.get_ruleset()
    takes = carried_inputs(PAYMENT_RULES[ruleset.payment_rule])
    keys = [set_key(s, n) for s in range(1, event.sessions_planned + 1) for n in range(1, ruleset.hands_per_session + 1)]
    stored = event.fixed_counters or {}
    values = {key: {name: str((stored.get(key) or {}).get(name, 0)) for name in ("honba", "riichi")} for key in keys}
    errors: dict[str, str] = {}
    if request.method == "POST" and takes:
        values = {key: {name: request.POST.get(f"{name}-{key}", "").strip() for name in takes} for key in keys}
        try:
            fix_counters(event, values, actor=request.user.get_username())
        except ResultError as exc:
            errors[exc.field] = exc.message
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Saved the honba and riichi sticks of every set."))
            return redirect("fixed-counters", slug=event.slug)
    rows = [{"key": key, "cells": [{"name": name, "input": f"{name}-{key}", "value": values[key].get(name, ""),
                                    "error": errors.get(f"{name}.{key}", "")} for name in takes]} for key in keys]
    return render(request, "scoring/fixed_counters.html", {
        "event": event, "rows": rows, "takes": takes, "errors": errors,
        "other_error": next((m for f, m in errors.items() if "." not in f), ""),
    }, status=400 if errors else 200)
