"""Pages of the tournament app: the event list, the public event page and the director's page."""

from dataclasses import asdict
from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from scoring import table_access
from scoring.models import HandResult
from scoring.visibility import session_finished, sets_to_play
from tournament.venue import (
    CA_CERT,
    FirstDirectorTaken,
    address_problem,
    create_first_director,
    needs_first_director,
    setup_code_matches,
)
from tournament.access import DIRECTOR, STAFF, event_view, visible_events
from tournament.clock import clock_state
from tournament.event_setup import DELETABLE, record_final_export
from tournament import cache
from tournament.exchange import export_event, public_export_bytes
from tournament.forms import CUSTOM, EventForm
from tournament.i18n import catalogue_text
from tournament.models import Event, EventRole, Table
from tournament.permissions import is_director, is_staff_or_director
from tournament.roster import RosterError, check_encoding, parse_roster, roster_warnings, unpack_roster
from tournament.services import (
    SetupError,
    create_event,
    import_roster,
    reveal_seed,
    set_public_value,
)
from tournament.services import prepare_session as seat_with_walls
from walls.print_jobs import job_state, job_title
from walls.print_kinds import SESSION_KINDS
from walls.print_kinds.walls import sticker_paper
from walls.printing import DEFAULT_TEMPLATE, PRESETS
from walls.printing.tilesize import event_tile, stock_problem
from walls.services import WallError

AUDIT_ROWS = 50  # audit entries on the director's page, newest first


def home(request):
    """The list of events: published and finished ones; archived ones folded under "Archived
    events"; drafts only for users holding a role in them, under "Your drafts"
    (:func:`tournament.access.visible_events`), with a link to the director's page where the
    user may open it. One query, and one per draft."""
    status = Event.Status
    events = list(visible_events(request.user))
    for event in events:  # the rule set's name in the reader's language, never its internal code
        event.ruleset_label = catalogue_text(event.get_ruleset().name)
    return render(request, "tournament/home.html", {
        "first_run": not request.user.is_authenticated and needs_first_director(),
        "events": [e for e in events if e.status in (status.PUBLISHED, status.FINISHED)],
        "archived": [e for e in events if e.status == status.ARCHIVED],
        "drafts": [(e, is_staff_or_director(request.user, e)) for e in events if e.status == status.DRAFT],
    })


@event_view()
def event_page(request, event):
    """The public page of an event: its commitment and public value, its sessions."""
    return render(request, "tournament/event.html", {
        "event": event, "ruleset": event.get_ruleset(), "ruleset_name": catalogue_text(event.get_ruleset().name),
        "sessions": event.sessions.all(),
        "is_director": is_director(request.user, event),
        "is_staff": is_staff_or_director(request.user, event),
    })


