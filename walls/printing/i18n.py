"""The words printed on the PDFs: gettext msgids of the site's own catalogues (``locale/``).

The printing layer renders outside Django too (Celery workers, command line), so it imports no
Django: its words are English msgids marked here (``gettext_noop``, so ``makemessages`` puts them
into ``locale/ja`` and ``locale/zh_Hans`` beside the pages' words) and translated when a sheet is
drawn, through :mod:`tournament.i18n`, whose ``gettext`` and ``language`` Django installs when the
app registry is ready (docs/architecture.md, the pure core). Outside Django every sheet is English.

Every heading and fixed label of a sheet is in the sheet language the director chose (``lang``:
the site's language codes, ``"en"``, ``"ja"``, ``"zh-hans"``), and nothing else: a Japanese seating
sheet reads 席順 / 選手 / 卓 / 席 and 東家, the words the pages use (the same msgid: "Seating" is
席順 on the site and on paper), with no English beside it. What the sheets print as it is comes
from the event (its name, player names), and codes (set codes, slot labels ``H1``/``D21``, the seat
letter in a wall sticker's box) are the same in every language. A built-in rule set's name, hand
ending rule and notes are msgids too (walls/rulesets/presets.py), so they print translated; a
custom rule set's words print as the director typed them.

:func:`vocabulary` lists every word a sheet may print in a language (tests/test_sticker_secrecy.py
checks a sticker prints nothing else).
"""

from __future__ import annotations

import re
from typing import Any

from tournament import i18n
from tournament.i18n import gettext_noop

LANGS = ("en", "ja", "zh-hans")
"""The sheet languages, as the site spells them (settings.LANGUAGES)."""

ALIASES = {"zh": "zh-hans", "zh_hans": "zh-hans", "zh-cn": "zh-hans"}
"""Other spellings accepted for a sheet language (``"zh"``: stored by earlier versions)."""

