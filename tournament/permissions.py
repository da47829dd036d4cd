"""Who may do what in an event: the role queries. Roles: director (everything in their event),
staff (walls and printing), scorer (result entry at the tables bound to the scorer role), player
(own results), anonymous (public pages). A browser that logged into a table with the table's code
scores there too: :mod:`scoring.table_access` keeps those logins, since whether one still holds
depends on the table's session being finished (:mod:`scoring.visibility`).

Also the plain helpers of the table login form: reading a typed code and the client's address.
"""

from __future__ import annotations

from django.conf import settings

from tournament.models import LOGIN_CODE_ALPHABET, Event, EventRole
from tournament.prepared import PreparedQuery

_CROCKFORD = str.maketrans({"I": "1", "L": "1", "O": "0"})


_ROLES = PreparedQuery(EventRole, lambda event_id, user_id: EventRole.objects.filter(
    event_id=event_id, user_id=user_id).values_list("role", "tables"))  # every request with a login asks it


def roles(user, event: Event) -> set[str]:
    """The roles ``user`` holds in ``event`` (superusers count as director).

    Remembered on the user object, which lives for one request, so the several checks of one
    request ask the database once: one query, which also reads the tables bound to a scorer
    role (:func:`scorer_role_table_ids`)."""
    if not getattr(user, "is_authenticated", False):
        return set()
    cache = user.__dict__.setdefault("_event_roles", {})
    if event.pk not in cache:
        rows = _ROLES(event.pk, user.pk)
        found = {role for role, _table in rows}
        user.__dict__.setdefault("_scorer_tables", {})[event.pk] = frozenset(
            table for role, table in rows if role == EventRole.Role.SCORER and table is not None)
        if user.is_superuser:
            found.add(EventRole.Role.DIRECTOR)
        cache[event.pk] = frozenset(found)
    return set(cache[event.pk])


def is_director(user, event: Event) -> bool:
    """Whether ``user`` directs ``event`` (superusers count)."""
    return EventRole.Role.DIRECTOR in roles(user, event)


def is_staff_or_director(user, event: Event) -> bool:
    """Whether ``user`` is ``event``'s director or staff: the roles that see secret sets."""
    return bool(roles(user, event) & {EventRole.Role.DIRECTOR, EventRole.Role.STAFF})


def scorer_role_table_ids(user, event: Event) -> set[int]:
    """The tables of ``event`` bound to ``user``'s scorer role (empty without the role or tables).
    Read with :func:`roles` (no query of its own), remembered on the user object for the request."""
    if EventRole.Role.SCORER not in roles(user, event):
        return set()
    cache = user.__dict__.setdefault("_scorer_tables", {})
    if event.pk not in cache:
        cache[event.pk] = frozenset(
            EventRole.objects.filter(event=event, user=user, role=EventRole.Role.SCORER).values_list("tables", flat=True)
        ) - {None}
    return set(cache[event.pk])


# Table login codes


def normalise_code(text: str) -> str:
    """A typed or scanned table code as stored: upper case, without spaces and dashes, Crockford's
    look-alikes read as digits (I and L → 1, O → 0). ``"k7q2m-9xzl0"`` → ``"K7Q2M9XZ10"``."""
    return "".join(str(text or "").split()).replace("-", "").upper().translate(_CROCKFORD)


def looks_like_code(code: str) -> bool:
    """Whether a normalised code could be a table code at all (length and alphabet)."""
    return 0 < len(code) <= 16 and all(c in LOGIN_CODE_ALPHABET for c in code)


#: the session key of a browser's table logins, ``{str(table id): login time, seconds since the epoch}``
#: (:mod:`scoring.table_access`); the cache reads it to tell a visitor from a table
TABLE_SESSION_KEY = "table_logins"


def client_address(request) -> str:
    """The client's address, read the way the login rate limit (django-axes) reads it: the
    proxy's ``X-Real-IP`` first when ``BEHIND_PROXY``, else the peer address."""
    for key in getattr(settings, "AXES_IPWARE_META_PRECEDENCE_ORDER", ["REMOTE_ADDR"]):
        value = (request.META.get(key) or "").split(",")[0].strip()
        if value:
            return value
    return request.META.get("REMOTE_ADDR") or "unknown"
