"""The public downloads (the public export, standings CSV/XLSX, the conversion table CSV, the
projector's JSON): cached per release state and rate-limited per client address.

**Caching.** A public download depends only on what is public, and that changes when a set is
released or the director changes something (docs/security.md, "Exports"): every such write bumps
the event's public version (:meth:`tournament.models.Event.changed`; results of sets still in
play do not), the cache key (:func:`scoring.reports.cache.cached`: never a signal, never a
digest of the data). A repeated download at an unchanged version is read from Django's cache (shared by every process with
``CACHE_URL``), and answered 304 to a client that sends its ETag back
(:mod:`tournament.page_cache`). The public export's ``exported_at`` is then the time it was
built.

**Rate limit.** A client that is not the director or staff (:attr:`scoring.visibility.Viewer.secrets`)
may fetch each download at most ``settings.PUBLIC_DOWNLOAD_RATE`` times per window from one
address (django-ratelimit counters in the cache); past it :func:`limited` answers 429 with
``Retry-After``. The director's and staff's pages and downloads are never limited.
"""

from __future__ import annotations

import json

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpResponse, JsonResponse
from django.utils.translation import gettext as _

from scoring import table_access
from scoring.reports import cache as reports_cache
from tournament import page_cache
from tournament.exchange import public_export
from tournament.models import Event

CACHE_NAME = "public-download"


def cached_public(event: Event, name: str, build, *, public: bool = True) -> bytes:
    """The bytes of the download ``name`` of ``event`` at its public version (``public`` False:
    the director's or staff's file, at its content version): from Django's cache, or
    ``build()`` (bytes) stored there."""
    return reports_cache.cached(event, f"{CACHE_NAME}:{name}", build, public=public)


def public_export_bytes(event: Event) -> bytes:
    """The public export (:func:`tournament.exchange.public_export`) as the UTF-8 JSON the download
    sends: compact, no indentation or spaces after separators (a machine's file: indenting it cost
    four times its serialisation at 256 teams, docs/performance.md). Built uncached; the download
    keeps it (:func:`public_export_response`)."""
    return json.dumps(public_export(event), ensure_ascii=False, separators=(",", ":"), cls=DjangoJSONEncoder).encode()


def public_export_response(request, event: Event) -> HttpResponse:
    """The public export (:func:`tournament.exchange.public_export`) as the JSON bytes the
    download sends, built once per public state, or their gzip to a client that accepts it
    (every browser and phone: :func:`tournament.page_cache.kept_bytes`). The export grows with
    the event (about 4 MB of JSON at 256 teams), the compressed one about a tenth of it: each
    download then reads and sends its compressed size, and the proxy never compresses it again
    (docs/performance.md). ``Vary: Accept-Encoding``; no ``Content-Disposition`` (the caller's)."""
    return page_cache.kept_bytes(request, event, f"{CACHE_NAME}:export.json", lambda: public_export_bytes(event),
                                 "application/json", public=True)


def limited(request, event: Event, name: str):
    """None when the request may have the download ``name`` now; else the 429 answer (with
    ``Retry-After``). Counts the request. The director and staff are never limited."""
    if not settings.PUBLIC_DOWNLOAD_RATE or table_access.viewer(request, event).secrets:
        return None
    wait = page_cache.address_wait(request, f"{CACHE_NAME}:{name}", settings.PUBLIC_DOWNLOAD_RATE)
    if not wait:
        return None
    message = _("Too many downloads of this file from your network. It changes only when a set is released: "
                "try again in %(seconds)s seconds.") % {"seconds": wait}
    if name.endswith(".json"):
        response = JsonResponse({"detail": message}, status=429)
    else:
        response = HttpResponse(message, content_type="text/plain; charset=utf-8", status=429)
    response["Retry-After"] = str(wait)
    return response
