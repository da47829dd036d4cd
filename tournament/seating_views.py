"""The seating and movement page of a session: groups, tables, rooms and seats; which table plays
which sets in each round and where staff carry each set afterwards; copies needed; repeat meetings
against their lower bound. Public (players look up their seat); print buttons for staff."""

from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _

from tournament.access import event_view
from tournament.permissions import is_staff_or_director
from tournament.services import sitting_out
from tournament.table_plan import session_plan


@event_view()
def seating(request, event, number):
    """The seating and movement page of session ``number`` (404 when it is not seated)."""
    ruleset = event.get_ruleset()
    plan = session_plan(event, number)
    if plan is None:
        raise Http404(_("Session %(number)s is not seated yet.") % {"number": number})
    session = plan.session
    movement = plan.movement
    group_rows: dict[int, dict] = {}
    for table in plan.tables:
        replaced = plan.replacements(table)
        plays = [{"slot": block + 1, "sets": sets, "next": plan.next_table(table, block)} for block, sets in plan.blocks(table)]
        seated = plan.seated.get(table.pk, {})
        row = {"table": table, "plays": plays, "seats": [(seat, seated.get(seat), replaced.get(seat)) for seat in ruleset.seats]}
        group_rows.setdefault(table.group.number, {"group": table.group, "tables": []})["tables"].append(row)
    return render(request, "tournament/seating.html", {
        "event": event, "session": session, "groups": [group_rows[g] for g in sorted(group_rows)], "movement": movement,
        "slots": range(1, movement.slots + 1), "sitting_out": sitting_out(event, number),
        "is_staff": is_staff_or_director(request.user, event),
    })
