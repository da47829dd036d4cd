"""Check-in before a session (docs/director-guide.md, "Check-in"): who is present, who is not,
and what Prepare will do with them (docs/seating.md, "Entrant counts that are not a multiple of
the group size").

Each public write is one transaction, audited (:meth:`tournament.models.Event.log`) and safe to
repeat. Errors are :class:`tournament.seating.SetupError` naming the input.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.models import (
    CheckIn,
    Event,
    Player,
    Team,
)
from tournament.seating import SetupError, current_entrants, group_size

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
def check_in(event: Event, session_number: int, present_ids: Iterable, *, actor: str,
             present_players: Iterable | None = None) -> int:
    """Record exactly who is present for ``session_number`` (ids of teams in team events, of
    players in individual events; others are ignored): check-ins of the others are removed.
    Returns how many are present. Before that session is prepared only (SetupError "session").
    At session 1's Prepare the entrants not checked in are withdrawn, when anyone is
    (:func:`tournament.seating.seat_session`). AuditEntry ``check-in`` when it changes.

    ``present_players`` (team events): the ids of the players present, when the director checks
    in by player as well; a player of a team not present is ignored, and None leaves the players'
    check-ins as they are. A team present with a player missing is named by
    :func:`prepare_outlook` (to replace at Substitutions once the session is prepared)."""
    Event.objects.select_for_update().filter(pk=event.pk).first()
    _refuse_when_seated(event, session_number)
    wanted = {int(i) for i in present_ids if str(i).strip().isdigit()}
    entrants = {e.pk: e for e in check_in_entrants(event)}
    present = wanted & set(entrants)
    field = "team" if event.method == Event.Method.TEAM else "player"
    if field == "team" and present_players is not None:
        _check_in_players(event, session_number, present, present_players, actor)
    rows = CheckIn.objects.filter(event=event, session_number=session_number, **{f"{field}__isnull": False})
    if field == "team":
        rows = rows.filter(player__isnull=True)
    before = set(rows.values_list(f"{field}_id", flat=True))
    if before == present:
        return len(present)
    rows.exclude(**{f"{field}_id__in": present}).delete()
    CheckIn.objects.bulk_create([CheckIn(event=event, session_number=session_number, by=str(actor)[:150], **{field: entrants[pk]})
                                 for pk in sorted(present - before)])
    event.log("check-in", actor, session=session_number, present=len(present), absent=len(entrants) - len(present),
           added=sorted(entrants[pk].name for pk in present - before),
           removed=sorted(entrants[pk].name for pk in (before - present) if pk in entrants))
    return len(present)


def _check_in_players(event: Event, session_number: int, teams: set[int], present_players: Iterable, actor: str) -> None:
    """Store exactly the players present of the teams ``teams`` (team events; :func:`check_in`)."""
    wanted = {int(i) for i in present_players if str(i).strip().isdigit()}
    players = {p.pk: p for p in event.players.filter(team_id__in=teams, withdrawn=False, replaced_by=None)}
    present = wanted & set(players)
    rows = CheckIn.objects.filter(event=event, session_number=session_number, player__isnull=False)
    before = set(rows.values_list("player_id", flat=True))
    if before == present:
        return
    rows.exclude(player_id__in=present).delete()
    CheckIn.objects.bulk_create([CheckIn(event=event, session_number=session_number, by=str(actor)[:150], player=players[pk])
                                 for pk in sorted(present - before)])
    event.log("check-in-players", actor, session=session_number, present=len(present),
              added=sorted(players[pk].name for pk in present - before))


def check_in_all(event: Event, session_number: int, *, actor: str) -> int:
    """Check every entrant in for ``session_number`` (:func:`check_in`, same errors); in team
    events every player of the teams as well."""
    entrants = check_in_entrants(event)
    players = None
    if event.method == Event.Method.TEAM:
        players = list(event.players.filter(team__in=entrants, withdrawn=False, replaced_by=None).values_list("pk", flat=True))
    return check_in(event, session_number, [e.pk for e in entrants], actor=actor, present_players=players)


def checked_in_ids(event: Event, session_number: int) -> set[int]:
    """Ids of the teams (team events) or players checked in for ``session_number``."""
    field = "team_id" if event.method == Event.Method.TEAM else "player_id"
    rows = CheckIn.objects.filter(event=event, session_number=session_number, **{f"{field}__isnull": False})
    return set(rows.values_list(field, flat=True))


def checked_in_player_ids(event: Event, session_number: int) -> set[int]:
    """Team events: ids of the players checked in by player for ``session_number``."""
    rows = CheckIn.objects.filter(event=event, session_number=session_number, player__isnull=False, team__isnull=True)
    return set(rows.values_list("player_id", flat=True))


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
    here = checked_in_player_ids(event, session_number) if team else set()
    if here:  # checked in by player too: the players of the teams present who are not here
        not_here = [f"{p.name} ({p.team.name})" for p in event.players.filter(team_id__in=present, withdrawn=False, replaced_by=None)
                    .select_related("team").order_by("team__number", "member") if p.pk not in here]
        if not_here:
            lines.append(_("Players not here yet: %(names)s. Replace them at Substitutions once the session is prepared, "
                           "or check them in when they arrive.") % {"names": ", ".join(not_here)})
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


@transaction.atomic
def reinstate(event: Event, entrant_id, *, actor: str) -> Team | Player:
    """Take back an entrant withdrawn for not checking in before session 1 (a late team, or a late
    player of an individual event): it is an entrant again, ranked, listed at check-in and seated
    by the next Prepare; the sessions it missed count as not played. Under the ``substitutes``
    policy the substitute added in its place (the latest substitute entrant still in) stands down
    (withdrawn: unranked as before, its results kept), so the groups stay full. Audit
    ``entrant-reinstated`` with its name, the first session it can play and the substitute that
    stood down. Raises SetupError
    ``entrant`` for an id that is not a withdrawn entrant of the event, and ``session`` when
    every planned session is prepared (nothing left to play: add a session in Settings first).
    Safe to repeat: an entrant not withdrawn is refused, nothing changes."""
    Event.objects.select_for_update().filter(pk=event.pk).first()
    rows = event.teams if event.method == Event.Method.TEAM else event.players
    try:
        entrant = rows.select_for_update().get(pk=int(entrant_id), withdrawn=True, substitute=False)
    except (TypeError, ValueError, Team.DoesNotExist, Player.DoesNotExist):
        raise SetupError("entrant", _("choose a withdrawn entrant of this event to take back")) from None
    seated = set(event.sessions.values_list("number", flat=True))
    next_session = next((n for n in range(1, event.sessions_planned + 1) if n not in seated), None)
    if next_session is None:
        raise SetupError("session", _("every planned session is prepared: add a session in Settings, then take "
                                      "%(name)s back") % {"name": entrant.name})
    entrant.withdrawn = False
    entrant.save(update_fields=["withdrawn"])
    stood_down = None
    if event.entrant_policy == Event.EntrantPolicy.SUBSTITUTES:
        stood_down = rows.filter(substitute=True, withdrawn=False).order_by("-number").first()
        if stood_down is not None:
            stood_down.withdrawn = True
            stood_down.save(update_fields=["withdrawn"])
    event.log("entrant-reinstated", actor, name=entrant.name, entrant_id=entrant.pk, from_session=next_session,
              stood_down=stood_down.name if stood_down else None)
    return entrant


def withdrawn_entrants(event: Event) -> list[Team | Player]:
    """The event's own entrants withdrawn (not checked in before session 1), by number: the check-in
    page offers to take them back (:func:`reinstate`)."""
    rows = event.teams if event.method == Event.Method.TEAM else event.players
    return list(rows.filter(withdrawn=True, substitute=False).order_by("number"))


# --- self check-in by the player card's QR code (docs/director-guide.md, "Self check-in") ----------

SELF = "(self)"
"""The ``by`` of a check-in a player made from their card: a username never has brackets, so the
director's page tells it from a director's own tick."""

_TOKEN_SALT = "tournament.check_in.card"


def card_token(player: Player) -> str:
    """The secret of ``player``'s card link: an HMAC of the event and player under the site's
    ``SECRET_KEY`` (20 hex digits), so nobody derives it from ids or numbers and no column
    stores it. A new ``SECRET_KEY`` makes the printed cards' links stale: reprint them."""
    return salted_hmac(_TOKEN_SALT, f"{player.event_id}:{player.pk}:{player.number}").hexdigest()[:20]


