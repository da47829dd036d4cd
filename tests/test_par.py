"""Solo par (scoring/par.py): walls built by hand whose par is known by construction, and
properties over derived walls checked with the rule sets' own calculators."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import fan_check, par
from walls import derivation
from walls.rulesets.presets import get_ruleset

MCR = get_ruleset("mcr-duplicate")
RIICHI_DUPLICATE = get_ruleset("riichi-duplicate")


def tiles(text: str) -> list[str]:
    """``"123m 5p"`` → ``["1m", "2m", "3m", "5p"]``."""
    out = []
    for group in text.split():
        out.extend(f"{digit}{group[-1]}" for digit in group[:-1])
    return out


def mcr_seat(hand: str, draws: str) -> par.SeatPar:
    seat = par.SeatTiles("E", tuple(tiles(hand)), tuple(tiles(draws)), False)
    return par.seat_par(seat, par._mcr_evaluator("E", "E"), lambda value: value.value, mcr=True)


def full_wall(ruleset, fixed: dict[str, list[str]], seed: int = 1) -> dict[str, list[str]]:
    """A wall of ``ruleset`` whose piles start with ``fixed`` (pile name → first tiles) and are
    filled with the rest of the set in a seeded order."""
    rest = Counter(ruleset.multiset())
    for pile_tiles in fixed.values():
        rest.subtract(pile_tiles)
    assert all(n >= 0 for n in rest.values()), "the fixed tiles are more than the set holds"
    pool = list(rest.elements())
    random.Random(seed).shuffle(pool)
    piles = {}
    for pile in ruleset.piles:
        start = list(fixed.get(pile.name, []))
        piles[pile.name] = start + [pool.pop() for _ in range(pile.size - len(start))]
    return piles


def test_a_seat_dealt_a_ready_hand_wins_at_its_first_draw():
    seat = mcr_seat("123456789m 123p 5p", "5p 1z 3z 5z 7z")
    assert seat.par is not None and seat.par.draw == 1
    assert seat.par.winning_tile == "5p"
    assert seat.par.hand == "123456789m 1235p +5p"
    assert {n[0]: n[1] for n in seat.par.value.names}["Pure Straight"] == 16
    assert seat.shanten == 0


def test_a_seat_whose_winning_tile_is_d17_wins_at_d17():
    # Sixteen draws of kinds the hand does not hold, never two of a kind: no pair can form, so
    # nothing is complete (not even the knitted hands, with two honours only) until the second 5p.
    useless = "46789p 123456789s 12z"
    seat = mcr_seat("123456789m 123p 5p", useless + " 5p 3z 4z 5z 6z")
    assert seat.draws == 21
    assert seat.par is not None and seat.par.draw == 17
    assert seat.par.winning_tile == "5p"


def test_the_same_seat_in_a_whole_mcr_wall_wins_at_d17():
    useless = tiles("46789p 123456789s 12z")
    piles = full_wall(MCR, {"E-hand": tiles("123456789m 123p 5p"), "E-draw": useless + ["5p"] + tiles("3z 4z 5z 6z")})
    result = par.set_par(MCR, piles, prevalent_wind="E")
    east = result.seat("E")
    assert east.par.draw == 17 and east.draws == 21
    assert result.calculator == "mcr" and not result.approximate
    assert east.par.score == 3 * (8 + east.par.value.value)  # plain MCR: each other seat pays 8 + fan


def test_a_seat_that_cannot_reach_8_fan_without_calls_has_no_par():
    hand, draws = "234m 567m 345p 67s 99s", "1z 3z 8s"
    only = fan_check.count_fan(fan_check.parse_hand(hand + " +8s"), seat_wind="E", prevalent_wind="E", self_drawn=True)
    assert only.total < 8  # its one complete hand, with 8s, is worth 7 fan
    seat = mcr_seat(hand, draws)
    assert seat.par is None and seat.best is None
    assert seat.shanten == 0


def test_the_best_value_can_come_after_par():
    # Ready for a pure straight at once (16 fan on 5p at D2), and a full flush reachable later.
    seat = mcr_seat("123456789m 123p 5p", "1z 5p 2z")
    assert seat.par.draw == 2
    assert seat.best.value.value >= seat.par.value.value


def test_a_riichi_dealer_dealt_a_complete_hand_on_its_first_draw_has_the_blessing_of_heaven():
    piles = full_wall(RIICHI_DUPLICATE, {"E-hand": tiles("123m 456m 789m 123p 5p"), "E-draw": ["5p"]})
    east = par.set_par(RIICHI_DUPLICATE, piles, prevalent_wind="E").seat("E")
    assert east.par.draw == 1
    assert east.par.value.yakuman == 1
    assert "Tenhou" in {n[0]: n[1] for n in east.par.value.names}
    assert east.par.score == 48000  # a dealer's yakuman, 16,000 from each of three


def test_a_later_riichi_win_counts_riichi_and_self_draw_but_not_ippatsu():
    piles = full_wall(RIICHI_DUPLICATE, {"S-hand": tiles("123m 456m 789m 123p 5p"),
                                         "S-draw": tiles("1z 2z 3z 4z") + ["5p"]}, seed=3)
    south = par.set_par(RIICHI_DUPLICATE, piles, prevalent_wind="E").seat("S")
    # four different honours after a hand without a pair: nothing is complete before D5
    assert south.par.draw == 5 and south.par.winning_tile == "5p"
    names = {n[0]: n[1] for n in south.par.value.names}
    assert "Riichi" in names and "Menzen Tsumo" in names
    assert "Ippatsu" not in names and "Double Riichi" not in names


def test_a_shared_live_wall_is_dealt_in_turn_order():
    riichi = get_ruleset("riichi")
    piles = full_wall(riichi, {})
    seats = par.seat_tiles(riichi, piles)
    live = [p for p in riichi.piles if p.kind == "live"][0]
    assert [s.draws[0] for s in seats] == piles[live.name][:4]
    assert seats[1].draws[1] == piles[live.name][5]
    assert all(s.approximate for s in seats)
    assert all(len(s.hand) == 13 for s in seats)


def test_a_dealer_dealt_fourteen_draws_its_fourteenth_first_and_the_next_seat_draws_the_live_wall_first():
    yangzhou = get_ruleset("yangzhou")
    piles = full_wall(yangzhou, {})
    east, south = par.seat_tiles(yangzhou, piles)[:2]
    dealer = [p for p in yangzhou.piles if p.kind == "hand" and p.seat == "E"][0]
    live = [p for p in yangzhou.piles if p.kind == "live"][0]
    assert east.draws[0] == piles[dealer.name][13]
    assert south.draws[0] == piles[live.name][0]
    assert par.set_par(yangzhou, piles).calculator == "shape"


def test_a_wall_missing_a_pile_is_refused_naming_it():
    with pytest.raises(par.ParError, match="E-draw"):
        par.set_par(MCR, {"E-hand": tiles("123m")})


def derived(ruleset, set_no: int) -> dict[str, list[str]]:
    key = derivation.effective_key("5e" * 32)
    wall = derivation.shuffle(ruleset.multiset(), derivation.wall_key(key, "prop", 1, set_no, ruleset.fingerprint))
    return derivation.lay_out(wall, [(p.name, p.size) for p in ruleset.piles])


@settings(max_examples=12, deadline=None)
@given(st.integers(min_value=1, max_value=10_000))
def test_mcr_par_is_a_winning_hand_of_the_seat_s_own_tiles_worth_what_the_calculator_gives(set_no):
    piles = derived(MCR, set_no)
    prevalent = par.prevalent_of(set_no, 4)
    result = par.set_par(MCR, piles, prevalent_wind=prevalent)
    for seat, seen in zip(result.seats, par.seat_tiles(MCR, piles), strict=True):
        assert seat.draws == len(seen.draws) == 21
        for win in (seat.par, seat.best):
            if win is None:
                continue
            assert 1 <= win.draw <= seat.draws
            available = Counter(par.KINDS[par.kind_of(t)] for t in seen.hand + seen.draws[:win.draw])
            assert not Counter(win.tiles) - available, "the hand uses a tile the seat never had"
            assert par.KINDS[par.kind_of(seen.draws[win.draw - 1])] == win.winning_tile
            last = seen.last and win.draw == seat.draws  # North's D21, the hand's last draw: Last Tile Draw
            counted = fan_check.count_fan(replace(fan_check.parse_hand(win.hand), last_tile_of_wall=last),
                                          seat_wind=seat.seat, prevalent_wind=prevalent, self_drawn=True)
            assert counted.total == win.value.value >= 8
        if seat.par is not None:
            assert seat.best.score >= seat.par.score


@settings(max_examples=8, deadline=None)
@given(st.integers(min_value=1, max_value=10_000))
def test_riichi_par_never_exceeds_the_pile_and_is_a_hand_of_the_seat_s_tiles(set_no):
    piles = derived(RIICHI_DUPLICATE, set_no)
    result = par.set_par(RIICHI_DUPLICATE, piles, prevalent_wind="E")
    for seat, seen in zip(result.seats, par.seat_tiles(RIICHI_DUPLICATE, piles), strict=True):
        if seat.par is None:
            continue
        assert 1 <= seat.par.draw <= seat.draws == len(seen.draws)
        available = Counter(par.KINDS[par.kind_of(t)] for t in seen.hand + seen.draws[:seat.par.draw])
        assert not Counter(seat.par.tiles) - available
        assert seat.par.value.value >= 1 and seat.par.score > 0


def test_the_analysis_as_json_names_every_seat():
    data = par.set_par(MCR, derived(MCR, 1)).as_dict()
    assert [s["seat"] for s in data["seats"]] == ["E", "S", "W", "N"]
    assert data["unit"] == "fan" and data["calculator"] == "mcr"
    for seat in data["seats"]:
        assert isinstance(seat["shanten"], int)
        if seat["par"]:
            assert seat["par"]["hand"].count("+") == 1 and seat["par"]["value"] >= 8


def test_the_worked_example_of_the_scoring_guide():
    """docs/scoring.md, "Worked example: one set of duplicate MCR": the wall derived from the
    documented seed gives the par and best the guide prints."""
    key = derivation.effective_key("0123456789abcdef" * 4)
    wall = derivation.shuffle(MCR.multiset(), derivation.wall_key(key, "worked-example", 1, 1, MCR.fingerprint))
    piles = derivation.lay_out(wall, [(p.name, p.size) for p in MCR.piles])
    assert piles["E-draw"][:3] == ["2p", "8p", "7z"]
    result = par.set_par(MCR, piles, prevalent_wind="E")
    east = result.seat("E")
    assert (east.shanten, east.par.draw, east.par.hand, east.par.value.value, east.par.score) == (
        4, 14, "677m 1188p 4488s 77z +6m", 25, 99)
    assert (east.best.draw, east.best.hand, east.best.value.value, east.best.score) == (19, "36677m 88p 446688s +3m", 27, 105)
    table = {s.seat: (s.shanten, s.par.draw, s.par.value.value, s.par.score, s.best.draw, s.best.score) for s in result.seats}
    assert table == {"E": (4, 14, 25, 99, 19, 105), "S": (4, 15, 26, 102, 15, 102), "W": (3, 13, 26, 102, 17, 231),
                     "N": (3, 15, 29, 111, 18, 117)}
    # every seat reaches its 21 draws; North's D21, the hand's last draw, is a 9m that completes nothing
    assert [s.draws for s in result.seats] == [21, 21, 21, 21]
    north = par.seat_tiles(MCR, piles)[3]
    assert north.last and north.draws[-1] == "9m"


def test_fixed_honba_and_sticks_count_in_the_par_score_as_in_a_table_s_result():
    """docs/scoring.md, "Fixed honba and riichi sticks": a riichi set fixed at 2 honba and 1
    stick pays every win 600 more (300 a honba) and the stick's 1,000 to the winner."""
    from scoring.payments.counters import Counters

    piles = derived(RIICHI_DUPLICATE, 7)
    plain = par.set_par(RIICHI_DUPLICATE, piles, prevalent_wind="E")
    fixed = par.set_par(RIICHI_DUPLICATE, piles, prevalent_wind="E", counters=Counters(honba=2, riichi=1))
    for a, b in zip(plain.seats, fixed.seats, strict=True):
        assert (a.par is None) == (b.par is None)
        if a.par is not None:
            assert b.par.score == a.par.score + 2 * 300 + 1000
    mcr = par.set_par(MCR, derived(MCR, 7), counters=Counters(honba=2, riichi=1))
    assert mcr.as_dict() == par.set_par(MCR, derived(MCR, 7)).as_dict()  # MCR has neither


def test_a_riichi_hand_with_four_of_a_kind_and_a_red_five_of_another_suit_is_valued_as_held():
    """Four 2m are four tiles of 2m (not a 3m), and a red 5s that arrived makes no 5m red."""
    evaluate = par._riichi_evaluator("S", "E", False, [], True)
    counts = [0] * 34
    for code in tiles("222234m 567p 789s 55m"):
        counts[par.kind_of(code)] += 1
    suits_with_red = 1 << 2  # only the bamboo's red five has arrived
    value = evaluate(tuple(counts), par.kind_of("4m"), 5, suits_with_red, False)
    names = {n[0]: n[1] for n in value.names}
    assert "Menzen Tsumo" in names and "Riichi" in names
    assert not any("Aka" in name for name in names)
    red_man = evaluate(tuple(counts), par.kind_of("4m"), 5, 1 << 0, False)  # the red 5m has arrived: one aka dora
    assert red_man.value == value.value + 1
