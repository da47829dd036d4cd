"""Pages of the scoring app: public standings and the result entry form."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from scoring.forms import ResultForm
from scoring import visibility
from scoring.reports import cached_standings
from scoring.services import ResultError, submit_result
from tournament.models import Event, Table
from tournament.permissions import is_director, scorer_role_table_ids, scorer_table_ids


def standings(request, slug):
    """Public standings (no login): released sets only (:mod:`scoring.visibility`); the director
    and staff add ``?all=1`` for every scored set."""
    event = get_object_or_404(Event, slug=slug)
    session = request.GET.get("session")
    session = int(session) if session and session.isdigit() else None
    public = visibility.standings_public(request, event)
    return render(request, "scoring/standings.html", {
        "event": event, "rows": cached_standings(event, session, public=public), "session": session,
        "sessions": event.sessions.all(), "public": public, "can_see_all": visibility.viewer(request, event).secrets,
        "released": len(visibility.released_sets(event)),
        "planned_sets": visibility.planned_sets(event),
    })


def entry(request, slug):
    """Result entry for one table and hand: the director for any table; a scorer (a scorer role,
    or a browser's table login) for the tables bound to the role or logged into, the only tables
    the form lists, saying which seat is entering and typing that player's own PIN (checked by
    :func:`scoring.services.submit_result`, which stores the result)."""
    event = get_object_or_404(Event, slug=slug)
    director = is_director(request.user, event)
    if director:
        tables = Table.objects.filter(group__session__event=event)
    else:
        ids = set(scorer_table_ids(request)) | scorer_role_table_ids(request.user, event)
        tables = Table.objects.filter(group__session__event=event, pk__in=ids)
        if not tables.exists():
            raise PermissionDenied(_("log in as the director or with your table's code"))
    form = ResultForm(request.POST or None, event=event, tables=tables, require_seat=not director)
    status = 200
    if request.method == "POST" and form.is_valid():
        actor = request.user.get_username() if request.user.is_authenticated else f"table {form.cleaned_data['table'].number}"
        try:
            result = submit_result(form.cleaned_data["table"], form.cleaned_data["set_no"], changes=form.changes(), actor=actor,
                                   entered_by_seat=form.cleaned_data.get("entered_by_seat") or None,
                                   entry_pin=form.cleaned_data.get("entry_pin") or None)
        except ResultError as exc:
            form.add_result_error(exc)
            if exc.status == 429:  # PIN entry locked at the table by wrong PINs
                status = 429
        else:
            messages.success(request, _("Saved: Table %(table)s, set %(set)s: %(changes)s")
                             % {"table": result.table.number, "set": result.set_no, "changes": result.changes})
            return redirect("entry", slug=slug)
    return render(request, "scoring/entry.html", {"event": event, "form": form}, status=status)
