"""Conversion tables: a score difference (points) → converted points (IMP/MP), sign kept.

A table is a list of steps ``(min_difference, points)``: a difference whose absolute value is at
least ``min_difference`` (and below the next step's) converts to ``points``; a negative
difference converts to the negative of the same points, as bridge IMPs do. The editable form is
a list of rows ``from, to, points`` (the last row has an empty ``to``: it covers every larger
difference), stored as JSON and exchanged as CSV with the header ``from,to,points``.

Presets (:data:`PRESETS`):

- ``wbf-imp``: the WBF IMP table (0 to 24 IMPs), written as whole-number ranges without gaps.
- ``mcr-mp``: the duplicate-MCR MP table built the way docs/rules.md, "Duplicate MCR: conversion table" describes the MIL table (its
  numbers were lost from the seed, so the steps here are ours; each has its rationale below).
- ``riichi-imp``, ``souzu-imp``, ``shiragiku-imp``, ``shield-imp``, ``yangzhou-imp``: one per rule
  family, the WBF IMP table refitted to simulated play of the family in its score unit
  (:func:`scoring.fitting.simulated_table`); :func:`family_preset` gives a new event its family's.

Standalone: no Django import (error messages are translated through :mod:`tournament.i18n` when
Django runs). See docs/scoring.md.
"""

from __future__ import annotations

import csv
import io
import math
import re
from bisect import bisect_right
from dataclasses import dataclass, field
from collections.abc import Callable, Iterable, Mapping
from typing import Any, cast

from tournament.i18n import gettext as _
from tournament.i18n import gettext_noop

CSV_HEADER = ("from", "to", "points")


class ConversionTableError(ValueError):
    """A conversion table that cannot be used.

    ``row`` is the 1-based row number (first row after the CSV header = row 1) or None when the
    problem is not in one row; ``field`` names the column or part (``from``, ``to``, ``points``,
    ``header``, ``rows``, ``code``...). The message says what is wrong and how to fix it.
    """

    def __init__(self, row: int | None, field: str, message: str):
        super().__init__(message)
        self.row = row
        self.field = field


@dataclass(frozen=True)
class Step:
    """One step: a difference with ``abs(difference) >= min_difference`` earns ``points``.

    Both are whole numbers: ``min_difference`` in the rule set's points, ``points`` converted.
    """

    min_difference: int
    points: int


def _row_label(row: int) -> str:
    return _("row %(row)s") % {"row": row}


def _whole(value: Any, row: int, name: str, label: Callable[[int], str], strict: bool = False) -> int:
    """Read a whole, non-negative number from a row cell (int, or text from a CSV or a whole
    float from JSON unless ``strict``)."""
    if isinstance(value, bool):
        number = None
    elif isinstance(value, int):
        number = value
    elif strict:
        number = None
    elif isinstance(value, float) and value.is_integer():
        number = int(value)
    elif isinstance(value, str) and re.fullmatch(r"[+-]?[0-9]+", value.strip()):
        number = int(value.strip())
    else:
        number = None
    if number is None:
        raise ConversionTableError(row, name, _("%(where)s: '%(field)s' must be a whole number, got %(value)s; "
                                                "type it without decimals or units")
                                   % {"where": label(row), "field": name, "value": repr(value)})
    if number < 0:
        raise ConversionTableError(row, name, _("%(where)s: '%(field)s' must not be negative, got %(value)s; "
                                                "differences are looked up by absolute value, so give the size only")
                                   % {"where": label(row), "field": name, "value": number})
    return number


