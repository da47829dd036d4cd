"""``python manage.py backup_events DIR [--keep-hours 48]``: the backup every 15 minutes of
docs/deploy.md, "Backups" (deploy/systemd/dmj-backup.timer, or a cron line on a laptop).

Writes, in ``DIR`` (made readable by this user only when missing):

- ``event-<slug>-<UTC time>.json`` for every event not archived: its complete export with the
  master seed (:func:`tournament.exchange.export_event`, read from one snapshot), the file
  ``import_event`` restores;
- ``accounts-<UTC time>.json``: the accounts (``dumpdata`` of the user model and the groups, with
  their password hashes), which ``loaddata`` puts back into a fresh database before the import,
  so the event's roles, invitations and player links find their accounts.

Each file is created readable by this user only (mode 0600, :func:`tournament.venue.write_private`:
the seed, the PINs and the password hashes are in them) and appears whole or not at all (written
beside, then renamed). Then every backup of this kind older than ``--keep-hours`` is deleted,
except the newest of each event and of the accounts, so a backup that stops (an event archived,
the timer stopped) keeps its last file. Other files in ``DIR`` are never touched.
"""

from __future__ import annotations

import io
import json
import os
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from tournament.exchange import export_event
from tournament.models import Event
from tournament.venue import write_private

STAMP = "%Y%m%dT%H%M%SZ"
BACKUP_NAME = re.compile(r"(?P<kind>event-.+|accounts)-(?P<stamp>\d{8}T\d{6}Z)\.json")
"""The files this command writes (and the only ones it deletes): ``event-<slug>-<time>.json``
and ``accounts-<time>.json``, the time in UTC."""


def expired(names: list[str], now: datetime, keep: timedelta) -> list[str]:
    """The backups among ``names`` (file names in the backup folder) to delete at ``now``: those
    of :data:`BACKUP_NAME` older than ``keep``, but never the newest of each kind (an event's
    slug, or the accounts). Other names are never listed."""
    kinds: dict[str, list[tuple[datetime, str]]] = {}
    for name in names:
        match = BACKUP_NAME.fullmatch(name)
        if match:
            at = datetime.strptime(match["stamp"], STAMP).replace(tzinfo=UTC)
            kinds.setdefault(match["kind"], []).append((at, name))
    old: list[str] = []
    for files in kinds.values():
        files.sort()
        old.extend(name for at, name in files[:-1] if now - at > keep)
    return sorted(old)


class Command(BaseCommand):
    help = ("Back up every event not archived (its complete export with the master seed) and the accounts into DIR, "
            "one dated file each, readable by this user only; delete the backups older than --keep-hours but the "
            "newest of each.")

    def add_arguments(self, parser):
        parser.add_argument("folder", help="the backup folder (made, readable by this user only, when missing)")
        parser.add_argument("--keep-hours", type=float, default=48.0,
                            help="delete this command's backups older than this, keeping the newest of each (default 48)")

    def handle(self, *args, folder, keep_hours=48.0, **options):
        if keep_hours < 0:
            raise CommandError("--keep-hours: give 0 or more hours")
        where = Path(folder)
        where.mkdir(mode=0o700, parents=True, exist_ok=True)
        now = timezone.now()
        stamp = now.astimezone(UTC).strftime(STAMP)
        failed = []
        for event in Event.objects.exclude(status=Event.Status.ARCHIVED).order_by("slug"):
            path = where / f"event-{event.slug}-{stamp}.json"
            try:
                data = export_event(event, include_secret=True)
            except Exception as exc:  # one event's failure must not cost the others their backup  # noqa: BLE001
                failed.append(f"{event.slug}: {exc}")
                continue
            write_private(path, json.dumps(data, ensure_ascii=False, indent=1).encode())
            self.stdout.write(f"wrote {path}")
        accounts = io.StringIO()
        call_command("dumpdata", "auth.group", get_user_model()._meta.label, natural_foreign=True, indent=1, stdout=accounts)
        path = where / f"accounts-{stamp}.json"
        write_private(path, accounts.getvalue().encode())
        self.stdout.write(f"wrote {path}")
        old = expired(os.listdir(where), now, timedelta(hours=keep_hours))
        for name in old:
            (where / name).unlink(missing_ok=True)
        if old:
            self.stdout.write(f"deleted {len(old)} backups older than {keep_hours:g} hours")
        if failed:
            raise CommandError("not backed up: " + "; ".join(failed))
