"""Concurrent scorers on the embedded default (SQLite): gunicorn with several processes and
threads, every scorer entering and confirming at once. SQLite allows one writer at a time;
tournament/settings.py makes each transaction take the write lock when it begins (IMMEDIATE)
and wait for it, so no entry is refused with "database is locked" and nothing is lost.

Runs in a subprocess with its own database file, since the test process's database is an
in-memory one that other processes cannot open.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = r"""
import json, os, sys
from pathlib import Path
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from tests.perf import loadtest as lt
event, plans = lt.build_event(scorers=int(sys.argv[1]), sessions=1)
m, _cpu = lt.serve_and_run(event.slug, plans, duration=float(sys.argv[2]), workers=3, threads=4, log=Path(sys.argv[3]))
stored, confirmed = lt.count_stored(event)
print(json.dumps({"requests": len(m.latencies), "errors": m.errors, "samples": m.error_samples,
                  "accepted": m.accepted, "stored": stored, "confirmed": m.confirmed, "stored_confirmed": confirmed}))
"""


def test_sixteen_scorers_at_once_on_sqlite_are_all_stored_without_a_refusal(tmp_path):
    from django.db import connection

    if connection.vendor != "sqlite":
        pytest.skip("this run is on PostgreSQL: tests/test_entry_concurrency.py covers it")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tournament.settings",
           "DATABASE_URL": f"sqlite:///{tmp_path / 'event.sqlite3'}", "MEDIA_ROOT": str(tmp_path / "media")}
    env.pop("CELERY_BROKER_URL", None)
    log = tmp_path / "gunicorn.log"
    done = subprocess.run([sys.executable, "-c", SCRIPT, "16", "6", str(log)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["requests"] >= 32, figures  # every scorer got through at least one hand
    assert figures["errors"] == 0, (figures["samples"], log.read_text()[-2000:])
    assert figures["stored"] == figures["accepted"] > 0
    assert figures["stored_confirmed"] == figures["confirmed"] > 0
