"""Running totals and the line chart of them, drawn as an inline SVG from geometry computed on
the server (no script). ``public`` (the default): only released sets count
(:mod:`scoring.visibility`)."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Hashable

from scoring.reports.standing_rows import entrant_field, entrants, set_scores, sit_outs
from tournament.cache import cached
from scoring.standings import sit_out_credit
from tournament.models import Event

CHART_TOP = 16
CHART_COLOURS = (
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf", "#393b79", "#843c39", "#637939", "#b5cf6b", "#7b4173", "#3182bd",
)


def running_totals(event: Event, *, public: bool = True) -> dict:
    """Each entrant's running total of converted points after each set, in set order:
    ``{"sets": [(session, set_no), ...], "series": [{"key", "name", "number", "values": [points
    after each set]}]}``, series ordered by final total (then name). An entrant with no score on
    a set keeps its total. Under the sit-out-average policy each value is the total the
    standings would show after that set: the points so far plus the sit-out credit
    (:func:`scoring.standings.sit_out_credit`) of the sets sat out so far at the average so far,
    so the last value equals the standings' points. ``public``: only sets finished everywhere.
    Computed once per content version (:func:`~tournament.cache.cached`)."""
    return cached(event, f"running:{int(public)}", lambda: _running_totals(event, public), public=public)


def _running_totals(event: Event, public: bool) -> dict:
    scores = set_scores(event, public)
    field = entrant_field(event)
    sets = sorted({(s["session_number"], s["set_no"]) for s in scores})
    index = {key: i for i, key in enumerate(sets)}
    gains: dict[int, list[int]] = defaultdict(lambda: [0] * len(sets))
    played: dict[int, list[bool]] = defaultdict(lambda: [False] * len(sets))
    for s in scores:
        at = index[(s["session_number"], s["set_no"])]
        gains[s[field]][at] += s["points"]
        played[s[field]][at] = True
    listed = list(entrants(event))
    away = sit_outs(event, [e.pk for e in listed]) if event.entrant_policy == Event.EntrantPolicy.SIT_OUT_AVERAGE else {}
    series = []
    for entrant in listed:
        if entrant.pk not in gains:
            continue
        values, total, sets_played, sat_out = [], 0, 0, 0
        for (session, _), gain, was_there in zip(sets, gains[entrant.pk], played[entrant.pk]):
            total += gain
            sets_played += was_there
            sat_out += entrant.pk in away.get(session, ())
            values.append(total + sit_out_credit(total, sets_played, sat_out))
        series.append({"key": entrant.pk, "name": entrant.name, "number": entrant.number, "values": values})
    series.sort(key=lambda s: (-s["values"][-1], s["name"]))
    return {"sets": sets, "series": series}


def _nice_step(span: float, ticks: int = 6) -> float:
    raw = max(span, 1) / ticks
    magnitude = 10 ** math.floor(math.log10(raw))
    return next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)


def line_chart(labels: list[str], series: list[dict], *, width: int = 760, height: int = 380,
               highlight: Hashable | None = None) -> dict:
    """Geometry of a line chart for an inline SVG, computed on the server (no script).

    ``labels``: one per x position; ``series``: ``[{"key", "name", "values"}]`` with one value
    per label. Returns ``{"width", "height", "plot": {"left", "top", "right", "bottom"},
    "x_ticks": [{"x", "label"}], "y_ticks": [{"y", "label"}], "zero_y", "lines": [{"key",
    "name", "colour", "points" ("x,y x,y ..."), "last_x", "last_y", "last", "highlight"}]}``.
    Colours cycle through :data:`CHART_COLOURS`. Raises ValueError when a series has not one
    value per label.
    """
    left, right, top, bottom = 48, width - 16, 16, height - 40
    values = [v for s in series for v in s["values"]]
    for s in series:
        if len(s["values"]) != len(labels):
            raise ValueError(f"series {s['name']!r} has {len(s['values'])} values for {len(labels)} sets")
    low, high = min(values + [0]), max(values + [0])
    step = _nice_step(high - low)
    low, high = step * math.floor(low / step), step * math.ceil(high / step)
    if high == low:
        high = low + step

    def x_of(i: int) -> float:
        return left + (right - left) * (i + 1) / max(len(labels), 1)

    def y_of(v: float) -> float:
        return bottom - (bottom - top) * (v - low) / (high - low)

    every = max(1, math.ceil(len(labels) / 16))
    x_ticks = [{"x": round(x_of(i), 1), "label": label} for i, label in enumerate(labels) if i % every == every - 1 or i == 0]
    y_ticks = []
    tick = low
    while tick <= high + step / 2:
        y_ticks.append({"y": round(y_of(tick), 1), "label": f"{tick:g}"})
        tick += step
    lines = []
    for i, s in enumerate(series):
        points = [(left, y_of(0))] + [(x_of(j), y_of(v)) for j, v in enumerate(s["values"])]
        lines.append({"key": s["key"], "name": s["name"], "colour": CHART_COLOURS[i % len(CHART_COLOURS)],
                      "points": " ".join(f"{x:.1f},{y:.1f}" for x, y in points),
                      "last_x": round(points[-1][0], 1), "last_y": round(points[-1][1], 1),
                      "last": s["values"][-1] if s["values"] else 0, "highlight": s["key"] == highlight})
    return {"width": width, "height": height, "plot": {"left": left, "top": top, "right": right, "bottom": bottom},
            "x_ticks": x_ticks, "y_ticks": y_ticks, "zero_y": round(y_of(0), 1), "lines": lines}


def event_chart(event: Event, *, public: bool = True, highlight: Hashable | None = None, top: int = CHART_TOP) -> dict | None:
    """The chart of each entrant's running total by set (:func:`running_totals`, :func:`line_chart`),
    or None before any set is scored. With more than ``top`` entrants (individual events) the
    ``top`` leaders are drawn, plus ``highlight`` wherever it stands. Cached per content version,
    scope and highlight."""
    return cached(event, f"chart:{int(public)}:{highlight}:{top}",
                  lambda: {"chart": _event_chart(event, public, highlight, top)}, public=public)["chart"]


def _event_chart(event: Event, public: bool, highlight: Hashable | None, top: int) -> dict | None:
    totals = running_totals(event, public=public)
    if not totals["sets"]:
        return None
    series = totals["series"]
    if len(series) > top:
        series = series[:top] + [s for s in series[top:] if s["key"] == highlight]
    labels = [f"{session}-{set_no}" for session, set_no in totals["sets"]]
    chart = line_chart(labels, series, highlight=highlight)
    chart["shown"], chart["entrants"] = len(series), len(totals["series"])
    return chart
