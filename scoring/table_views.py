"""The phone-first pages at the table: table login, the table's entry page (typed score changes or
the hand outcome), confirmation by a second seat's PIN, QR scan of a set label, the result's
history, and the director's live grid. Each write calls one function of :mod:`scoring.actions`."""

from __future__ import annotations

import html
import json
import uuid
from collections.abc import Callable
from typing import Any, cast

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.views.decorators.cache import never_cache
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from scoring import fan_check, login_throttle, table_access, visibility, wall_check
from scoring.actions import request_keys
from scoring.actions.confirmation import confirm_result, correct_result, dispute_result, unlock_confirmation
from scoring.actions.describe import describe_outcome, describe_result, result_notes, wall_flag_words
from scoring.actions.entry import check_set_here, sets_not_arrived, submit_result
from scoring.actions.errors import ResultError
from scoring.actions.seats import pin_counts, pin_refusal_message, pin_wait, wrong_pin_devices
from scoring.forms import CorrectionForm, HandForm, TableEntryForm
from scoring.models import HandResult, ResultRevision, SetRelease, SetScore
from scoring.reports import cached_standings
from scoring.table_access import can_enter_for, can_read_table, login_table
from tournament.cache import Page, cached
from tournament.access import DIRECTOR, STAFF, event_view, table_login_url, table_view, visible_or_404
from tournament.calls import CallLimited, answer_call, call_director, open_calls
from tournament.clock import ClockError, give_table_time, table_clock_state
from tournament.i18n import seat_label
from tournament.models import DirectorCall, Event, Table, display_code
from tournament.seating import SetupError
from tournament.permissions import (
    is_director,
    looks_like_code,
    normalise_code,
)
from tournament.query import int_or, int_param
from tournament.table_plan import SessionPlan, session_plan, table_plan
from walls.models import ReserveWall
from walls.setcode import SetCodeError, SetId, parse_payload, set_code




def _write_or_fault(request: HttpRequest, key: str | None, write: Callable[[], Any], table: Table) -> tuple[Any, str | None]:
    """``(result, None)`` from ``write()`` (a service call), or after a database fault during it
    what is known of a result of ``table`` (:func:`scoring.table_access.keyed_write`): ``(the
    result as stored, message)`` or ``(None, message)`` when it was not stored."""
    result, known = table_access.keyed_write(request, key, write, lambda r: r.table_id == table.pk, raise_unknown=True)
    return result, known.message() if known is not None else None


def wants_json(request: HttpRequest) -> bool:
    """Whether the request is the table page's offline queue sending a write (``static/offline.js``,
    ``Accept: application/json``): it is answered ``{"stored": ..., ...}`` instead of a page."""
    return "application/json" in request.headers.get("Accept", "")


ANSWERED_KEYS = 60
"""How many of a table's latest request keys its page lists (``answered_keys``)."""


def answered_keys(table: Table, refused: str | None = None) -> list[str]:
    """The request keys of ``table``'s latest stored writes (at most :data:`ANSWERED_KEYS`; one
    query), and ``refused``, the key of the write this page answers with a refusal: the page's
    queue script drops a hand it sent from the page whose key is listed (stored, or refused and
    shown at the form), and keeps any other to send again (a sending the network lost)."""
    keys = list(ResultRevision.objects.filter(result__table=table).exclude(request_key=None)
                .order_by("-id").values_list("request_key", flat=True)[:ANSWERED_KEYS])
    return keys + ([refused] if refused and request_keys.KEY.fullmatch(refused) else [])


@never_cache
def service_worker(request: HttpRequest) -> HttpResponse:
    """The table page's service worker (``templates/scoring/sw.js``, Workbox from the static files):
    the table page and its static files are kept on the phone, so the page reloads without a
    connection and the hands typed meanwhile wait in its queue (docs/player-guide.md). Served at
    the site's root so that its scope covers every table page; holds no event data."""
    modules = json.dumps({name: static(f"vendor/workbox/{name}.prod.js") for name in (
        "workbox-core", "workbox-routing", "workbox-strategies")})
    response = render(request, "scoring/sw.js", {"modules": modules}, content_type="application/javascript")
    response["Service-Worker-Allowed"] = "/"
    return response


def find_table(normalised: str, event: Event | None) -> Table | None:
    """The table whose login code is ``normalised`` (of ``event`` when given), or None: one
    indexed look-up of the unique code, whatever the code."""
    if not looks_like_code(normalised):
        return None
    tables = Table.objects.filter(login_code=normalised).select_related("group__session__event").defer(
        "group__session__event__grouping_plan")
    if event is not None:
        tables = tables.filter(group__session__event=event)
    return tables.first()


