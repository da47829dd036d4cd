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

A compiled query that locks rows (``select_for_update``) raises
``TransactionManagementError`` when run outside a transaction, as the ORM does (on databases
with row locks: not on SQLite, where the ORM leaves the lock out).

This uses private parts of Django's ORM (the compiler's internals, the related populators,
``ModelState``) as they are in the Django series :data:`TESTED_DJANGO`, whose answers
``tests/test_prepared_sql.py`` checks against the ORM's for every prepared statement of the
application. Under any other Django (or when those parts cannot be imported) nothing is
prepared: every call builds the queryset, ``create``s or ``save``s as usual, so an upgrade
is slower, never wrong.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import django
from django.core.exceptions import EmptyResultSet, FullResultSet
from django.db import DatabaseError, IntegrityError, connections, router, transaction
from django.db.transaction import TransactionManagementError
from django.db.models import Model, QuerySet, signals

#: the Django series whose private ORM parts this module was written against and tested with
TESTED_DJANGO = (5, 2)

try:  # private parts of the ORM: under another Django they may be gone or mean something else
    from django.db.models.base import ModelState
    from django.db.models.constants import OnConflict
    from django.db.models.fields.related_descriptors import ForeignKeyDeferredAttribute
    from django.db.models.query import (FlatValuesListIterable, ModelIterable, ValuesIterable, ValuesListIterable,
                                         get_related_populators)
    from django.db.models.query_utils import DeferredAttribute
    from django.db.models.sql import InsertQuery, UpdateQuery
except ImportError:  # pragma: no cover - another Django: nothing is prepared (module docstring)
    _IMPORTED = False
else:
    _IMPORTED = True

#: whether statements are prepared at all: only under :data:`TESTED_DJANGO` (module docstring)
ENABLED = _IMPORTED and django.VERSION[:2] == TESTED_DJANGO

#: placeholder values standing for whole-number arguments while compiling: within a small integer
#: field's range (the ORM refuses out-of-range values of a field before they reach the SQL) and
#: unlike any constant a query of this project holds
_NUMBERS = tuple(30011 + 2 * i for i in range(64))


_INT32 = 2**31


def _psycopg_numeric():
    """psycopg's numeric types module, or None where psycopg is not installed (SQLite only)."""
    try:
        from psycopg.types import numeric
    except ImportError:
        return None
    return numeric


def _placeholder(kind: type, index: int) -> int | str:
    return _NUMBERS[index] if kind is int else f"\x1fprepared-{index}\x1f"


def _slot(value: Any, placeholders: tuple) -> tuple[int, type | None] | None:
    """Where a compiled parameter ``value`` comes from: ``(index of the argument, None)`` when it is
    that argument's placeholder as given, ``(index, wrapper)`` when the database backend wrapped
    the value in a type of its own (on PostgreSQL, psycopg's ``Int2``/``Int4``/``Int8``, chosen by
    the field: the argument is wrapped the same way at each call; another wrapper leaves the query
    unprepared), None when it is a constant of the query."""
    if isinstance(value, bool) or not isinstance(value, (int, str)) or value not in placeholders:
        return None
    index = placeholders.index(value)
    return index, None if type(value) is type(placeholders[index]) else type(value)


#: the integer types psycopg binds, by their size in bits (Django's PostgreSQL backend wraps whole
#: numbers in them: ``DatabaseOperations.integerfield_type_map``)
_INTEGER_BITS = {cls: bits for cls, bits in (
    (getattr(_numeric, name), bits) for _numeric in (_psycopg_numeric(),) if _numeric is not None
    for name, bits in (("Int2", 16), ("Int4", 32), ("Int8", 64)))}


def _once(kept: dict, lock: threading.Lock, key: tuple, build: Callable[[], Any]) -> Any:
    """``kept[key]``, made by ``build()`` the first time it is asked (under ``lock``, so two
    threads asking at once build it once): a statement compiled once per process and database."""
    if key not in kept:
        with lock:
            if key not in kept:
                kept[key] = build()
    return kept[key]


