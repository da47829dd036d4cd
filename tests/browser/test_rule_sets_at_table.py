"""Every preset family runs a whole event at the table, scored from the hands' outcomes (docs/scoring.md, "Payment rules"),
in Debian's Chromium with a phone at 390×844.

For each family the director (a staff user, not a superuser) creates a team event through the new
event page with the roster the rule set needs (as many teams as seats, one member per seat: one
group), prepares session 1 with the director page's button and reads table 1's login code there.
A phone (its own browser context) logs in with that code and enters three hands by their
outcome — a discard win, a self-draw and a draw — each said by one seat with its PIN and confirmed
by another seat's PIN; before confirming, the card must read the hand in words: who won, how, and
every seat's score change. The group's other tables have entered and confirmed the same sets
(typed score changes through the services: set-up, not the subject), so the phone's confirmation
completes each set; the director then sees the converted scores on the live grid and in the
standings.

Every expected number is worked out here by hand from the seed's payment rule (docs/scoring.md,
docs/scoring.md, "Payment rules", the contract of docs/scoring.md, "Payment rules"), never by calling
``scoring.payments``; the converted scores come from tests/oracles.py (datum and conversion
re-implemented without the product). Any console error or page error on the table page fails the
test. Screenshots go to /tmp/h4-shots/: the phone's filled entry form and the card to confirm,
for each hand, and the director's live page and standings.

The browser steps hold no ORM call: Django reads and writes (the set-up of the other tables, the
clean-up) run in a thread of their own, on a connection outside the test's transaction, as the
live server does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import expect

from factories import (
    confirm_with_pin, login_as_table_in_browser, say_who_is_entering, sets_through, standings_rows, team_roster,
)
from oracles import ranked, tally, team_set_points
from tests.browser.conftest import PHONE, in_own_connection, once_unlocked
from walls.setcode import set_code

pytestmark = [pytest.mark.browser, pytest.mark.django_db]

SHOTS = Path("/tmp/h4-shots")


def up(points: int, unit: int) -> int:
    """``points`` rounded up to a multiple of ``unit`` (riichi rounds payments up to 100; the
    two-player Souzu seed rounds hundreds up to 1,000)."""
    return -(-points // unit) * unit


@dataclass(frozen=True)
class Hand:
    """One hand the phone enters: ``entry`` (keyword arguments of ``enter_outcome``: kind,
    winners, discarder, values, fu, honba, riichi, tenpai, shielded, liable), ``changes`` (every
    seat's score change in points, worked out by hand from the seed's rule) and ``words`` (what
    the sentence on the card must also say: winner, discarder, hand value...)."""

    entry: dict
    changes: dict
    words: tuple[str, ...]


@dataclass(frozen=True)
class Family:
    """A preset family: the rule set's code, the conversion table chosen on the new event page,
    the three hands (a discard win, a self-draw, a draw) and the typed results the group's other
    tables enter for the same sets (valid hands of the rule, used in turn)."""

    ruleset: str
    conversion: str
    hands: tuple[Hand, Hand, Hand]
    others: tuple[dict, ...]

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(self.hands[0].changes)


def zero(seats: str) -> dict:
    """Every seat of ``seats`` ("ESWN") at 0: a draw that moves no points."""
    return dict.fromkeys(seats, 0)


# --- MCR (docs/rules.md, "Duplicate MCR: payments"; plain Chinese Official payments): discard: the discarder pays 8+fan, each other
# player 8; self-draw: each other player pays 8+fan. A draw scores nothing.
MCR_OTHERS = (
    {"E": 8 + 8 + 16, "S": -(8 + 8), "W": -8, "N": -8},          # E wins 8 fan on S's discard
    {"E": -8, "S": -8, "W": -(8 + 12), "N": 8 + 12 + 16},        # N wins 12 fan on W's discard
    zero("ESWN"),
    {"E": -(8 + 16), "S": 3 * (8 + 16), "W": -(8 + 16), "N": -(8 + 16)},  # S self-draws 16 fan
)
MCR_DUPLICATE = Family("mcr-duplicate", "mcr-mp", (
    Hand({"kind": "discard", "winners": ("E",), "discarder": "S", "values": {"E": 10}},
         {"E": (8 + 10) + 8 + 8, "S": -(8 + 10), "W": -8, "N": -8},
         ("East", "South's discard", "10 fan")),
    Hand({"kind": "self_draw", "winners": ("W",), "values": {"W": 8}},
         {"E": -(8 + 8), "S": -(8 + 8), "W": 3 * (8 + 8), "N": -(8 + 8)},
         ("West", "self-draw", "8 fan")),
    Hand({"kind": "draw"}, zero("ESWN"), ("Draw",)),
), MCR_OTHERS)
MCR_FLOWERS = Family("mcr-flowers", "mcr-mp", (
    Hand({"kind": "discard", "winners": ("N",), "discarder": "E", "values": {"N": 8}},
         {"E": -(8 + 8), "S": -8, "W": -8, "N": (8 + 8) + 8 + 8},
         ("North", "East's discard", "8 fan")),
    Hand({"kind": "self_draw", "winners": ("S",), "values": {"S": 12}},
         {"E": -(8 + 12), "S": 3 * (8 + 12), "W": -(8 + 12), "N": -(8 + 12)},
         ("South", "self-draw", "12 fan")),
    Hand({"kind": "draw"}, zero("ESWN"), ("Draw",)),
), MCR_OTHERS)

# --- MahjongSoft duplicate MCR (published rules, docs/scoring.md): self-draw: the winner fan+24,
# each other player ceil(fan/3)+8; a discard may have several winners, each fan+24 less 8 paid to
# each other winner; each bystander pays 8 per winner; the discarder 8+fan to each winner. Published
# example -46, +36, +26, -16.
MCR_MAHJONGSOFT = Family("mcr-duplicate-mahjongsoft", "mcr-mp", (
    # W (20 fan) and N (10 fan) both win on S's discard; in turn from S: W, then N.
    Hand({"kind": "discard", "winners": ("W", "N"), "discarder": "S", "values": {"W": 20, "N": 10}},
         {"E": -8 * 2, "S": -(8 + 20) - (8 + 10), "W": 20 + 24 - 8, "N": 10 + 24 - 8},
         ("West and North", "South's discard", "20 and 10 fan")),
    Hand({"kind": "self_draw", "winners": ("E",), "values": {"E": 10}},
         {"E": 10 + 24, "S": -(4 + 8), "W": -(4 + 8), "N": -(4 + 8)},  # ceil(10/3) = 4
         ("East", "self-draw", "10 fan")),
    Hand({"kind": "draw"}, zero("ESWN"), ("Draw",)),
), MCR_OTHERS + ({"E": 8 + 24, "S": -(3 + 8), "W": -(3 + 8), "N": -(3 + 8)},))  # E self-draws 8 fan: not zero-sum

# --- Riichi (standard): base = fu x 2^(han+2), mangan 2000 base from 5 han (or base > 2000),
# haneman 3000 (6-7 han); non-dealer ron 4x base, dealer ron 6x, up to 100; tsumo: a non-dealer win
# takes 2x base from the dealer and 1x from the others, a dealer win 2x from each, each up to 100;
# 300 a honba (100 from each payer on a tsumo); riichi sticks of 1000 go to the winner; a draw:
# 3000 noten payment in all, the sticks stay on the table. The dealer is E.
RIICHI_OTHERS = (
    {"E": 0, "S": up(4 * 30 * 2 ** (3 + 2), 100), "W": -up(4 * 30 * 2 ** (3 + 2), 100), "N": 0},  # 3 han 30 fu ron
    {"E": -4 * 2000, "S": 0, "W": 0, "N": 4 * 2000},                                             # mangan ron
    zero("ESWN"),
    {"E": 3000, "S": -1000, "W": -1000, "N": -1000},                                             # draw, E tenpai
)
RIICHI = Family("riichi", "wbf-imp", (
    # S wins on W's discard, 3 han 30 fu, 1 honba, N in riichi: base 30 x 2^5 = 960, ron 4 x 960 =
    # 3840 -> 3900, + 300 = 4200 from W; N's stick to S.
    Hand({"kind": "discard", "winners": ("S",), "discarder": "W", "values": {"S": 3}, "fu": {"S": 30}, "honba": 1,
          "riichi": ("N",)},
         {"E": 0, "S": up(4 * 30 * 2 ** 5, 100) + 300 + 1000, "W": -(up(4 * 30 * 2 ** 5, 100) + 300), "N": -1000},
         ("South", "West's discard", "3 han 30 fu", "1 honba", "riichi: N")),
    # E (dealer) self-draws 4 han 30 fu, 2 honba, E and W in riichi: base 30 x 2^6 = 1920 (below
    # mangan), each pays 2 x 1920 = 3840 -> 3900, + 100 a honba = 4100; both sticks to E.
    Hand({"kind": "self_draw", "winners": ("E",), "values": {"E": 4}, "fu": {"E": 30}, "honba": 2, "riichi": ("E", "W")},
         {"E": 3 * (up(2 * 30 * 2 ** 6, 100) + 200) - 1000 + 2000, "S": -(up(2 * 30 * 2 ** 6, 100) + 200),
          "W": -(up(2 * 30 * 2 ** 6, 100) + 200) - 1000, "N": -(up(2 * 30 * 2 ** 6, 100) + 200)},
         ("East", "self-draw", "4 han 30 fu", "2 honba")),
    # Draw, E and S tenpai, S in riichi: 3000 / 2 = 1500 to each tenpai seat from each noten seat;
    # S's stick stays on the table.
    Hand({"kind": "draw", "tenpai": ("E", "S"), "riichi": ("S",)},
         {"E": 1500, "S": 1500 - 1000, "W": -1500, "N": -1500},
         ("Draw", "tenpai: E, S", "1000 left on the table")),
), RIICHI_OTHERS)
RIICHI_DUPLICATE = Family("riichi-duplicate", "wbf-imp", (
    # E (dealer) wins on N's discard, 2 han 40 fu, E in riichi: base 40 x 2^4 = 640, dealer ron
    # 6 x 640 = 3840 -> 3900 from N; E takes back its own stick.
    Hand({"kind": "discard", "winners": ("E",), "discarder": "N", "values": {"E": 2}, "fu": {"E": 40}, "riichi": ("E",)},
         {"E": up(6 * 40 * 2 ** 4, 100) - 1000 + 1000, "S": 0, "W": 0, "N": -up(6 * 40 * 2 ** 4, 100)},
         ("East", "North's discard", "2 han 40 fu", "riichi: E")),
    # N self-draws a haneman (6 han: base 3000), 1 honba: the dealer E pays 2 x 3000 + 100, S and W
    # 3000 + 100 each.
    Hand({"kind": "self_draw", "winners": ("N",), "values": {"N": 6}, "honba": 1},
         {"E": -(2 * 3000 + 100), "S": -(3000 + 100), "W": -(3000 + 100), "N": (2 * 3000 + 100) + 2 * (3000 + 100)},
         ("North", "self-draw", "6 han", "1 honba")),
    # Draw, only W tenpai: W takes 1000 from each of the three others.
    Hand({"kind": "draw", "tenpai": ("W",)},
         {"E": -1000, "S": -1000, "W": 3000, "N": -1000},
         ("Draw", "tenpai: W")),
), RIICHI_OTHERS)

# --- Two-player Souzu (docs/rules.md, "Two-player Souzu: payments"): riichi values, every payment rounded up to 1000 (hundreds rounded
# up), 2000 a honba, a self-draw collects half of the final value (value + 2000 x honba) from the
# opponent, mangan minimum; sticks of 1000 to the winner; a draw: 3000 from the noten seat to the
# tenpai seat. The dealer is E; the seats are E and S.
SOUZU = Family("souzu-2p", "wbf-imp", (
    # S wins a haneman (6 han, base 3000) on E's discard, 1 honba, E in riichi: non-dealer ron
    # 4 x 3000 = 12000, + 2000 a honba; E's stick to S.
    Hand({"kind": "discard", "winners": ("S",), "discarder": "E", "values": {"S": 6}, "honba": 1,
          "riichi": ("E",)},
         {"E": -(up(4 * 3000, 1000) + 2000) - 1000, "S": up(4 * 3000, 1000) + 2000 + 1000},
         ("South", "East's discard", "6 han", "1 honba", "riichi: E")),
    # E (dealer) self-draws a mangan (5 han, base 2000), 1 honba: final value 6 x 2000 + 2000 =
    # 14000, half of it, 7000, from S.
    Hand({"kind": "self_draw", "winners": ("E",), "values": {"E": 5}, "honba": 1},
         {"E": up((6 * 2000 + 2000) // 2, 1000), "S": -up((6 * 2000 + 2000) // 2, 1000)},
         ("East", "self-draw", "5 han", "1 honba")),
    # Draw, E tenpai and in riichi: S pays E 3000; E's stick stays on the table.
    Hand({"kind": "draw", "tenpai": ("E",), "riichi": ("E",)},
         {"E": 3000 - 1000, "S": -3000},
         ("Draw", "tenpai: E", "1000 left on the table")),
), (
    {"E": 6 * 2000, "S": -6 * 2000},          # E (dealer) wins a mangan on S's discard
    {"E": -4 * 2000, "S": 4 * 2000},          # S wins a mangan on E's discard
    zero("ES"),
))

# --- Shiragiku three-player (docs/rules.md, "Shiragiku three-player: payments and game flow"): 1 han = 1 point: 2 base points + 1 a han (dora included)
# + 1 for the dealer, capped at 50; + 1 a honba; a discard win is paid by the discarder alone, a
# self-draw by each of the two others; noten penalty 6 points in all. The dealer is E.
SHIRAGIKU = Family("shiragiku-3p", "mcr-mp", (
    # S (not the dealer) wins 4 han on W's discard, 1 honba: 2 + 4 + 1 = 7 from W.
    Hand({"kind": "discard", "winners": ("S",), "discarder": "W", "values": {"S": 4}, "honba": 1},
         {"E": 0, "S": 2 + 4 + 1, "W": -(2 + 4 + 1)},
         ("South", "West's discard", "4 han", "1 honba")),
    # E (the dealer) self-draws 3 han: 2 + 3 + 1 = 6 from each of S and W.
    Hand({"kind": "self_draw", "winners": ("E",), "values": {"E": 3}},
         {"E": 2 * (2 + 3 + 1), "S": -(2 + 3 + 1), "W": -(2 + 3 + 1)},
         ("East", "self-draw", "3 han")),
    # Draw, S and W tenpai: the noten E pays 6, 3 to each.
    Hand({"kind": "draw", "tenpai": ("S", "W")},
         {"E": -6, "S": 6 // 2, "W": 6 // 2},
         ("Draw", "tenpai: S, W")),
), (
    {"E": 2 + 2 + 1, "S": -(2 + 2 + 1), "W": 0},    # E (dealer) wins 2 han on S's discard
    {"E": -(2 + 2), "S": -(2 + 2), "W": 2 * (2 + 2)},  # W self-draws 2 han
    zero("ESW"),
))

# --- Shield tile (docs/rules.md, "Shield tile: payments and game end"): 1 han 1000, 2 han 2000, 3 han 4000, 4 han 8000, then 2000 more a han;
# no dealer, honba, sticks or noten payment; a discard win is paid by the discarder, a self-draw by
# the three others in thirds (up to 100), a seat whose open shield tiles hold the wait paying nothing.
SHIELD = Family("shield-tile", "wbf-imp", (
    # N wins 6 han on E's discard: 8000 + 2 x 2000 = 12000.
    Hand({"kind": "discard", "winners": ("N",), "discarder": "E", "values": {"N": 6}},
         {"E": -(8000 + 2 * 2000), "S": 0, "W": 0, "N": 8000 + 2 * 2000},
         ("North", "East's discard", "6 han")),
    # W self-draws 4 han (8000), S shielded: E and N each pay a third, 2666.67 -> 2700; S nothing.
    Hand({"kind": "self_draw", "winners": ("W",), "values": {"W": 4}, "shielded": ("S",)},
         {"E": -up(-(-8000 // 3), 100), "S": 0, "W": 2 * up(-(-8000 // 3), 100), "N": -up(-(-8000 // 3), 100)},
         ("West", "self-draw", "4 han")),
    Hand({"kind": "draw"}, zero("ESWN"), ("Draw",)),
), (
    {"E": 2000, "S": -2000, "W": 0, "N": 0},            # E wins 2 han on S's discard
    {"E": -1400, "S": -1400, "W": -1400, "N": 4200},    # N self-draws 3 han: 4000 / 3 -> 1400 each
    zero("ESWN"),
))

# --- Yangzhou (docs/rules.md, "Yangzhou: payments"): fan add up; a discard win: the discarder pays twice the value to each
# winner (several may win), the others nothing; a self-draw: each other player pays the value; bao:
# the liable player pays the whole win instead.
YANGZHOU = Family("yangzhou", "mcr-mp", (
    # N (20 fan) and S (13 fan) both win on W's discard; in turn from W: N, then S.
    Hand({"kind": "discard", "winners": ("N", "S"), "discarder": "W", "values": {"N": 20, "S": 13}},
         {"E": 0, "S": 2 * 13, "W": -(2 * 20 + 2 * 13), "N": 2 * 20},
         ("North and South", "West's discard", "20 and 13 fan")),
    # E self-draws 15 fan; N, just before E in turn (a chow is taken only from that seat), fed
    # the third chow of the full flush: N pays all three shares.
    Hand({"kind": "self_draw", "winners": ("E",), "values": {"E": 15}, "liable": "N"},
         {"E": 3 * 15, "S": 0, "W": 0, "N": -3 * 15},
         ("East", "self-draw", "15 fan")),
    Hand({"kind": "draw"}, zero("ESWN"), ("Draw",)),
), (
    {"E": 0, "S": -2 * 13, "W": 2 * 13, "N": 0},      # W wins 13 fan on S's discard
    {"E": -18, "S": -18, "W": 3 * 18, "N": -18},      # W self-draws 18 fan
    zero("ESWN"),
))

FAMILIES = (MCR_DUPLICATE, MCR_MAHJONGSOFT, RIICHI, RIICHI_DUPLICATE, SOUZU, SHIRAGIKU, SHIELD, YANGZHOU, MCR_FLOWERS)


def changes_pattern(changes: dict) -> re.Pattern:
    """The changes part of the card's sentence: ``E +34, S -18, W -8, N -8`` in seat order (a
    minus sign or a hyphen; 0 with or without a sign)."""
    parts = []
    for seat, value in changes.items():
        number = r"[+±]?0" if value == 0 else ("[-−]" if value < 0 else r"\+") + str(abs(value))
        parts.append(re.escape(seat) + " " + number + r"(?!\d)")
    return re.compile(", ".join(parts))


@dataclass(frozen=True)
class Built:
    """Plain values of one family's event once prepared (no ORM in the browser steps)."""

    slug: str
    table_number: int
    code: str
    sets: tuple[int, ...]           # the phone's three sets, in movement order
    pins: dict                      # seat -> PIN at the phone's table
    seating: dict                   # table number -> {seat: team name} in seat order, every table of the group
    typed: dict                     # table number -> {set: {seat: change}}, the other tables' results


