"""What the entry, pages and event-day benches share: the entry's request body and an event with
sessions already played, built in bulk.

- :func:`entry_body`: the body of ``POST /api/events/<slug>/results/`` as the event day sends it
  (a scorer's token, the hand's outcome), also what ``bench entry`` measures.
- :func:`played_event`: a team event of the day's rule set (MCR, 16 sets a session) with
  sessions played: every result stored with its hand (the outcome: kind, winners, discarder,
  fans, the changes the payment rule gives), confirmed, each set scored through
  :func:`scoring.actions.rescoring.rescore_set` (the path of every completing confirmation) and
  so released. One INSERT per session for the results, not one request per hand.
- :func:`hold_back`: a further session played but for one result a set, entered and not
  confirmed: :func:`release` confirms it through the service a phone's confirmation calls, which
  rescores the set and releases it (the change every page sees after a round's hand).
"""

from __future__ import annotations

import random
import time

from scoring.actions.confirmation import confirm_result
from scoring.actions.entry import compute_changes
from scoring.actions.rescoring import rescore_set
from scoring.models import HandResult
from tournament.demo import plausible_outcome
from tournament.models import Event, Table
from tournament.services import create_event, import_roster, prepare_session
from tournament.table_plan import session_plan

from tests.perf.loadtest import roster_csv


def entry_body(session: int, table: int, set_no: int, outcome: dict) -> dict:
    """The JSON body of an entry by a scorer account bound to the table (the event day's and
    ``bench entry``'s): session, event-wide table number, set and the hand's outcome."""
    return {"session_number": session, "table": table, "set_no": set_no, "outcome": outcome}


def played_event(teams: int, played: int, *, slug: str, sessions: int | None = None, seed: int = 27) -> Event:
    """A team event of ``teams`` teams of four (MCR, the default rule set: 16 sets a session),
    ``sessions`` planned (default ``played``), its first ``played`` sessions prepared and played
    (module docstring)."""
    event = create_event(name=f"Played {slug}", slug=slug, sessions=sessions or played)
    import_roster(event, roster_csv(teams, len(event.get_ruleset().seats)))
    rng = random.Random(seed)
    for number in range(1, played + 1):
        _play(event, number, rng)
    return event


def _play(event: Event, number: int, rng: random.Random, held: bool = False) -> list[HandResult]:
    """Prepare session ``number`` and store a confirmed result with its hand on every table and
    set, then score each set. ``held``: one table's result a set stays entered (unconfirmed);
    returns those results."""
    prepare_session(event, number)
    seats = tuple(event.get_ruleset().seats)
    tables = list(Table.objects.filter(group__session__event=event, group__session__number=number).order_by("number"))
    rows, kept = [], []
    for set_no in range(1, event.get_ruleset().hands_per_session + 1):
        for table in tables:
            changes, outcome, deposit = compute_changes(event, changes=None, outcome=plausible_outcome(rng, seats))
            last = held and table is tables[-1]
            row = HandResult(event=event, table=table, session_number=number, set_no=set_no, changes=changes,
                             outcome=outcome, deposit=deposit, entered_by="bench",
                             status=HandResult.Status.ENTERED if last else HandResult.Status.CONFIRMED,
                             confirmed_by="" if last else "bench")
            rows.append(row)
            if last:
                kept.append(row)
    HandResult.objects.bulk_create(rows)
    for set_no in range(1, event.get_ruleset().hands_per_session + 1):
        rescore_set(event, number, set_no)  # releases the set when every table has confirmed it
    return kept


def hold_back(event: Event, number: int, seed: int = 28) -> list[HandResult]:
    """Play session ``number`` but for one result a set, left entered: the results each
    :func:`release` confirms, in set order."""
    return [HandResult.objects.select_related("table__group__session__event").get(pk=r.pk)
            for r in _play(event, number, random.Random(seed), held=True)]


def release(result: HandResult) -> float:
    """Confirm ``result`` (held back by :func:`hold_back`) with a seated player's PIN through
    :func:`scoring.actions.confirmation.confirm_result`: its set is complete, scored and released.
    Returns the seconds it took."""
    plan = session_plan(result.event, result.session_number)
    pin = plan.holders(result.table, result.set_no)[plan.seats[1]].pin
    started = time.perf_counter()
    confirm_result(result, actor="bench", pin=pin)
    return time.perf_counter() - started
