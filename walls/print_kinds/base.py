"""What a print kind is: :class:`PrintKind`, declared by each family of documents beside the
builder that turns the event's rows into the values of the pure renderer :mod:`walls.printing`
(docs/printing.md, "Print kinds"), and :class:`PrintError`, a print request that cannot be served."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from scoring.payments import PAYMENT_RULES
from scoring.payments.counters import carried_inputs, read_fixed
from tournament.errors import FieldError
from tournament.models import Event
from tournament.venue import address_problem
from walls import printing
from walls.printing import i18n as printing_words
from walls.printing.strips import render_sticker_strips
from walls.printing.templates import TemplateError
from walls.printing.tilesize import TileSize, check_stock
from walls.printing.tilesize import event_tile as tile_of


@dataclass(frozen=True)
class PrintKind:
    """One kind of print, declared once beside its builder (a module of :mod:`walls.print_kinds`).

    - ``name``: the kind stored on :class:`~walls.models.PrintJob` and sent by forms.
    - ``label``: what the director's menu shows (translated lazily).
    - ``build``: ``build(event, **params) -> bytes``, the PDF from the event's stored data.
    - ``params``: the request parameters ``build`` takes (``session``, ``sets``, ``template``,
      ``lang``, ``reserve``); others given stay in the job's reuse key and are not passed on.
    - ``needs_walls``: refused until the session's walls are generated.
    - ``in_batch``: part of the session batch (:func:`walls.print_jobs.request_batch`, the demo).
    - ``in_session_zip``: one of the documents of a session's ZIPs: the tables' ZIP (kind
      ``session_zip``), or the staff ZIP (kind ``staff_zip``) when ``staff_only``.
    - ``reserve``: prints one reserve wall, named by its id in the ``reserve`` parameter
      (:class:`~walls.models.ReserveWall`); offered on the wall page, not in the session menu.
    - ``per_session``: one document per session (its file is named for the session); False for
      the player cards and the calibration page.
    - ``extension``, ``content_type``: the file's type (``"pdf"``, ``"application/pdf"``; the
      session's ZIP ``"zip"``, ``"application/zip"``).
    - ``parts``: the kind bundles the documents of the kinds ``in_session_zip`` whose
      ``staff_only`` is its own (:func:`walls.print_kinds.zip_parts`): ``build`` takes
      ``parts=[(file name, render), ...]`` (``render() -> bytes``) and a ``progress(done, total)``
      keyword (the job's progress bar) instead of ``params``.
    - ``prints_codes``: the document prints QR codes, each a link to the event's public address
      (:func:`public_address`): refused while the event has none a phone can open.
    - ``on_tiles``: the document is stuck on the backs of tiles (wall stickers): its label stock is
      checked against the event's tile size when it is requested (:func:`render_stickers`).
    - ``staff_only``: the document shows every tile (set-up sheets, pick list, a reserve wall's
      set-up sheet; and the staff ZIP that bundles them): each page carries the "STAFF ONLY" band,
      its file is named ``"STAFF ONLY - …"`` (:func:`walls.print_jobs.document_name`), and it is
      never in the tables' ZIP (``session_zip``), only in the staff ZIP (``staff_zip``).
    """

    name: str
    label: str
    build: Callable[..., bytes]
    params: tuple[str, ...]
    needs_walls: bool = False
    in_batch: bool = True
    in_session_zip: bool = False
    reserve: bool = False
    per_session: bool = True
    extension: str = "pdf"
    content_type: str = "application/pdf"
    parts: bool = False
    prints_codes: bool = False
    on_tiles: bool = False
    staff_only: bool = False


class PrintError(FieldError):
    """A print request that cannot be served; ``field`` names the input."""


def public_address(event: Event) -> str:
    """The event's public address without its trailing slash, the base of every QR code a document
    prints (the table login, a set label, a sticker, a player card): each code is a link a phone's
    camera app opens. Raises PrintError ``base_url`` naming the fix when phones could not open it
    (:func:`tournament.venue.address_problem`: none set, not http(s), or this computer's own
    address such as ``127.0.0.1``), so no document is printed with codes that open nothing."""
    problem = address_problem(event.base_url)
    if problem:
        raise PrintError("base_url", problem)
    return event.base_url.strip().rstrip("/")


def event_tile(event: Event) -> TileSize:
    """The back of the event's tiles (its ``tile_size`` setting, else the rule set's usual tiles:
    :func:`walls.printing.tilesize.event_tile`). Raises PrintError ``tile_size`` for a stored
    value that cannot be read."""
    try:
        return tile_of(event.tile_size, event.get_ruleset())
    except TemplateError as exc:
        raise PrintError("tile_size", exc.message) from None


def set_counters(event: Event, session_number: int, set_no: int, lang: str = "en") -> str:
    """The honba and riichi sticks every table of set ``set_no`` of ``session_number`` starts
    with, as the set-up sheet prints them in ``lang``: ``"Honba 0 · Riichi sticks 0"`` (the
    counters the rule set uses; :mod:`scoring.payments.counters`, docs/scoring.md, "Fixed honba
    and riichi sticks"), ``""`` for a rule set without them (MCR, Yangzhou, shield tile)."""
    takes = carried_inputs(PAYMENT_RULES[event.get_ruleset().payment_rule])
    fixed = read_fixed(event.fixed_counters, session_number, set_no)
    parts = {"honba": f"{printing_words.word('honba', lang)} {fixed.honba}",
             "riichi": f"{printing_words.word('riichi_sticks', lang)} {fixed.riichi}"}
    return " · ".join(parts[name] for name in takes)


def render_stickers(event: Event, sets: list, template: str, lang: str) -> bytes:
    """The wall stickers of ``sets`` (:class:`walls.printing.data.StickerSet` values) of ``event``
    on label stock ``template``: row strips at the pitch of the event's tiles on a full-sheet
    label (:func:`walls.printing.strips.render_sticker_strips`), else one sticker per label
    (:func:`walls.printing.render_wall_stickers`). Raises PrintError ``template`` when the stock's
    labels overhang the tiles' backs (:func:`walls.printing.tilesize.check_stock`), naming the
    stock, the tile and the fix."""
    stock, tile = printing.get_template(template), event_tile(event)
    try:
        check_stock(stock, tile)
        if stock.strips:
            return render_sticker_strips(sets, event.get_ruleset(), tile, stock, lang=lang)
    except TemplateError as exc:
        raise PrintError(exc.field, exc.message) from None
    return printing.render_wall_stickers(sets, stock, lang=lang)
