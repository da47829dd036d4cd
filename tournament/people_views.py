"""The director's pages for the people and places of an event (docs/director-guide.md, "3. People and entrants"): rooms, people (staff
and scorer accounts), entrants (teams and players, late entrants, roster import), a team's or
player's names, check-in before a session; and the public per-room seating list of a session.

Thin adapters: each POST calls one service of :mod:`tournament.rooms`, :mod:`tournament.roles`, :mod:`tournament.entrants`, :mod:`tournament.check_in` (or
:func:`tournament.services.import_roster`), shows its SetupError with ``messages.error`` and
redirects; nothing stored is lost on an error.
"""

from __future__ import annotations

from dataclasses import asdict
from itertools import groupby

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.conf import settings
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from scoring import login_throttle
from tournament import check_in as check_in_services
from tournament import entrants as entrant_services
from tournament import roles as role_services
from tournament import rooms as room_services
from tournament.access import DIRECTOR, event_view
from tournament.forms import InviteForm, LateEntrantForm, QuickRoomsForm
from tournament.models import Event, EventRole, Player, Table, Team
from tournament.query import int_or
from tournament.roster import RosterError, check_encoding, unpack_roster
from tournament.table_plan import itineraries, seating_list
from tournament.services import SetupError, import_roster


def _actor(request) -> str:
    return request.user.get_username()


# --- rooms ---------------------------------------------------------------------------------------


@event_view(roles=(DIRECTOR,), login=True)
def rooms(request, event):
    """Rooms: a quick form (N rooms of C tables: "Create rooms"), the table of rooms (name and
    capacity per room, a new row, "Save rooms"), the tables one session needs from the roster
    and, before Prepare, whether the rooms can hold them (:func:`tournament.rooms.rooms_problem`)."""
    quick = QuickRoomsForm(request.POST if request.POST.get("action") == "quick" else None)
    if request.method == "POST":
        try:
            if request.POST.get("action") == "quick":
                if not quick.is_valid():
                    raise SetupError("rooms", " ".join(str(e) for errors in quick.errors.values() for e in errors))
                room_services.quick_rooms(event, quick.cleaned_data["rooms"], quick.cleaned_data["capacity"],
                                            actor=_actor(request))
            else:
                room_services.set_rooms(event, _room_rows(request.POST), actor=_actor(request))
        except SetupError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Rooms saved."))
        return redirect("rooms", slug=event.slug)
    room_list = list(event.rooms.order_by("number"))
    used = set(Table.objects.filter(room__in=room_list).values_list("room_id", flat=True))
    need = room_services.room_need(event)
    return render(request, "tournament/rooms.html", {
        "event": event, "quick": quick, "rooms": [(r, r.pk in used) for r in room_list], "need": need,
        "capacity": sum(r.capacity for r in room_list), "problem": room_services.rooms_problem(event),
        "seated": event.sessions.exists(),
    })


def _room_rows(post) -> list[tuple[int | None, str, int]]:
    """The room table's rows from the POST: ``number`` (blank for the new row), ``name``,
    ``capacity`` lists in page order; a row with ``remove`` ticked or a blank new row is left out."""
    removed = {int_or(n) for n in post.getlist("remove")}
    rows = []
    for number, name, capacity in zip(post.getlist("number"), post.getlist("name"), post.getlist("capacity"), strict=False):
        number = int_or(number)
        if number is None and not name.strip():
            continue
        if number is not None and number in removed:
            continue
        rows.append((number, name, int_or(capacity, 0)))
    return rows


@event_view()
def room_seating(request, event, number):
    """The per-room seating list of session ``number`` (public like the seating page; 404 when it
    is not seated): per room, its tables by number, each table's seats in the rule set's order
    with player and team (:func:`tournament.table_plan.seating_list`). Printable."""
    session = get_object_or_404(event.sessions, number=number)
    rooms_out = []
    for (room_number, room_name), rows in groupby(seating_list(event, number), key=lambda r: (r["room_number"], r["room"])):
        tables = [{"number": table, "seats": list(seats)} for table, seats in groupby(rows, key=lambda r: r["table"])]
        rooms_out.append({"number": room_number, "name": room_name or _("No room"), "tables": tables})
    return render(request, "tournament/room_seating.html", {
        "event": event, "session": session, "rooms": rooms_out, "team_event": event.method == Event.Method.TEAM,
    })


