"""Result entry and confirmation cost a fixed number of SQL statements, whatever the size of the
event: the same counts at 16 and 256 teams (1,024 players), pinned here so that a regression
fails a test without timing anything (the CPU figures are the benchmark's: ``python manage.py
bench entry``).

What is counted: every statement the code sends except transaction control (BEGIN, COMMIT,
ROLLBACK, SAVEPOINT, RELEASE SAVEPOINT), captured with ``CaptureQueriesContext``:

- the service call (:func:`~scoring.actions.entry.submit_result`,
  :func:`~scoring.actions.confirmation.confirm_result`): at most 6 — the table plan read with
  the lock it needs, the checks read in one statement, the rows written, the version bump last;
- a confirmation that completes its comparison: more (the set is scored for the group and the
  release checked), bounded and the same at both sizes;
- the requests (API and table page): the service plus authentication, the event and role
  look-ups; nothing after the write's commit (the answer is built from the rows in hand).
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from factories import client_for, login_as_table, rolled_back, team_roster
from scoring.actions.confirmation import confirm_result
from scoring.actions.entry import submit_result
from scoring.models import HandResult, SetScore
from tournament.api_tokens import issue_token
from tournament.models import EventRole, Table
from tournament.seating import seat_session
from tournament.services import create_event, import_roster
from tournament.table_plan import table_plan

pytestmark = pytest.mark.django_db

CHANGES = {"E": 34, "S": -18, "W": -8, "N": -8}
CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE SAVEPOINT")

SERVICE_ENTRY = 6  # the table's row locked, the checks (movement, wrong PINs), the result, its revision, the PIN's attempt, the version
SERVICE_CONFIRM = 6  # the plan with the scope's lock, the result locked with its counts, the attempt, the result, its revision, the version
SERVICE_COMPLETING = 10  # the same 5, then the group's comparison rescored: its seats, results, versions played and conversion table read with the session's lock (1), its scores deleted (1) and inserted (1), the set released if complete (1); the bump


def statements(captured) -> list[str]:
    """The SQL of ``captured`` (a CaptureQueriesContext) without transaction control."""
    return [q["sql"] for q in captured.captured_queries
            if not q["sql"].lstrip().upper().startswith(CONTROL)]


@pytest.fixture(scope="module", params=[16, 256], ids=["16-teams", "256-teams"])
def sized(request, django_db_setup, django_db_blocker):
    """A team event of ``request.param`` teams with session 1 seated (no walls: entry does not
    read them), and a scorer account bound to every table: built once per module and size."""
    with rolled_back(django_db_blocker):
        teams = request.param
        event = create_event(name=f"Size {teams}", slug=f"size-{teams}", sessions=1)
        import_roster(event, team_roster(teams))
        seat_session(event, 1)
        scorer = get_user_model().objects.create_user(f"scorer-{teams}", password="pw-scorer-size")
        EventRole.objects.create(event=event, user=scorer, role=EventRole.Role.SCORER).tables.set(
            Table.objects.filter(group__session__event=event))
        yield event, scorer


def _table(event, number: int = 1) -> Table:
    return Table.objects.select_related("group__session__event").get(group__session__event=event, number=number)


def _first_set(table: Table) -> int:
    return table_plan(table).blocks(table)[0][1][0]


def _pin(table: Table, seat: str) -> str:
    return table.seats.select_related("player").get(seat=seat).player.pin


def _others_confirmed(table: Table, set_no: int) -> None:
    """Every other table of ``table``'s group has a confirmed result on ``set_no``."""
    for other in Table.objects.filter(group=table.group).exclude(pk=table.pk):
        HandResult.objects.create(event=table.group.session.event, table=other, session_number=1, set_no=set_no,
                                  changes={"E": 0, "S": 0, "W": 0, "N": 0}, status=HandResult.Status.CONFIRMED)


def test_team_event_sizes_differ(sized):
    event, _scorer = sized
    assert Table.objects.filter(group__session__event=event).count() in (16, 256)


