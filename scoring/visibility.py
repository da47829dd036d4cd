"""The one visibility rule of duplicate play: who may see what of a set, and when.

Every page, API endpoint, export, PDF download, cache and admin list asks this module; nothing
else decides. The rule (docs/rules.md, "Secrecy in duplicate play"; docs/security.md):

- A **set** (one hand's wall set: ``(session number, set number)``) is played at every table of
  its session, in every group: all groups play copies of the same walls. It becomes **public**
  (*released*) the moment every one of those tables has a confirmed result on it. From then on
  its walls (the hand record), every table's result and winning hand, its converted scores and
  its share of every standings are visible to everyone.
- Until then only the event's **director and staff** (and superusers) see it. A **table** sees
  its own entry (the table's scorer, a scorer role bound to the table, a player seated there).
- An event played in several clubs (:class:`tournament.models.Venue`) is one field: a set is
  public only once every table of its session, **in every venue**, has a confirmed result on it,
  however many hours apart the clubs play. A venue's director and staff are not the event's:
  they see their own venue's tables' entries, as a table does, and its provisional standings
  (:mod:`scoring.reports.venues`), never another venue's results, walls still in play or field
  scores before the release.
- A release is stored (:class:`scoring.models.SetRelease`) and never withdrawn. A later
  correction or dispute (the director's alone) does not hide the set again: every table has
  played it, so nothing is left to protect, and what players have seen cannot be unseen. The
  corrected result is shown at once, with its history; a disputed result's group drops out of
  the set's converted scores until the director settles it.

Bridge does the same with boards (results shown once every table has played the board; hand
records after the session).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection, transaction
from django.db.models import Count, Exists, IntegerField, OuterRef, Q, QuerySet, Subquery, Sum
from django.db.models.expressions import RawSQL
from django.db.models.functions import Coalesce
from django.utils import timezone

from scoring.models import HandResult, SetRelease
from tournament.models import Event, EventRole, EventVersion, Group, Session, Table
from tournament.permissions import roles, scorer_role_table_ids
from tournament.prepared import PreparedQuery

SECRET_ROLES = frozenset({EventRole.Role.DIRECTOR, EventRole.Role.STAFF})


@dataclass(frozen=True)
class Viewer:
    """Who is looking at an event, as far as visibility goes.

    ``secrets``: the event's director or staff (or a superuser): sees every set at once.
    ``director``: the event's director. ``tables``: primary keys of the tables whose own entries
    this viewer sees before the set is public (a table login, a scorer role bound to tables, the
    tables a linked player sits at, the tables of a venue where the user is director or staff).
    """

    secrets: bool = False
    director: bool = False
    tables: frozenset[int] = frozenset()

    @property
    def public(self) -> bool:
        """True when this viewer sees only what is public."""
        return not self.secrets


PUBLIC = Viewer()


def viewer_for(user, event: Event, table_ids=()) -> Viewer:
    """The :class:`Viewer` of ``user`` (may be anonymous) in ``event``; ``table_ids`` are the
    tables this browser logged into with a table code (:func:`scoring.table_access.viewer` passes
    them for a request).

    One query for the user's roles (remembered for the request), one or two for their tables."""
    held = roles(user, event)
    tables = set(table_ids) | scorer_role_table_ids(user, event)
    if getattr(user, "is_authenticated", False):
        seated = Q(seats__player__user=user) | Q(substitutions__player_in__user=user)  # a substitute's table too
        at_venue = Q(group__venue__roles__user=user)  # a venue's director and staff: its tables (docs/security.md, "Venues")
        tables |= set(Table.objects.filter(seated | at_venue, group__session__event=event).values_list("pk", flat=True))
    return Viewer(secrets=bool(held & SECRET_ROLES), director=EventRole.Role.DIRECTOR in held, tables=frozenset(tables))


# --- released sets -----------------------------------------------------------------------------

def released_sets(event: Event) -> frozenset[tuple[int, int]]:
    """``{(session number, set number)}`` of the event's public sets (one query)."""
    return frozenset(SetRelease.objects.filter(event=event).values_list("session_number", "set_no"))


