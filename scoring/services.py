"""Write paths for hand results (enter, confirm, dispute, correct) and converted scores.

Every function is one transaction; every change writes a :class:`ResultRevision` (who, when,
before, after, why). Validation rules come from :mod:`scoring.payments`; converted scores from
:func:`scoring.comparisons.converted_scores`; the optional MCR fan check from
:mod:`scoring.fan_check`. The web form, the table page, the API and the demo all call
:func:`submit_result` — there is no other way to store a result. Standings are read side
(:mod:`scoring.reports`).

``HandResult.outcome`` holds the hand's outcome when it was entered that way
(:meth:`scoring.payments.HandOutcome.to_dict`: ``kind``, ``winners``, ``discarder``, ``fans`` and
the rule's other inputs that are not at their default) and these notes (:data:`NOTE_KEYS`):
``entered_by_seat`` (the seat that entered the result; its PIN cannot confirm it), ``hand`` (the
winning hand in the notation of :mod:`scoring.fan_check`) and ``flags`` (``[{"check": "fan", "entered", "counted", "fans",
"message"}]`` when the counted fan differs from the entered one: stored, but shown to the
director). A result of typed score changes keeps only its notes there, or None.

Concurrency: the unique constraint on (table, set) decides between two simultaneous entries
(the later insert waits for the earlier transaction and then fails). Confirm, dispute and
correct lock the comparison scope (group or session row) and then the result row
(``select_for_update``): they run one after the other on a set, so the set is rescored with
every committed confirmation, and a confirmation given for revision *n* is refused once a
correction made revision *n+1*.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import Count
from django.utils.translation import gettext as _

from scoring import fan_check, visibility
from scoring.comparisons import TableSeats, complete_scopes, version_labels, versioned_scores
from scoring.models import ConfirmationAttempt, ConversionTable, FouledPlay, HandResult, ResultRevision, SetScore
from scoring.payments import (
    PAYMENT_RULES, HandOutcome, InputRanges, PaymentError, changes_words, describe, ruleset_ranges, settle, signed_points,
    validate_score_changes,
)
from tournament.errors import FieldError
from tournament.i18n import seat_label
from tournament.models import AuditEntry, Event, Group, Player, Session, Table
from tournament.seating import table_of_set, table_schedule, table_seat_holders
from walls.models import ReserveWall


class ResultError(FieldError):
    """A result that cannot be stored. ``field`` names the input (``set``, ``table``,
    ``changes.E``, ``fans``, ``hand``, ``entered_by_seat``, ``pin``, ``revision``...),
    ``message`` says what is wrong and how to fix it; ``existing`` is the stored result a
    duplicate collided with; ``status`` the HTTP status an adapter answers with (400, or 409 for
    a conflict, 403 for a forbidden change)."""

    def __init__(self, field: str, message: str, existing: HandResult | None = None, status: int = 400):
        super().__init__(field, message)
        self.existing = existing
        self.status = status


NOTE_KEYS = ("entered_by_seat", "hand", "flags")
"""Keys of a stored ``HandResult.outcome`` that are notes about the entry, not the outcome."""

def _outcome_part(stored: dict | None) -> dict | None:
    """The outcome of a stored ``HandResult.outcome`` without the notes; None when the result was
    typed (no ``kind``)."""
    if not stored or not stored.get("kind"):
        return None
    return {key: value for key, value in stored.items() if key not in NOTE_KEYS}


def _clean_changes(changes: dict, ranges: InputRanges) -> dict[str, int]:
    """Typed score changes ``{seat: points}`` as ints, each within the rule set's range
    (``ranges.changes`` either way: :mod:`scoring.payments.ranges`). ResultError ``changes``
    for no mapping, ``changes.<seat>`` for an unknown or missing seat, a value that is no whole
    number or out of range (the message gives the range)."""
    seats = ranges.seats
    if not isinstance(changes, dict):
        raise ResultError("changes", _("give the score changes as seat → points, e.g. {\"E\": 24, \"S\": -8}"))
    cleaned = {}
    for seat, value in changes.items():
        if seat not in seats:
            raise ResultError(f"changes.{seat}", _("unknown seat %(seat)s: seats are %(seats)s") % {"seat": repr(seat), "seats": ", ".join(seats)})
        if isinstance(value, bool):
            raise ResultError(f"changes.{seat}", _("the score change must be a whole number of points"))
        try:
            cleaned[seat] = ranges.change(seat, value)
        except PaymentError as exc:
            raise ResultError(f"changes.{seat}", str(exc)) from exc
    for seat in seats:
        if seat not in cleaned:
            raise ResultError(f"changes.{seat}", _("the score change of seat %(seat)s is missing: type 0 if %(seat)s neither won nor paid")
                              % {"seat": seat})
    return cleaned


def _read_deposit(ranges: InputRanges, deposit) -> int:
    """A typed deposit within the rule set's range; ResultError ``deposit`` naming the range."""
    try:
        return ranges.read_deposit(deposit)
    except PaymentError as exc:
        raise ResultError("deposit", str(exc)) from exc


