"""The REST API's JSON parser (settings ``REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"]``).

DRF's own :class:`rest_framework.parsers.JSONParser` lets Python's ``RecursionError`` through
for a body nested deeper than the interpreter's recursion limit (``[[[[…]]]]`` 50,000 deep), a
500. This one answers 400 ``{"detail": message}`` for it, like any other malformed body. No view
of the project decodes a request body with ``json.loads`` itself.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError


class JSONParser(parsers.JSONParser):
    """:class:`rest_framework.parsers.JSONParser` that refuses a too deeply nested body with a
    :class:`~rest_framework.exceptions.ParseError` (400) instead of a ``RecursionError`` (500)."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(_("JSON parse error: the body is nested too deeply. Send the fields of one "
                               "object, each a number, a text or a short list.")) from None
