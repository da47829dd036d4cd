"""Every print job follows the sheet language the director chose, score sheets and movement
sheets included (they used to ignore it), and the tables that play a set first are named in that
language on the labels."""

import re

import pytest
from django.urls import reverse

from pdfcheck import page_count, page_text
from walls.print_jobs import request_print
from walls.print_kinds import BATCH_KINDS, PRINT_KINDS

from factories import client_for

pytestmark = pytest.mark.django_db


def _text(job) -> str:
    data = job.file.read()
    return " ".join(" ".join(page_text(data, i) for i in range(page_count(data))).split())


def test_every_kind_of_the_batch_takes_the_sheet_language():
    assert all("lang" in PRINT_KINDS[kind].params for kind in BATCH_KINDS)


@pytest.mark.parametrize(("kind", "ja", "english"), [
    ("score_sheets", ["記録用紙 — 第 1 卓", "第 1 回戦", "選手署名", "東家"], ["Score sheet", "Session", "Players", "East"]),
    ("movement", ["ムーブメント — Test Cup — 第 1 回戦", "第 1 場", "第 1 卓"], ["Movement", "Round", "Table", "session"]),
    ("seating", ["席順 — Test Cup — 第 1 回戦", "選手", "東家"], ["Seating", "Player", "Session", "session", "East"]),
    ("labels", ["第 1 組 · 第 1 卓", "第 1 回戦 · セット 1", "最初の卓"], ["Group", "Table", "Session", "First at"]),
])
def test_a_japanese_print_job_has_japanese_headings(team_event, kind, ja, english):
    text = _text(request_print(team_event, kind, {"session": 1, "lang": "ja"}))
    assert [phrase for phrase in ja if phrase not in text] == []
    assert [word for word in english if re.search(rf"\b{word}\b", text)] == []


def test_the_director_s_sheet_language_reaches_the_score_sheets(client, team_event, director):
    response = client_for(director).post(reverse("print-request", args=[team_event.slug]),
                                         {"session": 1, "kind": "score_sheets", "lang": "zh"})
    assert response.status_code in (200, 302)
    job = team_event.print_jobs.get(kind="score_sheets")
    assert job.params["lang"] == "zh-hans" and "记分表 — 1 号桌" in _text(job)  # "zh": the site's code is zh-hans
