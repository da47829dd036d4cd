"""docs/deploy.md, "Faults": faults. A Celery worker killed in the middle of a print batch: after a restart the
batch completes. The database connection dropped in the middle of a request: nothing is stored
and the caller gets a clear error.

The worker test needs PostgreSQL, a Redis broker and a Celery installation (the services half of
.ci/run). It starts and kills its own worker on a queue of its own, so the worker that .ci/run
started never takes these jobs.
"""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from django.db import OperationalError, connection
from django.test import Client

from scoring.models import HandResult, ResultRevision
from scoring.actions.entry import submit_result
from tournament.models import EventRole
from walls.models import PrintJob

from factories import api_key, first_set, first_table, pin, scorer_of_every_table

ROOT = Path(__file__).resolve().parent.parent
VISIBILITY_TIMEOUT = 2  # seconds before the restarted worker takes back the killed worker's task
BATCH = [  # the slowest first, so the worker is killed while rendering it
    ("stickers", {"session": 1}), ("stickers", {"session": 1, "lang": "ja"}), ("picklist", {"session": 1}),
    ("setup", {"session": 1}), ("labels", {"session": 1}), ("score_sheets", {"session": 1}), ("movement", {"session": 1}),
]


def _database_url() -> str:
    s = connection.settings_dict
    auth = quote(s["USER"]) + (f":{quote(s['PASSWORD'])}" if s["PASSWORD"] else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def _start_worker(queue: str, env: dict, log: Path) -> subprocess.Popen:
    """A real Celery worker (prefork, one process) in a process group of its own."""
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "tournament", "worker", "-Q", queue, "--concurrency", "1",
         "--pool", "prefork", "--without-mingle", "--without-gossip", "--without-heartbeat",
         "--loglevel", "INFO", "-n", f"{queue}-{time.monotonic_ns()}@%h"],
        cwd=ROOT, env=env, stdout=log.open("ab"), stderr=subprocess.STDOUT, start_new_session=True,
    )


def _stop(worker: subprocess.Popen, sig=signal.SIGTERM) -> None:
    if worker.poll() is None:
        os.killpg(worker.pid, sig)
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait(timeout=10)


