"""The built-in rule sets: :data:`PRESETS` holds every rule set of the seeds
(docs/rules.md, "Sources") plus the standard references (riichi, MCR with flowers), each built with
:func:`~walls.rulesets.custom.custom_ruleset`; :func:`get_ruleset` looks one up.

Standalone: no Django import (error messages are translated through :mod:`tournament.i18n` when
Django runs).
"""

from __future__ import annotations

from collections.abc import Mapping

from tournament.i18n import gettext as _
from tournament.i18n import gettext_noop
from walls.rulesets.custom import custom_ruleset
from walls.rulesets.model import WINDS, RuleSet, RuleSetError
from walls.tiles import tile_sort_key

# --- tile sets ---------------------------------------------------------------------------------

_SUITED = [f"{rank}{suit}" for suit in "mps" for rank in range(1, 10)]
_HONOURS = [f"{rank}z" for rank in range(1, 8)]
TILES_136 = tuple((code, 4) for code in _SUITED + _HONOURS)
"""The standard set without flowers: 34 kinds x 4 = 136 tiles."""
TILES_144 = TILES_136 + tuple((f"{rank}f", 1) for rank in range(1, 9))
"""The standard set with the 8 flowers: 144 tiles (MCR with flowers)."""
TILES_SOUZU_70 = (
    ("1m", 3), ("9m", 3), ("1p", 3), ("9p", 3),
    *((f"{rank}s", 4) for rank in range(1, 10)),
    ("1z", 4), ("2z", 4), ("3z", 3), ("4z", 2), ("5z", 3), ("6z", 3), ("7z", 3),
)  # fmt: skip
"""Two-player Souzu set (docs/rules.md, "Two-player Souzu: tile set"): the 136 minus one 1m, 9m, 1p, 9p, West,
White, Green, Red, two North and every 2m-8m and 2p-8p: 70 tiles."""
TILES_SHIRAGIKU_108 = tuple(pair for pair in TILES_136 if pair[0] not in {f"{r}m" for r in range(2, 9)})
"""Shiragiku three-player set (docs/rules.md, "Shiragiku three-player: tile set and red fives"): the 136 without 2m-8m, 108 tiles."""
TILES_SHIRAGIKU_112 = tuple(sorted(TILES_SHIRAGIKU_108 + (("5m", 4),), key=lambda pair: tile_sort_key(pair[0])))
"""Shiragiku with the four 5m (docs/rules.md, "Shiragiku three-player: tile set and red fives"): 112 tiles."""

_MCR_SOURCE = 'docs/rules.md, "Duplicate MCR (Aono, デュプリケート方式マージャン)" (MIL duplicate MCR, Sanya 2015)'
_RIICHI_SOURCE = "standard Japanese riichi rules (reference, not in the seeds)"
_RIICHI_END = gettext_noop("ends when the live wall is empty; the 14-tile dead wall is only drawn for kan replacements")
_RIICHI_PAYMENT = gettext_noop(
    "Payment (standard riichi): han and fu with mangan and above, 300 a honba, riichi sticks of 1000, "
    "noten payment of 3000 at a draw; 13 han or more is a counted yakuman (kazoe), paid as one yakuman: enter the han counted. Several players may win "
    "on one discard: each is paid its own hand, and honba and riichi sticks go to the first winner in turn "
    "from the discarder. The sticks of a drawn hand are left on the table: every set is scored alone, so "
    "they are not carried over; a riichi declarer is tenpai at a draw (a wrong riichi is a penalty typed "
    "as score changes)."
)


_MCR_NOTES = gettext_noop(
    "Each seat gets 34 tiles: a 13-tile starting hand and a private draw pile of 21, laid as a lower "
    "row of 11 with a row of 10 lifted onto it; D1..D21 number the draws in order. East takes no 14th "
    "tile: its first draw is E-draw D1. Every draw, kong replacements included, comes from the drawer's "
    "own pile. When a draw pile runs out, that player discards and the other three draw and discard once "
    "each (last draw haitei, last discard houtei). No flowers."
)
_RIICHI_NOTES = gettext_noop(
    "Starting hands of 13; the dealer's 14th tile is live-wall L1. Dead wall of 14 tiles as 7 stacks; "
    "X1-X4 are the kan replacement tiles in order, X5 (upper tile of the 3rd stack from the end) is the "
    "first dora indicator, X7, X9, X11, X13 the kan-dora indicators, the even slots below them ura-dora."
)


