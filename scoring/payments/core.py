"""The shapes every payment rule shares: a hand's outcome (:class:`HandOutcome`), what a rule
computes from it (:class:`Settlement`), a rule's declaration (:class:`PaymentRule`), the error
(:class:`PaymentError`) and the checks common to every rule (seats, winners, discarder, the hand
value against the rule's bounds, the inputs a rule takes).

Standalone: no Django import; messages go through :mod:`tournament.i18n`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from tournament.i18n import gettext as _
from tournament.i18n import gettext as translated
from tournament.i18n import gettext_noop, seat_name

WINDS = ("E", "S", "W", "N")
KINDS = ("discard", "self_draw", "draw")
INPUTS = frozenset({"fu", "yakuman", "honba", "riichi", "tenpai", "shielded", "open_riichi", "liable"})
"""The optional parts of an outcome; a rule lists those it takes in :attr:`PaymentRule.inputs`."""
MAX_YAKUMAN = 6
"""Most yakuman one hand may count (a guard: six-fold yakuman is the highest any table counts)."""
MAX_HONBA = 99
"""Most honba (counter sticks) a hand may carry (a guard: a duplicate set is one hand, so a table
carries honba only from a rule set that counts them; two digits is more than any table reaches)."""
MAX_DIGITS = 30
"""The longest whole number, in digits, that :func:`signed_points` converts: far above every
range of this package (the largest has 7 digits) and far below the 4,300 digits where Python's
``int()`` refuses text with ValueError; a longer number is reported as out of range by
:func:`read_whole`, never converted."""

# Marked with gettext_noop, shown through ``translated`` (a name the catalogue extractor skips).
_INPUT_LABELS = {
    "fu": gettext_noop("fu"),
    "yakuman": gettext_noop("yakuman"),
    "honba": gettext_noop("honba (counter sticks)"),
    "riichi": gettext_noop("riichi declarations"),
    "tenpai": gettext_noop("tenpai seats"),
    "shielded": gettext_noop("shielded seats"),
    "open_riichi": gettext_noop("open riichi"),
    "liable": gettext_noop("a liable seat (bao)"),
}


class PaymentError(ValueError):
    """A hand outcome or score changes that cannot be scored; ``field`` names the input
    (``rule``, ``seats``, ``kind``, ``winners``, ``discarder``, ``fans``, ``fu``, ``yakuman``,
    ``honba``, ``riichi``, ``tenpai``, ``shielded``, ``open_riichi``, ``liable``, ``deposit``,
    ``changes`` or a seat letter) and the message says how to fix it."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


_SIGNS = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2012": "-", "\ufe63": "-", ",": None, " ": None, "_": None})


def _number_text(value: Any) -> str | None:
    """``value`` as ``[+-]digits`` text (the forms :func:`signed_points` reads), else None."""
    text = unicodedata.normalize("NFKC", str(value)).translate(_SIGNS)
    return text if re.fullmatch(r"[+-]?[0-9]+", text) else None


def _too_long(text: str) -> bool:
    return len(text.lstrip("+-").lstrip("0")) > MAX_DIGITS


