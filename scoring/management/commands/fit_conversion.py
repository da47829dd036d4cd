"""``python manage.py fit_conversion <event slug or export JSON files...> [--adopt]``: propose a
conversion table fitted to observed score differences (docs/scoring.md, "Fitting a table to data"; docs/scoring.md,
"Fitting a table to data").

Observed differences: every entrant's difference from its comparison's datum — team method:
each team's total on a set against the datum of the teams it is compared with (its group, or
the field); individual method: each player's score change against the same seat of the same
set. Only comparisons every table of which has a confirmed result count. The proposal
(:func:`scoring.fitting.fit_table`, steps at the quantiles of the WBF IMP steps, rounded to the
rule set's score unit) is printed beside each event's current table, with how both would have
ranked the event (:func:`scoring.fitting.compare_rankings`). ``--adopt`` (one event slug only)
stores it as the event's next conversion table version and rescores the event with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import zip_longest
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from scoring.conversion import ConversionTable, ConversionTableError
from scoring.conversion_versions import save_table_version
from scoring.fitting import DEFAULT_REFERENCE_AVERAGE, FittingError, compare_rankings, fit_table, observed_differences
from scoring.reports import export_scopes, seat_comparisons, team_comparisons
from tournament.exchange import ExchangeError, export_event, read_export_file
from tournament.models import Event


@dataclass
class _Source:
    name: str
    data: dict
    event: Event | None
    comparisons: dict
    names: dict
    current: ConversionTable

    @property
    def datum_method(self) -> str:
        return self.data["event"].get("datum_method", "average")


def _load(source: str) -> tuple[dict, Event | None]:
    """The export of ``source`` (an existing JSON file, else an event slug) and the stored event."""
    path = Path(source)
    if path.is_file():
        try:
            return read_export_file(source, "source"), None
        except ExchangeError as exc:
            raise CommandError(str(exc)) from exc
    event = Event.objects.filter(slug=source).first()
    if event is None:
        known = ", ".join(Event.objects.values_list("slug", flat=True)) or "none"
        raise CommandError(f"{source}: no such file and no event with that short name; events: {known}")
    return export_event(event), event


def _comparisons(data: dict, source: str) -> tuple[dict, dict, ConversionTable]:
    """``({comparison: {entrant number: score change}}, {entrant number: name}, current table)``."""
    try:
        scopes = export_scopes(data)
        team = data["event"]["method"] == Event.Method.TEAM
        comparisons = team_comparisons(scopes) if team else seat_comparisons(scopes)
        names = {t["number"]: t["name"] for t in data["teams"]} if team else {p["number"]: p["name"] for p in data["players"]}
        current = next(t for t in data["conversion_tables"] if t.get("current"))
        table = ConversionTable.from_rows(current["rows"], name=f"{current['name']} v{current['version']}")
    except (KeyError, StopIteration) as exc:
        raise CommandError(f"{source}: the export lacks {exc} (docs/export.md): export it again") from exc
    except (ValueError, ConversionTableError) as exc:
        raise CommandError(f"{source}: {exc}") from exc
    return comparisons, names, table


def _table_lines(current: ConversionTable, proposed: ConversionTable) -> list[str]:
    def cells(row):
        if row is None:
            return ["", "", ""]
        return [str(row["from"]), "" if row["to"] is None else str(row["to"]), str(row["points"])]

    lines = [f"{'current: ' + current.name:<32}  proposed: {proposed.name}",
             f"{'from':>8} {'to':>8} {'points':>7}      {'from':>8} {'to':>8} {'points':>7}"]
    for left, right in zip_longest(current.rows(), proposed.rows()):
        a, b = cells(left), cells(right)
        lines.append(f"{a[0]:>8} {a[1]:>8} {a[2]:>7}      {b[0]:>8} {b[1]:>8} {b[2]:>7}")
    return lines


class Command(BaseCommand):
    help = ("Propose a conversion table fitted to an event's observed score differences, show it beside the "
            "current table with both rankings, and optionally adopt it as a new version.")

    def add_arguments(self, parser):
        parser.add_argument("sources", nargs="+", help="event short names (slugs) or dmj-event/1 JSON export files")
        parser.add_argument("--adopt", action="store_true",
                            help="store the proposal as the event's next conversion table version (one event slug only)")
        parser.add_argument("--reference-average", type=float, default=DEFAULT_REFERENCE_AVERAGE,
                            help="IMPs per board the reference model assumes (default %(default)s)")

    def handle(self, *args, sources, adopt=False, reference_average=DEFAULT_REFERENCE_AVERAGE, **options):
        loaded = []
        for name in sources:
            data, event = _load(name)
            comparisons, names, current = _comparisons(data, name)
            loaded.append(_Source(name, data, event, comparisons, names, current))
        if adopt and (len(loaded) != 1 or loaded[0].event is None):
            raise CommandError("--adopt: give exactly one event short name (slug), not export files")
        units = {source.data["ruleset"].get("score_unit", 1) for source in loaded}
        if len(units) != 1:
            raise CommandError(f"the sources use different score units {sorted(units)}: fit them separately")
        (unit,) = units
        differences = [d for source in loaded for d in observed_differences(source.comparisons, source.datum_method)]
        label = ", ".join(source.name for source in loaded)
        try:
            proposed = fit_table(differences, unit=unit, name=f"Fitted MP ({label})"[:200],
                                 reference_average=reference_average)
        except FittingError as exc:
            raise CommandError(f"cannot fit a table to {label}: {exc}") from exc
        sizes = sorted(abs(d) for d in differences)
        count = sum(len(source.comparisons) for source in loaded)
        self.stdout.write(f"Observed {len(sizes)} score differences in {count} comparisons of {label}: "
                          f"median {sizes[len(sizes) // 2]:g}, largest {sizes[-1]:g} (score unit {unit}).")
        self.stdout.write(f"Proposed: {proposed.source}.")
        for source in loaded:
            self._report(source, proposed)
        if adopt:
            event = loaded[0].event
            stored = save_table_version(event, proposed, actor="fit_conversion --adopt")
            self.stdout.write("")
            self.stdout.write(f"Adopted as {stored} ({stored.code}) for {event.slug}; every stored converted score "
                              f"was rescored with it.")

    def _report(self, source: _Source, proposed: ConversionTable) -> None:
        write = self.stdout.write
        write("")
        write(f"== {source.name}: conversion tables")
        for line in _table_lines(source.current, proposed):
            write(line)
        write("")
        write(f"== {source.name}: rankings ({source.data['event']['method']} method, {source.datum_method} datum)")
        write(f"{'entrant':<32} {'current':>7} {'points':>7}   {'proposed':>8} {'points':>7}   move")
        rows = compare_rankings(source.comparisons, source.current, proposed, source.datum_method)
        for key, rank_now, rank_then, points_now, points_then in rows:
            move = rank_now - rank_then
            shown = f"+{move}" if move > 0 else str(move) if move else "="
            write(f"{str(source.names.get(key, key))[:32]:<32} {rank_now:>7} {points_now:>7}   "
                  f"{rank_then:>8} {points_then:>7}   {shown}")
        moved = sum(1 for row in rows if row[1] != row[2])
        write(f"{moved} of {len(rows)} entrants would change rank.")
