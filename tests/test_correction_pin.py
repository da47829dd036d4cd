"""docs/security.md, "Threats and the tests that cover them", threat 1: one player could set a result and have it confirmed by themselves.

Seat S entered a set with S's PIN; on the same phone (a table login) a POST to the result page's
``correct`` action, with no PIN asked, changed it to W's 88-fan self-draw; W then confirmed it
with W's own PIN, and the history showed only "scorer Table 1" for the change. A correction at
the table is now as strong as an entry: it needs the correcting player's seat and PIN (checked
like the entry PIN: wrong ones counted towards the table's lock), it becomes that seat's entry
(so that seat's PIN cannot confirm it) and the history names the seat and player of every change.
Only the director corrects a confirmed result, without a PIN.
"""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.models import ConfirmationAttempt, HandResult
from scoring.actions.confirmation import confirm_result, correct_result, dispute_result
from scoring.actions.entry import submit_result
from scoring.actions.errors import ResultError
from scoring.actions.seats import pin_counts
from factories import blocks

from factories import client_for, entering, login_as_table, pin, table_url

pytestmark = pytest.mark.django_db

E_WINS = {"kind": "discard", "winners": ["E"], "discarder": "N", "fans": [8]}
W_88_SELF_DRAW = {"kind": "self_draw", "winners": ["W"], "fans": [88]}
W_88_CHANGES = {"E": -96, "S": -96, "W": 288, "N": -96}


def wrong_pin(table):
    """A 4-digit PIN that no player at ``table`` has."""
    taken = set(table.seats.values_list("player__pin", flat=True))
    return next(f"{n:04d}" for n in range(10000) if f"{n:04d}" not in taken)


def name(table, seat):
    return table.seats.get(seat=seat).player.name


def enter_as(table, seat, set_no=None, outcome=E_WINS):
    """Seat ``seat`` enters with its own PIN, from a table login."""
    return submit_result(table, set_no or blocks(table)[0][1][0], outcome=outcome, actor=f"scorer {table}",
                         **entering(table, seat))


def correct_as(result, seat, code):
    """A table login's correction to W's 88-fan self-draw, by ``seat`` with PIN ``code`` (None: not sent)."""
    who = {name: value for name, value in (("entered_by_seat", seat), ("entry_pin", code)) if value is not None}
    return correct_result(result, actor=f"scorer {result.table}", reason="", director=False, outcome=W_88_SELF_DRAW, **who)


def history(result):
    return list(result.revisions.order_by("revision").values_list("action", "actor"))


def result_form(outcome: dict, **extra) -> dict:
    """The result page's correction form data for an outcome (a self-draw or a discard win)."""
    data = {"action": "correct", "reason": "", "mode": "outcome", "kind": outcome["kind"], "winners": outcome["winners"],
            **{f"value_{seat}": str(fan) for seat, fan in zip(outcome["winners"], outcome["fans"])}, **extra}
    if outcome.get("discarder"):
        data["discarder"] = outcome["discarder"]
    return data


# --- the issue's attack, as reproduced by hand -------------------------------------------------------


def test_the_issues_attack_a_correction_without_a_pin_then_the_correctors_own_confirmation_is_refused(client, table):
    login_as_table(client, table)
    saved = client.post(table_url(table), {"set_no": str(blocks(table)[0][1][0]), "mode": "outcome", "kind": "discard",
                                           "winners": ["E"], "discarder": "N", "value_E": "8", **entering(table, "S")})
    assert saved.status_code == 302
    result = HandResult.objects.get()
    assert result.outcome["entered_by_seat"] == "S"
    url = reverse("result", args=[table.group.session.event.slug, result.pk])
    # same phone, no PIN: W's 88-fan self-draw
    attack = client.post(url, result_form(W_88_SELF_DRAW))
    assert attack.status_code == 400, "a correction without the correcting player's seat and PIN was taken"
    errors = attack.context["form"].errors
    assert set(errors) == {"entered_by_seat", "entry_pin"}
    result.refresh_from_db()
    assert (result.changes, result.revision, result.outcome["entered_by_seat"]) == ({"E": 32, "S": -8, "W": -8, "N": -16}, 1, "S")
    # W corrects with W's own PIN: the correction becomes W's entry, which W's PIN cannot confirm
    taken = client.post(url, result_form(W_88_SELF_DRAW, **entering(table, "W")))
    assert taken.status_code == 302
    result.refresh_from_db()
    assert (result.changes, result.status, result.outcome["entered_by_seat"]) == (W_88_CHANGES, "entered", "W")
    confirm = reverse("table-confirm", args=[table.group.session.event.slug, table.pk, result.pk])
    refused = client.post(confirm, {"pin": pin(table, "W"), "revision": result.revision}, follow=True)
    assert "seat W entered this result" in refused.content.decode()
    assert HandResult.objects.get().status == "entered"
    client.post(confirm, {"pin": pin(table, "S"), "revision": result.revision})
    result.refresh_from_db()
    assert result.status == "confirmed"
    assert history(result) == [("enter", f"{name(table, 'S')} (S), Table 1"), ("correct", f"{name(table, 'W')} (W), Table 1"),
                               ("confirm", f"{name(table, 'S')} (S), Table 1")]
    page = client.get(url).content.decode()
    for seat in "SW":
        assert f"{name(table, seat)} ({seat}), Table 1" in page


