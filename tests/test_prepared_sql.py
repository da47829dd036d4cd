"""Every statement the application prepares (:mod:`tournament.prepared`) is the statement the ORM
sends for the same queryset, ``create`` or ``save`` with the same arguments, and answers the
same rows and objects: the guard of the private ORM parts that module relies on (the Django
series pinned in pyproject.toml). Each prepared query, insert and update of the application is
found by walking the modules that define them, and each must have a case here.

A compiled query that locks rows refuses to run outside a transaction where the ORM refuses
(``TransactionManagementError``, on databases with row locks)."""

from __future__ import annotations

import datetime
import importlib
import pathlib
import re

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from factories import first_set, prepared_event, team_roster
from scoring.actions.entry import store_attempt, submit_result
from scoring.actions.seats import Device
from scoring.models import ConfirmationAttempt, HandResult, ResultRevision, SetRelease
from test_prepared import _instance_view
from tournament import prepared as prepared_module
from tournament.models import EventRole, Table
from tournament.prepared import PreparedInsert, PreparedQuery, PreparedUpdate

#: the modules defining the application's prepared statements
MODULES = ("tournament.access", "tournament.table_plan", "tournament.permissions", "tournament.models",
           "scoring.visibility", "scoring.actions.confirmation", "scoring.actions.entry", "scoring.actions.rescoring", "scoring.api")
ROOT = pathlib.Path(__file__).resolve().parent.parent
KINDS = (PreparedQuery, PreparedInsert, PreparedUpdate)
CHANGES = {"E": 34, "S": -18, "W": -8, "N": -8}
NOW = datetime.datetime(2026, 5, 4, 12, 30, 15, 123456, tzinfo=datetime.UTC)


def _defined() -> dict[tuple, PreparedQuery | PreparedInsert | PreparedUpdate]:
    """Every prepared statement held by :data:`MODULES`, by ``(module, name)`` or, for those kept
    in a dict by what they read, ``(module, name, key)``."""
    found: dict[tuple, PreparedQuery | PreparedInsert | PreparedUpdate] = {}
    for name in MODULES:
        for attr, value in vars(importlib.import_module(name)).items():
            if isinstance(value, KINDS):
                found[(name, attr)] = value
            elif isinstance(value, dict):
                found.update({(name, attr, key): v for key, v in value.items() if isinstance(v, KINDS)})
    return found


def test_every_module_making_prepared_statements_is_walked():
    """A new module preparing statements must be added to MODULES (and its statements to the
    cases below)."""
    making = set()
    for path in [*ROOT.glob("tournament/**/*.py"), *ROOT.glob("scoring/**/*.py"), *ROOT.glob("walls/**/*.py")]:
        if "migrations" in path.parts or path.name == "prepared.py":
            continue
        if re.search(r"\bPrepared(Query|Insert|Update)\(", path.read_text(encoding="utf-8")):
            making.add(".".join(path.relative_to(ROOT).with_suffix("").parts))
    assert making == set(MODULES)


@pytest.fixture
def world(db):
    """An event with a result (with a request key), a wrong and a right PIN attempt, a released
    set and a scorer: something for every prepared read to find."""
    event = prepared_event(team_roster(8), name="Prepared SQL", slug="prepared-sql")
    table = Table.objects.select_related("group__session__event").filter(group__session__event=event).order_by("number").first()
    result = submit_result(table, first_set(table), changes=CHANGES, actor="t", request_key="key-12345678")
    store_attempt(table, None, "", ok=False, actor="t", device=Device("phone:one", "10.0.0.1"))
    store_attempt(table, result, "S", ok=True, actor="t", device=Device("phone:two", "10.0.0.2"))
    SetRelease.objects.create(event=event, session_number=1, set_no=result.set_no)
    user = get_user_model().objects.create_user("scorer-prepared-sql", password="pw-prepared-1")
    EventRole.objects.create(event=event, user=user, role=EventRole.Role.SCORER).tables.set([table])
    return {"event": event, "table": table, "result": result, "user": user}


