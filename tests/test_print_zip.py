"""Printing for people: the session's ZIP ("Print the table documents (ZIP)"), file names a
director recognises, the label stock chosen in the page, per-document progress, and the
embedded default that renders in a background thread so the page returns at once."""

import io
import re
import time
import zipfile

import pytest
from django.db import connection
from django.urls import reverse
from pdfcheck import page_count, page_text

from tournament.models import SeatAssignment
from walls import print_jobs, print_kinds
from walls.models import PrintJob
from walls.printing import PRESETS
from walls.print_jobs import request_print

EXPECTED_FILES = {
    "Wall stickers, session 1.pdf", "Set labels, session 1.pdf", "Score sheets, session 1.pdf",
    "Movement sheet, session 1.pdf", "Seating sheet, session 1.pdf", "Seating lists by room, session 1.pdf",
    "Player cards.pdf",
}
"""The tables' ZIP: no set-up sheet nor pick list, which show every tile (those are in the staff ZIP)."""


@pytest.mark.django_db
def test_print_everything_gives_one_zip_of_the_sessions_documents_named_for_people(client, team_event, director):
    client.force_login(director)
    page = client.get(reverse("director", args=[team_event.slug])).content.decode()
    assert 'name="template"' in page and "Print the table documents (ZIP)" in page
    response = client.post(reverse("print-request", args=[team_event.slug]), {"kind": "session_zip", "session": 1})
    assert response.status_code == 302
    job = PrintJob.objects.get(event=team_event, kind="session_zip")
    assert job.status == "done" and (job.progress, job.total) == (7, 7)
    page = client.get(reverse("director", args=[team_event.slug])).content.decode()
    row = re.search(rf'<tr data-job="{job.pk}">(.*?)</tr>', page, re.DOTALL).group(1)
    assert "<td>Table documents, session 1 (ZIP)</td>" in row and ">Download</a>" in row
    download = client.get(reverse("print-download", args=[team_event.slug, job.pk]))
    assert download["Content-Type"] == "application/zip"
    assert 'filename="Table documents, session 1.zip"' in download["Content-Disposition"]
    archive = zipfile.ZipFile(io.BytesIO(b"".join(download.streaming_content)))
    assert set(archive.namelist()) == EXPECTED_FILES
    for name in archive.namelist():
        assert archive.read(name).startswith(b"%PDF")
    seating = archive.read("Seating lists by room, session 1.pdf")
    first_page = page_text(seating, 0)
    assert "Seating by room" in first_page and "Room 1" in first_page


@pytest.mark.django_db
def test_the_zip_in_japanese_says_so_in_its_file_names(team_event):
    job = request_print(team_event, "session_zip", {"session": 1, "lang": "ja"})
    names = set(zipfile.ZipFile(job.file).namelist())
    assert "Seating sheet, session 1 (ja).pdf" in names and "Player cards (ja).pdf" in names
    staff = set(zipfile.ZipFile(request_print(team_event, "staff_zip", {"session": 1, "lang": "ja"}).file).namelist())
    assert staff == {"STAFF ONLY - Set-up sheets, session 1 (ja).pdf", "STAFF ONLY - Pick list, session 1 (ja).pdf"}


@pytest.mark.django_db
def test_every_download_has_a_human_name(client, team_event, director):
    client.force_login(director)
    for kind, name in (("stickers", "Wall stickers, session 1.pdf"), ("setup", "STAFF ONLY - Set-up sheets, session 1 (ja).pdf"),
                       ("seating", "Seating sheet, session 1.pdf"), ("player_cards", "Player cards.pdf")):
        lang = "ja" if kind == "setup" else "en"
        job = request_print(team_event, kind, {"session": 1, "lang": lang})
        response = client.get(reverse("print-download", args=[team_event.slug, job.pk]))
        assert response["Content-Type"] == "application/pdf"
        assert f'filename="{name}"' in response["Content-Disposition"], response["Content-Disposition"]
    job = request_print(team_event, "stickers", {"session": 1, "sets": [1], "template": "letter-strips"})
    assert print_jobs.document_name(job.kind, job.params) == "Wall stickers, session 1 (letter-strips).pdf"


