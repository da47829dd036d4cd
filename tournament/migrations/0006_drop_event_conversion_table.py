from django.db import migrations


class Migration(migrations.Migration):
    """``Event.conversion_table`` goes: scoring 0004 marked the same table ``current``."""

    dependencies = [
        ("tournament", "0005_unique_pins"),
        ("scoring", "0004_current_conversion_table"),
    ]

    operations = [
        migrations.RemoveField(model_name="event", name="conversion_table"),
    ]