# --- the service's rules ----------------------------------------------------------------------------


def test_a_correction_by_a_scorer_without_seat_or_pin_is_refused_and_records_nothing(table):
    result = enter_as(table, "S")
    for seat, code, field in ((None, None, "entered_by_seat"), ("W", None, "entry_pin"), ("W", "  ", "entry_pin"),
                              (None, pin(table, "W"), "entered_by_seat")):
        with pytest.raises(ResultError) as err:
            correct_as(HandResult.objects.get(pk=result.pk), seat, code)
        assert (err.value.field, err.value.status) == (field, 400)
    stored = HandResult.objects.get(pk=result.pk)
    assert (stored.revision, stored.outcome["entered_by_seat"], stored.changes) == (1, "S", result.changes)
    assert not ConfirmationAttempt.objects.filter(ok=False).exists()  # nothing typed (or no seat): no attempt


def test_a_correction_with_the_correcting_seats_pin_is_that_seats_entry_and_another_seat_confirms(table):
    result = enter_as(table, "S")
    corrected = correct_as(result, "W", pin(table, "W"))
    assert (corrected.status, corrected.changes, corrected.outcome["entered_by_seat"]) == ("entered", W_88_CHANGES, "W")
    assert corrected.confirmed_by == "" and corrected.entered_by == f"{name(table, 'W')} (W), Table 1"
    right = ConfirmationAttempt.objects.filter(result=result, ok=True).order_by("pk").last()
    assert (right.seat, right.actor) == ("W", f"scorer {table}")
    with pytest.raises(ResultError) as err:
        confirm_result(corrected, actor=f"scorer {table}", pin=pin(table, "W"))
    assert err.value.field == "pin" and "seat W entered this result" in err.value.message
    assert confirm_result(corrected, actor=f"scorer {table}", pin=pin(table, "S")).status == "confirmed"


def test_the_entering_seat_may_correct_its_own_entry_with_its_pin_and_still_not_confirm_it(table):
    result = enter_as(table, "S")
    corrected = correct_as(result, "S", pin(table, "S"))
    with pytest.raises(ResultError):
        confirm_result(corrected, actor="x", pin=pin(table, "S"))
    assert confirm_result(corrected, actor="x", pin=pin(table, "N")).status == "confirmed"


def test_a_wrong_correction_pin_is_counted_and_makes_the_device_wait(settings, table):
    result = enter_as(table, "S")
    for n in range(settings.CONFIRM_PIN_LIMIT_PER_DEVICE):
        assert pin_counts(table, None).device_wrong == n
        code = pin(table, "S") if n % 2 else wrong_pin(table)  # another seat's PIN, nobody's PIN
        with pytest.raises(ResultError) as err:
            correct_as(HandResult.objects.get(pk=result.pk), "W", code)
        assert (err.value.field, err.value.status) == ("entry_pin", 400)
        assert "not the PIN of the player at seat W" in err.value.message
    assert set(ConfirmationAttempt.objects.filter(ok=False).values_list("table", "result", "seat")) == {(table.pk, None, "")}
    with pytest.raises(ResultError) as err:  # W's own PIN, while this device waits
        correct_as(HandResult.objects.get(pk=result.pk), "W", pin(table, "W"))
    assert (err.value.field, err.value.status, err.value.retry_after) == ("entry_pin", 429, 30)
    assert ConfirmationAttempt.objects.filter(ok=False).count() == settings.CONFIRM_PIN_LIMIT_PER_DEVICE  # not counted
    stored = HandResult.objects.get(pk=result.pk)
    assert (stored.revision, stored.outcome["entered_by_seat"]) == (1, "S")
    with pytest.raises(ResultError) as err:  # the same device confirming waits too: the same counter
        confirm_result(stored, actor="x", pin=pin(table, "N"))
    assert err.value.status == 429


def test_the_history_names_seat_and_player_of_every_change(table, django_user_model):
    result = enter_as(table, "S")
    correct_as(result, "W", pin(table, "W"))
    user = django_user_model.objects.create_user("north-player")
    north = table.seats.get(seat="N").player
    north.user = user
    north.save(update_fields=["user"])
    dispute_result(result, actor="north-player", reason="it was a discard", director=False)  # a seated player's account
    dispute_result(result, actor=f"scorer {table}", reason="still wrong", director=False)  # a table login: no seat known
    assert history(result) == [
        ("enter", f"{name(table, 'S')} (S), Table 1"), ("correct", f"{name(table, 'W')} (W), Table 1"),
        ("dispute", f"{north.name} (N), Table 1"), ("dispute", f"scorer {table}"),
    ]
    other = submit_result(table, blocks(table)[0][1][1], outcome=E_WINS, actor="td")  # the director, no PIN
    assert history(other) == [("enter", "td")]