def delete_event(slug: str) -> None:
    from tournament.models import Event

    Event.objects.filter(slug=slug).delete()


# --- fixtures ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module", autouse=True)
def _shots():
    SHOTS.mkdir(parents=True, exist_ok=True)


# --- steps ---------------------------------------------------------------------------------------------


def create_and_prepare(page, demo_site, family: Family, slug: str, tmp_path) -> tuple[str, int]:
    """On the new event page: a team event ``slug`` of ``family``'s rule set, one session, its
    roster (one team per seat, one member per seat: one group); then session 1 prepared from the
    director page. Returns (the login code shown for the first table, its number)."""
    seats = len(family.seats)
    roster = tmp_path / f"{slug}.csv"
    roster.write_text(team_roster(seats, seats), encoding="utf-8")
    page.goto(demo_site.page("/events/new/"))
    page.fill("#id_name", f"Rule sets at the table: {family.ruleset}")
    page.fill("#id_slug", slug)
    page.select_option("#id_ruleset", family.ruleset)
    page.select_option("#id_method", "team")
    page.select_option("#id_conversion", family.conversion)
    page.fill("#id_sessions", "1")
    page.select_option("#id_datum_method", "average")
    page.select_option("#id_comparison", "group")
    page.select_option("#id_entrant_policy", "as-is")
    page.set_input_files("#id_roster", str(roster))
    with page.expect_navigation():
        page.get_by_role("button", name="Create the event").click()
    assert page.url == demo_site.page(f"/e/{slug}/director/"), page.locator(".errorlist").all_inner_texts()

    page.select_option("#prep-session", "1")
    with page.expect_navigation():
        page.get_by_role("button", name="Prepare").click()
    first = page.locator("table.grid tbody tr").filter(has=page.locator("code.login-code")).first
    expect(first).to_be_visible()
    number = int(first.locator("td").first.inner_text())
    return first.locator("code.login-code").inner_text().strip(), number