def signed_points(value: Any) -> int | None:
    """A whole number read from what a phone typed, or None when it is not one.

    Accepts ints, and text with an optional sign: ``"-16"``, ``"−16"`` (U+2212, the minus of
    many keyboards), ``"+24"``, full-width ``"－１６"``, thousands separators ``"8,000"`` and
    spaces. Floats count only when whole. Booleans are not numbers here. The one reader of typed
    numbers: score changes, deposits and every number of a hand outcome go through it (with
    their range: :func:`read_whole`). Never raises: text of more than :data:`MAX_DIGITS` digits
    is None too (Python refuses to convert 4,300 digits and more)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() else None
    text = _number_text(value)
    if text is None or _too_long(text):
        return None
    return int(text)


def shown_value(value: Any) -> str:
    """``value`` for a message: an int with thousands separators (one of more than
    :data:`MAX_DIGITS` digits by its size), text quoted and cut to its first 12 and last 6
    characters when longer than 24."""
    if isinstance(value, int) and not isinstance(value, bool):
        # str() of an int of more than 4,300 digits raises ValueError: show its size instead.
        return f"{value:,}" if abs(value) < 10**MAX_DIGITS else _("a number of over %(digits)s digits") % {"digits": MAX_DIGITS}
    text = str(value)
    return repr(text if len(text) <= 24 else f"{text[:12]}…{text[-6:]}")


def read_whole(value: Any, field_name: str, low: int, high: int, what: str) -> int:
    """``value`` read by :func:`signed_points` and checked to lie in ``low``..``high``: the one
    reader of a typed number with its range (score changes and deposits; the hand's numbers are
    checked in :func:`check_outcome`). ``what`` names the number in the message ("the score
    change of seat E"). "" and None are refused too: the caller decides what a blank means.

    Raises PaymentError(field_name) whose message gives the range in the rule set, e.g. "the
    score change of seat E must be a whole number from -2,810,800 to 2,810,800 points in this
    rule set; got 30,000,000,000": for a number out of range (text of any length: a number longer
    than :data:`MAX_DIGITS` digits is out of range without being converted) and for anything
    that is not a whole number."""
    values = {"what": what, "low": f"{low:,}", "high": f"{high:,}"}
    text = None if isinstance(value, (bool, int, float)) else _number_text(value)
    number = None if text is not None and _too_long(text) else signed_points(value)
    if number is not None and low <= number <= high:
        return number
    values["value"] = shown_value(number if number is not None else value)
    raise PaymentError(field_name, _("%(what)s must be a whole number from %(low)s to %(high)s points in this rule set; "
                                     "got %(value)s") % values)


def _whole(value: Any, field_name: str, message: str) -> int:
    """``value`` as an int read by :func:`signed_points`; "" and None are 0. Anything else raises
    PaymentError(field_name, message % value), ``message`` translated then (a msgid marked with
    ``gettext_noop``; a message translated already comes back as it is)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return 0
    number = signed_points(value)
    if number is None:
        raise PaymentError(field_name, translated(message) % {"value": repr(value)})
    return number


def _seat_list(value: Any, field_name: str) -> tuple[str, ...]:
    if value is None or value == "":
        return ()
    if isinstance(value, str):
        return (value.strip(),)
    if not isinstance(value, (list, tuple)):
        raise PaymentError(field_name, _("%(field)s must be a list of seats, e.g. [\"E\", \"S\"]; got %(value)s")
                           % {"field": field_name, "value": repr(value)})
    seats = []
    for seat in value:
        if not isinstance(seat, str):
            raise PaymentError(field_name, _("%(field)s must be a list of seats, e.g. [\"E\", \"S\"]; got %(value)s")
                               % {"field": field_name, "value": repr(value)})
        if seat.strip():
            seats.append(seat.strip())
    return tuple(seats)


def _int_list(value: Any, field_name: str, message: str) -> tuple[int, ...]:
    if value is None or value == "":
        return ()
    if not isinstance(value, (list, tuple)):
        value = [value]
    return tuple(_whole(item, field_name, message) for item in value)


_YES = frozenset({"true", "on", "yes", "1"})
_NO = frozenset({"false", "off", "no", "0", ""})


def _flag(value: Any, field_name: str) -> bool:
    """A yes/no input of a form or JSON: a bool, None (no), 0/1, or text true/false, on/off,
    yes/no, 1/0, "" (no); anything else raises PaymentError(field_name)."""
    if value is None or isinstance(value, bool):
        return bool(value)
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in _YES | _NO:
        return value.strip().lower() in _YES
    raise PaymentError(field_name, _("%(field)s must be true or false; got %(value)s")
                       % {"field": field_name, "value": shown_value(value)})


