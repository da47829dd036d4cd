"""Yangzhou payments (docs/rules.md, "Yangzhou: payments", 点数 and 包).

Fan add up (no doubling). On a discard the discarder pays twice the hand's value and the others
nothing (robbing a kong counts as a discard); several players may win on one discard, each paid
twice its own value by the discarder. On a self-draw each other player pays the value.

Full-flush responsibility (包, bao): the player whose discard was chowed as the third meld of a
full flush pays the whole win alone: 3× the value on a self-draw, 2× on a discard (the discarder
then pays nothing for that winner). Chow is only from the player before, so the liable seat is
the seat just before its winner in turn order; with several winners the liable seat names its
winner that way.

The minimum is the rule set's ``min_fan``, chosen per event among :data:`MINIMUMS`, the seed's
named しばり (docs/rules.md, "Yangzhou: minimum").

Four seats only (the seed's game: bao pays 3× on a self-draw, for the three others): a rule set
of two or three seats with this rule is refused where it is defined
(:meth:`walls.rulesets.RuleSet.validate`) and by :func:`scoring.payments.settle`, as riichi's is
(``seat_counts``).

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
)
from tournament.i18n import gettext as _
from tournament.i18n import gettext_noop, seat_name

MINIMUMS: tuple[tuple[int, str, str], ...] = (
    (3, "3番しばり", gettext_noop("the seed's lower big fans: 一板 3, 混 4, 清 16, 風清 and 鋼板 32")),
    (7, "7番しばり", gettext_noop("一板 is 7 fan: the minimum is 一板")),
    (13, "13番しばり", gettext_noop("一板 is 10 fan: the minimum is 一板 + 3")),
    (18, "18番しばり", gettext_noop("一板 is 15 fan: the minimum is 一板 + 3")),
)
"""The seed's named minimums to win (docs/rules.md, "Yangzhou: minimum"): ``(fan, name as the seed
writes it, what it means: the fan of 一板, the smallest big fan, and the minimum it gives)``, lowest
first; the meaning is marked for translation (show it through ``gettext``)."""


def settle_yangzhou(rule: PaymentRule, seats: tuple[str, ...], outcome: HandOutcome, min_fan: int | None) -> Settlement:
    """Yangzhou payments (see the module docstring)."""
    hand = check_outcome(rule, seats, outcome, min_fan)
    changes = dict.fromkeys(seats, 0)
    if hand.kind == "draw":
        return Settlement(changes)
    fed = None
    if hand.liable is not None:
        fed = next((w for w in hand.winners if seats[seats.index(w) - 1] == hand.liable), None)
        if fed is None:
            raise PaymentError("liable", _("%(liable)s cannot be liable: the liable seat fed a chow, so it sits just before "
                                           "its winner in turn order (for %(winner)s: %(before)s); choose it, or nobody")
                               % {"liable": seat_name(hand.liable), "winner": seat_name(hand.winners[0]),
                                  "before": seat_name(seats[seats.index(hand.winners[0]) - 1])})
    for winner, fan in zip(hand.winners, hand.values):
        if hand.kind == "discard":
            payments = {cast(str, hand.liable if winner == fed else hand.discarder): 2 * fan}
        elif winner == fed:
            payments = {cast(str, hand.liable): (len(seats) - 1) * fan}
        else:
            payments = {payer: fan for payer in seats if payer != winner}
        for payer, amount in payments.items():
            changes[payer] -= amount
            changes[winner] += amount
    return Settlement(changes)
