"""The check of a result's winning tile and winning hand against the wall (scoring/wall_check.py):
private draw piles (duplicate MCR, duplicate riichi with per-seat dead piles) and a shared live
wall (riichi), red fives as fives, and two properties: a tile drawn from the winner's own pile
always fits, a kind absent from the whole set never does."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.fan_check import parse_hand
from scoring.wall_check import KINDS, WallProblem, check_entry, concealed_part, kind_of
from walls.rulesets import get_ruleset

MCR = get_ruleset("mcr-duplicate")
RIICHI = get_ruleset("riichi")
RIICHI_DUPLICATE = get_ruleset("riichi-duplicate")


def piles_of(ruleset, filler: str = "9s", **given: list[str]) -> dict[str, list[str]]:
    """Piles of ``ruleset``: the tiles given for some piles (padded with ``filler``), ``filler`` elsewhere."""
    piles = {}
    for pile in ruleset.piles:
        tiles = list(given.get(pile.name.replace("-", "_"), []))
        piles[pile.name] = (tiles + [filler] * pile.size)[:pile.size]
    return piles


def test_the_34_kinds_and_red_fives():
    assert len(KINDS) == 34 and KINDS[0] == "1m" and KINDS[-1] == "7z"
    assert kind_of("0p") == "5p" and kind_of("5p") == "5p" and kind_of("1z") == "1z"


def test_a_self_drawn_tile_among_the_winners_draws_fits():
    piles = piles_of(MCR, E_draw=["1m", "2m", "5p"])
    assert check_entry(MCR, piles, kind="self_draw", winner="E", winning_tile="5p") == []


def test_a_self_drawn_tile_not_among_the_winners_draws_names_tile_seat_and_slots():
    piles = piles_of(MCR, E_hand=["5p"], S_draw=["5p"])
    problems = check_entry(MCR, piles, kind="self_draw", winner="E", winning_tile="5p")
    assert problems == [WallProblem("winning_tile", "the winning tile 5p is not among East's draws (D1-D21)")]


def test_a_red_five_counts_as_its_five():
    piles = piles_of(MCR, E_draw=["0p"])
    assert check_entry(MCR, piles, kind="self_draw", winner="E", winning_tile="5p") == []
    assert check_entry(MCR, piles_of(MCR, E_draw=["5p"]), kind="self_draw", winner="E", winning_tile="0p") == []


def test_a_discarded_tile_must_be_among_the_discarders_own_tiles():
    piles = piles_of(MCR, S_hand=["3z"], W_draw=["7z"])
    assert check_entry(MCR, piles, kind="discard", winner="E", discarder="S", winning_tile="3z") == []
    problems = check_entry(MCR, piles, kind="discard", winner="E", discarder="S", winning_tile="7z")
    assert [p.check for p in problems] == ["winning_tile"]
    assert "7z" in problems[0].message and "South" in problems[0].message and "H1-H13, D1-D21" in problems[0].message


def test_a_kong_replacement_from_the_winners_own_dead_pile_fits():
    piles = piles_of(RIICHI_DUPLICATE, E_dead=["6s"])
    assert check_entry(RIICHI_DUPLICATE, piles, kind="self_draw", winner="E", winning_tile="6s") == []
    problems = check_entry(RIICHI_DUPLICATE, piles_of(RIICHI_DUPLICATE, S_dead=["6s"]), kind="self_draw", winner="E",
                           winning_tile="6s")
    assert "D1-D19, X1-X2" in problems[0].message


def test_the_concealed_part_must_come_from_the_winners_own_tiles():
    hand = parse_hand("123456789m 11z 22z +1z")
    own = ["1m", "2m", "3m", "4m", "0m", "6m", "7m", "8m", "9m", "1z", "1z", "2z", "2z"]
    fits = piles_of(MCR, E_hand=own[:10], E_draw=own[10:] + ["1z"])
    assert check_entry(MCR, fits, kind="self_draw", winner="E", hand=hand) == []
    short = piles_of(MCR, E_hand=own[:12], E_draw=["1z"])  # one 2z missing
    problems = check_entry(MCR, short, kind="self_draw", winner="E", hand=hand)
    assert [p.check for p in problems] == ["hand"] and "needs 2z" in problems[0].message and "East" in problems[0].message


def test_exposed_melds_may_hold_called_tiles_and_concealed_kongs_may_not():
    hand = parse_hand("pung:7z 123456m 789s 9p +9p")  # the pung of Red was called: not checked
    piles = piles_of(MCR, E_hand=["1m", "2m", "3m", "4m", "5m", "6m", "7s", "8s", "9p"], S_hand=["9p"])
    assert check_entry(MCR, piles, kind="discard", winner="E", discarder="S", hand=hand) == []
    concealed = parse_hand("ckong:7z 123456m 789s 9p +9p")
    assert concealed_part(concealed, self_drawn=False).count("7z") == 4
    problems = check_entry(MCR, piles, kind="discard", winner="E", discarder="S", hand=concealed)
    assert [p.check for p in problems] == ["hand"] and "7z 7z 7z 7z" in problems[0].message


def test_the_hands_winning_tile_is_checked_when_none_is_given():
    hand = parse_hand("123456789m 11z 22z +1z")
    piles = piles_of(MCR, E_hand=["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1z", "1z", "2z", "2z"], N_draw=["1z"])
    assert [p.check for p in check_entry(MCR, piles, kind="self_draw", winner="E", hand=hand)] == ["winning_tile", "hand"]


def test_a_shared_wall_self_draw_must_come_from_the_wall_not_a_starting_hand():
    piles = piles_of(RIICHI, S_hand=["4s"])
    problems = check_entry(RIICHI, piles, kind="self_draw", winner="E", winning_tile="4s")
    assert problems[0].check == "winning_tile" and "not in the wall (L1-L70, X1-X14)" in problems[0].message
    assert check_entry(RIICHI, piles_of(RIICHI, dead=["4s"]), kind="self_draw", winner="E", winning_tile="4s") == []
    assert check_entry(RIICHI, piles_of(RIICHI, live=["4s"]), kind="self_draw", winner="E", winning_tile="4s") == []


def test_a_shared_wall_discard_from_the_discarders_hand_or_the_wall():
    assert check_entry(RIICHI, piles_of(RIICHI, S_hand=["4s"]), kind="discard", winner="E", discarder="S", winning_tile="4s") == []
    assert check_entry(RIICHI, piles_of(RIICHI, live=["4s"]), kind="discard", winner="E", discarder="S", winning_tile="4s") == []
    problems = check_entry(RIICHI, piles_of(RIICHI, W_hand=["4s"]), kind="discard", winner="E", discarder="S", winning_tile="4s")
    assert "starting hand of South" in problems[0].message


def test_a_draw_or_nothing_given_is_not_checked():
    piles = piles_of(MCR)
    assert check_entry(MCR, piles, kind="draw", winner=None, winning_tile="1m") == []
    assert check_entry(MCR, piles, kind="self_draw", winner="E") == []


def test_problems_are_stored_as_dicts():
    assert WallProblem("hand", "m").to_dict() == {"check": "hand", "message": "m"}


wall_tiles = st.lists(st.sampled_from(KINDS[:20] + ("0m", "0p")), min_size=MCR.tile_count, max_size=MCR.tile_count)


def lay_out(tiles: list[str]) -> dict[str, list[str]]:
    piles, at = {}, 0
    for pile in MCR.piles:
        piles[pile.name] = tiles[at:at + pile.size]
        at += pile.size
    return piles


@settings(max_examples=60, deadline=None)
@given(tiles=wall_tiles, seat=st.sampled_from(MCR.seats), position=st.integers(0, 20))
def test_a_tile_drawn_from_the_winners_own_pile_always_fits(tiles, seat, position):
    piles = lay_out(tiles)
    drawn = piles[f"{seat}-draw"][position]
    assert check_entry(MCR, piles, kind="self_draw", winner=seat, winning_tile=kind_of(drawn)) == []


@settings(max_examples=60, deadline=None)
@given(tiles=wall_tiles, seat=st.sampled_from(MCR.seats), absent=st.sampled_from(KINDS[20:]),
       kind=st.sampled_from(["self_draw", "discard"]), ruleset=st.sampled_from([MCR, RIICHI]))
def test_a_kind_absent_from_the_whole_set_never_fits(tiles, seat, absent, kind, ruleset):
    piles = lay_out(tiles) if ruleset is MCR else piles_of(RIICHI, filler="1m", live=tiles[:70])
    discarder = next(s for s in ruleset.seats if s != seat) if seat in ruleset.seats else ruleset.seats[1]
    winner = seat if seat in ruleset.seats else ruleset.seats[0]
    problems = check_entry(ruleset, piles, kind=kind, winner=winner, discarder=discarder, winning_tile=absent)
    assert [p.check for p in problems] == ["winning_tile"] and absent in problems[0].message
