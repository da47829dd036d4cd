"""Re-derive every wall of an event export and report each tile that differs.

Anyone holding an event export (the JSON of docs/walls.md, "Export fields used by the
verifier") and the revealed master seed can check, with the standard library only, that

- the seed is the one committed to before the event (``walls.commitment``), and
- every wall set in the export is exactly the wall derived from that seed (walls/derivation.py),
- and so is every reserve wall the director drew (``walls.reserves``; docs/walls.md, "Reserve
  walls").

Command line: ``python -m walls.verify export.json --seed HEX`` (``--seed`` may be left out once
the export carries the revealed seed in ``walls.seed``); exit status 0 when everything matches,
1 on any mismatch, 2 when the export or seed cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from typing import Any
from dataclasses import dataclass, field

from walls.derivation import commitment, derive_reserve, derive_wall, lay_out

EXPORT_FORMAT = "dmj-event/1"
"""Value of the export's ``format`` field this verifier reads."""


class ExportError(ValueError):
    """An export the verifier cannot read; the message names the field and what was expected."""


@dataclass(frozen=True)
class Mismatch:
    """One slot whose tile differs from the derived wall.

    ``session``/``set_no``: the wall set; ``pile``: pile name; ``slot``: slot label (prefix and
    1-based number, e.g. ``"D7"``; ``"#3"`` for a pile the rule set does not declare);
    ``expected``: derived tile, None if the export has an extra tile; ``found``: exported tile,
    None if the export lacks the slot; ``reserve``: 0 for the set's own wall, ``r`` for its
    reserve wall ``R<r>``.
    """

    session: int
    set_no: int
    pile: str
    slot: str
    expected: str | None
    found: str | None
    reserve: int = 0

    def __str__(self) -> str:
        wall = f"set {self.set_no}" + (f" reserve R{self.reserve}" if self.reserve else "")
        return f"session {self.session} {wall} {self.pile} {self.slot}: expected {self.expected}, found {self.found}"


@dataclass
class VerifyReport:
    """Result of :func:`verify_export`.

    ``ok``: the commitment matches and no tile differs; ``checked``: wall sets re-derived;
    ``mismatches``: every differing slot in export order (the sets, then the reserve walls);
    ``commitment_ok``: SHA-256 of the seed bytes equals the export's ``walls.commitment``;
    ``reserves_checked``: reserve walls re-derived.
    """

    ok: bool
    checked: int
    mismatches: list[Mismatch] = field(default_factory=list)
    commitment_ok: bool = True
    reserves_checked: int = 0


def _get(mapping: object, key: str, where: str) -> Any:
    if not isinstance(mapping, Mapping) or key not in mapping:
        raise ExportError(f"export lacks {where}{key}: write it with the event exporter ({EXPORT_FORMAT})")
    return mapping[key]


