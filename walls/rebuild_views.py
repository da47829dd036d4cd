"""Rebuilding a set by scan (docs/staff-guide.md, "Rebuilding a set by scan"): the page a wall
sticker's QR code opens, ``/W/<event number>/<set code>/<seat>-<slot>`` (:meth:`walls.setcode.SetId.slot_url`;
``/w/<slug>/<set code>/<seat>-<slot>/`` on stickers printed by earlier versions),
and the check walk through a seat's rows, ``/w/<slug>/<set code>/<seat>/check/``.

Staff and the director (:attr:`scoring.visibility.Viewer.secrets`, the roles that see every set)
are shown which tile goes in the scanned slot, where the slot lies (:mod:`walls.rulesets.layout`:
the pile, its row, the place in the row, the dead wall's role) and a scanner for the next sticker.
Everyone else is shown the same neutral page whatever the set and its state: the set code, seat
and slot the sticker already prints, and that staff alone see where each tile goes. That page
reads no wall, so it tells nothing about whether the set exists (docs/security.md, "Wall
stickers"). The check walk is the staff's alone (403 for others).

Both pages are ``Cache-Control: private, no-store``: a staff page holds a secret wall, and a
shared cache must never hand one viewer's answer to another.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache

from scoring import table_access
from tournament import i18n
from tournament.access import event_view
from tournament.models import Event
from tournament.query import int_param
from walls.models import ReserveWall, WallSet
from walls.rulesets.layout import Row, dead_wall, row_of, seat_rows
from walls.setcode import SetCodeError, SetId, parse_code, parse_slot_key, slot_key
from walls.tiles import PINK_TILES, RED_FIVES, tile_label, tile_name

SHARED = "shared"
"""The check walk's seat for the shared piles (a live wall, a shared dead wall)."""

_PILE_WORDS = {
    "hand": gettext_lazy("Starting hand"),
    "draw": gettext_lazy("Draw pile"),
    "live": gettext_lazy("Live wall"),
    "dead": gettext_lazy("Dead wall"),
}


@dataclass(frozen=True)
class Step:
    """One slot of a seat's walk in laying order: its row and place in it (0-based), its label,
    its number in the pile and its 1-based step."""

    row: Row
    index: int
    label: str
    number: int
    step: int


def _walk(ruleset, seat: str | None) -> list[Step]:
    """The slots of ``seat`` (None: the shared piles) in laying order (:func:`walls.rulesets.layout.seat_rows`):
    row by row, nearest first, each row left to right as seen from the seat."""
    rows = next((r for s, r in seat_rows(ruleset) if s == seat), [])
    out: list[Step] = []
    for row in rows:
        for index, (label, number) in enumerate(zip(row.labels, row.numbers)):
            out.append(Step(row, index, label, number, len(out) + 1))
    return out


def _pile_of(ruleset, seat: str | None, label: str):
    """The pile of ``seat`` (None: shared) that holds slot ``label`` and the slot's number, or None."""
    prefix, digits = label[:1], label[1:]
    if not (digits.isascii() and digits.isdigit()):
        return None
    number = int(digits)
    for pile in ruleset.piles:
        if pile.seat == seat and pile.slot_prefix == prefix and 1 <= number <= pile.size:
            return pile, number
    return None


def _row_words(row: Row) -> str:
    """``"lower row"``, ``"upper row"``, ``"one row"`` in the page's language, with the part of a
    pile laid as several pairs of rows."""
    if row.level == "flat":
        return _("one row")
    if row.parts > 1:
        words = _("lower row, part %(part)s of %(parts)s") if row.level == "lower" else _("upper row, part %(part)s of %(parts)s")
        return words % {"part": row.part, "parts": row.parts}
    return _("lower row") if row.level == "lower" else _("upper row")


