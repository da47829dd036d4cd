"""Rule sets: the tiles of a wall set, how its wall is cut into piles, and the scoring frame.

- :mod:`walls.rulesets.model`: :class:`RuleSet`, :class:`Pile`, :class:`Slot` and the checks
  every rule set passes (piles, slots and the dead-wall numbering are described there).
- :mod:`walls.rulesets.custom`: :func:`custom_ruleset` builds and checks a rule set from a tile
  set and a layout (:data:`LAYOUTS`).
- :mod:`walls.rulesets.presets`: :data:`PRESETS`, every rule set of the seeds
  (docs/rules.md, "Sources") plus the standard references, and :func:`get_ruleset`.

The payment rules a rule set may name live in their registry,
:data:`scoring.payments.PAYMENT_RULES` (re-exported here).

Standalone: no Django import (error messages are translated through :mod:`tournament.i18n` when
Django runs).
"""

from scoring.payments import PAYMENT_RULES
from walls.rulesets.custom import LAYOUTS, custom_ruleset
from walls.rulesets.model import WINDS, Pile, RuleSet, RuleSetError
from walls.rulesets.presets import PRESETS, TILES_136, TILES_144, get_ruleset

__all__ = [
    "LAYOUTS",
    "PAYMENT_RULES",
    "PRESETS",
    "TILES_136",
    "TILES_144",
    "WINDS",
    "Pile",
    "RuleSet",
    "RuleSetError",
    "custom_ruleset",
    "get_ruleset",
]