def set_up_other_tables(slug: str, table_number: int, family: Family) -> Built:
    """Read the prepared event (seats, teams, PINs, the phone table's first three sets) and have
    every other table of the group enter and confirm, through the services, each set it plays up
    to the end of the block holding each of those sets (typed results of ``family.others``, used
    in turn)."""
    from scoring.actions.confirmation import confirm_result
    from scoring.actions.counters import fix_counters
    from scoring.actions.entry import submit_result
    from tournament.models import Table
    from factories import blocks

    table = Table.objects.select_related("group").get(group__session__event__slug=slug, number=table_number)
    tables = list(table.group.tables.order_by("number").prefetch_related("seats__player", "seats__team"))
    sets = tuple(s for _, block in blocks(table) for s in block)[:3]
    seating = {t.number: {a.seat: a.team.name for a in sorted(t.seats.all(), key=lambda a: family.seats.index(a.seat))}
               for t in tables}
    pins = {a.seat: a.player.pin for a in table.seats.all()}
    # honba are fixed per set for every table of it (docs/scoring.md, "Fixed honba and riichi
    # sticks"): the director fixes those of the phone's hands before anyone plays them
    fixed = {f"1-{s}": {"honba": hand.entry["honba"]} for s, hand in zip(sets, family.hands, strict=True)
             if hand.entry.get("honba")}
    if fixed:
        fix_counters(table.group.session.event, fixed, actor="setup")
    typed: dict = {}
    turn = 0
    for other in tables:
        if other.pk == table.pk:
            continue
        done = typed.setdefault(other.number, {})
        for target in sets:
            for set_no in sets_through(other, target):
                if set_no in done:
                    continue
                done[set_no] = family.others[turn % len(family.others)]
                turn += 1
                result = submit_result(other, set_no, changes=dict(done[set_no]), actor="setup")
                confirm_result(result, actor="setup", director=True)
    return Built(slug=slug, table_number=table_number, code=table.login_code, sets=sets, pins=pins,
                 seating=seating, typed=typed)


