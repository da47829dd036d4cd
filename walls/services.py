"""The write path for wall sets: generation from the master seed, and the reserve walls the
director draws for a set spoiled before play.

Walls are secret until their set is released; who may read one is decided by
:mod:`scoring.visibility` alone. The derivation itself is :mod:`walls.derivation` (docs/walls.md;
reserve walls: its section "Reserve walls").
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from tournament.errors import FieldError
from tournament.models import Event, Table
from tournament.seating import refuse_after_reveal
from walls import derivation
from walls.models import ReserveWall, WallSet


class WallError(FieldError):
    """Walls cannot be generated or read; ``field`` names the cause, the message the fix."""


def wall_deriver(event: Event):
    """A function ``(session_number, set_no) -> {pile name: tiles}`` for ``event``: the rule set's
    tiles, piles, fingerprint and the effective key are computed once (docs/walls.md)."""
    ruleset = event.get_ruleset()
    multiset = ruleset.multiset()
    piles = [(p.name, p.size) for p in ruleset.piles]
    key = derivation.effective_key(event.master_seed, event.public_value or None)
    fingerprint = ruleset.fingerprint

    def derive(session_number: int, set_no: int) -> dict[str, list[str]]:
        wall = derivation.shuffle(multiset, derivation.wall_key(key, event.uid, session_number, set_no, fingerprint))
        return derivation.lay_out(wall, piles)

    return derive


@transaction.atomic
def generate_walls(event: Event, session_number: int) -> list[WallSet]:
    """Derive and store every wall set of session ``session_number``; returns them by set number.

    Idempotent: stored sets are kept (the derivation is a pure function, so they are equal).
    Raises WallError when the master seed is revealed (the walls would follow from public data),
    when the event announced a public value that has not been entered yet (SquareDeal-style
    commitment, docs/walls.md) or the session number is out of range.
    """
    refuse_after_reveal(event, WallError)
    if event.needs_public_value:
        raise WallError(
            "public_value",
            _("this event mixes in a public value (%(source)s); enter it before generating walls") % {"source": event.public_value_source},
        )
    if not 1 <= session_number <= event.sessions_planned:
        raise WallError("session", _("session must be 1 to %(last)s") % {"last": event.sessions_planned})
    ruleset = event.get_ruleset()
    derive = wall_deriver(event)
    existing = set(event.wall_sets.filter(session_number=session_number).values_list("set_no", flat=True))
    new = [
        WallSet(event=event, session_number=session_number, set_no=set_no, piles=derive(session_number, set_no))
        for set_no in range(1, ruleset.hands_per_session + 1)
        if set_no not in existing
    ]
    stored = WallSet.objects.bulk_create(new)
    if not existing and all(wall.pk is not None for wall in stored):
        return stored  # already in set order, with their ids: no need to read 1,000 walls back
    return list(event.wall_sets.filter(session_number=session_number).order_by("set_no"))


def reserve_piles(event: Event, session_number: int, set_no: int, number: int) -> dict[str, list[str]]:
    """The piles (pile name → tiles) of reserve wall ``number`` (1, 2...) of one set, derived from
    the event's seed and public value by the rule of docs/walls.md, "Reserve walls" (different
    from the set's own wall and from every earlier reserve). Raises WallError ("seed") when the
    event holds no usable master seed (an export imported without it) or no different wall is
    left (:class:`walls.derivation.DerivationError`)."""
    ruleset = event.get_ruleset()
    try:
        key = derivation.effective_key(event.master_seed, event.public_value or None)
        sequence = derivation.reserve_sequence(key, event.uid, session_number, set_no, number, ruleset.multiset(),
                                               ruleset.fingerprint)
    except derivation.DerivationError as exc:
        raise WallError("seed", str(exc)) from exc
    return derivation.lay_out(sequence[-1][1], [(p.name, p.size) for p in ruleset.piles])


def _session_tables(event: Event, session_number: int, tables: Iterable) -> list[Table]:
    """``tables`` (Table rows or their ids) as rows, each checked to be a table of session
    ``session_number`` of ``event`` (every table of a session plays every set of it). Raises
    WallError ("tables") naming the others."""
    try:
        wanted = {t.pk if isinstance(t, Table) else int(t) for t in tables}
    except (TypeError, ValueError):
        raise WallError("tables", _("choose tables by ticking them in the list")) from None
    found = list(Table.objects.filter(pk__in=wanted, group__session__event=event, group__session__number=session_number)
                 .order_by("number"))
    others = wanted - {t.pk for t in found}
    if others:
        numbers = sorted(Table.objects.filter(pk__in=others).values_list("number", flat=True))
        raise WallError("tables", _("table %(tables)s does not play session %(session)s of this event: tick only its tables")
                        % {"tables": ", ".join(map(str, numbers)) or "?", "session": session_number})
    return found


def _move_tables(reserve: ReserveWall, tables: list[Table]) -> None:
    """``tables`` play ``reserve``: each leaves any other reserve wall of the same set (a table
    plays one wall of a set)."""
    for other in ReserveWall.objects.filter(event=reserve.event_id, session_number=reserve.session_number,
                                            set_no=reserve.set_no).exclude(pk=reserve.pk):
        other.tables.remove(*tables)
    reserve.tables.set(tables)


@transaction.atomic
def draw_reserve_wall(event: Event, session_number: int, set_no: int, *, reason: str, actor: str,
                      tables: Iterable = (), number: int | None = None) -> ReserveWall:
    """Draw the next reserve wall (R1, R2...) of a set spoiled before play and store it with the
    ``tables`` (Table rows or ids, of that session) that will play it instead of the set as
    prepared (docs/walls.md, "Reserve walls"). ``actor`` (who drew it) and ``reason`` are stored.

    ``number``, when given, is the reserve number the director's form expected to draw: a repeat
    of the same request (a double click) returns that reserve unchanged instead of drawing another.
    Raises WallError when the master seed is revealed ("seed"), without a reason ("reason"), before
    the set's walls exist ("set"), for a table of another session ("tables"), or when ``number``
    is beyond the next reserve ("number"). Scores are not touched here: the event service
    :func:`tournament.services.draw_reserve` rescores the set.
    """
    refuse_after_reveal(event, WallError)
    reason = (reason or "").strip()
    if not reason:
        raise WallError("reason", _("say why the set needs a reserve wall (tiles seen, set lost...)"))
    code = f"{session_number}-{set_no:02d}"
    # Locking the set's wall row numbers two reserves drawn at once R1 and R2, not R1 twice.
    if WallSet.objects.select_for_update().filter(event=event, session_number=session_number, set_no=set_no).first() is None:
        raise WallError("set", _("set %(code)s has no walls yet: prepare session %(session)s first")
                        % {"code": code, "session": session_number})
    rows = _session_tables(event, session_number, tables)
    drawn = ReserveWall.objects.filter(event=event, session_number=session_number, set_no=set_no)
    following = (drawn.aggregate(last=Max("number"))["last"] or 0) + 1
    if number is not None and number != following:
        if 1 <= number < following:
            return drawn.get(number=number)
        raise WallError("number", _("the next reserve wall of set %(code)s is R%(next)s: reload the page")
                        % {"code": code, "next": following})
    reserve = ReserveWall.objects.create(
        event=event, session_number=session_number, set_no=set_no, number=following,
        piles=reserve_piles(event, session_number, set_no, following), reason=reason, drawn_by=str(actor)[:150],
    )
    _move_tables(reserve, rows)
    return reserve


@transaction.atomic
def assign_reserve_tables(reserve: ReserveWall, tables: Iterable) -> list[Table]:
    """Set the tables (Table rows or ids, of the reserve's session) that play ``reserve``; a table
    ticked here leaves any other reserve wall of the same set, one left out plays the set as
    prepared (or another reserve). Returns the tables, by number. Idempotent. Raises WallError
    ("tables") for a table of another session. The event service
    :func:`tournament.services.set_reserve_tables` rescores the set."""
    rows = _session_tables(reserve.event, reserve.session_number, tables)
    _move_tables(reserve, rows)
    return rows
