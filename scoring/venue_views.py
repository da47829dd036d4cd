"""The pages of an event played in several clubs (docs/director-guide.md, "An event in several
clubs"): the central director's venues page (add a venue, its schedule, its accounts; what each
venue has played and still owes) and a venue's provisional standings, for its own people only.

Thin adapters: each POST calls one service of :mod:`tournament.venues`, shows its SetupError with
``messages.error`` and redirects; nothing stored is lost on an error.
"""

from __future__ import annotations

import datetime
import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from scoring.reports.venues import venue_progress, venue_standings, venue_viewers
from scoring.table_access import viewer
from tournament import venue_exchange
from tournament import venues as venue_services
from tournament.access import DIRECTOR, event_view
from tournament.models import EventRole, VenueBundle
from tournament.seating import SetupError

#: the largest results bundle or venue package read, in bytes (a package of 50 tables and 8
#: sessions of 16 sets is about 3 MB, mostly walls)
UPLOAD_MAX_BYTES = 20_000_000


def _json_file(request, field: str) -> object:
    """The uploaded JSON file ``field``, parsed; SetupError naming the field otherwise."""
    upload = request.FILES.get(field)
    if upload is None:
        raise SetupError(field, _("choose the file"))
    if upload.size > UPLOAD_MAX_BYTES:
        raise SetupError(field, _("the file is larger than %(mb)s MB: upload the file the site exported")
                         % {"mb": UPLOAD_MAX_BYTES // 1_000_000})
    try:
        return json.loads(upload.read().decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError):
        raise SetupError(field, _("the file is not JSON: upload the file the site exported, unchanged")) from None


def _download(data: dict, name: str) -> JsonResponse:
    """``data`` as a JSON file download named ``name``, never kept by a cache."""
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False, "separators": (",", ":")})
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["Cache-Control"] = "private, no-store"
    return response


def _when(value: str, field: str) -> datetime.datetime:
    """A ``datetime-local`` field's value as an aware datetime in the current time zone."""
    try:
        naive = datetime.datetime.fromisoformat((value or "").strip())
    except ValueError:
        raise SetupError(field, _("give a date and time, e.g. 2026-12-05 13:00")) from None
    return timezone.make_aware(naive) if timezone.is_naive(naive) else naive


@event_view(roles=(DIRECTOR,), login=True)
def venues(request, event):
    """The venues of the event, for its (central) director: the venues with each session's
    schedule and progress (:func:`scoring.reports.venues.venue_progress`: late venues and what
    they still owe), and forms to add a venue, set a session's time window and create a venue
    account (director or staff of one venue)."""
    if request.method == "POST":
        action = request.POST.get("action")
        actor = request.user.get_username()
        try:
            if action == "add":
                venue = venue_services.add_venue(event, name=request.POST.get("name", ""), code=request.POST.get("code", ""),
                                                 country=request.POST.get("country", ""),
                                                 offline=request.POST.get("offline") == "on", actor=actor)
                messages.success(request, _("Venue %(venue)s added.") % {"venue": venue.name})
            else:
                venue = get_object_or_404(event.venues, code=request.POST.get("venue", ""))
                if action == "schedule":
                    try:
                        session = int(request.POST.get("session", ""))
                    except ValueError:
                        raise SetupError("session", _("choose a session")) from None
                    venue_services.set_schedule(venue, session, _when(request.POST.get("starts_at"), "starts_at"),
                                                _when(request.POST.get("ends_at"), "ends_at"), actor=actor)
                    messages.success(request, _("Schedule saved."))
                elif action == "bundle":
                    bundle = venue_exchange.queue_bundle(venue, _json_file(request, "bundle"), actor=request.user)
                    if bundle.status == VenueBundle.Status.REFUSED:
                        raise SetupError("bundle", bundle.report["error"])
                    if bundle.status == VenueBundle.Status.MERGED:
                        messages.success(request, _("Bundle of %(venue)s merged: %(new)s new results, %(newer)s corrected, "
                                                    "%(same)s already here; %(sets)s sets rescored, %(released)s released.")
                                         % {"venue": venue.name, **bundle.report})
                    else:
                        messages.success(request, _("Bundle of %(venue)s received: it is being merged.") % {"venue": venue.name})
                elif action == "account":
                    path = venue_services.add_venue_account(venue, username=request.POST.get("username", ""),
                                                            role=request.POST.get("role", ""), actor=actor)
                    messages.success(request, _("Account created. Hand this link to its owner once, to choose a "
                                                "password: %(link)s") % {"link": request.build_absolute_uri(path)})
                else:
                    raise SetupError("action", _("choose what to do"))
        except SetupError as exc:
            messages.error(request, exc.message)
        return redirect("venues", slug=event.slug)
    uploads = list(VenueBundle.objects.filter(venue__event=event).select_related("venue").defer("data")[:20])
    for upload in uploads:
        if upload.status == VenueBundle.Status.QUEUED:
            upload.progress = cache.get(venue_exchange.progress_key(upload.pk), 0)
    return render(request, "scoring/venues.html", {
        "event": event, "venues": venue_progress(event, timezone.now()), "uploads": uploads,
        "copy": venue_exchange.venue_copy(event), "seated": event.sessions.exists(),
    })


