"""Pages of the scoring app: public standings and the result entry form."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring import table_access, visibility
from scoring.actions.describe import describe_result
from scoring.actions.entry import submit_result
from scoring.actions.errors import ResultError
from scoring.forms import ResultForm
from scoring.reports import cached_standings, conversion_in_use
from tournament.cache import Page
from tournament.access import DIRECTOR, TABLE, event_view
from tournament.models import Table
from tournament.permissions import is_director
from tournament.query import int_param
from tournament.venue_exchange import venue_copy


STANDINGS = Page("standings")


@event_view()
def standings(request, event):
    """Public standings (no login): released sets only (:mod:`scoring.visibility`); the director
    and staff add ``?all=1`` for every scored set. Names the conversion table version(s) the
    scores counted were converted with, warning when they mix (:func:`conversion_in_use`).
    Its body is cached per version, session and scope, with an ETag (:class:`tournament.cache.Page`)."""
    session = int_param(request, "session", maximum=event.sessions_planned)
    public = table_access.standings_public(request, event)
    viewer = table_access.viewer(request, event)
    variant = STANDINGS.variant(viewer, public, session)

    def context() -> dict:
        return {
            "event": event, "rows": cached_standings(event, session, public=public), "session": session,
            "sessions": list(event.sessions.all()), "public": public, "can_see_all": viewer.secrets,
            "released": len(visibility.released_sets(event)),
            "planned_sets": visibility.planned_sets(event),
            "conversions": conversion_in_use(event, public=public), "director": viewer.director,
            "venue_copy": venue_copy(event),
        }

    return STANDINGS.respond(request, event, variant, lambda: render(request, "scoring/standings.html", {
        "event": event, "body": STANDINGS.body(event, variant, "scoring/_standings_body.html", context, public=public),
    }), public=public, query={"session": session} if session else None)


@event_view(roles=(DIRECTOR, TABLE), denied=gettext_lazy("log in as the director or with your table's code"))
def entry(request, event):
    """Result entry for one table and hand: the director for any table; a scorer (a scorer role,
    or a browser's table login) for the tables bound to the role or logged into, the only tables
    the form lists, saying which seat is entering and typing that player's own PIN (checked by
    :func:`scoring.actions.entry.submit_result`, which stores the result)."""
    director = is_director(request.user, event)
    if director:
        tables = Table.objects.filter(group__session__event=event)
    else:
        tables = Table.objects.filter(pk__in=table_access.event_table_ids(request, event))
    form = ResultForm(request.POST or None, event=event, tables=tables, require_seat=not director)
    status = 200
    if request.method == "POST" and form.is_valid():
        actor = request.user.get_username() if request.user.is_authenticated else f"table {form.cleaned_data['table'].number}"
        try:
            result = submit_result(form.cleaned_data["table"], form.cleaned_data["set_no"], changes=form.changes(), actor=actor,
                                   entered_by_seat=form.cleaned_data.get("entered_by_seat") or None,
                                   entry_pin=form.cleaned_data.get("entry_pin") or None, director=director,
                                   device=table_access.device_of(request))
        except ResultError as exc:
            form.add_result_error(exc)
            if exc.status == 429:  # this device waits after wrong PINs (seats.pin_wait)
                status = 429
        else:
            messages.success(request, _("Saved: Table %(table)s, set %(set)s: %(changes)s")
                             % {"table": result.table.number, "set": result.set_no, "changes": describe_result(result)})
            return redirect("entry", slug=event.slug)
    return render(request, "scoring/entry.html", {"event": event, "form": form}, status=status)
