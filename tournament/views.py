"""Pages of the tournament app: the event list, the public event page and the director's page."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring import table_access
from scoring.models import HandResult
from scoring.visibility import sets_to_play
from tournament.access import DIRECTOR, STAFF, event_view
from tournament.exchange import export_event, public_export
from tournament.forms import CUSTOM, EventForm
from tournament.models import Event, EventRole
from tournament.permissions import is_director, is_staff_or_director
from tournament.services import SetupError, create_event, import_roster, reveal_seed, set_public_value
from tournament.services import prepare_session as seat_with_walls
from walls.printing_jobs import SESSION_KINDS, kind_label
from walls.services import WallError

AUDIT_ROWS = 50  # audit entries on the director's page, newest first


def home(request):
    """The list of events."""
    return render(request, "tournament/home.html", {"events": Event.objects.all()})


@event_view()
def event_page(request, event):
    """The public page of an event: its commitment and public value, its sessions."""
    return render(request, "tournament/event.html", {
        "event": event, "ruleset": event.get_ruleset(), "sessions": event.sessions.all(),
        "is_director": is_director(request.user, event),
        "is_staff": is_staff_or_director(request.user, event),
    })


@event_view(roles=(DIRECTOR, STAFF), login=True)
def director(request, event):
    """The director's page (director and staff): sessions to seat, print jobs, verifiable walls,
    the audit trail."""
    sessions = []
    for session in event.sessions.prefetch_related("groups__tables"):
        results = HandResult.objects.filter(event=event, session_number=session.number)
        sessions.append({
            "session": session,
            "walls": event.wall_sets.filter(session_number=session.number).count(),
            "entered": results.count(),
            "confirmed": results.filter(status=HandResult.Status.CONFIRMED).count(),
            "tables": [t for g in session.groups.all() for t in g.tables.all()],
        })
    seated = set(event.sessions.values_list("number", flat=True))
    return render(request, "tournament/director.html", {
        "event": event, "sessions": sessions, "is_director": is_director(request.user, event),
        "unseated": [n for n in range(1, event.sessions_planned + 1) if n not in seated],
        "jobs": [(job, kind_label(job.kind)) for job in event.print_jobs.all()[:30]],
        "sets_to_play": max(0, sets_to_play(event)),
        "audit": event.audit_entries.order_by("-at", "-id")[:AUDIT_ROWS],
        "print_kinds": SESSION_KINDS,
    })


@require_POST
@event_view(roles=(DIRECTOR,), login=True)
def prepare_session(request, event):
    """Seat a session and generate its walls (director only)."""
    try:
        number = int(request.POST.get("session", ""))
    except ValueError:
        messages.error(request, _("choose the session to prepare"))
        return redirect("director", slug=event.slug)
    try:
        seat_with_walls(event, number)
    except (SetupError, WallError) as exc:
        messages.error(request, exc.message)
    except ValueError as exc:
        messages.error(request, str(exc))
    return redirect("director", slug=event.slug)


@event_view()
def event_export(request, event):
    """The event as JSON: complete for the director and staff, redacted for everyone else
    (:func:`tournament.exchange.public_export`)."""
    data = export_event(event) if table_access.viewer(request, event).secrets else public_export(event)
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = f'attachment; filename="{event.slug}.json"'
    return response


@require_POST
@event_view(roles=(DIRECTOR,), login=True)
def walls_commitment(request, event):
    """Director action of the verifiable-walls protocol: enter the public value. The seed is
    revealed on its own confirmation page (:func:`reveal`); a request to reveal here is sent there."""
    if request.POST.get("action") == "reveal":
        return redirect("reveal-seed", slug=event.slug)
    try:
        set_public_value(event, request.POST.get("public_value", ""))
        messages.success(request, _("Public value recorded; walls can now be generated."))
    except SetupError as exc:
        messages.error(request, exc.message)
    return redirect("director", slug=event.slug)


@event_view(roles=(DIRECTOR,), login=True)
def reveal(request, event):
    """Reveal the master seed (director only), after a confirmation page that says what it does:
    GET shows the page, POST with the event's short name typed reveals
    (:func:`tournament.services.reveal_seed`). Offered only once the event is finished."""
    error, status = "", 200
    if request.method == "POST":
        typed = request.POST.get("confirm_slug", "").strip()
        if typed != event.slug:
            error, status = _("Type the event's short name, %(slug)s, to confirm; nothing was revealed.") % {"slug": event.slug}, 400
        else:
            try:
                reveal_seed(event, actor=request.user.get_username())
            except SetupError as exc:
                error, status = exc.message, 409
            else:
                messages.success(request, _("The master seed is now public on the event page."))
                return redirect("director", slug=event.slug)
        event.refresh_from_db()
    return render(request, "tournament/reveal.html", {
        "event": event, "sets_to_play": max(0, sets_to_play(event)), "error": error,
    }, status=status)


@login_required
def new_event(request):
    """Create an event (staff users): rule set, scoring, roster. The creator becomes its director.
    The event and its roster are stored together or not at all."""
    if not request.user.is_staff:
        raise PermissionDenied(_("ask the site administrator for an organiser account"))
    form = EventForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            with transaction.atomic():
                event = create_event(
                    name=data["name"], slug=data["slug"], ruleset_code=data["ruleset"] if data["ruleset"] != CUSTOM else "",
                    ruleset=data.get("ruleset_object"), method=data["method"], conversion=data["conversion"],
                    sessions=data["sessions"], datum_method=data["datum_method"], comparison=data["comparison"],
                    public_value_source=data["public_value_source"], entrant_policy=data["entrant_policy"],
                    fouled_min_tables=data["fouled_min_tables"], fouled_adjusted_points=data["fouled_adjusted_points"],
                )
                if data.get("roster"):
                    import_roster(event, data["roster"].read().decode("utf-8-sig"))
                EventRole.objects.create(event=event, user=request.user, role=EventRole.Role.DIRECTOR)
        except SetupError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        except UnicodeDecodeError:
            form.add_error("roster", _("the roster must be a UTF-8 CSV file"))
        else:
            return redirect("director", slug=event.slug)
    return render(request, "tournament/new_event.html", {"form": form})