def _mcr_duplicate(code: str, name: str, payment_rule: str, zero_sum: bool, source: str, notes: str) -> RuleSet:
    return custom_ruleset(
        code, name, WINDS, TILES_136, "per_seat", [13] * 4, [21] * 4,
        rounds=4, starting_points=0, zero_sum=zero_sum, payment_rule=payment_rule, min_fan=8, score_unit=1,
        end_rule=gettext_noop("one more turn each after any draw pile runs out"),
        source=source,
        notes=_MCR_NOTES + " " + notes,
    )  # fmt: skip


def _riichi(code: str, name: str, red: Mapping[str, int] | None, notes: str) -> RuleSet:
    return custom_ruleset(
        code, name, WINDS, TILES_136, "shared", [13] * 4, None, 14, red,
        rounds=2, starting_points=25000, zero_sum=True, payment_rule="riichi", min_fan=1, score_unit=100,
        end_rule=_RIICHI_END, deposit=True, source=_RIICHI_SOURCE, dora_indicator="X5",
        notes=_RIICHI_NOTES + " " + notes + " " + _RIICHI_PAYMENT,
    )  # fmt: skip


_SHIRAGIKU_REDS: dict[str, tuple[tuple[str, str], dict[str, int] | None]] = {
    "": ((gettext_noop("Shiragiku three-player (108 tiles, no red fives)"),
           gettext_noop("Shiragiku three-player (112 tiles, no red fives)")), None),
    "-r1p": ((gettext_noop("Shiragiku three-player (108 tiles, 1 red 5p)"),
           gettext_noop("Shiragiku three-player (112 tiles, 1 red 5p)")), {"0p": 1}),
    "-r2p": ((gettext_noop("Shiragiku three-player (108 tiles, 2 red 5p)"),
           gettext_noop("Shiragiku three-player (112 tiles, 2 red 5p)")), {"0p": 2}),
    "-r4p": ((gettext_noop("Shiragiku three-player (108 tiles, all four 5p red)"),
           gettext_noop("Shiragiku three-player (112 tiles, all four 5p red)")), {"0p": 4}),
    "-r2p1s": ((gettext_noop("Shiragiku three-player (108 tiles, 2 red 5p and 1 red 5s)"),
           gettext_noop("Shiragiku three-player (112 tiles, 2 red 5p and 1 red 5s)")), {"0p": 2, "0s": 1}),
    "-r4p4s": ((gettext_noop("Shiragiku three-player (108 tiles, all 5p and 5s red)"),
           gettext_noop("Shiragiku three-player (112 tiles, all 5p and 5s red)")), {"0p": 4, "0s": 4}),
}
"""Code suffix -> ((name with 108 tiles, name with 112), red fives) for the red-five options of
docs/rules.md, "Shiragiku three-player: tile set and red fives" that tile codes can express; each
name whole, a msgid of its own (walls/printing/i18n.py)."""


def _shiragiku(with_5m: bool, suffix: str) -> RuleSet:
    names, red = _SHIRAGIKU_REDS[suffix]
    manzu = (
        gettext_noop(
            "112 tiles: the four 5m are in play, which the Shiragiku rules allow only when North, 1m, 5m and 9m "
            "are all nuki-dora; the rules then size the dead wall by the replacement tiles needed during play and give "
            "no starting size, so this preset lays the same 14-tile dead wall as the North-only option."
        )
        if with_5m
        else gettext_noop("108 tiles (no 2m-8m), 18 stacks per player when built by hand.")
    )
    return custom_ruleset(
        f"shiragiku-3p{'-112' if with_5m else ''}{suffix}",
        names[1] if with_5m else names[0],
        ("E", "S", "W"), TILES_SHIRAGIKU_112 if with_5m else TILES_SHIRAGIKU_108, "shared", [13] * 3, None, 14, red,
        rounds=3, starting_points=0, zero_sum=True, payment_rule="shiragiku-3p", min_fan=1, score_unit=1,
        end_rule=gettext_noop("ends when the live wall is empty (the last draw is the tile before the dora indicator)"),
        source='docs/rules.md, "Shiragiku three-player: tile set and red fives" (Shiragiku Mahjong three-player)', dora_indicator="X9",
        notes=manzu + " " + gettext_noop("North is the only nuki-dora, so the dead wall is always 14 and the dora indicator is the "
        "upper tile of the 5th stack from the end (X9; with rinshan dora the seed turns the 6th, X11). The seed "
        "plays 9 hands per game, always in the East round, the winner dealing next; 3 rounds of 3 seats give "
        "the 9 wall sets. Scoring is 1 han = 1 point (2 base points, +1 for the dealer, limit 50, yakuman 100); "
        "the seed gives no starting points (0 here) and no riichi-stick deposit. Each honba adds 1 point to "
        "every payment (to each of the two on a self-draw); a yakuman is 100 whatever its count (the seed "
        "names one value). The seed's optional noten penalty, 6 points in all, is applied when the table "
        "marks the tenpai seats at a draw (mark none to play without it). The red-five option "
        "'one red 3p and one red 3s' of the seed has no tile code and is not offered."),
    )  # fmt: skip


