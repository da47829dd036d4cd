"""Queries compiled once per process (:mod:`tournament.prepared`) answer exactly what the same
queryset built afresh answers: the same rows, the same objects with their related objects, the
same SQL statement; and a query that cannot be prepared is built afresh every time."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections, transaction
from django.db.models import Subquery
from django.test.utils import CaptureQueriesContext

from factories import client_for, first_set, in_threads, prepared_event, team_roster
from scoring.actions.confirmation import _LOCKED
from scoring.actions.entry import _CHECKS, store_attempt, submit_result
from scoring.actions.seats import Device, counts_from
from scoring.models import ConfirmationAttempt
from tournament.access import _EVENT_BY_SLUG, event_by_slug
from tournament.models import EventRole, Session, Table
from tournament.permissions import _ROLES
from tournament.prepared import PreparedQuery
from tournament.table_plan import _PLAN_SEATS, _SEATS_BY_NUMBER, _seats_by_number, table_plan

pytestmark = pytest.mark.django_db

CHANGES = {"E": 34, "S": -18, "W": -8, "N": -8}


@pytest.fixture
def event():
    return prepared_event(team_roster(8), name="Prepared", slug="prepared")


def _seat_view(rows) -> list[tuple]:
    """What a caller reads of the table plan's seat rows: the seat, the player with team and
    account, the table with its group, session and room, and the annotations."""
    return [(a.pk, a.seat, a.player.pk, a.player.name, a.player.pin, a.player.team.name if a.player.team else None,
             a.player.user_id, a.n_groups, a.substituted) for a in rows]


def test_the_table_plan_by_number_reads_what_the_queryset_reads_for_every_table_and_session_choice(event):
    for table in Table.objects.filter(group__session__event=event):
        for session_number in (None, 1):
            args = (event.pk, table.number) if session_number is None else (event.pk, table.number, session_number)
            with CaptureQueriesContext(connection) as prepared_sql:
                prepared = _SEATS_BY_NUMBER(*args)
            with CaptureQueriesContext(connection) as built_sql:
                built = list(_seats_by_number(*args))
            assert len(prepared) == 4
            assert _seat_view(prepared) == _seat_view(built)
            assert [(a.table.pk, a.table.number, a.table.group.number, a.table.group.session.number) for a in prepared] == \
                   [(a.table.pk, a.table.number, a.table.group.number, a.table.group.session.number) for a in built]
            assert [q["sql"] for q in prepared_sql.captured_queries] == [q["sql"] for q in built_sql.captured_queries]
    assert _SEATS_BY_NUMBER(event.pk, 999) == []  # no such table: nothing, as the queryset


def test_a_substitution_and_a_second_event_change_the_answer_not_the_statement(event):
    other = prepared_event(team_roster(8), name="Other", slug="other-event")
    mine = _SEATS_BY_NUMBER(event.pk, 1)
    theirs = _SEATS_BY_NUMBER(other.pk, 1)
    assert {a.player.event_id for a in mine} == {event.pk}
    assert {a.player.event_id for a in theirs} == {other.pk}


def test_the_locking_plan_reads_under_every_lock_what_the_plain_one_reads(event):
    table = Table.objects.select_related("group__session__event").filter(group__session__event=event).first()
    plain = _seat_view(_PLAN_SEATS[None](table.pk, table.group.session_id))
    with transaction.atomic():
        for lock in ("table", "group", "session"):
            with CaptureQueriesContext(connection) as sql:
                rows = _PLAN_SEATS[lock](table.pk, table.group.session_id)
            assert _seat_view(rows) == plain
            if connection.features.has_select_for_update:
                assert "FOR" in sql.captured_queries[-1]["sql"].upper()
    assert table_plan(table).seated[table.pk].keys() == {"E", "S", "W", "N"}


def test_the_result_lock_reads_the_counts_with_and_without_a_request_key(event):
    table = Table.objects.select_related("group__session__event").filter(group__session__event=event).first()
    result = submit_result(table, first_set(table), changes=CHANGES, actor="t", request_key="key-12345678")
    store_attempt(table, None, "", ok=False, actor="t", device=Device("phone:one", "10.0.0.1"))
    store_attempt(table, result, "S", ok=True, actor="t", device=Device("phone:two", "10.0.0.2"))
    with transaction.atomic():
        plain = _LOCKED[False](result.pk, table.pk, table.group_id, "phone:one")
        keyed = _LOCKED[False](result.pk, table.pk, table.group_id, "phone:two", "key-12345678")
        other_key = _LOCKED[False](result.pk, table.pk, table.group_id, "", "another-key-1")
    assert [r.pk for r in plain] == [result.pk]
    one, two = counts_from(plain[0]), counts_from(keyed[0])
    assert (one.table_wrong, one.device_wrong, one.trusted, plain[0].others_confirmed) == (1, 1, False, 0)
    assert (two.table_wrong, two.device_wrong, two.trusted) == (1, 0, True)
    assert one.device_last == one.table_last == ConfirmationAttempt.objects.get(ok=False).at and two.device_last is None
    assert plain[0].scope_tables == Table.objects.filter(group_id=table.group_id).count()
    assert (keyed[0].replay_of, keyed[0].replay_action, keyed[0].key_used) == (result.pk, "enter", True)
    assert (other_key[0].replay_of, other_key[0].key_used) == (None, False)


def test_an_event_by_slug_and_the_roles_of_a_user(event):
    assert event_by_slug(event.slug).pk == event.pk
    assert "grouping_plan" in event_by_slug(event.slug).get_deferred_fields()
    user = get_user_model().objects.create_user("scorer-prepared", password="pw-prepared-1")
    assert _ROLES(event.pk, user.pk) == []
    role = EventRole.objects.create(event=event, user=user, role=EventRole.Role.SCORER)
    tables = list(Table.objects.filter(group__session__event=event).order_by("pk")[:2])
    role.tables.set(tables)
    assert sorted(_ROLES(event.pk, user.pk)) == sorted(("scorer", t.pk) for t in tables)
    with pytest.raises(Exception, match="No event"):
        event_by_slug("no-such-event")


def test_a_number_out_of_range_or_another_type_is_asked_as_the_orm_asks_it(event):
    assert _SEATS_BY_NUMBER(event.pk, 10**20) == []  # the ORM's empty answer, not a database error
    assert _SEATS_BY_NUMBER(event, 1) == list(_seats_by_number(event, 1))  # a model instance: built afresh


def test_a_query_whose_argument_is_folded_into_the_sql_is_built_afresh_each_time(event):
    built = []

    def build(n):
        built.append(n)
        return Session.objects.filter(event=event).order_by("number")[:n]  # n becomes LIMIT n, not a parameter

    sliced = PreparedQuery(Session, build)
    assert [s.number for s in sliced(1)] == [1]
    assert len(sliced(2)) == Session.objects.filter(event=event).count()
    assert built[-2:] == [1, 2]  # no placeholder run was kept: each call built its own


def test_a_subquery_argument_used_twice_is_put_in_both_places(event):
    latest = PreparedQuery(Table, lambda event_id: Table.objects.filter(
        group__session__event_id=event_id, group__session__number=Subquery(
            Session.objects.filter(event_id=event_id).order_by("-number").values("number")[:1])))
    other = prepared_event(team_roster(4), name="Other two", slug="other-two")
    assert {t.group.session.event_id for t in latest(event.pk)} == {event.pk}
    assert {t.group.session.event_id for t in latest(other.pk)} == {other.pk}
    assert latest(other.pk)


@pytest.mark.django_db(transaction=True)
def test_every_column_of_the_event_comes_converted_as_the_orm_converts_it_on_every_run_and_connection(event):
    """The converters of a prepared query are worked out once per connection: the JSON, the times
    and the rest still come as the ORM gives them, run after run, thread after thread."""
    from tournament.models import Event

    def columns(found):
        return {f.attname: getattr(found, f.attname) for f in Event._meta.concrete_fields if f.attname not in found.get_deferred_fields()}

    expected = columns(Event.objects.defer("grouping_plan").get(pk=event.pk))
    assert isinstance(expected["ruleset"], dict) and expected["created_at"].tzinfo is not None
    for _run in range(3):
        assert columns(event_by_slug(event.slug)) == expected
    found, errors = in_threads(lambda: (columns(event_by_slug(event.slug)), connections["default"]), 3)
    assert not errors and [f[0] for f in found] == [expected] * 3
    kept = next(iter(v for v in _EVENT_BY_SLUG._compiled.values() if v is not None)).converters
    assert {id(f[1]) for f in found} <= set(kept)  # worked out for each thread's connection


@pytest.mark.django_db(transaction=True)
def test_each_thread_runs_the_prepared_query_on_its_own_connection():
    event = prepared_event(team_roster(8), name="Threads", slug="threads")
    expected = _seat_view(_SEATS_BY_NUMBER(event.pk, 1))
    found, errors = in_threads(lambda: (_seat_view(_SEATS_BY_NUMBER(event.pk, 1)), connections["default"]), 4)
    assert not errors
    assert [f[0] for f in found] == [expected] * 4
    assert len({id(f[1]) for f in found}) == 4  # four connections, one per thread


def test_the_entry_checks_read_what_the_queryset_reads_for_every_choice_of_what_is_asked(event):
    """Every shape of the entry's one check read (the copy's previous table, the wrong PINs, a
    request key, any number of earlier sets) gives the row the queryset built afresh gives."""
    table = Table.objects.select_related("group__session").filter(group__session__event=event).first()
    submit_result(table, first_set(table), changes=CHANGES, actor="t", request_key="key-abcdefgh")
    store_attempt(table, None, "", ok=False, actor="t", device=Device("phone:one", "10.0.0.1"))
    for (previous, wrong, keyed), query in _CHECKS.items():
        for earlier in ([], [first_set(table)], [first_set(table), 2, 3, 4, 5, 6]):
            args = [table.pk] + ([table.group.session_id, 1, 0, first_set(table)] if previous else [])
            args += ["phone:one"] if wrong else []
            args += ["key-abcdefgh"] if keyed else []
            if not (previous or wrong or keyed or earlier):
                continue
            prepared = query(*args, *earlier)
            afresh = list(query._build(*args, *earlier))
            assert prepared == afresh and len(prepared) == 1
            if earlier:
                assert prepared[0]["earlier"] == 1
            if keyed:
                assert prepared[0]["key_used"] is True
            if wrong:
                assert (counts_from(prepared[0]).device_wrong, counts_from(prepared[0]).table_wrong) == (1, 1)


def test_a_query_the_orm_answers_without_the_database_is_left_to_the_orm(event):
    nothing = PreparedQuery(Session, lambda n: Session.objects.filter(event=event, number__in=[]).filter(number=n))
    assert nothing(1) == [] and nothing(2) == []


@pytest.mark.parametrize("key", ["abc", "1.5", "%C2%B2", "99999999999999999999", "0"])
def test_a_result_id_that_is_no_plain_number_is_not_found_not_a_server_error(event, key):
    director = get_user_model().objects.create_user("director-ids", password="pw-director-ids")
    EventRole.objects.create(event=event, user=director, role=EventRole.Role.DIRECTOR)
    client = client_for(director)
    for action in ("confirm", "dispute"):
        response = client.post(f"/api/events/{event.slug}/results/{key}/{action}/", {}, content_type="application/json")
        assert response.status_code == 404, (key, action, response.content[:200])


# --- PreparedInsert: the INSERT of create(), compiled once ---------------------------------------

def _row(model, pk) -> dict:
    """The stored row, every column, as the database gives it back."""
    return model.objects.filter(pk=pk).values().get()


def _without_times(row: dict) -> dict:
    return {k: v for k, v in row.items() if k not in ("id", "at", "created_at", "updated_at")}


def test_a_prepared_insert_stores_the_row_create_stores_and_sends_the_same_statement(event):
    from scoring.models import ConfirmationAttempt, HandResult, ResultRevision
    from tournament.prepared import PreparedInsert

    table = Table.objects.filter(group__session__event=event).select_related("group__session").first()
    cases = [
        (HandResult, dict(event=event, table=table, session_number=1, set_no=1, changes=CHANGES,
                          outcome={"kind": "discard", "winners": ["E"], "discarder": "S", "fans": [10]}, deposit=0, entered_by="Ann (E)")),
        (HandResult, dict(event=event, table=table, session_number=1, set_no=2, changes={"E": 0, "S": 0, "W": 0, "N": 0},
                          outcome=None, deposit=0, entered_by="")),
        (ConfirmationAttempt, dict(table=table, result=None, seat="", ok=False, actor="Table 1 phone")),
    ]
    for model, values in cases:
        insert = PreparedInsert(model)
        with CaptureQueriesContext(connection) as prepared_sql:
            prepared = insert(**values)
        kept = _row(model, prepared.pk)
        model.objects.filter(pk=prepared.pk).delete()
        with CaptureQueriesContext(connection) as created_sql:
            created = model.objects.create(**values)
        assert prepared.pk is not None and not prepared._state.adding and prepared._state.db == "default"
        assert list(insert._compiled.values()) != [] and None not in insert._compiled.values()  # compiled, not the ORM's fallback
        assert _without_times(kept) == _without_times(_row(model, created.pk))
        assert [q["sql"].split(" VALUES ")[0] for q in prepared_sql.captured_queries] == \
               [q["sql"].split(" VALUES ")[0] for q in created_sql.captured_queries]
        for name in ("at", "created_at", "updated_at"):  # auto_now(_add) filled on the instance, as create() does
            if hasattr(prepared, name):
                assert getattr(prepared, name) is not None and kept[name] == getattr(prepared, name)
        model.objects.filter(pk=created.pk).delete()
    result = PreparedInsert(HandResult)(**cases[0][1])
    revision = PreparedInsert(ResultRevision)(result=result, revision=1, action="enter", status=result.status, changes=result.changes,
                                              previous=None, outcome=result.outcome, actor="Ann (E)", reason="", request_key="k-1")
    assert list(result.revisions.values_list("pk", "revision", "action", "request_key")) == [(revision.pk, 1, "enter", "k-1")]


def test_a_prepared_insert_raises_the_duplicate_as_create_does_and_stores_nothing(event):
    from django.db import IntegrityError

    from scoring.models import HandResult
    from tournament.prepared import PreparedInsert

    table = Table.objects.filter(group__session__event=event).first()
    values = dict(event=event, table=table, session_number=1, set_no=1, changes=CHANGES, outcome=None, deposit=0, entered_by="x")
    insert = PreparedInsert(HandResult)
    insert(**values)
    with pytest.raises(IntegrityError), transaction.atomic():
        insert(**values)
    assert HandResult.objects.filter(table=table, set_no=1).count() == 1


def test_a_prepared_insert_leaves_a_model_with_save_receivers_to_the_orm(event):
    from django.db.models import signals

    from scoring.models import ConfirmationAttempt
    from tournament.prepared import PreparedInsert

    table = Table.objects.filter(group__session__event=event).first()
    heard = []

    def receiver(sender, instance, created, **kwargs):
        heard.append((instance.pk, created))

    signals.post_save.connect(receiver, sender=ConfirmationAttempt)
    try:
        stored = PreparedInsert(ConfirmationAttempt)(table=table, result=None, seat="", ok=False, actor="x")
    finally:
        signals.post_save.disconnect(receiver, sender=ConfirmationAttempt)
    assert heard == [(stored.pk, True)]
    assert ConfirmationAttempt.objects.filter(pk=stored.pk).exists()


def test_a_prepared_update_writes_what_save_with_update_fields_writes_and_refuses_a_gone_row(event):
    from django.db import DatabaseError

    from scoring.models import HandResult
    from tournament.prepared import PreparedUpdate

    table = Table.objects.filter(group__session__event=event).first()
    update = PreparedUpdate(HandResult, ("status", "confirmed_by", "revision", "updated_at"))
    rows = []
    for saver in (update, lambda r: r.save(update_fields=["status", "confirmed_by", "revision", "updated_at"])):
        result = HandResult.objects.create(event=event, table=table, session_number=1, set_no=len(rows) + 1, changes=CHANGES,
                                           outcome=None, deposit=0, entered_by="Ann (E)")
        before = result.updated_at
        result.status, result.confirmed_by, result.revision = HandResult.Status.CONFIRMED, "Bo (S), Table 1", 2
        result.changes = {"E": 0, "S": 0, "W": 0, "N": 0}  # not among the fields: not written
        with CaptureQueriesContext(connection) as sql:
            saver(result)
        assert len(sql.captured_queries) == 1 and sql.captured_queries[0]["sql"].startswith("UPDATE")
        assert result.updated_at > before  # auto_now set on the instance, as save() sets it
        row = _row(HandResult, result.pk)
        rows.append((row["status"], row["confirmed_by"], row["revision"], row["changes"], row["updated_at"] == result.updated_at))
    assert rows[0] == rows[1] == ("confirmed", "Bo (S), Table 1", 2, CHANGES, True)
    assert None not in update._compiled.values() and update._compiled  # compiled, not the ORM's fallback
    gone = HandResult.objects.get(set_no=1, table=table)
    HandResult.objects.filter(pk=gone.pk).delete()
    with pytest.raises(DatabaseError, match="did not affect any rows"):
        update(gone)


def _instance_view(obj, depth: int = 0) -> dict:
    """Everything an instance holds: its stored values (deferred fields absent, as from_db leaves
    them), its state, its annotations and, recursively, the related objects set on it."""
    from django.db.models import Model

    view = {k: v for k, v in obj.__dict__.items() if k != "_state"}
    view["_state"] = (obj._state.db, obj._state.adding, type(obj).__name__)
    view["_related"] = {name: (_instance_view(rel, depth + 1) if isinstance(rel, Model) and depth < 4 else rel)
                        for name, rel in obj._state.fields_cache.items()}
    view["_deferred"] = sorted(obj.get_deferred_fields())
    return view


def test_a_prepared_query_gives_the_instances_values_tuples_and_numbers_the_queryset_gives(event):
    """Each shape a prepared query reads without the queryset's iterable (model instances with
    their select_related objects, a nullable one absent, deferred fields and annotations; values;
    values_list; flat) is what the same queryset built afresh yields, field for field."""
    from django.db.models import Count

    from scoring.models import HandResult
    from tournament.models import Player, SeatAssignment

    table = Table.objects.select_related("group__session__event").filter(group__session__event=event).first()
    submit_result(table, first_set(table), changes=CHANGES, actor="t")
    Player.objects.filter(pk=table.seats.first().player_id).update(user=None, team=None)  # nullable relations, absent
    builds = {
        "seats, related and annotated": (SeatAssignment, lambda t: SeatAssignment.objects.filter(table_id=t).select_related(
            "player__team", "player__user", "table__group__session", "table__room").annotate(n=Count("table__seats")).order_by("seat")),
        "deferred": (Table, lambda t: Table.objects.filter(pk=t).select_related("group__session__event").defer(
            "group__session__event__grouping_plan", "login_code")),
        "values": (HandResult, lambda t: HandResult.objects.filter(table_id=t).values("pk", "changes", "created_at", "status")),
        "values_list": (HandResult, lambda t: HandResult.objects.filter(table_id=t).values_list("pk", "changes", "outcome", "updated_at")),
        "flat": (SeatAssignment, lambda t: SeatAssignment.objects.filter(table_id=t).order_by("seat").values_list("player__name", flat=True)),
    }
    for name, (model, build) in builds.items():
        prepared = PreparedQuery(model, build)
        kept = prepared(table.pk)
        fresh = list(build(table.pk))
        assert kept, name
        found = next(v for v in prepared._compiled.values())
        assert found is not None and found.rows is not None, name  # read by the kept reader, not the queryset's iterable
        if name in ("seats, related and annotated", "deferred"):
            assert [_instance_view(o) for o in kept] == [_instance_view(o) for o in fresh], name
        else:
            assert kept == fresh and [type(r) for r in kept] == [type(r) for r in fresh], name
    seats = PreparedQuery(*builds["seats, related and annotated"])(table.pk)
    assert [a.player.team for a in seats].count(None) == 1 and all(a.n == 4 for a in seats)
    assert seats[0].table.group.session.number == 1 and seats[0].player.pk == seats[0].player_id


def test_a_prepared_query_leaves_instances_to_the_orm_while_an_init_receiver_listens(event):
    from django.db.models import signals

    from tournament.models import Player

    heard = []

    def receiver(sender, instance, **kwargs):
        heard.append(instance.pk)

    players = PreparedQuery(Player, lambda event_id: Player.objects.filter(event_id=event_id).select_related("team").order_by("pk"))
    first = players(event.pk)
    signals.post_init.connect(receiver, sender=Player)
    try:
        second = players(event.pk)
    finally:
        signals.post_init.disconnect(receiver, sender=Player)
    assert [p.pk for p in first] == [p.pk for p in second] == heard  # every player made was heard
    assert [_instance_view(p) for p in first] == [_instance_view(p) for p in second]


def test_a_prepared_insert_that_ignores_conflicts_returns_none_for_the_duplicate_and_keeps_the_transaction(event):
    """The second result of a table on a set is not stored and is answered None, in one
    statement (no savepoint), and the transaction goes on: the next statement works (on
    PostgreSQL an error would have aborted it)."""
    from scoring.models import HandResult
    from tournament.prepared import PreparedInsert

    table = Table.objects.filter(group__session__event=event).first()
    values = dict(event=event, table=table, session_number=1, set_no=1, changes=CHANGES, outcome=None, deposit=0, entered_by="x")
    insert = PreparedInsert(HandResult, ignore_conflicts=True)
    with transaction.atomic():
        first = insert(**values)
        with CaptureQueriesContext(connection) as sql:
            again = insert(**{**values, "entered_by": "y"})
        assert first is not None and first.pk and again is None
        assert len(sql.captured_queries) == 1 and "SAVEPOINT" not in sql.captured_queries[0]["sql"]
        assert list(HandResult.objects.filter(table=table, set_no=1).values_list("pk", "entered_by")) == [(first.pk, "x")]
    assert None not in insert._compiled.values()  # compiled, not the ORM's fallback


def test_the_history_kept_on_a_result_is_its_own_when_queried_further(event):
    """A result's history given from what the write holds (set_history) answers as
    prefetch_related would: the kept rows, and a further query on it stays on that result."""
    from scoring.actions.entry import set_history
    from scoring.models import HandResult

    table = Table.objects.select_related("group__session__event").filter(group__session__event=event).first()
    sets = sorted(table_plan(table).sets(table))
    mine = submit_result(table, sets[0], changes=CHANGES, actor="t")
    other = submit_result(table, sets[1], changes=CHANGES, actor="t")
    assert other.revisions.count() == 1
    fresh = HandResult.objects.get(pk=mine.pk)
    set_history(fresh, list(mine.revisions.all()))
    with CaptureQueriesContext(connection) as sql:
        kept = [r.pk for r in fresh.revisions.all()]
    assert kept == [r.pk for r in mine.revisions.all()] and sql.captured_queries == []
    assert list(fresh.revisions.filter(action="enter").values_list("result_id", flat=True)) == [mine.pk]


def test_the_result_and_its_history_are_read_together_and_a_result_without_history_is_still_found(event):
    """The API reads a result with its history in one statement (the revisions joined with the
    result), as prefetch_related gives them; a result stored without a revision (as an import may
    store it) is read on its own with an empty history; another event's result is not found."""
    from scoring.api import _result_with_history
    from scoring.models import HandResult, ResultRevision

    table = Table.objects.select_related("group__session__event").filter(group__session__event=event).first()
    sets = sorted(table_plan(table).sets(table))
    entered = submit_result(table, sets[0], changes=CHANGES, actor="t")
    with CaptureQueriesContext(connection) as sql:
        found = _result_with_history(event.pk, entered.pk)
    expected = HandResult.objects.select_related("table__group__session").prefetch_related("revisions").get(pk=entered.pk)
    assert len(sql.captured_queries) == 1
    assert _instance_view(found)["_related"] == _instance_view(expected)["_related"]
    assert [(r.pk, r.action, r.result is found) for r in found.revisions.all()] == [
        (r.pk, r.action, True) for r in expected.revisions.all()]
    bare = submit_result(table, sets[1], changes=CHANGES, actor="t")
    ResultRevision.objects.filter(result=bare).delete()
    with CaptureQueriesContext(connection) as sql:
        alone = _result_with_history(event.pk, bare.pk)
    assert alone.pk == bare.pk and list(alone.revisions.all()) == [] and len(sql.captured_queries) == 2
    other = prepared_event(team_roster(4), name="Other three", slug="other-three")
    assert _result_with_history(other.pk, entered.pk) is None and _result_with_history(event.pk, 10**12) is None


