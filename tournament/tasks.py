"""Celery tasks of the tournament app: thin adapters over the services.

:func:`delete_expired_api_tokens` runs periodically (``CELERY_BEAT_SCHEDULE`` in
tournament/settings.py, with Celery beat: ``celery -A tournament worker --beat`` on one machine,
docs/deploy.md): authentication refuses an expired API token without deleting it
(:class:`tournament.api_tokens.TokenAuthentication`), this deletes them. :func:`merge_venue_bundle`
merges a venue's uploaded results bundle.
"""

from celery import shared_task

from tournament.api_tokens import delete_expired_tokens
from tournament.venue_exchange import MERGE_TASK, merge_bundle

DELETE_EXPIRED_TOKENS_TASK = "tournament.delete_expired_api_tokens"


@shared_task(name=DELETE_EXPIRED_TOKENS_TASK)
def delete_expired_api_tokens() -> int:
    """Delete every expired API token (:func:`tournament.api_tokens.delete_expired_tokens`);
    returns how many. Idempotent."""
    return delete_expired_tokens()


@shared_task(name=MERGE_TASK, acks_late=True, reject_on_worker_lost=True)
def merge_venue_bundle(bundle_id: int) -> str:
    """Merge an uploaded results bundle (:func:`tournament.venue_exchange.merge_bundle`); returns
    its status. Idempotent: a merged or refused upload is left as it is."""
    return merge_bundle(bundle_id).status
