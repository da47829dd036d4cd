"""The wall papers of a session (docs/printing.md): wall stickers, set labels, set-up sheets and
the pick list, each kind declared beside the builders that turn the stored walls into
:class:`walls.printing.PrintableSet` and :class:`walls.printing.data.StickerSet` values, one per
physical copy of a set (docs/seating.md, "Physical copies and groups sharing the walls")."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from tournament.models import Event
from tournament.table_plan import session_plan
from walls import printing
from walls.models import WallSet
from walls.print_kinds.base import PrintKind, event_tile, public_address, render_stickers, set_counters
from walls.printing import i18n as printing_words
from walls.printing.data import sticker_set
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


def sticker_sets(event: Event, session_number: int, set_nos=None) -> list:
    """The :class:`walls.printing.data.StickerSet` values of a session's stored walls, one per
    physical copy (each group sharing the walls needs its own stickers). Built from the set codes
    and the rule set's slots alone: the walls' tiles are never read, since a sticker goes on the
    back of a tile, where every player sees it (docs/rules.md, "Duplicate MCR: building sets and
    wall stickers"; docs/printing.md)."""
    ruleset, base = event.get_ruleset(), public_address(event)
    first = first_tables(event, session_number)
    return [
        sticker_set(SetId(event.slug, session_number, n), event.name, ruleset, base)
        for n in _stored_walls(event, session_number, set_nos).values_list("set_no", flat=True)
        for _copy in first[n]
    ]


def _wall_stickers(event: Event, session: int = 1, sets=None, template: str = printing.DEFAULT_TEMPLATE,
                   lang: str = "en") -> bytes:
    return render_stickers(event, sticker_sets(event, session, sets), template, lang)


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
