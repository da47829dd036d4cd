"""Shiragiku three-player payments (docs/rules.md, "Shiragiku three-player: payments and game flow", 和了点の計算方法 and 平局).

One han is one point, no fu: a win is worth 2 base points (場に付く両翻), plus one per han or
dora, plus one for the dealer (the rule set's first seat), capped at 50 (満貫); a yakuman is
100 whatever its count. Each honba adds one point (積み符). On a discard the discarder alone pays
it; on a self-draw each of the two others pays it (so twice the value). The seed's optional noten
penalty (不聴罰符) is 6 points in all, applied when the table marks the tenpai seats: one tenpai
+6 / -3 / -3, two tenpai +3 / +3 / -6, none or all three nothing. No riichi sticks are counted.

Standalone: no Django import.
"""

from __future__ import annotations

from typing import cast

from scoring.payments.core import (
    HandOutcome,
    PaymentRule,
    Settlement,
    check_outcome,
    noten_payments,
)

BASE_POINTS = 2
DEALER_POINT = 1
LIMIT = 50
YAKUMAN_POINTS = 100
NOTEN_PENALTY = 6


def shiragiku_value(han: int, dealer: bool, yakuman: int = 0) -> int:
    """The points of a Shiragiku win before honba: 100 for a yakuman, else ``min(50, 2 + han
    (+1 for the dealer))``."""
    if yakuman:
        return YAKUMAN_POINTS
    return min(LIMIT, BASE_POINTS + han + (DEALER_POINT if dealer else 0))


def settle_shiragiku(rule: PaymentRule, seats: tuple[str, ...], outcome: HandOutcome, min_fan: int | None) -> Settlement:
    """Shiragiku three-player payments (see the module docstring); dealer ``seats[0]``."""
    hand = check_outcome(rule, seats, outcome, min_fan)
    if hand.kind == "draw":
        return Settlement(noten_payments(seats, hand.tenpai, NOTEN_PENALTY))
    changes = dict.fromkeys(seats, 0)
    winner = hand.winners[0]
    amount = shiragiku_value(hand.values[0], winner == seats[0], hand.yakuman[0]) + hand.honba
    payers = (cast(str, hand.discarder),) if hand.kind == "discard" else tuple(seat for seat in seats if seat != winner)
    for payer in payers:
        changes[payer] -= amount
        changes[winner] += amount
    return Settlement(changes)
