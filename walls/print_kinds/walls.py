"""The wall papers of a session (docs/printing.md): wall stickers, set labels, set-up sheets and
the pick list, each kind declared beside the builders that turn the stored walls into
:class:`walls.printing.PrintableSet` and :class:`walls.printing.data.StickerSet` values, one per
physical copy of a set (docs/seating.md, "Physical copies and groups sharing the walls")."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reportlab.lib.units import mm as printing_mm

from tournament.models import Event
from tournament.table_plan import session_plan
from walls import printing
from walls.models import WallSet
from walls.print_kinds.base import PrintError, PrintKind, event_tile, public_address, render_stickers, set_counters
from walls.printing import i18n as printing_words
from walls.printing.data import sticker_set
from walls.printing.stickers import plan_sheets, sticker_layout
from walls.printing.strips import MIN_MODULE, code_module, strip_sheets
from walls.printing.templates import TemplateError, label_boxes
from walls.printing.qr import sticker_module
from walls.setcode import SetId


def first_tables(event: Event, session_number: int, lang: str = "en") -> dict[int, list[str]]:
    """Set number → for each physical copy of the set, in copy order, the table that plays that
    copy first, e.g. ``"Group 2 · Table 6"`` in the sheet language ``lang``: as many entries as
    the session's movement has copies (the table plan's :meth:`~tournament.table_plan.SessionPlan.first_plays`,
    :attr:`tournament.movement.Movement.copies`; docs/seating.md, "Physical copies and groups sharing the walls"). Unstaggered, every group plays each set at the same hand, so one copy per group; staggered
    (``Session.staggered``), groups in turned order share one copy. Before the session is seated:
    one copy, labelled ``"Table 1 of each group"``."""
    plan = session_plan(event, session_number)
    if plan is None or not plan.tables:
        word = f"{printing_words.numbered('table', 1, lang)} {printing_words.word('each_group', lang)}"
        return {set_no: [word] for set_no in range(1, event.get_ruleset().hands_per_session + 1)}
    out: dict[int, list[str]] = {}
    for set_no in range(1, plan.movement.sets_per_session + 1):
        out[set_no] = [printing_words.group_table(play.group, play.table.number, lang) if play.table is not None
                       else printing_words.numbered("table", play.position + 1, lang)
                       for play in plan.first_plays(set_no)]
    return out


def _stored_walls(event: Event, session_number: int, set_nos=None):
    """The session's stored walls in set order, limited to ``set_nos`` when given."""
    walls = WallSet.objects.filter(event=event, session_number=session_number).order_by("set_no")
    return walls.filter(set_no__in=set_nos) if set_nos else walls


def printable_sets(event: Event, session_number: int, set_nos=None, *, per_copy: bool = False, lang: str = "en",
                   codes: bool = True) -> list:
    """The :class:`walls.printing.PrintableSet` values of a session's stored walls; with
    ``per_copy`` one per physical copy (each group sharing the walls needs its own copy, labelled
    with the table that plays it first, in the sheet language ``lang``; ``copies`` is then that one
    name), else one per set, ``copies`` naming all its copies in copy order (:func:`first_tables`).
    With ``codes`` (a document that prints the sets' QR codes) they link to the event's public
    address (:func:`~walls.print_kinds.base.public_address`, which refuses one phones cannot open)."""
    ruleset, base = event.get_ruleset(), public_address(event) if codes else None
    tile = event_tile(event).text  # "25 × 34 mm" in the set-up sheet's header
    walls = _stored_walls(event, session_number, set_nos)
    first = first_tables(event, session_number, lang)
    return [
        printing.PrintableSet(
            set_id=SetId(event.slug, session_number, w.set_no), event_name=event.name, ruleset=ruleset,
            piles=w.piles, first_table=copy, commitment=event.commitment, entry_url=base, tile_size=tile,
            counters=set_counters(event, session_number, w.set_no, lang), copies=copies,
        )
        for w in walls
        for copy, copies in ([(name, (name,)) for name in first[w.set_no]] if per_copy
                             else [(", ".join(first[w.set_no]), tuple(first[w.set_no]))])
    ]


def sticker_sets(event: Event, session_number: int, set_nos=None, lang: str = "en") -> list:
    """The :class:`walls.printing.data.StickerSet` values of a session's stored walls, one per
    physical copy (each group sharing the walls needs its own stickers). Built from the set codes
    and the rule set's slots alone: the walls' tiles are never read, since a sticker goes on the
    back of a tile, where every player sees it (docs/rules.md, "Duplicate MCR: building sets and
    wall stickers"; docs/printing.md)."""
    ruleset, base = event.get_ruleset(), public_address(event)
    first = first_tables(event, session_number, lang)
    return [
        sticker_set(SetId(event.slug, session_number, n), event.name, ruleset, base, str(event.pk), copy)
        for n in _stored_walls(event, session_number, set_nos).values_list("set_no", flat=True)
        for copy in first[n]
    ]


