"""Querysets compiled to SQL once per process, then run with new parameters.

Building a queryset (``filter``, ``select_related``, ``annotate``) and compiling it to SQL cost
more CPU than running it: about a quarter of a result entry went into compiling the table plan's
one query (docs/performance.md, "Entry, pages and bulk writes"). A :class:`PreparedQuery` builds
its queryset once per process and database, with placeholder values standing for its
arguments, keeps the compiled SQL and the compiler (which knows how to turn rows into model
instances, related objects included), and answers each call by running that SQL with the
call's values put where the placeholders were: the same rows, the same objects, the same
statement as the queryset built afresh would give.

Only whole-number and string arguments that the queryset uses as plain parameters are
prepared (keyed by their types): when a
placeholder does not come out as exactly one parameter value per use (a value the ORM folds
into the SQL text, or turns into something else), the query is not prepared and every call
builds the queryset as usual, so the answer is right either way. The result is always a list
(the queryset evaluated), never a queryset to filter further.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import EmptyResultSet, FullResultSet
from django.db import connections, router
from django.db.models import Model, QuerySet

#: placeholder values standing for whole-number arguments while compiling: within a small integer
#: field's range (the ORM refuses out-of-range values of a field before they reach the SQL) and
#: unlike any constant a query of this project holds
_NUMBERS = tuple(30011 + 2 * i for i in range(64))


_INT32 = 2**31


def _placeholder(kind: type, index: int) -> int | str:
    return _NUMBERS[index] if kind is int else f"\x1fprepared-{index}\x1f"


class PreparedQuery:
    """The queryset ``build(*args)`` of ``model`` (``args`` whole numbers or strings) compiled once per process
    and database (module docstring). Calling it with the arguments returns ``list(build(*args))``."""

    def __init__(self, model: type[Model], build: Callable[..., QuerySet]):
        self.model = model
        self._build = build
        self._compiled: dict[tuple[str, str, tuple[type, ...]], _Compiled | None] = {}
        self._lock = threading.Lock()

    def _compile(self, kinds: tuple[type, ...]) -> _Compiled | None:
        """The query compiled with placeholders for arguments of types ``kinds``, or None when it
        cannot be prepared (module docstring)."""
        if len(kinds) > len(_NUMBERS):
            return None
        placeholders = tuple(_placeholder(kind, i) for i, kind in enumerate(kinds))
        queryset = self._build(*placeholders)
        compiler = queryset.query.get_compiler(using=queryset.db)
        try:
            sql, params = compiler.as_sql()
        except (EmptyResultSet, FullResultSet):  # the ORM answers without asking the database: leave it to
            return None
        slots = tuple(placeholders.index(p) if type(p) in (int, str) and p in placeholders else None for p in params)
        if {s for s in slots if s is not None} != set(range(len(kinds))) or any(str(p) in sql for p in placeholders):
            return None
        return _Compiled(queryset, compiler, sql, tuple(params), slots)

    def __call__(self, *args: int | str) -> list:
        kinds = tuple(type(a) for a in args)
        if any(kind not in (int, str) for kind in kinds) or any(isinstance(a, int) and not -_INT32 < a < _INT32 for a in args):
            # another type, or a number the ORM refuses for the field (an empty answer, not a database error)
            return list(self._build(*args))
        alias = router.db_for_read(self.model)
        key = (alias, connections[alias].vendor, kinds)
        if key not in self._compiled:
            with self._lock:
                if key not in self._compiled:
                    self._compiled[key] = self._compile(kinds)
        found = self._compiled[key]
        if found is None:
            return list(self._build(*args))
        params = tuple(args[s] if s is not None else c for s, c in zip(found.slots, found.params, strict=True))
        runner = copy.copy(found.compiler)  # the compiler as set up by compiling: what turns rows into objects
        runner.connection = connections[alias]  # this thread's connection
        runner.as_sql = lambda *a, **k: (found.sql, params)
        queryset = found.queryset._chain()
        queryset.query.get_compiler = lambda using=None, connection=None, elide_empty=True: runner
        return list(queryset)


@dataclass(frozen=True)
class _Compiled:
    queryset: QuerySet
    compiler: Any
    sql: str
    params: tuple
    slots: tuple[int | None, ...]
