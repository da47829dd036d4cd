"""The tests' independent recomputations: each function re-implements one documented rule from
its source (docs/scoring.md, docs/seating.md, docs/export.md, docs/rules.md, "Duplicate MCR: conversion table", the WBF IMP table,
MahjongSoft's published examples) in plain Python, so a test can check what the product computed
against a second, separately written answer.

Nothing here imports the product (no ``scoring``, ``tournament`` or ``walls`` module, no Django):
a wrong rule in the product cannot hide by being shared with the test that checks it. The
functions take plain values (numbers, dicts, an export's JSON) and are written for clarity, not
speed.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence


def convert(rows: Sequence[Mapping], difference: float) -> int:
    """Points of a score ``difference`` under a conversion table given as its ``rows``
    (``[{"from": 0, "points": 0}, ...]``; ``to`` is not read): the row covering
    ``|difference|`` is the last whose ``from`` is at most it, and the points keep the
    difference's sign (docs/scoring.md, "Conversion tables"; the presets' rows come from the WBF
    IMP scale, Law 78B, and the seed-001-based ``mcr-mp`` steps). Raises ValueError when no row
    starts at or below ``|difference|``."""
    magnitude = abs(difference)
    points = max((r for r in rows if r["from"] <= magnitude), key=lambda r: r["from"])["points"]
    return points if difference >= 0 else -points


def convert_by_range(rows: Sequence[Mapping], difference: float) -> int:
    """The same rule as :func:`convert`, read the other way from the rows' ranges: the row whose
    ``from..to`` holds ``|difference|`` (whole-number ranges, so a fraction below ``to + 1`` still
    belongs to the row; the last row's ``to`` is None and covers everything above), with the
    difference's sign (docs/scoring.md). Raises AssertionError when no row covers it (a gap)."""
    size = abs(difference)
    for row in rows:
        if row["from"] <= size and (row["to"] is None or size < row["to"] + 1):
            return row["points"] if difference >= 0 else -row["points"]
    raise AssertionError("no row covers the difference")


def datum_of(values: Iterable[float], method: str = "average") -> float:
    """The datum of the results compared (docs/scoring.md, "Datum"): their mean (``average``,
    docs/rules.md, "Duplicate MCR: the duplicate format"); ``butler`` (bridge Butler scoring) first drops one highest and one lowest result
    when there are at least 5. Raises ZeroDivisionError for no values."""
    values = sorted(values)
    if method == "butler" and len(values) >= 5:
        values = values[1:-1]
    return sum(values) / len(values)


def tally(results: Iterable[tuple[Hashable, int, int]]) -> dict:
    """``[(key, converted points, score change)]``, one per set an entrant played →
    ``{key: (points, score total, positive sets)}``: the three totals the standings rank by
    (docs/scoring.md, "Standings")."""
    totals: dict = {}
    for key, points, change in results:
        total = totals.setdefault(key, [0, 0, 0])
        total[0] += points
        total[1] += change
        total[2] += points > 0
    return {key: tuple(total) for key, total in totals.items()}


def ranked(tallies: Mapping) -> list[tuple[int, Hashable, bool]]:
    """``{key: (points, score total, positive sets)}`` → ``[(rank, key, tied)]`` best first, by
    the documented tie-break (docs/scoring.md, "Standings"): more points, then a larger score
    total, then more positive sets; entrants still equal share the rank (competition ranking
    1, 2, 2, 4), are marked tied and listed in key order."""
    order = sorted(tallies, key=lambda k: (-tallies[k][0], -tallies[k][1], -tallies[k][2], k))
    out = []
    for key in order:
        same = [k for k in order if tallies[k] == tallies[key]]
        out.append((order.index(same[0]) + 1, key, len(same) > 1))
    return out


def mahjongsoft_discard_changes(seats: Sequence[str], winners: Sequence[str], discarder: str,
                                fans: Sequence[int]) -> dict[str, int]:
    """Score change per seat of a discard win under MahjongSoft's duplicate MCR rules, with
    ``fans[i]`` the fan of ``winners[i]`` (docs/scoring.md, derived from the published example
    −46, +36, +26, −16): with k winners, winner i gets fan_i + 24 − 8(k − 1), each bystander
    −8k, the discarder −Σ(8 + fan_i)."""
    k = len(winners)
    changes = {}
    for seat in seats:
        if seat in winners:
            changes[seat] = fans[winners.index(seat)] + 24 - 8 * (k - 1)
        elif seat == discarder:
            changes[seat] = -sum(8 + f for f in fans)
        else:
            changes[seat] = -8 * k
    return changes


def export_seating(session: Mapping) -> tuple[dict, dict]:
    """One session of an event export (docs/export.md, ``sessions[i]``) →
    ``({(table number, seat): player number}, {table number: group number})``: who sat where and
    which group each table belongs to, read straight from the JSON."""
    seat_of, group_of = {}, {}
    for group in session["groups"]:
        for table in group["tables"]:
            group_of[table["number"]] = group["number"]
            for seat, player in table["seats"].items():
                seat_of[(table["number"], seat)] = player
    return seat_of, group_of


def rooms_can_hold(classes: Sequence[Sequence[int]], capacity: Sequence[int]) -> bool:
    """Whether the tables of each clash class (tables playing the same set at the same hand) can
    go into pairwise different rooms of the given capacities (tables per room) — docs/seating.md,
    "Rooms" — found by trying every placement."""
    def place(i, left):
        if i == len(classes):
            return True
        for rooms in itertools.combinations(range(len(left)), len(classes[i])):
            if all(left[r] > 0 for r in rooms):
                nxt = list(left)
                for r in rooms:
                    nxt[r] -= 1
                if place(i + 1, nxt):
                    return True
        return False
    return place(0, list(capacity))


def _repeats(sessions: Iterable[Iterable[Sequence[int]]]) -> int:
    """Repeat meetings of a regrouping (docs/seating.md): every meeting of a pair of entrants in a
    group, minus the number of pairs that met at all."""
    meetings = Counter(pair for groups in sessions for group in groups for pair in itertools.combinations(sorted(group), 2))
    return sum(meetings.values()) - len(meetings)


def fewest_repeats(n: int, group_size: int, n_sessions: int) -> int:
    """The fewest repeat meetings any regrouping of ``n`` entrants into groups of ``group_size``
    over ``n_sessions`` sessions can reach (docs/seating.md, "Regrouping between sessions"), by trying every
    partition for every session after the first (session 1 in order loses nothing: entrants are
    interchangeable). Only for tiny cases."""
    def partitions(rest):
        if not rest:
            yield []
            return
        for mates in itertools.combinations(rest[1:], group_size - 1):
            group = (rest[0], *mates)
            for tail in partitions([e for e in rest if e not in group]):
                yield [group, *tail]
    every = list(partitions(list(range(n))))
    first = [tuple(range(i, i + group_size)) for i in range(0, n, group_size)]
    return min(_repeats([first, *later]) for later in itertools.product(every, repeat=n_sessions - 1))


# --- Team method on one set, from table results to converted points -------------------------------
# (tests/browser/test_rule_sets_at_table.py: the scores the director must see after a phone's entries)


def team_set_points(seating: Mapping[Hashable, Mapping[str, Hashable]], changes: Mapping[Hashable, Mapping[str, int]],
                    rows: Sequence[Mapping], method: str = "average") -> dict:
    """The team method (docs/rules.md, "Duplicate MCR: team event") on one set of one group: ``seating`` ``{table: {seat: team}}`` (who
    held each seat), ``changes`` ``{table: {seat: score change}}`` (points, every table of the
    group) → ``{team: (total, points)}``: the team's total is the sum of its members' changes,
    compared with the datum of all the totals (:func:`datum_of`) and converted with ``rows``
    (:func:`convert`, the difference's sign kept). Raises KeyError when a table or seat of
    ``seating`` has no change."""
    totals: dict = {}
    for table, seats in seating.items():
        for seat, team in seats.items():
            totals[team] = totals.get(team, 0) + changes[table][seat]
    datum = datum_of(totals.values(), method)
    return {team: (total, convert(rows, total - datum)) for team, total in totals.items()}


# --- docs/scoring.md, "Fouled sets and reserve walls": individual method, play versions (Law 87 adapted), walls and reserve walls ---------
# (tests/test_*_acceptance.py, tests/browser/test_defensible_scores.py)


def individual_set_points(seating: Mapping[Hashable, Mapping[str, Hashable]], changes: Mapping[Hashable, Mapping[str, int]],
                          rows: Sequence[Mapping], method: str = "average") -> dict:
    """The individual method (docs/rules.md, "Duplicate MCR: individual event") on one set of one comparison: ``seating`` ``{table: {seat:
    player}}``, ``changes`` ``{table: {seat: score change}}`` → ``{player: (change, points)}``:
    each player's change against the datum (:func:`datum_of`) of the players who held the same
    seat, converted with ``rows`` (:func:`convert`, sign kept)."""
    by_seat: dict = {}
    for table, seats in seating.items():
        for seat, player in seats.items():
            by_seat.setdefault(seat, []).append((player, changes[table][seat]))
    out = {}
    for held in by_seat.values():
        datum = datum_of([change for _, change in held], method)
        for player, change in held:
            out[player] = (change, convert(rows, change - datum))
    return out


def versioned_set_points(seating: Mapping[Hashable, Mapping[str, Hashable]], changes: Mapping[Hashable, Mapping[str, int]],
                         versions: Mapping[Hashable, str], rows: Sequence[Mapping], *, by_team: bool, min_tables: int = 2,
                         adjusted_points: int = 0) -> dict:
    """One set of one comparison whose tables played different versions of the set (a fouled
    play, a reserve wall): bridge's Law 87 as the shared scoring contract and docs/scoring.md ("Fouled
    sets and reserve walls") adapt it. ``seating`` ``{table: {seat: entrant}}`` (the team of the
    member at that seat, team method; the player, individual method), ``changes`` ``{table: {seat:
    change}}``, ``versions`` ``{table: label}`` ("" as prepared; a table missing is ""). Returns
    ``{entrant: (points, difference, adjusted, version)}``.

    A version played at ``min_tables`` tables or more is compared on its own: each seat against
    the mean of that seat's changes at the tables of the same version. A version at fewer tables
    gets the artificial adjusted score. Individual method: the player's difference converted, or
    ``adjusted_points`` (difference 0, adjusted) in a short version; the version is its table's.
    Team method: the members' differences summed (a member in a short version counts as the
    datum, difference 0) and converted; a team with a member in a short version is adjusted and
    gets ``adjusted_points`` on top; the version is the one label when all tables played one
    version, else ``"*"``. With a single version this is the plain method."""
    label = {table: versions.get(table, "") for table in seating}
    tables_of: dict = {}
    for table, version in label.items():
        tables_of.setdefault(version, []).append(table)
    seat_datum = {}
    for version, tables in tables_of.items():
        for seat in {s for t in tables for s in seating[t]}:
            seat_datum[(version, seat)] = sum(changes[t][seat] for t in tables) / len(tables)
    short = {version for version, tables in tables_of.items() if len(tables) < min_tables and len(tables_of) > 1}
    if not by_team:
        out = {}
        for table, seats in seating.items():
            version = label[table]
            for seat, player in seats.items():
                if version in short:
                    out[player] = (adjusted_points, 0.0, True, version)
                else:
                    diff = changes[table][seat] - seat_datum[(version, seat)]
                    out[player] = (convert(rows, diff), diff, False, version)
        return out
    diffs: dict = {}
    adjusted: dict = {}
    for table, seats in seating.items():
        version = label[table]
        for seat, team in seats.items():
            diffs.setdefault(team, 0.0)
            adjusted.setdefault(team, False)
            if version in short:
                adjusted[team] = True
            else:
                diffs[team] += changes[table][seat] - seat_datum[(version, seat)]
    team_version = next(iter(tables_of)) if len(tables_of) == 1 else "*"
    return {team: (convert(rows, diff) + (adjusted_points if adjusted[team] else 0), diff, adjusted[team], team_version)
            for team, diff in diffs.items()}


def round_half_away(value: float) -> int:
    """``value`` rounded to a whole number, halves away from zero (2.5 → 3, −2.5 → −3)."""
    magnitude = int(abs(value) + 0.5)
    return magnitude if value >= 0 else -magnitude


def _hmac_sha256(key: bytes, message: bytes) -> bytes:
    import hashlib
    import hmac

    return hmac.new(key, message, hashlib.sha256).digest()


def wall_effective_key(seed_hex: str, public_value: str | None = None) -> bytes:
    """docs/walls.md, "Wall derivation" steps 1 and 3: the seed bytes, or with a public value
    ``HMAC(seed bytes, b"public-value|" + UTF-8(NFC(value.strip())))``."""
    import unicodedata

    seed = bytes.fromhex(seed_hex)
    if public_value is None:
        return seed
    return _hmac_sha256(seed, b"public-value|" + unicodedata.normalize("NFC", public_value.strip()).encode("utf-8"))


def wall_fingerprint(tiles: Sequence, piles: Sequence) -> str:
    """docs/walls.md step 4: SHA-256 hex of the canonical JSON ``{"piles": [[name, size]],
    "tiles": [[code, count]]}`` (keys sorted, no spaces, ASCII). ``piles`` as ``(name, size)``."""
    import hashlib
    import json

    text = json.dumps({"tiles": [[c, n] for c, n in tiles], "piles": [[p, s] for p, s in piles]},
                      sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def keyed_shuffle(multiset: Sequence[str], key: bytes) -> list[str]:
    """docs/walls.md steps 6-8, read one integer at a time: block i = SHA-256(key || i as 8 bytes
    big-endian), 4-byte big-endian integers; uniform(n) by rejecting x >= 2^32 − 2^32 mod n;
    Fisher–Yates from the last position down to 1."""
    import hashlib

    def integers():
        block = 0
        while True:
            digest = hashlib.sha256(key + block.to_bytes(8, "big")).digest()
            for k in range(8):
                yield int.from_bytes(digest[4 * k:4 * k + 4], "big")
            block += 1

    stream = integers()
    wall = list(multiset)
    for i in range(len(wall) - 1, 0, -1):
        n = i + 1
        limit = 2 ** 32 - (2 ** 32 % n)
        x = next(stream)
        while x >= limit:
            x = next(stream)
        j = x % n
        wall[i], wall[j] = wall[j], wall[i]
    return wall


def derived_wall(seed_hex: str, event_uid: str, session: int, set_no: int, tiles: Sequence, piles: Sequence,
                 public_value: str | None = None) -> list[str]:
    """A set's wall by docs/walls.md "Wall derivation": wall key ``HMAC(effective key,
    "dmj-wall-v1|uid|session|set|fingerprint")``, then the canonical multiset shuffled with it."""
    key = _hmac_sha256(wall_effective_key(seed_hex, public_value),
                       f"dmj-wall-v1|{event_uid}|{session}|{set_no}|{wall_fingerprint(tiles, piles)}".encode())
    return keyed_shuffle([c for c, n in tiles for _ in range(n)], key)


def reserve_wall(seed_hex: str, event_uid: str, session: int, set_no: int, reserve: int, tiles: Sequence, piles: Sequence,
                 public_value: str | None = None, *, max_attempts: int = 1000) -> list[str]:
    """Reserve wall ``reserve`` (1, 2, ...) of a set, by the shared walls contract's extension of
    docs/walls.md ("Reserve walls"): attempt ``a`` = 0, 1, ... shuffles the multiset with
    ``HMAC(effective key, "dmj-reserve-v1|uid|session|set|reserve|a|fingerprint")``; the reserve is
    the first attempt whose wall differs from the set's own wall and from every earlier reserve of
    the set. Raises ValueError after ``max_attempts`` attempts."""
    key = wall_effective_key(seed_hex, public_value)
    fingerprint = wall_fingerprint(tiles, piles)
    multiset = [c for c, n in tiles for _ in range(n)]
    taken = [derived_wall(seed_hex, event_uid, session, set_no, tiles, piles, public_value)]
    taken += [reserve_wall(seed_hex, event_uid, session, set_no, r, tiles, piles, public_value, max_attempts=max_attempts)
              for r in range(1, reserve)]
    for attempt in range(max_attempts):
        message = f"dmj-reserve-v1|{event_uid}|{session}|{set_no}|{reserve}|{attempt}|{fingerprint}"
        wall = keyed_shuffle(multiset, _hmac_sha256(key, message.encode("utf-8")))
        if wall not in taken:
            return wall
    raise ValueError("no reserve wall differs from the set's walls")


def laid_out(wall: Sequence[str], piles: Sequence) -> dict[str, list[str]]:
    """docs/walls.md step 9: each pile ``(name, size)`` takes the next ``size`` tiles."""
    out, start = {}, 0
    for name, size in piles:
        out[name] = list(wall[start:start + size])
        start += size
    return out


def luhn_check_digit(digits: str) -> int:
    """The Luhn (mod 10) check digit to append to ``digits``: from the rightmost digit leftwards,
    every other digit (the rightmost first) is doubled, 9 subtracted when that exceeds 9; the check
    digit brings the sum to a multiple of 10 (ISO/IEC 7812-1, Annex B)."""
    total = 0
    for position, char in enumerate(reversed(digits)):
        value = int(char) * (2 if position % 2 == 0 else 1)
        total += value - 9 if value > 9 else value
    return -total % 10


def reserve_set_code(session: int, set_no: int, reserve: int) -> str:
    """A reserve wall's set code by the shared walls contract (walls/setcode.py's documented form):
    ``"<session>-<set:02>R<reserve>-<check>"``, the Luhn digit over session, set (two digits) and
    reserve, e.g. ``1-07R1-c``."""
    return f"{session}-{set_no:02d}R{reserve}-{luhn_check_digit(f'{session}{set_no:02d}{reserve}')}"


def movement_fault(m) -> str | None:
    """The first fault of a movement (any object with the fields of ``tournament.movement.Movement``
    and its ``uses()``), or None (docs/seating.md, docs/rules.md, "Duplicate MCR: rotation of the
    sets"): ``slots`` rows of ``n_tables * n_groups`` tables, each playing ``block_size`` sets a
    slot; every table plays every set of the session exactly once; no two tables of one group play
    the same set at the same hand; the copy plan has the plan's shape with copies numbered below
    ``copies``; each copy rests ``rebuild_hands`` hands between two plays."""
    tables = m.n_tables * m.n_groups
    if m.slots != m.n_tables or m.block_size * m.n_tables != m.sets_per_session:
        return f"{m.slots} slots of {m.block_size} sets for {m.n_tables} tables"
    if len(m.plan) != m.slots or len(m.copy_plan) != m.slots:
        return f"plan and copy plan need {m.slots} slots, got {len(m.plan)} and {len(m.copy_plan)}"
    for slot, (row, copy_row) in enumerate(zip(m.plan, m.copy_plan)):
        if len(row) != tables or len(copy_row) != tables:
            return f"slot {slot}: plan and copy plan need {tables} tables"
        for table, (sets, copies) in enumerate(zip(row, copy_row)):
            if len(sets) != m.block_size or len(copies) != m.block_size:
                return f"slot {slot}, table {table}: needs {m.block_size} sets and copies"
            bad = [c for c in copies if not 0 <= c < m.copies]
            if bad:
                return f"slot {slot}, table {table}: copy {bad[0]} does not exist"
    for table in range(tables):
        played = sorted(set_no for row in m.plan for set_no in row[table])
        if played != list(range(1, m.sets_per_session + 1)):
            return f"table {table} must play every set once, plays {played}"
    at_time: dict[tuple[int, int, int], int] = {}
    uses = m.uses()
    for set_no, _copy, time, table in uses:
        other = at_time.setdefault((table // m.n_tables, set_no, time), table)
        if other != table:
            return f"tables {other} and {table} of group {table // m.n_tables} both play set {set_no} at hand {time}"
    for (set_no, copy, time, table), (next_set, next_copy, next_time, next_table) in zip(uses, uses[1:]):
        if (set_no, copy) == (next_set, next_copy) and next_time - time < 1 + m.rebuild_hands:
            return (f"copy {copy} of set {set_no} is needed at table {table} (hand {time}) and at table {next_table} "
                    f"(hand {next_time}) with no time to rebuild it")
    return None
