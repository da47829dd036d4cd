"""Entry by outcome with the rule set's payment rule, through the same service as every entry
path. docs/scoring.md, "`mcr-duplicate-mahjongsoft` — MahjongSoft duplicate MCR": the published MahjongSoft duplicate-MCR examples; not zero-sum, so neither
validation nor the datum may assume it. docs/scoring.md, "Payment rules": every rule set of the seeds enters a hand by its
outcome on the table page and through the API (worked examples below), errors land on the input
the scorer sees, typed score boxes stay for custom rule sets and adjustments and take any minus
sign, and the director corrects by outcome with the history as sentences."""

import dataclasses
import html
import re

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.models import SetScore
from scoring.actions.confirmation import confirm_result
from scoring.actions.counters import fix_counters
from scoring.actions.entry import submit_result
from scoring.actions.errors import ResultError
from tournament.models import EventRole, Table
from walls.rulesets import get_ruleset

from factories import (
    entering, first_set, first_table, individual_roster, login_as_table, play_up_to, prepared_event, table_url, team_roster,
)

pytestmark = pytest.mark.django_db


def _without_change_spans(markup: str) -> str:
    """The page's markup without the no-break spans around each "E +56" of a sentence."""
    return re.sub(r'<span class="change">([^<]*)</span>', r"\1", markup)


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


# --- docs/scoring.md, "Payment rules": every rule set enters a hand by its outcome at the table ----------------------------
# Worked examples, by hand from each seed's rule (docs/scoring.md, "Payment rules"):
#
# Riichi (standard; dealer E): S wins on W's discard, 3 han 30 fu, 1 honba, N in riichi: base
#   30 x 2^(3+2) = 960, non-dealer ron 4 x 960 = 3840 -> 3900, + 300 a honba = 4200 from W; N's
#   stick of 1000 goes to S: E 0, S +5200, W -4200, N -1000.
# Riichi draw, E and S tenpai, S in riichi: 3000 noten payment, 1500 from each noten seat to each
#   tenpai seat; S pays its stick, which stays on the table: E +1500, S +500, W -1500, N -1500,
#   1000 left (deposit).
# Shiragiku (docs/rules.md, "Shiragiku three-player: payments and game flow"; seats E S W, dealer E): W self-draws 4 han with 1 honba: 2 + 4 = 6 points,
#   + 1 a honba = 7 from each of E and S: E -7, S -7, W +14.
# Shield tile (docs/rules.md, "Shield tile: payments and game end"): E self-draws 3 han = 4000, S's open shield tiles hold E's wait: W and N
#   each pay a third, 1333.3 -> 1400, S nothing: E +2800, S 0, W -1400, N -1400.
# Yangzhou (docs/rules.md, "Yangzhou: payments"): S (10 fan) and W (5 fan) both win on E's discard: E pays each twice the
#   hand: E -30, S +20, W +10, N 0. W self-draws 15 fan, S fed the third chow (bao): S pays the
#   whole win, 3 x 15 = 45: W +45, S -45.
# Two-player Souzu (docs/rules.md, "Two-player Souzu: payments"; seats E S, dealer E): S wins on E's discard, 5 han (mangan, 8000 for
#   a non-dealer) with 1 honba worth 2000: E -10000, S +10000.



def event_of(ruleset_code: str, slug: str):
    seats = get_ruleset(ruleset_code).seats
    return prepared_event(individual_roster(len(seats) ** 2), name=slug, slug=slug, ruleset_code=ruleset_code, method="individual")


def post_entry(client, table, data, seat=None):
    """POST the table page's entry form as the table's scorer, the player at ``seat`` (default the
    rule set's first seat) entering."""
    login_as_table(client, table)
    seat = seat or table.group.session.event.get_ruleset().seats[0]
    return client.post(table_url(table), {"set_no": str(first_set(table)), **data, **entering(table, seat)})


