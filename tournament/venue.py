"""The event's public address: the address the players' and scorers' phones open, which every
printed QR code links to (docs/deploy.md, "From the laptop to the venue").

A laptop that serves the site on the venue's Wi-Fi is reached by its address on that network
(``http://192.168.1.20:8000/``), never by ``127.0.0.1`` or ``localhost``: those name the device
that opens them, so a phone scanning a code that holds one reaches itself. :func:`address_problem`
says what is wrong with an address, :func:`lan_addresses` finds this machine's addresses on its
networks, :func:`suggested_address` the one to offer, :func:`follows_venue` whether an event's
address should move with the venue's (a new port).

Also the rest of the step from the laptop to the venue (``manage.py venue``): the venue's own
HTTPS certificate (:func:`venue_certificate`: an authority phones install once, and a server
certificate for the address's host, made with the ``cryptography`` library, keys written 0600),
and the first director of a fresh install (:func:`needs_first_director`, the one-time
:func:`setup_code`, :func:`create_first_director`; docs/security.md, "The first director").

Plain functions over strings, files and the machine's network interfaces (no request); only the
first director's functions read and write accounts.
"""

from __future__ import annotations

import base64
import contextlib
import datetime
import hashlib
import ipaddress
import os
import socket
from pathlib import Path
from urllib.parse import urlsplit

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import Q
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _

