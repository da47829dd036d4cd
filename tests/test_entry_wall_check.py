"""Results checked against the wall at entry (scoring.actions.entry.check_wall): a winning tile or
hand that does not fit the wall the table played is stored as typed with a wall flag kept apart
for the director (HandResult.wall_flag), and answered exactly as one that fits; the reserve wall
a table played is the one checked; the same through the API, the table page (and its offline
queue's JSON answer), corrections, and the director's traveller. That the answers are the same
on two walls: tests/test_wall_check_secrecy.py."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from factories import entering, first_set, first_table, login_as_table, table_url
from scoring.actions.confirmation import correct_result
from scoring.actions.describe import result_notes, wall_flag_words
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


def test_a_self_drawn_tile_not_among_the_winners_draws_is_stored_as_typed_and_flagged(played):
    table, set_no, piles = played
    tile = not_drawn_by(piles, "E")
    result = submit_result(table, set_no, outcome=self_draw(tile), actor="t")
    [problem] = result.wall_flag["problems"]
    assert problem["check"] == "winning_tile" and problem["tiles"] == [tile] and problem["seat"] == "E"
    assert wall_flag_words(result) == f"does not fit the wall: the winning tile {tile} is not among East's draws (D1-D21)"
    assert result.outcome["winning_tile"] == tile and "flags" not in result.outcome  # the outcome holds no wall flag
    assert result.changes == {"E": 48, "S": -16, "W": -16, "N": -16}  # the payment is as entered
    assert "flags" not in result.revisions.get().outcome
    assert result.status == HandResult.Status.ENTERED


def test_insist_sent_by_an_older_phone_is_ignored(played):
    table, set_no, piles = played
    result = submit_result(table, set_no, outcome=self_draw(not_drawn_by(piles, "E"), insist=True), actor="t")
    assert "insist" not in result.outcome and result.wall_flag


def test_a_tile_that_fits_is_stored_unflagged(played):
    table, set_no, piles = played
    tile = drawn_by(piles, "E")
    result = submit_result(table, set_no, outcome=self_draw(tile), actor="t")
    assert result.wall_flag is None and result_notes(result)["flags"] == [] and result.outcome["winning_tile"] == tile


def test_a_discard_is_checked_against_the_discarders_tiles(played):
    table, set_no, piles = played
    own = {kind_of(t) for name in ("S-hand", "S-draw") for t in piles[name]}
    absent = next(k for k in KINDS if k not in own)
    outcome = {"kind": "discard", "winners": ["E"], "discarder": "S", "fans": [8]}
    flagged = submit_result(table, set_no, outcome={**outcome, "winning_tile": absent}, actor="t")
    assert "South, who discarded it" in wall_flag_words(flagged)
    flagged.delete()
    assert submit_result(table, set_no, outcome={**outcome, "winning_tile": sorted(own)[0]}, actor="t").wall_flag is None


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
    assert result.wall_flag is None
    wall.tables.clear()  # the table played the set as prepared after all: its own wall does not have it among East's draws
    assert correct_result(result, actor="d", reason="x", director=True, outcome=self_draw(tile)).wall_flag


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
    assert result.outcome["winning_tile"] == "5p" and result.wall_flag is None


def test_a_hand_that_does_not_fit_is_refused_on_the_hand(played):
    pytest.importorskip("MahjongGB", reason="PyMahjongGB is not installed: pip install PyMahjongGB")
    table, set_no, piles = played
    wall = wall_of(table, set_no)
    own = ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1z", "1z", "2z", "3z"]  # one 2z short
    wall.piles = {**piles, "E-hand": own, "E-draw": ["9p"] * 21, "S-hand": ["2z", "1z"] + piles["S-hand"][2:]}
    wall.save()
    outcome = {"kind": "discard", "winners": ["E"], "discarder": "S", "fans": [28], "hand": "123456789m 11z 22z +1z"}
    flagged = submit_result(table, set_no, outcome=outcome, actor="t")
    assert [p["check"] for p in flagged.wall_flag["problems"]] == ["hand"] and "needs 2z" in wall_flag_words(flagged)
    flagged.delete()
    wall.piles = {**wall.piles, "E-hand": own[:-1] + ["2z"]}
    wall.save()
    assert submit_result(table, set_no, outcome=outcome, actor="t").wall_flag is None


def test_the_winning_tile_must_be_the_hands(played):
    pytest.importorskip("MahjongGB", reason="PyMahjongGB is not installed: pip install PyMahjongGB")
    table, set_no, _piles = played
    outcome = {"kind": "discard", "winners": ["E"], "discarder": "S", "fans": [28], "hand": "123456789m 11z 22z +1z",
               "winning_tile": "2z"}
    with pytest.raises(ResultError) as err:
        submit_result(table, set_no, outcome=outcome, actor="t")
    assert err.value.field == "winning_tile" and "not the hand's winning tile 1z" in err.value.message


def test_the_api_stores_it_and_never_says_whether_it_fits(played, director):
    table, set_no, piles = played
    tile = not_drawn_by(piles, "E")
    api = APIClient()
    api.force_authenticate(director)
    url = f"/api/events/{table.group.session.event.slug}/results/"
    stored = api.post(url, {"table": table.number, "set_no": set_no, "outcome": self_draw(tile)}, format="json")
    assert stored.status_code == 201, stored.content
    assert stored.json()["flags"] == [] and stored.json()["outcome"]["winning_tile"] == tile
    assert "wall" not in stored.content.decode() and HandResult.objects.get().wall_flag


def table_entry(table, set_no, tile, **extra) -> dict:
    return {"set_no": str(set_no), "mode": "outcome", "kind": "self_draw", "winners": "E", "value_E": "8",
            "winning_tile": tile, **entering(table, "E"), **extra}


def test_the_table_page_stores_it_as_any_entry_and_shows_no_flag_before_the_release(client, played):
    table, set_no, piles = played
    tile = not_drawn_by(piles, "E")
    login_as_table(client, table)
    page = client.get(table_url(table)).content.decode()
    assert 'id="winning-tile-field"' in page and 'name="insist"' not in page
    stored = client.post(table_url(table), table_entry(table, set_no, tile))
    assert stored.status_code == 302
    page = client.get(stored["Location"]).content.decode()
    assert "waits for confirmation" in page and "wall" not in page.split('id="confirm-')[1].split("</form>")[0]
    assert "does not fit" not in page and HandResult.objects.get().wall_flag


def test_a_correction_goes_through_the_same_check(played):
    table, set_no, piles = played
    result = submit_result(table, set_no, outcome=self_draw(drawn_by(piles, "E")), actor="t")
    assert result.wall_flag is None
    corrected = correct_result(result, actor="d", reason="typo", director=True, outcome=self_draw(not_drawn_by(piles, "E")))
    assert corrected.wall_flag and HandResult.objects.get().wall_flag == corrected.wall_flag
    again = correct_result(corrected, actor="d", reason="typo", director=True, outcome=self_draw(drawn_by(piles, "E")))
    assert again.wall_flag is None and HandResult.objects.get().wall_flag is None


def test_the_director_sees_every_flagged_table_of_the_set_on_its_traveller(client, director, played):
    table, set_no, piles = played
    tile = not_drawn_by(piles, "E")
    submit_result(table, set_no, outcome=self_draw(tile), actor="t")
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
    """docs/security.md, "The wall check": a player who probes the wall with made-up self-draws
    ("is 5p among my draws?") with their own right PIN gets each stored as an entry like any other,
    nothing counted against the table, and the director sees every probe flagged."""
    from scoring.models import ConfirmationAttempt

    table, set_no, piles = played
    settings.CONFIRM_PIN_LIMIT_PER_TABLE = 3
    pin = table.seats.select_related("player").get(seat="E").player.pin
    for tile in KINDS:
        result = submit_result(table, set_no, outcome=self_draw(tile), actor="phone", entered_by_seat="E", entry_pin=pin)
        assert result.status == HandResult.Status.ENTERED
        assert (result.wall_flag is None) == (tile in {kind_of(t) for t in piles["E-draw"]})
        result.delete()
    assert not ConfirmationAttempt.objects.filter(table=table, ok=False).exists()


def test_wall_flags_stored_in_the_outcome_before_move_apart_and_leave_every_revision(played):
    """Migration scoring 0008: a wall flag stored in ``outcome["flags"]`` (when a table could
    insist) moves to ``wall_flag`` and is taken out of every revision's outcome, which the table's
    page shows; a fan flag stays."""
    import importlib

    from django.apps import apps

    migration = importlib.import_module("scoring.migrations.0008_result_wall_flag")
    table, set_no, piles = played
    result = submit_result(table, set_no, outcome=self_draw(drawn_by(piles, "E")), actor="t")
    fan = {"check": "fan", "entered": 8, "counted": 10, "fans": [], "message": "fan entered 8, the hand counts 10"}
    old = {"check": "wall", "message": "does not fit the wall: the winning tile 5p is not among East's draws (D1-D21)",
           "problems": [{"check": "winning_tile", "message": "the winning tile 5p is not among East's draws (D1-D21)"}]}
    HandResult.objects.filter(pk=result.pk).update(outcome={**result.outcome, "flags": [fan, old]})
    result.revisions.update(outcome={**result.outcome, "flags": [old]})
    migration.move_wall_flags(apps, None)
    moved = HandResult.objects.get(pk=result.pk)
    assert moved.outcome["flags"] == [fan] and moved.wall_flag == {"problems": old["problems"]}
    assert "flags" not in moved.revisions.get().outcome
    assert wall_flag_words(moved) == "does not fit the wall: the winning tile 5p is not among East's draws (D1-D21)"


def test_the_export_carries_the_wall_flag_and_the_import_restores_it(played):
    import copy

    from tournament.exchange import ExchangeError, export_event, import_event

    table, set_no, piles = played
    submit_result(table, set_no, outcome=self_draw(not_drawn_by(piles, "E")), actor="t")
    event = table.group.session.event
    data = export_event(event, include_secret=True)
    [exported] = data["results"]
    assert exported["wall_flag"]["problems"][0]["check"] == "winning_tile"
    bad = copy.deepcopy(data)
    bad["results"][0]["wall_flag"] = "it does not fit"
    event.delete()
    with pytest.raises(ExchangeError) as err:
        import_event(bad)
    assert "wall_flag" in str(err.value) and f"set {set_no}" in str(err.value)
    restored = import_event(data)
    assert HandResult.objects.get(event=restored).wall_flag == exported["wall_flag"]
