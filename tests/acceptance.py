"""Helpers of the acceptance tests of the scores (tests/test_standings_acceptance.py,
tests/test_fouled_sets_acceptance.py, tests/test_reserve_walls_acceptance.py): build and play
small events, read back the raw data the product stores (who sat where, the typed score changes,
the conversion table's rows) and recompute the scores from it with tests/oracles.py, and read the
standings as every surface gives them (report, cache, API, CSV, exports)."""


from __future__ import annotations

import csv
import io
import itertools
import random
from collections import defaultdict
from pathlib import Path

from django.test import Client
from factories import (
    prepared_event,
)
from hypothesis import HealthCheck, settings
from oracles import (
    individual_set_points,
    tally,
    team_set_points,
)

from scoring.models import ConversionTable, HandResult, SetScore
from scoring.reports import cached_standings, event_standings
from scoring.actions.confirmation import confirm_result
from scoring.actions.entry import submit_result
from tournament.exchange import export_event, public_export
from tournament.models import Event, SeatAssignment, Table
from factories import blocks

ROOT = Path(__file__).resolve().parent.parent
FEW = settings(max_examples=8, deadline=None, derandomize=True,
               suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
_SLUGS = itertools.count(1)



# --- building and playing events ----------------------------------------------------------------------


def new_event(roster: str, *, prepare=(1,), **fields) -> Event:
    """An event made as a director makes one (tests/factories.py), converted with ``mcr-mp``
    unless told otherwise, under a slug no other example of the run uses."""
    fields.setdefault("conversion", "mcr-mp")
    fields.setdefault("name", "Acceptance Cup")
    fields["slug"] = f"{fields.pop('slug', 'acceptance')}-{next(_SLUGS)}"
    return prepared_event(roster, prepare=prepare, **fields)


def random_changes(rng: random.Random, seats) -> dict:
    """Plain MCR payments (docs/scoring.md, ``mcr``; zero-sum) for any number of seats: a draw,
    a self-draw (each other seat pays 8+fan) or a discard win (the discarder 8+fan, each other
    seat 8)."""
    roll = rng.random()
    if roll < 0.1:
        return dict.fromkeys(seats, 0)
    winner, fan = rng.choice(seats), rng.choice((8, 8, 9, 12, 16, 24, 32, 48, 64, 88))
    if roll < 0.35:
        return {s: (len(seats) - 1) * (8 + fan) if s == winner else -(8 + fan) for s in seats}
    discarder = rng.choice([s for s in seats if s != winner])
    return {s: (8 + fan) + 8 * (len(seats) - 2) if s == winner else -(8 + fan) if s == discarder else -8 for s in seats}


def enter(table: Table, set_no: int, changes: dict) -> HandResult:
    """``changes`` typed at ``table`` on ``set_no`` and confirmed by the director."""
    result = submit_result(table, set_no, changes=changes, actor="acceptance")
    return confirm_result(result, actor="acceptance", director=True)


def sets_per_session(event: Event) -> int:
    table = Table.objects.filter(group__session__event=event).first()
    return sum(len(sets) for _, sets in blocks(table))


# --- the raw data and the oracle's scores ---------------------------------------------------------------


def comparisons(event: Event) -> dict:
    """The event's complete comparisons, read from what it stores (seats and confirmed typed
    changes): ``{(session, set, group number or None): (seating {table number: {seat: entrant
    name}}, changes {table number: {seat: change}})}``; the entrant is the team (team method) or
    the player. Group None when the whole field is compared."""
    by_team = event.method == Event.Method.TEAM
    field = event.comparison == Event.Comparison.FIELD
    seating: dict = defaultdict(dict)  # table pk -> {seat: entrant}
    scope_tables: dict = defaultdict(set)
    where, number = {}, {}
    for a in SeatAssignment.objects.filter(table__group__session__event=event).select_related(
            "table__group__session", "team", "player"):
        t = a.table
        seating[t.pk][a.seat] = a.team.name if by_team else a.player.name
        scope = (t.group.session.number, None if field else t.group.number)
        scope_tables[scope].add(t.pk)
        where[t.pk], number[t.pk] = scope, t.number
    results: dict = defaultdict(dict)
    for r in HandResult.objects.filter(event=event, status=HandResult.Status.CONFIRMED):
        session, group = where[r.table_id]
        results[(session, r.set_no, group)][r.table_id] = {k: int(v) for k, v in r.changes.items()}
    out = {}
    for (session, set_no, group), changes in results.items():
        if set(changes) == scope_tables[(session, group)]:
            out[(session, set_no, group)] = ({number[t]: seating[t] for t in changes},
                                             {number[t]: c for t, c in changes.items()})
    return out


def rows_of(table_model: ConversionTable) -> list[dict]:
    return [dict(r) for r in table_model.rows]


def oracle_scores(event: Event, rows) -> dict:
    """``{(session, set, group): {entrant name: (score change, points)}}`` by the method (docs/rules.md, "Duplicate MCR: team event") of
    the event (tests/oracles.py) with the conversion ``rows``."""
    out = {}
    for scope, (seating, changes) in comparisons(event).items():
        if event.method == Event.Method.TEAM:
            out[scope] = team_set_points(seating, changes, rows, event.datum_method)
        else:
            out[scope] = individual_set_points(seating, changes, rows, event.datum_method)
    return out


def oracle_tallies(event: Event, rows, sessions=None) -> dict:
    """``{entrant name: (points, score total, positive sets)}`` over the complete comparisons (of
    ``sessions`` only, when given)."""
    results = [(name, points, change) for (session, _, _), scores in oracle_scores(event, rows).items()
               if sessions is None or session in sessions for name, (change, points) in scores.items()]
    return tally(results)


def current_rows(event: Event) -> list[dict]:
    return rows_of(ConversionTable.objects.get(event=event, current=True))


def substitutes(event: Event) -> set[str]:
    if event.method == Event.Method.TEAM:
        return set(event.teams.filter(substitute=True).values_list("name", flat=True))
    return set(event.players.filter(substitute=True).values_list("name", flat=True))


# --- the standings on every surface -----------------------------------------------------------------------


def _rank(value):
    if value in (None, ""):
        return None
    return int(str(value).rstrip("="))


def standings_surfaces(event: Event) -> dict[str, list[dict]]:
    """The standings of ``event`` as each surface gives them, as ``[{"name", "rank", "points"}]``
    (rank None when not ranked): the report rows (uncached and cached), the API, the CSV, the
    export's and the public export's ``standings``."""
    client = Client()
    api = client.get(f"/api/events/{event.slug}/standings/")
    assert api.status_code == 200, api.content[:300]
    response = client.get(f"/e/{event.slug}/standings.csv")
    assert response.status_code == 200
    text = b"".join(response.streaming_content).decode() if response.streaming else response.content.decode()
    entrant = "Team" if event.method == Event.Method.TEAM else "Player"
    csv_rows = [{"name": r[entrant], "rank": _rank(r["Rank"]), "points": int(r["Points"])}
                for r in csv.DictReader(io.StringIO(text.lstrip("\ufeff")))]

    def plain(rows):
        return [{"name": r["name"], "rank": _rank(r["rank"]), "points": r["points"]} for r in rows]

    return {
        "report": plain(event_standings(event)),
        "cached": plain(cached_standings(event)),
        "api": plain(api.json()),
        "csv": csv_rows,
        "export": plain(export_event(event)["standings"]),
        "public export": plain(public_export(event)["standings"]),
    }




# --- the fouled-set group: 4 teams, set 1 typed by hand ---------------------------------------------

# One group of 4 teams (A-D = Team 1-4), session 1 seated by the Latin square of docs/seating.md:
# table 1: E A, S B, W C, N D; table 2: E D, S A, W B, N C; table 3: E C, S D, W A, N B;
# table 4: E B, S C, W D, N A. The results of set 1 (plain MCR payments, zero-sum):
SET1 = {
    1: {"E": 32, "S": -16, "W": -8, "N": -8},     # E wins 8 fan on S's discard
    2: {"E": -16, "S": 48, "W": -16, "N": -16},   # S self-draws 8 fan
    3: {"E": -8, "S": -8, "W": 40, "N": -24},     # W wins 16 fan on N's discard
    4: {"E": 120, "S": -40, "W": -40, "N": -40},  # E self-draws 32 fan
}
LATIN = {1: "ABCD", 2: "DABC", 3: "CDAB", 4: "BCDA"}


def team_scores(event, set_no=1) -> dict:
    """``{team name: SetScore}`` of ``set_no`` (session 1) of ``event``."""
    return {s.team.name: s for s in SetScore.objects.filter(event=event, set_no=set_no).select_related("team")}
