from django.db import migrations, models


def mark_current_tables(apps, schema_editor):
    """The table each event pointed at (``Event.conversion_table``) becomes its ``current`` one."""
    Event = apps.get_model("tournament", "Event")
    ConversionTable = apps.get_model("scoring", "ConversionTable")
    current = Event.objects.exclude(conversion_table=None).values_list("conversion_table_id", flat=True)
    ConversionTable.objects.filter(pk__in=list(current)).update(current=True)


def point_events_at_current_tables(apps, schema_editor):
    Event = apps.get_model("tournament", "Event")
    ConversionTable = apps.get_model("scoring", "ConversionTable")
    for table in ConversionTable.objects.filter(current=True).exclude(event=None):
        Event.objects.filter(pk=table.event_id).update(conversion_table=table)


class Migration(migrations.Migration):
    """The event's current conversion table is marked on the table (scoring) instead of pointed at
    by the event (tournament): the models refer only down the stages (docs/architecture.md).
    tournament 0006 then drops ``Event.conversion_table``."""

    dependencies = [
        ("scoring", "0003_set_release_confirmation_attempts"),
        ("tournament", "0005_unique_pins"),
    ]

    operations = [
        migrations.AddField(
            model_name="conversiontable",
            name="current",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(mark_current_tables, point_events_at_current_tables),
        migrations.AddConstraint(
            model_name="conversiontable",
            constraint=models.UniqueConstraint(condition=models.Q(("current", True)), fields=("event",), name="one_current_conversion_table"),
        ),
    ]
