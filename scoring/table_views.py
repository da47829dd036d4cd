"""The phone-first pages at the table: table login, the table's entry page (typed score changes or
the hand outcome), confirmation by a second seat's PIN, QR scan of a set label, the result's
history, and the director's live grid. Each write calls one function of :mod:`scoring.services`."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring import fan_check
from scoring.forms import TableEntryForm
from scoring.models import HandResult
from scoring.services import (
    FAN_CHECK_RULES, ResultError, confirm_result, correct_result, dispute_result, result_notes, submit_result,
)
from tournament.models import Event, EventRole, Table
from tournament.permissions import can_enter_for, is_director, login_table, roles, scorer_table_ids
from tournament.services import table_schedule
from walls.setcode import SetCodeError, SetId, parse_payload


def _int_or_none(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _login_url(next_path: str) -> str:
    return reverse("table-login") + "?" + urlencode({"next": next_path})


def table_login(request, slug=None, code=None):
    """Log this browser in as the scorer of a table, by the code printed on its score sheet."""
    code = (code or request.POST.get("code", "")).strip().upper()
    error = None
    if code:
        table = Table.objects.filter(login_code=code).select_related("group__session__event").first()
        if table is None:
            error = _("No table has the code %(code)s: check the code on your score sheet.") % {"code": code}
        else:
            login_table(request, table)
            target = request.GET.get("next", "")
            if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
                target = reverse("table", args=[table.group.session.event.slug, table.pk])
            return redirect(target)
    return render(request, "scoring/table_login.html", {"error": error, "code": code}, status=400 if error else 200)


def scan(request, payload):
    """Open the entry page for a scanned set label (QR payload or entry URL)."""
    try:
        set_id = parse_payload(payload)
    except SetCodeError as exc:
        return render(request, "scoring/table_login.html", {"error": str(exc)}, status=400)
    event = get_object_or_404(Event, slug=set_id.event)
    tables = Table.objects.filter(pk__in=scorer_table_ids(request), group__session__event=event,
                                  group__session__number=set_id.session)
    table = tables.first()
    if table is None:
        messages.info(request, _("Log in with your table's code first."))
        return redirect(_login_url(request.get_full_path()))
    return redirect(reverse("table", args=[event.slug, table.pk]) + f"?set={set_id.set_no}")


def _players(table: Table) -> dict:
    return {s.seat: s.player for s in table.seats.select_related("player__team")}


def _table_context(request, event, table, form, players):
    """Everything the table page shows, in a fixed number of queries whatever the number of sets."""
    ruleset = event.get_ruleset()
    results = {r.set_no: r for r in HandResult.objects.filter(table=table)}
    schedule = [
        (slot + 1, [(s, SetId(event.slug, table.group.session.number, s).code, results.get(s)) for s in sets])
        for slot, sets in table_schedule(table)
    ]
    pending = [s for _, sets in schedule for s, _, r in sets if r is None]
    chosen = _int_or_none(form["set_no"].value()) or _int_or_none(request.GET.get("set")) or (pending[0] if pending else None)
    unconfirmed = [
        {"result": r, "notes": result_notes(r), "changes": [(seat, r.changes[seat]) for seat in ruleset.seats if seat in r.changes]}
        for _, r in sorted(results.items()) if r.status != HandResult.Status.CONFIRMED
    ]
    return {
        "event": event, "table": table, "ruleset": ruleset, "form": form,
        "seats": [(seat, players.get(seat)) for seat in ruleset.seats],
        "seat_inputs": [(seat, players.get(seat), form[f"seat_{seat}"]) for seat in ruleset.seats],
        "schedule": schedule, "chosen": chosen, "typed": form.typed_only,
        "fan_check": ruleset.payment_rule in FAN_CHECK_RULES and fan_check.available(),
        "unconfirmed": unconfirmed, "focus": _int_or_none(request.GET.get("confirm")),
        "is_director": is_director(request.user, event),
    }


def table_page(request, slug, table_id):
    """The scorer's page: seated players, results waiting for confirmation, the sets in play
    order with their state, and the entry form (:class:`scoring.forms.TableEntryForm` →
    :func:`scoring.services.submit_result`)."""
    table = get_object_or_404(Table.objects.select_related("group__session__event"), pk=table_id, group__session__event__slug=slug)
    event = table.group.session.event
    if not can_enter_for(request, table):
        messages.info(request, _("Log in with the code of Table %(number)s, printed on its score sheet.") % {"number": table.number})
        return redirect(_login_url(request.path))
    players = _players(table)
    form = TableEntryForm(request.POST or None, event=event, players=players)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            entry = form.submission()
            actor = request.user.get_username() if request.user.is_authenticated else f"scorer {table}"
            try:
                result = submit_result(table, entry.pop("set_no"), actor=actor, **entry)
            except ResultError as exc:
                form.add_result_error(exc)
                status = exc.status
            else:
                messages.success(request, _("Saved set %(set)s. A second player confirms it with their PIN.") % {"set": result.set_no})
                return redirect(reverse("table", args=[slug, table.pk]) + f"?confirm={result.pk}#confirm-{result.pk}")
    return render(request, "scoring/table.html", _table_context(request, event, table, form, players), status=status)


@require_POST
def table_confirm(request, slug, table_id, result_id):
    """Confirm a result with a seated player's PIN (or as the director); ``revision`` is the
    revision the page showed, so a result changed meanwhile is not confirmed unseen."""
    table = get_object_or_404(Table.objects.select_related("group__session__event"), pk=table_id, group__session__event__slug=slug)
    event = table.group.session.event
    if not can_enter_for(request, table):
        raise PermissionDenied(_("Log in with this table's code."))
    result = get_object_or_404(HandResult, pk=result_id, table=table)
    director = is_director(request.user, event)
    try:
        confirm_result(result, actor=request.user.get_username() if director else "", pin=request.POST.get("pin", ""),
                       director=director, revision=_int_or_none(request.POST.get("revision")))
        messages.success(request, _("Set %(set)s confirmed.") % {"set": result.set_no})
    except ResultError as exc:
        messages.error(request, _("Set %(set)s is not confirmed: %(reason)s") % {"set": result.set_no, "reason": exc.message})
        return redirect(reverse("table", args=[slug, table.pk]) + f"?confirm={result.pk}#confirm-{result.pk}")
    return redirect("table", slug=slug, table_id=table.pk)


def result_detail(request, slug, result_id):
    """A result with its full history. The director, the event's scorers and the table's scorer
    dispute or correct it (within :func:`scoring.services.correct_result`'s rules); a player
    seated at the table may read it."""
    event = get_object_or_404(Event, slug=slug)
    result = get_object_or_404(HandResult.objects.select_related("table"), pk=result_id, event=event)
    held = roles(request.user, event)
    director = EventRole.Role.DIRECTOR in held
    can_change = director or EventRole.Role.SCORER in held or result.table_id in scorer_table_ids(request)
    seated = request.user.is_authenticated and result.table.seats.filter(player__user=request.user).exists()
    if not (can_change or (seated and request.method == "GET")):
        raise PermissionDenied
    error = None
    if request.method == "POST":
        action = request.POST.get("action")
        actor = request.user.get_username() or f"scorer {result.table}"
        try:
            if action == "dispute":
                dispute_result(result, actor=actor, reason=request.POST.get("reason", ""))
            elif action == "confirm" and director:
                confirm_result(result, actor=actor, director=True)
            else:
                changes = {seat: request.POST.get(f"seat_{seat}", "") for seat in event.get_ruleset().seats}
                correct_result(result, actor=actor, reason=request.POST.get("reason", ""), director=director, changes=changes)
            return redirect("result", slug=slug, result_id=result.pk)
        except ResultError as exc:
            error = exc
    return render(request, "scoring/result.html", {
        "event": event, "result": result, "notes": result_notes(result), "history": result.revisions.all(),
        "is_director": director, "can_change": can_change, "error": error,
        "changes": [(seat, result.changes[seat]) for seat in event.get_ruleset().seats if seat in result.changes],
        "seat_values": [(seat, request.POST.get(f"seat_{seat}", "") if error else "") for seat in event.get_ruleset().seats],
    }, status=error.status if error else 200)


def live_state(event: Event, session_number: int) -> dict:
    """Grid data for the director's live page.

    ``{"session", "sets": [1..n], "counts": {"entered", "confirmed", "disputed", "missing",
    "flagged"}, "late": [table numbers], "rows": [{"table", "table_id", "group", "done", "late",
    "cells": [{"set", "status" (entered/confirmed/disputed/missing), "id", "flags": [messages]}]}]}``.
    A table is late when it is behind the furthest table of its group by a whole block of sets
    or more. Two queries whatever the size of the field.
    """
    tables = list(Table.objects.filter(group__session__event=event, group__session__number=session_number)
                  .select_related("group").order_by("number"))
    results = HandResult.objects.filter(event=event, session_number=session_number).values("table_id", "set_no", "status", "pk", "outcome")
    state = {(r["table_id"], r["set_no"]): r for r in results}
    ruleset = event.get_ruleset()
    n_sets = ruleset.hands_per_session
    block = max(1, n_sets // len(ruleset.seats))
    done = {t.pk: sum(1 for s in range(1, n_sets + 1) if (t.pk, s) in state) for t in tables}
    lead = {}
    for t in tables:
        lead[t.group_id] = max(lead.get(t.group_id, 0), done[t.pk])
    rows = []
    counts = dict.fromkeys(["entered", "confirmed", "disputed", "missing", "flagged"], 0)
    for t in tables:
        cells = []
        for s in range(1, n_sets + 1):
            stored = state.get((t.pk, s))
            status = stored["status"] if stored else "missing"
            flags = [f["message"] for f in ((stored or {}).get("outcome") or {}).get("flags") or []]
            counts[status] += 1
            counts["flagged"] += bool(flags)
            cells.append({"set": s, "status": status, "id": stored["pk"] if stored else None, "flags": flags})
        rows.append({"table": t.number, "table_id": t.pk, "group": t.group.number, "done": done[t.pk],
                     "late": lead[t.group_id] - done[t.pk] >= block, "cells": cells})
    return {"session": session_number, "sets": list(range(1, n_sets + 1)), "counts": counts,
            "late": [row["table"] for row in rows if row["late"]], "rows": rows}


def live(request, slug):
    """The director's live grid (polls :func:`live_json` every few seconds)."""
    event = get_object_or_404(Event, slug=slug)
    if not is_director(request.user, event):
        raise PermissionDenied
    sessions = list(event.sessions.values_list("number", flat=True))
    if not sessions:
        raise Http404(_("No session is seated yet."))
    session = _int_or_none(request.GET.get("session")) or sessions[-1]
    return render(request, "scoring/live.html", {"event": event, "state": live_state(event, session), "sessions": sessions})


def live_json(request, slug):
    """The live grid's data (:func:`live_state`) as JSON, for the live page's polling."""
    event = get_object_or_404(Event, slug=slug)
    if not is_director(request.user, event):
        raise PermissionDenied
    session = _int_or_none(request.GET.get("session")) or (event.sessions.order_by("-number").values_list("number", flat=True).first() or 1)
    return JsonResponse(live_state(event, session))
