"""Payment rules: a hand's outcome → each seat's score change (points, the rule set's unit).

Rules (:data:`PAYMENT_RULES`):

- ``mcr``: plain Chinese Official (MCR) payments. Discard win: the discarder pays 8+fan, each
  other player pays 8 (winner +fan+24). Self-draw: each other player pays 8+fan (winner
  +3×(8+fan)). One winner per hand. Always zero-sum.
- ``mcr-duplicate-mahjongsoft``: MahjongSoft's duplicate MCR rules. Self-draw: the winner gets
  fan+24 and each other player loses ceil(fan/3)+8 (fan 10: +34 / -12 / -12 / -12; not
  zero-sum). Discard: several players may win; each winner scores fan+24 as for a discard win
  (8+fan from the discarder and 8 from each other player, other winners included) and pays 8 to
  each other winner. The published example -46, +36, +26, -16 fixes what the discarder pays:
  the bystander's -16 is 8 to each of two winners; the winners' +36 and +26 are fan+24-8, so
  fans 20 and 10 (reading the winners' net as fan+24 would give fans 12 and 2, below MCR's
  minimum of 8); the discarder then pays 8+fan to each winner, (8+20)+(8+10) = 46, and a discard
  hand stays zero-sum.
- ``typed``: nothing is computed; the table types each seat's score change and
  :func:`validate_score_changes` checks it.

:data:`PAYMENT_RULES` is the registry: a rule is declared there once, with its computation and
what the rest of the project asks about it (whether outcomes are entered, whether the fan check
applies); rule sets, the event form and the table page read it.

Standalone: no Django import (messages are translated through :mod:`tournament.i18n` when Django
runs). See docs/scoring.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any, Callable, Mapping, Sequence

from tournament.i18n import gettext as _

WINDS = ("E", "S", "W", "N")
BASE = 8  # MCR's base payment, paid by every loser on top of the fan


class PaymentError(ValueError):
    """A hand outcome or score changes that cannot be scored; ``field`` names the input
    (``rule``, ``seats``, ``kind``, ``winners``, ``discarder``, ``fans``, ``deposit``, ``changes``
    or a seat letter) and the message says how to fix it."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class HandOutcome:
    """How a hand ended.

    ``kind``: ``'discard'`` (won on a discard), ``'self_draw'`` or ``'draw'`` (nobody won);
    ``winners``: winning seats; ``discarder``: the seat that discarded the winning tile (discard
    only, else None); ``fans``: the fan of each winner, in the order of ``winners``.
    Checked by :func:`score_changes` against the rule and the seats.
    """

    kind: str
    winners: tuple[str, ...] = ()
    discarder: str | None = None
    fans: tuple[int, ...] = ()


@dataclass(frozen=True)
class PaymentRule:
    """One payment rule of the registry :data:`PAYMENT_RULES`, everything other modules ask about it.

    - ``code``: the name a rule set's ``payment_rule`` gives; ``name``: display name.
    - ``zero_sum``: True/False, whether every computed hand sums to 0; None where the changes are
      typed and the rule set decides.
    - ``multiple_winners``: a discard may have several winners.
    - ``source``: where the rule comes from.
    - ``changes``: ``changes(rule, seats, outcome, min_fan) -> {seat: points}``, the score
      changes of a hand (seats already checked); it checks the outcome and raises PaymentError.
      None for a rule whose score changes the table types (no outcome is entered).
    - ``fan_check``: the optional MCR fan check (:mod:`scoring.fan_check`, PyMahjongGB) applies
      to a winning hand of this rule.
    """

    code: str
    name: str
    zero_sum: bool | None
    multiple_winners: bool
    source: str
    changes: Callable[[PaymentRule, tuple[str, ...], HandOutcome, int | None], dict[str, int]] | None = None
    fan_check: bool = False

    @property
    def computed(self) -> bool:
        """Score changes follow from the hand's outcome (False: the table types them)."""
        return self.changes is not None


def _check_seats(seats: Sequence[str]) -> tuple[str, ...]:
    seats = tuple(seats)
    for seat in seats:
        if seat not in WINDS:
            raise PaymentError("seats", _("seat %(seat)s is not a wind letter: use %(winds)s") % {"seat": repr(seat), "winds": ", ".join(WINDS)})
    if len(set(seats)) != len(seats):
        raise PaymentError("seats", _("seats %(seats)s repeat a wind: list each seat once") % {"seats": ", ".join(seats)})
    return seats


