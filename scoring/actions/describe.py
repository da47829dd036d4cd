"""Reading stored hand results for people: the hand's sentence, the notes kept with an entry,
the prevalent wind and the optional MCR fan check (:mod:`scoring.fan_check`).

``HandResult.outcome`` holds the hand's outcome when it was entered that way
(:meth:`scoring.payments.HandOutcome.to_dict`: ``kind``, ``winners``, ``discarder``, ``fans`` and
the rule's other inputs that are not at their default) and these notes (:data:`NOTE_KEYS`):
``entered_by_seat`` (the seat that entered the result; its PIN cannot confirm it), ``hand`` (the
winning hand in the notation of :mod:`scoring.fan_check`), ``winning_tile`` (one of the 34 kinds,
:data:`scoring.wall_check.KINDS`) and ``flags`` (``[{"check": "fan", "entered", "counted", "fans",
"message"}]`` when the counted fan differs from the entered one: it depends on the hand typed
alone, never on the wall). Whether the entry fits the wall is kept apart, in
``HandResult.wall_flag`` (:func:`scoring.actions.entry.check_wall`, :func:`wall_flag_words`).
``insist`` (sent by phones and clients made when a table could insist on an entry that did not
fit the wall) is ignored and never stored.
A result of typed score changes keeps only its notes there, or None.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from scoring import fan_check, wall_check
from scoring.par import prevalent_of
from scoring.actions.errors import ResultError
from scoring.models import HandResult
from scoring.payments import PAYMENT_RULES, describe
from tournament.models import Event

NOTE_KEYS = ("entered_by_seat", "hand", "flags", "winning_tile", "insist")
"""Keys of a stored ``HandResult.outcome`` that are notes about the entry, not the outcome."""


def _outcome_part(stored: dict | None) -> dict | None:
    """The outcome of a stored ``HandResult.outcome`` without the notes; None when the result was
    typed (no ``kind``)."""
    if not stored or not stored.get("kind"):
        return None
    return {key: value for key, value in stored.items() if key not in NOTE_KEYS}


def describe_outcome(ruleset, outcome: dict | None, changes: dict[str, int], deposit: int = 0) -> str:
    """The sentence of a hand for people (:func:`scoring.payments.describe`): who won, how and
    for how much, then each seat's change, in the page's language ("East won on South's discard,
    24 fan: E +56, S -32, W -8, N -8"); typed changes (``outcome`` None or without a kind) give
    the changes alone. ``outcome``: a stored ``HandResult.outcome`` or revision outcome (notes are
    left out); ``deposit``: points left on the table."""
    return describe(ruleset.payment_rule, tuple(ruleset.seats), _outcome_part(outcome), changes, deposit)


def describe_result(result: HandResult, ruleset=None) -> str:
    """:func:`describe_outcome` of a stored result; ``ruleset``: the event's, when the caller has
    it (saves reading the event once per result)."""
    return describe_outcome(ruleset or result.event.get_ruleset(), result.outcome, result.changes, result.deposit)


def _describe(result: HandResult) -> str:
    changes = describe_result(result)
    values = {"id": result.pk, "changes": changes, "status": str(result.get_status_display()).lower(),
              "entered_by": result.entered_by, "confirmed_by": result.confirmed_by}
    if result.confirmed_by:
        return _("result #%(id)s (%(changes)s; %(status)s, entered by %(entered_by)s, confirmed by %(confirmed_by)s)") % values
    return _("result #%(id)s (%(changes)s; %(status)s, entered by %(entered_by)s)") % values


def prevalent_wind(event: Event, set_no: int) -> str:
    """The prevalent wind of set ``set_no``: the wind of its round (docs/rules.md, "Duplicate MCR: sessions and seats": a session is the
    East, South, West and North rounds of one hand per seat each)."""
    return prevalent_of(set_no, len(event.get_ruleset().seats))


def check_fan(event: Event, set_no: int, outcome: dict | None, hand_text: str) -> dict:
    """Count the fan of the winning hand ``hand_text`` (notation of :mod:`scoring.fan_check`)
    with PyMahjongGB and return ``outcome`` with ``hand`` and, when the counted fan differs from
    the entered one, a ``flags`` entry ``{"check": "fan", "entered", "counted", "fans",
    "message"}``. Without the library the hand is kept unchecked (no flag).

    Raises ResultError (``hand``): the rule set is not MCR, the hand was not won by exactly one
    player, or the hand cannot be read or is not a winning hand.
    """
    if not PAYMENT_RULES[event.get_ruleset().payment_rule].fan_check:
        raise ResultError("hand", _("the fan check is for MCR rule sets: clear the hand"))
    if outcome is None or outcome["kind"] == "draw" or len(outcome["winners"]) != 1:
        raise ResultError("hand", _("give the winning hand only when one player won: clear the hand, or enter the winner and fan"))
    try:
        hand = fan_check.parse_hand(hand_text)
    except fan_check.HandNotationError as exc:
        raise ResultError("hand", _("%(error)s; example: 123456789m 11z 22z +1z") % {"error": exc}) from exc
    checked = {**outcome, "hand": " ".join(hand_text.split())}
    try:
        counted = fan_check.count_fan(hand, seat_wind=outcome["winners"][0], prevalent_wind=prevalent_wind(event, set_no),
                                      self_drawn=outcome["kind"] == "self_draw")
    except fan_check.FanCheckUnavailable:
        return checked
    except fan_check.HandNotationError as exc:
        raise ResultError("hand", str(exc)) from exc
    entered = outcome["fans"][0]
    if counted.total != entered:
        checked["flags"] = [{
            "check": "fan", "entered": entered, "counted": counted.total, "fans": [list(f) for f in counted.fans],
            "message": f"fan entered {entered}, the hand counts {counted.total} ({counted.describe()})",
        }]
    return checked


def result_notes(result: HandResult) -> dict:
    """The notes of a stored result: ``{"entered_by_seat": seat or None, "hand": str or None,
    "flags": [...]}``, and ``"winning_tile"`` when one was given."""
    stored = result.outcome or {}
    notes = {"entered_by_seat": stored.get("entered_by_seat"), "hand": stored.get("hand"), "flags": stored.get("flags") or []}
    if stored.get("winning_tile"):
        notes["winning_tile"] = stored["winning_tile"]
    return notes


def wall_flag_words(result: HandResult) -> str | None:
    """The words of ``result``'s wall flag in the active language ("does not fit the wall: the
    winning tile 5p is not among East's draws (D1-D21)"), or None when it fits or was not
    checked. Tells about the wall: show it only to whom :func:`scoring.visibility.can_see_set`
    allows (the director and staff, everyone once the set is released)."""
    flag = result.wall_flag
    return wall_check.flag_message(flag.get("problems") or ()) if flag else None


def wall_flags(results) -> list[dict]:
    """The entries among ``results`` (stored :class:`~scoring.models.HandResult` rows with their
    table loaded) that do not fit the wall (``wall_flag``): ``[{"result", "table" (its number),
    "seat" (the winner), "problems" [messages in the active language]}]`` by table number. For
    whom may see the set's wall (a flag names tiles of the wall)."""
    flagged = []
    for result in results:
        if result.wall_flag:
            problems = [wall_check.problem_message(p) for p in result.wall_flag.get("problems") or ()]
            flagged.append({"result": result, "table": result.table.number,
                            "seat": ((result.outcome or {}).get("winners") or [None])[0], "problems": problems})
    return sorted(flagged, key=lambda f: f["table"])
