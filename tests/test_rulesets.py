"""Rule sets and presets (walls/rulesets/), each preset against its source (docs/rules.md, "Sources")."""

import json
import re
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from walls.derivation import ruleset_fingerprint
from walls.rulesets import (
    PAYMENT_RULES,
    PRESETS,
    TILES_136,
    WINDS,
    Pile,
    RuleSet,
    RuleSetError,
    custom_ruleset,
    get_ruleset,
)
from walls.rulesets.layout import dead_wall
from walls.tiles import tile_sort_key

DOC = (Path(__file__).resolve().parent.parent / "docs" / "walls.md").read_text(encoding="utf-8")
SUITED = [f"{r}{s}" for s in "mps" for r in range(1, 10)]


def sizes(ruleset):
    return {p.name: p.size for p in ruleset.piles}


def counts(ruleset):
    return dict(ruleset.tiles)


def indicator_slot(ruleset):
    """The wall slot of the dora indicator as the set-up sheet and the stickers mark it
    (:func:`walls.rulesets.layout.dead_wall`)."""
    indicator = dead_wall(ruleset).indicator
    return next(s for s in ruleset.slots() if (s.pile.name, s.label) == (indicator.pile, indicator.label))


def common(**overrides):
    base = dict(rounds=1, starting_points=0, zero_sum=True, payment_rule="typed", end_rule="ends when the wall is empty")
    return {**base, **overrides}


# --- every preset -------------------------------------------------------------------------------


@pytest.mark.parametrize("code", sorted(PRESETS))
def test_preset_is_consistent_and_round_trips(code):
    ruleset = PRESETS[code]
    assert ruleset.code == code
    assert sum(p.size for p in ruleset.piles) == ruleset.tile_count == len(ruleset.multiset())
    assert [c for c, _ in ruleset.tiles] == sorted((c for c, _ in ruleset.tiles), key=tile_sort_key)
    data = json.loads(json.dumps(ruleset.to_dict()))
    assert RuleSet.from_dict(data) == ruleset
    assert RuleSet.from_dict(data).to_dict() == data
    assert data["fingerprint"] == ruleset.fingerprint == ruleset_fingerprint(ruleset.tiles, [(p.name, p.size) for p in ruleset.piles])
    assert all({"name", "kind", "seat", "size", "slot_prefix"} == set(p) for p in data["piles"])
    assert ruleset.payment_rule in PAYMENT_RULES
    assert ruleset.source and ruleset.notes


@pytest.mark.parametrize("code", sorted(PRESETS))
def test_slots_cover_the_wall_in_order(code):
    ruleset = PRESETS[code]
    slots = ruleset.slots()
    assert [s.index_in_wall for s in slots] == list(range(ruleset.tile_count))
    for pile in ruleset.piles:
        mine = [s for s in slots if s.pile == pile]
        assert [s.label for s in mine] == [f"{pile.slot_prefix}{n}" for n in range(1, pile.size + 1)]
        assert [s.number for s in mine] == list(range(1, pile.size + 1))


def test_doc_preset_table_matches_presets():
    rows = re.findall(r"^\| `([a-z0-9-]+)` \| ([ESWN ]+) \| (\d+) \| ([^|]+) \| ([^|]+) \| (\d+) \| (\d+) \| ([a-z0-9-]+) \|$", DOC, re.M)
    assert [r[0] for r in rows] == list(PRESETS)
    for code, seats, tiles, piles, dora, rounds, start, payment in rows:
        ruleset = PRESETS[code]
        assert tuple(seats.split()) == ruleset.seats
        assert int(tiles) == ruleset.tile_count
        assert piles.strip() == ", ".join(f"{p.name} {p.size}" for p in ruleset.piles)
        assert dora.strip() == (ruleset.dora_indicator or "-")
        assert (int(rounds), int(start), payment) == (ruleset.rounds, ruleset.starting_points, ruleset.payment_rule)


def test_get_ruleset_lists_valid_codes():
    assert get_ruleset("riichi") is PRESETS["riichi"]
    with pytest.raises(RuleSetError, match="unknown rule set 'mahjong'.*mcr-duplicate, .*yangzhou"):
        get_ruleset("mahjong")


# --- presets against their seeds ----------------------------------------------------------------


