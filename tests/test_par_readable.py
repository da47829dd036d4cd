"""Par a player can read (docs/scoring.md, "Par: what each seat could have made"): a double
yakuman counted as two, riichi's luck (ippatsu, ura-dora) left out, the last-tile fan on the
hand's last draw, and only the draws a seat reaches without calls (walls/rulesets/layout.py,
"Draws without calls"). Walls are built by hand, and each value is checked against the rule
set's own calculator (the ``mahjong`` package, PyMahjongGB) called directly."""

from __future__ import annotations

from types import SimpleNamespace

from hypothesis import given
from hypothesis import strategies as st
from test_par import full_wall, tiles

from scoring import par
from scoring.payments import HandOutcome, settle
from walls.rulesets.layout import dead_wall, draw_sequence, reachable_draws
from walls.rulesets.presets import PRESETS, get_ruleset

MCR = get_ruleset("mcr-duplicate")
RIICHI_DUPLICATE = get_ruleset("riichi-duplicate")


def riichi_ids(codes: list[str]) -> list[int]:
    """Tile codes as the ``mahjong`` package's 136-array ids (plain tiles, no red fives)."""
    return [par.kind_of(code) * 4 + copy for code, copy in _copies(codes)]


def _copies(codes: list[str]):
    seen: dict[str, int] = {}
    for code in codes:
        seen[code] = seen.get(code, 0) + 1
        yield code, seen[code] - 1


def riichi_count(hand: list[str], winning: str, **config):
    """The ``mahjong`` package's own count of a closed self-drawn win (``hand``: the 14 tiles)."""
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConfig

    ids = riichi_ids(hand)
    win_id = ids[hand.index(winning)]
    dora = config.pop("dora", [])
    ura = config.pop("ura", [])
    return HandCalculator().estimate_hand_value(
        ids, win_id, dora_indicators=riichi_ids(dora) or None, ura_dora_indicators=riichi_ids(ura) or None,
        config=HandConfig(is_tsumo=True, **config))


def dead_tile(piles: dict[str, list[str]], slot) -> str:
    return piles[slot.pile][int(slot.label[1:]) - 1]


# --- 1. a double yakuman is two yakuman ---------------------------------------------------------


def test_a_dealer_s_suu_ankou_tanki_is_a_double_yakuman_paid_96000():
    # East holds four concealed pungs and a single 5z; D1 (9s) completes nothing, D2 (5z) the pair.
    piles = full_wall(RIICHI_DUPLICATE, {"E-hand": tiles("111m 222p 333s 444m 5z"), "E-draw": tiles("9s 5z")})
    east = par.set_par(RIICHI_DUPLICATE, piles, prevalent_wind="E").seat("E")
    assert east.par.draw == 2 and east.par.hand == "111444m 222p 333s 5z +5z"
    assert east.best == east.par  # nothing is worth more than a double yakuman here

    # the mahjong package's own count: one yakuman yaku carrying 26 han, that is two yakuman
    counted = riichi_count(tiles("111m 222p 333s 444m 55z"), "5z", is_daburu_riichi=True, player_wind=27, round_wind=27)
    assert counted.han == 26 and [str(y) for y in counted.yaku] == ["Suu Ankou Tanki"]
    assert east.par.value.value == counted.han and {n[0]: n[1] for n in east.par.value.names} == {"Suu Ankou Tanki": 26}
    assert east.par.value.yakuman == 2 == par.yakuman_count(counted.yaku)

    # the riichi payment rule pays a dealer's self-drawn double yakuman 2 x 8,000 base, 2x from each
    # of three: +96,000 (one yakuman would be +48,000)
    assert east.par.score == 96_000
    paid = settle("riichi", ("E", "S", "W", "N"), HandOutcome("self_draw", ("E",), None, (0,), (0,), (2,)), min_fan=1)
    assert paid.changes == {"E": 96_000, "S": -32_000, "W": -32_000, "N": -32_000}


def test_a_blessing_of_heaven_with_suu_ankou_tanki_counts_three_yakuman():
    piles = full_wall(RIICHI_DUPLICATE, {"E-hand": tiles("111m 222p 333s 444m 5z"), "E-draw": tiles("5z")})
    east = par.set_par(RIICHI_DUPLICATE, piles, prevalent_wind="E").seat("E")
    assert east.par.draw == 1
    assert {n[0]: n[1] for n in east.par.value.names} == {"Tenhou": 13, "Suu Ankou Tanki": 26}
    assert east.par.value.yakuman == 3 and east.par.score == 144_000


