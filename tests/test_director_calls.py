"""Calling the director from a table (tournament/calls.py): the table's phone calls with a reason,
the director's calls page lists it with the table and room and marks it answered; a call sent
again with its key is stored once; nobody but the table's scorers calls for it, and nobody but
the director and staff reads the calls."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test import override_settings
from django.urls import reverse
from django.utils import translation

from factories import client_for, first_table, in_threads, login_as_table
from tournament.calls import (CALL_LIMIT, CALL_WINDOW_SECONDS, REPEAT_SECONDS, CallLimited, answer_call, call_director,
                              open_calls)
from tournament.models import DirectorCall, Room, Table, TableCallWindow
from tournament.seating import SetupError

pytestmark = pytest.mark.django_db


def test_a_call_is_listed_with_table_room_and_reason_until_answered(team_event):
    table = Table.objects.select_related("group__session__event").get(pk=first_table(team_event).pk)
    room = Room.objects.create(event=team_event, number=99, name="Hall B", capacity=4)
    Table.objects.filter(pk=table.pk).update(room=room)
    call = call_director(table, reason="fouled", note="two 5p in the East wall", actor="scorer Table 1")
    listed = open_calls(team_event)
    assert [(c["table"], c["room"], c["reason"], c["note"]) for c in listed] == [(table.number, "Hall B", "fouled",
                                                                                  "two 5p in the East wall")]
    assert listed[0]["reason_label"] == "A fouled set (tiles wrong or mixed)"
    answered = answer_call(team_event, call.pk, actor="td")
    assert answered.answered_by == "td" and answered.answered_at is not None
    assert open_calls(team_event) == []
    assert answer_call(team_event, call.pk, actor="someone else").answered_by == "td"  # answering again changes nothing


def test_a_call_sent_again_with_its_key_is_stored_once(team_event):
    table = Table.objects.select_related("group__session__event").get(pk=first_table(team_event).pk)
    first = call_director(table, reason="dispute", request_key="call-key-0001")
    again = call_director(table, reason="dispute", request_key="call-key-0001")
    assert first.pk == again.pk and DirectorCall.objects.count() == 1


def test_an_unknown_reason_is_refused_naming_the_reasons(team_event):
    table = Table.objects.select_related("group__session__event").get(pk=first_table(team_event).pk)
    with pytest.raises(SetupError) as refused:
        call_director(table, reason="bored")
    assert refused.value.field == "reason" and "A dispute at the table" in refused.value.message
    assert not DirectorCall.objects.exists()


def test_the_table_page_calls_and_the_director_sees_and_answers(team_event, director_client):
    table = first_table(team_event)
    phone = client_for()
    login_as_table(phone, table)
    page = phone.get(reverse("table", args=[team_event.slug, table.pk])).content.decode()
    assert 'id="call-director"' in page and 'name="reason"' in page
    response = phone.post(reverse("table-call", args=[team_event.slug, table.pk]),
                          {"reason": "missing", "note": "no sticker on S3", "request_key": "call-key-0002"}, follow=True)
    assert "The director is called to Table" in response.content.decode()
    calls = director_client.get(reverse("director-calls", args=[team_event.slug])).content.decode()
    assert f"Table {table.number}" in calls and "no sticker on S3" in calls
    polled = director_client.get(reverse("director-calls-json", args=[team_event.slug])).json()["calls"]
    assert [c["note"] for c in polled] == ["no sticker on S3"]
    call_id = polled[0]["id"]
    director_client.post(reverse("director-call-answer", args=[team_event.slug, call_id]))
    assert director_client.get(reverse("director-calls-json", args=[team_event.slug])).json()["calls"] == []


def test_the_offline_queue_gets_json_answers(team_event):
    table = first_table(team_event)
    phone = client_for()
    login_as_table(phone, table)
    url = reverse("table-call", args=[team_event.slug, table.pk])
    ok = phone.post(url, {"reason": "other", "request_key": "call-key-0003"}, HTTP_ACCEPT="application/json")
    assert ok.status_code == 200 and ok.json()["stored"] is True
    refused = phone.post(url, {"reason": "nothing"}, HTTP_ACCEPT="application/json")
    assert refused.status_code == 400 and refused.json()["stored"] is False and refused.json()["errors"]


def test_only_the_table_calls_and_only_the_director_and_staff_read_the_calls(team_event):
    table = first_table(team_event)
    visitor = client_for()
    before = DirectorCall.objects.count()
    visitor.post(reverse("table-call", args=[team_event.slug, table.pk]), {"reason": "dispute"})
    assert DirectorCall.objects.count() == before
    other_table = Table.objects.filter(group__session__event=team_event).exclude(pk=table.pk).first()
    phone = client_for(table=other_table)
    phone.post(reverse("table-call", args=[team_event.slug, table.pk]), {"reason": "dispute"})
    assert DirectorCall.objects.count() == before  # a phone calls for its own table only
    for client in (visitor, phone):
        assert client.get(reverse("director-calls", args=[team_event.slug])).status_code in (302, 403)
        assert client.get(reverse("director-calls-json", args=[team_event.slug])).status_code in (302, 403)


# Issue 44, items 4 and 5: a flood of calls from one table, a key another table used


def test_five_hundred_calls_from_one_table_leave_one_open_call_and_a_small_page(team_event, director_client):
    table = first_table(team_event)
    phone = client_for()
    login_as_table(phone, table)
    url = reverse("table-call", args=[team_event.slug, table.pk])
    statuses = []
    for n in range(500):
        answer = phone.post(url, {"reason": "other", "note": f"call {n}", "request_key": f"flood-key-{n:05d}"},
                            HTTP_ACCEPT="application/json")
        statuses.append(answer.status_code)
        assert answer.json()["stored"] is (answer.status_code == 200)
    assert statuses == [200] * CALL_LIMIT + [429] * (500 - CALL_LIMIT)
    assert DirectorCall.objects.count() == 1
    calls = director_client.get(reverse("director-calls", args=[team_event.slug])).content
    assert len(calls) < 20_000 and calls.count(b'class="card call"') == 1
    assert "Call again after" in phone.post(url, {"reason": "other", "request_key": "flood-key-99999"}, follow=True).content.decode()


def test_a_repeat_after_the_quiet_time_is_counted_and_shown_and_an_answered_call_lets_the_table_call_again(
        team_event, director_client):
    table = Table.objects.select_related("group__session__event").get(pk=first_table(team_event).pk)
    first = call_director(table, reason="dispute", note="E says 24", request_key="repeat-key-0001")
    DirectorCall.objects.filter(pk=first.pk).update(called_at=first.called_at - timedelta(seconds=REPEAT_SECONDS + 1))
    again = call_director(table, reason="fouled", note="two 5p", request_key="repeat-key-0002")
    assert again.pk == first.pk and again.repeated
    stored = DirectorCall.objects.get()
    assert (stored.repeats, stored.reason, stored.note) == (1, "fouled", "two 5p")
    assert call_director(table, reason="other", request_key="repeat-key-0003").repeats == 1  # within the quiet time: no write
    page = director_client.get(reverse("director-calls", args=[team_event.slug])).content.decode()
    assert "called 1 more times" in page
    assert director_client.get(reverse("director-calls-json", args=[team_event.slug])).json()["calls"][0]["repeats"] == 1
    answer_call(team_event, first.pk, actor="td")
    fresh = call_director(table, reason="missing", request_key="repeat-key-0004")
    assert fresh.pk != first.pk and DirectorCall.objects.filter(answered_at__isnull=True).count() == 1


def test_a_call_with_a_key_another_table_used_is_refused_not_a_server_error(team_event):
    tables = list(Table.objects.select_related("group__session__event").filter(group__session__event=team_event)
                  .order_by("number")[:2])
    call_director(tables[0], reason="dispute", request_key="shared-key-0001")
    with pytest.raises(SetupError) as refused:
        call_director(tables[1], reason="dispute", request_key="shared-key-0001")
    assert refused.value.field == "request_key" and "another table" in refused.value.message
    phone = client_for()
    login_as_table(phone, tables[1])
    answer = phone.post(reverse("table-call", args=[team_event.slug, tables[1].pk]),
                        {"reason": "dispute", "request_key": "shared-key-0001"}, HTTP_ACCEPT="application/json")
    assert answer.status_code == 400 and answer.json()["field"] == "request_key"
    assert "another table" in answer.json()["errors"][0]
    assert DirectorCall.objects.count() == 1


def test_the_database_keeps_one_open_call_per_table(team_event):
    from django.db import IntegrityError, transaction

    table = first_table(team_event)
    DirectorCall.objects.create(event=team_event, table=table, reason="other")
    with pytest.raises(IntegrityError), transaction.atomic():
        DirectorCall.objects.create(event=team_event, table=table, reason="dispute")


def _table(event) -> Table:
    return Table.objects.select_related("group__session__event").get(pk=first_table(event).pk)


def test_a_table_over_its_limit_of_calls_is_told_when_to_call_again(team_event):
    table = _table(team_event)
    for n in range(CALL_LIMIT):
        call_director(table, reason="other", request_key=f"limit-key-{n:04d}")
    with pytest.raises(CallLimited) as refused:
        call_director(table, reason="dispute", request_key="limit-key-over")
    assert refused.value.status == 429 and refused.value.field == "call"
    assert 0 < refused.value.retry_after <= CALL_WINDOW_SECONDS
    assert "Call again after" in refused.value.message and f"{CALL_LIMIT} times" in refused.value.message
    assert TableCallWindow.objects.get(table=table).calls == CALL_LIMIT  # a refused call is not counted
    assert DirectorCall.objects.get().reason == "other"  # and changes nothing
    with translation.override("ja"), pytest.raises(CallLimited) as in_japanese:
        call_director(table, reason="dispute", request_key="limit-key-over")
    assert "番卓" in in_japanese.value.message and "以降" in in_japanese.value.message
    TableCallWindow.objects.filter(table=table).update(started_at=refused.value.until - timedelta(seconds=2 * CALL_WINDOW_SECONDS))
    assert call_director(table, reason="dispute", request_key="limit-key-later").repeated  # the window is over


def test_the_limit_of_calls_answers_429_to_the_queue_and_a_message_on_the_page(team_event):
    table = first_table(team_event)
    phone = client_for()
    login_as_table(phone, table)
    url = reverse("table-call", args=[team_event.slug, table.pk])
    for n in range(CALL_LIMIT):
        assert phone.post(url, {"reason": "other", "request_key": f"page-key-{n:04d}"},
                          HTTP_ACCEPT="application/json").status_code == 200
    queued = phone.post(url, {"reason": "other", "request_key": "page-key-over"}, HTTP_ACCEPT="application/json")
    assert queued.status_code == 429 and 0 < int(queued["Retry-After"]) <= CALL_WINDOW_SECONDS
    assert queued.json()["field"] == "call" and "Call again after" in queued.json()["errors"][0]
    page = phone.post(url, {"reason": "other", "request_key": "page-key-over-2"}, follow=True)
    assert page.status_code == 200 and "Call again after" in page.content.decode()


def test_a_key_sent_again_is_a_replay_and_not_counted_towards_the_limit(team_event):
    table = _table(team_event)
    first = call_director(table, reason="dispute", request_key="replayed-key-01")
    for _n in range(3 * CALL_LIMIT):
        assert call_director(table, reason="dispute", request_key="replayed-key-01").pk == first.pk
    assert TableCallWindow.objects.get(table=table).calls == 1


@override_settings(CACHES={"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}})
def test_the_limit_of_calls_holds_with_a_cache_that_keeps_nothing(team_event):
    table = _table(team_event)
    for n in range(CALL_LIMIT):
        call_director(table, reason="other", request_key=f"nocache-key-{n:04d}")
    with pytest.raises(CallLimited):
        call_director(table, reason="other", request_key="nocache-key-over")


def test_the_director_answering_lets_a_table_over_its_limit_call_again(team_event):
    table = _table(team_event)
    for n in range(CALL_LIMIT):
        call = call_director(table, reason="other", request_key=f"answered-key-{n:04d}")
    with pytest.raises(CallLimited):
        call_director(table, reason="other", request_key="answered-key-over")
    answer_call(team_event, call.pk, actor="td")
    fresh = call_director(table, reason="fouled", request_key="answered-key-new")
    assert fresh.pk != call.pk and not getattr(fresh, "repeated", False)
    assert [c["reason"] for c in open_calls(team_event)] == ["fouled"]


@pytest.mark.django_db(transaction=True)
def test_two_phones_of_a_table_calling_at_once_leave_one_open_call(team_event):
    """Real concurrent transactions (PostgreSQL): the second is a repeat of the first's call."""
    if connection.vendor != "postgresql":
        pytest.skip("concurrent transactions need PostgreSQL (.ci/run's services half)")
    table = _table(team_event)
    keys = iter([f"race-phone-{n:02d}" for n in range(8)])
    answers, errors = in_threads(lambda: call_director(table, reason="dispute", request_key=next(keys)), 8)
    assert not errors, errors
    assert len({a.pk for a in answers}) == 1 and DirectorCall.objects.count() == 1
    assert TableCallWindow.objects.get(table=table).calls == 8


@pytest.mark.django_db(transaction=True)
def test_two_tables_sending_one_key_at_once_store_one_call_and_refuse_the_other_naming_the_key(team_event):
    """Real concurrent transactions (PostgreSQL): never an IntegrityError (a 500)."""
    if connection.vendor != "postgresql":
        pytest.skip("concurrent transactions need PostgreSQL (.ci/run's services half)")
    tables = iter(list(Table.objects.select_related("group__session__event").filter(group__session__event=team_event)
                       .order_by("number")[:2]))
    answers, errors = in_threads(lambda: call_director(next(tables), reason="dispute", request_key="race-shared-key"), 2)
    assert len(answers) == 1 and len(errors) == 1, errors
    assert isinstance(errors[0], SetupError) and errors[0].field == "request_key"
    assert DirectorCall.objects.count() == 1