def _check_outcome(rule: PaymentRule, seats: tuple[str, ...], outcome: HandOutcome, min_fan: int | None) -> None:
    if outcome.kind not in ("discard", "self_draw", "draw"):
        raise PaymentError("kind", _("unknown outcome %(kind)s: use discard, self_draw or draw") % {"kind": repr(outcome.kind)})
    winners = tuple(outcome.winners)
    for seat in winners + ((outcome.discarder,) if outcome.discarder is not None else ()):
        if seat not in seats:
            field = "discarder" if seat == outcome.discarder and seat not in winners else "winners"
            raise PaymentError(field, _("%(seat)s is not a seat of this rule set: seats are %(seats)s") % {"seat": repr(seat), "seats": ", ".join(seats)})
    if len(set(winners)) != len(winners):
        raise PaymentError("winners", _("winners %(winners)s repeat a seat: list each winner once") % {"winners": ", ".join(winners)})
    if len(outcome.fans) != len(winners):
        raise PaymentError("fans", _("%(winners)s winner(s) but %(fans)s fan value(s): give one fan per winner")
                           % {"winners": len(winners), "fans": len(outcome.fans)})
    if outcome.kind == "draw":
        if winners or outcome.discarder is not None:
            raise PaymentError("kind", _("a drawn hand has no winner and no discarder: clear them, or choose discard or self_draw"))
        return
    if not winners:
        if outcome.kind == "self_draw":
            raise PaymentError("winners", _("a self-draw win needs its winner: choose the winning seat"))
        raise PaymentError("winners", _("a discard win needs its winner: choose the winning seat"))
    if outcome.kind == "self_draw":
        if outcome.discarder is not None:
            raise PaymentError("discarder", _("a self-draw has no discarder: clear the discarder, or choose discard"))
        if len(winners) > 1:
            raise PaymentError("winners", _("a self-draw has one winner: keep only the seat that drew the tile"))
    else:
        if outcome.discarder is None:
            raise PaymentError("discarder", _("a discard win needs the discarder: choose the seat that discarded the tile"))
        if outcome.discarder in winners:
            raise PaymentError("discarder", _("seat %(seat)s cannot win on its own discard: "
                                              "choose another discarder, or self_draw") % {"seat": outcome.discarder})
        if len(winners) > 1 and not rule.multiple_winners:
            raise PaymentError("winners", _("the %(rule)s rule has one winner per discard (the first in turn from "
                                            "the discarder wins): keep only that winner") % {"rule": rule.name})
    for seat, fan in zip(winners, outcome.fans):
        if isinstance(fan, bool) or not isinstance(fan, int) or fan < 1:
            raise PaymentError("fans", _("the fan of winner %(seat)s must be a positive whole number, got %(value)s")
                               % {"seat": seat, "value": repr(fan)})
        if min_fan is not None and fan < min_fan:
            raise PaymentError("fans", _("fan must be at least %(min)s in MCR: winner %(seat)s has %(fan)s; "
                                         "check the count or record the hand as not won") % {"min": min_fan, "seat": seat, "fan": fan})


def score_changes(rule: str, seats: Sequence[str], outcome: HandOutcome, min_fan: int | None = 8) -> dict[str, int]:
    """Each seat's score change (points) for ``outcome`` under payment rule ``rule``.

    ``seats``: the rule set's seats in order (MCR rules need the four winds); ``min_fan``: the
    smallest fan that may win (MCR: 8), None to skip that check. Returns ``{seat: change}`` in
    seat order; a drawn hand gives 0 to everyone. Rules: see the module docstring (sources: MCR;
    MahjongSoft duplicate MCR rules).

    Raises PaymentError naming the field: unknown rule (``rule``) or a rule whose changes are
    typed (type the score changes), seats that are not four distinct winds (``seats``), unknown
    kind (``kind``), an unknown or repeated seat, no winner, several winners where the rule has
    one or on a self-draw (``winners``), a missing discarder, a discarder on a self-draw or a
    winner on its own discard (``discarder``), a fan per winner missing or below ``min_fan``
    (``fans``).
    """
    if rule not in PAYMENT_RULES:
        raise PaymentError("rule", _("unknown payment rule %(rule)s: choose one of %(rules)s") % {"rule": repr(rule), "rules": ", ".join(PAYMENT_RULES)})
    spec = PAYMENT_RULES[rule]
    if spec.changes is None:
        raise PaymentError("rule", _("this rule set computes nothing from the outcome: type the score changes of every seat"))
    return spec.changes(spec, _check_seats(seats), outcome, min_fan)