# --- 2. riichi's luck is left out ---------------------------------------------------------------


def test_riichi_par_leaves_out_ippatsu_and_ura_dora_and_keeps_riichi_self_draw_and_dora():
    # riichi-duplicate's dead wall: East X1 X2, South X1..X4; X5 of the whole (South's X3) is the dora
    # indicator, the tile under it (South's X4) the ura-dora indicator: 4p makes South's 5p pair ura-dora.
    piles = full_wall(RIICHI_DUPLICATE, {"S-hand": tiles("123m 456m 789m 123p 5p"), "S-draw": tiles("1z 2z 3z 4z 5p"),
                                         "S-dead": tiles("7z 7z 8s 4p")}, seed=3)
    dead = dead_wall(RIICHI_DUPLICATE)
    ura_slot = next(s for s in dead.of_role("ura") if s.order == 0)
    assert dead_tile(piles, dead.indicator) == "8s" and dead_tile(piles, ura_slot) == "4p"

    south = par.set_par(RIICHI_DUPLICATE, piles, prevalent_wind="E").seat("S")
    assert south.par.draw == 5 and south.par.hand == "123456789m 1235p +5p"
    hand = tiles("123456789m 123p 55p")
    counted = dict(player_wind=28, round_wind=27, dora=["8s"])
    without_luck = riichi_count(hand, "5p", is_riichi=True, **counted)
    with_luck = riichi_count(hand, "5p", is_riichi=True, is_ippatsu=True, ura=["4p"], **counted)
    assert (south.par.value.value, south.par.value.fu) == (without_luck.han, without_luck.fu)
    assert with_luck.han == without_luck.han + 3  # ippatsu 1 and two ura-dora: what the old par counted
    names = {n[0]: n[1] for n in south.par.value.names}
    assert "Riichi" in names and "Menzen Tsumo" in names
    assert not any(name.startswith(("Ippatsu", "Ura Dora")) for name in names)
    assert south.best.value.value < with_luck.han


# --- 3. the last-tile fan on the hand's last draw -----------------------------------------------

# North holds four concealed pungs and a single 5s: a pung may give its pair to a meld of the
# draws, so smaller wins come early, but Four Concealed Pungs (64 fan) waits for the second 5s.
# Twenty draws of twenty different kinds, none of them 5s.
FOUR_PUNGS = "111m 222m 333p 444p 5s"
NO_PAIR = "6789m 1256789p 12346789s 1z"
FOUR_PUNGS_WON = "111222m 333444p 5s +5s"


def mcr_count(hand: str, winning: str, *, last: bool) -> dict[str, int]:
    """PyMahjongGB's own count of North's self-drawn ``hand`` + ``winning`` in the East round."""
    from MahjongGB import MahjongFanCalculator

    names = {"m": "W", "p": "B", "s": "T"}
    standing = tuple(names[code[1]] + code[0] for code in tiles(hand))
    counted = MahjongFanCalculator((), standing, names[winning[1]] + winning[0], 0, True, False, False, last, 3, 0, True)
    return {english: points * count for points, count, _chinese, english in counted}


def test_north_s_win_on_d21_the_hand_s_last_draw_counts_last_tile_draw():
    assert draw_sequence(MCR)[-1] == ("N", 21)
    piles = full_wall(MCR, {"N-hand": tiles(FOUR_PUNGS), "N-draw": tiles(NO_PAIR) + ["5s"]})
    north = par.set_par(MCR, piles, prevalent_wind="E").seat("N")
    assert north.par.draw < 21
    assert (north.best.draw, north.best.hand) == (21, FOUR_PUNGS_WON)
    expected = mcr_count(FOUR_PUNGS, "5s", last=True)
    assert expected["Last Tile Draw"] == 8 and "Self-Drawn" not in expected
    assert {name: value for name, value, _chinese in north.best.value.names} == expected
    assert north.best.value.value == sum(expected.values())


def test_the_same_win_one_draw_earlier_has_no_last_tile_draw():
    piles = full_wall(MCR, {"N-hand": tiles(FOUR_PUNGS), "N-draw": tiles(NO_PAIR)[:19] + ["5s", "1z"]})
    north = par.set_par(MCR, piles, prevalent_wind="E").seat("N")
    assert (north.best.draw, north.best.hand) == (20, FOUR_PUNGS_WON)
    expected = mcr_count(FOUR_PUNGS, "5s", last=False)
    assert "Last Tile Draw" not in expected and expected["Self-Drawn"] == 1
    assert {name: value for name, value, _chinese in north.best.value.names} == expected
    assert north.best.value.value == sum(mcr_count(FOUR_PUNGS, "5s", last=True).values()) - 7


