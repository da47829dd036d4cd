"""The people and places of an event, set by its director without the admin (docs/director-guide.md, "3. People and entrants"): rooms,
staff and scorer accounts, team and player names, late entrants and check-in before a session.

Each public write is one transaction, writes an :class:`~tournament.models.AuditEntry` and is
safe to repeat (a re-posted form changes nothing the second time). Errors are
:class:`tournament.seating.SetupError` naming the input. The seating rules these checks rely on
are docs/seating.md ("Rooms"; "Entrant counts that are not a multiple of the group size").
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.db import transaction
from django.db.models import Max
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.models import (
    CheckIn,
    Event,
    EventRole,
    Invitation,
    Player,
    Room,
    Table,
    Team,
)
from tournament.movement import MovementError, place_tables
from tournament.roster import RosterEntry, roster_warnings
from tournament.seating import SetupError, current_entrants, group_size, team_member

# --- rooms ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoomNeed:
    """What the roster asks of the rooms: ``entrants`` (present, not withdrawn), ``groups`` and
    ``tables`` per session, ``seats`` per table."""

    entrants: int
    groups: int
    tables: int
    seats: int


def room_need(event: Event) -> RoomNeed:
    """The tables one session of ``event`` needs from its roster: entrants / group size rounded
    up (substitutes fill the last group), rounded down under a sit-out policy (the rest sit
    out), times the seats of the rule set (docs/seating.md, "Entrant counts...")."""
    entrants = len(current_entrants(event))
    size = group_size(event)
    seats = len(event.get_ruleset().seats)
    if event.entrant_policy in (Event.EntrantPolicy.SIT_OUT_AVERAGE, Event.EntrantPolicy.SIT_OUT_DATUM):
        groups = entrants // size
    else:
        groups = math.ceil(entrants / size)
    return RoomNeed(entrants, groups, groups * seats, seats)


def rooms_problem(event: Event, capacities: Sequence[int] | None = None) -> str | None:
    """Why the rooms (``capacities`` in tables, room by room; None: the event's rooms) cannot
    hold one session's tables so that no two tables playing the same set at the same hand share
    a room (:func:`tournament.movement.place_tables`: staggering the groups when that makes them fit); None when they can, when no rooms are set
    (then every table gets a room of its own, docs/rules.md, "Duplicate MCR: rooms and separation") or when there is no roster yet."""
    if capacities is None:
        capacities = list(event.rooms.order_by("number").values_list("capacity", flat=True))
    need = room_need(event)
    if not capacities or not need.groups:
        return None
    if len(capacities) >= need.tables and all(c == 1 for c in capacities):
        return None
    try:
        place_tables(event.get_ruleset(), need.groups, list(capacities))
    except MovementError as exc:
        return str(exc)
    return None


def _audit(event: Event, action: str, actor: str, **detail) -> None:
    event.log(action, actor, **detail)


@transaction.atomic
def set_rooms(event: Event, rooms: Iterable[tuple[int | None, str, int]], *, actor: str) -> list[Room]:
    """Make the event's rooms exactly ``rooms``: ``(number, name, capacity in tables)`` each;
    a room whose number exists is renamed and resized in place (its tables stay in it), number
    None adds a room (next free number), a room left out is removed. Returns the rooms by number.

    Raises SetupError ("rooms") for an empty name, a capacity below 1, a name given twice, the
    removal of a room that a seated table uses, or rooms that cannot hold one session's tables
    (:func:`rooms_problem`); nothing changes then. AuditEntry ``rooms-changed`` (before, after)
    when anything changed."""
    rooms = [(number, (name or "").strip(), capacity) for number, name, capacity in rooms]
    existing = {r.number: r for r in event.rooms.select_for_update().order_by("number")}
    for number, name, capacity in rooms:
        if not name:
            raise SetupError("rooms", _("give every room a name"))
        if not isinstance(capacity, int) or capacity < 1:
            raise SetupError("rooms", _("room %(room)s: the capacity is the number of tables it holds, 1 or more") % {"room": name})
        if number is not None and number not in existing:
            raise SetupError("rooms", _("room number %(number)s does not exist: reload the page") % {"number": number})
    names = [name for _, name, _ in rooms]
    if len(set(names)) != len(names):
        raise SetupError("rooms", _("two rooms have the same name: give each its own"))
    kept = {number for number, _, _ in rooms if number is not None}
    removed = [r for number, r in existing.items() if number not in kept]
    used = [r.name for r in removed if r.tables.exists()]
    if used:
        raise SetupError("rooms", _("%(rooms)s holds tables of a seated session and cannot be removed; rename it instead")
                         % {"rooms": ", ".join(used)})
    problem = rooms_problem(event, [c for _, _, c in rooms])
    if problem:
        raise SetupError("rooms", problem)
    before = [[r.name, r.capacity] for r in existing.values()]
    for room in removed:
        room.delete()
    next_number = max(existing, default=0)
    for number, name, capacity in rooms:
        if number is None:
            next_number += 1
            Room.objects.create(event=event, number=next_number, name=name, capacity=capacity)
        elif (existing[number].name, existing[number].capacity) != (name, capacity):
            Room.objects.filter(pk=existing[number].pk).update(name=name, capacity=capacity)
    after = list(event.rooms.order_by("number"))
    if [[r.name, r.capacity] for r in after] != before:
        _audit(event, "rooms-changed", actor, before=before, after=[[r.name, r.capacity] for r in after])
    return after


def quick_rooms(event: Event, rooms: int, capacity: int, *, actor: str) -> list[Room]:
    """``rooms`` rooms of ``capacity`` tables each, numbered 1 to ``rooms``: rooms that exist keep
    their names, new ones are called "Room k", rooms beyond are removed (:func:`set_rooms`, same
    errors). Raises SetupError ("rooms") when ``rooms`` is below 1."""
    if not isinstance(rooms, int) or rooms < 1 or rooms > 500:
        raise SetupError("rooms", _("give the number of rooms, 1 to 500"))
    existing = {r.number: r.name for r in event.rooms.all()}
    kept = {existing[k] for k in range(1, rooms + 1) if k in existing}
    spec: list[tuple[int | None, str, int]] = []
    for k in range(1, rooms + 1):
        if k in existing:
            spec.append((k, existing[k], capacity))
            continue
        name = _("Room %(number)s") % {"number": k}
        while name in kept:  # a kept room renamed to this: number the new one apart
            name += "'"
        kept.add(name)
        spec.append((None, name, capacity))
    return set_rooms(event, spec, actor=actor)


# --- people: roles -----------------------------------------------------------------------------


@dataclass(frozen=True)
class InviteResult:
    """The result of :func:`invite`: the ``user`` the name matched or created; ``created``
    (a new account: it holds the role now, and ``set_password_path`` is where its owner
    chooses a password, to hand over once; "" otherwise); ``already`` (an existing account
    that holds the role already); ``pending`` (the :class:`~tournament.models.Invitation`
    waiting for an existing account's owner to accept, None otherwise)."""

    user: object
    created: bool
    set_password_path: str
    already: bool = False
    pending: Invitation | None = None


def set_password_path(user) -> str:
    """The one-time path where ``user`` chooses a password (Django's password-reset confirm
    view, ``password_reset_confirm``; valid until the password changes or
    ``PASSWORD_RESET_TIMEOUT`` passes)."""
    return reverse("password_reset_confirm", kwargs={
        "uidb64": urlsafe_base64_encode(force_bytes(user.pk)), "token": default_token_generator.make_token(user)})


def _event_tables(event: Event, tables: Iterable) -> list[Table]:
    ids = {t.pk if isinstance(t, Table) else int(t) for t in tables}
    found = list(Table.objects.filter(group__session__event=event, pk__in=ids))
    if len(found) != len(ids):
        raise SetupError("tables", _("choose tables of this event's seated sessions"))
    return found


def find_account(username: str):
    """The account called ``username``, matched case-insensitively (``Alice.Chen`` is
    ``alice.chen``), or None. Raises SetupError ("username") when two accounts differ only in
    case: the site administrator must rename one."""
    found = list(get_user_model().objects.filter(username__iexact=(username or "").strip())[:2])
    if len(found) > 1:
        raise SetupError("username", _("two accounts are called %(user)s in different cases: ask the site administrator "
                                       "to rename one") % {"user": username})
    return found[0] if found else None


def _grant(event: Event, user, role: str, tables: list[Table]) -> bool:
    """Give ``user`` ``role`` in ``event`` (a scorer bound to ``tables``); whether it is new."""
    grant, granted = EventRole.objects.get_or_create(event=event, user=user, role=role)
    if role == EventRole.Role.SCORER:
        grant.tables.set(tables)
    return granted


@transaction.atomic
def invite(event: Event, *, username: str, role: str, tables: Iterable = (), actor: str) -> InviteResult:
    """Invite ``username`` to the ``role`` (staff, scorer or director) in ``event``; a scorer
    is bound to ``tables`` (Table rows or ids of the event's seated sessions). The name is
    matched case-insensitively (:func:`find_account`).

    - An unknown name gets a new account without a usable password, holding the role at once,
      and a set-password link (:func:`set_password_path`): setting the password is the
      acceptance. AuditEntry ``role-granted`` (created true).
    - An existing account never gets the role here: a pending
      :class:`~tournament.models.Invitation` waits until its owner accepts it while logged in
      (:func:`accept_invitation`). AuditEntry ``invitation-sent``. Repeated while pending, it
      changes only a scorer's tables.
    - An account that holds the role already: only a scorer's tables change.

    Raises SetupError ("username", "role", "tables"); nothing is stored then."""
    username = (username or "").strip()
    if not username or len(username) > 150 or any(c.isspace() for c in username):
        raise SetupError("username", _("give a user name without spaces (150 characters at most)"))
    if role not in (EventRole.Role.STAFF, EventRole.Role.SCORER, EventRole.Role.DIRECTOR):
        raise SetupError("role", _("choose staff, scorer or director"))
    chosen = _event_tables(event, tables) if role == EventRole.Role.SCORER else []
    Event.objects.select_for_update().filter(pk=event.pk).first()  # one invitation of a name at a time
    user = find_account(username)
    if user is None:
        user = get_user_model()(username=username)
        user.set_unusable_password()
        user.save()
        _grant(event, user, role, chosen)
        _audit(event, "role-granted", actor, user=user.get_username(), role=role, created=True,
               tables=sorted(t.number for t in chosen))
        return InviteResult(user, True, set_password_path(user))
    if EventRole.objects.filter(event=event, user=user, role=role).exists():
        _grant(event, user, role, chosen)
        return InviteResult(user, False, "", already=True)
    pending, sent = Invitation.objects.get_or_create(
        event=event, user=user, role=role, status=Invitation.Status.PENDING,
        defaults={"username": username, "invited_by": str(actor)[:150]})
    if role == EventRole.Role.SCORER:
        pending.tables.set(chosen)
    if sent:
        _audit(event, "invitation-sent", actor, user=user.get_username(), typed=username, role=role,
               tables=sorted(t.number for t in chosen))
    return InviteResult(user, False, "", pending=pending)


def pending_invitations(event: Event | None = None, *, user=None):
    """The pending invitations of ``event`` and/or of ``user`` (an account), oldest first,
    with their event, user and tables fetched."""
    rows = Invitation.objects.filter(status=Invitation.Status.PENDING)
    if event is not None:
        rows = rows.filter(event=event)
    if user is not None:
        rows = rows.filter(user=user) if user.is_authenticated else rows.none()
    return rows.select_related("event", "user").prefetch_related("tables").order_by("created", "pk")


def _own_invitation(invitation_id, user) -> Invitation:
    """The invitation ``invitation_id`` of ``user``, locked; SetupError ("invitation") when
    there is none (another account's invitation is not told apart from a missing one)."""
    found = (Invitation.objects.select_for_update().filter(pk=_id(invitation_id), user=user).first()
             if user is not None and user.is_authenticated else None)
    if found is None:
        raise SetupError("invitation", _("no such invitation for your account: reload the page"))
    return found


def _id(value) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


@transaction.atomic
def accept_invitation(invitation_id, *, user) -> EventRole:
    """The logged-in ``user`` accepts their invitation ``invitation_id``: they get exactly the
    role invited (a scorer its tables still in the event); returns the role. AuditEntry
    ``invitation-accepted`` (user, role, tables, invited_by). Accepting again returns the role
    and changes nothing. Raises SetupError ("invitation") for another account's invitation, one
    declined or withdrawn, or one accepted whose role a director has removed since."""
    invitation = _own_invitation(invitation_id, user)
    if invitation.status == Invitation.Status.ACCEPTED:
        grant = EventRole.objects.filter(event=invitation.event, user=user, role=invitation.role).first()
        if grant is None:  # removed by a director since: an old invitation never brings it back
            raise SetupError("invitation", _("this invitation was used and the role removed since: ask the director "
                                             "for a new one"))
        return grant
    if invitation.status in (Invitation.Status.DECLINED, Invitation.Status.WITHDRAWN):
        raise SetupError("invitation", _("this invitation was %(status)s: ask the director for a new one")
                         % {"status": invitation.get_status_display()})
    tables = list(invitation.tables.filter(group__session__event=invitation.event))
    _grant(invitation.event, user, invitation.role, tables)
    invitation.status = Invitation.Status.ACCEPTED
    invitation.decided_at = timezone.now()
    invitation.save(update_fields=["status", "decided_at"])
    _audit(invitation.event, "invitation-accepted", user.get_username(), user=user.get_username(), role=invitation.role,
           tables=sorted(t.number for t in tables), invited_by=invitation.invited_by)
    return EventRole.objects.get(event=invitation.event, user=user, role=invitation.role)


@transaction.atomic
def decline_invitation(invitation_id, *, user) -> bool:
    """The logged-in ``user`` declines their pending invitation ``invitation_id``; returns
    whether it was pending. AuditEntry ``invitation-declined``. Raises SetupError
    ("invitation") for another account's invitation."""
    invitation = _own_invitation(invitation_id, user)
    if invitation.status != Invitation.Status.PENDING:
        return False
    invitation.status = Invitation.Status.DECLINED
    invitation.decided_at = timezone.now()
    invitation.save(update_fields=["status", "decided_at"])
    _audit(invitation.event, "invitation-declined", user.get_username(), user=user.get_username(), role=invitation.role)
    return True


@transaction.atomic
def withdraw_invitation(event: Event, invitation_id, *, actor: str) -> bool:
    """The director withdraws ``event``'s invitation ``invitation_id`` before it is answered;
    returns whether it was pending. AuditEntry ``invitation-withdrawn``. Raises SetupError
    ("invitation") for an invitation of another event or one already accepted (remove the
    role instead)."""
    invitation = Invitation.objects.select_for_update().filter(pk=_id(invitation_id), event=event).first()
    if invitation is None:
        raise SetupError("invitation", _("no such invitation in this event: reload the page"))
    if invitation.status == Invitation.Status.ACCEPTED:
        raise SetupError("invitation", _("%(user)s has accepted already: remove the role instead")
                         % {"user": invitation.user.get_username()})
    if invitation.status != Invitation.Status.PENDING:
        return False
    invitation.status = Invitation.Status.WITHDRAWN
    invitation.decided_at = timezone.now()
    invitation.save(update_fields=["status", "decided_at"])
    _audit(event, "invitation-withdrawn", actor, user=invitation.user.get_username(), role=invitation.role)
    return True


@transaction.atomic
def revoke_role(event: Event, *, username: str, role: str, actor: str) -> bool:
    """Take ``role`` in ``event`` away from ``username`` (matched case-insensitively); returns
    whether it was held. The last director cannot be removed (SetupError "role"). AuditEntry
    ``role-revoked``."""
    user = find_account(username)
    grant = EventRole.objects.filter(event=event, user=user, role=role).first() if user is not None else None
    if grant is None:
        return False
    if role == EventRole.Role.DIRECTOR and event.roles.filter(role=role).count() == 1:
        raise SetupError("role", _("the event needs a director: invite another before removing this one"))
    grant.delete()
    _audit(event, "role-revoked", actor, user=user.get_username(), role=role)
    return True


@transaction.atomic
def set_scorer_tables(event: Event, *, username: str, tables: Iterable, actor: str) -> list[Table]:
    """Bind ``username``'s (matched case-insensitively) scorer role to exactly ``tables`` (rows
    or ids of the event's seated sessions); returns them by number. AuditEntry
    ``scorer-tables`` when they change. Raises SetupError ("username") when the user holds no
    scorer role, ("tables") for a table of another event."""
    user = find_account(username)
    grant = (EventRole.objects.filter(event=event, user=user, role=EventRole.Role.SCORER).first()
             if user is not None else None)
    if grant is None:
        raise SetupError("username", _("%(user)s is not a scorer of this event: invite them first") % {"user": username})
    chosen = sorted(_event_tables(event, tables), key=lambda t: t.number)
    before = sorted(grant.tables.values_list("number", flat=True))
    grant.tables.set(chosen)
    after = [t.number for t in chosen]
    if after != before:
        _audit(event, "scorer-tables", actor, user=user.get_username(), before=before, tables=after)
    return chosen


# --- entrants ----------------------------------------------------------------------------------


def _name(value: str, field: str) -> str:
    value = (value or "").strip()
    if not value or len(value) > 100:
        raise SetupError(field, _("give a name of 1 to 100 characters"))
    return value


@transaction.atomic
def rename_team(team: Team, *, name: str, members: Sequence[str] | None = None, actor: str) -> Team:
    """Rename ``team`` and, when ``members`` is given, its players by member order (the player
    who sits in each member slot now). AuditEntry ``team-renamed`` / ``player-renamed`` for what
    changed. Raises SetupError ("name") for an empty name or one another team has, ("members")
    for the wrong number of names."""
    event = team.event
    name = _name(name, "name")
    if event.teams.filter(name=name).exclude(pk=team.pk).exists():
        raise SetupError("name", _("another team is called %(name)s: choose another name") % {"name": name})
    if team.name != name:
        _audit(event, "team-renamed", actor, team=team.number, before=team.name, after=name)
        team.name = name
        team.save(update_fields=["name"])
    if members is not None:
        players = team_players(team)
        if len(members) != len(players):
            raise SetupError("members", _("give %(count)s member names") % {"count": len(players)})
        for player, member_name in zip(players, members, strict=True):
            update_player(player, name=member_name, actor=actor)
    return team


def team_players(team: Team) -> list[Player]:
    """``team``'s players in member order, each slot's current player (a replacement for good
    in place of the one replaced; :func:`tournament.seating.team_member`)."""
    return [team_member(team, m) for m in sorted({p.member for p in team.players.all()})]


@transaction.atomic
def update_player(player: Player, *, name: str, actor: str) -> Player:
    """Correct ``player``'s name (a misspelling): AuditEntry ``player-renamed`` (before, after)
    when it changes. Raises SetupError ("name") for an empty name or one a team mate has."""
    name = _name(name, "name")
    if player.name == name:
        return player
    if player.team_id and Player.objects.filter(team_id=player.team_id, name=name).exclude(pk=player.pk).exists():
        raise SetupError("name", _("a team mate is called %(name)s already") % {"name": name})
    _audit(player.event, "player-renamed", actor, player=player.number, before=player.name, after=name)
    player.name = name
    player.save(update_fields=["name"])
    return player


@transaction.atomic
def add_entrant(event: Event, *, team: str = "", players: Sequence[str], actor: str) -> Team | Player:
    """Add a late entrant before session 1 is seated: a team named ``team`` with one player per
    seat (team events) or the single player ``players[0]`` (individual events). Returns it.
    AuditEntry ``entrant-added``. A repeat of the same entrant is refused (the name exists).
    Raises SetupError ("session") once session 1 is seated (replace a player at Substitutions
    then), ("team", "players") for missing or duplicate names."""
    Event.objects.select_for_update().filter(pk=event.pk).first()
    if event.sessions.exists():
        raise SetupError("session", _("session 1 is seated: a late player replaces someone at Substitutions"))
    names = [_name(p, "players") for p in players if (p or "").strip()]
    number = (event.players.aggregate(m=Max("number"))["m"] or 0) + 1
    if event.method == Event.Method.TEAM:
        team_name = _name(team, "team")
        seats = len(event.get_ruleset().seats)
        if event.teams.filter(name=team_name).exists():
            raise SetupError("team", _("a team called %(name)s is entered already") % {"name": team_name})
        if len(names) != seats or len(set(names)) != seats:
            raise SetupError("players", _("give %(seats)s different player names, one per seat") % {"seats": seats})
        row = Team.objects.create(event=event, number=(event.teams.aggregate(m=Max("number"))["m"] or 0) + 1, name=team_name)
        for m, player in enumerate(names):
            Player.objects.create(event=event, team=row, number=number + m, member=m, name=player)
        _audit(event, "entrant-added", actor, team=team_name, players=names)
        return row
    if len(names) != 1:
        raise SetupError("players", _("give the player's name"))
    if event.players.filter(name=names[0], team=None).exists():
        raise SetupError("players", _("a player called %(name)s is entered already") % {"name": names[0]})
    row = Player.objects.create(event=event, number=number, name=names[0])
    _audit(event, "entrant-added", actor, players=names)
    return row


def event_roster_warnings(event: Event) -> list[str]:
    """:func:`tournament.roster.roster_warnings` of the event's players as entered now (a name
    in two teams)."""
    entries = [RosterEntry(team or "", name) for name, team in
               event.players.filter(substitute=False).values_list("name", "team__name")]
    return roster_warnings(entries)


# --- check-in ------------------------------------------------------------------------------------


def check_in_entrants(event: Event) -> list[Team | Player]:
    """The entrants ticked at check-in, by number: teams (team events) or players, withdrawn
    ones and the organisers' substitutes left out (a replacement for good in an individual
    event, a substitute by kind, is listed in the place of the player replaced)."""
    replacements = set(event.players.exclude(replaced_by=None).values_list("replaced_by_id", flat=True))
    return [e for e in current_entrants(event) if not e.substitute or (isinstance(e, Player) and e.pk in replacements)]


def _refuse_when_seated(event: Event, session_number: int) -> None:
    if not 1 <= session_number <= event.sessions_planned:
        raise SetupError("session", _("session must be 1 to %(last)s") % {"last": event.sessions_planned})
    if event.sessions.filter(number=session_number).exists():
        raise SetupError("session", _("session %(session)s is prepared: check-in is closed; replace an absent player at "
                                      "Substitutions") % {"session": session_number})


@transaction.atomic
def check_in(event: Event, session_number: int, present_ids: Iterable, *, actor: str) -> int:
    """Record exactly who is present for ``session_number`` (ids of teams in team events, of
    players in individual events; others are ignored): check-ins of the others are removed.
    Returns how many are present. Before that session is prepared only (SetupError "session").
    At session 1's Prepare the entrants not checked in are withdrawn, when anyone is
    (:func:`tournament.seating.seat_session`). AuditEntry ``check-in`` when it changes."""
    Event.objects.select_for_update().filter(pk=event.pk).first()
    _refuse_when_seated(event, session_number)
    wanted = {int(i) for i in present_ids if str(i).strip().isdigit()}
    entrants = {e.pk: e for e in check_in_entrants(event)}
    present = wanted & set(entrants)
    field = "team" if event.method == Event.Method.TEAM else "player"
    rows = CheckIn.objects.filter(event=event, session_number=session_number)
    before = set(rows.values_list(f"{field}_id", flat=True))
    if before == present:
        return len(present)
    rows.exclude(**{f"{field}_id__in": present}).delete()
    CheckIn.objects.bulk_create([CheckIn(event=event, session_number=session_number, by=str(actor)[:150], **{field: entrants[pk]})
                                 for pk in sorted(present - before)])
    _audit(event, "check-in", actor, session=session_number, present=len(present), absent=len(entrants) - len(present),
           added=sorted(entrants[pk].name for pk in present - before),
           removed=sorted(entrants[pk].name for pk in (before - present) if pk in entrants))
    return len(present)


def check_in_all(event: Event, session_number: int, *, actor: str) -> int:
    """Check every entrant in for ``session_number`` (:func:`check_in`, same errors)."""
    return check_in(event, session_number, [e.pk for e in check_in_entrants(event)], actor=actor)


def checked_in_ids(event: Event, session_number: int) -> set[int]:
    """Ids of the teams (team events) or players checked in for ``session_number``."""
    field = "team_id" if event.method == Event.Method.TEAM else "player_id"
    return set(CheckIn.objects.filter(event=event, session_number=session_number).values_list(field, flat=True))


def not_checked_in(event: Event, session_number: int) -> list[Team | Player]:
    """The event's own entrants (teams or players, not substitutes) without a check-in for
    ``session_number``, by number, including those withdrawn for it (``withdrawn`` tells);
    empty when nobody is checked in (then check-in was not used)."""
    present = checked_in_ids(event, session_number)
    if not present:
        return []
    own = check_in_entrants(event)
    if event.method == Event.Method.TEAM:
        withdrawn = list(event.teams.filter(withdrawn=True, substitute=False))
    else:
        withdrawn = list(event.players.filter(withdrawn=True, substitute=False))
    return sorted([e for e in own + withdrawn if e.pk not in present], key=lambda e: e.number)


def prepare_outlook(event: Event, session_number: int) -> list[str]:
    """What Prepare of ``session_number`` will do with the entrants checked in now, one sentence
    each, under the event's entrant policy (docs/seating.md): how many are present, who is
    withdrawn (session 1, when anyone is checked in), substitutes added or sit-outs, or that
    "as-is" cannot run and the policy must change."""
    entrants = check_in_entrants(event)
    present = checked_in_ids(event, session_number)
    if not present:
        return [_("Nobody is checked in yet: Prepare seats every entrant.")]
    team = event.method == Event.Method.TEAM
    count = sum(1 for e in entrants if e.pk in present)
    absent = [e.name for e in entrants if e.pk not in present]
    lines = [ngettext("%(count)s team present.", "%(count)s teams present.", count) % {"count": count} if team else
             ngettext("%(count)s player present.", "%(count)s players present.", count) % {"count": count}]
    if session_number > 1 or event.sessions.exists():
        if absent:
            lines.append(_("Not checked in: %(names)s. After Prepare, replace absent players at Substitutions.")
                         % {"names": ", ".join(absent)})
        return lines
    if absent:
        lines.append(_("Withdrawn at Prepare (not checked in): %(names)s.") % {"names": ", ".join(absent)})
    size = group_size(event)
    subs_in = sum(1 for e in current_entrants(event) if e.substitute)
    playing = count + subs_in
    missing = (-playing) % size
    policy = event.entrant_policy
    if not missing:
        lines.append(_("%(groups)s full groups of %(size)s.") % {"groups": playing // size, "size": size})
    elif policy == Event.EntrantPolicy.SUBSTITUTES:
        lines.append((ngettext("%(count)s substitute team will be added.", "%(count)s substitute teams will be added.", missing)
                      if team else ngettext("%(count)s substitute player will be added.",
                                            "%(count)s substitute players will be added.", missing)) % {"count": missing})
    elif policy in (Event.EntrantPolicy.SIT_OUT_AVERAGE, Event.EntrantPolicy.SIT_OUT_DATUM):
        if playing < size:
            lines.append(_("Too few to fill one group: change the policy in Settings."))
        else:
            lines.append(ngettext("%(count)s entrant will sit out each session in turn.",
                                  "%(count)s entrants will sit out each session in turn.", playing % size)
                         % {"count": playing % size})
    else:
        lines.append(_("as-is: %(count)s is not a multiple of %(size)s — change the policy in Settings.")
                     % {"count": playing, "size": size})
    return lines
