"""Roster files as spreadsheets save them (docs/director-guide.md, "Roster"): UTF-8 with or without BOM, Shift-JIS from
Japanese Excel, semicolons and tabs; a bad header names the line; a name in two teams is
flagged; a roster that cannot fill the groups is refused at import with the choices, and the
new-event form keeps the chosen file after an error and lists errors at the top."""

import csv
import io

import pytest
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from factories import team_roster
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.models import Event
from tournament.roster import (
    RosterEntry,
    RosterError,
    parse_roster,
    read_roster,
    roster_warnings,
)
from tournament.services import SetupError, create_event, import_roster

JAPANESE = "チーム,選手\n東京,山田太郎\n東京,佐藤花子\n大阪,鈴木一郎\n大阪,高橋二郎\n"
EXPECTED_JA = [RosterEntry("東京", "山田太郎"), RosterEntry("東京", "佐藤花子"),
               RosterEntry("大阪", "鈴木一郎"), RosterEntry("大阪", "高橋二郎")]


def test_utf8_without_and_with_bom_read_the_same():
    text = "team,player\nEast,Aiko\nEast,Ben\n"
    assert read_roster(text.encode("utf-8")).text == text
    assert parse_roster(read_roster(b"\xef\xbb\xbf" + text.encode("utf-8")).text) == [RosterEntry("East", "Aiko"), RosterEntry("East", "Ben")]


def test_shift_jis_bytes_with_japanese_headers_and_names():
    data = JAPANESE.encode("shift_jis")
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")  # the file really is not UTF-8
    assert parse_roster(read_roster(data).text) == EXPECTED_JA


def test_cp932_characters_beyond_shift_jis_are_read():
    # NEC/IBM extensions Excel writes in cp932: circled digits, the tilde-like wave dash of Windows.
    text = "チーム,氏名\n①組,髙橋\n"
    assert parse_roster(read_roster(text.encode("cp932")).text) == [RosterEntry("①組", "髙橋")]


def test_semicolons_and_tabs_as_separators():
    assert parse_roster("Team;Player\nNord;Anna\nNord;Jörg\n") == [RosterEntry("Nord", "Anna"), RosterEntry("Nord", "Jörg")]
    assert parse_roster("team\tplayer\nA\tX, Jr\nA\tY\n") == [RosterEntry("A", "X, Jr"), RosterEntry("A", "Y")]


def test_headers_in_any_case_and_japanese_alternatives():
    assert parse_roster("TEAM,Name\nT,P\n") == [RosterEntry("T", "P")]
    assert parse_roster("名前\n山田\n") == [RosterEntry("", "山田")]


def test_a_bad_header_names_the_line_and_the_columns_found():
    with pytest.raises(RosterError) as err:
        parse_roster("\nequipe,joueur\nA,B\n")
    assert err.value.field == "roster"
    assert "line 2" in err.value.message and "equipe" in err.value.message


def test_an_empty_player_names_its_line():
    with pytest.raises(RosterError) as err:
        parse_roster("team,player\nA,B\nA,\n")
    assert "line 3" in err.value.message


def test_a_workbook_or_unreadable_bytes_say_to_save_as_csv_utf8():
    with pytest.raises(RosterError) as err:
        read_roster(b"PK\x03\x04\x00\x00binary")
    assert "CSV UTF-8" in err.value.message


def test_a_player_name_in_two_teams_is_warned_naming_both_teams():
    entries = parse_roster("team,player\nRed,Li Wei\nRed,B\nBlue,Li Wei\nBlue,C\n")
    warnings = roster_warnings(entries)
    assert len(warnings) == 1 and "Li Wei" in warnings[0] and "Red" in warnings[0] and "Blue" in warnings[0]
    assert roster_warnings(parse_roster("team,player\nRed,A\nBlue,B\n")) == []


NAMES = st.text(alphabet=st.sampled_from("AbcXyz éü東京山田花子一郎ー・-'"), min_size=1, max_size=8).map(str.strip).filter(bool)


@settings(max_examples=60, deadline=None)
@given(rows=st.lists(st.tuples(NAMES, NAMES), min_size=1, max_size=12, unique=True),
       delimiter=st.sampled_from([",", ";", "\t"]), encoding=st.sampled_from(["utf-8", "utf-8-sig", "cp932"]))
