"""Properties every computed payment rule keeps, over generated outcomes: a zero-sum rule's hand
sums to zero with its deposit accounted; no rule accepts a hand value outside its bounds, for any
rule set minimum; outcomes survive to_dict/from_dict (and JSON); describe never raises for a valid
outcome and names every winner; no hand pays a seat more than the rule's largest hand, from
which the range of a typed change is derived (docs/security.md, "Threats and the tests that cover them")."""

import json
from dataclasses import replace

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from scoring.payments import (
    FU_CHOICES, MAX_HONBA, PAYMENT_RULES, HandOutcome, PaymentError, describe, input_ranges, largest_hand, settle,
)
from tournament.i18n import seat_name

SEATS = {"mcr": ("E", "S", "W", "N"), "mcr-duplicate-mahjongsoft": ("E", "S", "W", "N"), "riichi": ("E", "S", "W", "N"),
         "souzu-2p": ("E", "S"), "souzu-2p-honba-whole": ("E", "S"), "shiragiku-3p": ("E", "S", "W"), "shield-tile": ("E", "S", "W", "N"),
         "yangzhou": ("E", "S", "W", "N")}
COMPUTED = sorted(code for code, rule in PAYMENT_RULES.items() if rule.computed)
MIN_FANS = st.one_of(st.none(), st.integers(0, 30))


def test_the_generators_cover_every_computed_rule():
    assert set(SEATS) == set(COMPUTED)