from tournament.models import EventRole

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
    with contextlib.suppress(OSError):
        found += [str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
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


# --- following the venue address ---------------------------------------------------------------


def own_hosts(extra: tuple[str, ...] = ()) -> set[str]:
    """The host names and addresses that name this machine: its LAN addresses
    (:func:`lan_addresses`), its host name (and ``<name>.local``), and ``extra`` (lower case)."""
    name = socket.gethostname().lower()
    return {h.lower().strip("[]") for h in (*lan_addresses(), name, f"{name}.local", *extra) if h}


def follows_venue(url: str, address: str, hosts: set[str]) -> bool:
    """Whether an event whose public address is ``url`` should take the venue's new ``address``:
    its address differs from ``address`` and either phones cannot open it (:func:`address_problem`)
    or its host is this machine (one of ``hosts``, or a loopback name), so a code printed with it
    would open this machine on an old port or scheme. An address on another host (a public site)
    is kept."""
    url = (url or "").strip()
    if url.rstrip("/") == address.strip().rstrip("/"):
        return False
    if address_problem(url):
        return True
    host = (urlsplit(url).hostname or "").lower()
    return host in hosts or is_loopback_host(host)


# --- HTTPS: the venue's own certificate ---------------------------------------------------------

CA_CERT, CA_KEY, CERT, KEY = "venue-ca.crt", "venue-ca.key", "venue.crt", "venue.key"
CA_DAYS = 825  # the longest a phone (iOS) trusts a certificate; the venue's authority, installed once
CERT_DAYS = 365
RENEW_DAYS = 30  # a certificate ending sooner is made anew


def write_private(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` readable by this user only: created with mode 0600 (never
    readable by others, even for an instant: a file left beside it by a write that was cut
    short, whatever its mode, is removed and a new one made), replaced whole."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.unlink(missing_ok=True)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(data)
    os.chmod(tmp, 0o600)  # an old file of that name kept its mode
    os.replace(tmp, path)


def certificate_hosts(address: str) -> list[str]:
    """The names a venue certificate for ``address`` covers: the address's host (an IP address or
    a DNS name), and ``localhost`` and ``127.0.0.1`` for the director's laptop itself."""
    host = (urlsplit(address).hostname or "").lower()
    return list(dict.fromkeys(h for h in (host, "localhost", "127.0.0.1") if h))


def _names(hosts):
    return [x509.IPAddress(ip) if (ip := _host_ip(h)) is not None else x509.DNSName(h) for h in hosts]


def _key_pem(key) -> bytes:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())


def make_authority(name: str, now=None) -> tuple[bytes, bytes]:
    """A new certificate authority for one venue laptop, as PEM (certificate, private key): the
    certificate phones install once (:data:`CA_DAYS` days); it signs the server's certificates
    and nothing else (path length 0). ``name`` goes into its common name."""
    now = now or datetime.datetime.now(datetime.UTC)
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, f"Duplicate mahjong venue {name}"[:64])])
    cert = (x509.CertificateBuilder().subject_name(subject).issuer_name(subject).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(hours=1))
            .not_valid_after(now + datetime.timedelta(days=CA_DAYS))
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(x509.KeyUsage(digital_signature=False, content_commitment=False, key_encipherment=False,
                                         data_encipherment=False, key_agreement=False, key_cert_sign=True, crl_sign=True,
                                         encipher_only=False, decipher_only=False), critical=True)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
            .sign(key, hashes.SHA256()))
    return cert.public_bytes(serialization.Encoding.PEM), _key_pem(key)


def make_certificate(hosts: list[str], ca_cert: bytes, ca_key: bytes, now=None) -> tuple[bytes, bytes]:
    """The server's certificate for ``hosts`` (IP addresses as IP names, others as DNS names),
    signed by the authority ``ca_cert``/``ca_key`` (PEM), as PEM (the certificate followed by
    the authority's, the chain gunicorn sends; the private key)."""
    if not hosts:
        raise ValueError("a certificate needs at least one host")
    now = now or datetime.datetime.now(datetime.UTC)
    authority = x509.load_pem_x509_certificate(ca_cert)
    signer = serialization.load_pem_private_key(ca_key, password=None)
    issuer_key = authority.public_key()
    if not isinstance(signer, ec.EllipticCurvePrivateKey) or not isinstance(issuer_key, ec.EllipticCurvePublicKey):
        raise ValueError("the venue authority's key is not the elliptic-curve key make_authority makes")
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, hosts[0][:64])]))
            .issuer_name(authority.subject).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(hours=1))
            .not_valid_after(min(now + datetime.timedelta(days=CERT_DAYS), authority.not_valid_after_utc))
            .add_extension(x509.SubjectAlternativeName(_names(hosts)), critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                                         data_encipherment=False, key_agreement=False, key_cert_sign=False, crl_sign=False,
                                         encipher_only=False, decipher_only=False), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_key), critical=False)
            .sign(signer, hashes.SHA256()))
    return cert.public_bytes(serialization.Encoding.PEM) + ca_cert, _key_pem(key)


def covers(cert_pem: bytes, hosts: list[str], now=None, days: int = RENEW_DAYS) -> bool:
    """Whether the certificate ``cert_pem`` (its first certificate) names every one of ``hosts``
    and stays valid for ``days`` more days."""
    now = now or datetime.datetime.now(datetime.UTC)
    try:
        cert = x509.load_pem_x509_certificate(cert_pem)
        names = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except (ValueError, x509.ExtensionNotFound):
        return False
    have = {str(n).lower() for n in names.get_values_for_type(x509.IPAddress)} | {
        n.lower() for n in names.get_values_for_type(x509.DNSName)}
    wanted = {str(ip) if (ip := _host_ip(h)) is not None else h.lower() for h in hosts}
    return wanted <= have and cert.not_valid_after_utc > now + datetime.timedelta(days=days)


def fingerprint(cert_pem: bytes) -> str:
    """The SHA-256 fingerprint of the certificate ``cert_pem`` as a phone shows it (``AB:CD:...``)."""
    return x509.load_pem_x509_certificate(cert_pem).fingerprint(hashes.SHA256()).hex(":").upper()


def spki_sha256(cert_pem: bytes) -> str:
    """The base64 SHA-256 of the certificate's public key (SubjectPublicKeyInfo): the pin a browser
    takes (Chromium's ``--ignore-certificate-errors-spki-list``)."""
    spki = x509.load_pem_x509_certificate(cert_pem).public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    return base64.b64encode(hashlib.sha256(spki).digest()).decode()


def venue_certificate(folder: Path | str, hosts: list[str]) -> tuple[Path, Path, bool]:
    """The venue's certificate for ``hosts`` in ``folder`` (``settings.VENUE_TLS_DIR``, made 0700): the
    authority (:func:`make_authority`, made once and kept, so a phone installs it once) and the
    server certificate it signs (:func:`make_certificate`), made anew only when it no longer
    covers ``hosts`` (:func:`covers`: the address moved, or it ends within :data:`RENEW_DAYS`).
    Keys are written readable by this user only (:func:`write_private`). Returns the paths of the
    certificate (with its chain) and key, and whether the authority is new."""
    folder = Path(folder)
    folder.mkdir(mode=0o700, exist_ok=True)
    os.chmod(folder, 0o700)
    ca_cert, ca_key, cert, key = (folder / n for n in (CA_CERT, CA_KEY, CERT, KEY))
    new_authority = not (ca_cert.exists() and ca_key.exists() and covers_authority(ca_cert.read_bytes()))
    if new_authority:
        pem, private = make_authority(hosts[0] if hosts else socket.gethostname())
        write_private(ca_key, private)
        ca_cert.write_bytes(pem)
    if new_authority or not (cert.exists() and key.exists() and covers(cert.read_bytes(), hosts)):
        pem, private = make_certificate(hosts, ca_cert.read_bytes(), ca_key.read_bytes())
        write_private(key, private)
        cert.write_bytes(pem)
    return cert, key, new_authority


def covers_authority(ca_pem: bytes, now=None) -> bool:
    """Whether the venue's authority ``ca_pem`` (PEM) is readable and stays valid for
    :data:`RENEW_DAYS` more days, so it may sign the server's certificate."""
    now = now or datetime.datetime.now(datetime.UTC)
    try:
        cert = x509.load_pem_x509_certificate(ca_pem)
    except ValueError:
        return False
    return cert.not_valid_after_utc > now + datetime.timedelta(days=RENEW_DAYS)


# --- the first director -------------------------------------------------------------------------

SETUP_SALT = "tournament.venue.first-director"


def setup_code(secret: str) -> str:
    """The one-time code that opens the first-director page of a site signing with ``secret`` (its
    ``SECRET_KEY``): 12 hexadecimal digits in groups of four, printed by ``manage.py venue`` on
    the laptop's terminal. Whoever can read the code can read the key itself."""
    digits = salted_hmac(SETUP_SALT, "first director", secret=secret, algorithm="sha256").hexdigest()[:12]
    return "-".join(digits[i:i + 4] for i in range(0, 12, 4))


def setup_code_matches(typed: str, secret: str) -> bool:
    """Whether ``typed`` is :func:`setup_code` of ``secret`` (spaces, dashes and case ignored;
    compared in constant time)."""
    clean = "".join(c for c in (typed or "").lower() if c.isalnum())
    return constant_time_compare(clean, setup_code(secret).replace("-", ""))


def directors():
    """The active accounts that may run events: superusers, organisers (staff status, who create
    events) and every event's directors."""
    return get_user_model().objects.filter(is_active=True).filter(
        Q(is_superuser=True) | Q(is_staff=True) | Q(event_roles__role=EventRole.Role.DIRECTOR))


def needs_first_director() -> bool:
    """Whether the site has no account that may run events yet (:func:`directors`): the first-run
    page is open only then. One query."""
    return not directors().exists()


class FirstDirectorTaken(Exception):
    """Another request created a director first: the first-run page is closed."""


def create_first_director(form):
    """Save the account of ``form`` (a valid ``UserCreationForm``) as the site's first director:
    a superuser (every event's director, and the site administrator at ``/admin/``). Re-checks
    under a lock in one transaction that no director exists (SQLite's write lock, taken when the
    transaction begins; PostgreSQL's transaction-level advisory lock), so two requests at once
    create one director. Raises :class:`FirstDirectorTaken` when one exists."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", [0x46495253])  # "FIRS"
        if not needs_first_director():
            raise FirstDirectorTaken()
        user = form.save(commit=False)
        user.is_staff = user.is_superuser = True
        user.save()
    return user
