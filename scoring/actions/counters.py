"""The director fixes the honba and riichi sticks carried into each set (docs/scoring.md, "Fixed
honba and riichi sticks"): every table of a set starts from the same state, 0 honba and 0 sticks
unless fixed otherwise here. The rule and the checks are :mod:`scoring.payments.counters`;
result entry reads the stored values (:func:`scoring.actions.entry.compute_changes`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from scoring.actions.errors import ResultError
from scoring.models import HandResult
from scoring.payments import PAYMENT_RULES, PaymentError
from scoring.payments.counters import clean_fixed
from tournament.models import Event
from walls.models import WallSet


@transaction.atomic
def fix_counters(event: Event, values: Mapping[str, Mapping[str, Any]], *, actor: object) -> dict[str, dict[str, int]]:
    """Store the director's fixed counters ``values`` (``{"<session>-<set>": {"honba": n,
    "riichi": n}}``, every set the page shows; blank or 0 is the default) as the event's
    ``fixed_counters`` and audit the sets that changed (``fixed-counters``, detail
    ``{"changed": {"1-3": {"before": {...}, "after": {...}}}}``). One transaction, the event row
    locked; the stored par of the changed sets (``WallSet.par``, which counts them) is cleared.
    Returns the stored map (only the sets that are not 0 honba and 0 sticks).

    Raises ResultError naming the field (``honba.<session>-<set>``, ``riichi.<session>-<set>``,
    ``set``) for a count that is not a whole number in range, a counter the rule set does not
    use, or a change to a set that already has a result entered (correct nothing silently: the
    results were computed with the old values; 409)."""
    locked = Event.objects.select_for_update().get(pk=event.pk)
    ruleset = locked.get_ruleset()
    rule = PAYMENT_RULES[ruleset.payment_rule]
    try:
        cleaned = clean_fixed(values, rule, locked.sessions_planned, ruleset.hands_per_session)
    except PaymentError as exc:
        raise ResultError(exc.field, str(exc)) from exc
    before = locked.fixed_counters or {}
    changed = {key: {"before": before.get(key, {}), "after": cleaned.get(key, {})}
               for key in sorted(set(before) | set(cleaned)) if before.get(key, {}) != cleaned.get(key, {})}
    played = {f"{session}-{set_no}" for session, set_no in HandResult.objects.filter(event=locked).order_by()
              .values_list("session_number", "set_no").distinct()} if changed else set()
    for key in changed:
        if key in played:
            field = "honba" if changed[key]["before"].get("honba", 0) != changed[key]["after"].get("honba", 0) else "riichi"
            raise ResultError(f"{field}.{key}", _("set %(set)s already has results entered with the old values: they stay "
                                                  "as they are, so its honba and sticks cannot change now (delete or correct "
                                                  "those results first)") % {"set": key}, status=409)
    if changed:
        locked.fixed_counters = cleaned
        locked.save(update_fields=["fixed_counters"])
        locked.log("fixed-counters", actor, changed=changed)
        event.fixed_counters = cleaned
        # the par of those sets counted the old honba and sticks: computed again when next asked
        sets = Q()
        for key in changed:
            session, set_no = (int(part) for part in key.split("-"))
            sets |= Q(session_number=session, set_no=set_no)
        WallSet.objects.filter(sets, event=locked).update(par=None)
    return cleaned
