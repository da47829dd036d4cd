"""Pages, JSON and downloads served from a cache keyed by the event's content version, with
ETags: the one place a read view's response is cached or answered 304.

**What is cached.** The part of a response that depends only on the event's content
(:meth:`tournament.models.Event.content_version`, bumped by every write that changes what a page
shows; for a page that shows only what the public sees, ``public=True``, the public version,
which results of sets still in play leave alone) and on a *variant* the view names: the scope (``public``, or ``all`` for the director
and staff: :mod:`scoring.visibility`), the language, the page's own arguments (a team, a set, a
session) and, for a table login or a seated player who sees their own table's entries before a
set is public, those tables. A variant never leaves out what makes two viewers see different
things, so a public viewer is never served what was built for the director (the scope is always
part of it). For an HTML page the cached part is the page's body (:func:`body`), rendered
without the request (no CSRF token, no header); the header, messages and anything about the
logged-in person (their next seat) are rendered per request around it.

**Whole pages for visitors.** An anonymous visitor with no table login and no message waiting
sees the same page as every other such visitor. Such a page is cached whole (:func:`_whole_page`:
per name, variant, language and canonical address, at the page's version) as the bytes sent, and
compressed with gzip beside them, once: a repeated read by another phone costs the view's own
look-ups and a cache read, not the page around the body rendered again, and a client that
accepts gzip (every browser and phone: :func:`accepts_gzip`) is sent the compressed bytes, a
tenth of the page, with no compression per request (the players list of 1,024 players is
about 260 KB, 25 KB compressed). The language form, on every page, carries no CSRF token (the
language switch is exempt: ``tournament.urls``, docs/security.md). A page that does hold a form
with a token is cached with the token cut out and put back per request
(``django.middleware.csrf.get_token``, which also sets the visitor's CSRF cookie as rendering
does), and sent as it is. While one visitor builds a page after a change (a set released), the
others are served the page as it was just before (what the public could already see), without
an ETag, rather than wait (:func:`scoring.reports.cache.cached_or_older`).

**Only the page's own parameters.** A view gives the query parameters it read, with the values
it used (``query``: ``{"order": "score"}``; a default or a value it ignores left out); a visitor
asking with anything else (an unknown parameter, an ignored value, one repeated, another order)
is sent to the canonical address (302, :func:`canonical_query`), so a loop over ``?r=<n>`` or
``?order=<n>`` costs a redirect, not a page built and stored per address (1,000 such requests once
made 2,152 cache keys); a value out of its range is a 400 (``?session=`` beyond the event's
sessions: :func:`tournament.query.int_param`). Building a visitor's page is limited per client address
(``settings.PUBLIC_PAGE_BUILD_RATE``, django-ratelimit counters in the cache): pages already
built are served to everyone without limit (a venue's phones behind one address read the same
pages), but one address cannot make the site build page after page: past it, the page as it was
at an older version is served when there is one (as while another reader builds it), else 429
with ``Retry-After``.

**ETags.** :func:`respond` reads the version once (pinned for the request:
:func:`scoring.reports.pinned_version`), makes a weak ETag ``W/"<version>-<digest of name and
variant>"`` (``W/"P<public version>-..."`` for a public page) and answers ``304 Not Modified`` to a request whose ``If-None-Match`` holds it,
before anything is built: a phone polling an unchanged page costs one query. An HTML page gets
an ETag only for an anonymous visitor with no message waiting (a logged-in header shows
per-account things, such as pending invitations, that are not in the version); the browser's
table logins are part of its digest. Responses are ``Cache-Control: private, no-cache``: kept by
the browser, always revalidated. The ETag is weak: a page's compressed and plain bytes are the
same page, and share it (RFC 9110, 8.8.1).
"""

from __future__ import annotations

import gzip
import hashlib
import math
import re
from collections.abc import Callable
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.messages import get_messages
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified, HttpResponseRedirect
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django_ratelimit.core import get_usage

from scoring.reports import cache as reports_cache
from scoring.table_access import TABLE_SESSION_KEY
from tournament.models import Event
from tournament.permissions import client_address