def test_only_the_seat_that_draws_last_counts_the_last_tile():
    # East's D21 is not the hand's last draw: South, West and North draw after it
    piles = full_wall(MCR, {"E-hand": tiles(FOUR_PUNGS), "E-draw": tiles(NO_PAIR) + ["5s"]})
    east = par.set_par(MCR, piles, prevalent_wind="E").seat("E")
    assert (east.best.draw, east.best.hand) == (21, FOUR_PUNGS_WON)
    assert "Last Tile Draw" not in {n[0]: n[1] for n in east.best.value.names}


# --- 4. only the draws a seat reaches without calls ---------------------------------------------

# East of riichi-duplicate: a pure straight waiting on 5p, seventeen draws of different kinds none of
# which pairs, then its D18 and D19.
STRAIGHT = "123456789m 123p 5p"
NOTHING = "46789p 123456789s 123z"


def test_riichi_duplicate_east_s_d18_is_the_last_draw_and_counts_haitei():
    piles = full_wall(RIICHI_DUPLICATE, {"E-hand": tiles(STRAIGHT), "E-draw": tiles(NOTHING) + tiles("5p 4z")})
    east = par.set_par(RIICHI_DUPLICATE, piles, prevalent_wind="E").seat("E")
    assert east.draws == 18
    assert east.par.draw == 18
    names = {n[0]: n[1] for n in east.par.value.names}
    assert names["Haitei Raoyue"] == 1 and "Riichi" in names


def test_riichi_duplicate_east_s_d19_is_never_reached_without_calls():
    piles = full_wall(RIICHI_DUPLICATE, {"E-hand": tiles(STRAIGHT), "E-draw": tiles(NOTHING) + tiles("4z 5p")})
    result = par.set_par(RIICHI_DUPLICATE, piles, prevalent_wind="E")
    east = result.seat("E")
    assert east.draws == 18 and east.par is None and east.best is None  # its 5p is D19
    assert [s.draws for s in result.seats] == [18, 17, 17, 17]


def test_reachable_draws_of_every_preset_with_private_draw_piles():
    assert reachable_draws(get_ruleset("mcr-duplicate")) == {"E": 21, "S": 21, "W": 21, "N": 21}
    assert reachable_draws(get_ruleset("mcr-duplicate-mahjongsoft")) == {"E": 21, "S": 21, "W": 21, "N": 21}
    assert reachable_draws(get_ruleset("riichi-duplicate-dead14")) == {"E": 18, "S": 18, "W": 17, "N": 17}
    assert draw_sequence(get_ruleset("riichi-duplicate-dead14"))[-1] == ("S", 18)
    assert reachable_draws(get_ruleset("riichi-duplicate")) == {"E": 18, "S": 17, "W": 17, "N": 17}
    assert draw_sequence(get_ruleset("riichi-duplicate"))[-1] == ("E", 18)
    with_piles = {code for code, r in PRESETS.items() if any(p.kind == "draw" for p in r.piles)}
    assert with_piles == {"mcr-duplicate", "mcr-duplicate-mahjongsoft", "riichi-duplicate", "riichi-duplicate-dead14"}
    assert reachable_draws(get_ruleset("riichi")) == {} and draw_sequence(get_ruleset("riichi")) == []


def test_a_shared_live_wall_s_last_tile_is_the_last_draw():
    riichi = get_ruleset("riichi")
    seats = par.seat_tiles(riichi, full_wall(riichi, {}))
    assert [(s.seat, len(s.draws), s.last) for s in seats] == [("E", 18, False), ("S", 18, True), ("W", 17, False),
                                                               ("N", 17, False)]


def per_seat(sizes: list[int]):
    seats = ("E", "S", "W", "N")[:len(sizes)]
    piles = [SimpleNamespace(name=f"{seat}-draw", kind="draw", size=size, seat=seat) for seat, size in zip(seats, sizes)]
    return SimpleNamespace(seats=seats, piles=piles)