def _wait_for(predicate, timeout: float, what: str, log: Path):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.02)
    pytest.fail(f"timed out after {timeout:.0f} s waiting for {what}; worker log:\n{log.read_text(errors='replace')[-3000:]}")


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_print_batch_completes_after_its_worker_is_killed_and_restarted(team_event, settings, tmp_path, monkeypatch):
    from tournament.celery import app
    from walls.print_jobs import request_print

    if connection.vendor != "postgresql":
        pytest.skip("the worker process must share the test database: run with DATABASE_URL on PostgreSQL (.ci/run)")
    queue = f"dmj-faults-{os.getpid()}"
    monkeypatch.setitem(app.conf, "task_default_queue", queue)
    settings.MEDIA_ROOT = str(tmp_path / "media")
    env = {**os.environ, "DATABASE_URL": _database_url(), "MEDIA_ROOT": settings.MEDIA_ROOT, "CONN_MAX_AGE": "0",
           "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT)}
    log = tmp_path / "worker.log"

    jobs = [request_print(team_event, kind, params).pk for kind, params in BATCH]
    assert len(set(jobs)) == len(BATCH)

    def statuses():
        return dict(PrintJob.objects.filter(pk__in=jobs).values_list("pk", "status"))

    worker = _start_worker(queue, env, log)
    try:
        running = _wait_for(lambda: [pk for pk, s in statuses().items() if s == PrintJob.Status.RUNNING],
                            60, "the first job to start rendering", log)
    finally:
        _stop(worker, signal.SIGKILL)
    killed = PrintJob.objects.get(pk=running[0])
    assert killed.status == PrintJob.Status.RUNNING and not killed.file  # died mid-render, nothing stored
    assert any(s == PrintJob.Status.PENDING for s in statuses().values())  # the rest of the batch waits

    time.sleep(VISIBILITY_TIMEOUT + 0.5)
    restarted = _start_worker(queue, env, log)
    try:
        _wait_for(lambda: all(s == PrintJob.Status.DONE for s in statuses().values()), 120, "the whole batch", log)
    finally:
        _stop(restarted)
    for job in PrintJob.objects.filter(pk__in=jobs):
        assert job.error == ""
        with job.file.open("rb") as fh:
            assert fh.read(5) == b"%PDF-", job.kind


# The database connection dropped in the middle of a request


def _drop_connection_at_insert_into(table_name: str, seen: list):
    """An execute wrapper: the database connection goes away when the request writes to
    ``table_name``. On PostgreSQL the real connection is closed under Django's feet; an
    in-memory SQLite test database would vanish with its connection, so there the cursor fails
    the way a dropped server connection does."""

    def wrapper(execute, sql, params, many, context):
        verb = sql.lstrip().split(" ", 1)[0].upper()
        seen.append((verb, sql))
        if verb == "INSERT" and f'"{table_name}"' in sql:
            db = context["connection"]
            if db.vendor == "postgresql":
                db.connection.close()
            else:
                raise OperationalError("server closed the connection unexpectedly")
        return execute(sql, params, many, context)

    return wrapper


@pytest.fixture
def scorer_client(team_event):
    user = scorer_of_every_table(team_event, "scorer")
    return Client(raise_request_exception=False, HTTP_AUTHORIZATION=f"Token {api_key(user)}")


def _post_result_while_the_connection_drops(client, event):
    table = first_table(event)
    body = {"table": table.number, "set_no": first_set(table), "changes": {"E": 48, "S": -16, "W": -16, "N": -16}}
    seen = []
    with connection.execute_wrapper(_drop_connection_at_insert_into(ResultRevision._meta.db_table, seen)):
        response = client.post(f"/api/events/{event.slug}/results/", json.dumps(body), content_type="application/json")
    return response, seen


@pytest.mark.django_db(transaction=True)
def test_a_connection_dropped_while_entering_a_result_stores_nothing(team_event, scorer_client):
    response, seen = _post_result_while_the_connection_drops(scorer_client, team_event)
    inserts = [sql for verb, sql in seen if verb == "INSERT"]
    assert any(f'"{HandResult._meta.db_table}"' in sql for sql in inserts)  # the result row was written first...
    assert response.status_code >= 500
    assert not HandResult.objects.exists()  # ...and rolled back with the rest
    assert not ResultRevision.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_connection_dropped_while_correcting_keeps_the_stored_result(team_event, scorer_client):
    table = first_table(team_event)
    result = submit_result(table, first_set(table), changes={"E": 48, "S": -16, "W": -16, "N": -16}, actor="t")
    seen = []
    with connection.execute_wrapper(_drop_connection_at_insert_into(ResultRevision._meta.db_table, seen)):
        response = scorer_client.post(f"/api/events/{team_event.slug}/results/{result.pk}/correct/",
                                      json.dumps({"changes": {"E": 32, "S": -16, "W": -8, "N": -8}, "entered_by_seat": "E",
                                                  "entry_pin": pin(table, "E")}),
                                      content_type="application/json")
    assert any(verb == "UPDATE" for verb, _ in seen)
    assert response.status_code >= 500
    result.refresh_from_db()
    assert result.changes == {"E": 48, "S": -16, "W": -16, "N": -16}
    assert result.revision == 1
    assert list(result.revisions.values_list("action", flat=True)) == ["enter"]


@pytest.mark.django_db(transaction=True)
def test_a_write_without_a_key_met_by_a_fault_claims_nothing_it_cannot_know(team_event, scorer_client, caplog):
    """Without a request key the server cannot tell a write that failed before its commit from one
    that failed after it: the answer says so, and asks the scorer to look first."""
    with caplog.at_level("ERROR", logger="tournament.database"):
        response, _ = _post_result_while_the_connection_drops(scorer_client, team_event)
    assert any("database unavailable during POST /api/events/" in r.getMessage() and r.exc_info for r in caplog.records)
    assert response.status_code == 503
    assert response["Retry-After"]
    assert response.json()["stored"] is None
    assert "whether this was stored is not known" in response.json()["detail"]
    assert "nothing was stored" not in response.json()["detail"]
    assert not HandResult.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_keyed_write_met_by_a_fault_before_its_commit_is_said_not_stored_and_goes_through_when_sent_again(
        team_event, scorer_client):
    table = first_table(team_event)
    body = json.dumps({"table": table.number, "set_no": first_set(table), "changes": {"E": 48, "S": -16, "W": -16, "N": -16}})
    url, key = f"/api/events/{team_event.slug}/results/", "phone-7f3a-0001"
    with connection.execute_wrapper(_drop_connection_at_insert_into(ResultRevision._meta.db_table, [])):
        response = scorer_client.post(url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY=key)
    assert response.status_code == 503 and response["Retry-After"]
    assert response.json()["stored"] is False
    assert response.json()["detail"].startswith("Not stored") and "it is safe" in response.json()["detail"]
    assert not HandResult.objects.exists()  # true when said
    again = scorer_client.post(url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY=key)
    assert again.status_code == 201 and "Idempotent-Replayed" not in again
    assert HandResult.objects.get().revisions.get().request_key == key


@pytest.mark.django_db(transaction=True)
def test_a_keyed_write_met_by_a_fault_after_its_commit_answers_with_the_stored_result(team_event, scorer_client, monkeypatch):
    """The connection is lost once the entry is committed (as when the server answers): the
    answer is the stored result, not "send it again", and a repeat stores nothing more."""
    import scoring.api

    real = scoring.api.submit_result

    def committed_then_lost(*args, **kwargs):
        real(*args, **kwargs)
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(scoring.api, "submit_result", committed_then_lost)
    table = first_table(team_event)
    body = json.dumps({"table": table.number, "set_no": first_set(table), "changes": {"E": 48, "S": -16, "W": -16, "N": -16}})
    url, key = f"/api/events/{team_event.slug}/results/", "phone-7f3a-0002"
    response = scorer_client.post(url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY=key)
    assert response.status_code == 200 and response["Idempotent-Replayed"] == "true"
    stored = HandResult.objects.get()
    assert response.json()["id"] == stored.pk and response.json()["changes"] == stored.changes
    monkeypatch.setattr(scoring.api, "submit_result", real)
    again = scorer_client.post(url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY=key)
    assert again.status_code == 200 and again.json()["id"] == stored.pk
    assert HandResult.objects.count() == 1 and ResultRevision.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_page_whose_connection_drops_answers_503_with_a_page(team_event, django_user_model):
    user = django_user_model.objects.create_user("dir503", password="pw-dir-503")
    EventRole.objects.create(event=team_event, user=user, role=EventRole.Role.DIRECTOR)
    client = Client(raise_request_exception=False)
    client.force_login(user)

    def fail_everything(execute, sql, params, many, context):
        raise OperationalError("server closed the connection unexpectedly")

    with connection.execute_wrapper(fail_everything):
        response = client.get(f"/e/{team_event.slug}/director/")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert "try again" in response.content.decode()
    assert "stored" not in response.content.decode()  # a read stores nothing: it says nothing about storing