def expected_scores(built: Built, family: Family, rows) -> dict:
    """``{set: {team: (total, points)}}`` for the phone's three sets (tests/oracles.py)."""
    out = {}
    for set_no, hand in zip(built.sets, family.hands, strict=True):
        changes = {number: typed[set_no] for number, typed in built.typed.items()}
        changes[built.table_number] = hand.changes
        out[set_no] = team_set_points(built.seating, changes, rows)
    return out


def enter_and_confirm(page, family: Family, built: Built, index: int, hand: Hand, set_no: int) -> None:
    """The phone enters ``hand`` on ``set_no`` by its outcome, a seat says it with its PIN, the card
    must read the hand in words, and another seat confirms it with its PIN."""
    from factories import enter_outcome, save_entry

    seats = family.seats
    entering, confirming = seats[index % len(seats)], seats[(index + 1) % len(seats)]
    enter_outcome(page, set_no=set_no, **hand.entry)
    say_who_is_entering(page, entering, built.pins[entering])
    page.screenshot(path=str(SHOTS / f"{family.ruleset}-{index + 1}-{hand.entry['kind']}-entry.png"))
    page.evaluate("window.scrollTo(0, 0)")
    save = page.locator("#save").bounding_box()
    assert save["y"] + save["height"] <= PHONE["height"], (
        f"{family.ruleset}, {hand.entry['kind']}: Save ends at {save['y'] + save['height']:.0f} px, below the first screen")
    save_entry(page)
    errors = page.locator("#entry-errors")
    assert not errors.count(), f"{family.ruleset}, {hand.entry}: Save answered {errors.inner_text()!r}"
    card = page.locator("#pending form")
    expect(card).to_have_count(1)
    words = card.locator("p.outcome-words")
    expect(words).to_have_text(changes_pattern(hand.changes))
    sentence = words.inner_text()
    for word in hand.words:
        assert word in sentence, f"{family.ruleset}, {hand.entry['kind']}: the card says {sentence!r}, not {word!r}"
    card.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"{family.ruleset}-{index + 1}-{hand.entry['kind']}-confirm.png"))
    confirm_with_pin(page, built.pins[confirming])
    expect(page.locator(".messages")).to_contain_text(f"Set {set_code(1, set_no)} confirmed.")
    expect(page.locator("#pending form")).to_have_count(0)


