"""A result's wall flag is kept apart from its outcome (docs/security.md, "The wall check"): the
flags of check ``wall`` stored in ``outcome["flags"]`` move to ``HandResult.wall_flag``, and are
taken out of every revision's outcome, which a table's page shows."""

from django.db import migrations, models


def _split(outcome):
    """``(outcome without wall flags, the wall flags)``."""
    if not isinstance(outcome, dict) or not outcome.get("flags"):
        return outcome, []
    wall = [f for f in outcome["flags"] if isinstance(f, dict) and f.get("check") == "wall"]
    if not wall:
        return outcome, []
    kept = [f for f in outcome["flags"] if f not in wall]
    rest = {k: v for k, v in outcome.items() if k != "flags"}
    return ({**rest, "flags": kept} if kept else rest), wall


def move_wall_flags(apps, schema_editor):
    HandResult = apps.get_model("scoring", "HandResult")
    ResultRevision = apps.get_model("scoring", "ResultRevision")
    for result in HandResult.objects.filter(outcome__has_key="flags").iterator():
        outcome, wall = _split(result.outcome)
        if wall:
            problems = [p for flag in wall for p in (flag.get("problems") or [{"check": "hand", "message": flag.get("message", "")}])]
            HandResult.objects.filter(pk=result.pk).update(outcome=outcome, wall_flag={"problems": problems})
    for revision in ResultRevision.objects.filter(outcome__has_key="flags").iterator():
        outcome, wall = _split(revision.outcome)
        if wall:
            ResultRevision.objects.filter(pk=revision.pk).update(outcome=outcome)


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0007_revision_request_key'),
    ]

    operations = [
        migrations.AddField(
            model_name='handresult',
            name='wall_flag',
            field=models.JSONField(blank=True, default=None, null=True),
        ),
        migrations.RunPython(move_wall_flags, migrations.RunPython.noop),
    ]