@pytest.mark.parametrize("code", ["mcr-duplicate", "mcr-duplicate-mahjongsoft"])
def test_mcr_duplicate_against_seed_001(code):
    """docs/rules.md, "Duplicate MCR: seat layout and private draw piles": 136 tiles without flowers; each seat 13 + 21 (rows of 11 and
    10); East draws first from its own pile; 4 rounds of 4 hands = 16; one more turn each after
    a pile runs out."""
    r = PRESETS[code]
    assert r.tile_count == 136 and r.tiles == TILES_136
    assert r.seats == ("E", "S", "W", "N")
    for seat in r.seats:
        assert sizes(r)[f"{seat}-hand"] == 13 and sizes(r)[f"{seat}-draw"] == 21
    assert {p.kind for p in r.piles} == {"hand", "draw"}
    assert r.hands_per_session == 16 and r.rounds == 4
    assert (r.min_fan, r.starting_points, r.score_unit, r.deposit) == (8, 0, 1, False)
    assert r.end_rule == "one more turn each after any draw pile runs out"
    assert "E-draw D1" in r.notes
    if code == "mcr-duplicate":
        assert (r.payment_rule, r.zero_sum) == ("mcr", True)
    else:
        assert (r.payment_rule, r.zero_sum) == ("mcr-duplicate-mahjongsoft", False)


def test_mcr_flowers():
    r = PRESETS["mcr-flowers"]
    assert r.tile_count == 144
    assert [(c, n) for c, n in r.tiles if c.endswith("f")] == [(f"{i}f", 1) for i in range(1, 9)]
    assert sizes(r) == {"E-hand": 13, "S-hand": 13, "W-hand": 13, "N-hand": 13, "live": 92}
    assert r.piles[-1].kind == "live" and r.payment_rule == "mcr" and r.min_fan == 8


@pytest.mark.parametrize(
    "code, reds",
    [("riichi", {}), ("riichi-red3", {"0m": 1, "0p": 1, "0s": 1}), ("riichi-red4", {"0m": 1, "0p": 2, "0s": 1})],
)
def test_riichi(code, reds):
    r = PRESETS[code]
    assert r.tile_count == 136
    for suit in "mps":
        red = reds.get(f"0{suit}", 0)
        assert counts(r).get(f"0{suit}", 0) == red and counts(r)[f"5{suit}"] == 4 - red
    assert sizes(r) == {"E-hand": 13, "S-hand": 13, "W-hand": 13, "N-hand": 13, "live": 70, "dead": 14}
    assert (r.rounds, r.starting_points, r.score_unit, r.payment_rule, r.deposit) == (2, 25000, 100, "riichi", True)
    slot = indicator_slot(r)
    assert (slot.pile.name, slot.label, slot.index_in_wall) == ("dead", "X5", 52 + 70 + 4)


def test_riichi_duplicate_layouts_from_domain_digest():
    """docs/rules.md, "Riichi duplicate layouts": per seat East 2 dead + 19 draws + 13 hand, the others 4 + 17 + 13; or a shared
    14-tile dead wall and private piles of the 70 live tiles."""
    r = PRESETS["riichi-duplicate"]
    assert [(sizes(r)[f"{s}-dead"], sizes(r)[f"{s}-draw"], sizes(r)[f"{s}-hand"]) for s in WINDS] == [
        (2, 19, 13), (4, 17, 13), (4, 17, 13), (4, 17, 13)
    ]  # fmt: skip
    # the source names no indicator; the preset fixes one so every table turns the same tile: the
    # dead piles in seat order are one dead wall of 14, X5 (South's third dead tile) the indicator
    assert r.dora_indicator == "X5" and indicator_slot(r).pile.name == "S-dead"
    assert indicator_slot(r).number == 3
    r = PRESETS["riichi-duplicate-dead14"]
    assert sizes(r)["dead"] == 14 and sum(sizes(r)[f"{s}-draw"] for s in WINDS) == 70
    assert r.dora_indicator == "X5"


def test_souzu_2p_against_seed_000():
    """docs/rules.md, "Two-player Souzu: tile set" removes from the 136: one 1m, 2m-8m x4, one 9m, one 1p,
    2p-8p x4, one 9p, one West, two North, one each of White, Green, Red."""
    removed = Counter({"1m": 1, "9m": 1, "1p": 1, "9p": 1, "3z": 1, "4z": 2, "5z": 1, "6z": 1, "7z": 1})
    for rank in range(2, 9):
        removed[f"{rank}m"] = removed[f"{rank}p"] = 4
    expected = Counter(dict(TILES_136)) - removed
    r = PRESETS["souzu-2p"]
    assert counts(r) == dict(expected)
    # The domain digest's list: souzu 1-9 x4, East x4, South x4, 1m 9m 1p 9p x3, West x3, White Green Red x3, North x2.
    assert 9 * 4 + 4 + 4 + 4 * 3 + 3 + 3 * 3 + 2 == r.tile_count == 70
    assert r.seats == ("E", "S") and r.starting_points == 60000 and r.payment_rule == "souzu-2p"
    assert sizes(r) == {"E-hand": 13, "S-hand": 13, "live": 36, "dead": 8}
    assert r.dora_indicator == "X7"  # upper tile of the 4th stack from the end of the dead wall


