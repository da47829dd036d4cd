"""The federation results file: one row per player, as federations (e.g. the European Mahjong
Association) rank players from. Pure core (no Django): the adapter that builds the rows from the
public standings is :mod:`scoring.reports.federation_rows` (docs/scoring.md, "The federation
results file").

No federation publishes a specification, so the file is ours, written and read here. CSV text,
UTF-8, comma separated, quoted where needed (``"``, doubled inside), lines ending in CR LF
(RFC 4180); a header row of fixed English column names, then one row per player:

========  ==================================================================================
column    value
========  ==================================================================================
place     the player's place, a whole number from 1 (shared when tied)
name      the player's name
country   ISO 3166-1 alpha-3 code in capitals (``JPN``, ``CHN``, ``FRA``), or blank
score     converted points (MP) as the event's standings give them, a signed whole number
sets      sets played, a whole number from 0
team      the player's team (blank in an individual event)
venue     the player's venue (blank when the event has one place)
========  ==================================================================================

Formula injection (OWASP "CSV Injection"): a text cell (name, team, venue) beginning with ``=``,
``+``, ``-``, ``@``, a tab or a carriage return gets a leading apostrophe, as the standings CSV
does (:data:`FORMULA_STARTS`, the same as ``scoring.reports.spreadsheets``). So that the file
reads back exactly, a text beginning with an apostrophe gets one more too, and the reader takes
one leading apostrophe off every text cell that has one.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from dataclasses import dataclass

from tournament.errors import FieldError
from tournament.i18n import gettext as _

#: The header row, in column order (fixed English names, never translated).
COLUMNS: tuple[str, ...] = ("place", "name", "country", "score", "sets", "team", "venue")
#: What a spreadsheet reads as the start of a formula (the standings CSV's list).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_COUNTRY = re.compile(r"[A-Z]{3}")
_WHOLE = re.compile(r"[+-]?[0-9]+")


class FederationFileError(FieldError):
    """A federation results file that cannot be read: ``field`` is ``"federation"``, the message
    names the line, the column and how to fix it."""


@dataclass(frozen=True)
class ResultRow:
    """One player's line of the federation results file: ``place`` (1-based, shared when tied),
    ``name``, ``country`` (ISO 3166-1 alpha-3 or blank), ``score`` (converted points, as the
    standings give them), ``sets`` played, ``team`` (blank in an individual event) and ``venue``
    (blank when the event has one place)."""

    place: int
    name: str
    country: str
    score: int
    sets: int
    team: str = ""
    venue: str = ""


def _safe(text: str) -> str:
    """``text`` as a cell no spreadsheet reads as a formula, and that :func:`_unsafe` gives back."""
    return "'" + text if text.startswith((*FORMULA_STARTS, "'")) else text


def _unsafe(cell: str) -> str:
    return cell[1:] if cell.startswith("'") else cell


def write_results(rows: Iterable[ResultRow]) -> str:
    """``rows`` as the federation results file's text (the module's columns, header first)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for row in rows:
        writer.writerow([row.place, _safe(row.name), row.country, row.score, row.sets, _safe(row.team),
                         _safe(row.venue)])
    return buffer.getvalue()


def _error(line: int, column: str, problem: str) -> FederationFileError:
    return FederationFileError("federation", _("line %(line)s, column '%(column)s': %(problem)s")
                               % {"line": line, "column": column, "problem": problem})


def _whole(line: int, column: str, cell: str, minimum: int | None) -> int:
    if not _WHOLE.fullmatch(cell):
        raise _error(line, column, _("'%(cell)s' is not a whole number: write digits only, e.g. 12 or -7")
                     % {"cell": cell})
    value = int(cell)
    if minimum is not None and value < minimum:
        raise _error(line, column, _("%(value)s is below %(minimum)s: write %(minimum)s or more")
                     % {"value": value, "minimum": minimum})
    return value


def _row(line: int, cells: list[str]) -> list[ResultRow]:
    """The row of a record's ``cells`` starting on ``line``; none for an empty line."""
    if not cells:
        return []
    if len(cells) != len(COLUMNS):
        column = COLUMNS[min(len(cells), len(COLUMNS) - 1)]
        raise _error(line, column, _("%(found)s cells, expected %(expected)s: one cell per column of the header")
                     % {"found": len(cells), "expected": len(COLUMNS)})
    cell = dict(zip(COLUMNS, cells, strict=True))
    if cell["country"] and not _COUNTRY.fullmatch(cell["country"]):
        raise _error(line, "country", _("'%(cell)s' is not an ISO 3166 alpha-3 code: write three capital letters "
                                        "(JPN, CHN, FRA) or leave it blank") % {"cell": cell["country"]})
    return [ResultRow(place=_whole(line, "place", cell["place"], 1), name=_unsafe(cell["name"]),
                      country=cell["country"], score=_whole(line, "score", cell["score"], None),
                      sets=_whole(line, "sets", cell["sets"], 0), team=_unsafe(cell["team"]),
                      venue=_unsafe(cell["venue"]))]


def read_results(text: str) -> list[ResultRow]:
    """The rows of a federation results file's ``text`` (as :func:`write_results` writes it; a
    leading byte-order mark is ignored). Raises :class:`FederationFileError` naming the line, the
    column and the fix: a header that is not the module's columns, a line with too few or too many
    cells, a place, score or sets that is not a whole number (place from 1, sets from 0), a
    country that is not three capital letters."""
    reader = csv.reader(io.StringIO(text.removeprefix("\ufeff"), newline=""), strict=True)
    rows: list[ResultRow] = []
    line = 1  # the physical line a record starts on (a quoted cell may hold a line break)
    try:
        header = next(reader, [])
        if tuple(header) != COLUMNS:
            wrong = next(i for i in range(len(COLUMNS) + 1) if i >= len(header) or i >= len(COLUMNS)
                         or header[i] != COLUMNS[i])
            raise _error(1, COLUMNS[min(wrong, len(COLUMNS) - 1)],
                         _("the header must be %(columns)s, found '%(found)s': write that header row as the first "
                           "line") % {"columns": ",".join(COLUMNS), "found": ",".join(header)})
        line = reader.line_num + 1
        for cells in reader:
            rows.extend(_row(line, cells))
            line = reader.line_num + 1
    except csv.Error as exc:
        raise _error(line, COLUMNS[0], _("the CSV cannot be read (%(error)s): save it again as CSV UTF-8")
                     % {"error": exc}) from None
    return rows