def can_see_set(viewer: Viewer, event: Event, session_number: int, set_no: int) -> bool:
    """Whether ``viewer`` may see the set's walls, every table's result and its converted scores."""
    return viewer.secrets or is_public(event, session_number, set_no)


def is_public(event: Event, session_number: int, set_no: int) -> bool:
    """True once set ``set_no`` of session ``session_number`` is released (one query)."""
    return SetRelease.objects.filter(event=event, session_number=session_number, set_no=set_no).exists()


def released_now(event: Event, session_number: int, set_no: int) -> RawSQL:
    """An SQL expression worth 1 when set ``set_no`` of session ``session_number`` is released,
    else 0. For :meth:`tournament.models.Event.changed`, so a write that touched one set's
    results bumps the public version only when that set is public, in the same UPDATE (no query
    of its own; raw SQL, portable to SQLite and PostgreSQL, because compiling the ORM's
    ``Case(When(Exists(...)))`` cost a tenth of an entry's CPU)."""
    release = SetRelease._meta
    columns = {name: release.get_field(name).column for name in ("event", "session_number", "set_no")}
    sql = (f"CASE WHEN EXISTS (SELECT 1 FROM {release.db_table} WHERE {columns['event']} = %s"  # noqa: S608 - names from the model
           f" AND {columns['session_number']} = %s AND {columns['set_no']} = %s) THEN 1 ELSE 0 END")
    return RawSQL(sql, (event.pk, session_number, set_no), output_field=_INTEGER)


_INTEGER = IntegerField()  # the output field of released_now: made once (a field costs more than the SQL)


_RELEASED_IN_SESSION = PreparedQuery(SetRelease, lambda event_id, session_number: SetRelease.objects.filter(
    event_id=event_id, session_number=session_number).order_by().values_list("set_no", flat=True))


def session_finished(event: Event, session_number: int) -> bool:
    """True when every set of the session is public (every table has played every set). One
    query, compiled once per process (a table's phone asks it on every request)."""
    hands = event.get_ruleset().hands_per_session
    return len(_RELEASED_IN_SESSION(event.pk, session_number)) >= hands


def _traveller_state(event_id: int, session_number: int, set_no: int) -> QuerySet:
    results = HandResult.objects.filter(event_id=OuterRef("event_id"), session_number=OuterRef("number"), set_no=set_no).order_by()
    count = Subquery(results.filter(status=HandResult.Status.CONFIRMED).values("set_no").annotate(n=Count("pk")).values("n"))
    writes = Subquery(results.values("set_no").annotate(n=Sum("revision")).values("n"))
    released = Exists(SetRelease.objects.filter(event_id=OuterRef("event_id"), session_number=OuterRef("number"), set_no=set_no))
    shared = Subquery(EventVersion.objects.filter(event_id=OuterRef("event_id")).values("shared_number")[:1])
    return Session.objects.filter(event_id=event_id, number=session_number).annotate(
        done=Coalesce(count, 0), released=released, writes=Coalesce(writes, 0), shared=Coalesce(shared, 0)).values_list(
        "done", "released", "shared", "writes")


_TRAVELLER_STATE = PreparedQuery(Session, _traveller_state)


def traveller_state(event: Event, session_number: int, set_no: int) -> tuple[int, str | None] | None:
    """What a visitor's traveller of set ``set_no`` of session ``session_number`` is kept under,
    or None when the event has no such session. One query, compiled once per process (every
    read of a traveller asks it). ``(done, stamp)``:

    - ``done``: how many tables have a confirmed result on the set (0 for none): before its
      release the public page shows only that count, so it changes with nothing else (never
      with an entry, a correction or anything else written on a set still in play);
    - ``stamp``: for a released set, ``"<shared version>.<writes>"``: the event's shared version
      (:attr:`tournament.models.EventVersion.shared_number`, bumped by every public change but a
      write to one set's results) and the sum of the set's results' revision numbers (an entry
      adds a result of revision 1, a confirmation, dispute or correction adds one to its
      revision; a result deleted with its table or event, or a revision a venue's package
      raises, comes with a shared bump). Together they change with everything the set's
      traveller shows, and not with another set's entries, confirmations and release. None for a
      set not released. Read it inside :func:`tournament.cache.reading`: a page's ETag then never
      names a public version newer than the stamp its page was kept under."""
    found = _TRAVELLER_STATE(event.pk, session_number, set_no)
    if not found:
        return None
    done, released, shared, writes = found[0]
    return done, (f"{shared}.{writes}" if released else None)


