"""The table plan: who sits where and which set is where, read once (docs/seating.md, "The table plan").

Every question about the seating of a prepared session is answered here, from one read of the
stored session:

- **which set is where**: the session's movement (its copies included, staggered or not), each
  table's blocks of sets in play order, every play of a set (:meth:`SessionPlan.plays`) and the
  play of the same physical copy just before a table's (:meth:`SessionPlan.previous_play`);
- **who sits here**: each table's seats as prepared, the substitutions made since, and who holds
  each seat on any set (:meth:`SessionPlan.holders`, the rule of :func:`tournament.seats.seat_holders`:
  docs/scoring.md, "Substitutions").

Result entry, confirmation and the PIN checks, the director's live grid, the seating pages and
lists, players' itineraries and cards, substitutions and the print data all ask a plan instead of
reading ``SeatAssignment`` and ``Substitution`` themselves. Build one with :func:`session_plan`
(a whole session: three queries), :func:`table_plan` (one table: one query when the table's
group, session and event are loaded, two when it has a substitution),
:func:`table_plan_by_number` (the same, finding the table by its number) or :func:`event_plans`
(every seated session: four queries).

Terms: a *block* is the period between two moves of the sets (``Movement.slots`` of them, block
``b`` 0-based); a table's *index* is its event-wide position in the movement (docs/seating.md,
"Movement").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db import connection
from django.db.models import Count, Exists, OuterRef, QuerySet, Subquery

from tournament.models import Event, Group, Player, SeatAssignment, Session, Substitution, Table
from tournament.movement import Movement, ruleset_movement
from tournament.prepared import PreparedQuery
from tournament.seats import seat_holders


@dataclass(frozen=True)
class Play:
    """One play of a set in a session: at the table of group ``group`` (number, 1-based) and
    ``position`` (0-based, the movement's table of that group), in ``block`` (0-based), of
    physical copy ``copy`` (0-based, :attr:`Movement.copy_plan`), ``time`` hands from the
    start of the session. ``table``: the :class:`~tournament.models.Table` when the plan holds it
    (a plan of one table holds only that one), else None."""

    set_no: int
    group: int
    position: int
    block: int
    copy: int
    time: int
    table: Table | None = None


@dataclass(frozen=True)
class Replacement:
    """A seat handed over after Prepare, as it stands now: ``holder`` plays there from set
    ``from_set`` (the first set of the latest substitution, in play order), ``replaced`` is the
    player seated there at Prepare (or the first one replaced)."""

    holder: Player
    replaced: Player
    from_set: int


@dataclass
class SessionPlan:
    """The table plan of one prepared session (see the module's docstring).

    ``tables``: the plan's tables by number (each with ``group`` and ``room`` loaded, and
    ``group.session`` this session); ``seated``: ``{table id: {seat: Player}}`` as prepared;
    ``changes``: ``{table id: [(seat, sets, Player)]}``, each table's substitutions in the order
    they were made (``sets``: the sets the replacement plays). Players come with ``team`` and
    ``user`` loaded."""

    session: Session
    movement: Movement
    n_groups: int
    tables: list[Table]
    seated: dict[int, dict[str, Player]]
    changes: dict[int, list[tuple[str, list[int], Player]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._by_place = {(t.group.number, t.position): t for t in self.tables}
        self._blocks: dict[int, list[tuple[int, tuple[int, ...]]]] = {}

    # --- which set is where ------------------------------------------------------------------

    @property
    def seats(self) -> tuple[str, ...]:
        """The rule set's seats in order (wind letters)."""
        return tuple(self.session.event.get_ruleset().seats)

    @property
    def copies(self) -> int:
        """Physical copies of each set the session needs, over all its groups: ``Movement.copies``
        (docs/seating.md, "Movement")."""
        return self.movement.copies

    def index(self, table: Table) -> int:
        """``table``'s event-wide index in :attr:`movement`: (group number − 1) × tables per group
        + position."""
        return (table.group.number - 1) * self.movement.n_tables + table.position

    def blocks(self, table: Table) -> list[tuple[int, tuple[int, ...]]]:
        """The sets ``table`` plays, as ``[(block, (set_no, ...)), ...]`` in play order (docs/seating.md,
        "Movement": table k of a group starts with block k; a staggered group plays its blocks in
        its own turned order)."""
        index = self.index(table)
        if index not in self._blocks:
            self._blocks[index] = [(b, self.movement.sets_at(index, b)) for b in range(self.movement.slots)]
        return self._blocks[index]

    def sets(self, table: Table) -> list[int]:
        """The sets ``table`` plays, in play order."""
        return [s for _block, sets in self.blocks(table) for s in sets]

    def block_of(self, table: Table, set_no: int) -> int | None:
        """The block in which ``table`` plays ``set_no`` (None: not a set of this session)."""
        return next((b for b, sets in self.blocks(table) if set_no in sets), None)

    def plays(self, set_no: int) -> list[Play]:
        """Every play of ``set_no`` this session, by time then group and position."""
        m = self.movement
        out = []
        for block, row in enumerate(m.plan):
            for index, sets in enumerate(row):
                if set_no in sets:
                    hand = sets.index(set_no)
                    group, position = index // m.n_tables + 1, index % m.n_tables
                    out.append(Play(set_no, group, position, block, m.copy_plan[block][index][hand],
                                    block * m.block_size + hand, self._by_place.get((group, position))))
        return sorted(out, key=lambda p: (p.time, p.group, p.position))

    def first_plays(self, set_no: int) -> list[Play]:
        """One play per physical copy of ``set_no``: the copy's first, by copy number (what the
        copy's set label and stickers name as its first table)."""
        first: dict[int, Play] = {}
        for play in self.plays(set_no):
            first.setdefault(play.copy, play)
        return [first[c] for c in sorted(first)]

    def previous_play(self, table: Table, set_no: int) -> Play | None:
        """The play of the same physical copy of ``set_no`` just before ``table``'s: the table that
        must finish the set before the copy comes to ``table`` (None: ``table`` plays the copy first,
        or does not play ``set_no``)."""
        before = None
        plays = self.plays(set_no)
        mine = next((p for p in plays if (p.group, p.position) == (table.group.number, table.position)), None)
        if mine is None:
            return None
        for play in plays:
            if play is mine:
                return before
            if play.copy == mine.copy:
                before = play
        return None

    def table_at(self, group: int, position: int) -> Table | None:
        """The plan's table of group ``group`` (number) at ``position``, if the plan holds it."""
        return self._by_place.get((group, position))

    def next_table(self, table: Table, block: int) -> Table | None:
        """The table that plays, in the next block, the first set ``table`` plays in ``block`` (None
        after the last block, or when the plan does not hold that table)."""
        if block + 1 >= self.movement.slots:
            return None
        first = self.blocks(table)[block][1][0]
        m = self.movement
        index = m.table_of(first, block + 1, table.group.number - 1)
        return self.table_at(index // m.n_tables + 1, index % m.n_tables)

    # --- who sits here -----------------------------------------------------------------------

    def holders(self, table: Table | int, set_no: int | None = None) -> dict[str, Player]:
        """``{seat: Player}``: who holds each seat of ``table`` (a Table or its id) on set
        ``set_no`` (None: now, every substitution applied), by :func:`tournament.seats.seat_holders`
        (docs/scoring.md, "Substitutions")."""
        pk = table if isinstance(table, int) else table.pk
        return seat_holders(self.seated.get(pk, {}), self.changes.get(pk, ()), set_no)

    def ordered_holders(self, table: Table | int, set_no: int | None = None) -> list[tuple[str, Player]]:
        """:meth:`holders` as ``[(seat, Player)]`` in the rule set's seat order."""
        held = self.holders(table, set_no)
        return [(seat, held[seat]) for seat in self.seats if seat in held]

    def holder_for_pin(self, table: Table, pin: str | None, *, set_no: int | None = None,
                       exclude_seat: str | None = None) -> tuple[str, Player] | None:
        """``(seat, Player)`` of the seat of ``table`` whose holder on ``set_no`` (None: now) has PIN
        ``pin``, other than ``exclude_seat``; None for no such seat or an empty PIN."""
        pin = str(pin or "").strip()
        if not pin:
            return None
        return next(((seat, p) for seat, p in sorted(self.holders(table, set_no).items())
                     if p.pin == pin and seat != exclude_seat), None)

    def replacements(self, table: Table | int) -> dict[str, Replacement]:
        """The seats of ``table`` handed over after Prepare, as they stand now: ``{seat: Replacement}``
        (the latest substitution of a seat wins); seats without one are absent."""
        pk = table if isinstance(table, int) else table.pk
        out: dict[str, Replacement] = {}
        for seat, sets, player in self.changes.get(pk, ()):
            if seat not in self.seated.get(pk, {}):
                continue
            first = out[seat].replaced if seat in out else self.seated[pk][seat]
            out[seat] = Replacement(player, first, sets[0] if sets else 0)  # sets are in play order
        return out


def _player_query(prefix: str):
    return (f"{prefix}__team", f"{prefix}__user")


def _load(sessions: list[Session], tables: list[Table], *, n_groups: dict[int, int] | None = None) -> dict[int, SessionPlan]:
    """Plans of ``sessions`` (loaded with their event) over ``tables`` (loaded with group and
    room): two queries (the seats and the substitutions of those tables)."""
    ids = [t.pk for t in tables]
    seated: dict[int, dict[str, Player]] = {pk: {} for pk in ids}
    for a in SeatAssignment.objects.filter(table_id__in=ids).select_related(*_player_query("player")):
        seated[a.table_id][a.seat] = a.player
    changes: dict[int, list[tuple[str, list[int], Player]]] = {}
    for sub in Substitution.objects.filter(table_id__in=ids).select_related(*_player_query("player_in")).order_by("id"):
        changes.setdefault(sub.table_id, []).append((sub.seat, list(sub.sets), sub.player_in))
    plans = {}
    by_session: dict[int, list[Table]] = {s.pk: [] for s in sessions}
    for t in tables:
        by_session[t.group.session_id].append(t)
    for session in sessions:
        mine = by_session[session.pk]
        for t in mine:
            t.group.session = session
        groups = (n_groups or {}).get(session.pk) or len({t.group_id for t in mine}) or 1
        movement = ruleset_movement(session.event.get_ruleset(), n_groups=groups, stagger=session.staggered)
        plans[session.number] = SessionPlan(session, movement, groups, mine,
                                            {t.pk: seated[t.pk] for t in mine},
                                            {t.pk: changes[t.pk] for t in mine if t.pk in changes})
    return plans


def session_plan(event: Event, session_number: int) -> SessionPlan | None:
    """The plan of session ``session_number`` of ``event`` (None: no such session yet). Three
    queries (the tables with their session, the seats, the substitutions)."""
    tables = list(Table.objects.filter(group__session__event=event, group__session__number=session_number)
                  .select_related("group__session", "room").order_by("number"))
    session = tables[0].group.session if tables else Session.objects.filter(event=event, number=session_number).first()
    if session is None:
        return None
    session.event = event
    return _load([session], tables)[session.number]


def event_plans(event: Event) -> dict[int, SessionPlan]:
    """``{session number: SessionPlan}`` of every session of ``event``. Four queries."""
    sessions = list(Session.objects.filter(event=event).order_by("number"))
    for s in sessions:
        s.event = event
    tables = list(Table.objects.filter(group__session__event=event).select_related("group", "room").order_by("number"))
    return _load(sessions, tables)


def _groups_of(session_pk: int | OuterRef) -> Subquery:
    """The number of groups of the session ``session_pk``, as a scalar subquery."""
    return Subquery(Group.objects.filter(session_id=session_pk).order_by().values("session_id")
                    .annotate(n=Count("pk")).values("n")[:1])


def _one_table(table: Table, seats: list[SeatAssignment]) -> SessionPlan:
    """The plan of ``table`` (loaded with ``group__session__event``) from its ``seats`` as read by
    :func:`_seat_rows` (annotated with ``n_groups`` and ``substituted``): one more query, the
    substitutions, only when the table has one."""
    session = table.group.session
    if not seats:  # a table without seats (nothing to annotate): the general reader
        return _load([session], [table], n_groups={session.pk: session.groups.count()})[session.number]
    changes: dict[int, list[tuple[str, list[int], Player]]] = {}
    if seats[0].substituted:
        for sub in Substitution.objects.filter(table_id=table.pk).select_related(*_player_query("player_in")).order_by("id"):
            changes.setdefault(table.pk, []).append((sub.seat, list(sub.sets), sub.player_in))
    groups = seats[0].n_groups or 1
    movement = ruleset_movement(session.event.get_ruleset(), n_groups=groups, stagger=session.staggered)
    return SessionPlan(session, movement, groups, [table], {table.pk: {a.seat: a.player for a in seats}}, changes)


def _seat_rows(seats: QuerySet, session_pk: int | OuterRef, table_ref: int | OuterRef) -> QuerySet:
    """``seats`` (a SeatAssignment queryset of one table) with their players (team and user
    loaded), each row annotated with its session's group count (``n_groups``) and whether the
    table ``table_ref`` (an id or an OuterRef) has a substitution (``substituted``)."""
    return seats.select_related(*_player_query("player")).annotate(
        n_groups=_groups_of(session_pk), substituted=Exists(Substitution.objects.filter(table_id=table_ref)))


def _plan_seats(lock: str | None) -> PreparedQuery:
    """The seat rows :func:`table_plan` reads with ``lock``, as a query compiled once per process."""

    def build(table_id: int, session_id: int) -> QuerySet:
        seats = SeatAssignment.objects.filter(table_id=table_id)
        if lock is not None:
            path = {"table": "table", "group": "table__group", "session": "table__group__session"}[lock]
            seats = seats.select_related(path).select_for_update(of=(path,), no_key=lock == "table"
                                                                  and connection.features.has_select_for_no_key_update)
        return _seat_rows(seats, session_id, table_id)

    return PreparedQuery(SeatAssignment, build)


_PLAN_SEATS = {lock: _plan_seats(lock) for lock in (None, "table", "group", "session")}


def table_plan(table: Table, *, lock: str | None = None) -> SessionPlan:
    """The plan of ``table``'s session holding ``table`` alone: its blocks, seats and holders, and
    the places (group, position) of the other tables' plays. ``table`` comes with
    ``group__session__event`` loaded. One query (its seats with their players, the session's
    group count and whether the table has a substitution), two when it has a substitution (the
    substitutions); three for a table without seats.

    ``lock``: also lock a row in the same statement (``SELECT ... FOR UPDATE`` where the
    database has row locks): ``"table"`` the table's row (``FOR NO KEY UPDATE``: rows referring
    to the table may still be inserted), ``"group"`` its group's row, ``"session"`` its session's
    row (the comparison scope, as :func:`scoring.actions.locks.lock_scope` locks it; one more
    query for a table without seats, whose lock is then taken alone). None: no lock. The query
    is compiled once per process (:class:`tournament.prepared.PreparedQuery`)."""
    session = table.group.session
    rows = _PLAN_SEATS[lock](table.pk, session.pk)
    if lock is not None and not rows:  # no seat row carried the lock: take it alone
        rows_of: dict[str, QuerySet] = {"table": Table.objects.filter(pk=table.pk), "group": Group.objects.filter(pk=table.group_id),
                                        "session": Session.objects.filter(pk=session.pk)}
        no_key = lock == "table" and connection.features.has_select_for_no_key_update
        list(rows_of[lock].select_for_update(no_key=no_key).values_list("pk", flat=True))
    return _one_table(table, rows)


def _seats_by_number(event_id: int, number: int, session_number: int | None = None) -> QuerySet:
    """The seats of the table with event-wide ``number`` in session ``session_number`` of the
    event ``event_id`` (default: its latest session), as :func:`table_plan_by_number` reads them."""
    seats = SeatAssignment.objects.filter(table__number=number, table__group__session__event_id=event_id)
    if session_number is None:
        seats = seats.filter(table__group__session__number=Subquery(
            Session.objects.filter(event_id=event_id).order_by("-number").values("number")[:1]))
    else:
        seats = seats.filter(table__group__session__number=session_number)
    return _seat_rows(seats.select_related("table__group__session", "table__room"),
                      OuterRef("table__group__session_id"), OuterRef("table_id"))


_SEATS_BY_NUMBER = PreparedQuery(SeatAssignment, _seats_by_number)  # result entry's read: compiled once


def table_plan_by_number(event: Event, number: int, session_number: int | None = None) -> tuple[Table, SessionPlan] | None:
    """The table with event-wide ``number`` in session ``session_number`` of ``event`` (default:
    the latest seated session) and its plan (:func:`table_plan`), read together: one query (two
    when the table has a substitution), compiled once per process
    (:class:`tournament.prepared.PreparedQuery`). None when no such table has seats (the caller
    then names the tables that exist)."""
    args = (event.pk, number) if session_number is None else (event.pk, number, session_number)
    rows = _SEATS_BY_NUMBER(*args)
    if not rows:
        return None
    table = rows[0].table
    table.group.session.event = event
    for a in rows:
        a.table = table
    return table, _one_table(table, rows)


def plans_for_tables(tables: Iterable[Table]) -> dict[int, SessionPlan]:
    """``{session number: SessionPlan}`` holding just ``tables`` (loaded with ``group__session__event``
    and ``room``), for a page that shows a few tables. Two queries, plus one per session."""
    tables = list(tables)
    sessions = list({t.group.session.pk: t.group.session for t in tables}.values())
    n_groups = {s.pk: s.groups.count() for s in sessions}
    return _load(sessions, tables, n_groups=n_groups)


def itineraries(event: Event, players: Iterable[int] | None = None) -> dict[int, list[dict]]:
    """Player id → the player's seats in every seated session of ``event``, in session then table
    order: ``{"session", "group", "table", "room", "seat", "from_set", "replaced_by"}`` (``room`` ""
    without one; ``seat`` the wind letter; ``from_set`` the first set played there after coming in
    as a substitute, else 0; ``replaced_by`` the name of the player who took the seat over, else "").
    ``players``: the player ids to look up (None: everyone who held a seat). Public data: the
    seating pages show the same. Four queries."""
    wanted = None if players is None else set(players)
    out: dict[int, list[dict]] = {}
    for number, plan in event_plans(event).items():
        for t in plan.tables:
            for seat, first in plan.seated.get(t.pk, {}).items():
                chain = [(first, 0)] + [(p, sets[0] if sets else 0) for s, sets, p in plan.changes.get(t.pk, ()) if s == seat]
                for i, (player, from_set) in enumerate(chain):
                    if wanted is not None and player.pk not in wanted:
                        continue
                    out.setdefault(player.pk, []).append({
                        "session": number, "group": t.group.number, "table": t.number,
                        "room": t.room.name if t.room_id else "", "seat": seat, "from_set": from_set,
                        "replaced_by": chain[i + 1][0].name if i + 1 < len(chain) else "",
                    })
    for entries in out.values():
        entries.sort(key=lambda e: (e["session"], e["table"]))
    return out


def seating_list(event: Event, session_number: int) -> list[dict]:
    """Who sits where in session ``session_number``, room by room: one dict per seat,
    ``{"room": room name ("" without a room), "room_number": int or None, "table": event-wide
    table number, "seat": wind letter, "seat_index": 0-based position of the seat in the rule
    set's order, "player": name, "team": team name ("" in individual events), "player_id",
    "replaces": the name of the player substituted there ("" when none), "from_set": the first
    set the holder plays after a substitution (0 when none)}``: each seat's holder now
    (:meth:`SessionPlan.replacements`), sorted by room number (tables without a room last), table
    number, then seat order. Empty when the session is not seated. Per-room seating lists on the
    web and in print use it (docs/seating.md, "Rooms"). Four queries."""
    plan = session_plan(event, session_number)
    if plan is None:
        return []
    order = {seat: i for i, seat in enumerate(plan.seats)}
    rows = []
    for t in plan.tables:
        replaced = plan.replacements(t)
        for seat, seated in plan.seated.get(t.pk, {}).items():
            change = replaced.get(seat)
            holder = change.holder if change else seated
            room = t.room
            rows.append({
                "room": room.name if room else "", "room_number": room.number if room else None, "table": t.number,
                "seat": seat, "seat_index": order.get(seat, len(order)), "player": holder.name,
                "team": seated.team.name if seated.team_id else "", "player_id": holder.pk,
                "replaces": change.replaced.name if change else "", "from_set": change.from_set if change else 0,
            })
    rows.sort(key=lambda r: (r["room_number"] is None, r["room_number"] or 0, r["table"], r["seat_index"]))
    return rows
