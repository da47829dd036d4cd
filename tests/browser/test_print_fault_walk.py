"""The director's print jobs after a full disk and a killed worker (docs/deploy.md, "Faults"), as the
director meets them on the event page: a failed job says the disk is full and what to do, a job
whose worker stopped answering says Stalled, each with Retry; pressing Retry renders it.
Screenshot: docs/screenshots/print-jobs-faults.png."""

from __future__ import annotations

from datetime import timedelta

import pytest

from .conftest import SCREENSHOTS, in_own_connection

pytestmark = [pytest.mark.browser, pytest.mark.django_db]


def _jobs(slug: str) -> dict:
    """Two jobs of the event in trouble: ``{"failed": id, "stalled": id}``."""
    from django.utils import timezone

    from tournament.models import Event
    from walls.models import PrintJob
    from walls.print_jobs import failure_reason

    def make():
        event = Event.objects.get(slug=slug)
        failed = PrintJob.objects.create(event=event, kind="labels", params={"session": 1, "lang": "en"}, params_hash="f" * 64,
                                         status=PrintJob.Status.FAILED, total=1,
                                         error=failure_reason(OSError(28, "No space left on device")))
        stalled = PrintJob.objects.create(event=event, kind="movement", params={"session": 1, "lang": "en"},
                                          params_hash="s" * 64, status=PrintJob.Status.RUNNING, total=1,
                                          heartbeat_at=timezone.now() - timedelta(minutes=3))
        return {"failed": failed.pk, "stalled": stalled.pk}

    return in_own_connection(make)


def _status(job_id: int) -> str:
    from walls.models import PrintJob

    return in_own_connection(lambda: PrintJob.objects.get(pk=job_id).status)


def test_the_director_sees_why_a_job_failed_or_stalled_and_retries_it(director_page, demo_site):
    jobs = _jobs(demo_site.slug)
    page = director_page
    page.goto(demo_site.page(f"/e/{demo_site.slug}/director/"))
    failed = page.locator(f"#jobs tr[data-job='{jobs['failed']}']")
    stalled = page.locator(f"#jobs tr[data-job='{jobs['stalled']}']")
    page.wait_for_function(f"document.querySelector(\"#jobs tr[data-job='{jobs['stalled']}'] .st\").textContent === 'Stalled'")
    assert "No space left on the print disk (MEDIA_ROOT): free some space, then press Retry." in failed.inner_text()
    assert "stopped answering" in stalled.inner_text()
    assert failed.get_by_role("button", name="Retry").count() == 1 and stalled.get_by_role("button", name="Retry").count() == 1
    page.locator("#jobs").screenshot(path=str(SCREENSHOTS / "print-jobs-faults.png"))
    for key in ("stalled", "failed"):
        with page.expect_navigation():
            page.locator(f"#jobs tr[data-job='{jobs[key]}']").get_by_role("button", name="Retry").click()
        assert "The print job is queued again." in page.inner_text("body")
        assert _status(jobs[key]) == "done"
