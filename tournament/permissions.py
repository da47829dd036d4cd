"""Who may do what in an event. Roles: director (everything in their event), staff (walls and
printing), scorer (result entry at their table, by table login code), player (own results),
anonymous (public pages)."""

from __future__ import annotations

from tournament.models import Event, EventRole, Table

TABLE_SESSION_KEY = "scorer_tables"


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


def scorer_table_ids(request) -> list[int]:
    """Tables this browser logged into with a table code (session-stored)."""
    return list(request.session.get(TABLE_SESSION_KEY, []))


def login_table(request, table: Table) -> None:
    """Remember that this browser scores for ``table``."""
    ids = set(scorer_table_ids(request))
    ids.add(table.pk)
    request.session[TABLE_SESSION_KEY] = sorted(ids)


def can_enter_for(request, table: Table) -> bool:
    """Director of the event, a scorer with this table's login, or an API scorer role."""
    event = table.group.session.event
    if is_director(request.user, event):
        return True
    if table.pk in scorer_table_ids(request):
        return True
    return EventRole.Role.SCORER in roles(request.user, event)
