"""The event's public address: the address the players' and scorers' phones open, which every
printed QR code links to (docs/deploy.md, "From the laptop to the venue").

A laptop that serves the site on the venue's Wi-Fi is reached by its address on that network
(``http://192.168.1.20:8000/``), never by ``127.0.0.1`` or ``localhost``: those name the device
that opens them, so a phone scanning a code that holds one reaches itself. :func:`address_problem`
says what is wrong with an address, :func:`lan_addresses` finds this machine's addresses on its
networks, :func:`suggested_address` the one to offer.

Plain functions over strings and the machine's network interfaces (no request, no database).
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from django.utils.translation import gettext as _

EXAMPLE = "http://192.168.1.20:8000/"
"""The example address the messages give: a laptop on a venue's Wi-Fi."""

LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"}


def _host_ip(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None


def is_loopback_host(host: str) -> bool:
    """Whether ``host`` (a URL's host name or address) names the device that opens it: a loopback
    address (``127.0.0.0/8``, ``::1``), an unspecified one (``0.0.0.0``, ``::``) or a loopback
    name (``localhost``...)."""
    host = (host or "").strip().lower().rstrip(".")
    if host in LOOPBACK_NAMES or host.endswith(".localhost"):
        return True
    ip = _host_ip(host)
    return ip is not None and (ip.is_loopback or ip.is_unspecified)


def address_problem(url: str) -> str | None:
    """Why phones could not open the public address ``url``, as a sentence that names the fix, or
    None when it can be printed: it is empty, is not an ``http://`` or ``https://`` address with
    a host, or names the device that opens it (:func:`is_loopback_host`)."""
    url = (url or "").strip()
    fix = _("set the event's public address in Settings to the address phones on the venue's network open, e.g. "
            "%(example)s (python manage.py venue prints it)") % {"example": EXAMPLE}
    if not url:
        return _("no public address is set, so the QR codes would open nothing: %(fix)s") % {"fix": fix}
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname or any(c.isspace() for c in url):
        return _("%(url)s is not an address a phone opens: type one starting with http:// or https://, e.g. %(example)s") % {
            "url": url, "example": EXAMPLE}
    if is_loopback_host(parts.hostname):
        return _("%(host)s is the address of the device that opens it: a phone scanning the code would reach itself, "
                 "not this site. %(fix)s") % {"host": parts.hostname, "fix": fix[:1].upper() + fix[1:]}
    return None


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses on its networks (no loopback), the one of its default route
    first; empty when it has none. Sends no packet: connecting a UDP socket only chooses the
    route."""
    found: list[str] = []
    for probe in ("192.0.2.1", "10.255.255.255"):  # TEST-NET-1 and a private address: never contacted
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))
                found.append(s.getsockname()[0])
        except OSError:
            continue
    try:
        found += [str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    except OSError:
        pass
    seen: list[str] = []
    for address in found:
        if address not in seen and not is_loopback_host(address):
            seen.append(address)
    return seen


def suggested_address(port: int = 8000, scheme: str = "http") -> str:
    """The public address to offer for a site served on ``port`` of this machine: its first LAN
    address (:func:`lan_addresses`), else its host name; never a loopback address."""
    addresses = lan_addresses()
    host = addresses[0] if addresses else socket.gethostname()
    default = {"http": 80, "https": 443}.get(scheme)
    return f"{scheme}://{host}{'' if port == default else f':{port}'}/"
