"""The seating and movement page of a session: groups, tables, rooms and seats; which table plays
which sets in each round and where staff carry each set afterwards; copies needed; repeat meetings
against their lower bound. Public (players look up their seat); print buttons for staff."""

from django.shortcuts import get_object_or_404, render

from tournament.access import event_view
from tournament.permissions import is_staff_or_director
from tournament.services import seat_replacements, session_movement, sitting_out


@event_view()
def seating(request, event, number):
    """The seating and movement page of session ``number`` (404 when it is not seated)."""
    session = get_object_or_404(event.sessions, number=number)
    ruleset = event.get_ruleset()
    groups = list(session.groups.prefetch_related("tables__room", "tables__seats__player", "tables__seats__team"))
    movement = session_movement(session, n_groups=len(groups))
    n = movement.n_tables
    replaced = seat_replacements(t.pk for group in groups for t in group.tables.all())
    group_rows = []
    for g, group in enumerate(groups):
        tables = list(group.tables.all())
        by_position = {t.position: t for t in tables}
        rows = []
        for table in tables:
            seats = {s.seat: s for s in table.seats.all()}
            plays = []
            for slot in range(movement.slots):
                sets = movement.sets_at(g * n + table.position, slot)
                nxt = by_position[movement.table_of(sets[0], slot + 1, g) - g * n] if slot + 1 < movement.slots else None
                plays.append({"slot": slot + 1, "sets": sets, "next": nxt})
            rows.append({"table": table, "plays": plays, "seats": [
                (seat, seats.get(seat), replaced.get((table.pk, seat))) for seat in ruleset.seats]})
        group_rows.append({"group": group, "tables": rows})
    return render(request, "tournament/seating.html", {
        "event": event, "session": session, "groups": group_rows, "movement": movement,
        "slots": range(1, movement.slots + 1), "sitting_out": sitting_out(event, number),
        "is_staff": is_staff_or_director(request.user, event),
    })
