"""The tests' independent recomputations: each function re-implements one documented rule from
its source (docs/scoring.md, docs/seating.md, docs/export.md, seed 001, the WBF IMP table,
MahjongSoft's published examples) in plain Python, so a test can check what the product computed
against a second, separately written answer.

Nothing here imports the product (no ``scoring``, ``tournament`` or ``walls`` module, no Django):
a wrong rule in the product cannot hide by being shared with the test that checks it. The
functions take plain values (numbers, dicts, an export's JSON) and are written for clarity, not
speed.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence


def convert(rows: Sequence[Mapping], difference: float) -> int:
    """Points of a score ``difference`` under a conversion table given as its ``rows``
    (``[{"from": 0, "points": 0}, ...]``; ``to`` is not read): the row covering
    ``|difference|`` is the last whose ``from`` is at most it, and the points keep the
    difference's sign (docs/scoring.md, "Conversion tables"; the presets' rows come from the WBF
    IMP scale, Law 78B, and the seed-001-based ``mcr-mp`` steps). Raises ValueError when no row
    starts at or below ``|difference|``."""
    magnitude = abs(difference)
    points = max((r for r in rows if r["from"] <= magnitude), key=lambda r: r["from"])["points"]
    return points if difference >= 0 else -points


def convert_by_range(rows: Sequence[Mapping], difference: float) -> int:
    """The same rule as :func:`convert`, read the other way from the rows' ranges: the row whose
    ``from..to`` holds ``|difference|`` (whole-number ranges, so a fraction below ``to + 1`` still
    belongs to the row; the last row's ``to`` is None and covers everything above), with the
    difference's sign (docs/scoring.md). Raises AssertionError when no row covers it (a gap)."""
    size = abs(difference)
    for row in rows:
        if row["from"] <= size and (row["to"] is None or size < row["to"] + 1):
            return row["points"] if difference >= 0 else -row["points"]
    raise AssertionError("no row covers the difference")


def datum_of(values: Iterable[float], method: str = "average") -> float:
    """The datum of the results compared (docs/scoring.md, "Datum"): their mean (``average``,
    seed 001); ``butler`` (bridge Butler scoring) first drops one highest and one lowest result
    when there are at least 5. Raises ZeroDivisionError for no values."""
    values = sorted(values)
    if method == "butler" and len(values) >= 5:
        values = values[1:-1]
    return sum(values) / len(values)


def tally(results: Iterable[tuple[Hashable, int, int]]) -> dict:
    """``[(key, converted points, score change)]``, one per set an entrant played →
    ``{key: (points, score total, positive sets)}``: the three totals the standings rank by
    (docs/scoring.md, "Standings")."""
    totals: dict = {}
    for key, points, change in results:
        total = totals.setdefault(key, [0, 0, 0])
        total[0] += points
        total[1] += change
        total[2] += points > 0
    return {key: tuple(total) for key, total in totals.items()}


def ranked(tallies: Mapping) -> list[tuple[int, Hashable, bool]]:
    """``{key: (points, score total, positive sets)}`` → ``[(rank, key, tied)]`` best first, by
    the documented tie-break (docs/scoring.md, "Standings"): more points, then a larger score
    total, then more positive sets; entrants still equal share the rank (competition ranking
    1, 2, 2, 4), are marked tied and listed in key order."""
    order = sorted(tallies, key=lambda k: (-tallies[k][0], -tallies[k][1], -tallies[k][2], k))
    out = []
    for key in order:
        same = [k for k in order if tallies[k] == tallies[key]]
        out.append((order.index(same[0]) + 1, key, len(same) > 1))
    return out


def mahjongsoft_discard_changes(seats: Sequence[str], winners: Sequence[str], discarder: str,
                                fans: Sequence[int]) -> dict[str, int]:
    """Score change per seat of a discard win under MahjongSoft's duplicate MCR rules, with
    ``fans[i]`` the fan of ``winners[i]`` (docs/scoring.md, derived from the published example
    −46, +36, +26, −16): with k winners, winner i gets fan_i + 24 − 8(k − 1), each bystander
    −8k, the discarder −Σ(8 + fan_i)."""
    k = len(winners)
    changes = {}
    for seat in seats:
        if seat in winners:
            changes[seat] = fans[winners.index(seat)] + 24 - 8 * (k - 1)
        elif seat == discarder:
            changes[seat] = -sum(8 + f for f in fans)
        else:
            changes[seat] = -8 * k
    return changes


def export_seating(session: Mapping) -> tuple[dict, dict]:
    """One session of an event export (docs/export.md, ``sessions[i]``) →
    ``({(table number, seat): player number}, {table number: group number})``: who sat where and
    which group each table belongs to, read straight from the JSON."""
    seat_of, group_of = {}, {}
    for group in session["groups"]:
        for table in group["tables"]:
            group_of[table["number"]] = group["number"]
            for seat, player in table["seats"].items():
                seat_of[(table["number"], seat)] = player
    return seat_of, group_of


def rooms_can_hold(classes: Sequence[Sequence[int]], capacity: Sequence[int]) -> bool:
    """Whether the tables of each clash class (tables playing the same set at the same hand) can
    go into pairwise different rooms of the given capacities (tables per room) — docs/seating.md,
    "Rooms" — found by trying every placement."""
    def place(i, left):
        if i == len(classes):
            return True
        for rooms in itertools.combinations(range(len(left)), len(classes[i])):
            if all(left[r] > 0 for r in rooms):
                nxt = list(left)
                for r in rooms:
                    nxt[r] -= 1
                if place(i + 1, nxt):
                    return True
        return False
    return place(0, list(capacity))


def _repeats(sessions: Iterable[Iterable[Sequence[int]]]) -> int:
    """Repeat meetings of a regrouping (docs/seating.md): every meeting of a pair of entrants in a
    group, minus the number of pairs that met at all."""
    meetings = Counter(pair for groups in sessions for group in groups for pair in itertools.combinations(sorted(group), 2))
    return sum(meetings.values()) - len(meetings)


def fewest_repeats(n: int, group_size: int, n_sessions: int) -> int:
    """The fewest repeat meetings any regrouping of ``n`` entrants into groups of ``group_size``
    over ``n_sessions`` sessions can reach (docs/seating.md, "Regrouping between sessions"), by trying every
    partition for every session after the first (session 1 in order loses nothing: entrants are
    interchangeable). Only for tiny cases."""
    def partitions(rest):
        if not rest:
            yield []
            return
        for mates in itertools.combinations(rest[1:], group_size - 1):
            group = (rest[0], *mates)
            for tail in partitions([e for e in rest if e not in group]):
                yield [group, *tail]
    every = list(partitions(list(range(n))))
    first = [tuple(range(i, i + group_size)) for i in range(0, n, group_size)]
    return min(_repeats([first, *later]) for later in itertools.product(every, repeat=n_sessions - 1))


# --- Team method on one set, from table results to converted points -------------------------------
# (tests/browser/test_rule_sets_at_table.py: the scores the director must see after a phone's entries)


def team_set_points(seating: Mapping[Hashable, Mapping[str, Hashable]], changes: Mapping[Hashable, Mapping[str, int]],
                    rows: Sequence[Mapping], method: str = "average") -> dict:
    """Seed 001's team method on one set of one group: ``seating`` ``{table: {seat: team}}`` (who
    held each seat), ``changes`` ``{table: {seat: score change}}`` (points, every table of the
    group) → ``{team: (total, points)}``: the team's total is the sum of its members' changes,
    compared with the datum of all the totals (:func:`datum_of`) and converted with ``rows``
    (:func:`convert`, the difference's sign kept). Raises KeyError when a table or seat of
    ``seating`` has no change."""
    totals: dict = {}
    for table, seats in seating.items():
        for seat, team in seats.items():
            totals[team] = totals.get(team, 0) + changes[table][seat]
    datum = datum_of(totals.values(), method)
    return {team: (total, convert(rows, total - datum)) for team, total in totals.items()}
