"""Rule fidelity to the source documents where they leave a choice or had no code yet:

- docs/rules.md, "Two-player Souzu: honba on a self-draw": both readings (honba halved with the
  value, the default; honba paid whole), worked by hand;
- docs/rules.md, "Shield tile: pink dora": the pink 3s and 7s as tiles of their own (preset
  `shield-tile-pink`), one han each in the han entered, printed on a pink face;
- docs/rules.md, "Shield tile: payments and game end": open riichi lifts the shield;
- docs/rules.md, "Yangzhou: minimum": the seed's named minimums offered on the new-event form.
"""

import dataclasses

import pytest
from reportlab.pdfgen.canvas import Canvas

from scoring.payments import PAYMENT_RULES, YANGZHOU_MINIMUMS, HandOutcome, PaymentError, settle, shield_tile_value
from tournament.forms import EventForm
from walls.printing.tilefaces import draw_tile_face
from walls.rulesets import PRESETS, RuleSet
from walls.tiles import PINK_TILES, tile_glyph

TWO = ("E", "S")
FOUR = ("E", "S", "W", "N")


def souzu(rule, kind, winners, discarder=None, fans=(), **kw):
    return settle(rule, TWO, HandOutcome(kind, tuple(winners), discarder, tuple(fans), **kw)).changes


# --- Two-player Souzu: honba on a self-draw ------------------------------------------------------


def test_souzu_self_draw_halves_the_honba_by_default():
    # S (non-dealer) self-draws mangan: 4 x 2000 = 8000; 1 honba = 2000; half of 10000 = 5000.
    assert souzu("souzu-2p", "self_draw", ["S"], fans=[5], honba=1) == {"E": -5000, "S": 5000}
    # E (dealer) self-draws haneman: 6 x 3000 = 18000; 2 honba = 4000; half of 22000 = 11000.
    assert souzu("souzu-2p", "self_draw", ["E"], fans=[6], honba=2) == {"E": 11000, "S": -11000}
    # 3 honba on a non-dealer mangan: (8000 + 6000) / 2 = 7000.
    assert souzu("souzu-2p", "self_draw", ["S"], fans=[5], honba=3) == {"E": -7000, "S": 7000}


def test_souzu_self_draw_with_the_honba_whole():
    rule = "souzu-2p-honba-whole"
    # S self-draws mangan 8000 with 1 honba: 8000 / 2 = 4000, + 2000 = 6000.
    assert souzu(rule, "self_draw", ["S"], fans=[5], honba=1) == {"E": -6000, "S": 6000}
    # E self-draws haneman 18000 with 2 honba: 9000 + 4000 = 13000.
    assert souzu(rule, "self_draw", ["E"], fans=[6], honba=2) == {"E": 13000, "S": -13000}
    # Dealer mangan 12000 with 3 honba: 6000 + 6000 = 12000 (halved: (12000 + 6000) / 2 = 9000).
    assert souzu(rule, "self_draw", ["E"], fans=[5], honba=3) == {"E": 12000, "S": -12000}
    assert souzu("souzu-2p", "self_draw", ["E"], fans=[5], honba=3) == {"E": 9000, "S": -9000}


def test_souzu_readings_agree_without_honba_and_on_a_discard():
    for fans, honba in (([5], 0), ([7], 0), ([6], 4)):
        for kind, discarder in (("discard", "E"), ("self_draw", None)):
            if kind == "self_draw" and honba:
                continue
            assert (souzu("souzu-2p", kind, ["S"], discarder, fans, honba=honba)
                    == souzu("souzu-2p-honba-whole", kind, ["S"], discarder, fans, honba=honba))
    # A ron with 1 honba: 8000 + 2000 under both.
    assert souzu("souzu-2p-honba-whole", "discard", ["S"], "E", [5], honba=1) == {"E": -10000, "S": 10000}
    # The minimum (haneman from 5 honba) and the riichi sticks are the same rule.
    with pytest.raises(PaymentError):
        souzu("souzu-2p-honba-whole", "self_draw", ["S"], fans=[5], honba=5)
    assert souzu("souzu-2p-honba-whole", "self_draw", ["S"], fans=[5], riichi=("E",)) == {"E": -5000, "S": 5000}


def test_the_souzu_presets_differ_only_in_payment_rule_and_notes():
    halved, whole = PRESETS["souzu-2p"], PRESETS["souzu-2p-honba-whole"]
    assert (halved.payment_rule, whole.payment_rule) == ("souzu-2p", "souzu-2p-honba-whole")
    assert halved.fingerprint == whole.fingerprint  # the same walls
    assert dataclasses.replace(whole, code=halved.code, name=halved.name, payment_rule=halved.payment_rule,
                               notes=halved.notes) == halved
    assert "here they are;" in halved.notes and "here they are not;" in whole.notes
    assert PAYMENT_RULES["souzu-2p-honba-whole"].inputs == PAYMENT_RULES["souzu-2p"].inputs
    assert RuleSet.from_dict(whole.to_dict()) == whole


# --- Shield tile: pink dora ----------------------------------------------------------------------


def test_shield_tile_pink_marks_one_of_each_3_and_7():
    pink, plain = PRESETS["shield-tile-pink"], PRESETS["shield-tile"]
    counts = dict(pink.tiles)
    assert pink.tile_count == 136 and pink.piles == plain.piles
    assert all(counts[code] == 1 and counts[code[:2]] == 3 for code in PINK_TILES)
    assert not set(PINK_TILES) & set(dict(plain.tiles))  # the plain preset is unchanged
    assert pink.fingerprint != plain.fingerprint and pink.payment_rule == "shield-tile"
    assert "3m+" in pink.notes and "pink-tile variant" in plain.notes
    assert RuleSet.from_dict(pink.to_dict()) == pink


