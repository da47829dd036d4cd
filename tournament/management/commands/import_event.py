"""``python manage.py import_event FILE.json [--slug NEW]``: restore an exported event."""

from django.core.management.base import BaseCommand, CommandError

from tournament.exchange import ExchangeError, read_export_file, restore_event


class Command(BaseCommand):
    help = "Import an event exported with export_event (dmj-event/1)."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--slug", default=None, help="import under another short name")

    def handle(self, *args, file, slug=None, **options):
        try:
            restored = restore_event(read_export_file(file), slug=slug)
        except (ExchangeError, KeyError) as exc:
            raise CommandError(f"nothing imported: {exc}") from exc
        event = restored.event
        self.stdout.write(f"imported {event.slug} ({event.name})")
        if restored.ids_kept:
            self.stdout.write("tables and results keep their ids: the addresses phones hold still lead to them")
        elif event.results.exists():
            self.stdout.write("tables and results renumbered (some of their ids are taken in this database, or the export "
                              "has none): a phone's queued "
                              "writes sent to this event's table pages are refused: its players enter them again")
        if restored.keys_restored:
            self.stdout.write(f"request keys restored: {restored.keys_restored} (a write a phone sends again is answered "
                              "as before, not stored twice)")
        if restored.keys_dropped:
            self.stdout.write(f"request keys not restored: {restored.keys_dropped} (this database holds them already: "
                              "another event's writes, which it keeps answering for)")
        for role in restored.roles:
            self.stdout.write(f"role {role['role']} attached to the account {role['username']}")
        for why, roles in (("no account with that username", restored.missing_roles),
                           ("several accounts differ only in the case of that username", restored.ambiguous_roles)):
            for role in roles:
                self.stdout.write(f"role {role['role']} of {role['username']} not attached: {why}; give it by hand "
                                  "on the event's People page")
        for player in restored.missing_players:
            self.stdout.write(f"player {player['player']} not linked to the account {player['username']}: no single "
                              "account with that username; link it by hand in the admin (Players)")
        for invitation in restored.missing_invitations:
            self.stdout.write(f"{invitation['status']} invitation of {invitation['username']} as {invitation['role']} not "
                              "restored: no single account with that username; invite again on the event's People page")
        if not event.master_seed:
            self.stdout.write("this export holds no master seed: the director types it on the reveal page")