# --- people --------------------------------------------------------------------------------------


def _table_choices(event):
    tables = Table.objects.filter(group__session__event=event).select_related("group__session").order_by(
        "group__session__number", "number")
    return [(str(t.pk), _("Session %(session)s, table %(table)s") % {"session": t.group.session.number, "table": t.number})
            for t in tables]


@event_view(roles=(DIRECTOR,), login=True)
def people(request, event):
    """People: who holds which role (with a scorer's tables), an invite form ("Invite"; a new
    account's set-password link is shown once; an existing account is told apart: it gets the
    role only when its owner accepts), the invitations "invited, waiting" with "Withdraw",
    "Remove" per role and a scorer's tables."""
    choices = _table_choices(event)
    form = InviteForm(request.POST if request.POST.get("action", "invite") == "invite" and request.method == "POST" else None,
                      table_choices=choices)
    link = ""
    if request.method == "POST":
        action = request.POST.get("action", "invite")
        try:
            if action == "revoke":
                role_services.revoke_role(event, username=request.POST.get("username", ""), role=request.POST.get("role", ""),
                                            actor=_actor(request))
                messages.success(request, _("Role removed."))
            elif action == "withdraw":
                role_services.withdraw_invitation(event, request.POST.get("invitation"), actor=_actor(request))
                messages.success(request, _("Invitation withdrawn."))
            elif action == "tables":
                role_services.set_scorer_tables(event, username=request.POST.get("username", ""),
                                                  tables=[t for t in request.POST.getlist("tables") if t.isdigit()],
                                                  actor=_actor(request))
                messages.success(request, _("Tables saved."))
            elif form.is_valid():
                data = form.cleaned_data
                invitation = role_services.invite(event, username=data["username"], role=data["role"],
                                                    tables=data["tables"], actor=_actor(request))
                if invitation.created:
                    link = request.build_absolute_uri(invitation.set_password_path)
                    messages.success(request, _("Account %(user)s created. Give them the link below to choose a password: "
                                                "it is shown once.") % {"user": invitation.user.get_username()})
                else:
                    if invitation.already:
                        messages.success(request, _("%(user)s holds this role already.")
                                         % {"user": invitation.user.get_username()})
                    else:
                        messages.warning(request, _(
                            "The account %(user)s already exists: it gets the role only when its owner accepts the "
                            "invitation while logged in. Until then it is listed as invited, waiting. Make sure the "
                            "account is the person you mean.") % {"user": invitation.user.get_username()})
                    return redirect("people", slug=event.slug)
            if action != "invite":
                return redirect("people", slug=event.slug)
        except SetupError as exc:
            if action == "invite" and exc.field in form.fields:
                form.add_error(exc.field, exc.message)
            else:
                messages.error(request, exc.message)
                return redirect("people", slug=event.slug)
    grants = (EventRole.objects.filter(event=event).exclude(role=EventRole.Role.PLAYER)
              .select_related("user").prefetch_related("tables").order_by("role", "user__username"))
    return render(request, "tournament/people.html", {
        "event": event, "form": form if not link else InviteForm(table_choices=choices), "link": link,
        "grants": [{"grant": g, "tables": sorted(t.number for t in g.tables.all()),
                    "table_ids": {str(t.pk) for t in g.tables.all()}} for g in grants],
        "waiting": [{"invitation": i, "tables": sorted(t.number for t in i.tables.all())}
                    for i in role_services.pending_invitations(event)],
        "table_choices": choices,
    })


