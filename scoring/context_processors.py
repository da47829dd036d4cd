"""What every page's header needs to know about the browser's table login.

A phone logged in as a table (:func:`scoring.table_access.login_table`) shows which table it
scores for, linking to that table's page, where the header otherwise offers "Log in" (the account
login, of no use at the table).
"""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from scoring.table_access import TABLE_SESSION_KEY, scorer_table_ids
from tournament.models import Table


def _latest_table(request) -> dict | None:
    """``{"label": "Table 3", "url": the table's page}`` for the table this browser logged into
    last and whose login still holds (:func:`scoring.table_access.scorer_table_ids`), else None.
    No query for a browser that never logged into a table; else the table logins' own queries and
    one for the table."""
    session = getattr(request, "session", None)
    if session is None or not session.get(TABLE_SESSION_KEY):
        return None
    valid = scorer_table_ids(request)
    if not valid:
        return None
    stored = session.get(TABLE_SESSION_KEY) or {}
    latest = max(valid, key=lambda pk: (float(stored.get(str(pk), 0)), pk))
    table = Table.objects.select_related("group__session__event").filter(pk=latest).first()
    if table is None:
        return None
    event = table.group.session.event
    return {"label": _("Table %(n)s") % {"n": table.number}, "event": event.name,
            "url": reverse("table", kwargs={"slug": event.slug, "table_id": table.pk})}


def logged_table(request) -> dict:
    """Context processor: ``logged_table``, :func:`_latest_table` computed when a template first
    reads it (pages that never show the header pay nothing)."""
    found: list[Table | None] = []

    def lookup():
        if not found:
            found.append(_latest_table(request))
        return found[0]

    return {"logged_table": lookup}
