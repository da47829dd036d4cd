"""``python manage.py demo``: migrate, build the demo event end to end, print the standings and
the PDF paths, then serve the site on 127.0.0.1:8000 (unless ``--no-serve``)."""

import secrets

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand

from tournament.demo import build_demo
from tournament.models import EventRole


class Command(BaseCommand):
    help = "Build a real 16-team duplicate MCR demo event end to end and serve the site."

    def add_arguments(self, parser):
        parser.add_argument("--no-serve", action="store_true", help="stop after building the event")
        parser.add_argument("--out", default=None, help="folder for the PDFs (default: media/demo)")
        parser.add_argument("--addrport", default="127.0.0.1:8000")

    def handle(self, *args, no_serve=False, out=None, addrport="127.0.0.1:8000", **options):
        call_command("migrate", interactive=False, verbosity=0)
        self.stdout.write("Building the demo event (16 teams, MCR duplicate, session 1)...")
        report = build_demo(out_dir=out)
        event = report.event
        password = secrets.token_urlsafe(9)
        user, _ = get_user_model().objects.get_or_create(username="director", defaults={"is_staff": True})
        user.is_staff = True
        user.set_password(password)
        user.save()
        EventRole.objects.get_or_create(event=event, user=user, role=EventRole.Role.DIRECTOR)
        self.stdout.write(f"\n{event.name} — master-seed commitment {event.commitment}")
        self.stdout.write(f"{report.hands} hands entered and confirmed.\n")
        self.stdout.write(f"{'Rank':>4}  {'Team':<24} {'MP':>6} {'Score':>7} {'Sets':>5}")
        for row in report.standings:
            rank = f"{row['rank']}{'=' if row['tied'] else ''}" if row["rank"] else "-"
            note = "  substitute, not ranked" if row["substitute"] else ""
            if row["sit_out_sets"]:
                note += f"  includes {row['sit_out_points']:+} for {row['sit_out_sets']} sets sat out"
            self.stdout.write(f"{rank:>4}  {row['name']:<24} {row['points']:>6} {row['score_total']:>7} {row['sets_played']:>5}{note}")
        self.stdout.write("\nPDFs:")
        for path in report.pdfs:
            self.stdout.write(f"  {path}")
        self.stdout.write(f"Their QR codes open {event.base_url} (the event's public address): phones on this network "
                          f"reach it once `python manage.py venue` serves the site there.")
        self.stdout.write(f"\nDirector login: director / {password}")
        if no_serve:
            return
        self.stdout.write(f"Serving on http://{addrport}/ (public standings: http://{addrport}/e/{event.slug}/standings/)")
        call_command("runserver", addrport, use_reloader=False)