@pytest.mark.parametrize("code", [c for c in PRESETS if c.startswith("shiragiku-3p")])
def test_shiragiku_against_seed_002(code):
    """docs/rules.md, "Shiragiku three-player: tile set and red fives": 108 tiles without 2m-8m, or 112 with the four 5m; red-five
    options; dead wall 14 with North as the only nuki-dora, indicator on the 5th stack from the
    end; 9 hands per game."""
    r = PRESETS[code]
    with_5m = "-112" in code
    assert r.tile_count == (112 if with_5m else 108)
    assert all(counts(r).get(f"{rank}m", 0) == 0 for rank in (2, 3, 4, 6, 7, 8))
    assert counts(r).get("5m", 0) == (4 if with_5m else 0)
    for suit in "ps":
        assert counts(r).get(f"5{suit}", 0) + counts(r).get(f"0{suit}", 0) == 4
    assert r.seats == ("E", "S", "W") and r.hands_per_session == 9
    assert sizes(r)["dead"] == 14 and r.dora_indicator == "X9" and r.min_fan == 1


def test_shiragiku_red_options_are_the_seeds():
    reds = {
        code.removeprefix("shiragiku-3p").removeprefix("-112"): (counts(r).get("0p", 0), counts(r).get("0s", 0))
        for code, r in PRESETS.items()
        if code.startswith("shiragiku-3p")
    }
    # none, one 5p, two 5p, all four 5p, two 5p + one 5s, all 5p and 5s (the red 3p/3s option has no tile code)
    assert reds == {"": (0, 0), "-r1p": (1, 0), "-r2p": (2, 0), "-r4p": (4, 0), "-r2p1s": (2, 1), "-r4p4s": (4, 4)}
    assert len([c for c in PRESETS if c.startswith("shiragiku-3p")]) == 12


def test_shield_tile_against_seed_003():
    """docs/rules.md, "Shield tile: deal and shield tiles": dealer 16, others 15; no dead wall, every tile drawn; no red
    fives; everyone starts at 0."""
    r = PRESETS["shield-tile"]
    assert r.tiles == TILES_136
    assert sizes(r) == {"E-hand": 16, "S-hand": 15, "W-hand": 15, "N-hand": 15, "live": 75}
    assert r.starting_points == 0 and not r.deposit and r.dora_indicator is None


def test_yangzhou_against_seed_004():
    """docs/rules.md, "Yangzhou: tiles, seats and deal": 136 without flowers; the dealer takes 14, others 13; the whole
    wall is drawn; 4 dealer rotations."""
    r = PRESETS["yangzhou"]
    assert r.tiles == TILES_136
    assert sizes(r) == {"E-hand": 14, "S-hand": 13, "W-hand": 13, "N-hand": 13, "live": 83}
    assert r.rounds == 4 and r.hands_per_session == 16


# --- custom rule sets -----------------------------------------------------------------------------


def test_custom_layout_too_few_tiles_says_by_how_many_and_where():
    with pytest.raises(RuleSetError) as info:
        custom_ruleset("x", "x", WINDS, TILES_136, "per_seat", [13] * 4, [22] * 4, **common())
    assert str(info.value).endswith(
        "layout needs 140 tiles (4 hands of 13, 4 draw piles of 22) but the tile set has 136: "
        "4 too few; shorten the draw piles or add tiles"
    )


def test_custom_layout_tiles_left_over():
    with pytest.raises(RuleSetError, match="layout needs 133 tiles \\(hands of 14, 13, 13, 13, 4 draw piles of 20\\) "
                       "but the tile set has 136: 3 left over; lengthen the draw piles or remove tiles"):
        custom_ruleset("x", "x", WINDS, TILES_136, "per_seat", [14, 13, 13, 13], [20] * 4, **common())


def test_custom_shared_layout_without_room_for_a_live_wall():
    with pytest.raises(RuleSetError, match="at least 137 tiles \\(4 hands of 13, dead wall of 84, live wall of at least 1\\).*1 too few"):
        custom_ruleset("x", "x", WINDS, TILES_136, "shared", [13] * 4, None, 84, **common())