def _has_save_receivers(model: type[Model]) -> bool:
    """Whether ``pre_save`` or ``post_save`` receivers listen to ``model``: a prepared write would
    skip them, so it is left to the ORM."""
    return signals.pre_save.has_listeners(model) or signals.post_save.has_listeners(model)


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
        slots = tuple(_slot(p, placeholders) for p in params)
        if {s[0] for s in slots if s is not None} != set(range(len(kinds))) or any(str(p) in sql for p in placeholders) \
                or any(s is not None and s[1] is not None and s[1] not in _INTEGER_BITS for s in slots):  # a wrapper it does not know
            return None
        return _Compiled(queryset, compiler, sql, tuple(params), slots, _Rows.of(queryset, compiler),
                         locks=bool(queryset.query.select_for_update))

    def __call__(self, *args: int | str) -> list:
        """``list(build(*args))``: the compiled statement run with ``args`` when the query is
        prepared, else the queryset built and evaluated. Raises what the queryset raises
        (``TransactionManagementError`` for a locking query outside a transaction, on a database
        with row locks; what the database raises)."""
        kinds = tuple(type(a) for a in args)
        if not ENABLED or any(kind not in (int, str) for kind in kinds) or any(isinstance(a, int) and not -_INT32 < a < _INT32 for a in args):
            # another type, or a number the ORM refuses for the field (an empty answer, not a database error)
            return list(self._build(*args))
        alias = router.db_for_read(self.model)
        connection = connections[alias]  # this thread's connection
        found = _once(self._compiled, self._lock, (alias, connection.vendor, kinds), lambda: self._compile(kinds))
        if found is None:
            return list(self._build(*args))
        if found.locks and connection.get_autocommit() and connection.features.has_select_for_update \
                and connection.features.supports_transactions:  # as SQLCompiler.as_sql checks it
            raise TransactionManagementError("select_for_update cannot be used outside of a transaction.")
        params = []
        for slot, compiled in zip(found.slots, found.params, strict=True):
            if slot is None:
                params.append(compiled)
                continue
            value, wrap = args[slot[0]], slot[1]
            if wrap is not None:  # the database's integer type (psycopg's Int2, Int4, Int8)
                bound = 2 ** (_INTEGER_BITS[wrap] - 1)
                if not -bound <= value < bound:  # out of the column's range: the ORM answers it (nothing found)
                    return list(self._build(*args))
                value = wrap(value)
            params.append(value)
        if found.rows is not None and found.rows.ready():
            return found.rows.read(connection, found, params)
        runner = copy.copy(found.compiler)  # the compiler as set up by compiling: what turns rows into objects
        runner.connection = connection
        runner.as_sql = lambda *a, **k: (found.sql, params)
        runner.get_converters = lambda expressions: _converters(found, connection, expressions)
        queryset = found.queryset._chain()
        queryset.query.get_compiler = lambda using=None, connection=None, elide_empty=True: runner
        return list(queryset)


@dataclass(frozen=True)
class _Compiled:
    queryset: QuerySet
    compiler: Any
    sql: str
    params: tuple
    slots: tuple[tuple[int, type | None] | None, ...]
    #: how rows become what the queryset yields without the ORM's per-run set-up (None: the
    #: queryset's own iterable does it): see :class:`_Rows`
    rows: _Rows | None = None
    #: connection id → (connection, converters): see :func:`_converters`
    converters: dict = field(default_factory=dict)
    #: whether the query locks rows (``select_for_update``): refused outside a transaction
    locks: bool = False


#: the descriptors ``Model.__init__`` sets a field through that only store the value (on a new
#: instance): a field with another descriptor (a file, a custom field) keeps ``from_db``
_PLAIN_DESCRIPTORS = (DeferredAttribute, ForeignKeyDeferredAttribute)


def _maker(model: type[Model], init_list: list[str], db: str) -> Callable[[Any], Model] | None:
    """A function making the instance ``model.from_db(db, init_list, values)`` makes, without
    ``Model.__init__``'s per-field set-up, or None when that would not be the same instance:
    ``model`` overrides ``from_db`` or ``__init__``, the row's fields are not concrete fields in
    the model's order (a deferred field is simply absent, as ``from_db`` leaves it), or a
    field's descriptor does more than store the value. ``pre_init``/``post_init`` receivers are
    checked at each read (:meth:`_Rows.ready`)."""
    concrete = [f.attname for f in model._meta.concrete_fields]
    if model.from_db.__func__ is not Model.from_db.__func__ or model.__init__ is not Model.__init__ \
            or not set(init_list) <= set(concrete) or init_list != [name for name in concrete if name in init_list] \
            or any(type(_descriptor(model, name)) not in _PLAIN_DESCRIPTORS for name in init_list):
        return None
    new = Model.__new__

    def make(values) -> Model:
        obj = new(model)
        state = obj.__dict__["_state"] = ModelState()
        state.adding = False
        state.db = db
        obj.__dict__.update(zip(init_list, values))
        return obj

    return make


