"""Migrations that move data keep what an event had: a database from before a migration, carried
forward, answers as a new one would."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("scoring", "0003_set_release_confirmation_attempts"), ("tournament", "0005_unique_pins")]
AFTER = [("scoring", "0004_current_conversion_table"), ("tournament", "0006_drop_event_conversion_table")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_the_table_an_event_pointed_at_becomes_its_current_table():
    old = migrate(BEFORE)
    Event = old.get_model("tournament", "Event")
    Table = old.get_model("scoring", "ConversionTable")
    rows = [{"from": 0, "to": None, "points": 0}]
    event = Event.objects.create(slug="old", name="Old", uid="u-old", ruleset_code="mcr-duplicate", ruleset={})
    first = Table.objects.create(event=event, code="wbf-imp", name="WBF", version=1, rows=rows)
    second = Table.objects.create(event=event, code="wbf-imp", name="WBF", version=2, rows=rows)
    Table.objects.create(event=event, code="custom", name="Mine", version=1, rows=rows)
    event.conversion_table = first  # the director went back to version 1: not simply the newest
    event.save()
    bare = Event.objects.create(slug="bare", name="Bare", uid="u-bare", ruleset_code="mcr-duplicate", ruleset={})
    try:
        new = migrate(AFTER)
        Table = new.get_model("scoring", "ConversionTable")
        assert set(Table.objects.filter(current=True).values_list("pk", flat=True)) == {first.pk}
        assert not Table.objects.filter(event_id=bare.pk).exists()
        assert not Table.objects.get(pk=second.pk).current
        assert "conversion_table" not in {f.name for f in new.get_model("tournament", "Event")._meta.get_fields()}
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
