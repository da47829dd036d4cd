"""Django's Redis cache, failing to the database: while Redis cannot be reached, every cache
operation answers as a miss, the way Django's ``DummyCache`` does, instead of raising
(docs/deploy.md, "Faults").

``tournament/settings.py`` selects :class:`FailSoftRedisCache` for a ``redis://`` or
``rediss://`` ``CACHE_URL``. Nothing else in the site knows about outages: every user of the
cache (the page and report cache, the public download and page-build limits, the table-login
throttle) already treats a miss as "build it" or "not counted yet".

- A read finds nothing (``get`` → the default, ``get_many`` → ``{}``, ``has_key`` → False):
  pages, JSON and downloads are built from the database, as for a new version.
- A write stores nothing (``set``, ``set_many``: every key not stored; ``delete``, ``touch``:
  False).
- ``add`` answers True, as if the key were new: nothing else can hold a key in a cache that is
  not there. A build lock is then taken at once (every reader builds, none waits:
  :func:`tournament.cache._single_flight`), and a throttle's first count or check slot is
  this request's, so the table-login throttle and the download and page-build limits let
  requests through (fail open: a right table code logs in).
- ``incr`` raises ValueError, as for a missing key (which django-ratelimit and
  :mod:`scoring.login_throttle` catch; ``RATELIMIT_FAIL_OPEN`` lets the request through).

"Cannot be reached" is the redis client's ConnectionError or TimeoutError (refused, reset,
Redis still loading its data, no answer within the socket timeouts: :data:`SOCKET_TIMEOUT`
seconds by default, to connect and to answer, which ``?socket_timeout=`` in ``CACHE_URL``
overrides for both, ``?socket_connect_timeout=`` for connecting). After one, this process does
not ask Redis again for :data:`SKIP_SECONDS` (a circuit breaker), so a request never waits on a
dead server more than once per window. The outage is logged as a warning when it starts, then at most once per
:data:`LOG_EVERY` seconds while it lasts, and once when Redis answers again, naming the server
(never its password) and how many operations were answered without it.
"""

from __future__ import annotations

import logging
import threading
import time
from urllib.parse import urlsplit

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

#: the redis client's errors of an unreachable server (BusyLoadingError is a ConnectionError)
OUTAGE_ERRORS = (RedisConnectionError, RedisTimeoutError)
#: seconds to connect and to wait for an answer before Redis counts as unreachable
SOCKET_TIMEOUT = 0.25
#: seconds Redis is not asked after a failure (each process, each server)
SKIP_SECONDS = 5.0
#: seconds between two log lines of one outage
LOG_EVERY = 30.0


def _server(location: str) -> str:
    """``host:port/db`` of each server of a cache ``LOCATION``, without user or password."""
    names = []
    for url in location.replace(";", ",").split(","):
        parts = urlsplit(url.strip())
        names.append(f"{parts.scheme}://{parts.hostname}:{parts.port or 6379}{parts.path}")
    return ", ".join(names)


class Outage:
    """The state of one Redis server as this process sees it: whether to ask it now, and the
    outage's log lines. Shared by every thread's cache object (Django makes one per thread)."""

    def __init__(self, server: str):
        self.server = server
        self._lock = threading.Lock()
        self._skip_until = 0.0
        self._since: float | None = None
        self._logged_at = 0.0
        self._missed = 0

    def asking(self) -> bool:
        """Whether Redis may be asked now; if not, the operation counts as answered without it."""
        if time.monotonic() >= self._skip_until:
            return True
        with self._lock:
            self._missed += 1
        return False

    def failed(self, error: Exception) -> None:
        """Redis did not answer (``error``): skip it for :data:`SKIP_SECONDS`; log the start of
        the outage, or how it goes on at most once per :data:`LOG_EVERY` seconds."""
        now = time.monotonic()
        with self._lock:
            self._skip_until = now + SKIP_SECONDS
            self._missed += 1
            if self._since is None:
                self._since, self._logged_at, self._missed = now, now, 0
                logger.warning("Cache %s unreachable (%s: %s): pages are built from the database and the request "
                               "limits let requests through until it answers; not asked again for %g s",
                               self.server, type(error).__name__, error, SKIP_SECONDS)
            elif now - self._logged_at >= LOG_EVERY:
                logger.warning("Cache %s still unreachable after %.0f s (%s: %s): %d cache operations answered "
                               "without it since the last line", self.server, now - self._since,
                               type(error).__name__, error, self._missed)
                self._logged_at, self._missed = now, 0

    def answered(self) -> None:
        """Redis answered: log the end of an outage, if there was one."""
        if self._since is None:
            return
        with self._lock:
            if self._since is not None:
                logger.warning("Cache %s reachable again after %.0f s: %d cache operations answered without it "
                               "since the last line", self.server, time.monotonic() - self._since, self._missed)
                self._since, self._missed = None, 0


