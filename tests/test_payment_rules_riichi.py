"""Riichi payments (the standard reference) and two-player Souzu (docs/rules.md, "Two-player Souzu: payments"), against worked
examples computed by hand from the rules and against the published riichi point table.

Seats E S W N, East the dealer (the rule set's first seat). The table below is the standard
riichi score chart players use (not derived from the product's formula): a second, separately
written answer for every han and fu below mangan.
"""

import pytest

from scoring.payments import PAYMENT_RULES, HandOutcome, PaymentError, settle

SEATS = ("E", "S", "W", "N")
TWO = ("E", "S")

# The published chart: (han, fu) -> non-dealer ron, dealer ron, non-dealer tsumo (others, dealer),
# dealer tsumo (each). None where the hand does not exist that way.
CHART = {
    (1, 30): (1000, 1500, (300, 500), 500),
    (1, 40): (1300, 2000, (400, 700), 700),
    (1, 50): (1600, 2400, (400, 800), 800),
    (1, 60): (2000, 2900, (500, 1000), 1000),
    (1, 70): (2300, 3400, (600, 1200), 1200),
    (1, 80): (2600, 3900, (700, 1300), 1300),
    (1, 90): (2900, 4400, (800, 1500), 1500),
    (1, 100): (3200, 4800, (800, 1600), 1600),
    (1, 110): (3600, 5300, (900, 1800), 1800),
    (2, 20): (None, None, (400, 700), 700),
    (2, 25): (1600, 2400, (400, 800), 800),
    (2, 30): (2000, 2900, (500, 1000), 1000),
    (2, 40): (2600, 3900, (700, 1300), 1300),
    (2, 50): (3200, 4800, (800, 1600), 1600),
    (2, 60): (3900, 5800, (1000, 2000), 2000),
    (2, 70): (4500, 6800, (1200, 2300), 2300),
    (2, 80): (5200, 7700, (1300, 2600), 2600),
    (2, 90): (5800, 8700, (1500, 2900), 2900),
    (2, 100): (6400, 9600, (1600, 3200), 3200),
    (2, 110): (7100, 10600, (1800, 3600), 3600),
    (3, 20): (None, None, (700, 1300), 1300),
    (3, 25): (3200, 4800, (800, 1600), 1600),
    (3, 30): (3900, 5800, (1000, 2000), 2000),
    (3, 40): (5200, 7700, (1300, 2600), 2600),
    (3, 50): (6400, 9600, (1600, 3200), 3200),
    (3, 60): (7700, 11600, (2000, 3900), 3900),
    (3, 70): (8000, 12000, (2000, 4000), 4000),
    (4, 20): (None, None, (1300, 2600), 2600),
    (4, 25): (6400, 9600, (1600, 3200), 3200),
    (4, 30): (7700, 11600, (2000, 3900), 3900),
    (4, 40): (8000, 12000, (2000, 4000), 4000),
}


def riichi(kind, winners=(), discarder=None, fans=(), **kw):
    return settle("riichi", SEATS, HandOutcome(kind, tuple(winners), discarder, tuple(fans), **kw))


def refused(rule, seats, outcome, min_fan=None):
    with pytest.raises(PaymentError) as exc:
        settle(rule, seats, outcome, min_fan)
    return exc.value


@pytest.mark.parametrize(("han", "fu"), sorted(CHART))
def test_every_hand_below_mangan_pays_as_the_published_chart(han, fu):
    ron, dealer_ron, (others, dealer_pays), dealer_each = CHART[(han, fu)]
    if ron is not None:
        assert riichi("discard", ["S"], "W", [han], fu=(fu,)).changes == {"E": 0, "S": ron, "W": -ron, "N": 0}
        assert riichi("discard", ["E"], "N", [han], fu=(fu,)).changes == {"E": dealer_ron, "S": 0, "W": 0, "N": -dealer_ron}
    if (han, fu) not in ((1, 25), (2, 25)):  # 2 han 25 fu is a ron only: a self-drawn seven pairs is 3 han (threat 9 of docs/security.md, "Threats and the tests that cover them")
        tsumo = riichi("self_draw", ["W"], None, [han], fu=(fu,)).changes
        assert tsumo == {"E": -dealer_pays, "S": -others, "W": dealer_pays + 2 * others, "N": -others}
        tsumo = riichi("self_draw", ["E"], None, [han], fu=(fu,)).changes
        assert tsumo == {"E": 3 * dealer_each, "S": -dealer_each, "W": -dealer_each, "N": -dealer_each}


