"""Print jobs: what the director asks to print, stored once per (event, kind, parameters).

:data:`PRINT_KINDS` is the registry of print kinds (as pretix registers its exporters): each kind
is declared once, with its label, the function that builds its document, the parameters it reads,
whether it needs the session's walls and whether it belongs to the session batch. Adding a kind
is one entry there. Three kinds print one reserve wall (docs/walls.md, "Reserve walls"): its
set-up sheet, stickers and set label, with the reserve's own set code; their parameters name the
reserve wall by id and they are offered on the set's wall page, not in the session menu.

:func:`request_print` is the one write path (view, API, demo); :func:`run_print_job` does the
rendering and is what the Celery task ``walls.tasks.render_print_job`` calls (sent by name,
:data:`RENDER_TASK`). A re-run with the same inputs reuses the stored file; a job whose worker
died is delivered again by the broker (late acknowledgement), and rendering is idempotent: it
rewrites the same file.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass

from celery import current_app
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournament.errors import FieldError
from tournament.models import Event, SeatAssignment, Table
from tournament.movement import ruleset_movement
from walls import printing
from walls.models import PrintJob, ReserveWall, WallSet
from walls.printing import i18n as printing_words
from walls.printing.data import sticker_set
from walls.setcode import SetId

RENDER_TASK = "walls.tasks.render_print_job"
"""The Celery task that renders a job, sent by name: the tasks module imports this one."""


@dataclass(frozen=True)
class PrintKind:
    """One kind of print, declared once in :data:`PRINT_KINDS`.

    - ``name``: the kind stored on :class:`~walls.models.PrintJob` and sent by forms.
    - ``label``: what the director's menu shows (translated lazily).
    - ``build``: ``build(event, **params) -> bytes``, the PDF from the event's stored data.
    - ``params``: the request parameters ``build`` takes (``session``, ``sets``, ``template``,
      ``lang``, ``reserve``); others given stay in the job's reuse key and are not passed on.
    - ``needs_walls``: refused until the session's walls are generated.
    - ``in_batch``: part of the session batch (:func:`request_batch`, the demo).
    - ``reserve``: prints one reserve wall, named by its id in the ``reserve`` parameter
      (:class:`~walls.models.ReserveWall`); offered on the wall page, not in the session menu.
    """

    name: str
    label: str
    build: Callable[..., bytes]
    params: tuple[str, ...]
    needs_walls: bool = False
    in_batch: bool = True
    reserve: bool = False


class PrintError(FieldError):
    """A print request that cannot be served; ``field`` names the input."""


# Raised whenever a document's content changes, so a file rendered by an older renderer is never
# handed out again (2: stickers without tiles, score sheets with 50-bit event login links;
# 3: every heading in the sheet language alone; 4: reserve walls' codes and headings).
RENDER_VERSION = 4


def params_hash(kind: str, params: dict) -> str:
    """SHA-256 of the canonical JSON of kind, parameters and :data:`RENDER_VERSION` (the reuse key)."""
    return hashlib.sha256(json.dumps([kind, params, RENDER_VERSION], sort_keys=True).encode()).hexdigest()


def request_print(event: Event, kind: str, params: dict | None = None, *, run_now: bool = False) -> PrintJob:
    """Create (or reuse) the print job of ``kind`` with ``params`` and queue its rendering.

    ``run_now=True`` renders in this process instead of queueing (management commands such as
    the demo, which need the file before they go on, whatever broker is configured).

    ``params``: ``{"session": 1, "sets": [1, 2] (optional, default all), "template": "a4-70",
    "lang": "en"}``; a reserve wall's kinds take ``"reserve": <ReserveWall id>`` and its session.
    A finished job with its file is returned as it is. Raises PrintError for an unknown kind, for
    a kind that needs them a session without walls, or for a reserve wall's kind a reserve that is
    not one of the event's.
    """
    if kind not in PRINT_KINDS:
        raise PrintError("kind", _("unknown print kind %(kind)s: choose one of %(kinds)s")
                         % {"kind": repr(kind), "kinds": ", ".join(PRINT_KINDS)})
    params = dict(params or {})
    if PRINT_KINDS[kind].reserve:
        row = _reserve(event, params.get("reserve"))
        params["reserve"], params["session"] = row.pk, row.session_number
    params.setdefault("session", 1)
    params.setdefault("lang", "en")
    if PRINT_KINDS[kind].needs_walls and not event.wall_sets.filter(session_number=params["session"]).exists():
        raise PrintError("session", _("session %(session)s has no walls yet: generate them first") % {"session": params["session"]})
    with transaction.atomic():
        job = PrintJob.objects.get_or_create(
            event=event, kind=kind, params_hash=params_hash(kind, params), defaults={"params": params},
        )[0]
    if job.status == PrintJob.Status.DONE and job.file and job.file.storage.exists(job.file.name):
        return job
    if run_now or current_app.conf.task_always_eager:  # eager: the embedded default, no worker
        return run_print_job(job.pk)
    transaction.on_commit(lambda: current_app.send_task(RENDER_TASK, args=[job.pk]))
    return job


def request_batch(event: Event, session_number: int, lang: str = "en") -> list[PrintJob]:
    """Queue every print of a session's batch (:data:`BATCH_KINDS`); finished ones are reused.
    Returns the jobs; the director's page polls their progress (``print-status``)."""
    return [request_print(event, kind, {"session": session_number, "lang": lang}) for kind in BATCH_KINDS]


