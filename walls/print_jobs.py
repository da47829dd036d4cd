"""Print jobs: what the director asks to print, stored once per (event, kind, parameters).

The kinds are the registry :data:`walls.print_kinds.PRINT_KINDS`, each declared beside its
builder. Three kinds print one reserve wall (docs/walls.md, "Reserve walls"): their parameters
name the reserve wall by id and they are offered on the set's wall page, not in the session menu.

:func:`request_print` is the one write path (view, API, demo); :func:`run_print_job` does the
rendering and is what the Celery task ``walls.tasks.render_print_job`` calls (sent by name,
:data:`RENDER_TASK`). A re-run with the same inputs reuses the stored file; a job whose worker
died is delivered again by the broker (late acknowledgement), and rendering is idempotent: it
rewrites the same file. :func:`document_name` and :func:`job_title` name a job's file for people.

**Faults** (docs/deploy.md, "Faults"). A job's file is written beside its final name and renamed
over it once whole (:func:`_store`), so a full disk leaves no partial file and the previous PDF
whole; any failure, rendering or writing, marks the job failed with the reason and what to do
(:func:`failure_reason`). While a worker renders, a heartbeat thread refreshes the job's
``heartbeat_at``; a job rendering without a heartbeat for ``settings.PRINT_STALL_SECONDS`` (its
worker was killed) is :func:`stalled`; every page that lists jobs shows :func:`job_state`, with a retry
(:func:`retry_print`) for a failed or stalled one.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import glob
import hashlib
import json
import logging
import os
import re
import threading
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from celery import current_app
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.core.files.base import ContentFile
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tournament.i18n import catalogue_text
from tournament.models import Event, Substitution, Table
from walls import printing
from walls.models import PrintJob
from walls.print_kinds import BATCH_KINDS, PRINT_KINDS, zip_parts
from walls.print_kinds.base import PrintError, event_tile, public_address
from walls.printing.tilesize import stock_problem
from walls.print_kinds.reserve import reserve_wall
from walls.printing.i18n import LANGS, check_lang

RENDER_TASK = "walls.tasks.render_print_job"
"""The Celery task that renders a job, sent by name: the tasks module imports this one."""

log = logging.getLogger(__name__)


# Raised whenever a document's content changes, so a file rendered by an older renderer is never
# handed out again (2: stickers without tiles, score sheets with 50-bit event login links;
# 3: every heading in the sheet language alone; 4: reserve walls' codes and headings;
# 5: seating sheets by table and seat, the event's label stock by default, files named for people;
# 6: a staggered session's copies as its movement needs them, not one per group;
# 7: the words from the site's catalogues, rule set names and hand-ending rules translated;
# 8: set-up sheets in laying order with the dead wall's roles and the tile size, STAFF ONLY bands;
# 9: the set-up sheets and the pick list count the physical copies of each set).
RENDER_VERSION = 9


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
        (event.name, event.base_url, event.commitment, event.tile_size),
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
    without walls, for a reserve wall's kind a reserve that is not one of the event's, or for a
    kind that prints QR codes an event without a public address phones can open (``base_url``,
    :func:`walls.print_kinds.base.public_address`, naming the fix).
    """
    if kind not in PRINT_KINDS:
        raise PrintError("kind", _("unknown print kind %(kind)s: choose one of %(kinds)s")
                         % {"kind": repr(kind), "kinds": ", ".join(PRINT_KINDS)})
    spec = PRINT_KINDS[kind]
    params = dict(params or {})
    if spec.reserve:
        row = reserve_wall(event, params.get("reserve"))
        params["reserve"], params["session"] = row.pk, row.session_number
    params.setdefault("session", 1)
    try:
        params["lang"] = check_lang(params.get("lang") or "en")
    except ValueError:
        raise PrintError("lang", _("unknown sheet language %(lang)s: choose one of %(langs)s")
                         % {"lang": repr(params.get("lang")), "langs": ", ".join(LANGS)}) from None
    if "template" in spec.params:
        params["template"] = params.get("template") or event.default_label_stock or printing.DEFAULT_TEMPLATE
        if params["template"] not in printing.PRESETS:
            raise PrintError("template", _("unknown label stock %(name)s: choose one of %(names)s")
                             % {"name": repr(params["template"]), "names": ", ".join(printing.PRESETS)})
        if spec.on_tiles or spec.parts:  # the stickers, alone or in the session's ZIP
            problem = stock_problem(printing.get_template(params["template"]), event_tile(event))
            if problem:
                raise PrintError("template", problem)
    else:
        params.pop("template", None)
    if spec.prints_codes:
        public_address(event)  # refused before a job is stored: every code must open this site
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
    return _queue(job)


