"""Printed hand records: one A4 page per set for players to take home after the session, as a
bridge club prints its hand records with the double-dummy par (docs/printing.md, "Hand
records").

Each page shows the set's wall pile by pile with tile faces (a starting hand sorted, a draw pile
in draw order, numbered), each seat's solo par and best value (:mod:`scoring.par`, docs/scoring.md,
"Par: what each seat could have made") and every table's score at each seat beside the par
score. The caller decides which sets may be printed (only sets released everywhere for players:
docs/security.md); this module draws what it is given.

Standalone: no Django import (words through :mod:`walls.printing.i18n`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm as _mm

from scoring.payments.phrases import win_words
from tournament import i18n
from tournament.i18n import gettext_noop
from walls.printing.base import draw_fit, finish, new_canvas, wrap
from walls.printing.i18n import check_lang, seat_name, translate
from walls.printing.qr import FormCache
from walls.printing.tilefaces import ASPECT, place_tile_face
from walls.tiles import tile_sort_key

mm: float = float(_mm)

TITLE = gettext_noop("Hand record")
_WORDS = {
    "session_set": gettext_noop("Session %(session)s, set %(set)s"),
    "par": gettext_noop("Par"), "best": gettext_noop("Best"), "table": gettext_noop("Table"),
    "no_win": gettext_noop("no call-free win"), "shanten": gettext_noop("Tiles from ready"),
    "results": gettext_noop("Results"),
    # the same sentences as the pages (templates/scoring/_par_words.html)
    "par_meaning": gettext_noop("Par: the earliest self-drawn win the seat could make alone, knowing its own tiles, "
                                "without calls."),
    "best_meaning": gettext_noop("Best: the most valuable such win by the seat's last draw."),
    "shape": gettext_noop("The earliest draw at which each seat held a complete hand using only its own tiles, without "
                          "calls (this rule set's hands are not valued here)."),
    "luck": gettext_noop("Riichi, double riichi, self-draw, dora and red fives are counted; ippatsu and ura-dora are not, "
                         "since no player can count on them."),
    "scores": gettext_noop("Scores are the seat's score change by the event's payment rule."),
    "approximate": gettext_noop("Shared wall: drawn in turn order as if nobody called, so an approximation."),
}


@dataclass(frozen=True)
class RecordPile:
    """One pile as printed: ``title`` (already in the sheet's language), ``tiles`` (codes in slot
    order), ``kind`` (``"hand"`` sorts them)."""

    title: str
    tiles: tuple[str, ...]
    kind: str


@dataclass(frozen=True)
class HandRecordPage:
    """One set's page: ``event`` name, ``session``, ``set_no``, ``code`` (the set code), ``seats``
    (the rule set's, dealer first), ``piles``, ``par`` (:meth:`scoring.par.SetPar.as_dict`, or
    None: not printed) and ``tables``: ``[(table number, {seat: score change or None})]``."""

    event: str
    session: int
    set_no: int
    code: str
    seats: tuple[str, ...]
    piles: tuple[RecordPile, ...]
    par: Mapping[str, Any] | None
    tables: tuple[tuple[int, Mapping[str, int | None]], ...]


def _w(key: str, lang: str) -> str:
    return translate(_WORDS[key], lang)


def render_hand_records(pages: Sequence[HandRecordPage], lang: str = "en") -> bytes:
    """The PDF: one A4 page per :class:`HandRecordPage`, in the sheet language ``lang``
    (``"en"``, ``"ja"``, ``"zh-hans"``; ValueError otherwise). Raises ValueError for no page."""
    lang = check_lang(lang)
    if not pages:
        raise ValueError("pages: give at least one set to print")
    width, height = A4
    canv, buf = new_canvas(A4, translate(TITLE, lang))
    forms = FormCache(canv)
    margin = 12 * mm
    usable = width - 2 * margin
    for page in pages:
        y = height - margin - 6 * mm
        draw_fit(canv, f"{translate(TITLE, lang)} · {page.event}", margin, y, usable * 0.7, 14, lang=lang, bold=True)
        draw_fit(canv, page.code, width - margin, y, usable * 0.3, 12, lang=lang, bold=True, align="right")
        y -= 6 * mm
        draw_fit(canv, _w("session_set", lang) % {"session": page.session, "set": page.set_no}, margin, y, usable, 10, lang=lang)
        y -= 4 * mm
        tile_h = 8.5 * mm
        for pile in page.piles:
            tiles = sorted(pile.tiles, key=tile_sort_key) if pile.kind == "hand" else list(pile.tiles)
            y = _pile(canv, forms, pile.title, tiles, margin, y, usable, tile_h, numbered=pile.kind != "hand", lang=lang)
        if page.par is not None:
            y = _par(canv, forms, page, margin, y - 2 * mm, usable, lang)
        _results(canv, page, margin, y - 2 * mm, usable, lang)
        canv.showPage()
    return finish(canv, buf)


def _pile(canv: Any, forms: FormCache, title: str, tiles: list[str], x0: float, y: float, width: float, tile_h: float, *,
          numbered: bool, lang: str) -> float:
    label_w = 30 * mm
    tile_w = tile_h * ASPECT
    per_row = max(1, int((width - label_w) // (tile_w + 0.6)))
    rows = [tiles[i:i + per_row] for i in range(0, len(tiles), per_row)] or [[]]
    y -= tile_h + 1 * mm
    draw_fit(canv, title, x0, y + tile_h * 0.35, label_w - 2 * mm, 8, lang=lang, bold=True)
    for r, row in enumerate(rows):
        x = x0 + label_w
        for i, code in enumerate(row):
            place_tile_face(forms, code, x, y, tile_h)
            if numbered and (r * per_row + i + 1) % 5 == 0 or numbered and r * per_row + i == 0:
                canv.setFont("Helvetica", 5)
                canv.drawCentredString(x + tile_w / 2, y - 2 * mm, str(r * per_row + i + 1))
            x += tile_w + 0.6
        if r < len(rows) - 1:
            y -= tile_h + (3 * mm if numbered else 1 * mm)
    return y - (3 * mm if numbered else 1 * mm)


def _hand_tiles(hand: str) -> tuple[list[str], str]:
    standing, _plus, winning = hand.partition("+")
    return [f"{d}{group[-1]}" for group in standing.split() for d in group[:-1]], winning.strip()


def _value(win: Mapping[str, Any], unit: str, lang: str) -> str:
    """A win's value in words in ``lang``: the pages' words (:func:`scoring.payments.phrases.win_words`)."""
    with i18n.language(lang):
        return win_words(win, unit)


def _notes(par: Mapping[str, Any]) -> list[str]:
    """The keys of the sentences printed above the seats: what par and best mean, then what the
    analysis of this rule set leaves out or approximates."""
    keys = ["par_meaning", "best_meaning"]
    if par.get("calculator") == "shape":
        keys.append("shape")
    if par.get("calculator") == "riichi":
        keys.append("luck")
    if par.get("approximate"):
        keys.append("approximate")
    return [*keys, "scores"]


def _par(canv: Any, forms: FormCache, page: HandRecordPage, x0: float, y: float, width: float, lang: str) -> float:
    par = page.par or {}
    unit = "fan" if par.get("unit") == "fan" else "han"
    y -= 5 * mm
    draw_fit(canv, _w("par", lang), x0, y, width, 11, lang=lang, bold=True)
    y -= 4 * mm
    for key in _notes(par):
        for line in wrap(_w(key, lang), 6.5, width, lang):
            draw_fit(canv, line, x0, y, width, 6.5, lang=lang)
            y -= 3 * mm
    small = 6 * mm
    for seat in par.get("seats", []):
        y -= small + 2 * mm
        draw_fit(canv, f"{seat_name(seat['seat'], lang)} · {_w('shanten', lang)} {seat['shanten']}", x0, y + small * 0.35,
                 40 * mm, 7, lang=lang, bold=True)
        x = x0 + 42 * mm
        wins = [(_w("par", lang), seat["par"])]
        best = seat["best"]
        if best is not None and seat["par"] is not None and (best["hand"], best["draw"]) != (seat["par"]["hand"], seat["par"]["draw"]):
            wins.append((_w("best", lang), best))
        for n, (label, win) in enumerate(wins):
            if n:
                y -= small + 1 * mm
            if win is None:
                draw_fit(canv, f"{label}: {_w('no_win', lang)}", x, y + small * 0.35, 70 * mm, 7, lang=lang)
                continue
            value = f" {_value(win, unit, lang)}" if win.get("value") is not None else ""
            score = f" {win['score']:+d}" if win.get("score") is not None else ""
            draw_fit(canv, f"{label} D{win['draw']}{value}{score}", x, y + small * 0.35, 30 * mm, 7, lang=lang)
            tx = x + 31 * mm
            standing, winning = _hand_tiles(win["hand"])
            for code in standing:
                tx += place_tile_face(forms, code, tx, y, small) + 0.3
            tx += 1.5 * mm
            place_tile_face(forms, winning, tx, y, small)
    return y - 2 * mm


def _results(canv: Any, page: HandRecordPage, x0: float, y: float, width: float, lang: str) -> None:
    if not page.tables:
        return
    y -= 5 * mm
    draw_fit(canv, _w("results", lang), x0, y, width, 11, lang=lang, bold=True)
    col = min(24 * mm, (width - 20 * mm) / max(1, len(page.seats)))
    y -= 5 * mm
    draw_fit(canv, _w("table", lang), x0, y, 18 * mm, 7, lang=lang, bold=True)
    for i, seat in enumerate(page.seats):
        draw_fit(canv, seat_name(seat, lang), x0 + 20 * mm + (i + 1) * col, y, col - 1 * mm, 7, lang=lang, bold=True,
                 align="right")
    rows: list[tuple[str, Mapping[str, int | None]]] = [(str(n), changes) for n, changes in page.tables]
    if page.par is not None:
        par_scores = {s["seat"]: (s["par"] or {}).get("score") for s in page.par.get("seats", [])}
        rows.append((_w("par", lang), par_scores))
    columns = 2 if len(rows) > 40 else 1
    per_column = -(-len(rows) // columns)
    start = y
    for index, (label, changes) in enumerate(rows):
        if index and index % per_column == 0:
            y = start
            x0 += width / columns
        y -= 3.6 * mm
        if y < 10 * mm:
            break
        draw_fit(canv, label, x0, y, 18 * mm, 7, lang=lang, bold=label == _w("par", lang))
        for i, seat in enumerate(page.seats):
            value = changes.get(seat)
            draw_fit(canv, "–" if value is None else f"{value:+d}" if value else "0", x0 + 20 * mm + (i + 1) * col, y, col - 1 * mm, 7,
                     lang=lang, align="right")
