"""Payment rules: plain MCR, MahjongSoft duplicate MCR (published examples), typed; score checks;
the outcome as forms and JSON send it; the result in words."""

import math

import pytest
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from scoring.payments import (
    PAYMENT_RULES,
    HandOutcome,
    PaymentError,
    Settlement,
    describe,
    score_changes,
    settle,
    validate_score_changes,
)

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


def test_a_fan_outside_mcr_range_is_refused_with_the_range():
    e = err("mcr", HandOutcome("self_draw", ("E",), None, (7,)))
    assert e.field == "fans" and "fan must be from 8 to 400" in str(e) and "East has 7" in str(e)
    # MCR's 8-fan minimum holds whatever the rule set says; a rule set's min_fan can only raise it.
    assert err("mcr", HandOutcome("self_draw", ("E",), None, (1,)), min_fan=None).field == "fans"
    assert "from 10 to 400" in str(err("mcr", HandOutcome("self_draw", ("E",), None, (9,)), min_fan=10))
    # The issue: fan 800 was accepted; no MCR hand reaches 400.
    e = err("mcr", HandOutcome("discard", ("E",), "S", (800,)))
    assert e.field == "fans" and "from 8 to 400" in str(e)
    assert err(SOFT, HandOutcome("discard", ("S", "W"), "E", (8, 401))).field == "fans"
    assert score_changes("mcr", SEATS, HandOutcome("self_draw", ("E",), None, (400,)))["E"] == 3 * 408


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
    assert err("poker", HandOutcome("draw")).field == "rule"
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


# --- the outcome as forms and JSON send it ------------------------------------------------------


def test_an_outcome_is_read_from_form_strings_and_extra_keys_are_ignored():
    data = {"kind": " discard ", "winners": ["S", ""], "discarder": "W", "fans": [" 3 "], "fu": ["30"],
            "yakuman": "", "honba": " 1 ", "riichi": ["S"], "tenpai": None, "shielded": "", "liable": "",
            "entered_by_seat": "N", "hand": "", "flags": []}
    assert HandOutcome.from_dict(data) == HandOutcome("discard", ("S",), "W", (3,), fu=(30,), honba=1, riichi=("S",))
    assert HandOutcome.from_dict({"kind": "self_draw", "winners": "E", "fans": 8}) == HandOutcome("self_draw", ("E",), None, (8,))
    assert HandOutcome.from_dict({"kind": "draw", "winners": [], "discarder": None, "fans": []}) == HandOutcome("draw")


@pytest.mark.parametrize(("data", "field"), [
    ({"winners": ["E"]}, "kind"),
    ({"kind": ""}, "kind"),
    ({"kind": "discard", "fans": ["eight"]}, "fans"),
    ({"kind": "discard", "fans": [True]}, "fans"),
    ({"kind": "discard", "fans": [8.5]}, "fans"),
    ({"kind": "discard", "fu": ["thirty"]}, "fu"),
    ({"kind": "discard", "honba": "one"}, "honba"),
    ({"kind": "discard", "yakuman": ["x"]}, "yakuman"),
    ({"kind": "discard", "winners": [1]}, "winners"),
    ({"kind": "discard", "discarder": ["S"]}, "discarder"),
    ({"kind": "draw", "tenpai": {"E": True}}, "tenpai"),
])
def test_an_unreadable_outcome_names_its_field(data, field):
    with pytest.raises(PaymentError) as exc:
        HandOutcome.from_dict(data)
    assert exc.value.field == field


def test_to_dict_keeps_the_four_keys_and_only_the_parts_given():
    assert HandOutcome("draw").to_dict() == {"kind": "draw", "winners": [], "discarder": None, "fans": []}
    outcome = HandOutcome("self_draw", ("S",), None, (3,), fu=(30,), honba=1, riichi=("S",))
    assert outcome.to_dict() == {"kind": "self_draw", "winners": ["S"], "discarder": None, "fans": [3], "fu": [30],
                                 "honba": 1, "riichi": ["S"]}


def test_an_input_the_rule_does_not_take_is_refused_by_name():
    for outcome, field in ((HandOutcome("discard", ("E",), "S", (8,), honba=1), "honba"),
                           (HandOutcome("discard", ("E",), "S", (8,), fu=(30,)), "fu"),
                           (HandOutcome("draw", tenpai=("E",)), "tenpai"),
                           (HandOutcome("discard", ("E",), "S", (8,), liable="N"), "liable")):
        e = err("mcr", outcome)
        assert e.field == field and "does not use" in str(e)


def test_settle_reads_a_mapping_and_gives_the_changes_of_score_changes():
    data = {"kind": "discard", "winners": ["E"], "discarder": "S", "fans": ["8"]}
    assert settle("mcr", SEATS, data) == Settlement({"E": 32, "S": -16, "W": -8, "N": -8}, 0)
    assert score_changes("mcr", SEATS, data) == {"E": 32, "S": -16, "W": -8, "N": -8}


