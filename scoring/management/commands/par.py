"""``python manage.py par EXPORT.json``: the solo par of every wall set of an exported event.

A thin adapter over :func:`scoring.par.set_par` (docs/scoring.md, "Par: what each seat could
have made"). It reads an export (``export_event``, or the public export: only the wall sets it
holds, which are the released ones) and prints each set's par seat by seat, counting the
honba and sticks the export's event fixed for each set, or writes the
analysis as JSON (``--json OUT``: the export's own format, each wall set with its ``par``,
docs/export.md, "Par").
"""

import json

from django.core.management.base import BaseCommand, CommandError

from scoring import par
from scoring.payments.phrases import value_words
from tournament import i18n
from tournament.exchange import read_export_file
from scoring.payments.counters import read_fixed
from walls.rulesets.model import RuleSet, RuleSetError
from walls.tiles import TileError


class Command(BaseCommand):
    help = "Print each seat's solo par (earliest call-free self-drawn win, best value) for every wall set of an export."

    def add_arguments(self, parser):
        parser.add_argument("export", help="an export_event JSON file (the director's or the public one)")
        parser.add_argument("--json", dest="out", default=None,
                            help="write the export again with each wall set's par added (docs/export.md, \"Par\")")
        parser.add_argument("--session", type=int, default=None, help="only this session")

    def handle(self, *args, export, out=None, session=None, **options):
        try:
            data = read_export_file(export, "export")
        except ValueError as exc:  # ExchangeError: the file is missing or no export
            raise CommandError(str(exc)) from exc
        try:
            ruleset = RuleSet.from_dict(data.get("ruleset"))
        except (RuleSetError, TypeError, AttributeError) as exc:
            raise CommandError(f"ruleset: the export's rule set cannot be read ({exc}): give a file written by export_event") from exc
        sets = (data.get("walls") or {}).get("sets")
        if not isinstance(sets, list):
            raise CommandError("walls.sets: the export holds no wall sets: export the event after its walls are generated")
        seats = len(ruleset.seats)
        fixed = (data.get("event") or {}).get("fixed_counters")  # the honba and sticks fixed per set, as the site counts them
        analysed = 0
        for index, wall in enumerate(sets):
            try:
                number, set_no = int(wall["session"]), int(wall["set"])
                if session is not None and number != session:
                    continue
                found = par.set_par(ruleset, wall["piles"], prevalent_wind=par.prevalent_of(set_no, seats),
                                    counters=read_fixed(fixed, number, set_no))
            except (par.ParError, TileError, KeyError, TypeError, ValueError, AttributeError) as exc:
                raise CommandError(f"walls.sets[{index}]: not a wall set of this rule set ({exc}): give the export_event "
                                   "file unchanged") from exc
            wall["par"] = found.as_dict()
            analysed += 1
            self._print(number, set_no, found)
        if out:
            with open(out, "w", encoding="utf-8") as handle:
                json.dump(data, handle, ensure_ascii=False, indent=1)
            self.stdout.write(f"wrote {out}")
        self.stdout.write(f"{analysed} wall sets analysed ({ruleset.code}, {par.calculator_for(ruleset)} values"
                          f"{', shared wall in turn order: approximate' if any(s['par']['approximate'] for s in sets if 'par' in s) else ''})")

    def _print(self, session: int, set_no: int, found: par.SetPar) -> None:
        self.stdout.write(f"set {session}-{set_no:02d}")
        for seat in found.seats:
            line = f"  {seat.seat}  shanten {seat.shanten}  "
            if seat.par is None:
                line += "no call-free win"
            else:
                line += f"par {_win(seat.par, found.unit)}"
                if seat.best is not None and seat.best != seat.par:
                    line += f"  | best {_win(seat.best, found.unit)}"
            self.stdout.write(line)


def _win(win: par.Win, unit: str) -> str:
    """``"D14 25 fan +99  677m 1188p 4488s 77z +6m"``: the draw, the value in words (``"double
    yakuman"``, never its 26 han), the score and the hand."""
    with i18n.language("en"):
        value = f" {value_words(unit, win.value.value, win.value.fu or 0, win.value.yakuman)}" if win.value else ""
    score = f" {win.score:+d}" if win.score is not None else ""
    return f"D{win.draw}{value}{score}  {win.hand}"
