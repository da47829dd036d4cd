"""The write path for wall sets: generation from the master seed.

Walls are secret until their set is released; who may read one is decided by
:mod:`scoring.visibility` alone. The derivation itself is :mod:`walls.derivation` (docs/walls.md).
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from tournament.errors import FieldError
from tournament.models import Event
from tournament.seating import refuse_after_reveal
from walls import derivation
from walls.models import WallSet


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


def derive_piles(event: Event, session_number: int, set_no: int) -> dict[str, list[str]]:
    """The piles (pile name → tiles) of one set, derived from the event's seed and public value."""
    return wall_deriver(event)(session_number, set_no)


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
