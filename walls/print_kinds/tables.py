"""The papers of a session's tables (docs/printing.md): the score sheets (one per table, with its
login and the sets in its playing order) and the movement sheet (where each table's sets go
next), each kind declared beside the builder that reads the session's table plan (docs/seating.md,
"The table plan")."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from scoring.payments import PAYMENT_RULES
from tournament.models import Event
from tournament.table_plan import session_plan
from walls import printing
from walls.print_kinds.base import PrintKind, public_address
from walls.setcode import SetId


def movement_rows(event: Event, session_number: int) -> list[dict]:
    """Rows ``{"slot", "table", "sets", "next_table", "room", "next_room"}`` of the session's
    movement, one per table and block (``slot``: the block, 1-based; rooms by name, "" for a
    table without one), from the table plan (:mod:`tournament.table_plan`)."""
    plan = session_plan(event, session_number)
    if plan is None:
        return []
    rows = []
    for t in plan.tables:
        for block, sets in plan.blocks(t):
            nxt = plan.next_table(t, block)
            rows.append({"slot": block + 1, "table": t.number, "sets": list(sets),
                         "next_table": nxt.number if nxt is not None else None, "room": _room(t),
                         "next_room": _room(nxt) if nxt is not None else ""})
    return rows


def _room(table) -> str:
    """The name of ``table``'s room, "" when it has none."""
    return table.room.name if table.room_id else ""


def value_unit(event: Event) -> str:
    """What the event's rule set counts a hand's value in: ``"fan"`` (MCR) or ``"han"`` (riichi
    and its kin), from its payment rule (:data:`scoring.payments.PAYMENT_RULES`)."""
    rule = PAYMENT_RULES.get(event.get_ruleset().payment_rule)
    return rule.value_unit if rule is not None else "fan"


def score_sheets(event: Event, session_number: int) -> list:
    """One :class:`walls.printing.ScoreSheet` per table of the session, naming who holds each seat
    now (a reprint after a substitution names the player coming in) and the table's sets in play
    order, from the table plan (:mod:`tournament.table_plan`)."""
    base = public_address(event)
    plan = session_plan(event, session_number)
    if plan is None:
        return []
    out, unit = [], value_unit(event)
    for t in plan.tables:
        held = plan.holders(t)
        login = f"{base}/e/{event.slug}/entry/login/{t.login_code_display}"
        out.append(printing.ScoreSheet(
            event_name=event.name, session=session_number, table_label=str(t.number), login=login,
            code=t.login_code_display,
            seats=[(seat, held[seat].name if seat in held else "") for seat in plan.seats],
            sets=[SetId(event.slug, session_number, s).code for s in plan.sets(t)],
            room=_room(t), value_unit=unit,
        ))
    return out


def _score_sheets(event: Event, session: int = 1, lang: str = "en") -> bytes:
    return printing.render_score_sheets(score_sheets(event, session), lang=lang)


def _movement_sheet(event: Event, session: int = 1, lang: str = "en") -> bytes:
    return printing.render_movement_sheet(movement_rows(event, session), title=event.name, session=session, lang=lang)



KINDS = (
    PrintKind("score_sheets", gettext_lazy("Score sheets"), _score_sheets, ("session", "lang"), in_session_zip=True,
              prints_codes=True),
    PrintKind("movement", gettext_lazy("Movement sheet"), _movement_sheet, ("session", "lang"), in_session_zip=True),
)
"""The table papers' kinds, in menu order."""