def _optional_seat(value: Any, field_name: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise PaymentError(field_name, _("%(field)s must be one seat, e.g. \"S\", or empty; got %(value)s")
                           % {"field": field_name, "value": repr(value)})
    return value.strip() or None


@dataclass(frozen=True)
class HandOutcome:
    """How a hand ended, as the table reports it.

    - ``kind``: ``'discard'`` (won on a discard), ``'self_draw'`` or ``'draw'`` (nobody won).
    - ``winners``: winning seats (one on a self-draw; several on a discard where the rule allows
      it, best listed in turn order from the discarder; the rules find that order themselves).
    - ``discarder``: the seat whose discard won (discard only, else None).
    - ``fans``: the hand value of each winner, in the order of ``winners``, in the rule's unit
      (:attr:`PaymentRule.value_unit`, fan or han); 0 (or ``()`` for all) for a winner whose
      value is given by ``yakuman`` alone.
    - ``fu``: rules with fu (riichi): fu of each winner, needed below mangan (0 = not given).
    - ``yakuman``: rules with yakuman: number of yakuman of each winner (0 = none; ``()`` = all 0).
    - ``honba``: counter sticks on the table before the hand (≥ 0).
    - ``riichi``: seats that declared riichi in this hand (each pays one stick).
    - ``tenpai``: on a draw, the seats in tenpai (noten payment).
    - ``shielded``: on a self-draw, seats whose open shield tiles hold the winner's wait.
    - ``open_riichi``: on a self-draw, the winner had declared open riichi (shield tile: the
      shielded seats then pay too, docs/rules.md, "Shield tile: payments and game end").
    - ``liable``: Yangzhou bao: the seat that fed the third chow to a full flush.

    The constructor takes the values as given; :func:`scoring.payments.settle` checks them
    against the rule and the seats. :meth:`from_dict` reads a form or JSON payload.
    """

    kind: str
    winners: tuple[str, ...] = ()
    discarder: str | None = None
    fans: tuple[int, ...] = ()
    fu: tuple[int, ...] = ()
    yakuman: tuple[int, ...] = ()
    honba: int = 0
    riichi: tuple[str, ...] = ()
    tenpai: tuple[str, ...] = ()
    shielded: tuple[str, ...] = ()
    open_riichi: bool = False
    liable: str | None = None

    @classmethod
    def from_dict(cls, data: Mapping[Any, Any]) -> HandOutcome:
        """The outcome of ``data`` (the keys of this class; others, such as the stored notes
        ``entered_by_seat``, ``hand`` and ``flags``, are ignored).

        Tolerant of form and JSON input: whole numbers may come as strings (``"8"``, ``" 30 "``),
        sequences as lists, one seat or number alone for a one-element list, ``""`` and None for
        an empty value, a flag as a bool or ``"true"``/``"false"``/``"on"``/``"1"``/``"0"``.
        Raises PaymentError naming the field: no ``kind`` (``kind``), a number that is not whole
        (``fans``, ``fu``, ``yakuman``, ``honba``), seats that are not text, a flag that is not
        yes or no (``open_riichi``).
        Nothing is checked against a rule here: :func:`scoring.payments.settle` does that.
        """
        if not isinstance(data, Mapping) or not isinstance(data.get("kind"), str) or not data["kind"].strip():
            raise PaymentError("kind", _("give the outcome's kind (discard, self_draw or draw), its winners, "
                                         "discarder and the value of each winning hand"))
        return cls(
            kind=data["kind"].strip(),
            winners=_seat_list(data.get("winners"), "winners"),
            discarder=_optional_seat(data.get("discarder"), "discarder"),
            fans=_int_list(data.get("fans"), "fans", gettext_noop("the fan must be a whole number, e.g. 8; got %(value)s")),
            fu=_int_list(data.get("fu"), "fu", gettext_noop("the fu must be a whole number, e.g. 30; got %(value)s")),
            yakuman=_int_list(data.get("yakuman"), "yakuman",
                              gettext_noop("the number of yakuman must be a whole number, e.g. 1; got %(value)s")),
            honba=_whole(data.get("honba"), "honba", _("honba must be a whole number of 0 or more, e.g. 1; got %(value)s")),
            riichi=_seat_list(data.get("riichi"), "riichi"),
            tenpai=_seat_list(data.get("tenpai"), "tenpai"),
            shielded=_seat_list(data.get("shielded"), "shielded"),
            open_riichi=_flag(data.get("open_riichi"), "open_riichi"),
            liable=_optional_seat(data.get("liable"), "liable"),
        )

    def to_dict(self) -> dict[Any, Any]:
        """``{"kind", "winners", "discarder", "fans"}`` always (lists for tuples), plus each other
        field only where it differs from its default; :meth:`from_dict` reads it back."""
        data: dict[str, Any] = {"kind": self.kind, "winners": list(self.winners), "discarder": self.discarder,
                                "fans": list(self.fans)}
        for item in fields(self):
            if item.name in data:
                continue
            value = getattr(self, item.name)
            if value != item.default:
                data[item.name] = list(value) if isinstance(value, tuple) else value
        return data


@dataclass(frozen=True)
class Settlement:
    """What a payment rule computes for one hand: ``changes`` seat → score change (points), in
    seat order; ``deposit``: points left on the table by the hand (riichi sticks of a drawn
    hand), ≥ 0. A zero-sum rule gives ``sum(changes.values()) + deposit == 0``."""

    changes: dict[str, int]
    deposit: int = 0


@dataclass(frozen=True)
class PaymentRule:
    """One payment rule of the registry :data:`scoring.payments.PAYMENT_RULES`, everything other
    modules ask about it.

    - ``code``: the name a rule set's ``payment_rule`` gives; ``name``: display name (English,
      marked for translation: show it through ``gettext``).
    - ``zero_sum``: True/False, whether every computed hand has ``sum(changes) + deposit == 0``;
      None where the changes are typed and the rule set decides.
    - ``multiple_winners``: a discard may have several winners.
    - ``source``: where the rule comes from (a docs/rules.md section or a reference).
    - ``settle``: ``settle(rule, seats, outcome, min_fan) -> Settlement`` with the seats already
      checked; it checks the outcome and raises PaymentError. None for a rule whose score changes
      the table types (no outcome is entered).
    - ``fan_check``: the optional MCR fan check (:mod:`scoring.fan_check`) applies.
    - ``value_unit``: ``"fan"`` or ``"han"``, the label of the hand-value input.
    - ``value_range``: (lowest, highest) hand value the rule accepts; a rule set's ``min_fan``
      raises the lowest (:meth:`bounds`).
    - ``inputs``: the optional outcome parts the rule takes (subset of ``fu``, ``yakuman``,
      ``honba``, ``riichi``, ``tenpai``, ``shielded``, ``open_riichi``, ``liable``); any other
      given is refused.
    - ``fu_choices``: rules with fu: the valid fu values.
    - ``stick``: riichi stick value in points (0 = no sticks).
    - ``seat_counts``: the numbers of seats the rule is written for (empty: any from 2).
    """

    code: str
    name: str
    zero_sum: bool | None
    multiple_winners: bool
    source: str
    settle: Callable[[PaymentRule, tuple[str, ...], HandOutcome, int | None], Settlement] | None = None
    fan_check: bool = False
    value_unit: str = "fan"
    value_range: tuple[int, int] = (1, 1)
    inputs: frozenset[str] = field(default_factory=frozenset)
    fu_choices: tuple[int, ...] = ()
    stick: int = 0
    seat_counts: tuple[int, ...] = ()

    @property
    def label(self) -> str:
        """``name`` in the active language (the registry marks each name for translation)."""
        return translated(self.name)

    @property
    def computed(self) -> bool:
        """Score changes follow from the hand's outcome (False: the table types them)."""
        return self.settle is not None

    def bounds(self, min_fan: int | None) -> tuple[int, int]:
        """(lowest, highest) hand value a winner may have under a rule set whose minimum is
        ``min_fan`` (None or 0: the rule's own lowest): ``(max(lowest, min_fan), highest)``."""
        lowest, highest = self.value_range
        return max(lowest, min_fan or lowest), highest


def rule_seat_check(rule: PaymentRule, seats: tuple[str, ...]) -> None:
    """Refuse seats the rule is not written for (PaymentError ``seats``)."""
    if rule.seat_counts and len(seats) not in rule.seat_counts:
        raise PaymentError("seats", _("the %(rule)s payment rule is for %(counts)s seats, got %(seats)s")
                           % {"rule": rule.label, "counts": " / ".join(str(n) for n in rule.seat_counts),
                              "seats": ", ".join(seats) or "-"})
    if len(seats) < 2:
        raise PaymentError("seats", _("a payment rule needs at least two seats, got %(seats)s") % {"seats": ", ".join(seats) or "-"})


def check_seats(seats: Sequence[str]) -> tuple[str, ...]:
    """``seats`` as a tuple of distinct wind letters, else PaymentError ``seats``."""
    if isinstance(seats, str):
        seats = tuple(seats)
    seats = tuple(seats)
    for seat in seats:
        if seat not in WINDS:
            raise PaymentError("seats", _("seat %(seat)s is not a wind letter: use %(winds)s") % {"seat": repr(seat), "winds": ", ".join(WINDS)})
    if len(set(seats)) != len(seats):
        raise PaymentError("seats", _("seats %(seats)s repeat a wind: list each seat once") % {"seats": ", ".join(seats)})
    return seats


def _given(value: Any) -> bool:
    """An optional outcome part is given when it is set: a seat, a non-zero number, a list with
    a seat or a non-zero number (``(0,)``, an unset per-winner list, counts as not given)."""
    if isinstance(value, (tuple, list)):
        return any(item not in (0, None, "") for item in value)
    return value not in (0, None, "")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_seat_tuple(name: str, values: Any, seats: tuple[str, ...]) -> tuple[str, ...]:
    if isinstance(values, str) or not isinstance(values, (tuple, list)):
        raise PaymentError(name, _("%(field)s must be a list of seats, e.g. [\"E\", \"S\"]; got %(value)s")
                           % {"field": name, "value": repr(values)})
    for seat in values:
        if seat not in seats:
            raise PaymentError(name, _("%(seat)s is not a seat of this rule set: seats are %(seats)s")
                               % {"seat": repr(seat), "seats": ", ".join(seats)})
    if len(set(values)) != len(values):
        raise PaymentError(name, _("%(field)s %(seats)s repeat a seat: list each seat once")
                           % {"field": name, "seats": ", ".join(values)})
    return tuple(values)


def _check_int_tuple(name: str, values: Any, message: str) -> tuple[int, ...]:
    """``values`` as a tuple of whole numbers, else PaymentError on ``name`` saying ``message``
    (a msgid marked with ``gettext_noop``, translated only when raised: the par analysis checks
    tens of thousands of outcomes) with ``%(value)s`` the value refused."""
    if isinstance(values, str) or not isinstance(values, (tuple, list)):
        raise PaymentError(name, translated(message) % {"value": repr(values)})
    for value in values:
        if not _is_int(value):
            raise PaymentError(name, translated(message) % {"value": repr(value)})
    return tuple(values)


@dataclass(frozen=True)
class Hand:
    """A checked outcome: what the rules compute from. ``values``, ``fu`` and ``yakuman`` have
    one entry per winner (0 where not given)."""

    kind: str
    winners: tuple[str, ...]
    discarder: str | None
    values: tuple[int, ...]
    fu: tuple[int, ...]
    yakuman: tuple[int, ...]
    honba: int
    riichi: tuple[str, ...]
    tenpai: tuple[str, ...]
    shielded: tuple[str, ...]
    liable: str | None
    open_riichi: bool = False


def value_error(rule: PaymentRule, seat: str, value: int, low: int, high: int) -> PaymentError:
    """The refusal of a hand value outside ``low``..``high`` (field ``fans``), in the rule's unit."""
    values = {"low": low, "high": high, "rule": rule.label, "seat": seat_name(seat),
              "value": shown_value(value) if isinstance(value, int) else value}
    if rule.value_unit == "han":
        return PaymentError("fans", _("han must be from %(low)s to %(high)s in %(rule)s: winner %(seat)s has %(value)s; "
                                      "check the count or record the hand as not won") % values)
    return PaymentError("fans", _("fan must be from %(low)s to %(high)s in %(rule)s: winner %(seat)s has %(value)s; "
                                  "check the count or record the hand as not won") % values)


def check_outcome(rule: PaymentRule, seats: tuple[str, ...], outcome: HandOutcome, min_fan: int | None) -> Hand:
    """Check ``outcome`` against ``rule`` and ``seats`` and return it as a :class:`Hand`.

    Refused with PaymentError naming the field: an unknown kind; an unknown or repeated seat in
    any seat list; no winner, several winners on a self-draw or where the rule has one per
    discard; a missing discarder, a discarder on a self-draw or a winner on its own discard; a
    value count that does not match the winners; a value outside ``rule.bounds(min_fan)``
    (``fans``, the message gives the range); an input the rule does not take (named); tenpai
    seats other than on a draw, shielded seats other than on a self-draw, a liable seat on a
    draw; a negative honba or yakuman count, more than :data:`MAX_HONBA` honba or
    :data:`MAX_YAKUMAN` yakuman; an open riichi flag that is not a bool, or set other than on
    a self-draw.
    """
    if not isinstance(outcome, HandOutcome):
        raise PaymentError("kind", _("give the outcome's kind (discard, self_draw or draw), its winners, "
                                     "discarder and the value of each winning hand"))
    if outcome.kind not in KINDS:
        raise PaymentError("kind", _("unknown outcome %(kind)s: use discard, self_draw or draw") % {"kind": repr(outcome.kind)})
    for name in sorted(INPUTS - rule.inputs):
        if _given(getattr(outcome, name)):
            raise PaymentError(name, _("the %(rule)s rule does not use %(input)s: leave it out")
                               % {"rule": rule.label, "input": translated(_INPUT_LABELS[name])})
    winners = _check_seat_tuple("winners", outcome.winners, seats)
    discarder = outcome.discarder
    if discarder is not None and discarder not in seats:
        raise PaymentError("discarder", _("%(seat)s is not a seat of this rule set: seats are %(seats)s")
                           % {"seat": repr(discarder), "seats": ", ".join(seats)})
    riichi = _check_seat_tuple("riichi", outcome.riichi, seats)
    tenpai = _check_seat_tuple("tenpai", outcome.tenpai, seats)
    shielded = _check_seat_tuple("shielded", outcome.shielded, seats)
    liable = outcome.liable
    if liable is not None and liable not in seats:
        raise PaymentError("liable", _("%(seat)s is not a seat of this rule set: seats are %(seats)s")
                           % {"seat": repr(liable), "seats": ", ".join(seats)})
    fans = _check_int_tuple("fans", outcome.fans, gettext_noop("the fan must be a whole number, e.g. 8; got %(value)s"))
    fu = _check_int_tuple("fu", outcome.fu, gettext_noop("the fu must be a whole number, e.g. 30; got %(value)s"))
    yakuman = _check_int_tuple("yakuman", outcome.yakuman,
                               gettext_noop("the number of yakuman must be a whole number, e.g. 1; got %(value)s"))
    honba = outcome.honba
    if not _is_int(honba) or honba < 0:
        raise PaymentError("honba", _("honba must be a whole number of 0 or more, e.g. 1; got %(value)s") % {"value": repr(honba)})
    if honba > MAX_HONBA:
        raise PaymentError("honba", _("honba must be from 0 to %(max)s, got %(value)s: check the counter sticks")
                           % {"max": MAX_HONBA, "value": shown_value(honba)})

    if outcome.kind == "draw":
        if winners or discarder is not None:
            raise PaymentError("kind", _("a drawn hand has no winner and no discarder: clear them, or choose a win on a discard or a self-draw"))
        if any(fans) or any(fu) or any(yakuman):
            raise PaymentError("fans", _("a drawn hand has no hand value: clear the values, or choose a win on a discard or a self-draw"))
        fans = fu = yakuman = ()
        if liable is not None:
            raise PaymentError("liable", _("a drawn hand has no liable seat: clear it"))
    else:
        if not winners:
            if outcome.kind == "self_draw":
                raise PaymentError("winners", _("a self-draw win needs its winner: choose the winning seat"))
            raise PaymentError("winners", _("a discard win needs its winner: choose the winning seat"))
        if tenpai:
            raise PaymentError("tenpai", _("tenpai seats are marked only on a drawn hand: clear them"))
    if outcome.kind == "self_draw":
        if discarder is not None:
            raise PaymentError("discarder", _("a self-draw has no discarder: clear the discarder, or choose discard"))
        if len(winners) > 1:
            raise PaymentError("winners", _("a self-draw has one winner: keep only the seat that drew the tile"))
    elif shielded:
        raise PaymentError("shielded", _("shielded seats count only on a self-draw: clear them"))
    if not isinstance(outcome.open_riichi, bool):
        raise PaymentError("open_riichi", _("open_riichi must be true or false; got %(value)s")
                           % {"value": shown_value(outcome.open_riichi)})
    if outcome.open_riichi and outcome.kind != "self_draw":
        raise PaymentError("open_riichi", _("open riichi counts only on a self-draw (it lifts the shield of the "
                                            "shielded seats): clear it"))
    if outcome.kind == "discard":
        if discarder is None:
            raise PaymentError("discarder", _("a discard win needs the discarder: choose the seat that discarded the tile"))
        if discarder in winners:
            raise PaymentError("discarder", _("%(seat)s cannot win on its own discard: "
                                              "choose another discarder, or a self-draw") % {"seat": seat_name(discarder)})
        if len(winners) > 1 and not rule.multiple_winners:
            raise PaymentError("winners", _("the %(rule)s rule has one winner per discard (the first in turn from "
                                            "the discarder wins): keep only that winner") % {"rule": rule.label})

    count = len(winners)
    if yakuman and len(yakuman) != count:
        raise PaymentError("yakuman", _("%(winners)s winner(s) but %(count)s yakuman count(s): give one per winner, 0 for none")
                           % {"winners": count, "count": len(yakuman)})
    yakuman = yakuman or (0,) * count
    for seat, number in zip(winners, yakuman):
        if not 0 <= number <= MAX_YAKUMAN:
            raise PaymentError("yakuman", _("the yakuman count of winner %(seat)s must be from 0 to %(max)s, got %(value)s")
                               % {"seat": seat_name(seat), "max": MAX_YAKUMAN, "value": shown_value(number)})
    if not fans and count and all(yakuman):
        fans = (0,) * count
    if len(fans) != count:
        raise PaymentError("fans", _("%(winners)s winner(s) but %(fans)s fan value(s): give one fan per winner")
                           % {"winners": count, "fans": len(fans)})
    low, high = rule.bounds(min_fan)
    for seat, value, number in zip(winners, fans, yakuman):
        if number and value == 0:
            continue
        if not low <= value <= high:
            raise value_error(rule, seat, value, low, high)
    if fu and len(fu) != count:
        raise PaymentError("fu", _("%(winners)s winner(s) but %(count)s fu value(s): give one per winner")
                           % {"winners": count, "count": len(fu)})
    fu = fu or (0,) * count
    for seat, value in zip(winners, fu):
        if value and value not in rule.fu_choices:
            raise PaymentError("fu", _("the fu of winner %(seat)s must be one of %(choices)s, got %(value)s")
                               % {"seat": seat_name(seat), "choices": ", ".join(map(str, rule.fu_choices)), "value": shown_value(value)})
    return Hand(outcome.kind, winners, discarder, fans, fu, yakuman, honba, riichi, tenpai, shielded, liable,
                outcome.open_riichi)


def turn_order(seats: tuple[str, ...], start: str) -> tuple[str, ...]:
    """The seats in turn order after ``start`` (``start`` last): the order a discard is claimed."""
    index = seats.index(start)
    return seats[index + 1:] + seats[:index + 1]


def round_up(points: int, unit: int) -> int:
    """``points`` rounded up to a multiple of ``unit``."""
    return -(-points // unit) * unit


def noten_payments(seats: tuple[str, ...], tenpai: tuple[str, ...], total: int) -> dict[str, int]:
    """The noten payment of a drawn hand: the noten seats pay ``total`` in all, shared equally,
    to the tenpai seats, shared equally; nothing when every seat or no seat is in tenpai."""
    changes = dict.fromkeys(seats, 0)
    if not tenpai or len(tenpai) == len(seats):
        return changes
    gain, loss = total // len(tenpai), total // (len(seats) - len(tenpai))
    for seat in seats:
        changes[seat] = gain if seat in tenpai else -loss
    return changes