def card_player(event: Event, number, token: str) -> Player | None:
    """The player of ``event`` whose card link is ``number`` / ``token``, or None when either is
    wrong (compared in constant time); a withdrawn player or one replaced for good has no card."""
    try:
        player = event.players.select_related("team").get(number=int(number), withdrawn=False, replaced_by=None)
    except (TypeError, ValueError, Player.DoesNotExist):
        return None
    return player if constant_time_compare(card_token(player), str(token or "")) else None


def open_session(event: Event) -> int | None:
    """The session check-in is open for: the first planned session not prepared yet (None when
    every planned session is seated: check-in is closed)."""
    seated = set(event.sessions.values_list("number", flat=True))
    return next((n for n in range(1, event.sessions_planned + 1) if n not in seated), None)


def is_checked_in(event: Event, player: Player, session_number: int) -> bool:
    """Whether ``player`` (or, in a team event, the player's team) counts as here for
    ``session_number``: their own check-in, or their team's when the team was ticked as a whole."""
    rows = CheckIn.objects.filter(event=event, session_number=session_number)
    if rows.filter(player=player, team__isnull=True).exists():
        return True
    if player.team_id is None:
        return False
    team_row = rows.filter(team_id=player.team_id, player__isnull=True).exists()
    by_player = rows.filter(player__team_id=player.team_id, team__isnull=True).exists()
    return team_row and not by_player  # a team ticked as a whole, nobody ticked by player


