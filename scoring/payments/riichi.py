"""Riichi payments (the standard reference) and two-player Souzu (docs/rules.md, "Two-player Souzu: payments"), which pays riichi
values with its own changes.

Riichi (``riichi``), dealer = the rule set's first seat:

- base points: ``fu × 2^(han+2)``, at most 2,000 (mangan) below 5 han; 5 han mangan 2,000,
  6-7 haneman 3,000, 8-10 baiman 4,000, 11-12 sanbaiman 6,000, 13 or more (entered as counted, e.g. 14)
  kazoe yakuman 8,000; ``k`` yakuman: ``k × 8,000`` whatever the han and fu.
- ron: the discarder pays 6× base to the dealer, 4× to a non-dealer, rounded up to 100.
- tsumo: a non-dealer's win: the dealer pays 2× base, each other 1×; a dealer's win: each pays
  2× base; each payment rounded up to 100.
- honba: 300 each, paid by the discarder (ron) or 100 by each payer (tsumo).
- riichi: each declarer pays a 1,000 stick, which goes to the winner.
- several winners on one discard (double and triple ron): the discarder pays each winner its own
  hand; honba and sticks go to the first winner in turn from the discarder (head bump).
- draw: noten payment of 3,000 in all from the noten seats to the tenpai seats (1 tenpai +3,000
  / -1,000 each; 2: +1,500 / -1,500; 3: +1,000 / -3,000; none or all: nothing); the sticks of
  the hand stay on the table (the settlement's deposit).
- fu: 20, 25, 30, 40, ..., 110; needed below 5 han. 1 han 20 fu and 1 han 25 fu do not exist;
  20 fu is a self-drawn pinfu only (a discard win has at least 30); 25 fu is seven pairs (2 han),
  and a self-drawn seven pairs adds menzen tsumo: on a self-draw 25 fu needs at least 3 han
  (2 han 25 fu is refused there, and stays valid on a discard).
- seats: four (the rule set's definition and :func:`scoring.payments.settle` refuse others).

Two-player Souzu (``souzu-2p``, docs/rules.md, "Two-player Souzu: payments": 半額自模, 百点棒要らず, 一本二千点,
満貫縛り, 跳満縛り): the riichi values with

- every payment rounded up to 1,000 (hundreds rounded up);
- ron: the opponent pays the value plus 2,000 per honba;
- self-draw: the winner collects half of the hand's final value (value + 2,000 per honba),
  rounded up to 1,000 (``souzu-2p``, the default reading); or half of the value, rounded up to
  1,000, plus the whole 2,000 per honba (``souzu-2p-honba-whole``): the seed does not say whether
  the honba are halved (docs/rules.md, "Two-player Souzu: honba on a self-draw");
- a winning hand is at least mangan (from 5 honba at least haneman); lower is refused;
- riichi sticks of 1,000 to the winner; draw: the noten seat pays 3,000 to the tenpai seat (the
  seed is silent: riichi's noten payment), the sticks stay on the table.

Standalone: no Django import.
"""

from __future__ import annotations

from typing import cast

from scoring.payments.core import (
    Hand,
    HandOutcome,
    PaymentError,
    PaymentRule,
    Settlement,
    check_outcome,
    noten_payments,
    round_up,
    turn_order,
)
from scoring.payments.phrases import value_words
from tournament.i18n import gettext as _
from tournament.i18n import seat_name

FU_CHOICES = (20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110)
MANGAN, HANEMAN, BAIMAN, SANBAIMAN, YAKUMAN = 2000, 3000, 4000, 6000, 8000
NOTEN_TOTAL = 3000
HONBA_RON, HONBA_TSUMO = 300, 100
SOUZU_HONBA = 2000
SOUZU_ROUND = 1000
KAZOE_HIGHEST = 99
"""The highest han a riichi-family table may enter: every count from 13 up is a counted (kazoe)
yakuman, paid as one yakuman (8,000 base points), so the table types the han it counted."""