def _session_tables(event: Event, session_number: int):
    """The tables of one session of ``event`` (a queryset)."""
    return Table.objects.filter(group__session__event=event, group__session__number=session_number)


def first_tables(event: Event, session_number: int, lang: str = "en") -> dict[int, list[str]]:
    """Set number → for each physical copy (one per group sharing the walls), the table that plays
    it first, e.g. ``"Group 2 · Table 6"`` in the sheet language ``lang`` (table k of each group
    starts with block k, seed 001)."""
    ruleset = event.get_ruleset()
    movement = ruleset_movement(ruleset)
    tables = list(_session_tables(event, session_number).select_related("group"))
    out = {}
    for set_no in range(1, ruleset.hands_per_session + 1):
        position = movement.table_of(set_no, 0)
        firsts = sorted((t.group.number, t.number) for t in tables if t.position == position)
        out[set_no] = ([printing_words.group_table(g, n, lang) for g, n in firsts]
                       or [f"{printing_words.numbered('table', position + 1, lang)} {printing_words.word('each_group', lang)}"])
    return out


def _stored_walls(event: Event, session_number: int, set_nos=None):
    """The session's stored walls in set order, limited to ``set_nos`` when given."""
    walls = WallSet.objects.filter(event=event, session_number=session_number).order_by("set_no")
    return walls.filter(set_no__in=set_nos) if set_nos else walls


def printable_sets(event: Event, session_number: int, set_nos=None, *, per_copy: bool = False, lang: str = "en") -> list:
    """The :class:`walls.printing.PrintableSet` values of a session's stored walls; with
    ``per_copy`` one per physical copy (each group sharing the walls needs its own copy, labelled
    with the table that plays it first, in the sheet language ``lang``)."""
    ruleset = event.get_ruleset()
    walls = _stored_walls(event, session_number, set_nos)
    first = first_tables(event, session_number, lang)
    return [
        printing.PrintableSet(
            set_id=SetId(event.slug, session_number, w.set_no), event_name=event.name, ruleset=ruleset,
            piles=w.piles, first_table=copy, commitment=event.commitment, entry_url=event.base_url or None,
        )
        for w in walls
        for copy in (first[w.set_no] if per_copy else [", ".join(first[w.set_no])])
    ]


def sticker_sets(event: Event, session_number: int, set_nos=None) -> list:
    """The :class:`walls.printing.data.StickerSet` values of a session's stored walls, one per
    physical copy (each group sharing the walls needs its own stickers). Built from the set codes
    and the rule set's slots alone: the walls' tiles are never read, since a sticker goes on the
    back of a tile, where every player sees it (seed 001; docs/printing.md)."""
    ruleset = event.get_ruleset()
    first = first_tables(event, session_number)
    return [
        sticker_set(SetId(event.slug, session_number, n), event.name, ruleset)
        for n in _stored_walls(event, session_number, set_nos).values_list("set_no", flat=True)
        for _copy in first[n]
    ]


def render(event: Event, kind: str, params: dict) -> bytes:
    """Render print kind ``kind`` to PDF bytes from the event's stored data: its builder of
    :data:`PRINT_KINDS` gets the parameters it declares. Raises KeyError for an unknown kind."""
    spec = PRINT_KINDS[kind]
    return spec.build(event, **{key: params[key] for key in spec.params if key in params})