@transaction.atomic
def self_check_in(event: Event, player: Player) -> tuple[int, bool]:
    """Check ``player`` in from their card for the open session (:func:`open_session`):
    ``(session, True)`` when it is stored now, ``(session, False)`` when they were checked in
    already (safe to repeat: nothing changes). In a team event the player is checked in by
    player and their team as present. Audited as ``self-check-in``. Raises SetupError
    ``session`` when check-in is closed (every planned session prepared)."""
    Event.objects.select_for_update().filter(pk=event.pk).first()
    session_number = open_session(event)
    if session_number is None:
        raise SetupError("session", _("Check-in is closed: every session is seated. Your seat is below, or ask the director."))
    rows = CheckIn.objects.filter(event=event, session_number=session_number)
    if rows.filter(player=player, team__isnull=True).exists():
        return session_number, False
    if player.team_id is not None:
        team_row = rows.filter(team_id=player.team_id, player__isnull=True).exists()
        ticked = rows.filter(player__team_id=player.team_id, team__isnull=True).exists()
        if team_row and not ticked:
            return session_number, False  # the director ticked the whole team: they are here
        if not team_row:
            CheckIn.objects.create(event=event, session_number=session_number, team_id=player.team_id, by=SELF)
    CheckIn.objects.create(event=event, session_number=session_number, player=player, by=SELF)
    event.log("self-check-in", SELF, session=session_number, player=player.name,
              team=player.team.name if player.team_id else None)
    return session_number, True


def check_in_board(event: Event, session_number: int) -> dict:
    """Who is checked in for ``session_number`` and by whom, for the director's live check-in page
    (its JSON poll): ``{"closed", "entrants": {id: "self"|"director"}, "players": {id:
    "self"|"director"}}``, ids of teams (team events) or players, players by player in team
    events. One query."""
    entrants: dict[str, str] = {}
    players: dict[str, str] = {}
    team_event = event.method == Event.Method.TEAM
    for team_id, player_id, by in CheckIn.objects.filter(event=event, session_number=session_number).values_list(
            "team_id", "player_id", "by"):
        who = "self" if by == SELF else "director"
        if team_event and team_id is not None and player_id is None:
            entrants[str(team_id)] = who
        elif player_id is not None and team_id is None:
            (players if team_event else entrants)[str(player_id)] = who
    return {"closed": event.sessions.filter(number=session_number).exists(), "entrants": entrants, "players": players}