# --- the test ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("family", FAMILIES, ids=[f.ruleset for f in FAMILIES])
def test_a_whole_event_runs_at_the_table_scored_from_the_outcomes(family, browser, demo_site, director_page, tmp_path):
    from scoring.conversion import PRESETS as CONVERSIONS

    rows = [{"from": step.min_difference, "points": step.points} for step in CONVERSIONS[family.conversion].steps]
    desk = director_page  # logged in through the login page as the demo's director: staff, not a superuser
    slug = "rs-" + family.ruleset
    try:
        shown_code, table_number = create_and_prepare(desk, demo_site, family, slug, tmp_path)
        built = in_own_connection(set_up_other_tables, slug, table_number, family)
        assert shown_code.replace("-", "") == built.code
        expected = expected_scores(built, family, rows)

        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
        page = context.new_page()
        errors = []
        page.on("console", lambda message: errors.append(f"console: {message.text}") if message.type == "error" else None)
        page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
        try:
            login_as_table_in_browser(page, demo_site.page("/entry/login/"), shown_code)
            for index, (hand, set_no) in enumerate(zip(family.hands, built.sets, strict=True)):
                enter_and_confirm(page, family, built, index, hand, set_no)
        finally:
            context.close()
        assert not errors, f"{family.ruleset}: the table page logged errors: {errors}"

        check_live_grid(desk, demo_site, built, expected)
        check_standings(desk, demo_site, built, expected)
    finally:
        once_unlocked(delete_event, slug)