def _queue(job: PrintJob) -> PrintJob:
    """Send ``job`` to be rendered: to a Celery worker, or with Celery eager (the embedded
    default) to a thread of this process once the transaction commits (in the request when
    ``PRINT_IN_THREAD`` is False)."""
    if current_app.conf.task_always_eager:  # eager: the embedded default, no worker
        if not getattr(settings, "PRINT_IN_THREAD", True):  # in the request: a failure is the job's, not the page's
            try:
                return run_print_job(job.pk)
            except Exception:
                log.exception("print job %s failed", job.pk)
                job.refresh_from_db()
                return job
        job_id = job.pk
        transaction.on_commit(lambda: render_in_thread(job_id))
        return job
    transaction.on_commit(lambda: current_app.send_task(RENDER_TASK, args=[job.pk]))
    return job


def stalled(job: PrintJob, now=None) -> bool:
    """Whether ``job`` is rendering but its worker has not refreshed the heartbeat for
    ``settings.PRINT_STALL_SECONDS`` (a worker killed mid-job, a machine restarted)."""
    if job.status != PrintJob.Status.RUNNING:
        return False
    beat = job.heartbeat_at or job.created_at
    return beat < (now or timezone.now()) - timedelta(seconds=settings.PRINT_STALL_SECONDS)


@dataclass(frozen=True)
class JobState:
    """What the director reads of a print job, the same on every page that lists it (the director's
    page, its JSON poll, a set's wall page). ``status``: a :class:`PrintJob.Status` value or
    ``"stalled"``; ``label``: the status in the active language; ``message``: the job's error, or
    for a stalled job what to do ("" when all is well); ``retry``: whether it offers Retry
    (:func:`retry_print`)."""

    status: str
    label: str
    message: str
    retry: bool


def job_state(job: PrintJob, now=None) -> JobState:
    """The :class:`JobState` of ``job`` at ``now`` (default: the current time), in the active
    language: a job rendering without a heartbeat is shown "Stalled" with what to do; a failed or
    stalled job offers Retry. An error stored as a msgid (:data:`DISK_FULL`) is translated
    (:func:`tournament.i18n.catalogue_text`)."""
    if stalled(job, now):
        return JobState("stalled", _("Stalled"),
                        _("The worker rendering this job stopped answering (restarted or killed): press Retry."), True)
    return JobState(job.status, str(job.get_status_display()), catalogue_text(job.error), job.status == PrintJob.Status.FAILED)


def retry_print(job: PrintJob) -> PrintJob:
    """Render a failed or stalled job again (the director's Retry): back to waiting, its error
    cleared, queued as :func:`request_print` queues (its file, if any, kept until the new one is
    whole). The check and the change are one conditional update, so of two Retry presses at once
    only one queues the job. A job that is neither failed nor stalled (any more) is returned as it
    is. Raises nothing."""
    now = timezone.now()
    cutoff = now - timedelta(seconds=settings.PRINT_STALL_SECONDS)
    retryable = (Q(status=PrintJob.Status.FAILED)
                 | Q(status=PrintJob.Status.RUNNING, heartbeat_at__lt=cutoff)
                 | Q(status=PrintJob.Status.RUNNING, heartbeat_at=None, created_at__lt=cutoff))
    claimed = PrintJob.objects.filter(retryable, pk=job.pk).update(status=PrintJob.Status.PENDING, error="", progress=0,
                                                                   heartbeat_at=now)
    job.refresh_from_db()
    return _queue(job) if claimed else job


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
    """Queue every print of a session's batch (:data:`walls.print_kinds.BATCH_KINDS`) as separate
    jobs, stickers on label stock ``template`` (None: the event's default); finished ones are
    reused. Returns the jobs; the director's page polls their progress (``print-status``). "Print
    everything for this session" asks for the one ZIP job instead (kind ``session_zip``)."""
    params = {"session": session_number, "lang": lang, **({"template": template} if template else {})}
    return [request_print(event, kind, params) for kind in BATCH_KINDS]