def compute_changes(event: Event, *, changes: dict | None, outcome: dict | None,
                    deposit: int | None = None) -> tuple[dict[str, int], dict | None, int]:
    """Validate typed ``changes`` or compute them from ``outcome`` with the rule set's payment rule.

    ``outcome``: what :meth:`scoring.payments.HandOutcome.from_dict` reads (``kind``, ``winners``,
    ``discarder``, ``fans`` and the rule's other inputs: ``fu``, ``yakuman``, ``honba``,
    ``riichi``, ``tenpai``, ``shielded``, ``liable``); notes (``hand``, ``entered_by_seat``,
    ``flags``) are ignored here. It is settled with :func:`scoring.payments.settle` (the rule
    set's ``min_fan`` raises the lowest hand value), which gives the changes and the deposit
    (riichi sticks left on the table). ``deposit``: the deposit typed with the changes (points,
    None: not given, 0 for typed changes).

    Returns ``(changes seat → points, outcome as HandOutcome.to_dict() or None, deposit)``.
    Raises ResultError naming the field: a PaymentError's field (``fans``, ``fu``, ``winners``...),
    ``changes`` for typed changes that differ from the outcome's, ``deposit`` for a typed deposit
    that differs from the outcome's or is not a whole number from 0 to the rule set's most,
    ``changes.<seat>`` for a bad typed change (no whole number, or beyond the rule set's range:
    the largest hand it pays times its seats, :func:`scoring.payments.input_ranges`).
    """
    ruleset = event.get_ruleset()
    seats = tuple(ruleset.seats)
    ranges = ruleset_ranges(ruleset)
    if outcome:
        if not isinstance(outcome, dict) or not outcome.get("kind"):
            raise ResultError("outcome", _("give kind (discard, self_draw or draw), winners, discarder and fans"))
        try:
            hand = HandOutcome.from_dict({key: value for key, value in outcome.items() if key not in NOTE_KEYS})
            settled = settle(ruleset.payment_rule, seats, hand, min_fan=ruleset.min_fan)
        except PaymentError as exc:
            raise ResultError(exc.field or "outcome", str(exc)) from exc
        computed = dict(settled.changes)
        if changes:
            typed = _clean_changes(changes, ranges)
            if typed != computed:
                raise ResultError("changes", _("the score changes %(typed)s do not match the outcome, which gives %(computed)s")
                                  % {"typed": changes_words(seats, typed), "computed": changes_words(seats, computed)})
        if deposit is not None and _read_deposit(ranges, deposit) != settled.deposit:
            raise ResultError("deposit", _("the deposit %(typed)s does not match the outcome, which leaves %(computed)s on the table: "
                                           "leave the deposit out") % {"typed": deposit, "computed": settled.deposit})
        changes, stored, deposit = computed, hand.to_dict(), settled.deposit
    elif changes is None:
        raise ResultError("changes", _("enter each seat's score change, or the hand's outcome"))
    else:
        stored = None
        deposit = 0 if deposit is None else _read_deposit(ranges, deposit)
    cleaned = _clean_changes(changes, ranges)
    try:
        validate_score_changes(cleaned, seats, zero_sum=ruleset.zero_sum, deposit=deposit)
    except PaymentError as exc:
        raise ResultError(exc.field or "changes", str(exc)) from exc
    return cleaned, stored, deposit


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


