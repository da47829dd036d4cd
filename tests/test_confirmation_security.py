"""docs/security.md, "Entering and confirming at the table": opponent confirmation cannot be guessed or self-given.

Wrong PINs are counted per device and table (issue 44, item 2): a device with 5 wrong PINs waits
30 s after its last one, doubling with each further one; once the table has 10 from all devices,
every device that never typed a right PIN there waits too, but the table's own phone does not, so
someone holding the table's code cannot lock its players out. Every checked PIN is stored, the
refused ones too, with its device and address; the director sees who tried, clears the counts
(audited) and the next right PIN confirms; the entering seat's PIN never confirms; the table page
refuses to save without the entering seat. The player entering types their own PIN with their
seat, so nobody names another seat as the entering one to confirm their own result; wrong entry
PINs count towards the table's limit; a confirmation without a PIN is refused and stores nothing.
Item 9: a scorer role acts only at its own tables, and only the director reopens a confirmed
result.
"""

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from scoring.models import ConfirmationAttempt, HandResult
from scoring.actions.confirmation import confirm_result, dispute_result, unlock_confirmation
from scoring.actions.entry import submit_result
from scoring.actions.errors import ResultError
from scoring.actions.seats import Device, pin_counts
from tournament.models import AuditEntry, Table
from factories import blocks

from factories import entering, first_set, login_as_table, pin, table_url
from walls.setcode import set_code

pytestmark = pytest.mark.django_db

CHANGES = {"E": 24, "S": -8, "W": -8, "N": -8}


def wrong_pin(table):
    """A 4-digit PIN that no player at ``table`` has."""
    taken = set(table.seats.values_list("player__pin", flat=True))
    return next(f"{n:04d}" for n in range(10000) if f"{n:04d}" not in taken)


def enter(table, slot_index=0, seat="E"):
    return submit_result(table, blocks(table)[0][1][slot_index], changes=CHANGES, actor="scorer", entered_by_seat=seat)


PHONE = Device("phone:the-tables-own", "10.0.0.7")
STRANGER = Device("phone:a-stranger", "10.0.0.66")


def attempt(result, code, device=None):
    with pytest.raises(ResultError) as err:
        confirm_result(result, actor="scorer Table 1", pin=code, device=device)
    return err.value


def age_attempts(table, seconds):
    """Move every attempt at ``table`` ``seconds`` into the past (the clock of the waits)."""
    from datetime import timedelta

    for a in ConfirmationAttempt.objects.filter(table=table):
        ConfirmationAttempt.objects.filter(pk=a.pk).update(at=a.at - timedelta(seconds=seconds))


def test_a_device_with_five_wrong_pins_waits_and_then_its_right_pin_confirms(settings, table):
    assert settings.CONFIRM_PIN_LIMIT_PER_DEVICE == 5 and settings.CONFIRM_PIN_LIMIT_PER_TABLE == 10
    assert settings.CONFIRM_PIN_BACKOFF == 30
    result = enter(table)
    for _ in range(5):
        error = attempt(result, wrong_pin(table), PHONE)
        assert error.field == "pin" and "belongs to no player" in error.message
    error = attempt(result, pin(table, "S"), PHONE)
    assert (error.status, error.retry_after) == (429, 30)
    assert error.message == "too many wrong PINs from this phone: type the PIN again in 30 s, or ask the director to clear them"
    assert ConfirmationAttempt.objects.count() == 5  # the PIN typed while waiting is neither checked nor counted
    assert HandResult.objects.get(pk=result.pk).status == "entered"
    age_attempts(table, 31)
    assert attempt(result, wrong_pin(table), PHONE).status == 400  # checked again: the sixth wrong one
    assert attempt(result, pin(table, "S"), PHONE).retry_after == 60  # now twice as long
    age_attempts(table, 61)
    assert confirm_result(result, actor="x", pin=pin(table, "S"), device=PHONE).status == "confirmed"


