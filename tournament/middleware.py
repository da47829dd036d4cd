"""Request middleware of the project.

:class:`DatabaseUnavailableMiddleware` turns a lost database connection into a clear answer.
Every write path runs in one transaction (``transaction.atomic``), so when the connection goes
away mid-request the database rolls the whole write back: the caller is told exactly that,
with a 503 and ``Retry-After``, instead of a bare 500.
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


class DatabaseUnavailableMiddleware:
    """Answer 503 ("nothing was stored, try again") when the database connection fails.

    API requests (paths under ``/api/``) get ``{"detail": ...}`` JSON; pages get the
    ``503.html`` template (plain text if even that needs the database). Django closes the
    broken connection when the request ends, so the next request opens a new one.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, (OperationalError, InterfaceError)):
            return None
        # The operator still needs the cause: the client gets a 503, the log gets the traceback.
        logger.error("database unavailable during %s %s: %s", request.method, request.path, exception, exc_info=exception)
        detail = _("The database could not be reached, so nothing was stored. "
                   "Wait a few seconds and send it again.")
        if request.path.startswith("/api/"):
            response = JsonResponse({"detail": detail}, status=503)
        else:
            try:
                response = render(request, "503.html", {"detail": detail}, status=503)
            except DatabaseError:  # the page's own look-ups (user, menus) need the database too
                response = HttpResponse(detail, content_type="text/plain; charset=utf-8", status=503)
        response["Retry-After"] = str(RETRY_AFTER)
        return response


class BadRequestMiddleware:
    """Answer 400 with the message when a page's query parameter cannot be used
    (:class:`tournament.query.QueryParamError`): JSON ``{"<name>": [message]}`` under ``/api/``
    and for ``.json`` URLs. (REST API views answer it themselves the same
    way, :mod:`tournament.api_errors`.) Pages get the ``bad_query.html`` template, not
    ``400.html``: Django's own 400 answer (e.g. the admin's refused seed lookups) stays the same
    whatever the query, so it tells nothing about the seed (docs/security.md, "The master seed")."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, QueryParamError):
            return None
        if request.path.startswith("/api/") or request.path.endswith(".json"):
            return JsonResponse({exception.field: [exception.message]}, status=400)
        try:
            return render(request, "bad_query.html", {"detail": exception.message}, status=400)
        except DatabaseError:
            return HttpResponse(exception.message, content_type="text/plain; charset=utf-8", status=400)
