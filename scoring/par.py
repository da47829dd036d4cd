"""Solo par of a wall set: what each seat could have won alone, knowing its own tiles.

Duplicate mahjong's answer to bridge's double-dummy analysis (docs/scoring.md, "Par: what each
seat could have made"). With private draw piles (docs/rules.md, "Duplicate MCR (Aono,
デュプリケート方式マージャン)": each seat draws only from its own pile, kongs included) every tile a
seat will ever hold is known before the hand, so the question has an exact answer:

- **par**: the earliest draw (``D1``, ``D2``, ...) at which the seat could declare a self-drawn
  win using only its starting hand and its pile, without calls and without kongs, had it kept
  exactly the right tiles. After draw ``k`` a seat may hold any 13 of the tiles it has seen
  (each discard is free), so it can win at ``k`` exactly when the tiles seen up to ``D k``
  contain a winning hand that uses ``D k``; the earliest such ``k`` is the first draw at which
  the seen tiles contain any winning hand worth the rule set's minimum.
- **the par hand and its value**: of the winning hands available at that draw, the most
  valuable, counted by the rule set's own calculator (MCR: fan by PyMahjongGB, the Chinese
  Official rules' calculator, at least 8 fan; riichi: han and fu by the ``mahjong`` package,
  a yaku required).
- **the best value** reachable by the seat's last draw: every winning hand the seen tiles
  ever contain, won on any later draw of one of its tiles.
- **which draws**: only those the seat reaches in turn order without calls
  (:func:`walls.rulesets.layout.reachable_draws`: ``riichi-duplicate``'s East draws 18 of its 19
  tiles, its ``D19`` comes only after calls); the last of those draws in play order is the hand's
  last draw, and a win on it counts the last-tile fan (MCR's Last Tile Draw, 妙手回春, 8 fan:
  docs/rules.md, "Duplicate MCR: end of a hand"; riichi's Haitei Raoyue, 1 han: docs/rules.md,
  "Riichi (standard reference)").
- **shanten** of the starting hand (13 tiles): 0 is ready, 1 one tile from ready, ...; the
  regular form, seven pairs and thirteen orphans (the ``mahjong`` package's count).

Assumptions (also in docs/scoring.md): no calls, no kongs, no flowers (drawn flowers are set
aside and not counted); the seat wind is the seat's and the prevalent wind the set's round.
In riichi a win on the first draw is a blessing of heaven or earth; a later win counts riichi
declared on the discard before it (double riichi when that was the first discard), self-draw,
the dora of the indicator and red fives: a player can count on those. It leaves out the luck
no player can count on: ippatsu (a call or a kong breaks it) and ura-dora (hidden until the win).

**Shared live walls** (rule sets without per-seat draw piles) get the same analysis with the
seats drawing the live wall in turn order without calls (the dealer first, or the seat after a
dealer dealt 14): an approximation, since a call changes who draws what (``approximate``); the
last live tile is the hand's last draw.
Rule sets without a calculator here (every one but the MCR and riichi families) get the
earliest complete hand by shape only (``value`` None).

Standalone: no Django import.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scoring.payments import PAYMENT_RULES, HandOutcome, PaymentError, settle
from scoring.payments.counters import Counters
from walls.rulesets.layout import dead_wall, draw_sequence, reachable_draws
from scoring.wall_check import KINDS
from walls.tiles import plain_tile

WINDS = ("E", "S", "W", "N")
_INDEX = {code: i for i, code in enumerate(KINDS)}
_TERMINALS = tuple(i for i in range(34) if i >= 27 or i % 9 in (0, 8))
_MCR_MIN = 8
_MCR_RULES = frozenset({"mcr", "mcr-duplicate-mahjongsoft"})
_RIICHI_RULES = frozenset({"riichi"})
_YAKUMAN_HAN = 13

PAR_VERSION = 3
"""The version of the analysis :meth:`SetPar.as_dict` writes (its ``"version"``; docs/export.md,
"Par"). 1 (no ``"version"``): ippatsu and ura-dora counted, East's ``D19`` of ``riichi-duplicate``
analysed, a double yakuman counted as one, no last-tile fan. 2: a riichi dora's name carried its
count ("Dora 1") and an MCR fan had no Chinese name. An analysis stored with another
version is computed again (:func:`is_current`)."""

Counts = tuple[int, ...]


def kind_of(code: str) -> int | None:
    """The kind index (0-33) of a tile code (``"0m"``, a red five, is a 5m; ``"3sp"``, a pink
    three, a 3s: :func:`walls.tiles.plain_tile`); None for a flower."""
    if code.endswith("f"):
        return None
    return _INDEX[plain_tile(code)]


@dataclass(frozen=True)
class HandValue:
    """A winning hand's value by the rule set's calculator: ``value`` in the rule's unit (fan for
    MCR, han for riichi: the ``mahjong`` package's han, 13 a yakuman, 26 a double yakuman),
    ``fu`` (riichi; None for MCR), ``yakuman`` (riichi: how many yakuman the hand counts, each
    yakuman yaku's han // 13: 2 for a double yakuman such as Suu Ankou Tanki; 0 for a counted
    (kazoe) yakuman of 13 han of ordinary yaku), ``names``: ``(name, value)`` per yaku (the
    ``mahjong`` package's romaji name, :data:`YAKU_NAMES`) or ``(name, value, Chinese name)`` per
    MCR fan (PyMahjongGB's English and Chinese names)."""

    value: int
    fu: int | None = None
    yakuman: int = 0
    names: tuple[tuple[Any, ...], ...] = ()


@dataclass(frozen=True)
class Win:
    """One call-free self-drawn win: at draw ``draw`` (1-based), the 14 tiles ``tiles`` (kind
    codes, sorted) with ``winning_tile`` the drawn one, its ``hand`` in the notation of
    :mod:`scoring.fan_check` (``"123m 456p ... +5s"``), its value (None: no calculator) and
    ``score``: the seat's score change (points) had it won so, by the rule set's payment rule
    (None without a value)."""

    draw: int
    tiles: tuple[str, ...]
    winning_tile: str
    hand: str
    value: HandValue | None
    score: int | None


@dataclass(frozen=True)
class SeatPar:
    """One seat's analysis. ``seat``; ``draws``: how many draws the analysis saw (those the
    seat reaches without calls); ``shanten`` of the starting hand; ``par``: the earliest win
    (:class:`Win`) or None when no call-free win worth the minimum is possible; ``best``: the
    most valuable win by the seat's last draw (the highest score, then the highest value, then
    the earliest), None with ``par``."""

    seat: str
    draws: int
    shanten: int
    par: Win | None
    best: Win | None

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{"seat", "draws", "shanten", "par": win or None, "best": win or None}``,
        a win ``{"draw", "hand", "winning_tile", "value", "fu", "yakuman", "names", "score"}``."""
        return {"seat": self.seat, "draws": self.draws, "shanten": self.shanten,
                "par": _win_dict(self.par), "best": _win_dict(self.best)}


def _win_dict(win: Win | None) -> dict[str, Any] | None:
    if win is None:
        return None
    value = win.value
    return {"draw": win.draw, "hand": win.hand, "winning_tile": win.winning_tile,
            "value": value.value if value else None, "fu": value.fu if value else None,
            "yakuman": value.yakuman if value else 0,
            "names": [list(n) for n in value.names] if value else [], "score": win.score}


@dataclass(frozen=True)
class SetPar:
    """Every seat's :class:`SeatPar` in seat order; ``calculator``: ``"mcr"`` (PyMahjongGB),
    ``"riichi"`` (the ``mahjong`` package) or ``"shape"`` (no value); ``approximate``: a shared
    live wall drawn in turn order (module doc); ``unit``: ``"fan"`` or ``"han"``;
    ``fan_calculations``: how many hands the calculator counted."""

    seats: tuple[SeatPar, ...]
    calculator: str
    approximate: bool
    unit: str
    fan_calculations: int = 0

    def seat(self, seat: str) -> SeatPar | None:
        """The analysis of ``seat``, or None for a seat the rule set does not have."""
        return next((s for s in self.seats if s.seat == seat), None)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready (the export's ``par`` of a set, docs/export.md, "Par"): ``{"version"
        (:data:`PAR_VERSION`), "calculator", "approximate", "unit", "seats": [SeatPar.as_dict(),
        ...]}``."""
        return {"version": PAR_VERSION, "calculator": self.calculator, "approximate": self.approximate,
                "unit": self.unit, "seats": [s.as_dict() for s in self.seats]}


def is_current(analysis: Any) -> bool:
    """Whether ``analysis`` (a stored or imported :meth:`SetPar.as_dict`) was written by this
    version of the analysis (:data:`PAR_VERSION`); an older one is computed again."""
    return isinstance(analysis, Mapping) and analysis.get("version") == PAR_VERSION


class ParError(ValueError):
    """A wall the analysis cannot read (piles missing or of the wrong size); the message says which."""


# --- which tiles each seat sees ------------------------------------------------------------------


@dataclass(frozen=True)
class SeatTiles:
    """What a seat holds and draws: ``hand`` (13 tile codes, flowers left out), ``draws`` in draw
    order (``D1`` first, only the draws the seat reaches without calls), ``approximate`` for a
    shared live wall drawn in turn order, ``last``: the seat's last draw is the hand's last draw
    (the last-tile fan, module doc)."""

    seat: str
    hand: tuple[str, ...]
    draws: tuple[str, ...]
    approximate: bool
    last: bool = False


def seat_tiles(ruleset: Any, piles: Mapping[str, Sequence[str]]) -> list[SeatTiles]:
    """Each seat's starting hand and draws for the analysis (module doc), in seat order.

    Private draw piles: the seat's hand pile and the draws of its pile it reaches without calls
    (:func:`walls.rulesets.layout.reachable_draws`), ``last`` for the seat that makes the hand's
    last draw (:func:`walls.rulesets.layout.draw_sequence`). A shared live wall: the
    live piles in order, dealt one tile at a time in turn order from the dealer (from the next
    seat when the dealer is dealt a tile more than the others: its 14th tile is then its first
    draw); a seat keeps its first 13 dealt tiles (the shield-tile deal's two shield tiles are
    not drawn), ``last`` for the seat dealt the last live tile. Flowers are left out, and a hand
    short of 13 is filled from the seat's draws.
    Raises ParError for a pile missing from ``piles``."""
    seats = tuple(ruleset.seats)
    for pile in ruleset.piles:
        if pile.name not in piles:
            raise ParError(f"the wall has no pile {pile.name!r}: store every pile of the rule set")
    hands = {p.seat: [t for t in piles[p.name] if kind_of(t) is not None] for p in ruleset.piles if p.kind == "hand"}
    sequence = draw_sequence(ruleset)
    if sequence:
        reached = reachable_draws(ruleset)
        own = {p.seat: [t for t in piles[p.name][:reached.get(p.seat, 0)] if kind_of(t) is not None]
               for p in ruleset.piles if p.kind == "draw"}
        return [_filled(seat, hands.get(seat, []), own.get(seat, []), False, seat == sequence[-1][0]) for seat in seats]
    live = [t for p in ruleset.piles if p.kind == "live" for t in piles[p.name] if kind_of(t) is not None]
    turns: dict[str, list[str]] = {seat: [] for seat in seats}
    sizes = [sum(p.size for p in ruleset.piles if p.kind == "hand" and p.seat == seat) for seat in seats]  # as dealt
    start = 1 if sizes[0] > min(sizes) else 0
    if start:  # the dealer's extra dealt tile is its first draw
        turns[seats[0]].extend(hands.get(seats[0], [])[13:14])
    for i, tile in enumerate(live):
        turns[seats[(start + i) % len(seats)]].append(tile)
    last = seats[(start + len(live) - 1) % len(seats)] if live else None
    return [_filled(seat, hands.get(seat, [])[:13], turns[seat], True, seat == last) for seat in seats]


def _filled(seat: str, hand: list[str], draws: list[str], approximate: bool, last: bool) -> SeatTiles:
    """A seat's 13 starting tiles and its draws: tiles of a hand beyond 13 are its first draws,
    and a hand short of 13 (flowers set aside) is filled from its draws, as flower replacements."""
    sequence = hand + draws
    return SeatTiles(seat, tuple(sequence[:13]), tuple(sequence[13:]), approximate, last and len(sequence) > 13)


# --- complete hands inside a multiset ------------------------------------------------------------

_MELDS: tuple[tuple[int, ...], ...] = tuple((i, i, i) for i in range(34)) + tuple(
    (s * 9 + r, s * 9 + r + 1, s * 9 + r + 2) for s in range(3) for r in range(7))


def _meld_sets(counts: list[int], first: int, left: int, chosen: list[int], out: set[Counts], base: Counts) -> None:
    if left == 0:
        hand = list(base)
        for m in chosen:
            for k in _MELDS[m]:
                hand[k] += 1
        out.add(tuple(hand))
        return
    for m in range(first, len(_MELDS)):
        meld = _MELDS[m]
        if meld[0] == meld[1]:
            if counts[meld[0]] < 3:
                continue
            counts[meld[0]] -= 3
        else:
            a, b, c = meld
            if not (counts[a] and counts[b] and counts[c]):
                continue
            counts[a] -= 1
            counts[b] -= 1
            counts[c] -= 1
        chosen.append(m)
        _meld_sets(counts, m, left - 1, chosen, out, base)
        chosen.pop()
        for k in meld:
            counts[k] += 1


def _with_pair(counts: list[int], melds: int, base: Counts, out: set[Counts]) -> None:
    for p in range(34):
        if counts[p] >= 2:
            counts[p] -= 2
            paired = list(base)
            paired[p] += 2
            _meld_sets(counts, 0, melds, [], out, tuple(paired))
            counts[p] += 2


_KNITTED = tuple(
    tuple(suit * 9 + rank for suit, start in zip(order, (0, 1, 2), strict=True) for rank in range(start, 9, 3))
    for order in itertools.permutations(range(3)))
_HONOUR_KINDS = tuple(range(27, 34))


def complete_hands(counts: Sequence[int], *, mcr: bool) -> set[Counts]:
    """Every 14-tile winning shape contained in ``counts`` (34 tile counts), as 34-count
    tuples: four melds and a pair, seven pairs (MCR: four of a kind may be two pairs; riichi:
    seven different pairs), thirteen orphans and, with ``mcr``, the knitted hands (Lesser and
    Greater Honours and Knitted Tiles; Knitted Straight with a meld and a pair)."""
    work = list(counts)
    zero = (0,) * 34
    out: set[Counts] = set()
    _with_pair(work, 4, zero, out)
    pairs = [k for k in range(34) for _ in range((work[k] // 2) if mcr else min(1, work[k] // 2))]
    for chosen in itertools.combinations(pairs, 7):
        hand = [0] * 34
        for k in chosen:
            hand[k] += 2
        out.add(tuple(hand))
    if all(work[k] for k in _TERMINALS):
        for k in _TERMINALS:
            if work[k] >= 2:
                hand = [0] * 34
                for t in _TERMINALS:
                    hand[t] = 1
                hand[k] = 2
                out.add(tuple(hand))
    if mcr:
        for knitted in _KNITTED:
            pool = [k for k in knitted + _HONOUR_KINDS if work[k]]
            for chosen in itertools.combinations(pool, 14):
                hand = [0] * 34
                for k in chosen:
                    hand[k] = 1
                out.add(tuple(hand))
            if all(work[k] for k in knitted):
                for k in knitted:
                    work[k] -= 1
                base = [0] * 34
                for k in knitted:
                    base[k] = 1
                _with_pair(work, 1, tuple(base), out)
                for k in knitted:
                    work[k] += 1
    return out


def _counts(tiles: Sequence[str]) -> list[int]:
    counts = [0] * 34
    for tile in tiles:
        kind = kind_of(tile)
        if kind is not None:
            counts[kind] += 1
    return counts


def shanten(hand: Sequence[str]) -> int:
    """Tiles from ready of a 13-tile hand (0: ready), the least of the regular form, seven pairs
    and thirteen orphans, by the ``mahjong`` package's count."""
    from mahjong.shanten import Shanten

    return int(Shanten().calculate_shanten(_counts(hand)))


def notation(hand: Counts, winning: int) -> str:
    """A 14-tile hand in the notation of :mod:`scoring.fan_check`: the 13 standing tiles grouped
    by suit, then ``+`` and the winning tile (``"123456789m 11z 22z +1z"``)."""
    held = list(hand)
    held[winning] -= 1
    groups = []
    for suit, letter in enumerate("mpsz"):
        digits = "".join(str(rank + 1) * held[suit * 9 + rank] for rank in range(9 if suit < 3 else 7))
        if digits:
            groups.append(digits + letter)
    return " ".join(groups) + f" +{KINDS[winning]}"


YAKU_NAMES: tuple[str, ...] = (
    'Menzen Tsumo',
    'Riichi',
    'Open Riichi',
    'Ippatsu',
    'Chankan',
    'Rinshan Kaihou',
    'Haitei Raoyue',
    'Houtei Raoyui',
    'Double Riichi',
    'Double Open Riichi',
    'Nagashi Mangan',
    'Renhou',
    'Pinfu',
    'Tanyao',
    'Iipeiko',
    'Yakuhai (haku)',
    'Yakuhai (hatsu)',
    'Yakuhai (chun)',
    'Yakuhai (seat wind east)',
    'Yakuhai (seat wind south)',
    'Yakuhai (seat wind west)',
    'Yakuhai (seat wind north)',
    'Yakuhai (round wind east)',
    'Yakuhai (round wind south)',
    'Yakuhai (round wind west)',
    'Yakuhai (round wind north)',
    'Sanshoku Doujun',
    'Ittsu',
    'Chantai',
    'Honroutou',
    'Toitoi',
    'San Ankou',
    'San Kantsu',
    'Sanshoku Doukou',
    'Chiitoitsu',
    'Shou Sangen',
    'Honitsu',
    'Junchan',
    'Ryanpeikou',
    'Chinitsu',
    'Kokushi Musou',
    'Chuuren Poutou',
    'Suu Ankou',
    'Daisangen',
    'Shousuushii',
    'Ryuuiisou',
    'Suu Kantsu',
    'Tsuu Iisou',
    'Chinroutou',
    'Daisharin',
    'Daichisei',
    'Dai Suushii',
    'Kokushi Musou Juusanmen Matchi',
    'Suu Ankou Tanki',
    'Daburu Chuuren Poutou',
    'Tenhou',
    'Chiihou',
    'Renhou (yakuman)',
    'Sashikomi',
    'Paarenchan',
    'Dora',
    'Aka Dora',
    'Ura Dora',
)
"""The riichi yaku names of the ``mahjong`` package (``Yaku.name``), in its romaji: an English page
shows them as the package writes them (the names English-speaking players use); the catalogue
translates each, in the message context ``"yaku"`` (:func:`scoring.reports.analysis.par_view`),
for a Japanese page (門前清自摸和, 立直, ...) and a Chinese one. tests/test_par_readable.py checks
that the package names no yaku outside this list and that each has its translations."""


# --- the calculators -----------------------------------------------------------------------------

Evaluate = Callable[[Counts, int, int, int, bool], "HandValue | None"]
"""``(hand, winning kind, draw number, suits whose red five has arrived (a bit per suit, 1 << kind // 9),
last: the draw is the hand's last) -> value or None`` (not a win worth the minimum)."""


def _mcr_evaluator(seat: str, prevalent: str) -> Evaluate:
    from MahjongGB import MahjongFanCalculator

    letters = {0: "W", 1: "B", 2: "T"}
    honours = ("F1", "F2", "F3", "F4", "J3", "J2", "J1")
    names = tuple(f"{letters[k // 9]}{k % 9 + 1}" for k in range(27)) + honours
    seat_index, prevalent_index = WINDS.index(seat), WINDS.index(prevalent)

    def evaluate(hand: Counts, winning: int, draw: int, reds: int, last: bool) -> HandValue | None:
        held = list(hand)
        held[winning] -= 1
        standing = tuple(names[k] for k in range(34) for _ in range(held[k]))
        try:
            # (pack, hand, win tile, flowers, isZIMO, isJUEZHANG, isGANG, isLAST: Last Tile Draw, ...)
            counted = MahjongFanCalculator((), standing, names[winning], 0, True, False, False, last,
                                           seat_index, prevalent_index, True)
        except TypeError:
            return None
        fans = tuple((english, points * count, chinese) for points, count, chinese, english in counted)
        total = sum(fan[1] for fan in fans)
        return HandValue(total, None, 0, fans) if total >= _MCR_MIN else None

    return evaluate


def _riichi_evaluator(seat: str, prevalent: str, dealer: bool, dora: Sequence[str], red_fives: bool) -> Evaluate:
    """The ``mahjong`` package's count of a call-free self-drawn win (module doc): tenhou or
    chiihou at ``D1``; double riichi at ``D2``; riichi after; haitei on the hand's last draw; the
    dora of ``dora`` (indicator tile codes) and red fives; never ippatsu nor ura-dora."""
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules

    calculator = HandCalculator()
    options = OptionalRules(has_aka_dora=red_fives)
    winds = {"E": 27, "S": 28, "W": 29, "N": 30}
    red_ids = {4: 16, 13: 52, 22: 88}  # the 136-array index of each red five

    def ids(tiles: Sequence[str]) -> list[int]:
        out = []
        for code in tiles:
            kind = kind_of(code)
            if kind is not None:
                out.append(red_ids[kind] if code[0] == "0" else kind * 4 + 1)
        return out

    dora_ids = ids(dora)

    def evaluate(hand: Counts, winning: int, draw: int, reds: int, last: bool) -> HandValue | None:
        tiles: list[int] = []
        win_id = -1
        for kind in range(34):
            # ids kind*4 .. kind*4+3; the red five's id (copy 0 of 5m/5p/5s) only when that
            # suit's red five has arrived (``reds``: a bit per suit, 1 << kind // 9)
            red = kind in red_ids and bool(reds & (1 << (kind // 9)))
            # (four plain fives of a suit whose red is elsewhere: the fourth takes the red's id,
            # the one way the 136-tile array can hold them)
            plain = [kind * 4 + c for c in range(4) if kind * 4 + c != red_ids.get(kind)]
            ids_of_kind = [red_ids[kind], *plain] if red else plain + ([red_ids[kind]] if kind in red_ids else [])
            for copy in range(hand[kind]):
                tile = ids_of_kind[copy]
                tiles.append(tile)
                if kind == winning and win_id < 0:
                    win_id = tile
        config = HandConfig(
            is_tsumo=True, is_riichi=draw >= 3, is_ippatsu=False, is_daburu_riichi=draw == 2,  # double riichi replaces riichi
            is_haitei=last and draw >= 2, is_tenhou=draw == 1 and dealer, is_chiihou=draw == 1 and not dealer,
            player_wind=winds[seat], round_wind=winds[prevalent], options=options)
        result = calculator.estimate_hand_value(tiles, win_id, dora_indicators=dora_ids, config=config)
        if result.error or not result.han:
            return None
        yaku = tuple((y.name, int(y.han_closed or 0)) for y in (result.yaku or []))  # the name alone: str() adds the count
        return HandValue(int(result.han), int(result.fu or 0), yakuman_count(result.yaku or ()), yaku)

    return evaluate


def yakuman_count(yaku: Sequence[Any]) -> int:
    """How many yakuman the ``mahjong`` package's ``yaku`` (of one hand) count: each yakuman yaku
    carries 13 han a yakuman (``han_closed``: Suu Ankou Tanki 26, a double yakuman), so the
    count is their han // 13 (Tenhou with Suu Ankou Tanki: 3). 0 without a yakuman yaku."""
    return sum(int(y.han_closed or 0) // _YAKUMAN_HAN for y in yaku if getattr(y, "is_yakuman", False))


def _shape_evaluator(hand: Counts, winning: int, draw: int, reds: int, last: bool) -> HandValue | None:
    return HandValue(0)


# --- the analysis --------------------------------------------------------------------------------


@dataclass
class _Positions:
    """Where each copy of each kind arrives: 0 in the starting hand, ``k`` at draw ``k``."""

    arrivals: list[list[int]] = field(default_factory=lambda: [[] for _ in range(34)])
    reds: list[tuple[int, int]] = field(default_factory=list)

    def first(self, hand: Counts) -> int:
        return max(self.arrivals[k][n - 1] for k, n in enumerate(hand) if n)

    def reds_by(self, draw: int) -> int:
        """The suits whose red five has arrived by ``draw``, a bit per suit (``1 << kind // 9``)."""
        return sum({1 << (kind // 9) for at, kind in self.reds if at <= draw})


def _positions(tiles: SeatTiles) -> _Positions:
    found = _Positions()
    for at, code in itertools.chain(((0, t) for t in tiles.hand), enumerate(tiles.draws, 1)):
        kind = kind_of(code)
        if kind is None:
            continue
        found.arrivals[kind].append(at)
        if code[0] == "0":
            found.reds.append((at, kind))
    return found


def seat_par(tiles: SeatTiles, evaluate: Evaluate, score: Callable[[HandValue], int | None], *, mcr: bool,
             count: list[int] | None = None) -> SeatPar:
    """The analysis of one seat (module doc) with ``evaluate`` (a calculator, see :data:`Evaluate`)
    and ``score`` (a value → the seat's score change). ``count``: a one-element list the number of
    calculator calls is added to."""
    positions = _positions(tiles)
    everything = _counts(tiles.hand + tiles.draws)
    hands = complete_hands(everything, mcr=mcr)
    cache: dict[tuple[Counts, int, int, int, bool], HandValue | None] = {}
    par: Win | None = None
    best: Win | None = None
    best_key: tuple[int, int, int] | None = None
    draws = tiles.draws
    last_draw = len(draws) if tiles.last else 0
    for hand in sorted(hands, key=positions.first):
        first = positions.first(hand)
        # each kind of the hand, won on its earliest draw from ``first`` on, and on the hand's last
        # draw, worth more (the last-tile fan) than an earlier draw of the same kind
        won_on: dict[int, int] = {}
        for k in range(first, len(draws) + 1):
            kind = kind_of(draws[k - 1]) if k >= 1 else None
            if kind is not None and hand[kind] and kind not in won_on:
                won_on[kind] = k
        wins = sorted(won_on.items(), key=lambda item: item[1])
        last_kind = kind_of(draws[last_draw - 1]) if last_draw >= max(first, 1) else None
        if last_kind is not None and hand[last_kind] and won_on.get(last_kind) != last_draw:
            wins.append((last_kind, last_draw))
        for kind, k in wins:
            reds = positions.reds_by(k)
            last = k == last_draw
            key = (hand, kind, 0, 0, last) if mcr else (hand, kind, min(k, 3), reds, last)
            if key not in cache:
                if count is not None and evaluate is not _shape_evaluator:
                    count[0] += 1
                cache[key] = evaluate(hand, kind, k, reds, last)
            value = cache[key]
            if value is None:
                continue
            win_score = score(value)
            win = Win(k, tuple(KINDS[i] for i in range(34) for _ in range(hand[i])), KINDS[kind], notation(hand, kind),
                      value if evaluate is not _shape_evaluator else None, win_score)
            rank = (win_score if win_score is not None else 0, value.value, -k)
            if par is None or k < par.draw or (k == par.draw and rank[:2] > ((par.score or 0), _value(par))):
                par = win
            if best_key is None or rank > best_key:
                best, best_key = win, rank
    return SeatPar(tiles.seat, len(draws), shanten(tiles.hand), par, best)


def _value(win: Win) -> int:
    return win.value.value if win.value else 0


def _indicators(ruleset: Any, piles: Mapping[str, Sequence[str]]) -> list[str]:
    """The dora indicator as a tile code (empty without a dead wall or an indicator). The
    ura-dora under it is left out: luck no player can count on (module doc)."""
    dead = dead_wall(ruleset)
    if dead is None or dead.indicator is None:
        return []
    slot = dead.indicator
    return [str(piles[slot.pile][int(slot.label[1:]) - 1])]


def calculator_for(ruleset: Any) -> str:
    """``"mcr"``, ``"riichi"`` or ``"shape"``: which calculator values ``ruleset``'s hands."""
    if ruleset.payment_rule in _MCR_RULES:
        return "mcr"
    if ruleset.payment_rule in _RIICHI_RULES:
        return "riichi"
    return "shape"


def set_par(ruleset: Any, piles: Mapping[str, Sequence[str]], *, prevalent_wind: str = "E",
            counters: Counters | None = None) -> SetPar:
    """Every seat's par of the wall ``piles`` (pile name → tile codes, as stored) under ``ruleset``
    (module doc). ``prevalent_wind``: the set's round (``"E"``..``"N"``); ``counters``: the
    honba and riichi sticks fixed for the set (docs/scoring.md, "Fixed honba and riichi
    sticks"), counted in each win's score as the table's result counts them. Raises ParError for
    a wall that does not fit the rule set."""
    calculator = calculator_for(ruleset)
    seats = tuple(ruleset.seats)
    dora = _indicators(ruleset, piles) if calculator == "riichi" else []
    red_fives = any(code[0] == "0" for code, _n in ruleset.tiles)
    count = [0]
    results = []
    all_tiles = seat_tiles(ruleset, piles)
    for tiles in all_tiles:
        if calculator == "mcr":
            evaluate: Evaluate = _mcr_evaluator(tiles.seat, prevalent_wind)
        elif calculator == "riichi":
            evaluate = _riichi_evaluator(tiles.seat, prevalent_wind, tiles.seat == seats[0], dora, red_fives)
        else:
            evaluate = _shape_evaluator
        results.append(seat_par(tiles, evaluate, _scorer(ruleset, tiles.seat, calculator, counters or Counters()),
                                mcr=calculator == "mcr",
                                count=count))
    unit = "fan" if calculator == "mcr" else "han"
    return SetPar(tuple(results), calculator, any(t.approximate for t in all_tiles), unit, count[0])


def _scorer(ruleset: Any, seat: str, calculator: str, counters: Counters) -> Callable[[HandValue], int | None]:
    seats = tuple(ruleset.seats)
    rule = PAYMENT_RULES[ruleset.payment_rule]
    honba = counters.honba if "honba" in rule.inputs else 0
    carried = counters.riichi * rule.stick

    def score(value: HandValue) -> int | None:
        if calculator == "shape":
            return None
        if calculator == "riichi":
            outcome = HandOutcome("self_draw", (seat,), None, (0 if value.yakuman else min(value.value, 13),),
                                  (value.fu or 0,), (value.yakuman,), honba=honba, riichi=(seat,) if _declared(value) else ())
        else:
            outcome = HandOutcome("self_draw", (seat,), None, (value.value,), honba=honba)
        try:
            return int(settle(ruleset.payment_rule, seats, outcome, min_fan=ruleset.min_fan).changes[seat]) + carried
        except PaymentError:
            return None

    return score


def _declared(value: HandValue) -> bool:
    return any(entry[0] in ("Riichi", "Double Riichi") for entry in value.names)


def prevalent_of(set_no: int, seats: int) -> str:
    """The prevalent wind of set ``set_no`` with ``seats`` seats a round (docs/rules.md,
    "Duplicate MCR: sessions and seats": a session plays the East, South, West and North
    rounds, one hand per seat each)."""
    return WINDS[((set_no - 1) // seats) % len(WINDS)]
