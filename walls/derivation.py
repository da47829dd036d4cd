"""Wall derivation: master seed -> one shuffled wall per (event, session, set) -> piles.

This module is the reference implementation of docs/walls.md ("Wall derivation"); the document
is precise enough to reimplement it and carries test vectors that tests/test_derivation.py
checks against this code. It uses the standard library only, so players and third parties can
run it (with walls/verify.py) to check that the organiser could not choose the walls:

1. Before the event the organiser publishes ``commitment(seed)`` (SHA-256 of the 32 seed bytes)
   and, optionally, names a *public value* not yet known (e.g. a stock index close on a stated
   date), as bridge's SquareDeal protocol does.
2. Every wall is ``derive_wall(seed, event uid, session, set, tiles, piles, public value)``.
3. After the event the seed is revealed; anyone re-derives every wall and compares.

Reserve walls (docs/walls.md, "Reserve walls"): when a set is spoiled before play, the director
draws a reserve wall for it, derived from the same key by :func:`derive_reserve` so that it is as
verifiable as the set itself and never equal to the wall it replaces.

Run ``python -m walls.derivation --seed HEX --event UID --session 1 --set 1 --ruleset-json FILE``
to print one wall set's piles (``--reserve N``: its reserve wall N instead).
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import itertools
import json
import math
import secrets
import struct
import sys
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

SEED_BYTES = 32
"""Length of a master seed in bytes (64 hex characters)."""

WALL_KEY_LABEL = "dmj-wall-v1"
"""Domain-separation label at the start of every wall-key message; bumped if the method changes."""

RESERVE_KEY_LABEL = "dmj-reserve-v1"
"""Domain-separation label at the start of every reserve-wall key message (docs/walls.md, "Reserve walls")."""

PUBLIC_VALUE_LABEL = b"public-value|"
"""Prefix of the HMAC message that mixes a public value into the seed."""


_TWO_32 = 2**32
_EIGHT_UINT32 = struct.Struct(">8I")


class DerivationError(ValueError):
    """An input the derivation cannot use; the message names the input and the fix."""


def new_master_seed() -> str:
    """A fresh master seed: 64 lowercase hex characters (32 bytes from :mod:`secrets`)."""
    return secrets.token_hex(SEED_BYTES)


def seed_bytes(seed_hex: str) -> bytes:
    """The 32 bytes of a master seed given as 64 hex characters (either case).

    Raises DerivationError if ``seed_hex`` is not exactly 64 hex characters.
    """
    if not isinstance(seed_hex, str) or len(seed_hex) != 2 * SEED_BYTES:
        raise DerivationError(
            f"master seed must be {2 * SEED_BYTES} hex characters, got {_describe(seed_hex)}: "
            f"copy the whole seed, or make one with new_master_seed()"
        )
    try:
        return bytes.fromhex(seed_hex)
    except ValueError:
        raise DerivationError(f"master seed must contain only hex digits 0-9 a-f, got {seed_hex!r}") from None


def _describe(value: object) -> str:
    return f"{len(value)} characters" if isinstance(value, str) else repr(value)


def commitment(seed_hex: str) -> str:
    """The published commitment to a seed: SHA-256 (lowercase hex) of the 32 seed BYTES.

    Not of the hex text: ``commitment("00" * 32)`` hashes 32 zero bytes. Raises DerivationError
    for a malformed seed.
    """
    return hashlib.sha256(seed_bytes(seed_hex)).hexdigest()


def effective_key(seed_hex: str, public_value: str | None = None) -> bytes:
    """The 32-byte key the walls are derived from.

    Without a public value it is the seed bytes. With one it is
    ``HMAC-SHA256(key=seed bytes, msg=b"public-value|" + UTF-8(NFC(public_value.strip())))``.
    Raises DerivationError for a malformed seed or a public value that is empty after stripping
    (pass None for "no public value").
    """
    key = seed_bytes(seed_hex)
    if public_value is None:
        return key
    if not isinstance(public_value, str):
        raise DerivationError(f"public value must be text or None, got {public_value!r}")
    text = unicodedata.normalize("NFC", public_value.strip())
    if not text:
        raise DerivationError("public value is empty: give the published value, or None if the event has none")
    return hmac.new(key, PUBLIC_VALUE_LABEL + text.encode("utf-8"), hashlib.sha256).digest()


def _tile_pairs(tiles: Sequence[Any]) -> list[list[Any]]:
    pairs = []
    for entry in tiles:
        if not (isinstance(entry, (tuple, list)) and len(entry) == 2):
            raise DerivationError(f"tiles must be [code, count] pairs, got {entry!r}")
        code, count = entry
        if not isinstance(code, str) or not code:
            raise DerivationError(f"tile code must be non-empty text, got {code!r}")
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise DerivationError(f"count of tile {code} must be a positive integer, got {count!r}")
        pairs.append([code, count])
    if not pairs:
        raise DerivationError("tile set is empty: give at least one [code, count] pair")
    return pairs


def _pile_pairs(piles: Sequence[Any]) -> list[list[Any]]:
    """Piles as ``[[name, size], ...]`` from pairs, mappings with name/size, or objects with .name/.size."""
    pairs = []
    for pile in piles:
        if isinstance(pile, Mapping):
            name, size = pile.get("name"), pile.get("size")
        elif isinstance(pile, (tuple, list)) and len(pile) == 2:
            name, size = pile
        else:
            name, size = getattr(pile, "name", None), getattr(pile, "size", None)
        if not isinstance(name, str) or not name:
            raise DerivationError(f"pile name must be non-empty text, got {name!r}")
        if not isinstance(size, int) or isinstance(size, bool) or size < 1:
            raise DerivationError(f"size of pile {name} must be a positive integer, got {size!r}")
        pairs.append([name, size])
    names = [name for name, _ in pairs]
    if len(set(names)) != len(names):
        raise DerivationError(f"pile names must be unique, got {names}")
    if not pairs:
        raise DerivationError("rule set has no piles: declare at least one pile")
    return pairs


def ruleset_fingerprint(tiles: Sequence[Any], piles: Sequence[Any]) -> str:
    """SHA-256 (lowercase hex) of the canonical JSON of a rule set's tiles and piles.

    The JSON is ``{"piles": [[name, size], ...], "tiles": [[code, count], ...]}`` in the given
    orders, written with sorted keys, separators ``","`` and ``":"``, ASCII only (non-ASCII as
    ``\\uXXXX``), encoded as UTF-8. ``tiles`` are ``(code, count)`` pairs; ``piles`` are
    ``(name, size)`` pairs, mappings with ``name``/``size`` or objects with those attributes.
    Raises DerivationError for empty or malformed entries.
    """
    return _fingerprint(_tile_pairs(tiles), _pile_pairs(piles))


def _fingerprint(tile_pairs: list[list[Any]], pile_pairs: list[list[Any]]) -> str:
    document = {"tiles": tile_pairs, "piles": pile_pairs}
    text = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _positive(name: str, value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise DerivationError(f"{name} must be a whole number from 1, got {value!r}")
    return value


def _check_key_inputs(key: bytes, event_uid: str, session: int, set_no: int, fingerprint: str) -> None:
    if not isinstance(key, bytes) or len(key) != SEED_BYTES:
        raise DerivationError(f"key must be {SEED_BYTES} bytes (use effective_key), got {key!r}")
    if not isinstance(event_uid, str) or not event_uid or "|" in event_uid:
        raise DerivationError(f"event uid must be non-empty text without '|', got {event_uid!r}")
    _positive("session", session)
    _positive("set number", set_no)
    if not (isinstance(fingerprint, str) and len(fingerprint) == 64 and set(fingerprint) <= set("0123456789abcdef")):
        raise DerivationError(f"rule-set fingerprint must be 64 lowercase hex characters, got {fingerprint!r}")


def wall_key(key: bytes, event_uid: str, session: int, set_no: int, fingerprint: str) -> bytes:
    """The key of one wall set: ``HMAC-SHA256(key, "dmj-wall-v1|<event>|<session>|<set>|<fingerprint>")``.

    ``session`` and ``set_no`` are written in decimal without padding; the message is UTF-8.
    Raises DerivationError for a key that is not 32 bytes, an empty event uid or one containing
    ``|``, a session or set below 1, or a fingerprint that is not 64 lowercase hex characters.
    """
    _check_key_inputs(key, event_uid, session, set_no, fingerprint)
    message = f"{WALL_KEY_LABEL}|{event_uid}|{session}|{set_no}|{fingerprint}".encode()
    return hmac.new(key, message, hashlib.sha256).digest()


def reserve_wall_key(key: bytes, event_uid: str, session: int, set_no: int, reserve: int, attempt: int,
                     fingerprint: str) -> bytes:
    """The key of one attempt at reserve wall ``reserve`` of a set (docs/walls.md, "Reserve walls"):
    ``HMAC-SHA256(key, "dmj-reserve-v1|<event>|<session>|<set>|<reserve>|<attempt>|<fingerprint>")``.

    ``key`` is the effective key (:func:`effective_key`); ``reserve`` counts from 1 (R1, R2...),
    ``attempt`` from 0; the numbers are written in decimal without padding and the message is UTF-8.
    Raises DerivationError as :func:`wall_key` does, and for a reserve below 1 or a negative attempt.
    """
    _check_key_inputs(key, event_uid, session, set_no, fingerprint)
    _positive("reserve number", reserve)
    if not isinstance(attempt, int) or isinstance(attempt, bool) or attempt < 0:
        raise DerivationError(f"attempt must be a whole number from 0, got {attempt!r}")
    message = f"{RESERVE_KEY_LABEL}|{event_uid}|{session}|{set_no}|{reserve}|{attempt}|{fingerprint}".encode()
    return hmac.new(key, message, hashlib.sha256).digest()


def _uint32s(key: bytes) -> Iterator[int]:
    for block in itertools.count():
        yield from _EIGHT_UINT32.unpack(hashlib.sha256(key + block.to_bytes(8, "big")).digest())


def _uniform(integers: Iterator[int], n: int) -> int:
    limit = _TWO_32 - _TWO_32 % n
    x = next(integers)
    while x >= limit:
        x = next(integers)
    return x % n


class RandomStream:
    """Deterministic random integers from a wall key.

    Block ``i`` (``i = 0, 1, 2, ...``) is ``SHA-256(key || i as 8-byte big-endian)``; the blocks
    are read in order as 4-byte big-endian unsigned integers (8 per block).
    """

    def __init__(self, key: bytes):
        """Start the stream of ``key`` (any bytes) at block 0."""
        self._integers = _uint32s(key)

    def next_uint32(self) -> int:
        """The next unsigned 32-bit integer of the stream (0 .. 2**32 - 1)."""
        return next(self._integers)

    def uniform(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` without modulo bias, for ``1 <= n <= 2**32``.

        Rejection sampling: ``limit = 2**32 - (2**32 % n)``; draw ``x`` until ``x < limit``;
        return ``x % n``. Raises DerivationError if ``n`` is out of range.
        """
        if not isinstance(n, int) or not 1 <= n <= _TWO_32:
            raise DerivationError(f"uniform range must be 1 to 2**32, got {n!r}")
        return _uniform(self._integers, n)


