"""docs/security.md, "Threats and the tests that cover them": no typed number stops a set, and the payment rules refuse what they are not written
for.

- A score change of 30,000,000,000 was accepted at one table; on PostgreSQL the
  group's last confirmation then overflowed ``SetScore.score_change`` (``integer out of range``,
  500) and the set could never be scored or released. Every typed change and deposit now has the
  rule set's range (the largest hand it pays times its seats), refused at entry on every path.
- A 5,000-digit score field gave 500 (Python refuses to convert more than
  4,300 digits); now a clear 400 naming the field, on the table page, the API (JSON number and
  string) and the service.
- ``shield-tile`` and ``yangzhou`` settled a 2- or 3-seat custom rule set; riichi
  accepted 2 han 25 fu on a self-draw (a self-drawn seven pairs is at least 3 han).
"""

import json

import pytest
from rest_framework.test import APIClient

from scoring.models import HandResult
from scoring.payments import HandOutcome, PaymentError, settle
from scoring.actions.entry import submit_result
from scoring.actions.errors import ResultError
from walls.rulesets import TILES_136, WINDS, RuleSetError, custom_ruleset

from factories import entering, first_set, first_table, individual_roster, login_as_table, prepared_event, table_url

pytestmark = pytest.mark.django_db

THIRTY_BILLION = 30_000_000_000
HUGE = "9" * 5000


def riichi_event(slug="ranges"):
    return prepared_event(individual_roster(16), name=slug, slug=slug, ruleset_code="riichi-duplicate", method="individual")


def api_for(user):
    api = APIClient()
    api.force_authenticate(user)
    return api


# --- thirty billion ---------------------------------------------------------------------------


def test_a_score_change_of_thirty_billion_is_refused_at_entry_naming_the_range():
    table = first_table(riichi_event())
    changes = {"E": THIRTY_BILLION, "S": -THIRTY_BILLION, "W": 0, "N": 0}
    with pytest.raises(ResultError) as err:
        submit_result(table, first_set(table), changes=changes, actor="t")
    assert err.value.field == "changes.E"
    # riichi's largest hand: a triple ron of six-fold yakuman with 99 honba, 702,700 a seat; x 4 seats.
    assert "from -2,810,800 to 2,810,800 points in this rule set" in err.value.message
    assert "30,000,000,000" in err.value.message
    assert not HandResult.objects.exists()


def test_the_table_page_refuses_thirty_billion_at_the_score_box(client):
    table = first_table(riichi_event())
    login_as_table(client, table)
    response = client.post(table_url(table), {"set_no": str(first_set(table)), "mode": "changes", "seat_E": "30,000,000,000",
                                              "seat_S": "-30,000,000,000", "seat_W": "0", "seat_N": "0", **entering(table, "W")})
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert list(errors) == ["seat_E", "seat_S"]
    assert "to 2,810,800 points in this rule set" in errors["seat_E"][0]
    assert not HandResult.objects.exists()


def test_the_api_refuses_thirty_billion_naming_the_change(director):
    event = prepared_event(individual_roster(16), name="api", slug="api", ruleset_code="riichi-duplicate", method="individual",
                           director=director)
    table = first_table(event)
    response = api_for(director).post(f"/api/events/{event.slug}/results/", {
        "table": table.number, "set_no": first_set(table),
        "changes": {"E": THIRTY_BILLION, "S": -THIRTY_BILLION, "W": 0, "N": 0}}, format="json")
    assert response.status_code == 400, response.content
    assert "E" in response.json()["changes"]
    assert not HandResult.objects.exists()


def test_a_deposit_of_thirty_billion_is_refused_naming_the_deposit():
    table = first_table(riichi_event())
    with pytest.raises(ResultError) as err:
        submit_result(table, first_set(table), changes={"E": 0, "S": 0, "W": 0, "N": -THIRTY_BILLION}, deposit=THIRTY_BILLION,
                      actor="t")
    assert err.value.field in ("deposit", "changes.N")
    assert "points in this rule set" in err.value.message
    assert not HandResult.objects.exists()


# --- a 5,000-digit score field ----------------------------------------------------------------


