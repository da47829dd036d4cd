"""Regrouping entrants between sessions with as few repeat meetings as possible (docs/seating.md).

docs/rules.md, "Duplicate MCR: team event": from the second session on, teams (team event) or players (individual event) are put
into new groups. Entrants ``0 .. n-1`` (teams, or players) are split each session into groups of
``group_size`` (N teams, or N*N players, for N seats). Two entrants *meet* when they share a group;
a *repeat meeting* is every meeting of a pair beyond its first.

- Exact designs (zero repeats while they last), from resolvable designs: round robin (groups of 2,
  circle method), finite affine geometry AG(k, q) (n = q^k, groups of q, q a prime power: 16 teams =
  AG(2,4) with 5 sessions, 64 = AG(3,4) with 21, 256 = AG(4,4) with 85), Kirkman's schoolgirls
  (15 in threes, 7 sessions), and resolvable transversal designs TD(g, q) (n = g*q, q a prime power
  of at least g: 32 teams = TD(4,8), 8 sessions, plus the designs of the rows).
- Beyond them (more sessions, or no design, e.g. 48 teams) a tabu search on swaps, seeded and
  deterministic, starting from the design.
- Session 1 always keeps the entrants' given order (group 1 = entrants 0..g-1, ...): relabelling
  entrants changes no meeting count, so this costs nothing and lets the director seed session 1
  (by ranking, or to keep clubs apart) by ordering the entrant list.

Standalone: no Django import; tournament services store the groups this module returns. Error
messages and the entrant options are translated through :mod:`tournament.i18n` when Django runs.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Any
from dataclasses import dataclass
from itertools import combinations

from tournament.i18n import gettext as _


class RegroupError(ValueError):
    """Sizes that cannot be regrouped as asked; the message names the field and the fix."""


@dataclass(frozen=True)
class RegroupResult:
    """Groups for every session and how good they are.

    - ``sessions[s][g]``: the entrant indices (0-based, sorted) of group ``g`` in 0-based session ``s``.
    - ``repeats``: repeat meetings, :func:`repeat_meetings` of ``sessions``.
    - ``lower_bound``: no grouping of these sizes has fewer repeats (:func:`meeting_lower_bound`).
    - ``method``: how it was made, e.g. ``"affine geometry AG(3,4)"`` or ``"transversal design
      TD(4,8) + tabu search"``; ends in ``"(time limit)"`` when the time limit, not the search's
      own budget, stopped it (the only case in which a seed may give different groups).
    - ``seconds``: wall-clock time taken.
    """

    sessions: list[list[tuple[int, ...]]]
    repeats: int
    lower_bound: int
    method: str
    seconds: float


@dataclass(frozen=True)
class EntrantOption:
    """One way to run an event whose entrant count is not a multiple of the group size.

    - ``kind``: ``"as-is"``, ``"substitutes"``, ``"sit-out-average"`` or ``"sit-out-datum"``.
    - ``entrants``: entrants regrouped each session (including substitutes, excluding sit-outs).
    - ``substitutes``: ghost places the organisers fill with substitute teams/players.
    - ``sit_outs``: entrants sitting out each session; ``cycle``: sessions after which everyone has
      sat out equally often (0 when nobody sits out).
    - ``scoring``: how the missing or extra results are scored; ``description``: one line for the
      director.
    """

    kind: str
    entrants: int
    substitutes: int
    sit_outs: int
    cycle: int
    scoring: str
    description: str


def _size_name(name: str) -> str:
    """A size checked by :func:`_check_whole`, named in the active language."""
    return {"entrants": _("entrants"), "group size": _("group size"), "sessions": _("sessions")}.get(name, name)


def _check_whole(name: str, value: object, minimum: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise RegroupError(_("%(field)s must be a whole number of at least %(minimum)s, got %(value)s")
                           % {"field": _size_name(name), "minimum": minimum, "value": repr(value)})


def _check_sizes(n: int, group_size: int, n_sessions: int) -> None:
    _check_whole("entrants", n, 1)
    _check_whole("group size", group_size, 2)
    _check_whole("sessions", n_sessions, 1)
    if n % group_size:
        raise RegroupError(
            _("%(entrants)s entrants do not split into groups of %(size)s: see entrant_options(%(entrants)s, %(size)s) "
              "for substitutes or sit-outs") % {"entrants": n, "size": group_size}
        )


def repeat_meetings(sessions: Sequence[Sequence[Sequence[int]]]) -> int:
    """Sum over pairs of entrants of ``max(0, meetings - 1)``: meetings beyond each pair's first.

    ``sessions[s][g]`` lists the entrants of group ``g`` in session ``s``. Equals
    ``total meetings - pairs that met at least once``.
    """
    met: dict[tuple[int, int], int] = {}
    for groups in sessions:
        for group in groups:
            for pair in combinations(sorted(group), 2):
                met[pair] = met.get(pair, 0) + 1
    return sum(count - 1 for count in met.values())


def meeting_lower_bound(n: int, group_size: int, n_sessions: int) -> int:
    """A lower bound on :func:`repeat_meetings` for any regrouping of these sizes.

    With G = n / group_size groups, each session holds ``G * C(g, 2)`` meetings, so ``T = sessions
    * G * C(g, 2)`` in all, among ``P = C(n, 2)`` pairs. Two bounds (docs/seating.md derives them):

    - counting: repeats = T - (pairs that met) >= T - P;
    - two sessions: their groups cut the entrants into a G x G table of overlaps with row and
      column sums g, and every overlap of k entrants holds C(k, 2) pairs meeting in both; the sum
      is least for the most even table, P2 = G * (r * C(q+1, 2) + (G-r) * C(q, 2)) with
      q, r = divmod(g, G). A pair meeting m <= s times adds C(m, 2) to these counts over all
      C(s, 2) pairs of sessions and m - 1 >= 2 C(m, 2) / s repeats, so repeats >= (s-1) * P2.

    Returns the larger, at least 0. Raises RegroupError on sizes that do not split into groups.
    """
    _check_sizes(n, group_size, n_sessions)
    groups = n // group_size
    total = n_sessions * groups * math.comb(group_size, 2)
    q, r = divmod(group_size, groups)
    overlap = groups * (r * math.comb(q + 1, 2) + (groups - r) * math.comb(q, 2))
    return max(0, total - math.comb(n, 2), (n_sessions - 1) * overlap)


def regroup(
    n: int,
    group_size: int,
    n_sessions: int,
    seed: int = 0,
    time_limit: float = 10.0,
    sit_outs: Sequence[Sequence[int]] | None = None,
) -> RegroupResult:
    """Split ``n`` entrants into groups of ``group_size`` for each of ``n_sessions`` sessions.

    Session 1 keeps the given order (entrants 0..g-1 in group 1...). Uses the largest exact
    design for (n, group_size) for as many sessions as it has (zero repeats); a complete design
    (every pair meets once: round robin, AG(k,q), Kirkman) is then repeated, which already meets
    the lower bound; otherwise a tabu search (docs/seating.md) over swaps of two entrants in a
    session, from ``random.Random(seed)``, improves the remaining sessions until it reaches the
    lower bound or its move budget (``2000 * time_limit`` moves), so a seed gives the same groups
    on any machine; ``time_limit`` (seconds) also stops it as a safety net. The designs do not
    depend on the seed.

    ``sit_outs``: optional, per session, the entrants who sit out (see :func:`sit_out_schedule`);
    then ``n - len(sit_outs[s])`` must split into groups, designs do not apply and the search
    starts from the given order.

    Raises RegroupError on sizes that do not split into groups (pointing to
    :func:`entrant_options`), a non-positive time limit, or a sit-out list that names an unknown
    entrant or does not have one entry per session.
    """
    start = time.perf_counter()
    if sit_outs is None:
        _check_sizes(n, group_size, n_sessions)
        present = [list(range(n))] * n_sessions
        bound = meeting_lower_bound(n, group_size, n_sessions)
    else:
        present = _present(n, group_size, n_sessions, sit_outs)
        total = sum(len(p) // group_size for p in present) * math.comb(group_size, 2)
        bound = max(0, total - math.comb(n, 2))
    if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) or not time_limit > 0:
        raise RegroupError(_("time limit must be a positive number of seconds, got %(value)s") % {"value": repr(time_limit)})
    classes, name = _design(n, group_size) if sit_outs is None else ([], "tabu search")
    if len(classes) >= n_sessions:
        sessions = classes[:n_sessions]
    elif len(classes) * (group_size - 1) == n - 1:
        sessions = [classes[s % len(classes)] for s in range(n_sessions)]
        name = f"{name} repeated"
    else:
        search = _TabuSearch(n, group_size, present, classes, random.Random(seed))
        stopped = search.run(bound, max_moves=int(2000 * time_limit), deadline=start + time_limit)
        sessions = search.best
        label = "tabu search" if len(classes) <= 1 else f"{name} + tabu search"
        name = label + (" (time limit)" if stopped else "")
    sessions = [sorted(tuple(sorted(g)) for g in groups) for groups in sessions]
    return RegroupResult(sessions, repeat_meetings(sessions), bound, name, time.perf_counter() - start)


def _present(n: int, group_size: int, n_sessions: int, sit_outs: Sequence[Sequence[int]]) -> list[list[int]]:
    _check_whole("entrants", n, 1)
    _check_whole("group size", group_size, 2)
    _check_whole("sessions", n_sessions, 1)
    if len(sit_outs) != n_sessions:
        raise RegroupError(_("sit-outs need one list per session (%(sessions)s), got %(lists)s")
                           % {"sessions": n_sessions, "lists": len(sit_outs)})
    present = []
    for s, out in enumerate(sit_outs):
        if any(e not in range(n) for e in out) or len(set(out)) != len(out):
            raise RegroupError(_("session %(session)s: sit-outs must be distinct entrants 0 to %(last)s, got %(got)s")
                               % {"session": s + 1, "last": n - 1, "got": list(out)})
        here = [e for e in range(n) if e not in set(out)]
        extra = len(here) % group_size
        if not here or extra:
            raise RegroupError(
                _("session %(session)s: %(playing)s entrants play, not a multiple of the group size %(size)s: "
                  "let %(let)s play (see sit_out_schedule)")
                % {"session": s + 1, "playing": len(here), "size": group_size, "let": len(here) - extra or group_size}
            )
        present.append(here)
    return present


def sit_out_schedule(n_entrants: int, group_size: int, n_sessions: int) -> list[tuple[int, ...]]:
    """Who sits out each session when ``n_entrants`` is not a multiple of ``group_size``.

    ``r = n_entrants % group_size`` entrants sit out each session, taken in turn: session ``s``
    (0-based) sits out ``(s * r + i) % n_entrants`` for ``i < r``. After any number of sessions
    sit-out counts differ by at most one between entrants, and over ``n / gcd(n, r)`` sessions
    everyone has sat out equally often. Returns one sorted tuple per session (empty when ``r == 0``).

    Raises RegroupError if the sizes are not whole numbers or nobody would be left to play.
    """
    _check_whole("entrants", n_entrants, 1)
    _check_whole("group size", group_size, 2)
    _check_whole("sessions", n_sessions, 1)
    r = n_entrants % group_size
    if n_entrants - r < group_size:
        raise RegroupError(_("%(entrants)s entrants cannot fill a group of %(size)s: add %(missing)s substitutes")
                           % {"entrants": n_entrants, "size": group_size, "missing": group_size - r})
    return [tuple(sorted((s * r + i) % n_entrants for i in range(r))) for s in range(n_sessions)]


def entrant_options(n_entrants: int, group_size: int) -> list[EntrantOption]:
    """The ways to run ``n_entrants`` in groups of ``group_size``; a choice for the director.

    A multiple of the group size gives the single option ``"as-is"``. Otherwise, with ``r =
    n_entrants % group_size``:

    - ``"substitutes"``: ``group_size - r`` ghost places filled by substitutes (reserve teams or
      players provided by the organisers). They play like anyone, so every table is full and the
      datum is taken over full tables, but they are not ranked.
    - ``"sit-out-average"``: ``r`` entrants sit out each session in turn (:func:`sit_out_schedule`);
      a sit-out session scores the entrant's average converted score per session over the
      sessions they played, so totals compare over equal numbers of sessions.
    - ``"sit-out-datum"``: the same rotation; a sit-out session scores 0, the datum (an average
      result).

    Sit-out options are left out when fewer than one group would remain. Raises RegroupError if a
    size is not a whole number (entrants >= 1, group size >= 2).
    """
    _check_whole("entrants", n_entrants, 1)
    _check_whole("group size", group_size, 2)
    r = n_entrants % group_size
    if r == 0:
        return [EntrantOption("as-is", n_entrants, 0, 0, 0, _("every entrant plays every session"),
                              _("%(groups)s groups of %(size)s") % {"groups": n_entrants // group_size, "size": group_size})]
    extra = group_size - r
    options = [EntrantOption(
        "substitutes", n_entrants + extra, extra, 0, 0,
        _("substitutes play and count in the datum, but are not ranked"),
        _("add %(extra)s substitute(s) to make %(groups)s full groups of %(size)s")
        % {"extra": extra, "groups": (n_entrants + extra) // group_size, "size": group_size},
    )]
    if n_entrants - r >= group_size:
        cycle = n_entrants // math.gcd(n_entrants, r)
        rotation = (_("%(count)s entrant(s) sit out each session in turn; all have sat out equally after %(cycle)s sessions")
                    % {"count": r, "cycle": cycle})
        options += [
            EntrantOption("sit-out-average", n_entrants - r, 0, r, cycle,
                          _("a sit-out session scores the entrant's average converted score of the sessions played"),
                          rotation),
            EntrantOption("sit-out-datum", n_entrants - r, 0, r, cycle,
                          _("a sit-out session scores 0 (the datum)"), rotation),
        ]
    return options


# Designs -----------------------------------------------------------------------------------------

def _design(n: int, g: int) -> tuple[list[list[tuple[int, ...]]], str]:
    """The exact design with the most zero-repeat sessions for (n, g) and its name, relabelled so
    that its first session is the given order; just that session (``"given order"``) when no
    design is known."""
    candidates: list[tuple[list[list[tuple[int, ...]]], str]] = []
    if n == g:
        candidates.append(([[tuple(range(n))]], "single group"))
    if g == 2:
        candidates.append((_round_robin(n), "round robin (circle method)"))
    k = round(math.log(n, g)) if n > 1 else 0
    if k >= 2 and g**k == n and _prime_power(g):
        candidates.append((_affine_classes(g, k), f"affine geometry AG({k},{g})"))
    if (n, g) == (15, 3):
        candidates.append(([list(day) for day in _KIRKMAN_15], "Kirkman triple system KTS(15)"))
    q = n // g
    if q >= g and _prime_power(q):
        candidates.append((_transversal_classes(g, q), f"transversal design TD({g},{q})"))
    if not candidates:
        return [[tuple(range(i, i + g)) for i in range(0, n, g)]], "given order"
    classes, name = max(candidates, key=lambda c: len(c[0]))
    label = {e: i for i, e in enumerate(e for block in classes[0] for e in block)}
    return [[tuple(sorted(label[e] for e in block)) for block in partition] for partition in classes], name


def _round_robin(n: int) -> list[list[tuple[int, ...]]]:
    """Circle method: entrant n-1 stays, the others turn; n-1 sessions, every pair meets once."""
    rounds = []
    for r in range(n - 1):
        ring = [(r + i) % (n - 1) for i in range(n - 1)] + [n - 1]
        rounds.append([tuple(sorted((ring[i], ring[n - 1 - i]))) for i in range(n // 2)])
    return rounds


class _Field:
    """GF(q) for a prime power q = p^m: elements 0..q-1 are polynomials over GF(p) (base-p digits)
    modulo a primitive polynomial found by search; ``add`` and ``mul`` are full tables."""

    def __init__(self, q: int):
        p = next(d for d in range(2, q + 1) if q % d == 0)
        m = round(math.log(q, p))
        self.add = [[_digits_add(a, b, p) for b in range(q)] for a in range(q)]
        exp = _primitive_powers(p, m) if m > 1 else _prime_powers(p)
        log = {value: k for k, value in enumerate(exp)}
        self.mul = [[0 if 0 in (a, b) else exp[(log[a] + log[b]) % (q - 1)] for b in range(q)] for a in range(q)]


def _digits_add(a: int, b: int, p: int) -> int:
    total, place = 0, 1
    while a or b:
        total += ((a % p + b % p) % p) * place
        a, b, place = a // p, b // p, place * p
    return total


def _prime_powers(p: int) -> list[int]:
    """Powers of the smallest primitive root mod p."""
    for root in range(1, p):
        powers = [pow(root, k, p) for k in range(p - 1)]
        if len(set(powers)) == p - 1:
            return powers
    raise AssertionError(f"no primitive root mod {p}")


def _primitive_powers(p: int, m: int) -> list[int]:
    """Powers x^0..x^(q-2) of x modulo the first monic degree-m polynomial over GF(p) in which x
    has order q-1 (such a polynomial is primitive, hence irreducible)."""
    q = p**m
    for tail in range(1, q):
        low = [(tail // p**i) % p for i in range(m)]
        coeffs, powers = [1] + [0] * (m - 1), []
        for _power in range(q - 1):
            powers.append(sum(c * p**i for i, c in enumerate(coeffs)))
            top = coeffs[-1]
            coeffs = [0] + coeffs[:-1]
            coeffs = [(c - top * low[i]) % p for i, c in enumerate(coeffs)]
        if len(set(powers)) == q - 1 and 0 not in powers:
            return powers
    raise AssertionError(f"no primitive polynomial of degree {m} over GF({p})")


def _prime_power(q: int) -> bool:
    p = next((d for d in range(2, q + 1) if q % d == 0), None)
    if p is None:
        return False
    while q % p == 0:
        q //= p
    return q == 1


def _affine_classes(q: int, k: int) -> list[list[tuple[int, ...]]]:
    """Parallel classes of lines of AG(k, q): one class per direction (a point of PG(k-1, q)), each
    line {x + t*d}; (q^k - 1) / (q - 1) classes of q^(k-1) lines, every pair of points on one line."""
    field = _Field(q)
    points = [tuple((x // q**i) % q for i in range(k)) for x in range(q**k)]
    index = {pt: i for i, pt in enumerate(points)}
    directions = [d for d in points if any(d) and d[next(i for i, c in enumerate(d) if c)] == 1]
    classes = []
    for d in directions:
        steps = [tuple(field.mul[t][c] for c in d) for t in range(q)]
        seen: set[int] = set()
        lines = []
        for x, pt in enumerate(points):
            if x in seen:
                continue
            line = tuple(index[tuple(field.add[a][b] for a, b in zip(pt, step))] for step in steps)
            seen.update(line)
            lines.append(line)
        classes.append(lines)
    return classes


def _transversal_classes(g: int, q: int) -> list[list[tuple[int, ...]]]:
    """Resolvable transversal design TD(g, q), q a prime power >= g: entrant r*q + c is row r,
    column c; block (a, b) = {(r, a*r + b)} (rows as field elements). For each slope a the q
    blocks form a session; two entrants of different rows meet exactly once over the q sessions.
    When g divides q the rows are then regrouped among themselves by the best design for (q, g)
    (at least one more session), since row mates have not met yet."""
    field = _Field(q)
    classes = [[tuple(r * q + field.add[field.mul[a][r]][b] for r in range(g)) for b in range(q)] for a in range(q)]
    if q % g == 0:
        for partition in _design(q, g)[0]:
            classes.append([tuple(r * q + c for c in block) for r in range(g) for block in partition])
    return classes


# One solution of Kirkman's schoolgirl problem (15 in threes, 7 days), found by exhaustive search
# and checked by tests/test_regrouping.py: every pair of the 15 meets exactly once.
_KIRKMAN_15 = (
    ((0, 1, 2), (3, 4, 5), (6, 7, 8), (9, 10, 11), (12, 13, 14)),
    ((0, 3, 6), (1, 4, 7), (2, 9, 12), (5, 10, 13), (8, 11, 14)),
    ((0, 4, 9), (1, 5, 11), (2, 7, 14), (3, 8, 13), (6, 10, 12)),
    ((0, 5, 14), (1, 3, 12), (2, 6, 11), (4, 8, 10), (7, 9, 13)),
    ((0, 7, 10), (1, 6, 13), (2, 5, 8), (3, 9, 14), (4, 11, 12)),
    ((0, 8, 12), (1, 10, 14), (2, 4, 13), (3, 7, 11), (5, 6, 9)),
    ((0, 11, 13), (1, 8, 9), (2, 3, 10), (4, 6, 14), (5, 7, 12)),
)


# Tabu search --------------------------------------------------------------------------------------


class _PairPool:
    """A set of pairs with O(1) add, remove and random pick (list plus index)."""

    def __init__(self) -> None:
        self.pairs: list[tuple[int, int]] = []
        self.index: dict[tuple[int, int], int] = {}

    def add(self, pair: tuple[int, int]) -> None:
        self.index[pair] = len(self.pairs)
        self.pairs.append(pair)

    def remove(self, pair: tuple[int, int]) -> None:
        i = self.index.pop(pair)
        last = self.pairs.pop()
        if last != pair:
            self.pairs[i] = last
            self.index[last] = i


class _TabuSearch:
    """Tabu search on swaps (docs/seating.md). Session 1 and the design's sessions are the start;
    sessions beyond them start from a shuffle. Repeats = meetings - pairs that met, so a move
    either parts a random pair that meets more than once (swapping one of the two with an entrant
    of another group, in a session where they sit together) or, when the sessions hold more
    meetings than there are pairs, brings together a random pair that never met (swapping one of
    them with a group mate of the other, in any session). The swap that lowers repeats most is
    made, except that an entrant moved in a session may not move there again for ``TENURE`` moves
    unless the swap beats the best found (aspiration). After ``STALL`` moves without a new best,
    the search restarts from the best with a few random swaps. Session 1 never changes."""

    TENURE = (0, 3)
    STALL = 400

    def __init__(self, n: int, g: int, present: list[list[int]], classes: Any, rng: random.Random) -> None:
        self.n, self.g, self.rng = n, g, rng
        sessions = []
        for s, here in enumerate(present):
            if s < len(classes):
                sessions.append([list(block) for block in classes[s]])
            else:
                order = list(here)
                if s:
                    rng.shuffle(order)
                sessions.append([order[i:i + g] for i in range(0, len(order), g)])
        meetings = sum(len(gr) * (len(gr) - 1) // 2 for groups in sessions for gr in groups)
        self.pull = meetings > n * (n - 1) // 2
        self._load(sessions)
        self.best = [[tuple(gr) for gr in groups] for groups in sessions]
        self.best_cost = self.cost

    def _load(self, sessions: Any) -> None:
        self.groups = [[list(gr) for gr in groups] for groups in sessions]
        self.where = [dict((e, i) for i, gr in enumerate(groups) for e in gr) for groups in self.groups]
        self.meet = [[0] * self.n for _row in range(self.n)]
        for groups in self.groups:
            for gr in groups:
                for a, b in combinations(gr, 2):
                    self.meet[a][b] += 1
                    self.meet[b][a] += 1
        self.cost = repeat_meetings(self.groups)
        self.repeated, self.unmet = _PairPool(), _PairPool()
        for a in range(self.n):
            for b in range(a + 1, self.n):
                if self.meet[a][b] >= 2:
                    self.repeated.add((a, b))
                elif self.meet[a][b] == 0 and self.pull:
                    self.unmet.add((a, b))

    def _meet(self, a: int, b: int, change: int) -> None:
        before = self.meet[a][b]
        after = before + change
        self.meet[a][b] = self.meet[b][a] = after
        pair = (min(a, b), max(a, b))
        if (before >= 2) != (after >= 2):
            (self.repeated.add if after >= 2 else self.repeated.remove)(pair)
        if self.pull and (before == 0) != (after == 0):
            (self.unmet.add if after == 0 else self.unmet.remove)(pair)

    def _delta(self, s: int, a: int, b: int) -> int:
        meet, groups, where = self.meet, self.groups[s], self.where[s]
        ma, mb = meet[a], meet[b]
        delta = 0
        for x in groups[where[a]]:
            if x != a:
                delta += (mb[x] >= 1) - (ma[x] >= 2)
        for y in groups[where[b]]:
            if y != b:
                delta += (ma[y] >= 1) - (mb[y] >= 2)
        return delta

    def _swap(self, s: int, a: int, b: int) -> None:
        groups, where = self.groups[s], self.where[s]
        ga, gb = where[a], where[b]
        self.cost += self._delta(s, a, b)
        for x in groups[ga]:
            if x != a:
                self._meet(a, x, -1)
                self._meet(b, x, 1)
        for y in groups[gb]:
            if y != b:
                self._meet(b, y, -1)
                self._meet(a, y, 1)
        groups[ga][groups[ga].index(a)] = b
        groups[gb][groups[gb].index(b)] = a
        where[a], where[b] = gb, ga

    def _candidates(self, free: range) -> list[tuple[int, int, int]]:
        """Swaps ``(session, a, b)`` aimed at one random repeated or unmet pair."""
        if self.pull and self.unmet.pairs and (not self.repeated.pairs or self.rng.random() < 0.5):
            a, b = self.rng.choice(self.unmet.pairs)
            moves = []
            for s in free:
                where, groups = self.where[s], self.groups[s]
                if a in where and b in where:
                    moves += [(s, b, x) for x in groups[where[a]] if x != a]
                    moves += [(s, a, y) for y in groups[where[b]] if y != b]
            return moves
        a, b = self.rng.choice(self.repeated.pairs)
        moves = []
        for s in free:
            where = self.where[s]
            if where.get(a, -1) == where.get(b, -2):
                moves += [(s, e, other) for e in (a, b) for other, group in where.items() if group != where[a]]
        return moves

    def run(self, bound: int, max_moves: int, deadline: float) -> bool:
        """Search until the cost reaches ``bound`` or ``max_moves``; True if ``deadline`` stopped it."""
        free = range(1, len(self.groups))
        tabu: dict[tuple[int, int], int] = {}
        since_best = 0
        for move in range(max_moves):
            if self.best_cost <= bound or not free:
                return False
            if move % 64 == 0 and time.perf_counter() > deadline:
                return True
            choice, best_delta = None, None
            for s, a, b in self._candidates(free):
                delta = self._delta(s, a, b)
                if (tabu.get((s, a), -1) >= move or tabu.get((s, b), -1) >= move) and self.cost + delta >= self.best_cost:
                    continue
                if best_delta is None or delta < best_delta or (delta == best_delta and self.rng.random() < 0.3):
                    choice, best_delta = (s, a, b), delta
            if choice is None:
                continue
            s, a, b = choice
            self._swap(s, a, b)
            tabu[(s, a)] = tabu[(s, b)] = move + self.rng.randint(*self.TENURE)
            if self.cost < self.best_cost:
                self.best_cost, since_best = self.cost, 0
                self.best = [[tuple(gr) for gr in groups] for groups in self.groups]
            else:
                since_best += 1
            if since_best >= self.STALL:
                self._load(self.best)
                for _kick in range(3):
                    s = self.rng.choice(free)
                    a, b = self.rng.sample(list(self.where[s]), 2)
                    if self.where[s][a] != self.where[s][b]:
                        self._swap(s, a, b)
                tabu.clear()
                since_best = 0
        return False