def render(event: Event, kind: str, params: dict, progress: Callable[[int, int], None] | None = None) -> bytes:
    """Render print kind ``kind`` to its file's bytes (PDF; ZIP for ``session_zip`` and
    ``staff_zip``) from the event's stored data: its builder of
    :data:`walls.print_kinds.PRINT_KINDS` gets the parameters it declares; a kind of ``parts`` (a
    session ZIP) gets instead the documents of :func:`walls.print_kinds.zip_parts` (the tables'
    papers, or for ``staff_zip`` the set-up sheets and pick list) for its session, language and
    label stock, each named by :func:`document_name`, and ``progress``. Raises KeyError for an
    unknown kind."""
    spec = PRINT_KINDS[kind]
    kwargs = {key: params[key] for key in spec.params if key in params}
    if spec.parts:
        given = {"session": 1, "lang": "en", "template": printing.DEFAULT_TEMPLATE, **kwargs}
        parts = []
        for name in zip_parts(kind):
            part = {key: given[key] for key in PRINT_KINDS[name].params if key in given}
            parts.append((document_name(name, {**given, **part}), functools.partial(render, event, name, part)))
        return spec.build(event, parts=parts, progress=progress)
    return spec.build(event, **kwargs)


def run_print_job(job_id: int) -> PrintJob:
    """Render a job's file and store it; safe to run twice (the file is rewritten, status set).
    ``progress``/``total`` count documents: 0/1 then 1/1, or one step per document of a ZIP.
    While it renders, a thread refreshes the job's heartbeat every
    ``settings.PRINT_HEARTBEAT_SECONDS``. A failure (rendering, or writing the file: a full disk)
    marks the job failed with :func:`failure_reason` and is raised again; the job's previous file,
    if any, stays whole."""
    job = PrintJob.objects.select_related("event").get(pk=job_id)
    if job.status == PrintJob.Status.DONE and job.file and job.file.storage.exists(job.file.name):
        return job
    spec = PRINT_KINDS.get(job.kind)
    total = len(zip_parts(job.kind)) if spec is not None and spec.parts else 1
    PrintJob.objects.filter(pk=job.pk).update(status=PrintJob.Status.RUNNING, progress=0, total=total, error="",
                                              heartbeat_at=timezone.now())

    def progress(done: int, of: int) -> None:
        PrintJob.objects.filter(pk=job.pk).update(progress=done, total=of, heartbeat_at=timezone.now())

    beating = _Heartbeat(job.pk)
    beating.start()
    try:
        data = render(job.event, job.kind, job.params, progress)
        extension = spec.extension if spec is not None else "pdf"
        name = f"{job.event.slug}-{job.kind}-s{job.params.get('session', 1)}-{job.params_hash[:10]}.{extension}"
        stored = _store(job, name, data)
    except Exception as exc:
        PrintJob.objects.filter(pk=job.pk).update(status=PrintJob.Status.FAILED, error=failure_reason(exc))
        raise
    finally:
        beating.stop()
    job.file.name = stored
    job.status, job.progress, job.total, job.finished_at = PrintJob.Status.DONE, total, total, timezone.now()
    job.save(update_fields=["file", "status", "progress", "total", "finished_at"])
    return job


class _Heartbeat(threading.Thread):
    """Refreshes print job ``job_id``'s ``heartbeat_at`` every ``settings.PRINT_HEARTBEAT_SECONDS``
    until :meth:`stop`; dies with its process, which is what a stalled job shows."""

    def __init__(self, job_id: int):
        super().__init__(name=f"print-heartbeat-{job_id}", daemon=True)
        self.job_id, self.stopped = job_id, threading.Event()

    def run(self) -> None:
        try:
            while not self.stopped.wait(settings.PRINT_HEARTBEAT_SECONDS):
                PrintJob.objects.filter(pk=self.job_id, status=PrintJob.Status.RUNNING).update(heartbeat_at=timezone.now())
        except Exception:  # a lost database connection: the job then looks stalled, which is true enough  # noqa: BLE001
            log.warning("print job %s: heartbeat stopped", self.job_id, exc_info=True)
        finally:
            connection.close()

    def stop(self) -> None:
        self.stopped.set()
        self.join(timeout=5)


