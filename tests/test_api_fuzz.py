"""docs/security.md, "Input": generated input. Schemathesis sends requests built from /api/schema/ to every API
operation, and Hypothesis fills the entry forms with arbitrary values: no answer is a server
error, and whatever got stored is a valid result. Bounded: a fixed number of derandomized
examples per operation, well under a minute in all."""

import functools
import json

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error

from scoring.models import HandResult
from scoring.payments import validate_score_changes
from scoring.actions.confirmation import confirm_result
from scoring.actions.entry import submit_result
from tournament.models import EventRole, Table
from factories import blocks

from factories import api_key, first_table, table_url

pytestmark = pytest.mark.django_db

FUZZ = settings(max_examples=25, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large])


@pytest.fixture
def fuzz_event(team_event, director):
    """The test event with an entered and a confirmed result for the generated ids to land on."""
    table = first_table(team_event)
    first, second = blocks(table)[0][1][:2]
    confirm_result(submit_result(table, first, changes={"E": 48, "S": -16, "W": -16, "N": -16}, actor="t"),
                   actor="d", director=True)
    submit_result(table, second, changes={"E": -8, "S": 24, "W": -8, "N": -8}, actor="t")
    return team_event


def assert_no_stored_garbage(event):
    """Every stored result: a set of the session, a table of the event, one whole-number score
    change per seat that passes the rule set's checks, and one revision row per revision."""
    ruleset = event.get_ruleset()
    for result in HandResult.objects.filter(event=event).select_related("table__group__session"):
        assert result.table.group.session.event_id == event.pk
        assert 1 <= result.set_no <= ruleset.hands_per_session
        assert set(result.changes) == set(ruleset.seats)
        assert all(type(v) is int for v in result.changes.values())
        validate_score_changes(result.changes, tuple(ruleset.seats), zero_sum=ruleset.zero_sum, deposit=result.deposit)
        assert sorted(result.revisions.values_list("revision", flat=True)) == list(range(1, result.revision + 1))


