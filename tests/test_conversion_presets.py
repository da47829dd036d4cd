"""Conversion presets per rule family (docs/scoring.md, "Conversion presets per rule family"):
each is reproduced by the seeded simulation and fit, scaled to its family's score unit, and a new
event's default follows its rule family."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from scoring.conversion import FAMILY_PRESETS, PRESETS, WBF_IMP, family_preset, get_table
from scoring.fitting import simulated_differences, simulated_table
from scoring.models import ConversionTable
from scoring.payments import PAYMENT_RULES
from scoring.management.commands.simulate_conversion import FAMILIES
from tournament.services import create_event
from walls.rulesets import PRESETS as RULESETS


@pytest.mark.parametrize("ruleset_code, preset", [
    ("riichi-duplicate", "riichi-imp"), ("souzu-2p", "souzu-imp"), ("shiragiku-3p", "shiragiku-imp"),
    ("shield-tile", "shield-imp"), ("yangzhou", "yangzhou-imp"),
])
def test_each_family_preset_is_the_seeded_simulation_refit(ruleset_code, preset):
    ruleset = RULESETS[ruleset_code]
    table = simulated_table(ruleset.payment_rule, ruleset.seats, ruleset.score_unit, "x", smallest=FAMILIES[ruleset_code],
                            min_fan=ruleset.min_fan)
    assert table.steps == PRESETS[preset].steps
    assert all(step.min_difference % ruleset.score_unit == 0 for step in table.steps)


def test_the_simulation_is_reproducible_and_shaped():
    ruleset = RULESETS["riichi-duplicate"]
    first = simulated_differences("riichi", ruleset.seats, sets=50, seed=7)
    assert first == simulated_differences("riichi", ruleset.seats, sets=50, seed=7)
    assert len(first) == 50 * 4 * 4 and abs(sum(first)) < 1e-6  # each comparison's differences sum to 0
    assert first != simulated_differences("riichi", ruleset.seats, sets=50, seed=8)


def test_the_riichi_preset_does_not_saturate_on_riichi_hand_sizes():
    riichi = get_table("riichi-imp")
    # WBF IMP gives 23 for a 3,900 swing and 24 for a mangan and above; the riichi table separates them
    assert WBF_IMP.convert(3900) == 23 and WBF_IMP.convert(8000) == 24 and WBF_IMP.convert(12000) == 24
    assert riichi.convert(3900) < riichi.convert(8000) < riichi.convert(12000) < riichi.convert(24000) < riichi.max_points
    assert riichi.convert(900) == 0 and riichi.convert(-2000) == -2


def test_family_defaults():
    assert family_preset("mcr") == family_preset("mcr-duplicate-mahjongsoft") == "mcr-mp"
    assert family_preset("riichi") == "riichi-imp" and family_preset("souzu-2p-honba-whole") == "souzu-imp"
    assert family_preset("typed") == "wbf-imp"
    for rule in PAYMENT_RULES:
        assert family_preset(rule) in PRESETS
    assert set(FAMILY_PRESETS.values()) <= set(PRESETS)


@pytest.mark.django_db
def test_a_new_event_without_a_chosen_table_converts_with_its_familys():
    event = create_event(name="Riichi Open", slug="riichi-open", ruleset_code="riichi-duplicate", conversion=None)
    assert ConversionTable.objects.current(event).code == "riichi-imp"
    mcr = create_event(name="MCR Open", slug="mcr-open", conversion="")
    assert ConversionTable.objects.current(mcr).code == "mcr-mp"
    chosen = create_event(name="WBF Open", slug="wbf-open", ruleset_code="riichi-duplicate", conversion="wbf-imp")
    assert ConversionTable.objects.current(chosen).code == "wbf-imp"


def test_the_command_prints_the_preset_as_csv(capsys):
    call_command("simulate_conversion", "souzu-2p")
    out = capsys.readouterr().out
    assert out.splitlines()[1] == "from,to,points" and PRESETS["souzu-imp"].to_csv().strip() in out
