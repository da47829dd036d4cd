import secrets

from django.db import migrations


def reissue_shared_pins(apps, schema_editor):
    """Players of one event who share a PIN get new ones (all but the first of each PIN): at one
    table, a shared PIN let one player confirm as another."""
    Player = apps.get_model("tournament", "Player")
    seen: dict[int, set[str]] = {}
    for player in Player.objects.order_by("event_id", "number"):
        taken = seen.setdefault(player.event_id, set())
        if player.pin in taken:
            while player.pin in taken:
                player.pin = f"{secrets.randbelow(10000):04d}"
            player.save(update_fields=["pin"])
        taken.add(player.pin)


class Migration(migrations.Migration):

    dependencies = [("tournament", "0004_scorer_tables_audit_login_codes")]

    operations = [migrations.RunPython(reissue_shared_pins, migrations.RunPython.noop)]
