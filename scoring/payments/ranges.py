"""The range of every number a table types, per rule set: the one definition the form
(:class:`scoring.forms.HandForm`), the API serializers (:mod:`scoring.api`) and the service
(:func:`scoring.actions.entry.compute_changes`) read.

- A hand's numbers: the hand value (fan or han) within the rule's
  :meth:`~scoring.payments.PaymentRule.bounds`, fu among its ``fu_choices``, yakuman 0 to
  :data:`~scoring.payments.MAX_YAKUMAN`, honba 0 to :data:`~scoring.payments.MAX_HONBA`;
  :func:`scoring.payments.settle` refuses anything else (:func:`~scoring.payments.core.check_outcome`).
- A typed score change (an adjustment, or a typed rule set) and a typed deposit: at most
  :attr:`InputRanges.changes` points either way: the largest hand the rule set can pay
  (:func:`largest_hand`) times its seats.

:func:`largest_hand` is derived from the rule's own ``settle``, not declared: it settles every
outcome of the rule's largest inputs (:func:`extreme_outcomes`) and keeps the largest score
change any seat gets or pays. A typed rule set computes nothing: its largest hand is the largest
any computed rule of the registry pays, at any seat count it is written for (riichi's triple ron
of six-fold yakuman, today).

Storage: every number stored from a hand fits a 32-bit column (PostgreSQL ``integer``, at most
2,147,483,647; :data:`STORAGE_LIMIT`). The largest hand of the registry is riichi's, 702,700
points a seat (a discarder paying six-fold yakuman to the dealer, 6 × 48,000, and to two others,
2 × 4 × 48,000, plus 99 honba of 300 and their own stick: 288,000 + 384,000 + 29,700 + 1,000);
times 4 seats, a typed change or deposit is at most 2,810,800 points. A team holds one member
per seat (4), so a team's total on a set (``SetScore.score_change``) is at most 4 × 2,810,800 =
11,243,200, a difference from the datum at most twice that, 22,486,400, and converted points
(``SetScore.points``) are the conversion table's, whatever the difference:
:func:`storage_headroom` checks the product for every rule and seat count.

Standalone: no Django import.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from scoring.payments.core import (
    MAX_HONBA,
    MAX_YAKUMAN,
    WINDS,
    HandOutcome,
    PaymentError,
    PaymentRule,
    read_whole,
)
from scoring.payments.registry import PAYMENT_RULES, payment_rule, settle
from tournament.i18n import gettext as _

STORAGE_LIMIT = 2**31 - 1
"""The largest value of a 32-bit integer column (Django's IntegerField on PostgreSQL)."""


def _subsets(seats: tuple[str, ...], *, empty: bool = True) -> Iterator[tuple[str, ...]]:
    for size in range(0 if empty else 1, len(seats) + 1):
        yield from combinations(seats, size)


def extreme_outcomes(rule: PaymentRule, seats: tuple[str, ...]) -> Iterator[HandOutcome]:
    """Every outcome of ``rule`` at ``seats`` with its largest inputs: each kind, each winner
    (every set of winners of one discard where the rule allows several) and discarder, the
    highest hand value (``value_range``), the largest fu, no yakuman and
    :data:`~scoring.payments.MAX_YAKUMAN` of them, :data:`~scoring.payments.MAX_HONBA` honba,
    riichi by nobody and by everybody, every set of tenpai and of shielded seats, every liable
    seat or none. Only the inputs the rule takes are set; some of these the rule refuses (a
    liable seat in the wrong place): :func:`largest_hand` skips them. Every rule pays more for a
    larger value, more yakuman or more honba, so its largest change is among these."""
    takes = rule.inputs
    high = rule.value_range[1]
    fu = (max(rule.fu_choices),) if "fu" in takes and rule.fu_choices else ()
    yakuman_counts = (0, MAX_YAKUMAN) if "yakuman" in takes else (0,)
    honba = MAX_HONBA if "honba" in takes else 0
    riichi_sets = ((), seats) if "riichi" in takes else ((),)
    liable_seats = (None, *seats) if "liable" in takes else (None,)
    if "tenpai" in takes:
        for tenpai in _subsets(seats):
            yield HandOutcome("draw", honba=honba, riichi=tenpai if "riichi" in takes else (), tenpai=tenpai)
    else:
        yield HandOutcome("draw")
    for yakuman in yakuman_counts:
        for winner in seats:
            for shielded in (_subsets(tuple(s for s in seats if s != winner)) if "shielded" in takes else ((),)):
                for riichi in riichi_sets:
                    for liable in liable_seats:
                        yield HandOutcome("self_draw", (winner,), None, (high,), fu=fu, yakuman=(yakuman,) if yakuman else (),
                                          honba=honba, riichi=riichi, shielded=shielded, liable=liable)
        for discarder in seats:
            others = tuple(s for s in seats if s != discarder)
            groups = _subsets(others, empty=False) if rule.multiple_winners else ((s,) for s in others)
            for winners in groups:
                for riichi in riichi_sets:
                    for liable in liable_seats:
                        yield HandOutcome("discard", winners, discarder, (high,) * len(winners), fu=fu * len(winners),
                                          yakuman=(yakuman,) * len(winners) if yakuman else (), honba=honba,
                                          riichi=riichi, liable=liable)


def largest_hand(rule_code: str, seats: Any) -> int:
    """The largest score change (points, either way) one hand of ``rule_code`` can give a seat
    at ``seats``: the largest ``abs(change)`` of :func:`scoring.payments.settle` over
    :func:`extreme_outcomes` (the deposit too). A typed rule: the largest of every computed
    rule at any seat count it is written for (2 to 4 where it names none). PaymentError as
    :func:`scoring.payments.settle` raises it for an unknown rule or seats it refuses."""
    return _largest_hand(rule_code, tuple(seats))


@cache
def _largest_hand(rule_code: str, seats: tuple[str, ...]) -> int:
    rule = payment_rule(rule_code)
    if not rule.computed:
        return max(largest_hand(code, WINDS[:count]) for code, other in PAYMENT_RULES.items() if other.computed
                   for count in (other.seat_counts or range(2, len(WINDS) + 1)))
    settle(rule_code, seats, HandOutcome("draw"))  # refuses seats the rule is not written for
    largest = 0
    for outcome in extreme_outcomes(rule, seats):
        try:
            paid = settle(rule_code, seats, outcome)
        except PaymentError:
            continue
        largest = max(largest, paid.deposit, *(abs(change) for change in paid.changes.values()))
    return largest


@dataclass(frozen=True)
class InputRanges:
    """The ranges of one rule set's typed numbers (see the module docstring).

    - ``values``: (lowest, highest) hand value, the rule's bounds raised by the rule set's minimum;
    - ``fu``: the valid fu (empty: the rule takes none); ``yakuman``, ``honba``: the most of each
      (0: the rule takes none);
    - ``largest_hand``: :func:`largest_hand`; ``changes``: the most points a typed score change
      may be either way, ``largest_hand × len(seats)``; ``deposit``: the most a typed deposit
      may be (the same).
    """

    rule: str
    seats: tuple[str, ...]
    values: tuple[int, int]
    fu: tuple[int, ...]
    yakuman: int
    honba: int
    largest_hand: int
    changes: int
    deposit: int

    def change(self, seat: str, value: Any) -> int:
        """The typed score change ``value`` of ``seat`` as an int; PaymentError ``seat`` naming
        the range when it is no whole number or out of range (:func:`~scoring.payments.read_whole`)."""
        return read_whole(value, seat, -self.changes, self.changes,
                          _("the score change of seat %(seat)s") % {"seat": seat})

    def read_deposit(self, value: Any) -> int:
        """The typed deposit ``value`` as an int; PaymentError ``deposit`` naming the range."""
        return read_whole(value, "deposit", 0, self.deposit, _("the deposit (sticks left on the table)"))


@cache
def _ranges(rule_code: str, seats: tuple[str, ...], min_fan: int | None) -> InputRanges:
    rule = payment_rule(rule_code)
    largest = largest_hand(rule_code, seats)
    return InputRanges(
        rule=rule_code, seats=seats, values=rule.bounds(min_fan) if rule.computed else (0, 0), fu=rule.fu_choices,
        yakuman=MAX_YAKUMAN if "yakuman" in rule.inputs else 0, honba=MAX_HONBA if "honba" in rule.inputs else 0,
        largest_hand=largest, changes=largest * len(seats), deposit=largest * len(seats),
    )


def input_ranges(rule_code: str, seats: Any, min_fan: int | None = None) -> InputRanges:
    """The :class:`InputRanges` of a rule set: its payment rule ``rule_code``, its ``seats``
    and its ``min_fan``. PaymentError as :func:`largest_hand`."""
    return _ranges(rule_code, tuple(seats), min_fan)


def ruleset_ranges(ruleset: Any) -> InputRanges:
    """:func:`input_ranges` of a :class:`walls.rulesets.RuleSet` (its payment rule, seats, minimum)."""
    return input_ranges(ruleset.payment_rule, ruleset.seats, ruleset.min_fan)


@cache
def widest() -> InputRanges:
    """The widest range of each number over every rule of the registry at every seat count it
    is written for: what the API's schema shows (the service then checks the rule set's own)."""
    every = [input_ranges(code, WINDS[:count]) for code, rule in PAYMENT_RULES.items()
             for count in (rule.seat_counts or range(2, len(WINDS) + 1))]
    return InputRanges(
        rule="*", seats=WINDS, values=(min(r.values[0] for r in every if r.values[1]), max(r.values[1] for r in every)),
        fu=tuple(sorted({fu for r in every for fu in r.fu})), yakuman=max(r.yakuman for r in every),
        honba=max(r.honba for r in every), largest_hand=max(r.largest_hand for r in every),
        changes=max(r.changes for r in every), deposit=max(r.deposit for r in every),
    )


def storage_headroom() -> int:
    """How many times over the largest stored sum fits :data:`STORAGE_LIMIT`: the limit divided
    by the largest difference from the datum a team can have, ``2 × seats × changes`` over every
    rule and seat count (see the module docstring). Above 1 means nothing a table types can
    overflow a 32-bit column."""
    largest = max(2 * len(WINDS) * widest().changes, widest().deposit)
    return STORAGE_LIMIT // largest