def test_an_entry_with_a_pin_is_six_statements(sized):
    event, _scorer = sized
    table = _table(event)
    set_no, pin = _first_set(table), _pin(table, "E")
    with CaptureQueriesContext(connection) as captured:
        result = submit_result(table, set_no, changes=CHANGES, actor="t", entered_by_seat="E", entry_pin=pin)
    sql = statements(captured)
    assert len(sql) == SERVICE_ENTRY, sql
    assert "FOR" in sql[0] or connection.vendor == "sqlite"  # the plan read holds the table's lock
    assert sql[-1].startswith("UPDATE") and "eventversion" in sql[-1]  # the version bump is the last statement
    assert [r.action for r in result.revisions.all()] == ["enter"] and result.entered_by.endswith(f"(E), {table}")


def test_an_entry_with_the_plan_in_hand_is_six_statements(sized):
    """The table page reads the plan for its form and hands it to the service."""
    event, _scorer = sized
    table = _table(event)
    plan, set_no, pin = table_plan(table), _first_set(table), _pin(table, "E")
    with CaptureQueriesContext(connection) as captured:
        submit_result(table, set_no, changes=CHANGES, actor="t", entered_by_seat="E", entry_pin=pin, plan=plan)
    assert len(statements(captured)) == SERVICE_ENTRY, statements(captured)


def test_a_confirmation_that_leaves_the_comparison_open_is_six_statements_and_scores_nothing(sized):
    event, _scorer = sized
    table = _table(event)
    result = submit_result(table, _first_set(table), changes=CHANGES, actor="t", entered_by_seat="E",
                           entry_pin=_pin(table, "E"))
    result.table, pin = table, _pin(table, "S")
    with CaptureQueriesContext(connection) as captured:
        confirmed = confirm_result(result, actor="t", pin=pin)
    sql = statements(captured)
    assert len(sql) == SERVICE_CONFIRM, sql
    # removes nothing, stores nothing; the version's UPDATE only asks whether the set is released
    assert not any("scoring_setscore" in q or "scoring_setrelease" in q for q in sql[:-1])
    assert sql[-1].startswith("UPDATE") and "eventversion" in sql[-1] and "scoring_setscore" not in sql[-1]
    assert confirmed.status == HandResult.Status.CONFIRMED and confirmed.confirmed_by.endswith(f"(S), {table}")
    assert not SetScore.objects.filter(event=event).exists()


def test_the_confirmation_completing_a_comparison_scores_it_in_a_bounded_number_of_statements(sized):
    event, _scorer = sized
    table = _table(event)
    set_no = _first_set(table)
    _others_confirmed(table, set_no)
    result = submit_result(table, set_no, changes=CHANGES, actor="t", entered_by_seat="E", entry_pin=_pin(table, "E"))
    result.table, pin = table, _pin(table, "S")
    with CaptureQueriesContext(connection) as captured:
        confirm_result(result, actor="t", pin=pin)
    sql = statements(captured)
    assert len(sql) == SERVICE_COMPLETING, "\n".join(q[:150] for q in sql)
    assert sql[-1].startswith("UPDATE") and "eventversion" in sql[-1]
    assert [q.split()[0] for q in sql[5:9]] == ["SELECT", "DELETE", "INSERT", "INSERT"] and "scoring_setrelease" in sql[8]
    assert "FOR UPDATE" in sql[5] or connection.vendor == "sqlite"  # the session's lock, before the release counts
    tables = Table.objects.filter(group=table.group).count()
    assert SetScore.objects.filter(event=event, set_no=set_no, group=table.group).count() == tables  # one team a table


API_ENTRY = 4 + 6  # token (1 read: by its prefix, its user joined), the event, the caller's roles with their scorer tables, the table with its plan; the service
API_COMPLETING = 4 + SERVICE_COMPLETING  # the same look-ups; the service completing the comparison
API_CONFIRM = 4 + 6  # token (1), the event, roles with scorer tables, the result with its history (one read; at the caller's own table: seen); the service


def _after_commit(sql: list[str]) -> list[str]:
    """The statements after the write's last one (the version bump)."""
    last = max(i for i, q in enumerate(sql) if "eventversion" in q and q.startswith("UPDATE"))
    return sql[last + 1:]