@login_required
def invitations(request):
    """The logged-in user's pending invitations (event, role, a scorer's tables, who invited,
    when), each with "Accept" and "Decline" (POST ``action``, ``invitation``): accepting
    grants exactly the role invited (:func:`tournament.roles.accept_invitation`)."""
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "accept":
                grant = role_services.accept_invitation(request.POST.get("invitation"), user=request.user)
                messages.success(request, _("You now hold the role %(role)s in %(event)s.")
                                 % {"role": grant.get_role_display(), "event": grant.event.name})
            elif action == "decline":
                role_services.decline_invitation(request.POST.get("invitation"), user=request.user)
                messages.success(request, _("Invitation declined."))
        except SetupError as exc:
            messages.error(request, exc.message)
        return redirect("invitations")
    return render(request, "tournament/invitations.html", {
        "waiting": [{"invitation": i, "tables": sorted(t.number for t in i.tables.all())}
                    for i in role_services.pending_invitations(user=request.user)],
    })


# --- entrants ------------------------------------------------------------------------------------


def roster_preview_context(check, name: str) -> dict:
    """The template's view of a :class:`tournament.roster.EncodingCheck` of the file ``name``
    (``roster_preview``: its fields, and ``name``)."""
    return {**asdict(check), "name": name}


@event_view(roles=(DIRECTOR,), login=True)
def entrants(request, event):
    """Entrants: teams and players with edit links, withdrawn and substitutes marked, doubtful
    names (a name in two teams); a late entrant before session 1 is seated (after it: a link to
    Substitutions); a roster import while the event has no players.

    A roster file in UTF-8 or Shift-JIS with kana is imported at once; any other encoding is a
    guess (:func:`tournament.roster.read_roster`): the page names it with the first names as
    they would be stored, and nothing is stored until the director imports with the encoding
    previewed (POST ``action=import-encoding``: ``roster_data`` the file kept as base64,
    ``roster_encoding`` chosen, ``roster_previewed`` the encoding shown, ``roster_step``
    "preview" or "import"; an encoding other than the one shown is previewed first)."""
    seated = event.sessions.exists()
    late = LateEntrantForm(request.POST if request.POST.get("action") == "add" else None)
    preview = None
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "import":
                upload = request.FILES.get("roster")
                if upload is None:
                    raise SetupError("roster", _("choose the roster file"))
                check = check_encoding(upload.read())
                if check.guess:
                    preview = roster_preview_context(check, upload.name)
                else:
                    return _import_roster(request, event, check.text)
            elif action == "import-encoding":
                data = unpack_roster(request.POST.get("roster_data", ""))
                chosen = request.POST.get("roster_encoding", "")
                check = check_encoding(data, chosen)
                preview = roster_preview_context(check, request.POST.get("roster_name", ""))
                if request.POST.get("roster_step") == "import" and not check.error:
                    if chosen == request.POST.get("roster_previewed"):
                        return _import_roster(request, event, check.text)
                    messages.info(request, _("The names are shown read as %(encoding)s now: check them, then import.")
                                  % {"encoding": check.label})
            if action == "add" and late.is_valid():
                entrant = entrant_services.add_entrant(event, team=late.cleaned_data["team"], players=late.player_names(),
                                                      actor=_actor(request))
                messages.success(request, _("%(name)s added.") % {"name": entrant.name})
                return redirect("entrants", slug=event.slug)
        except (SetupError, RosterError) as exc:
            messages.error(request, exc.message)
            if action == "import" or (action == "import-encoding" and preview is None):
                return redirect("entrants", slug=event.slug)
            if exc.field in late.fields:
                late.add_error(exc.field, exc.message)
    team_event = event.method == Event.Method.TEAM
    teams = list(event.teams.prefetch_related("players").order_by("number")) if team_event else []
    players = [] if team_event else list(event.players.order_by("number"))
    return render(request, "tournament/entrants.html", {
        "event": event, "team_event": team_event, "teams": teams, "players": players, "seated": seated,
        "late": late, "warnings": entrant_services.event_roster_warnings(event), "has_roster": event.players.exists(),
        "substitute_session": max(event.sessions.values_list("number", flat=True), default=1),
        "roster_preview": preview,
    })