def test_custom_per_seat_equal_split_and_shared_dead_wall():
    r = custom_ruleset("x", "x", WINDS, TILES_136, "per_seat", [13] * 4, None, 16, **common(), dora_indicator="X5")
    assert sizes(r) == {**{f"{s}-hand": 13 for s in WINDS}, **{f"{s}-draw": 17 for s in WINDS}, "dead": 16}
    assert [p.name for p in r.piles] == [f"{s}-{k}" for s in WINDS for k in ("hand", "draw")] + ["dead"]
    assert indicator_slot(r).index_in_wall == 136 - 16 + 4
    with pytest.raises(RuleSetError, match="70 tiles remain after 4 hands of 13, dead wall of 14, which do not split into 4 equal draw piles: give draw_sizes"):
        custom_ruleset("x", "x", WINDS, TILES_136, "per_seat", [13] * 4, None, 14, **common())


def test_custom_red_fives_replace_plain_fives():
    r = custom_ruleset("x", "x", WINDS, dict(TILES_136), "shared", [13] * 4, None, 14, {"0p": 2, "0s": 1}, **common())
    assert (counts(r)["5p"], counts(r)["0p"], counts(r)["5s"], counts(r)["0s"], counts(r)["5m"]) == (2, 2, 3, 1, 4)
    with pytest.raises(RuleSetError, match="5 red fives 0p replace 5 tiles 5p but the tile set has 4 5p: use at most 4"):
        custom_ruleset("x", "x", WINDS, TILES_136, "shared", [13] * 4, red={"0p": 5}, **common())
    with pytest.raises(RuleSetError, match="red fives and pink tiles are given as 0m, 0p, 0s, 3mp"):
        custom_ruleset("x", "x", WINDS, TILES_136, "shared", [13] * 4, red={"5p": 1}, **common())


@pytest.mark.parametrize(
    "seats, message",
    [(("E", "E", "W", "N"), "each seat may appear once"), (("E", "S", "X"), "must be winds"), (("E",), "2 to 4 winds")],
)
def test_custom_refuses_bad_seats(seats, message):
    with pytest.raises(RuleSetError, match=message):
        custom_ruleset("x", "x", seats, TILES_136, "shared", [13] * len(seats), **common())


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(hand_sizes=[13, 13, 0, 13]), "hand_sizes of seat W must be a whole number from 1"),
        (dict(hand_sizes=[13, 13, 13]), "one size per seat"),
        (dict(layout="per_seat", draw_sizes=[21, 21, -1, 21]), "draw_sizes of seat W"),
        (dict(dead_wall=-1), "dead_wall must be 0"),
        (dict(draw_sizes=[18] * 4), "leave draw_sizes out"),
        (dict(layout="diagonal"), "layout 'diagonal' is unknown"),
        (dict(tiles=[("1m", 4), ("9x", 4)]), "unknown tile code '9x'"),
        (dict(dead_wall=[2, 4, 4, 4]), "per-seat dead wall needs layout 'per_seat'"),
    ],
)
def test_custom_refuses_bad_sizes_and_tiles(kwargs, message):
    args = dict(code="x", name="x", seats=WINDS, tiles=TILES_136, layout="shared", hand_sizes=[13] * 4)
    with pytest.raises(RuleSetError, match=message):
        custom_ruleset(**{**args, **kwargs}, **common())


# --- validation of RuleSet itself --------------------------------------------------------------------


@pytest.mark.parametrize(
    "change, message",
    [
        (dict(code="Bad Code"), "code must be lowercase"),
        (dict(tiles=(("2m", 4), ("1m", 4))), "canonical order"),
        (dict(payment_rule="poker"), "payment_rule 'poker' is unknown"),
        (dict(rounds=0), "rounds must be a whole number from 1"),
        (dict(score_unit=0), "score_unit"),
        (dict(min_fan=-1), "min_fan"),
        (dict(zero_sum="yes"), "zero_sum must be true or false"),
        (dict(end_rule=" "), "end_rule"),
        (dict(dora_indicator="X15"), "dora_indicator 'X15'"),
    ],
)
def test_validate_names_the_field(change, message):
    with pytest.raises(RuleSetError, match=message):
        replace(PRESETS["riichi"], **change)


