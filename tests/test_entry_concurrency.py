"""Simultaneous writes at result entry, with real threads against PostgreSQL: two entries for the
same table and set store exactly one and the other gets a conflict naming it; a confirmation
racing a correction never confirms values nobody saw; the last confirmations of a set, given at
once, still score it.

These need PostgreSQL (row locks, a unique index that makes the second insert wait). CI's second
half runs the whole suite with ``DATABASE_URL=postgres://...``, where they run directly. On the
embedded default (SQLite) ``test_runs_against_the_local_postgresql`` runs this module again in a
child pytest against the local PostgreSQL at 127.0.0.1:5432 (its own throw-away database), or
skips with a message when that is not reachable.
"""

import os
import re
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from django.db import connection, connections, transaction

from scoring.models import HandResult, ResultRevision, SetScore
from scoring.actions.confirmation import confirm_result, correct_result
from scoring.actions.entry import submit_result
from scoring.actions.errors import ResultError
from tournament.models import Table

from factories import first_set, pin, sets_through

LOCAL_POSTGRESQL = ("127.0.0.1", 5432)
ROOT = Path(__file__).resolve().parent.parent
WAIT = 1.0  # seconds a blocked thread is given to show that it waits for a lock
needs_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs PostgreSQL: run by test_runs_against_the_local_postgresql, or with DATABASE_URL=postgres://...",
)


def _reachable(address) -> bool:
    try:
        socket.create_connection(address, timeout=2).close()
    except OSError:
        return False
    return True


def test_runs_against_the_local_postgresql():
    if connection.vendor == "postgresql":
        pytest.skip("this run is on PostgreSQL: the tests of this module run directly")
    if not _reachable(LOCAL_POSTGRESQL):
        pytest.skip("PostgreSQL is not reachable at 127.0.0.1:5432: the concurrent-entry tests need it "
                    "(CI runs them with DATABASE_URL=postgres://postgres@127.0.0.1:5432/dmj_ci)")
    env = {**os.environ, "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/dmj_entry_race_{os.getpid()}"}
    child = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(Path(__file__).relative_to(ROOT)),
         "-k", "not test_runs_against_the_local_postgresql"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900,
    )
    assert child.returncode == 0, child.stdout[-6000:] + child.stderr[-3000:]
    summary = child.stdout.strip().splitlines()[-1]
    assert re.search(r"\b\d+ passed\b", summary) and "skipped" not in summary, child.stdout[-3000:]


class Worker(threading.Thread):
    """Runs ``call()`` on its own database connection; keeps the return value or the ResultError."""

    def __init__(self, call, barrier=None):
        super().__init__(daemon=True)
        self.call, self.barrier = call, barrier
        self.value = self.error = None

    def run(self):
        try:
            if self.barrier is not None:
                self.barrier.wait(timeout=30)
            self.value = self.call()
        except ResultError as exc:
            self.error = exc
        finally:
            connections.close_all()

    def finish(self):
        self.join(timeout=60)
        assert not self.is_alive(), "a worker did not finish: a lock was never released"
        return self


def waited_behind(worker: Worker, hold) -> bool:
    """Call ``hold()`` in a transaction, start ``worker`` while that transaction keeps its locks
    and say whether the worker was still waiting ``WAIT`` seconds later; the transaction then
    commits and the worker is finished before returning."""
    with transaction.atomic():
        hold()
        worker.start()
        worker.join(WAIT)
        waited = worker.is_alive()
    worker.finish()
    return waited


def tables(event, count):
    return list(Table.objects.filter(group__session__event=event).select_related("group__session__event").order_by("number")[:count])


FIRST = {"E": 24, "S": -8, "W": -8, "N": -8}
SECOND = {"E": -16, "S": 48, "W": -16, "N": -16}
CORRECTED = {"E": 32, "S": -16, "W": -8, "N": -8}


@needs_postgresql
@pytest.mark.django_db(transaction=True)
def test_two_simultaneous_entries_store_exactly_one_and_the_other_names_it(team_event):
    chosen = tables(team_event, 8)
    barrier = threading.Barrier(2 * len(chosen))
    workers = {
        (table.pk, who): Worker(lambda t=table, c=changes, a=who: submit_result(t, first_set(t), changes=c, actor=a), barrier)
        for table in chosen for who, changes in (("scorer A", FIRST), ("scorer B", SECOND))
    }
    for worker in workers.values():
        worker.start()
    for worker in workers.values():
        worker.finish()

    for table in chosen:
        pair = [workers[(table.pk, "scorer A")], workers[(table.pk, "scorer B")]]
        stored = [w for w in pair if w.value is not None]
        refused = [w for w in pair if w.error is not None]
        assert len(stored) == 1 and len(refused) == 1, f"{table}: {[(w.value, w.error) for w in pair]}"
        kept = HandResult.objects.get(table=table)
        assert kept.pk == stored[0].value.pk
        assert kept.changes == (FIRST if stored[0] is pair[0] else SECOND)
        error = refused[0].error
        assert error.status == 409 and error.field == "set" and error.existing.pk == kept.pk
        assert f"result #{kept.pk}" in error.message
    assert HandResult.objects.count() == len(chosen)
    assert ResultRevision.objects.count() == len(chosen)


