"""The papers of a session's tables (docs/printing.md): the score sheets (one per table, with its
login and the sets in its playing order) and the movement sheet (where each table's sets go
next), each kind declared beside the builder that reads the stored tables and the session's
movement (docs/seating.md, "The movement")."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from tournament.models import Event
from tournament.seating import (
    seat_replacements,
    session_movement,
    table_index,
    table_of_set,
    table_schedule,
)
from walls import printing
from walls.print_kinds.base import PrintKind, session_tables
from walls.setcode import SetId


def movement_rows(event: Event, session_number: int) -> list[dict]:
    """Rows ``{"slot", "table", "sets", "next_table"}`` of the session's movement, one per table and slot."""
    rows = []
    tables = list(session_tables(event, session_number).select_related("group__session__event").order_by("number"))
    if not tables:
        return rows
    movement = session_movement(tables[0].group.session)
    by_position = {}
    for t in tables:
        by_position.setdefault((t.group_id, t.position), t)
    for t in tables:
        index = table_index(t)
        for slot in range(movement.slots):
            sets = movement.sets_at(index, slot)
            nxt = table_of_set(t.group, sets[0], slot + 1) if slot + 1 < movement.slots else None
            rows.append({
                "slot": slot + 1, "table": t.number, "sets": list(sets),
                "next_table": by_position[(t.group_id, nxt)].number if nxt is not None else None,
            })
    return rows


def score_sheets(event: Event, session_number: int) -> list:
    """One :class:`walls.printing.ScoreSheet` per table of the session."""
    out = []
    tables = (session_tables(event, session_number).select_related("group__session__event")
              .prefetch_related("seats__player").order_by("number"))
    ruleset = event.get_ruleset()
    tables = list(tables)
    replaced = seat_replacements(t.pk for t in tables)  # a reprint after a substitution names who plays now
    for t in tables:
        order = [s for _slot, sets in table_schedule(t) for s in sets]
        seat_names = {s.seat: s.player.name for s in t.seats.all()}
        seat_names.update({seat: holder.name for (table_id, seat), (holder, _out, _first) in replaced.items() if table_id == t.pk})
        login = (f"{event.base_url.rstrip('/')}/e/{event.slug}/entry/login/" if event.base_url else "") + t.login_code_display
        out.append(printing.ScoreSheet(
            event_name=event.name, session=session_number, table_label=str(t.number), login=login,
            seats=[(seat, seat_names.get(seat, "")) for seat in ruleset.seats],
            sets=[SetId(event.slug, session_number, s).code for s in order],
        ))
    return out


def _score_sheets(event: Event, session: int = 1, lang: str = "en") -> bytes:
    return printing.render_score_sheets(score_sheets(event, session), lang=lang)


def _movement_sheet(event: Event, session: int = 1, lang: str = "en") -> bytes:
    return printing.render_movement_sheet(movement_rows(event, session), title=event.name, session=session, lang=lang)



KINDS = (
    PrintKind("score_sheets", gettext_lazy("Score sheets"), _score_sheets, ("session", "lang"), in_session_zip=True),
    PrintKind("movement", gettext_lazy("Movement sheet"), _movement_sheet, ("session", "lang"), in_session_zip=True),
)
"""The table papers' kinds, in menu order."""