WORDS = {
    "set": gettext_noop("Set"), "session": gettext_noop("Session"), "seat": gettext_noop("Seat"),
    "table": gettext_noop("Table"),
    "first": gettext_noop("First at"), "each_group": gettext_noop("of each group"),
    "stickers": gettext_noop("Wall stickers"), "shared": gettext_noop("Shared"),
    "setup": gettext_noop("Set-up sheet"), "setup_sheets": gettext_noop("Set-up sheets"),
    "labels": gettext_noop("Set labels"), "pick_list": gettext_noop("Pick list"),
    "commitment": gettext_noop("Seed commitment"),
    "hand": gettext_noop("Starting hand"), "draw": gettext_noop("Draw pile"), "live": gettext_noop("Live wall"),
    "dead": gettext_noop("Dead wall"), "end_rule": gettext_noop("Hand ends"), "ruleset": gettext_noop("Rule set"),
    # the honba and riichi sticks on the table before a set's hand (scoring.payments.counters)
    "honba": gettext_noop("Honba"), "riichi_sticks": gettext_noop("Riichi sticks"),
    # wall stickers: a dead-wall slot's role, and the row strips
    "role_replacement": gettext_noop("Replacement"), "role_indicator": gettext_noop("Dora indicator"),
    "role_kan_indicator": gettext_noop("Kan-dora"), "role_ura": gettext_noop("Ura-dora"),
    "strips": gettext_noop("Wall sticker strips"), "strip_flat": gettext_noop("row"),
    "strip_lower": gettext_noop("lower row"), "strip_upper": gettext_noop("upper row, lift onto the lower row"),
    "part": gettext_noop("part"), "tiles": gettext_noop("Tiles"), "pitch": gettext_noop("pitch"),
    "draw_starts": gettext_noop("first draw"), "cut_hint": gettext_noop(
        "Cut out each sticker along its outline. Stick them left to right as seen from the seat, one on the back "
        "of each tile of the row the line above names. The black triangle marks stack 1, where drawing starts."),
    "calibration_strip": gettext_noop("Row strip calibration"),
    # the scale check on every sticker sheet, and the calibration page's two checks
    "scale_bar": gettext_noop("Print at 100 % (actual size, no fit to page): this bar measures 100 mm."),
    "calibration_step1": gettext_noop(
        "1. Measure the 100 mm bar with a ruler. If it is shorter or longer, the printer scaled the page: print "
        "again at 100 % (actual size, no fit to page). Do not change the tile size for this."),
    "calibration_step2": gettext_noop(
        "2. Only when the bar measures 100 mm: lay tiles face down, one on each numbered sticker. Every sticker must "
        "lie inside the back of its tile. If not, measure a tile's back and set the tile size in the event's settings."),
    "row_continues": gettext_noop("the row goes on in part %(part)s"), "row_joins": gettext_noop("after part %(part)s"),
    "copy": gettext_noop("copy"),
    # a strip sticker's word: its row, or a dead-wall slot's role mark (legend on the sheet)
    "sticker_hand": gettext_noop("Hand row"), "sticker_flat": gettext_noop("Row"), "sticker_lower": gettext_noop("Lower"),
    "sticker_upper": gettext_noop("Upper"),
    "marks_legend": gettext_noop("Dead wall: R1, R2… kong replacements in order · DORA dora indicator · K1, K2… "
                                 "kan-dora indicators · ura ura-dora"),
    "score_sheet": gettext_noop("Score sheet"), "score_sheets": gettext_noop("Score sheets"),
    "movement": gettext_noop("Movement"), "next": gettext_noop("then to"), "cont": gettext_noop("continued"),
    "laid": gettext_noop("Laid"), "checked": gettext_noop("Checked"), "stuck": gettext_noop("Stickers on"),
    "copies": gettext_noop("copies"),
    "players": gettext_noop("Players"), "player": gettext_noop("Player"), "team": gettext_noop("Team"),
    "room": gettext_noop("Room"), "seating": gettext_noop("Seating"),
    "scan_login": gettext_noop("Scan to enter results"), "scan_check_in": gettext_noop("Scan to check in"), "code": gettext_noop("Code"),
    "table_code": gettext_noop("Table code"), "or_type_at": gettext_noop("or type the code at"),
    "winner": gettext_noop("Winner / fan"), "winner_han": gettext_noop("Winner / han"), "initials": gettext_noop("Initials"), "total": gettext_noop("Total"),
    "hand_no": gettext_noop("Hand"),
    "stickers_for": gettext_noop("stickers"), "sign": gettext_noop("Players' signatures"),
    "result_check": gettext_noop("Set code checked"), "pin": gettext_noop("PIN"),
    "keep_pin": gettext_noop("Keep your PIN to yourself"), "find_seat": gettext_noop("Find my seat"),
    "player_cards": gettext_noop("Player cards"), "not_seated": gettext_noop("Not seated yet"),
    "room_seating": gettext_noop("Seating by room"),
    # set-up sheet rows and dead wall (walls/printing/setup_sheets.py; "%(pile)s": a pile word above)
    "row_lower": gettext_noop("%(pile)s, lower row"),
    "row_upper": gettext_noop("%(pile)s, upper row (lift onto the lower row)"),
    "draw_here": gettext_noop("draw from here"),
    "dora_indicator": gettext_noop("Dora indicator"),
    "replacements": gettext_noop("Kong replacement tiles, in order"),
    "kan_dora": gettext_noop("Kan-dora indicators, in order"),
    "ura_dora": gettext_noop("Ura-dora: the tile under each indicator"),
    "seat_dead_pile": gettext_noop("%(seat)s's dead pile %(slot)s"),
    "dora_mark": gettext_noop("DORA"), "ura_mark": gettext_noop("ura"),
    "tile_size": gettext_noop("Tile size"),
    "staff_only": gettext_noop("STAFF ONLY — shows every tile: never at a table"),
    # copies: pick list and set-up sheets
    "copy_n": gettext_noop("Copy %(n)s"),
    "places_copies": gettext_noop("%(places)s places × %(copies)s copies = %(tiles)s tiles"),
    "places_tiles": gettext_noop("%(places)s places = %(tiles)s tiles"),
    "pick_total": gettext_noop("%(sets)s sets, %(copies)s copies, %(per_copy)s tiles per copy: %(tiles)s tiles in all"),
    "copies_legend": gettext_noop("One box per copy on every line, left to right:"),
}  # fmt: skip
"""Key → the word's msgid (English). The site's own msgid wherever a page says the same thing."""

NUMBERED = {
    "session": gettext_noop("Session %(n)s"), "set": gettext_noop("Set %(n)s"), "sets": gettext_noop("Sets %(n)s"),
    "table": gettext_noop("Table %(n)s"), "group": gettext_noop("Group %(n)s"), "slot": gettext_noop("Round %(slot)s"),
    "sheet": gettext_noop("sheet %(n)s"), "page": gettext_noop("page %(n)s"),
}  # fmt: skip
"""Key → the msgid of the word with its number (``"Table %(n)s"``: 第 3 卓 / 3 号桌), each
language placing the number where it goes. ``"Round %(slot)s"`` is the pages' own."""

RESERVE_HEADING = gettext_noop("RESERVE WALL %(reserve)s for set %(set)s")
"""The heading of a reserve wall's set-up sheet, stickers and label (docs/walls.md, "Reserve
walls"): which reserve, and which set it replaces."""


def check_lang(lang: str) -> str:
    """``lang`` as the site spells it (:data:`LANGS`; ``"zh"`` → ``"zh-hans"``), else raise
    ValueError naming the choices."""
    code = ALIASES.get(str(lang).lower(), str(lang).lower())
    if code not in LANGS:
        raise ValueError(f"lang: unknown language {lang!r}; use one of {', '.join(LANGS)}")
    return code


def translate(message: str, lang: str) -> str:
    """The msgid ``message`` in sheet language ``lang`` (English outside Django, or for a message
    no catalogue holds: a custom rule set's name prints as typed)."""
    if not message:
        return message
    with i18n.language(check_lang(lang)):
        return i18n.catalogue_text(message)