def _descriptor(model: type[Model], name: str) -> Any:
    for klass in model.__mro__:
        if name in klass.__dict__:
            return klass.__dict__[name]
    return None


@dataclass(frozen=True)
class _Related:
    """One ``select_related`` object of a row, as :class:`django.db.models.query.RelatedPopulator`
    reads it (its column range or reordering, key position, setters), made by ``make``."""

    populator: Any
    make: Callable[[Any], Model]
    children: tuple[_Related, ...]

    def populate(self, row, from_obj: Model) -> None:
        p = self.populator
        data = p.reorder_for_init(row) if p.reorder_for_init else row[p.cols_start:p.cols_end]
        if data[p.pk_idx] is None:
            obj = None
        else:
            obj = self.make(data)
            for child in self.children:
                child.populate(row, obj)
        p.local_setter(from_obj, obj)
        if obj is not None:
            p.remote_setter(obj, from_obj)


@dataclass(frozen=True)
class _Rows:
    """How the rows of a compiled query become what the queryset's iterable yields, with the
    per-query set-up (related populators, converters, column names) done once:

    - a model queryset (:class:`django.db.models.query.ModelIterable`): the main instance from
      its columns, each ``select_related`` object set on it, the annotations set as attributes,
      every instance made by :func:`_maker` (about half of reading the table plan's seat rows
      went into the per-query set-up and ``Model.__init__``: docs/performance.md, "Entry, pages
      and bulk writes");
    - ``values()``: a dict of each row by the names ``ValuesIterable`` gives;
    - ``values_list()``: a tuple of each row; ``values_list(flat=True)``: its first column.

    Other querysets (named tuples, prefetching, known related objects, composite keys,
    combined queries) are left to their own iterable."""

    shape: str
    models: tuple[type[Model], ...] = ()
    make: Callable[[Any], Model] | None = None
    start: int = 0
    end: int = 0
    related: tuple[_Related, ...] = ()
    annotations: tuple[tuple[str, int], ...] = ()
    names: tuple[str, ...] = ()
    fields: tuple = ()
    trim: int | None = None

    @classmethod
    def of(cls, queryset: QuerySet, compiler) -> _Rows | None:
        """The reader of ``queryset`` as compiled by ``compiler``, or None (class docstring)."""
        kind = queryset._iterable_class
        shapes = {ModelIterable: "model", ValuesIterable: "values", ValuesListIterable: "list",
                  FlatValuesListIterable: "flat"}
        if kind not in shapes or queryset._prefetch_related_lookups or queryset._known_related_objects \
                or compiler.query.combinator:
            return None
        fields = tuple(s[0] for s in compiler.select[:compiler.col_count])
        if compiler.has_composite_fields(fields):
            return None
        common: dict[str, Any] = {"fields": fields, "trim": compiler.col_count if compiler.has_extra_select else None}
        query = compiler.query
        if kind is ValuesIterable:
            names = list(query.selected) if query.selected else [*query.extra_select, *query.values_select, *query.annotation_select]
            return cls("values", names=tuple(names), **common)
        if kind is not ModelIterable:
            return cls(shapes[kind], **common)
        return cls._model(queryset, compiler, common)

    @classmethod
    def _model(cls, queryset: QuerySet, compiler, common: dict[str, Any]) -> _Rows | None:
        db = queryset.db
        select, klass_info = compiler.select, compiler.klass_info
        if klass_info is None:
            return None
        models: list[type[Model]] = []

        def related(populator) -> _Related | None:
            make = _maker(populator.model_cls, populator.init_list, db)
            children = tuple(related(p) for p in populator.related_populators)
            if make is None or None in children:
                return None
            models.append(populator.model_cls)
            return _Related(populator, make, children)  # type: ignore[arg-type]

        model = klass_info["model"]
        select_fields = klass_info["select_fields"]
        start, end = select_fields[0], select_fields[-1] + 1
        make = _maker(model, [f[0].target.attname for f in select[start:end]], db)
        tops = tuple(related(p) for p in get_related_populators(klass_info, select, db))
        if make is None or None in tops:
            return None
        models.append(model)
        return cls("model", tuple(models), make, start, end, tops,  # type: ignore[arg-type]
                   tuple(compiler.annotation_col_map.items()), **common)

    def ready(self) -> bool:
        """Whether no ``pre_init``/``post_init`` receiver listens to one of the models (it must
        hear each instance made: the queryset's own iterable is used then)."""
        if not (signals.pre_init.receivers or signals.post_init.receivers):
            return True
        return not any(signals.pre_init.has_listeners(m) or signals.post_init.has_listeners(m) for m in self.models)

    def read(self, connection, found: _Compiled, params: tuple) -> list:
        """Run ``found``'s statement with ``params`` on ``connection`` (this thread's) and return
        what the queryset would yield."""
        with connection.cursor() as cursor:
            cursor.execute(found.sql, params)
            rows = cursor.fetchall()
        if self.trim is not None:
            rows = [r[:self.trim] for r in rows]
        converters = list(_converters(found, connection, self.fields).items())
        if converters:  # as SQLCompiler.apply_converters does
            converted = []
            for row in rows:
                row = list(row)
                for pos, (convs, expression) in converters:
                    value = row[pos]
                    for converter in convs:
                        value = converter(value, expression, connection)
                    row[pos] = value
                converted.append(row)
            rows = converted
        if self.shape == "flat":
            return [row[0] for row in rows]
        if self.shape == "list":
            return [tuple(row) for row in rows]
        if self.shape == "values":
            names = self.names
            return [dict(zip(names, row)) for row in rows]
        out = []
        make, start, end, related, annotations = self.make, self.start, self.end, self.related, self.annotations
        for row in rows:
            obj = make(row[start:end])  # type: ignore[misc]
            for r in related:
                r.populate(row, obj)
            for name, pos in annotations:
                setattr(obj, name, row[pos])
            out.append(obj)
        return out


