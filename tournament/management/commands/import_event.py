"""``python manage.py import_event FILE.json [--slug NEW]``: restore an exported event."""

import json

from django.core.management.base import BaseCommand, CommandError

from tournament.exchange import ExchangeError, import_event


class Command(BaseCommand):
    help = "Import an event exported with export_event (dmj-event/1)."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--slug", default=None, help="import under another short name")

    def handle(self, *args, file, slug=None, **options):
        try:
            with open(file, encoding="utf-8") as fh:
                data = json.load(fh)
        except (OSError, json.JSONDecodeError) as exc:
            raise CommandError(f"file: cannot read {file}: {exc}")
        try:
            event = import_event(data, slug=slug)
        except (ExchangeError, KeyError) as exc:
            raise CommandError(f"nothing imported: {exc}")
        self.stdout.write(f"imported {event.slug} ({event.name})")
