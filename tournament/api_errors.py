"""The REST API's one answer to an input error (settings ``REST_FRAMEWORK["EXCEPTION_HANDLER"]``).

A service refuses an input by raising a :class:`tournament.errors.FieldError` (``ResultError``,
``SetupError``, ``WallError``, ``PrintError``); an API view lets it through and the client gets
the shape of DRF's own validation errors, keyed by the field::

    HTTP 400 (or the error's status: 409 a conflict, 403 a forbidden change, 429 a PIN or a call to wait for: ``Retry-After``)
    {"changes.E": ["the score changes must add up to 0"]}

A result that collides with a stored one (409) also names it: ``{"set": [...], "existing": 17}``;
an error with a ``code`` gives it: ``{"field": [...], "code": "..."}``.
Every other exception gets DRF's own handling.
"""

from __future__ import annotations

from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from tournament.errors import FieldError


def exception_handler(exc, context):
    """DRF exception handler: a :class:`~tournament.errors.FieldError` becomes
    ``{field: [message]}`` (plus ``existing``: the primary key of the stored result a duplicate
    met, when the error carries one; ``code``, when it has one) with the error's ``status`` (and
    ``Retry-After`` when it says how long to wait); anything else goes to DRF's
    default handler. The transaction is not rolled back for a FieldError, so what a service
    records on purpose before refusing (a wrong PIN counted towards the table's limit) stays."""
    if isinstance(exc, FieldError):
        body = {exc.field: [exc.message]}
        existing = getattr(exc, "existing", None)
        if existing is not None:
            body["existing"] = existing.pk
        if getattr(exc, "code", ""):
            body["code"] = exc.code
        response = Response(body, status=exc.status)
        if getattr(exc, "retry_after", None):
            response["Retry-After"] = str(exc.retry_after)
        return response
    return drf_exception_handler(exc, context)