def check_live_grid(page, demo_site, built: Built, expected: dict) -> None:
    """The director's live page: every table's cell of each of the three sets is confirmed and
    names, in its title, the converted points of the team at each seat; the converted-scores table
    gives each team's points on those three sets (· on the sets not scored) and their sum."""
    page.goto(demo_site.page(f"/e/{built.slug}/director/live/"))
    for number, seats in built.seating.items():
        row = page.locator(f"#live tr[data-table='{number}']")
        for set_no in built.sets:
            cell = row.locator(f"td[data-set='{set_no}']")
            expect(cell).to_have_class(re.compile(r"\bstatus-confirmed\b"))
            title = cell.get_attribute("title")
            for seat, team in seats.items():
                assert f"{seat} {team} {expected[set_no][team][1]:+d}" in title, f"table {number}, set {set_no}: {title!r}"
    sets = [int(text) for text in page.locator("#converted thead th.num").all_inner_texts()[1:-1]]  # after Rank
    assert set(built.sets) <= set(sets), sets
    teams = sorted({team for scores in expected.values() for team in scores})
    rows = page.locator("#converted tbody tr")
    cells = {rows.nth(i).locator("th").inner_text().strip(): [c.strip() for c in rows.nth(i).locator("td").all_inner_texts()]
             for i in range(rows.count())}
    shown = {team: row[1:] for team, row in cells.items()}
    # ranked as the standings rank them (docs/scoring.md, "Standings"): the rank cell comes first, in rank order
    ranks = [int(row[0]) for row in cells.values()]
    assert ranks == sorted(ranks) and ranks[0] == 1, cells
    want = {team: [f"{expected[s][team][1]:+d}" if s in expected else "·" for s in sets]
            + [f"{sum(expected[s][team][1] for s in built.sets):+d}"] for team in teams}
    assert shown == want
    page.screenshot(path=str(SHOTS / f"{built.slug[3:]}-live.png"), full_page=True)


def check_standings(page, demo_site, built: Built, expected: dict) -> None:
    """The public standings count the three complete sets: each team's points, score total, sets
    and rank agree with the oracles' conversion and tie-break."""
    results = [(team, points, total) for scores in expected.values() for team, (total, points) in scores.items()]
    tallies = tally(results)
    ranks = {team: (rank, tied) for rank, team, tied in ranked(tallies)}
    page.goto(demo_site.page(f"/e/{built.slug}/standings/"))
    shown = {row[1]: row for row in standings_rows(page)}
    page.screenshot(path=str(SHOTS / f"{built.slug[3:]}-standings.png"), full_page=True)
    want = {team: [f"{rank}{'=' if tied else ''}", team, str(tallies[team][0]), str(tallies[team][1]), str(len(built.sets))]
            for team, (rank, tied) in ranks.items()}
    assert shown == want