@pytest.mark.parametrize("first_commits", [True, False], ids=["first commits", "first rolls back"])
@needs_postgresql
@pytest.mark.django_db(transaction=True)
def test_an_entry_waits_for_an_uncommitted_one_and_nothing_is_lost(team_event, first_commits):
    [table] = tables(team_event, 1)
    set_no = first_set(table)
    second = Worker(lambda: submit_result(table, set_no, changes=SECOND, actor="scorer B"))

    class Abandon(Exception):
        pass

    try:
        with transaction.atomic():
            first = submit_result(table, set_no, changes=FIRST, actor="scorer A")
            second.start()
            second.join(WAIT)
            assert second.is_alive(), "the second entry did not wait for the first one's transaction"
            if not first_commits:
                raise Abandon
    except Abandon:
        pass
    second.finish()

    kept = HandResult.objects.get(table=table, set_no=set_no)
    if first_commits:
        assert kept.pk == first.pk and kept.changes == FIRST
        assert second.error.status == 409 and second.error.existing.pk == first.pk
    else:
        assert second.error is None and kept.pk == second.value.pk and kept.changes == SECOND
    assert ResultRevision.objects.filter(result=kept).count() == 1


@needs_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_confirmation_racing_a_correction_is_refused_for_the_old_revision(team_event):
    [table] = tables(team_event, 1)
    result = submit_result(table, first_set(table), changes=FIRST, actor="scorer")
    by_east = {"entered_by_seat": "E", "entry_pin": pin(table, "E")}  # a correction at the table: the seat and its PIN
    seen = result.revision
    confirm = Worker(lambda: confirm_result(result, actor="", pin=pin(table, "S"), revision=seen))

    assert waited_behind(confirm, lambda: correct_result(result, actor="scorer", reason="", director=False, changes=CORRECTED,
                                                          **by_east)), \
        "the confirmation did not wait for the correction's lock"

    assert confirm.error.field == "revision" and confirm.error.status == 409
    result.refresh_from_db()
    assert result.status == "entered" and result.changes == CORRECTED
    assert list(result.revisions.values_list("action", flat=True)) == ["enter", "correct"]


@needs_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_confirmation_queued_behind_a_correction_confirms_the_corrected_values(team_event):
    [table] = tables(team_event, 1)
    result = submit_result(table, first_set(table), changes=FIRST, actor="scorer")
    by_east = {"entered_by_seat": "E", "entry_pin": pin(table, "E")}  # a correction at the table: the seat and its PIN
    confirm = Worker(lambda: confirm_result(result, actor="", pin=pin(table, "S")))

    assert waited_behind(confirm, lambda: correct_result(result, actor="scorer", reason="", director=False, changes=CORRECTED,
                                                          **by_east))

    assert confirm.error is None
    history = list(result.revisions.values_list("action", "changes"))
    assert history == [("enter", FIRST), ("correct", CORRECTED), ("confirm", CORRECTED)]


@needs_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_scorers_correction_queued_behind_a_confirmation_is_refused(team_event):
    [table] = tables(team_event, 1)
    result = submit_result(table, first_set(table), changes=FIRST, actor="scorer")
    by_east = {"entered_by_seat": "E", "entry_pin": pin(table, "E")}  # a correction at the table: the seat and its PIN
    correct = Worker(lambda: correct_result(result, actor="scorer", reason="typo", director=False, changes=CORRECTED,
                                            **by_east))

    assert waited_behind(correct, lambda: confirm_result(result, actor="", pin=pin(table, "W"))), \
        "the correction did not wait for the confirmation's lock"

    assert correct.error.field == "status" and correct.error.status == 403
    result.refresh_from_db()
    assert result.status == "confirmed" and result.changes == FIRST


@needs_postgresql
@pytest.mark.django_db(transaction=True)
def test_two_simultaneous_confirmations_confirm_once(team_event):
    [table] = tables(team_event, 1)
    result = submit_result(table, first_set(table), changes=FIRST, actor="scorer")
    barrier = threading.Barrier(2)
    workers = [Worker(lambda s=seat: confirm_result(result, actor="", pin=pin(table, s)), barrier) for seat in ("S", "W")]
    for worker in workers:
        worker.start()
    errors = [w.finish().error for w in workers]

    assert sum(e is None for e in errors) == 1
    [error] = [e for e in errors if e is not None]
    assert error.field == "status" and error.status == 409
    assert list(result.revisions.values_list("action", flat=True)) == ["enter", "confirm"]


@needs_postgresql
@pytest.mark.django_db(transaction=True)
def test_the_last_confirmations_of_a_set_given_at_once_still_score_it(team_event):
    table = tables(team_event, 1)[0]
    group = list(table.group.tables.select_related("group__session__event").order_by("position"))
    set_no = first_set(table)
    results = []
    for other in group:  # every table reaches the set (earlier blocks entered and confirmed)
        for s in sets_through(other, set_no):
            entered = submit_result(other, s, changes=FIRST, actor="setup")
            if s == set_no:
                results.append((other, entered))
            else:
                confirm_result(entered, actor="director", director=True)
    for _other, entered in results[:-2]:
        confirm_result(entered, actor="director", director=True)
    barrier = threading.Barrier(2)
    workers = [Worker(lambda t=t, r=r: confirm_result(r, actor="", pin=pin(t, "S")), barrier) for t, r in results[-2:]]
    for worker in workers:
        worker.start()
    assert [w.finish().error for w in workers] == [None, None]

    scores = SetScore.objects.filter(event=team_event, session_number=1, set_no=set_no, group=table.group)
    assert scores.count() == len(group)  # one converted score per team of the group