def _too_many(request: HttpRequest, context: dict[str, Any], wait: int | None) -> HttpResponse:
    """The 429 answer of a throttled table login, with ``Retry-After`` (:mod:`scoring.login_throttle`)."""
    wait = wait or max(1, int(settings.TABLE_LOGIN_SLOW_SECONDS))
    too_many = _("Too many wrong table codes were tried from this network, so codes are checked one at a time. "
                 "Try again in %(seconds)s seconds: a right code is let in.") % {"seconds": wait}
    context["error"] = " ".join(filter(None, [context.get("error"), too_many]))
    response = render(request, "scoring/table_login.html", context, status=429)
    response["Retry-After"] = str(wait)
    return response


@event_view(optional=True)
def table_login(request: HttpRequest, event: Event | None, code: str | None = None) -> HttpResponse:
    """Log this browser in as the scorer of a table, by the code printed on its score sheet.

    Only a POST logs in (with the CSRF token of this page): a GET, even of a login link with the
    code, shows the form with the code filled in and a button to confirm, and says nothing about
    the code. On an event's page (``/e/<slug>/entry/login/``) the code is looked up in that event
    only; ``/entry/login/`` looks it up in every event (codes are unique). Input is normalised
    (:func:`tournament.permissions.normalise_code`). Wrong codes are counted per client address
    and in total (:mod:`scoring.login_throttle`); over a limit codes are checked at a bounded
    rate, and a request with no free check slot is answered 429 with ``Retry-After`` without
    being looked up: a right code is never refused as wrong, at most asked to wait a few
    seconds. A table whose session is finished takes no more logins.
    """
    typed = (request.POST.get("code", "") if request.method == "POST" else code) or ""
    typed = typed.strip()[:40]
    context = {"event": event, "code": display_code(normalise_code(typed)) if typed else "", "error": None,
               "prefilled": request.method != "POST" and bool(typed),
               "action": reverse("event-table-login", args=[event.slug]) if event else reverse("table-login")}
    if request.method != "POST" or not typed:
        if request.method == "POST":
            context["error"] = _("Type the table code printed on your score sheet.")
        return render(request, "scoring/table_login.html", context, status=400 if context["error"] else 200)
    wait = login_throttle.check_slot(request)
    if wait:
        return _too_many(request, context, wait)
    normalised = normalise_code(typed)
    table = find_table(normalised, event)
    if table is None:
        context["error"] = _("No table has the code %(code)s: check the code on your score sheet.") % {"code": typed}
        if login_throttle.count_wrong(request, normalised):
            return _too_many(request, context, None)
        return render(request, "scoring/table_login.html", context, status=400)
    if visibility.session_finished(table.group.session.event, table.group.session.number):
        context["error"] = _("Table %(number)s has finished its session: every result is confirmed. "
                             "Ask the director for any change.") % {"number": table.number}
        return render(request, "scoring/table_login.html", context, status=403)
    login_table(request, table)
    target = request.GET.get("next", "")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        target = reverse("table", args=[table.group.session.event.slug, table.pk])
    return redirect(target)


def scan(request: HttpRequest, payload: str) -> HttpResponse:
    """Open the entry page for a scanned set label or sticker (QR payload or entry URL): the table
    of that event and session this browser scores for (table login or scorer role), else the
    login. The set is opened only where it is now: a set the movement has not brought to the
    table (or still being played at the table before) is refused before anything is typed, with
    the table that holds it (:func:`scoring.actions.entry.check_set_here`); a set the table has
    entered opens its result. A reserve wall's label opens its set's entry, saying which reserve
    wall it is."""
    try:
        set_id = parse_payload(payload)
    except SetCodeError as exc:
        return render(request, "scoring/table_login.html", {"error": str(exc), "action": reverse("table-login")}, status=400)
    # the event of the label, not of the URL; a draft is "not found" to anyone without a role in it
    event = visible_or_404(request, get_object_or_404(Event, slug=set_id.event))
    tables = Table.objects.filter(pk__in=table_access.event_table_ids(request, event),
                                  group__session__number=set_id.session).order_by("number")
    table = tables.first()
    if table is None:
        messages.info(request, _("Log in with your table's code first."))
        return redirect(table_login_url(request.get_full_path()))
    playing = _reserves_played(table).get(set_id.set_no, 0)
    if set_id.reserve and set_id.reserve == playing:  # a reserve wall's label: the set's own entry (docs/walls.md)
        messages.info(request, _("This is reserve wall %(label)s of set %(set)s: enter the result of set %(set_no)s as usual.")
                      % {"label": set_id.reserve_label, "set": set_id.set_code, "set_no": set_id.set_no})
    elif set_id.reserve != playing:  # the label and the director's list of who plays what disagree
        messages.warning(request, _("This label is %(scanned)s, but table %(table)s is listed as playing %(listed)s. Check the "
                                    "stickers before play, and ask the director to correct the list on the set's wall page.")
                         % {"scanned": _set_code(event, table, set_id.set_no, {set_id.set_no: set_id.reserve}),
                            "table": table.number, "listed": _set_code(event, table, set_id.set_no, {set_id.set_no: playing})})
    page = reverse("table", args=[event.slug, table.pk])
    entered = HandResult.objects.filter(table=table, set_no=set_id.set_no).values_list("pk", flat=True).first()
    if entered is not None:
        messages.info(request, _("Set %(code)s is entered at this table: here is its result.") % {"code": set_id.code})
        return redirect(f"{page}?confirm={entered}#confirm-{entered}")
    try:
        check_set_here(table_plan(table), table, set_id.set_no)
    except ResultError as exc:
        messages.error(request, _("Set %(code)s is not for Table %(table)s now: %(reason)s")
                       % {"code": set_id.code, "table": table.number, "reason": exc.message})
        return redirect(page)
    return redirect(f"{page}?set={set_id.set_no}")


