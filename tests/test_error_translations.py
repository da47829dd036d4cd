"""Errors that players and directors see come in their language (English, Japanese, Simplified
Chinese): the real services are called with bad input under ``translation.override`` and the
raised message must be the catalogue's translation (not the English sentence); through the API
and the director's pages the request's Accept-Language picks the language."""

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from scoring.models import HandResult
from scoring.services import ResultError, confirm_result, correct_result, dispute_result, submit_result
from tournament.models import Table
from tournament.services import SetupError, create_event, parse_roster, seat_session, set_public_value, table_schedule
from walls.printing_jobs import PrintError, request_print
from walls.services import WallError, generate_walls

pytestmark = pytest.mark.django_db

LANGUAGES = ("ja", "zh-hans")
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff01-\uff5e]")
CHANGES = {"E": 24, "S": -8, "W": -8, "N": -8}


def translated(language: str, msgid: str, values: dict | None = None) -> str:
    """The catalogue's translation of ``msgid`` in ``language``, filled in like the services do."""
    with translation.override(language):
        text = translation.gettext(msgid)
    assert text != msgid, f"{msgid!r} has no {language} translation"
    return text % values if values is not None else text


def assert_translated(message: str, language: str, msgid: str, values: dict | None = None) -> None:
    assert message == translated(language, msgid, values)
    assert CJK.search(message), message
    english = msgid % values if values is not None else msgid
    assert english not in message
    # No English sentence left either: at most identifiers, numbers and the examples of the notation.
    assert not re.search(r"\b(the|must|is|are|choose|give|type)\b", message), message


@pytest.fixture
def table(team_event):
    return Table.objects.filter(group__session__event=team_event).order_by("number").first()


@pytest.fixture
def first_set(table):
    return table_schedule(table)[0][1][0]


# scoring/services.py and scoring/payments.py: result entry, confirm, dispute, correct


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_score_change_sum_that_is_not_zero_is_refused_in_the_players_language(table, first_set, language):
    with translation.override(language), pytest.raises(ResultError) as err:
        submit_result(table, first_set, changes={"E": 48, "S": -16, "W": -16, "N": -15}, actor="scorer")
    assert err.value.field == "changes"
    assert_translated(err.value.message, language,
                      "the score changes sum to %(total)s but must sum to 0: lower a gain or raise a payment by %(excess)s",
                      {"total": "+1", "excess": 1})
    assert not HandResult.objects.exists()


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_set_the_table_does_not_play_is_refused_in_the_players_language(table, language):
    with translation.override(language), pytest.raises(ResultError) as err:
        submit_result(table, 17, changes=CHANGES, actor="scorer")
    assert err.value.field == "set"
    assert_translated(err.value.message, language, "set %(set)s is not played in this session: sets are 1 to %(last)s",
                      {"set": 17, "last": 16})


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_fan_below_the_minimum_is_refused_in_the_players_language(table, first_set, language):
    outcome = {"kind": "discard", "winners": ["E"], "discarder": "S", "fans": [6]}
    with translation.override(language), pytest.raises(ResultError) as err:
        submit_result(table, first_set, outcome=outcome, actor="scorer")
    assert err.value.field == "fans"
    assert_translated(err.value.message, language,
                      "fan must be at least %(min)s in MCR: winner %(seat)s has %(fan)s; check the count or record the hand as not won",
                      {"min": 8, "seat": "E", "fan": 6})


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_unreadable_winning_hand_is_refused_in_the_players_language(table, first_set, language):
    outcome = {"kind": "discard", "winners": ["E"], "discarder": "S", "fans": [8], "hand": "123456789m 11z 22z +8z"}
    with translation.override(language), pytest.raises(ResultError) as err:
        submit_result(table, first_set, outcome=outcome, actor="scorer")
    assert err.value.field == "hand"
    inner = translated(language, "%(digit)sz in %(token)s is not an honour: honours are 1z to 7z (East to Red)",
                       {"digit": "8", "token": "'+8z'"})
    assert_translated(err.value.message, language, "%(error)s; example: 123456789m 11z 22z +1z", {"error": inner})


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_duplicate_entry_names_the_stored_result_in_the_players_language(table, first_set, language):
    stored = submit_result(table, first_set, changes=CHANGES, actor="first scorer")
    with translation.override(language), pytest.raises(ResultError) as err:
        submit_result(table, first_set, changes=CHANGES, actor="second scorer")
    assert err.value.status == 409 and err.value.existing == stored
    with translation.override(language):
        status = str(stored.get_status_display()).lower()
    described = translated(language, "result #%(id)s (%(changes)s; %(status)s, entered by %(entered_by)s)",
                           {"id": stored.pk, "changes": "E +24, S -8, W -8, N -8", "status": status, "entered_by": "first scorer"})
    assert_translated(err.value.message, language,
                      "Table %(table)s already has %(result)s for set %(set)s: check it and confirm it, or dispute it",
                      {"table": table.number, "result": described, "set": first_set})


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_wrong_pin_is_refused_in_the_players_language(table, first_set, language):
    result = submit_result(table, first_set, changes=CHANGES, actor="scorer")
    with translation.override(language), pytest.raises(ResultError) as err:
        confirm_result(result, actor="x", pin="no-pin")
    assert err.value.field == "pin"
    assert_translated(err.value.message, language,
                      "that PIN belongs to no player at this table: the confirming player types their own 4-digit PIN")


