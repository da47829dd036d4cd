"""Running totals and the line chart of them, drawn as an inline SVG from geometry computed on
the server (no script). ``public`` (the default): only released sets count
(:mod:`scoring.visibility`)."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable

from scoring.models import SetScore
from scoring.reports.standing_rows import cached_score_state, entrant_field, entrants, sit_outs
from tournament.cache import Kept, cached
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


#: each event's per-set gains this process keeps, ``{(uid, pk, public): (state, {(session, set_no):
#: {entrant: points}}, {entrant: [points, sets played]})}``: after a release only that set's rows
#: are read (:func:`_gains`)
_GAINS: Kept[tuple[dict, dict, dict]] = Kept(16)


def _gains(event: Event, public: bool) -> tuple[list[tuple[int, int]], dict, dict]:
    """``(sets, gains, totals)``: the scored sets ``[(session, set_no)]`` in order (released only
    if ``public``), ``{set: {entrant: points}}`` and ``{entrant: (points, sets played)}``, kept in
    this process and brought up to date by the score state
    (:func:`~scoring.reports.standing_rows.cached_score_state`): the
    sets whose state changed are read again (one query), the others kept. Copies: the caller
    may keep them."""
    state = cached_score_state(event, public=public)
    field = entrant_field(event)
    with _GAINS.lock:
        kept, gains, totals = _GAINS.get((event.uid, event.pk, public)) or ({}, {}, {})
        changed = {k for k, v in state.items() if kept.get(k) != v} | {k for k in kept if k not in state}
        if changed:  # on copies: a failed read leaves the kept ones as they were
            gains, totals = dict(gains), {k: list(v) for k, v in totals.items()}
            for key in changed:
                for entrant, points in gains.pop(key, {}).items():
                    totals[entrant][0] -= points
                    totals[entrant][1] -= 1
                    if not totals[entrant][1]:
                        del totals[entrant]
            fresh: dict[tuple[int, int], dict] = defaultdict(dict)
            rows = SetScore.objects.filter(event=event, session_number__in={k[0] for k in changed if k in state},
                                           set_no__in={k[1] for k in changed if k in state})
            for session, set_no, entrant, points in rows.values_list("session_number", "set_no", field, "points"):
                if (session, set_no) in changed and (session, set_no) in state:
                    fresh[(session, set_no)][entrant] = fresh[(session, set_no)].get(entrant, 0) + points
            for key, found in fresh.items():
                gains[key] = found
                for entrant, points in found.items():
                    total = totals.setdefault(entrant, [0, 0])
                    total[0] += points
                    total[1] += 1
            _GAINS.put((event.uid, event.pk, public), (state, gains, totals))
        sets = sorted(k for k in gains if gains[k])
        return sets, {k: gains[k] for k in sets}, {k: tuple(v) for k, v in totals.items()}


def _ordered(event: Event, public: bool, wanted: Callable[[list[int]], set] | None = None) -> dict:
    """:func:`running_totals`; ``wanted``: given every entrant's key in the series' order, the keys
    whose values to compute (None: all): the others are left out of ``series`` and counted in
    ``entrants``. The order comes from each entrant's final total alone, so a chart of a few
    lines costs those lines and a sort of the entrants, not every entrant's every set."""
    sets, gains, totals = _gains(event, public)
    listed = list(entrants(event).values_list("pk", "name", "number"))
    away = sit_outs(event, [pk for pk, _n, _m in listed]) if event.entrant_policy == Event.EntrantPolicy.SIT_OUT_AVERAGE else {}
    per_session = Counter(session for session, _ in sets)
    final = {}
    for pk, _name, _number in listed:
        if pk in totals:
            points, played = totals[pk]
            sat_out = sum(n for session, n in per_session.items() if pk in away.get(session, ()))
            final[pk] = points + sit_out_credit(points, played, sat_out)
    order = sorted((row for row in listed if row[0] in final), key=lambda row: (-final[row[0]], row[1]))
    keys = [pk for pk, _n, _m in order]
    chosen = set(keys) if wanted is None else wanted(keys)
    series = []
    for pk, name, number in order:
        if pk not in chosen:
            continue
        values, total, sets_played, sat_out = [], 0, 0, 0
        for key in sets:
            gain = gains[key].get(pk)
            if gain is not None:
                total += gain
                sets_played += 1
            sat_out += pk in away.get(key[0], ())
            values.append(total + sit_out_credit(total, sets_played, sat_out))
        series.append({"key": pk, "name": name, "number": number, "values": values})
    return {"sets": sets, "series": series, "entrants": len(keys)}


def _running_totals(event: Event, public: bool) -> dict:
    totals = _ordered(event, public)
    return {"sets": totals["sets"], "series": totals["series"]}


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
    totals = _ordered(event, public, lambda keys: set(keys[:top]) | ({highlight} & set(keys[top:])))
    if not totals["sets"]:
        return None
    series = totals["series"]  # the top ones in order, then the highlighted one wherever it stands
    labels = [f"{session}-{set_no}" for session, set_no in totals["sets"]]
    chart = line_chart(labels, series, highlight=highlight)
    chart["shown"], chart["entrants"] = len(series), totals["entrants"]
    return chart
