from django.db import migrations


def drop_outdated_prints(apps, schema_editor):
    """Wall stickers rendered before they lost the tile (their back showed every tile to the
    table) and score sheets with the replaced 32-bit login codes must never be handed out again:
    their jobs and files go; the director prints them anew."""
    PrintJob = apps.get_model("walls", "PrintJob")
    for job in PrintJob.objects.filter(kind__in=["stickers", "score_sheets"]):
        if job.file:
            job.file.delete(save=False)
        job.delete()


class Migration(migrations.Migration):

    dependencies = [
        ("walls", "0001_initial"),
        ("tournament", "0004_scorer_tables_audit_login_codes"),
    ]

    operations = [migrations.RunPython(drop_outdated_prints, migrations.RunPython.noop)]
