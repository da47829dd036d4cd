"""``python manage.py import_event FILE.json [--slug NEW]``: restore an exported event."""

from django.core.management.base import BaseCommand, CommandError

from tournament.exchange import ExchangeError, import_event, read_export_file


class Command(BaseCommand):
    help = "Import an event exported with export_event (dmj-event/1)."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--slug", default=None, help="import under another short name")

    def handle(self, *args, file, slug=None, **options):
        try:
            event = import_event(read_export_file(file), slug=slug)
        except (ExchangeError, KeyError) as exc:
            raise CommandError(f"nothing imported: {exc}")
        self.stdout.write(f"imported {event.slug} ({event.name})")
