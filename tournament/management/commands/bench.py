"""``python manage.py bench [walls|seating|standings|printing]``: benchmarks printed as figures and
ratios against a baseline measured in the same run (never timed unit tests)."""

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError


def _walls(write):
    from walls.bench import bench_walls

    return bench_walls(write)


def _seating(write):
    from tournament.bench import bench_seating

    return bench_seating(write)


def _standings(write):
    from scoring.bench import bench_standings

    return bench_standings(write)


def _printing(write):
    from walls.bench_printing import bench_printing

    return bench_printing(write)


BENCHES = {"walls": _walls, "seating": _seating, "standings": _standings, "printing": _printing}


class Command(BaseCommand):
    help = "Run benchmarks: " + ", ".join(BENCHES)

    def add_arguments(self, parser):
        parser.add_argument("names", nargs="*", help=f"which of {', '.join(BENCHES)} (default: all)")

    def handle(self, *args, names=(), **options):
        unknown = [n for n in names if n not in BENCHES]
        if unknown:
            raise CommandError(f"unknown benchmark {', '.join(unknown)}: choose from {', '.join(BENCHES)}")
        call_command("migrate", interactive=False, verbosity=0)  # the walls bench stores sets
        for name in names or BENCHES:
            self.stdout.write(f"== bench {name}")
            BENCHES[name](lambda line: self.stdout.write(str(line)))
