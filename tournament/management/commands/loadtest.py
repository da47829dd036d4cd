"""``python manage.py loadtest``: result entry by concurrent scorers against gunicorn and
PostgreSQL on loopback; prints requests per second, p50/p99 latency, errors and lost results
(:mod:`tests.perf.loadtest`). Run it on a scratch database:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/dmj_load python manage.py loadtest

A thin adapter: the load test lives in ``tests/perf`` of a source checkout and needs the ``bench``
extra (httpx, psutil); neither ships with the application, so it is imported when the command
runs (as ``manage.py bench`` does) and its absence is reported as a CommandError.
"""

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from tournament.management.commands.bench import NOT_INSTALLED, ensure_database, missing_dev_only


class Command(BaseCommand):
    help = "Load test: concurrent scorers entering results through the API of gunicorn + PostgreSQL on 127.0.0.1."

    def add_arguments(self, parser):
        parser.add_argument("--scorers", type=int, default=50, help="concurrent scorers (default 50)")
        parser.add_argument("--sessions", type=int, default=4, help="sessions of results to enter (default 4)")
        parser.add_argument("--duration", type=float, default=40.0, help="upper bound of the load phase, seconds (at most 60)")
        parser.add_argument("--workers", type=int, default=None, help="gunicorn worker processes (default: CPUs + 1)")
        parser.add_argument("--threads", type=int, default=8, help="threads per gunicorn worker (default 8)")
        parser.add_argument("--keep", action="store_true", help="keep the load-test event and its users afterwards")

    def handle(self, *args, scorers, sessions, duration, workers, threads, keep, **options):
        try:  # a development-only package, imported here rather than at module level (see the docstring)
            from tests.perf import loadtest
        except ModuleNotFoundError as exc:
            if missing_dev_only(exc):
                raise CommandError(f"{NOT_INSTALLED} ({exc})") from exc
            raise
        if connection.vendor != "postgresql":
            raise CommandError("DATABASE_URL: the load test runs against PostgreSQL, e.g. "
                               "DATABASE_URL=postgres://postgres@127.0.0.1:5432/dmj_load (a scratch database)")
        ensure_database()
        call_command("migrate", verbosity=0, interactive=False)
        self.stdout.write(f"building the event and starting gunicorn on {connection.settings_dict['NAME']}...")
        try:
            report = loadtest.run(scorers=scorers, sessions=sessions, duration=duration, workers=workers,
                                  threads=threads, keep=keep)
        except (ValueError, RuntimeError) as exc:
            raise CommandError(str(exc)) from exc
        for line in report.lines():
            self.stdout.write(line)
