"""The demo event: a real 16-team duplicate MCR team event built end to end through the same
services the web pages and API use (``python manage.py demo``)."""

from __future__ import annotations

import random
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings

from scoring.actions.confirmation import confirm_result
from scoring.actions.entry import submit_result
from scoring.reports import event_standings
from tournament.venue import suggested_address
from tournament.models import Event
from tournament.services import create_event, import_roster, prepare_session
from tournament.table_plan import session_plan
from walls.print_jobs import request_print
from walls.print_kinds import BATCH_KINDS

ROSTER = Path(__file__).resolve().parent / "data" / "demo_roster.csv"


def plausible_outcome(rng: random.Random, seats: tuple[str, ...]) -> dict:
    """A plausible MCR hand outcome: about 1 in 8 hands is a draw, a quarter of wins are
    self-drawn, fan 8 to 88 weighted towards small hands (most MCR wins score 8-16 fan)."""
    if rng.random() < 0.12:
        return {"kind": "draw", "winners": [], "discarder": None, "fans": []}
    winner = rng.choice(seats)
    fan = min(88, 8 + int(rng.expovariate(1 / 6)))
    if rng.random() < 0.25:
        return {"kind": "self_draw", "winners": [winner], "discarder": None, "fans": [fan]}
    discarder = rng.choice([s for s in seats if s != winner])
    return {"kind": "discard", "winners": [winner], "discarder": discarder, "fans": [fan]}


def play_session(event: Event, session_number: int, rng: random.Random, actor: str = "demo scorer") -> int:
    """Enter and confirm a plausible result for every table and set of a session, table by table in
    movement's time order (:meth:`tournament.table_plan.SessionPlan.plays`), through :func:`scoring.actions.entry.submit_result`. Returns the number of hands."""
    plan = session_plan(event, session_number)
    confirming_seat = plan.seats[1]
    plays = sorted((play.time, play.group, play.position, play.set_no, play.table)
                   for set_no in range(1, plan.movement.sets_per_session + 1) for play in plan.plays(set_no))
    hands = 0
    for _time, _group, _position, set_no, table in plays:  # hand by hand, as the movement brings the sets
        result = submit_result(table, set_no, outcome=plausible_outcome(rng, plan.seats), actor=actor)
        confirm_result(result, actor=actor, pin=plan.holders(table, set_no)[confirming_seat].pin)
        hands += 1
    return hands


@dataclass
class DemoReport:
    event: Event
    pdfs: list[Path] = field(default_factory=list)
    hands: int = 0
    standings: list[dict] = field(default_factory=list)


def build_demo(*, slug: str = "demo", out_dir: Path | None = None, seed: int = 2015, prints: tuple[str, ...] = BATCH_KINDS,
               base_url: str = "") -> DemoReport:
    """Build the demo event from the shipped roster (16 teams × 4): create, seat session 1,
    generate its walls, render the PDFs of ``prints`` (default: the session batch) into
    ``out_dir`` (default ``<MEDIA_ROOT>/demo``), enter and confirm a full session of MCR results,
    and return the standings. Replaces an earlier demo event with the same slug.

    ``base_url``: the event's public address, which every printed QR code links to (default:
    this machine's address on its network, port 8000: :func:`tournament.venue.suggested_address`,
    what ``manage.py venue`` serves phones at)."""
    for old in Event.objects.filter(slug=slug):
        old.delete()  # Event.delete: its converted scores first
    event = create_event(
        name="Sanya Duplicate Cup (demo)", slug=slug, ruleset_code="mcr-duplicate", method=Event.Method.TEAM,
        conversion="mcr-mp", sessions=5, base_url=base_url or suggested_address(8000),
    )
    import_roster(event, ROSTER.read_text(encoding="utf-8"))
    prepare_session(event, 1)
    report = DemoReport(event=event)
    out_dir = Path(out_dir or Path(settings.MEDIA_ROOT) / "demo")
    out_dir.mkdir(parents=True, exist_ok=True)
    for kind in prints:
        job = request_print(event, kind, {"session": 1}, run_now=True)
        target = out_dir / f"{slug}-session1-{kind}.pdf"
        with job.file.open("rb") as src, open(target, "wb") as dst:
            shutil.copyfileobj(src, dst)
        report.pdfs.append(target)
    report.hands = play_session(event, 1, random.Random(seed))
    report.standings = event_standings(event)
    return report