def _empty(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


@dataclass(frozen=True)
class ConversionTable:
    """A conversion table: ``name``, ``steps`` (ascending), ``source`` (where it comes from) and
    ``version`` (raised on every edit so stored scores can name the table they used).

    Construction validates the steps (see :meth:`validate`); raises ConversionTableError.
    """

    name: str
    steps: tuple[Step, ...]
    source: str = ""
    version: int = 1
    _thresholds: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _points: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "steps", tuple(self.steps))
        self.validate()
        object.__setattr__(self, "_thresholds", tuple(s.min_difference for s in self.steps))
        object.__setattr__(self, "_points", tuple(s.points for s in self.steps))

    def validate(self) -> None:
        """Check the steps; raises ConversionTableError naming the row (step 1 = row 1) and the fix.

        Rules: at least one step; every value a whole number, not negative; the first step starts
        at 0 and gives 0 points (an equal result scores nothing, so that ``convert`` is odd);
        thresholds strictly increase (an equal threshold would be an overlap); points never
        decrease as the difference grows; ``version`` is 1 or more.
        """
        if isinstance(self.version, bool) or not isinstance(self.version, int) or self.version < 1:
            raise ConversionTableError(None, "version", _("version must be a whole number from 1, got %(value)s")
                                       % {"value": repr(self.version)})
        if not self.steps:
            raise ConversionTableError(None, "rows", _("the table has no rows: add at least the row 0,,0"))
        previous: Step | None = None
        for row, step in enumerate(self.steps, start=1):
            if not isinstance(step, Step):
                raise ConversionTableError(row, "rows", _("%(where)s: expected a Step(min_difference, points), got %(value)s")
                                           % {"where": _row_label(row), "value": repr(step)})
            _whole(step.min_difference, row, "from", _row_label, strict=True)
            _whole(step.points, row, "points", _row_label, strict=True)
            if previous is None:
                _check_first(step.min_difference, step.points, _row_label)
            else:
                if step.min_difference <= previous.min_difference:
                    raise ConversionTableError(
                        row, "from", _("%(where)s: 'from' %(start)s is not above %(previous)s's %(previous_start)s; "
                                       "each row must start above the previous one")
                        % {"where": _row_label(row), "start": step.min_difference, "previous": _row_label(row - 1),
                           "previous_start": previous.min_difference})
                _check_points(previous.points, step.points, row, _row_label)
            previous = step

    def convert(self, difference: int | float) -> int:
        """Converted points (signed int) of a score ``difference`` (points vs the datum).

        The absolute difference is looked up without rounding (a fractional difference such as
        19.5 stays below a step at 20); the sign is kept: ``convert(-d) == -convert(d)``.
        Raises ValueError for a value that is not a finite number.
        """
        if isinstance(difference, bool) or not isinstance(difference, (int, float)) or not math.isfinite(difference):
            raise ValueError(f"a score difference must be a finite number, got {difference!r}")
        points = self._points[bisect_right(self._thresholds, abs(difference)) - 1]
        return -points if difference < 0 else points

    @property
    def max_points(self) -> int:
        """The points of the last step: the largest a single comparison can earn."""
        return self.steps[-1].points

    def rows(self) -> list[dict[Any, Any]]:
        """The editable form: ``[{'from': 0, 'to': 19, 'points': 0}, ..., {'from': 4000, 'to': None, 'points': 24}]``."""
        out = []
        for i, step in enumerate(self.steps):
            to = self.steps[i + 1].min_difference - 1 if i + 1 < len(self.steps) else None
            out.append({"from": step.min_difference, "to": to, "points": step.points})
        return out

    @classmethod
    def from_rows(cls, rows: Iterable[Mapping[str, Any]], name: str, source: str = "", version: int = 1) -> ConversionTable:
        """Build a table from rows ``{'from', 'to', 'points'}`` (ints, or text as read from a CSV).

        Raises ConversionTableError naming the row and the fix for: a missing cell, a value that
        is not a whole number or is negative, a first row not starting at 0 or not giving 0
        points, ``to`` below ``from``, a gap or an overlap between consecutive rows, points that
        decrease, an empty ``to`` before the last row, a ``to`` on the last row.
        """
        return _from_rows(list(rows), name, source, version, _row_label)

    def to_csv(self) -> str:
        """The table as CSV text with the header ``from,to,points`` (empty ``to`` on the last row)."""
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(CSV_HEADER)
        for row in self.rows():
            writer.writerow(["" if row[k] is None else row[k] for k in CSV_HEADER])
        return buffer.getvalue()

    @classmethod
    def from_csv(cls, text: str, name: str, source: str = "", version: int = 1) -> ConversionTable:
        """Read CSV text with the header ``from,to,points`` (as written by :meth:`to_csv` or a
        spreadsheet; blank lines are skipped). Errors name the data row and its CSV line."""
        lines = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
        numbered = [(n, cells) for n, cells in enumerate(lines, start=1) if any(c.strip() for c in cells)]
        if not numbered:
            raise ConversionTableError(None, "header", _("the CSV is empty: start with the header from,to,points"))
        header_line, header = numbered[0]
        if tuple(c.strip().lower() for c in header) != CSV_HEADER:
            raise ConversionTableError(None, "header", _("line %(line)s: the header must be from,to,points, got %(header)s")
                                       % {"line": header_line, "header": ",".join(header)})
        line_of = {row: line for row, (line, _cells) in enumerate(numbered[1:], start=1)}

        def label(row: int) -> str:
            return _("row %(row)s (CSV line %(line)s)") % {"row": row, "line": line_of[row]}

        rows = []
        for row, (_line, cells) in enumerate(numbered[1:], start=1):
            if len(cells) != 3:
                raise ConversionTableError(row, "row", _("%(where)s: expected 3 cells from,to,points, got %(cells)s")
                                           % {"where": label(row), "cells": len(cells)})
            rows.append(dict(zip(CSV_HEADER, cells)))
        return _from_rows(rows, name, source, version, label)

    def to_dict(self) -> dict[Any, Any]:
        """JSON-ready form: ``{'name', 'source', 'version', 'rows'}``."""
        return {"name": self.name, "source": self.source, "version": self.version, "rows": self.rows()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ConversionTable:
        """Inverse of :meth:`to_dict`; raises ConversionTableError for a missing ``name`` or ``rows``."""
        for key in ("name", "rows"):
            if key not in data:
                raise ConversionTableError(None, key, _("the table data has no '%(key)s': export it again with to_dict()") % {"key": key})
        return cls.from_rows(data["rows"], name=data["name"], source=data.get("source", ""), version=data.get("version", 1))


def _check_first(start: int, points: int, label: Callable[[int], str]) -> None:
    if start != 0:
        raise ConversionTableError(1, "from", _("%(where)s: 'from' must be 0 (the first row covers the smallest "
                                                "differences), got %(value)s; set it to 0") % {"where": label(1), "value": start})
    if points != 0:
        raise ConversionTableError(1, "points", _("%(where)s: 'points' must be 0 (an equal result scores nothing), "
                                                  "got %(value)s; set it to 0") % {"where": label(1), "value": points})


def _check_points(before: int, points: int, row: int, label: Callable[[int], str]) -> None:
    if points < before:
        raise ConversionTableError(row, "points", _("%(where)s: points %(points)s are fewer than the %(before)s of "
                                                    "%(previous)s; points must not decrease as the difference grows")
                                   % {"where": label(row), "points": points, "before": before, "previous": label(row - 1)})


def _from_rows(rows: list[Any], name: str, source: str, version: int, label: Callable[[int], str]) -> ConversionTable:
    if not rows:
        raise ConversionTableError(None, "rows", _("the table has no rows: add at least the row 0,,0"))
    steps: list[Step] = []
    previous_to: int | None = None
    for row, cells in enumerate(rows, start=1):
        if not isinstance(cells, Mapping):
            raise ConversionTableError(row, "row", _("%(where)s: expected from, to and points, got %(value)s")
                                       % {"where": label(row), "value": repr(cells)})
        for key in CSV_HEADER:
            if key not in cells:
                raise ConversionTableError(row, key, _("%(where)s: the '%(key)s' cell is missing; add it") % {"where": label(row), "key": key})
        last = row == len(rows)
        start = _whole(cells["from"], row, "from", label)
        points = _whole(cells["points"], row, "points", label)
        if _empty(cells["to"]):
            if not last:
                raise ConversionTableError(row, "to", _("%(where)s: 'to' is empty but more rows follow; only the last row is "
                                                        "open-ended, so give the largest difference of this row") % {"where": label(row)})
            end: int | None = None
        else:
            end = _whole(cells["to"], row, "to", label)
            if last:
                raise ConversionTableError(row, "to", _("%(where)s: the last row must leave 'to' empty so it covers every "
                                                        "larger difference; clear it or add a row from %(next)s")
                                           % {"where": label(row), "next": end + 1})
            if end < start:
                raise ConversionTableError(row, "to", _("%(where)s: 'to' %(end)s is below 'from' %(start)s; swap them or fix the typo")
                                           % {"where": label(row), "end": end, "start": start})
        if row == 1:
            _check_first(start, points, label)
        else:
            previous_to = cast(int, previous_to)  # every row but the last has a 'to'
            if start > previous_to + 1:
                raise ConversionTableError(row, "from", _("%(where)s: 'from' is %(start)s but %(previous)s ends at %(end)s, so "
                                                          "differences %(first)s-%(last)s are not covered; set 'from' to %(first)s")
                                           % {"where": label(row), "start": start, "previous": label(row - 1), "end": previous_to,
                                              "first": previous_to + 1, "last": start - 1})
            if start <= previous_to:
                raise ConversionTableError(row, "from", _("%(where)s: 'from' is %(start)s but %(previous)s already covers up "
                                                          "to %(end)s; set 'from' to %(next)s or lower that row's 'to'")
                                           % {"where": label(row), "start": start, "previous": label(row - 1), "end": previous_to,
                                              "next": previous_to + 1})
            _check_points(steps[-1].points, points, row, label)
        steps.append(Step(start, points))
        previous_to = end
    return ConversionTable(name=name, steps=tuple(steps), source=source, version=version)


def _table(name: str, source: str, starts_and_points: list[tuple[int, int]]) -> ConversionTable:
    return ConversionTable(name=name, steps=tuple(Step(d, p) for d, p in starts_and_points), source=source)


# WBF IMP table. Bridge scores are multiples of 10, so the published ranges (0-10, 20-40, 50-80...)
# are written as whole-number ranges that end just below the next step (0-19, 20-49, 50-89...):
# every bridge score falls in the same IMP as in the published table, and no integer is left out.
WBF_IMP = _table(
    gettext_noop("WBF IMP"),
    "World Bridge Federation IMP scale (Laws of Duplicate Bridge, Law 78B), 0-24 IMPs; "
    "published ranges 0-10, 20-40, ... 4000+ written as gap-free whole-number ranges 0-19, 20-49, ...",
    [(0, 0), (20, 1), (50, 2), (90, 3), (130, 4), (170, 5), (220, 6), (270, 7), (320, 8), (370, 9),
     (430, 10), (500, 11), (600, 12), (750, 13), (900, 14), (1100, 15), (1300, 16), (1500, 17),
     (1750, 18), (2000, 19), (2250, 20), (2500, 21), (3000, 22), (3500, 23), (4000, 24)],
)

# Duplicate-MCR MP table, built as docs/rules.md, "Duplicate MCR: conversion table" describes the MIL table (its numbers were lost in
# extraction). MCR payments: a discard win takes 8+fan from the discarder and 8 from each other
# player (winner +fan+24); a self-draw takes 8+fan from each (winner +3*(8+fan)).
#   0-7     0  below one 8-point base payment: a few fan either way is noise (the seed's
#              "smallest difference", below which the comparison is skipped)
#   8-15    1  one base payment: a bystander's 8 on someone else's discard win
#   16-23   2  16 = deal-in of a minimum 8-fan hand (8+8), also each loser's share of an 8-fan
#              self-draw: the most common deal-in, the seed's starting point
#   24-31   3  24 = deal-in of a 16-fan hand; 8-fan deal-in against a bystander's 8
#   32-39   4  32 = discard win of a minimum hand (8+24); deal-in of 24 fan (seven pairs)
#   40-47   5  40 = discard win of 16 fan; deal-in of 32 fan
#   48-55   6  48 = self-draw of a minimum hand (3*16), or an 8-fan win against an 8-fan deal-in
#              on the same seat (32+16)
#   56-63   7  56 = discard win of 32 fan; deal-in of 48 fan
#              (16..64 in steps of 8 are the seed's seven common deal-in multiples)
#   64-87   8  64 = minimum self-draw against paying one (48+16); 72 = self-draw of 16 fan,
#              discard win of 48 fan, deal-in of 64 fan
#   88-111  9  88 = discard win of 64 fan; 96 = deal-in of 88 fan, self-draw of 24 fan
#   112-167 10 112 = discard win of 88 fan; 120 = self-draw of 32 fan
#   168-215 11 168 = self-draw of 48 fan
#   216-302 12 216 = self-draw of 64 fan; 288 = self-draw of 88 fan
#   303+    13 the seed's largest swing: the top 88-fan hand with closed wait (1) and fully
#              concealed self-draw (4), 93 fan self-drawn: 3*(8+93) = 303; larger is capped
MCR_MP = _table(
    gettext_noop("MCR duplicate MP"),
    'docs/rules.md, "Duplicate MCR: conversion table" (Aono, on the MIL duplicate MCR event, Sanya 2015): smallest step ignores tiny '
    "differences, steps at common deal-in values (multiples of 8 from 16 to 64), largest step at the "
    "biggest plausible swing (88 fan + closed wait + fully concealed self-draw = 93 fan, 3x(8+93) = 303); "
    "step values chosen by this project from MCR payments because the seed's numbers were lost",
    [(0, 0), (8, 1), (16, 2), (24, 3), (32, 4), (40, 5), (48, 6), (56, 7), (64, 8), (88, 9),
     (112, 10), (168, 11), (216, 12), (303, 13)],
)

# Family presets (docs/scoring.md, "Conversion presets per rule family"): the WBF IMP table refitted
# by quantile matching (scoring.fitting.fit_table) to simulated duplicate play of each family
# (scoring.fitting.simulated_table: 2,000 sets x 4 tables, seed 2015, half of the tables alike),
# thresholds in the rule set's score unit, differences below the family's smallest step worth 0.
# Reproduced by `python manage.py simulate_conversion` and by tests/test_conversion_presets.py.
_SIMULATED = "docs/scoring.md, \"Conversion presets per rule family\": WBF IMP refitted to simulated duplicate play of "
RIICHI_IMP = _table(gettext_noop("Riichi IMP"), _SIMULATED + "riichi (unit 100, smallest step 1,000: one riichi stick)", [
    (0, 0), (1400, 1), (2000, 2), (2600, 3), (3300, 4), (4100, 5), (4900, 6), (5900, 7), (7000, 8), (8900, 9),
    (11600, 10), (14600, 11), (19200, 12), (24900, 13), (33900, 14), (38600, 15)])
SOUZU_IMP = _table(gettext_noop("Two-player Souzu IMP"), _SIMULATED + "two-player Souzu (unit 1,000, smallest step 2,000: one honba)", [
    (0, 0), (2000, 1), (4000, 2), (6000, 3), (8000, 4), (10000, 5), (12000, 6), (14000, 7), (15000, 8), (17000, 9),
    (20000, 10), (23000, 11), (26000, 12), (32000, 13), (38000, 14), (42000, 15), (46000, 16)])
SHIRAGIKU_IMP = _table(gettext_noop("Shiragiku three-player IMP"), _SIMULATED + "Shiragiku three-player (unit 1, smallest step 2 points)", [
    (0, 0), (2, 1), (3, 2), (4, 3), (5, 4), (6, 5), (7, 6), (8, 7), (9, 8), (10, 9), (12, 10), (14, 11), (16, 12),
    (19, 13), (21, 14), (24, 15)])
SHIELD_IMP = _table(gettext_noop("Shield tile IMP"), _SIMULATED + "shield tile (unit 100, smallest step 1,000: a 1-han hand)", [
    (0, 0), (1000, 1), (1500, 2), (2000, 3), (2600, 4), (3200, 5), (4000, 6), (5000, 7), (6000, 8), (7500, 9),
    (9700, 10), (12400, 11), (16000, 12), (19500, 13), (21600, 14), (23900, 15)])
YANGZHOU_IMP = _table(gettext_noop("Yangzhou IMP"), _SIMULATED + "Yangzhou (unit 1, smallest step 4 fan)", [
    (0, 0), (5, 1), (8, 2), (10, 3), (13, 4), (16, 5), (19, 6), (22, 7), (26, 8), (30, 9), (37, 10), (46, 11),
    (55, 12), (66, 13), (79, 14), (90, 15), (105, 16)])

PRESETS: dict[str, ConversionTable] = {
    "wbf-imp": WBF_IMP, "mcr-mp": MCR_MP, "riichi-imp": RIICHI_IMP, "souzu-imp": SOUZU_IMP,
    "shiragiku-imp": SHIRAGIKU_IMP, "shield-imp": SHIELD_IMP, "yangzhou-imp": YANGZHOU_IMP,
}

FAMILY_PRESETS: dict[str, str] = {
    "mcr": "mcr-mp", "mcr-duplicate-mahjongsoft": "mcr-mp", "riichi": "riichi-imp", "souzu-2p": "souzu-imp",
    "shiragiku-3p": "shiragiku-imp", "shield-tile": "shield-imp", "yangzhou": "yangzhou-imp",
}
"""Payment rule (:data:`scoring.payments.PAYMENT_RULES` code) → the preset a new event of that
family converts with unless the director chooses another (:func:`family_preset`)."""


def family_preset(payment_rule: str) -> str:
    """The preset code a new event paid by ``payment_rule`` converts with: its family's
    (:data:`FAMILY_PRESETS`; a variant such as ``souzu-2p-honba-whole`` takes the family whose
    code it starts with), else ``wbf-imp`` (typed changes, a custom rule)."""
    if payment_rule in FAMILY_PRESETS:
        return FAMILY_PRESETS[payment_rule]
    family = max((code for code in FAMILY_PRESETS if payment_rule.startswith(code + "-")), key=len, default=None)
    return FAMILY_PRESETS[family] if family else "wbf-imp"


def get_table(code: str) -> ConversionTable:
    """The preset table with this code; raises ConversionTableError (field ``code``) listing the codes."""
    try:
        return PRESETS[code]
    except KeyError:
        raise ConversionTableError(None, "code", _("unknown conversion table %(code)s: choose one of %(codes)s")
                                   % {"code": repr(code), "codes": ", ".join(PRESETS)}) from None