def _reserves_played(table: Table) -> dict[int, int]:
    """``{set_no: reserve number}`` of the reserve walls the director ticked for ``table`` (one
    query): it plays those instead of the sets as prepared (docs/walls.md, "Reserve walls")."""
    return dict(ReserveWall.objects.filter(tables=table).values_list("set_no", "number"))


def _set_code(event: Event, table: Table, set_no: int, reserves: dict[int, int]) -> str:
    """The code printed on the stickers of the set ``table`` plays as ``set_no``: the reserve
    wall's own code (``1-07R1-4``, "reserve wall R1") where the table plays one."""
    set_id = SetId(event.slug, table.group.session.number, set_no, reserves.get(set_no, 0))
    if set_id.reserve:
        return _("%(code)s, reserve wall %(label)s") % {"code": set_id.code, "label": set_id.reserve_label}
    return set_id.code


def _table_context(request: HttpRequest, event: Event, table: Table, form: Any, plan: SessionPlan,
                   director: bool) -> dict[str, Any]:
    """Everything the table page shows, from the table plan ``plan`` read once for the request
    (:mod:`tournament.table_plan`), in a fixed number of queries whatever the number of sets."""
    players = plan.holders(table)
    ruleset = event.get_ruleset()
    # whether each set is released, in the same read: a wall flag is shown once it is (or to the director)
    results = {r.set_no: r for r in visibility.with_released(HandResult.objects.filter(table=table))}
    reserves = _reserves_played(table)
    schedule = [
        (slot + 1, [(s, _set_code(event, table, s, reserves), results.get(s)) for s in sets])
        for slot, sets in plan.blocks(table)
    ]
    current = next((sets for _, sets in schedule if any(r is None for _s, _c, r in sets)), [])
    pending = [s for s, _c, r in current if r is None]  # the round the table plays now: later rounds wait for it
    waiting = sets_not_arrived(plan, table, pending)  # still at the table before
    ready = [s for s in pending if s not in waiting]
    # the picker's default: a set the table can play now, else none ("choose the set"), never a later round's
    chosen = int_or(form["set_no"].value()) or int_param(request, "set") or (ready[0] if ready else None)
    # wrong PINs: how long this device waits before a PIN is checked; the director sees every device
    pins = pin_counts(table, None if director else table_access.device_of(request))
    pin_wait_seconds = 0 if director else pin_wait(pins, timezone.now())
    words = {r.pk: describe_result(r, ruleset) for r in results.values()}
    flags = {r.pk: wall_flag_words(r) if director or r.released else None for r in results.values()}
    unconfirmed = [
        {"result": r, "notes": result_notes(r), "words": words[r.pk], "key": uuid.uuid4().hex, "wall_flag": flags[r.pk],
         }
        for _, r in sorted(results.items()) if r.status != HandResult.Status.CONFIRMED
    ]
    played = [{"result": r, "words": words[r.pk], "wall_flag": flags[r.pk], "code": code}
              for _, sets in schedule for s, code, r in sets if r is not None]
    codes = {s: code for _, sets in schedule for s, code, _r in sets}
    for p in unconfirmed:
        p["code"] = codes.get(p["result"].set_no, p["result"].set_no)
    return {
        "event": event, "table": table, "ruleset": ruleset, "form": form, "rule": form.rule,
        "seats": [(seat, players.get(seat)) for seat in ruleset.seats],
        "schedule": schedule, "chosen": chosen, "typed": form.typed_only, "waiting": waiting,
        "fan_check": form.rule.fan_check and fan_check.available(),
        "unconfirmed": unconfirmed, "played": played, "focus": int_param(request, "confirm"),
        "is_director": director, "pin_wait": pin_wait_seconds,
        "pin_wait_message": pin_refusal_message(pins, pin_wait_seconds) if pin_wait_seconds else "",
        "wrong_pins": wrong_pin_devices(table) if director and pins.table_wrong else [],
        # the key of the write this page answers with a refusal: the form posted here, or the confirmation sent back here
        "answered_keys": answered_keys(table, request.POST.get("request_key") if request.method == "POST"
                                       else request.GET.get("answered")),
        "call_reasons": DirectorCall.Reason.choices, "call_key": uuid.uuid4().hex,
        "clock": table_clock_state(table) if table.group.session.clock_duration > 0 else None,
        "open_call": DirectorCall.objects.filter(table=table, answered_at__isnull=True).order_by("-called_at").first(),
    }


