"""``gettext`` for the standalone modules: :mod:`scoring.payments`, :mod:`scoring.fan_check`,
:mod:`scoring.conversion`, :mod:`walls.rulesets`, :mod:`walls.tiles`, :mod:`tournament.movement`
and :mod:`tournament.regrouping`.

Those modules import nothing from Django, so that scripts and other tools can use them. Their
error messages are still wrapped for translation (``from scoring.i18n import gettext as _``):
inside the Django project, where ``LocaleMiddleware`` has activated the request's language, the
message comes back translated; anywhere else (no Django, or Django not set up) it is returned
as it is, in English. Messages are translated when they are raised, never at import time.

This module imports nothing from the project, so any app may import it without an import cycle
(``scoring/__init__.py`` is empty; ``tournament/__init__.py`` would load Celery, which is why the
helper does not live there).
"""

from __future__ import annotations


def gettext(message: str) -> str:
    """``message`` in the active language when Django is set up, else unchanged."""
    try:
        from django.apps import apps
        from django.conf import settings
    except ImportError:
        return message
    if not (settings.configured and apps.ready):
        return message
    from django.utils.translation import gettext as django_gettext

    return django_gettext(message)