def test_every_attempt_is_stored_the_refused_ones_too(table):
    result = enter(table)
    attempt(result, wrong_pin(table))
    attempt(result, pin(table, "E"))  # the entering seat: refused
    confirm_result(result, actor="scorer Table 1", pin=pin(table, "W"))
    rows = list(ConfirmationAttempt.objects.filter(result=result).values_list("ok", "seat", "cleared", "actor"))
    assert rows == [(False, "", False, "scorer Table 1"), (False, "", False, "scorer Table 1"),
                    (True, "W", False, "scorer Table 1")]
    assert HandResult.objects.get(pk=result.pk).confirmed_by.endswith("(W), Table 1")


def test_the_director_confirms_without_a_pin_and_no_attempt_is_stored(table):
    result = enter(table)
    confirm_result(result, actor="td", director=True)
    assert not ConfirmationAttempt.objects.exists()


def test_ten_wrong_pins_from_other_devices_never_lock_out_the_tables_own_phone(table):
    """Issue 44, item 2: anyone holding the table's code typed wrong PINs from many devices."""
    first, second, third = enter(table, 0), enter(table, 1), enter(table, 2)
    submit_result(table, blocks(table)[0][1][3], changes=CHANGES, actor="scorer", entered_by_seat="E",
                  entry_pin=pin(table, "E"), device=PHONE)  # the table's phone has typed a right PIN here
    for n in range(10):
        attempt((first, second)[n % 2], wrong_pin(table), Device(f"phone:stranger-{n // 2}", "10.0.0.66"))
    error = attempt(third, pin(table, "S"), STRANGER)  # a new device, the right PIN: it waits
    assert (error.status, error.retry_after) == (429, 30)
    assert "from other phones" in error.message
    assert confirm_result(third, actor="x", pin=pin(table, "S"), device=PHONE).status == "confirmed"
    other = Table.objects.filter(group__session__event=table.group.session.event).exclude(pk=table.pk).first()
    elsewhere = enter(other)
    assert confirm_result(elsewhere, actor="x", pin=pin(other, "S"), device=STRANGER).status == "confirmed"


def test_the_director_unlocks_a_result_audited_and_the_next_right_pin_confirms(table):
    result = enter(table)
    for _ in range(5):
        attempt(result, wrong_pin(table), STRANGER)
    assert attempt(result, pin(table, "S"), STRANGER).status == 429
    assert unlock_confirmation(table, result, actor="td") == 5
    entry = AuditEntry.objects.get(action="unlock-confirmation")
    assert entry.actor == "td" and entry.detail["result"] == result.pk and entry.detail["cleared"] == 5
    assert not ConfirmationAttempt.objects.filter(ok=False, cleared=False).exists()
    assert confirm_result(result, actor="x", pin=pin(table, "S"), device=STRANGER).status == "confirmed"


def test_the_director_unlocks_the_whole_table(table):
    results = [enter(table, i) for i in range(3)]
    for result in results[:2]:
        for _ in range(5):
            attempt(result, wrong_pin(table))
    unlock_confirmation(table, actor="td")
    assert AuditEntry.objects.get(action="unlock-confirmation").detail["result"] is None
    assert confirm_result(results[2], actor="x", pin=pin(table, "N")).status == "confirmed"


def test_the_entering_seats_pin_never_confirms(table):
    result = enter(table, seat="N")
    error = attempt(result, pin(table, "N"))
    assert error.field == "pin" and "seat N entered this result" in error.message
    assert HandResult.objects.get(pk=result.pk).status == "entered"


def test_without_a_recorded_seat_the_entering_players_account_is_the_entering_seat(table, django_user_model):
    west = table.seats.select_related("player").get(seat="W").player
    west.user = django_user_model.objects.create_user("west-player", password="pw-west-1")
    west.save(update_fields=["user"])
    result = submit_result(table, first_set(table), changes=CHANGES, actor="west-player")
    error = attempt(result, west.pin)
    assert "seat W entered this result" in error.message
    assert confirm_result(result, actor="x", pin=pin(table, "E")).status == "confirmed"


# The table page


