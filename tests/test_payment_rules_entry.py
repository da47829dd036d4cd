"""Issue 11, part 2: entry by outcome with the rule set's payment rule, through the same service
as every entry path, with the published MahjongSoft duplicate-MCR examples; not zero-sum, so
neither validation nor the datum may assume it."""

import pytest

from scoring.models import SetScore
from scoring.services import ResultError, confirm_result, submit_result
from tournament.models import Table

from factories import first_set, first_table, play_up_to, prepared_event, team_roster

pytestmark = pytest.mark.django_db


@pytest.fixture
def mahjongsoft_event():
    return prepared_event(team_roster(4), name="Soft", slug="soft", ruleset_code="mcr-duplicate-mahjongsoft")


def tables_in_order(event):
    return list(Table.objects.filter(group__session__event=event).order_by("position"))


def test_self_draw_fan_10_is_plus_34_and_minus_12_each(mahjongsoft_event):
    table = tables_in_order(mahjongsoft_event)[0]
    set_no = first_set(table)
    result = submit_result(table, set_no, outcome={"kind": "self_draw", "winners": ["E"], "discarder": None, "fans": [10]}, actor="t")
    assert result.changes == {"E": 34, "S": -12, "W": -12, "N": -12}


def test_two_winners_on_one_discard_give_the_published_example(mahjongsoft_event):
    table = tables_in_order(mahjongsoft_event)[0]
    set_no = first_set(table)
    result = submit_result(table, set_no, outcome={"kind": "discard", "winners": ["S", "W"], "discarder": "E", "fans": [20, 10]}, actor="t")
    assert result.changes == {"E": -46, "S": 36, "W": 26, "N": -16}


def test_plain_mcr_refuses_a_second_winner(team_event):
    table = first_table(team_event)
    with pytest.raises(ResultError):
        submit_result(table, first_set(table),
                      outcome={"kind": "discard", "winners": ["S", "W"], "discarder": "E", "fans": [20, 10]}, actor="t")


def test_typed_changes_that_do_not_sum_to_zero_are_accepted_when_the_rule_set_allows(mahjongsoft_event):
    table = tables_in_order(mahjongsoft_event)[0]
    result = submit_result(table, first_set(table), changes={"E": 34, "S": -12, "W": -12, "N": -12}, actor="t")
    assert sum(result.changes.values()) == -2


def test_the_datum_is_the_average_of_a_non_zero_sum_set(mahjongsoft_event):
    tables = tables_in_order(mahjongsoft_event)
    set_no = 1
    outcomes = [
        {"kind": "self_draw", "winners": ["E"], "discarder": None, "fans": [10]},
        {"kind": "self_draw", "winners": ["S"], "discarder": None, "fans": [16]},
        {"kind": "discard", "winners": ["S", "W"], "discarder": "E", "fans": [20, 10]},
        {"kind": "draw", "winners": [], "discarder": None, "fans": []},
    ]
    # set 1 is in block 1: table k plays it in slot (4 - k) % 4; enter earlier slots first.
    def enter(table, s):
        if s == set_no:
            r = submit_result(table, s, outcome=outcomes[table.position], actor="t")
        else:
            r = submit_result(table, s, changes={"E": 0, "S": 0, "W": 0, "N": 0}, actor="t")
        confirm_result(r, actor="d", director=True)

    play_up_to(tables, set_no, enter)
    scores = list(SetScore.objects.filter(event=mahjongsoft_event, set_no=set_no))
    assert len(scores) == 4
    total = sum(s.score_change for s in scores)
    assert total != 0  # self-draws are not zero-sum under this rule
    assert all(s.datum == pytest.approx(total / 4) for s in scores)
    assert all(s.difference == pytest.approx(s.score_change - total / 4) for s in scores)
