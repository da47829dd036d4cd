"""The federation results file (docs/scoring.md, "The federation results file"): the pure writer
and reader of scoring/federation.py, and the download /e/<slug>/results/federation.csv built from
the public standings."""

from __future__ import annotations

import csv
import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.federation import COLUMNS, FORMULA_STARTS, FederationFileError, ResultRow, read_results, write_results

# Text as names come: any printable character (commas, quotes, CJK, apostrophes, leading '=' or
# '+'), line breaks too; no surrogates (not UTF-8) and no NUL.
_TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=30)
_SPICY = st.sampled_from(["=1+2", "+81 Tanaka", "-Lee", "@SUM(A1)", "'quoted", "''", "Müller, Jan", 'Ann "Ace" Bo',
                          "山田 太郎", "王小明", "\tTab", "\rCR", "line\nbreak", ""])
_NAMES = st.one_of(_TEXT, _SPICY, st.builds(lambda a, b: a + b, _SPICY, _TEXT))
_COUNTRY = st.one_of(st.just(""), st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=3, max_size=3))
_ROWS = st.lists(st.builds(ResultRow, place=st.integers(1, 10_000), name=_NAMES, country=_COUNTRY,
                           score=st.integers(-10**6, 10**6), sets=st.integers(0, 10_000), team=_NAMES, venue=_NAMES),
                 max_size=12)


@given(_ROWS)
def test_write_then_read_gives_the_same_rows(rows):
    text = write_results(rows)
    assert read_results(text) == rows
    assert read_results(text.encode("utf-8").decode("utf-8-sig")) == rows
    assert read_results("\ufeff" + text) == rows  # as a spreadsheet saves "CSV UTF-8"


@given(_ROWS)
def test_no_text_cell_reads_as_a_formula(rows):
    records = list(csv.reader(io.StringIO(write_results(rows), newline="")))
    assert tuple(records[0]) == COLUMNS
    for record in records[1:]:
        for column, cell in zip(COLUMNS, record, strict=True):
            if column in ("name", "team", "venue"):
                assert not cell.startswith(FORMULA_STARTS)


def test_the_formula_starts_are_the_standings_csvs():
    from scoring.reports.spreadsheets import FORMULA_STARTS as STANDINGS

    assert FORMULA_STARTS == STANDINGS


def test_the_file_as_documented():
    rows = [ResultRow(1, "=Yamada, Taro", "JPN", 42, 16, "Team 'A'", "Osaka"), ResultRow(2, "王小明", "", -7, 16)]
    assert write_results(rows) == ("place,name,country,score,sets,team,venue\r\n"
                                   "1,\"'=Yamada, Taro\",JPN,42,16,Team 'A',Osaka\r\n"
                                   "2,王小明,,-7,16,,\r\n")


HEADER = ",".join(COLUMNS) + "\n"


@pytest.mark.parametrize(("text", "line", "column", "fix"), [
    ("", 1, "place", "header"),
    ("place,name,country,score,sets,team\n", 1, "venue", "header"),
    ("place,player,country,score,sets,team,venue\n", 1, "name", "header"),
    (HEADER + "1,Ann,JPN,3,4,,\nx,Bo,JPN,3,4,,\n", 3, "place", "whole number"),
    (HEADER + "0,Ann,JPN,3,4,,\n", 2, "place", "1 or more"),
    (HEADER + "1,Ann,JPN,3.5,4,,\n", 2, "score", "whole number"),
    (HEADER + "1,Ann,JPN,3,-1,,\n", 2, "sets", "0 or more"),
    (HEADER + "1,Ann,Japan,3,4,,\n", 2, "country", "three capital letters"),
    (HEADER + "1,Ann,jpn,3,4,,\n", 2, "country", "three capital letters"),
    (HEADER + "1,Ann,JPN,3\n", 2, "sets", "one cell per column"),
    (HEADER + '1,"Ann\nBo",JPN,3,4,,\n1,Cy,JPN,3,4,,,extra\n', 4, "venue", "one cell per column"),
])
def test_a_bad_file_is_refused_naming_the_line_the_column_and_the_fix(text, line, column, fix):
    with pytest.raises(FederationFileError) as raised:
        read_results(text)
    assert raised.value.field == "federation"
    assert f"line {line}" in raised.value.message
    assert f"'{column}'" in raised.value.message
    assert fix in raised.value.message


def test_an_empty_line_is_skipped():
    assert read_results(HEADER + "\n1,Ann,JPN,3,4,,\n\n") == [ResultRow(1, "Ann", "JPN", 3, 4)]