@pytest.fixture(autouse=True)
def _keep_the_test_connection():
    """Schemathesis calls Django's real WSGI handler, which closes the database connection after
    each request (``close_old_connections``); inside the test's transaction that would close
    it for good on PostgreSQL. Django's own test client unhooks the same signals."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@functools.cache
def api_schema():
    """The OpenAPI schema as served at /api/schema/, loaded once (building it takes seconds)."""
    return schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())


def _fuzz_api(event, headers, writes=25, reads=10):
    """Every operation of the schema: ``writes`` generated requests per write operation, ``reads``
    per read operation."""
    ids = sorted(HandResult.objects.filter(event=event).values_list("pk", flat=True))
    operations = [result.ok() for result in api_schema().get_all_operations()]
    assert {op.path for op in operations} >= {"/api/events/{event_slug}/results/", "/api/events/{event_slug}/results/{id}/correct/"}
    for operation in operations:

        @settings(FUZZ, max_examples=writes if operation.method.upper() == "POST" else reads)
        @given(case=operation.as_strategy())
        def check(case):
            params = case.path_parameters or {}
            for name in ("event_slug", "slug"):
                if name in params:
                    params[name] = event.slug
            if isinstance(params.get("id"), int):
                params["id"] = ids[abs(params["id"]) % len(ids)]
            response = case.call(headers=headers)
            case.validate_response(response, checks=[not_a_server_error])

        check()


def test_no_api_operation_answers_a_server_error_to_the_director(fuzz_event, director):
    _fuzz_api(fuzz_event, {"Authorization": f"Token {api_key(director)}"})
    assert_no_stored_garbage(fuzz_event)


def test_no_api_operation_answers_a_server_error_to_a_scorer_or_a_visitor(fuzz_event, django_user_model):
    scorer = django_user_model.objects.create_user("scorer", password="pw-scorer-1")
    EventRole.objects.create(event=fuzz_event, user=scorer, role=EventRole.Role.SCORER)
    _fuzz_api(fuzz_event, {"Authorization": f"Token {api_key(scorer)}"}, writes=15, reads=5)
    _fuzz_api(fuzz_event, {}, writes=5, reads=5)
    assert_no_stored_garbage(fuzz_event)


SEAT_OR_NOT = st.sampled_from(["E", "S", "W", "N", "X", "", "e"])
OUTCOMES = st.fixed_dictionaries(
    {"kind": st.sampled_from(["discard", "self_draw", "draw", "ron"])},
    optional={"winners": st.lists(SEAT_OR_NOT, max_size=3), "discarder": st.one_of(st.none(), SEAT_OR_NOT),
              "fans": st.lists(st.integers(-5, 120), max_size=3)},
)
CHANGES = st.one_of(
    st.tuples(st.integers(-300, 300), st.integers(-300, 300), st.integers(-300, 300)).map(
        lambda t: {"E": t[0], "S": t[1], "W": t[2], "N": -sum(t)}),
    st.dictionaries(SEAT_OR_NOT, st.integers(-300, 300), max_size=5),
)


def test_generated_plausible_results_are_stored_valid_or_refused_naming_the_field(fuzz_event, director):
    """Near-valid results (real tables, sets around the session's range, seat letters and small
    numbers, outcomes with odd winners and fans) reach the service: each is stored as a valid
    result or refused with 400/409 and an error keyed by the field."""
    numbers = sorted(Table.objects.filter(group__session__event=fuzz_event).values_list("number", flat=True))
    client = Client(HTTP_AUTHORIZATION=f"Token {api_key(director)}")
    url = f"/api/events/{fuzz_event.slug}/results/"
    stored = []

    @settings(FUZZ, max_examples=150)
    @given(table=st.sampled_from(numbers), set_no=st.integers(0, 17),
           body=st.one_of(st.fixed_dictionaries({"changes": CHANGES}), st.fixed_dictionaries({"outcome": OUTCOMES})))
    def check(table, set_no, body):
        response = client.post(url, json.dumps({"table": table, "set_no": set_no, **body}), content_type="application/json")
        assert response.status_code in (201, 400, 409), response.content[:500]
        data = response.json()
        if response.status_code == 201:
            stored.append(data["id"])
            assert HandResult.objects.get(pk=data["id"]).changes == data["changes"]
        else:
            assert data and all(isinstance(key, str) and key for key in data)

    check()
    assert stored  # the generator reached the storing path, not only refusals
    assert_no_stored_garbage(fuzz_event)


# Hypothesis on the entry forms

ANY_VALUE = st.one_of(
    st.integers(min_value=-10**20, max_value=10**20).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(str),
    st.text(max_size=30),
    st.sampled_from(["", " ", "-0", "1e3", "٣", "４８", "--8", "0x10", "NaN", "null", "E", "draw", "\x00"]),
)
SEATS = ("E", "S", "W", "N")


@st.composite
def form_posts(draw):
    data = {f"seat_{seat}": draw(ANY_VALUE) for seat in SEATS}
    data.update({f"value_{seat}": draw(ANY_VALUE) for seat in SEATS})
    data.update({
        "set_no": draw(st.one_of(st.integers(-3, 20).map(str), ANY_VALUE)),
        "mode": draw(st.sampled_from(["changes", "outcome", "", "junk"])),
        "kind": draw(st.sampled_from(["discard", "self_draw", "draw", "", "junk"])),
        "winners": draw(st.lists(st.sampled_from([*SEATS, "", "X"]), max_size=3)),
        "discarder": draw(st.sampled_from([*SEATS, "", "X"])),
        "honba": draw(ANY_VALUE),
        "riichi": draw(st.lists(st.sampled_from([*SEATS, "X"]), max_size=2)),
        "deposit": draw(ANY_VALUE),
        "hand": draw(st.text(max_size=40)),
    })
    return {k: v for k, v in data.items() if draw(st.booleans()) or k.startswith("seat_")}


def test_the_table_page_never_fails_on_arbitrary_input(fuzz_event, director):
    table = first_table(fuzz_event)
    client = Client(raise_request_exception=False)
    client.force_login(director)
    url = table_url(table)

    @FUZZ
    @given(data=form_posts())
    def check(data):
        response = client.post(url, data)
        assert response.status_code < 500, (data, response.content[:500])

    check()
    assert_no_stored_garbage(fuzz_event)


def test_the_entry_form_never_fails_on_arbitrary_input(fuzz_event, director):
    tables = list(Table.objects.filter(group__session__event=fuzz_event).values_list("pk", flat=True))
    client = Client(raise_request_exception=False)
    client.force_login(director)
    url = reverse("entry", args=[fuzz_event.slug])

    @FUZZ
    @given(data=form_posts(), table=st.one_of(st.sampled_from(tables).map(str), ANY_VALUE))
    def check(data, table):
        response = client.post(url, {**data, "table": table})
        assert response.status_code < 500, (data, response.content[:500])

    check()
    assert_no_stored_garbage(fuzz_event)
