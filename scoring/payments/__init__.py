"""Payment rules: a hand's outcome → each seat's score change (points, the rule set's unit).

Every rule of the seeds is declared once in :data:`PAYMENT_RULES` (:mod:`.registry`), with its
computation and what the rest of the project asks about it (whether outcomes are entered, which
inputs it takes, the hand values it accepts, whether the fan check applies); rule sets, the event
form and the table page read it.

- ``mcr``, ``mcr-duplicate-mahjongsoft``: :mod:`.mcr` (MCR and MahjongSoft duplicate MCR).
- ``riichi`` (the standard reference), ``souzu-2p`` and ``souzu-2p-honba-whole`` (docs/rules.md,
  "Two-player Souzu: payments", "Two-player Souzu: honba on a self-draw"): :mod:`.riichi`.
- ``shiragiku-3p`` (docs/rules.md, "Shiragiku three-player: payments and game flow"): :mod:`.three_player`.
- ``shield-tile`` (docs/rules.md, "Shield tile: payments and game end"): :mod:`.shield_tile`.
- ``yangzhou`` (docs/rules.md, "Yangzhou: payments"): :mod:`.yangzhou`; its named minimums
  :data:`YANGZHOU_MINIMUMS` (docs/rules.md, "Yangzhou: minimum").
- ``typed``: nothing is computed; the table types each seat's score change and
  :func:`validate_score_changes` checks it.

The range of every typed number of a rule set (hand values, fu, yakuman, honba, score changes
and deposits): :func:`input_ranges` (:mod:`.ranges`), read by the form, the API and the service;
:func:`read_whole` reads a typed number with its range.

The entry points: :func:`settle` (outcome → :class:`Settlement`: changes and deposit),
:func:`score_changes` (the changes alone), :func:`validate_score_changes`, :func:`describe`
(the result in one translated sentence). :class:`HandOutcome` is the outcome as the table
reports it (:meth:`HandOutcome.from_dict` reads forms and JSON); :class:`PaymentError` names the
field at fault.

Standalone: no Django import (messages are translated through :mod:`tournament.i18n` when Django
runs). See docs/scoring.md.
"""

from scoring.payments.core import (
    KINDS,
    MAX_HONBA,
    MAX_YAKUMAN,
    WINDS,
    HandOutcome,
    PaymentError,
    PaymentRule,
    Settlement,
    read_whole,
    signed_points,
)
from scoring.payments.mcr import BASE
from scoring.payments.registry import PAYMENT_RULES, score_changes, settle, validate_score_changes
from scoring.payments.ranges import InputRanges, input_ranges, largest_hand, ruleset_ranges, widest
from scoring.payments.riichi import FU_CHOICES
from scoring.payments.shield_tile import shield_tile_value
from scoring.payments.yangzhou import MINIMUMS as YANGZHOU_MINIMUMS
from scoring.payments.words import changes_words, describe

__all__ = [
    "signed_points",
    "BASE",
    "FU_CHOICES",
    "KINDS",
    "MAX_HONBA",
    "MAX_YAKUMAN",
    "PAYMENT_RULES",
    "WINDS",
    "YANGZHOU_MINIMUMS",
    "HandOutcome",
    "InputRanges",
    "PaymentError",
    "PaymentRule",
    "Settlement",
    "changes_words",
    "describe",
    "input_ranges",
    "largest_hand",
    "read_whole",
    "ruleset_ranges",
    "widest",
    "score_changes",
    "settle",
    "shield_tile_value",
    "validate_score_changes",
]