def _where(row: Row, index: int) -> str:
    """Where a slot lies: ``"Draw pile, lower row, tile 3 from the left"``."""
    return _("%(pile)s, %(row)s, tile %(n)s from the left") % {
        "pile": _PILE_WORDS.get(row.kind, row.pile), "row": _row_words(row), "n": index + 1}


def _dead_role(ruleset, pile: str, label: str) -> str:
    """The dead-wall role of a slot in words (replacement tile, dora indicator...), or ``""``."""
    wall = dead_wall(ruleset)
    slot = wall.role_of(pile, label) if wall else None
    if slot is None:
        return ""
    if slot.role == "replacement":
        return _("Replacement tile %(n)s") % {"n": slot.order}
    if slot.role == "indicator":
        return _("Dora indicator")
    if slot.role == "kan_indicator":
        return _("Kan-dora indicator %(n)s") % {"n": slot.order}
    if slot.order == 0:
        return _("Ura-dora (under the dora indicator)")
    return _("Ura-dora (under kan-dora indicator %(n)s)") % {"n": slot.order}


def _tile_lang() -> str:
    """The language of tile names on the page: ``en``, ``ja`` or ``zh`` (:func:`walls.tiles.tile_name`)."""
    lang = (get_language() or "en").lower()
    return "ja" if lang.startswith("ja") else "zh" if lang.startswith("zh") else "en"


def _tile(code: str, lang: str) -> dict:
    return {"code": code, "glyph": tile_label(code, lang), "name": tile_name(code, lang), "red": code in RED_FIVES,
            "pink": code in PINK_TILES}


def _not_found(request, event, message: str):
    return render(request, "walls/sticker_not_found.html", {"event": event, "message": message}, status=404)


def _set_id(event, code: str) -> SetId | None:
    try:
        return parse_code(event.slug, code)
    except SetCodeError:
        return None


def _bad_code(request, event, code: str):
    return _not_found(request, event, _(
        "%(code)s is not a set code of this event. A set code reads like 1-07-3 (session, set, check digit): "
        "scan the sticker again, or check the code printed on it.") % {"code": code})


def _piles(event, set_id: SetId) -> dict | None:
    """The stored piles of the set (of its reserve wall for a reserve code), or None. One query."""
    if set_id.reserve:
        rows = ReserveWall.objects.filter(event=event, session_number=set_id.session, set_no=set_id.set_no,
                                          number=set_id.reserve)
    else:
        rows = WallSet.objects.filter(event=event, session_number=set_id.session, set_no=set_id.set_no)
    return rows.values_list("piles", flat=True).first()


def _no_wall(request, event, set_id: SetId):
    return _not_found(request, event, _("Set %(code)s has no wall in this event: its session is not prepared yet, or "
                                        "the code names a reserve wall that was never drawn.") % {"code": set_id.code})


def _seat_word(seat: str | None) -> str:
    return i18n.seat_name(seat) if seat else _("shared piles")


def _check_url(event, set_id: SetId, seat: str | None, step: int | None = None) -> str:
    url = reverse("sticker-check", args=[event.slug, set_id.code, seat or SHARED])
    return f"{url}?step={step}" if step else url


def _slot_url(event, set_id: SetId, seat: str | None, label: str, check: bool = False) -> str:
    url = reverse("sticker-slot", args=[event.slug, set_id.code, slot_key(seat, label)])
    return f"{url}?check=1" if check else url


