"""Results bundles: what a venue playing offline sends the central site (docs/export.md, "Venue
packages and results bundles"; docs/security.md, "Venues").

A bundle (format :data:`FORMAT`) names the event (its uid) and the venue (its code) and lists the
venue's confirmed results, each ``{"session", "table", "set", "revision", "changes", "outcome",
"mac"}``: ``changes`` the score change of each seat (points), ``revision`` the result's revision on
the venue's laptop (1, then one more per correction), ``mac`` an HMAC-SHA256 of the row under the
venue's key (:func:`row_mac`, the key issued with the venue's package). The bundle's own ``mac``
covers the list of row macs, so a row taken from another venue's bundle, or a bundle made with
another key, is refused as foreign; a row whose score was changed after signing is refused naming
the venue, the table and the set.

Merging (:func:`merge`) is a join: for each ``(session, table, set)`` the highest revision wins,
and the same revision must carry the same result. So merges are idempotent (a bundle sent twice
changes nothing) and order-independent (bundles merged in any order give the same results),
which makes the combined standings those of a full recompute from the bundles.

Standalone: no Django import.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from tournament.errors import FieldError
from tournament.i18n import gettext as _

FORMAT = "dmj-venue-results/1"

Slot = tuple[int, int, int]
"""Where a result belongs: ``(session number, table number, set number)``."""


class BundleError(FieldError):
    """A bundle that cannot be merged: ``field`` is ``"bundle"``; the message names the venue and,
    for one result, its table and set, and says what to do."""


@dataclass(frozen=True)
class BundleRow:
    """One confirmed result of a bundle: ``session``, ``table`` (number), ``set_no``, ``revision``,
    ``changes`` (seat letter → score change, points), ``outcome`` (the hand's outcome as entered,
    plain JSON, or None)."""

    session: int
    table: int
    set_no: int
    revision: int
    changes: Mapping[str, int]
    outcome: Any = None

    @property
    def slot(self) -> Slot:
        """``(session, table, set)``: where the result belongs."""
        return (self.session, self.table, self.set_no)

    def same_result(self, other: BundleRow) -> bool:
        """Whether ``other`` holds the same result (score changes and outcome)."""
        return dict(self.changes) == dict(other.changes) and _canonical(self.outcome) == _canonical(other.outcome)


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _mac(key: str, message: str) -> str:
    try:
        secret = bytes.fromhex(key)
    except ValueError:
        raise BundleError("bundle", _("the venue's key is not hexadecimal: issue the venue package again")) from None
    return hmac.new(secret, message.encode(), hashlib.sha256).hexdigest()


def row_mac(key: str, event_uid: str, venue: str, row: BundleRow) -> str:
    """The HMAC-SHA256 (hex) of ``row`` of venue ``venue`` in event ``event_uid`` under ``key``
    (hex): over the canonical JSON of every field of the row, the event and the venue."""
    return _mac(key, _canonical([event_uid, venue, row.session, row.table, row.set_no, row.revision,
                                 dict(sorted(row.changes.items())), row.outcome]))


def make_bundle(key: str, event_uid: str, venue: str, rows: Iterable[BundleRow], made_at: str = "") -> dict[str, Any]:
    """The bundle of ``rows`` (a venue's confirmed results), signed with ``key``: a JSON-safe dict,
    rows in ``(session, table, set)`` order."""
    listed = [{"session": row.session, "table": row.table, "set": row.set_no, "revision": row.revision,
               "changes": dict(sorted(row.changes.items())), "outcome": row.outcome, "mac": row_mac(key, event_uid, venue, row)}
              for row in sorted(rows, key=lambda r: r.slot)]
    return {"format": FORMAT, "event": event_uid, "venue": venue, "made_at": made_at, "results": listed,
            "mac": _mac(key, _canonical([event_uid, venue, [r["mac"] for r in listed]]))}


def _int(entry: Mapping[str, Any], name: str, venue: str, index: int) -> int:
    value = entry.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise BundleError("bundle", _("venue %(venue)s, result %(index)s: %(name)s must be a whole number from 1; "
                                      "export the bundle again from the venue's laptop")
                          % {"venue": venue, "index": index, "name": name})
    return value


def read_bundle(data: Any, *, key: str, event_uid: str, venue: str) -> list[BundleRow]:
    """The rows of bundle ``data`` (parsed JSON) from venue ``venue`` of event ``event_uid``, each
    checked against its mac under ``key``, then the bundle's own mac.

    Raises BundleError for another format, another event or venue ("foreign"), a malformed
    row, a row whose result no longer matches its mac (naming the venue, table and set: it was
    changed after the venue signed it), or a bundle whose rows were not signed together."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BundleError("bundle", _("this is not a results bundle (%(format)s): upload the file the venue's laptop "
                                      "exported") % {"format": FORMAT})
    if data.get("event") != event_uid:
        raise BundleError("bundle", _("this bundle is of another event: upload it to the event it was made for"))
    if data.get("venue") != venue:
        raise BundleError("bundle", _("this bundle is from venue %(found)s, not %(venue)s: upload it under its own venue")
                          % {"found": str(data.get("venue"))[:40], "venue": venue})
    entries = data.get("results")
    if not isinstance(entries, list):
        raise BundleError("bundle", _("venue %(venue)s: the bundle lists no results; export it again") % {"venue": venue})
    rows, macs = [], []
    for index, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict):
            raise BundleError("bundle", _("venue %(venue)s, result %(index)s is not a result; export the bundle again")
                              % {"venue": venue, "index": index})
        changes = entry.get("changes")
        if (not isinstance(changes, dict) or not changes
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in changes.values())):
            raise BundleError("bundle", _("venue %(venue)s, result %(index)s: the score changes must be whole points per "
                                          "seat; export the bundle again") % {"venue": venue, "index": index})
        row = BundleRow(_int(entry, "session", venue, index), _int(entry, "table", venue, index),
                        _int(entry, "set", venue, index), _int(entry, "revision", venue, index),
                        {str(k): v for k, v in changes.items()}, entry.get("outcome"))
        if not hmac.compare_digest(str(entry.get("mac", "")), row_mac(key, event_uid, venue, row)):
            raise BundleError("bundle", _("venue %(venue)s, table %(table)s, set %(set)s (session %(session)s): the result "
                                          "does not match the venue's signature, it was changed after the venue exported "
                                          "it; nothing was merged. Ask the venue for the bundle its laptop exports")
                              % {"venue": venue, "table": row.table, "set": row.set_no, "session": row.session})
        rows.append(row)
        macs.append(entry["mac"])
    if not hmac.compare_digest(str(data.get("mac", "")), _mac(key, _canonical([event_uid, venue, macs]))):
        raise BundleError("bundle", _("venue %(venue)s: the bundle's results were not signed together (rows added, removed "
                                      "or taken from another bundle); nothing was merged. Ask the venue for the bundle "
                                      "its laptop exports") % {"venue": venue})
    return rows


