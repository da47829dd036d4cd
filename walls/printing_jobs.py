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
import io
import json
import logging
import re
import threading
import unicodedata
import zipfile
from collections.abc import Callable
from dataclasses import dataclass

from celery import current_app
from django.conf import settings
from django.core.files.base import ContentFile
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournament import seating as seating_stage
from tournament.seating import itineraries, seat_replacements, session_movement, table_index, table_of_set, table_schedule
from tournament.errors import FieldError
from tournament.models import Event, Player, Substitution, Table
from tournament.movement import ruleset_movement
from walls import printing
from walls.models import PrintJob, ReserveWall, WallSet
from walls.printing import i18n as printing_words
from walls.printing.data import sticker_set
from walls.setcode import SetId

RENDER_TASK = "walls.tasks.render_print_job"
"""The Celery task that renders a job, sent by name: the tasks module imports this one."""

log = logging.getLogger(__name__)


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
    - ``per_session``: one document per session (its file is named for the session); False for
      the player cards and the calibration page.
    - ``extension``, ``content_type``: the file's type (``"pdf"``, ``"application/pdf"``; the
      session's ZIP ``"zip"``, ``"application/zip"``).
    - ``parts``: the builder renders several documents and reports each one done: it takes a
      ``progress(done, total)`` keyword (the job's progress bar).
    """

    name: str
    label: str
    build: Callable[..., bytes]
    params: tuple[str, ...]
    needs_walls: bool = False
    in_batch: bool = True
    reserve: bool = False
    per_session: bool = True
    extension: str = "pdf"
    content_type: str = "application/pdf"
    parts: bool = False


class PrintError(FieldError):
    """A print request that cannot be served; ``field`` names the input."""


# Raised whenever a document's content changes, so a file rendered by an older renderer is never
# handed out again (2: stickers without tiles, score sheets with 50-bit event login links;
# 3: every heading in the sheet language alone; 4: reserve walls' codes and headings;
# 5: seating sheets by table and seat, the event's label stock by default, files named for people;
# 6: a staggered session's copies as its movement needs them, not one per group).
RENDER_VERSION = 6


def params_hash(kind: str, params: dict, stamp: str = "") -> str:
    """SHA-256 of the canonical JSON of kind, parameters, :data:`RENDER_VERSION` and the event's
    ``stamp`` (:func:`data_stamp`): the reuse key."""
    return hashlib.sha256(json.dumps([kind, params, RENDER_VERSION, stamp], sort_keys=True).encode()).hexdigest()


def data_stamp(event: Event) -> str:
    """A digest of everything a document reads besides the walls, which never change once stored:
    the event's name, public address and commitment, its teams and players (names, PINs,
    withdrawals), sessions (staggered or not), rooms, tables and seats, and substitutions. Part of
    the reuse key, so a reprint after a substitution, a rename, a new session or a new public
    address renders again instead of handing back the old file. Seven small queries."""
    parts = [
        (event.name, event.base_url, event.commitment),
        list(event.teams.order_by("pk").values_list("pk", "name", "substitute", "withdrawn")),
        list(event.players.order_by("pk").values_list("pk", "name", "pin", "team_id", "withdrawn", "replaced_by_id")),
        list(event.sessions.order_by("pk").values_list("pk", "number", "staggered")),
        list(event.rooms.order_by("pk").values_list("pk", "name")),
        list(Table.objects.filter(group__session__event=event).order_by("pk").values_list("pk", "number", "room_id")),
        list(Substitution.objects.filter(event=event).order_by("pk").values_list("pk", flat=True)),
    ]
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:24]


def request_print(event: Event, kind: str, params: dict | None = None, *, run_now: bool = False) -> PrintJob:
    """Create (or reuse) the print job of ``kind`` with ``params`` and queue its rendering.

    ``run_now=True`` renders in this process instead of queueing (management commands such as
    the demo, which need the file before they go on, whatever broker is configured). With a
    broker the job goes to a Celery worker. Without one (Celery eager, the embedded default) it
    renders in a background thread started once the request's transaction commits, so the page
    returns at once and the job's progress moves (setting ``PRINT_IN_THREAD``, default True;
    False renders in the request, as tests do).

    ``params``: ``{"session": 1, "sets": [1, 2] (optional, default all), "template": "a4-70",
    "lang": "en"}``; a reserve wall's kinds take ``"reserve": <ReserveWall id>`` and its session.
    ``template`` (label stock, :data:`walls.printing.PRESETS`) is kept only for the kinds that
    read it, defaulting to the event's ``default_label_stock`` (else
    :data:`walls.printing.DEFAULT_TEMPLATE`). A finished job with its file is returned as it is,
    unless what it printed has changed since (:func:`data_stamp`): then a new job renders.
    Raises PrintError for an unknown kind or label stock, for a kind that needs them a session
    without walls, or for a reserve wall's kind a reserve that is not one of the event's.
    """
    if kind not in PRINT_KINDS:
        raise PrintError("kind", _("unknown print kind %(kind)s: choose one of %(kinds)s")
                         % {"kind": repr(kind), "kinds": ", ".join(PRINT_KINDS)})
    spec = PRINT_KINDS[kind]
    params = dict(params or {})
    if spec.reserve:
        row = _reserve(event, params.get("reserve"))
        params["reserve"], params["session"] = row.pk, row.session_number
    params.setdefault("session", 1)
    params.setdefault("lang", "en")
    if "template" in spec.params:
        params["template"] = params.get("template") or event.default_label_stock or printing.DEFAULT_TEMPLATE
        if params["template"] not in printing.PRESETS:
            raise PrintError("template", _("unknown label stock %(name)s: choose one of %(names)s")
                             % {"name": repr(params["template"]), "names": ", ".join(printing.PRESETS)})
    else:
        params.pop("template", None)
    if spec.needs_walls and not event.wall_sets.filter(session_number=params["session"]).exists():
        raise PrintError("session", _("session %(session)s has no walls yet: generate them first") % {"session": params["session"]})
    with transaction.atomic():
        job = PrintJob.objects.get_or_create(
            event=event, kind=kind, params_hash=params_hash(kind, params, data_stamp(event)), defaults={"params": params},
        )[0]
    if job.status == PrintJob.Status.DONE and job.file and job.file.storage.exists(job.file.name):
        return job
    if run_now:
        return run_print_job(job.pk)
    if current_app.conf.task_always_eager:  # eager: the embedded default, no worker
        if not getattr(settings, "PRINT_IN_THREAD", True):
            return run_print_job(job.pk)
        job_id = job.pk
        transaction.on_commit(lambda: render_in_thread(job_id))
        return job
    transaction.on_commit(lambda: current_app.send_task(RENDER_TASK, args=[job.pk]))
    return job


_THREADS: dict[int, threading.Thread] = {}
_THREADS_LOCK = threading.Lock()


def render_in_thread(job_id: int) -> threading.Thread:
    """Render print job ``job_id`` in a daemon thread of this process (the embedded default,
    :func:`request_print`), or return the thread already rendering it. The thread closes its
    database connection when done; a failure is stored on the job (``FAILED``, its error) and
    logged."""
    with _THREADS_LOCK:
        running = _THREADS.get(job_id)
        if running is not None and running.is_alive():
            return running
        thread = threading.Thread(target=_thread_main, args=(job_id,), name=f"print-job-{job_id}", daemon=True)
        _THREADS[job_id] = thread
        thread.start()
        return thread


def _thread_main(job_id: int) -> None:
    try:
        run_print_job(job_id)
    except Exception:  # stored on the job by run_print_job; the thread has no caller to tell
        log.exception("print job %s failed", job_id)
    finally:
        connection.close()
        with _THREADS_LOCK:
            if _THREADS.get(job_id) is threading.current_thread():
                del _THREADS[job_id]


def join_print_threads(timeout: float | None = None) -> bool:
    """Wait for the print threads of this process (tests, a command that exits): True when all
    have finished within ``timeout`` seconds (None: no limit)."""
    with _THREADS_LOCK:
        threads = list(_THREADS.values())
    for thread in threads:
        thread.join(timeout)
    return not any(t.is_alive() for t in threads)


def request_batch(event: Event, session_number: int, lang: str = "en", template: str | None = None) -> list[PrintJob]:
    """Queue every print of a session's batch (:data:`BATCH_KINDS`) as separate jobs, stickers on
    label stock ``template`` (None: the event's default); finished ones are reused. Returns the
    jobs; the director's page polls their progress (``print-status``). "Print everything for this
    session" asks for the one ZIP job instead (kind ``session_zip``)."""
    params = {"session": session_number, "lang": lang, **({"template": template} if template else {})}
    return [request_print(event, kind, params) for kind in BATCH_KINDS]


def _session_tables(event: Event, session_number: int):
    """The tables of one session of ``event`` (a queryset)."""
    return Table.objects.filter(group__session__event=event, group__session__number=session_number)


def first_tables(event: Event, session_number: int, lang: str = "en") -> dict[int, list[str]]:
    """Set number → for each physical copy of the set, in copy order, the table that plays that
    copy first, e.g. ``"Group 2 · Table 6"`` in the sheet language ``lang``: as many entries as
    the session's movement has copies (:func:`tournament.seating.session_movement` over all the
    session's groups, :attr:`tournament.movement.Movement.copies`; docs/seating.md, "Physical
    copies and groups sharing the walls"). Unstaggered, every group plays each set at the same hand, so one copy per group; staggered
    (``Session.staggered``), groups in turned order share one copy. Before the session is seated:
    one copy, labelled ``"Table 1 of each group"``."""
    ruleset = event.get_ruleset()
    tables = list(_session_tables(event, session_number).select_related("group__session__event"))
    if tables:
        movement = session_movement(tables[0].group.session, n_groups=len({t.group_id for t in tables}))
    else:
        movement = ruleset_movement(ruleset)
    by_index = {(t.group.number - 1) * movement.n_tables + t.position: t for t in tables}
    firsts: dict[tuple[int, int], int] = {}
    for set_no, copy, _time, index in movement.uses():  # sorted: a copy's first play comes first
        firsts.setdefault((set_no, copy), index)
    out: dict[int, list[str]] = {}
    for (set_no, _copy), index in sorted(firsts.items()):
        table = by_index.get(index)
        out.setdefault(set_no, []).append(
            printing_words.group_table(table.group.number, table.number, lang) if table is not None
            else f"{printing_words.numbered('table', index % movement.n_tables + 1, lang)} "
                 f"{printing_words.word('each_group', lang)}")
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
    back of a tile, where every player sees it (docs/rules.md, "Duplicate MCR: building sets and wall stickers"; docs/printing.md)."""
    ruleset = event.get_ruleset()
    first = first_tables(event, session_number)
    return [
        sticker_set(SetId(event.slug, session_number, n), event.name, ruleset)
        for n in _stored_walls(event, session_number, set_nos).values_list("set_no", flat=True)
        for _copy in first[n]
    ]


def render(event: Event, kind: str, params: dict, progress: Callable[[int, int], None] | None = None) -> bytes:
    """Render print kind ``kind`` to its file's bytes (PDF; ZIP for ``session_zip``) from the
    event's stored data: its builder of :data:`PRINT_KINDS` gets the parameters it declares, and
    ``progress`` when it renders several documents (``parts``). Raises KeyError for an unknown kind."""
    spec = PRINT_KINDS[kind]
    kwargs = {key: params[key] for key in spec.params if key in params}
    if spec.parts:
        kwargs["progress"] = progress
    return spec.build(event, **kwargs)


def movement_rows(event: Event, session_number: int) -> list[dict]:
    """Rows ``{"slot", "table", "sets", "next_table"}`` of the session's movement, one per table and slot."""
    rows = []
    tables = list(_session_tables(event, session_number).select_related("group__session__event").order_by("number"))
    if not tables:
        return rows
    movement = session_movement(tables[0].group.session)
    by_position = {}
    for t in tables:
        by_position.setdefault((t.group_id, t.position), t)
    for t in tables:
        index = table_index(t)
        for slot in range(movement.slots):
            sets = movement.sets_at(index, slot)
            nxt = table_of_set(t.group, sets[0], slot + 1) if slot + 1 < movement.slots else None
            rows.append({
                "slot": slot + 1, "table": t.number, "sets": list(sets),
                "next_table": by_position[(t.group_id, nxt)].number if nxt is not None else None,
            })
    return rows


def seating_rows(event: Event, session_number: int) -> list[dict]:
    """Rows of everyone seated in the session (:func:`tournament.seating.seating_list`: ``{"player",
    "team", "table", "room", "seat", "seat_index", ...}``) sorted by table, then seat in the rule
    set's order: the seating sheet."""
    return sorted(seating_stage.seating_list(event, session_number), key=lambda r: (r["table"], r["seat_index"]))


def room_seating_rows(event: Event, session_number: int) -> list[dict]:
    """The same rows sorted by room, table and seat (as :func:`tournament.seating.seating_list`
    gives them): the per-room seating lists."""
    return list(seating_stage.seating_list(event, session_number))


def find_seat_url(event: Event) -> str:
    """The public "find my seat" address of ``event``: ``<base_url>/e/<slug>/find/``, or the bare
    path when the event has no public address yet."""
    path = f"/e/{event.slug}/find/"
    return f"{event.base_url.rstrip('/')}{path}" if event.base_url else path


def player_cards(event: Event) -> list[printing.PlayerCard]:
    """One :class:`walls.printing.PlayerCard` per player of ``event`` who is not withdrawn or
    has a seat (by team, then member; individual events by name): name, team, PIN, the seats
    of every seated session (:func:`itineraries`) and the find-my-seat address."""
    seats = itineraries(event)
    people = Player.objects.filter(event=event).select_related("team")
    people = [p for p in people if not p.withdrawn or p.pk in seats]
    people.sort(key=lambda p: (p.team.number, p.member, p.number) if p.team_id else (1 << 30, p.name.casefold(), p.number))
    url = find_seat_url(event)
    return [
        printing.PlayerCard(
            event_name=event.name, player=p.name, team=p.team.name if p.team_id else "", pin=p.pin, find_url=url,
            seats=[printing.CardSeat(session=s["session"], table=s["table"], room=s["room"], seat=s["seat"])
                   for s in seats.get(p.pk, [])],
        )
        for p in people
    ]


def score_sheets(event: Event, session_number: int) -> list:
    """One :class:`walls.printing.ScoreSheet` per table of the session."""
    out = []
    tables = (_session_tables(event, session_number).select_related("group__session__event")
              .prefetch_related("seats__player").order_by("number"))
    ruleset = event.get_ruleset()
    tables = list(tables)
    replaced = seat_replacements(t.pk for t in tables)  # a reprint after a substitution names who plays now
    for t in tables:
        order = [s for _slot, sets in table_schedule(t) for s in sets]
        seat_names = {s.seat: s.player.name for s in t.seats.all()}
        seat_names.update({seat: holder.name for (table_id, seat), (holder, _out, _first) in replaced.items() if table_id == t.pk})
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


def _room_seating(event: Event, session: int = 1, lang: str = "en") -> bytes:
    return printing.render_room_seating(room_seating_rows(event, session), title=event.name, session=session, lang=lang)


def _player_cards(event: Event, lang: str = "en") -> bytes:
    return printing.render_player_cards(player_cards(event), lang=lang)


def _session_zip(event: Event, session: int = 1, lang: str = "en", template: str = printing.DEFAULT_TEMPLATE,
                 progress: Callable[[int, int], None] | None = None) -> bytes:
    """Every document of :data:`ZIP_KINDS` for the session in one ZIP, each file named for
    people (:func:`document_name`), reporting ``progress(done, total)`` after each."""
    buf = io.BytesIO()
    given = {"session": session, "lang": lang, "template": template}
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as archive:
        for done, kind in enumerate(ZIP_KINDS, start=1):
            spec = PRINT_KINDS[kind]
            params = {key: given[key] for key in spec.params if key in given}
            data = render(event, kind, params)
            info = zipfile.ZipInfo(document_name(kind, {**given, **params}), date_time=(2000, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
            if progress:
                progress(done, len(ZIP_KINDS))
    return buf.getvalue()


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
    PrintKind("room_seating", gettext_lazy("Seating lists by room"), _room_seating, ("session", "lang"), in_batch=False),
    PrintKind("player_cards", gettext_lazy("Player cards"), _player_cards, ("lang",), in_batch=False, per_session=False),
    PrintKind("session_zip", gettext_lazy("All documents (ZIP)"), _session_zip, ("session", "lang", "template"),
              needs_walls=True, in_batch=False, extension="zip", content_type="application/zip", parts=True),
    PrintKind("calibration", gettext_lazy("Calibration page"), _calibration, ("template",), in_batch=False,
              per_session=False),
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

ZIP_KINDS = (*BATCH_KINDS, "room_seating", "player_cards")
"""The documents of a session's ZIP (kind ``session_zip``, "Print everything for this session")."""

SESSION_KINDS = tuple(kind for kind in PRINT_KINDS.values() if not kind.reserve)
"""The kinds of the director's session menu: all but a reserve wall's (those are on its wall page)."""

RESERVE_KINDS = tuple(kind for kind in PRINT_KINDS.values() if kind.reserve)
"""A reserve wall's prints, offered on its set's wall page."""


def run_print_job(job_id: int) -> PrintJob:
    """Render a job's file and store it; safe to run twice (the file is rewritten, status set).
    ``progress``/``total`` count documents: 0/1 then 1/1, or one step per document of a ZIP."""
    job = PrintJob.objects.select_related("event").get(pk=job_id)
    if job.status == PrintJob.Status.DONE and job.file and job.file.storage.exists(job.file.name):
        return job
    spec = PRINT_KINDS.get(job.kind)
    total = len(ZIP_KINDS) if spec is not None and spec.parts else 1
    PrintJob.objects.filter(pk=job.pk).update(status=PrintJob.Status.RUNNING, progress=0, total=total, error="")

    def progress(done: int, of: int) -> None:
        PrintJob.objects.filter(pk=job.pk).update(progress=done, total=of)

    try:
        data = render(job.event, job.kind, job.params, progress)
    except Exception as exc:
        PrintJob.objects.filter(pk=job.pk).update(status=PrintJob.Status.FAILED, error=str(exc))
        raise
    extension = spec.extension if spec is not None else "pdf"
    name = f"{job.event.slug}-{job.kind}-s{job.params.get('session', 1)}-{job.params_hash[:10]}.{extension}"
    if job.file:
        job.file.delete(save=False)
    job.file.save(name, ContentFile(data), save=False)
    job.status, job.progress, job.total, job.finished_at = PrintJob.Status.DONE, total, total, timezone.now()
    job.save(update_fields=["file", "status", "progress", "total", "finished_at"])
    return job


def kind_label(kind: str) -> str:
    """What the director reads for a print job of ``kind``: the registry's label in the active
    language, or ``kind`` itself for a kind no longer declared."""
    return str(PRINT_KINDS[kind].label) if kind in PRINT_KINDS else kind


_UNSAFE = re.compile(r"\s*[\\/:*?\"<>|\x00-\x1f]+\s*")


def job_title(job: PrintJob) -> str:
    """What the director reads for a job: :func:`document_name` without its extension, e.g.
    ``"Wall stickers, session 1"``, ``"Set-up sheets, session 1 (ja)"``, ``"All documents,
    session 1 (ZIP)"``."""
    return document_name(job.kind, job.params, extension=False)


def document_name(kind: str, params: dict, *, extension: bool = True) -> str:
    """A file name for people (active language): the kind's label, ``", session N"`` for a
    session's document, then in brackets what differs from the usual: the sheet language when
    not English, a label stock other than the default; ``"Wall stickers, session 1.pdf"``,
    ``"Set-up sheets, session 1 (ja).pdf"``, ``"All documents, session 1.zip"`` (shown as
    ``"All documents, session 1 (ZIP)"`` without the extension). Characters that file systems
    refuse (``/ \\ : * ? " < > |``) become " - "."""
    spec = PRINT_KINDS.get(kind)
    label = str(spec.label) if spec is not None else kind
    ext = spec.extension if spec is not None else "pdf"
    if ext == "zip":
        label = re.sub(r"\s*\(ZIP\)\s*$", "", label)
    name = label
    if spec is None or spec.per_session or spec.reserve:
        name = _("%(document)s, session %(session)s") % {"document": label, "session": params.get("session", 1)}
    extras = []
    if params.get("lang", "en") != "en":
        extras.append(params["lang"])
    if params.get("template") and kind != "session_zip" and params["template"] != printing.DEFAULT_TEMPLATE:
        extras.append(params["template"])
    if extras:
        name += f" ({', '.join(extras)})"
    name = unicodedata.normalize("NFC", _UNSAFE.sub(" - ", name)).strip(" .")
    if not extension:
        return f"{name} (ZIP)" if ext == "zip" else name
    return f"{name}.{ext}"
