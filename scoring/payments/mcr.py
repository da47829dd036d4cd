"""The MCR family (Chinese Official rules, docs/rules.md, "Duplicate MCR: payments", and MahjongSoft's duplicate MCR payments).

- ``mcr``: discard win: the discarder pays 8+fan, each other player pays 8 (winner +fan+24).
  Self-draw: each other player pays 8+fan (winner +3×(8+fan)). One winner per hand. Zero-sum.
- ``mcr-duplicate-mahjongsoft``: self-draw: the winner gets fan+24 and each other player loses
  ceil(fan/3)+8 (fan 10: +34 / -12 / -12 / -12; not zero-sum). Discard: several players may win;
  each winner scores as for a discard win (8+fan from the discarder and 8 from each other player,
  other winners included) and pays 8 to each other winner. The published example -46, +36, +26,
  -16 fixes what the discarder pays: the bystander's -16 is 8 to each of two winners; the
  winners' +36 and +26 are fan+24-8, so fans 20 and 10; the discarder pays 8+fan to each winner,
  (8+20)+(8+10) = 46, and a discard hand stays zero-sum.

A drawn hand scores 0 for everyone. Fan from 8 (MCR's minimum) to 400 (a guard no MCR hand
reaches).
"""

from __future__ import annotations

from collections.abc import Callable

from scoring.payments.core import HandOutcome, PaymentRule, Settlement, check_outcome

BASE = 8  # MCR's base payment, paid by every loser on top of the fan


def settle_mcr_family(self_draw: Callable[[int], tuple[int, int]], rule: PaymentRule, seats: tuple[str, ...],
                      outcome: HandOutcome, min_fan: int | None) -> Settlement:
    """Score changes of the MCR family (four seats); ``self_draw(fan)`` gives the self-draw
    winner's gain and each other seat's loss, which is where the family's rules differ."""
    hand = check_outcome(rule, seats, outcome, min_fan)
    changes = dict.fromkeys(seats, 0)
    if hand.kind == "self_draw":
        winner, fan = hand.winners[0], hand.values[0]
        gain, loss = self_draw(fan)
        for seat in seats:
            changes[seat] = -loss
        changes[winner] = gain
    elif hand.kind == "discard":
        # Every non-discarder pays 8 to each winner, the discarder pays 8+fan to each winner; a
        # winner is also a payer to the other winners.
        for seat, fan in zip(hand.winners, hand.values):
            for payer in seats:
                if payer != seat:
                    amount = BASE + fan if payer == hand.discarder else BASE
                    changes[payer] -= amount
                    changes[seat] += amount
    return Settlement(changes)


def mcr_self_draw(fan: int) -> tuple[int, int]:
    """Plain MCR: each other player pays 8+fan."""
    return 3 * (BASE + fan), BASE + fan


def mahjongsoft_self_draw(fan: int) -> tuple[int, int]:
    """MahjongSoft: the winner gets fan+24, each other player loses ceil(fan/3)+8."""
    return fan + 3 * BASE, -(-fan // 3) + BASE
