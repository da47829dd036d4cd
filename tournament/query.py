"""Whole-number query parameters (``?session=2``, ``?rows=20``, ``?version=3``), parsed in one
place: a value that is not a usable whole number is the client's mistake, answered 400 naming the
parameter and the fix, never a 500 (``"²".isdigit()`` is True but ``int("²")`` fails; a
20-digit number overflows the database).

Views call :func:`int_param`; it raises :class:`QueryParamError`, a
:class:`~tournament.errors.FieldError` keyed ``?<name>``: the REST API answers it
``{"session": [message]}`` (:mod:`tournament.api_errors`), pages get the 400 page from
:class:`tournament.middleware.BadRequestMiddleware`.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournament.errors import FieldError

#: The largest number any query parameter takes (sessions, sets, versions, rows): far below the
#: database's 32-bit integers.
LARGEST = 1_000_000


class QueryParamError(FieldError):
    """A query parameter that is not a whole number in its range; ``field`` is its name."""


def int_or(value, default: int | None = None) -> int | None:
    """``value`` (a posted field, a bound form value) as an int, or ``default`` when it is none:
    the lenient reading for inputs whose absence the caller handles."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def int_param(request, name: str, *, default: int | None = None, minimum: int = 1, maximum: int = LARGEST) -> int | None:
    """``request.GET[name]`` (or ``request.query_params``) as an int from ``minimum`` to
    ``maximum``; ``default`` when absent or blank. Raises :class:`QueryParamError` otherwise."""
    query = getattr(request, "query_params", None) or request.GET
    raw = (query.get(name) or "").strip()
    if not raw:
        return default
    if raw.isascii() and raw.isdigit() and len(raw) <= len(str(maximum)):
        value = int(raw)
        if minimum <= value <= maximum:
            return value
    raise QueryParamError(name, _("?%(name)s=%(value)s is not a whole number from %(minimum)s to %(maximum)s: "
                                  "give one in that range, or leave %(name)s out.")
                          % {"name": name, "value": raw[:20], "minimum": minimum, "maximum": maximum})