_SOUZU_NOTES = gettext_noop(
    "Dealer East, other South; start and settle at 60,000; hundreds rounded up, so scores move in "
    "thousands. North may be set aside as nuki-dora (at most 2), so the dora indicator is the upper tile "
    "of the 4th stack from the end of the dead wall (X7) and the dead wall is those 4 stacks, 8 tiles "
    "(X1-X6 replacement tiles); draws go up to the tile before the indicator. Rounds: East and South, "
    "then West as a rule (3 rounds here); the seed adds a North round when both players are at 80,000 "
    "or less, which a fixed duplicate session cannot follow. Mangan minimum without dora (min_fan left "
    "empty: the minimum is a score, not a han count)."
)
_SOUZU_HALVED = gettext_noop(
    "Payment: riichi values with every payment rounded up to 1,000; a ron is paid the value plus 2,000 a honba, "
    "a self-draw half of that, honba included, rounded up to 1,000 (the seed does not say whether the honba are "
    "halved with the self-draw: here they are; the other Souzu preset, honba whole on a self-draw, pays them whole)."
)
_SOUZU_WHOLE = gettext_noop(
    "Payment: riichi values with every payment rounded up to 1,000; a ron is paid the value plus 2,000 a honba, "
    "a self-draw half of the value, rounded up to 1,000, plus the whole 2,000 a honba (the seed does not say "
    "whether the honba are halved with the self-draw: here they are not; the other Souzu preset halves them)."
)
_SOUZU_REST = gettext_noop(
    "Riichi sticks of 1,000 go to the winner. A win below mangan (haneman from 5 honba) is refused, counted "
    "with the dora entered: whether the hand reaches it without dora is the players' check. The seed is silent "
    "on a draw: the noten player pays 3,000 to the tenpai player, as in riichi, and riichi sticks of a drawn "
    "hand are left on the table (every set is scored alone)."
)


def _souzu(code: str, name: str, payment_rule: str, payment_notes: str) -> RuleSet:
    """A two-player Souzu preset (docs/rules.md, "Two-player Souzu: tile set"); the two differ only
    in the payment rule (docs/rules.md, "Two-player Souzu: honba on a self-draw"), so their tiles,
    piles and walls are the same."""
    return custom_ruleset(
        code, name, ("E", "S"), TILES_SOUZU_70, "shared", [13, 13], None, 8,
        rounds=3, starting_points=60000, zero_sum=True, payment_rule=payment_rule, min_fan=None, score_unit=1000,
        end_rule=gettext_noop("ends when the next draw would be the dora indicator"), deposit=True, dora_indicator="X7",
        source='docs/rules.md, "Two-player Souzu: tile set" (two-player Souzu mahjong)',
        notes=_SOUZU_NOTES + " " + payment_notes + " " + _SOUZU_REST,
    )  # fmt: skip


_PINK = {code: 1 for code in ("3mp", "7mp", "3pp", "7pp", "3sp", "7sp")}
"""One pink tile of each 3 and 7 (docs/rules.md, "Shield tile: pink dora"; the count is our choice)."""
_PINK_NOTES = gettext_noop(
    "Pink dora: one each of 3m 7m 3p 7p 3s 7s is pink (6 pink tiles; the seed does not say how many, so as "
    "with three red fives it is one per kind). The set-up sheet prints them on a pink face with a + (3m+ 7s+): "
    "lay the pink tile, not a plain one, in that slot. Each pink tile in the winning hand is one han: count "
    "them in the han entered."
)


