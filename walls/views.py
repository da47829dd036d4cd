"""Pages of the walls app: print requests, their progress and downloads (staff and director),
the wall sets, and a set's reserve walls (drawn by the director: docs/walls.md, "Reserve walls")."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring import table_access, visibility
from tournament.access import DIRECTOR, STAFF, event_view
from tournament.models import Table
from tournament.services import draw_reserve, set_reserve_tables
from walls.models import PrintJob, ReserveWall, WallSet
from walls.print_jobs import document_name, job_state, job_title, kind_label, request_batch, request_print, retry_print
from walls.print_kinds import PRINT_KINDS, RESERVE_KINDS
from walls.print_kinds.base import PrintError
from walls.printing import DEFAULT_TEMPLATE
from walls.services import WallError
from walls.setcode import SetId
from walls.tiles import tile_name

# Print jobs hold secret walls (set-up sheets, pick lists): the roles that see secret sets
# (:mod:`scoring.visibility`), after a login.
staff_page = event_view(roles=(DIRECTOR, STAFF), login=True)
director_page = event_view(roles=(DIRECTOR,), login=True)


def _back(request, event):
    """Where a form goes back to: its ``next`` field when it is a page of this site, else the
    director's page."""
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return redirect(target)
    return redirect("director", slug=event.slug)


@require_POST
@staff_page
def print_request(request, event):
    """Queue a print job (``kind``; ``session_zip`` for "Print the table documents (ZIP)",
    ``batch`` for the session's documents as separate jobs; a reserve wall's print with
    ``reserve``, its id) with the label stock ``template`` and sheet language ``lang``, and go
    back to the page of the form (``next``) or the director's page."""
    params = {"session": int(request.POST.get("session", 1) or 1), "lang": request.POST.get("lang", "en")}
    if request.POST.get("template"):
        params["template"] = request.POST["template"]
    if request.POST.get("reserve"):
        params["reserve"] = request.POST["reserve"]
    try:
        if request.POST.get("kind") == "batch":
            request_batch(event, params["session"], params["lang"], params.get("template"))
        else:
            request_print(event, request.POST.get("kind", ""), params)
    except PrintError as exc:
        messages.error(request, exc.message)
    return _back(request, event)


@staff_page
def print_status(request, event):
    """The event's latest print jobs and their progress, as JSON for the director's page: each job's
    ``status``, ``status_display`` and ``error`` are its :func:`walls.print_jobs.job_state` (a job
    whose worker stopped answering is ``stalled``), and a failed or stalled one carries its
    ``retry`` address."""
    jobs = list(event.print_jobs.all()[:50])
    done = sum(1 for j in jobs if j.status == PrintJob.Status.DONE)
    now = timezone.now()
    rows = []
    for j in jobs:
        state = job_state(j, now)
        rows.append({
            "id": j.pk, "kind": j.kind, "label": kind_label(j.kind), "title": job_title(j), "session": j.params.get("session"),
            "lang": j.params.get("lang"), "template": j.params.get("template"), "status": state.status,
            "status_display": state.label, "progress": j.progress, "total": j.total, "error": state.message,
            "download": reverse("print-download", args=[event.slug, j.pk]) if j.status == PrintJob.Status.DONE else None,
            "retry": reverse("print-retry", args=[event.slug, j.pk]) if state.retry else None})
    return JsonResponse({"done": done, "total": len(jobs), "jobs": rows})


@require_POST
@staff_page
def print_retry(request, event, job_id):
    """Render a failed or stalled job again (:func:`walls.print_jobs.retry_print`) and go back to
    the page of the form (``next``) or the director's page."""
    retry_print(get_object_or_404(PrintJob, pk=job_id, event=event))
    messages.success(request, _("The print job is queued again."))
    return _back(request, event)


@staff_page
def print_download(request, event, job_id):
    """A finished print job's file (PDF, or ZIP for a session's documents), named for people:
    ``Wall stickers, session 1.pdf`` (:func:`walls.print_jobs.document_name`)."""
    job = get_object_or_404(PrintJob, pk=job_id, event=event)
    if job.status != PrintJob.Status.DONE or not job.file:
        raise Http404(_("this print job has no file yet"))
    spec = PRINT_KINDS.get(job.kind)
    return FileResponse(job.file.open("rb"), content_type=spec.content_type if spec else "application/pdf",
                        as_attachment=True, filename=document_name(job.kind, job.params))


def _tile_lang(request) -> str:
    lang = (get_language() or "en").lower()
    return "ja" if lang.startswith("ja") else "zh" if lang.startswith("zh") else "en"


