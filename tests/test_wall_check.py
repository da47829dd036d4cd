"""The check of a result's winning tile and winning hand against the wall (scoring/wall_check.py):
private draw piles (duplicate MCR, duplicate riichi with per-seat dead piles) and a shared live
wall (riichi), red fives as fives, and two properties: a tile drawn from the winner's own pile
always fits, a kind absent from the whole set never does."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.fan_check import parse_hand
from scoring.wall_check import KINDS, check_entry, concealed_part, flag_message, kind_of, problem_message
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
    assert [(p.check, p.message) for p in problems] == [("winning_tile", "the winning tile 5p is not among East's draws (D1-D21)")]


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


def test_riichi_duplicate_replacement_tiles_are_east_x1_x2_south_x1_x2_whoever_declares_the_kong():
    """The preset's notes: replacement tiles East X1, X2, South X1, X2 in that order whoever declares
    the kong; South X3 the dora indicator, West and North's dead tiles indicators and ura-dora."""
    for pile, slot in (("E_dead", 0), ("E_dead", 1), ("S_dead", 0), ("S_dead", 1)):
        tiles = ["1m"] * 4
        tiles[slot] = "6s"
        piles = piles_of(RIICHI_DUPLICATE, **{pile: tiles})
        for seat in RIICHI_DUPLICATE.seats:  # any seat may draw it after its kong
            assert check_entry(RIICHI_DUPLICATE, piles, kind="self_draw", winner=seat, winning_tile="6s") == []
            # a discard of a replacement tile by the kong's declarer
            other = next(s for s in RIICHI_DUPLICATE.seats if s != seat)
            assert check_entry(RIICHI_DUPLICATE, piles, kind="discard", winner=other, discarder=seat, winning_tile="6s") == []


def test_indicators_and_ura_dora_are_never_drawn():
    for pile, slot in (("S_dead", 2), ("S_dead", 3), ("W_dead", 0), ("W_dead", 3), ("N_dead", 0), ("N_dead", 2)):
        tiles = ["1m"] * 4
        tiles[slot] = "6s"
        piles = piles_of(RIICHI_DUPLICATE, **{pile: tiles})
        problems = check_entry(RIICHI_DUPLICATE, piles, kind="self_draw", winner="E", winning_tile="6s")
        assert [p.check for p in problems] == ["winning_tile"]
        assert problems[0].message == ("the winning tile 6s is not among East's draws (D1-D19, replacement tiles East X1, "
                                       "East X2, South X1, South X2)")
    dead14 = get_ruleset("riichi-duplicate-dead14")
    assert check_entry(dead14, piles_of(dead14, dead=["1m", "1m", "1m", "6s"]), kind="self_draw", winner="W", winning_tile="6s") == []
    problems = check_entry(dead14, piles_of(dead14, dead=["1m"] * 4 + ["6s"]), kind="self_draw", winner="W", winning_tile="6s")
    assert "replacement tiles X1, X2, X3, X4" in problems[0].message


def test_a_replacement_tile_needs_a_kong_in_the_winners_hand():
    piles = piles_of(RIICHI_DUPLICATE, filler="9m", S_hand=["1p", "2p", "3p", "4s", "5s", "6s", "7s", "8s", "9s", "7z"],
                     S_draw=["5z", "5z", "5z", "5z"], E_dead=["7z"])
    without_kong = parse_hand("123p 456s 789s 555z 7z +7z")
    problems = check_entry(RIICHI_DUPLICATE, piles, kind="self_draw", winner="S", hand=without_kong)
    assert [p.check for p in problems] == ["winning_tile", "hand"]
    assert "no replacement tile (East X1, East X2, South X1, South X2): the hand has no kong" in problems[0].message
    with_kong = parse_hand("ckong:5z 123p 456s 789s 7z +7z")  # South's kong drew East X1, the winning tile
    assert check_entry(RIICHI_DUPLICATE, piles, kind="self_draw", winner="S", hand=with_kong) == []
    # one kong, one replacement tile: a second one is refused
    two = piles_of(RIICHI_DUPLICATE, filler="9m", S_hand=["1p", "2p", "3p", "4s", "5s", "6s", "7s", "8s", "9s"],
                   S_draw=["5z", "5z", "5z", "5z"], E_dead=["7z", "7z"])
    problems = check_entry(RIICHI_DUPLICATE, two, kind="self_draw", winner="S", hand=with_kong)
    assert [p.check for p in problems] == ["hand"] and "at most 1 of the replacement tiles" in problems[0].message


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
    assert problems[0].check == "winning_tile" and "not in the wall (L1-L70, replacement tiles X1, X2, X3, X4)" in problems[0].message
    assert check_entry(RIICHI, piles_of(RIICHI, dead=["4s"]), kind="self_draw", winner="E", winning_tile="4s") == []
    indicator = piles_of(RIICHI, dead=["1m"] * 4 + ["4s"])  # the dora indicator X5 is never drawn
    assert [p.check for p in check_entry(RIICHI, indicator, kind="self_draw", winner="E", winning_tile="4s")] == ["winning_tile"]
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


def test_problems_are_stored_as_data_and_read_in_the_readers_language(settings):
    from django.utils import translation

    piles = piles_of(MCR, E_hand=["5p"], S_draw=["5p"])
    [problem] = check_entry(MCR, piles, kind="self_draw", winner="E", winning_tile="5p")
    stored = problem.to_dict()
    assert stored["check"] == "winning_tile" and stored["tiles"] == ["5p"] and stored["seat"] == "E"
    assert problem_message(stored) == problem.message
    with translation.override("ja"):
        japanese = problem_message(stored)
    assert japanese != problem.message and "5p" in japanese and "D1-D21" in japanese
    assert problem_message({"check": "hand", "message": "kept words"}) == "kept words"  # stored before problems were data
    assert flag_message([stored]).startswith("does not fit the wall: the winning tile 5p")


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
