"""Who may do what in an event. Roles: director (everything in their event), staff (walls and
printing), scorer (result entry at the tables bound to the scorer role, or at the table this
browser logged into with the table's code), player (own results), anonymous (public pages).

A table login (:func:`login_table`) is stored in the browser's session with its time. It holds
while the table's session is not finished (every set of it released: :mod:`scoring.visibility`)
and for at most ``settings.TABLE_LOGIN_MAX_AGE``; :func:`scorer_table_ids` drops it after that.
"""

from __future__ import annotations

import time

from django.conf import settings

from scoring import visibility
from tournament.models import LOGIN_CODE_ALPHABET, Event, EventRole, Table, display_code  # noqa: F401 (re-exported)

TABLE_SESSION_KEY = "table_logins"  # {str(table id): login time, seconds since the epoch}
_CROCKFORD = str.maketrans({"I": "1", "L": "1", "O": "0"})


def roles(user, event: Event) -> set[str]:
    """The roles ``user`` holds in ``event`` (superusers count as director).

    Remembered on the user object, which lives for one request, so the several checks of one
    request ask the database once."""
    if not getattr(user, "is_authenticated", False):
        return set()
    cache = user.__dict__.setdefault("_event_roles", {})
    if event.pk not in cache:
        found = set(EventRole.objects.filter(event=event, user=user).values_list("role", flat=True))
        if user.is_superuser:
            found.add(EventRole.Role.DIRECTOR)
        cache[event.pk] = frozenset(found)
    return set(cache[event.pk])


def is_director(user, event: Event) -> bool:
    return EventRole.Role.DIRECTOR in roles(user, event)


def is_staff_or_director(user, event: Event) -> bool:
    return bool(roles(user, event) & {EventRole.Role.DIRECTOR, EventRole.Role.STAFF})


def scorer_role_table_ids(user, event: Event) -> set[int]:
    """The tables of ``event`` bound to ``user``'s scorer role (empty without the role or tables).
    Remembered on the user object for the request, like :func:`roles`."""
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


def client_address(request) -> str:
    """The client's address, read the way the login rate limit (django-axes) reads it: the
    proxy's ``X-Real-IP`` first when ``BEHIND_PROXY``, else the peer address."""
    for key in getattr(settings, "AXES_IPWARE_META_PRECEDENCE_ORDER", ["REMOTE_ADDR"]):
        value = (request.META.get(key) or "").split(",")[0].strip()
        if value:
            return value
    return request.META.get("REMOTE_ADDR") or "unknown"


def scorer_table_ids(request) -> list[int]:
    """Tables this browser is logged into with a table code and whose login still holds: younger
    than ``settings.TABLE_LOGIN_MAX_AGE`` and the table's session not finished. Logins that no
    longer hold are removed from the session. Remembered on the request."""
    cached = getattr(request, "_scorer_table_ids", None)
    if cached is not None:
        return list(cached)
    stored = request.session.get(TABLE_SESSION_KEY)
    logins = {}
    if isinstance(stored, dict):
        for key, at in stored.items():
            try:
                logins[int(key)] = float(at)
            except (TypeError, ValueError):
                continue
    oldest = time.time() - settings.TABLE_LOGIN_MAX_AGE.total_seconds()
    fresh = {pk: at for pk, at in logins.items() if at >= oldest}
    valid = []
    if fresh:
        finished = {}
        for table in Table.objects.filter(pk__in=fresh).select_related("group__session__event"):
            session = table.group.session
            if session.pk not in finished:
                finished[session.pk] = visibility.session_finished(session.event, session.number)
            if not finished[session.pk]:
                valid.append(table.pk)
    valid.sort()
    if stored is not None and (not isinstance(stored, dict) or len(valid) != len(stored)):
        request.session[TABLE_SESSION_KEY] = {str(pk): fresh[pk] for pk in valid}
    request._scorer_table_ids = valid
    return list(valid)


def login_table(request, table: Table) -> None:
    """Remember, with the time, that this browser scores for ``table`` (a new session key, as for
    an account login)."""
    stored = request.session.get(TABLE_SESSION_KEY)
    logins = dict(stored) if isinstance(stored, dict) else {}
    logins[str(table.pk)] = time.time()
    request.session.cycle_key()
    request.session[TABLE_SESSION_KEY] = logins
    request.__dict__.pop("_scorer_table_ids", None)


def is_table_scorer(request, table: Table) -> bool:
    """A scorer of ``table``: a scorer role bound to it, or this browser's table login."""
    event = table.group.session.event
    return table.pk in scorer_role_table_ids(request.user, event) or table.pk in scorer_table_ids(request)


def can_enter_for(request, table: Table) -> bool:
    """May enter, confirm, correct (unconfirmed) and dispute (unconfirmed) results at ``table``:
    the event's director, a scorer role bound to this table, or this browser's table login while
    it holds."""
    if is_director(request.user, table.group.session.event):
        return True
    return is_table_scorer(request, table)
