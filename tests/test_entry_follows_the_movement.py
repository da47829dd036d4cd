"""A table enters a set only once the movement has brought it there (docs/seating.md, "The table
plan"): the set must be in the table's current block, and the physical copy's previous table
must have entered it (the copy is still at that table until then). Both through the services and
on the table page a phone shows."""

import pytest
from django.test import Client

from scoring.actions.entry import submit_result
from scoring.actions.errors import ResultError
from scoring.models import HandResult
from tournament.models import Table
from tournament.table_plan import session_plan

from factories import entering, login_as_table, table_url

pytestmark = pytest.mark.django_db

ZERO = {"E": 0, "S": 0, "W": 0, "N": 0}


def _tables(event):
    return list(Table.objects.filter(group__session__event=event, group__session__number=1, group__number=1)
                .select_related("group__session__event").order_by("position"))


def _bring(plan, table, set_no):
    """Enter ``set_no`` at ``table`` the way play goes: first at every table the copy visits before."""
    previous = plan.previous_play(table, set_no)
    if previous is not None and not HandResult.objects.filter(table=previous.table, set_no=set_no).exists():
        _bring(plan, previous.table, set_no)
    return _enter(table, set_no)


def _first_block_played(event):
    """Table 1 of ``event`` has entered its first block; a phone is logged in with its code.
    Returns ``(table 1, table 2, first block's sets, second block's sets, the phone's client)``."""
    plan = session_plan(event, 1)
    t1, t2 = _tables(event)[:2]
    first, second = (sets for _block, sets in plan.blocks(t1)[:2])
    for set_no in first:
        _enter(t1, set_no)
    phone = Client()
    login_as_table(phone, t1)
    return t1, t2, first, second, phone


def _enter(table, set_no):
    return submit_result(table, set_no, changes=ZERO, actor="t", entered_by_seat="E",
                         entry_pin=table.seats.get(seat="E").player.pin)


def test_a_table_cannot_enter_a_set_still_at_the_table_before_it(team_event):
    plan = session_plan(team_event, 1)
    t1, t2 = _tables(team_event)[:2]
    first, second = (sets for _block, sets in plan.blocks(t1)[:2])
    previous = plan.previous_play(t1, second[0])
    assert (previous.group, previous.position) == (1, t2.position)  # the sets come from table 2
    for set_no in first:
        _enter(t1, set_no)
    with pytest.raises(ResultError) as refused:
        _enter(t1, second[0])
    assert refused.value.field == "set" and f"Table {t2.number}" in refused.value.message
    assert not HandResult.objects.filter(table=t1, set_no=second[0]).exists()
    _enter(t2, second[0])  # table 2 plays it (its own first block), then the copy moves on
    assert _enter(t1, second[0]).set_no == second[0]
    with pytest.raises(ResultError):  # the next set of the block is still at table 2
        _enter(t1, second[1])


def test_the_table_page_says_where_the_set_is_and_stores_nothing(team_event):
    t1, t2, first, second, phone = _first_block_played(team_event)
    response = phone.post(table_url(t1), {"set_no": str(second[0]), "mode": "outcome", "kind": "discard",
                                          "winners": "E", "discarder": "S", "value_E": "10", **entering(t1, "E")})
    assert response.status_code == 400
    page = response.content.decode()
    assert f"Table {t2.number}" in page and f"set {second[0]}" in page
    assert HandResult.objects.filter(table=t1).count() == len(first)


def test_in_a_staggered_session_a_copy_goes_from_group_to_group_within_a_block(staggered_event):
    plan = session_plan(staggered_event, 1)
    assert plan.session.staggered
    shared = next(play for s in range(1, plan.movement.sets_per_session + 1) for play in plan.plays(s)
                  if plan.previous_play(play.table, s) is not None
                  and plan.previous_play(play.table, s).group != play.group and play.block == 0)
    before = plan.previous_play(shared.table, shared.set_no)
    for set_no in plan.blocks(shared.table)[0][1]:
        if set_no != shared.set_no:
            _bring(plan, shared.table, set_no)
    with pytest.raises(ResultError) as refused:
        _enter(shared.table, shared.set_no)
    assert f"Table {before.table.number}" in refused.value.message
    _bring(plan, before.table, shared.set_no)
    assert _enter(shared.table, shared.set_no).table_id == shared.table.pk


def test_the_set_list_says_which_sets_are_still_at_the_table_before(team_event):
    """What the phone's Set list shows between two blocks: the next block's sets are marked as
    still at the table before until that table has entered them, and the first that has arrived is
    the one proposed."""
    import re

    t1, t2, first, second, phone = _first_block_played(team_event)

    def options():
        page = phone.get(table_url(t1)).content.decode()
        return {int(m[1]): (bool(m[2]), m[3]) for m in re.finditer(
            r'<option value="(\d+)"( selected)?[^>]*>([^<]*)</option>', page)}

    shown = options()
    assert all("still at the table before" in shown[s][1] for s in second)
    _enter(t2, second[1])  # table 2 finished the block's second set first
    shown = options()
    assert shown[second[1]][0] and "still at the table before" not in shown[second[1]][1]
    assert "still at the table before" in shown[second[0]][1]
