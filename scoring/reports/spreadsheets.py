"""Standings exports: CSV and XLSX.

Every text cell is neutralised against formula injection (OWASP "CSV Injection"): in CSV a text
that a spreadsheet would read as a formula gets a leading apostrophe (:func:`spreadsheet_text`);
in XLSX text is stored as text, never as a formula (:func:`_xlsx_row`).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable

from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.styles import Font

from scoring.federation import FORMULA_STARTS  # the one list of what a spreadsheet reads as a formula
from scoring.reports.standing_rows import cached_standings
from scoring.reports.entrant_reports import player_standings
from tournament.models import Event


def spreadsheet_text(value):
    """``value`` safe for a CSV cell: text that a spreadsheet would read as a formula (beginning
    with ``=``, ``+``, ``-``, ``@``, tab or carriage return) gets a leading apostrophe, as OWASP's
    "CSV Injection" advice says; numbers and other text are returned unchanged."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def _xlsx_row(sheet, values: Iterable) -> None:
    """Append ``values`` to an openpyxl ``sheet``, text stored as text (never a formula)."""
    sheet.append(list(values))
    for cell in sheet[sheet.max_row]:
        if isinstance(cell.value, str):
            cell.data_type = "s"


def _standing_columns(event: Event) -> list[str]:
    entrant = _("Team") if event.method == Event.Method.TEAM else _("Player")
    return [_("Rank"), entrant, _("Points"), _("Score total"), _("Sets"), _("Positive sets"), _("Tied"), _("Substitute"),
            _("Sets sat out"), _("Sit-out points"), _("Adjustment (MP)"), _("Adjustment (score points)"), _("Adjustments")]


def adjustment_words(row: dict) -> str:
    """The adjustments of a standings row in words, one after another: "-5 MP, session 1: late
    arrival; +100 points (+3 MP): scoring error"."""
    parts = []
    for a in row.get("adjustments", []):
        if a["unit"] == "points":
            text = _("%(amount)s points (%(mp)s MP)") % {"amount": f"{a['amount']:+d}", "mp": f"{a['mp']:+d}"}
        else:
            text = _("%(mp)s MP") % {"mp": f"{a['mp']:+d}"}
        if a["session"]:
            text += ", " + _("session %(session)s") % {"session": a["session"]}
        parts.append(f"{text}: {a['reason']}")
    return "; ".join(parts)


def _standing_values(row: dict) -> list:
    return [row["rank"], row["name"], row["points"], row["score_total"], row["sets_played"], row["positive_sets"],
            "=" if row["tied"] else "", _("yes") if row["substitute"] else "", row["sit_out_sets"], row["sit_out_points"],
            row["adjustment_points"], row["adjustment_score"], adjustment_words(row)]


def standings_csv(event: Event, session_number: int | None = None, *, public: bool = True) -> str:
    """The standings (:func:`cached_standings`, ``public`` as there) as CSV text: rank, entrant,
    points (converted, the sit-out credit included), score total (points), sets, positive sets,
    tied (``'=``), substitute (``yes``: listed, never ranked), sets sat out, sit-out points (the
    credit of the sit-out-average policy), adjustment (MP, already in points), adjustment (score
    points, already in the score total), adjustments (each in words with its reason:
    :func:`adjustment_words`); unranked rows (substitutes, entrants with no scored
    set) have an empty rank. Text cells pass through :func:`spreadsheet_text`."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(_standing_columns(event))
    for row in cached_standings(event, session_number, public=public):
        writer.writerow([spreadsheet_text("" if v is None else v) for v in _standing_values(row)])
    return buffer.getvalue()


def standings_xlsx(event: Event, session_number: int | None = None, *, public: bool = True) -> bytes:
    """The standings as an XLSX workbook (openpyxl): sheet "Standings" with the columns of
    :func:`standings_csv`; in a team event also sheet "Players" (:func:`player_standings`, the
    same substitute and sit-out columns); ``public`` as in
    :func:`cached_standings`. Names and every other text are stored as text, never as a formula.
    Returns the file's bytes."""
    book = Workbook()
    sheet = book.active
    sheet.title = _("Standings")[:31]
    _xlsx_row(sheet, _standing_columns(event))
    for row in cached_standings(event, session_number, public=public):
        _xlsx_row(sheet, _standing_values(row))
    if event.method == Event.Method.TEAM:
        players = book.create_sheet(_("Players")[:31])
        _xlsx_row(players, [_("Rank"), _("Player"), _("Team"), _("Seat comparison points"), _("Score total"), _("Sets"),
                            _("Positive sets"), _("Substitute"), _("Sets sat out"), _("Sit-out points")])
        for row in player_standings(event, public=public):
            _xlsx_row(players, [row["rank"], row["name"], row["team"], row["points"], row["score_total"],
                                row["sets_played"], row["positive_sets"], _("yes") if row["substitute"] else "",
                                row["sit_out_sets"], row["sit_out_points"]])
    for ws in book.worksheets:
        for cell in ws[1]:
            cell.font = Font(bold=True)
        ws.freeze_panes = "A2"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