def translate_notes(text: str, lang: str) -> str:
    """A rule set's notes (the set-up sheet's footnote) in ``lang``: the whole text when the
    catalogues hold it, else piece by piece, the longest run of sentences the catalogues hold at a
    time (a preset's notes are msgids joined by spaces: walls/rulesets/presets.py); a sentence no
    catalogue holds (a custom rule set's notes) stays as written."""
    lang = check_lang(lang)
    whole = translate(text, lang)
    if lang == "en" or whole != text:
        return whole
    cuts = [m.end() for m in re.finditer(r"[.)](?=\s)", text)] + [len(text)]
    pieces, start = [], 0
    while start < len(text):
        ends = [c for c in cuts if c > start]
        for end in reversed(ends):
            piece = text[start:end].strip()
            done = translate(piece, lang)
            if done != piece:
                break
        else:
            end, done = ends[0], text[start:ends[0]].strip()
        if done:
            pieces.append(done)
        start = end
    out = ""
    for piece in pieces:  # CJK sentences follow each other without a space; English ones keep theirs
        out += (" " if out and (out[-1].isascii() or piece[0].isascii()) else "") + piece
    return out


def word(key: str, lang: str) -> str:
    """The word ``key`` in ``lang`` (``word("seating", "ja")`` → ``"席順"``). Raises KeyError
    for an unknown key, ValueError for an unknown language."""
    return translate(WORDS[key], lang)


def role_mark(role: str, order: int, lang: str) -> str:
    """The mark of a dead-wall slot's role (:class:`walls.rulesets.layout.DeadSlot`) as the set-up
    sheets and the strip stickers print it: ``R1`` (kong replacement, in order), ``DORA`` (the dora
    indicator), ``K1`` (kan-dora indicator, in order), ``ura``; ``""`` for no role."""
    if role == "replacement":
        return f"R{order}"
    if role == "kan_indicator":
        return f"K{order}"
    return word({"indicator": "dora_mark", "ura": "ura_mark"}[role], lang) if role else ""


def numbered(key: str, value: Any, lang: str) -> str:
    """The word ``key`` with ``value``: ``numbered("table", 3, "ja")`` → ``"第 3 卓"``,
    ``numbered("session", 1, "en")`` → ``"Session 1"``."""
    message = NUMBERED[key]
    return translate(message, lang) % {"slot" if "%(slot)s" in message else "n": value}


def table_label(table: Any, lang: str) -> str:
    """A table as printed: a number (``3`` or ``"3"``) → ``"Table 3"`` / ``"第 3 卓"`` /
    ``"3 号桌"``; any other label (``"Room A"``) is printed as given."""
    return numbered("table", table, lang) if isinstance(table, int) or str(table).isdigit() else str(table)


def group_table(group: int, table: int, lang: str) -> str:
    """``(2, 6)`` → ``"Group 2 · Table 6"`` (ja ``"第 2 組 · 第 6 卓"``): a table that plays a
    copy of a set first, among the groups sharing its walls."""
    return f"{numbered('group', group, lang)} · {numbered('table', table, lang)}"


def seat_name(seat: str, lang: str) -> str:
    """``"E"`` → ``"East"`` / ``"東家"`` / ``"东家"`` (:func:`tournament.i18n.seat_name`, the pages'
    words); an unknown seat letter is returned as is."""
    with i18n.language(check_lang(lang)):
        return i18n.seat_name(seat)


def seat_label(seat: str, lang: str) -> str:
    """``"E"`` → ``"E"`` / ``"東"`` / ``"东"``; an unknown seat letter is returned as is. Never
    printed on a wall sticker: 東 alone is also the East Wind tile."""
    with i18n.language(check_lang(lang)):
        return i18n.seat_label(seat)


def reserve_heading(reserve: str, set_code: str, lang: str) -> str:
    """``("R1", "1-07", "en")`` → ``"RESERVE WALL R1 for set 1-07"`` (ja ``"予備牌山 R1 — セット
    1-07 の代替"``): printed wherever a reserve wall's papers have room, so nobody lays it, or
    scores it, as the set itself."""
    return translate(RESERVE_HEADING, lang) % {"reserve": reserve, "set": set_code}


def vocabulary(lang: str) -> set[str]:
    """Every fixed text a sheet may print in ``lang``: the words and the numbered patterns without
    their placeholders, the reserve heading without its codes, and the seat names and labels."""
    out = {re.sub(r"%\(\w+\)s", " ", word(key, lang)) for key in WORDS}
    out.update(translate(m, lang).replace("%(n)s", " ").replace("%(slot)s", " ") for m in NUMBERED.values())
    out.add(translate(RESERVE_HEADING, lang).replace("%(reserve)s", " ").replace("%(set)s", " "))
    out.update(seat_name(s, lang) for s in "ESWN")
    out.update(seat_label(s, lang) for s in "ESWN")
    return out