def test_the_issue_examples_non_dealer_3_han_30_fu_and_dealer_4_han_30_fu():
    # base 30 x 2^5 = 960: ron 4 x 960 = 3840 -> 3900; tsumo 2 x 960 = 1920 -> 2000 and 960 -> 1000.
    assert riichi("discard", ["S"], "W", [3], fu=(30,)).changes == {"E": 0, "S": 3900, "W": -3900, "N": 0}
    assert riichi("self_draw", ["S"], None, [3], fu=(30,)).changes == {"E": -2000, "S": 4000, "W": -1000, "N": -1000}
    # Dealer: base 30 x 2^6 = 1920, each pays 2 x 1920 = 3840 -> 3900 ("3900 all").
    assert riichi("self_draw", ["E"], None, [4], fu=(30,)).changes == {"E": 11700, "S": -3900, "W": -3900, "N": -3900}


@pytest.mark.parametrize(("han", "base"), [(5, 2000), (6, 3000), (7, 3000), (8, 4000), (10, 4000), (11, 6000),
                                           (12, 6000), (13, 8000)])
def test_limit_hands_ignore_fu(han, base):
    # mangan 2000, haneman 3000, baiman 4000, sanbaiman 6000, kazoe yakuman 8000 base points.
    assert riichi("discard", ["S"], "W", [han]).changes["S"] == 4 * base
    assert riichi("discard", ["S"], "W", [han], fu=(110,)).changes["S"] == 4 * base
    assert riichi("discard", ["E"], "W", [han]).changes["E"] == 6 * base
    assert riichi("self_draw", ["N"], None, [han]).changes == {"E": -2 * base, "S": -base, "W": -base, "N": 4 * base}


def test_mangan_from_4_han_40_fu_and_3_han_70_fu():
    # 40 x 2^6 = 2560 and 70 x 2^5 = 2240 are over 2000: mangan, 8000 on a non-dealer ron.
    assert riichi("discard", ["S"], "W", [4], fu=(40,)).changes["S"] == 8000
    assert riichi("discard", ["S"], "W", [3], fu=(70,)).changes["S"] == 8000
    # 4 han 30 fu stays 7700 (no rounding up to mangan).
    assert riichi("discard", ["S"], "W", [4], fu=(30,)).changes["S"] == 7700


def test_yakuman_counts_whatever_the_han():
    assert riichi("discard", ["S"], "W", [], yakuman=(1,)).changes["S"] == 32000
    assert riichi("discard", ["E"], "W", [0], yakuman=(1,)).changes["E"] == 48000
    # Double yakuman on a non-dealer self-draw: base 16000; dealer pays 32000, the others 16000.
    assert riichi("self_draw", ["S"], None, [], yakuman=(2,)).changes == {"E": -32000, "S": 64000, "W": -16000, "N": -16000}


def test_honba_add_300_on_a_ron_and_100_from_each_payer_on_a_tsumo():
    assert riichi("discard", ["S"], "W", [3], fu=(30,), honba=2).changes == {"E": 0, "S": 4500, "W": -4500, "N": 0}
    assert riichi("self_draw", ["S"], None, [3], fu=(30,), honba=2).changes == {"E": -2200, "S": 4600, "W": -1200, "N": -1200}


def test_riichi_sticks_go_to_the_winner():
    # S and N declared: each pays 1000; S wins 3900 from W and takes both sticks (its own back).
    settled = riichi("discard", ["S"], "W", [3], fu=(30,), riichi=("S", "N"))
    assert settled.changes == {"E": 0, "S": 3900 + 1000, "W": -3900, "N": -1000}
    assert settled.deposit == 0


def test_double_ron_pays_each_winner_and_gives_honba_and_sticks_to_the_first_in_turn():
    # W discards; turn order from W is N, E, S, so N is first. S: 3 han 30 fu = 3900; N: 2 han
    # 40 fu, 40 x 2^4 = 640, 4 x 640 = 2560 -> 2600. N also gets 1 honba (300) and E's stick.
    for winners, fans, fu in ((("S", "N"), (3, 2), (30, 40)), (("N", "S"), (2, 3), (40, 30))):
        settled = riichi("discard", winners, "W", fans, fu=fu, honba=1, riichi=("E",))
        assert settled.changes == {"E": -1000, "S": 3900, "W": -3900 - 2600 - 300, "N": 2600 + 300 + 1000}
    # Triple ron: all three are paid their own hand.
    changes = riichi("discard", ["E", "S", "W"], "N", [5, 5, 5]).changes
    assert changes == {"E": 12000, "S": 8000, "W": 8000, "N": -28000}


