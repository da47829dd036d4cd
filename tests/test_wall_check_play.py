"""The wall check against legal play (docs/scoring.md, "The wall check: what each layout lets it
see"): on random walls of every preset with private draw piles, entries made by simulated legal
play (tests/legal_play.py: kongs with their replacement tiles, calls from discards, every seat)
are never flagged, given by their winning tile, their hand or both; entries naming a tile no
seat can draw or hold are flagged. Riichi duplicate: a win on each of the four replacement tiles
after the matching kong fits, a tile under an indicator never does."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from legal_play import lay, play, replacement_tiles
from scoring.fan_check import WinningHand
from scoring.wall_check import KINDS, check_entry, kind_of
from walls.rulesets.layout import dead_wall
from walls.rulesets.presets import PRESETS

PRIVATE = sorted(code for code, r in PRESETS.items() if any(p.kind == "draw" for p in r.piles))
RIICHI_DUPLICATES = ("riichi-duplicate", "riichi-duplicate-dead14")


def test_the_presets_with_private_piles_are_the_duplicate_layouts():
    assert PRIVATE == ["mcr-duplicate", "mcr-duplicate-mahjongsoft", "riichi-duplicate", "riichi-duplicate-dead14"]


def _wall(code: str, seed: int, kinds: int) -> dict[str, list[str]]:
    """A shuffled wall of ``code`` whose tiles are renamed onto ``kinds`` kinds, so that pungs,
    kongs and chows come often (the check looks only at where tiles are)."""
    ruleset = PRESETS[code]
    rng = random.Random(seed)
    names = {k: KINDS[i % kinds] for i, k in enumerate(rng.sample(KINDS, len(KINDS)))}
    tiles = [names[kind_of(t)] for t in ruleset.multiset()]
    rng.shuffle(tiles)
    return lay(ruleset, tiles)


def _entries(code: str, seed: int, kinds: int):
    ruleset = PRESETS[code]
    piles = _wall(code, seed, kinds)
    rng = random.Random(seed * 7919 + kinds)
    made = [e for e in (play(ruleset, {k: list(v) for k, v in piles.items()}, rng) for _ in range(12)) if e is not None]
    return ruleset, piles, made


@settings(max_examples=300, deadline=None)
@given(code=st.sampled_from(PRIVATE), seed=st.integers(0, 10**6), kinds=st.sampled_from([9, 12, 20, 34]))
def test_entries_from_legal_play_are_never_flagged(code, seed, kinds):
    ruleset, piles, entries = _entries(code, seed, kinds)
    for entry in entries:
        common = {"kind": entry.kind, "winner": entry.winner, "discarder": entry.discarder}
        assert check_entry(ruleset, piles, **common, winning_tile=entry.winning_tile) == [], entry
        assert check_entry(ruleset, piles, **common, hand=entry.hand) == [], entry
        assert check_entry(ruleset, piles, **common, winning_tile=entry.winning_tile, hand=entry.hand) == [], entry


def test_legal_play_makes_kongs_calls_and_wins_on_replacement_tiles():
    """The simulation does reach the cases that matter (a check that passes because play never
    made a kong would prove nothing)."""
    seen = {"ckong": 0, "kong": 0, "pung": 0, "chi": 0, "self_draw": 0, "discard": 0, "replacement win": 0}
    for code in PRIVATE:
        for seed in range(40):
            ruleset, piles, entries = _entries(code, seed, 9)
            shared = Counter(kind_of(t) for t in replacement_tiles(ruleset, piles) or [])
            for entry in entries:
                seen[entry.kind] += 1
                for meld, _tile in entry.hand.melds:
                    seen[meld] += 1
                if entry.kind == "self_draw" and shared and any(m in ("kong", "ckong") for m, _t in entry.hand.melds):
                    seen["replacement win"] += shared[entry.winning_tile] > 0
    assert all(n > 10 for n in seen.values()), seen


INDICATORS = {"riichi-duplicate": [("W-dead", 1), ("W-dead", 3), ("N-dead", 1), ("N-dead", 3)],
              "riichi-duplicate-dead14": [("dead", 5), ("dead", 7), ("dead", 9), ("dead", 11)]}


def _hidden_under_indicators(code: str, seed: int, kind: str) -> dict[str, list[str]]:
    """A wall of ``code`` whose four tiles of ``kind`` lie only under indicator slots (nobody draws them)."""
    piles = _wall(code, seed, 34)
    slots = INDICATORS[code]
    roles = {(s.pile, int(s.label[1:])): s.role for s in dead_wall(PRESETS[code]).slots}
    assert {roles[s] for s in slots} <= {"indicator", "kan_indicator"}
    free = [(pile, slot - 1) for pile, slot in slots if kind_of(piles[pile][slot - 1]) != kind]
    targets = {(pile, slot - 1) for pile, slot in slots}
    elsewhere = [(name, i) for name, tiles in piles.items() for i, t in enumerate(tiles)
                 if kind_of(t) == kind and (name, i) not in targets]
    for (name, i), (pile, slot) in zip(elsewhere, free, strict=True):
        piles[name][i], piles[pile][slot] = piles[pile][slot], piles[name][i]
    return piles


@settings(max_examples=30, deadline=None)
@given(code=st.sampled_from(RIICHI_DUPLICATES), seed=st.integers(0, 10**6), kind=st.sampled_from(KINDS),
       winner=st.sampled_from("ESWN"), kongs=st.integers(0, 4))
def test_a_tile_no_seat_can_draw_or_hold_is_flagged(code, seed, kind, winner, kongs):
    ruleset = PRESETS[code]
    piles = _hidden_under_indicators(code, seed, kind)
    assert sum(kind_of(t) == kind for p in ruleset.piles if p.kind != "dead" for t in piles[p.name]) == 0
    discarder = next(s for s in "ESWN" if s != winner)
    melds = tuple(("ckong", "1z" if kind != "1z" else "2z") for _ in range(kongs))
    standing = (kind,) + ("9m",) * (12 - 3 * kongs) if kongs < 4 else (kind,)
    self_drawn = check_entry(ruleset, piles, kind="self_draw", winner=winner, winning_tile=kind)
    assert [p.check for p in self_drawn] == ["winning_tile"]
    won_on_discard = check_entry(ruleset, piles, kind="discard", winner=winner, discarder=discarder, winning_tile=kind)
    assert [p.check for p in won_on_discard] == ["winning_tile"]
    hand = check_entry(ruleset, piles, kind="discard", winner=winner, discarder=discarder,
                       hand=WinningHand(standing, melds, "9m"))
    assert "hand" in [p.check for p in hand] and kind in hand[-1].tiles


@pytest.mark.parametrize("code", RIICHI_DUPLICATES)
@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_a_win_on_each_replacement_tile_after_the_matching_kong_fits(code, k):
    """The k-th kong at the table is the winner's (the earlier ones other seats'), and it wins on
    replacement tile k, with and without its hand."""
    ruleset = PRESETS[code]
    for seed in range(20):
        piles = _wall(code, seed, 34)
        tile = kind_of(replacement_tiles(ruleset, piles)[k - 1])
        for winner in ruleset.seats:
            if kind_of(tile) in {kind_of(t) for t in piles[f"{winner}-hand"] + piles[f"{winner}-draw"]}:
                continue  # it would fit as the winner's own tile: not the case asked
            kong = next(x for x in KINDS if x != tile)
            draw = piles[f"{winner}-draw"]
            draw[:4] = [kong] * 4  # the kong's four tiles are the winner's own draws
            own = [t for t in piles[f"{winner}-hand"] + draw[4:] if kind_of(t) not in (tile, kong)][:9]
            hand = WinningHand(tuple(own), (("ckong", kong),), tile)
            assert check_entry(ruleset, piles, kind="self_draw", winner=winner, winning_tile=tile) == []
            assert check_entry(ruleset, piles, kind="self_draw", winner=winner, winning_tile=tile, hand=hand) == []
            no_kong = WinningHand(tuple(own) + (kong,) * 3, (), tile)
            assert [p.check for p in check_entry(ruleset, piles, kind="self_draw", winner=winner, hand=no_kong)] == [
                "winning_tile", "hand"]
            return
    pytest.fail("no wall of 20 had a replacement tile outside every draw pile")


def test_south_declares_the_first_kong_and_wins_on_east_x1():
    """The issue's case: refused before, as East X1 was counted for East alone."""
    ruleset = PRESETS["riichi-duplicate"]
    for seed in range(50):
        piles = _wall("riichi-duplicate", seed, 34)
        tile = kind_of(piles["E-dead"][0])
        if tile not in {kind_of(t) for t in piles["S-draw"]}:
            assert check_entry(ruleset, piles, kind="self_draw", winner="S", winning_tile=tile) == []
            assert check_entry(ruleset, piles, kind="discard", winner="N", discarder="S", winning_tile=tile) == []
            return
    pytest.fail("East X1 was among South's draws on every wall tried")