def test_the_table_page_refuses_to_save_without_the_entering_seat(client, table):
    login_as_table(client, table)
    data = {"set_no": str(first_set(table)), "mode": "changes",
            **{f"seat_{seat}": str(value) for seat, value in CHANGES.items()}}
    response = client.post(table_url(table), data)
    assert response.status_code == 400
    assert list(response.context["form"].errors) == ["entered_by_seat", "entry_pin"]
    assert 'data-field="entered_by_seat"' in response.content.decode()
    assert not HandResult.objects.exists()
    page = client.get(table_url(table)).content.decode()
    for seat in table.seats.select_related("player"):
        assert f'<option value="{seat.seat}">{seat.seat} — {seat.player.name}</option>' in page
    saved = client.post(table_url(table), {**data, **entering(table, "S")})
    assert saved.status_code == 302
    assert HandResult.objects.get().outcome["entered_by_seat"] == "S"


def test_the_director_may_enter_on_the_table_page_as_no_seat(client, director, table):
    client.force_login(director)
    data = {"set_no": str(first_set(table)), "mode": "changes", "entered_by_seat": "",
            **{f"seat_{seat}": str(value) for seat, value in CHANGES.items()}}
    assert client.post(table_url(table), data).status_code == 302


def test_a_waiting_phone_is_told_so_another_phone_is_not_and_the_director_sees_who_tried(client, director, table):
    result = enter(table)
    confirm_url = reverse("table-confirm", args=[table.group.session.event.slug, table.pk, result.pk])
    scorer = Client(REMOTE_ADDR="10.0.0.66")
    login_as_table(scorer, table)
    for _ in range(5):
        scorer.post(confirm_url, {"pin": wrong_pin(table), "revision": result.revision})
    page = scorer.get(table_url(table)).content.decode()
    assert 'id="table-locked"' in page and "type the PIN again in 30 s" in page
    assert f'id="pin-{result.pk}"' not in page
    other = Client()
    login_as_table(other, table)
    assert f'id="pin-{result.pk}"' in other.get(table_url(table)).content.decode()  # another phone is not held back
    assert scorer.post(confirm_url, {"action": "unlock"}).status_code == 403
    client.force_login(director)
    seen = client.get(table_url(table)).content.decode()
    assert 'id="wrong-pins"' in seen and "10.0.0.66" in seen and f"scorer {table}" in seen
    assert "Clear the wrong PINs at this table" in seen
    client.post(table_url(table), {"action": "unlock"})
    assert AuditEntry.objects.filter(action="unlock-confirmation", actor=director.username).exists()
    assert 'id="wrong-pins"' not in client.get(table_url(table)).content.decode()
    confirmed = scorer.post(confirm_url, {"pin": pin(table, "W"), "revision": result.revision}, follow=True)
    assert f"Set {set_code(1, result.set_no)} confirmed." in confirmed.content.decode()


def test_the_director_unlocks_on_the_result_page(client, director, table):
    result = enter(table)
    for _ in range(5):
        attempt(result, wrong_pin(table), STRANGER)
    client.force_login(director)
    url = reverse("result", args=[table.group.session.event.slug, result.pk])
    page = client.get(url).content.decode()
    assert 'value="unlock-table"' in page and "10.0.0.66" in page
    client.post(url, {"action": "unlock-table"})
    assert not ConfirmationAttempt.objects.filter(ok=False, cleared=False).exists()
    assert AuditEntry.objects.filter(action="unlock-confirmation").count() == 1


def test_the_table_page_confirms_with_another_seats_pin_after_wrong_ones(client, table):
    login_as_table(client, table)
    result = enter(table, seat="E")
    url = reverse("table-confirm", args=[table.group.session.event.slug, table.pk, result.pk])
    refused = client.post(url, {"pin": wrong_pin(table), "revision": result.revision}, follow=True)
    assert "belongs to no player at this table" in refused.content.decode()
    client.post(url, {"pin": pin(table, "S"), "revision": result.revision})
    assert HandResult.objects.get().status == "confirmed"
    assert ConfirmationAttempt.objects.filter(result=result).count() == 2


# The entering player's PIN: the seat chosen as "who is entering" must be the player's own


