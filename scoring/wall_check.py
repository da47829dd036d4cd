"""Results checked against the wall: could the winning tile and the winning hand a table entered
have come from the wall set it played? Pure core (no Django; messages are translated through
:mod:`tournament.i18n` when Django runs, in the reader's language when they are read).

**Who sees the answer.** Only the director and staff, and everyone once the set is released
everywhere (docs/security.md, "The wall check"): any answer to a table that varies with a wall
still in play tells the table about that wall. So the check never refuses anything: the entry is
stored as typed and the problems found are kept apart from it for the director
(:func:`scoring.actions.entry.check_wall`).

A table may give the winning tile (one of the 34 kinds of :data:`KINDS`) and the winning hand
(:class:`scoring.fan_check.WinningHand`) with a result. :func:`check_entry` compares them with the
stored piles of the set (pile name → list of tile codes, :mod:`walls.tiles`; red fives
``0m/0p/0s`` count as fives, any marked tile as its plain tile, flowers are not looked at) and
returns the problems found, each naming the tile, the seat and the slots it looked in. An empty
list means the entry fits the wall.

**Which tiles a seat can draw** follows each layout (docs/walls.md, "Dead wall: indicator and
replacement tiles"; :func:`walls.rulesets.layout.dead_wall`):

- the dead wall's *replacement* slots are drawn in their order by whoever declares a kong (or
  sets a nuki-dora aside), shared by the table: riichi duplicate's East X1, X2, South X1, X2, a
  shared dead wall's X1-X4; its *indicators* (dora, kan-dora) and *ura-dora* are never drawn;
- **private draw piles** (the rule set has a ``draw`` pile per seat: duplicate MCR and the riichi
  duplicate layouts; docs/rules.md, "Duplicate MCR: sessions and seats"): a seat draws only from
  its own pile, whatever calls happen; without dead piles a kong's replacement is the next tile
  of the declarer's own pile (duplicate MCR). A seat's own tiles are its starting hand and its
  pile, and at most as many replacement tiles as it declared kongs;
- **a shared live wall** (no draw piles): who drew which wall tile depends on the play, so the
  check is looser: a self-drawn tile must be in the live wall or among the replacement tiles;
  a discarded tile in the discarder's starting hand, the live wall or the replacement tiles;
  the concealed part in the winner's starting hand, the live wall or the replacement tiles.

The checks:

- self-draw: the winning tile is among the winner's draws (its pile, or a replacement tile when
  the winning hand is not given or holds a kong);
- win on a discard (robbing a kong counts as one): the winning tile is among the discarder's
  own tiles (its starting hand, its pile, any replacement tile: the discarder's kongs are not
  entered);
- the concealed part of the winning hand (its standing tiles, the winning tile of a self-draw,
  four tiles of each concealed kong) is among the winner's own tiles, counted tile by tile, with
  at most as many replacement tiles as the hand holds kongs (any kongs on a shared wall, where
  nuki-dora also draw replacement tiles). Exposed chows, pungs and kongs may hold called tiles,
  so they are not checked.

What the check cannot see: which of its own tiles a seat had drawn when the hand ended, the
order of the kongs at the table, and on a shared wall who drew which wall tile. It finds
entries no play of the wall could produce, not every mistake.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.fan_check import WinningHand
from tournament.i18n import gettext as _
from tournament.i18n import seat_name
from walls.rulesets.layout import dead_wall
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
    """One way an entry does not fit the wall, kept as data so that it is read in the reader's
    language (:attr:`message`).

    ``check``: ``"winning_tile"`` or ``"hand"`` (the entry's field it is about); ``how``:
    ``"self_draw"`` (the winning tile is not among the winner's draws), ``"discard"`` (not among
    the discarder's tiles) or ``"hand"`` (the concealed part needs tiles the winner never held);
    ``seat``: the winner or the discarder (a wind letter); ``tiles``: the tile kinds missing;
    ``shared``: the rule set has a shared live wall (no draw piles); ``own``: the slot ranges of
    the seat's own tiles looked in (``("H1-H13", "D1-D21")``, a shared wall's ``("L1-L70",)``);
    ``replacements``: the replacement slots as ``(seat or None, label)`` (``(("E", "X1"), ...)``);
    ``kongs``: how many of them the winner may hold (the kongs of its hand), None for any."""

    check: str
    how: str
    seat: str
    tiles: tuple[str, ...]
    shared: bool = False
    own: tuple[str, ...] = ()
    replacements: tuple[tuple[str | None, str], ...] = ()
    kongs: int | None = None

    @property
    def message(self) -> str:
        """The sentence naming the tile, the seat and the slots looked in, in the active language
        ("the winning tile 5p is not among East's draws (D1-D21)")."""
        values = {"tile": " ".join(self.tiles), "tiles": " ".join(self.tiles), "seat": seat_name(self.seat),
                  "slots": self._slots()}
        if self.how == "self_draw":
            template = (_("the winning tile %(tile)s was self-drawn by %(seat)s but is not in the wall (%(slots)s), only in "
                          "the starting hands") if self.shared
                        else _("the winning tile %(tile)s is not among %(seat)s's draws (%(slots)s)"))
        elif self.how == "discard":
            template = (_("the winning tile %(tile)s is neither in the starting hand of %(seat)s, who discarded it, nor in the "
                          "wall (%(slots)s)") if self.shared
                        else _("the winning tile %(tile)s is not among the tiles of %(seat)s, who discarded it (%(slots)s)"))
        else:
            template = (_("the concealed part of the winning hand needs %(tiles)s, which neither %(seat)s's starting hand nor "
                          "the wall (%(slots)s) holds") if self.shared
                        else _("the concealed part of the winning hand needs %(tiles)s, which %(seat)s's own tiles (%(slots)s) do "
                               "not hold"))
        return template % values

    def _slots(self) -> str:
        parts = list(self.own)
        if self.replacements:
            labels = ", ".join(f"{seat_name(seat)} {label}" if seat else label for seat, label in self.replacements)
            if self.kongs is None:
                parts.append(_("replacement tiles %(slots)s") % {"slots": labels})
            elif self.kongs == 0:
                parts.append(_("no replacement tile (%(slots)s): the hand has no kong") % {"slots": labels})
            else:
                parts.append(_("at most %(count)s of the replacement tiles %(slots)s, one a kong")
                             % {"count": self.kongs, "slots": labels})
        return ", ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, as stored with a result (:func:`from_dict` reads it back): ``{"check", "how",
        "seat", "tiles", "shared", "own", "replacements", "kongs"}``."""
        return {"check": self.check, "how": self.how, "seat": self.seat, "tiles": list(self.tiles), "shared": self.shared,
                "own": list(self.own), "replacements": [list(r) for r in self.replacements], "kongs": self.kongs}


def problem_message(stored: Mapping[str, Any]) -> str:
    """The sentence of a stored problem (:meth:`WallProblem.to_dict`) in the active language; a
    problem stored before problems were kept as data (``{"check", "message"}``) keeps its words."""
    if "how" not in stored:
        return str(stored.get("message", ""))
    return WallProblem(
        str(stored["check"]), str(stored["how"]), str(stored["seat"]), tuple(stored.get("tiles") or ()),
        bool(stored.get("shared")), tuple(stored.get("own") or ()),
        tuple((seat, str(label)) for seat, label in stored.get("replacements") or ()), stored.get("kongs"),
    ).message


def flag_message(problems: Iterable[Mapping[str, Any]]) -> str:
    """The words of a wall flag (its stored problems) for the director: "does not fit the wall: …"."""
    return _("does not fit the wall: %(problems)s") % {"problems": "; ".join(problem_message(p) for p in problems)}


def kind_of(code: str) -> str:
    """The kind a tile code counts as: a red five its five (``"0p"`` → ``"5p"``), any other marked
    tile its plain tile (:func:`walls.tiles.plain_tile`), every other code as it is (flowers
    included, which are no kind of :data:`KINDS`, and unknown codes)."""
    return plain_tile(code) if is_valid_tile(code) else code


def _kinds(tiles: Iterable[str]) -> Counter[str]:
    return Counter(kind_of(str(tile)) for tile in tiles)


def _ranges(piles: Sequence[Pile]) -> tuple[str, ...]:
    """``("H1-H13", "D1-D21")``: the printed slots of ``piles``."""
    return tuple(f"{p.slot_prefix}1-{p.slot_prefix}{p.size}" for p in piles if p.size)


def _tiles(stored: Mapping[str, Sequence[str]], piles: Sequence[Pile]) -> Counter[str]:
    return _kinds(tile for pile in piles for tile in stored.get(pile.name) or ())


def private_draws(ruleset: RuleSet) -> bool:
    """Whether each seat draws from its own pile (the rule set has ``draw`` piles)."""
    return any(p.kind == "draw" for p in ruleset.piles)


def _hand_and_draws(ruleset: RuleSet, seat: str) -> tuple[list[Pile], list[Pile]]:
    """``(hand piles, draw piles)`` of ``seat``: with private draws its own draw pile, with a
    shared wall every live pile. Dead piles are never here (:func:`_replacements`)."""
    hand = [p for p in ruleset.piles if p.kind == "hand" and p.seat == seat]
    kind = "draw" if private_draws(ruleset) else "live"
    draws = [p for p in ruleset.piles if p.kind == kind and (kind == "live" or p.seat == seat)]
    return hand, draws


def _replacements(ruleset: RuleSet, stored: Mapping[str, Sequence[str]]) -> tuple[Counter[str], tuple[tuple[str | None, str], ...]]:
    """The replacement tiles of the dead wall (kinds) and their slots ``(seat or None, label)``
    in order (:func:`walls.rulesets.layout.dead_wall`); none without dead piles. Indicators and
    ura-dora are not among them: nobody draws them."""
    dead = dead_wall(ruleset)
    if dead is None:
        return Counter(), ()
    slots = dead.of_role("replacement")
    tiles: list[str] = []
    for slot in slots:
        pile = stored.get(slot.pile) or ()
        index = int(slot.label[1:]) - 1
        if index < len(pile):
            tiles.append(str(pile[index]))
    per_seat = any(slot.seat for slot in slots)
    return _kinds(tiles), tuple((slot.seat if per_seat else None, slot.label) for slot in slots)


def concealed_part(hand: WinningHand, *, self_drawn: bool) -> list[str]:
    """The tiles of ``hand`` that came from the winner's own tiles: the standing tiles, the
    winning tile when self-drawn, four of each concealed kong (kinds, red fives as fives)."""
    tiles = list(hand.standing) + ([hand.winning_tile] if self_drawn else [])
    for meld, tile in hand.melds:
        if meld == "ckong":
            tiles.extend([tile] * 4)
    return [kind_of(t) for t in tiles]


def kongs_in(hand: WinningHand) -> int:
    """How many kongs ``hand`` declared (exposed, added or concealed): each drew a replacement tile."""
    return sum(1 for meld, _tile in hand.melds if meld in ("kong", "ckong"))


def check_entry(ruleset: RuleSet, piles: Mapping[str, Sequence[str]], *, kind: str, winner: str | None,
                discarder: str | None = None, winning_tile: str | None = None,
                hand: WinningHand | None = None) -> list[WallProblem]:
    """The problems of an entry against the wall set it was played on (module docstring).

    ``ruleset``: the event's rule set (its piles say which are whose, its dead wall which tiles
    are replacement tiles); ``piles``: the stored piles, pile name → tile codes; ``kind``:
    ``"self_draw"``, ``"discard"`` or ``"draw"`` (a draw is not checked); ``winner``,
    ``discarder``: seats (wind letters; None when not given); ``winning_tile``: a code of
    :data:`KINDS` (or a red five), None when not given; ``hand``: the winning hand read by
    :func:`scoring.fan_check.parse_hand`, None when not given (its own winning tile is checked
    when ``winning_tile`` is None; its kongs say how many replacement tiles the winner drew).

    Returns a list of :class:`WallProblem` (``check`` ``"winning_tile"`` then ``"hand"``), empty
    when the entry fits. Raises nothing: an unknown seat has no tiles, so its tile does not fit.
    """
    if kind not in ("self_draw", "discard") or not winner:
        return []
    problems: list[WallProblem] = []
    shared = not private_draws(ruleset)
    replacements, slots = _replacements(ruleset, piles)
    kongs = None if shared or hand is None else kongs_in(hand)  # None: any number of replacement tiles
    tile = kind_of(winning_tile) if winning_tile else (kind_of(hand.winning_tile) if hand is not None else None)
    if tile is not None and (kind == "self_draw" or discarder):
        seat = winner if kind == "self_draw" else str(discarder)
        hand_piles, draws = _hand_and_draws(ruleset, seat)
        looked_in = draws if kind == "self_draw" else hand_piles + draws
        # the discarder's kongs are not entered: any replacement tile may have been its own
        usable = replacements if kind == "discard" or kongs is None or kongs > 0 else Counter()
        if not (_tiles(piles, looked_in) + usable)[tile]:
            problems.append(WallProblem("winning_tile", kind, seat, (tile,), shared, _ranges(looked_in), slots,
                                        None if kind == "discard" else kongs))
    if hand is not None:
        hand_piles, draws = _hand_and_draws(ruleset, winner)
        needed = Counter(concealed_part(hand, self_drawn=kind == "self_draw"))
        beyond = needed - _tiles(piles, hand_piles + draws)  # what must have come from replacement tiles
        if beyond - replacements or (kongs is not None and beyond.total() > kongs):
            missing = beyond - replacements if beyond - replacements else beyond
            problems.append(WallProblem("hand", "hand", winner, tuple(sorted(missing.elements())), shared,
                                        _ranges(hand_piles + draws), slots, kongs))
    return problems
