"""Players' itineraries on the web: the public "find my seat" page (docs/director-guide.md,
"Itineraries"). Type part of a name, see where each matching player sits in every seated
session. Seating is public already (the seating pages); this page shows nothing more: no PIN,
no result.
"""

from __future__ import annotations

import unicodedata

from django.shortcuts import render

from tournament.access import event_view
from tournament.models import Player
from tournament.table_plan import itineraries

MIN_QUERY = 2
"""The shortest name fragment searched (characters, after normalisation)."""
MAX_MATCHES = 30
"""Players listed at most; more matches ask for a longer name."""


def fold(text: str) -> str:
    """``text`` as names are compared: NFKC (full-width letters and half-width kana become their
    usual forms), case-folded, spaces collapsed: ``"ＴＡＲＯ  Yamada"`` → ``"taro yamada"``."""
    return " ".join(unicodedata.normalize("NFKC", text or "").casefold().split())


def matching_players(event, query: str) -> list[Player]:
    """The players of ``event`` whose folded name contains the folded ``query`` (:func:`fold`),
    by name; [] when the query is shorter than :data:`MIN_QUERY` characters."""
    wanted = fold(query)
    if len(wanted) < MIN_QUERY:
        return []
    found = [p for p in Player.objects.filter(event=event).select_related("team") if wanted in fold(p.name)]
    return sorted(found, key=lambda p: (fold(p.name), p.number))


@event_view()
def find_seat(request, event):
    """Public: ``?name=`` part of a player's name (at least 2 characters, any case, full- or
    half-width) → each matching player's seats in the seated sessions: session, group, table,
    room, seat (at most :data:`MAX_MATCHES` players)."""
    query = request.GET.get("name", "").strip()
    players = matching_players(event, query)
    too_many = len(players) > MAX_MATCHES
    players = players[:MAX_MATCHES]
    seats = itineraries(event, [p.pk for p in players])
    return render(request, "tournament/find_seat.html", {
        "event": event, "query": query, "searched": bool(query), "too_short": bool(query) and len(fold(query)) < MIN_QUERY,
        "too_many": too_many, "min_query": MIN_QUERY,
        "results": [{"player": p, "seats": seats.get(p.pk, [])} for p in players],
    })
