"""Luck measured on an event's own hands, per session (docs/scoring.md, "Luck measured"): the
figures of :func:`scoring.luck.luck_by_session` over the event's **released** sets only
(:func:`scoring.visibility.released_sets`), so the report says nothing about a set still in play,
to anyone, the director included. Kept in :mod:`tournament.cache` under the public version: a
release makes it anew, nothing else does."""

from __future__ import annotations

from scoring import luck
from scoring.reports.scopes import event_scopes
from scoring.visibility import released_sets
from tournament import cache
from tournament.models import Event


def luck_rows(event: Event) -> list[luck.SeatScore]:
    """One :class:`scoring.luck.SeatScore` per player per released set (the player who held the
    seat, substitutions applied: :func:`scoring.reports.scopes.event_scopes`), the score change
    in points. Six queries."""
    released = released_sets(event)
    return [luck.SeatScore(r.session, r.set_no, r.table, r.seat, r.player, r.change)
            for (session, set_no, _group), results in event_scopes(event).items() if (session, set_no) in released
            for r in results]


def event_luck(event: Event) -> list[luck.LuckFigures]:
    """:func:`scoring.luck.luck_by_session` of :func:`luck_rows` (the default 2,000 resamples and
    seed), one per session with a released set played at two tables or more; ``[]`` before any."""
    def compute() -> list[luck.LuckFigures]:
        rows = luck_rows(event)
        return luck.luck_by_session(rows) if rows else []

    return cache.cached(event, "luck", compute, public=True)
