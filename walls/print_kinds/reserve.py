"""A reserve wall's papers (docs/walls.md, "Reserve walls"): its set-up sheet, stickers and set
label, with the reserve's own set code. Their parameters name the reserve wall by id; they are
offered on the set's wall page, not in the session menu."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournament.models import Event
from walls import printing
from walls.models import ReserveWall
from walls.print_kinds.base import PrintError, PrintKind, event_tile, public_address, render_stickers, set_counters
from walls.printing.data import sticker_set
from walls.setcode import SetId


def reserve_wall(event: Event, reserve_id) -> ReserveWall:
    """The event's reserve wall of id ``reserve_id`` (a number or its text); PrintError
    ("reserve") for any other, or none."""
    try:
        return ReserveWall.objects.get(pk=int(reserve_id), event=event)
    except (TypeError, ValueError, ReserveWall.DoesNotExist):
        raise PrintError("reserve", _("choose a reserve wall of this event on its set's wall page")) from None


def reserve_printable(event: Event, reserve: ReserveWall, lang: str = "en") -> printing.PrintableSet:
    """The :class:`walls.printing.PrintableSet` of one reserve wall: its own set code and payload
    (``1-07R1-4``, :class:`walls.setcode.SetId` with ``reserve``), its piles, the event's seed
    commitment; no first table (the tables that play it may change after printing)."""
    return printing.PrintableSet(
        set_id=SetId(event.slug, reserve.session_number, reserve.set_no, reserve.number), event_name=event.name,
        ruleset=event.get_ruleset(), piles=reserve.piles, commitment=event.commitment, entry_url=public_address(event),
        tile_size=event_tile(event).text, counters=set_counters(event, reserve.session_number, reserve.set_no, lang),
    )


def _reserve_setup(event: Event, reserve=None, lang: str = "en") -> bytes:
    return printing.render_setup_sheets([reserve_printable(event, reserve_wall(event, reserve), lang)], lang=lang)


def _reserve_stickers(event: Event, reserve=None, template: str = printing.DEFAULT_TEMPLATE, lang: str = "en") -> bytes:
    row = reserve_wall(event, reserve)
    stickers = sticker_set(SetId(event.slug, row.session_number, row.set_no, row.number), event.name, event.get_ruleset(),
                           public_address(event), str(event.pk))
    return render_stickers(event, [stickers], template, lang)


def _reserve_label(event: Event, reserve=None, lang: str = "en") -> bytes:
    return printing.render_set_labels([reserve_printable(event, reserve_wall(event, reserve))], lang=lang)



KINDS = (
    PrintKind("reserve_setup", gettext_lazy("Reserve wall: set-up sheet"), _reserve_setup, ("reserve", "lang"),
              in_batch=False, reserve=True, prints_codes=True, staff_only=True),
    PrintKind("reserve_stickers", gettext_lazy("Reserve wall: wall stickers"), _reserve_stickers,
              ("reserve", "template", "lang"), in_batch=False, reserve=True, prints_codes=True, on_tiles=True),
    PrintKind("reserve_label", gettext_lazy("Reserve wall: set label"), _reserve_label, ("reserve", "lang"),
              in_batch=False, reserve=True, prints_codes=True),
)
"""A reserve wall's kinds, in menu order."""