def _store(job: PrintJob, name: str, data: bytes) -> str:
    """Write ``data`` as the job's file ``name`` (under ``prints/``) and return the stored name.
    On a file system storage the bytes go to a temporary file beside the final one, are synced
    and renamed over it: the job's previous file (same name) stays whole until the new one is,
    and a write that fails (ENOSPC) removes what it wrote; what a render killed mid-write left
    beside it is removed first (:func:`_remove_abandoned_parts`). Another storage saves the new
    file first and deletes the old one after. Raises OSError."""
    storage = job.file.storage
    target = f"prints/{name}"
    try:
        path = storage.path(target)
    except NotImplementedError:  # a remote storage: new file first, the old one removed after
        old = job.file.name if job.file else None
        stored = storage.save(target, ContentFile(data))
        if old and old != stored:
            storage.delete(old)
        return stored
    os.makedirs(os.path.dirname(path), exist_ok=True)
    _remove_abandoned_parts(path)
    part = f"{path}.part-{os.getpid()}-{threading.get_ident()}"
    try:
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view[:1 << 20]):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(part, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.remove(part)
        raise
    old = job.file.name if job.file else None
    if old and old != target and storage.exists(old):
        storage.delete(old)
    return target


def _remove_abandoned_parts(path: str) -> None:
    """Delete the temporary files beside ``path`` (``<path>.part-<pid>-<thread>``) that a render
    killed while writing left behind: those not written to for longer than the print task's hard
    time limit (``PRINT_TIME_LIMIT`` + 30 s). A live render writes its file in one burst once
    rendered, so its temporary file is never that old."""
    cutoff = time.time() - (settings.PRINT_TIME_LIMIT + 30)
    for part in glob.glob(f"{glob.escape(path)}.part-*"):
        try:
            if os.stat(part).st_mtime < cutoff:
                os.remove(part)
        except FileNotFoundError:  # another render removed it first
            pass


# Reasons a worker stores as they are (it has no reader's language); job_state shows them in the reader's.
DISK_FULL = gettext_noop("No space left on the print disk (MEDIA_ROOT): free some space, then press Retry. "
                         "The files printed before are kept whole.")
TIME_LIMIT = gettext_noop("The rendering took too long and was stopped (PRINT_TIME_LIMIT): press Retry; if it is "
                          "stopped again, tell the site's administrator.")


def failure_reason(exc: BaseException) -> str:
    """What the director reads of a failed job, never empty: the print disk full (:data:`DISK_FULL`,
    in English: :func:`job_state` translates it for each reader) or not writable, with what to do;
    a render stopped at ``settings.PRINT_TIME_LIMIT`` (:data:`TIME_LIMIT`, likewise); else the
    error's own message (a refusal names its fix)."""
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return DISK_FULL
    if isinstance(exc, SoftTimeLimitExceeded):
        return TIME_LIMIT
    if isinstance(exc, OSError):
        return _("The file could not be written on the print disk (%(error)s): check MEDIA_ROOT, then press Retry.") % {
            "error": exc.strerror or exc.__class__.__name__}
    return str(exc) or _("The rendering failed (%(error)s): press Retry; if it fails again, tell the site's "
                         "administrator.") % {"error": exc.__class__.__name__}


def kind_label(kind: str) -> str:
    """What the director reads for a print job of ``kind``: the registry's label in the active
    language, or ``kind`` itself for a kind no longer declared."""
    return str(PRINT_KINDS[kind].label) if kind in PRINT_KINDS else kind


_UNSAFE = re.compile(r"\s*[\\/:*?\"<>|\x00-\x1f]+\s*")


def job_title(job: PrintJob) -> str:
    """What the director reads for a job: :func:`document_name` without its extension, e.g.
    ``"Wall stickers, session 1"``, ``"Set-up sheets, session 1 (ja)"``, ``"Table documents,
    session 1 (ZIP)"``."""
    return document_name(job.kind, job.params, extension=False)


def document_name(kind: str, params: dict, *, extension: bool = True) -> str:
    """A file name for people (active language): the kind's label, ``", session N"`` for a
    session's document, then in brackets what differs from the usual: the sheet language when
    not English, a label stock other than the default; ``"Wall stickers, session 1.pdf"``,
    ``"Set-up sheets, session 1 (ja).pdf"``, ``"Table documents, session 1.zip"`` (shown as
    ``"Table documents, session 1 (ZIP)"`` without the extension). A ``staff_only`` kind's name
    starts with ``"STAFF ONLY - "`` (``"STAFF ONLY - Set-up sheets, session 1.pdf"``), a ZIP's label
    is cut at its ``(ZIP)`` (``"STAFF ONLY - Staff documents, session 1.zip"``). Characters that file
    systems refuse (``/ \\ : * ? " < > |``) become " - "."""
    spec = PRINT_KINDS.get(kind)
    label = str(spec.label) if spec is not None else kind
    ext = spec.extension if spec is not None else "pdf"
    if ext == "zip":
        label = re.sub(r"\s*\(ZIP\).*$", "", label)
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
    if spec is not None and spec.staff_only:  # shows every tile: say so before anything else
        name = _("STAFF ONLY - %(document)s") % {"document": name}
    name = unicodedata.normalize("NFC", _UNSAFE.sub(" - ", name)).strip(" .")
    if not extension:
        return f"{name} (ZIP)" if ext == "zip" else name
    return f"{name}.{ext}"
