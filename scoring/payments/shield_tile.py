"""Shield-tile payments (docs/rules.md, "Shield tile: payments and game end", 点数計算の簡略化 and 概要 5).

No fu, no dealer, no honba, no deposits: a hand of 1 han is worth 1,000, 2 han 2,000, 3 han
4,000, 4 han 8,000, then 2,000 more a han (yakuman counted as han, no limit). The han entered
include the pink dora, one han each (docs/rules.md, "Shield tile: pink dora"): 2 han of yaku and
one pink 3s are 3 han, 4,000. On a discard the
discarder pays the value. On a self-draw each other seat pays a third of it, rounded up to 100
(the seed says only that a shielded seat's share is lost, 1/3), except a seat whose open shield
tiles hold the winner's wait (shielded), which pays nothing: the winner just collects less;
unless the winner declared open riichi (``open_riichi``: 「オープンリーチをかけた場合は、この防御機構が
無効化される」), when the shielded seats pay their third too. A shielded seat cannot be the winner. One winner per discard (the seed is silent: the riichi head
bump).

Four seats only (the seed's game; a self-draw's thirds are the three others): a rule set of two
or three seats with this rule is refused where it is defined (:meth:`walls.rulesets.RuleSet.validate`)
and by :func:`scoring.payments.settle`, as riichi's is (``seat_counts``).

Standalone: no Django import.
"""

from __future__ import annotations

from typing import cast

from scoring.payments.core import (
    HandOutcome,
    PaymentError,
    PaymentRule,
    Settlement,
    check_outcome,
    round_up,
)
from tournament.i18n import gettext as _
from tournament.i18n import seat_name

VALUES = {1: 1000, 2: 2000, 3: 4000, 4: 8000}
PER_HAN = 2000


def shield_tile_value(han: int) -> int:
    """Points of a shield-tile hand of ``han`` (≥ 1): 1000, 2000, 4000, 8000, then +2000 a han."""
    return VALUES.get(han, VALUES[4] + PER_HAN * (han - 4))


def settle_shield_tile(rule: PaymentRule, seats: tuple[str, ...], outcome: HandOutcome, min_fan: int | None) -> Settlement:
    """Shield-tile payments (see the module docstring)."""
    hand = check_outcome(rule, seats, outcome, min_fan)
    changes = dict.fromkeys(seats, 0)
    if hand.kind == "draw":
        return Settlement(changes)
    winner = hand.winners[0]
    value = shield_tile_value(hand.values[0])
    if winner in hand.shielded:
        raise PaymentError("shielded", _("the winner %(seat)s cannot be shielded: the shield protects the payers only; "
                                         "clear it") % {"seat": seat_name(winner)})
    if hand.kind == "discard":
        changes[cast(str, hand.discarder)] -= value
        changes[winner] += value
        return Settlement(changes)
    share = round_up(-(-value // (len(seats) - 1)), 100)
    exempt = () if hand.open_riichi else hand.shielded
    for payer in seats:
        if payer != winner and payer not in exempt:
            changes[payer] -= share
            changes[winner] += share
    return Settlement(changes)
