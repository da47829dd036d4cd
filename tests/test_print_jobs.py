"""Print jobs through the service and the director's page: stored files, reuse, batch progress,
and the stored PDFs read back (rendered with pypdfium2, QR codes decoded with zxing-cpp)."""

import re

import pytest

from pdfcheck import decode_qr, form_names, page_count, page_text, render_pages, tile_face_form_names
from walls.print_jobs import request_print
from walls.setcode import SetId, parse_payload
from walls.tiles import tile_glyph, tile_name

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


def test_stored_stickers_carry_set_seat_and_slot_and_no_tile_of_the_set(team_event):
    """The print job's sticker PDF, read back: per physical copy every seat's 34 slots with the set
    code, QR codes holding the link of each slot only, and no tile of the stored wall (docs/rules.md, "Duplicate MCR: building sets and wall stickers": the
    sticker goes on the back of the tile, which every player sees)."""
    from walls.models import WallSet

    job = request_print(team_event, "stickers", {"session": 1, "sets": [1], "lang": "ja"})
    data = job.file.read()
    set_id = SetId(team_event.slug, 1, 1)
    copies = team_event.sessions.get(number=1).groups.count()
    text = "".join(page_text(data, i) for i in range(page_count(data)))
    tokens = text.split()
    for seat in "ESWN":
        for label in [f"H{n}" for n in range(1, 14)] + [f"D{n}" for n in range(1, 22)]:
            found = re.findall(rf"(?:^|\s){seat}\s+{label}\s+{set_id.code}\s", text)
            assert len(found) == copies, (seat, label)
    wall = WallSet.objects.get(event=team_event, session_number=1, set_no=1)
    tiles = {t for pile in wall.piles.values() for t in pile}
    bare = text
    for seat_name in ("東家", "南家", "西家", "北家"):
        bare = bare.replace(seat_name, "")
    for tile in tiles:
        assert tile not in tokens and tile_name(tile, "en") not in text
        assert tile_name(tile, "ja") not in bare and tile_name(tile, "zh") not in bare
        assert tile_glyph(tile) in "ESWN" or tile_glyph(tile) not in tokens
    assert form_names(data).isdisjoint(tile_face_form_names().values())
    payloads = {code for page in render_pages(data, scale=200 / 72) for code in decode_qr(page.image)}
    # each sticker's code is the link of its own slot (rebuild by scan), naming the seat and slot, no tile
    ruleset = team_event.get_ruleset()
    assert payloads == {set_id.slot_url(team_event.base_url, s.pile.seat, s.label, str(team_event.pk)) for s in ruleset.slots()}


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
    # the director reads the menu's names, not the stored codes, in the page and in its updates
    labels = {"Wall stickers", "Set labels", "Set-up sheets", "Pick list", "Score sheets", "Movement sheet", "Seating sheet"}
    assert {j["label"] for j in status["jobs"]} == labels
    page = client.get(reverse("director", args=[team_event.slug])).content.decode()
    # the documents that show every tile say so first (walls.print_jobs.document_name)
    titles = {f"STAFF ONLY - {label}, session 1" if label in ("Set-up sheets", "Pick list") else f"{label}, session 1"
              for label in labels}
    assert all(f"<td>{title}</td>" in page for title in titles) and "<td>score_sheets" not in page
    assert {j["title"] for j in status["jobs"]} == titles
    translated = client.get(reverse("print-status", args=[team_event.slug]), HTTP_ACCEPT_LANGUAGE="ja").json()
    assert "牌山シール" in {j["label"] for j in translated["jobs"]}
    again = client.post(reverse("print-request", args=[team_event.slug]), {"kind": "batch", "session": 1})
    assert again.status_code == 302
    assert client.get(reverse("print-status", args=[team_event.slug])).json()["total"] == 7  # reused, not re-queued
    for job in status["jobs"]:
        pdf = client.get(job["download"])
        assert pdf.status_code == 200 and b"".join(pdf.streaming_content).startswith(b"%PDF")


def test_a_file_from_an_older_renderer_is_never_handed_out_again(team_event, monkeypatch):
    """Stickers rendered before they lost the tile must not come back from the reuse cache: the
    renderer's version is part of the reuse key."""
    from walls import print_jobs

    old = print_jobs.request_print(team_event, "stickers", {"session": 1}, run_now=True)
    monkeypatch.setattr(print_jobs, "RENDER_VERSION", print_jobs.RENDER_VERSION + 1)
    new = print_jobs.request_print(team_event, "stickers", {"session": 1}, run_now=True)
    assert new.pk != old.pk and new.params_hash != old.params_hash
