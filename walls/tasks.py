"""Celery tasks of the walls app: thin adapters that take ids (pretix style)."""

from celery import shared_task

from walls.printing_jobs import run_print_job


@shared_task(bind=True, acks_late=True, max_retries=3, default_retry_delay=2)
def render_print_job(self, job_id: int) -> str:
    """Render print job ``job_id`` and return the stored file's name (idempotent)."""
    return run_print_job(job_id).file.name