def planned_sets(event: Event) -> int:
    """How many sets the event's planned sessions hold (sessions × hands per session)."""
    return event.get_ruleset().hands_per_session * event.sessions_planned


def sets_to_play(event: Event) -> int:
    """How many sets of the planned sessions are not public yet (0: the event is finished)."""
    released = SetRelease.objects.filter(event=event, session_number__lte=event.sessions_planned).count()
    return planned_sets(event) - released


def event_finished(event: Event) -> bool:
    """True when every set of every planned session is public: the master seed may be revealed."""
    return sets_to_play(event) <= 0


def release_complete_set(event_id: int, session_id: int, session_number: int, set_no: int) -> bool:
    """Release set ``set_no`` of session ``session_number`` (primary key ``session_id``) of the event
    ``event_id`` when it is not released yet and every table of the session has a confirmed result
    on it: the release rule, in one statement (an INSERT of its :class:`~scoring.models.SetRelease`
    guarded by that condition; never on a venue's laptop, ``Event.releases_held``: the central
    site releases once every venue has played). Returns whether it released the set now. The caller holds the
    session row's lock, so the last confirmations of two groups, committed at the same time,
    cannot each miss the other's."""
    release, result, table, group, event = SetRelease._meta, HandResult._meta, Table._meta, Group._meta, Event._meta
    r = {n: release.get_field(n).column for n in ("event", "session_number", "set_no", "released_at")}
    h = {n: result.get_field(n).column for n in ("event", "session_number", "set_no", "status")}
    tables = (f"FROM {table.db_table} INNER JOIN {group.db_table} ON {table.db_table}.{table.get_field('group').column}"
              f" = {group.db_table}.{group.pk.column} WHERE {group.db_table}.{group.get_field('session').column} = %s")
    sql = (f"INSERT INTO {release.db_table} ({r['event']}, {r['session_number']}, {r['set_no']}, {r['released_at']}) "  # noqa: S608 - names from the models
           f"SELECT %s, %s, %s, %s WHERE NOT EXISTS (SELECT 1 FROM {release.db_table} WHERE {r['event']} = %s"
           f" AND {r['session_number']} = %s AND {r['set_no']} = %s)"
           f" AND (SELECT COUNT(*) {tables}) = (SELECT COUNT(*) FROM {result.db_table}"
           f" WHERE {h['event']} = %s AND {h['session_number']} = %s AND {h['set_no']} = %s AND {h['status']} = %s)"
           f" AND EXISTS (SELECT 1 {tables})"
           f" AND NOT EXISTS (SELECT 1 FROM {event.db_table} WHERE {event.pk.column} = %s"
           f" AND {event.get_field('releases_held').column} = %s)")
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    with connection.cursor() as cursor:
        cursor.execute(sql, (event_id, session_number, set_no, now, event_id, session_number, set_no, session_id,
                             event_id, session_number, set_no, HandResult.Status.CONFIRMED, session_id, event_id, True))
        return cursor.rowcount > 0


@transaction.atomic
def release_if_finished(event: Event, session_number: int, set_no: int) -> bool:
    """Release the set when every table of its session has a confirmed result on it; returns
    whether it is released now. Called by every write that can confirm a result
    (:func:`scoring.actions.rescoring.rescore_set`), inside its transaction.

    Locks the session row first, so the last confirmations of two groups, committed at the same
    time, cannot each miss the other's and leave the set unreleased.
    """
    if is_public(event, session_number, set_no):
        return True
    locked = list(Session.objects.select_for_update().filter(event=event, number=session_number).values_list("pk", flat=True))
    return bool(locked) and release_complete_set(event.pk, locked[0], session_number, set_no)


