"""``python manage.py venue``: serve this checkout to the venue's network, the step from the laptop
demo to phones on the venue's Wi-Fi (docs/deploy.md, "From the laptop to the venue").

What it does, in order:

1. chooses the address phones will open: ``--address``, else this machine's address on its
   network and ``--port`` (:func:`tournament.venue.suggested_address`), and refuses one that a
   phone cannot open (:func:`tournament.venue.address_problem`: empty, not http(s), loopback);
2. turns DEBUG off, allows that host (``ALLOWED_HOSTS``, ``CSRF_TRUSTED_ORIGINS``) and keeps a
   random ``SECRET_KEY`` in ``.venue-secret-key`` beside ``manage.py`` (made once, so logins
   survive a restart), unless the environment sets them;
3. applies migrations and collects the static files (whitenoise serves them with DEBUG off);
4. sets the public address of ``--event`` (or of every event whose address a phone cannot open)
   to that address, through :func:`tournament.event_setup.update_settings` (audited), so every
   QR code printed from now on opens this server;
5. serves with gunicorn on ``--bind`` (default ``0.0.0.0:<port>``: every network of the
   machine), two processes of eight threads, until Ctrl+C.

``--check`` stops before serving and prints what it would serve with, for a dry run.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from tournament.seating import SetupError
from tournament.event_setup import update_settings
from tournament.models import Event
from tournament.venue import address_problem, suggested_address

KEY_FILE = ".venue-secret-key"


def secret_key(base_dir: Path) -> str:
    """The secret key the venue server signs sessions with: the environment's ``SECRET_KEY`` when
    it is not the development key, else the one kept in ``base_dir / KEY_FILE`` (made at first
    use, readable by this user only)."""
    given = os.environ.get("SECRET_KEY", "")
    if given and given != settings.DEV_SECRET_KEY:
        return given
    path = base_dir / KEY_FILE
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50), encoding="utf-8")
        path.chmod(0o600)
    return path.read_text(encoding="utf-8").strip()


def server_environment(address: str, base_dir: Path) -> dict[str, str]:
    """The environment the venue server runs with: this process's, with DEBUG off, the address's
    host allowed (and the machine's own names, for the director's laptop) and trusted for CSRF,
    and the secret key of :func:`secret_key`. Values the environment already sets are kept."""
    parts = urlsplit(address)
    origin = f"{parts.scheme}://{parts.netloc}"
    env = dict(os.environ)
    env["DEBUG"] = "0"
    env["SECRET_KEY"] = secret_key(base_dir)
    hosts = [parts.hostname or "", "127.0.0.1", "localhost", "[::1]"]
    env.setdefault("ALLOWED_HOSTS", ",".join(h for h in hosts if h))
    env.setdefault("CSRF_TRUSTED_ORIGINS", origin)
    return env


class Command(BaseCommand):
    help = "Serve the site to the venue's network: DEBUG off, this machine's address allowed, events' public address set."

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=8000, help="the port phones open (default 8000)")
        parser.add_argument("--address", default="", help="the address phones open, e.g. http://192.168.1.20:8000/ "
                                                          "(default: this machine's address on its network)")
        parser.add_argument("--bind", default="", help="where gunicorn listens (default 0.0.0.0:<port>)")
        parser.add_argument("--event", action="append", default=[], help="the slug of an event whose public address "
                                                                         "to set (repeatable; default: every event whose "
                                                                         "address a phone cannot open)")
        parser.add_argument("--workers", type=int, default=2)
        parser.add_argument("--threads", type=int, default=8)
        parser.add_argument("--check", action="store_true", help="prepare and print, but do not serve")

    def handle(self, *args, port=8000, address="", bind="", event=(), workers=2, threads=8, check=False, **options):
        address = (address or suggested_address(port)).strip()
        if not address.endswith("/"):
            address += "/"
        problem = address_problem(address)
        if problem:
            raise CommandError(f"--address: {problem}")
        base_dir = Path(settings.BASE_DIR)
        env = server_environment(address, base_dir)
        call_command("migrate", interactive=False, verbosity=0)
        subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=base_dir, env=env,
                       check=True)
        events = Event.objects.filter(slug__in=event) if event else [
            e for e in Event.objects.all() if address_problem(e.base_url)]
        if event and len(events) != len(set(event)):
            known = set(Event.objects.filter(slug__in=event).values_list("slug", flat=True))
            raise CommandError(f"--event: no event {', '.join(sorted(set(event) - known))}")
        for e in events:
            try:
                update_settings(e, base_url=address, actor="manage.py venue")
            except SetupError as exc:  # an archived event keeps its settings
                self.stdout.write(f"{e.name}: public address not changed: {exc.message}")
            else:
                self.stdout.write(f"{e.name}: public address set to {address}: QR codes printed from now on open this server.")
        bind = bind or f"0.0.0.0:{port}"
        self.stdout.write(f"Phones on the venue's network open {address} (DEBUG off; allowed hosts {env['ALLOWED_HOSTS']}).")
        self.stdout.write(f"Table login: {address}entry/login/ · find my seat: {address}e/<event>/find/")
        if check:
            self.stdout.write(f"--check: would serve with gunicorn on {bind}, {workers} processes × {threads} threads.")
            return
        self.stdout.write(f"Serving with gunicorn on {bind} until Ctrl+C.")
        command = [sys.executable, "-m", "gunicorn", "tournament.wsgi:application", "--bind", bind,
                   "--workers", str(workers), "--threads", str(threads), "--worker-class", "gthread",
                   "--access-logfile", "-", "--timeout", "60"]
        try:
            subprocess.run(command, cwd=base_dir, env=env, check=False)
        except KeyboardInterrupt:
            pass