def page_entry(table, set_no=None, **who):
    """Table page form data: a typed-in result on the table's first set (or ``set_no``), plus ``who``."""
    return {"set_no": str(set_no or first_set(table)), "mode": "changes",
            **{f"seat_{seat}": str(value) for seat, value in CHANGES.items()}, **who}


def entry_attempts(table):
    return list(ConfirmationAttempt.objects.filter(table=table, result=None).values_list("ok", "seat", "actor"))


def test_e_cannot_pick_s_as_entering_without_s_pin(client, table):
    login_as_table(client, table)
    for typed in (pin(table, "E"), pin(table, "W"), wrong_pin(table)):  # E's own PIN, another player's, nobody's
        response = client.post(table_url(table), page_entry(table, entered_by_seat="S", entry_pin=typed))
        assert response.status_code == 400
        errors = response.context["form"].errors
        assert list(errors) == ["entry_pin"]
        assert errors["entry_pin"] == ["that is not the PIN of the player at seat S: the player entering types their own 4-digit PIN"]
        page = response.content.decode()
        assert 'id="err-entry_pin"' in page and 'data-field="entry_pin"' in page
        assert "value=" not in re.search(r'<input id="entry_pin"[^>]*>', page).group(0)  # the PIN typed is not sent back
    assert not HandResult.objects.exists()
    assert entry_attempts(table) == [(False, "", f"scorer {table}")] * 3
    assert pin_counts(table, None).table_wrong == 3  # counted against the table, no result
    without = client.post(table_url(table), page_entry(table, entered_by_seat="S"))
    assert without.status_code == 400 and list(without.context["form"].errors) == ["entry_pin"]
    assert not HandResult.objects.exists() and len(entry_attempts(table)) == 3  # nothing typed: no attempt


def test_after_a_refused_entry_e_enters_as_e_and_e_pin_still_never_confirms(client, table):
    login_as_table(client, table)
    client.post(table_url(table), page_entry(table, entered_by_seat="S", entry_pin=pin(table, "E")))
    saved = client.post(table_url(table), page_entry(table, **entering(table, "E")))
    assert saved.status_code == 302
    result = HandResult.objects.get()
    assert result.outcome["entered_by_seat"] == "E"
    right = ConfirmationAttempt.objects.get(ok=True)
    assert (right.table_id, right.result_id, right.seat) == (table.pk, result.pk, "E")
    url = reverse("table-confirm", args=[table.group.session.event.slug, table.pk, result.pk])
    refused = client.post(url, {"pin": pin(table, "E"), "revision": result.revision}, follow=True)
    assert "seat E entered this result" in refused.content.decode()
    assert HandResult.objects.get().status == "entered"
    client.post(url, {"pin": pin(table, "S"), "revision": result.revision})
    result.refresh_from_db()
    assert result.status == "confirmed" and result.confirmed_by.endswith("(S), Table 1")


def test_a_pin_without_the_seat_it_belongs_to_is_refused(client, director, table):
    with pytest.raises(ResultError) as err:
        submit_result(table, first_set(table), changes=CHANGES, actor="x", entry_pin=pin(table, "S"))
    assert err.value.field == "entered_by_seat"
    client.force_login(director)
    response = client.post(table_url(table), page_entry(table, entered_by_seat="", entry_pin=pin(table, "S")))
    assert response.status_code == 400 and list(response.context["form"].errors) == ["entered_by_seat"]
    assert not HandResult.objects.exists() and not ConfirmationAttempt.objects.exists()


