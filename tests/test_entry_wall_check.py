"""Results checked against the wall at entry (scoring.actions.entry.check_wall): a winning tile or
hand that does not fit the wall the table played is refused (422, code wall_mismatch, nothing
stored), stored flagged when the table insists, stored unflagged when it fits; the reserve wall a
table played is the one checked; the same through the API, the table page (and its offline
queue's JSON answer), corrections, and the director's traveller."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from factories import entering, first_set, first_table, login_as_table, table_url
from scoring.actions.confirmation import correct_result
from scoring.actions.describe import result_notes
from scoring.actions.entry import submit_result
from scoring.actions.errors import ResultError
from scoring.models import HandResult
from scoring.wall_check import KINDS, kind_of
from walls.models import ReserveWall, WallSet


def wall_of(table, set_no) -> WallSet:
    return WallSet.objects.get(event=table.group.session.event, session_number=table.group.session.number, set_no=set_no)


def not_drawn_by(piles: dict, seat: str) -> str:
    """A kind that is not among ``seat``'s draws (it is in the set, in another seat's piles)."""
    drawn = {kind_of(t) for t in piles[f"{seat}-draw"]}
    return next(k for k in KINDS if k not in drawn)


def drawn_by(piles: dict, seat: str) -> str:
    return kind_of(piles[f"{seat}-draw"][3])


def self_draw(tile: str, **extra) -> dict:
    return {"kind": "self_draw", "winners": ["E"], "fans": [8], "winning_tile": tile, **extra}


@pytest.fixture
def played(team_event):
    table = first_table(team_event)
    set_no = first_set(table)
    return table, set_no, wall_of(table, set_no).piles


def test_a_self_drawn_tile_not_among_the_winners_draws_is_refused_and_nothing_stored(played):
    table, set_no, piles = played
    tile = not_drawn_by(piles, "E")
    with pytest.raises(ResultError) as err:
        submit_result(table, set_no, outcome=self_draw(tile), actor="t")
    assert err.value.field == "winning_tile" and err.value.status == 422 and err.value.code == "wall_mismatch"
    assert f"the winning tile {tile} is not among East's draws (D1-D21)" in err.value.message
    assert not HandResult.objects.exists()


def test_insisting_stores_it_flagged_with_the_problems_and_the_history_notes_it(played):
    table, set_no, piles = played
    tile = not_drawn_by(piles, "E")
    result = submit_result(table, set_no, outcome=self_draw(tile, insist=True), actor="t")
    notes = result_notes(result)
    [flag] = notes["flags"]
    assert flag["check"] == "wall" and tile in flag["message"]
    assert flag["problems"] == [{"check": "winning_tile", "message": f"the winning tile {tile} is not among East's draws (D1-D21)"}]
    assert notes["winning_tile"] == tile and "insist" not in result.outcome
    assert result.changes == {"E": 48, "S": -16, "W": -16, "N": -16}  # the payment is as entered
    assert result.revisions.get().outcome["flags"] == [flag]


def test_a_tile_that_fits_is_stored_unflagged(played):
    table, set_no, piles = played
    tile = drawn_by(piles, "E")
    result = submit_result(table, set_no, outcome=self_draw(tile), actor="t")
    assert result_notes(result)["flags"] == [] and result.outcome["winning_tile"] == tile


def test_a_discard_is_checked_against_the_discarders_tiles(played):
    table, set_no, piles = played
    own = {kind_of(t) for name in ("S-hand", "S-draw") for t in piles[name]}
    absent = next(k for k in KINDS if k not in own)
    outcome = {"kind": "discard", "winners": ["E"], "discarder": "S", "fans": [8]}
    with pytest.raises(ResultError) as err:
        submit_result(table, set_no, outcome={**outcome, "winning_tile": absent}, actor="t")
    assert err.value.field == "winning_tile" and "South, who discarded it" in err.value.message
    assert submit_result(table, set_no, outcome={**outcome, "winning_tile": sorted(own)[0]}, actor="t").outcome.get("flags") is None


def test_the_reserve_wall_the_table_played_is_the_one_checked(played):
    table, set_no, piles = played
    tile = not_drawn_by(piles, "E")
    reserve = {**piles, "E-draw": [tile] + piles["E-draw"][1:]}
    wall = ReserveWall.objects.create(event=table.group.session.event, session_number=table.group.session.number, set_no=set_no,
                                      number=1, piles=reserve, reason="a tile fell", drawn_by="director")
    other = ReserveWall.objects.create(event=table.group.session.event, session_number=table.group.session.number, set_no=set_no,
                                       number=2, piles=piles, reason="not this table's", drawn_by="director")
    wall.tables.add(table)
    assert other.tables.count() == 0
    result = submit_result(table, set_no, outcome=self_draw(tile), actor="t")
    assert result_notes(result)["flags"] == []
    wall.tables.clear()  # the table played the set as prepared after all: its own wall does not have it among East's draws
    with pytest.raises(ResultError):
        correct_result(result, actor="d", reason="x", director=True, outcome=self_draw(tile))


@pytest.mark.parametrize(("outcome", "says"), [
    ({"kind": "self_draw", "winners": ["E"], "fans": [8], "winning_tile": "10m"}, "is not a tile kind"),
    ({"kind": "self_draw", "winners": ["E"], "fans": [8], "winning_tile": "1f"}, "is not a tile kind"),
    ({"kind": "draw", "winning_tile": "1m"}, "a drawn hand has no winning tile"),
])
def test_a_bad_winning_tile_is_refused_naming_the_field(played, outcome, says):
    table, set_no, _piles = played
    with pytest.raises(ResultError) as err:
        submit_result(table, set_no, outcome=outcome, actor="t")
    assert err.value.field == "winning_tile" and err.value.status == 400 and says in err.value.message


def test_a_red_five_is_read_as_its_five(played):
    table, set_no, piles = played
    wall = wall_of(table, set_no)
    wall.piles = {**piles, "E-draw": ["0p"] + piles["E-draw"][1:]}  # a red five among East's draws
    wall.save()
    result = submit_result(table, set_no, outcome=self_draw("0p"), actor="t")
    assert result.outcome["winning_tile"] == "5p" and result_notes(result)["flags"] == []


def test_a_hand_that_does_not_fit_is_refused_on_the_hand(played):
    pytest.importorskip("MahjongGB", reason="PyMahjongGB is not installed: pip install PyMahjongGB")
    table, set_no, piles = played
    wall = wall_of(table, set_no)
    own = ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1z", "1z", "2z", "3z"]  # one 2z short
    wall.piles = {**piles, "E-hand": own, "E-draw": ["9p"] * 21, "S-hand": ["2z", "1z"] + piles["S-hand"][2:]}
    wall.save()
    outcome = {"kind": "discard", "winners": ["E"], "discarder": "S", "fans": [28], "hand": "123456789m 11z 22z +1z"}
    with pytest.raises(ResultError) as err:
        submit_result(table, set_no, outcome=outcome, actor="t")
    assert err.value.field == "hand" and err.value.code == "wall_mismatch" and "needs 2z" in err.value.message
    wall.piles = {**wall.piles, "E-hand": own[:-1] + ["2z"]}
    wall.save()
    assert result_notes(submit_result(table, set_no, outcome=outcome, actor="t"))["flags"] == []


def test_the_winning_tile_must_be_the_hands(played):
    pytest.importorskip("MahjongGB", reason="PyMahjongGB is not installed: pip install PyMahjongGB")
    table, set_no, _piles = played
    outcome = {"kind": "discard", "winners": ["E"], "discarder": "S", "fans": [28], "hand": "123456789m 11z 22z +1z",
               "winning_tile": "2z"}
    with pytest.raises(ResultError) as err:
        submit_result(table, set_no, outcome=outcome, actor="t")
    assert err.value.field == "winning_tile" and "not the hand's winning tile 1z" in err.value.message


def test_api_refuses_with_the_code_and_stores_it_flagged_when_insisting(played, director):
    table, set_no, piles = played
    tile = not_drawn_by(piles, "E")
    api = APIClient()
    api.force_authenticate(director)
    url = f"/api/events/{table.group.session.event.slug}/results/"
    body = {"table": table.number, "set_no": set_no, "outcome": self_draw(tile)}
    refused = api.post(url, body, format="json")
    assert refused.status_code == 422 and refused.json()["code"] == "wall_mismatch"
    assert tile in refused.json()["winning_tile"][0] and not HandResult.objects.exists()
    stored = api.post(url, {**body, "outcome": self_draw(tile, insist=True)}, format="json")
    assert stored.status_code == 201, stored.content
    assert stored.json()["flags"][0]["check"] == "wall" and stored.json()["outcome"]["winning_tile"] == tile
    assert "insist" not in stored.json()["outcome"]


def table_entry(table, set_no, tile, **extra) -> dict:
    return {"set_no": str(set_no), "mode": "outcome", "kind": "self_draw", "winners": "E", "value_E": "8",
            "winning_tile": tile, **entering(table, "E"), **extra}


def test_the_table_page_asks_again_and_stores_it_flagged_when_the_table_insists(client, played):
    table, set_no, piles = played
    tile = not_drawn_by(piles, "E")
    login_as_table(client, table)
    asked = client.post(table_url(table), table_entry(table, set_no, tile))
    page = asked.content.decode()
    assert asked.status_code == 422 and 'id="wall-mismatch"' in page and 'name="insist"' in page
    assert 'id="err-winning_tile"' in page  # the refusal is at the winning tile, next to the hand
    assert f"the winning tile {tile} is not among East" in page and f'value="{tile}" checked' in page
    answer = client.post(table_url(table), table_entry(table, set_no, tile), HTTP_ACCEPT="application/json")
    assert answer.status_code == 422 and answer.json()["code"] == "wall_mismatch"  # the offline queue's answer
    assert not HandResult.objects.exists()
    stored = client.post(table_url(table), table_entry(table, set_no, tile, insist="1"))
    assert stored.status_code == 302
    assert HandResult.objects.get().outcome["flags"][0]["check"] == "wall"


def test_the_table_page_stores_a_tile_that_fits_and_hides_the_insist_button(client, played):
    table, set_no, piles = played
    login_as_table(client, table)
    page = client.get(table_url(table)).content.decode()
    assert 'id="winning-tile-field"' in page and 'name="insist"' not in page
    assert client.post(table_url(table), table_entry(table, set_no, drawn_by(piles, "E"))).status_code == 302
    assert result_notes(HandResult.objects.get())["flags"] == []


def test_a_correction_goes_through_the_same_check(played):
    table, set_no, piles = played
    result = submit_result(table, set_no, outcome=self_draw(drawn_by(piles, "E")), actor="t")
    tile = not_drawn_by(piles, "E")
    with pytest.raises(ResultError) as err:
        correct_result(result, actor="d", reason="typo", director=True, outcome=self_draw(tile))
    assert err.value.code == "wall_mismatch"
    corrected = correct_result(result, actor="d", reason="typo", director=True, outcome=self_draw(tile, insist=True))
    assert result_notes(corrected)["flags"][0]["check"] == "wall"


def test_the_director_sees_every_flagged_table_of_the_set_on_its_traveller(client, director, played):
    table, set_no, piles = played
    tile = not_drawn_by(piles, "E")
    submit_result(table, set_no, outcome=self_draw(tile, insist=True), actor="t")
    event = table.group.session.event
    url = reverse("traveller", args=[event.slug, table.group.session.number, set_no])
    client.force_login(director)
    page = client.get(url).content.decode()
    assert 'id="wall-flags"' in page and "Entries that do not fit the wall" in page and "Law 87" in page
    assert f"the winning tile {tile} is not among East" in page
    client.logout()
    login_as_table(client, table)
    assert 'id="wall-flags"' not in client.get(url).content.decode()


def test_the_check_is_no_oracle_for_a_player_in_the_middle_of_the_hand(played, settings):
    """docs/security.md, "Threats and the tests that cover them": a player who probes the wall with
    made-up self-draws ("is 5p among my draws?") learns nothing without their PIN, and each answer
    with it counts as a wrong attempt of the table, so the table locks after
    CONFIRM_PIN_LIMIT_PER_TABLE of them and the director sees why."""
    from scoring.models import ConfirmationAttempt

    table, set_no, piles = played
    settings.CONFIRM_PIN_LIMIT_PER_TABLE = 3
    pin = table.seats.select_related("player").get(seat="E").player.pin
    probe = self_draw(not_drawn_by(piles, "E"))
    wrong_pin = "0000" if pin != "0000" else "1111"
    with pytest.raises(ResultError) as err:  # a wrong PIN: refused on the PIN, the wall never asked
        submit_result(table, set_no, outcome=probe, actor="phone", entered_by_seat="E", entry_pin=wrong_pin)
    assert err.value.field == "entry_pin" and "wall" not in err.value.message
    for _ in range(2):  # the player's own PIN: refused on the wall, counted
        with pytest.raises(ResultError) as err:
            submit_result(table, set_no, outcome=probe, actor="phone", entered_by_seat="E", entry_pin=pin)
        assert err.value.code == "wall_mismatch"
    attempts = ConfirmationAttempt.objects.filter(table=table, ok=False)
    assert attempts.count() == 3 and attempts.filter(actor__endswith="(does not fit the wall)").count() == 2
    with pytest.raises(ResultError) as err:  # the limit reached: locked, the wall no longer asked
        submit_result(table, set_no, outcome=probe, actor="phone", entered_by_seat="E", entry_pin=pin)
    assert err.value.field == "entry_pin" and err.value.status == 429
    assert not HandResult.objects.exists()
