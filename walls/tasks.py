"""Celery tasks of the walls app: thin adapters that take ids (pretix style).

Print jobs queue :func:`render_print_job` by its name (:data:`walls.print_jobs.RENDER_TASK`).
A job is acknowledged late and rejected when its worker process is lost, so the broker delivers
it again at once and the next worker renders it anew (rendering is idempotent); a worker whose
whole machine died leaves the job stalled (no heartbeat), which the director retries from the
page (walls.print_jobs.retry_print). A render is stopped after ``settings.PRINT_TIME_LIMIT``
seconds (soft; hard 30 s later) and marked failed. No task retries itself.
"""

from celery import shared_task
from django.conf import settings

from walls.print_jobs import RENDER_TASK, run_print_job


@shared_task(name=RENDER_TASK, acks_late=True, reject_on_worker_lost=True,
             soft_time_limit=settings.PRINT_TIME_LIMIT, time_limit=settings.PRINT_TIME_LIMIT + 30)
def render_print_job(job_id: int) -> str:
    """Render print job ``job_id`` and return the stored file's name (idempotent)."""
    return run_print_job(job_id).file.name