@event_view()
def wall_list(request, event):
    """The wall sets of the event: all of them for staff, the public hand records for others;
    each with the labels of its reserve walls the viewer may see."""
    viewer = table_access.viewer(request, event)
    staff = viewer.secrets
    released = visibility.released_sets(event)
    reserves: dict[tuple[int, int], list[str]] = {}
    for r in visibility.visible_reserve_walls(viewer, event.reserve_walls.all()):
        reserves.setdefault((r.session_number, r.set_no), []).append(r.label)
    walls = [(w, staff or (w.session_number, w.set_no) in released, reserves.get((w.session_number, w.set_no), []))
             for w in event.wall_sets.all()]
    return render(request, "walls/wall_list.html", {"event": event, "walls": walls, "staff": staff})


def _laid_out(event, piles: dict, lang: str) -> list[dict]:
    """A wall's piles for the page: ``[{"pile": Pile, "tiles": [(slot, code, name)]}]`` in wall order."""
    return [
        {"pile": pile, "tiles": [(f"{pile.slot_prefix}{i}", t, tile_name(t, lang)) for i, t in enumerate(piles[pile.name], 1)]}
        for pile in event.get_ruleset().piles
    ]


@event_view()
def wall_detail(request, event, session, set_no):
    """One wall set pile by pile (tiles with their names): staff always, others once it is public.
    Its reserve walls follow under the same rule (:func:`scoring.visibility.visible_reserve_walls`):
    piles, the tables that play each, reason, who drew it and when; staff get their prints, the
    director the forms to draw one and to change its tables. A print job's status is its
    :func:`walls.print_jobs.job_state`, with Retry when it failed or stalled."""
    wall = get_object_or_404(WallSet, event=event, session_number=session, set_no=set_no)
    viewer = table_access.viewer(request, event)
    if not visibility.can_see_set(viewer, event, session, set_no):
        raise PermissionDenied(_("Wall %(set)s is secret until every table has played it; its traveller shows it then.")
                               % {"set": SetId(event.slug, session, set_no).code})
    lang = _tile_lang(request)
    drawn = visibility.visible_reserve_walls(viewer, event.reserve_walls.filter(session_number=session, set_no=set_no))
    jobs: dict[int, list] = {}
    if viewer.secrets:
        now = timezone.now()
        for job in event.print_jobs.filter(kind__in=[k.name for k in RESERVE_KINDS]):
            jobs.setdefault(job.params.get("reserve"), []).append((job, kind_label(job.kind), job_state(job, now)))
    reserves = [
        {"reserve": r, "code": SetId(event.slug, session, set_no, r.number).code, "piles": _laid_out(event, r.piles, lang),
         "tables": [t.number for t in r.tables.all()], "table_ids": {t.pk for t in r.tables.all()}, "jobs": jobs.get(r.pk, [])}
        for r in drawn.prefetch_related("tables")
    ]
    tables = (Table.objects.filter(group__session__event=event, group__session__number=session).order_by("number")
              if viewer.director else Table.objects.none())
    return render(request, "walls/wall_detail.html", {
        "event": event, "wall": wall, "piles": _laid_out(event, wall.piles, lang), "set_id": SetId(event.slug, session, set_no),
        "reserves": reserves, "staff": viewer.secrets, "director": viewer.director, "tables": tables,
        "next_reserve": max((r["reserve"].number for r in reserves), default=0) + 1,
        "reserve_kinds": RESERVE_KINDS, "default_template": event.default_label_stock or DEFAULT_TEMPLATE,
    })


@require_POST
@director_page
def reserve_draw(request, event, session, set_no):
    """Draw a reserve wall for the set (director only: reason, tables, the number the page
    expected) and go back to the set's wall page (:func:`tournament.services.draw_reserve`)."""
    number = request.POST.get("number", "")
    try:
        reserve = draw_reserve(event, session, set_no, reason=request.POST.get("reason", ""), actor=request.user.get_username(),
                               tables=request.POST.getlist("tables"), number=int(number) if number.isdigit() else None)
    except WallError as exc:
        messages.error(request, exc.message)
        return redirect(reverse("wall", args=[event.slug, session, set_no]) + "#draw-reserve")  # back at the form
    messages.success(request, _("Reserve wall %(label)s drawn for set %(set)s: print it below.")
                     % {"label": reserve.label, "set": f"{session}-{set_no:02d}"})
    return redirect(reverse("wall", args=[event.slug, session, set_no]) + f"#reserve-{reserve.number}")


@require_POST
@director_page
def reserve_tables(request, event, reserve_id):
    """Change the tables that play a reserve wall (director only) and go back to its set's wall
    page (:func:`tournament.services.set_reserve_tables`)."""
    reserve = get_object_or_404(ReserveWall, pk=reserve_id, event=event)
    try:
        set_reserve_tables(reserve, request.POST.getlist("tables"), actor=request.user.get_username())
    except WallError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Tables of reserve wall %(label)s saved; the set is scored again.") % {"label": reserve.label})
    return redirect("wall", slug=event.slug, session=reserve.session_number, set_no=reserve.set_no)