# --- the result in words --------------------------------------------------------------------------


def test_describe_reads_as_the_issue_examples():
    assert describe("mcr", SEATS, HandOutcome("discard", ("E",), "S", (24,)), {"E": 48, "S": -32, "W": -8, "N": -8}) == (
        "East won on South's discard, 24 fan: E +48, S -32, W -8, N -8")
    outcome = HandOutcome("self_draw", ("S",), None, (3,), fu=(30,), honba=1, riichi=("S",))
    changes = settle("riichi", SEATS, outcome).changes
    assert describe("riichi", SEATS, outcome, changes) == (
        "South won by self-draw, 3 han 30 fu, 1 honba: E -2100, S +4300, W -1100, N -1100 (riichi: S)")
    outcome = HandOutcome("draw", tenpai=("E", "S"), riichi=("E",))
    settled = settle("riichi", SEATS, outcome)
    assert describe("riichi", SEATS, outcome, settled.changes, settled.deposit) == (
        "Draw (tenpai: E, S): E +500, S +1500, W -1500, N -1500 (riichi: E); 1000 left on the table")
    outcome = HandOutcome("discard", ("E", "W"), "S", (8, 12))
    assert describe("yangzhou", SEATS, outcome, settle("yangzhou", SEATS, outcome).changes) == (
        "East and West won on South's discard, 8 and 12 fan: E +16, S -40, W +24, N 0")


def test_describe_names_yakuman_bao_and_shields():
    outcome = HandOutcome("discard", ("S",), "W", (), yakuman=(2,))
    assert describe("riichi", SEATS, outcome, {"E": 0, "S": 64000, "W": -64000, "N": 0}).startswith(
        "South won on West's discard, double yakuman:")
    outcome = HandOutcome("self_draw", ("S",), None, (40,), liable="E")
    assert describe("yangzhou", SEATS, outcome, {"E": -120, "S": 120, "W": 0, "N": 0}).endswith("(bao: E pays)")
    outcome = HandOutcome("self_draw", ("S",), None, (4,), shielded=("W",))
    assert "(shielded: W)" in describe("shield-tile", SEATS, outcome, {"E": -2700, "S": 5400, "W": 0, "N": -2700})


def test_describe_without_an_outcome_lists_the_changes_and_never_raises():
    changes = {"E": 24, "S": -8, "W": -8, "N": -8}
    assert describe("typed", SEATS, None, changes) == "Score changes: E +24, S -8, W -8, N -8"
    assert describe("mcr", SEATS, {"entered_by_seat": "E"}, changes) == "Score changes: E +24, S -8, W -8, N -8"
    assert describe("mcr", SEATS, {"kind": "discard", "fans": ["lots"]}, changes).startswith("Score changes:")
    assert describe("gone", SEATS, {"kind": "discard", "winners": ["E"], "discarder": "S", "fans": [8]}, changes).startswith(
        "East won on South's discard, 8 fan")


@pytest.mark.parametrize(("language", "sentence"), [
    ("ja", "東家が南家の打牌でロン和了、24 番: 東 +48、南 -32、西 -8、北 -8"),
    ("zh-hans", "南家点炮，东家和牌，24 番：东 +48、南 -32、西 -8、北 -8"),
])
def test_describe_speaks_the_page_language_with_its_seat_names(language, sentence):
    with translation.override(language):
        outcome = HandOutcome("discard", ("E",), "S", (24,))
        assert describe("mcr", SEATS, outcome, settle("mcr", SEATS, outcome).changes) == sentence
        outcome = HandOutcome("draw", tenpai=("E", "S"), riichi=("E",))
        settled = settle("riichi", SEATS, outcome)
        words = describe("riichi", SEATS, outcome, settled.changes, settled.deposit)
        assert "Draw" not in words and "table" not in words and "1000" in words


@pytest.mark.parametrize("language", ["ja", "zh-hans"])
def test_a_hand_value_out_of_range_is_refused_in_the_page_language(language):
    with translation.override(language):
        e = err("mcr", HandOutcome("discard", ("E",), "S", (800,)))
    assert e.field == "fans" and "8" in str(e) and "400" in str(e) and "800" in str(e)
    assert "must" not in str(e) and ("東家" in str(e) or "东家" in str(e))


def test_unset_per_winner_parts_and_zero_values_count_as_not_given():
    # A form may send the empty per-winner lists of inputs it does not show: 0 is "not given".
    assert score_changes("mcr", SEATS, HandOutcome("discard", ("E",), "S", (8,), yakuman=(0,), fu=(0,))) == {
        "E": 32, "S": -16, "W": -8, "N": -8}
    assert score_changes("mcr", SEATS, HandOutcome("draw", fans=(0,))) == dict.fromkeys(SEATS, 0)
    assert err("mcr", HandOutcome("draw", fans=(8,))).field == "fans"
