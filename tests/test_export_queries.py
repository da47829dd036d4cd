"""The exports read an event in a fixed number of statements, whatever its size: the director's
export (:func:`tournament.exchange.export_event`) and the public one
(:func:`tournament.exchange.public_export`) once cost a statement per table (its room's number),
2,049 of 2,077 at 256 teams and 8 sessions (docs/performance.md)."""

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import play_slots, played_event
from tests.perf.loadtest import roster_csv
from tournament.exchange import export_event, public_export
from tournament.models import Table
from tournament.services import create_event, import_roster, prepare_session

pytestmark = pytest.mark.django_db


def statements(call) -> int:
    with CaptureQueriesContext(connection) as captured:
        call()
    return len(captured)


def entered_event(teams: int, slug: str):
    """An event of ``teams`` teams, session 1 prepared and every set of it entered and confirmed
    one result at a time (each result with its revisions)."""
    event = create_event(name=slug, slug=slug, sessions=2)
    import_roster(event, roster_csv(teams, 4))
    prepare_session(event, 1)
    play_slots(event, random.Random(5), actor="t")
    return event


def test_the_exports_statements_do_not_grow_with_the_tables():
    small, large = entered_event(4, "queries-small"), entered_event(8, "queries-large")
    assert Table.objects.filter(group__session__event=large, room__isnull=False).count() == 8  # each table in a room
    assert large.results.count() > small.results.count() > 0
    assert statements(lambda: public_export(large)) == statements(lambda: public_export(small))
    assert statements(lambda: export_event(large)) == statements(lambda: export_event(small))


def test_nor_with_the_sessions_played():
    small, large = played_event(4, 1, slug="queries-one-session"), played_event(8, 3, slug="queries-three-sessions")
    assert statements(lambda: public_export(large)) == statements(lambda: public_export(small))
    assert statements(lambda: export_event(large)) == statements(lambda: export_event(small))
