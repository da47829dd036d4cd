"""Results checked against the wall: does the winning tile and the winning hand a table entered
fit the wall set it played? Pure core (no Django; messages are translated through
:mod:`tournament.i18n` when Django runs).

A table may give the winning tile (one of the 34 kinds of :data:`KINDS`) and the winning hand
(:class:`scoring.fan_check.WinningHand`) with a result. :func:`check_entry` compares them with
the stored piles of the set (pile name → list of tile codes, :mod:`walls.tiles`; red fives
``0m/0p/0s`` count as fives, any marked tile as its plain tile, flowers are not looked at) and returns the problems found, each
naming the tile and the seat. An empty list means the entry fits the wall.

**Private draw piles** (the rule set has a ``draw`` pile per seat: duplicate MCR and duplicate
riichi; docs/rules.md, "Duplicate MCR: sessions and seats"): a seat's *own tiles* are its starting
hand, its draw pile and the dead piles it may draw a kong's replacement from (its own dead pile,
or a shared one).

- self-draw: the winning tile is among the winner's draws (its draw pile, or a dead pile it draws
  replacements from);
- win on a discard: the winning tile is among the discarder's own tiles (one discards only one's
  own tiles);
- the concealed part of the winning hand (its standing tiles, the winning tile of a self-draw,
  four tiles of each concealed kong) is part of the winner's own tiles, counted tile by tile.
  Exposed chows, pungs and kongs may hold called tiles, so they are not checked.

**A shared live wall** (no draw piles: everyone draws from the same wall), an approximation, as
who drew which wall tile depends on the play: a self-drawn tile must be in the wall (a live or
dead pile), not only in the starting hands; a discarded tile must be in the discarder's starting
hand or in the wall; the concealed part must fit the winner's starting hand plus the wall.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from scoring.fan_check import WinningHand
from tournament.i18n import gettext as _
from tournament.i18n import seat_name
from walls.rulesets.model import Pile, RuleSet
from walls.tiles import is_valid_tile, plain_tile

KINDS: tuple[str, ...] = (
    *(f"{rank}{suit}" for suit in "mps" for rank in range(1, 10)),
    *(f"{rank}z" for rank in range(1, 8)),
)
"""The 34 tile kinds a winning tile is given as (``1m``..``9m``, ``1p``..``9p``, ``1s``..``9s``,
``1z``..``7z``); a red five is given as its five."""


@dataclass(frozen=True)
class WallProblem:
    """One way an entry does not fit the wall. ``check``: ``"winning_tile"`` or ``"hand"`` (the
    entry's field it is about); ``message``: the sentence naming the tile and the seat."""

    check: str
    message: str

    def to_dict(self) -> dict[str, str]:
        """``{"check", "message"}``, as stored in a result's flags."""
        return {"check": self.check, "message": self.message}


def kind_of(code: str) -> str:
    """The kind a tile code counts as: a red five its five (``"0p"`` → ``"5p"``), any other marked
    tile its plain tile (:func:`walls.tiles.plain_tile`), every other code as it is (flowers
    included, which are no kind of :data:`KINDS`, and unknown codes)."""
    return plain_tile(code) if is_valid_tile(code) else code


def _kinds(tiles: Iterable[str]) -> Counter[str]:
    return Counter(kind_of(str(tile)) for tile in tiles)


def _slots(piles: Sequence[Pile]) -> str:
    """``"D1-D21, X1-X2"``: the printed slots of ``piles``, for a message."""
    return ", ".join(f"{p.slot_prefix}1-{p.slot_prefix}{p.size}" for p in piles if p.size)


def _tiles(stored: Mapping[str, Sequence[str]], piles: Sequence[Pile]) -> Counter[str]:
    return _kinds(tile for pile in piles for tile in stored.get(pile.name) or ())


def private_draws(ruleset: RuleSet) -> bool:
    """Whether each seat draws from its own pile (the rule set has ``draw`` piles)."""
    return any(p.kind == "draw" for p in ruleset.piles)


def _own_piles(ruleset: RuleSet, seat: str) -> tuple[list[Pile], list[Pile]]:
    """``(hand piles, draw piles)`` of ``seat``: with private draws its draw pile and the dead
    piles it draws a kong's replacement from (its own, or a shared one); with a shared wall, every
    wall pile (live and dead)."""
    hand = [p for p in ruleset.piles if p.kind == "hand" and p.seat == seat]
    if private_draws(ruleset):
        draws = [p for p in ruleset.piles if (p.kind == "draw" and p.seat == seat) or (p.kind == "dead" and p.seat in (seat, None))]
    else:
        draws = [p for p in ruleset.piles if p.kind in ("live", "dead")]
    return hand, draws


def concealed_part(hand: WinningHand, *, self_drawn: bool) -> list[str]:
    """The tiles of ``hand`` that came from the winner's own tiles: the standing tiles, the
    winning tile when self-drawn, four of each concealed kong (kinds, red fives as fives)."""
    tiles = list(hand.standing) + ([hand.winning_tile] if self_drawn else [])
    for meld, tile in hand.melds:
        if meld == "ckong":
            tiles.extend([tile] * 4)
    return [kind_of(t) for t in tiles]


def check_entry(ruleset: RuleSet, piles: Mapping[str, Sequence[str]], *, kind: str, winner: str | None,
                discarder: str | None = None, winning_tile: str | None = None,
                hand: WinningHand | None = None) -> list[WallProblem]:
    """The problems of an entry against the wall set it was played on (module docstring).

    ``ruleset``: the event's rule set (its piles say which are whose); ``piles``: the stored
    piles, pile name → tile codes; ``kind``: ``"self_draw"``, ``"discard"`` or ``"draw"`` (a
    draw is not checked); ``winner``, ``discarder``: seats (wind letters; None when not given);
    ``winning_tile``: a code of :data:`KINDS` (or a red five), None when not given; ``hand``: the
    winning hand read by :func:`scoring.fan_check.parse_hand`, None when not given (its own
    winning tile is checked when ``winning_tile`` is None).

    Returns a list of :class:`WallProblem` (``check`` ``"winning_tile"`` or ``"hand"``), empty
    when the entry fits. Raises nothing: an unknown seat has no tiles, so its tile does not fit.
    """
    if kind not in ("self_draw", "discard") or not winner:
        return []
    problems: list[WallProblem] = []
    tile = kind_of(winning_tile) if winning_tile else (kind_of(hand.winning_tile) if hand is not None else None)
    private = private_draws(ruleset)
    if tile is not None:
        if kind == "self_draw":
            _hand_piles, draws = _own_piles(ruleset, winner)
            if not _tiles(piles, draws)[tile]:
                values = {"tile": tile, "seat": seat_name(winner), "slots": _slots(draws)}
                problems.append(WallProblem("winning_tile", (
                    _("the winning tile %(tile)s is not among %(seat)s's draws (%(slots)s)") if private
                    else _("the winning tile %(tile)s was self-drawn by %(seat)s but is not in the wall (%(slots)s), only in "
                           "the starting hands")) % values))
        elif discarder:
            hand_piles, draws = _own_piles(ruleset, discarder)
            own = hand_piles + draws
            if not _tiles(piles, own)[tile]:
                values = {"tile": tile, "seat": seat_name(discarder), "slots": _slots(own)}
                problems.append(WallProblem("winning_tile", (
                    _("the winning tile %(tile)s is not among the tiles of %(seat)s, who discarded it (%(slots)s)") if private
                    else _("the winning tile %(tile)s is neither in the starting hand of %(seat)s, who discarded it, nor in the "
                           "wall (%(slots)s)")) % values))
    if hand is not None:
        winner_hand, winner_draws = _own_piles(ruleset, winner)
        held = _tiles(piles, winner_hand + winner_draws)
        needed = Counter(concealed_part(hand, self_drawn=kind == "self_draw"))
        missing = sorted((needed - held).elements())
        if missing:
            values = {"tiles": " ".join(missing), "seat": seat_name(winner), "slots": _slots(winner_hand + winner_draws)}
            problems.append(WallProblem("hand", (
                _("the concealed part of the winning hand needs %(tiles)s, which %(seat)s's own tiles (%(slots)s) do not "
                  "hold") if private
                else _("the concealed part of the winning hand needs %(tiles)s, which neither %(seat)s's starting hand nor "
                       "the wall (%(slots)s) holds")) % values))
    return problems