def _import_roster(request, event, text: str):
    """Import ``text`` (:func:`tournament.services.import_roster`), say how many and any doubtful
    names, back to the entrants page. SetupError and RosterError pass through."""
    count = import_roster(event, text, actor=request.user)
    messages.success(request, _("%(count)s players imported.") % {"count": count})
    for warning in entrant_services.event_roster_warnings(event):
        messages.warning(request, warning)
    return redirect("entrants", slug=event.slug)


@event_view(roles=(DIRECTOR,), login=True)
def team_edit(request, event, team_id):
    """A team's name and (in member order) its players' names; "Save"."""
    team = get_object_or_404(Team, event=event, pk=team_id)
    members = entrant_services.team_players(team)
    if request.method == "POST":
        try:
            entrant_services.rename_team(team, name=request.POST.get("name", ""),
                                        members=request.POST.getlist("member"), actor=_actor(request))
        except SetupError as exc:
            messages.error(request, exc.message)
            return redirect("team-edit", slug=event.slug, team_id=team.pk)
        messages.success(request, _("Team saved."))
        return redirect("entrants", slug=event.slug)
    seats = event.get_ruleset().seats
    return render(request, "tournament/team_edit.html", {
        "event": event, "team": team,
        "members": [(i + 1, p) for i, p in enumerate(members)], "seats": seats,
    })


@event_view(roles=(DIRECTOR,), login=True)
def player_edit(request, event, player_id):
    """A player's name (a misspelling corrected, audited); "Save"."""
    player = get_object_or_404(Player, event=event, pk=player_id)
    if request.method == "POST":
        try:
            entrant_services.update_player(player, name=request.POST.get("name", ""), actor=_actor(request))
        except SetupError as exc:
            messages.error(request, exc.message)
            return redirect("player-edit", slug=event.slug, player_id=player.pk)
        messages.success(request, _("Player saved."))
        return redirect("entrants", slug=event.slug)
    return render(request, "tournament/player_edit.html", {"event": event, "player": player})


# --- check-in ------------------------------------------------------------------------------------


@event_view(roles=(DIRECTOR,), login=True)
def check_in(request, event, number):
    """Check-in for session ``number``: a checkbox per entrant (teams in team events), "Save
    check-in" and "Check in everyone", and what Prepare will do under the entrant policy
    (:func:`tournament.check_in.prepare_outlook`). Once the session is prepared: who was not
    checked in, and a link to Substitutions. Who checked in themselves with their player card is
    marked so, and the page follows new check-ins live (polling :func:`check_in_board`): a box
    the director has not touched is ticked when its entrant checks in. Entrants withdrawn for not checking in before session
    1 are listed with **Take back** (``action=reinstate``: :func:`tournament.check_in.reinstate`),
    for a late arrival. 404 beyond the planned sessions."""
    if not 1 <= number <= event.sessions_planned:
        raise Http404("no such session")
    prepared = event.sessions.filter(number=number).exists()
    if request.method == "POST" and request.POST.get("action") == "reinstate":
        try:
            back = check_in_services.reinstate(event, request.POST.get("entrant"), actor=_actor(request))
        except SetupError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("%(name)s is back in the event: check it in for the next session, then Prepare "
                                        "seats it.") % {"name": back.name})
        return redirect("check-in", slug=event.slug, number=number)
    if request.method == "POST":
        try:
            if request.POST.get("action") == "all":
                count = check_in_services.check_in_all(event, number, actor=_actor(request))
            else:
                players = request.POST.getlist("present_player") if request.POST.get("by_player") else None
                count = check_in_services.check_in(event, number, request.POST.getlist("present"), actor=_actor(request),
                                                   present_players=players)
        except SetupError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Check-in saved: %(count)s present.") % {"count": count})
        return redirect("check-in", slug=event.slug, number=number)
    present = check_in_services.checked_in_ids(event, number)
    listed = check_in_services.check_in_entrants(event)
    team_event = event.method == Event.Method.TEAM
    here = check_in_services.checked_in_player_ids(event, number) if team_event else set()
    board = check_in_services.check_in_board(event, number)  # who checked in themselves (their card)
    members: dict[int, list] = {}
    if team_event:  # check in by player too: each team's players under it
        for p in event.players.filter(team__in=listed, withdrawn=False, replaced_by=None).order_by("member"):
            members.setdefault(p.team_id, []).append((p, p.pk in here, board["players"].get(str(p.pk)) == "self"))
    return render(request, "tournament/check_in.html", {
        "event": event, "number": number, "prepared": prepared, "team_event": event.method == Event.Method.TEAM,
        "entrants": [(e, e.pk in present, members.get(e.pk, []), board["entrants"].get(str(e.pk)) == "self") for e in listed],
        "absent": check_in_services.not_checked_in(event, number),
        "anyone": bool(present),
        "outlook": [] if prepared else check_in_services.prepare_outlook(event, number),
        "sessions": range(1, event.sessions_planned + 1),
        "withdrawn": check_in_services.withdrawn_entrants(event), "by_player": bool(here),
    })


