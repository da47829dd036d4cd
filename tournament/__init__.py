"""The Django project package: settings, urls, the Celery app, and the event, people, seating and
movement models (the plain seating/movement logic lives in ``movement.py`` and ``regrouping.py``)."""

from .celery import app as celery_app

__all__ = ["celery_app"]