@dataclass(frozen=True)
class MergePlan:
    """What merging rows into the stored results does: ``new`` (slots without a result),
    ``newer`` (a higher revision than the stored one), ``same`` (already stored: nothing to do),
    ``older`` (a lower revision than the stored one: kept as stored)."""

    new: tuple[BundleRow, ...]
    newer: tuple[BundleRow, ...]
    same: int
    older: int

    @property
    def writes(self) -> tuple[BundleRow, ...]:
        """The rows to store: the new and the newer."""
        return self.new + self.newer


def merge(stored: Mapping[Slot, BundleRow], rows: Iterable[BundleRow], venue: str) -> MergePlan:
    """Plan the join of ``rows`` into ``stored`` (slot → the result held now): per slot the highest
    revision wins. Raises BundleError naming the venue, table and set when a row carries the same
    revision as the stored result, or as another row of ``rows``, with another result (two laptops,
    or a laptop restored from an old copy: the director settles it)."""
    best: dict[Slot, BundleRow] = {}
    for row in rows:
        held = best.get(row.slot)
        if held is not None and held.revision == row.revision and not held.same_result(row):
            raise _conflict(venue, row)
        if held is None or row.revision > held.revision:
            best[row.slot] = row
    new, newer, same, older = [], [], 0, 0
    for slot, row in sorted(best.items()):
        held = stored.get(slot)
        if held is None:
            new.append(row)
        elif row.revision > held.revision:
            newer.append(row)
        elif row.revision < held.revision:
            older += 1
        elif row.same_result(held):
            same += 1
        else:
            raise _conflict(venue, row)
    return MergePlan(tuple(new), tuple(newer), same, older)


def _conflict(venue: str, row: BundleRow) -> BundleError:
    return BundleError("bundle", _("venue %(venue)s, table %(table)s, set %(set)s (session %(session)s): revision "
                                   "%(revision)s holds another result than the one merged before; nothing was merged. "
                                   "Correct the result on the central site, or ask the venue which result stands")
                       % {"venue": venue, "table": row.table, "set": row.set_no, "session": row.session,
                          "revision": row.revision})


def joined(bundles: Iterable[Iterable[BundleRow]]) -> dict[Slot, BundleRow]:
    """The results ``bundles`` hold together, merged in the order given (:func:`merge`): slot →
    row. Raises BundleError as :func:`merge` does."""
    state: dict[Slot, BundleRow] = {}
    for rows in bundles:
        plan = merge(state, rows, "")
        for row in plan.writes:
            state[row.slot] = row
    return state