def _scorer_actor(request: HttpRequest, table: Table) -> str:
    return request.user.get_username() if request.user.is_authenticated else f"scorer {table}"


@table_view()
def table_page(request: HttpRequest, event: Event, table: Table) -> HttpResponse:
    """The scorer's page: seated players, results waiting for confirmation, the sets in play
    order with their state, and the entry form (:class:`scoring.forms.TableEntryForm` →
    :func:`scoring.actions.entry.submit_result`), which asks who is entering and that player's own PIN
    (both required but for the director; a wrong PIN counts towards the table's PIN limit). The
    director also unlocks the table's PIN confirmation here (``action=unlock``)."""
    director = is_director(request.user, event)
    if request.method == "POST" and request.POST.get("action") == "unlock":
        if not director:
            raise PermissionDenied(_("Only the director unlocks PIN confirmation."))
        unlock_confirmation(table, actor=request.user.get_username())
        messages.success(request, _("PIN confirmation at Table %(number)s is unlocked.") % {"number": table.number})
        return redirect("table", slug=event.slug, table_id=table.pk)
    plan = table_plan(table)  # who sits here and which sets come here: read once for the request
    form = TableEntryForm(request.POST or None, event=event, players=plan.holders(table), require_seat=not director)
    form.show_fixed_counters(table.group.session.number)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            entry = form.submission()
            set_no = entry.pop("set_no")
            try:
                result, fault = _write_or_fault(request, entry["request_key"], lambda: submit_result(
                    table, set_no, actor=_scorer_actor(request, table), plan=plan, device=table_access.device_of(request),
                    **entry), table)
            except ResultError as exc:
                form.add_result_error(exc)
                status = exc.status
            else:
                if result is None:  # not stored: the form stays filled in, with the same key
                    form.add_error(None, fault)
                    status = 503
                else:
                    saved = _("Saved set %(set)s: %(result)s. A player of another seat confirms it with their PIN.") % {
                        "set": result.set_no, "result": describe_result(result, event.get_ruleset())}
                    target = reverse("table", args=[event.slug, table.pk]) + f"?confirm={result.pk}#confirm-{result.pk}"
                    if wants_json(request):
                        return JsonResponse({"stored": True, "result": result.pk, "set": result.set_no, "revision": result.revision,
                                             "message": saved, "next": target})
                    messages.success(request, f"{fault} {saved}" if fault else saved)
                    return redirect(target)
        if wants_json(request):  # a refusal (or nothing stored after a fault: 503, sent again by the queue)
            refusal = {"stored": False, "errors": [
                f"{e['label']}: {e['message']}" if e["label"] else e["message"] for e in form.error_list()]}
            return JsonResponse(refusal, status=status)
    return render(request, "scoring/table.html", _table_context(request, event, table, form, plan, director), status=status)


@require_POST
@table_view(denied=gettext_lazy("Log in with this table's code."))
def table_confirm(request: HttpRequest, event: Event, table: Table, result_id: int) -> HttpResponse:
    """Confirm a result with a seated player's PIN (or as the director); ``revision`` is the
    revision the page showed, so a result changed meanwhile is not confirmed unseen. The director
    unlocks a result's PIN confirmation here too (``action=unlock``)."""
    result = get_object_or_404(HandResult, pk=result_id, table=table)
    result.table = table  # with its group, session and event: the confirmation reads no more of them
    director = is_director(request.user, event)
    back = reverse("table", args=[event.slug, table.pk]) + f"?confirm={result.pk}#confirm-{result.pk}"
    code = set_code(table.group.session.number, result.set_no)  # as its label and sheets name it (no query)
    if request.POST.get("action") == "unlock":
        if not director:
            raise PermissionDenied(_("Only the director unlocks PIN confirmation."))
        unlock_confirmation(table, result, actor=request.user.get_username())
        messages.success(request, _("Set %(set)s can be confirmed with a PIN again.") % {"set": code})
        return redirect(back)
    key = request.POST.get("request_key") or None
    if key and request_keys.KEY.fullmatch(key):  # the page sent back lists it as answered (static/offline.js)
        back = reverse("table", args=[event.slug, table.pk]) + f"?confirm={result.pk}&answered={key}#confirm-{result.pk}"
    try:
        confirmed, fault = _write_or_fault(request, key, lambda: confirm_result(
            result, actor=_scorer_actor(request, table), pin=request.POST.get("pin", ""), director=director,
            revision=int_or(request.POST.get("revision")), request_key=key, device=table_access.device_of(request)), table)
        if confirmed is None:
            if wants_json(request):
                return JsonResponse({"stored": False, "errors": [fault]}, status=503)
            messages.error(request, _("Set %(set)s is not confirmed: %(reason)s") % {"set": code, "reason": fault})
            return redirect(back)
        if wants_json(request):
            return JsonResponse({"stored": True, "result": confirmed.pk, "set": confirmed.set_no, "status": confirmed.status})
        messages.success(request, " ".join(filter(None, [fault, _("Set %(set)s confirmed.") % {"set": code}])))
    except ResultError as exc:
        if wants_json(request):
            return JsonResponse({"stored": False, "errors": [exc.message]}, status=exc.status)
        messages.error(request, _("Set %(set)s is not confirmed: %(reason)s") % {"set": code, "reason": exc.message})
        return redirect(back)
    return redirect("table", slug=event.slug, table_id=table.pk)