def _converters(compiled: _Compiled, connection, expressions) -> dict:
    """``compiler.get_converters(expressions)`` of ``compiled``'s compiler on ``connection`` (the
    functions that turn each column's database value into the field's value: about a third of
    running a wide query such as the event's, asked again on every run), worked out once per
    connection and kept in ``compiled.converters``. The expressions are the compiled query's own,
    so the same objects every run: a compiled query's converters are only ever asked for its
    selected columns (``compiler.select[:col_count]``), so they are kept by connection alone. The
    connection is checked by identity, so a converter bound to one connection is never used with
    another."""
    kept = compiled.converters
    key = id(connection)
    found = kept.get(key)
    if found is None or found[0] is not connection:
        if len(kept) > 256:  # connections come and go with threads: keep the latest ones
            kept.clear()
        runner = copy.copy(compiled.compiler)
        runner.connection = connection
        found = kept[key] = (connection, type(runner).get_converters(runner, expressions))
    return found[1]


class PreparedInsert:
    """The INSERT of one row of ``model``, compiled to SQL once per process and database, then
    run with each new row's values: the statement ``model.objects.create(**values)`` sends, at
    about a quarter of its CPU (most of ``create`` goes into building and compiling the INSERT).

    Calling it with field values returns the saved instance, as ``create`` would: the defaults
    and ``auto_now_add``/``auto_now`` fields filled, the primary key read back with the insert
    (``RETURNING``), the instance marked as saved in that database. Raises what the database
    raises (``IntegrityError`` for a duplicate, as ``create`` does).

    Falls back to ``create`` (same answer, the ORM's cost) when the model has ``pre_save`` or
    ``post_save`` receivers (this would skip them), when the database cannot return the key
    with the insert, or when the compiled statement does not hold exactly one plain
    parameter per field (a field whose value the ORM writes as SQL of its own).

    ``ignore_conflicts``: a row breaking a unique constraint is not stored and the call returns
    None instead of raising (``INSERT ... ON CONFLICT DO NOTHING``, on SQLite ``INSERT OR
    IGNORE``, as ``bulk_create(ignore_conflicts=True)`` writes it): the caller then reads the row
    that was there, with no savepoint to roll back to (two statements fewer than catching the
    ``IntegrityError``). The fallback catches the ``IntegrityError`` in a savepoint instead."""

    def __init__(self, model: type[Model], *, ignore_conflicts: bool = False):
        self.model = model
        self.ignore_conflicts = ignore_conflicts
        meta = model._meta
        self.fields = tuple(f for f in meta.local_concrete_fields if not f.generated and f is not meta.auto_field)
        self._compiled: dict[tuple[str, str], tuple[str, Any] | None] = {}
        self._lock = threading.Lock()

    def _compile(self, obj: Model, alias: str) -> tuple[str, Any] | None:
        connection = connections[alias]
        meta = self.model._meta
        if meta.auto_field is None or meta.db_returning_fields != [meta.pk] \
                or not connection.features.can_return_columns_from_insert \
                or (self.ignore_conflicts and not connection.features.supports_ignore_conflicts):
            return None
        query = InsertQuery(self.model, on_conflict=OnConflict.IGNORE if self.ignore_conflicts else None)
        query.insert_values(self.fields, [obj])
        compiler = query.get_compiler(using=alias)
        compiler.returning_fields = [meta.pk]
        statements = compiler.as_sql()
        if len(statements) != 1:
            return None
        sql, params = statements[0]
        if len(params) != len(self.fields) or sql.count("%s") != len(self.fields) or "RETURNING" not in sql:
            return None
        return sql, compiler.returning_params

    def __call__(self, **values: Any) -> Model | None:
        obj = self.model(**values)
        alias = router.db_for_write(self.model, instance=obj)
        connection = connections[alias]
        values_now = [f.pre_save(obj, True) for f in self.fields]  # fills auto_now(_add) on obj, as save() does
        found = None
        if ENABLED and not _has_save_receivers(self.model) and not any(hasattr(v, "resolve_expression") for v in values_now):
            # (an expression or a database default is SQL of its own: left to the ORM)
            found = _once(self._compiled, self._lock, (alias, connection.vendor), lambda: self._compile(copy.copy(obj), alias))  # compiling sets auto_now fields: not on obj
        if found is None:
            if not self.ignore_conflicts:
                obj.save(force_insert=True, using=alias)
                return obj
            try:
                with transaction.atomic(using=alias):
                    obj.save(force_insert=True, using=alias)
            except IntegrityError:
                return None
            return obj
        sql, returning_params = found
        params = [f.get_db_prep_save(v, connection=connection) for f, v in zip(self.fields, values_now, strict=True)]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            row = connection.ops.fetch_returned_insert_columns(cursor, returning_params)
        if row is None:  # ignore_conflicts: the row was not stored
            return None
        obj.pk = row[0]
        obj._state.adding = False
        obj._state.db = alias
        return obj