@given(st.lists(st.integers(min_value=0, max_value=30), min_size=2, max_size=4))
def test_draws_without_calls_go_round_in_turn_order_until_a_seat_has_no_tile(sizes):
    ruleset = per_seat(sizes)
    reached = reachable_draws(ruleset)
    sequence = draw_sequence(ruleset)
    size = dict(zip(ruleset.seats, sizes))
    assert all(reached[seat] <= size[seat] for seat in ruleset.seats)
    assert [seat for seat, _n in sequence] == [ruleset.seats[i % len(sizes)] for i in range(len(sequence))]
    following = ruleset.seats[len(sequence) % len(sizes)]
    assert reached[following] == size[following]  # the seat to draw next has nothing left
    assert max(reached.values()) - min(reached.values()) <= 1
    if len(set(sizes)) == 1:  # equal piles are drawn to the end, the seat before the dealer last
        assert sum(reached.values()) == len(sequence) == sum(sizes)
        assert sequence[-1:] == ([(ruleset.seats[-1], sizes[0])] if sizes[0] else [])


def test_a_hand_complete_earlier_is_worth_more_won_again_on_the_last_draw():
    # the second 5s arrives at D10 (Four Concealed Pungs) and a third at D21: North keeps the hand
    # and waits for the last tile, which adds Last Tile Draw (8) in place of Self-Drawn (1)
    draws = tiles(NO_PAIR)
    piles = full_wall(MCR, {"N-hand": tiles(FOUR_PUNGS), "N-draw": draws[:9] + ["5s"] + draws[9:19] + ["5s"]})
    north = par.set_par(MCR, piles, prevalent_wind="E").seat("N")
    assert (north.best.draw, north.best.hand) == (21, FOUR_PUNGS_WON)
    assert {n[0]: n[1] for n in north.best.value.names} == mcr_count(FOUR_PUNGS, "5s", last=True)


# --- 5. names in the reader's language ------------------------------------------------------------


def test_every_yaku_the_package_knows_has_a_name_for_the_catalogue():
    """A yaku outside :data:`scoring.par.YAKU_NAMES` would show in romaji on a Japanese page."""
    from mahjong.hand_calculating.yaku_config import YakuConfig

    known = {yaku.name for yaku in vars(YakuConfig()).values()}
    assert known <= set(par.YAKU_NAMES), sorted(known - set(par.YAKU_NAMES))


def test_a_riichi_par_names_its_yaku_in_the_reader_s_language_without_a_doubled_count():
    """Issue 48: the traveller's par read "Menzen Tsumo, Ippatsu, Pinfu, Dora 1 1" on a Japanese page."""
    from django.utils import translation

    from scoring.reports.analysis import par_view

    piles = full_wall(RIICHI_DUPLICATE, {"S-hand": tiles("123m 456m 789m 123p 5p"), "S-draw": tiles("1z 2z 3z 4z 5p"),
                                         "S-dead": tiles("7z 7z 8s 4p")}, seed=3)
    analysis = par.set_par(RIICHI_DUPLICATE, piles, prevalent_wind="E").as_dict()
    shown = {}
    for language in ("en", "ja", "zh-hans"):
        with translation.override(language):
            shown[language] = par_view(analysis)["seats"]["S"]["par"]["named"]
    assert "Riichi" in shown["en"] and "Menzen Tsumo" in shown["en"] and "Dora 1 1" not in shown["en"]
    assert "立直" in shown["ja"] and "門前清自摸和" in shown["ja"] and "、" in shown["ja"]
    assert "立直" in shown["zh-hans"] and "门前清自摸和" in shown["zh-hans"]
    for language in ("ja", "zh-hans"):
        assert not any(c.isascii() and c.isalpha() for c in shown[language]), shown[language]


def test_an_mcr_par_names_its_fan_in_chinese_on_japanese_and_chinese_pages():
    from django.utils import translation

    from scoring.reports.analysis import par_view

    piles = full_wall(MCR, {"N-hand": tiles(FOUR_PUNGS), "N-draw": tiles(NO_PAIR) + ["5s"]})
    analysis = par.set_par(MCR, piles, prevalent_wind="E").as_dict()
    with translation.override("en"):
        english = par_view(analysis)["seats"]["N"]["best"]["named"]
    with translation.override("zh-hans"):
        chinese = par_view(analysis)["seats"]["N"]["best"]["named"]
    assert "Four Concealed Pungs 64" in english
    assert "四暗刻 64" in chinese and not any(c.isascii() and c.isalpha() for c in chinese), chinese
