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

from tournament.models import Event

ROOT = Path(__file__).resolve().parents[1]


def _options(**env) -> dict:
    """The default database's OPTIONS as tournament.settings makes them with ``env``."""
    code = "import json; from django.conf import settings; print(json.dumps(settings.DATABASES['default'].get('OPTIONS', {})))"
    environ = {k: v for k, v in os.environ.items() if k != "DATABASE_PREPARED_STATEMENTS"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                          env=environ | {"DJANGO_SETTINGS_MODULE": "tournament.settings"} | env)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_postgresql_prepares_statements_unless_told_not_to_and_sqlite_is_left_alone():
    url = "postgres://dmj:unused@127.0.0.1:5432/dmj"
    assert _options(DATABASE_URL=url) == {"server_side_binding": True, "prepare_threshold": 5}
    assert "prepare_threshold" not in _options(DATABASE_URL=url, DATABASE_PREPARED_STATEMENTS="false")
    assert "prepare_threshold" not in _options(DATABASE_URL="sqlite:///unused.sqlite3")


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
