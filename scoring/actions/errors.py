"""The error of every action on hand results (:mod:`scoring.actions`)."""

from __future__ import annotations

from scoring.models import HandResult
from tournament.errors import FieldError


class ResultError(FieldError):
    """A result that cannot be stored. ``field`` names the input (``set``, ``table``,
    ``changes.E``, ``fans``, ``hand``, ``entered_by_seat``, ``pin``, ``revision``...),
    ``message`` says what is wrong and how to fix it; ``existing`` is the stored result a
    duplicate collided with; ``status`` the HTTP status an adapter answers with (400, or 409 for
    a conflict, 403 for a forbidden change, 422 for an entry that does not fit the wall); ``code``
    a name the pages and the API's clients recognise a refusal by (``"wall_mismatch"``: the entry
    does not fit the wall the table played, and is stored, flagged, when sent again with
    ``insist``: :func:`scoring.actions.entry.check_wall`), ``""`` for the others."""

    def __init__(self, field: str, message: str, existing: HandResult | None = None, status: int = 400, code: str = ""):
        super().__init__(field, message)
        self.existing = existing
        self.status = status
        self.code = code