REVISION_ACTIONS = {"enter": gettext_lazy("entered"), "confirm": gettext_lazy("confirmed"),
                    "correct": gettext_lazy("corrected"), "dispute": gettext_lazy("disputed")}


def _history(result: HandResult, ruleset: Any) -> list[dict[str, Any]]:
    """The result's revisions for people: ``{"revision", "action" (words), "actor", "at",
    "words" (the hand as a sentence after the revision), "before" (the sentence before a
    correction, else ""), "reason", "flags"}``, oldest first."""
    entries, before = [], None
    for revision in result.revisions.all():
        words = describe_outcome(ruleset, revision.outcome, revision.changes)
        if revision.previous is not None and before is None:  # no earlier revision kept: its changes alone
            before = describe_outcome(ruleset, None, revision.previous)
        entries.append({
            "revision": revision.revision, "action": REVISION_ACTIONS.get(revision.action, revision.action),
            "actor": revision.actor, "at": revision.at, "words": words, "reason": revision.reason,
            "before": (before or "") if revision.previous is not None else "",
            "flags": (revision.outcome or {}).get("flags") or [],
        })
        before = words
    return entries


@event_view()
def result_detail(request: HttpRequest, event: Event, result_id: int) -> HttpResponse:
    """A result with its full history, each revision a sentence. The director and the scorers of
    its table (a scorer role bound to the table, or this browser's table login) change it:
    dispute it, or correct it with the table page's hand fields (:class:`scoring.forms.CorrectionForm`,
    filled in with the stored outcome or changes; but for the director, the form asks who is
    correcting and that player's own PIN, as the table page's entry does: the correction becomes
    that seat's entry, confirmed by another seat), within :func:`scoring.actions.confirmation.correct_result`'s
    and :func:`~scoring.actions.confirmation.dispute_result`'s rules (once confirmed, only the director); the
    director also confirms it and unlocks its PIN confirmation. A player seated at the table may
    read it (:mod:`scoring.table_access`)."""
    result = get_object_or_404(HandResult.objects.select_related("table__group__session"), pk=result_id, event=event)
    result.event = result.table.group.session.event = event
    director = is_director(request.user, event)
    can_change = can_enter_for(request, result.table)
    if not (can_change or (request.method == "GET" and can_read_table(request, result.table))):
        raise PermissionDenied
    ruleset = event.get_ruleset()
    plan = table_plan(result.table)  # who held the seats on this set, read once for the request
    players = plan.holders(result.table, result.set_no)
    action = request.POST.get("action") if request.method == "POST" else None
    form = CorrectionForm(request.POST if action == "correct" else None, event=event, players=players,
                          initial=HandForm.initial_for(result), require_seat=not director)
    form.show_fixed_counters(result.table.group.session.number, result.set_no)
    error = None
    if request.method == "POST":
        actor = request.user.get_username() or f"scorer {result.table}"
        if action in ("confirm", "unlock", "unlock-table") and not director:
            raise PermissionDenied
        key = request.POST.get("request_key") or None
        try:
            if action == "dispute":
                written, fault = _write_or_fault(request, key, lambda: dispute_result(
                    result, actor=actor, reason=request.POST.get("reason", ""), director=director, plan=plan, request_key=key),
                    result.table)
            elif action == "confirm":
                written, fault = _write_or_fault(request, key, lambda: confirm_result(
                    result, actor=actor, director=True, request_key=key), result.table)
            elif action in ("unlock", "unlock-table"):
                unlock_confirmation(result.table, result if action == "unlock" else None, actor=actor)
                written, fault = result, None
            elif form.is_valid():
                written, fault = _write_or_fault(request, key, lambda: correct_result(
                    result, actor=actor, director=director, plan=plan, device=table_access.device_of(request),
                    **form.submission()), result.table)
            else:
                raise ResultError("__all__", _("check the marked fields of the correction"))
            if written is None:  # not stored after a fault: the form stays filled in, with the same key
                raise ResultError("__all__", fault or "", status=503)
            if fault:
                messages.success(request, fault)
            return redirect("result", slug=event.slug, result_id=result.pk)
        except ResultError as exc:
            error = exc
            if action == "correct" and exc.field != "__all__" and exc.field != "status":
                form.add_result_error(exc)
    # the wall flag tells about the wall: the director and staff, everyone once the set is released
    # (asked whether flagged or not, so the page costs the same either way)
    may_see_wall = visibility.can_see_set(table_access.viewer(request, event), event, result.session_number, result.set_no)
    wall_flag = wall_flag_words(result) if may_see_wall else None
    return render(request, "scoring/result.html", {
        "event": event, "result": result, "notes": result_notes(result), "history": _history(result, ruleset),
        "wall_flag": wall_flag,
        "words": describe_result(result, ruleset), "is_director": director, "can_change": can_change, "error": error,
        "form": form, "rule": form.rule, "typed": form.typed_only,
        "fan_check": form.rule.fan_check and fan_check.available(),
        "wrong_pins": wrong_pin_devices(result.table) if director and result.status != HandResult.Status.CONFIRMED else [],
    }, status=error.status if error else 200)


