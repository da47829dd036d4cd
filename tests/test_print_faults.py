"""Print jobs when the machine fails (docs/deploy.md, "Faults"): a full print disk and a worker
killed mid-job.

A disk that fills while a job writes its PDF (an injected ENOSPC after the first megabyte's worth
of a write, as a real disk gives) leaves every PDF stored before whole (byte for byte, and it
still opens), no partial file in MEDIA_ROOT, and the job failed with the reason and what to do,
shown on the director's page; once space is free, Retry renders it. A job whose worker stopped
answering (no heartbeat) is shown stalled with a Retry that renders it again, on the page as the
server sends it and in its JSON poll, and so is a reserve wall's job on its set's page. A reason
stored by a worker reads in each director's language. The task is acknowledged late, rejected
when its worker is lost and limited in time, and the broker never hands a job that may still be
rendering to a second worker.
"""

from __future__ import annotations

import errno
import html
import os
import re
import time
from datetime import timedelta
from pathlib import Path

import pypdfium2
import pytest
from django.urls import reverse
from django.utils import timezone

from tournament.entrants import rename_team
from walls import print_jobs
from walls.models import PrintJob
from tournament.services import draw_reserve
from walls.print_jobs import request_print

pytestmark = pytest.mark.django_db


def _files(settings) -> dict[str, bytes]:
    root = Path(settings.MEDIA_ROOT)
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


@pytest.fixture
def full_disk(monkeypatch):
    """From now on every write of a print file fails with ENOSPC after writing part of it (undo()
    frees the space)."""
    monkeypatch.setattr(print_jobs.os, "write", _failing_write())
    return monkeypatch


def test_a_full_disk_keeps_every_stored_pdf_whole_and_marks_the_job_failed_with_its_reason(team_event, settings,
                                                                                           director_client, full_disk):
    full_disk.undo()
    labels = request_print(team_event, "labels", {"session": 1})
    assert labels.status == PrintJob.Status.DONE
    before = _files(settings)
    assert list(before) == [labels.file.name]

    full_disk.setattr(print_jobs.os, "write", _failing_write())
    stickers = request_print(team_event, "stickers", {"session": 1, "sets": [1]})
    assert stickers.status == PrintJob.Status.FAILED
    assert "No space left on the print disk" in stickers.error and "Retry" in stickers.error
    assert _files(settings) == before  # no partial file, the labels byte for byte
    assert len(pypdfium2.PdfDocument(before[labels.file.name])) > 0

    rename_team(team_event.teams.order_by("pk").first(), name="Renamed Team", actor="td")  # a reprint of the labels
    again = request_print(team_event, "labels", {"session": 1})
    assert again.pk != labels.pk and again.status == PrintJob.Status.FAILED
    assert _files(settings) == before

    page = director_client.get(reverse("director", args=[team_event.slug])).content.decode()
    assert "No space left on the print disk (MEDIA_ROOT)" in page and 'class="inline retry"' in page
    status = director_client.get(reverse("print-status", args=[team_event.slug])).json()["jobs"]
    failed = next(j for j in status if j["id"] == stickers.pk)
    assert failed["status"] == "failed" and failed["retry"]

    full_disk.undo()  # space freed: Retry renders it
    director_client.post(failed["retry"])
    stickers.refresh_from_db()
    assert stickers.status == PrintJob.Status.DONE and stickers.error == ""
    assert len(pypdfium2.PdfDocument(stickers.file.read())) > 0
    assert _files(settings)[labels.file.name] == before[labels.file.name]


