"""The one shape of an input error: a field and a message. Pure core (no Django).

Each stage raises its own subclass of :class:`FieldError` (``SetupError`` of
:mod:`tournament.seating`, ``WallError`` of :mod:`walls.services`, ``PrintError`` of
:mod:`walls.print_kinds.base`, ``ResultError`` of :mod:`scoring.actions.errors`); the adapters answer every
one the same way: a form error on ``field``, a flash message, or in the REST API
``{field: [message]}`` with :attr:`FieldError.status` (:mod:`tournament.api_errors`).
"""

from __future__ import annotations


class FieldError(ValueError):
    """An input that cannot be used. ``field`` names it (a form or JSON field, ``changes.E``,
    ``session``...), ``message`` says what is wrong and how to fix it (translated when raised);
    ``str()`` is ``"field: message"``. ``status`` is the HTTP status an adapter answers with:
    400 unless a subclass says otherwise (a conflict 409, a forbidden change 403...)."""

    status: int = 400

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message
