"""Payment rules: plain MCR, MahjongSoft duplicate MCR (published examples), typed; score checks."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.payments import PAYMENT_RULES, HandOutcome, PaymentError, score_changes, validate_score_changes

from oracles import mahjongsoft_discard_changes

SEATS = ("E", "S", "W", "N")
SOFT = "mcr-duplicate-mahjongsoft"


def test_mahjongsoft_self_draw_published_example():
    # MahjongSoft: fan 10 self-draw -> +34 / -12 / -12 / -12.
    changes = score_changes(SOFT, SEATS, HandOutcome("self_draw", ("E",), None, (10,)))
    assert changes == {"E": 34, "S": -12, "W": -12, "N": -12}


def test_mahjongsoft_two_winner_discard_published_example():
    # MahjongSoft: -46, +36, +26, -16 (discarder, two winners, bystander): fans 20 and 10.
    changes = score_changes(SOFT, SEATS, HandOutcome("discard", ("S", "W"), "E", (20, 10)))
    assert changes == {"E": -46, "S": 36, "W": 26, "N": -16}


def test_mahjongsoft_three_winner_discard_follows_the_same_rule():
    # Each winner: fan+24, minus 8 to each of the two other winners; discarder pays 8+fan to each.
    changes = score_changes(SOFT, SEATS, HandOutcome("discard", ("S", "W", "N"), "E", (8, 12, 24)))
    assert changes == {"E": -(16 + 20 + 32), "S": 16, "W": 20, "N": 32}
    assert sum(changes.values()) == 0


def test_mahjongsoft_single_discard_winner_scores_as_plain_mcr():
    outcome = HandOutcome("discard", ("N",), "W", (13,))
    assert score_changes(SOFT, SEATS, outcome) == score_changes("mcr", SEATS, outcome) == {
        "E": -8, "S": -8, "W": -21, "N": 37}


def test_plain_mcr_discard_and_self_draw():
    assert score_changes("mcr", SEATS, HandOutcome("discard", ("E",), "S", (8,))) == {
        "E": 32, "S": -16, "W": -8, "N": -8}
    assert score_changes("mcr", SEATS, HandOutcome("self_draw", ("W",), None, (8,))) == {
        "E": -16, "S": -16, "W": 48, "N": -16}


def test_drawn_hand_scores_nothing():
    for rule in ("mcr", SOFT):
        assert score_changes(rule, SEATS, HandOutcome("draw")) == dict.fromkeys(SEATS, 0)


fans = st.integers(8, 200)


@st.composite
def plain_outcomes(draw):
    kind = draw(st.sampled_from(["discard", "self_draw", "draw"]))
    if kind == "draw":
        return HandOutcome("draw")
    winner = draw(st.sampled_from(SEATS))
    if kind == "self_draw":
        return HandOutcome("self_draw", (winner,), None, (draw(fans),))
    discarder = draw(st.sampled_from([s for s in SEATS if s != winner]))
    return HandOutcome("discard", (winner,), discarder, (draw(fans),))


@st.composite
def multi_discards(draw):
    discarder = draw(st.sampled_from(SEATS))
    others = [s for s in SEATS if s != discarder]
    winners = tuple(draw(st.lists(st.sampled_from(others), min_size=1, max_size=3, unique=True)))
    return HandOutcome("discard", winners, discarder, tuple(draw(fans) for _ in winners))


@given(plain_outcomes())
def test_plain_mcr_is_zero_sum_for_every_valid_outcome(outcome):
    assert sum(score_changes("mcr", SEATS, outcome).values()) == 0


@given(multi_discards())
def test_mahjongsoft_discards_match_the_rule_text_and_are_zero_sum(outcome):
    changes = score_changes(SOFT, SEATS, outcome)
    expected = mahjongsoft_discard_changes(SEATS, outcome.winners, outcome.discarder, outcome.fans)
    assert changes == expected
    assert sum(changes.values()) == 0


@given(st.sampled_from(SEATS), fans)
def test_mahjongsoft_self_draw_is_fan_plus_24_against_ceil_third_plus_8(winner, fan):
    changes = score_changes(SOFT, SEATS, HandOutcome("self_draw", (winner,), None, (fan,)))
    assert changes[winner] == fan + 24
    assert all(changes[s] == -(math.ceil(fan / 3) + 8) for s in SEATS if s != winner)


def err(rule, outcome, seats=SEATS, **kw):
    with pytest.raises(PaymentError) as exc:
        score_changes(rule, seats, outcome, **kw)
    return exc.value


def test_unknown_seat_is_named():
    assert err("mcr", HandOutcome("discard", ("X",), "S", (8,))).field == "winners"
    assert err("mcr", HandOutcome("discard", ("E",), "Q", (8,))).field == "discarder"


def test_winner_cannot_be_the_discarder():
    e = err("mcr", HandOutcome("discard", ("E",), "E", (8,)))
    assert e.field == "discarder" and "own discard" in str(e)


def test_fan_below_minimum_is_refused():
    e = err("mcr", HandOutcome("self_draw", ("E",), None, (7,)))
    assert e.field == "fans" and "fan must be at least 8 in MCR" in str(e)
    assert score_changes("mcr", SEATS, HandOutcome("self_draw", ("E",), None, (1,)), min_fan=None)["E"] == 27
    assert err("mcr", HandOutcome("self_draw", ("E",), None, (0,)), min_fan=None).field == "fans"


def test_multiple_winners_only_where_the_rule_allows():
    e = err("mcr", HandOutcome("discard", ("S", "W"), "E", (8, 8)))
    assert e.field == "winners"
    assert err(SOFT, HandOutcome("self_draw", ("S", "W"), None, (8, 8))).field == "winners"


def test_self_draw_with_a_discarder_is_refused():
    e = err("mcr", HandOutcome("self_draw", ("S",), "E", (8,)))
    assert e.field == "discarder"


def test_typed_rule_asks_for_typed_changes():
    e = err("typed", HandOutcome("self_draw", ("S",), None, (8,)))
    assert e.field == "rule" and "type the score changes" in str(e)


def test_other_outcome_mistakes_are_named():
    assert err("riichi", HandOutcome("draw")).field == "rule"
    assert err("mcr", HandOutcome("ron", ("E",), "S", (8,))).field == "kind"
    assert err("mcr", HandOutcome("draw", ("E",), None, (8,))).field == "kind"
    assert err("mcr", HandOutcome("discard", ("E",), None, (8,))).field == "discarder"
    assert err("mcr", HandOutcome("discard", (), "S", ())).field == "winners"
    assert err("mcr", HandOutcome("discard", ("E",), "S", (8, 9))).field == "fans"
    assert err(SOFT, HandOutcome("discard", ("E", "E"), "S", (8, 9))).field == "winners"
    assert err("mcr", HandOutcome("draw"), seats=("E", "S", "W")).field == "seats"
    assert err("mcr", HandOutcome("draw"), seats=("E", "S", "W", "E")).field == "seats"


def test_payment_rules_describe_zero_sum_and_winners():
    assert PAYMENT_RULES["mcr"].zero_sum is True and not PAYMENT_RULES["mcr"].multiple_winners
    assert PAYMENT_RULES[SOFT].zero_sum is False and PAYMENT_RULES[SOFT].multiple_winners
    assert PAYMENT_RULES["typed"].zero_sum is None and not PAYMENT_RULES["typed"].computed


def verr(changes, zero_sum=True, deposit=0, seats=SEATS):
    with pytest.raises(PaymentError) as exc:
        validate_score_changes(changes, seats, zero_sum, deposit)
    return exc.value


def test_valid_changes_pass():
    validate_score_changes({"E": 32, "S": -16, "W": -8, "N": -8}, SEATS, zero_sum=True)
    validate_score_changes({"E": 34, "S": -12, "W": -12, "N": -12}, SEATS, zero_sum=False)
    validate_score_changes({"E": 8000, "S": -8000}, ("E", "S"), zero_sum=True)


def test_riichi_deposit_left_on_the_table():
    validate_score_changes({"E": -1000, "S": 1500, "W": -1500, "N": 0}, SEATS, zero_sum=True, deposit=1000)
    e = verr({"E": -1000, "S": 1500, "W": -1500, "N": 0})
    assert e.field == "changes" and "-1000" in str(e)


def test_missing_unknown_and_non_integer_seats_are_named():
    e = verr({"E": 8, "S": -8, "W": 0})
    assert e.field == "N" and "missing" in str(e)
    e = verr({"E": 8, "S": -8, "W": 0, "N": 0, "X": 0})
    assert e.field == "X" and "remove it" in str(e)
    e = verr({"E": 8.5, "S": -8, "W": 0, "N": 0})
    assert e.field == "E" and "whole number" in str(e)
    assert verr({"E": "8", "S": -8, "W": 0, "N": 0}).field == "E"
    assert verr({"E": 8, "S": -8, "W": 0, "N": 0}, deposit=-1).field == "deposit"


def test_wrong_sum_gives_the_sum_and_the_direction():
    e = verr({"E": 40, "S": -16, "W": -8, "N": -8})
    assert e.field == "changes"
    assert "+8" in str(e) and "lower a gain or raise a payment by 8" in str(e)
    e = verr({"E": 24, "S": -16, "W": -8, "N": -8})
    assert "-8" in str(e) and "raise a gain or lower a payment by 8" in str(e)