def _failing_write():
    real_write = os.write

    def write(fd, data):
        real_write(fd, bytes(data[: max(1, len(data) // 3)]))
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    return write


def test_rewriting_a_jobs_own_file_on_a_full_disk_keeps_the_old_file(team_event, settings, full_disk):
    full_disk.undo()
    job = request_print(team_event, "labels", {"session": 1})
    old = Path(settings.MEDIA_ROOT, job.file.name).read_bytes()
    full_disk.setattr(print_jobs.os, "write", _failing_write())
    with pytest.raises(OSError):
        print_jobs._store(job, Path(job.file.name).name, b"%PDF-1.4 a newer file that does not fit" * 1000)
    assert Path(settings.MEDIA_ROOT, job.file.name).read_bytes() == old
    assert not [p for p in Path(settings.MEDIA_ROOT).rglob("*.part-*")]


def test_a_job_whose_worker_stopped_answering_is_shown_stalled_and_retried(team_event, director_client, settings):
    job = request_print(team_event, "labels", {"session": 1})
    PrintJob.objects.filter(pk=job.pk).update(status=PrintJob.Status.RUNNING, file="", progress=0,
                                              heartbeat_at=timezone.now() - timedelta(seconds=settings.PRINT_STALL_SECONDS + 5))
    status = director_client.get(reverse("print-status", args=[team_event.slug])).json()["jobs"]
    row = next(j for j in status if j["id"] == job.pk)
    assert (row["status"], row["status_display"]) == ("stalled", "Stalled")
    assert "stopped answering" in row["error"] and row["retry"]
    PrintJob.objects.filter(pk=job.pk).update(heartbeat_at=timezone.now())  # a fresh heartbeat: rendering, no retry
    fresh = next(j for j in director_client.get(reverse("print-status", args=[team_event.slug])).json()["jobs"]
                 if j["id"] == job.pk)
    assert fresh["status"] == "running" and fresh["retry"] is None
    PrintJob.objects.filter(pk=job.pk).update(heartbeat_at=timezone.now() - timedelta(minutes=5))
    director_client.post(row["retry"])
    job.refresh_from_db()
    assert job.status == PrintJob.Status.DONE and len(pypdfium2.PdfDocument(job.file.read())) > 0


def test_a_job_neither_failed_nor_stalled_is_not_rendered_again_by_a_retry(team_event, director_client):
    job = request_print(team_event, "labels", {"session": 1})
    finished = job.finished_at
    director_client.post(reverse("print-retry", args=[team_event.slug, job.pk]))
    job.refresh_from_db()
    assert job.status == PrintJob.Status.DONE and job.finished_at == finished


def test_the_render_task_is_acknowledged_late_rejected_when_its_worker_is_lost_and_time_limited(settings):
    from tournament.celery import app
    from walls.tasks import render_print_job

    assert render_print_job.acks_late is True and render_print_job.reject_on_worker_lost is True
    assert render_print_job.soft_time_limit == settings.PRINT_TIME_LIMIT
    assert render_print_job.time_limit == settings.PRINT_TIME_LIMIT + 30
    assert settings.PRINT_STALL_SECONDS <= 60 and settings.PRINT_HEARTBEAT_SECONDS * 3 <= settings.PRINT_STALL_SECONDS
    # Redis hands an unacknowledged job to another worker after the visibility timeout: only once
    # the job's own worker must have given up on it (its hard time limit), never while it renders.
    assert app.conf.broker_transport_options["visibility_timeout"] > render_print_job.time_limit


@pytest.fixture
def tiny_disk(tmp_path, settings):
    """MEDIA_ROOT on a real 128 KB tmpfs (the labels fit, a set's stickers do not); yields a
    function that grows it to ``size``. Skipped where this machine refuses to mount (not root)."""
    import subprocess

    mount = tmp_path / "tiny"
    mount.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=128k", "tmpfs", str(mount)], capture_output=True, text=True)
    if made.returncode:
        pytest.skip(f"a tiny tmpfs needs mount rights (root): {made.stderr.strip()}; the injected ENOSPC tests cover it")
    settings.MEDIA_ROOT = str(mount)
    try:
        yield lambda size: subprocess.run(["mount", "-o", f"remount,size={size}", str(mount)], check=True)
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_a_real_full_disk_keeps_the_stored_pdf_and_fails_the_job_with_its_reason(team_event, settings, tiny_disk,
                                                                                 director_client):
    labels = request_print(team_event, "labels", {"session": 1})
    assert labels.status == PrintJob.Status.DONE
    before = _files(settings)
    stickers = request_print(team_event, "stickers", {"session": 1, "sets": [1]})  # 250 KB on a 128 KB disk
    assert stickers.status == PrintJob.Status.FAILED and "No space left on the print disk" in stickers.error
    assert _files(settings) == before
    assert len(pypdfium2.PdfDocument(before[labels.file.name])) > 0
    tiny_disk("8m")  # space freed
    retry = next(j["retry"] for j in director_client.get(reverse("print-status", args=[team_event.slug])).json()["jobs"]
                 if j["id"] == stickers.pk)
    director_client.post(retry)
    stickers.refresh_from_db()
    assert stickers.status == PrintJob.Status.DONE and len(pypdfium2.PdfDocument(stickers.file.read())) > 0


def _row(page: str, job_id: int) -> str:
    """The text of job ``job_id``'s row (``<tr>`` or ``<li>`` with ``data-job``) as a reader sees it:
    tags gone, entities decoded, spaces collapsed; a form's button keeps its caption."""
    found = re.search(rf'<(tr|li) data-job="{job_id}">(.*?)</\1>', page, re.S)
    assert found, f"no row for job {job_id}"
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", found.group(2))).split())


def _stall(job: PrintJob, settings, *, seconds_ago: int) -> None:
    PrintJob.objects.filter(pk=job.pk).update(status=PrintJob.Status.RUNNING, file="", progress=0,
                                              heartbeat_at=timezone.now() - timedelta(seconds=seconds_ago))


def test_the_directors_page_as_served_shows_a_stalled_job_stalled_with_retry(team_event, director_client, settings):
    stuck = request_print(team_event, "labels", {"session": 1})
    busy = request_print(team_event, "movement", {"session": 1})
    _stall(stuck, settings, seconds_ago=settings.PRINT_STALL_SECONDS + 5)
    _stall(busy, settings, seconds_ago=1)  # a fresh heartbeat: still rendering
    page = director_client.get(reverse("director", args=[team_event.slug])).content.decode()
    assert _row(page, stuck.pk).split(" ")[-1] == "Retry"
    assert "Stalled" in _row(page, stuck.pk) and "stopped answering" in _row(page, stuck.pk)
    assert reverse("print-retry", args=[team_event.slug, stuck.pk]) in page
    assert "Rendering" in _row(page, busy.pk) and "Retry" not in _row(page, busy.pk)
    assert reverse("print-retry", args=[team_event.slug, busy.pk]) not in page


@pytest.mark.parametrize("language, reason, retry", [
    ("ja", "印刷用ディスク（MEDIA_ROOT）に空きがありません", "再試行"),
    ("zh-hans", "打印磁盘（MEDIA_ROOT）空间已满", "重试"),
])
def test_a_full_disk_reason_stored_by_a_worker_reads_in_the_directors_language(team_event, director_client, full_disk,
                                                                              language, reason, retry):
    job = request_print(team_event, "labels", {"session": 1})  # outside a request, as a worker: no reader's language
    assert job.status == PrintJob.Status.FAILED
    url = reverse("director", args=[team_event.slug])
    row = _row(director_client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode(), job.pk)
    assert reason in row and retry in row and "No space left" not in row
    english = _row(director_client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode(), job.pk)
    assert "No space left on the print disk (MEDIA_ROOT): free some space, then press Retry." in english
    polled = director_client.get(reverse("print-status", args=[team_event.slug]), HTTP_ACCEPT_LANGUAGE=language).json()
    assert reason in next(j["error"] for j in polled["jobs"] if j["id"] == job.pk)


def test_a_reserve_walls_failed_job_offers_retry_on_its_sets_page(team_event, director_client, settings, full_disk):
    reserve = draw_reserve(team_event, 1, 1, reason="tiles dropped", actor="director")
    job = request_print(team_event, "reserve_setup", {"reserve": reserve.pk})
    assert job.status == PrintJob.Status.FAILED
    url = reverse("wall", args=[team_event.slug, 1, 1])
    row = _row(director_client.get(url).content.decode(), job.pk)
    assert "No space left on the print disk (MEDIA_ROOT)" in row and row.endswith("Retry")
    assert not [p for p in Path(settings.MEDIA_ROOT).rglob("*") if p.is_file()]

    full_disk.undo()
    back = director_client.post(reverse("print-retry", args=[team_event.slug, job.pk]), {"next": url})
    assert back.status_code == 302 and back.url == url
    job.refresh_from_db()
    assert job.status == PrintJob.Status.DONE and len(pypdfium2.PdfDocument(job.file.read())) > 0
    row = _row(director_client.get(url).content.decode(), job.pk)
    assert "Download" in row and "Retry" not in row

    _stall(job, settings, seconds_ago=settings.PRINT_STALL_SECONDS + 5)
    row = _row(director_client.get(url).content.decode(), job.pk)
    assert "Stalled" in row and row.endswith("Retry")


def test_two_retries_at_once_queue_the_job_once(team_event, full_disk, monkeypatch):
    job = request_print(team_event, "labels", {"session": 1})
    assert job.status == PrintJob.Status.FAILED
    first, second = PrintJob.objects.get(pk=job.pk), PrintJob.objects.get(pk=job.pk)  # two directors' pages
    queued = []
    monkeypatch.setattr(print_jobs, "_queue", lambda j: queued.append(j.pk) or j)
    print_jobs.retry_print(first)
    print_jobs.retry_print(second)
    assert queued == [job.pk]
    assert PrintJob.objects.get(pk=job.pk).status == PrintJob.Status.PENDING


def test_a_render_stopped_at_its_time_limit_is_failed_with_what_to_do(team_event, director_client, monkeypatch):
    from celery.exceptions import SoftTimeLimitExceeded

    def too_slow(*args, **kwargs):
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(print_jobs, "render", too_slow)
    job = request_print(team_event, "labels", {"session": 1})
    assert job.status == PrintJob.Status.FAILED
    row = _row(director_client.get(reverse("director", args=[team_event.slug])).content.decode(), job.pk)
    assert "took too long and was stopped (PRINT_TIME_LIMIT): press Retry" in row and row.endswith("Retry")


def test_a_temporary_file_left_by_a_render_killed_mid_write_is_removed_by_the_next_render(team_event, settings):
    job = request_print(team_event, "labels", {"session": 1})
    path = Path(settings.MEDIA_ROOT, job.file.name)
    abandoned, live = Path(f"{path}.part-4242-1"), Path(f"{path}.part-4243-1")
    abandoned.write_bytes(b"%PDF-1.4 half a file")
    live.write_bytes(b"%PDF-1.4 being written")
    stale = time.time() - settings.PRINT_TIME_LIMIT - 60  # older than the task's hard time limit
    os.utime(abandoned, (stale, stale))
    print_jobs._store(job, path.name, path.read_bytes())
    assert not abandoned.exists() and live.exists()  # a file written to lately may be a live render's