def test_property_what_a_spreadsheet_writes_is_read_back(rows, delimiter, encoding):
    """Whatever names, separator and encoding (ones a spreadsheet writes): the entries come back
    as written, by an independent writer (the csv module quoting as Excel does)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator="\r\n")
    writer.writerow(["team", "player"])
    writer.writerows(rows)
    try:
        data = buffer.getvalue().encode(encoding)
    except UnicodeEncodeError:
        data = buffer.getvalue().encode("utf-8")  # é/ü have no cp932 form: such a file is saved as UTF-8
    assert parse_roster(read_roster(data).text) == [RosterEntry(t, p) for t, p in rows]


# --- import into an event ------------------------------------------------------------------------


@pytest.mark.django_db
def test_thirty_teams_as_is_are_refused_at_import_with_the_choices():
    event = create_event(name="Thirty", slug="thirty", sessions=2)
    with pytest.raises(SetupError) as err:
        import_roster(event, team_roster(30))
    assert err.value.field == "entrant_policy"
    message = err.value.message
    assert "30" in message and "substitutes" in message and "sit-out-average" in message and "sit-out-datum" in message
    assert not event.players.exists() and not event.teams.exists()


@pytest.mark.django_db
def test_thirty_teams_are_imported_once_a_policy_is_chosen():
    event = create_event(name="Thirty", slug="thirty", sessions=2, entrant_policy=Event.EntrantPolicy.SUBSTITUTES)
    assert import_roster(event, team_roster(30)) == 120


# --- the new-event form --------------------------------------------------------------------------

BASE = {
    "name": "Spring Cup", "slug": "spring", "ruleset": "mcr-duplicate", "method": "team", "conversion": "wbf-imp",
    "sessions": 2, "datum_method": "average", "comparison": "group", "entrant_policy": "as-is",
}


def _shift_jis_roster(teams: int) -> bytes:
    lines = ["チーム,選手"] + [f"チーム{t},選手{t}-{m}" for t in range(1, teams + 1) for m in range(1, 5)]
    return ("\r\n".join(lines) + "\r\n").encode("shift_jis")


def test_form_keeps_the_roster_after_an_error_and_lists_errors_at_the_top(client, organiser):
    upload = SimpleUploadedFile("参加者.csv", _shift_jis_roster(30), content_type="text/csv")
    response = client.post(reverse("new-event"), {**BASE, "roster": upload})
    assert response.status_code == 200
    page = response.content.decode()
    top = page[page.index('id="form-errors"'):]
    assert 'class="errorlist"' in top[:2000] and "sit-out-average" in top[:2000]
    assert "Roster kept: 参加者.csv" in page
    kept = response.context["form"]["roster_text"].value()
    assert "チーム30,選手30-4" in kept
    assert 'for="id_roster">Roster file (CSV: team,player)</label>' in page
    assert not Event.objects.exists()
    # Posted again with a policy chosen and no file: the kept roster is used.
    response = client.post(reverse("new-event"), {**BASE, "entrant_policy": "substitutes", "roster_text": kept,
                                                 "roster_name": "参加者.csv"})
    assert response.status_code == 302
    event = Event.objects.get(slug="spring")
    assert event.teams.count() == 30 and event.teams.filter(name="チーム7").exists()
    assert event.status == Event.Status.DRAFT
    assert event.base_url == "http://testserver/"


def test_form_takes_the_public_address_given(client, organiser):
    response = client.post(reverse("new-event"), {**BASE, "base_url": "https://mahjong.example.org/",
                                                 "roster": SimpleUploadedFile("r.csv", team_roster(4).encode())})
    assert response.status_code == 302
    assert Event.objects.get(slug="spring").base_url == "https://mahjong.example.org/"


def test_form_warns_of_a_name_in_two_teams_after_creation(client, organiser):
    text = team_roster(4).replace("Team 2 player 0", "Team 1 player 0")
    response = client.post(reverse("new-event"), {**BASE, "roster": SimpleUploadedFile("r.csv", text.encode("utf-8-sig"))})
    assert response.status_code == 302
    warnings = [str(m) for m in get_messages(response.wsgi_request) if m.level_tag == "warning"]
    assert len(warnings) == 1 and "Team 1 player 0" in warnings[0] and "Team 1" in warnings[0] and "Team 2" in warnings[0]
    page = client.get(reverse("entrants", kwargs={"slug": "spring"})).content.decode()
    assert 'id="roster-warnings"' in page and "Team 1 player 0" in page


def test_form_reports_an_unreadable_file_on_the_roster_field(client, organiser):
    response = client.post(reverse("new-event"), {**BASE, "roster": SimpleUploadedFile("r.xlsx", b"PK\x03\x04\x00\x00")})
    assert response.status_code == 200
    assert "CSV UTF-8" in response.context["form"].errors["roster"][0]
    assert not Event.objects.exists()