@dataclass(frozen=True)
class StickerPaper:
    """What a session's wall stickers take, told before printing: ``sets`` and physical
    ``copies`` (every copy a full set of stickers), ``stickers`` (the rule set's tiles × copies),
    ``sheets`` of the label stock (``per_copy`` sheets a copy on row strips, which never put two
    copies on one sheet; 0 on grid labels), ``module`` the QR codes' module in mm (None: a stock
    without codes) and ``problem``, the warning when it is under :data:`MIN_MODULE` mm or the
    stock cannot be used ("" none)."""

    sets: int
    copies: int
    stickers: int
    sheets: int
    per_copy: int
    module: float | None
    problem: str

    @property
    def stickers_text(self) -> str:
        """The stickers as the pick list counts its tiles: ``"8,704"``."""
        return f"{self.stickers:,}"


def sticker_paper(event: Event, session_number: int, template: str) -> StickerPaper | None:
    """The :class:`StickerPaper` of the stickers of session ``session_number`` on label stock
    ``template`` (None before its walls are generated). Draws nothing: the sheets are counted by
    the layout the renderers use (:func:`walls.printing.strips.strip_sheets`,
    :func:`walls.printing.stickers.plan_sheets`), the code is the longest sticker URL's."""
    set_nos = list(_stored_walls(event, session_number).values_list("set_no", flat=True))
    if not set_nos:
        return None
    ruleset, copies = event.get_ruleset(), first_tables(event, session_number)
    count = sum(len(copies[n]) for n in set_nos)
    try:
        base = public_address(event)
    except PrintError as exc:
        return StickerPaper(len(set_nos), count, count * ruleset.tile_count, 0, 0, None, exc.message)
    sample = sticker_set(SetId(event.slug, session_number, max(set_nos)), event.name, ruleset, base, str(event.pk))
    payload = max((sample.slot_payload(s) for unit in sample.units for s in unit.slots), key=len)
    try:
        stock, tile = printing.get_template(template), event_tile(event)
        if stock.strips:
            per_copy = strip_sheets(sample, ruleset, tile, stock)
            sheets, module = per_copy * count, code_module(tile, payload)
        else:
            per_copy, boxes = 0, label_boxes(stock)
            sheets = len(plan_sheets([(sample, u) for u in sample.units] * count, stock.per_sheet, stock.columns))
            lay = sticker_layout(boxes[0][2], boxes[0][3])
            module = sticker_module(lay.qr[2] / printing_mm, payload) if lay.qr else None
    except (TemplateError, PrintError) as exc:  # a stock or stored tile size that cannot be used: say so
        return StickerPaper(len(set_nos), count, count * ruleset.tile_count, 0, 0, None, exc.message)
    problem = ""
    if module is not None and module < MIN_MODULE - 1e-9:
        problem = _("The wall stickers' QR codes would have modules of %(module)s mm, under the %(min)s mm a phone reads "
                    "at close range: choose the row strips, or a shorter public address (a sticker's code now holds "
                    "%(length)s characters).") % {"module": f"{module:.2f}", "min": MIN_MODULE, "length": len(payload)}
    return StickerPaper(len(set_nos), count, count * ruleset.tile_count, sheets, per_copy, module, problem)


def _wall_stickers(event: Event, session: int = 1, sets=None, template: str = printing.DEFAULT_TEMPLATE,
                   lang: str = "en") -> bytes:
    return render_stickers(event, sticker_sets(event, session, sets, lang), template, lang)


def _set_labels(event: Event, session: int = 1, sets=None, lang: str = "en") -> bytes:
    return printing.render_set_labels(printable_sets(event, session, sets, per_copy=True, lang=lang), lang=lang)


def _setup_sheets(event: Event, session: int = 1, sets=None, lang: str = "en") -> bytes:
    return printing.render_setup_sheets(printable_sets(event, session, sets, lang=lang), lang=lang)


def _pick_list(event: Event, session: int = 1, sets=None, lang: str = "en") -> bytes:
    return printing.render_pick_list(printable_sets(event, session, sets, lang=lang, codes=False), lang=lang)



KINDS = (
    PrintKind("stickers", gettext_lazy("Wall stickers"), _wall_stickers, ("session", "sets", "template", "lang"),
              needs_walls=True, in_session_zip=True, prints_codes=True, on_tiles=True),
    PrintKind("labels", gettext_lazy("Set labels"), _set_labels, ("session", "sets", "lang"), needs_walls=True,
              in_session_zip=True, prints_codes=True),
    PrintKind("setup", gettext_lazy("Set-up sheets"), _setup_sheets, ("session", "sets", "lang"), needs_walls=True,
              in_session_zip=True, prints_codes=True, staff_only=True),
    PrintKind("picklist", gettext_lazy("Pick list"), _pick_list, ("session", "sets", "lang"), needs_walls=True,
              in_session_zip=True, staff_only=True),
)
"""The wall papers' kinds, in menu order."""
