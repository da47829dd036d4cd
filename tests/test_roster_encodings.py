"""A roster whose encoding is a guess is named back to the director with a preview before
anything is stored (docs/security.md, "Threats and the tests that cover them", threat 8: a Windows-1252 roster was silently read as
Windows-1250, "Ærøskøbing" → "Ćrřskřbing"). UTF-8 and Shift-JIS with kana are imported at once;
the file is kept in the form between the preview and the confirmation."""

import base64

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tournament.models import Event, EventRole
from tournament.roster import RosterError, encoding_label, read_roster
from tests.browser.test_director_day import shift_jis_roster
from tournament.services import create_event

User = get_user_model()
TEAMS = ["Ærøskøbing", "Næstved", "Åbenrå", "Køge"]
FIRST = ["Søren", "Bjørn", "Åse", "Mette"]
DANISH = "team,player\r\n" + "".join(f"{team},{first} {team[:3]}\r\n" for team in TEAMS for first in FIRST)
CP1252 = DANISH.encode("cp1252")


# --- the reading ----------------------------------------------------------------------------------


def test_utf8_and_shift_jis_with_kana_are_certain():
    assert read_roster(DANISH.encode("utf-8")).guessed is False
    japanese = read_roster("チーム,選手\r\n東京,山田太郎\r\n".encode("cp932"))
    assert (japanese.encoding, japanese.guessed) == ("cp932", False)


def test_a_windows_1252_file_is_a_guess_and_reads_right_when_chosen():
    reading = read_roster(CP1252)
    assert reading.guessed  # whatever charset-normalizer guesses, the director confirms it
    assert read_roster(CP1252, "cp1252").text == DANISH
    assert "Ærøskøbing" in read_roster(CP1252, "Windows-1252").text


def test_cp932_without_kana_or_with_what_accented_letters_become_is_a_guess():
    assert read_roster("team,player\r\n東京,山田\r\n".encode("cp932")).guessed
    # "Ærøskøbing" in Windows-1252 decodes strictly as cp932 (half-width katakana, user-defined area)
    reading = read_roster("player\r\nÆrøskøbing\r\n".encode("cp1252"))
    assert reading.guessed and reading.encoding != "cp932"


def test_a_chosen_encoding_that_does_not_fit_is_named():
    with pytest.raises(RosterError) as err:
        read_roster(CP1252, "utf-8")
    assert "UTF-8" in err.value.message and "choose another encoding" in err.value.message
    with pytest.raises(RosterError):
        read_roster(CP1252, "no-such-codec")
    with pytest.raises(RosterError):
        read_roster(b"player\n" + b"A" * 1_000_001)


# --- the entrants page ---------------------------------------------------------------------------


@pytest.fixture
def setup(db):
    director = User.objects.create_user("dir", password="pw-dir-1", is_staff=True)
    event = create_event(name="Danish Open", slug="danish")
    EventRole.objects.create(event=event, user=director, role=EventRole.Role.DIRECTOR)
    client = Client()
    client.force_login(director)
    return event, client


def _names(event):
    return set(event.players.values_list("name", flat=True)) | set(event.teams.values_list("name", flat=True))


def test_a_cp1252_roster_is_previewed_before_import_and_stored_right_once_confirmed(setup):
    event, client = setup
    url = reverse("entrants", kwargs={"slug": event.slug})
    response = client.post(url, {"action": "import", "roster": SimpleUploadedFile("danish.csv", CP1252, content_type="text/csv")})
    assert "Ćrřskřbing" not in _names(event)  # before the fix: stored silently as read in Windows-1250
    assert not event.players.exists() and not event.teams.exists()  # nothing stored before the confirmation
    assert response.status_code == 200
    page = response.content.decode()
    preview = response.context["roster_preview"]
    guess = preview["encoding"]
    assert 'id="roster-preview"' in page and encoding_label(guess) in page
    kept = preview["data"]
    assert base64.b64decode(kept) == CP1252  # the file travels in the form
    if guess != "cp1252":  # the guess reads the names wrong: the preview shows them as they would be stored
        wrong = read_roster(CP1252, guess).text.splitlines()[1].split(",")[0]
        assert wrong != "Ærøskøbing" and wrong in page
    # The director picks Windows-1252: the names are shown right, still nothing stored.
    response = client.post(url, {"action": "import-encoding", "roster_data": kept, "roster_name": "danish.csv",
                                 "roster_encoding": "cp1252", "roster_previewed": guess, "roster_step": "import"})
    page = response.content.decode()
    assert response.status_code == 200 and "Ærøskøbing" in page and "Søren Ærø" in page
    assert response.context["roster_preview"]["encoding"] == "cp1252"
    assert not event.players.exists()
    # Confirmed as shown: stored as written.
    response = client.post(url, {"action": "import-encoding", "roster_data": kept, "roster_name": "danish.csv",
                                 "roster_encoding": "cp1252", "roster_previewed": "cp1252", "roster_step": "import"})
    assert response.status_code == 302
    assert event.teams.filter(name="Ærøskøbing").exists() and event.players.filter(name="Søren Ærø").exists()
    assert event.players.count() == 16 and "Ćrřskřbing" not in _names(event)
    # A repeated confirmation stores nothing more (the event has its roster).
    client.post(url, {"action": "import-encoding", "roster_data": kept, "roster_name": "danish.csv",
                      "roster_encoding": "cp1252", "roster_previewed": "cp1252", "roster_step": "import"})
    assert event.players.count() == 16


