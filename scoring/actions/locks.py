"""The one lock every action on a set takes first: the comparison scope of a table.

Confirm, dispute and correct (:mod:`scoring.actions.confirmation`) and the fouled marks
(:mod:`scoring.actions.fouled`) lock the comparison scope (the group, or the session when the
whole field is compared) and then the row they change, always in this order: two of them on the
same set run one after the other (each rescores the set seeing the other's committed change) and
cannot deadlock.
"""

from __future__ import annotations

from tournament.models import Event, Group, Session


def lock_scope(event: Event, table_id: int) -> None:
    """Lock the comparison scope of the table ``table_id`` (a Table's primary key): its group, or
    its session when the whole field is compared (``event.comparison``). One query
    (``SELECT ... FOR UPDATE`` of the scope's row alone; nothing on a database without row locks).

    Callers take it inside their transaction and before locking the row they change (a result,
    a fouled mark), so every action on a set takes the locks in the same order (this module's
    docstring).
    """
    scope = (Session.objects.filter(groups__tables=table_id) if event.comparison == Event.Comparison.FIELD
             else Group.objects.filter(tables=table_id))
    list(scope.select_for_update(of=("self",)).values_list("pk", flat=True))