def test_wrong_entry_pins_count_towards_the_devices_wait_and_the_director_clears_them(client, director, table):
    sets = blocks(table)[0][1]
    for _ in range(5):
        with pytest.raises(ResultError) as err:
            submit_result(table, sets[0], changes=CHANGES, actor="scorer", entered_by_seat="S", entry_pin=wrong_pin(table),
                          device=STRANGER)
        assert (err.value.field, err.value.status) == ("entry_pin", 400)
    assert pin_counts(table, STRANGER).device_wrong == 5
    with pytest.raises(ResultError) as err:  # the 6th, with S's own PIN: the device waits
        submit_result(table, sets[0], changes=CHANGES, actor="scorer", entered_by_seat="S", entry_pin=pin(table, "S"),
                      device=STRANGER)
    assert (err.value.field, err.value.status, err.value.retry_after) == ("entry_pin", 429, 30)
    assert not HandResult.objects.exists()
    assert ConfirmationAttempt.objects.filter(table=table, ok=False).count() == 5
    login_as_table(client, table)  # the table's phone: not held back by another device's wrong PINs
    assert client.post(table_url(table), page_entry(table, **entering(table, "S"))).status_code == 302
    assert HandResult.objects.get(set_no=sets[0]).outcome["entered_by_seat"] == "S"
    api = APIClient(REMOTE_ADDR="10.0.0.66")
    api.force_authenticate(director)  # the director never waits
    body = {"table": table.number, "set_no": sets[1], "changes": CHANGES, "entered_by_seat": "E"}
    assert api.post(f"/api/events/{table.group.session.event.slug}/results/", body, format="json").status_code == 201


def test_an_empty_confirmation_pin_is_refused_and_records_nothing(client, table):
    result = enter(table)
    for empty in (None, "", "   "):
        error = attempt(result, empty)
        assert (error.field, error.status, error.message) == ("pin", 400, "type your 4-digit PIN")
    login_as_table(client, table)
    url = reverse("table-confirm", args=[table.group.session.event.slug, table.pk, result.pk])
    for _ in range(12):  # more than the table's limit: empty requests lock nothing
        response = client.post(url, {"revision": result.revision}, follow=True)
    assert "type your 4-digit PIN" in response.content.decode()
    assert not ConfirmationAttempt.objects.exists()
    assert confirm_result(result, actor="x", pin=pin(table, "S")).status == "confirmed"


def test_the_entry_form_asks_the_entering_players_pin(client, team_event, table):
    login_as_table(client, table)
    url = reverse("entry", args=[team_event.slug])
    page = client.get(url).content.decode()
    assert 'type="password" name="entry_pin"' in page and 'inputmode="numeric"' in page and 'autocomplete="off"' in page
    data = {"table": table.pk, "set_no": first_set(table), **{f"seat_{s}": v for s, v in CHANGES.items()}}
    missing = client.post(url, {**data, "entered_by_seat": "S"})
    assert list(missing.context["form"].errors) == ["entry_pin"]
    refused = client.post(url, {**data, "entered_by_seat": "S", "entry_pin": pin(table, "E")})
    assert "that is not the PIN of the player at seat S" in " ".join(refused.context["form"].errors["entry_pin"])
    assert not HandResult.objects.exists() and len(entry_attempts(table)) == 1
    assert client.post(url, {**data, **entering(table, "S")}).status_code == 302
    assert HandResult.objects.get().outcome["entered_by_seat"] == "S"


def test_the_api_refuses_a_wrong_entry_pin(team_event, table, scorer_of_table_1):
    api = APIClient()
    api.force_authenticate(scorer_of_table_1)
    url = f"/api/events/{team_event.slug}/results/"
    sets = blocks(table)[0][1]
    body = {"table": table.number, "set_no": sets[0], "changes": CHANGES, "entered_by_seat": "S"}
    refused = api.post(url, {**body, "entry_pin": pin(table, "E")}, format="json")
    assert refused.status_code == 400
    assert refused.json() == {"entry_pin": ["that is not the PIN of the player at seat S: the player entering types their own 4-digit PIN"]}
    assert not HandResult.objects.exists()
    assert entry_attempts(table) == [(False, "", "scorer-t1")]
    taken = api.post(url, {**body, "entry_pin": pin(table, "S")}, format="json")
    assert taken.status_code == 201 and "entry_pin" not in taken.json()
    assert ConfirmationAttempt.objects.get(ok=True).result_id == taken.json()["id"]
    trusted = api.post(url, {**body, "set_no": sets[1]}, format="json")  # a scorer account bound to the table: no PIN needed
    assert trusted.status_code == 201