@pytest.mark.parametrize(("tenpai", "expected"), [
    ((), {"E": 0, "S": 0, "W": 0, "N": 0}),
    (("S",), {"E": -1000, "S": 3000, "W": -1000, "N": -1000}),
    (("E", "S"), {"E": 1500, "S": 1500, "W": -1500, "N": -1500}),
    (("E", "S", "W"), {"E": 1000, "S": 1000, "W": 1000, "N": -3000}),
    (("E", "S", "W", "N"), {"E": 0, "S": 0, "W": 0, "N": 0}),
])
def test_noten_payment_is_3000_in_all(tenpai, expected):
    assert riichi("draw", tenpai=tenpai).changes == expected


def test_the_sticks_of_a_drawn_hand_stay_on_the_table():
    settled = riichi("draw", tenpai=("E", "S"), riichi=("E",))
    assert settled.changes == {"E": 1500 - 1000, "S": 1500, "W": -1500, "N": -1500}
    assert settled.deposit == 1000 and sum(settled.changes.values()) + settled.deposit == 0


@pytest.mark.parametrize(("outcome", "field", "says"), [
    (HandOutcome("discard", ("S",), "W", (1,), fu=(20,)), "fu", "1 han 20 fu does not exist"),
    (HandOutcome("self_draw", ("S",), None, (1,), fu=(25,)), "fu", "1 han 25 fu does not exist"),
    (HandOutcome("discard", ("S",), "W", (2,), fu=(20,)), "fu", "20 fu is a self-drawn pinfu only"),
    (HandOutcome("discard", ("S",), "W", (3,)), "fu", "fu of winner South is needed"),
    (HandOutcome("discard", ("S",), "W", (3,), fu=(35,)), "fu", "must be one of 20, 25, 30, 40"),
    (HandOutcome("discard", ("S",), "W", (100,)), "fans", "han must be from 1 to 99"),
    (HandOutcome("discard", ("S",), "W", (0,), fu=(30,)), "fans", "han must be from 1 to 99"),
    (HandOutcome("discard", ("S",), "W", (), yakuman=(7,)), "yakuman", "from 0 to 6"),
    (HandOutcome("discard", ("S",), "W", (3,), fu=(30,), honba=-1), "honba", "0 or more"),
    (HandOutcome("discard", ("S",), "W", (3,), fu=(30,), liable="W"), "liable", "does not use"),
    (HandOutcome("self_draw", ("S",), None, (3,), fu=(30,), shielded=("W",)), "shielded", "does not use"),
    (HandOutcome("discard", ("S",), "W", (3,), fu=(30,), tenpai=("E",)), "tenpai", "only on a drawn hand"),
    (HandOutcome("draw", riichi=("E",)), "tenpai", "declared riichi"),
    (HandOutcome("draw", tenpai=("X",)), "tenpai", "'X' is not a seat"),
    (HandOutcome("discard", ("S",), "W", (3,), fu=(30,), riichi=("S", "S")), "riichi", "repeat a seat"),
])
def test_riichi_mistakes_are_refused_naming_the_field(outcome, field, says):
    error = refused("riichi", SEATS, outcome)
    assert error.field == field and says in str(error)


@pytest.mark.parametrize("han", [13, 14, 16, 21])
def test_a_counted_yakuman_is_entered_as_counted_and_paid_as_one_yakuman(han):
    """The set-up sheet and the payment text say 13 han or more is a counted (kazoe) yakuman: a
    table that counts 14 han types 14 and is paid what 13 pays (8,000 base points): South wins
    on West's discard, 32,000; East's tsumo, 16,000 from each."""
    assert riichi("discard", ("S",), "W", (han,)).changes == {"E": 0, "S": 32000, "W": -32000, "N": 0}
    assert riichi("self_draw", ("E",), None, (han,)).changes == {"E": 48000, "S": -16000, "W": -16000, "N": -16000}