PAGE_CASES = {
    "riichi discard, honba and a riichi stick": (
        "riichi", {"mode": "outcome", "kind": "discard", "winners": "S", "discarder": "W", "value_S": "3", "fu_S": "30",
                   "honba": "1", "riichi": ["N"]},
        {"E": 0, "S": 5200, "W": -4200, "N": -1000}, 0, "South won on West's discard, 3 han 30 fu, 1 honba"),
    "riichi draw leaves the stick on the table": (
        "riichi", {"mode": "outcome", "kind": "draw", "tenpai": ["E", "S"], "riichi": ["S"],
                   # left over from a discard first chosen, hidden by the page's script: not read for a draw
                   "winners": "E", "discarder": "S", "value_E": "99", "honba": "x"},
        {"E": 1500, "S": 500, "W": -1500, "N": -1500}, 1000, "1000 left on the table"),
    "shiragiku self-draw with a honba": (
        "shiragiku-3p", {"mode": "outcome", "kind": "self_draw", "winners": "W", "value_W": "4", "honba": "1"},
        {"E": -7, "S": -7, "W": 14}, 0, "West won by self-draw, 4 han, 1 honba"),
    "shield tile self-draw with a shielded seat": (
        "shield-tile", {"mode": "outcome", "kind": "self_draw", "winners": "E", "value_E": "3", "shielded": ["S"],
                        "discarder": "W"},  # a discarder left ticked from a discard: not read for a self-draw
        {"E": 2800, "S": 0, "W": -1400, "N": -1400}, 0, "(shielded: S)"),
    "yangzhou two winners on one discard": (
        "yangzhou", {"mode": "outcome", "kind": "discard", "winners": ["W", "S"], "discarder": "E", "value_S": "10",
                     "value_W": "5", "value_N": "7"},  # N's value without N winning: not read
        {"E": -30, "S": 20, "W": 10, "N": 0}, 0, "South and West won on East's discard, 10 and 5 fan"),
    "yangzhou bao": (
        "yangzhou", {"mode": "outcome", "kind": "self_draw", "winners": "W", "value_W": "15", "liable": "S"},
        {"E": 0, "S": -45, "W": 45, "N": 0}, 0, "(bao: S pays)"),
    # Shield tile with open riichi (docs/rules.md, "Shield tile: payments and game end"): the same 3-han self-draw, but E
    #   declared open riichi, which lifts S's shield: each of S, W, N pays 1400: E +4200.
    "shield tile self-draw with open riichi": (
        "shield-tile-pink", {"mode": "outcome", "kind": "self_draw", "winners": "E", "value_E": "3", "shielded": ["S"],
                             "open_riichi": "on"},
        {"E": 4200, "S": -1400, "W": -1400, "N": -1400}, 0, "(open riichi: the shield does not count)"),
    # Souzu, honba whole (docs/rules.md, "Two-player Souzu: honba on a self-draw"): S self-draws mangan (8000) with 1 honba:
    #   half the value, 4000, plus the whole 2000: E -6000, S +6000 (5000 where the honba are halved).
    "souzu self-draw, honba whole": (
        "souzu-2p-honba-whole", {"mode": "outcome", "kind": "self_draw", "winners": "S", "value_S": "5", "honba": "1"},
        {"E": -6000, "S": 6000}, 0, "South won by self-draw, 5 han, 1 honba"),
    "souzu mangan with a honba": (
        "souzu-2p", {"mode": "outcome", "kind": "discard", "winners": "S", "discarder": "E", "value_S": "5", "honba": "1"},
        {"E": -10000, "S": 10000}, 0, "South won on East's discard, 5 han, 1 honba"),
}


@pytest.mark.parametrize("case", PAGE_CASES.values(), ids=PAGE_CASES.keys())
def test_the_table_page_enters_each_rule_by_its_outcome(client, case):
    ruleset_code, data, changes, deposit, words = case
    event = event_of(ruleset_code, "rule-" + ruleset_code)
    table = first_table(event)
    if data.get("honba", "").isdigit() and data["kind"] != "draw":  # honba are fixed per set: the director fixes the set's (scoring.payments.counters)
        fix_counters(event, {f"1-{first_set(table)}": {"honba": int(data["honba"])}}, actor="director")
        table = first_table(event)
    response = post_entry(client, table, data)
    assert response.status_code == 302, response.context["form"].errors
    result = table.results.get()
    assert result.changes == changes and result.deposit == deposit
    assert result.outcome["kind"] == data["kind"]
    page = html.unescape(client.get(response["Location"]).content.decode())
    assert '<p class="outcome-words">' in page and words in page


