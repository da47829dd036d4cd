"""Pages of the walls app: print requests, their progress and downloads (staff and director)."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring import table_access, visibility
from tournament.access import DIRECTOR, STAFF, event_view
from walls.models import PrintJob, WallSet
from walls.printing_jobs import PrintError, kind_label, request_batch, request_print
from walls.setcode import SetId
from walls.tiles import tile_name

# Print jobs hold secret walls (set-up sheets, pick lists): the roles that see secret sets
# (:mod:`scoring.visibility`), after a login.
staff_page = event_view(roles=(DIRECTOR, STAFF), login=True)


@require_POST
@staff_page
def print_request(request, event):
    """Queue a print job (or a session's batch) and go back to the director's page."""
    params = {"session": int(request.POST.get("session", 1) or 1), "lang": request.POST.get("lang", "en")}
    if request.POST.get("template"):
        params["template"] = request.POST["template"]
    try:
        if request.POST.get("kind") == "batch":
            request_batch(event, params["session"], params["lang"])
        else:
            request_print(event, request.POST.get("kind", ""), params)
    except PrintError as exc:
        messages.error(request, exc.message)
    return redirect("director", slug=event.slug)


@staff_page
def print_status(request, event):
    """The event's latest print jobs and their progress, as JSON for the director's page."""
    jobs = list(event.print_jobs.all()[:50])
    done = sum(1 for j in jobs if j.status == PrintJob.Status.DONE)
    return JsonResponse({"done": done, "total": len(jobs), "jobs": [
        {"id": j.pk, "kind": j.kind, "label": kind_label(j.kind), "session": j.params.get("session"), "lang": j.params.get("lang"), "status": j.status,
         "status_display": j.get_status_display(), "progress": j.progress, "total": j.total, "error": j.error,
         "download": reverse("print-download", args=[event.slug, j.pk]) if j.status == PrintJob.Status.DONE else None}
        for j in jobs
    ]})


@staff_page
def print_download(request, event, job_id):
    """A finished print job's PDF."""
    job = get_object_or_404(PrintJob, pk=job_id, event=event)
    if job.status != PrintJob.Status.DONE or not job.file:
        raise Http404(_("this print job has no file yet"))
    return FileResponse(job.file.open("rb"), content_type="application/pdf", filename=job.file.name.rsplit("/", 1)[-1])


def _tile_lang(request) -> str:
    lang = (get_language() or "en").lower()
    return "ja" if lang.startswith("ja") else "zh" if lang.startswith("zh") else "en"


@event_view()
def wall_list(request, event):
    """The wall sets of the event: all of them for staff, the public hand records for others."""
    staff = table_access.viewer(request, event).secrets
    released = visibility.released_sets(event)
    walls = [(w, staff or (w.session_number, w.set_no) in released) for w in event.wall_sets.all()]
    return render(request, "walls/wall_list.html", {"event": event, "walls": walls, "staff": staff})


@event_view()
def wall_detail(request, event, session, set_no):
    """One wall set pile by pile (tiles with their names): staff always, others once it is public."""
    wall = get_object_or_404(WallSet, event=event, session_number=session, set_no=set_no)
    if not visibility.can_see_set(table_access.viewer(request, event), event, session, set_no):
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