def movement_rows(event: Event, session_number: int) -> list[dict]:
    """Rows ``{"slot", "table", "sets", "next_table"}`` of the session's movement, one per table and slot."""
    ruleset = event.get_ruleset()
    movement = ruleset_movement(ruleset)
    rows = []
    tables = _session_tables(event, session_number).order_by("number")
    by_position = {}
    for t in tables:
        by_position.setdefault((t.group_id, t.position), t)
    for t in tables:
        for slot in range(movement.slots):
            sets = movement.sets_at(t.position, slot)
            nxt = movement.table_of(sets[0], slot + 1) if slot + 1 < movement.slots else None
            rows.append({
                "slot": slot + 1, "table": t.number, "sets": list(sets),
                "next_table": by_position[(t.group_id, nxt)].number if nxt is not None else None,
            })
    return rows


def seating_rows(event: Event, session_number: int) -> list[dict]:
    """Rows ``{"player", "team", "table", "room", "seat"}`` of everyone seated in the session."""
    seats = SeatAssignment.objects.filter(table__group__session__event=event, table__group__session__number=session_number)
    return [
        {"player": s.player.name, "team": s.team.name if s.team_id else "", "table": s.table.number,
         "room": s.table.room.name if s.table.room_id else "", "seat": s.seat}
        for s in seats.select_related("player", "team", "table__room")
    ]


def score_sheets(event: Event, session_number: int) -> list:
    """One :class:`walls.printing.ScoreSheet` per table of the session."""
    out = []
    tables = _session_tables(event, session_number).prefetch_related("seats__player").order_by("number")
    ruleset = event.get_ruleset()
    movement = ruleset_movement(ruleset)
    for t in tables:
        order = [s for slot in range(movement.slots) for s in movement.sets_at(t.position, slot)]
        seat_names = {s.seat: s.player.name for s in t.seats.all()}
        login = (f"{event.base_url.rstrip('/')}/e/{event.slug}/entry/login/" if event.base_url else "") + t.login_code_display
        out.append(printing.ScoreSheet(
            event_name=event.name, session=session_number, table_label=str(t.number), login=login,
            seats=[(seat, seat_names.get(seat, "")) for seat in ruleset.seats],
            sets=[SetId(event.slug, session_number, s).code for s in order],
        ))
    return out


def _wall_stickers(event: Event, session: int = 1, sets=None, template: str = printing.DEFAULT_TEMPLATE,
                   lang: str = "en") -> bytes:
    return printing.render_wall_stickers(sticker_sets(event, session, sets), printing.get_template(template), lang=lang)


def _set_labels(event: Event, session: int = 1, sets=None, lang: str = "en") -> bytes:
    return printing.render_set_labels(printable_sets(event, session, sets, per_copy=True, lang=lang), lang=lang)


def _setup_sheets(event: Event, session: int = 1, sets=None, lang: str = "en") -> bytes:
    return printing.render_setup_sheets(printable_sets(event, session, sets, lang=lang), lang=lang)


def _pick_list(event: Event, session: int = 1, sets=None, lang: str = "en") -> bytes:
    return printing.render_pick_list(printable_sets(event, session, sets, lang=lang), lang=lang)


def _score_sheets(event: Event, session: int = 1, lang: str = "en") -> bytes:
    return printing.render_score_sheets(score_sheets(event, session), lang=lang)


def _movement_sheet(event: Event, session: int = 1, lang: str = "en") -> bytes:
    return printing.render_movement_sheet(movement_rows(event, session), title=event.name, session=session, lang=lang)


def _seating_sheet(event: Event, session: int = 1, lang: str = "en") -> bytes:
    return printing.render_seating_sheet(seating_rows(event, session), title=event.name, session=session, lang=lang)


def _reserve(event: Event, reserve_id) -> ReserveWall:
    """The event's reserve wall of id ``reserve_id``; PrintError ("reserve") for any other."""
    try:
        return ReserveWall.objects.get(pk=int(reserve_id), event=event)
    except (TypeError, ValueError, ReserveWall.DoesNotExist):
        raise PrintError("reserve", _("choose a reserve wall of this event on its set's wall page")) from None


def reserve_printable(event: Event, reserve: ReserveWall) -> printing.PrintableSet:
    """The :class:`walls.printing.PrintableSet` of one reserve wall: its own set code and payload
    (``1-07R1-4``, :class:`walls.setcode.SetId` with ``reserve``), its piles, the event's seed
    commitment; no first table (the tables that play it may change after printing)."""
    return printing.PrintableSet(
        set_id=SetId(event.slug, reserve.session_number, reserve.set_no, reserve.number), event_name=event.name,
        ruleset=event.get_ruleset(), piles=reserve.piles, commitment=event.commitment, entry_url=event.base_url or None,
    )


