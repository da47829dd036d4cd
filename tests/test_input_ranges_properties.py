"""docs/security.md, "Threats and the tests that cover them", "what it must show": for every rule set (each preset, and custom rule sets whose
changes are typed) and every input the table's form accepts, drawn from the accepted ranges with
their extremes (the largest score changes and deposits either way, the highest hand value, six
yakuman, 99 honba), entering the set at every table of the group through the form and the
service and confirming it there scores it (a SetScore for each player) and releases it (a
SetRelease), with no exception on any path and no entry refused. (Outcomes are drawn valid, as in
tests/test_payment_rules_properties.py: the form also takes hand values the rule then refuses
with a ResultError, a 400, such as 1 han 20 fu; tests/test_entry_errors.py covers those.)

Each rule set's event is built once (a 16, 9 or 4 player individual event, its tables brought to
the set); every example enters and confirms inside a savepoint rolled back after it. Run on
PostgreSQL too (``DATABASE_URL``), where an out-of-range number overflows a 32-bit column.
"""

import dataclasses

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.forms import HandForm
from scoring.models import SetRelease, SetScore
from scoring.payments import MAX_HONBA, MAX_YAKUMAN, PAYMENT_RULES, PaymentError, ruleset_ranges, settle
from scoring.actions.confirmation import confirm_result
from scoring.actions.entry import submit_result
from scoring.actions.errors import ResultError
from tournament.models import Event, Table
from factories import blocks
from walls.rulesets import PRESETS, get_ruleset

from factories import individual_roster, prepared_event, rolled_back
from test_payment_rules_properties import outcomes

pytestmark = pytest.mark.django_db

TYPED = {  # custom rule sets of 4, 3 and 2 seats whose changes are typed
    "custom-typed-4p": dataclasses.replace(get_ruleset("riichi-duplicate"), code="custom-typed-4p", payment_rule="typed"),
    "custom-typed-3p": dataclasses.replace(get_ruleset("shiragiku-3p"), code="custom-typed-3p", payment_rule="typed",
                                           deposit=True),
    "custom-typed-2p": dataclasses.replace(get_ruleset("souzu-2p"), code="custom-typed-2p", payment_rule="typed"),
}
RULE_SETS = {**PRESETS, **TYPED}
SET_NO = 1


@dataclasses.dataclass
class Stage:
    event: object
    tables: list
    ruleset: object


@pytest.fixture(scope="module")
def stages(django_db_setup, django_db_blocker):
    """``{code: Stage}``: each rule set's event, its tables each brought up to set 1 (every set
    of the blocks before the one that holds it entered as no score change). Built before any
    test's own transaction, so every test of the module sees them."""
    built = {}
    with rolled_back(django_db_blocker):
        for code, ruleset in RULE_SETS.items():
            slug = f"p-{code}"
            event = prepared_event(individual_roster(len(ruleset.seats) ** 2), name=slug, slug=slug, ruleset=ruleset,
                                   method="individual")
            tables = list(Table.objects.filter(group__session__event=event).order_by("position"))
            zero = dict.fromkeys(ruleset.seats, 0)
            for table in tables:
                schedule = blocks(table)
                target = next(slot for slot, (_, sets) in enumerate(schedule) if SET_NO in sets)
                for _, sets in schedule[:target]:
                    for set_no in sets:
                        submit_result(table, set_no, changes=zero, actor="setup")
            built[code] = Stage(event, tables, ruleset)
        yield built


def _extreme(low: int, high: int):
    return st.one_of(st.sampled_from([low, high]), st.integers(low, high))


@st.composite
def typed_entries(draw, ruleset, ranges):
    """Form data of typed score changes the form accepts: each change within ±ranges.changes, a
    deposit within 0..ranges.deposit where the rule set deposits sticks, summing to zero with the
    deposit in a zero-sum rule set (E and S balance each other with the deposit, W and N too)."""
    seats, most = ruleset.seats, ranges.changes
    deposit = draw(_extreme(0, ranges.deposit)) if ruleset.deposit else 0
    if ruleset.zero_sum:
        first = draw(_extreme(-most, most - deposit))
        changes = {seats[0]: first, seats[1]: -first - deposit}
        if len(seats) >= 3:
            third = draw(_extreme(-most, most))
            changes[seats[2]] = third if len(seats) == 4 else 0
            if len(seats) == 4:
                changes[seats[3]] = -third
    else:
        changes = {seat: draw(_extreme(-most, most)) for seat in seats}
    data = {"mode": "changes", **{f"seat_{seat}": f"{value:,}" if draw(st.booleans()) else str(value)
                                  for seat, value in changes.items()}}
    if ruleset.deposit:
        data["deposit"] = str(deposit)
    return data