def test_api_entry_and_confirmation_cost_the_same_at_every_size_and_read_nothing_after_the_commit(sized):
    event, scorer = sized
    table = _table(event)
    api = client_for(token=issue_token(scorer))
    api.get(reverse("result-list", args=[event.slug]))  # the token's first use records it: measured from the next request on
    set_no, pin_e, pin_s = _first_set(table), _pin(table, "E"), _pin(table, "S")
    with CaptureQueriesContext(connection) as entry:
        response = api.post(reverse("result-list", args=[event.slug]), {
            "table": table.number, "set_no": set_no, "changes": CHANGES, "entered_by_seat": "E",
            "entry_pin": pin_e}, content_type="application/json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert [h["action"] for h in body["history"]] == ["enter"] and body["status"] == "entered"
    with CaptureQueriesContext(connection) as confirm:
        response = api.post(reverse("result-confirm", args=[event.slug, body["id"]]), {"pin": pin_s},
                            content_type="application/json")
    assert response.status_code == 200, response.content
    assert [h["action"] for h in response.json()["history"]] == ["enter", "confirm"]
    for captured, pinned in ((entry, API_ENTRY), (confirm, API_CONFIRM)):
        sql = statements(captured)
        assert len(sql) == pinned, sql
        assert _after_commit(sql) == []


PAGE_ENTRY = 3 + 1 + 6  # the table login's check (3: the table, the browser session, the release count), the plan for the form (1), the service
PAGE_CONFIRM = 3 + 1 + 6  # the table login's check (3), the result, the service


def test_table_page_entry_and_confirmation_cost_the_same_at_every_size(sized, client):
    event, _scorer = sized
    table = _table(event)
    assert login_as_table(client, table).status_code == 302
    url, pin_s = reverse("table", args=[event.slug, table.pk]), _pin(table, "S")
    data = {"set_no": str(_first_set(table)), "mode": "outcome", "kind": "discard", "winners": "E", "discarder": "S",
            "value_E": "10", "entered_by_seat": "E", "entry_pin": _pin(table, "E")}
    with CaptureQueriesContext(connection) as entry:
        response = client.post(url, data)
    assert response.status_code == 302
    result = HandResult.objects.get(table=table)
    with CaptureQueriesContext(connection) as confirm:
        response = client.post(reverse("table-confirm", args=[event.slug, table.pk, result.pk]),
                               {"pin": pin_s, "revision": result.revision})
    assert response.status_code == 302
    assert HandResult.objects.get(pk=result.pk).status == HandResult.Status.CONFIRMED
    for captured, pinned in ((entry, PAGE_ENTRY), (confirm, PAGE_CONFIRM)):
        sql = statements(captured)
        assert len(sql) == pinned, sql
        assert _after_commit(sql) == []


def test_the_api_confirmation_completing_a_comparison_costs_the_same_at_every_size(sized):
    """The confirmation that completes its group's comparison through the API (one in four on the
    day): the look-ups, the service with the group rescored, nothing after the commit."""
    event, scorer = sized
    table = _table(event)
    set_no = _first_set(table)
    _others_confirmed(table, set_no)
    api = client_for(token=issue_token(scorer))
    api.get(reverse("result-list", args=[event.slug]))  # the token's first use records it
    response = api.post(reverse("result-list", args=[event.slug]), {
        "table": table.number, "set_no": set_no, "changes": CHANGES, "entered_by_seat": "E",
        "entry_pin": _pin(table, "E")}, content_type="application/json")
    assert response.status_code == 201, response.content
    url, pin = reverse("result-confirm", args=[event.slug, response.json()["id"]]), _pin(table, "S")
    with CaptureQueriesContext(connection) as confirm:
        response = api.post(url, {"pin": pin}, content_type="application/json")
    assert response.status_code == 200, response.content
    sql = statements(confirm)
    assert len(sql) == API_COMPLETING, "\n".join(q[:150] for q in sql)
    assert _after_commit(sql) == []
    assert SetScore.objects.filter(event=event, set_no=set_no, group=table.group).count() == \
        Table.objects.filter(group=table.group).count()
