"""The payment rules of seeds 002 (Shiragiku three-player), 003 (shield tile) and 004 (Yangzhou),
against worked examples computed by hand from each seed's text."""

import pytest

from scoring.payments import PAYMENT_RULES, HandOutcome, PaymentError, settle

SEATS = ("E", "S", "W", "N")
THREE = ("E", "S", "W")


def refused(rule, seats, outcome, min_fan=None):
    with pytest.raises(PaymentError) as exc:
        settle(rule, seats, outcome, min_fan)
    return exc.value


# --- Shiragiku three-player (docs/rules.md, "Shiragiku three-player: payments and game flow": 和了点の計算方法) ------------------------------------


def shiragiku(kind, winners=(), discarder=None, fans=(), **kw):
    return settle("shiragiku-3p", THREE, HandOutcome(kind, tuple(winners), discarder, tuple(fans), **kw)).changes


def test_shiragiku_discard_win_is_2_base_points_plus_han_plus_1_for_the_dealer():
    # 3 han: 2 + 3 = 5 for a non-dealer, 2 + 3 + 1 = 6 for the dealer (East); the discarder alone pays.
    assert shiragiku("discard", ["S"], "W", [3]) == {"E": 0, "S": 5, "W": -5}
    assert shiragiku("discard", ["E"], "S", [3]) == {"E": 6, "S": -6, "W": 0}


def test_shiragiku_self_draw_is_paid_by_each_of_the_two_others():
    # 摸和: each other pays the value, so twice the value in all.
    assert shiragiku("self_draw", ["S"], None, [3]) == {"E": -5, "S": 10, "W": -5}
    assert shiragiku("self_draw", ["E"], None, [3]) == {"E": 12, "S": -6, "W": -6}


def test_shiragiku_caps_at_50_and_a_yakuman_is_100():
    assert shiragiku("discard", ["S"], "W", [48]) == {"E": 0, "S": 50, "W": -50}  # 2 + 48 = 50
    assert shiragiku("discard", ["E"], "W", [48]) == {"E": 50, "S": 0, "W": -50}  # 2 + 48 + 1 = 51 -> 50
    assert shiragiku("discard", ["S"], "W", [], yakuman=(1,)) == {"E": 0, "S": 100, "W": -100}
    assert shiragiku("self_draw", ["W"], None, [], yakuman=(2,)) == {"E": -100, "S": -100, "W": 200}


def test_shiragiku_honba_add_one_point_to_each_payment():
    # 積み符: 5 + 2 = 7 from the discarder; on a self-draw each of the two pays 7.
    assert shiragiku("discard", ["S"], "W", [3], honba=2) == {"E": 0, "S": 7, "W": -7}
    assert shiragiku("self_draw", ["S"], None, [3], honba=2) == {"E": -7, "S": 14, "W": -7}
    # The limit caps the hand, not the honba.
    assert shiragiku("discard", ["S"], "W", [60], honba=1) == {"E": 0, "S": 51, "W": -51}


@pytest.mark.parametrize(("tenpai", "expected"), [
    ((), {"E": 0, "S": 0, "W": 0}),
    (("E",), {"E": 6, "S": -3, "W": -3}),
    (("E", "W"), {"E": 3, "S": -6, "W": 3}),
    (("E", "S", "W"), {"E": 0, "S": 0, "W": 0}),
])
def test_shiragiku_noten_penalty_is_6_points_in_all(tenpai, expected):
    assert shiragiku("draw", tenpai=tenpai) == expected


@pytest.mark.parametrize(("outcome", "field"), [
    (HandOutcome("discard", ("S",), "W", (100,)), "fans"),
    (HandOutcome("discard", ("S",), "W", (0,)), "fans"),
    (HandOutcome("discard", ("S",), "W", (3,), fu=(30,)), "fu"),
    (HandOutcome("discard", ("S",), "W", (3,), riichi=("S",)), "riichi"),
    (HandOutcome("discard", ("S", "E"), "W", (3, 3)), "winners"),
    (HandOutcome("discard", ("N",), "W", (3,)), "winners"),
])
def test_shiragiku_mistakes_are_refused(outcome, field):
    assert refused("shiragiku-3p", THREE, outcome).field == field


def test_shiragiku_is_for_three_seats():
    assert refused("shiragiku-3p", SEATS, HandOutcome("draw")).field == "seats"


# --- Shield tile (docs/rules.md, "Shield tile: payments and game end": 点数計算の簡略化, 概要 5) ----------------------------------------


def shield(kind, winners=(), discarder=None, fans=(), **kw):
    return settle("shield-tile", SEATS, HandOutcome(kind, tuple(winners), discarder, tuple(fans), **kw)).changes


@pytest.mark.parametrize(("han", "value"), [(1, 1000), (2, 2000), (3, 4000), (4, 8000), (5, 10000), (6, 12000),
                                            (13, 26000)])
def test_shield_tile_values_and_discard_win(han, value):
    # 1000, 2000, 4000, 8000, then 2000 more a han; no dealer, so East wins the same as the others.
    assert shield("discard", ["S"], "W", [han]) == {"E": 0, "S": value, "W": -value, "N": 0}
    assert shield("discard", ["E"], "W", [han])["E"] == value


