"""What the team and player pages read from their own rows (``_member_rows``, the chart's chosen
lines) checked against the whole-event values they used to be cut from: the same rows, the same
chart. Called by the tests of events with substitutes, sit-outs and individual play."""

from __future__ import annotations

from scoring import reports
from scoring.reports.chart import line_chart
from scoring.reports.entrant_reports import _member_rows
from tournament.cache import forget_kept
from tournament.models import Event


def _unranked(rows: list[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if k not in ("rank", "tied")} for r in rows]


def _whole_chart(event: Event, public: bool, highlight, top: int = reports.CHART_TOP) -> dict | None:
    """The chart as it was drawn from every entrant's running totals."""
    totals = reports.running_totals(event, public=public)
    if not totals["sets"]:
        return None
    series = totals["series"]
    if len(series) > top:
        series = series[:top] + [s for s in series[top:] if s["key"] == highlight]
    chart = line_chart([f"{a}-{b}" for a, b in totals["sets"]], series, highlight=highlight)
    chart["shown"], chart["entrants"] = len(series), len(totals["series"])
    return chart


def assert_entrant_pages_match(event: Event, *, top: int = reports.CHART_TOP) -> None:
    """Every team's and player's page data, public and director's scope, equal what the
    whole-event per-player standings and running totals give (kept memory dropped first, and
    again read from what is kept)."""
    for fresh in (True, False):
        if fresh:
            forget_kept()
        for public in (True, False):
            if event.method == Event.Method.TEAM:
                for team in event.teams.all():
                    members = list(team.players.select_related("team").order_by("number"))
                    assert _member_rows(event, public, members) == _unranked(
                        reports.player_standings(event, public=public, team_number=team.number)), team
            for player in event.players.select_related("team"):
                assert _member_rows(event, public, [player]) == _unranked(
                    reports.player_standings(event, public=public, player=player.pk)), player
            keys = [e.pk for e in (event.teams.all() if event.method == Event.Method.TEAM else event.players.all())]
            for key in [None, *keys]:
                assert reports.event_chart(event, public=public, highlight=key, top=top) == \
                    _whole_chart(event, public, key, top), key