@pytest.mark.parametrize("read", ["orm", "prepared"])
def test_an_event_read_from_the_database_finds_its_rule_set_by_its_stored_text(event, read):
    """The rule set definition read from the database remembers its JSON text; the event's rule set
    is the one that text parses to, the same object for every read; a definition assigned anew
    (a plain dict) is parsed from itself, not from the old text."""
    import json

    from tournament.models import Event, StoredDefinition, _stored_ruleset
    from walls.rulesets.presets import PRESETS

    found = Event.objects.get(pk=event.pk) if read == "orm" else event_by_slug(event.slug)
    assert isinstance(found.ruleset, StoredDefinition) and json.loads(found.ruleset.stored_text) == found.ruleset
    assert found.ruleset == event.ruleset and json.loads(json.dumps(found.ruleset)) == found.ruleset
    assert found.get_ruleset() is _stored_ruleset(found.ruleset.stored_text)
    assert found.get_ruleset() is event.get_ruleset()  # one rule set per definition, however the event was read
    again = Event.objects.get(pk=event.pk)
    assert again.get_ruleset() is found.get_ruleset()  # parsed once per process
    other = next(r for code, r in PRESETS.items() if r.name != found.get_ruleset().name)
    found.ruleset = other.to_dict()
    assert found.get_ruleset().name == other.name  # the new definition, not the stored text


