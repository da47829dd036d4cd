"""Sheet languages as the site spells its languages: a Chinese event's ``sheet_language`` "zh"
becomes "zh-hans" (walls/printing/i18n.py, ``LANGS``)."""

from django.db import migrations


def forwards(apps, schema_editor):
    apps.get_model("tournament", "Event").objects.filter(sheet_language="zh").update(sheet_language="zh-hans")


def backwards(apps, schema_editor):
    apps.get_model("tournament", "Event").objects.filter(sheet_language="zh-hans").update(sheet_language="zh")


class Migration(migrations.Migration):
    dependencies = [("tournament", "0011_tokens_apitoken")]
    operations = [migrations.RunPython(forwards, backwards)]
