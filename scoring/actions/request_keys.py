"""Idempotent writes: the key a device makes for each entry, confirmation, correction or dispute,
so that sending the same write again (after a dropped network, a killed database connection, a
reload) stores it at most once and answers with what is stored.

The key travels as the ``Idempotency-Key`` request header of the API (the IETF HTTPAPI working
group's draft "The Idempotency-Key HTTP Header Field") or as the ``request_key`` field of the
table's forms (a new key is put in each form the page shows; the table page's offline queue makes
its own, docs/player-guide.md). The write stores it with the revision it adds
(:attr:`scoring.models.ResultRevision.request_key`, unique), in the same transaction, so the key
exists exactly when the write was committed. A repeat with the same key, on the same result and
action, is answered with the result as stored now (``replayed``), with no second write and no
conflict; a key already used for another write is refused (``request_key``, 422), and so is a
key sent again with a different request (another score, another reason): each write stores a
digest of what it asked (:func:`digest`), compared with the repeat's, as the draft says a
server should ("fingerprint" of the request).

:func:`after_fault` answers the question a scorer asks after a fault (the database connection
lost mid-request): was it stored? It looks the key up on a new connection, once the killed
connection's server process has gone, so that "not stored" is true when it is said.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.db import DatabaseError, connection
from django.db.models import Exists, Subquery
from django.utils.translation import gettext as _

from scoring.actions.errors import ResultError
from scoring.models import HandResult, ResultRevision

KEY = re.compile(r"[A-Za-z0-9._:-]{8,64}")
"""What a key may be: 8 to 64 letters, digits and ``._:-`` (a UUID, as ``crypto.randomUUID()``
makes, fits)."""

HEADER = "HTTP_IDEMPOTENCY_KEY"
"""The ``Idempotency-Key`` request header as Django's ``request.META`` names it."""

#: Seconds :func:`after_fault` waits for a killed connection's server process to go.
GONE_WITHIN = 3.0


def clean_key(value) -> str | None:
    """``value`` (a header or form value) as a key, or None when none was given. Raises
    ResultError ``request_key`` (400) for one that is not 8 to 64 letters, digits and ``._:-``."""
    key = str(value or "").strip()
    if not key:
        return None
    if not KEY.fullmatch(key):
        raise ResultError("request_key", _("the request key must be 8 to 64 letters, digits, dots, colons, dashes or "
                                           "underscores, e.g. a UUID: make a new one for each write"))
    return key


def key_of(request) -> str | None:
    """The key of a request: its ``Idempotency-Key`` header, else its ``request_key`` field (form
    or JSON body), else None. Raises ResultError ``request_key`` as :func:`clean_key`."""
    value = request.META.get(HEADER)
    if not value:
        data = getattr(request, "data", None)  # DRF's parsed body; a page's form otherwise
        source = data if data is not None and hasattr(data, "get") else request.POST
        value = source.get("request_key")
    return clean_key(value)