def test_the_director_corrects_a_confirmed_result_without_a_pin_and_a_scorer_cannot(table):
    result = enter_as(table, "S")
    confirmed = confirm_result(result, actor="x", pin=pin(table, "E"))
    with pytest.raises(ResultError) as err:
        correct_as(confirmed, "W", pin(table, "W"))
    assert (err.value.field, err.value.status) == ("status", 403)
    assert not ConfirmationAttempt.objects.filter(ok=False).exists()
    corrected = correct_result(confirmed, actor="director", reason="W self-drew", director=True, outcome=W_88_SELF_DRAW)
    assert (corrected.status, corrected.confirmed_by, corrected.changes) == ("confirmed", "director", W_88_CHANGES)
    assert corrected.outcome["entered_by_seat"] == "S"  # the director's correction keeps the entering seat
    assert history(corrected)[-1] == ("correct", "director")


def test_a_substitute_corrects_with_their_own_pin_only_on_the_sets_they_hold(table):
    from tournament.substitutions import substitute

    sets = blocks(table)[0][1]
    before = enter_as(table, "S", sets[0])
    west = table.seats.get(seat="W").player
    sub = substitute(table.group.session.event, 1, player_out=west, name="Sub Stitute", reason="ill", actor="td")
    newcomer_pin = sub.player_in.pin
    with pytest.raises(ResultError) as err:  # set 1 was played by the player out: the newcomer's PIN is not W's there
        correct_as(before, "W", newcomer_pin)
    assert err.value.field == "entry_pin"
    assert correct_as(HandResult.objects.get(pk=before.pk), "W", west.pin).outcome["entered_by_seat"] == "W"
    later = enter_as(table, "S", sets[1])
    with pytest.raises(ResultError):
        correct_as(later, "W", west.pin)
    corrected = correct_as(HandResult.objects.get(pk=later.pk), "W", newcomer_pin)
    assert corrected.entered_by == "Sub Stitute (W), Table 1"


# --- the API -----------------------------------------------------------------------------------------


def test_the_api_correction_needs_the_correcting_seat_and_pin_for_a_scorer(team_event, table, scorer_of_table_1, director):
    result = enter_as(table, "S")
    api = APIClient()
    api.force_authenticate(scorer_of_table_1)
    url = f"/api/events/{team_event.slug}/results/{result.pk}/correct/"
    body = {"outcome": W_88_SELF_DRAW, "reason": ""}
    missing = api.post(url, body, format="json")
    assert missing.status_code == 400 and list(missing.json()) == ["entered_by_seat"]
    no_pin = api.post(url, {**body, "entered_by_seat": "W"}, format="json")
    assert no_pin.status_code == 400 and list(no_pin.json()) == ["entry_pin"]
    wrong = api.post(url, {**body, "entered_by_seat": "W", "entry_pin": pin(table, "S")}, format="json")
    assert wrong.status_code == 400
    assert wrong.json() == {"entry_pin": ["that is not the PIN of the player at seat W: the player entering types their own 4-digit PIN"]}
    assert HandResult.objects.get(pk=result.pk).revision == 1
    taken = api.post(url, {**body, "entered_by_seat": "W", "entry_pin": pin(table, "W")}, format="json")
    assert taken.status_code == 200, taken.json()
    data = taken.json()
    assert (data["entered_by_seat"], data["status"], data["changes"]) == ("W", "entered", W_88_CHANGES)
    assert "entry_pin" not in data
    assert data["history"][-1]["actor"] == f"{name(table, 'W')} (W), Table 1"
    refused = api.post(f"/api/events/{team_event.slug}/results/{result.pk}/confirm/", {"pin": pin(table, "W")}, format="json")
    assert refused.status_code == 400
    boss = APIClient()
    boss.force_authenticate(director)
    again = boss.post(url, {"changes": {"E": 24, "S": -8, "W": -8, "N": -8}, "reason": "typo"}, format="json")
    assert again.status_code == 200 and again.json()["status"] == "confirmed"


def test_the_api_schema_says_a_correction_needs_the_seat_and_pin(team_event):
    schema = client_for().get("/api/schema/?format=json").json()
    fields = schema["components"]["schemas"]["Correct"]["properties"]
    assert {"entered_by_seat", "entry_pin"} <= set(fields)
    for field in ("entered_by_seat", "entry_pin"):
        assert "required" in fields[field]["description"] and "director" in fields[field]["description"]
