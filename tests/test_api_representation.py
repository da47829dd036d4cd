"""What the API answers for a result: read through the serializer's fields bound once per process
(``scoring.api._FieldsOnce``), it is what DRF's own per-instance reading gives, field for field,
for every state a result goes through (entered with an outcome and notes, confirmed, corrected,
disputed), alone, as a list, and read by several threads at once."""

from __future__ import annotations

import json

import pytest

from factories import api_key, blocks, client_for, first_set, first_table, in_threads
from scoring import api
from scoring.actions.confirmation import confirm_result, correct_result, dispute_result
from scoring.actions.entry import submit_result
from scoring.models import HandResult

pytestmark = pytest.mark.django_db


def _results(event) -> list[HandResult]:
    """Results of ``event`` in several states, read as the API reads them."""
    table = first_table(event)
    sets = [s for _block, sets in blocks(table) for s in sets]
    entered = submit_result(table, sets[0], outcome={"kind": "discard", "winners": ["E"], "discarder": "S", "fans": [10],
                                                      "hand": "123456789m 11z 22z +1z"}, actor="scorer", entered_by_seat="E")
    confirmed = confirm_result(submit_result(table, sets[1], changes={"E": 24, "S": -8, "W": -8, "N": -8}, actor="scorer"),
                               actor="director", director=True)
    corrected = correct_result(confirmed, actor="director", reason="E won 16 fan", director=True,
                               changes={"E": 72, "S": -24, "W": -24, "N": -24})
    disputed = dispute_result(submit_result(table, sets[2], outcome={"kind": "draw"}, actor="scorer"), actor="scorer",
                              reason="not a draw", director=True)
    ids = [entered.pk, corrected.pk, disputed.pk]
    return list(HandResult.objects.filter(pk__in=ids).select_related("table").prefetch_related("revisions").order_by("pk"))


def _per_instance(monkeypatch, value, **kwargs):
    """DRF's own reading: every serializer copies its fields (the fast reader taken away)."""
    with monkeypatch.context() as patched:
        patched.delattr(api._FieldsOnce, "to_representation")
        return json.loads(json.dumps(api.ResultSerializer(value, **kwargs).data))


def test_each_result_reads_as_drf_reads_it_field_for_field(team_event, monkeypatch):
    results = _results(team_event)
    for result in results:
        fast = json.loads(json.dumps(api.ResultSerializer(result).data))
        assert fast == _per_instance(monkeypatch, result)
        assert list(fast) == list(_per_instance(monkeypatch, result))  # the same keys, in the same order
    statuses = {r.status for r in results}
    entered = json.loads(json.dumps(api.ResultSerializer(results[0]).data))
    assert results[0].wall_flag is not None  # the hand does not fit the factory's wall: flagged for the director ...
    assert "wall" not in json.dumps(entered) and entered["entered_by_seat"] == "E"  # ... and the answer never says so
    assert {f["check"] for f in entered["flags"]} == {"fan"}
    assert statuses == {"entered", "confirmed", "disputed"}
    corrected = next(r for r in results if r.status == "confirmed")
    assert [h["action"] for h in json.loads(json.dumps(api.ResultSerializer(corrected).data))["history"]] == [
        "enter", "confirm", "correct"]


def test_a_list_reads_as_drf_reads_it(team_event, monkeypatch):
    results = _results(team_event)
    fast = json.loads(json.dumps(api.ResultSerializer(results, many=True).data))
    assert fast == _per_instance(monkeypatch, results, many=True) and len(fast) == 3


def test_threads_reading_at_once_each_get_their_own_result(team_event, monkeypatch):
    results = _results(team_event)
    expected = {r.pk: _per_instance(monkeypatch, r) for r in results}
    api.ResultSerializer._reader = None  # bound again by whichever thread comes first
    del api.ResultSerializer._reader

    def read_all():
        return [json.loads(json.dumps(api.ResultSerializer(r).data)) for r in results for _ in range(20)]

    answers, errors = in_threads(read_all, 6)
    assert not errors and len(answers) == 6
    for answer in answers:
        for read in answer:
            assert read == expected[read["id"]]


def test_the_api_answers_an_entry_with_its_notes_and_history(team_event, director):
    table = first_table(team_event)
    client = client_for(token=api_key(director))
    answer = client.post(f"/api/events/{team_event.slug}/results/", json.dumps({
        "table": table.number, "set_no": first_set(table), "entered_by_seat": "E",
        "outcome": {"kind": "discard", "winners": ["E"], "discarder": "S", "fans": [10]}}), content_type="application/json")
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert body["table"] == table.number and body["entered_by_seat"] == "E" and body["status"] == "entered"
    assert body["outcome"]["winners"] == ["E"] and body["changes"]["E"] > 0
    assert [h["action"] for h in body["history"]] == ["enter"] and body["flags"] == []


BODIES = [
    {"table": 3, "set_no": 2, "changes": {"E": 24, "S": -8, "W": -8, "N": -8}},
    {"table": 3, "set_no": 2, "entered_by_seat": "E", "entry_pin": " 1234 ", "request_key": "k-0001",
     "outcome": {"kind": "discard", "winners": ["E"], "discarder": "S", "fans": [10], "hand": "123456789m 11z 22z +1z",
                 "winning_tile": "1z", "insist": True}},  # insist: sent by clients made before; ignored
    {"table": 1, "set_no": 5, "session_number": 2, "outcome": {"kind": "draw", "tenpai": ["E", "S"]}, "deposit": 0},
    {"table": 1, "set_no": 5, "outcome": {"kind": "self_draw", "winners": ["N"], "fans": [1], "fu": [30], "riichi": ["N"],
                                          "honba": 2, "yakuman": [0]}},
    {},  # every required field missing
    {"table": "seven", "set_no": -1, "changes": {"E": "lots"}},
    {"table": 3, "set_no": 2, "changes": {"E": 10 ** 9}, "deposit": -5, "entered_by_seat": "EAST"},
    {"table": 3, "set_no": 2, "outcome": {"kind": "chombo", "fans": ["x"], "winners": "E"}},
    {"table": 3, "set_no": 2, "outcome": "discard"},
    [1, 2, 3],
]


@pytest.mark.parametrize(("body", "valid"), [(body, i < 4) for i, body in enumerate(BODIES)])
def test_a_body_is_accepted_or_refused_as_drf_would_with_the_same_data_or_errors(body, valid, monkeypatch):
    fast = api.ResultSerializer(data=body)
    fast_ok = fast.is_valid()
    with monkeypatch.context() as patched:
        patched.delattr(api._FieldsOnce, "run_validation")
        slow = api.ResultSerializer(data=body)
        slow_ok = slow.is_valid()
    assert fast_ok == slow_ok == valid, fast.errors
    if fast_ok:
        assert fast.validated_data == slow.validated_data and fast.validated_data["set_no"] == body["set_no"]
    else:
        assert fast.errors == slow.errors and fast.errors  # the same fields named, with the same messages