def base_points(han: int, fu: int, yakuman: int = 0) -> int:
    """Riichi base points of a hand: ``yakuman × 8000`` when ``yakuman`` ≥ 1, else by han (13
    and more: kazoe yakuman 8000; 11-12: 6000; 8-10: 4000; 6-7: 3000; 5: 2000) or, below 5 han,
    ``fu × 2^(han+2)`` capped at 2000 (mangan)."""
    if yakuman:
        return YAKUMAN * yakuman
    if han >= 13:
        return YAKUMAN
    if han >= 11:
        return SANBAIMAN
    if han >= 8:
        return BAIMAN
    if han >= 6:
        return HANEMAN
    if han >= 5:
        return MANGAN
    base: int = fu * 2 ** (han + 2)  # an int whenever han + 2 >= 0
    return min(MANGAN, base)


def _bases(rule: PaymentRule, hand: Hand) -> list[int]:
    """Base points of each winner; refuses a missing or impossible fu below 5 han (1 han 20 or 25
    fu, 2 han 25 fu on a self-draw, 20 fu on a discard)."""
    bases = []
    for seat, han, fu, yakuman in zip(hand.winners, hand.values, hand.fu, hand.yakuman):
        if not yakuman and han < 5:
            if not fu:
                raise PaymentError("fu", _("below 5 han the fu of winner %(seat)s is needed: choose it (%(choices)s)")
                                   % {"seat": seat_name(seat), "choices": ", ".join(map(str, rule.fu_choices))})
            if han == 1 and fu in (20, 25):
                raise PaymentError("fu", _("winner %(seat)s: 1 han %(fu)s fu does not exist (20 fu is a self-drawn pinfu, "
                                           "25 fu seven pairs, both at least 2 han): check the count")
                                   % {"seat": seat_name(seat), "fu": fu})
            if han == 2 and fu == 25 and hand.kind == "self_draw":
                raise PaymentError("fu", _("winner %(seat)s: 25 fu is seven pairs (2 han), and a self-drawn seven pairs "
                                           "also counts menzen tsumo, so it has at least 3 han: check the count")
                                   % {"seat": seat_name(seat)})
            if fu == 20 and hand.kind == "discard":
                raise PaymentError("fu", _("winner %(seat)s: 20 fu is a self-drawn pinfu only; a discard win has at least "
                                           "30 fu: check the count") % {"seat": seat_name(seat)})
        bases.append(base_points(han, fu, yakuman))
    return bases


def _sticks(changes: dict[str, int], hand: Hand, stick: int, to: str | None) -> int:
    """Each declarer pays a stick; they go to ``to`` (the first winner), or stay on the table
    (returned as the deposit) when nobody won."""
    for seat in hand.riichi:
        changes[seat] -= stick
    if to is None:
        return stick * len(hand.riichi)
    changes[to] += stick * len(hand.riichi)
    return 0


def _check_draw(hand: Hand) -> None:
    noten = [seat for seat in hand.riichi if seat not in hand.tenpai]
    if hand.kind == "draw" and noten:
        raise PaymentError("tenpai", _("%(seats)s declared riichi, so in tenpai at the draw: mark them tenpai "
                                       "(a wrong riichi is a penalty: type its score changes)")
                           % {"seats": ", ".join(seat_name(seat) for seat in noten)})


def _checked_hand(rule: PaymentRule, seats: tuple[str, ...], outcome: HandOutcome, min_fan: int | None) -> Hand:
    """The outcome checked for the riichi family: values within range, a riichi declarer tenpai at a draw."""
    hand = check_outcome(rule, seats, outcome, min_fan)
    _check_draw(hand)
    return hand


def _drawn(rule: PaymentRule, seats: tuple[str, ...], hand: Hand) -> Settlement:
    """A drawn hand: the noten payment, and the riichi sticks left on the table (the deposit)."""
    changes = noten_payments(seats, hand.tenpai, NOTEN_TOTAL)
    return Settlement(changes, _sticks(changes, hand, rule.stick, None))


