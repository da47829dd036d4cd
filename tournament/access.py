"""How a page or API view names the event it serves and the role it needs, once.

Pages are functions: :func:`event_view` looks the event up by the URL's ``slug`` (404 when
unknown), checks the role and hands the event to the view; :func:`table_view` does the same for
a table's own pages, where the right to enter results is the table's (a scorer of that table or
the director). The REST API uses :class:`EventFromURL` (the event of ``event_slug``) with the
permission class :class:`HasEventRole`.

Roles (:mod:`tournament.permissions`; superusers count as director): :data:`DIRECTOR`,
:data:`STAFF`, :data:`SCORER` (an account holding the scorer role), and :data:`TABLE`: the
request scores at one of the event's tables, by a scorer role bound to it or a table login
(:mod:`scoring.table_access`). A view that names several roles is open to any one of them.

Drafts (``Event.Status.DRAFT``) are hidden: every page and API view built here answers 404 to
a request without a role in the event (:data:`DRAFT_ROLES`), as if the event did not exist
(:func:`visible_or_404`, the one check; :func:`visible_events` lists what a user may see).

Only whole-view checks live here. A view still refuses an action by hand where a single action
of it needs more than the view does (the director alone unlocks a table's PIN confirmation).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import Http404
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from rest_framework.permissions import BasePermission

from scoring.table_access import can_enter_for, event_table_ids
from tournament.models import Event, EventRole, Table
from tournament.prepared import PreparedQuery
from tournament.permissions import roles as held_roles
from tournament.permissions import scorer_role_table_ids

# (str at run time: TextChoices members; typed so, as mypy without the Django plugin reads them as tuples)
DIRECTOR = cast(str, EventRole.Role.DIRECTOR)
STAFF = cast(str, EventRole.Role.STAFF)
SCORER = cast(str, EventRole.Role.SCORER)
TABLE = "table"  # scores at one of the event's tables: a scorer role bound to it, or a table login


def holds(request, event: Event, wanted: Iterable[str]) -> bool:
    """Whether ``request`` holds any of the ``wanted`` roles in ``event`` (:data:`DIRECTOR`,
    :data:`STAFF`, :data:`SCORER`, :data:`TABLE`). The account roles cost one query per request
    (remembered); :data:`TABLE` one more, asked only when the account roles do not suffice."""
    wanted = set(wanted)
    if held_roles(request.user, event) & wanted:
        return True
    return TABLE in wanted and bool(event_table_ids(request, event))


DRAFT_ROLES = (DIRECTOR, STAFF, SCORER, TABLE)
"""The roles that see a draft event (a player's account does not)."""


def may_see(request, event: Event) -> bool:
    """Whether ``request`` may see ``event`` at all: any event but a draft, and a draft only
    with one of :data:`DRAFT_ROLES` (superusers count as director). No query unless a draft."""
    return event.status != Event.Status.DRAFT or holds(request, event, DRAFT_ROLES)


def visible_or_404(request, event: Event) -> Event:
    """``event`` when ``request`` may see it (:func:`may_see`); else raises Http404, the answer
    for an unknown event, so a draft's existence is not given away."""
    if not may_see(request, event):
        raise Http404(_("No such event."))
    return event


def visible_events(user) -> QuerySet:
    """The events ``user`` may see listed: every event but drafts, and the drafts where the user
    holds a role of :data:`DRAFT_ROLES` (every draft for a superuser). A browser's table logins
    open a draft's pages but do not list it."""
    events = Event.objects.all()
    if getattr(user, "is_superuser", False):
        return events
    shown = ~Q(status=Event.Status.DRAFT)
    if getattr(user, "is_authenticated", False):
        shown |= Q(pk__in=EventRole.objects.filter(user=user, role__in=[DIRECTOR, STAFF, SCORER]).values("event_id"))
    return events.filter(shown)


def _refuse(denied) -> PermissionDenied:
    """A PermissionDenied with ``denied`` (lazy or plain text, translated now) or the 403 page's
    own text when None."""
    return PermissionDenied(str(denied)) if denied else PermissionDenied()


_EVENT_BY_SLUG = PreparedQuery(Event, lambda slug: Event.objects.filter(slug=slug))


def event_by_slug(slug: str) -> Event:
    """The event whose short name is ``slug`` (read by a query compiled once per process:
    :class:`tournament.prepared.PreparedQuery`; every page and API request asks it). Raises
    Http404 when there is none."""
    found = _EVENT_BY_SLUG(str(slug))
    if not found:
        raise Http404("No event matches the given query.")
    return found[0]


def event_view(*, roles: Iterable[str] = (), login: bool = False, denied=None, optional: bool = False):
    """Decorator of a page view whose URL holds the event's ``slug``: the view is called as
    ``view(request, event, **other URL arguments)``.

    ``roles``: any one of them lets the request in (none: everyone). ``login``: anonymous visitors
    are sent to the login page first, as :func:`~django.contrib.auth.decorators.login_required`
    does; else they are refused like anyone else without the role. A refusal is a 403
    (PermissionDenied) saying ``denied`` when given. ``optional``: a URL without ``slug`` calls the view with ``event=None``.
    Raises Http404 for an unknown event, and for a draft the request may not see
    (:func:`visible_or_404`; checked before the role, so a draft is not told apart from no event).
    """
    wanted = tuple(roles)

    def decorate(view):
        @functools.wraps(view)
        def wrapper(request, *args, slug=None, **kwargs):
            if slug is None and optional:
                return view(request, None, *args, **kwargs)
            event = visible_or_404(request, event_by_slug(slug))
            if wanted and not holds(request, event, wanted):
                raise _refuse(denied)
            return view(request, event, *args, **kwargs)

        return login_required(wrapper) if login else wrapper

    return decorate


def table_login_url(next_path: str) -> str:
    """The table login page, coming back to ``next_path`` once logged in."""
    return reverse("table-login") + "?" + urlencode({"next": next_path})


_TABLE_OF_EVENT = PreparedQuery(Table, lambda table_id, slug: Table.objects.select_related("group__session__event").defer(
    "group__session__event__grouping_plan").filter(pk=table_id, group__session__event__slug=slug))  # every table page


def table_view(*, denied=None):
    """Decorator of a table's own page, whose URL holds the event's ``slug`` and the ``table_id``:
    the view is called as ``view(request, event, table, **other URL arguments)``, for the event's
    director and the table's scorers only (:func:`scoring.table_access.can_enter_for`).

    Anyone else is refused with a 403 saying ``denied`` when given, else sent to the table login
    with a note naming the table, to come back here once logged in. Raises Http404 for a table
    not in the event, or of a draft the request may not see (:func:`visible_or_404`). One query
    for the table and its event.
    """

    def decorate(view):
        @functools.wraps(view)
        def wrapper(request, *args, slug, table_id, **kwargs):
            found = _TABLE_OF_EVENT(int(table_id), str(slug))
            if not found:
                raise Http404("No table matches the given query.")
            table = found[0]
            visible_or_404(request, table.group.session.event)
            if not can_enter_for(request, table):
                if denied:
                    raise _refuse(denied)
                messages.info(request, _("Log in with the code of Table %(number)s, printed on its score sheet.")
                              % {"number": table.number})
                return redirect(table_login_url(request.path))
            return view(request, table.group.session.event, table, *args, **kwargs)

        return wrapper

    return decorate


class EventFromURL:
    """Mixin of the REST API views under ``/api/events/<event_slug>/``: :meth:`get_event`."""

    event_slug_kwarg = "event_slug"

    def get_event(self) -> Event:
        """The event of the URL, looked up once per request; Http404 when unknown or a draft the
        request may not see (:func:`visible_or_404`)."""
        if getattr(self, "_event", None) is None:
            self._event = visible_or_404(self.request, event_by_slug(self.kwargs[self.event_slug_kwarg]))
        return self._event


class HasEventRole(BasePermission):
    """DRF permission of the views built on :class:`EventFromURL`: the event must exist (404), and
    the caller must hold one of the roles the view names for the action.

    The view says ``event_roles = {action: roles}`` (a viewset's action name, or the HTTP method
    in lower case for a plain APIView; an action not named is open to everyone), and may say
    ``event_role_denied`` and ``table_role_denied`` (the texts of the 403s). The role is checked
    before an action without an object, and on the object (a result, or a table given to
    ``check_object_permissions``) once it is found, so an unknown object stays a 404. A caller
    let in by the scorer role alone acts only at the tables bound to that role.
    """

    def has_permission(self, request, view) -> bool:
        event = view.get_event()
        wanted = self._wanted(request, view)
        if not wanted or getattr(view, "detail", False):
            return True
        return self._allowed(request, view, event, wanted)

    def has_object_permission(self, request, view, obj) -> bool:
        wanted = self._wanted(request, view)
        if not wanted:
            return True
        event = view.get_event()
        if not self._allowed(request, view, event, wanted):
            return False
        table = obj if isinstance(obj, Table) else getattr(obj, "table", None)
        if table is None or held_roles(request.user, event) & (set(wanted) - {SCORER}):
            return True
        if table.pk in scorer_role_table_ids(request.user, event):
            return True
        self.message = getattr(view, "table_role_denied", None)
        return False

    @staticmethod
    def _wanted(request, view) -> tuple[str, ...]:
        action = getattr(view, "action", None) or request.method.lower()
        return tuple(getattr(view, "event_roles", {}).get(action, ()))

    def _allowed(self, request, view, event: Event, wanted) -> bool:
        if holds(request, event, wanted):
            return True
        self.message = getattr(view, "event_role_denied", None)
        return False