@transaction.atomic
def sync_releases(event: Event) -> int:
    """Release every set of ``event`` that is complete (after an import); returns how many were
    added. Never withdraws a release. Five statements, however large the event, and one more
    (the content version bumped: :meth:`tournament.models.Event.changed`) when it adds one."""
    hands = event.get_ruleset().hands_per_session
    tables = dict(Table.objects.filter(group__session__event=event).order_by().values_list("group__session__number")
                  .annotate(n=Count("id")).values_list("group__session__number", "n"))
    confirmed = {(s, n): count for s, n, count in HandResult.objects.filter(event=event, status=HandResult.Status.CONFIRMED)
                 .order_by().values_list("session_number", "set_no").annotate(n=Count("id"))
                 .values_list("session_number", "set_no", "n")}
    complete = {(s, n) for s in event.sessions.values_list("number", flat=True) for n in range(1, hands + 1)
                if tables.get(s) and confirmed.get((s, n)) == tables[s]}
    added = release_sets(event, complete)
    if added:
        event.changed()  # the last lock of the write (tournament.models.Event.changed)
    return added


def release_sets(event: Event, sets: set[tuple[int, int]]) -> int:
    """Release each of ``sets`` (``{(session, set)}``, every one complete: each table of its
    session has a confirmed result on it, as the caller checked) that is not released yet, in
    at most two statements; returns how many were added. For the writes that release many sets
    at once (an import, a rescore of the whole event); one confirmation releases through
    :func:`release_if_finished`."""
    if event.releases_held:  # a venue's laptop: the central site releases (docs/security.md, "Venues")
        return 0
    new = sorted(set(sets) - released_sets(event)) if sets else []
    SetRelease.objects.bulk_create([SetRelease(event=event, session_number=s, set_no=n) for s, n in new],
                                   ignore_conflicts=True)
    return len(new)


# --- querysets ---------------------------------------------------------------------------------

def _released() -> Exists:
    """For a queryset of rows with ``event``, ``session_number`` and ``set_no``: the row's set is released."""
    return Exists(SetRelease.objects.filter(event=OuterRef("event"), session_number=OuterRef("session_number"),
                                            set_no=OuterRef("set_no")))


def with_released(queryset: QuerySet) -> QuerySet:
    """``queryset`` (rows with ``event``, ``session_number`` and ``set_no``: results, scores)
    annotated with ``released``: whether the row's set is public, asked in the same statement."""
    return queryset.annotate(released=_released())


def visible_results(viewer: Viewer, queryset: QuerySet) -> QuerySet:
    """``queryset`` of :class:`~scoring.models.HandResult` limited to what ``viewer`` may see:
    everything for director and staff; otherwise results of public sets and the viewer's own
    tables' entries."""
    if viewer.secrets:
        return queryset
    return queryset.filter(Q(_released()) | Q(table__in=viewer.tables))


def visible_scores(viewer: Viewer, queryset: QuerySet) -> QuerySet:
    """``queryset`` of :class:`~scoring.models.SetScore` limited to public sets unless ``viewer``
    sees secrets (a table's own converted score is not its own entry: it compares with tables
    still playing, so it waits for the release too)."""
    return queryset if viewer.secrets else queryset.filter(_released())


def visible_walls(viewer: Viewer, queryset: QuerySet) -> QuerySet:
    """``queryset`` of :class:`~walls.models.WallSet` limited to the walls ``viewer`` may read."""
    return queryset if viewer.secrets else queryset.filter(_released())


def visible_reserve_walls(viewer: Viewer, queryset: QuerySet) -> QuerySet:
    """``queryset`` of :class:`~walls.models.ReserveWall` limited to the ones ``viewer`` may read:
    the rule of :func:`visible_walls`, since a reserve wall is secret exactly as its set's walls
    are (docs/walls.md, "Reserve walls")."""
    return queryset if viewer.secrets else queryset.filter(_released())