def shuffle(items: Sequence[Any], key: bytes) -> list[Any]:
    """Fisher–Yates shuffle of a copy of ``items`` driven by ``RandomStream(key)``.

    For ``i`` from ``len - 1`` down to 1: ``j = uniform(i + 1)``; swap positions ``i`` and ``j``.
    (The stream is read a batch of blocks at a time; the integers and their order are those of
    :class:`RandomStream`.)
    """
    result = list(items)
    blocks = max(1, (len(result) + 7) // 8 + 1)
    pool = _blocks(key, 0, blocks)
    pos = 0
    for i in range(len(result) - 1, 0, -1):
        n = i + 1
        limit = _TWO_32 - _TWO_32 % n
        while True:
            if pos == len(pool):
                pool += _blocks(key, len(pool) // 8, 2)
            x = pool[pos]
            pos += 1
            if x < limit:
                break
        j = x % n
        result[i], result[j] = result[j], result[i]
    return result


def _blocks(key: bytes, first: int, count: int) -> tuple[int, ...]:
    """The unsigned 32-bit integers of stream blocks ``first`` .. ``first + count - 1``."""
    data = b"".join(hashlib.sha256(key + b.to_bytes(8, "big")).digest() for b in range(first, first + count))
    return struct.unpack(f">{8 * count}I", data)


def derive_wall(
    seed_hex: str,
    event_uid: str,
    session: int,
    set_no: int,
    tiles: Sequence[Any],
    piles: Sequence[Any],
    public_value: str | None = None,
) -> list[str]:
    """The wall of one wall set: the rule set's multiset shuffled with its wall key.

    ``tiles``: ``(code, count)`` pairs in the rule set's (canonical) order; ``piles``: as for
    :func:`ruleset_fingerprint`, whose sizes must sum to the tile count. Returns the tiles in
    wall order (lay them out with :func:`lay_out`). Raises DerivationError for any bad input.
    """
    tile_pairs, pile_pairs = _tile_pairs(tiles), _pile_pairs(piles)
    multiset = [code for code, count in tile_pairs for _ in range(count)]
    _check_sizes(len(multiset), pile_pairs)
    key = wall_key(effective_key(seed_hex, public_value), event_uid, session, set_no, _fingerprint(tile_pairs, pile_pairs))
    return shuffle(multiset, key)


def _check_sizes(tile_count: int, pile_pairs: list[list[Any]]) -> None:
    total = sum(size for _, size in pile_pairs)
    if total != tile_count:
        raise DerivationError(
            f"pile sizes sum to {total} but the wall has {tile_count} tiles: "
            f"make the piles ({', '.join(f'{n} {s}' for n, s in pile_pairs)}) add up to {tile_count}"
        )


def lay_out(wall: Sequence[str], piles: Sequence[Any]) -> dict[str, list[str]]:
    """Cut a wall into its piles: pile name -> tiles, each pile the next consecutive slice.

    ``piles`` as for :func:`ruleset_fingerprint`, in wall order. Raises DerivationError if the
    sizes do not sum to ``len(wall)``.
    """
    pile_pairs = _pile_pairs(piles)
    _check_sizes(len(wall), pile_pairs)
    result, start = {}, 0
    for name, size in pile_pairs:
        result[name] = list(wall[start : start + size])
        start += size
    return result


def arrangements(multiset: Sequence[str]) -> int:
    """How many different walls a multiset of tiles can be laid as: ``n! / (c1! c2! ...)`` for
    ``n`` tiles of which ``c1``, ``c2``... are alike (1 when every tile is of one kind)."""
    count = math.factorial(len(multiset))
    for alike in _counts(multiset):
        count //= math.factorial(alike)
    return count


def _counts(multiset: Sequence[str]) -> list[int]:
    seen: dict[str, int] = {}
    for code in multiset:
        seen[code] = seen.get(code, 0) + 1
    return list(seen.values())


def reserve_sequence(key: bytes, event_uid: str, session: int, set_no: int, count: int,
                     multiset: Sequence[str], fingerprint: str) -> list[tuple[int, list[str]]]:
    """Reserve walls 1 to ``count`` of one set as ``[(attempt, wall), ...]`` (docs/walls.md,
    "Reserve walls").

    ``key`` is the effective key, ``multiset`` the rule set's tiles in canonical order and
    ``fingerprint`` its fingerprint. Reserve ``r`` is the wall shuffled with
    :func:`reserve_wall_key` ``(.., r, attempt, ..)`` for the first ``attempt`` = 0, 1, 2... whose
    wall differs from the set's own wall (:func:`wall_key`) and from reserves 1 to ``r - 1``, so
    a reserve wall never equals the set it replaces. Raises DerivationError when the multiset has
    fewer than ``count + 1`` different arrangements (every tile of one kind: none to spare), and
    as :func:`reserve_wall_key` for bad inputs.
    """
    _positive("reserve number", count)
    possible = arrangements(multiset)
    if count >= possible:
        raise DerivationError(
            f"reserve {count} cannot differ from the set and every earlier reserve: its {len(multiset)} tiles "
            f"can be laid in only {possible} different way{'s' if possible != 1 else ''}; use a rule set with more kinds of tile"
        )
    taken = [shuffle(multiset, wall_key(key, event_uid, session, set_no, fingerprint))]
    out = []
    for reserve in range(1, count + 1):
        attempt = 0
        while True:
            wall = shuffle(multiset, reserve_wall_key(key, event_uid, session, set_no, reserve, attempt, fingerprint))
            if wall not in taken:
                break
            attempt += 1
        taken.append(wall)
        out.append((attempt, wall))
    return out


def derive_reserve(
    seed_hex: str,
    event_uid: str,
    session: int,
    set_no: int,
    reserve: int,
    tiles: Sequence[Any],
    piles: Sequence[Any],
    public_value: str | None = None,
) -> list[str]:
    """Reserve wall ``reserve`` (1, 2...) of one wall set, in wall order (lay it out with
    :func:`lay_out`): inputs as :func:`derive_wall`, the rule of :func:`reserve_sequence`.
    Raises DerivationError for any bad input, or when no different wall is left to draw.
    """
    tile_pairs, pile_pairs = _tile_pairs(tiles), _pile_pairs(piles)
    multiset = [code for code, count in tile_pairs for _ in range(count)]
    _check_sizes(len(multiset), pile_pairs)
    key = effective_key(seed_hex, public_value)
    return reserve_sequence(key, event_uid, session, set_no, reserve, multiset, _fingerprint(tile_pairs, pile_pairs))[-1][1]


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: print the commitment, the rule-set fingerprint and one wall set's piles
    (with ``--reserve N``: a ``reserve`` line, then the piles of the set's reserve wall N).

    ``--ruleset-json`` is a RuleSet JSON (``RuleSet.to_dict()``) or a whole event export, whose
    ``ruleset`` is used. Returns 0; errors exit with status 2 and a message.
    """
    parser = argparse.ArgumentParser(prog="python -m walls.derivation", description="Print one wall set's piles, or one of its reserve walls.")
    parser.add_argument("--seed", required=True, help="master seed, 64 hex characters")
    parser.add_argument("--event", required=True, help="event uid as in the export's event.uid")
    parser.add_argument("--session", required=True, type=int)
    parser.add_argument("--set", required=True, type=int, dest="set_no")
    parser.add_argument("--ruleset-json", required=True, help="RuleSet JSON file or event export")
    parser.add_argument("--public-value", default=None, help="the published public value, if the event has one")
    parser.add_argument("--reserve", type=int, default=0, metavar="N",
                        help="print the set's reserve wall N (1, 2...) instead of the set itself")
    args = parser.parse_args(argv)
    try:
        with open(args.ruleset_json, encoding="utf-8") as handle:
            document = json.load(handle)
        ruleset = document.get("ruleset", document) if isinstance(document, dict) else None
        if not isinstance(ruleset, dict) or "tiles" not in ruleset or "piles" not in ruleset:
            raise DerivationError(f"{args.ruleset_json} has no rule set with tiles and piles: pass RuleSet.to_dict() JSON or an export")
        tiles, piles = ruleset["tiles"], ruleset["piles"]
        if args.reserve:
            wall = derive_reserve(args.seed, args.event, args.session, args.set_no, args.reserve, tiles, piles, args.public_value)
        else:
            wall = derive_wall(args.seed, args.event, args.session, args.set_no, tiles, piles, args.public_value)
    except (OSError, ValueError) as error:
        parser.exit(2, f"error: {error}\n")
    print(f"commitment   {commitment(args.seed)}")
    print(f"fingerprint  {ruleset_fingerprint(tiles, piles)}")
    if args.reserve:
        print(f"reserve      R{args.reserve}")
    for name, pile in lay_out(wall, piles).items():
        print(f"{name:<12} {' '.join(pile)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