def prevalent_wind(event: Event, set_no: int) -> str:
    """The prevalent wind of set ``set_no``: the wind of its round (docs/rules.md, "Duplicate MCR: sessions and seats": a session is the
    East, South, West and North rounds of one hand per seat each)."""
    seats = tuple(event.get_ruleset().seats)
    return fan_check.WINDS[((set_no - 1) // len(seats)) % len(fan_check.WINDS)]


def check_fan(event: Event, set_no: int, outcome: dict, hand_text: str) -> dict:
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
    "flags": [...]}``."""
    stored = result.outcome or {}
    return {"entered_by_seat": stored.get("entered_by_seat"), "hand": stored.get("hand"), "flags": stored.get("flags") or []}


def _prepare(table: Table, set_no: int, *, changes, outcome, deposit, entered_by_seat) -> tuple[dict[str, int], dict | None, int]:
    """Validated score changes, the outcome JSON to store (outcome plus notes) and the deposit."""
    event = table.group.session.event
    hand_text = str((outcome or {}).get("hand") or "").strip()
    cleaned, stored, deposit = compute_changes(event, changes=changes, outcome=outcome, deposit=deposit)
    if hand_text:
        stored = check_fan(event, set_no, stored, hand_text)
    if entered_by_seat:
        seats = tuple(event.get_ruleset().seats)
        if entered_by_seat not in seats:
            raise ResultError("entered_by_seat", _("unknown seat %(seat)s: choose one of %(seats)s, or leave it blank")
                              % {"seat": repr(entered_by_seat), "seats": ", ".join(seats)})
        stored = {**(stored or {}), "entered_by_seat": entered_by_seat}
    return cleaned, stored, deposit


def find_table(event: Event, number, session_number: int | None = None) -> Table:
    """The table with event-wide ``number`` in ``session_number`` (default: the latest seated
    session). Raises ResultError (``table``) naming the tables that exist."""
    if session_number is None:
        session_number = event.sessions.order_by("-number").values_list("number", flat=True).first()
    tables = Table.objects.filter(group__session__event=event, group__session__number=session_number).select_related("group__session__event")
    try:
        return tables.get(number=int(number))
    except (Table.DoesNotExist, TypeError, ValueError):
        numbers = sorted(tables.values_list("number", flat=True))
        if numbers:
            message = _("no table %(number)s in session %(session)s: it has tables %(first)s to %(last)s") % {
                "number": repr(number), "session": session_number, "first": numbers[0], "last": numbers[-1]}
        else:
            message = _("no table %(number)s in session %(session)s: it has no tables") % {"number": repr(number), "session": session_number}
        raise ResultError("table", message) from None


def _check_set_at_table(table: Table, set_no: int) -> None:
    """Refuse a set this table does not hold now, naming the table that does."""
    schedule = table_schedule(table)
    slot_of = {s: slot for slot, sets in schedule for s in sets}
    if set_no not in slot_of:
        raise ResultError("set", _("set %(set)s is not played in this session: sets are 1 to %(last)s") % {"set": set_no, "last": len(slot_of)})
    done = set(HandResult.objects.filter(table=table).values_list("set_no", flat=True))
    current = next((slot for slot, sets in schedule if any(s not in done for s in sets)), None)
    if current is not None and slot_of[set_no] > current:
        holder = table.group.tables.get(position=table_of_set(table.group, set_no, current))
        now = ", ".join(str(s) for s in schedule[current][1])
        raise ResultError("set", _("set %(set)s is at Table %(holder)s now; Table %(table)s plays sets %(sets)s now")
                          % {"set": set_no, "holder": holder.number, "table": table.number, "sets": now})


def _revision(result: HandResult, action: str, actor: str, previous=None, reason: str = "") -> None:
    ResultRevision.objects.create(
        result=result, revision=result.revision, action=action, status=result.status, changes=result.changes,
        previous=previous, outcome=result.outcome, actor=actor, reason=reason,
    )


def _describe(result: HandResult) -> str:
    changes = describe_result(result)
    values = {"id": result.pk, "changes": changes, "status": str(result.get_status_display()).lower(),
              "entered_by": result.entered_by, "confirmed_by": result.confirmed_by}
    if result.confirmed_by:
        return _("result #%(id)s (%(changes)s; %(status)s, entered by %(entered_by)s, confirmed by %(confirmed_by)s)") % values
    return _("result #%(id)s (%(changes)s; %(status)s, entered by %(entered_by)s)") % values


def submit_result(table: Table, set_no: int, *, changes: dict | None = None, outcome: dict | None = None,
                  deposit: int | None = None, actor: str, entered_by_seat: str | None = None,
                  entry_pin: str | None = None) -> HandResult:
    """Store a table's result on a set (status *entered*); returns it.

    ``changes``: seat → score change (points), with ``deposit`` (points left on the table, default
    0), or ``outcome``: ``{"kind": "discard"|"self_draw"|"draw", "winners": [...], "discarder":
    seat, "fans": [...], the rule's other inputs (``fu``, ``yakuman``, ``honba``, ``riichi``,
    ``tenpai``, ``shielded``, ``liable``), "hand": optional winning hand}`` from which the rule
    set's payment rule computes the changes and the deposit (:func:`compute_changes`; with
    ``hand``, the fan is counted and a difference flagged: :func:`check_fan`).
    ``entered_by_seat``: the seat of the player entering, if known; that seat's PIN cannot
    confirm the result.

    **The entering player's PIN.** ``entry_pin``: the PIN the player entering typed, to show the
    seat is theirs (every page a player can reach asks for it: without it, a player could name
    another seat as the entering one and then confirm their own result). When given, it must be
    the PIN of the player seated at ``entered_by_seat`` (which is then required); it is checked
    like a confirmation PIN (:func:`confirm_result`): a wrong one is stored as a wrong
    :class:`ConfirmationAttempt` of the table (no result) and counts towards the table's limit
    (``settings.CONFIRM_PIN_LIMIT_PER_TABLE``), so PINs cannot be guessed through entries either;
    while the table's PIN confirmation is locked, every entry with a PIN is refused (and counted)
    until the director unlocks it. A right one is stored as a right attempt (with the seat) of
    the new result, and the result's ``entered_by`` and its history name the player and seat
    (:func:`seat_actor`: ``"Wang Wei (S), Table 6"``; without a PIN, ``actor``). ``None`` or
    blank: not checked (the director, an API scorer account bound to the table, the demo and
    imports).

    Raises ResultError: set not in the session or held by another table now (``set``), unknown
    seat or non-number (``changes.<seat>``), not zero-sum (``changes``), a hand value outside the
    rule's range or not a number (``fans``) and the other outcome fields of
    :func:`scoring.payments.settle`, a typed deposit that is not the outcome's (``deposit``), a
    winning hand that cannot be read (``hand``), an unknown ``entered_by_seat`` or none with an ``entry_pin`` (``entered_by_seat``), a PIN that is not
    the entering seat's player's (``entry_pin``, 400) or a table locked by wrong PINs
    (``entry_pin``, 429), or a result already stored for this table and set (``set``, status
    409, ``existing`` = that result, named in the message). No result is stored on error (a
    refused PIN's attempt is: it is committed, then the refusal raised); of two simultaneous
    entries exactly one is stored.
    """
    entry_pin = str(entry_pin or "").strip()
    refusal = None
    with transaction.atomic():
        _check_set_at_table(table, set_no)
        cleaned, stored, deposit = _prepare(table, set_no, changes=changes, outcome=outcome, deposit=deposit,
                                            entered_by_seat=entered_by_seat)
        seat = None
        if entry_pin:
            seat, refusal = _check_entry_pin(table, entered_by_seat, entry_pin, actor, set_no)
        if refusal is None:
            try:
                with transaction.atomic():
                    result = HandResult.objects.create(
                        event=table.group.session.event, table=table, session_number=table.group.session.number, set_no=set_no,
                        changes=cleaned, outcome=stored, deposit=deposit,
                        entered_by=seat_actor(seat, table) if seat is not None else actor,
                    )
            except IntegrityError:
                existing = HandResult.objects.filter(table=table, set_no=set_no).select_related("event").first()
                if existing is None:
                    raise
                values = {"table": table.number, "result": _describe(existing), "set": set_no}
                if existing.status == HandResult.Status.CONFIRMED:
                    message = _("Table %(table)s already has %(result)s for set %(set)s: ask the director to correct it") % values
                else:
                    message = _("Table %(table)s already has %(result)s for set %(set)s: check it and confirm it, or dispute it") % values
                raise ResultError("set", message, existing=existing, status=409) from None
            _revision(result, "enter", result.entered_by)
            if seat is not None:
                ConfirmationAttempt.objects.create(table=table, result=result, seat=seat.seat, ok=True, actor=(actor or "")[:150])
    if refusal is not None:
        raise refusal
    return result


def _check_entry_pin(table: Table, entered_by_seat: str | None, entry_pin: str, actor: str,
                     set_no: int | None = None) -> tuple[SeatHolder | None, ResultError | None]:
    """Check the entering (or correcting: :func:`correct_result`) player's PIN
    (:func:`submit_result`): ``(the seat assignment, None)`` when ``entry_pin`` is the PIN of the
    player at ``entered_by_seat``, else ``(None, the refusal)`` after storing a wrong attempt of
    the table (``result`` None). The table's row is locked first (``FOR NO KEY UPDATE`` where the
    database has it: inserts referring to the table are not blocked), so two entries or
    corrections with a PIN at a table are checked one after the other and the limit holds. The
    player at the seat is the one holding it on ``set_no`` (:func:`seat_players`: a substitute
    enters with their own PIN, on the sets they hold)."""
    if not entered_by_seat:
        raise ResultError("entered_by_seat", _("choose who is entering: the PIN typed is checked against the player at that seat"))
    no_key = connection.features.has_select_for_no_key_update
    list(Table.objects.select_for_update(no_key=no_key).filter(pk=table.pk).values_list("pk", flat=True))
    if confirmation_locks(table)["table"]:
        seat = None
        refusal = ResultError("entry_pin", _("too many wrong PINs at this table: ask the director to unlock it"), status=429)
    else:
        holder = seat_players(table, set_no).get(entered_by_seat)
        seat = SeatHolder(entered_by_seat, holder) if holder is not None and holder.pin == entry_pin else None
        refusal = None if seat is not None else ResultError("entry_pin", _(
            "that is not the PIN of the player at seat %(seat)s: the player entering types their own 4-digit PIN")
            % {"seat": entered_by_seat})
    if refusal is not None:
        ConfirmationAttempt.objects.create(table=table, result=None, seat="", ok=False, actor=(actor or "")[:150])
    return seat, refusal


@dataclass(frozen=True)
class SeatHolder:
    """A seat of a table and the :class:`~tournament.models.Player` holding it on a set."""

    seat: str
    player: Player


def seat_actor(holder: SeatHolder, table: Table) -> str:
    """How the history (:class:`ResultRevision` ``actor``, ``entered_by``, ``confirmed_by``)
    names a change made by a seated player whose PIN (or account) showed it was them:
    ``"Wang Wei (W), Table 6"`` — the player, the seat, the table. At most 150 characters."""
    return f"{holder.player.name} ({holder.seat}), {table}"[:150]


def _account_seat(table: Table, set_no: int, actor: str) -> SeatHolder | None:
    """The seat of ``table`` whose holder on ``set_no`` plays under the account named ``actor``
    (a player using their own account), else None."""
    if not actor:
        return None
    return next((SeatHolder(seat, player) for seat, player in sorted(seat_players(table, set_no).items())
                 if player.user_id and player.user.get_username() == actor), None)


def seat_players(table: Table, set_no: int | None = None) -> dict[str, Player]:
    """``{seat: Player}`` (team loaded) of whoever held each seat of ``table`` on ``set_no``
    (None: now): :func:`tournament.seating.table_seat_holders`. The table page's names, the entering and confirming
    PINs follow it. Three queries."""
    held = table_seat_holders([table], set_no)[table.pk]
    players = Player.objects.select_related("team", "user").in_bulk([player for player, _team in held.values()])
    return {seat: players[player] for seat, (player, _team) in held.items() if player in players}


def seated_player_for_pin(table: Table, pin: str, exclude_seat: str | None = None,
                          set_no: int | None = None) -> SeatHolder | None:
    """The seat of ``table`` whose holder on ``set_no`` (:func:`seat_players`; None: now) has PIN
    ``pin`` (other than ``exclude_seat``, the seat that entered the result), or None; None for an
    empty PIN."""
    pin = str(pin or "").strip()
    if not pin:
        return None
    for seat, player in sorted(seat_players(table, set_no).items()):
        if player.pin == pin and seat != exclude_seat:
            return SeatHolder(seat, player)
    return None


def confirmation_locks(table: Table) -> dict:
    """Where PIN confirmation is locked at ``table`` by wrong PINs not yet cleared by the
    director: ``{"table": bool, "results": {result id, ...}, "wrong": {result id: count}}``.
    Limits: ``settings.CONFIRM_PIN_LIMIT_PER_RESULT`` and ``CONFIRM_PIN_LIMIT_PER_TABLE``. One
    query."""
    wrong = dict(ConfirmationAttempt.objects.filter(table=table, ok=False, cleared=False).order_by()
                 .values("result_id").annotate(n=Count("pk")).values_list("result_id", "n"))
    per_result = settings.CONFIRM_PIN_LIMIT_PER_RESULT
    return {
        "table": sum(wrong.values()) >= settings.CONFIRM_PIN_LIMIT_PER_TABLE,
        "results": {pk for pk, n in wrong.items() if pk is not None and n >= per_result},
        "wrong": wrong,
    }


def _lock(result: HandResult) -> HandResult:
    """Lock the result's comparison scope (its group, or its session when the whole field is
    compared), then the result row, and return the row as stored now.

    Confirm, dispute and correct all take the locks in this order, so two of them on the same set
    run one after the other: the later one sees the earlier one's result when it rescores the set
    (otherwise the last two confirmations of a set, each seeing the other uncommitted, would both
    leave it unscored), and they cannot deadlock.
    """
    if result.event.comparison == Event.Comparison.FIELD:
        scope = Session.objects.filter(groups__tables__results=result.pk)
    else:
        scope = Group.objects.filter(tables__results=result.pk)
    list(scope.select_for_update(of=("self",)).values_list("pk", flat=True))
    return HandResult.objects.select_for_update(of=("self",)).select_related("event", "table__group__session__event").get(pk=result.pk)


def confirm_result(result: HandResult, *, actor: str, pin: str | None = None, director: bool = False,
                   revision: int | None = None) -> HandResult:
    """Confirm an entered result: the director, or a PIN of a player seated at the table at
    another seat than the one that entered it (bridge: the opponents confirm). ``revision``: the
    revision the confirming player saw; if the result changed since, nothing is confirmed. Then
    rescores the set. ``actor``: who is typing (the account, or the table's scorer), for the
    attempt's record; a PIN confirmation is recorded as by the PIN's player.

    **The entering seat.** The PIN of the seat that entered the result never confirms it. Every
    page a player can reach asks who is entering and that player's own PIN, and requires both
    (the table page, the entry form of a table login or scorer; :func:`submit_result` checks the
    PIN), so a player cannot name another seat as the entering one and then confirm their own
    result. A result without an entering seat was entered by the
    director, by an account through the API (where ``entered_by_seat`` stays optional for a
    scorer role bound to the table) or by the demo and imports. For such a result the seat of a
    player whose account entered it (``entered_by`` is that account's name) counts as the
    entering seat; any other seated player's PIN confirms it.

    **Wrong PINs** are limited: once a result has ``settings.CONFIRM_PIN_LIMIT_PER_RESULT``
    wrong PINs (default 5) it is locked, and once a table has ``CONFIRM_PIN_LIMIT_PER_TABLE``
    (default 10) over all its results, every PIN confirmation at the table is locked; a locked
    confirmation is refused even with the right PIN, until the director unlocks it
    (:func:`unlock_confirmation`). The director's own confirmation is never locked. Every PIN
    typed at a result that a PIN could confirm is stored as a :class:`ConfirmationAttempt`
    (``ok`` when it confirmed, with the seat); a refused one is stored too (the attempt is
    committed, then the refusal raised), and a PIN typed at a locked confirmation counts as
    wrong. Refusals that come before any PIN is read (confirmed, changed, disputed, no PIN typed)
    store none. Wrong PINs typed by the player entering (:func:`submit_result`) count towards the
    table's limit too.

    Raises ResultError: already confirmed (``status``, 409), disputed and not the director
    (``status``, 409), changed since ``revision`` (``revision``, 409), no PIN (``pin``, 400),
    locked by wrong PINs (``pin``, 429), a PIN of nobody at the table or of the entering seat
    (``pin``, 400).
    """
    refusal = None
    with transaction.atomic():
        result = _lock(result)
        if result.status == HandResult.Status.CONFIRMED:
            raise ResultError("status", _("this result was already confirmed by %(who)s") % {"who": result.confirmed_by},
                              existing=result, status=409)
        if revision is not None and int(revision) != result.revision:
            raise ResultError("revision", _("the result changed while you confirmed it: it is now %(result)s; "
                                            "check the new score changes and confirm again") % {"result": _describe(result)},
                              existing=result, status=409)
        if not director:
            if result.status == HandResult.Status.DISPUTED:
                raise ResultError("status", _("this result is disputed: the director confirms or corrects it"), existing=result, status=409)
            if not str(pin or "").strip():  # nothing typed: no attempt, so empty requests cannot lock a table
                raise ResultError("pin", _("type your 4-digit PIN"))
            table = result.table
            entering = result_notes(result)["entered_by_seat"]
            if not entering and result.entered_by:
                entering = next((seat for seat, player in sorted(seat_players(table, result.set_no).items())
                                 if player.user_id and player.user.get_username() == result.entered_by), None)
            locks = confirmation_locks(table)
            seat = None
            if result.pk in locks["results"]:
                refusal = ResultError("pin", _("too many wrong PINs for this result: ask the director to unlock it"), status=429)
            elif locks["table"]:
                refusal = ResultError("pin", _("too many wrong PINs at this table: ask the director to unlock it"), status=429)
            else:
                seat = seated_player_for_pin(table, pin, exclude_seat=entering, set_no=result.set_no)
                if seat is None:
                    if entering and seated_player_for_pin(table, pin, set_no=result.set_no) is not None:
                        refusal = ResultError("pin", _("seat %(seat)s entered this result: a player of another seat confirms it with their PIN")
                                              % {"seat": seat_label(entering)})
                    else:
                        refusal = ResultError("pin", _("that PIN belongs to no player at this table: the confirming player types their own 4-digit PIN"))
            ConfirmationAttempt.objects.create(table=table, result=result, seat=seat.seat if seat else "", ok=seat is not None,
                                               actor=(actor or "")[:150])
            if seat is not None:
                actor = seat_actor(seat, table)
        if refusal is None:
            result.status = HandResult.Status.CONFIRMED
            result.confirmed_by = actor
            result.revision += 1
            result.save(update_fields=["status", "confirmed_by", "revision", "updated_at"])
            _revision(result, "confirm", actor)
            rescore_set(result.event, result.session_number, result.set_no, result.table.group_id)
    if refusal is not None:
        raise refusal
    return result


@transaction.atomic
def unlock_confirmation(table: Table, result: HandResult | None = None, *, actor: str) -> int:
    """The director unlocks PIN confirmation at ``table``: the wrong PINs counted against
    ``result`` (or, without a result, against the whole table) are marked cleared, and an
    :class:`~tournament.models.AuditEntry` (``unlock-confirmation``) records who, where and how
    many. Returns the number of attempts cleared."""
    attempts = ConfirmationAttempt.objects.filter(table=table, ok=False, cleared=False)
    if result is not None:
        attempts = attempts.filter(result=result)
    cleared = attempts.update(cleared=True)
    AuditEntry.objects.create(
        event=table.group.session.event, action="unlock-confirmation", actor=actor,
        detail={"table": table.number, "table_id": table.pk, "result": result.pk if result else None,
                "set": result.set_no if result else None, "cleared": cleared},
    )
    return cleared


@transaction.atomic
def dispute_result(result: HandResult, *, actor: str, reason: str, director: bool) -> HandResult:
    """Mark a result disputed (a seat disagrees); the director then corrects or confirms it.
    Once a result is confirmed only the director reopens it. When ``actor`` is the account of a
    player seated at the table on that set, the history names that player and seat
    (:func:`seat_actor`); a table login's dispute carries no seat. Raises ResultError
    (``reason``) without a reason, (``status``, 403) for a confirmed result and not the
    director."""
    if not reason.strip():
        raise ResultError("reason", _("say what is disputed"))
    result = _lock(result)
    if result.status == HandResult.Status.CONFIRMED and not director:
        raise ResultError("status", _("this result is confirmed: only the director can dispute it now"), status=403)
    result.status = HandResult.Status.DISPUTED
    result.revision += 1
    result.save(update_fields=["status", "revision", "updated_at"])
    known = None if director else _account_seat(result.table, result.set_no, actor)
    _revision(result, "dispute", seat_actor(known, result.table) if known else actor, reason=reason)
    rescore_set(result.event, result.session_number, result.set_no, result.table.group_id)
    return result


def correct_result(result: HandResult, *, actor: str, reason: str, director: bool, changes: dict | None = None,
                   outcome: dict | None = None, deposit: int | None = None, entered_by_seat: str | None = None,
                   entry_pin: str | None = None) -> HandResult:
    """Change a stored result, keeping the old one in the history.

    **The director** may always correct, without a PIN (the result stays or becomes confirmed,
    the entering seat stays recorded; ``entered_by_seat`` and ``entry_pin`` are ignored).
    **Anyone else** (a table login, a scorer role, an API scorer) corrects only an unconfirmed
    result, unless the event's ``scorer_corrections``
    setting is off (then only the director corrects: ``status``, 403), and a correction at the
    table is as strong as an entry: ``entered_by_seat`` names the seat of the player correcting
    and ``entry_pin`` is that player's own PIN, both required. The PIN is checked exactly like
    the entry PIN (:func:`_check_entry_pin`: the player holding the seat on this set, a
    substitute included; a wrong one stored as a wrong :class:`ConfirmationAttempt` of the table
    and counted towards ``settings.CONFIRM_PIN_LIMIT_PER_TABLE``; refused with 429 while the
    table is locked). The corrected result becomes that seat's entry: ``entered_by_seat`` is the
    correcting seat, ``entered_by`` and the revision's actor name the player and seat
    (:func:`seat_actor`), the status is *entered*, and it needs the PIN of another seat (or the
    director) to be confirmed — so no player can both change a result and confirm it. Once a
    result is confirmed only the director reopens it (docs/security.md).

    A reason is required once a result is confirmed or disputed. A new winning hand is checked
    again. ``changes`` or ``outcome`` as for :func:`submit_result`; typed changes keep the stored
    ``deposit`` unless one is given, an outcome computes its own.

    Raises ResultError: ``status`` (403), ``reason``, the hand's fields of
    :func:`submit_result`, no correcting seat or an unknown one (``entered_by_seat``, 400), no
    PIN (``entry_pin``, 400: nothing stored, no attempt), a PIN not the correcting seat's
    player's (``entry_pin``, 400) or a table locked by wrong PINs (``entry_pin``, 429). Nothing
    is changed on error; a refused PIN's attempt is stored (committed, then the refusal raised).
    """
    entry_pin = str(entry_pin or "").strip()
    refusal = None
    with transaction.atomic():
        result = _lock(result)
        if not director and not result.event.scorer_corrections:
            raise ResultError("status", _("only the director corrects results in this event (the setting “scorers may correct "
                                          "unconfirmed results” is off): dispute the result instead"), status=403)
        confirmed = result.status == HandResult.Status.CONFIRMED
        if confirmed and not director:
            raise ResultError("status", _("this result is confirmed: only the director can correct it now"), status=403)
        if (confirmed or result.status == HandResult.Status.DISPUTED) and not reason.strip():
            raise ResultError("reason", _("give the reason for correcting a confirmed or disputed result"))
        if not director:
            if not entered_by_seat:
                raise ResultError("entered_by_seat", _("choose who is correcting: the correction becomes that player's entry, "
                                                       "and a player of another seat confirms it with their PIN"))
            if not entry_pin:  # nothing typed: no attempt, so empty requests cannot lock a table
                raise ResultError("entry_pin", _("type your own 4-digit PIN: a correction at the table is made by a seated "
                                                 "player, like an entry"))
        if not outcome and deposit is None:
            deposit = result.deposit  # typed changes keep the sticks left on the table unless retyped
        entering = entered_by_seat if entered_by_seat and not director else result_notes(result)["entered_by_seat"]
        cleaned, stored, deposit = _prepare(result.table, result.set_no, changes=changes, outcome=outcome, deposit=deposit,
                                            entered_by_seat=entering)
        seat = None
        if entry_pin and not director:
            seat, refusal = _check_entry_pin(result.table, entered_by_seat, entry_pin, actor, result.set_no)
        if refusal is None:
            who = seat_actor(seat, result.table) if seat is not None else actor
            previous = result.changes
            result.changes, result.outcome, result.deposit = cleaned, stored, deposit
            result.status = HandResult.Status.CONFIRMED if director else HandResult.Status.ENTERED
            result.confirmed_by = actor if director else ""
            if seat is not None:
                result.entered_by = who
            result.revision += 1
            result.save()
            _revision(result, "correct", who, previous=previous, reason=reason)
            if seat is not None:
                ConfirmationAttempt.objects.create(table=result.table, result=result, seat=seat.seat, ok=True,
                                                   actor=(actor or "")[:150])
            rescore_set(result.event, result.session_number, result.set_no, result.table.group_id)
    if refusal is not None:
        raise refusal
    return result


def _scopes(event: Event, session_number: int, group_id: int | None = None) -> list[tuple[Group | None, list[Table]]]:
    tables = Table.objects.filter(group__session__event=event, group__session__number=session_number).select_related("group")
    if event.comparison == Event.Comparison.FIELD:
        return [(None, list(tables))]
    if group_id is not None:
        tables = tables.filter(group_id=group_id)
    by_group = defaultdict(list)
    for table in tables:
        by_group[table.group].append(table)
    return list(by_group.items())


@transaction.atomic
def rescore_set(event: Event, session_number: int, set_no: int, group_id: int | None = None) -> int:
    """Recompute the converted scores of one set; returns how many were stored.

    ``group_id``: rescore only that group's comparison (what a change to one of its results can
    affect); ignored when the whole field is compared. None rescores every group of the session.

    A comparison scope (one group, or the whole field) is scored once every table in it has a
    confirmed result on the set; until then its scores are removed. The scores are those of
    :func:`scoring.comparisons.versioned_scores` (team method: a team's score change is the sum
    of its members', docs/rules.md, "Duplicate MCR: team event"; individual method: each player against the datum of the same
    seat), which is :func:`~scoring.comparisons.converted_scores` unless tables played different
    versions of the set (:func:`play_versions`: fouled plays, reserve walls; Law 87 adapted with
    the event's ``fouled_min_tables`` and ``fouled_adjusted_points``). Each seat's result is
    credited to whoever held the seat on the set (:func:`tournament.seating.table_seat_holders`: a substitute on
    the sets of its substitution, docs/scoring.md "Substitutions"). Each stored score records
    its datum, conversion table, version and whether it is an artificial adjusted score.
    Then the set is released (made public) if every table of the session has a confirmed result
    on it (:func:`scoring.visibility.release_if_finished`).
    """
    table_model = ConversionTable.objects.current(event)
    conversion = table_model.as_table()
    by_team = event.method == Event.Method.TEAM
    field = event.comparison == Event.Comparison.FIELD
    versions = play_versions(event, session_number, set_no)
    stored = 0
    for group, tables in _scopes(event, session_number, group_id):
        SetScore.objects.filter(event=event, session_number=session_number, set_no=set_no, group=group).delete()
        seats = table_seat_holders(tables, set_no)
        seating = {t.pk: TableSeats(session_number, t.group.number, t.number, seats[t.pk]) for t in tables}
        results = HandResult.objects.filter(table__in=tables, set_no=set_no, status=HandResult.Status.CONFIRMED).values_list(
            "table_id", "set_no", "changes")
        for rows in complete_scopes(seating, results, field=field).values():
            scores = versioned_scores(rows, {t.number: versions.get(t.pk, "") for t in tables}, conversion,
                                      event.datum_method, by_team=by_team, min_tables=event.fouled_min_tables,
                                      adjusted_points=event.fouled_adjusted_points)
            SetScore.objects.bulk_create(
                SetScore(event=event, session_number=session_number, set_no=set_no, group=group,
                         team_id=score.key if by_team else None, player_id=None if by_team else score.key,
                         score_change=score.score_change, datum=score.converted.datum,
                         difference=score.converted.difference, points=score.converted.points,
                         conversion_table=table_model, version=score.version, adjusted=score.adjusted)
                for score in scores)
            stored += len(scores)
    visibility.release_if_finished(event, session_number, set_no)
    return stored


def play_versions(event: Event, session_number: int, set_no: int) -> dict[int, str]:
    """Which version of set ``set_no`` each table of session ``session_number`` played:
    ``{table id: label}`` for the tables that did not play it as prepared (a table missing from
    it played the set as prepared, ``""``). A fouled mark (:class:`~scoring.models.FouledPlay`,
    ``"F1"``...) wins over a reserve wall the table played (:class:`walls.models.ReserveWall`'s
    ``tables``, ``"R1"``...): :func:`scoring.comparisons.version_labels`. docs/scoring.md,
    "Fouled sets and reserve walls". Two queries."""
    reserves = ReserveWall.tables.through.objects.filter(
        reservewall__event=event, reservewall__session_number=session_number, reservewall__set_no=set_no,
    ).values_list("table_id", "reservewall__number")
    fouled = FouledPlay.objects.filter(event=event, session_number=session_number, set_no=set_no).values_list("table_id", "version")
    return version_labels(reserves, fouled)


MAX_FOULED_VERSION = 99
"""The highest fouled version number a director may give (versions group tables: a handful)."""


def _lock_scope(event: Event, table: Table) -> None:
    """Lock the comparison scope of ``table`` (its group, or its session when the field is
    compared), as :func:`_lock` does for a result: a fouled mark and a confirmation on the same
    set run one after the other."""
    if event.comparison == Event.Comparison.FIELD:
        scope = Session.objects.filter(pk=table.group.session_id)
    else:
        scope = Group.objects.filter(pk=table.group_id)
    list(scope.select_for_update(of=("self",)).values_list("pk", flat=True))


@transaction.atomic
def mark_fouled(event: Event, table: Table, set_no: int, *, version: int = 1, reason: str, actor: str) -> FouledPlay:
    """The director marks ``table``'s play of set ``set_no`` fouled (the Laws of Duplicate Bridge,
    Law 87, adapted: docs/scoring.md, "Fouled sets and reserve walls"): the set was not the same
    deal there as at the other tables. ``version`` (1, 2...) groups the tables that played the
    same wrong deal. Marking again updates the mark (version, reason); marking again with the
    same version and reason changes nothing. Writes an :class:`~tournament.models.AuditEntry`
    (``fouled-marked``: table, session, set, version, reason, previous version) and rescores
    the set (:func:`rescore_set`). Returns the mark.

    Raises ResultError: no reason (``reason``), a version that is not a whole number from 1 to
    99 (``version``), a table of another event (``table``), a set the table does not play in
    its session (``set``).
    """
    reason = str(reason or "").strip()
    if not reason:
        raise ResultError("reason", _("give the reason the set was fouled at this table, e.g. 'two tiles swapped between piles'"))
    number = signed_points(version)
    if number is None or not 1 <= number <= MAX_FOULED_VERSION:
        raise ResultError("version", _("the version must be a whole number from 1 to %(max)s: tables that played the same wrong "
                                       "set share a number") % {"max": MAX_FOULED_VERSION})
    version = number
    table = Table.objects.select_related("group__session").get(pk=table.pk)
    if table.group.session.event_id != event.pk:
        raise ResultError("table", _("Table %(table)s is not a table of this event") % {"table": table.number})
    _check_table_plays(table, set_no)
    _lock_scope(event, table)
    session_number = table.group.session.number
    fouled = FouledPlay.objects.select_for_update().filter(table=table, set_no=set_no).first()
    previous = fouled.version if fouled is not None else None
    if fouled is not None and fouled.version == version and fouled.reason == reason:
        return fouled
    if fouled is None:
        fouled = FouledPlay.objects.create(event=event, table=table, session_number=session_number, set_no=set_no,
                                           version=version, reason=reason, marked_by=str(actor)[:150])
    else:
        fouled.version, fouled.reason, fouled.marked_by = version, reason, str(actor)[:150]
        fouled.save(update_fields=["version", "reason", "marked_by"])
    AuditEntry.objects.create(event=event, action="fouled-marked", actor=str(actor)[:150], detail={
        "table": table.number, "table_id": table.pk, "session": session_number, "set": set_no, "version": version,
        "reason": reason, "previous_version": previous})
    rescore_set(event, session_number, set_no, table.group_id)
    return fouled


def _check_table_plays(table: Table, set_no: int) -> None:
    """Refuse (``set``) a set that ``table`` does not play in its session (the movement's
    schedule, :func:`tournament.seating.table_schedule`)."""
    played = sorted({s for _slot, sets in table_schedule(table) for s in sets})
    if set_no not in played:
        raise ResultError("set", _("Table %(table)s does not play set %(set)s in session %(session)s: it plays sets %(sets)s")
                          % {"table": table.number, "set": set_no, "session": table.group.session.number,
                             "sets": ", ".join(str(s) for s in played)})


@transaction.atomic
def clear_fouled(fouled: FouledPlay, *, actor: str, reason: str = "") -> None:
    """The director's undo of :func:`mark_fouled`: the table's play of the set counts again as the
    version it played before (as prepared, or its reserve wall). Writes an
    :class:`~tournament.models.AuditEntry` (``fouled-cleared``: table, session, set, the version
    cleared, the mark's reason and ``reason``) and rescores the set. Clearing a mark already
    cleared does nothing."""
    table = Table.objects.select_related("group__session__event").get(pk=fouled.table_id)
    event = table.group.session.event
    _lock_scope(event, table)
    found = FouledPlay.objects.select_for_update().filter(pk=fouled.pk).first()
    if found is None:
        return
    found.delete()
    AuditEntry.objects.create(event=event, action="fouled-cleared", actor=str(actor)[:150], detail={
        "table": table.number, "table_id": table.pk, "session": found.session_number, "set": found.set_no,
        "version": found.version, "marked_reason": found.reason, "reason": str(reason or "").strip()})
    rescore_set(event, found.session_number, found.set_no, table.group_id)