@never_cache
@event_view()
def sticker_slot(request, event, code, where):
    """The page a wall sticker's QR code opens: for staff and the director, the tile of that slot
    and where it lies; for everyone else a neutral page that names only what the sticker prints
    (module doc). A code or slot that cannot be read is a 404 saying so."""
    set_id = _set_id(event, code)
    if set_id is None:
        return _bad_code(request, event, code)
    ruleset = event.get_ruleset()
    try:
        seat, label = parse_slot_key(where)
    except SetCodeError:
        seat, label = None, ""
    found = _pile_of(ruleset, seat, label) if label and (seat is None or seat in ruleset.seats) else None
    if found is None:
        return _not_found(request, event, _(
            "%(slot)s is not a slot of this event's wall sets. A sticker's slot reads like E-D21 (seat, slot), "
            "or X5 for a shared pile.") % {"slot": where})
    pile, number = found
    context = {"event": event, "set_id": set_id, "seat": seat, "label": label, "pile": pile, "seat_word": _seat_word(seat)}
    if not table_access.viewer(request, event).secrets:
        return render(request, "walls/sticker_neutral.html", context)
    piles = _piles(event, set_id)
    if piles is None:
        return _no_wall(request, event, set_id)
    row, index = row_of(ruleset, pile.name, number)
    walk = _walk(ruleset, seat)
    step = next(s.step for s in walk if s.label == label)
    check = request.GET.get("check") == "1"
    context.update({
        "tile": _tile(piles[pile.name][number - 1], _tile_lang()),
        "where": _where(row, index), "row": row, "index": index, "role": _dead_role(ruleset, pile.name, label),
        "check": check, "step": step, "steps": len(walk),
        "check_url": _check_url(event, set_id, seat, step),
        "row_slots": [(lab, lab == label) for lab in row.labels],
    })
    return render(request, "walls/sticker_slot.html", context)


def sticker_short(request, key, code, where):
    """The short address a wall sticker's QR code holds, ``/W/<event number>/<code>/<where>``:
    the page of :func:`sticker_slot` for that event (404 for no such event)."""
    slug = Event.objects.filter(pk=int(key)).values_list("slug", flat=True).first()
    if slug is None:
        raise Http404(_("No event has this number: the sticker belongs to another site."))
    return sticker_slot(request, slug=slug, code=code, where=where)


@never_cache
@event_view()
def sticker_check(request, event, code, seat):
    """Check a built set, seat by seat (staff and the director; 403 for others): every row of the
    seat as a strip of tiles under their slot labels, and a walk through the slots in laying
    order, ``?step=N`` (1-based) shown big with its tile, Back and Next."""
    if not table_access.viewer(request, event).secrets:
        raise PermissionDenied(_("Checking a set shows its tiles: staff and the director only. Log in with a staff account."))
    set_id = _set_id(event, code)
    if set_id is None:
        return _bad_code(request, event, code)
    ruleset = event.get_ruleset()
    wanted = None if seat.lower() == SHARED else seat.upper()
    walk = _walk(ruleset, wanted) if (wanted is None or wanted in ruleset.seats) else []
    if not walk:
        return _not_found(request, event, _("%(seat)s is not a seat of this event's wall sets.") % {"seat": seat})
    piles = _piles(event, set_id)
    if piles is None:
        return _no_wall(request, event, set_id)
    number = int_param(request, "step", default=1, maximum=len(walk)) or 1
    current = walk[number - 1]
    lang = _tile_lang()
    strips = []
    for row in dict.fromkeys(s.row for s in walk):
        cells = [(s, _tile(piles[s.row.pile][s.number - 1], lang)) for s in walk if s.row == row]
        strips.append({"row": row, "words": _row_words(row), "pile": _PILE_WORDS.get(row.kind, row.pile), "cells": cells})
    context = {
        "event": event, "set_id": set_id, "seat": wanted, "seat_word": _seat_word(wanted), "walk": walk,
        "current": current, "tile": _tile(piles[current.row.pile][current.number - 1], lang),
        "where": _where(current.row, current.index), "role": _dead_role(ruleset, current.row.pile, current.label),
        "strips": strips, "steps": len(walk),
        "back": _check_url(event, set_id, wanted, current.step - 1) if current.step > 1 else None,
        "next": _check_url(event, set_id, wanted, current.step + 1) if current.step < len(walk) else None,
        "slot_url": _slot_url(event, set_id, wanted, current.label, check=True),
        "check_base": _check_url(event, set_id, wanted),
    }
    return render(request, "walls/sticker_check.html", context)
