"""The event's large writes issue a number of statements that does not grow with the event:
importing a roster, preparing a session, rescoring the event and importing an export
(docs/performance.md; figures: ``python manage.py bench writes``). Counts are pinned at 16 and
at 256 teams (1,024 players): a write that went back to a statement per row fails here without
timing anything. A bulk insert split by SQLite into batches of 999 parameters counts once
(:func:`tests.perf.writes.statements`): on PostgreSQL it is one statement.

The import grows with the export's sessions, sets and kinds of rows, not with its teams: pinned
at two sessions planned, one played."""

from __future__ import annotations

import random

import pytest
from django.db import connection

from factories import bulk_results, team_roster
from scoring.actions.rescoring import rescore_set
from scoring.conversion_versions import rescore_event
from scoring.models import FouledPlay, HandResult, SetRelease, SetScore
from tests.perf.writes import counted, statements
from tournament.exchange import export_event, import_event
from tournament.models import Event, Player, Table
from tournament.services import create_event, import_roster, prepare_session

ROSTER = 8  # statements of import_roster: its savepoint, has the event players, the event's venues, the teams, the players, its audit entry, the version bump, release
PREPARE = 24  # statements of prepare_session (a second session: seats, rooms kept, walls, the count and audit entry of what it seated, the version bump)
RESCORE = 19  # statements of rescore_event
IMPORT = 35  # statements of import_event (one session played of two; the audit entries in one insert and one dating update; whether the tables' and results' ids are free)
KEPT_IDS_SEQUENCES = 2  # PostgreSQL: the sequences of tables and results moved past the ids kept (SQLite's follow by themselves)


def _event(teams: int, slug: str) -> Event:
    return create_event(name=f"Bulk {slug}", slug=slug, sessions=2)


def _played(teams: int, slug: str) -> Event:
    event = _event(teams, slug)
    import_roster(event, team_roster(teams))
    prepare_session(event, 1)
    bulk_results(event, random.Random(teams))
    return event


def _export_without_time(event: Event) -> dict:
    data = export_event(event, include_secret=True)
    data.pop("exported_at")
    return data


def test_statements_count_a_split_bulk_insert_once():
    insert = 'INSERT INTO "tournament_player" ("name") VALUES (%s)'
    assert statements([insert, insert, 'SELECT 1', insert, 'INSERT INTO "tournament_team" ("name") VALUES (%s)']) == 4


@pytest.mark.django_db
@pytest.mark.parametrize("teams", [16, 256])
def test_import_roster_issues_the_same_statements_at_any_size(teams):
    event = _event(teams, f"roster-{teams}")
    added, n = counted(lambda: import_roster(event, team_roster(teams)))
    assert added == 4 * teams == event.players.count()
    assert n == ROSTER
    pins = list(event.players.values_list("pin", flat=True))
    assert len(set(pins)) == len(pins)  # every PIN unique in the event, as one by one
    assert list(event.players.filter(team__number=teams).values_list("number", "member", "name")) == [
        (4 * teams - 3 + m, m, f"Team {teams} player {m}") for m in range(4)]


@pytest.mark.django_db
@pytest.mark.parametrize("teams", [16, 256])
def test_prepare_session_issues_the_same_statements_at_any_size(teams):
    event = _event(teams, f"prepare-{teams}")
    import_roster(event, team_roster(teams))
    prepare_session(event, 1)
    session, n = counted(lambda: prepare_session(event, 2))
    assert n == PREPARE
    tables = Table.objects.filter(group__session=session)
    assert tables.count() == teams and session.groups.count() == teams // 4
    seated = list(tables.values_list("seats__player_id", flat=True))
    assert len(seated) == len(set(seated)) == 4 * teams  # every player seated once
    assert event.wall_sets.filter(session_number=2).count() == event.get_ruleset().hands_per_session


@pytest.mark.django_db
@pytest.mark.parametrize("teams", [16, 256])
def test_rescore_event_issues_the_same_statements_at_any_size_and_bumps_the_version_once(teams):
    event = _played(teams, f"rescore-{teams}")
    before = event.content_version()
    stored, n = counted(lambda: rescore_event(event))
    hands = event.get_ruleset().hands_per_session
    assert n == RESCORE
    assert stored == SetScore.objects.filter(event=event).count() == teams * hands
    assert SetRelease.objects.filter(event=event, session_number=1).count() == hands
    assert event.content_version() == before + 1


