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

import contextlib
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

_translate: Callable[[str], str] | None = None
_override: Callable[[str], AbstractContextManager[Any]] | None = None


def install(translate: Callable[[str], str] | None,
            override: Callable[[str], AbstractContextManager[Any]] | None = None) -> None:
    """Use ``translate`` (``str -> str``, e.g. Django's ``gettext``) for every later message, and
    ``override`` (``language code -> context manager``, e.g. Django's ``translation.override``)
    for :func:`language`; ``None`` goes back to English."""
    global _translate, _override
    _translate, _override = translate, override


def language(code: str) -> AbstractContextManager[Any]:
    """A context manager inside which :func:`gettext` answers in language ``code`` (the site's
    codes: ``"en"``, ``"ja"``, ``"zh-hans"``), whatever the request activated: the printed sheets
    are in the language the director chose for them. Without an installed ``override`` (outside
    Django) it changes nothing, and messages stay English."""
    return _override(code) if _override is not None else contextlib.nullcontext()


def gettext(message: str) -> str:
    """``message`` in the active language once a translator is installed, else unchanged."""
    return _translate(message) if _translate is not None else message


def _active(message: str) -> str:
    """:func:`gettext` of a message marked elsewhere (a call by another name, so that the
    catalogue tools do not take the variable for a message)."""
    return _translate(message) if _translate is not None else message


def catalogue_text(message: str) -> str:
    """A msgid held in a variable (a built-in rule set's name or hand-ending rule, a label stock's
    title: marked with :func:`gettext_noop` where it is defined) in the active language; any other
    text (a custom rule set's name) comes back as it is. Named apart from ``gettext`` so that the
    catalogue tools do not take the variable for a message."""
    return _active(message) if message else message


def gettext_noop(message: str) -> str:
    """Marks ``message`` for the catalogue (``makemessages`` finds it) without translating it now;
    it is translated later, when shown, through :func:`gettext`."""
    return message


_SEAT_NAMES = {"E": gettext_noop("East"), "S": gettext_noop("South"), "W": gettext_noop("West"), "N": gettext_noop("North")}
_SEAT_LABELS = {"E": gettext_noop("E"), "S": gettext_noop("S"), "W": gettext_noop("W"), "N": gettext_noop("N")}


def seat_name(seat: str) -> str:
    """The seat's wind as a word in the active language: ``"E"`` → ``"East"`` (ja ``"東家"``,
    zh_Hans ``"东家"``); for sentences and headings. A letter other than ``E``/``S``/``W``/``N``
    comes back unchanged (a custom rule set may name seats otherwise)."""
    name = _SEAT_NAMES.get(seat)
    return _active(name) if name is not None else seat


def seat_label(seat: str) -> str:
    """The seat's short label in the active language: ``"E"`` → ``"E"`` (ja ``"東"``, zh_Hans
    ``"东"``); for grids, column heads and score lists. A letter other than ``E``/``S``/``W``/``N``
    comes back unchanged."""
    label = _SEAT_LABELS.get(seat)
    return _active(label) if label is not None else seat