def test_pink_tiles_are_drawn_on_the_set_up_sheet(tmp_path):
    canvas = Canvas(str(tmp_path / "faces.pdf"))
    for code in PINK_TILES:
        draw_tile_face(canvas, code)
    canvas.save()
    assert [tile_glyph(code) for code in PINK_TILES] == ["3m+", "7m+", "3p+", "7p+", "3s+", "7s+"]


def test_pink_dora_count_in_the_han():
    # 2 han of yaku and one pink 3s: 3 han, 4000; with a second pink tile 4 han, 8000.
    assert shield_tile_value(2 + 1) == 4000 and shield_tile_value(2 + 2) == 8000
    assert settle("shield-tile", FOUR, HandOutcome("discard", ("S",), "W", (3,))).changes == {
        "E": 0, "S": 4000, "W": -4000, "N": 0}


# --- Shield tile: open riichi lifts the shield ---------------------------------------------------


def test_a_shielded_seat_pays_nothing_unless_open_riichi():
    # E self-draws 4 han = 8000: a third is 2666.7, rounded up to 2700.
    shielded = settle("shield-tile", FOUR, HandOutcome("self_draw", ("E",), None, (4,), shielded=("S", "W")))
    assert shielded.changes == {"E": 2700, "S": 0, "W": 0, "N": -2700}
    opened = settle("shield-tile", FOUR, HandOutcome("self_draw", ("E",), None, (4,), shielded=("S", "W"), open_riichi=True))
    assert opened.changes == {"E": 8100, "S": -2700, "W": -2700, "N": -2700}
    # Open riichi without a shielded seat changes nothing.
    assert (settle("shield-tile", FOUR, HandOutcome("self_draw", ("E",), None, (4,), open_riichi=True)).changes
            == settle("shield-tile", FOUR, HandOutcome("self_draw", ("E",), None, (4,))).changes)


def test_open_riichi_is_read_from_forms_and_refused_where_it_does_not_apply():
    outcome = HandOutcome.from_dict({"kind": "self_draw", "winners": "E", "fans": "1", "shielded": ["S"], "open_riichi": "on"})
    assert outcome.open_riichi is True and outcome.to_dict()["open_riichi"] is True
    assert HandOutcome.from_dict({"kind": "draw", "open_riichi": ""}).open_riichi is False
    assert "open_riichi" not in HandOutcome("draw").to_dict()
    with pytest.raises(PaymentError) as error:
        HandOutcome.from_dict({"kind": "draw", "open_riichi": "maybe"})
    assert error.value.field == "open_riichi"
    with pytest.raises(PaymentError) as error:
        settle("shield-tile", FOUR, HandOutcome("discard", ("S",), "E", (2,), open_riichi=True))
    assert error.value.field == "open_riichi"
    with pytest.raises(PaymentError) as error:  # riichi has no shield: the input is not its
        settle("riichi", FOUR, HandOutcome("self_draw", ("E",), None, (5,), open_riichi=True))
    assert error.value.field == "open_riichi" and "leave it out" in str(error.value)


# --- Yangzhou: the named minimums ----------------------------------------------------------------


def test_yangzhou_minimums_are_the_seeds():
    assert [(fan, name) for fan, name, _meaning in YANGZHOU_MINIMUMS] == [
        (3, "3番しばり"), (7, "7番しばり"), (13, "13番しばり"), (18, "18番しばり")]


def _event_form(**data):
    """The new-event form posted with ``data`` and the first choice of every other select."""
    form = EventForm({"name": "Y", "slug": "y", "sessions": "1", **data})
    for field in ("method", "conversion", "datum_method", "comparison", "entrant_policy"):
        form.data.setdefault(field, form.fields[field].choices[0][0])
    return form


def test_the_new_event_form_offers_the_named_minimums_for_yangzhou():
    choices = dict(_event_form().fields["yangzhou_minimum"].choices)
    assert set(choices) == {"", "3", "7", "13", "18"}
    assert "13番しばり" in str(choices["13"]) and "一板 + 3" in str(choices["13"])
    form = _event_form(ruleset="yangzhou", yangzhou_minimum="13")
    assert form.is_valid(), form.errors
    assert form.cleaned_data["min_fan"] == 13 and form.cleaned_data["ruleset_object"].min_fan == 13
    # A Yangzhou hand of 12 fan is then refused, 13 wins.
    with pytest.raises(PaymentError):
        settle("yangzhou", FOUR, HandOutcome("self_draw", ("E",), None, (12,)), min_fan=13)
    assert settle("yangzhou", FOUR, HandOutcome("self_draw", ("E",), None, (13,)), min_fan=13).changes["E"] == 39


def test_a_named_minimum_is_refused_for_another_rule_set_or_a_different_typed_minimum():
    form = _event_form(ruleset="riichi", yangzhou_minimum="7")
    assert not form.is_valid() and "Yangzhou" in str(form.errors["yangzhou_minimum"])
    form = _event_form(ruleset="yangzhou", yangzhou_minimum="7", min_fan="13")
    assert not form.is_valid() and "clear one" in str(form.errors["yangzhou_minimum"])
    form = _event_form(ruleset="yangzhou", yangzhou_minimum="7", min_fan="7")
    assert form.is_valid(), form.errors