def body(event: Event, name: str, variant: str, template: str, context: Callable[[], dict], *,
         public: bool = False) -> SafeString:
    """The HTML of ``template`` rendered with ``context()`` (called only on a miss), cached
    under the event's content version (``public``: its public version, for a body built only
    from what the public sees), ``name``, ``variant`` and the active language; rendered without
    the request, so it must hold nothing about the viewer beyond ``variant``. While a visitor's
    whole page is built (:func:`_whole_page`, which caches the page around it) the body is
    rendered without a cache entry of its own: four cache round trips and a copy of the body
    the visitors never read again."""
    if event.__dict__.get(_BUILDING_WHOLE):
        return mark_safe(render_to_string(template, context()))  # noqa: S308 - as below
    html = reports_cache.cached(event, f"page:{name}:{variant}:{get_language()}",
                                lambda: render_to_string(template, context()), public=public)
    return mark_safe(html)  # noqa: S308 - rendered by the template engine, which escaped it


_BUILDING_WHOLE = "_building_whole_page"


def _personal(request: HttpRequest) -> bool:
    """Whether an HTML page for ``request`` shows things the version does not cover: a logged-in
    account's header, or a message waiting to be shown."""
    if getattr(request, "user", None) is not None and request.user.is_authenticated:
        return True
    return bool(len(get_messages(request)))


def etag(event: Event, name: str, variant: str, request: HttpRequest | None = None, *, public: bool = False) -> str:
    """The weak ETag of ``name`` in ``variant`` at the event's (pinned) content version
    (``public``: its public version, ``P`` before the number); with
    ``request`` (an HTML page), its table logins and its CSRF cookie (the page's forms carry a
    token made from it) are part of it too."""
    parts = [event.uid, name, variant, get_language() or ""]
    if request is not None:
        session = getattr(request, "session", None)
        parts.append(repr(sorted((session.get(TABLE_SESSION_KEY) or {}).items())) if session is not None else "")
        # the CSRF secret the page's forms were made from (set by the middleware from the cookie,
        # or by the page itself when it makes a new one)
        parts.append(request.META.get("CSRF_COOKIE", ""))
    digest = hashlib.blake2b("\x1f".join(parts).encode(), digest_size=8).hexdigest()
    version = f"P{reports_cache.content_version(event, public=True)}" if public else reports_cache.content_version(event)
    return f'W/"{version}-{digest}"'


def _visitor(request: HttpRequest) -> bool:
    """An anonymous visitor with no table login and no message waiting: shown exactly what every
    other such visitor is shown (module docstring), so the whole page may be shared."""
    if _personal(request):
        return False
    session = getattr(request, "session", None)
    return not (session is not None and session.get(TABLE_SESSION_KEY))