def test_an_encoding_that_does_not_fit_keeps_the_file_and_says_so(setup):
    event, client = setup
    url = reverse("entrants", kwargs={"slug": event.slug})
    kept = base64.b64encode(CP1252).decode()
    response = client.post(url, {"action": "import-encoding", "roster_data": kept, "roster_name": "danish.csv",
                                 "roster_encoding": "utf-8", "roster_previewed": "cp1250", "roster_step": "preview"})
    assert response.status_code == 200
    assert "cannot be read as UTF-8" in response.content.decode()
    assert response.context["roster_preview"]["data"] == kept and not event.players.exists()
    response = client.post(url, {"action": "import-encoding", "roster_data": "not base64!", "roster_encoding": "cp1252",
                                 "roster_previewed": "cp1252", "roster_step": "import"}, follow=True)
    assert "choose the roster file again" in response.content.decode() and not event.players.exists()


def test_utf8_and_shift_jis_rosters_are_imported_at_once(setup):
    event, client = setup
    url = reverse("entrants", kwargs={"slug": event.slug})
    response = client.post(url, {"action": "import", "roster": SimpleUploadedFile("d.csv", DANISH.encode("utf-8"))})
    assert response.status_code == 302 and event.teams.filter(name="Ærøskøbing").exists()


# --- the new-event form --------------------------------------------------------------------------

BASE = {
    "name": "Danish Open", "slug": "danish-open", "ruleset": "mcr-duplicate", "method": "team", "conversion": "wbf-imp",
    "sessions": 2, "datum_method": "average", "comparison": "group", "entrant_policy": "as-is",
}


def test_the_new_event_form_previews_a_guessed_roster_and_creates_nothing_before_the_confirmation(setup):
    _, client = setup
    response = client.post(reverse("new-event"), {**BASE, "roster": SimpleUploadedFile("danish.csv", CP1252)})
    assert response.status_code == 200 and not Event.objects.filter(slug="danish-open").exists()
    preview = response.context["roster_preview"]
    assert 'id="roster-preview"' in response.content.decode()
    data = {**BASE, "roster_data": preview["data"], "roster_name": "danish.csv", "roster_encoding": "cp1252",
            "roster_previewed": preview["encoding"]}
    if preview["encoding"] != "cp1252":
        response = client.post(reverse("new-event"), data)  # another encoding chosen: shown first
        assert response.status_code == 200 and "Ærøskøbing" in response.content.decode()
        assert not Event.objects.filter(slug="danish-open").exists()
    response = client.post(reverse("new-event"), {**data, "roster_previewed": "cp1252"})
    assert response.status_code == 302
    event = Event.objects.get(slug="danish-open")
    assert event.teams.filter(name="Ærøskøbing").exists() and event.players.count() == 16


def test_the_japanese_excel_rosters_of_the_other_tests_are_still_imported_at_once():
    """The Shift-JIS rosters tests/browser/test_director_day.py and tests/test_roster_import.py
    upload hold kana: certain, no confirmation click."""
    for data in (shift_jis_roster(), "チーム,選手\r\n東京,山田太郎\r\n".encode("shift_jis")):
        reading = read_roster(data)
        assert (reading.encoding, reading.guessed) == ("cp932", False)