_OUTAGES: dict[str, Outage] = {}
_OUTAGES_LOCK = threading.Lock()


def outage_of(location: str) -> Outage:
    """The process's :class:`Outage` of the server(s) at ``location`` (a cache ``LOCATION``)."""
    with _OUTAGES_LOCK:
        if location not in _OUTAGES:
            _OUTAGES[location] = Outage(_server(location))
        return _OUTAGES[location]


class FailSoftRedisCache(RedisCache):
    """Django's ``RedisCache`` answering as a miss while Redis cannot be reached (module
    docstring): never raises the redis client's connection or timeout errors, waits at most
    the socket timeouts once per :data:`SKIP_SECONDS`, and logs the outage."""

    def __init__(self, server, params):
        options = dict(params.get("OPTIONS") or {})
        options.setdefault("socket_timeout", SOCKET_TIMEOUT)
        options.setdefault("socket_connect_timeout", options["socket_timeout"])
        super().__init__(server, {**params, "OPTIONS": options})
        self.outage = outage_of(server if isinstance(server, str) else ",".join(server))

    def _ask(self, call, missed):
        """``call()``'s answer, or ``missed()``'s while Redis cannot be reached."""
        if not self.outage.asking():
            return missed()
        try:
            answer = call()
        except OUTAGE_ERRORS as error:
            self.outage.failed(error)
            return missed()
        self.outage.answered()
        return answer

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        """Django's ``add``; True while Redis cannot be reached (no one else holds the key)."""
        return self._ask(lambda: RedisCache.add(self, key, value, timeout, version), lambda: True)

    def get(self, key, default=None, version=None):
        """Django's ``get``; ``default`` while Redis cannot be reached."""
        return self._ask(lambda: RedisCache.get(self, key, default, version), lambda: default)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        """Django's ``set``; nothing stored while Redis cannot be reached."""
        self._ask(lambda: RedisCache.set(self, key, value, timeout, version), lambda: None)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        """Django's ``touch``; False while Redis cannot be reached."""
        return self._ask(lambda: RedisCache.touch(self, key, timeout, version), lambda: False)

    def delete(self, key, version=None):
        """Django's ``delete``; False while Redis cannot be reached."""
        return self._ask(lambda: RedisCache.delete(self, key, version), lambda: False)

    def get_many(self, keys, version=None):
        """Django's ``get_many``; ``{}`` while Redis cannot be reached."""
        return self._ask(lambda: RedisCache.get_many(self, keys, version), dict)

    def has_key(self, key, version=None):
        """Django's ``has_key``; False while Redis cannot be reached."""
        return self._ask(lambda: RedisCache.has_key(self, key, version), lambda: False)

    def incr(self, key, delta=1, version=None):
        """Django's ``incr``; ValueError, as for a missing key, while Redis cannot be reached."""

        def missing():
            raise ValueError(f"Key '{key}' not found: the cache cannot be reached")

        return self._ask(lambda: RedisCache.incr(self, key, delta, version), missing)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        """Django's ``set_many``; every key not stored while Redis cannot be reached."""
        return self._ask(lambda: RedisCache.set_many(self, data, timeout, version), lambda: list(data))

    def delete_many(self, keys, version=None):
        """Django's ``delete_many``; nothing deleted while Redis cannot be reached."""
        self._ask(lambda: RedisCache.delete_many(self, keys, version), lambda: None)

    def clear(self):
        """Django's ``clear``; False while Redis cannot be reached."""
        return self._ask(lambda: RedisCache.clear(self), lambda: False)
