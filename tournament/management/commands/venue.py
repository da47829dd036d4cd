"""``python manage.py venue``: serve this checkout to the venue's network, the step from the laptop
demo to phones on the venue's Wi-Fi (docs/deploy.md, "From the laptop to the venue").

What it does, in order:

1. chooses the address phones will open: ``--address``, else this machine's address on its
   network and ``--port`` (:func:`tournament.venue.suggested_address`), ``https://`` unless
   ``--http``, and refuses one that a phone cannot open (:func:`tournament.venue.address_problem`:
   empty, not http(s), loopback);
2. for HTTPS (the default: the phones' camera and an offline reload of the table page need a
   secure page), makes the venue's certificate in ``VENUE_TLS_DIR`` (``.venue-tls/`` beside
   ``manage.py``)
   (:func:`tournament.venue.venue_certificate`: an authority made once, which phones install
   from ``/venue-certificate.crt``, and a server certificate for the address's host, made anew
   when the address moves) and prints its SHA-256 fingerprint and the steps a phone needs;
3. turns DEBUG off, allows that host (``ALLOWED_HOSTS``, ``CSRF_TRUSTED_ORIGINS``), sends cookies
   over HTTPS only, and keeps a random ``SECRET_KEY`` in ``.venue-secret-key`` beside
   ``manage.py`` (made once, so logins survive a restart), unless the environment sets them;
4. applies migrations and collects the static files (whitenoise serves them with DEBUG off);
5. sets the public address of ``--event``, or of every event not archived whose address phones
   cannot open or names this machine on another port or scheme
   (:func:`tournament.venue.follows_venue`), to that address, through
   :func:`tournament.event_setup.update_settings` (audited), so every QR code printed from now on
   opens this server; prints each change;
6. while no account may run events (:func:`tournament.venue.needs_first_director`), prints the
   first-director page's address with its one-time code (:func:`tournament.venue.setup_code`);
7. serves with gunicorn on ``--bind`` (default ``0.0.0.0:<port>``: every network of the
   machine), two processes of eight threads, until Ctrl+C.

``--check`` stops before serving and prints what it would serve with, for a dry run.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from tournament.seating import SetupError
from tournament.event_setup import update_settings
from tournament.models import Event
from tournament.venue import (
    CA_CERT,
    address_problem,
    certificate_hosts,
    fingerprint,
    follows_venue,
    needs_first_director,
    own_hosts,
    setup_code,
    suggested_address,
    venue_certificate,
    write_private,
)

KEY_FILE = ".venue-secret-key"


def secret_key(base_dir: Path, say: Callable[[str], object] | None = None) -> str:
    """The secret key the venue server signs sessions with: the environment's ``SECRET_KEY`` when
    it is not the development key, else the one kept in ``base_dir / KEY_FILE``, made at first
    use readable by this user only from its creation (mode 0600,
    :func:`tournament.venue.write_private`). A kept file that other users may read (copied,
    unpacked or made by hand with a wider mode) is made 0600 and ``say`` is told so, with what
    to do about a key that may have been read; CommandError when its mode cannot be changed (a
    file of another user)."""
    given = os.environ.get("SECRET_KEY", "")
    if given and given != settings.DEV_SECRET_KEY:
        return given
    path = base_dir / KEY_FILE
    if not path.exists():
        write_private(path, secrets.token_urlsafe(50).encode())
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        try:
            os.chmod(path, 0o600)
        except OSError as exc:
            raise CommandError(f"{path} may be read by other users (mode {mode:04o}) and cannot be made 0600 "
                               f"({exc.strerror}): make it 0600 with chmod, or delete it for a new key "
                               "(everyone logs in again)") from None
        if say is not None:
            say(f"{path} could be read by other users (mode {mode:04o}): it is now 0600. Whoever read it could sign "
                "logins for this site: delete it and start again for a new key (everyone logs in again).")
    return path.read_text(encoding="utf-8").strip()


def server_environment(address: str, base_dir: Path, say: Callable[[str], object] | None = None) -> dict[str, str]:
    """The environment the venue server runs with: this process's, with DEBUG off, the address's
    host allowed (and the machine's own names, for the director's laptop) and trusted for CSRF,
    and the secret key of :func:`secret_key` (``say``: told when its file had to be made
    private). Values the environment already sets are kept."""
    parts = urlsplit(address)
    origin = f"{parts.scheme}://{parts.netloc}"
    env = dict(os.environ)
    env["DEBUG"] = "0"
    env["SECRET_KEY"] = secret_key(base_dir, say)
    hosts = [parts.hostname or "", "127.0.0.1", "localhost", "[::1]"]
    env.setdefault("ALLOWED_HOSTS", ",".join(h for h in hosts if h))
    env.setdefault("CSRF_TRUSTED_ORIGINS", origin)
    if parts.scheme == "https":  # gunicorn speaks TLS itself: no proxy headers to trust, no HSTS
        env.setdefault("SECURE", "1")  # for a certificate of the laptop's own
        env.setdefault("BEHIND_PROXY", "0")
        env.setdefault("SECURE_HSTS_SECONDS", "0")
    return env


class Command(BaseCommand):
    help = "Serve the site to the venue's network: DEBUG off, this machine's address allowed, events' public address set."

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=8000, help="the port phones open (default 8000)")
        parser.add_argument("--address", default="", help="the address phones open, e.g. https://192.168.1.20:8000/ "
                                                          "(default: this machine's address on its network)")
        parser.add_argument("--http", action="store_true", help="serve plain HTTP (default HTTPS with the venue's own "
                                                                "certificate: phones' cameras and offline reloads need it)")
        parser.add_argument("--bind", default="", help="where gunicorn listens (default 0.0.0.0:<port>)")
        parser.add_argument("--event", action="append", default=[], help="the slug of an event whose public address "
                                                                         "to set (repeatable; default: every event not archived "
                                                                         "whose address phones cannot open or names this "
                                                                         "machine)")
        parser.add_argument("--workers", type=int, default=2)
        parser.add_argument("--threads", type=int, default=8)
        parser.add_argument("--check", action="store_true", help="prepare and print, but do not serve")

    def handle(self, *args, port=8000, address="", http=False, bind="", event=(), workers=2, threads=8, check=False,
               **options):
        address = (address or suggested_address(port, "http" if http else "https")).strip()
        if not address.endswith("/"):
            address += "/"
        problem = address_problem(address)
        if problem:
            raise CommandError(f"--address: {problem}")
        base_dir = Path(settings.BASE_DIR)
        env = server_environment(address, base_dir, say=self.stderr.write)
        tls: list[str] = []
        if urlsplit(address).scheme == "https":
            folder = Path(settings.VENUE_TLS_DIR)
            cert, key, new_authority = venue_certificate(folder, certificate_hosts(address))
            env.setdefault("VENUE_TLS_DIR", str(folder))
            tls = ["--certfile", str(cert), "--keyfile", str(key)]
            self._phone_steps(address, folder, new_authority)
        call_command("migrate", interactive=False, verbosity=0)
        subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=base_dir, env=env,
                       check=True)
        self._follow(address, event)
        bind = bind or f"0.0.0.0:{port}"
        self.stdout.write(f"Phones on the venue's network open {address} (DEBUG off; allowed hosts {env['ALLOWED_HOSTS']}).")
        self.stdout.write(f"Table login: {address}entry/login/ · find my seat: {address}e/<event>/find/")
        if needs_first_director():
            self.stdout.write(f"No director yet: open {address}first-director/?code={setup_code(env['SECRET_KEY'])} "
                              "on this laptop or your phone to create the first director (the code works once).")
        if check:
            self.stdout.write(f"--check: would serve with gunicorn on {bind}, {workers} processes × {threads} threads.")
            return
        self.stdout.write(f"Serving with gunicorn on {bind} until Ctrl+C.")
        command = [sys.executable, "-m", "gunicorn", "tournament.wsgi:application", "--bind", bind,
                   "--workers", str(workers), "--threads", str(threads), "--worker-class", "gthread",
                   "--access-logfile", "-", "--timeout", "60", *tls]
        with contextlib.suppress(KeyboardInterrupt):
            subprocess.run(command, cwd=base_dir, env=env, check=False)

    def _follow(self, address: str, slugs) -> None:
        """Set the public address of the events named (``--event``), else of every event not
        archived that :func:`tournament.venue.follows_venue` says follows this address; print each."""
        if slugs:
            events = list(Event.objects.filter(slug__in=slugs))
            if len(events) != len(set(slugs)):
                known = {e.slug for e in events}
                raise CommandError(f"--event: no event {', '.join(sorted(set(slugs) - known))}")
        else:
            hosts = own_hosts((urlsplit(address).hostname or "",))
            events = [e for e in Event.objects.exclude(status=Event.Status.ARCHIVED).order_by("pk")
                      if follows_venue(e.base_url, address, hosts)]
        for e in events:
            before = e.base_url or "(none)"
            try:
                update_settings(e, base_url=address, actor="manage.py venue")
            except SetupError as exc:  # an archived event keeps its settings
                self.stdout.write(f"{e.name}: public address not changed: {exc.message}")
            else:
                self.stdout.write(f"{e.name}: public address {before} -> {address}: QR codes printed from now on open "
                                  "this server; print again what was printed with the old address.")

    def _phone_steps(self, address: str, folder: Path, new_authority: bool) -> None:
        """Print the venue certificate's fingerprint and what a phone does once to trust it."""
        ca = (folder / CA_CERT).read_bytes()
        self.stdout.write(("New venue certificate" if new_authority else "Venue certificate") +
                          f" ({folder / CA_CERT}), SHA-256 fingerprint:\n  {fingerprint(ca)}")
        self.stdout.write(
            "Each phone, once (docs/deploy.md, \"HTTPS at the venue\"):\n"
            f"  - Android: open {address}venue-certificate.crt in Chrome (accept the warning once) to download it, then "
            "Settings > Security > Encryption & credentials > Install a certificate > CA certificate, and choose it.\n"
            f"  - iPhone: open {address}venue-certificate.crt in Safari, allow the profile, install it in Settings > "
            "General > VPN & Device Management, then switch it on in Settings > General > About > Certificate Trust "
            "Settings.\n"
            "  Without it, a phone may accept the browser's warning on each visit, but an offline reload of the table "
            "page needs the certificate installed.\n"
            "  Check the fingerprint the phone shows against the one above.")
