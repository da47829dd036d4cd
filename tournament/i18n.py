"""``gettext`` for the pure core: the modules that import nothing from Django (:mod:`walls.tiles`,
:mod:`walls.rulesets`, :mod:`walls.derivation`, :mod:`tournament.movement`,
:mod:`tournament.regrouping`, :mod:`scoring.payments`, :mod:`scoring.fan_check`,
:mod:`scoring.conversion`; docs/architecture.md lists the layer).

Their error messages are wrapped for translation (``from tournament.i18n import gettext as _``)
and translated when they are raised, never at import time. Outside the Django project (a script,
another tool) nothing is installed and the message comes back as it is, in English. Inside it,
:class:`tournament.apps.TournamentConfig` installs Django's ``gettext`` when the app registry is
ready, so the message comes back in the language ``LocaleMiddleware`` activated for the request.
The core therefore never imports Django: the translator is handed to it (dependency inversion),
and ``lint-imports`` keeps it that way.
"""

from __future__ import annotations

from collections.abc import Callable

_translate: Callable[[str], str] | None = None


def install(translate: Callable[[str], str] | None) -> None:
    """Use ``translate`` (``str -> str``, e.g. Django's ``gettext``) for every later message;
    ``None`` goes back to English."""
    global _translate
    _translate = translate


def gettext(message: str) -> str:
    """``message`` in the active language once a translator is installed, else unchanged."""
    return _translate(message) if _translate is not None else message
