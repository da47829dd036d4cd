"""Read side of scoring: standings (cached and uncached), travellers with their hand record,
per-player standings and the team and player pages, running totals for the chart, and the
standings exports (CSV, XLSX).

Nothing here writes results or converted scores: those come from :mod:`scoring.actions`
(``rescore_set`` stores one :class:`~scoring.models.SetScore` row per entrant per set and
comparison). Converted scores, stored or shown, are computed by one function,
:func:`scoring.comparisons.converted_scores`; the arithmetic is :mod:`scoring.standings`.

**What is public** is decided by :mod:`scoring.visibility` alone: a set counts in anything
public (travellers, standings, a team's or player's set-by-set results, the per-player
comparison, the chart, the exports) once it is *released*: every table of its session, in every
group, has a confirmed result on it. Until then a set's results, or a swing in the standings,
would tell players who have not played it yet what its wall holds. ``public=False`` (the
event's director and staff) counts every comparison already scored.

Modules by concern: :mod:`~scoring.reports.standing_rows` (score state, standings rows, ranking
rules; values are kept in :mod:`tournament.cache`),
:mod:`~scoring.reports.scopes` (complete comparisons of an event or an export),
:mod:`~scoring.reports.entrant_reports` (per-player standings, team and player pages),
:mod:`~scoring.reports.travellers`, :mod:`~scoring.reports.chart` and
:mod:`~scoring.reports.spreadsheets`, :mod:`~scoring.reports.federation_rows` (the federation results file). The names below are the package's public interface.
"""

from scoring.comparisons import TableSeats, complete_scopes, seat_comparisons, team_comparisons
from scoring.reports.standing_rows import cached_standings, conversion_in_use, event_standings, ranking_rules
from scoring.reports.chart import CHART_TOP, event_chart, line_chart, running_totals
from scoring.reports.federation_rows import federation_csv, federation_rows
from scoring.reports.entrant_reports import player_report, player_standings, team_report
from scoring.reports.scopes import export_scopes
from scoring.reports.spreadsheets import spreadsheet_text, standings_csv, standings_xlsx
from scoring.reports.travellers import hand_record, traveller_index, traveller_report

__all__ = [
    "CHART_TOP", "TableSeats", "cached_standings", "complete_scopes", "conversion_in_use", "event_chart",
    "event_standings", "export_scopes", "federation_csv", "federation_rows", "hand_record", "line_chart", "player_report", "player_standings",
    "ranking_rules", "running_totals", "seat_comparisons", "spreadsheet_text", "standings_csv", "standings_xlsx",
    "team_comparisons", "team_report", "traveller_index", "traveller_report",
]