#: the CSRF token of a rendered form (``{% csrf_token %}``), cut out of a page cached whole
_CSRF_VALUE = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]*(")')
_CSRF_HOLE = "\x00csrf-token\x00"


def accepts_gzip(request: HttpRequest) -> bool:
    """Whether the request's ``Accept-Encoding`` names gzip (the test of Django's ``GZipMiddleware``);
    ``gzip;q=0`` refuses it."""
    accepted = request.headers.get("Accept-Encoding", "")
    return bool(_GZIP.search(accepted)) and not _NO_GZIP.search(accepted)


_GZIP = re.compile(r"\bgzip\b")
_NO_GZIP = re.compile(r"\bgzip\s*;\s*q\s*=\s*0(\.0*)?\s*(,|$)")


def gzipped(data: bytes) -> bytes:
    """``data`` compressed with gzip as the site sends it: level 6, no timestamp (the same bytes
    for the same data)."""
    return gzip.compress(data, compresslevel=6, mtime=0)


def _encoded(request: HttpRequest, plain: Callable[[], bytes], packed: Callable[[], bytes],
             content_type: str) -> HttpResponse:
    """The response holding ``packed()`` (the gzip of ``plain()``) with ``Content-Encoding:
    gzip`` to a client that accepts it (:func:`accepts_gzip`), else ``plain()``; only the one
    sent is asked for. ``Vary: Accept-Encoding`` either way."""
    if accepts_gzip(request):
        response = HttpResponse(packed(), content_type=content_type)
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(plain(), content_type=content_type)
    patch_vary_headers(response, ("Accept-Encoding",))
    return response


def kept_bytes(request: HttpRequest, event: Event, name: str, build: Callable[[], bytes], content_type: str, *,
               public: bool = False) -> HttpResponse:
    """The response holding ``build()``'s bytes, kept under the event's content version
    (``public``: its public version) and ``name`` (:func:`scoring.reports.cache.cached`), or
    their gzip, kept beside them under ``name + ".gz"``, to a client that accepts it
    (:func:`_encoded`): built and compressed once per version, one cache read per request."""
    def plain() -> bytes:
        return reports_cache.cached(event, name, build, public=public)

    return _encoded(request, plain, lambda: reports_cache.cached(event, f"{name}.gz", lambda: gzipped(plain()), public=public),
                    content_type)


def canonical_query(query: dict | None) -> str:
    """The query string of a page that read ``query`` (parameter → the value it used), as it is
    cached under: ``"order=score"``, ``""`` for none."""
    return urlencode([(name, str(value)) for name, value in (query or {}).items()])


class _BuildLimited(reports_cache.BuildingElsewhere):
    """A visitor's address has built too many pages (:func:`_build_slot`): ``response`` is the 429.
    A kind of :class:`~scoring.reports.cache.BuildingElsewhere`, so the page as it was at an older
    version is served instead when there is one (:func:`scoring.reports.cache.cached_or_older`)."""

    def __init__(self, response: HttpResponse):
        super().__init__("page build limit")
        self.response = response


def address_wait(request: HttpRequest, group: str, rate: str | None) -> int:
    """Count one request of the client address in ``group`` against ``rate`` (django-ratelimit's
    ``"60/m"``, in Django's cache; None: no limit) and return the whole seconds it must wait: 0
    under the limit, else until the window ends (at least 1). The one per-address counter of
    public pages and downloads (:mod:`tournament.public_downloads`)."""
    if not rate:
        return 0
    address = client_address(request)
    usage = get_usage(request, group=group, key=lambda group, req: address, rate=rate, increment=True)
    if usage is None or not usage["should_limit"]:
        return 0
    return max(1, math.ceil(usage["time_left"]))


def _build_slot(request: HttpRequest) -> None:
    """Count a page built for a visitor against its address (``settings.PUBLIC_PAGE_BUILD_RATE``);
    raise :class:`_BuildLimited` with the 429 past the limit."""
    wait = address_wait(request, "public-page-build", settings.PUBLIC_PAGE_BUILD_RATE)
    if not wait:
        return
    response = HttpResponse(_("Too many different pages asked from your network: try again in %(seconds)s seconds.")
                            % {"seconds": wait}, content_type="text/plain; charset=utf-8", status=429)
    response["Retry-After"] = str(wait)
    raise _BuildLimited(response)


def _whole_page(request: HttpRequest, event: Event, name: str, variant: str, build: Callable[[], HttpResponse],
                public: bool) -> tuple[HttpResponse, bool]:
    """``build()``'s page for a visitor (:func:`_visitor`), cached whole under the event's
    content version (``public``: its public version), ``name``, ``variant``, the language and
    the request's full path (the language form sends the visitor back to it): as ``(bytes,
    gzip bytes, content type)``, sent compressed to a client that accepts it
    (:func:`accepts_gzip`); a page holding a form's CSRF token as ``(text, content type)``,
    the token cut out and a fresh one put in per request. A page that is not a plain 200 HTML
    answer is never cached: ``build()`` runs each time. Returns ``(response, fresh)``: not fresh
    when it is the page of an older version, served while another reader builds this one
    (:func:`scoring.reports.cache.cached_or_older`)."""
    built: dict[str, HttpResponse] = {}

    def compute() -> tuple[bytes, bytes, str] | tuple[str, str] | tuple[()]:
        try:
            _build_slot(request)  # past the address's limit: nothing stored, the older page if any
        except _BuildLimited as limited:
            built["limited"] = limited.response
            raise
        event.__dict__[_BUILDING_WHOLE] = True
        try:
            response = build()
        finally:
            event.__dict__.pop(_BUILDING_WHOLE, None)
        built["response"] = response
        if response.status_code != 200 or response.streaming or response.has_header("Content-Disposition"):
            return ()
        html = response.content.decode(response.charset)
        holed = _CSRF_VALUE.sub(lambda m: m.group(1) + _CSRF_HOLE + m.group(2), html)
        if holed != html:
            return holed, response["Content-Type"]
        return response.content, gzipped(response.content), response["Content-Type"]

    path = hashlib.blake2b(request.get_full_path().encode(), digest_size=8).hexdigest()  # canonical: respond()
    stored, fresh = reports_cache.cached_or_older(event, f"whole-page:{name}:{variant}:{get_language()}:{path}",
                                                  compute, public=public)
    if stored is None and "limited" in built:  # never built, and this address may build no more now
        return built["limited"], False
    if isinstance(stored, tuple) and len(stored) == 3:  # also when this request built it
        plain, packed, content_type = bytes(stored[0]), bytes(stored[1]), str(stored[2])
        return _encoded(request, lambda: plain, lambda: packed, content_type), fresh or "response" in built
    if "response" in built:
        return built["response"], True
    if not isinstance(stored, tuple) or len(stored) != 2:  # () : not a page to cache
        return build(), True
    html, content_type = str(stored[0]), str(stored[1])
    return HttpResponse(html.replace(_CSRF_HOLE, get_token(request)), content_type=content_type), fresh


def _matches(request: HttpRequest, tag: str) -> bool:
    """Whether ``If-None-Match`` of ``request`` names ``tag`` (weak comparison) or ``*``."""
    header = request.headers.get("If-None-Match", "")
    wanted = tag.removeprefix("W/")
    return any(t.strip() == "*" or t.strip().removeprefix("W/") == wanted for t in header.split(","))


def respond(request: HttpRequest, event: Event, name: str, variant: str, build: Callable[[], HttpResponse], *,
            html: bool = True, conditional: bool = True, public: bool = False,
            query: dict | None = None) -> HttpResponse:
    """The response of a read view: ``build()`` (which may use :func:`body` and every cached
    report) with the event's content version pinned, its ETag set, or 304 when the client has it
    already (module docstring). ``html``: an HTML page (no ETag for a personal one);
    ``conditional`` False: never 304 nor ETag (a response that changes with time); ``public``:
    the response shows only what the public sees, so its ETag follows the public version (an
    entry on an unreleased set changes neither: no timing channel, and the phones' polls stay
    304 through a round's results). A response that is not 200 gets no ETag. ``query``: the
    query parameters the page read, with the values it used; a visitor's HTML page asked with any
    other query is redirected to the canonical address first (:func:`canonical_query`)."""
    visitor_page = html and request.method in ("GET", "HEAD") and _visitor(request)
    canonical = canonical_query(query)
    if visitor_page and request.META.get("QUERY_STRING", "") != canonical:
        return HttpResponseRedirect(request.path + (f"?{canonical}" if canonical else ""))
    with reports_cache.pinned_version(event):
        tag = None
        if conditional and request.method in ("GET", "HEAD") and not (html and _personal(request)):
            tag = etag(event, name, variant, request if html else None, public=public)
            if _matches(request, tag):
                response: HttpResponse = HttpResponseNotModified()
                response["ETag"] = tag
                patch_cache_control(response, private=True, no_cache=True)
                return response
        fresh = True
        if visitor_page and request.method == "GET":
            response, fresh = _whole_page(request, event, name, variant, build, public)
        else:
            response = build()
        if tag is not None and response.status_code == 200 and fresh:  # an older page: asked again next time
            response["ETag"] = etag(event, name, variant, request if html else None, public=public)  # new CSRF secret
    if response.status_code == 200:
        patch_cache_control(response, private=True, no_cache=True)
        if html:
            patch_vary_headers(response, ("Cookie", "Accept-Language", "Accept-Encoding"))
    return response
