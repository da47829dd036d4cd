"""Django's PostgreSQL backend as this site runs it (:mod:`tournament.db_backend.base`):
statements planned once per connection, and no statement with more parameters than PostgreSQL
takes."""