@event_view(roles=(DIRECTOR,), login=True)
def venue_package(request, event, code):
    """The package of the offline venue ``code`` (:func:`tournament.venue_exchange.venue_package`),
    a JSON download for the venue's laptop; the director's alone (it holds the walls of every set
    and the key that signs the venue's bundles). Refused with a message when a session is not
    prepared yet."""
    venue = get_object_or_404(event.venues, code=code)
    try:
        data = venue_exchange.venue_package(event, venue)
    except SetupError as exc:
        messages.error(request, exc.message)
        return redirect("venues", slug=event.slug)
    event.log("venue-package", request.user, venue=venue.code)
    return _download(data, f"{event.slug}-{venue.code}-package.json")


@event_view(roles=(DIRECTOR,), login=True)
def results_bundle(request, event):
    """The results bundle of the venue whose laptop this is
    (:func:`tournament.venue_exchange.results_bundle`), a JSON download for the central site."""
    try:
        data = venue_exchange.results_bundle(event)
    except SetupError as exc:
        messages.error(request, exc.message)
        return redirect("venues", slug=event.slug)
    return _download(data, f"{event.slug}-{data['venue']}-results.json")


@login_required
def import_venue_package(request):
    """Import a venue package on the venue's laptop (organiser accounts, as creating an event):
    the event is restored (:func:`tournament.venue_exchange.import_package`) and whoever imports
    it becomes its director. Errors name the file and keep nothing."""
    if not request.user.is_staff:
        raise PermissionDenied(_("ask the site administrator for an organiser account"))
    error = None
    if request.method == "POST":
        try:
            with transaction.atomic():
                event = venue_exchange.import_package(_json_file(request, "package"))
                EventRole.objects.create(event=event, user=request.user, role=EventRole.Role.DIRECTOR)
        except SetupError as exc:
            error = exc.message
        except (ValueError, KeyError, TypeError) as exc:  # ExchangeError, and a file cut or edited by hand
            error = _("the package cannot be imported (%(reason)s): ask the central director for the package of your venue "
                      "again") % {"reason": str(exc)[:300]}
        else:
            messages.success(request, _("Venue package imported. Set this laptop's address in Settings, then print and play."))
            return redirect("venues", slug=event.slug)
    return render(request, "scoring/venue_package_import.html", {"error": error})


@never_cache
@event_view()
def venue_standings_page(request, event, code):
    """The provisional standings of the venue ``code`` (:func:`scoring.reports.venues.venue_standings`),
    for the event's director and staff and the venue's own people (its director and staff, its
    tables, its seated players: :func:`scoring.reports.venues.venue_viewers`). Anyone else gets a
    404, the page of a venue that does not exist: they hold results of sets other clubs may still
    have to play. Never stored by a cache."""
    venue = event.venues.filter(code=code).first()
    if venue is None or venue.pk not in venue_viewers(viewer(request, event), request.user, event):
        raise Http404(_("No such venue."))
    return render(request, "scoring/venue_standings.html", {
        "event": event, "venue": venue, "rows": venue_standings(event, venue),
        "team_event": event.method == event.Method.TEAM,
    })
