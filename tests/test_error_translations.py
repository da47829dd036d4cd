"""Errors that players and directors see come in their language (English, Japanese, Simplified
Chinese): the real services are called with bad input under ``translation.override`` and the
raised message must be the catalogue's translation (not the English sentence); through the API
and the director's pages the request's Accept-Language picks the language."""

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape
from rest_framework.test import APIClient

from scoring.conversion import ConversionTable, ConversionTableError
from scoring.models import HandResult
from scoring.actions.confirmation import confirm_result, correct_result, dispute_result
from scoring.actions.entry import submit_result
from scoring.actions.errors import ResultError
from tournament.movement import MovementError, rotation_movement
from tournament.regrouping import RegroupError, sit_out_schedule
from tournament.services import (
    SetupError, create_event, import_roster, parse_roster, seat_session, set_public_value,
)
from walls.print_jobs import request_print
from walls.print_kinds.base import PrintError
from walls.rulesets import TILES_136, WINDS, RuleSetError, custom_ruleset
from walls.services import WallError, generate_walls
from walls.tiles import TileError, parse_counts

from factories import first_table, login_as_table, table_url, team_roster
from walls.setcode import set_code

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


# scoring/actions/ and scoring/payments.py: result entry, confirm, dispute, correct


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
    rule = translated(language, "MCR (Chinese Official)")
    east = translated(language, "East")
    assert_translated(err.value.message, language,
                      "fan must be from %(low)s to %(high)s in %(rule)s: winner %(seat)s has %(value)s; "
                      "check the count or record the hand as not won",
                      {"low": 8, "high": 400, "rule": rule, "seat": east, "value": 6})


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_fan_that_is_not_a_number_is_refused_in_the_players_language(table, first_set, language):
    """The message is translated when raised, not before (scoring.payments.core._check_int_tuple)."""
    outcome = {"kind": "discard", "winners": ["E"], "discarder": "S", "fans": ["eight"]}
    with translation.override(language), pytest.raises(ResultError) as err:
        submit_result(table, first_set, outcome=outcome, actor="scorer")
    assert err.value.field == "fans"
    assert_translated(err.value.message, language, "the fan must be a whole number, e.g. 8; got %(value)s",
                      {"value": repr("eight")})


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
    listed = translated(language, ", ").join(f"{translated(language, seat)} {value:+d}" for seat, value in CHANGES.items())
    changes = translated(language, "Score changes: %(changes)s", {"changes": listed})
    described = translated(language, "result #%(id)s (%(changes)s; %(status)s, entered by %(entered_by)s)",
                           {"id": stored.pk, "changes": changes, "status": status, "entered_by": "first scorer"})
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
        dispute_result(result, actor="x", reason=" ", director=False)
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
    result = submit_result(table, first_set, changes=CHANGES, actor="scorer", entered_by_seat="E")
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    login_as_table(client, table)
    url = reverse("table-confirm", args=[team_event.slug, table.pk, result.pk])
    response = client.post(url, {"pin": "no-pin", "revision": result.revision}, follow=True)
    page = response.content.decode()
    pin_message = translated(language,
                             "that PIN belongs to no player at this table: the confirming player types their own 4-digit PIN")
    code = set_code(1, first_set)  # the set as its label and score sheet name it
    assert translated(language, "Set %(set)s is not confirmed: %(reason)s", {"set": code, "reason": pin_message}) in page
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


# walls/rulesets/ and walls/tiles.py: a custom rule set (director, new event form)

SHORT_LAYOUT = "layout needs %(need)s tiles (%(parts)s) but the tile set has %(count)s: %(diff)s too few; shorten the draw piles or add tiles"


def short_layout_message(language: str, code: str) -> str:
    """The translated refusal of 4 hands of 13 and 4 draw piles of 22 from the 136 tiles."""
    parts = ", ".join([translated(language, "%(count)s hands of %(size)s", {"count": 4, "size": 13}),
                       translated(language, "%(count)s draw piles of %(size)s", {"count": 4, "size": 22})])
    problem = translated(language, SHORT_LAYOUT, {"need": 140, "parts": parts, "count": 136, "diff": 4})
    return translated(language, "rule set %(code)s: %(problem)s", {"code": repr(code), "problem": problem})


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_custom_rule_set_that_cannot_fill_its_layout_is_refused_in_the_directors_language(language):
    with translation.override(language), pytest.raises(RuleSetError) as err:
        custom_ruleset("short", "Short", WINDS, TILES_136, "per_seat", [13] * 4, [22] * 4,
                       rounds=4, starting_points=0, zero_sum=True, payment_rule="mcr", end_rule="as announced")
    message = str(err.value)
    assert message == short_layout_message(language, "short")
    assert CJK.search(message) and "too few" not in message and "the tile set" not in message
    assert "140" in message and "136" in message
    with translation.override(language), pytest.raises(TileError) as err:
        parse_counts("1m-9p:4")
    assert_translated(str(err.value), language, "%(item)s: a range runs inside one suit, e.g. 1m-9m:4", {"item": "'1m-9p:4'"})