@pytest.mark.parametrize(("han", "third"), [(1, 400), (2, 700), (3, 1400), (4, 2700), (5, 3400)])
def test_shield_tile_self_draw_is_paid_in_thirds_rounded_up_to_100(han, third):
    # 1000 / 3 = 333.3 -> 400; 2000 / 3 -> 700; 4000 / 3 -> 1400; 8000 / 3 -> 2700; 10000 / 3 -> 3400.
    assert shield("self_draw", ["N"], None, [han]) == {"E": -third, "S": -third, "W": -third, "N": 3 * third}


def test_a_shielded_seat_pays_nothing_and_the_winner_collects_less():
    assert shield("self_draw", ["S"], None, [4], shielded=("W",)) == {"E": -2700, "S": 5400, "W": 0, "N": -2700}
    assert shield("self_draw", ["S"], None, [4], shielded=("E", "W", "N")) == {"E": 0, "S": 0, "W": 0, "N": 0}


@pytest.mark.parametrize(("outcome", "field"), [
    (HandOutcome("self_draw", ("S",), None, (2,), shielded=("S",)), "shielded"),
    (HandOutcome("discard", ("S",), "W", (2,), shielded=("E",)), "shielded"),
    (HandOutcome("discard", ("S",), "W", (2,), honba=1), "honba"),
    (HandOutcome("discard", ("S", "N"), "W", (2, 2)), "winners"),
    (HandOutcome("draw", tenpai=("S",)), "tenpai"),
    (HandOutcome("discard", ("S",), "W", (100,)), "fans"),
])
def test_shield_tile_mistakes_are_refused(outcome, field):
    assert refused("shield-tile", SEATS, outcome).field == field


def test_a_drawn_shield_tile_hand_pays_nothing():
    assert shield("draw") == dict.fromkeys(SEATS, 0)


# --- Yangzhou (docs/rules.md, "Yangzhou: payments": 点数, 包) ------------------------------------------------------------


def yangzhou(kind, winners=(), discarder=None, fans=(), min_fan=None, **kw):
    return settle("yangzhou", SEATS, HandOutcome(kind, tuple(winners), discarder, tuple(fans), **kw), min_fan).changes


def test_yangzhou_discarder_pays_twice_the_hand_and_the_others_nothing():
    assert yangzhou("discard", ["S"], "W", [20]) == {"E": 0, "S": 40, "W": -40, "N": 0}


def test_yangzhou_self_draw_is_paid_the_value_by_each_other_player():
    assert yangzhou("self_draw", ["S"], None, [20]) == {"E": -20, "S": 60, "W": -20, "N": -20}


def test_yangzhou_several_winners_on_one_discard_are_each_paid_twice_their_hand():
    assert yangzhou("discard", ["S", "N"], "W", [15, 25]) == {"E": 0, "S": 30, "W": -80, "N": 50}


def test_yangzhou_bao_moves_the_whole_win_to_the_seat_that_fed_the_third_chow():
    # S's full flush, third chow from E (the seat before S): E pays everything.
    assert yangzhou("self_draw", ["S"], None, [40], liable="E") == {"E": -120, "S": 120, "W": 0, "N": 0}
    assert yangzhou("discard", ["S"], "W", [40], liable="E") == {"E": -80, "S": 80, "W": 0, "N": 0}
    # Two winners: the liable seat pays for the winner after it; the discarder pays the other.
    assert yangzhou("discard", ["S", "N"], "W", [10, 30], liable="E") == {"E": -20, "S": 20, "W": -60, "N": 60}


def test_yangzhou_liable_seat_must_sit_just_before_its_winner():
    error = refused("yangzhou", SEATS, HandOutcome("self_draw", ("S",), None, (40,), liable="N"))
    assert error.field == "liable" and "East" in str(error)
    assert refused("yangzhou", SEATS, HandOutcome("self_draw", ("S",), None, (40,), liable="S")).field == "liable"
    assert refused("yangzhou", SEATS, HandOutcome("draw", liable="E")).field == "liable"


def test_yangzhou_minimum_is_the_rule_sets_min_fan():
    error = refused("yangzhou", SEATS, HandOutcome("discard", ("S",), "W", (12,)), min_fan=13)
    assert error.field == "fans" and "from 13 to 1000" in str(error)
    assert yangzhou("discard", ["S"], "W", [13], min_fan=13)["S"] == 26
    assert yangzhou("discard", ["S"], "W", [1])["S"] == 2  # no min_fan: the rule's own 1
    assert refused("yangzhou", SEATS, HandOutcome("discard", ("S",), "W", (1001,))).field == "fans"


def test_the_seed_rules_declare_their_inputs():
    assert PAYMENT_RULES["shiragiku-3p"].inputs == {"yakuman", "honba", "tenpai"}
    assert PAYMENT_RULES["shield-tile"].inputs == {"shielded", "open_riichi"}
    assert PAYMENT_RULES["yangzhou"].inputs == {"liable"} and PAYMENT_RULES["yangzhou"].multiple_winners
    assert PAYMENT_RULES["yangzhou"].bounds(18) == (18, 1000)
