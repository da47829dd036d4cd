"""The table-login throttle: a right table code is never refused as wrong, and guessing codes is
bounded in rate per address and in total (docs/security.md, "Table login").

Wrong codes are counted per client address and in total, each *distinct* code once per address
(a player typing the same typo again does not use up the allowance), with django-ratelimit
counters in Django's cache (``settings.TABLE_LOGIN_RATE_PER_ADDRESS``,
``settings.TABLE_LOGIN_RATE_TOTAL``). Under both limits every code is checked at once. Over a
limit, codes are still checked, but at a bounded rate, never blocked for a whole window:

- an address over its limit has one code checked per ``settings.TABLE_LOGIN_SLOW_SECONDS``;
- over the total limit, at most ``settings.TABLE_LOGIN_SLOW_TOTAL_PER_SECOND`` codes are
  checked per second from all addresses together.

A request that finds no free check slot is not looked up at all and is told how many seconds to
wait (:func:`check_slot` → ``Retry-After``); a right code typed again then logs in. IPv6
addresses count by their /64 network (one subscriber's block). The cache must be shared by every
web process (``CACHE_URL``, docs/deploy.md) for the limits to hold across them.
"""

from __future__ import annotations

import hashlib
import ipaddress
import math
import time

from django.conf import settings
from django.core.cache import cache
from django_ratelimit.core import _split_rate, is_ratelimited

from tournament.permissions import client_address

PREFIX = "table-login"


def now() -> float:
    """Seconds since the epoch (a seam for tests: the check slots follow it)."""
    return time.time()


def address_key(request) -> str:
    """The address wrong codes are counted under: the client address
    (:func:`tournament.permissions.client_address`), an IPv6 one as its /64 network."""
    address = client_address(request)
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if parsed.version == 6:
        if parsed.ipv4_mapped:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


def _over(request, *, address: str, increment: bool) -> tuple[bool, bool]:
    """``(over the address limit, over the total limit)``, counting one more wrong code first
    when ``increment``."""
    per_address = is_ratelimited(request, group=f"{PREFIX}:address", key=lambda group, req: address,
                                 rate=settings.TABLE_LOGIN_RATE_PER_ADDRESS or None, increment=increment)
    total = is_ratelimited(request, group=f"{PREFIX}:total", key=lambda group, req: "all",
                           rate=settings.TABLE_LOGIN_RATE_TOTAL or None, increment=increment)
    return bool(per_address), bool(total)


def check_slot(request) -> int:
    """Whether this request's code may be looked up now: 0 if so (the slot is taken), else the
    whole seconds to wait before a code from this client is checked again (``Retry-After``).
    Under both limits every request may check its code."""
    address = address_key(request)
    per_address, total = _over(request, address=address, increment=False)
    at = now()
    if per_address:
        every = max(1, int(settings.TABLE_LOGIN_SLOW_SECONDS))
        slot = int(at // every)
        if not cache.add(f"{PREFIX}:slot:{address}:{slot}", 1, every + 1):
            return max(1, math.ceil((slot + 1) * every - at))
    if total:
        second = int(at)
        key = f"{PREFIX}:total-slot:{second}"
        cache.add(key, 0, 3)
        try:
            taken = cache.incr(key)
        except ValueError:  # expired between add and incr: this request opens the second
            cache.add(key, 1, 3)
            taken = 1
        if taken > max(1, int(settings.TABLE_LOGIN_SLOW_TOTAL_PER_SECOND)):
            return 1
    return 0


def count_wrong(request, typed: str) -> bool:
    """Count the wrong code ``typed`` (normalised) from this client, once per code and address
    within the address window; return whether this client is now over a limit (the answer to a
    wrong code is then 429)."""
    address = address_key(request)
    digest = hashlib.sha256(f"{address}|{typed}".encode()).hexdigest()[:24]
    new = cache.add(f"{PREFIX}:seen:{digest}", 1, _window_seconds(settings.TABLE_LOGIN_RATE_PER_ADDRESS))
    per_address, total = _over(request, address=address, increment=new)
    return per_address or total


def _window_seconds(rate: str | None) -> int:
    """The window of a django-ratelimit rate ``"10/10m"`` in seconds (600); 600 without a rate."""
    if not rate:
        return 600
    count, seconds = _split_rate(rate)
    return seconds