@pytest.mark.parametrize("language", LANGUAGES)
def test_confirming_twice_and_correcting_a_confirmed_result_are_refused_in_the_players_language(table, first_set, language):
    result = confirm_result(submit_result(table, first_set, changes=CHANGES, actor="scorer"), actor="director", director=True)
    with translation.override(language), pytest.raises(ResultError) as err:
        confirm_result(result, actor="x", pin=table.seats.get(seat="S").player.pin)
    assert err.value.status == 409
    assert_translated(err.value.message, language, "this result was already confirmed by %(who)s", {"who": "director"})
    with translation.override(language), pytest.raises(ResultError) as err:
        correct_result(result, actor="scorer", reason="typo", director=False, changes=CHANGES)
    assert err.value.status == 403
    assert_translated(err.value.message, language, "this result is confirmed: only the director can correct it now")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_dispute_without_a_reason_is_refused_in_the_players_language(table, first_set, language):
    result = submit_result(table, first_set, changes=CHANGES, actor="scorer")
    with translation.override(language), pytest.raises(ResultError) as err:
        dispute_result(result, actor="x", reason=" ")
    assert_translated(err.value.message, language, "say what is disputed")


def test_without_an_active_language_the_messages_stay_english(table, first_set):
    with translation.override("en"), pytest.raises(ResultError) as err:
        submit_result(table, first_set, changes={"E": 48, "S": -16, "W": -16, "N": -15}, actor="scorer")
    assert err.value.message == "the score changes sum to +1 but must sum to 0: lower a gain or raise a payment by 1"


# walls/: print jobs and wall generation (staff)


@pytest.mark.parametrize("language", LANGUAGES)
def test_printing_a_session_without_walls_is_refused_in_the_directors_language(team_event, language):
    with translation.override(language), pytest.raises(PrintError) as err:
        request_print(team_event, "stickers", {"session": 2})
    assert err.value.field == "session"
    assert_translated(err.value.message, language, "session %(session)s has no walls yet: generate them first", {"session": 2})
    with translation.override(language), pytest.raises(PrintError) as err:
        request_print(team_event, "posters", {"session": 1})
    assert err.value.field == "kind"
    assert CJK.search(err.value.message) and "unknown print kind" not in err.value.message


@pytest.mark.parametrize("language", LANGUAGES)
def test_generating_walls_for_a_session_out_of_range_is_refused_in_the_directors_language(team_event, language):
    with translation.override(language), pytest.raises(WallError) as err:
        generate_walls(team_event, 9)
    assert_translated(err.value.message, language, "session must be 1 to %(last)s", {"last": 5})


# tournament/services.py: event set-up (director)


