"""The cache: the one place a value, a page or a download is kept and a read view answers 304
(docs/architecture.md, "The cache").

**Keys.** Every value is kept in Django's cache (shared by every process with ``CACHE_URL``)
under ``<release>:<event uid>:<event pk>:<version>:<name>`` (:func:`cache_key`):

- the *release* (:func:`release`): a digest of the application's code and templates, so pages
  built by the code before a deploy are never served after it;
- the event's *content version* (:meth:`tournament.models.Event.content_version`), bumped in the
  transaction of every write that changes what a page shows; or, for a value built only from
  what the public sees (``public=True``), its *public version*, which results of sets still in
  play leave alone; or a *stamp* the caller read after the versions, inside :func:`reading` (a
  released set's traveller, :func:`scoring.visibility.traveller_state`: other sets' results
  leave it alone; a page's ETag, which names the version, is then never newer than the page;
  a set's per-seat rows under its score state). A reader
  reads the version first and the data after, so a value is never older than its key: no
  signal, no digest of the data, no invalidation;
- the value's name, which for a page is the declared page's name and its *variant*
  (:class:`Page`).

**A request reads its versions once.** :func:`reading` reads both versions of an event (one
query) and every value read inside the block uses them (request-scoped, in a context variable:
nothing is stored on the ``Event``). A missing value is built by one reader at a time among
every process (:func:`_single_flight`); :func:`cached_or_older` serves the value of the version
before while another reader builds it, and a visitor's page as built until it is
``settings.PUBLIC_PAGE_STALE_SECONDS`` old.

**Pages declare what they vary by** (:class:`Page`): the scope and the viewer's role are put in
the variant by the page itself, from the viewer, never typed by each view: a visitor is always
keyed ``public``; the director's and staff's every-set pages are keyed apart from each other and
from the table logins' (``tests/test_cache_variance.py`` walks every declared page). Language
and encoding are part of every key. :meth:`Page.respond` answers ``304 Not Modified`` through
Django's ``get_conditional_response`` before anything is built, caches an anonymous visitor's
page whole (and its gzip), and limits how many pages one address may make the site build.

**Downloads** of what the public sees (the export, standings files, the projector's JSON) are
kept the same way and rate-limited per address (:func:`limited`).

**Process memory.** What is cheaper to bring up to date than to unpickle (standings tallies,
per-session seat rows, hand-form fields) is kept per process in a :class:`Kept`: the one
"built once per process" idiom besides ``functools.lru_cache`` of pure functions.
"""

from __future__ import annotations

import contextvars
import functools
import gzip
import hashlib
import math
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django_ratelimit.core import get_usage

from tournament.permissions import TABLE_SESSION_KEY, client_address

if TYPE_CHECKING:
    from tournament.models import Event

CACHE_SECONDS = 6 * 3600

# --- the release ----------------------------------------------------------------------------------

_CODE = ("tournament", "scoring", "walls", "templates")