# The download /e/<slug>/results/federation.csv ----------------------------------------------


def _download(event, client=None) -> str:
    from django.test import Client
    from django.urls import reverse

    response = (client or Client()).get(reverse("federation-csv", args=[event.slug]))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert f'filename="{event.slug}-federation.csv"' in response["Content-Disposition"]
    return response.content.decode("utf-8")


def _public_standings(event) -> list[dict]:
    from scoring.reports import event_standings

    return [row for row in event_standings(event, public=True) if row["rank"] is not None]


@pytest.mark.django_db
def test_a_team_events_file_has_each_player_with_the_teams_public_place_and_score(half_played, director):
    from django.test import Client

    from tournament.models import Player

    Player.objects.filter(event=half_played, team__number=1).update(country="JPN")
    director_client = Client()
    director_client.force_login(director)
    rows = read_results(_download(half_played))
    assert read_results(_download(half_played, director_client)) == rows  # the public file for everyone
    standings = _public_standings(half_played)
    assert standings and rows
    expected = []
    for row in standings:
        team = half_played.teams.get(pk=row["key"])
        for player in team.players.filter(withdrawn=False).order_by("member", "number"):
            expected.append((row["rank"], player.name, team.name, row["points"], row["sets_played"]))
    assert [(r.place, r.name, r.team, r.score, r.sets) for r in rows] == expected
    assert {r.country for r in rows if r.team == half_played.teams.get(number=1).name} == {"JPN"}
    assert {r.country for r in rows if r.team != half_played.teams.get(number=1).name} == {""}
    assert {r.venue for r in rows} == {""}  # one place


@pytest.mark.django_db
def test_the_file_says_nothing_about_a_set_still_in_play(half_played):
    from django.core.cache import cache

    from scoring.actions.rescoring import rescore_set
    from scoring.models import HandResult, SetScore
    from scoring.reports import event_standings

    before = _download(half_played)
    secret = HandResult.objects.filter(event=half_played, session_number=2, status=HandResult.Status.CONFIRMED).first()
    scores = SetScore.objects.filter(event=half_played, session_number=2, set_no=secret.set_no)
    assert scores.exists()  # scored in its group, not released
    every = event_standings(half_played, public=False)
    # a result of a set not yet released changes, and its converted scores with it
    HandResult.objects.filter(pk=secret.pk).update(changes={seat: -change for seat, change in secret.changes.items()})
    rescore_set(half_played, 2, secret.set_no)
    assert event_standings(half_played, public=False) != every  # the director's view moved
    cache.clear()
    assert _download(half_played) == before


@pytest.mark.django_db
def test_an_individual_events_file_ranks_players_with_their_country_and_venue(director):
    import random

    from tests.factories import individual_roster, play_slots, prepared_event
    from tournament.models import Event, Venue

    event = prepared_event(individual_roster(16), name="Solo", slug="solo-federation", method=Event.Method.INDIVIDUAL)
    play_slots(event, random.Random(5))
    osaka = Venue.objects.create(event=event, number=1, code="osaka", name="Osaka, Umeda")
    Venue.objects.create(event=event, number=2, code="lyon", name="=Lyon")
    event.players.filter(number=1).update(country="FRA", name="=Dupont, \"Jo\"", venue=osaka)
    text = _download(event)
    assert "\"'=Dupont, \"\"Jo\"\"\"" in text  # neutralised against formula injection
    rows = read_results(text)
    standings = _public_standings(event)
    assert len(rows) == len(standings) == 16 and any(r.sets for r in rows)
    assert [(r.place, r.score, r.sets) for r in rows] == [(s["rank"], s["points"], s["sets_played"]) for s in standings]
    assert [r.name for r in rows] == [s["name"] for s in standings]
    first = next(r for r in rows if r.name == '=Dupont, "Jo"')
    assert (first.country, first.venue, first.team) == ("FRA", "Osaka, Umeda", "")
    assert {r.venue for r in rows if r is not first} == {""}  # players of no venue


@pytest.mark.parametrize(("language", "words"), [("ja", "行目"), ("zh-hans", "第 2 行")])
def test_the_readers_errors_come_in_the_directors_language(language, words):
    from django.utils import translation

    with translation.override(language), pytest.raises(FederationFileError) as raised:
        read_results(HEADER + "1,Ann,jpn,3,4,,\n")
    assert words in raised.value.message and "ISO 3166" in raised.value.message
    assert "write three capital letters" not in raised.value.message
