"""Honba and riichi sticks carried into a set: fixed per set in a duplicate event.

Every table that plays a set must start it from the same state (docs/rules.md, "Duplicate MCR:
the duplicate format": results are compared across the tables that played the same walls). In
a rule set whose payment rule counts honba (riichi, two-player Souzu, Shiragiku three-player)
or deposits riichi sticks (riichi, Souzu), what is on the table *before* the hand is therefore
not typed by each table: every set starts with 0 honba and 0 riichi sticks unless the director
fixes other values for it (stored on the event as ``{"<session>-<set>": {"honba": n,
"riichi": n}}``, :func:`read_fixed`). Typed honba that differ are refused (:func:`apply_fixed`),
never silently replaced: a table that counted honba of its own has misunderstood the set, and
the scorer should see it.

Two inputs are carried in, and only these are fixed here:

- ``honba``: counter sticks before the hand (the outcome's ``honba``: 300 a honba in riichi,
  2,000 in Souzu, 1 point in Shiragiku; docs/scoring.md, "Payment rules");
- ``riichi``: riichi sticks (deposits of 1,000) left on the table by earlier hands. The
  outcome's ``riichi`` input is something else: the seats that declare riichi *in this hand*,
  typed by the table as before. Carried sticks go to the first winner in turn from the
  discarder (head bump, as the hand's own sticks do: :func:`carried_sticks_to`) and stay on the
  table after a drawn hand, so a won hand's changes sum to the carried sticks' points, not to 0.

Standalone: no Django import; messages go through :mod:`tournament.i18n`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scoring.payments.core import MAX_HONBA, HandOutcome, PaymentError, PaymentRule, shown_value, signed_points, turn_order
from tournament.i18n import gettext as _

MAX_CARRIED_STICKS = 99
"""Most riichi sticks a director may leave on a set's table (a guard, like :data:`MAX_HONBA`)."""

_KEY = re.compile(r"^([1-9][0-9]*)-([1-9][0-9]*)$")


@dataclass(frozen=True)
class Counters:
    """What lies on a set's table before the hand: ``honba`` (counter sticks) and ``riichi``
    (riichi sticks carried in from earlier hands, a count, not points). Both whole, ≥ 0."""

    honba: int = 0
    riichi: int = 0


def carried_inputs(rule: PaymentRule) -> tuple[str, ...]:
    """The carried-in counters ``rule`` uses: ``"honba"`` where it takes honba, ``"riichi"``
    where it deposits riichi sticks (``rule.stick`` > 0); ``()`` for MCR, Yangzhou, shield tile."""
    out = []
    if "honba" in rule.inputs:
        out.append("honba")
    if rule.stick:
        out.append("riichi")
    return tuple(out)


def set_key(session: int, set_no: int) -> str:
    """The key of a set in the stored map: ``"2-7"`` for session 2, set 7."""
    return f"{session}-{set_no}"


def read_fixed(stored: Mapping[str, Any] | None, session: int, set_no: int) -> Counters:
    """The fixed counters of set ``set_no`` of ``session`` in ``stored`` (the event's map
    ``{"<session>-<set>": {"honba": n, "riichi": n}}``); a set not listed, or a count missing,
    is 0."""
    entry = (stored or {}).get(set_key(session, set_no)) or {}
    return Counters(honba=int(entry.get("honba") or 0), riichi=int(entry.get("riichi") or 0))


def _count(value: Any, field: str, high: int, what: str) -> int:
    if value is None or (isinstance(value, str) and not value.strip()):
        return 0
    number = signed_points(value)
    if number is None or not 0 <= number <= high:
        raise PaymentError(field, _("%(what)s must be a whole number from 0 to %(high)s, got %(value)s: type 0 for none")
                           % {"what": what, "high": high, "value": shown_value(value)})
    return number