def _card_refused(request, event, error: str, status: int, wait: int | None = None):
    response = render(request, "tournament/card_check_in.html", {"event": event, "error": error}, status=status)
    if wait:
        response["Retry-After"] = str(wait)
    return response


@event_view()
def card_check_in(request, event, number, token):
    """A player's own check-in, opened by the QR code of their player card
    (:func:`tournament.check_in.card_token`: the link's secret). A GET only shows the page (a link
    previewer changes nothing); "Check me in" POSTs (:func:`tournament.check_in.self_check_in`,
    safe to repeat). The page names the player, whether they are checked in for the open
    session, and their own table and seat once a session is seated: never a set. A wrong link is
    counted like a wrong table code (:mod:`scoring.login_throttle`): over the limit it is answered
    429 with ``Retry-After``, and a right link is never refused as wrong. Check-in closes at
    Prepare, as the director's does."""
    wait = login_throttle.check_slot(request)
    if wait:
        return _card_refused(request, event, _too_many_cards(wait), 429, wait)
    player = check_in_services.card_player(event, number, token)
    if player is None:
        error = _("This card link is not valid (it may be from another event, or the card was reprinted). "
                  "Check in with the director.")
        if login_throttle.count_wrong(request, f"card:{event.pk}:{number}:{token}"):
            wait = max(1, int(settings.TABLE_LOGIN_SLOW_SECONDS))
            return _card_refused(request, event, f"{error} {_too_many_cards(wait)}", 429, wait)
        return _card_refused(request, event, error, 404)
    if request.method == "POST":
        try:  # the page it leads to says "You are checked in": no message on top of it
            check_in_services.self_check_in(event, player)
        except SetupError as exc:
            messages.error(request, exc.message)
        return redirect("card-check-in", slug=event.slug, number=number, token=token)
    session = check_in_services.open_session(event)
    seats = [s for s in itineraries(event, [player.pk]).get(player.pk, []) if not s["replaced_by"]]
    return render(request, "tournament/card_check_in.html", {
        "event": event, "player": player, "session": session,
        "checked_in": session is not None and check_in_services.is_checked_in(event, player, session),
        "seat": seats[-1] if seats else None,
    })


def _too_many_cards(wait: int) -> str:
    return _("Too many wrong card links were tried from this network. Try again in %(seconds)s seconds.") % {
        "seconds": wait}


@event_view(roles=(DIRECTOR,), login=True)
def check_in_board(request, event, number):
    """The check-in page's live view (JSON, polled by the page): who is checked in for session
    ``number`` and whether by themselves or by the director (:func:`tournament.check_in.check_in_board`)."""
    if not 1 <= number <= event.sessions_planned:
        raise Http404("no such session")
    return JsonResponse(check_in_services.check_in_board(event, number))
