"""Calling the director from a table (tournament/calls.py): the table's phone calls with a reason,
the director's calls page lists it with the table and room and marks it answered; a call sent
again with its key is stored once; nobody but the table's scorers calls for it, and nobody but
the director and staff reads the calls."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from factories import client_for, first_table, login_as_table
from tournament.calls import REPEAT_SECONDS, answer_call, call_director, open_calls
from tournament.models import DirectorCall, Room, Table
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
    for n in range(500):
        answer = phone.post(url, {"reason": "other", "note": f"call {n}", "request_key": f"flood-key-{n:05d}"},
                            HTTP_ACCEPT="application/json")
        assert answer.status_code == 200 and answer.json()["stored"] is True
    assert DirectorCall.objects.count() == 1
    calls = director_client.get(reverse("director-calls", args=[team_event.slug])).content
    assert len(calls) < 20_000 and calls.count(b'class="card call"') == 1
    assert "already called" in phone.post(url, {"reason": "other", "request_key": "flood-key-99999"}, follow=True).content.decode()


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
    assert answer.status_code == 400 and "another table" in answer.json()["errors"][0]
    assert DirectorCall.objects.count() == 1


def test_the_database_keeps_one_open_call_per_table(team_event):
    from django.db import IntegrityError, transaction

    table = first_table(team_event)
    DirectorCall.objects.create(event=team_event, table=table, reason="other")
    with pytest.raises(IntegrityError), transaction.atomic():
        DirectorCall.objects.create(event=team_event, table=table, reason="dispute")