@pytest.mark.django_db
def test_the_label_stock_chosen_changes_the_sticker_layout(client, team_event, director):
    client.force_login(director)
    team_event.tile_size = "40x45"  # big tiles: labels of 38.1 × 21.2 mm (a4-65) fit their backs
    team_event.save(update_fields=["tile_size"])
    url = reverse("print-request", args=[team_event.slug])
    client.post(url, {"kind": "stickers", "session": 1, "template": "a4-65"})
    client.post(url, {"kind": "stickers", "session": 1, "template": "a4-strips"})
    grid = PrintJob.objects.get(event=team_event, kind="stickers", params__template="a4-65").file.read()
    strips = PrintJob.objects.get(event=team_event, kind="stickers", params__template="a4-strips").file.read()
    # 16 sets × 4 groups' copies × 4 seats × (1 header + 34 stickers) on a4-65; the strips put a
    # seat's rows on a page of their own (40 mm tiles: 13, 11, 10 as 7 + 6, 6 + 5, 5 + 5)
    labels = 16 * 4 * 4 * 35
    assert page_count(grid) >= labels / PRESETS["a4-65"].per_sheet
    assert page_count(strips) >= 16 * 4 * 4 and page_text(strips, 0) != page_text(grid, 0)
    assert "Tiles 40 × 45 mm, pitch 40 mm" in page_text(strips, 0)
    # the event's default label stock is what the form offers first and what is used without one
    team_event.default_label_stock = "a4-65"
    team_event.save(update_fields=["default_label_stock"])
    page = client.get(reverse("director", args=[team_event.slug])).content.decode()
    assert '<option value="a4-65" selected>' in page
    assert request_print(team_event, "stickers", {"session": 1, "sets": [1]}).params["template"] == "a4-65"
    assert "template" not in request_print(team_event, "seating", {"session": 1, "template": "a4-strips"}).params
    response = client.post(url, {"kind": "stickers", "session": 1, "template": "nonsense"}, follow=True)
    assert "unknown label stock" in response.content.decode()


@pytest.mark.django_db
def test_the_sheet_language_defaults_to_the_events(client, team_event, director):
    client.force_login(director)
    team_event.sheet_language = "zh-hans"
    team_event.save(update_fields=["sheet_language"])
    page = client.get(reverse("director", args=[team_event.slug])).content.decode()
    assert '<option value="zh-hans" selected>' in page and '<option value="ja" selected>' not in page


@pytest.mark.django_db
def test_the_zip_reports_each_document_done(team_event):
    seen = []
    data = print_jobs.render(team_event, "session_zip", {"session": 1, "lang": "en"},
                                progress=lambda done, total: seen.append((done, total)))
    total = len(print_kinds.ZIP_KINDS)
    assert seen == [(n, total) for n in range(1, total + 1)]
    assert len(zipfile.ZipFile(io.BytesIO(data)).namelist()) == total


@pytest.mark.django_db
def test_seating_sheet_is_in_table_and_seat_order(team_event):
    data = request_print(team_event, "seating", {"session": 1}).file.read()
    text = " ".join(page_text(data, i) for i in range(page_count(data)))
    seats = team_event.get_ruleset().seats
    order = sorted(SeatAssignment.objects.filter(table__group__session__event=team_event).select_related("player", "team", "table"),
                   key=lambda s: (s.table.number, seats.index(s.seat)))
    positions = [re.search(rf"{re.escape(s.player.name)}\s+{re.escape(s.team.name)}\s+{s.table.number}\s", text).start()
                 for s in order]
    assert positions == sorted(positions)


@pytest.mark.django_db(transaction=True)
def test_without_a_broker_the_job_renders_in_a_thread_and_the_request_returns_first(settings, team_event):
    settings.PRINT_IN_THREAD = True
    job = request_print(team_event, "session_zip", {"session": 1})
    assert job.status == PrintJob.Status.PENDING and not job.file  # returned before rendering
    assert print_jobs.join_print_threads(timeout=120)
    deadline = time.monotonic() + 10
    job.refresh_from_db()
    while job.status != PrintJob.Status.DONE and time.monotonic() < deadline:
        time.sleep(0.1)
        job.refresh_from_db()
    assert job.status == PrintJob.Status.DONE and (job.progress, job.total) == (7, 7) and job.file
    assert set(zipfile.ZipFile(job.file).namelist()) == EXPECTED_FILES
    connection.close()
