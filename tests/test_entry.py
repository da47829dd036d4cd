"""Result entry through the web form and the API: one service, clear errors naming the field."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from scoring import fan_check
from scoring.models import HandResult, ResultRevision
from scoring.payments import signed_points
from scoring.actions.confirmation import confirm_result, correct_result, dispute_result
from scoring.actions.describe import result_notes
from scoring.actions.entry import submit_result
from scoring.actions.errors import ResultError
from factories import blocks

from factories import api_key, first_set, first_table
from walls.models import WallSet

pytestmark = pytest.mark.django_db


def test_form_stores_a_zero_sum_result(client, team_event, director):
    client.force_login(director)
    table = first_table(team_event)
    set_no = first_set(table)
    response = client.post(reverse("entry", args=[team_event.slug]), {
        "table": table.pk, "set_no": set_no, "seat_E": 48, "seat_S": -16, "seat_W": -16, "seat_N": -16,
    })
    assert response.status_code == 302
    result = HandResult.objects.get(table=table, set_no=set_no)
    assert result.changes == {"E": 48, "S": -16, "W": -16, "N": -16}
    assert result.status == "entered"


def test_form_refuses_a_non_zero_sum_result_and_stores_nothing(client, team_event, director):
    client.force_login(director)
    table = first_table(team_event)
    response = client.post(reverse("entry", args=[team_event.slug]), {
        "table": table.pk, "set_no": first_set(table), "seat_E": 48, "seat_S": -16, "seat_W": -16, "seat_N": -15,
    })
    assert response.status_code == 200
    assert "sum" in response.content.decode().lower()
    assert not HandResult.objects.exists()


def test_form_refuses_text_in_a_number_field(client, team_event, director):
    client.force_login(director)
    table = first_table(team_event)
    response = client.post(reverse("entry", args=[team_event.slug]), {
        "table": table.pk, "set_no": first_set(table), "seat_E": "lots", "seat_S": -16, "seat_W": -16, "seat_N": -16,
    })
    assert response.status_code == 200
    assert response.context["form"].errors["seat_E"]
    assert not HandResult.objects.exists()


def test_entry_page_refuses_anonymous_visitors(client, team_event):
    assert client.get(reverse("entry", args=[team_event.slug])).status_code == 403


def test_outcome_is_paid_the_mcr_way(team_event):
    table = first_table(team_event)
    discard = submit_result(table, first_set(table), outcome={"kind": "discard", "winners": ["E"], "discarder": "S", "fans": [10]}, actor="t")
    assert discard.changes == {"E": 34, "S": -18, "W": -8, "N": -8}
    second = blocks(table)[0][1][1]
    self_draw = submit_result(table, second, outcome={"kind": "self_draw", "winners": ["W"], "discarder": None, "fans": [8]}, actor="t")
    assert self_draw.changes == {"E": -16, "S": -16, "W": 48, "N": -16}


def test_a_set_held_by_another_table_is_refused_naming_that_table(team_event):
    table = first_table(team_event)
    later_set = blocks(table)[1][1][0]
    with pytest.raises(ResultError) as err:
        submit_result(table, later_set, changes={"E": 0, "S": 0, "W": 0, "N": 0}, actor="t")
    assert err.value.field == "set"
    assert "Table" in err.value.message and "now" in err.value.message


def test_duplicate_submission_conflicts_and_names_the_existing_result(team_event):
    table = first_table(team_event)
    set_no = first_set(table)
    submit_result(table, set_no, changes={"E": 24, "S": -8, "W": -8, "N": -8}, actor="a")
    with pytest.raises(ResultError) as err:
        submit_result(table, set_no, changes={"E": 0, "S": 0, "W": 0, "N": 0}, actor="b")
    assert err.value.status == 409 and err.value.existing is not None
    assert HandResult.objects.count() == 1


def test_confirmation_needs_a_seated_players_pin(team_event):
    table = first_table(team_event)
    result = submit_result(table, first_set(table), changes={"E": 24, "S": -8, "W": -8, "N": -8}, actor="a", entered_by_seat="E")
    with pytest.raises(ResultError) as err:
        confirm_result(result, actor="x", pin="no-pin")
    assert err.value.field == "pin"
    seat = table.seats.get(seat="S")
    confirmed = confirm_result(result, actor="x", pin=seat.player.pin)
    assert confirmed.status == "confirmed" and seat.player.name in confirmed.confirmed_by


def test_corrections_keep_the_history(team_event):
    table = first_table(team_event)
    result = submit_result(table, first_set(table), changes={"E": 24, "S": -8, "W": -8, "N": -8}, actor="scorer")
    result = confirm_result(result, actor="director", director=True)
    with pytest.raises(ResultError):
        correct_result(result, actor="scorer", reason="typo", director=False, changes={"E": 0, "S": 0, "W": 0, "N": 0})
    with pytest.raises(ResultError) as err:
        correct_result(result, actor="director", reason="", director=True, changes={"E": 0, "S": 0, "W": 0, "N": 0})
    assert err.value.field == "reason"
    result = correct_result(result, actor="director", reason="E won 16 fan, not 8", director=True,
                            changes={"E": 72, "S": -24, "W": -24, "N": -24})
    history = list(ResultRevision.objects.filter(result=result).values_list("action", "actor", "reason"))
    assert history == [("enter", "scorer", ""), ("confirm", "director", ""), ("correct", "director", "E won 16 fan, not 8")]
    assert ResultRevision.objects.get(result=result, action="correct").previous == {"E": 24, "S": -8, "W": -8, "N": -8}


def test_api_enters_and_confirms_with_token_auth(team_event, director):
    key = api_key(director)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    table = first_table(team_event)
    url = f"/api/events/{team_event.slug}/results/"
    response = api.post(url, {"table": table.number, "set_no": first_set(table),
                              "changes": {"E": 24, "S": -8, "W": -8, "N": -8}}, format="json")
    assert response.status_code == 201, response.content
    result_id = response.json()["id"]
    again = api.post(url, {"table": table.number, "set_no": first_set(table),
                           "changes": {"E": 24, "S": -8, "W": -8, "N": -8}}, format="json")
    assert again.status_code == 409 and again.json()["existing"] == result_id
    bad = api.post(url, {"table": table.number, "set_no": blocks(table)[0][1][1],
                         "changes": {"E": 24, "S": -8, "W": -8, "X": -8}}, format="json")
    assert bad.status_code == 400 and "changes.X" in bad.json()
    confirmed = api.post(f"{url}{result_id}/confirm/", {}, format="json")
    assert confirmed.status_code == 200 and confirmed.json()["status"] == "confirmed"


def test_api_refuses_anonymous_writes(team_event):
    table = first_table(team_event)
    response = APIClient().post(f"/api/events/{team_event.slug}/results/", {"table": table.number, "set_no": 1, "changes": {}}, format="json")
    assert response.status_code in (401, 403)
    assert not HandResult.objects.exists()


def test_public_standings_page_needs_no_login(client, team_event):
    response = client.get(reverse("standings", args=[team_event.slug]))
    assert response.status_code == 200
    assert "Sanya Sparrows" in response.content.decode()


def test_openapi_schema_documents_results(client):
    response = client.get("/api/schema/")
    assert response.status_code == 200
    assert b"/api/events/{event_slug}/results/" in response.content


# The seat that entered a result cannot confirm it; the director settles disputes.

def test_the_entering_seats_pin_cannot_confirm_its_own_entry(team_event):
    table = first_table(team_event)
    result = submit_result(table, first_set(table), changes={"E": 24, "S": -8, "W": -8, "N": -8}, actor="a", entered_by_seat="E")
    east, west = table.seats.get(seat="E").player, table.seats.get(seat="W").player
    with pytest.raises(ResultError) as err:
        confirm_result(result, actor="x", pin=east.pin)
    assert err.value.field == "pin" and "seat E entered" in err.value.message
    assert HandResult.objects.get(pk=result.pk).status == "entered"
    confirmed = confirm_result(result, actor="x", pin=west.pin)
    assert confirmed.status == "confirmed" and confirmed.confirmed_by == f"{west.name} (W), Table {table.number}"


def test_an_unknown_entering_seat_is_refused_naming_the_field(team_event):
    table = first_table(team_event)
    with pytest.raises(ResultError) as err:
        submit_result(table, first_set(table), changes={"E": 24, "S": -8, "W": -8, "N": -8}, actor="a", entered_by_seat="X")
    assert err.value.field == "entered_by_seat"
    assert not HandResult.objects.exists()


def test_a_correction_at_the_table_becomes_the_correcting_seats_entry(team_event):
    """docs/security.md, "Threats and the tests that cover them": the seat that corrects is the entering seat of the corrected result (its PIN
    cannot confirm it); the seat that entered the first version may confirm the correction."""
    table = first_table(team_event)
    result = submit_result(table, first_set(table), changes={"E": 24, "S": -8, "W": -8, "N": -8}, actor="a", entered_by_seat="S")
    corrected = correct_result(result, actor="scorer", reason="", director=False, changes={"E": 32, "S": -16, "W": -8, "N": -8},
                               entered_by_seat="W", entry_pin=table.seats.get(seat="W").player.pin)
    assert result_notes(corrected)["entered_by_seat"] == "W"
    with pytest.raises(ResultError):
        confirm_result(corrected, actor="x", pin=table.seats.get(seat="W").player.pin)
    assert confirm_result(corrected, actor="x", pin=table.seats.get(seat="S").player.pin).status == "confirmed"


def test_a_disputed_result_is_confirmed_by_the_director_only(team_event):
    table = first_table(team_event)
    result = submit_result(table, first_set(table), changes={"E": 24, "S": -8, "W": -8, "N": -8}, actor="a")
    result = dispute_result(result, actor="N", reason="N paid 8, not 16? check", director=False)
    with pytest.raises(ResultError) as err:
        confirm_result(result, actor="x", pin=table.seats.get(seat="S").player.pin)
    assert err.value.field == "status" and err.value.status == 409
    assert confirm_result(result, actor="director", director=True).status == "confirmed"


def test_a_confirmation_for_an_older_revision_is_refused(team_event):
    table = first_table(team_event)
    result = submit_result(table, first_set(table), changes={"E": 24, "S": -8, "W": -8, "N": -8}, actor="a")
    seen = result.revision
    correct_result(result, actor="scorer", reason="", director=False, changes={"E": 32, "S": -16, "W": -8, "N": -8},
                   entered_by_seat="E", entry_pin=table.seats.get(seat="E").player.pin)
    with pytest.raises(ResultError) as err:
        confirm_result(result, actor="x", pin=table.seats.get(seat="S").player.pin, revision=seen)
    assert err.value.field == "revision" and err.value.status == 409 and "E +32" in err.value.message
    assert HandResult.objects.get(pk=result.pk).status == "entered"


# Optional MCR fan check (PyMahjongGB). The hand: 123456789m, a pung of East won on 1z, a pair of
# South. MCR: Pure Straight 16 + Half Flush 6 + Concealed Hand 2, plus Prevalent Wind 2 and Seat
# Wind 2 when East wins in the East round (set 1) = 28; South winning it lacks the seat wind = 26.
KNOWN_HAND = "123456789m 11z 22z +1z"


def fan_check_alone(event, set_no: int = 1) -> None:
    """Forget set ``set_no``'s stored wall, so the hand is fan-checked alone: a hand that does not
    fit the wall is refused (the wall check: tests/test_entry_wall_check.py)."""
    WallSet.objects.filter(event=event, set_no=set_no).delete()


def test_hand_notation_is_read_into_tiles_melds_and_the_winning_tile():
    hand = fan_check.parse_hand("chi:234s pung:5z 678p 99m 05s +9m last")
    assert hand.melds == (("chi", "3s"), ("pung", "5z"))
    assert hand.standing == ("6p", "7p", "8p", "9m", "9m", "5s", "5s")
    assert hand.winning_tile == "9m" and hand.last_tile_of_wall and not hand.about_kong


@pytest.mark.parametrize(("text", "says"), [
    ("123456789m 11z 22z", "winning tile"),
    ("123456789m 11z 22z 3z +1z", "14 tiles"),
    ("123456789m 11z 22z +8z", "not an honour"),
    ("11111m 2345678m 1z +1z", "appears 5 times"),
    ("chi:135s 456789m 11z +1z", "not a chow"),
    ("meld:123s 456789m 11z +1z", "a meld is"),
])
def test_a_hand_that_cannot_be_read_names_the_token(text, says):
    with pytest.raises(fan_check.HandNotationError) as err:
        fan_check.parse_hand(text)
    assert says in str(err.value)


def test_fan_check_counts_a_known_hand_with_pymahjonggb():
    pytest.importorskip("MahjongGB", reason="PyMahjongGB is not installed: pip install PyMahjongGB")
    east = fan_check.count_fan(fan_check.parse_hand(KNOWN_HAND), seat_wind="E", prevalent_wind="E", self_drawn=False)
    assert east.total == 28
    assert dict(east.fans) == {"Pure Straight": 16, "Half Flush": 6, "Prevalent Wind": 2, "Seat Wind": 2, "Concealed Hand": 2}
    south = fan_check.count_fan(fan_check.parse_hand(KNOWN_HAND), seat_wind="S", prevalent_wind="E", self_drawn=False)
    assert south.total == 26


def test_a_matching_fan_is_stored_with_its_hand_and_no_flag(team_event):
    pytest.importorskip("MahjongGB", reason="PyMahjongGB is not installed: pip install PyMahjongGB")
    fan_check_alone(team_event)
    table = first_table(team_event)
    assert first_set(table) == 1  # East round: East is the prevalent wind
    result = submit_result(table, 1, outcome={"kind": "discard", "winners": ["E"], "discarder": "S", "fans": [28],
                                              "hand": KNOWN_HAND}, actor="t")
    assert result_notes(result) == {"entered_by_seat": None, "hand": KNOWN_HAND, "flags": []}


def test_a_fan_that_differs_from_the_hand_is_stored_but_flagged(team_event):
    pytest.importorskip("MahjongGB", reason="PyMahjongGB is not installed: pip install PyMahjongGB")
    fan_check_alone(team_event)
    table = first_table(team_event)
    result = submit_result(table, 1, outcome={"kind": "discard", "winners": ["E"], "discarder": "S", "fans": [26],
                                              "hand": KNOWN_HAND}, actor="t")
    assert result.changes == {"E": 50, "S": -34, "W": -8, "N": -8}  # stored as entered: 26 fan
    [flag] = result_notes(result)["flags"]
    assert flag["check"] == "fan" and flag["entered"] == 26 and flag["counted"] == 28
    assert "Seat Wind 2" in flag["message"]


def test_the_fan_check_uses_the_winners_seat_wind(team_event):
    pytest.importorskip("MahjongGB", reason="PyMahjongGB is not installed: pip install PyMahjongGB")
    fan_check_alone(team_event)
    table = first_table(team_event)
    result = submit_result(table, 1, outcome={"kind": "discard", "winners": ["S"], "discarder": "E", "fans": [26],
                                              "hand": KNOWN_HAND}, actor="t")
    assert result_notes(result)["flags"] == []


@pytest.mark.parametrize(("outcome", "says"), [
    ({"kind": "discard", "winners": ["E"], "discarder": "S", "fans": [28], "hand": "123456789m 11z 23z +1z"}, "not a complete winning hand"),
    ({"kind": "discard", "winners": ["E"], "discarder": "S", "fans": [28], "hand": "123m +1m"}, "a hand has 13"),
    ({"kind": "draw", "hand": KNOWN_HAND}, "one player won"),
])
def test_a_bad_winning_hand_is_refused_naming_the_hand_and_nothing_is_stored(team_event, outcome, says):
    pytest.importorskip("MahjongGB", reason="PyMahjongGB is not installed: pip install PyMahjongGB")
    table = first_table(team_event)
    with pytest.raises(ResultError) as err:
        submit_result(table, 1, outcome=outcome, actor="t")
    assert err.value.field == "hand" and says in err.value.message
    assert not HandResult.objects.exists()


def test_api_enters_a_hand_with_the_entering_seat_and_returns_its_flag(team_event, director):
    pytest.importorskip("MahjongGB", reason="PyMahjongGB is not installed: pip install PyMahjongGB")
    fan_check_alone(team_event)
    api = APIClient()
    api.force_authenticate(director)
    table = first_table(team_event)
    url = f"/api/events/{team_event.slug}/results/"
    response = api.post(url, {"table": table.number, "set_no": 1, "entered_by_seat": "N", "outcome": {
        "kind": "discard", "winners": ["E"], "discarder": "S", "fans": [26], "hand": KNOWN_HAND}}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["entered_by_seat"] == "N" and body["flags"][0]["counted"] == 28
    assert body["outcome"]["hand"] == KNOWN_HAND
    north_pin = table.seats.get(seat="N").player.pin
    scorer = APIClient()
    scorer.force_authenticate(scorer_user(team_event, table))
    refused = scorer.post(f"{url}{body['id']}/confirm/", {"pin": north_pin}, format="json")
    assert refused.status_code == 400 and "pin" in refused.json()


def test_api_disputes_with_a_reason(team_event, director):
    api = APIClient()
    api.force_authenticate(director)
    table = first_table(team_event)
    result = submit_result(table, 1, changes={"E": 24, "S": -8, "W": -8, "N": -8}, actor="a")
    missing = api.post(f"/api/events/{team_event.slug}/results/{result.pk}/dispute/", {}, format="json")
    assert missing.status_code == 400 and "reason" in missing.json()
    done = api.post(f"/api/events/{team_event.slug}/results/{result.pk}/dispute/", {"reason": "W says 16"}, format="json")
    assert done.status_code == 200 and done.json()["status"] == "disputed"
    assert done.json()["history"][-1]["reason"] == "W says 16"


def scorer_user(event, *tables):
    """A user holding the scorer role in ``event`` bound to ``tables`` (enters and confirms at
    them through the API with a PIN)."""
    from django.contrib.auth import get_user_model

    from tournament.models import EventRole

    user = get_user_model().objects.create_user("scorer-api", password="pw-scorer-1")
    role = EventRole.objects.create(event=event, user=user, role=EventRole.Role.SCORER)
    role.tables.add(*tables)
    return user


@pytest.mark.parametrize("action", ["correct", "dispute", "confirm"])
def test_api_changes_to_a_result_are_for_the_director_and_scorers_only(team_event, django_user_model, action):
    from tournament.models import EventRole

    staff = django_user_model.objects.create_user("staff-api", password="pw-staff-1")
    EventRole.objects.create(event=team_event, user=staff, role=EventRole.Role.STAFF)
    table = first_table(team_event)
    result = confirm_result(submit_result(table, 1, changes={"E": 24, "S": -8, "W": -8, "N": -8}, actor="a"), actor="d", director=True)
    api = APIClient()
    api.force_authenticate(staff)
    response = api.post(f"/api/events/{team_event.slug}/results/{result.pk}/{action}/",
                        {"reason": "r", "changes": {"E": 0, "S": 0, "W": 0, "N": 0}, "pin": table.seats.get(seat="S").player.pin},
                        format="json")
    assert response.status_code == 403
    result.refresh_from_db()
    assert result.status == "confirmed" and result.revision == 2


@pytest.mark.parametrize("typed, points", [
    ("-16", -16), ("\u221216", -16), ("+24", 24), ("\uff0d\uff11\uff16", -16), ("8,000", 8000), ("- 16", -16),
    (" 0 ", 0), (-8, -8), (8.0, 8),
    ("--8", None), ("1.5", None), ("8-", None), ("", None), ("minus 8", None), (True, None), (2.5, None),
])
def test_a_score_change_is_read_with_any_minus_sign_a_phone_gives(typed, points):
    """The Unicode minus (U+2212) and full-width digits and signs are what some phone keyboards
    type; a thousands separator is read, anything else that is not a whole number is not."""
    assert signed_points(typed) == points