def _reserve_setup(event: Event, reserve=None, lang: str = "en") -> bytes:
    return printing.render_setup_sheets([reserve_printable(event, _reserve(event, reserve))], lang=lang)


def _reserve_stickers(event: Event, reserve=None, template: str = printing.DEFAULT_TEMPLATE, lang: str = "en") -> bytes:
    row = _reserve(event, reserve)
    stickers = sticker_set(SetId(event.slug, row.session_number, row.set_no, row.number), event.name, event.get_ruleset())
    return printing.render_wall_stickers([stickers], printing.get_template(template), lang=lang)


def _reserve_label(event: Event, reserve=None, lang: str = "en") -> bytes:
    return printing.render_set_labels([reserve_printable(event, _reserve(event, reserve))], lang=lang)


def _calibration(event: Event, template: str = printing.DEFAULT_TEMPLATE) -> bytes:
    return printing.render_calibration(printing.get_template(template))


PRINT_KINDS: dict[str, PrintKind] = {kind.name: kind for kind in (
    PrintKind("stickers", gettext_lazy("Wall stickers"), _wall_stickers, ("session", "sets", "template", "lang"), needs_walls=True),
    PrintKind("labels", gettext_lazy("Set labels"), _set_labels, ("session", "sets", "lang"), needs_walls=True),
    PrintKind("setup", gettext_lazy("Set-up sheets"), _setup_sheets, ("session", "sets", "lang"), needs_walls=True),
    PrintKind("picklist", gettext_lazy("Pick list"), _pick_list, ("session", "sets", "lang"), needs_walls=True),
    PrintKind("score_sheets", gettext_lazy("Score sheets"), _score_sheets, ("session", "lang")),
    PrintKind("movement", gettext_lazy("Movement sheet"), _movement_sheet, ("session", "lang")),
    PrintKind("seating", gettext_lazy("Seating sheet"), _seating_sheet, ("session", "lang")),
    PrintKind("calibration", gettext_lazy("Calibration page"), _calibration, ("template",), in_batch=False),
    PrintKind("reserve_setup", gettext_lazy("Reserve wall: set-up sheet"), _reserve_setup, ("reserve", "lang"),
              in_batch=False, reserve=True),
    PrintKind("reserve_stickers", gettext_lazy("Reserve wall: wall stickers"), _reserve_stickers,
              ("reserve", "template", "lang"), in_batch=False, reserve=True),
    PrintKind("reserve_label", gettext_lazy("Reserve wall: set label"), _reserve_label, ("reserve", "lang"),
              in_batch=False, reserve=True),
)}
"""Every print kind by name, in menu order: the registry (docs/printing.md, "Print kinds")."""

BATCH_KINDS = tuple(name for name, kind in PRINT_KINDS.items() if kind.in_batch)
"""The kinds printed for a session in one go (:func:`request_batch`, the demo)."""

SESSION_KINDS = tuple(kind for kind in PRINT_KINDS.values() if not kind.reserve)
"""The kinds of the director's session menu: all but a reserve wall's (those are on its wall page)."""

RESERVE_KINDS = tuple(kind for kind in PRINT_KINDS.values() if kind.reserve)
"""A reserve wall's prints, offered on its set's wall page."""


def run_print_job(job_id: int) -> PrintJob:
    """Render a job's PDF and store it; safe to run twice (the file is rewritten, status set)."""
    job = PrintJob.objects.select_related("event").get(pk=job_id)
    if job.status == PrintJob.Status.DONE and job.file and job.file.storage.exists(job.file.name):
        return job
    PrintJob.objects.filter(pk=job.pk).update(status=PrintJob.Status.RUNNING, progress=0, total=1, error="")
    try:
        pdf = render(job.event, job.kind, job.params)
    except Exception as exc:
        PrintJob.objects.filter(pk=job.pk).update(status=PrintJob.Status.FAILED, error=str(exc))
        raise
    name = f"{job.event.slug}-{job.kind}-s{job.params.get('session', 1)}-{job.params_hash[:10]}.pdf"
    if job.file:
        job.file.delete(save=False)
    job.file.save(name, ContentFile(pdf), save=False)
    job.status, job.progress, job.total, job.finished_at = PrintJob.Status.DONE, 1, 1, timezone.now()
    job.save(update_fields=["file", "status", "progress", "total", "finished_at"])
    return job


def kind_label(kind: str) -> str:
    """What the director reads for a print job of ``kind``: the registry's label in the active
    language, or ``kind`` itself for a kind no longer declared."""
    return str(PRINT_KINDS[kind].label) if kind in PRINT_KINDS else kind
