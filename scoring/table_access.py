"""Who scores at a table, and who a request is as far as visibility goes.

A browser logs into a table with the code printed on the table's score sheet
(:func:`login_table`); the login is stored in the browser's session with its time. It holds while
the table's session is not finished (every set of it released: :mod:`scoring.visibility`) and for
at most ``settings.TABLE_LOGIN_MAX_AGE``; :func:`scorer_table_ids` drops it after that. A scorer
*account* scores at the tables bound to its role (:func:`tournament.permissions.scorer_role_table_ids`).

The request-level questions of :mod:`scoring.visibility` (:func:`viewer`, :func:`standings_public`)
are answered here, since they need the request's table logins.
"""

from __future__ import annotations

import logging
import secrets
import time

from django.conf import settings
from django.db import InterfaceError, OperationalError

from scoring import visibility
from scoring.actions import request_keys
from scoring.actions.seats import Device
from tournament.models import Event, Table
from tournament.permissions import TABLE_SESSION_KEY, client_address, is_director, roles, scorer_role_table_ids

DEVICE_SESSION_KEY = "device"  # a random name of this browser, kept in its session


def device_of(request) -> Device:
    """Where a PIN sent with ``request`` is typed (:class:`scoring.actions.seats.Device`), whose
    wrong PINs are counted apart from other devices': an account (``account:<user id>``, the
    API's scorers included), else this browser (``phone:<random>``, named in its session the
    first time it is asked, kept across a table login's new session key), with the client
    address."""
    address = client_address(request)
    if request.user.is_authenticated:
        return Device(f"account:{request.user.pk}", address)
    session = getattr(request, "session", None)
    if session is None:
        return Device("", address)
    name = session.get(DEVICE_SESSION_KEY)
    if not isinstance(name, str) or not name:
        name = session[DEVICE_SESSION_KEY] = secrets.token_urlsafe(9)
    return Device(f"phone:{name}", address)


def scorer_table_ids(request, known: tuple[Table, ...] = ()) -> list[int]:
    """Tables this browser is logged into with a table code and whose login still holds: younger
    than ``settings.TABLE_LOGIN_MAX_AGE`` and the table's session not finished. Logins that no
    longer hold are removed from the session. Remembered on the request. ``known``: tables the
    caller has already read with ``group__session__event`` (not read again)."""
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
        held = [t for t in known if t.pk in fresh]
        rest = set(fresh) - {t.pk for t in held}
        if rest:
            held += Table.objects.filter(pk__in=rest).select_related("group__session__event").defer(
                "group__session__event__grouping_plan")
        for table in held:
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
    an account login), and name the browser for its PINs (:func:`device_of`)."""
    stored = request.session.get(TABLE_SESSION_KEY)
    logins = dict(stored) if isinstance(stored, dict) else {}
    logins[str(table.pk)] = time.time()
    request.session.cycle_key()
    request.session[TABLE_SESSION_KEY] = logins
    device_of(request)  # the browser's name for its PINs, stored with the login (no write of its own later)
    request.__dict__.pop("_scorer_table_ids", None)


def event_table_ids(request, event: Event) -> set[int]:
    """Primary keys of the tables of ``event`` this request scores at: bound to the user's scorer
    role or logged into with a table code (logins to other events' tables left out). One query."""
    ids = set(scorer_table_ids(request)) | scorer_role_table_ids(request.user, event)
    if not ids:
        return set()
    return set(Table.objects.filter(group__session__event=event, pk__in=ids).values_list("pk", flat=True))


def is_table_scorer(request, table: Table) -> bool:
    """A scorer of ``table``: a scorer role bound to it, or this browser's table login."""
    event = table.group.session.event
    return table.pk in scorer_role_table_ids(request.user, event) or table.pk in scorer_table_ids(request, (table,))


def can_enter_for(request, table: Table) -> bool:
    """May enter, confirm, correct (unconfirmed) and dispute (unconfirmed) results at ``table``:
    the event's director, a scorer role bound to this table, or this browser's table login while
    it holds."""
    if is_director(request.user, table.group.session.event):
        return True
    return is_table_scorer(request, table)


def can_read_table(request, table: Table) -> bool:
    """May read ``table``'s results with their history, released or not: the event's director and
    the table's own viewers (:attr:`scoring.visibility.Viewer.tables`: its scorers and the players
    seated at it)."""
    seen = viewer(request, table.group.session.event)
    return seen.director or table.pk in seen.tables


def sees_result(request, event: Event, result) -> bool:
    """Whether ``request`` may read ``result`` (a :class:`~scoring.models.HandResult` of ``event``):
    the rule of :func:`scoring.visibility.visible_results` for the :func:`viewer` of the request,
    decided from the cheapest facts first. Director and staff, and a scorer of the result's table
    (a scorer role bound to it or this browser's table login, both part of
    :attr:`~scoring.visibility.Viewer.tables`), see it with no query beyond the request's roles;
    anyone else costs the release check and, for an unreleased set, the viewer's seated tables."""
    if roles(request.user, event) & visibility.SECRET_ROLES:
        return True
    if result.table_id in scorer_role_table_ids(request.user, event) or result.table_id in scorer_table_ids(request):
        return True
    if visibility.is_public(event, result.session_number, result.set_no):
        return True
    return result.table_id in viewer(request, event).tables


def viewer(request, event: Event) -> visibility.Viewer:
    """The :class:`~scoring.visibility.Viewer` of an HTTP request: its user and its table logins
    (:func:`scoring.visibility.viewer_for`). Remembered on the request."""
    cache = request.__dict__.setdefault("_viewers", {})
    if event.pk not in cache:
        cache[event.pk] = visibility.viewer_for(request.user, event, scorer_table_ids(request))
    return cache[event.pk]


def standings_public(request, event: Event) -> bool:
    """Whether a request's standings (page, CSV, XLSX, API) count only released sets: yes for
    everyone, the director included, since standings are projected and printed for the hall;
    the director and staff ask for every scored set with ``?all=1``."""
    return not (request.GET.get("all") == "1" and viewer(request, event).secrets)


logger = logging.getLogger("tournament.database")


def keyed_write(request, key: str | None, write, belongs, *, raise_unknown: bool = False):
    """``(write(), None)`` for a write of the table page or the API (a service call storing a
    result); when the database connection fails during it and the request carried a request key
    ``key``, ``(the result as stored or None, what is known)`` (:class:`scoring.actions.request_keys.AfterFault`,
    asked of the key with ``belongs``, the caller's visibility rule: a key never shows another
    table's result). Without a key the fault is raised on to
    :class:`tournament.middleware.DatabaseUnavailableMiddleware`, which answers without a claim it
    cannot make; so is an unknown outcome with ``raise_unknown`` (the page then says that sending
    it again is safe: ``request.fault_message``). The one answer to a database fault during a
    write."""
    pids = {request_keys.backend_pid()}
    try:
        return write(), None
    except (OperationalError, InterfaceError) as exc:
        if not key:
            raise
        logger.error("database unavailable during %s %s: %s", request.method, request.path, exc, exc_info=exc)
        known = request_keys.after_fault(key, pids, belongs=belongs)
        if known.stored is None and raise_unknown:
            request.fault_message = known.message()
            raise
        return known.result, known