@pytest.mark.parametrize("language", ["ja", "zh-hans"])
def test_the_entry_pin_refusal_is_translated(table, language):
    with translation.override(language), pytest.raises(ResultError) as err:
        submit_result(table, first_set(table), changes=CHANGES, actor="x", entered_by_seat="S", entry_pin=wrong_pin(table))
    with translation.override(language):
        expected = translation.gettext("that is not the PIN of the player at seat %(seat)s: the player entering types their own 4-digit PIN")
    assert err.value.message == expected % {"seat": "S"} and "PIN of the player" not in err.value.message


# Roles: a scorer acts at the tables of the role only; a confirmed result reopens by the director


def test_a_scorer_role_bound_to_table_1_is_refused_at_table_2_page_and_api(client, team_event, table, scorer_of_table_1):
    other = Table.objects.filter(group__session__event=team_event).order_by("number")[1]
    client.force_login(scorer_of_table_1)
    assert client.get(table_url(table)).status_code == 200
    refused = client.get(table_url(other))
    assert refused.status_code == 302 and refused["Location"].startswith(reverse("table-login"))
    entry_page = client.get(reverse("entry", args=[team_event.slug]))
    assert list(entry_page.context["form"].fields["table"].queryset) == [table]
    api = APIClient()
    api.force_authenticate(scorer_of_table_1)
    url = f"/api/events/{team_event.slug}/results/"
    body = {"set_no": first_set(other), "changes": CHANGES, "entered_by_seat": "E"}
    assert api.post(url, {**body, "table": other.number}, format="json").status_code == 403
    assert not HandResult.objects.filter(table=other).exists()
    elsewhere = submit_result(other, first_set(other), changes=CHANGES, actor="td", entered_by_seat="E")
    for action, data in (("confirm", {"pin": pin(other, "S")}), ("dispute", {"reason": "no"}),
                         ("correct", {"changes": CHANGES, "reason": "x"})):
        assert api.post(f"{url}{elsewhere.pk}/{action}/", data, format="json").status_code in (403, 404), action
    assert HandResult.objects.get(pk=elsewhere.pk).revision == 1
    own = {"set_no": first_set(table), "changes": CHANGES, "entered_by_seat": "E", "table": table.number}
    assert api.post(url, own, format="json").status_code == 201


def test_a_confirmed_result_is_disputed_by_the_director_only(client, director, table, scorer_of_table_1):
    result = confirm_result(enter(table), actor="td", director=True)
    with pytest.raises(ResultError) as err:
        dispute_result(result, actor="scorer", reason="E says 32", director=False)
    assert err.value.status == 403 and "only the director can dispute it" in err.value.message
    scorer = Client()
    login_as_table(scorer, table)
    url = reverse("result", args=[table.group.session.event.slug, result.pk])
    page = scorer.get(url).content.decode()
    assert 'id="confirmed-note"' in page and 'name="reason"' not in page
    assert scorer.post(url, {"action": "dispute", "reason": "no"}).status_code == 403
    assert HandResult.objects.get(pk=result.pk).status == "confirmed"
    client.force_login(director)
    client.post(url, {"action": "dispute", "reason": "the director reopens it"})
    assert HandResult.objects.get(pk=result.pk).status == "disputed"


def test_the_result_page_is_for_the_tables_scorers_its_players_and_the_director(client, team_event, table, scorer_of_table_1,
                                                                                 django_user_model):
    other = Table.objects.filter(group__session__event=team_event).order_by("number")[1]
    there = submit_result(other, first_set(other), changes=CHANGES, actor="td", entered_by_seat="E")
    url = reverse("result", args=[team_event.slug, there.pk])
    client.force_login(scorer_of_table_1)
    assert client.get(url).status_code == 403
    logged = Client()
    login_as_table(logged, table)
    assert logged.get(url).status_code == 403
    own = Client()
    login_as_table(own, other)
    assert own.get(url).status_code == 200