def _mcr_changes(self_draw: Callable[[int], tuple[int, int]], rule: PaymentRule, seats: tuple[str, ...],
                 outcome: HandOutcome, min_fan: int | None) -> dict[str, int]:
    """Score changes of the MCR family (four seats); ``self_draw(fan)`` gives the self-draw
    winner's gain and each other seat's loss, which is where the family's rules differ."""
    if len(seats) != 4:
        raise PaymentError("seats", _("MCR payments are for four seats, got %(seats)s: use E, S, W, N") % {"seats": ", ".join(seats)})
    _check_outcome(rule, seats, outcome, min_fan)
    changes = dict.fromkeys(seats, 0)
    if outcome.kind == "draw":
        return changes
    if outcome.kind == "self_draw":
        winner, fan = outcome.winners[0], outcome.fans[0]
        gain, loss = self_draw(fan)
        for seat in seats:
            changes[seat] = -loss
        changes[winner] = gain
        return changes
    # Discard (one winner in plain MCR): every non-discarder pays 8 to each winner, the discarder
    # pays 8+fan to each winner; a winner is also a payer to the other winners.
    for seat, fan in zip(outcome.winners, outcome.fans):
        for payer in seats:
            if payer != seat:
                amount = BASE + fan if payer == outcome.discarder else BASE
                changes[payer] -= amount
                changes[seat] += amount
    return changes


def _mcr_self_draw(fan: int) -> tuple[int, int]:
    return 3 * (BASE + fan), BASE + fan


def _mahjongsoft_self_draw(fan: int) -> tuple[int, int]:
    return fan + 3 * BASE, -(-fan // 3) + BASE


PAYMENT_RULES: dict[str, PaymentRule] = {
    "mcr": PaymentRule(
        "mcr", "MCR (Chinese Official)", zero_sum=True, multiple_winners=False,
        source="Chinese Official rules (MCR): discarder pays 8+fan, others 8; self-draw each pays 8+fan",
        changes=partial(_mcr_changes, _mcr_self_draw), fan_check=True,
    ),
    "mcr-duplicate-mahjongsoft": PaymentRule(
        "mcr-duplicate-mahjongsoft", "MCR duplicate (MahjongSoft)", zero_sum=False, multiple_winners=True,
        source="MahjongSoft duplicate MCR rules: self-draw fan+24 / -(ceil(fan/3)+8) each; several "
               "discard winners each fan+24 paying 8 to each other winner (example -46, +36, +26, -16)",
        changes=partial(_mcr_changes, _mahjongsoft_self_draw), fan_check=True,
    ),
    "typed": PaymentRule(
        "typed", "Score changes typed in", zero_sum=None, multiple_winners=True,
        source="no computation: the table types each seat's score change",
    ),
}
"""The payment-rule registry, by code: the one place a rule is declared. Rule sets validate their
``payment_rule`` against it, the event form offers its codes, the table page and the fan check
ask it whether outcomes are entered and fan counted."""


def validate_score_changes(changes: Mapping[str, Any], seats: Sequence[str], zero_sum: bool, deposit: int = 0) -> None:
    """Check typed or computed score changes ``{seat: points}`` against the rule set.

    Every seat of ``seats`` needs a whole-number change and no other key may appear. When
    ``zero_sum`` the changes plus ``deposit`` (riichi sticks left on the table, ≥ 0) must sum to
    0. Raises PaymentError: ``field`` is the seat for a missing, unknown or non-integer value,
    ``deposit`` for a bad deposit, ``changes`` for a wrong sum (the message gives the sum and
    which way to correct it).
    """
    seats = _check_seats(seats)
    for seat in changes:
        if seat not in seats:
            raise PaymentError(str(seat), _("%(seat)s is not a seat of this rule set (%(seats)s): remove it") % {"seat": repr(seat), "seats": ", ".join(seats)})
    for seat in seats:
        if seat not in changes:
            raise PaymentError(seat, _("the score change of seat %(seat)s is missing: type 0 if %(seat)s neither won nor paid") % {"seat": seat})
        value = changes[seat]
        if isinstance(value, bool) or not isinstance(value, int):
            raise PaymentError(seat, _("the score change of seat %(seat)s must be a whole number of points, got %(value)s")
                               % {"seat": seat, "value": repr(value)})
    if isinstance(deposit, bool) or not isinstance(deposit, int) or deposit < 0:
        raise PaymentError("deposit", _("the deposit (sticks left on the table) must be a whole number of 0 or more, got %(value)s")
                           % {"value": repr(deposit)})
    if not zero_sum:
        return
    total = sum(changes[seat] for seat in seats)
    excess = total + deposit
    if excess:
        values = {"total": f"{total:+d}", "target": f"{-deposit:+d}", "deposit": deposit, "excess": abs(excess)}
        if deposit and excess > 0:
            message = _("the score changes sum to %(total)s but must sum to %(target)s, as %(deposit)s is left on the table: "
                        "lower a gain or raise a payment by %(excess)s")
        elif deposit:
            message = _("the score changes sum to %(total)s but must sum to %(target)s, as %(deposit)s is left on the table: "
                        "raise a gain or lower a payment by %(excess)s")
        elif excess > 0:
            message = _("the score changes sum to %(total)s but must sum to 0: lower a gain or raise a payment by %(excess)s")
        else:
            message = _("the score changes sum to %(total)s but must sum to 0: raise a gain or lower a payment by %(excess)s")
        raise PaymentError("changes", message % values)
