"""The browser tests' clean-up helper (:func:`tests.browser.conftest.once_unlocked`) against the
condition that failed CI at stop 50: the live server still reading a table (a page's last poll)
when a test deletes its event on SQLite's shared-cache in-memory test database, which answers
"database table is locked" at once instead of waiting."""

from __future__ import annotations

import threading

import pytest
from django.db import OperationalError, connection, connections

from tests.browser.conftest import in_own_connection, once_unlocked
from tournament.models import Event

pytestmark = pytest.mark.django_db(transaction=True)


def _reader(started: threading.Event, release: threading.Event) -> None:
    """A connection in the middle of a SELECT over the seat assignments until ``release``."""
    try:
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT id FROM tournament_seatassignment")
            cursor.fetchone()
            started.set()
            release.wait(10)
    finally:
        connections.close_all()


def _delete_while_read(helper, slug: str) -> str:
    started, release = threading.Event(), threading.Event()
    reader = threading.Thread(target=_reader, args=(started, release))
    reader.start()
    started.wait(10)
    timer = threading.Timer(0.6, release.set)  # the poll's answer ends after 0.6 s
    timer.start()
    try:
        helper(lambda: Event.objects.filter(slug=slug).delete())
        return "deleted"
    except OperationalError as error:
        return str(error)
    finally:
        timer.join()
        reader.join()


def test_a_clean_up_waits_for_a_reader_the_plain_call_is_refused(team_event):
    if connection.vendor != "sqlite":
        pytest.skip("the shared-cache table lock is SQLite's")
    slug = team_event.slug
    assert _delete_while_read(in_own_connection, slug) == "database table is locked: tournament_seatassignment"
    assert Event.objects.filter(slug=slug).exists()  # the refused delete left everything in place
    assert _delete_while_read(once_unlocked, slug) == "deleted"
    assert not Event.objects.filter(slug=slug).exists()


def test_any_other_error_is_raised_at_once():
    calls = []

    def broken():
        calls.append(1)
        raise OperationalError("no such table: nowhere")

    with pytest.raises(OperationalError, match="no such table"):
        once_unlocked(broken)
    assert calls == [1]