@pytest.mark.django_db
def test_rescore_event_stores_what_rescoring_each_set_stores():
    event = _played(16, "rescore-same")
    tables = list(Table.objects.filter(group__session__event=event).order_by("number"))
    FouledPlay.objects.create(event=event, table=tables[0], session_number=1, set_no=3, version=1, reason="t", marked_by="t")
    FouledPlay.objects.create(event=event, table=tables[1], session_number=1, set_no=3, version=1, reason="t", marked_by="t")
    HandResult.objects.filter(table=tables[9], set_no=7).update(status=HandResult.Status.ENTERED)  # group 3 incomplete

    def scores():
        return sorted(SetScore.objects.filter(event=event).values_list(
            "session_number", "set_no", "group__number", "team__number", "score_change", "datum", "difference", "points",
            "version", "adjusted"))

    one_by_one = sum(rescore_set(event, s, n) for s, n in sorted(
        set(HandResult.objects.filter(event=event).values_list("session_number", "set_no"))))
    expected, released = scores(), set(SetRelease.objects.filter(event=event).values_list("session_number", "set_no"))
    SetScore.objects.filter(event=event).delete()
    SetRelease.objects.filter(event=event).delete()
    assert rescore_event(event) == one_by_one
    assert scores() == expected
    assert (1, 7) not in released
    assert set(SetRelease.objects.filter(event=event).values_list("session_number", "set_no")) == released
    assert any(row[8] != "" for row in expected)  # the fouled set was scored version by version


@pytest.mark.django_db
@pytest.mark.parametrize("teams", [16, 64])
def test_import_event_issues_the_same_statements_at_any_number_of_teams_and_round_trips(teams):
    event = _played(teams, f"import-{teams}")
    rescore_event(event)
    player = event.players.get(number=5)
    player.replaced_by = event.players.get(number=6)
    player.save(update_fields=["replaced_by"])
    data = export_event(event, include_secret=True)
    exported = _export_without_time(event)
    Event.objects.filter(pk=event.pk).delete()
    restored, n = counted(lambda: import_event(data))
    assert n == IMPORT + (KEPT_IDS_SEQUENCES if connection.vendor == "postgresql" else 0)
    assert _export_without_time(restored) == exported
    assert Player.objects.get(event=restored, number=5).replaced_by.number == 6


@pytest.mark.django_db
def test_an_import_finds_accounts_ignoring_case_in_one_query_each_kind_of_name(django_user_model):
    from tournament.exchange import restore_event
    from tournament.models import EventRole

    event = _event(4, "accounts")
    import_roster(event, team_roster(4))
    prepare_session(event, 1)
    zoe, scorer = django_user_model.objects.create_user("Zoë"), django_user_model.objects.create_user("Scorer")
    EventRole.objects.create(event=event, user=zoe, role=EventRole.Role.DIRECTOR)
    EventRole.objects.create(event=event, user=scorer, role=EventRole.Role.SCORER).tables.add(
        Table.objects.get(group__session__event=event, number=2))
    Player.objects.filter(event=event, number=3).update(user=scorer)
    data = export_event(event, include_secret=True)
    data["roles"].append({"username": "nobody", "role": "scorer", "tables": []})
    for role in data["roles"]:
        role["username"] = role["username"].upper() if role["username"] == "Scorer" else role["username"]
    Event.objects.filter(pk=event.pk).delete()
    restored = restore_event(data)
    assert sorted((r["username"], r["role"], r["tables"]) for r in restored.roles) == [
        ("Scorer", "scorer", [[1, 2]]), ("Zoë", "director", [])]
    assert restored.missing_roles == [{"username": "nobody", "role": "scorer", "tables": []}]
    assert Player.objects.get(event=restored.event, number=3).user == scorer
    assert list(EventRole.objects.get(event=restored.event, user=scorer).tables.values_list("number", flat=True)) == [2]