def test_a_5000_digit_score_change_on_the_table_page_is_a_form_error(client):
    table = first_table(riichi_event())
    login_as_table(client, table)
    response = client.post(table_url(table), {"set_no": str(first_set(table)), "mode": "changes", "seat_E": HUGE,
                                              "seat_S": "0", "seat_W": "0", "seat_N": "0", **entering(table, "W")})
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert list(errors) == ["seat_E"]
    assert "to 2,810,800 points in this rule set" in errors["seat_E"][0]
    assert not HandResult.objects.exists()


def test_a_5000_digit_deposit_on_the_table_page_is_a_form_error(client):
    table = first_table(riichi_event())
    login_as_table(client, table)
    response = client.post(table_url(table), {"set_no": str(first_set(table)), "mode": "changes", "seat_E": "0",
                                              "seat_S": "0", "seat_W": "0", "seat_N": "0", "deposit": HUGE, **entering(table, "W")})
    assert response.status_code == 400
    assert list(response.context["form"].errors) == ["deposit"]
    assert not HandResult.objects.exists()


@pytest.mark.parametrize("as_text", [False, True], ids=["json-number", "json-string"])
def test_a_5000_digit_score_change_through_the_api_is_a_400(director, as_text):
    event = prepared_event(individual_roster(16), name="api", slug="api", ruleset_code="riichi-duplicate", method="individual",
                           director=director)
    table = first_table(event)
    huge = json.dumps(HUGE) if as_text else HUGE
    body = f'{{"table": {table.number}, "set_no": {first_set(table)}, "changes": {{"E": {huge}, "S": 0, "W": 0, "N": 0}}}}'
    response = api_for(director).post(f"/api/events/{event.slug}/results/", body, content_type="application/json")
    assert response.status_code == 400, response.content
    assert not HandResult.objects.exists()


@pytest.mark.parametrize("entry", [
    {"changes": {"E": HUGE, "S": 0, "W": 0, "N": 0}},
    {"changes": {"E": 0, "S": 0, "W": 0, "N": 0}, "deposit": HUGE},
    {"outcome": {"kind": "discard", "winners": ["S"], "discarder": "W", "fans": [HUGE]}},
    {"outcome": {"kind": "discard", "winners": ["S"], "discarder": "W", "fans": [3], "fu": [30], "honba": HUGE}},
], ids=["change", "deposit", "han", "honba"])
def test_a_5000_digit_number_given_to_the_service_is_refused_naming_the_field(entry):
    table = first_table(riichi_event())
    with pytest.raises(ResultError) as err:
        submit_result(table, first_set(table), actor="t", **entry)
    assert err.value.field in ("changes.E", "deposit", "fans", "honba")
    assert not HandResult.objects.exists()


# --- seat counts and 25 fu --------------------------------------------------------------------


@pytest.mark.parametrize("rule", ["shield-tile", "yangzhou"])
@pytest.mark.parametrize("count", [2, 3])
def test_shield_tile_and_yangzhou_refuse_a_rule_set_of_two_or_three_seats(rule, count):
    seats = WINDS[:count]
    with pytest.raises(RuleSetError, match="is for 4 seats"):
        custom_ruleset(f"custom-{count}p", "Custom", seats, TILES_136, "shared", [13] * count, rounds=1, starting_points=0,
                       zero_sum=True, payment_rule=rule, end_rule="ends when the wall is empty")
    with pytest.raises(PaymentError) as err:
        settle(rule, seats, HandOutcome("self_draw", ("S",), None, (20,)))
    assert err.value.field == "seats"


def test_riichi_refuses_2_han_25_fu_on_a_self_draw():
    with pytest.raises(PaymentError) as err:
        settle("riichi", WINDS, HandOutcome("self_draw", ("S",), None, (2,), fu=(25,)))
    assert err.value.field == "fu"
    assert "at least 3 han" in str(err.value)


def test_riichi_keeps_the_valid_25_fu_hands():
    # 2 han 25 fu on a discard: 25 x 2^4 = 400 base, 4 x 400 = 1600.
    assert settle("riichi", WINDS, HandOutcome("discard", ("S",), "W", (2,), fu=(25,))).changes["S"] == 1600
    # 3 han 25 fu self-drawn: 800 base, the dealer pays 1600, the others 800.
    assert settle("riichi", WINDS, HandOutcome("self_draw", ("S",), None, (3,), fu=(25,))).changes == {
        "E": -1600, "S": 3200, "W": -800, "N": -800}


# --- the ranges and the storage -----------------------------------------------------------------


