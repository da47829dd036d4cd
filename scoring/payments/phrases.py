"""Translatable pieces of the payment rules' sentences: a hand's value in its rule's unit, a
list of seats. Each is one whole template with ``%(name)s`` placeholders, so a language may
reorder it (ja, zh_Hans); the sentences of :func:`scoring.payments.describe` and the rules'
messages are built from them.

Standalone: no Django import; translated through :mod:`tournament.i18n`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tournament.i18n import gettext as _
from tournament.i18n import seat_label, seat_name


def join_words(words: Sequence[str]) -> str:
    """``["East"]`` → ``"East"``; ``["East", "West"]`` → ``"East and West"``; three or more:
    ``"East, South and West"`` (each language's own "and")."""
    words = list(words)
    if not words:
        return ""
    if len(words) == 1:
        return words[0]
    return _("%(first)s and %(last)s") % {"first": _(", ").join(words[:-1]), "last": words[-1]}


def seat_names(seats: Sequence[str]) -> str:
    """The seats as words joined with "and": ``("E", "W")`` → ``"East and West"``."""
    return join_words([seat_name(seat) for seat in seats])


def seat_labels(seats: Sequence[str]) -> str:
    """The seats' short labels joined with commas: ``("E", "S")`` → ``"E, S"`` (ja ``"東, 南"``)."""
    return _(", ").join(seat_label(seat) for seat in seats)


def yakuman_words(count: int) -> str:
    """``1`` → ``"yakuman"``, ``2`` → ``"double yakuman"``, ``3`` → ``"triple yakuman"``, more →
    ``"4× yakuman"``."""
    if count == 1:
        return _("yakuman")
    if count == 2:
        return _("double yakuman")
    if count == 3:
        return _("triple yakuman")
    return _("%(count)s× yakuman") % {"count": count}


def value_words(unit: str, value: int, fu: int = 0, yakuman: int = 0) -> str:
    """One winner's hand value in words: ``"24 fan"``, ``"3 han"``, ``"3 han 30 fu"``, or the
    yakuman words when ``yakuman`` ≥ 1 (the han and fu then do not count)."""
    if yakuman:
        return yakuman_words(yakuman)
    if unit == "han":
        if fu:
            return _("%(han)s han %(fu)s fu") % {"han": value, "fu": fu}
        return _("%(han)s han") % {"han": value}
    return _("%(fan)s fan") % {"fan": value}


def win_words(win: Mapping[str, Any], unit: str) -> str:
    """The value of a par win (:meth:`scoring.par.SetPar.as_dict`'s ``{"value", "fu", "yakuman"}``)
    in words, :func:`value_words` (``"25 fan"``, ``"3 han 30 fu"``, ``"double yakuman"``: a
    yakuman's han never shows); empty without a value (the shape-only analysis)."""
    if win.get("value") is None:
        return ""
    return value_words(unit, win["value"], win.get("fu") or 0, win.get("yakuman") or 0)


def values_words(unit: str, values: Sequence[int], fu: Sequence[int] = (), yakuman: Sequence[int] = ()) -> str:
    """The values of several winners: ``"8 and 12 fan"`` when they are plain numbers of one
    unit, else each value in words joined with "and" (``"3 han 30 fu and yakuman"``)."""
    fu = tuple(fu) or (0,) * len(values)
    yakuman = tuple(yakuman) or (0,) * len(values)
    if len(values) > 1 and not any(fu) and not any(yakuman):
        numbers = join_words([str(value) for value in values])
        if unit == "han":
            return _("%(han)s han") % {"han": numbers}
        return _("%(fan)s fan") % {"fan": numbers}
    return join_words([value_words(unit, v, f, y) for v, f, y in zip(values, fu, yakuman)])
