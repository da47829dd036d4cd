"""Idempotent writes (:mod:`scoring.actions.request_keys`): a write sent again with the key the
device made for it is stored once and answered with the stored result, through the API and the
table's pages, for entry, confirmation, correction and dispute; a key used for another write is
refused; finding a repeat costs the entry no statement of its own.

What a scorer at a table does when the network fails: sends the same thing again. Without keys
the second sending met a conflict (409) or, for a confirmation, "already confirmed"."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from factories import api_key, client_for, entering, first_set, first_table, in_threads, pin, scorer_of_every_table, table_url
from scoring.actions.entry import submit_result
from scoring.models import ConfirmationAttempt, HandResult, ResultRevision
from tournament.models import Table

CHANGES = {"E": 48, "S": -16, "W": -16, "N": -16}
CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE SAVEPOINT")


@pytest.fixture
def scorer(team_event):
    return client_for(token=api_key(scorer_of_every_table(team_event, "keyed-scorer")))


def _post(client, url, body, key=None):
    extra = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return client.post(url, json.dumps(body), content_type="application/json", **extra)


def _entry(table):
    return {"table": table.number, "set_no": first_set(table), "changes": CHANGES, "entered_by_seat": "E",
            "entry_pin": pin(table, "E")}


@pytest.mark.django_db
def test_the_same_entry_sent_twice_stores_one_result_and_returns_it_both_times(team_event, scorer):
    table = first_table(team_event)
    url = f"/api/events/{team_event.slug}/results/"
    first = _post(scorer, url, _entry(table), key="7b0c5e9e-3f0d-4c57-9a55-0d6f3c1e2a01")
    again = _post(scorer, url, _entry(table), key="7b0c5e9e-3f0d-4c57-9a55-0d6f3c1e2a01")
    assert first.status_code == 201 and "Idempotent-Replayed" not in first
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert again.json()["id"] == first.json()["id"] and again.json()["changes"] == CHANGES
    assert again.json()["history"] == first.json()["history"]
    assert HandResult.objects.count() == 1 and ResultRevision.objects.count() == 1
    assert ConfirmationAttempt.objects.count() == 1  # the entering PIN's attempt, once


@pytest.mark.django_db
def test_the_key_may_also_travel_in_the_body(team_event, scorer):
    table = first_table(team_event)
    url = f"/api/events/{team_event.slug}/results/"
    body = {**_entry(table), "request_key": "body-key-0001"}
    assert _post(scorer, url, body).status_code == 201
    assert _post(scorer, url, body).status_code == 200
    assert HandResult.objects.get().revisions.get().request_key == "body-key-0001"


@pytest.mark.django_db
def test_without_a_key_the_second_sending_is_a_conflict_as_before(team_event, scorer):
    table = first_table(team_event)
    url = f"/api/events/{team_event.slug}/results/"
    assert _post(scorer, url, _entry(table)).status_code == 201
    second = _post(scorer, url, _entry(table))
    assert second.status_code == 409 and second.json()["existing"] == HandResult.objects.get().pk


@pytest.mark.django_db
def test_a_confirmation_sent_twice_confirms_once_and_answers_both_times(team_event, scorer):
    table = first_table(team_event)
    entered = _post(scorer, f"/api/events/{team_event.slug}/results/", _entry(table), key="entry-key-0001").json()
    url = f"/api/events/{team_event.slug}/results/{entered['id']}/confirm/"
    first = _post(scorer, url, {"pin": pin(table, "S")}, key="confirm-key-0001")
    again = _post(scorer, url, {"pin": pin(table, "S")}, key="confirm-key-0001")
    assert first.status_code == 200 and first.json()["status"] == "confirmed"
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true" and again.json()["status"] == "confirmed"
    assert [r.action for r in ResultRevision.objects.order_by("id")] == ["enter", "confirm"]
    unkeyed = _post(scorer, url, {"pin": pin(table, "S")})
    assert unkeyed.status_code == 409  # a new confirmation of a confirmed result is still refused


@pytest.mark.django_db
def test_a_correction_and_a_dispute_sent_twice_are_stored_once(team_event, scorer):
    table = first_table(team_event)
    entered = _post(scorer, f"/api/events/{team_event.slug}/results/", _entry(table), key="entry-key-0002").json()
    base = f"/api/events/{team_event.slug}/results/{entered['id']}"
    corrected = {"changes": {"E": 32, "S": -16, "W": -8, "N": -8}, "entered_by_seat": "W", "entry_pin": pin(table, "W")}
    assert _post(scorer, f"{base}/correct/", corrected, key="correct-key-0001").json()["revision"] == 2
    again = _post(scorer, f"{base}/correct/", corrected, key="correct-key-0001")
    assert again.status_code == 200 and again.json()["revision"] == 2 and again["Idempotent-Replayed"] == "true"
    assert _post(scorer, f"{base}/dispute/", {"reason": "the discarder was North"}, key="dispute-key-01").json()["revision"] == 3
    again = _post(scorer, f"{base}/dispute/", {"reason": "the discarder was North"}, key="dispute-key-01")
    assert again.status_code == 200 and again.json()["revision"] == 3 and again.json()["status"] == "disputed"
    assert [r.action for r in ResultRevision.objects.order_by("id")] == ["enter", "correct", "dispute"]


@pytest.mark.django_db
def test_a_key_used_for_another_write_is_refused_and_nothing_is_written(team_event, scorer):
    tables = list(Table.objects.filter(group__session__event=team_event).order_by("number")[:2])
    url = f"/api/events/{team_event.slug}/results/"
    entered = _post(scorer, url, _entry(tables[0]), key="shared-key-0001").json()
    other_table = _post(scorer, url, _entry(tables[1]), key="shared-key-0001")
    assert other_table.status_code == 422 and "request_key" in other_table.json()
    as_confirmation = _post(scorer, f"{url}{entered['id']}/confirm/", {"pin": pin(tables[0], "S")}, key="shared-key-0001")
    assert as_confirmation.status_code == 422 and "another write" in as_confirmation.json()["request_key"][0]
    assert HandResult.objects.count() == 1 and HandResult.objects.get().status == "entered"
    assert ResultRevision.objects.count() == 1


@pytest.mark.django_db
def test_a_key_that_is_not_a_key_is_refused_naming_the_field(team_event, scorer):
    table = first_table(team_event)
    response = _post(scorer, f"/api/events/{team_event.slug}/results/", _entry(table), key="short")
    assert response.status_code == 400
    assert "request_key" in response.json() and "UUID" in response.json()["request_key"][0]
    assert not HandResult.objects.exists()


@pytest.mark.django_db
def test_a_keyed_entry_costs_no_more_statements_and_its_repeat_writes_nothing(team_event):
    table = Table.objects.select_related("group__session__event").get(pk=first_table(team_event).pk)
    set_no, e_pin = first_set(table), pin(table, "E")
    with CaptureQueriesContext(connection) as captured:
        submit_result(table, set_no, changes=CHANGES, actor="t", entered_by_seat="E", entry_pin=e_pin, request_key="count-key-01")
    sql = [q["sql"] for q in captured.captured_queries if not q["sql"].lstrip().upper().startswith(CONTROL)]
    assert len(sql) == 6, sql  # as without a key (tests/test_entry_queries.py): the key is asked in the checks' read
    with CaptureQueriesContext(connection) as captured:
        again = submit_result(table, set_no, changes=CHANGES, actor="t", entered_by_seat="E", entry_pin=e_pin,
                              request_key="count-key-01")
    assert again.replayed
    assert not [q for q in captured.captured_queries if q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))]


@pytest.mark.django_db
def test_the_table_page_form_sent_twice_stores_one_result(team_event):
    """A phone that sends the entry form again (the browser's retry, Back and Save) carries the
    same key, put in the form by the page: the second sending lands on the stored result."""
    table = first_table(team_event)
    phone = client_for(table=table)
    page = phone.get(table_url(table))
    key = page.context["form"]["request_key"].value()
    assert key and f'name="request_key" value="{key}"' in page.content.decode()
    form = {"set_no": str(first_set(table)), "mode": "outcome", "kind": "discard", "winners": "E", "discarder": "S",
            "value_E": "10", "request_key": key, **entering(table, "E")}
    first = phone.post(table_url(table), form)
    again = phone.post(table_url(table), form)
    assert first.status_code == again.status_code == 302
    result = HandResult.objects.get()
    assert first["Location"] == again["Location"] and f"confirm={result.pk}" in again["Location"]
    assert result.revisions.count() == 1
    assert phone.get(table_url(table)).context["form"]["request_key"].value() != key  # a new form, a new key


@pytest.mark.django_db
def test_the_table_page_confirmation_sent_twice_confirms_once(team_event):
    table = first_table(team_event)
    result = submit_result(table, first_set(table), changes=CHANGES, actor="t", **entering(table, "E"))
    phone = client_for(table=table)
    page = phone.get(table_url(table)).content.decode()
    key = page.split(f'id="confirm-{result.pk}"', 1)[1].split('name="request_key" value="', 1)[1].split('"', 1)[0]
    url = f"/e/{team_event.slug}/table/{table.pk}/confirm/{result.pk}/"
    form = {"pin": pin(table, "S"), "revision": "1", "request_key": key}
    assert phone.post(url, form).status_code == 302
    again = phone.post(url, form, follow=True)
    assert "confirmed" in again.content.decode() and "already confirmed" not in again.content.decode()
    assert [r.action for r in result.revisions.order_by("id")] == ["enter", "confirm"]


@pytest.mark.django_db(transaction=True)
def test_two_sendings_at_once_store_one_result_and_both_answer_with_it(team_event):
    """The phone's retry races its first sending (PostgreSQL: real concurrent transactions)."""
    if connection.vendor != "postgresql":
        pytest.skip("concurrent transactions need PostgreSQL (.ci/run's services half)")
    table = Table.objects.select_related("group__session__event").get(pk=first_table(team_event).pk)
    set_no, e_pin = first_set(table), pin(table, "E")
    answers, errors = in_threads(lambda: submit_result(table, set_no, changes=CHANGES, actor="t", entered_by_seat="E",
                                                       entry_pin=e_pin, request_key="race-key-0001"), 2)
    assert not errors, errors
    assert len({a.pk for a in answers}) == 1 and sorted(bool(getattr(a, "replayed", False)) for a in answers) == [False, True]
    assert HandResult.objects.count() == 1 and ResultRevision.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_after_a_fault_a_key_never_shows_another_table_s_result(team_event):
    """The answer after a fault looks the key up: a key that names another table's write is
    "not known" to this caller, never that table's result (the visibility rule)."""
    from scoring.actions.request_keys import after_fault

    tables = list(Table.objects.filter(group__session__event=team_event).select_related("group__session__event").order_by("number")[:2])
    submit_result(tables[1], first_set(tables[1]), changes=CHANGES, actor="t", request_key="other-table-key-01")
    seen = after_fault("other-table-key-01", belongs=lambda r: r.table_id == tables[0].pk)
    assert seen.stored is None and seen.result is None
    own = after_fault("other-table-key-01", belongs=lambda r: r.table_id == tables[1].pk)
    assert own.stored is True and own.result.table_id == tables[1].pk


# Issue 44, item 8: a key sent again with a different request is refused (the draft's fingerprint)


@pytest.mark.django_db
def test_a_key_sent_again_with_a_different_entry_is_422_and_changes_nothing(team_event, scorer):
    table = first_table(team_event)
    url = f"/api/events/{team_event.slug}/results/"
    key = "fingerprinted-entry-01"
    first = _post(scorer, url, _entry(table), key=key)
    assert first.status_code == 201
    other = {**_entry(table), "changes": {"E": 24, "S": -8, "W": -8, "N": -8}}
    refused = _post(scorer, url, other, key=key)
    assert refused.status_code == 422, refused.content
    assert "already used for a different request" in refused.json()["request_key"][0]
    assert HandResult.objects.get().changes == CHANGES and ResultRevision.objects.count() == 1
    retyped_pin = {**_entry(table), "entry_pin": pin(table, "E")}  # the same write again: still a replay
    assert _post(scorer, url, retyped_pin, key=key).status_code == 200


@pytest.mark.django_db
def test_a_key_sent_again_with_a_different_correction_or_dispute_is_422(team_event, scorer):
    table = first_table(team_event)
    entered = _post(scorer, f"/api/events/{team_event.slug}/results/", _entry(table), key="entry-key-0042").json()
    base = f"/api/events/{team_event.slug}/results/{entered['id']}"
    correction = {"reason": "typo", "changes": {"E": 32, "S": -16, "W": -16, "N": 0}, "entered_by_seat": "S",
                  "entry_pin": pin(table, "S")}
    assert _post(scorer, f"{base}/correct/", correction, key="correct-key-01").status_code == 200
    assert _post(scorer, f"{base}/correct/", correction, key="correct-key-01").status_code == 200
    changed = {**correction, "changes": {"E": 40, "S": -16, "W": -16, "N": -8}}
    assert _post(scorer, f"{base}/correct/", changed, key="correct-key-01").status_code == 422
    assert _post(scorer, f"{base}/dispute/", {"reason": "wrong winner"}, key="dispute-key-01").status_code == 200
    assert _post(scorer, f"{base}/dispute/", {"reason": "another reason"}, key="dispute-key-01").status_code == 422
    assert HandResult.objects.get().changes == correction["changes"]


@pytest.mark.django_db
def test_the_table_page_resend_of_the_same_form_is_a_replay_and_a_changed_one_is_refused(team_event, client):
    from factories import login_as_table

    table = first_table(team_event)
    login_as_table(client, table)
    form = {"set_no": str(first_set(table)), "mode": "changes", "request_key": "page-key-000001",
            **{f"seat_{seat}": str(value) for seat, value in CHANGES.items()}, **entering(table, "E")}
    assert client.post(table_url(table), form).status_code == 302
    assert client.post(table_url(table), form).status_code == 302  # the queue's resend: answered as stored
    changed = client.post(table_url(table), {**form, "seat_E": "40", "seat_N": "-8"})
    assert changed.status_code == 422 and "already used for a different request" in changed.content.decode()
    assert HandResult.objects.get().changes == CHANGES