def test_the_ranges_are_derived_from_each_rule_and_fit_a_32_bit_column():
    from pathlib import Path

    from scoring.payments import PAYMENT_RULES, input_ranges, largest_hand, widest
    from scoring.payments.ranges import STORAGE_LIMIT, storage_headroom

    seats = {code: WINDS[:(rule.seat_counts or (4,))[0]] for code, rule in PAYMENT_RULES.items()}
    derived = {code: largest_hand(code, seats[code]) for code in PAYMENT_RULES}
    # MCR: a self-draw of 400 fan, 3 x (8 + 400); riichi: see the test of thirty billion above; Souzu: a dealer's
    # six-fold yakuman ron, 6 x 48,000, with 99 honba of 2,000 and the opponent's stick.
    assert derived == {"mcr": 1224, "mcr-duplicate-mahjongsoft": 1224, "riichi": 702_700, "souzu-2p": 487_000,
                       "souzu-2p-honba-whole": 487_000,
                       "shiragiku-3p": 398, "shield-tile": 198_000, "yangzhou": 6_000, "typed": 702_700}
    assert input_ranges("typed", WINDS[:3]).changes == 3 * 702_700
    assert widest().changes == widest().deposit == 2_810_800
    # A team holds one member per seat: its total is at most 4 x the widest change, its difference twice that.
    assert 2 * 4 * widest().changes < STORAGE_LIMIT and storage_headroom() == STORAGE_LIMIT // (8 * 2_810_800) == 95
    doc = (Path(__file__).resolve().parent.parent / "docs" / "scoring.md").read_text(encoding="utf-8")
    for code, largest in derived.items():
        if code != "typed":
            assert f"| {largest:,} | {input_ranges(code, seats[code]).changes:,} |" in doc, code


def test_the_table_page_shows_each_number_input_its_range(client):
    table = first_table(riichi_event())
    login_as_table(client, table)
    page = client.get(table_url(table)).content.decode()
    assert page.count('min="-2810800"') == 4 and page.count('max="2810800"') == 5  # four score boxes and the deposit
    assert 'title="-2,810,800 to 2,810,800"' in page
    assert 'id="honba"' not in page and "Honba 0 · riichi sticks 0" in page  # fixed per set, not typed
    assert page.count('placeholder="1–99" min="0" max="99"') == 4  # han: 0 for a winner by yakuman alone


def test_the_directors_entry_page_refuses_5000_digits_and_thirty_billion_at_the_box(client, director):
    from django.urls import reverse

    event = prepared_event(individual_roster(16), name="entry", slug="entry", ruleset_code="riichi-duplicate", method="individual",
                           director=director)
    table = first_table(event)
    client.force_login(director)
    for typed in (HUGE, "30000000000"):
        response = client.post(reverse("entry", args=[event.slug]), {
            "table": str(table.pk), "set_no": str(first_set(table)), "seat_E": typed, "seat_S": "0", "seat_W": "0", "seat_N": "0"})
        assert response.status_code == 200  # the page again, with the error at the box
        errors = response.context["form"].errors
        assert list(errors) == ["seat_E"] and "points in this rule set" in errors["seat_E"][0]
    assert not HandResult.objects.exists()


@pytest.mark.parametrize("entry", [
    {"changes": {"E": 10**5000, "S": 0, "W": 0, "N": 0}},
    {"outcome": {"kind": "discard", "winners": ["S"], "discarder": "W", "fans": [10**5000]}},
    {"outcome": {"kind": "discard", "winners": ["S"], "discarder": "W", "fans": [3], "fu": [10**5000]}},
    {"outcome": {"kind": "discard", "winners": ["S"], "discarder": "W", "fans": [3], "fu": [30], "yakuman": [10**5000]}},
    {"outcome": {"kind": "discard", "winners": ["S"], "discarder": "W", "fans": [3], "fu": [30], "honba": 10**5000}},
], ids=["change", "han", "fu", "yakuman", "honba"])
def test_a_5000_digit_int_from_a_python_caller_is_refused_too(entry):
    # str() of such an int raises ValueError: the messages show its size instead of its digits.
    table = first_table(riichi_event())
    with pytest.raises(ResultError) as err:
        submit_result(table, first_set(table), actor="t", **entry)
    assert "over 30 digits" in err.value.message
    assert not HandResult.objects.exists()
