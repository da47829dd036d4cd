"""The federation results file of an event (docs/scoring.md, "The federation results file"): the
rows of :mod:`scoring.federation` built from the event's *public* standings, so the file counts
released sets only and says nothing about a set still in play (docs/security.md).

An individual event: one row per ranked player, with the player's place, converted points and
sets played. A team event ranks teams: one row per player of each ranked team (the team's
players on the roster, withdrawn players left out, in member order), each with the team's place,
converted points and sets played, and the team's name. Unranked entrants (substitutes, entrants
with no scored set) are left out: the file lists places. ``country`` is the player's; ``venue``
the name of the player's venue (else the team's), blank when the event has one place.
"""

from __future__ import annotations

from scoring.federation import ResultRow, write_results
from scoring.reports.standing_rows import event_standings
from tournament.models import Event, Player, Venue


def _venue_name(venue: Venue | None, several: bool) -> str:
    return venue.name if several and venue is not None else ""


def federation_rows(event: Event) -> list[ResultRow]:
    """The federation results file's rows of ``event``, in the public standings' order (module
    docstring)."""
    ranked = [row for row in event_standings(event, public=True) if row["rank"] is not None]
    several = event.venues.count() > 1
    if event.method != Event.Method.TEAM:
        players = {p.pk: p for p in event.players.select_related("venue")}
        return [ResultRow(place=row["rank"], name=players[row["key"]].name, country=players[row["key"]].country,
                          score=row["points"], sets=row["sets_played"], team="",
                          venue=_venue_name(players[row["key"]].venue, several)) for row in ranked]
    teams = {t.pk: t for t in event.teams.select_related("venue")}
    members: dict[int, list[Player]] = {}
    for player in (Player.objects.filter(event=event, team__isnull=False, withdrawn=False)
                   .select_related("venue").order_by("member", "number")):
        members.setdefault(player.team_id, []).append(player)
    return [ResultRow(place=row["rank"], name=player.name, country=player.country, score=row["points"],
                      sets=row["sets_played"], team=teams[row["key"]].name,
                      venue=_venue_name(player.venue or teams[row["key"]].venue, several))
            for row in ranked for player in members.get(row["key"], [])]


def federation_csv(event: Event) -> str:
    """The federation results file of ``event`` (:func:`federation_rows`) as CSV text."""
    return write_results(federation_rows(event))