def verify_export(export: Mapping[Any, Any], seed_hex: str) -> VerifyReport:
    """Check an export (parsed JSON) against the revealed master seed ``seed_hex`` (64 hex).

    Every wall set in ``walls.sets`` is derived again from the seed, ``event.uid``,
    ``walls.public_value`` and the rule set's ``tiles`` and ``piles`` and compared slot by slot;
    so is every reserve wall in ``walls.reserves`` (``[{"session", "set", "reserve", "piles"}]``,
    absent in exports made before reserve walls existed), re-derived by the rule of docs/walls.md,
    "Reserve walls". Raises ExportError if the export is not ``dmj-event/1``, lacks a field or
    lists a wall twice, and DerivationError (walls/derivation.py) for a malformed seed or rule set.
    """
    if _get(export, "format", "") != EXPORT_FORMAT:
        raise ExportError(f"export format is {export['format']!r}; this verifier reads {EXPORT_FORMAT!r}")
    event_uid = _get(_get(export, "event", ""), "uid", "event.")
    ruleset = _get(export, "ruleset", "")
    tiles, piles = _get(ruleset, "tiles", "ruleset."), _get(ruleset, "piles", "ruleset.")
    walls = _get(export, "walls", "")
    public_value = _get(walls, "public_value", "walls.")
    commitment_ok = commitment(seed_hex) == str(_get(walls, "commitment", "walls.")).lower()
    prefixes = {_get(p, "name", "ruleset.piles[]."): _get(p, "slot_prefix", "ruleset.piles[].") for p in piles}
    mismatches: list[Mismatch] = []
    seen: set[tuple[int, int]] = set()
    for wall_set in _get(walls, "sets", "walls."):
        session, set_no = _get(wall_set, "session", "walls.sets[]."), _get(wall_set, "set", "walls.sets[].")
        if (session, set_no) in seen:
            raise ExportError(f"export lists session {session} set {set_no} twice: keep one entry per wall set")
        seen.add((session, set_no))
        found_piles = _found_piles(wall_set, "walls.sets[].", f"session {session} set {set_no}")
        expected_piles = lay_out(derive_wall(seed_hex, event_uid, session, set_no, tiles, piles, public_value), piles)
        mismatches += _compare(expected_piles, found_piles, prefixes, session, set_no, 0)
    reserves: set[tuple[int, int, int]] = set()
    for entry in walls.get("reserves") or []:
        where = "walls.reserves[]."
        session, set_no, reserve = _get(entry, "session", where), _get(entry, "set", where), _get(entry, "reserve", where)
        if (session, set_no, reserve) in reserves:
            raise ExportError(f"export lists reserve R{reserve} of session {session} set {set_no} twice: keep one entry per reserve wall")
        reserves.add((session, set_no, reserve))
        found_piles = _found_piles(entry, where, f"session {session} set {set_no} reserve R{reserve}")
        derived = derive_reserve(seed_hex, event_uid, session, set_no, reserve, tiles, piles, public_value)
        mismatches += _compare(lay_out(derived, piles), found_piles, prefixes, session, set_no, reserve)
    return VerifyReport(commitment_ok and not mismatches, len(seen), mismatches, commitment_ok, len(reserves))


def _found_piles(entry: Mapping[Any, Any], where: str, wall: str) -> Mapping[Any, Any]:
    found = _get(entry, "piles", where)
    if not isinstance(found, Mapping):
        raise ExportError(f"{wall}: piles must map pile names to tile lists")
    return found


def _compare(expected_piles: Mapping[Any, Any], found_piles: Mapping[Any, Any], prefixes: Mapping[Any, Any], session: int, set_no: int,
             reserve: int) -> list[Mismatch]:
    """Every slot where the exported piles differ from the derived ones, in pile then slot order."""
    out = []
    for name in [*expected_piles, *(n for n in found_piles if n not in expected_piles)]:
        expected, found = expected_piles.get(name, []), found_piles.get(name, [])
        for i in range(max(len(expected), len(found))):
            want = expected[i] if i < len(expected) else None
            got = found[i] if i < len(found) else None
            if want != got:
                label = f"{prefixes[name]}{i + 1}" if name in prefixes else f"#{i + 1}"
                out.append(Mismatch(session, set_no, name, label, want, got, reserve))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: verify an export file; returns 0 if it matches, 1 on a mismatch, 2 on bad input."""
    parser = argparse.ArgumentParser(prog="python -m walls.verify", description="Re-derive and check every wall of an event export.")
    parser.add_argument("export", help="event export JSON (format dmj-event/1)")
    parser.add_argument("--seed", default=None, help="revealed master seed, 64 hex characters (default: the export's walls.seed)")
    args = parser.parse_args(argv)
    try:
        with open(args.export, encoding="utf-8") as handle:
            export = json.load(handle)
        seed = args.seed
        if seed is None and isinstance(export, dict) and isinstance(export.get("walls"), dict):
            seed = export["walls"].get("seed")
        if not seed:
            raise ExportError("no seed: pass --seed HEX, or use an export that carries the revealed walls.seed")
        report = verify_export(export, seed)
    except (OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"commitment: {'matches' if report.commitment_ok else 'DOES NOT MATCH the seed'}")
    for mismatch in report.mismatches:
        print(f"MISMATCH {mismatch}")
    reserves = f" and {report.reserves_checked} reserve walls" if report.reserves_checked else ""
    print(f"{report.checked} wall sets{reserves} checked, {len(report.mismatches)} tiles differ: {'OK' if report.ok else 'FAILED'}")
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