def _shield_tile(code: str, name: str, pink: Mapping[str, int] | None, tile_notes: str) -> RuleSet:
    """A shield-tile preset (docs/rules.md, "Shield tile: deal and shield tiles"), with or without
    the pink 3s and 7s (docs/rules.md, "Shield tile: pink dora")."""
    return custom_ruleset(
        code, name, WINDS, TILES_136, "shared", [16, 15, 15, 15], None, 0, pink,
        rounds=3, starting_points=0, zero_sum=True, payment_rule="shield-tile", min_fan=None, score_unit=100,
        end_rule=gettext_noop("ends when the wall is empty: there is no dead wall, every tile is drawn"),
        source='docs/rules.md, "Shield tile: deal and shield tiles" (盾牌 shield-tile rules)',
        notes=gettext_noop("The dealer receives 16 tiles and the others 15 (13 or 14 for the hand plus 2 shield tiles); "
        "no dead wall, no red fives, no ordinary dora, no deposits. The seed ends a game after 10 hands or when top "
        "and bottom are more than 50,000 apart; duplicate play needs the same sets at every table, so this "
        "preset plays 3 rounds (12 sets). Unused shield tiles carried into the next hand would leave that "
        "hand's wall at one table and not another: the director rules on carry-over. Scores are 1000, 2000, "
        "4000, 8000 then +2000 per han, yakuman counted as han. The seed says a self-draw is paid by the three "
        "others and a seat whose open shield tiles hold the winner's wait pays nothing (the winner loses "
        "that third) unless the winner declared open riichi (tick it: the shielded seats then pay too), but not "
        "how a third is rounded: each third is rounded up to 100 (1 han: 400 each). "
        "The seed is silent on several winners of one discard: the first in turn from the discarder wins "
        "(head bump); it gives no minimum (1 han) and no noten payment.") + " " + tile_notes,
    )  # fmt: skip