@st.composite
def outcome_entries(draw, ruleset):
    """Form data of an outcome of the rule set's payment rule (tests/test_payment_rules_properties.py's
    valid outcomes), pushed to the extremes the form accepts where the rule still takes them: the
    highest hand value, six yakuman, 99 honba."""
    code, rule = ruleset.payment_rule, PAYMENT_RULES[ruleset.payment_rule]
    outcome = draw(outcomes(code, ruleset.min_fan))
    if outcome.kind != "draw" and draw(st.booleans()):
        count = len(outcome.winners)
        extreme = dataclasses.replace(outcome, fans=(rule.bounds(ruleset.min_fan)[1],) * count,
                                      yakuman=(MAX_YAKUMAN,) * count if "yakuman" in rule.inputs and draw(st.booleans()) else (),
                                      honba=MAX_HONBA if "honba" in rule.inputs else 0)
        try:
            settle(code, ruleset.seats, extreme, ruleset.min_fan)
            outcome = extreme
        except PaymentError:
            pass
    data = {"mode": "outcome", "kind": outcome.kind, "winners": list(outcome.winners), "discarder": outcome.discarder or "",
            "honba": str(outcome.honba), "riichi": list(outcome.riichi), "tenpai": list(outcome.tenpai),
            "shielded": list(outcome.shielded), "liable": outcome.liable or ""}
    for index, seat in enumerate(outcome.winners):
        data[f"value_{seat}"] = str(outcome.fans[index]) if outcome.fans and outcome.fans[index] else ""
        if "fu" in rule.inputs:
            data[f"fu_{seat}"] = str(outcome.fu[index]) if outcome.fu and outcome.fu[index] else ""
        if "yakuman" in rule.inputs:
            data[f"yakuman_{seat}"] = str(outcome.yakuman[index]) if outcome.yakuman else "0"
    return data


@st.composite
def entries(draw, ruleset):
    """One table's form data: typed changes, or (a computed rule) an outcome."""
    ranges = ruleset_ranges(ruleset)
    if not PAYMENT_RULES[ruleset.payment_rule].computed or draw(st.integers(0, 2)) == 0:
        return draw(typed_entries(ruleset, ranges))
    return draw(outcome_entries(ruleset))


def enter_and_confirm_everywhere(stage, draw_entry):
    """Enter set 1 at every table through the form and the service and confirm it; returns the
    entries refused (a ResultError), each replaced by no score change."""
    refused = []
    for table in stage.tables:
        data = draw_entry()
        # Honba are fixed per set for every table of it (docs/scoring.md, "Fixed honba and riichi
        # sticks"): this property is about what one entry accepts, so the set is fixed at the
        # honba this table's outcome carries (inside the example's rolled-back transaction).
        honba = int(data.get("honba") or 0)
        fixed = {f"1-{SET_NO}": {"honba": honba}} if honba else {}
        Event.objects.filter(pk=stage.event.pk).update(fixed_counters=fixed)
        stage.event.fixed_counters = table.group.session.event.fixed_counters = fixed
        form = HandForm(data=data, event=stage.event)
        assert form.is_valid(), (data, form.errors)
        try:
            result = submit_result(table, SET_NO, actor="t", **form.hand_entry())
        except ResultError as error:
            refused.append((data, error.field, error.message))
            result = submit_result(table, SET_NO, changes=dict.fromkeys(stage.ruleset.seats, 0), actor="t")
        confirm_result(result, actor="director", director=True)
    return refused


def check_scored_and_released(stage):
    event = stage.event
    assert SetRelease.objects.filter(event=event, session_number=1, set_no=SET_NO).exists()
    scores = SetScore.objects.filter(event=event, session_number=1, set_no=SET_NO)
    assert scores.count() == len(stage.tables) * len(stage.ruleset.seats)
    changes = sorted(v for t in stage.tables for v in t.results.get(set_no=SET_NO).changes.values())
    assert sorted(scores.values_list("score_change", flat=True)) == changes


@pytest.mark.parametrize("code", sorted(RULE_SETS))
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_every_accepted_input_at_every_table_scores_and_releases_the_set(stages, code, data):
    stage = stages[code]
    with transaction.atomic():
        assert enter_and_confirm_everywhere(stage, lambda: data.draw(entries(stage.ruleset))) == []
        check_scored_and_released(stage)
        transaction.set_rollback(True)


@pytest.mark.parametrize("code", sorted(RULE_SETS))
def test_the_largest_changes_and_deposits_either_way_score_and_release_the_set(stages, code):
    """The extremes, at every seat: each table types the rule set's largest change for one seat
    and the largest payment for another (and, where sticks are deposited, one table the largest
    deposit)."""
    stage = stages[code]
    ruleset, ranges = stage.ruleset, ruleset_ranges(stage.ruleset)
    seats, most = ruleset.seats, ranges.changes
    planned = []
    for index, _table in enumerate(stage.tables):
        winner, payer = seats[index % len(seats)], seats[(index + 1) % len(seats)]
        changes = {**dict.fromkeys(seats, 0), winner: most, payer: -most}
        if ruleset.deposit and index == len(stage.tables) - 1:
            changes, deposit = {**dict.fromkeys(seats, 0), payer: -ranges.deposit}, str(ranges.deposit)
        else:
            deposit = "0"
        planned.append({"mode": "changes", **{f"seat_{s}": str(v) for s, v in changes.items()}, "deposit": deposit})
    with transaction.atomic():
        entries_left = iter(planned)
        assert enter_and_confirm_everywhere(stage, lambda: next(entries_left)) == []
        check_scored_and_released(stage)
        transaction.set_rollback(True)


def test_one_more_point_than_the_range_is_refused_by_the_form_and_the_service(stages):
    stage = stages["riichi-duplicate"]
    most = ruleset_ranges(stage.ruleset).changes
    data = {"mode": "changes", "seat_E": str(most + 1), "seat_S": str(-most - 1), "seat_W": "0", "seat_N": "0"}
    form = HandForm(data=data, event=stage.event)
    assert not form.is_valid() and set(form.errors) == {"seat_E", "seat_S"}
    assert f"{most:,} points in this rule set" in form.errors["seat_E"][0]
    with pytest.raises(ResultError) as err:
        submit_result(stage.tables[0], SET_NO, changes={"E": most + 1, "S": -most - 1, "W": 0, "N": 0}, actor="t")
    assert err.value.field == "changes.E"
