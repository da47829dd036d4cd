"""``python manage.py bench [walls|seating|standings|printing|export|entry|writes]``: benchmarks printed as figures and
ratios against a baseline measured in the same run (never timed unit tests).

A thin adapter: the benchmarks live in ``tests/perf`` of a source checkout (:mod:`tests.perf`),
which the installed application does not ship. They are imported when the command runs, so the
application without them still loads and lists the command, and running it says what is missing.
"""

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

BENCHES = ("walls", "seating", "standings", "printing", "export", "entry", "writes")
NOT_INSTALLED = "the benchmarks live in tests/perf of a source checkout; install with pip install -e '.[bench]'"
# What a missing source checkout or a missing ``bench`` extra fails to import.
DEV_ONLY = ("tests", "httpx", "psutil")


def missing_dev_only(exc: ModuleNotFoundError) -> bool:
    """Whether ``exc`` is about ``tests.perf`` (absent outside a source checkout) or a package of the
    ``bench`` extra, rather than a fault in the code it imports."""
    return (exc.name or "").split(".")[0] in DEV_ONLY


class Command(BaseCommand):
    help = "Run benchmarks: " + ", ".join(BENCHES)

    def add_arguments(self, parser):
        parser.add_argument("names", nargs="*", help=f"which of {', '.join(BENCHES)} (default: all)")

    def handle(self, *args, names=(), **options):
        unknown = [n for n in names if n not in BENCHES]
        if unknown:
            raise CommandError(f"unknown benchmark {', '.join(unknown)}: choose from {', '.join(BENCHES)}")
        try:  # a development-only package, imported here rather than at module level (see the docstring)
            from tests.perf.entry import bench_entry
            from tests.perf.exports import bench_export
            from tests.perf.printing import bench_printing
            from tests.perf.seating import bench_seating
            from tests.perf.standings import bench_standings
            from tests.perf.walls import bench_walls
            from tests.perf.writes import bench_writes
        except ModuleNotFoundError as exc:
            if missing_dev_only(exc):
                raise CommandError(f"{NOT_INSTALLED} ({exc})") from exc
            raise
        run = {"walls": bench_walls, "seating": bench_seating, "standings": bench_standings, "printing": bench_printing,
               "export": bench_export, "entry": bench_entry, "writes": bench_writes}
        call_command("migrate", interactive=False, verbosity=0)  # the walls bench stores sets
        for name in names or BENCHES:
            self.stdout.write(f"== bench {name}")
            run[name](lambda line: self.stdout.write(str(line)))