def test_no_two_players_of_an_event_share_a_pin(monkeypatch):
    """A PIN shared at a table would let one player confirm as another: new players get a free one."""
    import tournament.models as models
    from tournament.services import create_event, import_roster

    pins = iter(["1234"] * 5 + ["5678", "1234", "9012", "3456"] * 10)
    monkeypatch.setattr(models, "_pin", lambda: next(pins))
    monkeypatch.setattr(models.Player._meta.get_field("pin"), "default", models._pin)
    event = create_event(name="Pin Cup", slug="pin-cup", entrant_policy="substitutes")
    import_roster(event, "team,player\n" + "".join(f"T{t},P{t}{m}\n" for t in range(1) for m in range(4)))
    found = list(event.players.values_list("pin", flat=True))
    assert len(set(found)) == len(found) == 4


# Issue 44, item 1: a player whose own account is a scorer of their table cannot enter as another
# seat without that seat's PIN and then confirm alone with their own PIN.

def test_a_seated_scorer_account_cannot_enter_as_another_seat_and_confirm_alone(team_event, table, scorer_of_table_1):
    sets = blocks(table)[0][1]
    east = table.seats.get(seat="E").player
    east.user = scorer_of_table_1
    east.save(update_fields=["user"])
    api = APIClient()
    api.force_authenticate(scorer_of_table_1)
    url = f"/api/events/{team_event.slug}/results/"
    body = {"table": table.number, "set_no": sets[0], "changes": CHANGES}
    posing = api.post(url, {**body, "entered_by_seat": "S"}, format="json")
    assert posing.status_code == 403, posing.content
    assert "you play at seat E of this table" in posing.json()["entered_by_seat"][0]
    assert not HandResult.objects.exists()
    # with South's own PIN it is South's entry; as themselves (named or blank) it is East's
    assert api.post(url, {**body, "entered_by_seat": "S", "entry_pin": pin(table, "S")}, format="json").status_code == 201
    own = api.post(url, {**body, "set_no": sets[1]}, format="json")
    assert own.status_code == 201 and own.json()["entered_by_seat"] == "E"
    refused = api.post(f"{url}{own.json()['id']}/confirm/", {"pin": pin(table, "E")}, format="json")
    assert refused.status_code == 400 and "seat E entered this result" in refused.json()["pin"][0]
    confirmed = api.post(f"{url}{own.json()['id']}/confirm/", {"pin": pin(table, "W")}, format="json")
    assert confirmed.status_code == 200 and confirmed.json()["status"] == "confirmed"


def test_a_scorer_seated_nowhere_at_the_table_and_the_director_still_enter_for_any_seat(team_event, table, scorer_of_table_1,
                                                                                       director):
    sets = blocks(table)[0][1]
    url = f"/api/events/{team_event.slug}/results/"
    api = APIClient()
    api.force_authenticate(scorer_of_table_1)
    assert api.post(url, {"table": table.number, "set_no": sets[0], "changes": CHANGES, "entered_by_seat": "S"},
                    format="json").status_code == 201
    api.force_authenticate(director)
    assert api.post(url, {"table": table.number, "set_no": sets[1], "changes": CHANGES, "entered_by_seat": "N"},
                    format="json").status_code == 201


def test_the_api_answers_a_waiting_account_429_with_retry_after_and_counts_per_account(team_event, table, scorer_of_table_1,
                                                                                       django_user_model):
    result = enter(table)
    url = f"/api/events/{team_event.slug}/results/{result.pk}/confirm/"
    api = APIClient()
    api.force_authenticate(scorer_of_table_1)
    for _ in range(5):
        assert api.post(url, {"pin": wrong_pin(table)}, format="json").status_code == 400
    waiting = api.post(url, {"pin": pin(table, "S")}, format="json")
    assert waiting.status_code == 429 and waiting["Retry-After"] == "30"
    assert "type the PIN again in 30 s" in waiting.json()["pin"][0]
    rows = set(ConfirmationAttempt.objects.values_list("device", "address"))
    assert rows == {(f"account:{scorer_of_table_1.pk}", "127.0.0.1")}
    second = django_user_model.objects.create_user("scorer-t1b", password="pw-scorer-2")
    from tournament.models import EventRole
    EventRole.objects.create(event=team_event, user=second, role=EventRole.Role.SCORER).tables.add(table)
    api.force_authenticate(second)  # another account: its own count
    assert api.post(url, {"pin": pin(table, "S")}, format="json").status_code == 200
