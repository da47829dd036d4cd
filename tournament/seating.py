"""The seating stage: rosters, groups, seats, rooms and each table's schedule of sets. Each public
write is one transaction.

The rules come from the pure core (:mod:`tournament.movement`, :mod:`tournament.regrouping`);
this module reads and writes only :mod:`tournament.models`, so the walls and scoring stages can
build on it (docs/architecture.md). The event's life across stages (create, prepare, reveal)
is :mod:`tournament.services`.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from tournament.errors import FieldError
from tournament.models import Event, Group, Player, Room, SeatAssignment, Session, Table, Team
from tournament.movement import (
    MovementError,
    assign_rooms,
    balance_seats,
    individual_group_seating,
    ruleset_movement,
    team_group_seating,
)
from tournament.regrouping import entrant_options, regroup, sit_out_schedule


class SetupError(FieldError):
    """Bad event set-up input. ``field`` names the input, the message says how to fix it."""


@dataclass(frozen=True)
class RosterEntry:
    """One roster line: ``team`` (blank in individual events) and ``player`` name."""

    team: str
    player: str


def parse_roster(text: str) -> list[RosterEntry]:
    """Read a roster CSV with a header ``team,player`` (``team`` optional for individual events).

    Returns entries in file order. Raises SetupError naming the line for a missing header,
    an empty player name or a duplicate player.
    """
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    fields = [f.strip().lower() for f in (reader.fieldnames or [])]
    if "player" not in fields:
        raise SetupError("roster", _("the first line must be a header with a 'player' column (and 'team' for team events)"))
    reader.fieldnames = fields
    entries, seen = [], set()
    for line_no, row in enumerate(reader, start=2):
        player = (row.get("player") or "").strip()
        team = (row.get("team") or "").strip()
        if not player:
            raise SetupError("roster", _("line %(line)s: the player name is empty") % {"line": line_no})
        if (team, player) in seen:
            if team:
                raise SetupError("roster", _("line %(line)s: %(player)s of %(team)s appears twice")
                                 % {"line": line_no, "player": repr(player), "team": team})
            raise SetupError("roster", _("line %(line)s: %(player)s of no team appears twice") % {"line": line_no, "player": repr(player)})
        seen.add((team, player))
        entries.append(RosterEntry(team, player))
    if not entries:
        raise SetupError("roster", _("no players: add one line per player under the header"))
    return entries


@transaction.atomic
def import_roster(event: Event, text: str) -> int:
    """Add the roster CSV's teams and players to ``event``; returns the number of players added.

    Team events need exactly one member per seat of the rule set in every team. Raises
    SetupError (and stores nothing) otherwise.
    """
    entries = parse_roster(text)
    seats = len(event.get_ruleset().seats)
    if event.players.exists():
        raise SetupError("roster", _("this event has players already: delete them before importing another roster"))
    if event.method == Event.Method.TEAM:
        teams: dict[str, list[str]] = {}
        for entry in entries:
            if not entry.team:
                raise SetupError("roster", _("player %(player)s has no team: team events need a 'team' column") % {"player": repr(entry.player)})
            teams.setdefault(entry.team, []).append(entry.player)
        for team, members in teams.items():
            if len(members) != seats:
                raise SetupError("roster", _("team %(team)s has %(count)s players; every team needs exactly %(seats)s (one per seat)")
                                 % {"team": repr(team), "count": len(members), "seats": seats})
        number = 0
        for t, (team_name, members) in enumerate(teams.items(), start=1):
            team = Team.objects.create(event=event, number=t, name=team_name)
            for m, player in enumerate(members):
                number += 1
                Player.objects.create(event=event, team=team, number=number, member=m, name=player)
        return number
    for number, entry in enumerate(entries, start=1):
        Player.objects.create(event=event, number=number, name=entry.player)
    return len(entries)


def _entrants(event: Event) -> list:
    if event.method == Event.Method.TEAM:
        return list(event.teams.order_by("number"))
    return list(event.players.order_by("number"))


def _group_size(event: Event) -> int:
    n = len(event.get_ruleset().seats)
    return n if event.method == Event.Method.TEAM else n * n


def add_substitutes(event: Event) -> int:
    """Fill the last group with substitutes (ghost teams or players provided by the organisers):
    they play and count in the datum but are not ranked. Returns how many were added."""
    entrants = _entrants(event)
    group_size = _group_size(event)
    missing = (-len(entrants)) % group_size
    seats = len(event.get_ruleset().seats)
    number = event.players.count()
    for i in range(1, missing + 1):
        if event.method == Event.Method.TEAM:
            team = Team.objects.create(event=event, number=len(entrants) + i, name=f"Substitutes {i}", substitute=True)
            for m in range(seats):
                number += 1
                Player.objects.create(event=event, team=team, number=number, member=m, name=f"Substitute {i}.{m + 1}", substitute=True)
        else:
            number += 1
            Player.objects.create(event=event, number=number, name=f"Substitute {i}", substitute=True)
    return missing


def _grouping_plan(event: Event, entrants: list) -> dict:
    """The groups of every planned session, computed once (at the first seating) and stored, so
    later sessions keep to one plan: :func:`tournament.regrouping.regroup` with the event's sit-outs."""
    plan = event.grouping_plan
    if plan and len(plan["sessions"]) == event.sessions_planned and plan["entrants"] == len(entrants):
        return plan
    group_size = _group_size(event)
    policy = event.entrant_policy
    sit_outs = None
    if len(entrants) % group_size:
        if policy in (Event.EntrantPolicy.SIT_OUT_AVERAGE, Event.EntrantPolicy.SIT_OUT_DATUM):
            sit_outs = sit_out_schedule(len(entrants), group_size, event.sessions_planned)
        else:
            options = "; ".join(_("%(kind)s: %(description)s (%(scoring)s)") % {"kind": o.kind, "description": o.description, "scoring": o.scoring}
                                for o in entrant_options(len(entrants), group_size))
            raise SetupError(
                "entrants",
                _("%(entrants)s entrants do not fill groups of %(size)s. Choose what to do in the event's "
                  "'when entrants do not fill the groups' setting. Options: %(options)s")
                % {"entrants": len(entrants), "size": group_size, "options": options},
            )
    result = regroup(len(entrants), group_size, event.sessions_planned, seed=int(event.uid[:8], 16), sit_outs=sit_outs)
    sessions = [[list(g) for g in groups] for groups in result.sessions]
    if event.method == Event.Method.INDIVIDUAL:
        sessions = [[list(g) for g in groups] for groups in balance_seats(sessions, len(event.get_ruleset().seats))]
    plan = {"entrants": len(entrants), "sessions": sessions, "method": result.method, "repeats": result.repeats,
            "lower_bound": result.lower_bound, "sit_outs": [list(s) for s in (sit_outs or [()] * event.sessions_planned)]}
    event.grouping_plan = plan
    event.save(update_fields=["grouping_plan"])
    return plan


