"""Where the event menu's links lead, by who is asking: ``{% load event_nav %}`` then
``{% result_entry_url event as url %}``.

"Result entry" leads the director to the entry page (any table, any hand); a browser that scores
at the event's tables (a table login or a scorer account bound to tables) to its table's page, or
to the entry page when it scores at several; anyone else (a visitor, a player, staff) to the
event's table login, where the code on the score sheet opens the table's page, not to the
account login.
"""

from django import template
from django.urls import reverse

from scoring.table_access import event_table_ids
from tournament.models import DirectorCall
from tournament.permissions import is_director

register = template.Library()


@register.simple_tag(takes_context=True)
def result_entry_url(context, event) -> str:
    """The "Result entry" link of ``event`` for the page's request (see the module doc). The
    director costs the role query (remembered for the request); others one query more for their
    table logins, none when the browser never logged into a table."""
    request = context.get("request")
    if request is None or is_director(request.user, event):
        return reverse("entry", kwargs={"slug": event.slug})
    tables = event_table_ids(request, event)
    if len(tables) == 1:
        return reverse("table", kwargs={"slug": event.slug, "table_id": next(iter(tables))})
    if tables:
        return reverse("entry", kwargs={"slug": event.slug})
    return reverse("event-table-login", kwargs={"slug": event.slug})


@register.simple_tag(takes_context=True)
def director_menu(context, event) -> dict:
    """What the director menu (``tournament/_director_menu.html``) shows for the page's request:
    ``{"director": bool (the director-only links), "check_in": session number (the first planned
    session not seated yet; the last planned one once all are), "substitute": session number
    (the latest seated session; 1 before any), "calls": the tables' calls not answered yet
    (:mod:`tournament.calls`)}``. Two queries for the director: the seated sessions and the calls
    (the role is remembered for the request)."""
    request = context.get("request")
    director = request is not None and is_director(request.user, event)
    seated = set(event.sessions.values_list("number", flat=True)) if director else set()
    planned = range(1, max(event.sessions_planned, 1) + 1)
    return {
        "director": director,
        "check_in": next((n for n in planned if n not in seated), planned[-1]),
        "substitute": max(seated, default=1),
        "calls": DirectorCall.objects.filter(event=event, answered_at__isnull=True).count() if director else 0,
    }


def _plain(value) -> str:
    if value is None or value == "":
        return "–"
    if isinstance(value, (list, tuple)):
        return ", ".join(_plain(v) for v in value) or "–"
    return str(value)


@register.filter
def audit_value(value) -> str:
    """An audit entry's detail value as the director reads it: lists joined with commas, None
    as "–", anything else as text."""
    return _plain(value)


@register.filter
def audit_change(value) -> str:
    """A change ``[old, new]`` of a ``settings-changed`` or ``status-changed`` audit entry as
    ``old → new`` (anything else as :func:`audit_value`)."""
    if isinstance(value, (list, tuple)) and len(value) == 2:
        return f"{_plain(value[0])} → {_plain(value[1])}"
    return _plain(value)
