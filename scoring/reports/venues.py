"""The venues of an event played in several clubs, as the scoring stage reports them
(docs/director-guide.md, "An event in several clubs"; docs/security.md, "Venues").

- :func:`venue_standings`: a venue's own standings at once, scored within the venue and marked
  provisional: each set compared among the venue's tables alone, as soon as every one of them
  has a confirmed result on it, whatever the other venues have played. They are shown only to
  the venue's people (:func:`venue_viewers`), never to the public or another venue: they hold
  results of sets other clubs still have to play. At the release the field standings (every
  venue's tables compared, :mod:`scoring.actions.rescoring`) replace them.
- :func:`venue_progress`: for the central director, what each venue has played and still owes,
  session by session, and whether it is late against its schedule.
"""

from __future__ import annotations

import datetime
from collections import Counter, defaultdict
from dataclasses import dataclass

from django.db.models import Count, Q

from scoring.comparisons import TableSeats, complete_scopes, converted_scores
from scoring.models import ConversionTable, HandResult
from scoring.standings import RankingRules, standings
from scoring.visibility import Viewer
from tournament.models import Event, Player, Table, Team, Venue, VenueSession
from tournament.table_plan import plans_for_tables


def venue_viewers(viewer: Viewer, user, event: Event) -> set[int]:
    """The ids of the venues whose provisional standings ``viewer`` (``user``'s, in ``event``) may
    read: every venue for the event's director and staff; otherwise the venues of the tables the
    viewer sees as its own (a table login, a seated player, a scorer's tables, a venue role's
    tables: :func:`scoring.visibility.viewer_for`). One query."""
    venues = Venue.objects.filter(event=event)
    if viewer.secrets:
        return set(venues.values_list("pk", flat=True))
    by_role = Q(roles__user=user) if getattr(user, "is_authenticated", False) else Q(pk__in=[])
    return set(venues.filter(by_role | Q(groups__tables__in=viewer.tables)).values_list("pk", flat=True).distinct())


@dataclass(frozen=True)
class VenueRow:
    """One line of a venue's provisional standings: ``rank`` (None: unranked), ``name`` of the
    team or player, ``points`` (converted points, IMP/MP, within the venue), ``score`` (the sum
    of score changes, points), ``sets`` compared."""

    rank: int | None
    name: str
    points: float
    score: int
    sets: int


def venue_standings(event: Event, venue: Venue) -> list[VenueRow]:
    """The provisional standings of ``venue``: each set compared among the venue's own tables of
    its session (the event's datum, conversion table and method: docs/rules.md; within each group
    when the event compares groups), once every one of the venue's tables has a confirmed result
    on it: never while another group of the venue still has to play it. Fouled versions and reserve walls are compared as
    played; the field standings apply Law 87 at the release. Substitutes are listed unranked.
    A few queries whatever the size: the venue's tables, their seating (one per session), their
    confirmed results, the conversion table, the entrants."""
    tables = list(Table.objects.filter(group__venue=venue, group__session__event=event)
                  .select_related("group__session__event", "room"))
    conversion = ConversionTable.objects.current(event)
    if not tables or conversion is None:
        return []
    plans = plans_for_tables(tables)
    by_set: dict[tuple[int, int], list[tuple[int, int, dict]]] = defaultdict(list)
    for table_id, session_number, set_no, changes in HandResult.objects.filter(
            table__in=tables, status=HandResult.Status.CONFIRMED).values_list("table_id", "session_number", "set_no", "changes"):
        by_set[(session_number, set_no)].append((table_id, set_no, changes))
    by_team = event.method == Event.Method.TEAM
    field = event.comparison == Event.Comparison.FIELD
    table_plan = conversion.as_table()
    per_set = []
    at_venue = Counter(t.group.session.number for t in tables)
    for (session_number, set_no), results in sorted(by_set.items()):
        if len(results) < at_venue[session_number]:
            continue  # a group of the venue still to play the set: its people must not read another group's score on it
        plan = plans[session_number]
        seating = {t.pk: TableSeats(session_number, t.group.number, t.number,
                                    {seat: (p.pk, p.team_id) for seat, p in plan.holders(t, set_no).items()})
                   for t in tables if t.group.session.number == session_number}
        for rows in complete_scopes(seating, results, field=field).values():
            for score in converted_scores(rows, table_plan, event.datum_method, by_team=by_team):
                per_set.append((score.key, (session_number, set_no), score.converted, score.score_change))
    entrants = Team.objects.filter(event=event) if by_team else Player.objects.filter(event=event)
    names = {pk: (name, substitute) for pk, name, substitute in entrants.values_list("pk", "name", "substitute")}
    rules = RankingRules(unranked=frozenset(pk for pk, (_name, substitute) in names.items() if substitute))
    return [VenueRow(row.rank, names[row.key][0], row.points, row.score_total, row.sets_played)
            for row in standings(per_set, rules) if row.key in names]


@dataclass(frozen=True)
class VenueSessionProgress:
    """What one venue has played of one session: ``tables`` of the venue, ``expected`` results
    (tables × sets), ``confirmed`` ones, ``owed`` (the rest), its schedule (``starts_at``,
    ``ends_at``, None when not set) and ``late`` (its window is over and results are owed)."""

    session: int
    tables: int
    expected: int
    confirmed: int
    owed: int
    starts_at: datetime.datetime | None
    ends_at: datetime.datetime | None
    late: bool


def venue_progress(event: Event, now: datetime.datetime) -> list[tuple[Venue, list[VenueSessionProgress]]]:
    """For the central director: each venue of ``event`` with its progress in every planned
    session (:class:`VenueSessionProgress`) at ``now``. Four queries."""
    hands = event.get_ruleset().hands_per_session
    venues = list(event.venues.order_by("number"))
    tables = {(v, s): n for v, s, n in Table.objects.filter(group__session__event=event).exclude(group__venue=None)
              .values_list("group__venue", "group__session__number").annotate(n=Count("id"))}
    confirmed = {(v, s): n for v, s, n in HandResult.objects.filter(event=event, status=HandResult.Status.CONFIRMED)
                 .exclude(table__group__venue=None).values_list("table__group__venue", "session_number").annotate(n=Count("id"))}
    windows = {(w.venue_id, w.session_number): w for w in VenueSession.objects.filter(venue__event=event)}
    out = []
    for venue in venues:
        rows = []
        for s in range(1, event.sessions_planned + 1):
            n = tables.get((venue.pk, s), 0)
            done = confirmed.get((venue.pk, s), 0)
            window = windows.get((venue.pk, s))
            owed = n * hands - done
            rows.append(VenueSessionProgress(
                s, n, n * hands, done, owed, window.starts_at if window else None, window.ends_at if window else None,
                bool(window and window.ends_at < now and (owed > 0 or not n))))
        out.append((venue, rows))
    return out
