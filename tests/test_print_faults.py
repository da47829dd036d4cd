"""Print jobs when the machine fails (docs/deploy.md, "Faults"): a full print disk and a worker
killed mid-job.

A disk that fills while a job writes its PDF (an injected ENOSPC after the first megabyte's worth
of a write, as a real disk gives) leaves every PDF stored before whole (byte for byte, and it
still opens), no partial file in MEDIA_ROOT, and the job failed with the reason and what to do,
shown on the director's page; once space is free, Retry renders it. A job whose worker stopped
answering (no heartbeat) is shown stalled with a Retry that renders it again. The task is
acknowledged late, rejected when its worker is lost and limited in time.
"""

from __future__ import annotations

import errno
import os
from datetime import timedelta
from pathlib import Path

import pypdfium2
import pytest
from django.urls import reverse
from django.utils import timezone

from tournament.entrants import rename_team
from walls import print_jobs
from walls.models import PrintJob
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
    from walls.tasks import render_print_job

    assert render_print_job.acks_late is True and render_print_job.reject_on_worker_lost is True
    assert render_print_job.soft_time_limit == settings.PRINT_TIME_LIMIT
    assert render_print_job.time_limit == settings.PRINT_TIME_LIMIT + 30
    assert settings.PRINT_STALL_SECONDS <= 60 and settings.PRINT_HEARTBEAT_SECONDS * 3 <= settings.PRINT_STALL_SECONDS


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
