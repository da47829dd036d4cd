"""An export of a 1,000-player event on the embedded default (SQLite): Django prefetches a
foreign key's targets as one OR of equalities, which SQLite refuses beyond a depth of 1,000
("Expression tree is too large"), so the export joins each seat's player instead (docs/export.md)."""

import pytest

from tests.perf.writes import played_event
from tournament.exchange import export_event, public_export

pytestmark = pytest.mark.django_db


def test_a_256_team_event_exports_whole():
    event = played_event(256, slug="export-1024-players")
    data = export_event(event)
    seated = [number for s in data["sessions"] for g in s["groups"] for t in g["tables"] for number in t["seats"].values()]
    assert len(data["players"]) == len(seated) == len(set(seated)) == 1024  # every player once, at their seat
    assert public_export(event)["event"]["slug"] == "export-1024-players"