def _rooms_for(event: Event, total_tables: int, movement) -> list[Room]:
    """The room of each event-wide table: the event's rooms if the director set them up (with
    their capacities), otherwise one room per table (seed 001), checked by
    :func:`tournament.movement.assign_rooms`."""
    rooms = list(event.rooms.order_by("number"))
    if not rooms:  # seed 001: every table in a room of its own, table k in room k
        return [Room.objects.create(event=event, number=k, name=f"Room {k}") for k in range(1, total_tables + 1)]
    if len(rooms) >= total_tables and all(r.capacity == 1 for r in rooms):
        return rooms[:total_tables]  # a room each: no two tables can clash
    try:
        placement = assign_rooms(total_tables, [r.capacity for r in rooms], movement)
    except MovementError as exc:
        raise SetupError("rooms", str(exc)) from exc
    return [rooms[i] for i in placement]


@transaction.atomic
def seat_session(event: Event, number: int) -> Session:
    """Regroup and seat session ``number`` (1-based): groups, tables, rooms and seats.

    Team events: groups of N teams on N tables with Latin-square seats
    (:func:`tournament.movement.team_group_seating`); individual events: groups of N×N players
    with winds balanced over the sessions (:func:`tournament.movement.balance_seats`). The groups
    of every session come from one stored regrouping plan. Entrants that do not fill the groups
    follow the event's entrant policy (substitutes or sit-outs). Raises SetupError when the
    entrants do not fill the groups and the policy is "as-is" (listing the options), when the
    rooms cannot hold the tables, when the session is already seated, or once the master seed is
    revealed (:func:`refuse_after_reveal`).
    """
    refuse_after_reveal(event)
    if number < 1 or number > event.sessions_planned:
        raise SetupError("session", _("session must be 1 to %(last)s") % {"last": event.sessions_planned})
    if event.sessions.filter(number=number).exists():
        raise SetupError("session", _("session %(session)s is already seated") % {"session": number})
    ruleset = event.get_ruleset()
    n = len(ruleset.seats)
    if event.entrant_policy == Event.EntrantPolicy.SUBSTITUTES and not event.sessions.exists():
        add_substitutes(event)
    entrants = _entrants(event)
    if not entrants:
        raise SetupError("entrants", _("import a roster first"))
    try:
        ruleset_movement(ruleset)
    except MovementError as exc:
        raise SetupError("ruleset", str(exc)) from exc
    plan = _grouping_plan(event, entrants)
    groups = plan["sessions"][number - 1]
    movement = ruleset_movement(ruleset, n_groups=len(groups))
    rooms = _rooms_for(event, n * len(groups), movement)
    session = Session.objects.create(
        event=event, number=number, regrouping_method=plan["method"],
        repeat_meetings=plan["repeats"], repeat_lower_bound=plan["lower_bound"],
    )
    seats = ruleset.seats
    table_number = 0
    for g, members in enumerate(groups, start=1):
        group = Group.objects.create(session=session, number=g)
        tables = []
        for position in range(n):
            tables.append(Table.objects.create(group=group, position=position, number=table_number + 1, room=rooms[table_number]))
            table_number += 1
        rows = []
        if event.method == Event.Method.TEAM:
            for p in team_group_seating(n, number - 1):
                team = entrants[members[p.team_slot]]
                player = team.players.get(member=p.member)
                rows.append(SeatAssignment(table=tables[p.table], seat=seats[p.seat], player=player, team=team))
        else:
            for table, seat, slot in individual_group_seating(n, number - 1):
                rows.append(SeatAssignment(table=tables[table], seat=seats[seat], player=entrants[members[slot]]))
        SeatAssignment.objects.bulk_create(rows)
    return session


