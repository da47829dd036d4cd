"""Print jobs through the service and the director's page: stored files, reuse, batch progress,
and the stored PDFs read back (rendered with pypdfium2, QR codes decoded with zxing-cpp)."""

import pytest

from pdfcheck import decode_qr, page_count, page_text, render_pages
from walls.printing_jobs import request_print
from walls.setcode import parse_payload

pytestmark = pytest.mark.django_db


def test_one_set_label_per_physical_copy_and_its_qr_decodes_to_the_set(team_event):
    job = request_print(team_event, "labels", {"session": 1})
    data = job.file.read()
    payloads = [code for page in render_pages(data) for code in decode_qr(page.image)]
    ids = sorted((parse_payload(p).event, parse_payload(p).session, parse_payload(p).set_no) for p in payloads)
    groups = team_event.sessions.get(number=1).groups.count()
    assert ids == sorted([(team_event.slug, 1, s) for s in range(1, 17)] * groups)
    text = "".join(page_text(data, i) for i in range(page_count(data)))
    assert "Group 1 · Table 1" in text and "Group 4 · Table 16" in text


def test_same_request_reuses_the_stored_file(team_event):
    first = request_print(team_event, "stickers", {"session": 1, "sets": [2]})
    second = request_print(team_event, "stickers", {"session": 1, "sets": [2]})
    assert first.pk == second.pk and first.file.name == second.file.name


def test_print_batch_renders_every_kind_and_reports_progress(client, team_event, director):
    from django.urls import reverse

    client.force_login(director)
    response = client.post(reverse("print-request", args=[team_event.slug]), {"kind": "batch", "session": 1})
    assert response.status_code == 302
    status = client.get(reverse("print-status", args=[team_event.slug])).json()
    assert status["total"] == 7 and status["done"] == 7
    assert {j["kind"] for j in status["jobs"]} == {"stickers", "labels", "setup", "picklist", "score_sheets", "movement", "seating"}
    again = client.post(reverse("print-request", args=[team_event.slug]), {"kind": "batch", "session": 1})
    assert again.status_code == 302
    assert client.get(reverse("print-status", args=[team_event.slug])).json()["total"] == 7  # reused, not re-queued
    for job in status["jobs"]:
        pdf = client.get(job["download"])
        assert pdf.status_code == 200 and b"".join(pdf.streaming_content).startswith(b"%PDF")