@event_view(roles=(DIRECTOR, STAFF), login=True)
def director(request, event):
    """The director's page (director and staff): sessions to seat, each session's clock and
    prints (label stock, sheet language, the session's ZIP; what the wall stickers take, copies,
    stickers and sheets, and a warning when their codes would be too small to scan:
    :func:`walls.print_kinds.walls.sticker_paper`), the projector's announcement, print
    jobs, verifiable walls, the audit trail."""
    sessions = []
    for session in event.sessions.prefetch_related("groups__tables"):
        results = HandResult.objects.filter(event=event, session_number=session.number)
        sessions.append({
            "session": session,
            "walls": event.wall_sets.filter(session_number=session.number).count(),
            "entered": results.count(),
            "confirmed": results.filter(status=HandResult.Status.CONFIRMED).count(),
            "tables": [t for g in session.groups.all() for t in g.tables.all()],
            "clock": clock_state(session, finished=session_finished(event, session.number)),
            "paper": sticker_paper(event, session.number, event.default_label_stock or DEFAULT_TEMPLATE),
        })
    seated = set(event.sessions.values_list("number", flat=True))
    tile = event_tile(event.tile_size, event.get_ruleset(), lenient=True)
    return render(request, "tournament/director.html", {
        "event": event, "sessions": sessions, "is_director": is_director(request.user, event),
        "unseated": [n for n in range(1, event.sessions_planned + 1) if n not in seated],
        "jobs": [(job, job_title(job), job_state(job)) for job in event.print_jobs.all()[:30]],
        "sets_to_play": max(0, sets_to_play(event)),
        "audit": event.audit_entries.order_by("-at", "-id")[:AUDIT_ROWS],
        "print_kinds": SESSION_KINDS,
        "label_stocks": [(name, catalogue_text(template.describe()) if not stock_problem(template, tile)
                          else _("%(stock)s — too large for these tiles") % {"stock": catalogue_text(template.describe())})
                         for name, template in PRESETS.items()],
        "label_stock": event.default_label_stock or DEFAULT_TEMPLATE,
        "tile": tile,
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
        session = seat_with_walls(event, number, actor=request.user.get_username())
        groups = session.groups.count()
        messages.success(request, ngettext(
            "Session %(session)s is seated: %(groups)s group on %(tables)s tables; its walls are generated.",
            "Session %(session)s is seated: %(groups)s groups on %(tables)s tables; its walls are generated.",
            groups,
        ) % {"session": number, "groups": groups, "tables": Table.objects.filter(group__session=session).count()})
    except (SetupError, WallError) as exc:
        messages.error(request, exc.message)
    except ValueError as exc:
        messages.error(request, str(exc))
    return redirect("director", slug=event.slug)


@event_view()
def event_export(request, event):
    """The event as JSON: complete for the director and staff, redacted for everyone else
    (:func:`tournament.exchange.public_export`). The director's or staff's download of a finished
    or archived event is its final export (:func:`tournament.event_setup.record_final_export`),
    which allows deleting the event. The public export is kept per public version as compact
    JSON bytes and their gzip (about a tenth: sent to a client that accepts it), with an ETag,
    and rate-limited per address (:mod:`tournament.cache`)."""
    viewer = table_access.viewer(request, event)
    if viewer.secrets:
        if event.status in DELETABLE and is_staff_or_director(request.user, event):
            record_final_export(event, actor=request.user.get_username())
        response = JsonResponse(export_event(event), json_dumps_params={"ensure_ascii": False, "indent": 1})
        response["Content-Disposition"] = f'attachment; filename="{event.slug}.json"'
        return response

    def build() -> HttpResponse:
        refused = cache.limited(request, "export.json", viewer)
        if refused is not None:
            return refused
        response = cache.kept_bytes(request, event, "download:export.json", lambda: public_export_bytes(event),
                                    "application/json", public=True)
        response["Content-Disposition"] = f'attachment; filename="{event.slug}.json"'
        return response

    # each encoding is its own representation, with its own ETag
    return PUBLIC_EXPORT.respond(request, event, PUBLIC_EXPORT.variant(viewer, True, int(cache.accepts_gzip(request))),
                                 build, public=True)


PUBLIC_EXPORT = cache.Page("export.json", html=False)


@event_view(roles=(DIRECTOR,), login=True)
def event_export_secret(request, event):
    """The director's export with the master seed (:func:`tournament.exchange.export_event` with
    ``include_secret``), for a finished or archived event only: the final export
    (:func:`tournament.event_setup.record_final_export` with ``seed``) that allows deleting an
    event whose seed is not revealed, so that a restore can reveal it. Before that the director is
    sent back to the director's page with why (no file with the seed while sets can be played)."""
    try:
        record_final_export(event, actor=request.user.get_username(), seed=True)
    except SetupError:
        messages.error(request, _("The export with the master seed is for a finished or archived event only: finish "
                                  "the event first."))
        return redirect("director", slug=event.slug)
    response = JsonResponse(export_event(event, include_secret=True), json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-with-seed.json"'
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
    (:func:`tournament.services.reveal_seed`). Offered only once the event is finished. An event
    that holds no seed (imported from an export made before the reveal) asks for it: the typed
    ``seed`` is checked against the published commitment."""
    error, status = "", 200
    if request.method == "POST":
        typed = request.POST.get("confirm_slug", "").strip()
        if typed != event.slug:
            error, status = _("Type the event's short name, %(slug)s, to confirm; nothing was revealed.") % {"slug": event.slug}, 400
        else:
            try:
                reveal_seed(event, actor=request.user.get_username(), seed=request.POST.get("seed", ""))
            except SetupError as exc:
                error, status = exc.message, 409
            else:
                messages.success(request, _("The master seed is now public on the event page."))
                return redirect("director", slug=event.slug)
        event.refresh_from_db()
    return render(request, "tournament/reveal.html", {
        "event": event, "sets_to_play": max(0, sets_to_play(event)), "error": error,
        "typed_seed": request.POST.get("seed", "").strip()[:80] if error and not event.master_seed else "",
    }, status=status)


def _served_address(request) -> str:
    """The address this request reached the site at, as the public address of a new event; ""
    when phones could not open it (``127.0.0.1`` on a laptop: :func:`tournament.venue.address_problem`),
    so no code is printed with it: the settings page then offers this machine's address on its
    network, and printing asks for one."""
    served = request.build_absolute_uri("/")
    return "" if address_problem(served) else served


@login_required
def new_event(request):
    """Create an event (staff users): rule set, scoring, public address (empty: the address this
    site is served on), roster. The event starts as a draft and its creator becomes its director.
    The event and its roster are stored together or not at all. The roster file is decoded as
    spreadsheets save it (:func:`tournament.roster.read_roster`) and kept after any error (the
    hidden ``roster_text``), so the director does not choose it again; errors are listed at the
    top. Doubtful names (:func:`tournament.roster.roster_warnings`) are shown as warnings.

    A roster whose encoding is a guess (not UTF-8, not Shift-JIS with kana) creates nothing: the
    form comes back with the names previewed in the guessed encoding and a choice of encodings
    (``roster_data`` keeps the file as base64, ``roster_encoding`` the choice,
    ``roster_previewed`` the encoding shown); the event is created once it is posted with the
    encoding previewed ("Show the names in this encoding", ``roster_step=preview``, shows
    another first)."""
    if not request.user.is_staff:
        raise PermissionDenied(_("ask the site administrator for an organiser account"))
    data = request.POST.copy() if request.method == "POST" else None
    roster_error = None
    roster_preview = None
    if data is not None and (request.FILES.get("roster") or data.get("roster_data")):
        upload = request.FILES.get("roster")
        try:
            if upload is not None:
                check, name = check_encoding(upload.read()), upload.name
            else:
                check, name = check_encoding(unpack_roster(data["roster_data"]), data.get("roster_encoding", "")), data.get("roster_name", "")
            confirmed = (not check.guess and upload is not None) or (
                upload is None and data.get("roster_step") != "preview" and not check.error
                and data.get("roster_encoding") == data.get("roster_previewed"))
            if confirmed:
                data["roster_text"], data["roster_name"], data["roster_data"] = check.text, name, ""
            else:
                data["roster_text"] = ""
                roster_preview = {**asdict(check), "name": name}
        except RosterError as exc:
            roster_error = exc.message
    form = EventForm(data)
    if data is not None and form.is_valid() and roster_error is None and roster_preview is None:
        clean = form.cleaned_data
        text = clean.get("roster_text") or ""
        try:
            with transaction.atomic():
                event = create_event(
                    name=clean["name"], slug=clean["slug"], ruleset_code=clean["ruleset"] if clean["ruleset"] != CUSTOM else "",
                    ruleset=clean.get("ruleset_object"), method=clean["method"], conversion=clean["conversion"] or None,
                    sessions=clean["sessions"], datum_method=clean["datum_method"], comparison=clean["comparison"],
                    public_value_source=clean["public_value_source"], entrant_policy=clean["entrant_policy"],
                    fouled_min_tables=clean["fouled_min_tables"], fouled_adjusted_points=clean["fouled_adjusted_points"],
                    base_url=clean.get("base_url") or _served_address(request), status=Event.Status.DRAFT,
                    actor=request.user,
                )
                if text.strip():
                    import_roster(event, text, actor=request.user)
                EventRole.objects.create(event=event, user=request.user, role=EventRole.Role.DIRECTOR)
        except SetupError as exc:
            form.add_error(exc.field if exc.field in form.fields and exc.field != "roster_text" else None, exc.message)
        else:
            for warning in roster_warnings(parse_roster(text)) if text.strip() else []:
                messages.warning(request, warning)
            messages.success(request, _("The event is created as a draft: only you and the people you invite see it. "
                                        "Publish it in Settings."))
            if not event.base_url:
                messages.warning(request, address_problem(""))
            return redirect("director", slug=event.slug)
    if roster_error is not None:
        form.is_valid()  # the form's own errors too, then the file's
        form.add_error("roster", roster_error)
    return render(request, "tournament/new_event.html", {
        "form": form, "roster_kept": (form.data.get("roster_name") or _("the roster")) if form.data.get("roster_text") else "",
        "roster_preview": roster_preview,
    })


def venue_certificate(request):
    """The venue's own certificate authority (``venue-ca.crt`` in ``VENUE_TLS_DIR``, by default
    ``.venue-tls/`` beside ``manage.py``, made by ``manage.py venue``), for phones to install once so the venue's https address opens
    without a warning (docs/deploy.md, "HTTPS at the venue"). A certificate only: no key, nothing
    secret. 404 when the venue serves without one."""
    path = Path(settings.VENUE_TLS_DIR) / CA_CERT
    if not path.exists():
        raise Http404(_("This server has no venue certificate: it is made by python manage.py venue."))
    response = HttpResponse(path.read_bytes(), content_type="application/x-x509-ca-cert")
    response["Content-Disposition"] = 'attachment; filename="venue-certificate.crt"'
    return response


def first_director(request):
    """The first-run page: on a site where no account may run events yet
    (:func:`tournament.venue.needs_first_director`), whoever holds the one-time setup code that
    ``manage.py venue`` prints on the laptop's terminal (:func:`tournament.venue.setup_code`)
    creates the first director (a superuser) with a user name and password, and is logged in.
    404 once any such account exists; refused with the development key, whose code anyone could
    work out (docs/security.md, "The first director")."""
    if not needs_first_director():
        raise Http404(_("This site has a director already: log in."))
    if settings.SECRET_KEY == settings.DEV_SECRET_KEY:
        raise PermissionDenied(_("Start the site with python manage.py venue, which prints the setup code, "
                                 "or create the first director with python manage.py createsuperuser."))
    form = UserCreationForm(request.POST or None)
    code = request.POST.get("code", request.GET.get("code", ""))
    code_error = None
    if request.method == "POST":
        if not setup_code_matches(code, settings.SECRET_KEY):
            code_error = _("Setup code: not the code python manage.py venue printed on the laptop's terminal; "
                           "copy it from there (or open the address it printed).")
        elif form.is_valid():
            try:
                user = create_first_director(form)
            except FirstDirectorTaken:
                raise Http404(_("This site has a director already: log in.")) from None
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, _("You are the site's first director. Create your event with New event."))
            return redirect("home")
    return render(request, "tournament/first_director.html", {"form": form, "code": code, "code_error": code_error})
