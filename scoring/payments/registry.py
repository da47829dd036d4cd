"""The payment-rule registry :data:`PAYMENT_RULES` and the entry points every caller uses:
:func:`settle` (outcome → settlement), :func:`score_changes` (its changes alone) and
:func:`validate_score_changes` (typed or computed changes against the rule set).

Standalone: no Django import; messages go through :mod:`tournament.i18n`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

from scoring.payments.core import (
    HandOutcome,
    PaymentError,
    PaymentRule,
    Settlement,
    check_seats,
    rule_seat_check,
)
from scoring.payments.mcr import mahjongsoft_self_draw, mcr_self_draw, settle_mcr_family
from scoring.payments.riichi import FU_CHOICES, KAZOE_HIGHEST, settle_riichi, settle_souzu
from scoring.payments.shield_tile import settle_shield_tile
from scoring.payments.three_player import settle_shiragiku
from scoring.payments.yangzhou import settle_yangzhou
from tournament.i18n import gettext as _
from tournament.i18n import gettext_noop

_RIICHI_INPUTS = frozenset({"fu", "yakuman", "honba", "riichi", "tenpai"})

PAYMENT_RULES: dict[str, PaymentRule] = {
    "mcr": PaymentRule(
        "mcr", gettext_noop("MCR (Chinese Official)"), zero_sum=True, multiple_winners=False,
        source="Chinese Official rules (MCR): discarder pays 8+fan, others 8; self-draw each pays 8+fan",
        settle=partial(settle_mcr_family, mcr_self_draw), fan_check=True,
        value_unit="fan", value_range=(8, 400), seat_counts=(4,),
    ),
    "mcr-duplicate-mahjongsoft": PaymentRule(
        "mcr-duplicate-mahjongsoft", gettext_noop("MCR duplicate (MahjongSoft)"), zero_sum=False, multiple_winners=True,
        source="MahjongSoft duplicate MCR rules: self-draw fan+24 / -(ceil(fan/3)+8) each; several "
               "discard winners each fan+24 paying 8 to each other winner (example -46, +36, +26, -16)",
        settle=partial(settle_mcr_family, mahjongsoft_self_draw), fan_check=True,
        value_unit="fan", value_range=(8, 400), seat_counts=(4,),
    ),
    "riichi": PaymentRule(
        "riichi", gettext_noop("Riichi"), zero_sum=True, multiple_winners=True,
        source="standard Japanese riichi rules (reference, not in the seeds): han and fu, mangan and above, "
               "honba 300, riichi sticks 1000, noten payment 3000",
        settle=settle_riichi, value_unit="han", value_range=(1, KAZOE_HIGHEST), inputs=_RIICHI_INPUTS,
        fu_choices=FU_CHOICES, stick=1000, seat_counts=(4,),
    ),
    "souzu-2p": PaymentRule(
        "souzu-2p", gettext_noop("Two-player Souzu"), zero_sum=True, multiple_winners=False,
        source='docs/rules.md, "Two-player Souzu: payments": riichi values, hundreds rounded up, self-draw collects half, '
               "honba 2000, mangan minimum (haneman from 5 honba)",
        settle=settle_souzu, value_unit="han", value_range=(1, KAZOE_HIGHEST), inputs=_RIICHI_INPUTS,
        fu_choices=FU_CHOICES, stick=1000, seat_counts=(2,),
    ),
    "souzu-2p-honba-whole": PaymentRule(
        "souzu-2p-honba-whole", gettext_noop("Two-player Souzu, honba not halved on a self-draw"), zero_sum=True,
        multiple_winners=False,
        source='docs/rules.md, "Two-player Souzu: payments": as souzu-2p, but a self-draw collects half the hand\'s '
               "value (rounded up to 1000) plus the whole 2000 a honba",
        settle=partial(settle_souzu, honba_halved=False), value_unit="han", value_range=(1, KAZOE_HIGHEST), inputs=_RIICHI_INPUTS,
        fu_choices=FU_CHOICES, stick=1000, seat_counts=(2,),
    ),
    "shiragiku-3p": PaymentRule(
        "shiragiku-3p", gettext_noop("Shiragiku three-player"), zero_sum=True, multiple_winners=False,
        source='docs/rules.md, "Shiragiku three-player: payments and game flow": 1 han 1 point, 2 base points, +1 dealer, limit 50, yakuman 100, '
               "+1 a honba; discarder pays, or each other player on a self-draw; noten penalty 6",
        settle=settle_shiragiku, value_unit="han", value_range=(1, 99),
        inputs=frozenset({"yakuman", "honba", "tenpai"}), seat_counts=(3,),
    ),
    "shield-tile": PaymentRule(
        "shield-tile", gettext_noop("Shield tile"), zero_sum=True, multiple_winners=False,
        source='docs/rules.md, "Shield tile: payments and game end": 1000, 2000, 4000, 8000 then +2000 a han; self-draw in thirds, '
               "a shielded seat pays nothing unless the winner declared open riichi",
        settle=settle_shield_tile, value_unit="han", value_range=(1, 99), inputs=frozenset({"shielded", "open_riichi"}),
        seat_counts=(4,),
    ),
    "yangzhou": PaymentRule(
        "yangzhou", gettext_noop("Yangzhou"), zero_sum=True, multiple_winners=True,
        source='docs/rules.md, "Yangzhou: payments": fan add up; discarder pays 2x, self-draw each pays the value; '
               "full-flush bao pays the whole win",
        settle=settle_yangzhou, value_unit="fan", value_range=(1, 1000), inputs=frozenset({"liable"}),
        seat_counts=(4,),
    ),
    "typed": PaymentRule(
        "typed", gettext_noop("Score changes typed in"), zero_sum=None, multiple_winners=True,
        source="no computation: the table types each seat's score change",
    ),
}  # fmt: skip
"""The payment-rule registry, by code: the one place a rule is declared. Rule sets validate their
``payment_rule`` against it, the event form offers its codes, the table page and the fan check
ask it whether outcomes are entered, which inputs it takes and what hand values it accepts."""


def payment_rule(rule: str) -> PaymentRule:
    """The rule ``rule`` of :data:`PAYMENT_RULES`; PaymentError ``rule`` listing the codes."""
    try:
        return PAYMENT_RULES[rule]
    except (KeyError, TypeError):
        raise PaymentError("rule", _("unknown payment rule %(rule)s: choose one of %(rules)s")
                           % {"rule": repr(rule), "rules": ", ".join(PAYMENT_RULES)}) from None


def settle(rule: str, seats: Sequence[str], outcome: HandOutcome | Mapping[Any, Any], min_fan: int | None = None) -> Settlement:
    """What the hand ``outcome`` pays under payment rule ``rule``: each seat's score change
    (points) and the points left on the table (:class:`Settlement`).

    ``seats``: the rule set's seats in order, dealer first (as the wall is laid); ``outcome``: a
    :class:`HandOutcome` (a mapping is read with :meth:`HandOutcome.from_dict`); ``min_fan``: the
    rule set's minimum hand value, which raises the rule's lowest (None: the rule's own). Rules
    and their sources: see the package docstring and docs/scoring.md.

    Raises PaymentError naming the field: ``rule`` (unknown, or typed: nothing is computed),
    ``seats`` (not distinct winds, or not a count the rule is for), ``kind``, ``winners``,
    ``discarder``, ``fans`` (count, or a value outside ``rule.bounds(min_fan)``: the message
    gives the range), ``fu``, ``yakuman``, ``honba``, ``riichi``, ``tenpai``, ``shielded``,
    ``open_riichi``, ``liable`` (an input the rule does not take, or one that does not fit the outcome).
    """
    spec = payment_rule(rule)
    if spec.settle is None:
        raise PaymentError("rule", _("this rule set computes nothing from the outcome: type the score changes of every seat"))
    seats = check_seats(seats)
    rule_seat_check(spec, seats)
    if isinstance(outcome, Mapping):
        outcome = HandOutcome.from_dict(outcome)
    return spec.settle(spec, seats, outcome, min_fan)


def score_changes(rule: str, seats: Sequence[str], outcome: HandOutcome | Mapping[Any, Any], min_fan: int | None = None) -> dict[str, int]:
    """Each seat's score change (points) for ``outcome``: ``settle(...).changes`` (see
    :func:`settle` for the arguments and errors). MCR's lowest is 8 fan whatever ``min_fan``."""
    return settle(rule, seats, outcome, min_fan).changes


def validate_score_changes(changes: Mapping[str, Any], seats: Sequence[str], zero_sum: bool, deposit: int = 0) -> None:
    """Check typed or computed score changes ``{seat: points}`` against the rule set.

    Every seat of ``seats`` needs a whole-number change and no other key may appear. When
    ``zero_sum`` the changes plus ``deposit`` (riichi sticks left on the table, ≥ 0) must sum to
    0. Raises PaymentError: ``field`` is the seat for a missing, unknown or non-integer value,
    ``deposit`` for a bad deposit, ``changes`` for a wrong sum (the message gives the sum and
    which way to correct it).
    """
    seats = check_seats(seats)
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