def test_riichi_is_for_four_seats():
    assert refused("riichi", ("E", "S", "W"), HandOutcome("draw")).field == "seats"


def test_riichi_rule_declares_its_inputs():
    rule = PAYMENT_RULES["riichi"]
    assert rule.value_unit == "han" and rule.bounds(1) == (1, 99) and rule.stick == 1000
    assert rule.inputs == {"fu", "yakuman", "honba", "riichi", "tenpai"} and rule.multiple_winners


# --- two-player Souzu (docs/rules.md, "Two-player Souzu: payments") ------------------------------------------------------------


def souzu(kind, winners=(), discarder=None, fans=(), **kw):
    return settle("souzu-2p", TWO, HandOutcome(kind, tuple(winners), discarder, tuple(fans), **kw))


def test_souzu_mangan_ron_and_half_value_self_draw():
    # Non-dealer mangan: 4 x 2000 = 8000 on a ron; a self-draw collects half (半額自模): 4000.
    assert souzu("discard", ["S"], "E", [5]).changes == {"E": -8000, "S": 8000}
    assert souzu("self_draw", ["S"], None, [5]).changes == {"E": -4000, "S": 4000}
    # Dealer mangan 6 x 2000 = 12000; half 6000.
    assert souzu("discard", ["E"], "S", [5]).changes == {"E": 12000, "S": -12000}
    assert souzu("self_draw", ["E"], None, [5]).changes == {"E": 6000, "S": -6000}


def test_souzu_honba_are_worth_2000_and_count_in_the_half():
    # 一本二千点: 8000 + 2000 = 10000 on a ron; self-draw: half of the final value, 5000.
    assert souzu("discard", ["S"], "E", [5], honba=1).changes == {"E": -10000, "S": 10000}
    assert souzu("self_draw", ["S"], None, [5], honba=1).changes == {"E": -5000, "S": 5000}
    # Dealer haneman self-draw with 1 honba: (18000 + 2000) / 2 = 10000.
    assert souzu("self_draw", ["E"], None, [6], honba=1).changes == {"E": 10000, "S": -10000}


def test_souzu_minimum_is_mangan_and_haneman_from_5_honba():
    assert souzu("discard", ["S"], "E", [4], fu=(40,)).changes["S"] == 8000  # 2560 base: mangan
    assert souzu("discard", ["S"], "E", [3], fu=(70,)).changes["S"] == 8000
    for outcome in (HandOutcome("discard", ("S",), "E", (4,), fu=(30,)), HandOutcome("discard", ("S",), "E", (2,)),
                    HandOutcome("self_draw", ("E",), None, (1,), fu=(110,))):
        error = refused("souzu-2p", TWO, outcome)
        assert error.field == "fans" and "at least mangan" in str(error)
    # 跳満縛り: from 5 honba a mangan is refused, a haneman pays 12000 + 5 x 2000.
    error = refused("souzu-2p", TWO, HandOutcome("discard", ("S",), "E", (5,), honba=5))
    assert error.field == "fans" and "at least haneman" in str(error)
    assert souzu("discard", ["S"], "E", [6], honba=5).changes == {"E": -22000, "S": 22000}
    assert souzu("self_draw", ["S"], None, [6], honba=5).changes == {"E": -11000, "S": 11000}
    # A yakuman always qualifies; the seed's triple yakuman: 3 x 32000.
    assert souzu("discard", ["S"], "E", [], yakuman=(3,), honba=5).changes["S"] == 96000 + 10000


def test_souzu_riichi_sticks_and_draw():
    # Both declared: S wins 8000 and both sticks.
    assert souzu("discard", ["S"], "E", [5], riichi=("E", "S")).changes == {"E": -9000, "S": 9000}
    # Seed silent on a draw: riichi's noten payment, 3000 from the noten seat; sticks stay.
    settled = souzu("draw", tenpai=("S",), riichi=("S",))
    assert settled.changes == {"E": -3000, "S": 2000} and settled.deposit == 1000
    assert souzu("draw", tenpai=("E", "S")).changes == {"E": 0, "S": 0}


def test_souzu_is_for_two_seats_and_one_winner():
    assert refused("souzu-2p", SEATS, HandOutcome("draw")).field == "seats"
    assert refused("souzu-2p", TWO, HandOutcome("discard", ("S", "E"), "E", (5, 5))).field == "discarder"