def _riichi_value(draw, kind, honba, souzu):
    """(han, fu, yakuman) of one riichi-family winner that the rule accepts."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.sampled_from([0, 13])), 0, draw(st.integers(1, 3))
    if souzu:
        low = 6 if honba >= 5 else 5
        if honba < 5 and draw(st.booleans()):
            return draw(st.sampled_from([(4, 40), (4, 110), (3, 70), (3, 90)])) + (0,)
        return draw(st.integers(low, 13)), draw(st.sampled_from((0,) + FU_CHOICES)), 0
    han = draw(st.integers(1, 13))
    if han >= 5:
        return han, draw(st.sampled_from((0,) + FU_CHOICES)), 0
    choices = [fu for fu in FU_CHOICES if not (han == 1 and fu in (20, 25)) and not (kind == "discard" and fu == 20)
               and not (han == 2 and fu == 25 and kind == "self_draw")]
    return han, draw(st.sampled_from(choices)), 0


@st.composite
def outcomes(draw, rule_code, min_fan=None):
    """A valid outcome of ``rule_code`` at a rule set with ``min_fan``."""
    rule = PAYMENT_RULES[rule_code]
    seats = SEATS[rule_code]
    kind = draw(st.sampled_from(["discard", "self_draw", "draw"]))
    honba = draw(st.integers(0, 8)) if "honba" in rule.inputs else 0
    riichi = tuple(draw(st.lists(st.sampled_from(seats), unique=True))) if "riichi" in rule.inputs else ()
    if kind == "draw":
        tenpai = ()
        if "tenpai" in rule.inputs:
            tenpai = tuple(s for s in seats if s in riichi or draw(st.booleans()))
        return HandOutcome("draw", honba=honba, riichi=riichi, tenpai=tenpai)
    if kind == "self_draw":
        winners, discarder = (draw(st.sampled_from(seats)),), None
    else:
        discarder = draw(st.sampled_from(seats))
        others = [s for s in seats if s != discarder]
        size = len(others) if rule.multiple_winners else 1
        winners = tuple(draw(st.lists(st.sampled_from(others), min_size=1, max_size=size, unique=True)))
    low, high = rule.bounds(min_fan)
    fans, fu, yakuman = [], [], []
    for _ in winners:
        if "fu" in rule.inputs:
            han, f, y = _riichi_value(draw, kind, honba, rule_code.startswith("souzu-2p"))
        else:
            han, f = draw(st.integers(low, min(high, low + 60))), 0
            y = draw(st.integers(0, 2)) if "yakuman" in rule.inputs else 0
        fans.append(han)
        fu.append(f)
        yakuman.append(y)
    shielded = ()
    if "shielded" in rule.inputs and kind == "self_draw":
        shielded = tuple(s for s in seats if s != winners[0] and draw(st.booleans()))
    liable = None
    if "liable" in rule.inputs and draw(st.booleans()):
        liable = seats[seats.index(draw(st.sampled_from(winners))) - 1]
    return HandOutcome(kind, winners, discarder, tuple(fans), fu=tuple(fu) if any(fu) else (),
                       yakuman=tuple(yakuman) if any(yakuman) else (), honba=honba, riichi=riichi,
                       shielded=shielded, liable=liable)


@st.composite
def rule_and_outcome(draw):
    code = draw(st.sampled_from(COMPUTED))
    min_fan = draw(st.one_of(st.none(), st.integers(0, 20))) if code not in ("riichi", "souzu-2p", "souzu-2p-honba-whole") else draw(st.sampled_from([None, 1]))
    return code, min_fan, draw(outcomes(code, min_fan))


@given(rule_and_outcome())
def test_every_computed_hand_of_a_zero_sum_rule_sums_to_zero_with_its_deposit(case):
    code, min_fan, outcome = case
    settled = settle(code, SEATS[code], outcome, min_fan)
    assert list(settled.changes) == list(SEATS[code])
    assert all(isinstance(v, int) for v in settled.changes.values()) and settled.deposit >= 0
    if PAYMENT_RULES[code].zero_sum:
        assert sum(settled.changes.values()) + settled.deposit == 0
    if outcome.kind != "draw" and outcome.liable is None and not outcome.shielded:
        # a winner gains, except one who declared riichi and is not the first winner: their stick
        # goes to the first winner (head bump), and a 1,000-point hand then nets 0 (hypothesis found
        # a triple ron with North's 1 han 30 fu and riichi)
        assert all(settled.changes[w] > 0 or (w in outcome.riichi and settled.changes[w] >= 0) for w in outcome.winners)


@given(st.sampled_from(COMPUTED), MIN_FANS, st.integers(-50, 2000), st.data())
def test_no_rule_accepts_a_hand_value_outside_its_bounds(code, min_fan, value, data):
    rule = PAYMENT_RULES[code]
    low, high = rule.bounds(min_fan)
    assume(not low <= value <= high)
    seats = SEATS[code]
    kind = data.draw(st.sampled_from(["discard", "self_draw"]))
    winner = seats[1]
    fu = (30,) if "fu" in rule.inputs else ()
    outcome = HandOutcome(kind, (winner,), seats[0] if kind == "discard" else None, (value,), fu=fu)
    with pytest.raises(PaymentError) as exc:
        settle(code, seats, outcome, min_fan)
    assert exc.value.field == "fans"
    assert f"from {low} to {high}" in str(exc.value)


@given(st.sampled_from(COMPUTED), MIN_FANS)
def test_bounds_take_the_higher_of_the_rule_and_the_rule_set(code, min_fan):
    lowest, highest = PAYMENT_RULES[code].value_range
    assert PAYMENT_RULES[code].bounds(min_fan) == (max(lowest, min_fan or lowest), highest)


@given(rule_and_outcome())
def test_outcomes_round_trip_through_to_dict_and_json(case):
    _code, _min_fan, outcome = case
    data = outcome.to_dict()
    assert {"kind", "winners", "discarder", "fans"} <= set(data)
    assert HandOutcome.from_dict(data) == outcome
    assert HandOutcome.from_dict(json.loads(json.dumps(data))) == outcome


@given(rule_and_outcome())
def test_outcomes_read_from_form_strings_are_the_same(case):
    _code, _min_fan, outcome = case
    form = {key: ([f" {v} " for v in value] if key in ("fans", "fu", "yakuman") else value)
            for key, value in outcome.to_dict().items()}
    if "honba" in form:
        form["honba"] = str(form["honba"])
    form.setdefault("liable", "")
    form["discarder"] = form["discarder"] or ""
    assert HandOutcome.from_dict(form) == outcome


@given(rule_and_outcome())
def test_describe_never_raises_and_names_every_winner(case):
    code, min_fan, outcome = case
    seats = SEATS[code]
    settled = settle(code, seats, outcome, min_fan)
    for given_outcome in (outcome, outcome.to_dict()):
        sentence = describe(code, seats, given_outcome, settled.changes, settled.deposit)
        assert all(seat_name(w) in sentence for w in outcome.winners)
        assert all((f"{v:+d}" if v else "0") in sentence for v in settled.changes.values())


@given(rule_and_outcome(), st.integers(0, MAX_HONBA))
def test_no_hand_pays_a_seat_more_than_the_rules_largest_hand(case, honba):
    code, min_fan, outcome = case
    if "honba" in PAYMENT_RULES[code].inputs and outcome.kind != "draw":
        outcome = replace(outcome, honba=honba)
    try:
        settled = settle(code, SEATS[code], outcome, min_fan)
    except PaymentError:  # Souzu: from 5 honba a hand must be haneman
        assume(False)
    largest = largest_hand(code, SEATS[code])
    assert max(abs(change) for change in settled.changes.values()) <= largest and settled.deposit <= largest
    assert input_ranges(code, SEATS[code], min_fan).changes == largest * len(SEATS[code])