@pytest.mark.parametrize("language", LANGUAGES)
def test_set_up_errors_are_in_the_directors_language(team_event, language):
    with translation.override(language), pytest.raises(SetupError) as err:
        seat_session(team_event, 1)
    assert err.value.field == "session"
    assert_translated(err.value.message, language, "session %(session)s is already seated", {"session": 1})
    with translation.override(language), pytest.raises(SetupError) as err:
        parse_roster("team,player\nEast Wind,Aiko\nEast Wind,Aiko\n")
    assert_translated(err.value.message, language, "line %(line)s: %(player)s of %(team)s appears twice",
                      {"line": 3, "player": "'Aiko'", "team": "East Wind"})
    with translation.override(language), pytest.raises(SetupError) as err:
        create_event(name="Test Cup", slug="test-cup")
    assert_translated(err.value.message, language, "an event called %(slug)s exists already: choose another short name",
                      {"slug": "'test-cup'"})
    with translation.override(language), pytest.raises(SetupError) as err:
        set_public_value(team_event, "42")
    assert_translated(err.value.message, language, "this event announced no public value to mix in")


# Through HTTP: the request's language, picked by LocaleMiddleware from Accept-Language


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_api_answers_a_bad_result_in_the_language_of_the_request(team_event, director, table, first_set, language):
    api = APIClient()
    api.force_authenticate(director)
    body = {"table": table.number, "set_no": first_set, "changes": {"E": 48, "S": -16, "W": -16, "N": -15}}
    response = api.post(f"/api/events/{team_event.slug}/results/", body, format="json", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 400
    [message] = response.json()["changes"]
    assert_translated(message, language,
                      "the score changes sum to %(total)s but must sum to 0: lower a gain or raise a payment by %(excess)s",
                      {"total": "+1", "excess": 1})
    response = api.post(f"/api/events/{team_event.slug}/results/", {**body, "table": 99}, format="json",
                        HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 400
    assert_translated(response.json()["table"][0], language,
                      "no table %(number)s in session %(session)s: it has tables %(first)s to %(last)s",
                      {"number": "99", "session": 1, "first": 1, "last": 16})
    assert not HandResult.objects.exists()


def test_the_api_answers_in_english_without_accept_language(team_event, director, table, first_set):
    api = APIClient()
    api.force_authenticate(director)
    body = {"table": table.number, "set_no": first_set, "changes": {"E": 48, "S": -16, "W": -16, "N": -15}}
    response = api.post(f"/api/events/{team_event.slug}/results/", body, format="json")
    assert response.json() == {"changes": ["the score changes sum to +1 but must sum to 0: lower a gain or raise a payment by 1"]}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_table_page_shows_a_wrong_pin_in_the_players_language(team_event, table, first_set, language):
    result = submit_result(table, first_set, changes=CHANGES, actor="scorer")
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.get(reverse("table-login-code", args=[table.login_code]))
    url = reverse("table-confirm", args=[team_event.slug, table.pk, result.pk])
    response = client.post(url, {"pin": "no-pin", "revision": result.revision}, follow=True)
    page = response.content.decode()
    pin_message = translated(language,
                             "that PIN belongs to no player at this table: the confirming player types their own 4-digit PIN")
    assert translated(language, "Set %(set)s is not confirmed: %(reason)s", {"set": first_set, "reason": pin_message}) in page
    assert "that PIN belongs to no player" not in page


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_directors_flash_messages_are_in_the_directors_language(team_event, director, language):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(director)
    response = client.post(reverse("prepare-session", args=[team_event.slug]), {"session": 1}, follow=True)
    page = response.content.decode()
    assert translated(language, "session %(session)s is already seated", {"session": 1}) in page
    assert "already seated" not in page
    response = client.post(reverse("prepare-session", args=[team_event.slug]), {"session": ""}, follow=True)
    assert translated(language, "choose the session to prepare") in response.content.decode()


def test_a_print_request_for_a_session_without_walls_flashes_the_directors_language(team_event, director):
    client = Client(HTTP_ACCEPT_LANGUAGE="ja")
    client.force_login(director)
    response = client.post(reverse("print-request", args=[team_event.slug]), {"kind": "stickers", "session": 2}, follow=True)
    assert translated("ja", "session %(session)s has no walls yet: generate them first", {"session": 2}) in response.content.decode()