@functools.lru_cache(maxsize=1)
def release() -> str:
    """The release every key starts with: ``settings.RELEASE`` when set (a deploy may name it),
    else a digest (12 hex digits) of the application's Python files and templates, read once per
    process. Every process of one deploy computes the same; a deploy that changes any of them
    changes it."""
    named = getattr(settings, "RELEASE", "")
    if named:
        return str(named)
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.blake2b(digest_size=6)
    for folder in _CODE:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix in (".py", ".html", ".txt") and "migrations" not in path.parts:
                digest.update(str(path.relative_to(root)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


# --- what one request reads -------------------------------------------------------------------------

class _Reading:
    """What the current request (or task) reads: ``versions`` ``{event pk: (version, public
    version)}`` pinned by :func:`reading`; ``impatient``: serve an older value rather than wait
    (:func:`cached_or_older`); ``whole``: a visitor's whole page is being built (its body gets no
    entry of its own)."""

    def __init__(self) -> None:
        self.versions: dict[int, tuple[int, int]] = {}
        self.impatient = False
        self.whole = False


_READING: contextvars.ContextVar[_Reading | None] = contextvars.ContextVar("dmj_cache_reading", default=None)


@contextmanager
def reading(event: Event) -> Iterator[tuple[int, int]]:
    """Read ``event``'s content version and public version once (one query) and use them for every
    value read inside the block (a page's request, which writes nothing); yields ``(version,
    public version)``. Nested blocks keep the outer versions."""
    state = _READING.get()
    token = None
    if state is None:
        state = _Reading()
        token = _READING.set(state)
    outer = event.pk in state.versions
    if not outer:
        state.versions[event.pk] = event.content_versions()
    try:
        yield state.versions[event.pk]
    finally:
        if not outer:
            state.versions.pop(event.pk, None)
        if token is not None:
            _READING.reset(token)


def content_version(event: Event, *, public: bool = False) -> int:
    """The event's content version (``public``: its public version): the one pinned by
    :func:`reading`, or read now (one query)."""
    state = _READING.get()
    pinned = state.versions.get(event.pk) if state is not None else None
    if pinned is not None:
        return pinned[1 if public else 0]
    return event.content_version(public=public)


def version_tag(event: Event, *, public: bool = False) -> str:
    """The version a page's ETag names: ``"P<public version>"`` for a public page, else
    ``"<content version>"`` (:func:`content_version`)."""
    return f"P{content_version(event, public=True)}" if public else str(content_version(event))


@contextmanager
def _flag(name: str) -> Iterator[None]:
    """Set the current reading's flag ``name`` for the block."""
    state = _READING.get()
    token = None
    if state is None:
        state = _Reading()
        token = _READING.set(state)
    before = getattr(state, name)
    setattr(state, name, True)
    try:
        yield
    finally:
        setattr(state, name, before)
        if token is not None:
            _READING.reset(token)


def _is(name: str) -> bool:
    state = _READING.get()
    return bool(state is not None and getattr(state, name))


# --- values kept under the version ---------------------------------------------------------------

def cache_key(event: Event, name: str, *, public: bool = False, stamp: str | None = None) -> str:
    """The key of the value ``name`` of ``event`` (module docstring, "Keys"). The primary key is
    part of it with the uid: an event deleted and restored from its export keeps its uid but
    starts its version again. ``stamp``: kept under it instead of a version (a page of one
    released set: :func:`scoring.visibility.traveller_state`)."""
    if stamp is not None:
        version = f"s{stamp}"
    else:
        version = f"p{content_version(event, public=True)}" if public else f"v{content_version(event)}"
    return f"{release()}:{event.uid}:{event.pk}:{version}:{name}"


#: how long a reader waits for another process computing the same value (seconds) before it
#: computes it itself
WAIT_FOR_OTHERS = 10.0
_POLL = 0.02
_POLL_MAX = 0.1
#: what a ``read`` of :func:`_single_flight` answers for "built already, but not there: build it"
REBUILD = object()


class BuildingElsewhere(Exception):
    """Raised inside :func:`cached_or_older` when a value it needs is being built by another
    reader: the caller serves the older value instead of waiting."""


def _single_flight(key: str, read: Callable[[], object], compute: Callable[[], Any]) -> Any:
    """``read()`` (None: missing), else compute it once among every process sharing the cache:
    the first reader takes a short lock in the cache (``cache.add``) and runs ``compute()`` (which
    stores what it built); the others poll ``read()`` (every 20 ms at first, up to every 100 ms)
    instead of each building the same thing (the burst of phones after a set is released), and
    build it themselves if it is still missing after :data:`WAIT_FOR_OTHERS` seconds, or at once
    when ``read()`` answers :data:`REBUILD`. An impatient reader (:func:`cached_or_older`) raises
    :class:`BuildingElsewhere` instead of waiting."""
    value = read()
    if value is REBUILD:
        return compute()
    if value is not None:
        return value
    lock = f"{key}:building"
    if cache.add(lock, 1, int(WAIT_FOR_OTHERS) + 5):
        try:
            return compute()
        finally:
            cache.delete(lock)
    if _is("impatient"):
        raise BuildingElsewhere(key)
    deadline = time.monotonic() + WAIT_FOR_OTHERS
    pause = _POLL
    while time.monotonic() < deadline:
        time.sleep(pause)
        pause = min(pause * 1.25, _POLL_MAX)
        value = read()
        if value is REBUILD:
            break
        if value is not None:
            return value
    return compute()


def cached(event: Event, name: str, compute: Callable[[], Any], *, public: bool = False, stamp: str | None = None) -> Any:
    """The value ``name`` of ``event`` at its version or ``stamp`` (:func:`cache_key`): from the
    cache, or ``compute()`` (never None) stored there for :data:`CACHE_SECONDS`, by one reader at
    a time."""
    key = cache_key(event, name, public=public, stamp=stamp)

    def build() -> Any:
        value = compute()
        cache.set(key, value, CACHE_SECONDS)
        return value

    return _single_flight(key, lambda: cache.get(key), build)


def _now() -> float:
    """Seconds since the epoch (a function of its own, so tests can move the clock)."""
    return time.time()


def cached_or_older(event: Event, name: str, compute: Callable[[], object], *, public: bool = False,
                    stale_seconds: float = 0, stamp: str | None = None) -> tuple[object, tuple[str, float] | None]:
    """``(value, older)``: the value of :func:`cached` and ``older`` None; or the value this event
    last had under the same name at an older version, if one is still cached, with ``older``
    ``(its version, seconds since it was built)``:

    - while another reader builds the value, instead of waiting: after a set's release the phones
      keep reading the page as it was a moment before (what the public could already see);
    - when the older value was built less than ``stale_seconds`` ago: a page is built at most once
      in that many seconds, however many releases come meanwhile (a round's end releases a set
      after another, and every phone asks for its team's and player's page).

    Nothing older is ever served for a value that was never built. Only the reader that builds a
    value records it as the latest, with the time it was built. ``stamp``: as :func:`cache_key`."""
    key = cache_key(event, name, public=public, stamp=stamp)
    value = cache.get(key)
    if value is not None:
        return value, None
    latest = f"{release()}:{event.uid}:{event.pk}:latest:{'p' if public else 'v'}:{name}"
    pointer = cache.get(latest)
    older_key, older_version, built_at = pointer if isinstance(pointer, tuple) else (None, "", 0.0)
    older = cache.get(older_key) if older_key and older_key != key else None
    if older is not None and _now() - built_at < stale_seconds:
        return older, (older_version, _now() - built_at)
    built = []

    def build() -> object:
        built.append(compute())
        return built[-1]

    try:
        if older is not None:
            with _flag("impatient"):
                value = cached(event, name, build, public=public, stamp=stamp)
        else:
            value = cached(event, name, build, public=public, stamp=stamp)
    except BuildingElsewhere:
        return older, (older_version, _now() - built_at) if older is not None else None
    if built:
        cache.set(latest, (key, version_tag(event, public=public), _now()), CACHE_SECONDS)
    return value, None


def cached_parts(event: Event, name: str, part: str, compute: Callable[[], Mapping[str, object]], default: object = None, *,
                 public: bool = False) -> Any:
    """One part of the value ``name`` (``public`` as in :func:`cached`): ``compute()`` builds every
    part at once (``{part: value}``, e.g. one per team and one for the whole list), stored under
    a key each, so a page that shows one team's rows reads those rows, not the event's.
    ``default`` when ``compute`` has no such part. The parts are stored with a marker, so a reader
    of a part missing once they are built computes them again rather than wait."""
    prefix = cache_key(event, name, public=public)
    done = f"{prefix}:*built*"

    def read() -> object:
        found = cache.get_many([f"{prefix}:{part}", done])
        if f"{prefix}:{part}" in found:
            return (found[f"{prefix}:{part}"],)
        return REBUILD if done in found else None

    def build() -> tuple[object]:
        parts = compute()
        cache.set_many({**{f"{prefix}:{k}": v for k, v in parts.items()}, done: True}, CACHE_SECONDS)
        return (parts.get(part, default),)

    return _single_flight(prefix, read, build)[0]


# --- process memory -------------------------------------------------------------------------------

V = TypeVar("V")


class Kept(Generic[V]):
    """Values this process keeps in memory, ``{key: value}``, at most ``size``, the least recently
    used dropped; thread-safe. For what each process brings up to date more cheaply than it would
    unpickle it from the shared cache (a 160,000-result standings tally pickles in about a
    second). ``lock`` may be held by a caller across a read and an update."""

    every: ClassVar[list[Kept[Any]]] = []

    def __init__(self, size: int):
        self.size = size
        self._kept: OrderedDict[Hashable, V] = OrderedDict()
        self.lock = threading.RLock()
        Kept.every.append(self)

    def get(self, key: Hashable) -> V | None:
        with self.lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
            return found

    def put(self, key: Hashable, value: V) -> None:
        with self.lock:
            self._kept[key] = value
            self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self._kept.clear()


def forget_kept() -> None:
    """Drop what this process keeps in memory (every :class:`Kept`): tests that count the queries
    of a first computation."""
    for kept in Kept.every:
        kept.clear()


# --- pages --------------------------------------------------------------------------------------

def accepts_gzip(request: HttpRequest) -> bool:
    """Whether the request's ``Accept-Encoding`` names gzip (``gzip;q=0`` refuses it)."""
    accepted = request.headers.get("Accept-Encoding", "")
    return bool(_GZIP.search(accepted)) and not _NO_GZIP.search(accepted)


_GZIP = re.compile(r"\bgzip\b")
_NO_GZIP = re.compile(r"\bgzip\s*;\s*q\s*=\s*0(\.0*)?\s*(,|$)")


def gzipped(data: bytes) -> bytes:
    """``data`` compressed as the site sends it: gzip level 6, no timestamp (same bytes, same
    data)."""
    return gzip.compress(data, compresslevel=6, mtime=0)


def _encoded(request: HttpRequest, plain: Callable[[], bytes], packed: Callable[[], bytes],
             content_type: str) -> HttpResponse:
    """``packed()`` with ``Content-Encoding: gzip`` to a client that accepts it, else ``plain()``;
    ``Vary: Accept-Encoding`` either way."""
    if accepts_gzip(request):
        response = HttpResponse(packed(), content_type=content_type)
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(plain(), content_type=content_type)
    patch_vary_headers(response, ("Accept-Encoding",))
    return response


def kept_bytes(request: HttpRequest, event: Event, name: str, build: Callable[[], bytes], content_type: str, *,
               public: bool = False) -> HttpResponse:
    """``build()``'s bytes kept under ``name`` (:func:`cached`), or their gzip kept beside them, to
    a client that accepts it: built and compressed once per version, one cache read a request."""
    def plain() -> bytes:
        return cached(event, name, build, public=public)

    return _encoded(request, plain, lambda: cached(event, f"{name}.gz", lambda: gzipped(plain()), public=public),
                    content_type)


def canonical_query(query: dict[str, object] | None) -> str:
    """The query string of a page that read ``query`` (parameter → the value it used):
    ``"order=score"``, ``""`` for none."""
    return urlencode([(name, str(value)) for name, value in (query or {}).items()])


def address_wait(request: HttpRequest, group: str, rate: str | None) -> int:
    """Count one request of the client's address in ``group`` against ``rate`` (django-ratelimit's
    ``"60/m"``, counters in the cache; None: no limit); the whole seconds it must wait: 0 under
    the limit, else until the window ends (at least 1)."""
    if not rate:
        return 0
    address = client_address(request)
    usage = get_usage(request, group=group, key=lambda group, req: address, rate=rate, increment=True)
    if usage is None or not usage["should_limit"]:
        return 0
    return max(1, math.ceil(usage["time_left"]))


class _BuildLimited(BuildingElsewhere):
    """A visitor's address has built too many pages: ``response`` is the 429. The page of an older
    version is served instead when there is one (:func:`cached_or_older`)."""

    def __init__(self, response: HttpResponse):
        super().__init__("page build limit")
        self.response = response


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


def _personal(request: HttpRequest) -> bool:
    """Whether an HTML page shows what the version does not cover: a logged-in account's header,
    or a message waiting."""
    if getattr(request, "user", None) is not None and request.user.is_authenticated:
        return True
    return bool(len(get_messages(request)))


def _table_logins(request: HttpRequest) -> dict[str, Any]:
    session = getattr(request, "session", None)
    return (session.get(TABLE_SESSION_KEY) or {}) if session is not None else {}


def _visitor(request: HttpRequest) -> bool:
    """An anonymous visitor with no table login and no message waiting: shown exactly what every
    other such visitor is shown, so the whole page may be shared."""
    return not _personal(request) and not _table_logins(request)


#: the CSRF token of a rendered form, cut out of a page cached whole and put back per request
_CSRF_VALUE = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]*(")')
_CSRF_HOLE = "\x00csrf-token\x00"


class Page:
    """A cached page, API answer or download, declared once beside its view: ``name``; ``html``
    (an HTML page: its body cached, a visitor's whole page cached, no ETag for a personal one);
    ``conditional`` False: never 304 (a response that changes by itself); ``tables``: a viewer's
    table logins are part of the public variant (a page that shows a table its own entries before
    the set is public).

    **What it varies by** (:meth:`variant`): the view's own arguments, then the *scope* derived
    here from the viewer (:class:`scoring.visibility.Viewer`): ``public`` for anyone who may see
    only what is public, whatever the view asked; else ``director`` or ``staff``; with ``tables``,
    ``public`` is followed by the viewer's tables. The language and, for a visitor's whole page,
    the encoding and address are added by :meth:`respond`."""

    declared: ClassVar[dict[str, Page]] = {}

    def __init__(self, name: str, *, html: bool = True, conditional: bool = True, tables: bool = False):
        self.name, self.html, self.conditional, self.tables = name, html, conditional, tables
        Page.declared[name] = self

    def __repr__(self) -> str:
        return f"Page({self.name!r})"

    def scope(self, viewer: Any, public: bool) -> str:
        """What the viewer may be shown: ``public`` for anyone who may see only what is public
        (whatever the view asked), followed by the viewer's tables for a page declared with
        ``tables``; for the director and staff, the scope they asked (``public`` or ``all``) and
        their role (``:director``, ``:staff``): their pages carry their own links and forms."""
        if not viewer.secrets:
            if self.tables and viewer.tables:
                return "public:" + ",".join(map(str, sorted(viewer.tables)))
            return "public"
        return ("public" if public else "all") + (":director" if viewer.director else ":staff")

    def variant(self, viewer: Any, public: bool, *args: object) -> str:
        """The variant of this page for ``viewer`` asking the ``public`` scope with the view's
        arguments ``args``: ``"<args>:<scope>:<language>"``."""
        return ":".join([*map(str, args), self.scope(viewer, public), get_language() or ""])

    def body(self, event: Event, variant: str, template: str, context: Callable[[], dict[str, Any]], *,
             public: bool = False, stamp: str | None = None) -> SafeString:
        """``template`` rendered with ``context()`` (called only on a miss), kept under ``variant``
        at the event's version (``public``: its public version); rendered without the request, so
        it holds nothing about the viewer beyond ``variant``. While a visitor's whole page is built
        the body gets no entry of its own (the whole page is kept). ``stamp``: kept under it
        instead of the version (:func:`cache_key`)."""
        if _is("whole"):
            return mark_safe(render_to_string(template, context()))  # noqa: S308 - escaped by the template engine
        html = cached(event, f"page:{self.name}:{variant}", lambda: render_to_string(template, context()), public=public,
                      stamp=stamp)
        return mark_safe(html)  # noqa: S308 - escaped by the template engine

    def etag(self, event: Event, variant: str, request: HttpRequest | None = None, *, public: bool = False,
             at: str | None = None) -> str:
        """The weak ETag ``W/"<version>-<digest>"`` (``P<public version>`` for a public page) of
        ``variant``; with ``request`` (an HTML page), its table logins and CSRF cookie are part of
        the digest. ``at``: the version of a page served as it was (:func:`cached_or_older`)."""
        parts = [release(), event.uid, self.name, variant, get_language() or ""]
        if request is not None:
            parts.append(repr(sorted(_table_logins(request).items())))
            parts.append(request.META.get("CSRF_COOKIE", ""))
        digest = hashlib.blake2b("\x1f".join(parts).encode(), digest_size=8).hexdigest()
        return f'W/"{at or version_tag(event, public=public)}-{digest}"'

    def _whole(self, request: HttpRequest, event: Event, variant: str, build: Callable[[], HttpResponse],
               public: bool, stamp: str | None) -> tuple[HttpResponse, tuple[str, float] | None]:
        """``build()``'s page for a visitor, kept whole under the variant, the language and the
        request's full path, as ``(bytes, gzip bytes, content type)`` (a page holding a form's CSRF
        token as ``(text, content type)``, a fresh token put in per request); anything but a plain
        200 HTML answer is never kept. ``(response, older)``: ``older`` ``(version, age in
        seconds)`` when it is the page of an older version (:func:`cached_or_older`: built less
        than ``settings.PUBLIC_PAGE_STALE_SECONDS`` ago, or while another reader builds this one),
        else None."""
        built: dict[str, HttpResponse] = {}

        def compute() -> tuple[Any, ...]:
            try:
                _build_slot(request)
            except _BuildLimited as limited:
                built["limited"] = limited.response
                raise
            with _flag("whole"):
                response = build()
            built["response"] = response
            if response.status_code != 200 or response.streaming or response.has_header("Content-Disposition"):
                return ()
            html = response.content.decode(response.charset)
            holed = _CSRF_VALUE.sub(lambda m: m.group(1) + _CSRF_HOLE + m.group(2), html)
            if holed != html:
                return holed, response["Content-Type"]
            return response.content, gzipped(response.content), response["Content-Type"]

        path = hashlib.blake2b(request.get_full_path().encode(), digest_size=8).hexdigest()
        stored, older = cached_or_older(event, f"whole-page:{self.name}:{variant}:{get_language()}:{path}",
                                        compute, public=public, stale_seconds=settings.PUBLIC_PAGE_STALE_SECONDS,
                                        stamp=stamp)
        if stored is None and "limited" in built:
            return built["limited"], None
        if isinstance(stored, tuple) and len(stored) == 3:
            plain, packed, content_type = bytes(stored[0]), bytes(stored[1]), str(stored[2])
            return _encoded(request, lambda: plain, lambda: packed, content_type), older
        if "response" in built:
            return built["response"], None
        if not isinstance(stored, tuple) or len(stored) != 2:
            return build(), None
        html, content_type = str(stored[0]), str(stored[1])
        return HttpResponse(html.replace(_CSRF_HOLE, get_token(request)), content_type=content_type), older

    def respond(self, request: HttpRequest, event: Event, variant: str, build: Callable[[], HttpResponse], *,
                public: bool = False, query: dict[str, object] | None = None, conditional: bool = True,
                stamp: str | None = None) -> HttpResponse:
        """The response of the view: ``build()`` (which may use :meth:`body` and every cached
        value) with the event's versions pinned (:func:`reading`), its ETag set, or 304 when the
        client has it (``get_conditional_response``). ``public``: the response shows only what
        the public sees, so its ETag follows the public version. ``query``: the query parameters
        the page read with the values it used; a visitor's HTML page asked with any other query
        is redirected to the canonical address (a loop over ``?r=<n>`` costs a redirect, not a
        page built and kept per address). ``conditional`` False: no ETag this time (a page the view
        renders afresh for this viewer). ``stamp``: a visitor's whole page is kept under it instead
        of the version (:func:`cache_key`; its ETag still follows the version)."""
        visitor_page = self.html and request.method in ("GET", "HEAD") and _visitor(request)
        canonical = canonical_query(query)
        if visitor_page and request.META.get("QUERY_STRING", "") != canonical:
            return HttpResponseRedirect(request.path + (f"?{canonical}" if canonical else ""))
        with reading(event):
            tag = None
            if self.conditional and conditional and request.method in ("GET", "HEAD") and not (self.html and _personal(request)):
                tag = self.etag(event, variant, request if self.html else None, public=public)
                unchanged = get_conditional_response(request, etag=tag)
                if unchanged is not None:
                    unchanged["ETag"] = tag
                    patch_cache_control(unchanged, private=True, no_cache=True)
                    return unchanged
            older = None
            if visitor_page and request.method == "GET":
                response, older = self._whole(request, event, variant, build, public, stamp)
            else:
                response = build()
            if tag is not None and response.status_code == 200:
                # a new CSRF secret may have been set; a page of an older version has its version's
                tag = self.etag(event, variant, request if self.html else None, public=public, at=older and older[0])
                if older is not None:
                    response = get_conditional_response(request, etag=tag) or response
                    response["Age"] = str(int(older[1]))  # seconds since it was built
                response["ETag"] = tag
        if response.status_code in (200, 304):
            patch_cache_control(response, private=True, no_cache=True)
        if response.status_code == 200:
            if self.html:
                patch_vary_headers(response, ("Cookie", "Accept-Language", "Accept-Encoding"))
        return response


# --- downloads ------------------------------------------------------------------------------------

def limited(request: HttpRequest, name: str, viewer: Any) -> HttpResponse | None:
    """None when the request may have the public download ``name`` now; else the 429 answer (with
    ``Retry-After``). Counts the request against ``settings.PUBLIC_DOWNLOAD_RATE`` per address;
    the director and staff (``viewer.secrets``) are never limited."""
    if not settings.PUBLIC_DOWNLOAD_RATE or viewer.secrets:
        return None
    wait = address_wait(request, f"public-download:{name}", settings.PUBLIC_DOWNLOAD_RATE)
    if not wait:
        return None
    message = _("Too many downloads of this file from your network. It changes only when a set is released: "
                "try again in %(seconds)s seconds.") % {"seconds": wait}
    if name.endswith(".json"):
        response: HttpResponse = JsonResponse({"detail": message}, status=429)
    else:
        response = HttpResponse(message, content_type="text/plain; charset=utf-8", status=429)
    response["Retry-After"] = str(wait)
    return response