@pytest.mark.parametrize(
    "piles, message",
    [
        ((Pile("E-hand", "hand", "E", 13, "D"),), "slot prefix must be 'H'"),
        ((Pile("E-hand", "hand", "E", 0, "H"),), "at least 1 tile"),
        ((Pile("E-hand", "heap", "E", 13, "H"),), "kind 'heap'"),
        ((Pile("E-hand", "hand", None, 13, "H"),), "must belong to a seat"),
        ((Pile("E-hand", "hand", "N", 13, "H"),), "not one of the seats"),
        ((Pile("live", "live", "E", 13, "L"),), "seat must be None"),
        ((Pile("E-hand", "hand", "E", 60, "H"), Pile("E-hand", "draw", "E", 10, "D")), "unique"),
        ((Pile("E-hand", "hand", "E", 60, "H"), Pile("S-draw", "draw", "S", 10, "D")), "seat S must have exactly one starting hand"),
        ((Pile("E-hand", "hand", "E", 30, "H"), Pile("S-hand", "hand", "S", 30, "H")), "piles hold 60 tiles but the tile set has 70: 10 tiles left over"),
    ],
)
def test_validate_piles(piles, message):
    with pytest.raises(RuleSetError, match=message):
        replace(PRESETS["souzu-2p"], piles=piles)


def test_from_dict_refuses_edited_or_malformed_json():
    data = PRESETS["riichi"].to_dict()
    with pytest.raises(RuleSetError, match="fingerprint .* does not match"):
        RuleSet.from_dict({**data, "piles": data["piles"][:-2] + [{**data["piles"][-2], "size": 71}, {**data["piles"][-1], "size": 13}]})
    with pytest.raises(RuleSetError, match="unknown keys \\['colour'\\]"):
        RuleSet.from_dict({**data, "colour": "red"})
    with pytest.raises(RuleSetError, match="lacks keys \\['tiles'\\]"):
        RuleSet.from_dict({k: v for k, v in data.items() if k != "tiles"})
    with pytest.raises(RuleSetError, match="piles objects"):
        RuleSet.from_dict({**data, "piles": [{"name": "x"}]})
    minimal = {k: v for k, v in data.items() if k not in ("fingerprint", "source", "notes", "dora_indicator")}
    assert RuleSet.from_dict(minimal).dora_indicator is None


@st.composite
def layouts(draw):
    n = draw(st.integers(2, 4))
    seats = tuple(draw(st.permutations(WINDS))[:n])
    hands = draw(st.lists(st.integers(1, 20), min_size=n, max_size=n))
    dead = draw(st.integers(0, 14))
    layout = draw(st.sampled_from(["per_seat", "shared"]))
    draws = draw(st.lists(st.integers(1, 30), min_size=n, max_size=n)) if layout == "per_seat" else None
    return seats, layout, hands, draws, dead


@settings(max_examples=200, deadline=None)
@given(layouts(), st.integers(-3, 3))
def test_custom_accepts_exactly_the_tile_sets_that_fill_the_layout(shape, delta):
    seats, layout, hands, draws, dead = shape
    need = sum(hands) + dead + (sum(draws) if draws else 1)
    total = need + delta
    if total < 1:
        return
    tiles = [(SUITED[i % 27], 1) for i in range(min(total, 27))]
    tiles[0] = (tiles[0][0], tiles[0][1] + total - len(tiles))
    ok = delta == 0 or (layout == "shared" and delta > 0)
    if ok:
        r = custom_ruleset("x", "x", seats, tiles, layout, hands, draws, dead, **common())
        assert r.tile_count == total and RuleSet.from_dict(r.to_dict()) == r
        assert [p.name for p in r.piles if p.kind == "hand"] == [f"{s}-hand" for s in seats]
    else:
        with pytest.raises(RuleSetError, match=f"tile set has {total}: {abs(delta)} (too few|left over)"):
            custom_ruleset("x", "x", seats, tiles, layout, hands, draws, dead, **common())


@pytest.mark.django_db
def test_events_with_one_definition_share_its_parsed_rule_set_and_another_definition_gets_its_own():
    from tournament.models import Event
    from tournament.services import create_event

    a = create_event(name="Shared rules A", slug="shared-rules-a")
    b = create_event(name="Shared rules B", slug="shared-rules-b")
    riichi = create_event(name="Riichi rules", slug="shared-rules-riichi", ruleset_code="riichi-duplicate")
    again = Event.objects.get(pk=a.pk)  # read afresh, as every request does
    assert again.get_ruleset() is a.get_ruleset() is b.get_ruleset()
    assert again.get_ruleset() == get_ruleset("mcr-duplicate")
    assert riichi.get_ruleset() == get_ruleset("riichi-duplicate") and riichi.get_ruleset() is not a.get_ruleset()
    custom = replace(get_ruleset("mcr-duplicate"), name="House MCR")
    again.ruleset = custom.to_dict()  # a changed definition is parsed again
    assert again.get_ruleset() == custom and again.get_ruleset().name == "House MCR"