def _query_cases(w) -> dict[tuple, list[tuple]]:
    """The arguments each prepared query is checked with (each tuple is one call)."""
    event, table, result, user = w["event"], w["table"], w["result"], w["user"]
    session, group = table.group.session, table.group
    checks = {}
    for previous in (False, True):
        for count_wrong in (False, True):
            for keyed in (False, True):
                head = (table.pk, *((session.pk, group.number, table.position, result.set_no) if previous else ()),
                        *(("phone:one",) if count_wrong else ()), *(("key-12345678",) if keyed else ()))
                checks[("scoring.actions.entry", "_CHECKS", (previous, count_wrong, keyed))] = [head, (*head, result.set_no)]
    return {
        ("tournament.access", "_EVENT_BY_SLUG"): [(event.slug,), ("no-such-event",)],
        ("tournament.access", "_TABLE_OF_EVENT"): [(table.pk, event.slug), (table.pk, "no-such-event")],
        **{("tournament.table_plan", "_PLAN_SEATS", lock): [(table.pk, session.pk)] for lock in (None, "table", "group", "session")},
        ("tournament.table_plan", "_SEATS_BY_NUMBER"): [(event.pk, table.number), (event.pk, table.number, 1), (event.pk, 999)],
        ("tournament.permissions", "_ROLES"): [(event.pk, user.pk), (event.pk, user.pk + 1)],
        ("tournament.models", "_VERSIONS"): [(event.pk,)],
        ("scoring.visibility", "_RELEASED_IN_SESSION"): [(event.pk, 1), (event.pk, 2)],
        ("scoring.visibility", "_TRAVELLER_STATE"): [(event.pk, 1, result.set_no), (event.pk, 1, result.set_no + 1), (event.pk, 9, 1)],
        **{("scoring.actions.confirmation", "_LOCKED", field): [
            (result.pk, table.pk, session.pk if field else group.pk, "phone:one"),
            (result.pk, table.pk, session.pk if field else group.pk, "phone:two", "key-12345678"),
            (result.pk, table.pk, session.pk if field else group.pk, "", "another-key-1")] for field in (False, True)},
        **checks,
        **{("scoring.actions.rescoring", "_SCOPE_SEATS", field): [
            (event.pk, 1, result.set_no, session.pk if field else group.pk),
            (event.pk, 1, result.set_no + 1, session.pk if field else group.pk)] for field in (False, True)},
        ("scoring.actions.entry", "_HISTORY"): [(result.pk,)],
        ("scoring.actions.entry", "_LOCK_TABLE"): [(table.pk,)],
        ("scoring.api", "_RESULT_OF_EVENT"): [(event.pk, result.pk), (event.pk + 1, result.pk)],
        ("scoring.api", "_HISTORY_WITH_RESULT"): [(event.pk, result.pk)],
    }


def _view(rows: list) -> list:
    return [_instance_view(r) if hasattr(r, "_state") else r for r in rows]


def _sql(captured: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in captured.captured_queries]


def _insert_values(w) -> dict[tuple, dict]:
    event, table, result = w["event"], w["table"], w["result"]
    return {
        ("scoring.actions.entry", "_INSERT_RESULT"): dict(
            event=event, table=table, session_number=1, set_no=result.set_no + 1, changes=CHANGES,
            outcome={"kind": "discard", "winners": ["E"], "discarder": "S", "fans": [10]}, wall_flag="", deposit=0, entered_by="Ann (E)"),
        ("scoring.actions.entry", "_INSERT_REVISION"): dict(
            result=result, revision=2, action="correct", status=result.status, changes=CHANGES, previous=None,
            outcome=result.outcome, actor="Ann (E)", reason="typo", request_key="key-2", request_digest="d" * 32),
        ("scoring.actions.entry", "_INSERT_ATTEMPT"): dict(
            table=table, result=result, seat="W", ok=True, actor="Cy (W)", device="phone:three", address="10.0.0.3"),
    }


def test_every_prepared_statement_of_the_application_has_a_case(world):
    cases = {*_query_cases(world), *_insert_values(world), ("scoring.actions.confirmation", "_SAVE_CONFIRMED")}
    assert set(_defined()) == cases


def test_every_prepared_query_sends_the_orms_statement_and_answers_its_rows(world):
    defined = _defined()
    checked = 0
    with transaction.atomic():  # the locking ones need a transaction
        for key, calls in _query_cases(world).items():
            prepared = defined[key]
            assert isinstance(prepared, PreparedQuery), key
            for args in calls:
                prepared(*args)  # compiled the first time
                found = prepared._compiled[(connection.alias, connection.vendor, tuple(type(a) for a in args))]
                assert found is not None, (key, args)  # prepared, not left to the ORM
                with CaptureQueriesContext(connection) as kept_sql:
                    kept = prepared(*args)
                with CaptureQueriesContext(connection) as orm_sql:
                    orm = list(prepared._build(*args))
                assert _sql(kept_sql) == _sql(orm_sql) and len(_sql(orm_sql)) == 1, (key, args)
                assert _view(kept) == _view(orm), (key, args)
                assert [type(r) for r in kept] == [type(r) for r in orm], (key, args)
                checked += bool(orm)
    assert checked >= 30  # most calls find something: not a comparison of empty answers


def _written(obj) -> dict:
    """What an instance written by an INSERT or UPDATE holds, its key apart (a sequence number)."""
    return {k: v for k, v in vars(obj).items() if k not in ("_state", "id")} | {"_state": (obj._state.db, obj._state.adding)}


