from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournament', '0017_event_tile_size'),
    ]

    operations = [
        migrations.AddField(
            model_name='event',
            name='fixed_counters',
            field=models.JSONField(blank=True, default=dict, help_text="{'<session>-<set>': {'honba': n, 'riichi': n}}: what lies on every table of a set before its hand; a set not listed starts at 0 (scoring.payments.counters).", verbose_name='honba and riichi sticks fixed per set'),
        ),
    ]