def digest(action: str, **asked) -> str:
    """The fingerprint of a keyed write: 32 hex digits of SHA-256 over ``action`` and what it
    asked (the values a service was called with: table, set, score changes or outcome, deposit,
    seats, reason, revision; never a PIN), as canonical JSON."""
    text = json.dumps([action, asked], sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def key_columns(request_key: str | None, *, result=None, table=None) -> dict:
    """The two columns a write's first read adds for ``request_key`` (none without a key), so
    that finding a repeat costs no statement of its own: ``replay_of``, the id of the result a
    revision with this key belongs to when that result is ``result`` (an OuterRef or a pk) or is
    at ``table`` (a pk), ``replay_digest``, what that write asked (:func:`digest`), and
    ``key_used``, whether any revision has the key."""
    if not request_key:
        return {}
    same = ResultRevision.objects.filter(request_key=request_key)
    if result is not None:
        same = same.filter(result_id=result)
    if table is not None:
        same = same.filter(result__table_id=table)
    return {"replay_of": Subquery(same.values("result_id")[:1]),
            "replay_action": Subquery(same.values("action")[:1]),
            "replay_digest": Subquery(same.values("request_digest")[:1]),
            "key_used": Exists(ResultRevision.objects.filter(request_key=request_key))}


def refuse_reused() -> ResultError:
    """The refusal of a key already used for another write (``request_key``, 422)."""
    return ResultError("request_key", _("this request key was already used for another write: make a new key for each "
                                        "entry, confirmation, correction or dispute"), status=422)


def refuse_changed() -> ResultError:
    """The refusal of a key sent again with a different request (``request_key``, 422)."""
    return ResultError("request_key", _("this request key was already used for a different request (other values): "
                                        "a write sent again must be the same; make a new key for a new write"), status=422)


def check_repeat(found: dict, action: str, asked: str = "") -> int | None:
    """From a row read with :func:`key_columns`: the id of the result to answer with when the
    write is a repeat of ``action`` (``enter``, ``confirm``, ``correct``, ``dispute``) that asked
    the same (``asked``: its :func:`digest`), None when the key is new (or none was given).
    Raises :func:`refuse_reused`'s error when the key was used for another write (another table,
    result or action), :func:`refuse_changed`'s when the same write asked something else (a
    revision stored before digests were kept matches any)."""
    if not found.get("key_used"):
        return None
    if found.get("replay_of") is None or found.get("replay_action") != action:
        raise refuse_reused()
    if asked and found.get("replay_digest") and found["replay_digest"] != asked:
        raise refuse_changed()
    return found["replay_of"]


def replayed(result_id: int, **filters) -> HandResult:
    """The result a repeated write answers with, as stored now, with its history and table (two
    queries), marked ``replayed`` (adapters answer 200 and ``Idempotent-Replayed: true``).
    ``filters``: what the repeat asked for (``set_no``); a stored result that differs is another
    write's: :func:`refuse_reused`'s error."""
    try:
        result = (HandResult.objects.select_related("table__group__session__event", "event")
                  .defer("event__grouping_plan", "table__group__session__event__grouping_plan").prefetch_related("revisions").get(pk=result_id, **filters))
    except HandResult.DoesNotExist:
        raise refuse_reused() from None
    result.replayed = True
    return result


def repeat_in(result: HandResult, request_key: str | None, action: str, asked: str = "") -> bool:
    """Whether ``result`` (just met as the stored row a write collided with) already has a
    revision of ``action`` with ``request_key``: the write is a repeat that raced its first
    sending. One query; False without a key. Raises :func:`refuse_changed`'s error when that
    revision asked something else than ``asked`` (:func:`digest`)."""
    if not request_key:
        return False
    stored = ResultRevision.objects.filter(result=result, request_key=request_key, action=action).values_list(
        "request_digest", flat=True).first()
    if stored is None:
        return False
    if asked and stored and stored != asked:
        raise refuse_changed()
    return True


def backend_pid() -> int | None:
    """The database server process of this thread's connection when there is one (PostgreSQL),
    else None; no query."""
    raw = getattr(connection, "connection", None)
    info = getattr(raw, "info", None)
    try:
        return getattr(info, "backend_pid", None) if connection.vendor == "postgresql" else None
    except Exception:  # a closed psycopg connection may refuse even this  # noqa: BLE001
        return None


@dataclass(frozen=True)
class AfterFault:
    """What is known of a keyed write after a fault: ``stored`` True (then ``result`` is the
    result as stored now, marked ``replayed``), False (not stored: sending it again writes it),
    or None (unknown: the database could not be asked; sending it again is safe all the same)."""

    stored: bool | None
    result: HandResult | None = None

    def message(self) -> str:
        """What the scorer is told: stored, not stored, or unknown, and that sending it again is safe."""
        if self.stored:
            return _("Stored: the connection was lost while answering, but this was stored. Do not send it again.")
        if self.stored is False:
            return _("Not stored: the connection to the database was lost. Send it again: it is safe.")
        return _("The connection to the database was lost, so whether this was stored is not known yet. "
                 "Send it again: it is safe, it is stored at most once.")


def after_fault(request_key: str | None, pids: Iterable[int | None] = (),
                belongs: Callable[[HandResult], bool] | None = None) -> AfterFault:
    """Whether the write keyed ``request_key`` was stored, asked after the request's database
    connection failed: the broken connection is closed, and on PostgreSQL the server processes
    ``pids`` (the request's connections, :func:`backend_pid`) are waited for until gone (at most
    :data:`GONE_WITHIN` seconds: a process killed in the middle of a commit finishes it or rolls
    it back before it goes), then the key is looked up on a new connection. Unknown
    (``stored`` None) without a key, inside a transaction the caller holds, when the database
    cannot be asked, or when the key's result is not one the caller may see (``belongs``: the
    visibility rule for this caller, :func:`scoring.table_access.sees_result`, or "at this
    table"): a key never shows another table's result."""
    if not request_key or connection.in_atomic_block:
        return AfterFault(None)
    pids = {p for p in {*pids, backend_pid()} if p}
    with contextlib.suppress(DatabaseError):
        connection.close()
    try:
        if pids and connection.vendor == "postgresql":
            deadline = time.monotonic() + GONE_WITHIN
            with connection.cursor() as cursor:
                while True:
                    cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = ANY(%s)", [list(pids)])
                    if not cursor.fetchone()[0]:
                        break
                    if time.monotonic() > deadline:
                        return AfterFault(None)
                    time.sleep(0.02)
        revision = ResultRevision.objects.filter(request_key=request_key).values_list("result_id", flat=True).first()
        if revision is None:
            return AfterFault(False)
        result = replayed(revision)
        if belongs is not None and not belongs(result):
            return AfterFault(None)
        return AfterFault(True, result)
    except DatabaseError:
        with contextlib.suppress(DatabaseError):
            connection.close()
        return AfterFault(None)
