"""``python manage.py verify_walls EXPORT.json --seed HEX``: re-derive every wall of an export."""

from django.core.management.base import BaseCommand, CommandError

from tournament.exchange import read_export_file
from walls.verify import verify_export


class Command(BaseCommand):
    help = "Re-derive every wall of an exported event from the revealed master seed and report mismatches."

    def add_arguments(self, parser):
        parser.add_argument("export", help="an export_event JSON file")
        parser.add_argument("--seed", required=True, help="the revealed master seed (64 hex digits)")

    def handle(self, *args, export, seed, **options):
        try:
            report = verify_export(read_export_file(export, "export"), seed)
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"commitment {'matches' if report.commitment_ok else 'DOES NOT MATCH'} the seed")
        for m in report.mismatches:
            self.stdout.write(f"MISMATCH {m}")
        reserves = f" and {report.reserves_checked} reserve walls" if report.reserves_checked else ""
        self.stdout.write(f"{report.checked} wall sets{reserves} checked, {len(report.mismatches)} mismatches")
        if not report.ok:
            raise CommandError("verification failed")