def test_the_api_enters_a_riichi_draw_and_computes_the_deposit(director):
    event = event_of("riichi", "api-riichi")
    EventRole.objects.create(event=event, user=director, role=EventRole.Role.DIRECTOR)
    table = first_table(event)
    api = APIClient()
    api.force_authenticate(director)
    response = api.post(f"/api/events/{event.slug}/results/", {
        "table": table.number, "set_no": first_set(table),
        "outcome": {"kind": "draw", "tenpai": ["E", "S"], "riichi": ["S"]}}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["changes"] == {"E": 1500, "S": 500, "W": -1500, "N": -1500} and body["deposit"] == 1000
    assert body["outcome"]["tenpai"] == ["E", "S"] and body["outcome"]["riichi"] == ["S"]


def test_the_api_enters_open_riichi_on_a_shield_tile_self_draw(director):
    """docs/rules.md, "Shield tile: payments and game end": open riichi lifts the shield."""
    event = event_of("shield-tile", "api-open-riichi")
    EventRole.objects.create(event=event, user=director, role=EventRole.Role.DIRECTOR)
    table = first_table(event)
    api = APIClient()
    api.force_authenticate(director)
    response = api.post(f"/api/events/{event.slug}/results/", {
        "table": table.number, "set_no": first_set(table),
        "outcome": {"kind": "self_draw", "winners": ["W"], "fans": [1], "shielded": ["N"], "open_riichi": True}}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    # 1 han = 1000, thirds of 333.3 rounded up to 400, N pays too: W +1200.
    assert body["changes"] == {"E": -400, "S": -400, "W": 1200, "N": -400}
    assert body["outcome"]["open_riichi"] is True


def test_the_api_refuses_a_han_beyond_the_rule_with_the_range(director):
    event = event_of("riichi", "api-range")
    EventRole.objects.create(event=event, user=director, role=EventRole.Role.DIRECTOR)
    table = first_table(event)
    api = APIClient()
    api.force_authenticate(director)
    response = api.post(f"/api/events/{event.slug}/results/", {
        "table": table.number, "set_no": first_set(table),
        "outcome": {"kind": "discard", "winners": ["S"], "discarder": "W", "fans": [100], "fu": [30]}}, format="json")
    assert response.status_code == 400
    assert "from 1 to 99" in response.json()["fans"][0]
    assert not table.results.exists()


def test_a_counted_yakuman_of_14_han_is_stored_as_typed_and_paid_as_yakuman(director):
    """The set-up sheet says 13 han or more is a counted yakuman: a table that counted 14 han types
    14; the API keeps 14 and pays South's win on West's discard 32,000."""
    event = event_of("riichi", "api-kazoe")
    EventRole.objects.create(event=event, user=director, role=EventRole.Role.DIRECTOR)
    table = first_table(event)
    api = APIClient()
    api.force_authenticate(director)
    response = api.post(f"/api/events/{event.slug}/results/", {
        "table": table.number, "set_no": first_set(table),
        "outcome": {"kind": "discard", "winners": ["S"], "discarder": "W", "fans": [14]}}, format="json")
    assert response.status_code == 201, response.json()
    result = table.results.get()
    assert result.outcome["fans"] == [14]
    assert result.changes == {"E": 0, "S": 32000, "W": -32000, "N": 0}


def test_the_api_refuses_an_input_the_rule_does_not_take(team_event, director):
    table = first_table(team_event)
    api = APIClient()
    api.force_authenticate(director)
    response = api.post(f"/api/events/{team_event.slug}/results/", {
        "table": table.number, "set_no": first_set(table),
        "outcome": {"kind": "discard", "winners": ["S"], "discarder": "E", "fans": [8], "honba": 2}}, format="json")
    assert response.status_code == 400 and "honba" in response.json()
    assert not table.results.exists()


def test_a_typed_deposit_that_differs_from_the_outcome_is_refused():
    event = event_of("riichi", "deposit")
    table = first_table(event)
    with pytest.raises(ResultError) as err:
        submit_result(table, first_set(table), outcome={"kind": "draw", "tenpai": ["E", "S"], "riichi": ["S"]}, deposit=0, actor="t")
    assert err.value.field == "deposit" and "1000" in err.value.message
    assert not table.results.exists()


PAGE_ERRORS = {
    # field of the refusal -> the input the scorer sees
    "han beyond the range": ("riichi", {"kind": "discard", "winners": "S", "discarder": "W", "value_S": "100", "fu_S": "30"},
                             "value_S", "from 1 to 99"),
    "fu missing below mangan": ("riichi", {"kind": "discard", "winners": "S", "discarder": "W", "value_S": "3"},
                                "fu_S", "fu"),
    "souzu below mangan": ("souzu-2p", {"kind": "discard", "winners": "S", "discarder": "E", "value_S": "3", "fu_S": "30"},
                           "value_S", "at least mangan"),
    "bao by a seat that fed no chow": ("yangzhou", {"kind": "self_draw", "winners": "W", "value_W": "15", "liable": "E"},
                                       "liable", "liable"),
    "no kind chosen": ("riichi", {"winners": "S", "value_S": "3"}, "kind", "choose how the hand ended"),
    "no winner": ("shield-tile", {"kind": "self_draw"}, "winners", "choose the winner"),
    "a winner's value missing": ("yangzhou", {"kind": "discard", "winners": ["S", "W"], "discarder": "E", "value_S": "10"},
                                 "value_W", "whole number"),
}


@pytest.mark.parametrize("case", PAGE_ERRORS.values(), ids=PAGE_ERRORS.keys())
def test_an_outcome_error_is_attached_to_the_input_the_scorer_sees(client, case):
    ruleset_code, data, field, says = case
    table = first_table(event_of(ruleset_code, "err-" + ruleset_code))
    response = post_entry(client, table, {"mode": "outcome", **data})
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert list(errors) == [field], errors
    assert says in " ".join(errors[field])
    assert f'data-field="{field}"' in response.content.decode()
    assert not table.results.exists()


def typed_event(slug: str):
    """A custom rule set whose changes are typed: riichi's duplicate layout with payment ``typed``."""
    ruleset = dataclasses.replace(get_ruleset("riichi-duplicate"), code="custom-typed", payment_rule="typed")
    return prepared_event(individual_roster(16), name=slug, slug=slug, ruleset=ruleset, method="individual")


def test_a_typed_rule_set_shows_the_score_boxes_and_saves_them_with_any_minus_sign(client):
    table = first_table(typed_event("typed"))
    login_as_table(client, table)
    page = client.get(table_url(table)).content.decode()
    for seat in "ESWN":
        assert f'id="seat_{seat}"' in page and f'data-for="seat_{seat}"' in page  # a box and its ± button
    assert 'name="mode" value="changes"' in page and 'name="kind"' not in page
    # E wins 8000 on S's discard, typed with a Unicode minus, a plus and a full-width minus.
    response = post_entry(client, table, {"mode": "changes", "seat_E": "+8000", "seat_S": "\u22128,000", "seat_W": "0",
                                          "seat_N": "\uff0d0"})
    assert response.status_code == 302, response.context["form"].errors
    result = table.results.get()
    assert result.changes == {"E": 8000, "S": -8000, "W": 0, "N": 0} and result.outcome == {"entered_by_seat": "E"}


def test_a_typed_rule_set_keeps_riichi_sticks_left_on_the_table(client):
    table = first_table(typed_event("typed-deposit"))
    # A draw: E tenpai takes 3000 from the others, S declared riichi (its stick stays on the table).
    response = post_entry(client, table, {"seat_E": "3000", "seat_S": "-2000", "seat_W": "-1000", "seat_N": "-1000",
                                          "deposit": "1000"})
    assert response.status_code == 302, response.context["form"].errors
    assert table.results.get().deposit == 1000


def test_text_that_is_no_number_in_a_score_box_is_refused_at_that_box(client):
    table = first_table(typed_event("typed-text"))
    response = post_entry(client, table, {"seat_E": "8000", "seat_S": "minus 8000", "seat_W": "0", "seat_N": "0"})
    assert list(response.context["form"].errors) == ["seat_S"]
    assert not table.results.exists()


def test_a_computed_rule_takes_typed_changes_as_an_adjustment(client):
    table = first_table(event_of("shield-tile", "adjust"))
    response = post_entry(client, table, {"mode": "changes", "seat_E": "1000", "seat_S": "−1000", "seat_W": "0", "seat_N": "0",
                                          "kind": "discard"})  # a kind chosen before switching: not read
    assert response.status_code == 302, response.context["form"].errors
    result = table.results.get()
    assert result.changes == {"E": 1000, "S": -1000, "W": 0, "N": 0} and "kind" not in result.outcome


def test_the_table_page_offers_the_rules_inputs_and_preselects_no_discarder(client):
    table = first_table(event_of("riichi", "inputs"))
    login_as_table(client, table)
    page = client.get(table_url(table)).content.decode()
    for element in ('id="kind-discard"', 'id="kind-self_draw"', 'id="kind-draw"', 'type="checkbox" id="win-E"',
                    'id="discarder-S"', 'id="value_E"', 'id="fu_E"', 'id="yakuman_E"', 'id="fixed-counters"', 'id="riichi-N"',
                    'id="tenpai-W"', 'id="save"'):
        assert element in page, element
    assert 'id="shielded-E"' not in page and 'id="liable"' not in page
    assert "checked" not in page.split('id="discarder-field"')[1].split("</fieldset>")[0]
    assert ">Han<" in page.replace(" ", "") or "Han</label>" in page
    mcr_table = first_table(event_of("mcr-duplicate", "inputs-mcr"))
    login_as_table(client, mcr_table)
    mcr = client.get(table_url(mcr_table)).content.decode()
    assert 'type="radio" id="win-E"' in mcr and 'id="honba"' not in mcr and 'id="fu_E"' not in mcr
    assert 'id="fixed-counters"' not in mcr and 'id="honba"' not in page  # honba are fixed per set, not typed


def test_the_confirmation_card_reads_the_hand_in_words_with_a_masked_pin(client):
    event = event_of("shiragiku-3p", "card")
    fix_counters(event, {f"1-{first_set(first_table(event))}": {"honba": 1}}, actor="director")
    table = first_table(event)
    response = post_entry(client, table, {"mode": "outcome", "kind": "self_draw", "winners": "W", "value_W": "4"})
    page = html.unescape(client.get(response["Location"]).content.decode())
    card = _without_change_spans(page.split('id="confirm-')[1].split("</form>")[0])
    assert '<p class="outcome-words">West won by self-draw, 4 han, 1 honba: E -7, S -7, W +14</p>' in card
    assert 'name="pin" type="password" inputmode="numeric"' in card
    results = _without_change_spans(page.split('id="table-results"')[1])
    assert "West won by self-draw, 4 han, 1 honba: E -7, S -7, W +14" in results


def test_the_director_corrects_by_outcome_and_the_history_reads_as_sentences(client, team_event, director):
    table = first_table(team_event)
    result = submit_result(table, first_set(table), outcome={"kind": "discard", "winners": ["E"], "discarder": "S", "fans": [8]},
                           actor="scorer", entered_by_seat="N")
    confirm_result(result, actor="d", director=True)
    client.force_login(director)
    url = reverse("result", args=[team_event.slug, result.pk])
    form = client.get(url).content.decode()
    # The correction form is filled in with the stored outcome.
    assert 'id="kind-discard" name="kind" value="discard" checked' in form
    assert 'id="win-E" name="winners" value="E" checked' in form and 'id="discarder-S" name="discarder" value="S" checked' in form
    assert 'id="value_E" name="value_E" class="value" inputmode="numeric" autocomplete="off" value="8"' in form
    # E had 24 fan on S's discard: S pays 8 + 24 = 32, W and N 8 each: E +48.
    response = client.post(url, {"action": "correct", "reason": "E had 24 fan", "mode": "outcome", "kind": "discard",
                                 "winners": "E", "discarder": "S", "value_E": "24"})
    assert response.status_code == 302
    result.refresh_from_db()
    assert result.changes == {"E": 48, "S": -32, "W": -8, "N": -8} and result.outcome["fans"] == [24]
    assert result.outcome["entered_by_seat"] == "N" and result.status == "confirmed"
    page = html.unescape(client.get(url).content.decode())
    history = _without_change_spans(page.split('id="history"')[1].split("</table>")[0])
    assert "East won on South's discard, 24 fan: E +48, S -32, W -8, N -8" in history
    assert "Before: East won on South's discard, 8 fan: E +32, S -16, W -8, N -8" in history
    assert "{" not in history  # never a raw dictionary
    assert "a player of another seat confirms it" not in page  # confirmed: nobody is asked to confirm


def test_a_refused_correction_keeps_the_form_with_the_error_at_the_input(client, team_event, director):
    table = first_table(team_event)
    result = submit_result(table, first_set(table), changes={"E": 24, "S": -8, "W": -8, "N": -8}, actor="t")
    client.force_login(director)
    url = reverse("result", args=[team_event.slug, result.pk])
    assert 'id="mode-changes" name="mode" value="changes" checked' in client.get(url).content.decode()
    response = client.post(url, {"action": "correct", "reason": "typo", "mode": "outcome", "kind": "discard",
                                 "winners": "E", "discarder": "S", "value_E": "800"})
    assert response.status_code == 400
    assert list(response.context["form"].errors) == ["value_E"]
    assert "from 8 to 400" in response.content.decode()
    result.refresh_from_db()
    assert result.changes == {"E": 24, "S": -8, "W": -8, "N": -8}


def test_the_directors_entry_form_names_each_tables_session(client, team_event, director):
    client.force_login(director)
    page = client.get(reverse("entry", args=[team_event.slug])).content.decode()
    assert "Session 1 · Table 1<" in page and "Session 1 · Table 16<" in page
    table = first_table(team_event)
    response = client.post(reverse("entry", args=[team_event.slug]), {
        "table": table.pk, "set_no": first_set(table), "seat_E": "24", "seat_S": "\u22128", "seat_W": "−8", "seat_N": "-8"},
        follow=True)
    assert table.results.get().changes == {"E": 24, "S": -8, "W": -8, "N": -8}
    assert "Saved: Table 1, set 1: Score changes: E +24, S -8, W -8, N -8" in response.content.decode()
