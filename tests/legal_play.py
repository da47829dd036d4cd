"""Legal play of a wall set with private draw piles, simulated to make the entries a table could
really make (a test helper for tests/test_wall_check_play.py, independent of scoring/wall_check.py).

What it models (docs/rules.md, "Duplicate MCR: seat layout and private draw piles"; the riichi
duplicate presets' notes): the seats play in turn from the dealer; the seat to play draws the
next tile of its own draw pile (calls skip draws, they never change whose pile a seat draws
from); after a draw it may declare a concealed kong (four of a kind held) or an added kong (the
fourth tile of an exposed pung), and draws a replacement tile: the dead wall's replacement slots
in their order, shared by the table, when the rule set has dead piles (riichi duplicate: East X1,
X2, South X1, X2), else the next tile of its own pile (duplicate MCR); then it discards one of
its concealed tiles, which another seat may call: a pung (two held), an exposed kong (three held,
then a replacement draw) or a chow (the next seat only, two tiles of a run held); the caller then
discards. At a random moment the hand ends with what a table enters: a self-draw by the seat that
just drew (a replacement tile included: a win on a kong's replacement), a win on a discard, or
robbing an added kong (entered as a discard by the kong's declarer).

What it leaves out: whether the winning hand is a real winning shape (the wall check looks only
at where tiles come from), the hand's value, riichi and flowers, and the end of the hand when a
pile runs out (the simulation then makes no entry).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from scoring.fan_check import WinningHand
from scoring.wall_check import kind_of
from walls.rulesets.layout import dead_wall
from walls.rulesets.model import RuleSet


@dataclass(frozen=True)
class Entry:
    """What a table enters: ``kind`` (``"self_draw"`` or ``"discard"``), ``winner``,
    ``discarder`` (None on a self-draw), ``winning_tile`` (a kind) and the winner's ``hand``."""

    kind: str
    winner: str
    discarder: str | None
    winning_tile: str
    hand: WinningHand


@dataclass
class _Seat:
    concealed: list[str]
    pile: list[str]
    melds: list[tuple[str, str]] = field(default_factory=list)
    kongs: int = 0

    def holding(self, kind: str) -> list[str]:
        return [t for t in self.concealed if kind_of(t) == kind]

    def take(self, kind: str, n: int) -> None:
        for tile in self.holding(kind)[:n]:
            self.concealed.remove(tile)


def lay(ruleset: RuleSet, tiles: list[str]) -> dict[str, list[str]]:
    """``tiles`` (a shuffle of the rule set's multiset) laid into its piles in wall order."""
    piles, at = {}, 0
    for pile in ruleset.piles:
        piles[pile.name] = list(tiles[at:at + pile.size])
        at += pile.size
    return piles


def replacement_tiles(ruleset: RuleSet, piles: dict[str, list[str]]) -> list[str] | None:
    """The dead wall's replacement tiles in order (shared by the table), or None when kongs
    replace from the declarer's own pile (no dead piles)."""
    dead = dead_wall(ruleset)
    if dead is None:
        return None
    return [piles[s.pile][int(s.label[1:]) - 1] for s in dead.of_role("replacement")]


def play(ruleset: RuleSet, piles: dict[str, list[str]], rng: random.Random, *, calls: float = 0.6,
         kongs: float = 0.9, win: float = 0.04) -> Entry | None:
    """Play ``piles`` (a wall of ``ruleset``, private draw piles) legally with choices drawn from
    ``rng`` (module doc) until a win; returns the entry, or None when a pile ran out first.
    ``calls``, ``kongs``, ``win``: the chance of calling a discard that can be called, of
    declaring a kong that can be declared, of ending the hand with a win at each chance."""
    order = list(ruleset.seats)
    seats = {s: _Seat(list(piles[f"{s}-hand"]), list(piles[f"{s}-draw"])) for s in order}
    shared = replacement_tiles(ruleset, piles)

    def hand_of(seat: _Seat, winning: str, drawn: bool) -> WinningHand:
        standing = list(seat.concealed)
        if drawn:
            standing.remove(winning)
        return WinningHand(tuple(standing), tuple(seat.melds), winning)

    def replacement(seat: _Seat) -> str | None:
        source = shared if shared is not None else seat.pile
        if not source:
            return None
        tile = source.pop(0)
        seat.concealed.append(tile)
        seat.kongs += 1
        return tile

    def after_draw(name: str, drawn: str) -> Entry | None | str:
        """Kongs and a self-draw after ``drawn``; an entry, or "discard" to go on."""
        seat = seats[name]
        while True:
            if rng.random() < win:
                return Entry("self_draw", name, None, kind_of(drawn), hand_of(seat, drawn, True))
            counts = Counter(kind_of(t) for t in seat.concealed)
            closed = [k for k, n in counts.items() if n == 4]
            added = [k for kind, k in seat.melds if kind == "pung" and counts[k]]
            if not (closed or added) or rng.random() >= kongs or (shared is not None and not shared) or (
                    shared is None and not seat.pile):
                return "discard"
            if closed and (not added or rng.random() < 0.5):
                k = rng.choice(closed)
                seat.take(k, 4)
                seat.melds.append(("ckong", k))
            else:
                k = rng.choice(added)
                seat.take(k, 1)
                robber = next((o for o in order if o != name and rng.random() < win * 4), None)
                if robber is not None:  # robbing the kong: entered as a win on the declarer's discard
                    return Entry("discard", robber, name, k, hand_of(seats[robber], k, False))
                seat.melds[seat.melds.index(("pung", k))] = ("kong", k)
            drawn = replacement(seat)
            if drawn is None:
                return "discard"

    current = order[0]
    skip_draw = False
    while True:
        seat = seats[current]
        if not skip_draw:
            if not seat.pile:
                return None
            drawn = seat.pile.pop(0)
            seat.concealed.append(drawn)
            went = after_draw(current, drawn)
            if isinstance(went, Entry):
                return went
        skip_draw = False
        discard = rng.choice(seat.concealed)
        seat.concealed.remove(discard)
        k = kind_of(discard)
        others = order[order.index(current) + 1:] + order[:order.index(current)]
        winner = next((o for o in others if rng.random() < win), None)
        if winner is not None:
            return Entry("discard", winner, current, k, hand_of(seats[winner], discard, False))
        caller = None
        for other in others:
            them = seats[other]
            held = len(them.holding(k))
            if held >= 2 and rng.random() < calls:
                if held == 3 and rng.random() < kongs and (shared if shared is not None else them.pile):
                    them.take(k, 3)
                    them.melds.append(("kong", k))
                    drawn = replacement(them)
                    caller = other
                    went = after_draw(other, drawn) if drawn is not None else "discard"
                    if isinstance(went, Entry):
                        return went
                else:
                    them.take(k, 2)
                    them.melds.append(("pung", k))
                    caller = other
                break
        if caller is None and k[1] in "mps" and rng.random() < calls:
            nxt = others[0]
            rank, suit = int(k[0]), k[1]
            for low in (rank - 2, rank - 1, rank):
                run = [f"{r}{suit}" for r in (low, low + 1, low + 2)]
                if low < 1 or low + 2 > 9:
                    continue
                need = [t for t in run if t != k]
                if all(seats[nxt].holding(t) for t in need):
                    for t in need:
                        seats[nxt].take(t, 1)
                    seats[nxt].melds.append(("chi", run[1]))
                    caller = nxt
                    break
        if caller is not None:
            current, skip_draw = caller, True
        else:
            current = others[0]
