"""Player cards: each player's itinerary on a card to cut out and hand over at registration.

One card per player, eight to an A4 page (2 × 4, 105 × 74 mm) with cut lines: the event, the
player's name and team, their PIN (with "keep your PIN to yourself": it confirms their results
at the table, docs/security.md), a line per seated session with table, room and seat, and the
public "find my seat" address as text, for the sessions seated later; the QR code is the
player's own check-in link when the event gives one (docs/director-guide.md, "Self check-in"),
else the find-my-seat address.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from dataclasses import dataclass, field

from reportlab.lib.units import mm

from walls.printing.base import draw_fit, finish, new_canvas
from walls.printing.i18n import check_lang, seat_name, word
from walls.printing.qr import FormCache
from walls.printing.templates import page_points

COLUMNS, ROWS = 2, 4
"""Cards on a page: 2 × 4 on A4, each 105 × 74.25 mm."""
PAD = 5 * mm


@dataclass(frozen=True)
class CardSeat:
    """One seated session on a card: ``session`` number, ``table`` number, ``room`` name ("" for
    none), ``seat`` wind letter (printed as a word in the sheet language)."""

    session: int
    table: int
    room: str
    seat: str


@dataclass(frozen=True)
class PlayerCard:
    """One player's card: ``event_name``, ``player``, ``team`` ("" in individual events), the
    4-digit ``pin``, ``seats`` (:class:`CardSeat` or mappings with its fields, in session order)
    and ``find_url`` (the find-my-seat address; a full URL gets a QR code, a bare path is only
    printed); ``check_in_url``, when given, is the player's own check-in link (it carries a
    secret: :func:`tournament.check_in.card_token`): the QR code holds it instead, captioned
    "Scan to check in", and the find-my-seat address stays printed as text."""

    event_name: str
    player: str
    team: str
    pin: str
    seats: Sequence[CardSeat | Mapping[Any, Any]] = field(default_factory=tuple)
    find_url: str = ""
    check_in_url: str = ""


def _seat(value: CardSeat | Mapping[Any, Any]) -> CardSeat:
    return value if isinstance(value, CardSeat) else CardSeat(**value)


def render_player_cards(cards: Sequence[PlayerCard], lang: str = "en", *, page_size: Any = "A4") -> bytes:
    """PDF of ``cards``, :data:`COLUMNS` × :data:`ROWS` to a page, with grey cut lines between
    them, in the given order. Every fixed word is in ``lang`` (walls/printing/i18n.py); names are
    printed as given (Japanese and Chinese through the embedded CJK font). Raises ValueError for
    an unknown language, TypeError/KeyError for a seat mapping missing a field."""
    lang = check_lang(lang)
    pw, ph = page_points(page_size)
    title = f"{cards[0].event_name} — {word('player_cards', lang)}" if cards else word("player_cards", lang)
    canv, buf = new_canvas((pw, ph), title)
    forms = FormCache(canv)
    w, h = pw / COLUMNS, ph / ROWS
    per = COLUMNS * ROWS
    for start in range(0, max(len(cards), 1), per):
        _cut_lines(canv, pw, ph, w, h)
        for i, card in enumerate(cards[start:start + per]):
            col, row = i % COLUMNS, i // COLUMNS
            _draw_card(canv, forms, card, col * w, ph - (row + 1) * h, w, h, lang)
        canv.showPage()
    return finish(canv, buf)


def _cut_lines(canv: Any, pw: float, ph: float, w: float, h: float) -> None:
    canv.saveState()
    canv.setStrokeColorRGB(0.6, 0.6, 0.6)
    canv.setLineWidth(0.3)
    canv.setDash(3, 3)
    for c in range(1, COLUMNS):
        canv.line(c * w, 0, c * w, ph)
    for r in range(1, ROWS):
        canv.line(0, r * h, pw, r * h)
    canv.restoreState()


def _draw_card(canv: Any, forms: FormCache, card: PlayerCard, x: float, y: float, w: float, h: float, lang: str) -> None:
    left, right, top, bottom = x + PAD, x + w - PAD, y + h - PAD, y + PAD
    width = right - left
    canv.setFillColorRGB(0, 0, 0)
    qr_url = card.check_in_url or card.find_url
    qr = 20 * mm if qr_url.startswith(("http://", "https://")) else 0
    head_w = width - (qr + 2 * mm if qr else 0)
    draw_fit(canv, card.event_name, left, top - 8, head_w, 8, lang=lang, min_size=5)
    draw_fit(canv, card.player, left, top - 24, head_w, 15, lang=lang, bold=True, min_size=6)
    line = top - 36
    if card.team:
        draw_fit(canv, f"{word('team', lang)}: {card.team}", left, line, head_w, 9, lang=lang, min_size=5)
    line -= 14
    draw_fit(canv, f"{word('pin', lang)}: {card.pin}", left, line, head_w * 0.4, 11, lang=lang, bold=True, min_size=6)
    draw_fit(canv, word("keep_pin", lang), left + head_w * 0.4, line, head_w * 0.6, 7, lang=lang, min_size=4)
    if qr:
        forms.place_qr(qr_url, right - qr, top - qr - (6 if card.check_in_url else 0), qr, quiet=2, ecc="M")
        if card.check_in_url:  # what the code does, above it
            draw_fit(canv, word("scan_check_in", lang), right - qr / 2, top - 5, qr + 2 * mm, 6, lang=lang, bold=True,
                     align="centre", min_size=4)
    # the sessions: as many lines as fit between the head and the foot
    foot = bottom + 16
    seats = [_seat(s) for s in card.seats]
    table_top = min(line - 8, top - qr - 4 - (6 if card.check_in_url else 0)) if qr else line - 8
    rows = len(seats) + 1
    row_h = min(11.5, (table_top - foot) / max(rows, 1))
    size = max(4.5, row_h * 0.78)
    columns = [("session", 0.22), ("table", 0.18), ("room", 0.36), ("seat", 0.24)]
    yy = table_top - row_h
    xx = left
    for key, share in columns:
        draw_fit(canv, word(key, lang), xx, yy, width * share - 3, size, lang=lang, bold=True, min_size=4)
        xx += width * share
    canv.setLineWidth(0.4)
    canv.line(left, yy - 2.5, right, yy - 2.5)
    for seat in seats:
        yy -= row_h
        values = [str(seat.session), str(seat.table), seat.room, seat_name(seat.seat, lang)]
        xx = left
        for (key, share), value in zip(columns, values):
            draw_fit(canv, value, xx, yy, width * share - 3, size, lang=lang, bold=key in ("table", "seat"), min_size=4)
            xx += width * share
    if not seats:
        draw_fit(canv, word("not_seated", lang), left, yy - row_h, width, size, lang=lang, min_size=4)
    if card.find_url:
        draw_fit(canv, f"{word('find_seat', lang)}: {card.find_url}", left, bottom + 2, width, 7.5, lang=lang, min_size=4)