def settle_riichi(rule: PaymentRule, seats: tuple[str, ...], outcome: HandOutcome, min_fan: int | None) -> Settlement:
    """Standard riichi payments (see the module docstring); dealer ``seats[0]``."""
    hand = _checked_hand(rule, seats, outcome, min_fan)
    if hand.kind == "draw":
        return _drawn(rule, seats, hand)
    dealer = seats[0]
    changes = dict.fromkeys(seats, 0)
    bases = _bases(rule, hand)
    if hand.kind == "self_draw":
        winner, base = hand.winners[0], bases[0]
        for payer in seats:
            if payer == winner:
                continue
            share = 2 * base if dealer in (winner, payer) else base
            amount = round_up(share, 100) + HONBA_TSUMO * hand.honba
            changes[payer] -= amount
            changes[winner] += amount
        first = winner
    else:
        discarder = cast(str, hand.discarder)  # a discard win names its discarder (check_outcome)
        for winner, base in zip(hand.winners, bases):
            amount = round_up((6 if winner == dealer else 4) * base, 100)
            changes[discarder] -= amount
            changes[winner] += amount
        first = next(seat for seat in turn_order(seats, discarder) if seat in hand.winners)
        changes[discarder] -= HONBA_RON * hand.honba
        changes[first] += HONBA_RON * hand.honba
    _sticks(changes, hand, rule.stick, first)
    return Settlement(changes)


def souzu_minimum(honba: int) -> int:
    """The smallest base points a Souzu hand may win with: mangan (2000), haneman (3000) from 5
    honba (docs/rules.md, "Two-player Souzu: payments": 満貫縛り, 跳満縛り)."""
    return HANEMAN if honba >= 5 else MANGAN


def settle_souzu(rule: PaymentRule, seats: tuple[str, ...], outcome: HandOutcome, min_fan: int | None,
                 honba_halved: bool = True) -> Settlement:
    """Two-player Souzu payments (docs/rules.md, "Two-player Souzu: payments"; see the module docstring); dealer ``seats[0]``.

    ``honba_halved``: on a self-draw the 2,000 a honba are halved with the value (True, rule
    ``souzu-2p``: ``ceil((value + 2000 × honba) / 2)`` to 1,000) or paid whole (False, rule
    ``souzu-2p-honba-whole``: ``ceil(value / 2)`` to 1,000 ``+ 2000 × honba``); docs/rules.md,
    "Two-player Souzu: honba on a self-draw". A non-dealer mangan (8,000) self-drawn with 1
    honba: 5,000 halved, 6,000 whole."""
    hand = _checked_hand(rule, seats, outcome, min_fan)
    if hand.kind == "draw":
        return _drawn(rule, seats, hand)
    dealer = seats[0]
    changes = dict.fromkeys(seats, 0)
    winner, han, fu, yakuman = hand.winners[0], hand.values[0], hand.fu[0], hand.yakuman[0]
    minimum = souzu_minimum(hand.honba)
    best = base_points(han, fu or max(rule.fu_choices), yakuman)
    if best < minimum:
        raise _below_minimum(rule, hand, winner, value_words("han", han, fu, yakuman))
    base = _bases(rule, hand)[0]
    if base < minimum:
        raise _below_minimum(rule, hand, winner, value_words("han", han, fu, yakuman))
    hand_value = round_up((6 if winner == dealer else 4) * base, SOUZU_ROUND)
    honba = SOUZU_HONBA * hand.honba
    if hand.kind == "discard":
        amount = hand_value + honba
    elif honba_halved:
        amount = round_up(-(-(hand_value + honba) // 2), SOUZU_ROUND)
    else:
        amount = round_up(-(-hand_value // 2), SOUZU_ROUND) + honba
    loser = next(seat for seat in seats if seat != winner)
    changes[loser] -= amount
    changes[winner] += amount
    _sticks(changes, hand, rule.stick, winner)
    return Settlement(changes)


def _below_minimum(rule: PaymentRule, hand: Hand, winner: str, value: str) -> PaymentError:
    if hand.honba >= 5:
        message = _("from 5 honba a %(rule)s hand must be at least haneman (6 han): winner %(seat)s has %(value)s; "
                    "check the count or record the hand as not won")
    else:
        message = _("a %(rule)s hand must be at least mangan (5 han, 4 han 40 fu or 3 han 70 fu): winner %(seat)s has "
                    "%(value)s; check the count or record the hand as not won")
    return PaymentError("fans", message % {"rule": rule.label, "seat": seat_name(winner), "value": value})
