"""``python manage.py simulate_conversion [rule set ...] [--sets N] [--seed S] [--same P] [--smallest D]``:
the conversion table of each rule family fitted to simulated duplicate play (docs/scoring.md,
"Conversion presets per rule family"), printed as CSV with its source, so a family preset of
:mod:`scoring.conversion` can be checked or refitted. The simulation and the fit are
:func:`scoring.fitting.simulated_table` (seeded: the same arguments print the same table).
Without rule sets: one preset rule set per family, with the smallest step of its preset.
Real results are better than simulated ones: ``fit_conversion <event>`` fits an event's.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from scoring.fitting import SIMULATION_SAME, SIMULATION_SEED, SIMULATION_SETS, FittingError, simulated_table
from walls.rulesets import PRESETS

FAMILIES = {
    "mcr-duplicate": 8, "riichi-duplicate": 1000, "souzu-2p": 2000, "shiragiku-3p": 2, "shield-tile": 1000, "yangzhou": 4,
}
"""One preset rule set per family → the smallest difference worth a point in its preset (points):
MCR one base payment of 8, riichi one stick, Souzu one honba of 2,000, shield tile a 1-han hand."""


class Command(BaseCommand):
    help = "Fit a conversion table to simulated duplicate play of each rule family (docs/scoring.md)."

    def add_arguments(self, parser):
        parser.add_argument("rulesets", nargs="*", help=f"preset rule set codes (default: {', '.join(FAMILIES)})")
        parser.add_argument("--sets", type=int, default=SIMULATION_SETS, help="sets simulated (each on 4 tables)")
        parser.add_argument("--seed", type=int, default=SIMULATION_SEED, help="random seed")
        parser.add_argument("--same", type=float, default=SIMULATION_SAME, help="share of tables reproducing a set's likely result")
        parser.add_argument("--smallest", type=int, default=None, help="smallest difference worth a point (default: the family's)")

    def handle(self, *args, **options):
        codes = options["rulesets"] or list(FAMILIES)
        for code in codes:
            if code not in PRESETS:
                raise CommandError(f"{code}: not a preset rule set; choose among {', '.join(PRESETS)}")
            ruleset = PRESETS[code]
            smallest = options["smallest"] if options["smallest"] is not None else FAMILIES.get(code, ruleset.score_unit)
            try:
                table = simulated_table(ruleset.payment_rule, ruleset.seats, ruleset.score_unit, f"{code} simulated",
                                        smallest=smallest, min_fan=ruleset.min_fan, sets=options["sets"],
                                        seed=options["seed"], same=options["same"])
            except FittingError as exc:
                raise CommandError(str(exc)) from exc
            self.stdout.write(f"# {code} ({ruleset.payment_rule}, unit {ruleset.score_unit}): {table.source}")
            self.stdout.write(table.to_csv())
