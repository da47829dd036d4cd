"""The public downloads (the public export, standings CSV/XLSX, the conversion table CSV, the
projector's JSON): cached per release state and rate-limited per client address.

**Caching.** A public download depends only on what is public, and that changes when a set is
released or the director changes something (docs/security.md, "Exports"). Its cache key is the
event's *public state* (:func:`public_state_digest`), built the way the standings cache builds
its keys (:mod:`scoring.reports.cache`: a digest of counts and last ids, never a signal): the
score state of released sets, the active adjustments, the current conversion table, the count
and last id of the audit trail (every director change is audited) and of the entrants
(:func:`scoring.reports.cache.standings_state`), plus the released sets, the history of their
results, the tables seated and the event's own fields. A repeated download of an unchanged
state is read from Django's cache (shared by every process with ``CACHE_URL``); any release or
change makes a new key. The public export's ``exported_at`` is then the time it was built.

**Rate limit.** A client that is not the director or staff (:attr:`scoring.visibility.Viewer.secrets`)
may fetch each download at most ``settings.PUBLIC_DOWNLOAD_RATE`` times per window from one
address (django-ratelimit counters in the cache); past it :func:`limited` answers 429 with
``Retry-After``. The director's and staff's pages and downloads are never limited.
"""

from __future__ import annotations

import hashlib
import json
import math

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Count, Max
from django.http import HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django_ratelimit.core import get_usage

from scoring import table_access, visibility
from scoring.models import ResultRevision, SetRelease
from scoring.reports import cache as reports_cache
from tournament.exchange import EVENT_FIELDS, public_export
from tournament.models import Event, Table
from tournament.permissions import client_address

CACHE_NAME = "public-download"


def public_state_digest(event: Event) -> str:
    """A digest that changes whenever a public download of ``event`` may change (module
    docstring); four queries whatever the size of the event."""
    state, marks = reports_cache.standings_state(event, public=True)
    released = SetRelease.objects.filter(event=event).aggregate(n=Count("id"), last=Max("id"))
    history = sorted(
        (r["result__session_number"], r["result__set_no"], r["n"], r["last"])
        for r in ResultRevision.objects.filter(result__event=event)
        .values("result__session_number", "result__set_no").annotate(n=Count("id"), last=Max("id")).order_by()
    )
    public = visibility.released_sets(event)
    history = [h for h in history if (h[0], h[1]) in public]
    tables = Table.objects.filter(group__session__event=event).aggregate(n=Count("id"), last=Max("id"))
    fields = [getattr(event, f) for f in EVENT_FIELDS]
    text = repr((sorted(state.items()), sorted(marks), reports_cache.rules_digest(event, marks), released, history,
                 tables, fields))
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def cached_public(event: Event, name: str, build) -> bytes:
    """The bytes of the public download ``name`` of ``event`` at its current public state:
    from Django's cache, or ``build()`` (bytes) stored there."""
    key = f"{CACHE_NAME}:{name}:{public_state_digest(event)}"
    return reports_cache.cached(event, key, {}, build)


def public_export_bytes(event: Event) -> bytes:
    """The public export (:func:`tournament.exchange.public_export`) as the JSON bytes the
    download sends, built once per public state."""
    return cached_public(event, "export.json", lambda: json.dumps(
        public_export(event), ensure_ascii=False, indent=1, cls=DjangoJSONEncoder).encode())


def limited(request, event: Event, name: str):
    """None when the request may have the download ``name`` now; else the 429 answer (with
    ``Retry-After``). Counts the request. The director and staff are never limited."""
    if not settings.PUBLIC_DOWNLOAD_RATE or table_access.viewer(request, event).secrets:
        return None
    address = client_address(request)
    usage = get_usage(request, group=f"{CACHE_NAME}:{name}", key=lambda group, req: address,
                      rate=settings.PUBLIC_DOWNLOAD_RATE, increment=True)
    if usage is None or not usage["should_limit"]:
        return None
    wait = max(1, math.ceil(usage["time_left"]))
    message = _("Too many downloads of this file from your network. It changes only when a set is released: "
                "try again in %(seconds)s seconds.") % {"seconds": wait}
    if name.endswith(".json"):
        response = JsonResponse({"detail": message}, status=429)
    else:
        response = HttpResponse(message, content_type="text/plain; charset=utf-8", status=429)
    response["Retry-After"] = str(wait)
    return response
