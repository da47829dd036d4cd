"""Django's PostgreSQL backend with its statements' values bound on the server, so that
PostgreSQL plans a statement once per connection (``tournament/settings.py`` selects it with
psycopg's ``server_side_binding`` and ``prepare_threshold``; ``DATABASE_PREPARED_STATEMENTS``).

One difference from the built-in backend: values bound on the server count against
PostgreSQL's limit of :data:`MAX_PARAMETERS` per statement (its protocol's 16-bit count), which
Django's PostgreSQL backend does not know, since it writes the values into the statement's text
by default. Deleting an event of more than that many results (Django's deletion collector reads
the rows referring to them with one ``IN`` list), or any batch Django sizes with
``bulk_batch_size``, would fail with "number of parameters must be between 0 and 65535". Here
those batches stay within the limit (:meth:`DatabaseOperations.bulk_batch_size`).
"""

from __future__ import annotations

from django.db.backends.postgresql import base, operations

#: the most values one statement may bind on PostgreSQL (the Bind message counts them in 16 bits)
MAX_PARAMETERS = 65535


class DatabaseOperations(operations.DatabaseOperations):
    """Django's PostgreSQL operations with batches sized to :data:`MAX_PARAMETERS`."""

    def bulk_batch_size(self, fields, objs) -> int:
        """How many of ``objs`` Django puts in one statement of ``fields`` (a bulk insert's
        columns, or the one key of a deletion's ``IN`` list): all of them, as Django's PostgreSQL
        backend says, but at most :data:`MAX_PARAMETERS` values when they are bound on the
        server; at least 1."""
        size = super().bulk_batch_size(fields, objs)
        if not self.connection.features.uses_server_side_binding:
            return size
        return max(1, min(size, MAX_PARAMETERS // max(len(fields), 1)))


class DatabaseWrapper(base.DatabaseWrapper):
    """Django's PostgreSQL connection with :class:`DatabaseOperations`."""

    ops_class = DatabaseOperations