def test_the_queries_of_an_entry_and_a_confirmation_are_prepared_on_this_database(event):
    """On every database (PostgreSQL wraps whole numbers in a type chosen by the field: psycopg's
    Int2, Int4, Int8) the table plan, the checks, the result lock, the history and the event are
    compiled once, not built afresh on every call; a number beyond a small column's range is
    answered as the ORM answers it (nothing found), not as a database error."""
    from scoring.actions.confirmation import confirm_result
    from scoring.api import _HISTORY_WITH_RESULT, _result_with_history
    from tournament.table_plan import table_plan_by_number

    table = Table.objects.select_related("group__session__event").filter(group__session__event=event).first()
    found = table_plan_by_number(event, table.number)
    assert found is not None
    result = submit_result(table, first_set(table), changes=CHANGES, actor="t", entered_by_seat="E",
                           entry_pin=table.seats.get(seat="E").player.pin, plan=found[1])
    confirm_result(_result_with_history(event.pk, result.pk), actor="t", pin=table.seats.get(seat="S").player.pin)
    assert event_by_slug(event.slug).pk == event.pk
    for prepared in (_SEATS_BY_NUMBER, _PLAN_SEATS["group"], _LOCKED[False], _HISTORY_WITH_RESULT, _EVENT_BY_SLUG,
                     *[c for c in _CHECKS.values() if c._compiled]):
        assert prepared._compiled and None not in prepared._compiled.values(), prepared._build
        assert all(c.rows is not None for c in prepared._compiled.values())  # read without the queryset's iterable
    assert _SEATS_BY_NUMBER(event.pk, table.number, 40000) == [] == _SEATS_BY_NUMBER(event.pk, table.number, -40000)  # a smallint
    assert _SEATS_BY_NUMBER(event.pk, 2**31 - 1) == [] and _SEATS_BY_NUMBER(2**31 - 1, table.number) == []
    assert [a.seat for a in _SEATS_BY_NUMBER(event.pk, table.number)] == [a.seat for a in _seats_by_number(event.pk, table.number)]
