"""The session clock, the announcement and the projector (docs/director-guide.md, "Clock and
projector").

The director starts, pauses and extends a session's clock and writes the announcement from the
director's page (:mod:`tournament.clock`). The projector is a public full-screen page for the
hall: the clock of the latest session with a clock set, the announcement and the top of the
standings, which it refreshes itself from :func:`projector_json` every 10 seconds while the
clock ticks each second in the page. Its standings are ALWAYS the public ones (released sets
only: :mod:`scoring.visibility`) whoever is logged in: the director's laptop drives the hall's
screen, and a set still in play elsewhere must never show there.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring import reports, table_access, visibility
from tournament import clock
from tournament.access import DIRECTOR, event_view
from tournament import cache
from tournament.query import int_param

PROJECTOR_ROWS = 10
"""Standings rows on the projector unless ``?rows=`` asks for another number (1 to 40)."""

director_page = event_view(roles=(DIRECTOR,), login=True)


def _back(event, number: int | None = None):
    url = reverse("director", args=[event.slug])
    return redirect(f"{url}#clock-box-{number}" if number else f"{url}#announcement")


@require_POST
@director_page
def session_clock(request, event, number):
    """Director: ``action`` = ``start`` (with ``minutes`` the first time), ``pause``, ``extend``
    (``+5 min``: ``extend_minutes``, default 5) or ``set`` (``minutes``: reset the clock) for
    session ``number``; back to the director's page with the error, if any."""
    session = event.sessions.filter(number=number).first()
    if session is None:
        raise Http404(_("session %(session)s is not seated") % {"session": number})
    actor = request.user.get_username()
    action = request.POST.get("action", "")
    minutes = request.POST.get("minutes", "")
    try:
        if action == "start":
            clock.start_clock(session, minutes=minutes, actor=actor)
        elif action == "pause":
            clock.pause_clock(session, actor=actor)
        elif action == "extend":
            clock.extend_clock(session, request.POST.get("extend_minutes") or 5, actor=actor)
        elif action == "set":
            clock.set_clock(session, minutes or 0, actor=actor)
        else:
            messages.error(request, _("choose Start, Pause or +5 min"))
    except clock.ClockError as exc:
        messages.error(request, exc.message)
    return _back(event, number)


@require_POST
@director_page
def announcement(request, event):
    """Director: show ``text`` on the projector (empty: no announcement); back to the director's page."""
    clock.set_announcement(event, request.POST.get("text", ""), actor=request.user.get_username())
    messages.success(request, _("The projector shows the announcement.") if event.announcement.strip()
                     else _("The projector shows no announcement."))
    return _back(event)


def _rows(request) -> int:
    return int_param(request, "rows", default=PROJECTOR_ROWS, maximum=40)


def projector_data(event, rows: int = PROJECTOR_ROWS) -> dict:
    """What the projector shows, as plain JSON values: ``{"event": name, "announcement": text,
    "clock": clock.clock_state(...) or None, "standings": [{"rank", "tied", "name", "points",
    "score_total"}] (the first ``rows`` ranked rows of the PUBLIC standings), "updated": ISO
    time}``. Public standings whoever asks (module docstring). All but the clock and the time
    are cached per public version (the clock's remaining time changes by itself: read afresh,
    one query)."""
    return {
        **cache.cached(event, f"projector:{rows}", lambda: _projector_content(event, rows), public=True),
        "clock": clock.projector_clock(event, lambda number: visibility.session_finished(event, number)),
        "updated": timezone.now().isoformat(),
    }


def _projector_content(event, rows: int) -> dict:
    """The part of :func:`projector_data` the public version covers."""
    standings = [r for r in reports.cached_standings(event, public=True) if r["rank"] is not None][:rows]
    return {
        "event": event.name,
        "announcement": event.announcement,
        "standings": [{"rank": r["rank"], "tied": r["tied"], "name": r["name"], "points": r["points"],
                       "score_total": r["score_total"]} for r in standings],
    }


@event_view()
def projector(request, event):
    """The full-screen page for the hall (public): clock, announcement, public standings."""
    rows = _rows(request)
    return render(request, "tournament/projector.html", {
        "event": event, "data": projector_data(event, rows), "rows": rows,
        "json_url": reverse("projector-json", args=[event.slug]) + (f"?rows={rows}" if rows != PROJECTOR_ROWS else ""),
    })


@event_view()
def projector_json(request, event):
    """:func:`projector_data` as JSON (the projector page polls it every 10 s); rate-limited per
    address (:func:`tournament.cache.limited`); its standings are cached already."""
    refused = cache.limited(request, "projector.json", table_access.viewer(request, event))
    if refused is not None:
        return refused
    with cache.reading(event):
        response = JsonResponse(projector_data(event, _rows(request)), json_dumps_params={"ensure_ascii": False})
    response["Cache-Control"] = "no-store"  # the clock counts down between changes: never a 304
    return response
