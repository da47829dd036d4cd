"""The Celery application. With no ``CELERY_BROKER_URL`` configured, tasks run eagerly in-process
(the embedded default); with one, a real worker runs them: ``celery -A tournament worker``."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")

app = Celery("tournament")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
