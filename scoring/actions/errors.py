"""The error of every action on hand results (:mod:`scoring.actions`)."""

from __future__ import annotations

from scoring.models import HandResult
from tournament.errors import FieldError


class ResultError(FieldError):
    """A result that cannot be stored. ``field`` names the input (``set``, ``table``,
    ``changes.E``, ``fans``, ``hand``, ``entered_by_seat``, ``pin``, ``revision``...),
    ``message`` says what is wrong and how to fix it; ``existing`` is the stored result a
    duplicate collided with; ``status`` the HTTP status an adapter answers with (400, or 409 for
    a conflict, 403 for a forbidden change, 429 for a device held back by wrong PINs); ``code`` a
    name the pages and the API's clients may recognise a refusal by (``""`` unless set);
    ``retry_after`` the seconds to wait before trying again (a 429), answered as ``Retry-After``.
    No refusal ever depends on a wall (docs/security.md, "The wall check")."""

    def __init__(self, field: str, message: str, existing: HandResult | None = None, status: int = 400, code: str = "",
                 retry_after: int | None = None):
        super().__init__(field, message)
        self.existing = existing
        self.status = status
        self.retry_after = retry_after
        self.code = code
