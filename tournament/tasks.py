"""Celery tasks of the tournament app: thin adapters over the services.

:func:`delete_expired_api_tokens` runs periodically (``CELERY_BEAT_SCHEDULE`` in
tournament/settings.py, with Celery beat: ``celery -A tournament worker --beat`` on one machine,
docs/deploy.md): authentication refuses an expired API token without deleting it
(:class:`tournament.api_tokens.TokenAuthentication`), this deletes them.
"""

from celery import shared_task

from tournament.api_tokens import delete_expired_tokens

DELETE_EXPIRED_TOKENS_TASK = "tournament.delete_expired_api_tokens"


@shared_task(name=DELETE_EXPIRED_TOKENS_TASK)
def delete_expired_api_tokens() -> int:
    """Delete every expired API token (:func:`tournament.api_tokens.delete_expired_tokens`);
    returns how many. Idempotent."""
    return delete_expired_tokens()
