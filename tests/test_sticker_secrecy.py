"""A wall sticker never says which tile it is on (docs/security.md, "Wall stickers").

Staff stick one on the BACK of every tile, which every other player sees during play (standing
hands, draw piles). docs/rules.md, "Duplicate MCR: building sets and wall stickers" marks each tile only as a seat's starting hand or
draw pile with its draw order, so a mixed set can be rebuilt; the face-up set-up sheet is the staff's
document for which tile goes where (docs/printing.md, docs/rules.md, "Secrecy in duplicate play").

For every preset rule set and a custom one, the stickers of a really derived wall set are rendered
and read back the way a player at the table could read them: the text layer (pypdfium2), every QR
code (zxing-cpp), the colours on the page and the drawings placed on it. Nothing may name, draw or
encode a tile of the set; what a person needs must be there: every slot of every seat exactly once,
with the set code.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest
from pdfcheck import (
    TextPages,
    coloured,
    decode_qr,
    derived_set,
    form_names,
    page_count,
    page_text,
    render_pages,
    tile_face_form_names,
)

from walls.printing import render_setup_sheets, render_wall_stickers
from walls.printing import stickers as stickers_module
from walls.printing import tilefaces
from walls.printing.data import StickerSet, sticker_set, sticker_set_of
from walls.printing.i18n import LANGS as SHEET_LANGS
from walls.printing.i18n import seat_name, vocabulary, word
from walls.printing.stickers import slot_word
from walls.printing.templates import get_template, label_boxes
from walls.rulesets.layout import dead_wall
from walls.rulesets import PRESETS, TILES_144, custom_ruleset
from walls.setcode import parse_payload
from walls.tiles import tile_glyph, tile_name

CUSTOM = custom_ruleset(
    "mcr-flowers-duplicate", "MCR duplicate with flowers and red fives (custom)", ("E", "S", "W", "N"), TILES_144,
    "per_seat", [13] * 4, None, [1, 1, 1, 1], {"0m": 1, "0p": 1, "0s": 1},
    rounds=1, starting_points=0, zero_sum=True, payment_rule="mcr", min_fan=8, end_rule="custom",
)
RULESETS = {**PRESETS, CUSTOM.code: CUSTOM}
CODES = sorted(RULESETS)
LANGS = ("en", "ja", "zh")
KIND_WORD = {"hand": "hand", "draw": "draw", "live": "live", "dead": "dead"}

_STICKER = re.compile(r"(?:(?P<seat>[ESWN]) )?(?P<slot>[HDLX]\d+) (?P<code>\d+-\d\d-\d) (?P<word>.+)")


def _set(code: str):
    return derived_set(RULESETS[code], set_no=3 + CODES.index(code) % 9)


def render(pset, template="a4-70", lang="en") -> bytes:
    """The stickers of ``pset`` as the print job renders them (tile-free values)."""
    return render_wall_stickers([sticker_set_of(pset)], template, lang=lang)


@pytest.fixture(scope="module")
def rendered():
    """Rule set code -> (PrintableSet, sticker PDF in English) on the default a4-70 stock."""
    out = {}
    for code in CODES:
        pset = _set(code)
        out[code] = (pset, render(pset))
    return out


def _tokens(text: str) -> list[str]:
    return [t for t in re.split(r"[\s,;:()·—–/…]+", text) if t]


def _allowed_tokens(pset, lang: str) -> set[str]:
    """Every word a sticker PDF may print for ``pset``: set, seats, slots, event, the printing
    vocabulary (walls/printing/i18n.py) and numbers."""
    allowed = {pset.set_id.code, "continued"}
    allowed.update(_tokens(pset.event_name))
    for w in vocabulary("en") | vocabulary(lang):
        allowed.update(_tokens(w))
    for sheet_lang in SHEET_LANGS:
        for letter in "ESWN":
            allowed.update((letter, seat_name(letter, sheet_lang)))
    for slot in pset.ruleset.slots():
        allowed.add(slot.label)
    return allowed


def _tile_words(pset) -> dict[str, set[str]]:
    """Tile code -> every way a person could read that tile: its code, its short glyph, its names
    in English, Japanese and Chinese. A glyph that is also a seat letter (``E`` for the East Wind)
    is left out: the seat letter is what a sticker must show."""
    seats = set(pset.ruleset.seats)
    out = {}
    for tile in {t for pile in pset.piles.values() for t in pile}:
        words = {tile, tile_glyph(tile), tile_glyph(tile).rstrip("*")} - seats
        words.update(tile_name(tile, lang) for lang in LANGS)
        out[tile] = words
    return out


def _leaks(text: str, pset) -> list[tuple[str, str]]:
    """(tile, word) for every reading of a tile of ``pset`` found in ``text``. Names of one CJK
    character (東, 白, 梅) are looked for outside the seat words 東家 / 东家 that contain them."""
    seat_words = sorted({seat_name(s, lang) for lang in SHEET_LANGS for s in "ESWN"}, key=len, reverse=True)
    bare = text
    for name in seat_words:
        bare = bare.replace(name, " ")
    found = []
    for tile, words in sorted(_tile_words(pset).items()):
        for w in sorted(words):
            if re.fullmatch(r"[\x00-\x7f]+", w):
                hit = re.search(rf"(?<![0-9A-Za-z]){re.escape(w)}(?![0-9A-Za-z])", text)
            else:
                hit = w in bare
            if hit:
                found.append((tile, w))
    return found


def _all_text(pdf: bytes) -> str:
    return "\n".join(page_text(pdf, i) for i in range(page_count(pdf)))


# --- nothing names, draws or encodes a tile --------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("code", CODES)
def test_sticker_text_names_no_tile_of_the_set(code, lang):
    pset = _set(code)
    pdf = render(pset, lang=lang)
    text = _all_text(pdf)
    assert _leaks(text, pset) == []
    english_tile_words = {"One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Characters",
                          "Dots", "Bamboo", "Wind", "Dragon", "red", "Red", "Plum", "Orchid", "Chrysanthemum",
                          "Spring", "Summer", "Autumn", "Winter", "flower"}
    assert english_tile_words.isdisjoint(_tokens(text))
    allowed = _allowed_tokens(pset, lang)
    unexpected = {t for t in _tokens(text) if not t.isdigit() and t not in allowed}
    assert unexpected == set(), f"words on the stickers that are neither set, seat, slot nor heading: {unexpected}"


@pytest.mark.parametrize("code", CODES)
def test_every_qr_code_on_the_stickers_is_the_set_payload_only(code, rendered):
    pset, pdf = rendered[code]
    boxes = label_boxes(get_template("a4-70"))
    texts = TextPages(pdf)
    stickers = 0
    for page_no, page in enumerate(render_pages(pdf)):
        assert set(decode_qr(page.image)) == {pset.set_id.payload}, page_no
        for (x, y, w, h) in boxes:
            text = " ".join(texts.box(page_no, x, y, w, h).split())
            if not text:
                continue
            found = decode_qr(page.crop(x, y, w, h))
            assert set(found) <= {pset.set_id.payload}, (page_no, text, found)  # header labels: when there is room
            if _STICKER.fullmatch(text):
                assert found == [pset.set_id.payload], (page_no, text, found)
                assert parse_payload(found[0]) == pset.set_id
                stickers += 1
    assert stickers == pset.ruleset.tile_count  # on the default stock every sticker has its QR code


@pytest.mark.parametrize("code", CODES)
def test_stickers_are_black_and_white_and_place_no_tile_face(code, rendered):
    pset, pdf = rendered[code]
    faces = tile_face_form_names()
    placed = form_names(pdf)
    assert placed.isdisjoint(faces.values()), {t for t, name in faces.items() if name in placed}
    assert len(placed) == 1  # the one set's QR code, drawn once and placed on every label
    for page in render_pages(pdf, scale=100 / 72, colour=True):
        assert coloured(page.image) == 0  # no red five, no green dragon: not even a colour hint


def test_the_face_detector_sees_the_faces_of_a_set_up_sheet():
    pset = _set("riichi-red3")
    placed = form_names(render_setup_sheets([pset]))
    faces = tile_face_form_names()
    tiles = {t for pile in pset.piles.values() for t in pile}
    assert {faces[t] for t in tiles} <= placed


def test_the_sticker_renderer_never_draws_a_tile_face(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a tile face was drawn on a wall sticker")

    monkeypatch.setattr(tilefaces, "draw_tile_face", refuse)
    monkeypatch.setattr(tilefaces, "place_tile_face", refuse)
    for code in CODES:
        for lang in LANGS:
            render(_set(code), "a4-40", lang)
    borrowed = {name for name, value in vars(stickers_module).items()
                if getattr(value, "__module__", "") in ("walls.printing.tilefaces", "walls.tiles")}
    assert borrowed == set()


@pytest.mark.parametrize("code", CODES)
def test_the_renderer_is_given_no_tile(code):
    pset = _set(code)
    sset = sticker_set_of(pset)
    assert isinstance(sset, StickerSet)
    assert sset == sticker_set(pset.set_id, pset.event_name, pset.ruleset)  # the wall changes nothing
    assert not re.search(r"'[0-9][mpszf]'", repr(sset))
    with pytest.raises(TypeError, match="sticker_set_of"):
        render_wall_stickers([pset])


# --- what a person at the table needs --------------------------------------------------------------

@pytest.mark.parametrize("code", CODES)
def test_every_slot_of_every_seat_is_printed_exactly_once_with_the_set_code(code, rendered):
    pset, pdf = rendered[code]
    boxes = label_boxes(get_template("a4-70"))
    texts = TextPages(pdf)
    printed, headers = Counter(), Counter()
    words = {kind: word(key, "en") for kind, key in KIND_WORD.items()}
    for page_no in range(len(texts)):
        for (x, y, w, h) in boxes:
            text = " ".join(texts.box(page_no, x, y, w, h).split())
            if not text:
                continue
            m = _STICKER.fullmatch(text)
            if m is None:
                seat = next((s for s in (*pset.ruleset.seats, "Shared")
                             if re.search(rf"(^|\s){pset.set_id.code} {s}(\s|$)", text)), None)
                assert seat, f"a label that is neither a sticker nor a header: {text!r}"
                headers[seat] += 1
                continue
            assert m["code"] == pset.set_id.code
            printed[(m["seat"], m["slot"], m["word"])] += 1
    dead = dead_wall(pset.ruleset)  # a dead-wall slot says its role: which tile is turned or taken, not what it is
    roles = {(d.pile, d.label): slot_word(f"role_{d.role} {d.order}" if d.role in ("replacement", "kan_indicator")
                                          else f"role_{d.role}", "en") for d in (dead.slots if dead else ())}
    expected = Counter((s.pile.seat, s.label, roles.get((s.pile.name, s.label)) or words[s.pile.kind])
                       for s in pset.ruleset.slots())
    assert printed == expected
    assert set(printed.values()) == {1}
    seats = {s.pile.seat or "Shared" for s in pset.ruleset.slots()}
    assert set(headers) == seats


@pytest.mark.parametrize("lang", ["ja", "zh-hans"])
def test_stickers_print_the_pile_in_the_sheet_language(lang):
    pset = _set("mcr-duplicate")
    text = _all_text(render(pset, "a4-40", lang))
    assert text.count(word("hand", lang)) >= 4 * 13
    assert text.count(word("draw", lang)) >= 4 * 21
