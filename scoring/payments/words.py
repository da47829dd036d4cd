"""A hand's result in words: :func:`describe`, the sentence the confirming player, the
director's history and the result pages show ("East won on South's discard, 24 fan: E +56,
S -32, W -8, N -8").

Every sentence is built from whole translatable templates with ``%(name)s`` placeholders (see
:mod:`scoring.payments.phrases`), so each language orders it its own way; seats are named with
:func:`tournament.i18n.seat_name` (East, 東家, 东家) and listed with
:func:`tournament.i18n.seat_label` (E, 東, 东).

Standalone: no Django import.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scoring.payments.core import HandOutcome, PaymentError
from scoring.payments.phrases import seat_labels, seat_names, value_words, values_words
from scoring.payments.registry import PAYMENT_RULES
from tournament.i18n import gettext as _
from tournament.i18n import seat_label, seat_name


def changes_words(seats: Sequence[str], changes: Mapping[str, int]) -> str:
    """``"E +56, S -32, W -8, N 0"``: each seat's label and signed change (0 unsigned), in seat order (seats
    missing from ``seats`` but present in ``changes`` follow)."""
    order = [seat for seat in seats if seat in changes] + [seat for seat in changes if seat not in seats]
    parts = []
    for seat in order:
        value = changes[seat]
        if isinstance(value, int) and not isinstance(value, bool):
            parts.append(f"{seat_label(seat)} {value:+d}" if value else f"{seat_label(seat)} 0")
        else:
            parts.append(f"{seat_label(seat)} {value}")
    return _(", ").join(parts)


def _as_outcome(outcome: HandOutcome | Mapping[Any, Any] | None) -> HandOutcome | None:
    if isinstance(outcome, HandOutcome):
        return outcome
    if isinstance(outcome, Mapping) and outcome.get("kind"):
        try:
            return HandOutcome.from_dict(outcome)
        except PaymentError:
            return None
    return None


def _tuple(values: Any) -> tuple[Any, ...]:
    return tuple(values) if isinstance(values, (tuple, list)) else ()


def describe(rule: str, seats: Sequence[str], outcome: HandOutcome | Mapping[Any, Any] | None, changes: Mapping[str, int],
             deposit: int = 0) -> str:
    """One sentence in the active language for a hand's result.

    ``rule``: the payment rule code (gives the value's unit; an unknown code reads as fan);
    ``seats``: the rule set's seats in order; ``outcome``: a :class:`HandOutcome`, a stored
    outcome mapping (extra keys such as ``entered_by_seat`` are ignored) or None for typed score
    changes; ``changes``: seat → score change (points); ``deposit``: points left on the table
    (added to the sentence when > 0; a drawn riichi hand also shows it from its declarers).

    Examples: "East won on South's discard, 24 fan: E +56, S -32, W -8, N -8"; "South won by
    self-draw, 3 han 30 fu, 1 honba: E -1100, S +4100, W -1100, N -1100 (riichi: S)"; "Draw
    (tenpai: E, S): E +1500, S +1500, W -1500, N -1500; 1000 left on the table"; "Score
    changes: E +24, S -8, W -8, N -8" when there is no outcome. Never raises for a stored
    result: what cannot be read as an outcome is described by its changes alone.
    """
    seats = tuple(seats)
    spec = PAYMENT_RULES.get(rule) if isinstance(rule, str) else None
    unit = spec.value_unit if spec is not None else "fan"
    hand = _as_outcome(outcome)
    listed = changes_words(seats, changes)
    if hand is None or hand.kind not in ("discard", "self_draw", "draw"):
        sentence = _("Score changes: %(changes)s") % {"changes": listed}
        return _with_deposit(sentence, deposit)
    winners = _tuple(hand.winners)
    riichi = _tuple(hand.riichi)
    if hand.kind == "draw":
        tenpai = _tuple(hand.tenpai)
        if tenpai:
            sentence = _("Draw (tenpai: %(seats)s): %(changes)s") % {"seats": seat_labels(tenpai), "changes": listed}
        else:
            sentence = _("Draw: %(changes)s") % {"changes": listed}
        if not deposit and spec is not None and spec.stick:
            deposit = spec.stick * len(riichi)
    else:
        value = _value(unit, winners, _tuple(hand.fans), _tuple(hand.fu), _tuple(hand.yakuman))
        if isinstance(hand.honba, int) and hand.honba > 0:
            value = _("%(value)s, %(honba)s honba") % {"value": value, "honba": hand.honba}
        names = seat_names(winners)
        if hand.kind == "self_draw":
            sentence = _("%(winner)s won by self-draw, %(value)s: %(changes)s") % {
                "winner": names, "value": value, "changes": listed}
        elif len(winners) > 1:
            sentence = _("%(winners)s won on %(discarder)s's discard, %(value)s: %(changes)s") % {
                "winners": names, "discarder": seat_name(hand.discarder or "?"), "value": value, "changes": listed}
        else:
            sentence = _("%(winner)s won on %(discarder)s's discard, %(value)s: %(changes)s") % {
                "winner": names, "discarder": seat_name(hand.discarder or "?"), "value": value, "changes": listed}
        if hand.liable:
            sentence = _("%(sentence)s (bao: %(seat)s pays)") % {"sentence": sentence, "seat": seat_label(hand.liable)}
        shielded = _tuple(hand.shielded)
        if shielded:
            sentence = _("%(sentence)s (shielded: %(seats)s)") % {"sentence": sentence, "seats": seat_labels(shielded)}
        if getattr(hand, "open_riichi", False) is True:
            sentence = _("%(sentence)s (open riichi: the shield does not count)") % {"sentence": sentence}
    if riichi:
        sentence = _("%(sentence)s (riichi: %(seats)s)") % {"sentence": sentence, "seats": seat_labels(riichi)}
    return _with_deposit(sentence, deposit)


def _value(unit: str, winners: tuple[Any, ...], fans: tuple[Any, ...], fu: tuple[Any, ...], yakuman: tuple[Any, ...]) -> str:
    count = len(winners)
    fans = tuple(fans) if len(fans) == count else (0,) * count
    fu = tuple(fu) if len(fu) == count else (0,) * count
    yakuman = tuple(yakuman) if len(yakuman) == count else (0,) * count
    if count == 1:
        return value_words(unit, fans[0], fu[0], yakuman[0])
    return values_words(unit, fans, fu, yakuman)


def _with_deposit(sentence: str, deposit: int) -> str:
    if isinstance(deposit, int) and not isinstance(deposit, bool) and deposit > 0:
        return _("%(sentence)s; %(deposit)s left on the table") % {"sentence": sentence, "deposit": deposit}
    return sentence