def test_every_prepared_insert_sends_the_orms_statement_and_gives_its_instance(world, monkeypatch):
    """``create`` (``bulk_create(ignore_conflicts=True)``'s INSERT with the key returned, for an
    insert ignoring conflicts), at the same frozen time, in a rolled-back savepoint each."""
    monkeypatch.setattr(timezone, "now", lambda: NOW)
    defined = _defined()
    for key, values in _insert_values(world).items():
        insert = defined[key]
        assert isinstance(insert, PreparedInsert), key
        runs = {}
        model = insert.model
        for name, run in (("kept", insert), ("orm", model.objects.create),
                          ("bulk", lambda **v: model.objects.bulk_create([model(**v)], ignore_conflicts=True))):  # noqa: B023 - run at once
            with transaction.atomic():
                with CaptureQueriesContext(connection) as sql:
                    obj = run(**values)
                runs[name] = ([s for s in _sql(sql) if s.startswith("INSERT")], obj)
                transaction.set_rollback(True)
        assert None not in insert._compiled.values() and insert._compiled, key  # prepared, not left to the ORM
        (kept_sql, kept), (orm_sql, orm), (bulk_sql, _) = runs["kept"], runs["orm"], runs["bulk"]
        assert len(kept_sql) == len(orm_sql) == len(bulk_sql) == 1, key
        if insert.ignore_conflicts:
            returning = orm_sql[0][orm_sql[0].rindex(" RETURNING "):]
            assert kept_sql == [bulk_sql[0] + returning], key
        else:
            assert kept_sql == orm_sql, key
        assert kept.pk is not None and _written(kept) == _written(orm), key
    duplicate = defined[("scoring.actions.entry", "_INSERT_RESULT")](**{**_insert_values(world)[("scoring.actions.entry", "_INSERT_RESULT")],
                                                                         "set_no": world["result"].set_no})
    assert duplicate is None  # the table's result on that set is there: ignored, as bulk_create ignores it


def test_the_prepared_update_sends_the_orms_statement(world, monkeypatch):
    monkeypatch.setattr(timezone, "now", lambda: NOW)
    update = _defined()[("scoring.actions.confirmation", "_SAVE_CONFIRMED")]
    assert isinstance(update, PreparedUpdate)
    runs = {}
    for name, run in (("kept", update), ("orm", lambda r: r.save(update_fields=update.field_names))):
        result = HandResult.objects.get(pk=world["result"].pk)
        result.status, result.confirmed_by, result.revision = HandResult.Status.CONFIRMED, "Bo (S), Table 1", 2
        with transaction.atomic():
            with CaptureQueriesContext(connection) as sql:
                run(result)
            runs[name] = (_sql(sql), _written(result), HandResult.objects.filter(pk=result.pk).values().get())
            transaction.set_rollback(True)
    assert None not in update._compiled.values() and update._compiled  # prepared, not left to the ORM
    assert runs["kept"] == runs["orm"] and len(runs["kept"][0]) == 1


def test_a_django_other_than_the_tested_one_builds_every_query_as_usual(world, monkeypatch):
    """Under another Django series nothing is prepared (the private ORM parts may differ): each
    call builds its queryset, creates or saves, with the same answers."""
    monkeypatch.setattr(prepared_module, "ENABLED", False)
    built = []
    table = world["table"]
    query = PreparedQuery(Table, lambda pk: built.append(pk) or Table.objects.filter(pk=pk))
    assert [t.pk for t in query(table.pk)] == [t.pk for t in query(table.pk)] == [table.pk]
    assert built == [table.pk, table.pk] and query._compiled == {}
    insert = PreparedInsert(ConfirmationAttempt)
    attempt = insert(table=table, result=None, seat="", ok=False, actor="x")
    assert attempt.pk and insert._compiled == {}
    update = PreparedUpdate(HandResult, ("revision",))
    result = world["result"]
    result.revision = 7
    update(result)
    assert HandResult.objects.get(pk=result.pk).revision == 7 and update._compiled == {}
    assert ResultRevision.objects.filter(result=result).exists()


@pytest.mark.django_db(transaction=True)
def test_a_locking_prepared_query_outside_a_transaction_refuses_as_the_orm_does():
    """Compiled inside a transaction, then called in autocommit: it raises
    TransactionManagementError where the ORM's queryset raises it (databases with row locks),
    and runs where the ORM runs it (SQLite, which has none: the lock is left out)."""
    locking = {key: p for key, p in _defined().items() if isinstance(p, PreparedQuery)}
    args_of = {"_PLAN_SEATS": (1, 1), "_LOCKED": (1, 1, 1, "phone:one"), "_LOCK_TABLE": (1,), "_SCOPE_SEATS": (1, 1, 1, 1)}
    seen = set()
    for key, prepared in locking.items():
        if key[1] not in args_of:
            continue
        args = args_of[key[1]]
        with transaction.atomic():
            prepared(*args)
            compiled = prepared._compiled[(connection.alias, connection.vendor, tuple(type(a) for a in args))]
        assert compiled is not None
        if not compiled.locks:
            continue
        seen.add(key[1])
        assert connection.get_autocommit()
        try:
            list(prepared._build(*args))
        except TransactionManagementError:
            with pytest.raises(TransactionManagementError, match="outside of a transaction"):
                prepared(*args)
            assert connection.features.has_select_for_update
        else:
            assert prepared(*args) == [] and not connection.features.has_select_for_update
    assert seen == set(args_of)
