from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('walls', '0003_reservewall'),
    ]

    operations = [
        migrations.AddField(
            model_name='wallset',
            name='par',
            field=models.JSONField(blank=True, help_text='The solo par of each seat (scoring.par.SetPar.as_dict()), computed the first time a page that may show it asks (scoring.reports.analysis); None until then. As secret as the piles.', null=True),
        ),
    ]
