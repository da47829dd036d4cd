"""``python manage.py export_event <slug> --output FILE.json``: the event as ``dmj-event/1`` JSON."""

import json

from django.core.management.base import BaseCommand, CommandError

from tournament.exchange import export_event
from tournament.models import Event


class Command(BaseCommand):
    help = "Export an event (rule set, commitment, walls, seating, results, scores, standings) as JSON."

    def add_arguments(self, parser):
        parser.add_argument("event", help="the event's short name (slug)")
        parser.add_argument("--output", "-o", required=True, help="file to write ('-' for standard output)")
        parser.add_argument("--include-secret", action="store_true", help="include the master seed (full backup)")

    def handle(self, *args, event, output, include_secret=False, **options):
        try:
            obj = Event.objects.get(slug=event)
        except Event.DoesNotExist:
            raise CommandError(f"event: no event called {event!r}; known: {', '.join(Event.objects.values_list('slug', flat=True)) or 'none'}") from None
        text = json.dumps(export_event(obj, include_secret=include_secret), ensure_ascii=False, indent=1)
        if output == "-":
            self.stdout.write(text)
        else:
            with open(output, "w", encoding="utf-8") as fh:
                fh.write(text)
            self.stdout.write(f"wrote {output}")