def _build_presets() -> dict[str, RuleSet]:
    presets = [
        _mcr_duplicate(
            "mcr-duplicate", gettext_noop("MCR duplicate (MIL, per-seat piles)"), "mcr", True, _MCR_SOURCE,
            gettext_noop("Payment: plain MCR (zero-sum)."),
        ),
        _mcr_duplicate(
            "mcr-duplicate-mahjongsoft", gettext_noop("MCR duplicate, MahjongSoft payments"), "mcr-duplicate-mahjongsoft", False,
            _MCR_SOURCE + "; payments: MahjongSoft duplicate MCR rules",
            gettext_noop("Payment: self-draw winner fan+24, each other player ceil(fan/3)+8; several discard winners "
                         "each fan+24 and pay 8 to each other winner: not zero-sum."),
        ),
        custom_ruleset(
            "mcr-flowers", gettext_noop("MCR with flowers (144 tiles, shared wall)"), WINDS, TILES_144, "shared", [13] * 4,
            rounds=4, starting_points=0, zero_sum=True, payment_rule="mcr", min_fan=8, score_unit=1,
            end_rule=gettext_noop("ends when the live wall is empty"),
            source="Chinese Official (MCR) rules with flowers (reference, not in the seeds)",
            notes=gettext_noop("Starting hands of 13; no dead wall: the dealer's first draw is live-wall L1 and flower "
                               "replacements are drawn from the live wall as the table's rules say."),
        ),
        _riichi("riichi", gettext_noop("Riichi (no red fives)"), None, ""),
        _riichi("riichi-red3", gettext_noop("Riichi, three red fives"), {"0m": 1, "0p": 1, "0s": 1},
               gettext_noop("One each of 5m 5p 5s is red.")),
        _riichi("riichi-red4", gettext_noop("Riichi, four red fives"), {"0m": 1, "0p": 2, "0s": 1},
               gettext_noop("Two 5p, one 5m and one 5s are red.")),
        custom_ruleset(
            "riichi-duplicate", gettext_noop("Riichi duplicate (per-seat piles and dead wall)"), WINDS, TILES_136, "per_seat",
            [13] * 4, [19, 17, 17, 17], [2, 4, 4, 4],
            rounds=2, starting_points=25000, zero_sum=True, payment_rule="riichi", min_fan=1, score_unit=100,
            end_rule=gettext_noop("ends when the live wall is empty (every draw pile used up)"), deposit=True,
            dora_indicator="X5", source="published riichi duplicate layout (facts outside the seeds)",
            notes=gettext_noop(
                "Per seat: East 13 hand + 19 draws + 2 dead-wall tiles, the others 13 + 17 + 4; the 14 dead-wall "
                "tiles are kept per seat. The source does not say which dead-wall tile is the dora indicator or how "
                "replacement tiles are ordered across seats, so every table plays it the same way: the dead piles "
                "of East, South, West and North, in that order, are one dead wall of 14 laid as in riichi: "
                "replacement tiles East X1, X2, South X1, X2 in that order whoever declares the kong; South X3 the "
                "dora indicator; West X1, X3, North X1, X3 the kan-dora indicators."
            ) + " " + _RIICHI_PAYMENT,
        ),
        custom_ruleset(
            "riichi-duplicate-dead14", gettext_noop("Riichi duplicate (private draw piles, shared dead wall)"), WINDS, TILES_136,
            "per_seat", [13] * 4, [18, 18, 17, 17], 14,
            rounds=2, starting_points=25000, zero_sum=True, payment_rule="riichi", min_fan=1, score_unit=100,
            end_rule=gettext_noop("ends when the live wall is empty (every draw pile used up)"), deposit=True, dora_indicator="X5",
            source="published riichi duplicate layout (facts outside the seeds)",
            notes=gettext_noop(
                "The 70 live tiles are split into private draw piles in turn order (East and South draw 18 "
                "times at most, West and North 17; the dealer's 14th tile is E-draw D1); the shared dead wall of "
                "14 is laid as in riichi: X1-X4 replacement tiles, X5 the first dora indicator."
            ) + " " + _RIICHI_PAYMENT,
        ),
        _souzu("souzu-2p", gettext_noop("Two-player Souzu mahjong (70 tiles)"), "souzu-2p", _SOUZU_HALVED),
        _souzu("souzu-2p-honba-whole", gettext_noop("Two-player Souzu mahjong (70 tiles, honba whole on a self-draw)"),
               "souzu-2p-honba-whole", _SOUZU_WHOLE),
        *(_shiragiku(with_5m, suffix) for with_5m in (False, True) for suffix in _SHIRAGIKU_REDS),
        _shield_tile("shield-tile", gettext_noop("Shield tile (盾牌) variant"), None,
                     gettext_noop("No pink tiles in this preset: the pink-tile variant of this preset marks the seed's pink 3s and 7s.")),
        _shield_tile("shield-tile-pink", gettext_noop("Shield tile (盾牌) variant, pink 3s and 7s"), _PINK, _PINK_NOTES),
        custom_ruleset(
            "yangzhou", gettext_noop("Yangzhou mahjong"), WINDS, TILES_136, "shared", [14, 13, 13, 13],
            rounds=4, starting_points=0, zero_sum=True, payment_rule="yangzhou", min_fan=None, score_unit=1,
            end_rule=gettext_noop("ends when the wall is used up without a tile left"),
            source='docs/rules.md, "Yangzhou: tiles, seats and deal" (Yangzhou mahjong)',
            notes=gettext_noop("136 tiles without flowers; the dealer takes 14, the others 13; no dead wall. The seed plays "
            "4 dealer rotations (8 in some places): 4 rounds here. The minimum to win is the fan of 一板 or that plus 3 "
            "(しばり) as the event chooses: 3番しばり (the seed's lower big fans, 一板 3), 7番しばり (一板 7), 13番しばり "
            "(一板 10 + 3) or 18番しばり (一板 15 + 3) (min_fan left empty: set it per event, and a hand below it is "
            "refused); the discarder pays double the hand, on a self-draw each pays the hand, and several players "
            "may win on one discard, each paid double its hand by the discarder. Full-flush responsibility (bao): "
            "the player whose discard was chowed as the third meld, the seat just before the winner, pays the "
            "whole win alone (three times the hand on a self-draw, double on a discard). A draw pays nothing "
            "(the seed is silent). The seed gives no starting points (0 here)."),
        ),
    ]  # fmt: skip
    return {ruleset.code: ruleset for ruleset in presets}


PRESETS: dict[str, RuleSet] = _build_presets()
"""Every built-in rule set by code (see docs/walls.md, "Presets")."""


def get_ruleset(code: str) -> RuleSet:
    """The preset with ``code``; raises RuleSetError listing the valid codes."""
    try:
        return PRESETS[code]
    except KeyError:
        raise RuleSetError(_("unknown rule set %(code)s: use one of %(codes)s") % {"code": repr(code), "codes": ", ".join(PRESETS)}) from None