class PreparedUpdate:
    """``instance.save(update_fields=fields)`` for instances of ``model``, its ``UPDATE`` compiled
    to SQL once per process and database, then run with each instance's values (as
    :class:`PreparedInsert` does for inserts): ``auto_now`` fields among ``fields`` are set on the
    instance, as ``save`` sets them. Raises ``DatabaseError`` when no row was updated (the row is
    gone), as ``save(update_fields=...)`` does. Falls back to that ``save`` when the model has
    save receivers or a field's value is None or SQL of its own (an expression): the ORM writes
    those into the statement's text. The columns are set in the model's field order, as ``save``
    sets them. Raises ``FieldDoesNotExist`` (a name the model lacks) or ``ValueError`` (a field
    without a column of the model's own table) when made."""

    def __init__(self, model: type[Model], fields: tuple[str, ...]):
        self.model = model
        self.field_names = tuple(fields)
        named = {model._meta.get_field(name) for name in fields}  # raises FieldDoesNotExist for a name it lacks
        self.fields = tuple(f for f in model._meta.local_concrete_fields if f in named)  # in the model's order, as save() writes them
        if len(self.fields) != len(named):
            raise ValueError(f"not columns of {model.__name__}'s own table: {sorted(f.name for f in named - set(self.fields))}")
        self._compiled: dict[tuple[str, str], str | None] = {}
        self._lock = threading.Lock()

    def _compile(self, alias: str, obj: Model, values: list) -> str | None:
        """The statement compiled for ``obj``'s ``values`` (none of them None: the ORM writes
        ``= NULL`` into the SQL), or None when it holds other than one parameter per field
        and the key."""
        query = self.model._base_manager.using(alias).filter(pk=obj.pk).query.chain(UpdateQuery)
        query.add_update_fields([(f, None, v) for f, v in zip(self.fields, values, strict=True)])
        sql, params = query.get_compiler(alias).as_sql()
        if len(params) != len(self.fields) + 1 or sql.count("%s") != len(params):
            return None
        return sql

    def __call__(self, obj: Model) -> None:
        alias = router.db_for_write(self.model, instance=obj)
        connection = connections[alias]
        values = [f.pre_save(obj, False) for f in self.fields]
        sql = None
        if ENABLED and not _has_save_receivers(self.model) and not any(v is None or hasattr(v, "resolve_expression") for v in values):
            sql = _once(self._compiled, self._lock, (alias, connection.vendor), lambda: self._compile(alias, obj, values))
        if sql is None:
            obj.save(update_fields=self.field_names, using=alias)
            return
        params = [f.get_db_prep_save(v, connection=connection) for f, v in zip(self.fields, values, strict=True)] + [obj.pk]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            if cursor.rowcount == 0:
                raise DatabaseError("Save with update_fields did not affect any rows.")
