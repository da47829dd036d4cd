"""The database settings production runs with (tournament/settings.py, docs/deploy.md): on
PostgreSQL a statement sent again on a connection is planned once (psycopg's prepared
statements over server-side binding), unless ``DATABASE_PREPARED_STATEMENTS`` turns it off for a
connection pooler that cannot keep them. The whole suite runs with it on PostgreSQL (.ci/run's
services half), which is what shows every query of the application works with server-side
binding; these tests show the setting is what it says."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection
from django.db.models.sql.constants import GET_ITERATOR_CHUNK_SIZE

from tournament.models import Event

ROOT = Path(__file__).resolve().parents[1]


def _database(**env) -> tuple[str, dict]:
    """The default database's ENGINE and OPTIONS as tournament.settings makes them with ``env``
    (``DATABASE_PREPARED_STATEMENTS`` true unless given, whatever this shell or a .env says)."""
    code = ("import json; from django.conf import settings; d = settings.DATABASES['default']; "
            "print(json.dumps([d['ENGINE'], d.get('OPTIONS', {})]))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                          env=os.environ | {"DJANGO_SETTINGS_MODULE": "tournament.settings",
                                            "DATABASE_PREPARED_STATEMENTS": "true"} | env)
    engine, options = json.loads(done.stdout.strip().splitlines()[-1])
    return engine, options


def test_postgresql_prepares_statements_unless_told_not_to_and_other_databases_are_left_alone():
    url = "postgres://dmj:unused@127.0.0.1:5432/dmj"
    assert _database(DATABASE_URL=url) == ("tournament.db_backend", {"server_side_binding": True, "prepare_threshold": 5})
    assert _database(DATABASE_URL=url, DATABASE_PREPARED_STATEMENTS="false") == ("django.db.backends.postgresql", {})
    assert _database(DATABASE_URL="sqlite:///unused.sqlite3")[0] == "django.db.backends.sqlite3"
    assert _database(DATABASE_URL="mysql://dmj:unused@127.0.0.1:3306/dmj") == ("django.db.backends.mysql", {})


@pytest.mark.django_db
def test_a_statement_sent_again_is_planned_once_on_postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's: run with DATABASE_URL on PostgreSQL (.ci/run)")
    if connection.settings_dict["OPTIONS"].get("prepare_threshold") is None:
        pytest.skip("DATABASE_PREPARED_STATEMENTS is off in this environment")

    def prepared() -> int:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s", ['%"tournament_event"%'])
            return cursor.fetchone()[0]

    before = prepared()
    for _ in range(6):  # the fifth time it is sent, psycopg prepares it (a query no other test sends)
        assert not list(Event.objects.filter(slug__startswith="no-such-", name__endswith="-prepared").values_list("uid"))
    assert prepared() == before + 1


@pytest.mark.django_db
def test_an_event_of_more_results_than_a_statement_takes_values_is_deleted_in_batches(director, monkeypatch):
    """Values bound on the server count against PostgreSQL's 65,535 a statement; Django's deletion
    collector reads the rows referring to an event's results with one IN list of them all. Here
    the limit is lowered to 40 so a small event crosses it: no statement of the deletion binds
    more than Django's own chunk of rows deleted at once (100), where the collector's list held
    every result (128) and the converted scores each by id (Event.delete removes those first), and
    the event, its results and their history are gone."""
    if not getattr(connection.features, "uses_server_side_binding", False):
        pytest.skip("values bound on the server are PostgreSQL's: run with DATABASE_URL on PostgreSQL (.ci/run)")
    import random

    from factories import play_slots, prepared_event

    from scoring.models import HandResult, ResultRevision
    from tournament.db_backend import base

    roster = "team,player\n" + "".join(f"Team {t},{t}{m}\n" for t in "ABCDEFGH" for m in range(4))
    event = prepared_event(roster, name="Many results", slug="many-results", conversion="mcr-mp", director=director)
    play_slots(event, random.Random(3), slots=range(4))
    results = HandResult.objects.filter(event=event).count()
    assert results > GET_ITERATOR_CHUNK_SIZE, "the event must hold more results than Django deletes at once"
    monkeypatch.setattr(base, "MAX_PARAMETERS", 40)
    widest = []

    def count(execute, sql, params, many, context):
        widest.append(len(params or ()))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        event.delete()  # as the director's deletion (tournament.event_setup), the demo and the admin do
    assert max(widest) <= GET_ITERATOR_CHUNK_SIZE
    assert not Event.objects.filter(pk=event.pk).exists()
    assert not HandResult.objects.filter(event_id=event.pk).exists() and not ResultRevision.objects.filter(
        result__event_id=event.pk).exists()
