"""Par of the wall sets for the pages that show it: the traveller and hand record of a set, a
player's page and the printed hand records (docs/scoring.md, "Par: what each seat could have
made").

The analysis itself is :func:`scoring.par.set_par` (pure). It is computed once per wall set,
the first time a page that may show it asks, and kept in ``WallSet.par`` (as secret as the
piles: :mod:`scoring.visibility` decides, as for the hand record); one stored by an older
version of the analysis (:func:`scoring.par.is_current`) is computed again. A set played on a reserve
wall or in a fouled version is compared with the par of the wall as prepared; the traveller says
which version each table played.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.utils.translation import pgettext as in_context  # a variable message: not for makemessages

from scoring import par as par_core
from scoring import visibility
from scoring.models import HandResult
from scoring.payments.counters import read_fixed
from scoring.payments.phrases import win_words, yakuman_words
from scoring.visibility import Viewer
from tournament.cache import Kept, content_version
from tournament.models import Event
from walls.models import WallSet
from walls.printing.hand_records import HandRecordPage, RecordPile
from walls.printing.i18n import seat_name, word
from walls.rulesets.layout import reachable_draws
from walls.setcode import SetId
from walls.tiles import TileError, tile_label

Key = tuple[int, int]
logger = logging.getLogger(__name__)
#: the analyses this process has read, ``{(event uid, pk, public, version): {key: analysis}}``
#: (``public``: the public version, else the content version): every player's page built at a
#: version reads the same sets' analyses
_READ: Kept[dict[Key, dict]] = Kept(8)


def set_analyses(event: Event, keys: Iterable[Key] = (), *, walls: Iterable[WallSet] | None = None,
                 public: bool = False) -> dict[Key, dict]:
    """The par (:meth:`scoring.par.SetPar.as_dict`) of each ``(session, set)`` of ``keys`` that
    has a wall (or of each of ``walls``, WallSet rows the caller read with ``piles`` and
    ``par``), computed and stored for those not analysed yet or analysed by an older version
    (:func:`scoring.par.is_current`). The caller has checked that its
    viewer may see these sets. At most three statements: the read of the stored analyses (none with
    ``walls``, nor for sets this process read at the event's version), the piles of the
    sets not analysed yet, and one update for the sets analysed now. A wall the analysis cannot read (piles that do not fit the
    rule set, an unknown tile code: :class:`scoring.par.ParError`,
    :class:`walls.tiles.TileError`) is logged and left out, so a page shows the rest.

    ``public``: ``keys`` are released sets only (a visitor's page): what this process read is kept
    under the public version, which an entry at a table still playing does not change, not under
    the content version, which every entry changes. A released set's par does not change: the
    only change to a stored par, fixed counters (:func:`scoring.actions.counters.fix_counters`), is
    refused for a set with a result, and bumps the public version besides (an audited action,
    :meth:`tournament.models.Event.log`), as every write through the admin does; a process of an
    older par analysis keeps its par until the next such change."""
    if walls is None:
        wanted = set(keys)
        version = (event.uid, event.pk, public, content_version(event, public=public))
        known = _READ.get(version) or {}
        missing = wanted - known.keys()
        if missing:
            known = {**known, **_analyses(event, missing)}
            _READ.put(version, known)
        return {key: known[key] for key in wanted if key in known}
    ruleset = event.get_ruleset()
    seats = len(ruleset.seats)
    fresh = []
    out = {}
    for wall in walls:
        if not par_core.is_current(wall.par):
            try:
                analysis = par_core.set_par(ruleset, wall.piles, prevalent_wind=par_core.prevalent_of(wall.set_no, seats),
                                            counters=read_fixed(event.fixed_counters, wall.session_number, wall.set_no))
            except (par_core.ParError, TileError, KeyError) as exc:
                logger.warning("par of %s set %s-%s left out: %s", event.slug, wall.session_number, wall.set_no, exc)
                continue
            wall.par = analysis.as_dict()
            fresh.append(wall)
        out[(wall.session_number, wall.set_no)] = wall.par
    if fresh:
        WallSet.objects.bulk_update(fresh, ["par"])
    return out


def _analyses(event: Event, wanted: set[Key]) -> dict[Key, dict]:
    """:func:`set_analyses` of ``wanted`` read now: the stored analyses, and the piles of the sets
    not analysed yet."""
    rows = WallSet.objects.filter(event=event, session_number__in={s for s, _n in wanted},
                                  set_no__in={n for _s, n in wanted}).only("id", "session_number", "set_no", "par")
    walls = [w for w in rows if (w.session_number, w.set_no) in wanted]
    unread = {w.pk: w for w in walls if not par_core.is_current(w.par)}
    for pk, piles in WallSet.objects.filter(pk__in=unread).values_list("pk", "piles") if unread else ():
        unread[pk].piles = piles
    return set_analyses(event, walls=walls)


def _glyphs(hand: str) -> str:
    """A hand in the notation of :mod:`scoring.fan_check` as tile glyphs, the winning tile last
    after ``+``."""
    standing, _plus, winning = hand.partition("+")
    codes = [f"{digit}{group[-1]}" for group in standing.split() for digit in group[:-1]]
    language = get_language() or "en"
    return " ".join(tile_label(c, language) for c in codes) + (" + " + tile_label(winning.strip(), language) if winning else "")


def _hand_name(entry) -> str:
    """One fan or yaku name of a stored par win (``[name, value]`` or ``[name, value, Chinese]``,
    :class:`scoring.par.HandValue`) in the active language: an MCR fan by PyMahjongGB's Chinese
    name on a Japanese or Chinese page (the names players of both use for MCR fans), else its
    English one; a riichi yaku through the catalogue (context ``"yaku"``, :data:`scoring.par.YAKU_NAMES`)."""
    if len(entry) > 2 and entry[2]:
        return entry[2] if (get_language() or "en").split("-")[0] in ("ja", "zh") else entry[0]
    return in_context("yaku", entry[0])


def _named(win: dict) -> str:
    """The fan or yaku of a win in words in the active language (:func:`_hand_name`):
    ``"Seven Pairs 24, Self-Drawn 1"`` (七对 24、自摸 1 on a Chinese page); a yakuman yaku
    with its yakuman words (``"Suu Ankou Tanki (double yakuman)"``: a yakuman's han, 13 each,
    never shows)."""
    named = [(_hand_name(entry), entry[1]) for entry in win["names"]]
    if win.get("yakuman"):
        return _(", ").join(f"{name} ({yakuman_words(max(1, value // 13))})" for name, value in named)
    return _(", ").join(f"{name} {value}" for name, value in named)


def _win_view(win: dict | None, unit: str) -> dict | None:
    if win is None:
        return None
    return {**win, "glyphs": _glyphs(win["hand"]), "slot": f"D{win['draw']}", "label": win_words(win, unit),
            "named": _named(win)}


def par_view(analysis: dict) -> dict:
    """An analysis (:meth:`scoring.par.SetPar.as_dict`) for a page: ``{"calculator",
    "approximate", "unit", "seats": {seat: {"seat", "shanten", "draws", "par", "best"}}, "ordered"}``, a
    win with ``glyphs`` (the hand as tile glyphs), ``slot`` (``"D10"``), ``label`` (its value in
    words, :func:`scoring.payments.phrases.win_words`) and ``named`` (its fan or yaku in words) added; ``ordered``: the
    same seats in seat order (dealer first)."""
    unit = analysis.get("unit", "fan")
    ordered = [{**s, "par": _win_view(s["par"], unit), "best": _win_view(s["best"], unit)} for s in analysis["seats"]]
    return {**analysis, "seats": {s["seat"]: s for s in ordered}, "ordered": ordered}


def set_par_report(event: Event, session_number: int, set_no: int, viewer: Viewer) -> dict | None:
    """The par of one set for its traveller and hand record (:func:`par_view`), or None when
    ``viewer`` may not read the set's wall yet (:func:`scoring.visibility.can_see_set`: the
    director and staff always, everyone once the set is released) or it has no wall."""
    if not visibility.can_see_set(viewer, event, session_number, set_no):
        return None
    found = set_analyses(event, [(session_number, set_no)]).get((session_number, set_no))
    return par_view(found) if found is not None else None


def against_par(event: Event, rows: list[dict], *, public: bool = False) -> list[dict]:
    """Each of ``rows`` (a player's set-by-set results: dicts with ``session``, ``set_no``,
    ``seat`` and ``score_change``, already limited to what the viewer may see) with ``par``:
    ``{"draw", "score", "label", "best_draw", "best_score", "best_label", "versus"}`` for its seat
    (``label``: the value in words, :func:`scoring.payments.phrases.win_words`; ``versus``: the score change less the par
    score), or None where the set has no par for that seat. ``public``: ``rows`` are of released
    sets only (:func:`set_analyses`)."""
    analyses = set_analyses(event, {(r["session"], r["set_no"]) for r in rows}, public=public)
    out = []
    for row in rows:
        analysis = analyses.get((row["session"], row["set_no"]))
        seat = next((s for s in analysis["seats"] if s["seat"] == row.get("seat")), None) if analysis else None
        found = None
        if analysis is not None and seat is not None and seat["par"] is not None and seat["par"]["score"] is not None:
            unit, best = analysis.get("unit", "fan"), seat["best"] or seat["par"]
            found = {"draw": seat["par"]["draw"], "score": seat["par"]["score"], "label": win_words(seat["par"], unit),
                     "best_draw": best["draw"], "best_score": best["score"], "best_label": win_words(best, unit),
                     "versus": (row.get("score_change") or 0) - seat["par"]["score"]}
        out.append({**row, "par": found})
    return out


def par_words(event: Event) -> dict:
    """What a page says about the par of ``event``'s sets (templates/scoring/_par_words.html):
    ``{"calculator"}`` (:func:`scoring.par.calculator_for`: riichi names the luck left out) and
    ``{"approximate"}`` (no private draw piles: a shared wall drawn in turn order)."""
    ruleset = event.get_ruleset()
    return {"calculator": par_core.calculator_for(ruleset), "approximate": not reachable_draws(ruleset)}


def hand_record_pages(event: Event, session_number: int, viewer: Viewer, lang: str) -> list:
    """The printed hand records of a session (:func:`walls.printing.hand_records.render_hand_records`):
    one :class:`~walls.printing.hand_records.HandRecordPage` per set ``viewer`` may read
    (:func:`scoring.visibility.can_see_set`: everyone once the set is released, the director and
    staff always), with its wall as prepared, its par and every table's score at each seat. Empty
    when no set of the session may be read yet."""
    ruleset = event.get_ruleset()
    walls = {w.set_no: w for w in visibility.visible_walls(viewer, WallSet.objects.filter(
        event=event, session_number=session_number)).only("id", "session_number", "set_no", "piles", "par")}
    shown = sorted(walls)
    if not shown:
        return []
    analyses = set_analyses(event, walls=walls.values())
    results: dict[int, list[tuple[int, dict]]] = {}
    for set_no, number, changes in HandResult.objects.filter(
            event=event, session_number=session_number, set_no__in=shown).order_by("table__number").values_list(
            "set_no", "table__number", "changes"):
        results.setdefault(set_no, []).append((number, changes))
    pages = []
    for set_no in shown:
        piles = tuple(
            RecordPile(f"{seat_name(p.seat, lang)} · {word(p.kind, lang)}" if p.seat else word(p.kind, lang),
                       tuple(walls[set_no].piles[p.name]), p.kind)
            for p in ruleset.piles)
        pages.append(HandRecordPage(event.name, session_number, set_no, SetId(event.slug, session_number, set_no).code,
                                    tuple(ruleset.seats), piles, analyses.get((session_number, set_no)),
                                    tuple((number, changes) for number, changes in results.get(set_no, []))))
    return pages
