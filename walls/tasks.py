"""Celery tasks of the walls app: thin adapters that take ids (pretix style).

Print jobs queue :func:`render_print_job` by its name (:data:`walls.print_jobs.RENDER_TASK`).
A job is acknowledged late: when the worker rendering it dies, the broker delivers it again and
the next worker renders it anew (rendering is idempotent); no task retries itself.
"""

from celery import shared_task

from walls.print_jobs import RENDER_TASK, run_print_job


@shared_task(name=RENDER_TASK, acks_late=True)
def render_print_job(job_id: int) -> str:
    """Render print job ``job_id`` and return the stored file's name (idempotent)."""
    return run_print_job(job_id).file.name
