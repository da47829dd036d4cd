"""Pages of the walls app: print requests, their progress and downloads (staff and director)."""

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.models import Event
from django.shortcuts import render

from walls.models import PrintJob, WallSet
from walls.printing_jobs import PrintError, request_batch, request_print
from scoring import visibility
from walls.setcode import SetId


def _staff_event(request, slug):
    """The event, for its director and staff: print jobs hold secret walls (set-up sheets, pick
    lists), so they follow :mod:`scoring.visibility`'s secret view."""
    event = get_object_or_404(Event, slug=slug)
    if not visibility.viewer(request, event).secrets:
        raise PermissionDenied
    return event


@require_POST
@login_required
def print_request(request, slug):
    event = _staff_event(request, slug)
    params = {"session": int(request.POST.get("session", 1) or 1), "lang": request.POST.get("lang", "en")}
    if request.POST.get("template"):
        params["template"] = request.POST["template"]
    try:
        if request.POST.get("kind") == "batch":
            request_batch(event, params["session"], params["lang"])
        else:
            request_print(event, request.POST.get("kind", ""), params)
    except PrintError as exc:
        from django.contrib import messages

        messages.error(request, exc.message)
    return redirect("director", slug=slug)


@login_required
def print_status(request, slug):
    event = _staff_event(request, slug)
    from django.urls import reverse

    jobs = list(event.print_jobs.all()[:50])
    done = sum(1 for j in jobs if j.status == PrintJob.Status.DONE)
    return JsonResponse({"done": done, "total": len(jobs), "jobs": [
        {"id": j.pk, "kind": j.kind, "session": j.params.get("session"), "status": j.status,
         "status_display": j.get_status_display(), "progress": j.progress, "total": j.total, "error": j.error,
         "download": reverse("print-download", args=[event.slug, j.pk]) if j.status == PrintJob.Status.DONE else None}
        for j in jobs
    ]})


@login_required
def print_download(request, slug, job_id):
    event = _staff_event(request, slug)
    job = get_object_or_404(PrintJob, pk=job_id, event=event)
    if job.status != PrintJob.Status.DONE or not job.file:
        raise Http404(_("this print job has no file yet"))
    return FileResponse(job.file.open("rb"), content_type="application/pdf", filename=job.file.name.rsplit("/", 1)[-1])



def _tile_lang(request) -> str:
    from django.utils.translation import get_language

    lang = (get_language() or "en").lower()
    return "ja" if lang.startswith("ja") else "zh" if lang.startswith("zh") else "en"


def wall_list(request, slug):
    """The wall sets of the event: all of them for staff, the public hand records for others."""
    event = get_object_or_404(Event, slug=slug)
    staff = visibility.viewer(request, event).secrets
    released = visibility.released_sets(event)
    walls = [(w, staff or (w.session_number, w.set_no) in released) for w in event.wall_sets.all()]
    return render(request, "walls/wall_list.html", {"event": event, "walls": walls, "staff": staff})


def wall_detail(request, slug, session, set_no):
    """One wall set pile by pile (tiles with their names): staff always, others once it is public."""
    from walls.tiles import tile_name

    event = get_object_or_404(Event, slug=slug)
    wall = get_object_or_404(WallSet, event=event, session_number=session, set_no=set_no)
    if not visibility.can_see_set(visibility.viewer(request, event), event, session, set_no):
        raise PermissionDenied(_("Wall %(set)s is secret until every table has played it; its traveller shows it then.")
                               % {"set": SetId(event.slug, session, set_no).code})
    lang = _tile_lang(request)
    piles = [
        {"pile": pile, "tiles": [(f"{pile.slot_prefix}{i}", t, tile_name(t, lang)) for i, t in enumerate(wall.piles[pile.name], 1)]}
        for pile in event.get_ruleset().piles
    ]
    return render(request, "walls/wall_detail.html", {
        "event": event, "wall": wall, "piles": piles, "set_id": SetId(event.slug, session, set_no),
    })