def live_state(event: Event, session_number: int) -> dict[str, Any]:
    """Grid data for the director's live page.

    ``{"session", "sets": [1..n], "counts": {"entered", "confirmed", "disputed", "missing",
    "flagged"}, "late": [table numbers], "team_method", "rows": [{"table", "table_id", "group", "done", "late",
    "cells": [{"set", "status" (entered/confirmed/disputed/missing), "id", "flags": [messages],
    "converted": [{"seat", "label", "name", "points"}]}]}], "scores": [{"name", "points": [per set,
    None until scored], "total"}]}``. A cell's ``converted``: once the set is scored, the converted
    points (:class:`scoring.models.SetScore`) of the team (team method) or player (individual
    method) at each of the table's seats, in seat order (``label``: the seat in the active
    language), the seat's holder on that set (:meth:`tournament.table_plan.SessionPlan.holders`:
    a substitute from the sets they play). ``scores``: every team or player who held a seat in the
    session with its converted points set by set and their sum, highest first. ``private_sets``:
    the sets whose converted points show here while other groups still play them (scored for a
    group, not released: :mod:`scoring.visibility`), for the page's "do not project" warning. A table is late
    when it is behind the furthest table of its group by a whole block of sets or more. Five
    queries whatever the size of the field (the table plan's three, the results, the scores).
    """
    found = session_plan(event, session_number)
    tables = found.tables if found else []
    plan = cast(SessionPlan, found)  # read only for its tables: none when the session is not seated
    results = HandResult.objects.filter(event=event, session_number=session_number).values(
        "table_id", "set_no", "status", "pk", "wall_flag", "outcome__flags")  # its flags, not the whole outcome
    state = {(r["table_id"], r["set_no"]): r for r in results}
    team_method = event.method == Event.Method.TEAM
    released = Exists(SetRelease.objects.filter(event=event, session_number=session_number, set_no=OuterRef("set_no")))
    score_rows = list(SetScore.objects.filter(event=event, session_number=session_number).values(
        "set_no", "team_id", "player_id", "points", released=released))
    scores = {(r["set_no"], r["team_id"] if team_method else r["player_id"]): r["points"] for r in score_rows}
    # scored for a group, not yet released: other groups still play these sets (scoring.visibility)
    private_sets = sorted({r["set_no"] for r in score_rows if not r["released"]})
    ruleset = event.get_ruleset()
    n_sets = ruleset.hands_per_session
    block = max(1, n_sets // len(ruleset.seats))
    done = {t.pk: sum(1 for s in range(1, n_sets + 1) if (t.pk, s) in state) for t in tables}
    lead: dict[int, int] = {}
    for t in tables:
        lead[t.group_id] = max(lead.get(t.group_id, 0), done[t.pk])

    def key_and_name(player: Any) -> tuple[int, str]:
        """The scored entrant at a seat: the team (team method) or the player holding it."""
        if team_method:
            return player.team_id, player.team.name if player.team_id else ""
        return player.pk, player.name

    rows = []
    counts = dict.fromkeys(["entered", "confirmed", "disputed", "missing", "flagged"], 0)
    labels = {seat: seat_label(seat) for seat in ruleset.seats}
    for t in tables:
        cells = []
        for s in range(1, n_sets + 1):
            stored = state.get((t.pk, s))
            status = stored["status"] if stored else "missing"
            flags = [f["message"] for f in (stored or {}).get("outcome__flags") or []]
            if stored and stored["wall_flag"]:  # the director's grid: the wall may be seen
                flags.append(wall_check.flag_message(stored["wall_flag"].get("problems") or ()))
            counts[status] += 1
            counts["flagged"] += bool(flags)
            converted = [{"seat": seat, "label": labels[seat], "points": scores[(s, key)], "name": name}
                         for seat, player in plan.ordered_holders(t, s)  # whoever held the seat on this set
                         for key, name in [key_and_name(player)] if (s, key) in scores]
            cells.append({"set": s, "status": status, "id": stored["pk"] if stored else None, "flags": flags,
                          "converted": converted})
        rows.append({"table": t.number, "table_id": t.pk, "group": t.group.number, "done": done[t.pk],
                     "late": lead[t.group_id] - done[t.pk] >= block, "cells": cells})
    # everyone who held a seat on at least one set (a player replaced before set 1 played none)
    entrants = dict(key_and_name(p) for t in tables for s in range(1, n_sets + 1) for p in plan.holders(t, s).values())
    # ranked as the session's standings rank (tie-breaks, adjustments: scoring.reports), not by a rule of its own
    standing = {row["key"]: (i, row) for i, row in enumerate(cached_standings(event, session_number, public=False))}
    board = []
    for key, name in entrants.items():
        points = [scores.get((s, key)) for s in range(1, n_sets + 1)]
        order, row = standing.get(key, (len(standing), None))
        board.append({"name": name, "points": points, "rank": row["rank"] if row else None, "order": order,
                      "total": row["points"] if row else sum(p for p in points if p is not None)})
    board.sort(key=lambda entry: (entry.pop("order"), entry["name"]))
    return {"session": session_number, "sets": list(range(1, n_sets + 1)), "counts": counts,
            "late": [row["table"] for row in rows if row["late"]], "rows": rows, "team_method": team_method,
            "scores": board, "private_sets": private_sets}


def live_rows_html(state: dict[str, Any], result_path: str) -> tuple[SafeString, SafeString]:
    """The rows of the live grid and of its converted scores (``<tr>`` elements) for
    :func:`live_state`'s ``state``, the same markup the page's script writes on each poll
    (templates/scoring/live.html), every text escaped; ``result_path``: the path of a result
    without its id. Written out here rather than by a template loop: at 256 tables the grid has
    4,096 cells, which the template engine took about 0.4 s to render (docs/performance.md)."""
    def signed(points: float) -> str:
        return "%+d" % points  # as the template's stringformat:"+d" (a sit-out average may be a fraction)

    escaped: dict[str, str] = {}  # the same names and labels recur in every cell: escaped once each

    def escape(text: str) -> str:
        found = escaped.get(text)
        if found is None:
            found = escaped[text] = html.escape(text)  # what Django's escape gives
        return found

    grid = []
    for row in state["rows"]:
        number = str(row["table"])
        cells = []
        for c in row["cells"]:
            title = escape(c["status"]) + "".join(f" · {escape(f)}" for f in c["flags"]) + "".join(
                f" · {escape(p['label'])} {escape(p['name'])} {signed(p['points'])}" for p in c["converted"])
            shown = (f'<a href="{escape(result_path)}{c["id"]}/">{escape(c["status"][:1].upper())}</a>'
                     + ("<mark>⚑</mark>" if c["flags"] else "")) if c["id"] else "·"
            cells.append(f'<td class="num status-{escape(c["status"])}{" flagged" if c["flags"] else ""}" '
                         f'data-set="{c["set"]}" title="{title}">{shown}</td>')
        late, head = (' class="late"', f"<mark>{number}</mark>") if row["late"] else ("", number)
        grid.append(f'<tr data-table="{number}"{late}><th scope="row">{head}</th>\n{"".join(cells)}</tr>')
    scores = []
    for entry in state["scores"]:
        points = "".join(f'<td class="num">{"·" if p is None else signed(p)}</td>' for p in entry["points"])
        rank = "–" if entry["rank"] is None else str(entry["rank"])
        scores.append(f'<tr><td class="num">{rank}</td><th scope="row">{escape(entry["name"])}</th>{points}'
                      f'<td class="num"><strong>{signed(entry["total"])}</strong></td></tr>')
    return mark_safe("".join(grid)), mark_safe("".join(scores))  # noqa: S308 - every text escaped above


LIVE, LIVE_JSON = Page("live"), Page("live.json", html=False)


@event_view(roles=(DIRECTOR,))  # every table's entries, released or not
def live(request: HttpRequest, event: Event) -> HttpResponse:
    """The director's live grid (polls :func:`live_json` every few seconds). Before any session
    is seated: the page with an empty grid of session 1 and what to do (prepare it on the
    director's page). Its body is cached per content version and session (the director's scope:
    a scope no public page has), with an ETag (:class:`tournament.cache.Page`)."""
    sessions = list(event.sessions.values_list("number", flat=True))
    session = int_param(request, "session") or (sessions[-1] if sessions else 1)
    variant = LIVE.variant(table_access.viewer(request, event), False, session)

    def context() -> dict[str, Any]:
        state = cached_live_state(event, session)
        grid, scores = live_rows_html(state, reverse("result", args=[event.slug, 0]).removesuffix("0/"))
        return {"event": event, "state": state, "sessions": sessions, "grid_rows": grid, "score_rows": scores}

    return LIVE.respond(request, event, variant, lambda: render(request, "scoring/live.html", {
        "event": event, "state": {"session": session}, "sessions": sessions,
        "body": LIVE.body(event, variant, "scoring/_live_body.html", context)}))


def cached_live_state(event: Event, session_number: int) -> dict[str, Any]:
    """:func:`live_state` cached per content version, session and language (the seats' labels)."""
    return cached(event, f"live:{session_number}:{get_language()}", lambda: live_state(event, session_number))


@event_view(roles=(DIRECTOR,))
def live_json(request: HttpRequest, event: Event) -> HttpResponse:
    """The live grid's data (:func:`live_state`) as JSON, for the live page's polling: cached per
    content version, with an ETag, so a poll with nothing new is answered 304."""
    session = int_param(request, "session") or (event.sessions.order_by("-number").values_list("number", flat=True).first() or 1)
    variant = LIVE_JSON.variant(table_access.viewer(request, event), False, session)
    return LIVE_JSON.respond(request, event, variant, lambda: HttpResponse(cached(
        event, f"live.json:{variant}", lambda: json.dumps(cached_live_state(event, session)).encode()),
        content_type="application/json"))


@require_POST
@table_view(denied=gettext_lazy("Log in with this table's code."))
def table_call(request: HttpRequest, event: Event, table: Table) -> HttpResponse:
    """The table calls the director (:func:`tournament.calls.call_director`): ``reason`` and
    ``note`` from the table page's form, with its ``request_key`` (a call sent again is stored
    once; while the table's call is open, a repeat of it). Answers the table page with a message,
    or JSON for the page's offline queue: a refusal names its ``field`` (``request_key`` for a key
    another table used), and a table over its limit of calls is answered 429 with
    ``Retry-After``."""
    try:
        call = call_director(table, reason=request.POST.get("reason", ""), note=request.POST.get("note", ""),
                             actor=_scorer_actor(request, table), request_key=request.POST.get("request_key") or None)
    except SetupError as exc:
        if wants_json(request):
            refused = JsonResponse({"stored": False, "field": exc.field, "errors": [exc.message]}, status=exc.status)
            if isinstance(exc, CallLimited):
                refused["Retry-After"] = str(exc.retry_after)
            return refused
        messages.error(request, exc.message)
        return redirect("table", slug=event.slug, table_id=table.pk)
    if getattr(call, "repeated", False):
        said = _("The director was already called to Table %(table)s and is coming: %(reason)s. Stay at the table.") % {
            "table": table.number, "reason": call.get_reason_display()}
    else:
        said = _("The director is called to Table %(table)s: %(reason)s. Stay at the table.") % {
            "table": table.number, "reason": call.get_reason_display()}
    if wants_json(request):
        return JsonResponse({"stored": True, "call": call.pk, "message": said})
    messages.success(request, said)
    return redirect("table", slug=event.slug, table_id=table.pk)


@event_view(roles=(DIRECTOR, STAFF))
def director_calls(request: HttpRequest, event: Event) -> HttpResponse:
    """The calls from the tables that nobody has answered yet, oldest first, with the table, its
    room and the reason (:func:`tournament.calls.open_calls`); the page polls
    :func:`director_calls_json` every few seconds and says when a new call comes in. The director
    marks a call answered once at the table (:func:`director_call_answer`)."""
    return render(request, "scoring/calls.html", {"event": event, "calls": open_calls(event)})


@event_view(roles=(DIRECTOR, STAFF))
def director_calls_json(request: HttpRequest, event: Event) -> HttpResponse:
    """The open calls (:func:`tournament.calls.open_calls`) as JSON, for the calls page's polling."""
    return JsonResponse({"calls": open_calls(event)})


@require_POST
@event_view(roles=(DIRECTOR, STAFF))
def director_call_answer(request: HttpRequest, event: Event, call_id: int) -> HttpResponse:
    """Mark a call answered (:func:`tournament.calls.answer_call`) and go back to the calls page."""
    try:
        call = answer_call(event, call_id, actor=request.user.get_username())
    except SetupError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("The call of Table %(table)s is answered.") % {"table": call.table.number})
    return redirect("director-calls", slug=event.slug)


@table_view(denied=gettext_lazy("Log in with this table's code."))
def table_clock_json(request: HttpRequest, event: Event, table: Table) -> HttpResponse:
    """The clock the table plays to (:func:`tournament.clock.table_clock_state`: its session's
    clock and the table's own extra time) as JSON, for the table page's countdown to poll."""
    return JsonResponse(table_clock_state(table))


@require_POST
@table_view()
def table_extra_time(request: HttpRequest, event: Event, table: Table) -> HttpResponse:
    """The director gives this table alone ``minutes`` more (:func:`tournament.clock.give_table_time`)
    and comes back to the table's page."""
    if not is_director(request.user, event):
        raise PermissionDenied(_("Only the director gives a table extra time."))
    try:
        give_table_time(table, request.POST.get("minutes", ""), actor=request.user.get_username())
    except ClockError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Table %(table)s has %(minutes)s more minutes in all.")
                         % {"table": table.number, "minutes": round(table.clock_extra / 60)})
    return redirect("table", slug=event.slug, table_id=table.pk)
