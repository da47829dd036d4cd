"""The entrants of an event after the roster import (docs/director-guide.md, "3. People and
entrants"): renaming teams and players, a late entrant before session 1, the roster's warnings.

Each public write is one transaction, audited (:meth:`tournament.models.Event.log`) and safe to
repeat. Errors are :class:`tournament.seating.SetupError` naming the input.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from tournament.models import (
    Event,
    Player,
    Team,
)
from tournament.roster import RosterEntry, roster_warnings
from tournament.seating import SetupError, team_member

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
        before, team.name = team.name, name
        team.save(update_fields=["name"])
        event.log("team-renamed", actor, team=team.number, before=before, after=name)  # the version row last
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
    before, player.name = player.name, name
    player.save(update_fields=["name"])
    player.event.log("player-renamed", actor, player=player.number, before=before, after=name)  # the version row last
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
        event.log("entrant-added", actor, team=team_name, players=names)
        return row
    if len(names) != 1:
        raise SetupError("players", _("give the player's name"))
    if event.players.filter(name=names[0], team=None).exists():
        raise SetupError("players", _("a player called %(name)s is entered already") % {"name": names[0]})
    row = Player.objects.create(event=event, number=number, name=names[0])
    event.log("entrant-added", actor, players=names)
    return row


def event_roster_warnings(event: Event) -> list[str]:
    """:func:`tournament.roster.roster_warnings` of the event's players as entered now (a name
    in two teams)."""
    entries = [RosterEntry(team or "", name) for name, team in
               event.players.filter(substitute=False).values_list("name", "team__name")]
    return roster_warnings(entries)


