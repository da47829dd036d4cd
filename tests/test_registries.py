"""The two registries (docs/architecture.md): print kinds (walls/print_kinds/) and payment rules
(scoring/payments.py). Each kind or rule is declared once and every other list follows from it."""

import inspect

import pytest

from scoring.payments import PAYMENT_RULES
from walls.print_jobs import request_print
from walls.print_kinds import BATCH_KINDS, PRINT_KINDS, STAFF_ZIP_KINDS, ZIP_KINDS, zip_parts
from walls.print_kinds.base import PrintError
from walls.rulesets import PRESETS, RuleSetError, custom_ruleset


def test_every_parameter_a_print_kind_declares_reaches_its_builder():
    """A kind's builder takes the parameters it declares; a kind of parts (the session ZIP) takes
    its documents and a progress callback, and declares what those documents read."""
    for kind in PRINT_KINDS.values():
        accepted = set(inspect.signature(kind.build).parameters) - {"event"}
        if kind.parts:
            read_by_parts = {key for name in zip_parts(kind.name) for key in PRINT_KINDS[name].params}
            assert accepted == {"parts", "progress"} and set(kind.params) <= read_by_parts, kind.name
        else:
            assert set(kind.params) == accepted, kind.name


def test_the_session_zip_holds_the_kinds_flagged_for_it():
    """The tables' ZIP holds no document that shows the tiles; the staff ZIP holds exactly those."""
    assert ZIP_KINDS == ("stickers", "labels", "score_sheets", "movement", "seating", "room_seating", "player_cards")
    assert STAFF_ZIP_KINDS == ("setup", "picklist")
    assert zip_parts("session_zip") == ZIP_KINDS and zip_parts("staff_zip") == STAFF_ZIP_KINDS
    assert {k.name for k in PRINT_KINDS.values() if k.staff_only} == {"setup", "picklist", "reserve_setup", "staff_zip"}


def test_the_session_batch_is_every_kind_marked_for_it():
    assert BATCH_KINDS == ("stickers", "labels", "setup", "picklist", "score_sheets", "movement", "seating")
    assert "calibration" in PRINT_KINDS and "calibration" not in BATCH_KINDS


@pytest.mark.django_db
def test_only_kinds_that_need_the_walls_wait_for_them(team_event):
    for kind in PRINT_KINDS.values():
        if kind.needs_walls:
            with pytest.raises(PrintError) as error:
                request_print(team_event, kind.name, {"session": 2})
            assert error.value.field == "session"
    assert request_print(team_event, "calibration", {"session": 2}).file


def test_a_rule_set_names_a_payment_rule_of_the_registry():
    assert {ruleset.payment_rule for ruleset in PRESETS.values()} <= set(PAYMENT_RULES)
    with pytest.raises(RuleSetError, match="payment_rule 'riichi-payments' is unknown"):
        custom_ruleset("x", "X", ("E", "S"), {"1m": 4, "2m": 4}, "shared", [2, 2], rounds=1, starting_points=0,
                       zero_sum=True, payment_rule="riichi-payments", end_rule="ends when the wall is empty")


def test_outcome_entry_and_the_fan_check_follow_the_registry():
    assert {code for code, rule in PAYMENT_RULES.items() if rule.fan_check} == {"mcr", "mcr-duplicate-mahjongsoft"}
    assert [code for code, rule in PAYMENT_RULES.items() if not rule.computed] == ["typed"]
