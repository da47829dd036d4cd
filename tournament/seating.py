"""The seating stage: rosters, groups, seats, rooms and each table's schedule of sets. Each public
write is one transaction.

The rules come from the pure core (:mod:`tournament.movement`, :mod:`tournament.regrouping`);
this module reads and writes only :mod:`tournament.models`, so the walls and scoring stages can
build on it (docs/architecture.md). The event's life across stages (create, prepare, reveal)
is :mod:`tournament.services`.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction
from django.utils.translation import gettext as _

from tournament import roster
from tournament.errors import FieldError
from tournament.models import (
    CheckIn,
    Event,
    Group,
    Player,
    Room,
    SeatAssignment,
    Session,
    Substitution,
    Table,
    Team,
    Venue,
)
from tournament.movement import (
    MovementError,
    place_tables,
    ruleset_movement,
)
from tournament.regrouping import entrant_options, regroup, sit_out_schedule
from tournament.roster import RosterEntry, RosterError
from tournament.seats import balance_seats, individual_group_seating, team_group_seating


class SetupError(FieldError):
    """Bad event set-up input. ``field`` names the input, the message says how to fix it."""


def parse_roster(text: str) -> list[RosterEntry]:
    """:func:`tournament.roster.parse_roster` (comma, semicolon or tab; English or Japanese
    headers) raising SetupError ("roster", naming the line) instead of RosterError."""
    try:
        return roster.parse_roster(text)
    except RosterError as exc:
        raise SetupError(exc.field, exc.message) from exc


def entrant_policy_error(event: Event, n_entrants: int, field: str = "entrant_policy") -> SetupError | None:
    """The error to show when ``n_entrants`` do not fill the groups of ``event`` and its policy is
    "as-is": the count, the group size and the choices of
    :func:`tournament.regrouping.entrant_options` (docs/seating.md, "Entrant counts that are not
    a multiple of the group size"). None when they fill the groups or another policy applies."""
    group_size = _group_size(event)
    if not n_entrants or n_entrants % group_size == 0 or event.entrant_policy != Event.EntrantPolicy.EXACT:
        return None
    options = "; ".join(_("%(kind)s: %(description)s (%(scoring)s)") % {"kind": o.kind, "description": o.description, "scoring": o.scoring}
                        for o in entrant_options(n_entrants, group_size))
    return SetupError(
        field,
        _("%(entrants)s entrants do not fill groups of %(size)s. Choose what to do in the event's "
          "'when entrants do not fill the groups' setting. Options: %(options)s")
        % {"entrants": n_entrants, "size": group_size, "options": options},
    )


@transaction.atomic
def import_roster(event: Event, text: str, *, actor: object = "roster import") -> int:
    """Add the roster's teams and players to ``event`` (``text``: the decoded file,
    ``tournament.roster.read_roster(data).text``); returns the number of players added.

    Team events need exactly one member per seat of the rule set in every team. When the
    entrants do not fill the groups and the event's policy is "as-is", the import is refused
    with the choices (:func:`entrant_policy_error`, field "entrant_policy"): the director
    chooses a policy before the day rather than at Prepare. Raises SetupError (and stores
    nothing) otherwise. Audited as ``roster-imported`` signed by ``actor`` (which bumps the
    event's content version).
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
        team_venue = {team: {entry.venue for entry in entries if entry.team == team} for team in teams}
        for team, codes in team_venue.items():
            if len(codes) > 1:
                raise SetupError("roster", _("team %(team)s is listed at venues %(venues)s: a team plays at one venue")
                                 % {"team": repr(team), "venues": ", ".join(sorted(codes))})
        venue_of = _roster_venues(event, [(team, codes.pop()) for team, codes in team_venue.items()])
        rows = Team.objects.bulk_create(Team(event=event, number=t, name=name, venue=venue_of[name])
                                        for t, name in enumerate(teams, start=1))
        countries = {(entry.team, entry.player): entry.country for entry in entries}
        players = [Player(event=event, team=team, member=m, name=player, venue=team.venue,
                          country=countries[(team.name, player)])
                   for team, members in zip(rows, teams.values()) for m, player in enumerate(members)]
        for number, player in enumerate(players, start=1):
            player.number = number
        Player.unique_pins(players, set())  # the event has no players yet (checked above)
        Player.objects.bulk_create(players)
        event.log("roster-imported", actor, teams=len(rows), players=len(players))  # the version row last
        return len(players)
    venue_of = _roster_venues(event, [(entry.player, entry.venue) for entry in entries])
    players = [Player(event=event, number=number, name=entry.player, venue=venue_of[entry.player], country=entry.country)
               for number, entry in enumerate(entries, start=1)]
    Player.unique_pins(players, set())
    Player.objects.bulk_create(players)
    event.log("roster-imported", actor, players=len(players))  # the version row last
    return len(players)


def _roster_venues(event: Event, entrants: list[tuple[str, str]]) -> dict[str, Venue | None]:
    """The venue of each roster entrant, by name (``entrants``: ``(name, venue code)``): None for
    all when the event has no venues. Raises SetupError (field "roster") for a code that is not one
    of the event's venues, an entrant without one in an event of several clubs, or a venue whose
    entrants do not fill its groups under the "as-is" policy (:func:`entrant_policy_error`:
    every venue seats its own groups)."""
    venues = {v.code: v for v in event.venues.all()}
    if not venues:
        named = sorted({code for _name, code in entrants if code})
        if named:
            raise SetupError("roster", _("the roster names venues (%(venues)s) but this event has none: add them under "
                                         "Venues first, or leave the 'venue' column out") % {"venues": ", ".join(named)})
        error = entrant_policy_error(event, len(entrants))
        if error is not None:
            raise error
        return {name: None for name, _code in entrants}
    found: dict[str, Venue | None] = {}
    for name, code in entrants:
        if code not in venues:
            raise SetupError("roster", _("%(entrant)s: %(venue)s is not a venue of this event; the 'venue' column takes one "
                                         "of %(codes)s") % {"entrant": repr(name), "venue": repr(code),
                                                              "codes": ", ".join(sorted(venues))})
        found[name] = venues[code]
    for venue in venues.values():
        error = entrant_policy_error(event, sum(1 for v in found.values() if v == venue))
        if error is not None:
            raise SetupError("roster", f"{venue.name}: {error.message}")
    return found


def _replacement_ids(event: Event) -> set[int]:
    """The ids of the players who entered ``event`` by a substitution (someone's
    ``replaced_by``, or the player coming in of a :class:`~tournament.models.Substitution`)
    rather than by the roster (two queries)."""
    ids = set(event.players.exclude(replaced_by=None).values_list("replaced_by_id", flat=True))
    return ids | set(Substitution.objects.filter(event=event).values_list("player_in_id", flat=True))


def _chain_end(player: Player, players: dict[int, Player] | None = None) -> Player:
    """The end of ``player``'s ``replaced_by`` chain: who plays in their place from now on
    (``player`` itself when never replaced for good). Stops at a loop. ``players`` (the event's
    players by id), when given, is where the chain is followed instead of one query a step."""
    seen = {player.pk}
    while player.replaced_by_id is not None and player.replaced_by_id not in seen:
        seen.add(player.replaced_by_id)
        player = players[player.replaced_by_id] if players is not None else player.replaced_by
    return player


def _entrants(event: Event) -> list:
    """The entrants the grouping plan's indices refer to, by number: teams (team events) or
    players (individual events), withdrawn ones left out (docs/seating.md, "Entrants that do
    not fill the groups"). Individual events: a player replaced for good is represented by the
    end of their ``replaced_by`` chain, at their place in the plan; players who came in by a
    substitution take no place of their own."""
    if event.method == Event.Method.TEAM:
        return list(event.teams.filter(withdrawn=False).order_by("number"))
    players = event.players.filter(withdrawn=False).order_by("number").select_related("replaced_by")
    replacements = _replacement_ids(event)
    return [_chain_end(p) for p in players if p.pk not in replacements]


def entrant_players(event: Event) -> list[Player]:
    """The players a session seated next would seat, by number: every member slot's current
    player of the teams still in (team events; :func:`team_member`), or the current entrants
    (individual events; :func:`current_entrants`). Withdrawn entrants and players replaced for
    good are left out. Four queries."""
    if event.method != Event.Method.TEAM:
        return list(current_entrants(event))
    players = {p.pk: p for p in event.players.select_related("team")}
    replacements = _replacement_ids(event)
    originals: dict[tuple[int, int], Player] = {}
    for p in sorted(players.values(), key=lambda p: p.number):
        if p.team_id and not p.team.withdrawn and p.pk not in replacements:
            originals.setdefault((p.team_id, p.member), p)
    out = []
    for p in originals.values():
        seen = {p.pk}
        while p.replaced_by_id in players and p.replaced_by_id not in seen:  # the chain of replacements for good
            seen.add(p.replaced_by_id)
            p = players[p.replaced_by_id]
        out.append(p)
    return sorted(out, key=lambda p: p.number)


def team_member(team: Team, member: int) -> Player:
    """The player who sits in ``team``'s member slot ``member`` from now on: the end of the
    ``replaced_by`` chain that starts at the team's original player of that slot (the
    lowest-numbered player with that member index who is not itself a replacement).
    Raises SetupError when the team has no player for the slot."""
    candidates = list(team.players.filter(member=member).order_by("number"))
    return _slot_player(team, member, candidates, _replacement_ids(team.event))


def _slot_player(team: Team, member: int, candidates: list[Player], replacements: set[int],
                 players: dict[int, Player] | None = None) -> Player:
    """:func:`team_member`'s rule on the team's players of slot ``member`` (``candidates``, by
    number), the ids of the players who came in by a substitution (``replacements``) and, when
    given, the event's players by id to follow ``replaced_by`` in (:func:`_chain_end`)."""
    originals = [p for p in candidates if p.pk not in replacements] or candidates
    if not originals:
        raise SetupError("roster", _("team %(team)s has no player for seat %(member)s: edit the team")
                         % {"team": team.name, "member": member + 1})
    return _chain_end(originals[0], players)


def team_members(event: Event) -> Callable[[Team, int], Player]:
    """:func:`team_member` for every team of ``event`` at once: a function of (team, member)
    answering from the event's players read here (three queries in all, none a call). Raises
    SetupError, as :func:`team_member` does, when a team has no player for the slot asked."""
    players = {p.pk: p for p in event.players.order_by("number")}
    replacements = _replacement_ids(event)
    slots: dict[tuple[int, int], list[Player]] = {}
    for p in players.values():
        slots.setdefault((p.team_id, p.member), []).append(p)

    def member_of(team: Team, member: int) -> Player:
        return _slot_player(team, member, slots.get((team.pk, member), []), replacements, players)

    return member_of


def _withdraw_no_shows(event: Event, actor: str) -> list[str]:
    """Before session 1 is seated: when anyone is checked in for session 1, every entrant
    (not a substitute, not withdrawn) without a check-in is withdrawn; an AuditEntry
    ``no-shows-withdrawn`` names them. Returns their names (none when nobody is checked in)."""
    check_ins = CheckIn.objects.filter(event=event, session_number=1)
    if not check_ins.exists():
        return []
    if event.method == Event.Method.TEAM:
        present = set(check_ins.exclude(team=None).values_list("team_id", flat=True))
        absent = list(event.teams.filter(withdrawn=False, substitute=False).exclude(pk__in=present).order_by("number"))
    else:
        present = set(check_ins.exclude(player=None).values_list("player_id", flat=True))
        replacements = _replacement_ids(event)
        absent = [p for p in event.players.filter(withdrawn=False, substitute=False).exclude(pk__in=present).order_by("number")
                  if p.pk not in replacements]
    if not absent:
        return []
    type(absent[0]).objects.filter(pk__in=[a.pk for a in absent]).update(withdrawn=True)
    names = [a.name for a in absent]
    event.log("no-shows-withdrawn", actor, names=names)
    return names


def _group_size(event: Event) -> int:
    n = len(event.get_ruleset().seats)
    return n if event.method == Event.Method.TEAM else n * n


def group_size(event: Event) -> int:
    """Entrants per group: N teams (team events) or N×N players (individual events), N the
    seats of the rule set (docs/seating.md, "Seats inside a group")."""
    return _group_size(event)


def current_entrants(event: Event) -> list:
    """The entrants the next session seats, by number (:func:`_entrants`): teams or players,
    withdrawn ones left out, replacements for good in place of those they replace."""
    return _entrants(event)


def add_substitutes(event: Event) -> int:
    """Fill the last group with substitutes (ghost teams or players provided by the organisers):
    they play and count in the datum but are not ranked. Returns how many were added."""
    entrants = _entrants(event)
    group_size = _group_size(event)
    missing = (-len(entrants)) % group_size
    seats = len(event.get_ruleset().seats)
    number = max(event.players.values_list("number", flat=True), default=0)
    team_number = max(event.teams.values_list("number", flat=True), default=0)
    for i in range(1, missing + 1):
        if event.method == Event.Method.TEAM:
            team = Team.objects.create(event=event, number=team_number + i, name=_free_team_name(event, f"Substitutes {i}"),
                                       substitute=True)
            for m in range(seats):
                number += 1
                Player.objects.create(event=event, team=team, number=number, member=m, name=f"Substitute {i}.{m + 1}", substitute=True)
        else:
            number += 1
            Player.objects.create(event=event, number=number, name=f"Substitute {i}", substitute=True)
    return missing


def _free_team_name(event: Event, name: str) -> str:
    """``name``, or ``name`` with a letter added when a team of the event already has it."""
    taken = set(event.teams.values_list("name", flat=True))
    candidate, k = name, 0
    while candidate in taken:
        k += 1
        candidate = f"{name}{chr(ord('a') + k - 1)}" if k <= 26 else f"{name} ({k})"
    return candidate


def _grouping_plan(event: Event, entrants: list) -> dict:
    """The groups of every planned session, computed once (at the first seating) and stored, so
    later sessions keep to one plan: :func:`tournament.regrouping.regroup` with the event's sit-outs.
    In an event of several clubs each venue's entrants are grouped among themselves (a group plays
    in one room of one club); ``venues`` lists each group's venue id, per session."""
    plan = event.grouping_plan
    if plan and len(plan["sessions"]) == event.sessions_planned and plan["entrants"] == len(entrants):
        return plan
    blocks: dict[int | None, list[int]] = {}
    for index, entrant in enumerate(entrants):
        blocks.setdefault(entrant.venue_id, []).append(index)
    if None in blocks and len(blocks) > 1:
        raise SetupError("entrants", _("%(entrant)s has no venue: every entrant of an event in several clubs plays at one "
                                       "(set it in the roster's 'venue' column)") % {"entrant": entrants[blocks[None][0]]})
    sessions: list[list[list[int]]] = [[] for _s in range(event.sessions_planned)]
    venues: list[list[int | None]] = [[] for _s in range(event.sessions_planned)]
    sit_outs: list[list[int]] = [[] for _s in range(event.sessions_planned)]
    methods, repeats, lower_bound = [], 0, 0
    for venue_id in sorted(blocks, key=lambda v: (v is not None, v)):
        indices = blocks[venue_id]
        block = _block_plan(event, len(indices))
        for s in range(event.sessions_planned):
            sessions[s] += [[indices[i] for i in group] for group in block["sessions"][s]]
            venues[s] += [venue_id] * len(block["sessions"][s])
            sit_outs[s] += [indices[i] for i in block["sit_outs"][s]]
        methods.append(block["method"])
        repeats += block["repeats"]
        lower_bound += block["lower_bound"]
    plan = {"entrants": len(entrants), "sessions": sessions, "method": ", ".join(dict.fromkeys(methods)),
            "repeats": repeats, "lower_bound": lower_bound, "sit_outs": sit_outs, "venues": venues,
            "entrant_ids": [e.pk for e in entrants]}
    event.grouping_plan = plan
    event.save(update_fields=["grouping_plan"])
    return plan


def _block_plan(event: Event, n_entrants: int) -> dict:
    """The groups of ``n_entrants`` grouped among themselves (the event's, or one venue's), as
    entrant indices 0..n-1: ``sessions``, ``sit_outs`` per session, the regrouping's ``method``,
    ``repeats`` and ``lower_bound``. Raises SetupError when they do not fill the groups under the
    "as-is" policy (:func:`entrant_policy_error`)."""
    group_size = _group_size(event)
    sit_outs = None
    if n_entrants % group_size:
        if event.entrant_policy in (Event.EntrantPolicy.SIT_OUT_AVERAGE, Event.EntrantPolicy.SIT_OUT_DATUM):
            sit_outs = sit_out_schedule(n_entrants, group_size, event.sessions_planned)
        else:
            error = entrant_policy_error(event, n_entrants, "entrants")
            if error is not None:
                raise error
    result = regroup(n_entrants, group_size, event.sessions_planned, seed=int(event.uid[:8], 16), sit_outs=sit_outs)
    sessions = [[list(g) for g in groups] for groups in result.sessions]
    if event.method == Event.Method.INDIVIDUAL:
        sessions = [[list(g) for g in groups] for groups in balance_seats(sessions, len(event.get_ruleset().seats))]
    return {"sessions": sessions, "method": result.method, "repeats": result.repeats, "lower_bound": result.lower_bound,
            "sit_outs": [list(s) for s in (sit_outs or [()] * event.sessions_planned)]}


def _rooms_for(event: Event, n_groups: int, venue: Venue | None = None) -> tuple[list[Room], bool]:
    """The room of each event-wide table and whether the groups play staggered: the event's rooms
    if the director set them up (with their capacities), placed by
    :func:`tournament.movement.place_tables` (staggering the groups only when the rooms need it),
    otherwise one room per table (docs/rules.md, "Duplicate MCR: rooms and separation"). In an
    event of several clubs, the rooms of ``venue`` for its groups."""
    ruleset = event.get_ruleset()
    total_tables = len(ruleset.seats) * n_groups
    rooms = list(event.rooms.filter(venue=venue).order_by("number"))
    if not rooms:  # docs/rules.md, "Duplicate MCR: rooms and separation": every table in a room of its own, table k in room k
        first = max(event.rooms.values_list("number", flat=True), default=0)
        prefix = f"{venue.name} " if venue is not None else ""
        return Room.objects.bulk_create(Room(event=event, venue=venue, number=first + k, name=f"{prefix}Room {k}")
                                        for k in range(1, total_tables + 1)), False
    if len(rooms) >= total_tables and all(r.capacity == 1 for r in rooms):
        return rooms[:total_tables], False  # a room each: no two tables can clash
    try:
        placement, stagger = place_tables(ruleset, n_groups, [r.capacity for r in rooms])
    except MovementError as exc:
        raise SetupError("rooms", str(exc)) from exc
    return [rooms[i] for i in placement], stagger


@transaction.atomic
def seat_session(event: Event, session_number: int, *, actor: str = "prepare") -> Session:
    """Regroup and seat session ``session_number`` (1-based): groups, tables, rooms and seats.

    Team events: groups of N teams on N tables with Latin-square seats
    (:func:`tournament.movement.team_group_seating`); individual events: groups of N×N players
    with winds balanced over the sessions (:func:`tournament.movement.balance_seats`). The groups
    of every session come from one stored regrouping plan. Entrants that do not fill the groups
    follow the event's entrant policy (substitutes or sit-outs). Raises SetupError when the
    entrants do not fill the groups and the policy is "as-is" (listing the options), when the
    rooms cannot hold the tables, when the session is already seated, or once the master seed is
    revealed (:func:`refuse_after_reveal`).

    Session 1: when check-ins exist for it (:class:`~tournament.models.CheckIn`), entrants not
    checked in are withdrawn first (AuditEntry ``no-shows-withdrawn`` by ``actor``), then the
    policy applies to those present. Withdrawn entrants are never seated; a player replaced for
    good (``Player.replaced_by``) is seated as the end of the chain (:func:`team_member`,
    :func:`_entrants`).
    """
    refuse_after_reveal(event)
    if session_number < 1 or session_number > event.sessions_planned:
        raise SetupError("session", _("session must be 1 to %(last)s") % {"last": event.sessions_planned})
    if event.sessions.filter(number=session_number).exists():
        raise SetupError("session", _("session %(session)s is already seated") % {"session": session_number})
    ruleset = event.get_ruleset()
    n = len(ruleset.seats)
    if not event.sessions.exists():
        _withdraw_no_shows(event, actor)
        if event.entrant_policy == Event.EntrantPolicy.SUBSTITUTES:
            add_substitutes(event)
    entrants = _entrants(event)
    if not entrants:
        raise SetupError("entrants", _("import a roster first"))
    try:
        ruleset_movement(ruleset)
    except MovementError as exc:
        raise SetupError("ruleset", str(exc)) from exc
    plan = _grouping_plan(event, entrants)
    groups = plan["sessions"][session_number - 1]
    group_venues = (plan.get("venues") or [[None] * len(groups)] * session_number)[session_number - 1]
    venue_ids = {v for v in group_venues if v is not None}
    venues = {v.pk: v for v in event.venues.filter(pk__in=venue_ids)} if venue_ids else {}  # no query in one place
    rooms, staggered = [], False
    for venue_id in dict.fromkeys(group_venues):
        venue_rooms, venue_staggered = _rooms_for(event, group_venues.count(venue_id), venues.get(venue_id))
        rooms += venue_rooms
        staggered = staggered or venue_staggered
    session = Session.objects.create(
        event=event, number=session_number, regrouping_method=plan["method"],
        repeat_meetings=plan["repeats"], repeat_lower_bound=plan["lower_bound"], staggered=staggered,
    )
    seats = ruleset.seats
    group_rows = Group.objects.bulk_create(Group(session=session, number=g, venue_id=group_venues[g - 1])
                                           for g in range(1, len(groups) + 1))
    table_rows = Table.objects.bulk_create(
        Table(group=group, position=position, number=g * n + position + 1, room=rooms[g * n + position])
        for g, group in enumerate(group_rows) for position in range(n))
    member_of = team_members(event) if event.method == Event.Method.TEAM else None
    rows = []
    for g, members in enumerate(groups):
        tables = table_rows[g * n:(g + 1) * n]
        if member_of is not None:
            for p in team_group_seating(n, session_number - 1):
                team = entrants[members[p.team_slot]]
                rows.append(SeatAssignment(table=tables[p.table], seat=seats[p.seat], player=member_of(team, p.member), team=team))
        else:
            for table, seat, slot in individual_group_seating(n, session_number - 1):
                rows.append(SeatAssignment(table=tables[table], seat=seats[seat], player=entrants[members[slot]]))
    SeatAssignment.objects.bulk_create(rows)
    return session


def sitting_out(event: Event, session_number: int) -> list:
    """The teams or players sitting out session ``session_number`` under a sit-out policy."""
    plan = event.grouping_plan or {}
    entrants = _entrants(event)
    return [entrants[i] for i in (plan.get("sit_outs") or [[]] * session_number)[session_number - 1]]


def refuse_after_reveal(event: Event, error: type[ValueError] = SetupError) -> None:
    """Raise ``error("seed", message)`` (SetupError unless the caller's stage names its own, e.g.
    :class:`walls.services.WallError`) once ``event``'s master seed is revealed: every wall of a
    session seated or generated afterwards would follow from public data. Reads the flag from the
    database, not from the (possibly stale) instance. The one place that check is made."""
    if Event.objects.filter(pk=event.pk, seed_revealed=True).exists():
        raise error("seed", _("the master seed is revealed: walls of a new session would follow from public data"))