def clean_fixed(values: Mapping[str, Mapping[str, Any]], rule: PaymentRule, sessions: int, sets_per_session: int) -> dict[str, dict[str, int]]:
    """The director's fixed counters checked and normalised for storage.

    ``values``: ``{"<session>-<set>": {"honba": n, "riichi": n}}`` (numbers or typed text; blank
    is 0). Returns the same shape holding only the sets and counters that are not 0 (a set left
    at 0 honba and 0 sticks is the default and is not stored). Raises PaymentError naming the
    field ``honba.<session>-<set>`` or ``riichi.<session>-<set>`` (a count that is not a whole
    number from 0 to :data:`MAX_HONBA` / :data:`MAX_CARRIED_STICKS`, or a counter the rule set
    does not use) or ``set`` (a key that is not a set of the event's sessions)."""
    takes = carried_inputs(rule)
    out: dict[str, dict[str, int]] = {}
    for key, entry in values.items():
        match = _KEY.match(str(key))
        if not match or int(match.group(1)) > sessions or int(match.group(2)) > sets_per_session:
            raise PaymentError("set", _("%(key)s is not a set of this event: give session-set, e.g. 1-3, with sessions 1 to "
                                        "%(sessions)s and sets 1 to %(sets)s") % {"key": repr(key), "sessions": sessions,
                                                                                  "sets": sets_per_session})
        kept = {}
        for name, high, what in (("honba", MAX_HONBA, _("honba")), ("riichi", MAX_CARRIED_STICKS, _("riichi sticks"))):
            count = _count((entry or {}).get(name), f"{name}.{key}", high, what)
            if count and name not in takes:
                raise PaymentError(f"{name}.{key}", _("this rule set has no %(what)s: leave it at 0") % {"what": what})
            if count:
                kept[name] = count
        if kept:
            out[str(key)] = kept
    return out


def apply_fixed(outcome: Mapping[str, Any], fixed: Counters, rule: PaymentRule, where: str) -> dict[str, Any]:
    """``outcome`` (a form or JSON outcome) with the set's fixed honba filled in, where the rule
    takes honba. A typed ``honba`` (not blank) that differs from the fixed one is refused:
    PaymentError ``honba`` naming the fixed value and the set ``where`` ("set 1-3"). Returns a
    new dict; the outcome's other inputs (``riichi``: this hand's declarations) are untouched."""
    data = dict(outcome)
    if "honba" not in rule.inputs:
        return data
    typed = data.get("honba")
    if typed is not None and not (isinstance(typed, str) and not typed.strip()):
        number = signed_points(typed)
        if number != fixed.honba:
            raise PaymentError("honba", _("the honba of %(set)s are fixed at %(fixed)s for every table of the set, got "
                                          "%(value)s: leave honba out (or type %(fixed)s); the director fixes them on the "
                                          "Honba and sticks page") % {"set": where, "fixed": fixed.honba, "value": shown_value(typed)})
    data["honba"] = fixed.honba
    return data


def carried_sticks_to(seats: tuple[str, ...], outcome: HandOutcome) -> str | None:
    """The seat that collects riichi sticks carried into the hand: the self-draw's winner, the
    first winner in turn from the discarder on a discard (head bump), None on a draw (they stay
    on the table)."""
    if outcome.kind == "draw" or not outcome.winners:
        return None
    if outcome.kind == "discard" and outcome.discarder in seats:
        return next(seat for seat in turn_order(seats, outcome.discarder) if seat in outcome.winners)
    return outcome.winners[0]


def counters_words(fixed: Counters, takes: tuple[str, ...]) -> str:
    """The fixed counters in words, e.g. "Honba 0 · riichi sticks 0" (only the counters the rule
    set uses, ``takes`` of :func:`carried_inputs`); ``""`` when it uses none."""
    parts = []
    if "honba" in takes:
        parts.append(_("Honba %(count)s") % {"count": fixed.honba})
    if "riichi" in takes:
        parts.append(_("riichi sticks %(count)s") % {"count": fixed.riichi} if parts
                     else _("Riichi sticks %(count)s") % {"count": fixed.riichi})
    return " · ".join(parts)


def fixed_summary(stored: Mapping[str, Any] | None, session: int, sets: int, takes: tuple[str, ...]) -> str:
    """One line for a table page: the fixed counters of ``session``'s ``sets`` sets, e.g.
    "Fixed for every set: Honba 0 · riichi sticks 0" or, when some differ, "Fixed: set 3: Honba 1 ·
    riichi sticks 2; every other set: Honba 0 · riichi sticks 0". ``""`` when the rule set uses
    no carried counter."""
    if not takes:
        return ""
    zero = counters_words(Counters(), takes)
    special = [(n, read_fixed(stored, session, n)) for n in range(1, sets + 1)]
    special = [(n, c) for n, c in special if c != Counters()]
    if not special:
        return _("Fixed for every set: %(counters)s") % {"counters": zero}
    listed = "; ".join(_("set %(set)s: %(counters)s") % {"set": n, "counters": counters_words(c, takes)}
                       for n, c in special)
    return _("Fixed: %(sets)s; every other set: %(counters)s") % {"sets": listed, "counters": zero}
