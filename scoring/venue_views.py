"""The pages of an event played in several clubs (docs/director-guide.md, "An event in several
clubs"): the central director's venues page (add a venue, its schedule, its accounts; what each
venue has played and still owes) and a venue's provisional standings, for its own people only.

Thin adapters: each POST calls one service of :mod:`tournament.venues`, shows its SetupError with
``messages.error`` and redirects; nothing stored is lost on an error.
"""

from __future__ import annotations

import datetime

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from scoring.reports.venues import venue_progress, venue_standings, venue_viewers
from scoring.table_access import viewer
from tournament import venues as venue_services
from tournament.access import DIRECTOR, event_view
from tournament.seating import SetupError


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
    return render(request, "scoring/venues.html", {
        "event": event, "venues": venue_progress(event, timezone.now()), "sessions": range(1, event.sessions_planned + 1),
    })


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