def sitting_out(event: Event, number: int) -> list:
    """The teams or players sitting out session ``number`` under a sit-out policy."""
    plan = event.grouping_plan or {}
    entrants = _entrants(event)
    return [entrants[i] for i in (plan.get("sit_outs") or [[]] * number)[number - 1]]


def table_schedule(table: Table) -> list[tuple[int, tuple[int, ...]]]:
    """The sets ``table`` plays, as ``[(slot, (set_no, ...)), ...]`` in play order (seed 001 rotation)."""
    ruleset = table.group.session.event.get_ruleset()
    movement = ruleset_movement(ruleset)
    return [(slot, movement.sets_at(table.position, slot)) for slot in range(movement.slots)]


def table_of_set(group: Group, set_no: int, slot: int) -> int:
    """The 0-based table position of ``group`` holding ``set_no`` during ``slot``."""
    ruleset = group.session.event.get_ruleset()
    return ruleset_movement(ruleset).table_of(set_no, slot)


def refuse_after_reveal(event: Event, error: type[ValueError] = SetupError) -> None:
    """Raise ``error("seed", message)`` (SetupError unless the caller's stage names its own, e.g.
    :class:`walls.services.WallError`) once ``event``'s master seed is revealed: every wall of a
    session seated or generated afterwards would follow from public data. Reads the flag from the
    database, not from the (possibly stale) instance. The one place that check is made."""
    if Event.objects.filter(pk=event.pk, seed_revealed=True).exists():
        raise error("seed", _("the master seed is revealed: walls of a new session would follow from public data"))
