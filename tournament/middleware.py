"""Request middleware of the project.

:class:`DatabaseUnavailableMiddleware` turns a lost database connection into a clear answer, a
503 with ``Retry-After`` instead of a bare 500, that claims nothing it cannot know. Every write
path runs in one transaction (``transaction.atomic``), but a connection can go away after the
commit too (while answering), so a write met by a fault is said to be of unknown fate; the
result writes that carry a request key answer more exactly themselves
(:mod:`scoring.actions.request_keys`: stored, or not stored).
"""

import logging

from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from tournament.query import QueryParamError

logger = logging.getLogger("tournament.database")

#: Seconds a client is asked to wait before trying again.
RETRY_AFTER = 5


class _ExceptionMiddleware:
    """A middleware that passes every request on and answers only in ``process_exception``."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)


def _page(request, template: str, detail: str, status: int) -> HttpResponse:
    """``template`` showing ``detail`` with ``status``; ``detail`` as plain text when the page's
    own look-ups (user, menus) need the database too."""
    try:
        return render(request, template, {"detail": detail}, status=status)
    except DatabaseError:
        return HttpResponse(detail, content_type="text/plain; charset=utf-8", status=status)


class DatabaseUnavailableMiddleware(_ExceptionMiddleware):
    """Answer 503 when the database connection fails: a read is asked to try again; a write
    (POST, PUT, PATCH, DELETE) is said to be possibly stored or not, and the caller is asked to
    look before sending it again (``stored``: null in the JSON answer).

    API requests (paths under ``/api/``) get ``{"detail": ...}`` JSON; pages get the
    ``503.html`` template (plain text if even that needs the database). Django closes the
    broken connection when the request ends, so the next request opens a new one.
    """

    def process_exception(self, request, exception):
        if not isinstance(exception, (OperationalError, InterfaceError)):
            return None
        # The operator still needs the cause: the client gets a 503, the log gets the traceback.
        logger.error("database unavailable during %s %s: %s", request.method, request.path, exception, exc_info=exception)
        if request.method in ("GET", "HEAD", "OPTIONS"):
            detail = _("The database could not be reached. Wait a few seconds and try again.")
        else:  # a write that carried a request key says so (scoring.actions.request_keys): sending it again is safe
            detail = getattr(request, "fault_message", None) or _(
                "The connection to the database was lost, so whether this was stored is not known. "
                "Wait a few seconds and look at what is stored before sending it again.")
        if request.path.startswith("/api/"):
            body = {"detail": detail}
            if request.method not in ("GET", "HEAD", "OPTIONS"):
                body["stored"] = None
            response = JsonResponse(body, status=503)
        else:
            response = _page(request, "503.html", detail, 503)
        response["Retry-After"] = str(RETRY_AFTER)
        return response


class BadRequestMiddleware(_ExceptionMiddleware):
    """Answer 400 with the message when a page's query parameter cannot be used
    (:class:`tournament.query.QueryParamError`): JSON ``{"<name>": [message]}`` under ``/api/``
    and for ``.json`` URLs. (REST API views answer it themselves the same
    way, :mod:`tournament.api_errors`.) Pages get the ``bad_query.html`` template, not
    ``400.html``: Django's own 400 answer (e.g. the admin's refused seed lookups) stays the same
    whatever the query, so it tells nothing about the seed (docs/security.md, "The master seed")."""

    def process_exception(self, request, exception):
        if not isinstance(exception, QueryParamError):
            return None
        if request.path.startswith("/api/") or request.path.endswith(".json"):
            return JsonResponse({exception.field: [exception.message]}, status=400)
        return _page(request, "bad_query.html", exception.message, 400)