def test_without_an_active_language_the_rule_set_message_stays_english():
    with translation.override("en"), pytest.raises(RuleSetError) as err:
        custom_ruleset("short", "Short", WINDS, TILES_136, "per_seat", [13] * 4, [22] * 4,
                       rounds=4, starting_points=0, zero_sum=True, payment_rule="mcr", end_rule="as announced")
    assert str(err.value) == ("rule set 'short': layout needs 140 tiles (4 hands of 13, 4 draw piles of 22) but the tile set "
                              "has 136: 4 too few; shorten the draw piles or add tiles")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_new_event_form_shows_the_rule_set_error_in_the_language_of_the_request(client, django_user_model, language):
    client.force_login(django_user_model.objects.create_user("org", password="pw-org-1", is_staff=True))
    response = client.post(reverse("new-event"), {
        "name": "Spring Cup", "slug": "spring", "ruleset": "custom", "method": "team", "conversion": "wbf-imp",
        "sessions": 2, "datum_method": "average", "comparison": "group", "entrant_policy": "as-is",
        "custom_name": "Short", "custom_seats": "E S W N", "custom_tiles": "1m-9m:4 1p-9p:4 1s-9s:4 1z-7z:4",
        "custom_layout": "per_seat", "custom_hand_sizes": "13 13 13 13", "custom_draw_sizes": "22 22 22 22",
        "custom_dead_wall": 0, "custom_rounds": 4, "custom_starting_points": 0, "custom_payment_rule": "mcr",
    }, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    assert response.context["form"].errors["custom_tiles"] == [short_layout_message(language, "spring-custom")]


# scoring/conversion.py: the director's conversion table


GAPPY_CSV = "from,to,points\n0,7,0\n8,15,1\n20,,2\n"
GAP = ("%(where)s: 'from' is %(start)s but %(previous)s ends at %(end)s, so differences %(first)s-%(last)s "
       "are not covered; set 'from' to %(first)s")


def gap_values(language: str) -> dict:
    return {"where": translated(language, "row %(row)s (CSV line %(line)s)", {"row": 3, "line": 4}), "start": 20,
            "previous": translated(language, "row %(row)s (CSV line %(line)s)", {"row": 2, "line": 3}),
            "end": 15, "first": 16, "last": 19}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_conversion_table_with_a_gap_is_refused_in_the_directors_language(language):
    with translation.override(language), pytest.raises(ConversionTableError) as err:
        ConversionTable.from_csv(GAPPY_CSV, name="Gappy")
    assert (err.value.row, err.value.field) == (3, "from")
    assert_translated(str(err.value), language, GAP, gap_values(language))
    assert "not covered" not in str(err.value)
    with translation.override(language), pytest.raises(ConversionTableError) as err:
        ConversionTable.from_rows([{"from": 0, "to": 7, "points": 0}, {"from": 8, "to": None, "points": -1}], name="Negative")
    assert_translated(str(err.value), language,
                      "%(where)s: '%(field)s' must not be negative, got %(value)s; differences are looked up by absolute "
                      "value, so give the size only",
                      {"where": translated(language, "row %(row)s", {"row": 2}), "field": "points", "value": -1})


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_conversion_editor_shows_the_refusal_in_the_language_of_the_request(team_event, director, language):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(director)
    response = client.post(reverse("conversion", args=[team_event.slug]), {"name": "Gappy", "csv_text": GAPPY_CSV})
    assert response.status_code == 400
    page = response.content.decode()
    assert escape(translated(language, GAP, gap_values(language))) in page
    assert "not covered" not in page


# tournament/movement.py and tournament/regrouping.py: seating (director)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_movement_that_cannot_rotate_is_refused_in_the_directors_language(language):
    with translation.override(language), pytest.raises(MovementError) as err:
        rotation_movement(4, 18)
    assert_translated(str(err.value), language,
                      "sets per session (%(sets)s) must be a multiple of the %(tables)s tables of a group, so each table "
                      "plays the same number of sets between moves: use %(lower)s or %(upper)s sets per session",
                      {"sets": 18, "tables": 4, "lower": 16, "upper": 20})
    with translation.override(language), pytest.raises(MovementError) as err:
        rotation_movement(0, 16)
    assert_translated(str(err.value), language, "%(field)s must be a whole number of at least %(minimum)s, got %(value)s",
                      {"field": translated(language, "tables per group"), "minimum": 1, "value": 0})


@pytest.mark.parametrize("language", LANGUAGES)
def test_too_few_entrants_for_a_group_are_refused_in_the_directors_language(language):
    with translation.override(language), pytest.raises(RegroupError) as err:
        sit_out_schedule(3, 4, 2)
    assert_translated(str(err.value), language, "%(entrants)s entrants cannot fill a group of %(size)s: add %(missing)s substitutes",
                      {"entrants": 3, "size": 4, "missing": 1})


@pytest.mark.parametrize("language", LANGUAGES)
def test_entrants_not_filling_the_groups_get_the_options_in_the_directors_language(db, language):
    event = create_event(name="Fifteen", slug="fifteen", sessions=3)
    with translation.override(language), pytest.raises(SetupError) as err:
        import_roster(event, team_roster(15))  # refused at import, before the day (docs/director-guide.md, "Roster")
    assert err.value.field == "entrant_policy"
    rotation = translated(language, "%(count)s entrant(s) sit out each session in turn; all have sat out equally after "
                                    "%(cycle)s sessions", {"count": 3, "cycle": 5})
    options = [
        ("substitutes", translated(language, "add %(extra)s substitute(s) to make %(groups)s full groups of %(size)s",
                                   {"extra": 1, "groups": 4, "size": 4}),
         translated(language, "substitutes play and count in the datum, but are not ranked")),
        ("sit-out-average", rotation,
         translated(language, "a sit-out session scores the entrant's average converted score of the sessions played")),
        ("sit-out-datum", rotation, translated(language, "a sit-out session scores 0 (the datum)")),
    ]
    listed = "; ".join(translated(language, "%(kind)s: %(description)s (%(scoring)s)",
                                  {"kind": kind, "description": description, "scoring": scoring})
                       for kind, description, scoring in options)
    assert_translated(err.value.message, language,
                      "%(entrants)s entrants do not fill groups of %(size)s. Choose what to do in the event's "
                      "'when entrants do not fill the groups' setting. Options: %(options)s",
                      {"entrants": 15, "size": 4, "options": listed})
    assert "sit out each session" not in err.value.message and "not ranked" not in err.value.message
    assert not event.sessions.exists() and not event.players.exists()


# Permission and log-in texts


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_api_refuses_a_user_without_a_role_in_the_language_of_the_request(team_event, table, first_set, django_user_model, language):
    api = APIClient()
    api.force_authenticate(django_user_model.objects.create_user("visitor", password="pw-visitor-1"))
    body = {"table": table.number, "set_no": first_set, "changes": CHANGES}
    response = api.post(f"/api/events/{team_event.slug}/results/", body, format="json", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 403
    assert_translated(response.json()["detail"], language,
                      "only the director and scorers of this event enter, confirm, correct or dispute results")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_table_page_asks_for_its_code_with_the_table_number_in_the_players_language(team_event, table, language):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    response = client.get(table_url(table), follow=True)
    page = response.content.decode()
    assert escape(translated(language, "Log in with the code of Table %(number)s, printed on its score sheet.",
                             {"number": table.number})) in page
    assert f"Table {table.number}" not in page


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_refused_page_shows_why_in_the_visitors_language(team_event, django_user_model, language):
    stranger = django_user_model.objects.create_user("stranger", password="pw-stranger-1")
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(stranger)
    response = client.get(reverse("conversion", args=[team_event.slug]))
    assert response.status_code == 403
    page = response.content.decode()
    assert translated(language, "only the event's director edits the conversion table") in page
    assert translated(language, "Not allowed") in page
    assert "stranger" in page  # who is logged in, with a way to log in as someone else
    assert "edits the conversion table" not in page


@pytest.mark.django_db
def test_preparing_a_session_whose_walls_fail_leaves_it_unseated(team_event, director, monkeypatch):
    import tournament.services

    def failing_walls(event, number):
        raise WallError("seed", "the master seed could not be read")

    monkeypatch.setattr(tournament.services, "generate_walls", failing_walls)
    client = Client()
    client.force_login(director)
    response = client.post(reverse("prepare-session", args=[team_event.slug]), {"session": 2}, follow=True)
    assert "the master seed could not be read" in response.content.decode()
    assert not team_event.sessions.filter(number=2).exists()  # seating rolled back with the walls
    assert team_event.sessions.filter(number=1).exists()  # what was stored before is kept


@pytest.mark.parametrize("language", ("en", *LANGUAGES))
def test_the_directors_session_counts_use_the_languages_plural_forms(team_event, director, language):
    from django.utils.translation import ngettext

    table = first_table(team_event)
    submit_result(table, 1, changes={"E": 48, "S": -16, "W": -16, "N": -16}, actor="t")
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(director)
    page = client.get(reverse("director", args=[team_event.slug])).content.decode()
    with translation.override(language):
        one = ngettext("%(e)s result entered", "%(e)s results entered", 1) % {"e": 1}
        sixteen = ngettext("%(w)s wall set", "%(w)s wall sets", 16) % {"w": 16}
    assert escape(one) in page and escape(sixteen) in page
    if language == "en":
        assert "1 result entered" in page and "1 results entered" not in page
