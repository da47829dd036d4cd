"""``python manage.py bench [walls|seating|standings|printing|export|entry|writes|pages|par|venues|event-day]``: benchmarks
printed as figures and ratios against a baseline measured in the same run (never timed unit tests).

A thin adapter: the benchmarks live in ``tests/perf`` of a source checkout (:mod:`tests.perf`),
which the installed application does not ship. They are imported when the command runs, so the
application without them still loads and lists the command, and running it says what is missing.

``event-day`` (:mod:`tests.perf.event_day`) is the simulation of a whole event day against
nginx, two gunicorn pools and PostgreSQL; it runs only when named (it needs PostgreSQL:
``DATABASE_URL``) and takes the options ``--scale``, ``--find-max``, ``--tables``, ``--phones``,
``--time-scale`` and the others below (docs/performance.md).
"""

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import OperationalError, connection

BENCHES = ("walls", "seating", "standings", "printing", "export", "entry", "writes", "pages", "par", "venues")
ON_REQUEST = ("event-day",)  # run only when named: they need PostgreSQL and take minutes
NOT_INSTALLED = "the benchmarks live in tests/perf of a source checkout; install with pip install -e '.[bench]'"
# What a missing source checkout or a missing ``bench`` extra fails to import.
DEV_ONLY = ("tests", "httpx", "psutil")


def missing_dev_only(exc: ModuleNotFoundError) -> bool:
    """Whether ``exc`` is about ``tests.perf`` (absent outside a source checkout) or a package of the
    ``bench`` extra, rather than a fault in the code it imports."""
    return (exc.name or "").split(".")[0] in DEV_ONLY


def ensure_database() -> None:
    """Create the PostgreSQL database named by ``DATABASE_URL`` if it does not exist yet."""
    import psycopg
    from psycopg import sql

    try:
        connection.ensure_connection()
        return
    except OperationalError:
        pass
    s = connection.settings_dict
    with psycopg.connect(dbname="postgres", user=s["USER"] or None, password=s["PASSWORD"] or None,
                         host=s["HOST"] or None, port=s["PORT"] or None, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(s["NAME"])))


class Command(BaseCommand):
    help = "Run benchmarks: " + ", ".join(BENCHES + ON_REQUEST)

    def add_arguments(self, parser):
        parser.add_argument("names", nargs="*",
                            help=f"which of {', '.join(BENCHES + ON_REQUEST)} (default: {', '.join(BENCHES)})")
        day = parser.add_argument_group("event-day")
        day.add_argument("--scale", type=float, default=1.0, help="multiply the load: hands and phones (default 1)")
        day.add_argument("--find-max", action="store_true", help="find the highest multiple of the load meeting the goals")
        day.add_argument("--max-runs", type=int, default=6, help="with --find-max: loaded runs at most (default 6)")
        day.add_argument("--tables", type=int, default=256, help="tables, one team each (default 256)")
        day.add_argument("--phones", type=int, default=1000, help="phones reading pages (default 1000)")
        day.add_argument("--projectors", type=int, default=2, help="projectors polling projector.json (default 2)")
        day.add_argument("--time-scale", type=float, default=6.0,
                         help="event time compressed by this factor during play (default 6; 1 = real time)")
        day.add_argument("--play-minutes", type=float, default=3.0, help="event minutes of play before the round's end (default 3)")
        day.add_argument("--burst-seconds", type=float, default=20.0, help="the round-end burst of hands, seconds (default 20)")
        day.add_argument("--break-seconds", type=float, default=30.0, help="the break after the burst, seconds (default 30)")
        day.add_argument("--timeout", type=float, default=10.0, help="a request unanswered after this many seconds fails (default 10)")
        day.add_argument("--read-workers", type=int, default=None, help="read pool processes (default: CPUs + 1)")
        day.add_argument("--read-threads", type=int, default=None,
                         help="read pool threads per process (default: deploy/gunicorn.conf.py's, 3)")
        day.add_argument("--write-workers", type=int, default=2, help="write pool processes (default 2)")
        day.add_argument("--write-threads", type=int, default=4, help="write pool threads per process (default 4)")
        day.add_argument("--read-nice", type=int, default=10, help="nice value of the read pool (default 10; 0: same priority)")
        day.add_argument("--no-nginx", action="store_true", help="no proxy: the client routes by deploy/nginx/dmj-pools.conf")
        day.add_argument("--keep", action="store_true", help="keep the simulated event afterwards")

    def handle(self, *args, names=(), **options):
        unknown = [n for n in names if n not in BENCHES + ON_REQUEST]
        if unknown:
            raise CommandError(f"unknown benchmark {', '.join(unknown)}: choose from {', '.join(BENCHES + ON_REQUEST)}")
        try:  # a development-only package, imported here rather than at module level (see the docstring)
            from tests.perf import event_day
            from tests.perf.entry import bench_entry
            from tests.perf.exports import bench_export
            from tests.perf.pages import bench_pages
            from tests.perf.par import bench_par
            from tests.perf.printing import bench_printing
            from tests.perf.seating import bench_seating
            from tests.perf.standings import bench_standings
            from tests.perf.venues import bench_venues
            from tests.perf.walls import bench_walls
            from tests.perf.writes import bench_writes
        except ModuleNotFoundError as exc:
            if missing_dev_only(exc):
                raise CommandError(f"{NOT_INSTALLED} ({exc})") from exc
            raise
        run = {"walls": bench_walls, "seating": bench_seating, "standings": bench_standings, "printing": bench_printing,
               "export": bench_export, "entry": bench_entry, "writes": bench_writes,
               "pages": bench_pages, "par": bench_par, "venues": bench_venues}
        if "event-day" in names and connection.vendor != "postgresql":
            raise CommandError("DATABASE_URL: the event-day simulation runs against PostgreSQL, e.g. "
                               "DATABASE_URL=postgres://postgres@127.0.0.1:5432/dmj_bench (a scratch database)")
        if connection.vendor == "postgresql":
            ensure_database()
        call_command("migrate", interactive=False, verbosity=0)  # the walls bench stores sets
        for name in names or BENCHES:
            self.stdout.write(f"== bench {name}")
            if name == "event-day":
                self._event_day(event_day, options)
            else:
                run[name](lambda line: self.stdout.write(str(line)))

    def _event_day(self, event_day, o):
        day = event_day.Day(tables=o["tables"], phones=o["phones"], projectors=o["projectors"], scale=o["scale"],
                            time_scale=o["time_scale"], play_minutes=o["play_minutes"], burst_seconds=o["burst_seconds"],
                            break_seconds=o["break_seconds"], timeout=o["timeout"])
        read_shape = event_day.pool_shape("read", o["read_workers"], o["read_threads"])
        try:
            lines = event_day.run(day, find_max=o["find_max"], max_runs=o["max_runs"], read_shape=read_shape,
                                  write_shape=(o["write_workers"], o["write_threads"]), read_nice=o["read_nice"],
                                  use_nginx=not o["no_nginx"], keep=o["keep"], say=lambda s: self.stdout.write(s))
        except (ValueError, RuntimeError) as exc:
            raise CommandError(str(exc)) from exc
        for line in lines:
            self.stdout.write(line)
