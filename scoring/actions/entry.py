"""Entering a hand result: the score changes (typed, or computed from the outcome), the table
and set, the entering player's PIN, and the result's history.

Every function is one transaction; every change writes a :class:`~scoring.models.ResultRevision`
(who, when, before, after, why). Validation rules come from :mod:`scoring.payments`; the
optional MCR fan check from :func:`scoring.actions.describe.check_fan`. The web form, the table
page, the API and the demo all call :func:`submit_result` — there is no other way to store a
result.

Concurrency: the unique constraint on (table, set) decides between two simultaneous entries
(the later insert waits for the earlier transaction and then fails).
"""

from __future__ import annotations

from typing import Any, cast

from django.db import IntegrityError, connection, transaction
from django.db.models import Exists, JSONField, Q, QuerySet, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import fan_check, visibility, wall_check
from scoring.actions import request_keys
from scoring.actions.describe import NOTE_KEYS, _describe, check_fan
from scoring.actions.errors import ResultError
from scoring.actions.seats import (Device, PinCounts, SeatHolder, account_seat, count_of, counts_from, pin_count_columns, pin_counts,
                                   pin_refusal_message, pin_wait, seat_actor)
from scoring.models import ConfirmationAttempt, HandResult, ResultRevision
from scoring.payments import (
    HandOutcome,
    InputRanges,
    PaymentError,
    changes_words,
    ruleset_ranges,
    settle,
    validate_score_changes,
)
from scoring.payments.counters import apply_fixed, carried_sticks_to, read_fixed
from scoring.payments.registry import PAYMENT_RULES
from tournament.models import Event, Table
from tournament.prepared import PreparedInsert, PreparedQuery
from tournament.table_plan import SessionPlan, table_plan
from walls.models import ReserveWall, WallSet


def _clean_changes(changes: dict[str, Any], ranges: InputRanges) -> dict[str, int]:
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


def _read_deposit(ranges: InputRanges, deposit: object) -> int:
    """A typed deposit within the rule set's range; ResultError ``deposit`` naming the range."""
    try:
        return ranges.read_deposit(deposit)
    except PaymentError as exc:
        raise ResultError("deposit", str(exc)) from exc


def compute_changes(event: Event, *, changes: dict[str, Any] | None, outcome: dict[str, Any] | None,
                    deposit: int | None = None, set_ref: tuple[int, int] | None = None) -> tuple[dict[str, int], dict[str, Any] | None, int]:
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

    ``set_ref``: ``(session, set)`` of the hand. Its honba and carried riichi sticks are the
    set's fixed ones (``Event.fixed_counters``, :mod:`scoring.payments.counters`; 0 unless the
    director fixed others): a typed ``honba`` that differs is refused (``honba``), carried
    sticks go to the first winner, and a won hand's changes then sum to their points.
    """
    ruleset = event.get_ruleset()
    seats = tuple(ruleset.seats)
    ranges = ruleset_ranges(ruleset)
    rule = PAYMENT_RULES.get(ruleset.payment_rule)
    fixed = read_fixed(event.fixed_counters, *set_ref) if set_ref and rule is not None else None
    carried = fixed.riichi * rule.stick if fixed and rule else 0
    if outcome:
        if not isinstance(outcome, dict) or not outcome.get("kind"):
            raise ResultError("outcome", _("give kind (discard, self_draw or draw), winners, discarder and fans"))
        try:
            given = {key: value for key, value in outcome.items() if key not in NOTE_KEYS}
            if fixed is not None and rule is not None and set_ref is not None:
                given = apply_fixed(given, fixed, rule, _("set %(session)s-%(set)s") % {"session": set_ref[0], "set": set_ref[1]})
            hand = HandOutcome.from_dict(given)
            settled = settle(ruleset.payment_rule, seats, hand, min_fan=ruleset.min_fan)
        except PaymentError as exc:
            raise ResultError(exc.field or "outcome", str(exc)) from exc
        computed = dict(settled.changes)
        collector = carried_sticks_to(seats, hand) if carried else None
        if collector is not None:
            computed[collector] += carried
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
    # sticks carried into the set: a winner collects them, so the changes then sum to their points
    collected = carried and sum(cleaned.values()) + deposit == carried
    try:
        validate_score_changes(cleaned, seats, zero_sum=ruleset.zero_sum and not collected, deposit=deposit)
    except PaymentError as exc:
        raise ResultError(exc.field or "changes", str(exc)) from exc
    return cleaned, stored, deposit


def read_winning_tile(outcome: dict[str, Any] | None) -> str | None:
    """The winning tile given with ``outcome`` (``outcome["winning_tile"]``), as one of the 34
    kinds of :data:`scoring.wall_check.KINDS` (a red five ``0p`` is read as its five ``5p``);
    None when not given (missing, None or blank). Raises ResultError (``winning_tile``) for any
    other value, or a winning tile given with a drawn hand."""
    value = (outcome or {}).get("winning_tile") if isinstance(outcome, dict) else None
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    tile = wall_check.kind_of(value.strip()) if isinstance(value, str) else None
    if tile not in wall_check.KINDS:
        raise ResultError("winning_tile", _("%(tile)s is not a tile kind: give one of 1m-9m, 1p-9p, 1s-9s or 1z-7z (East South "
                                            "West North White Green Red), or leave the winning tile out") % {"tile": repr(value)})
    if isinstance(outcome, dict) and outcome.get("kind") == "draw":
        raise ResultError("winning_tile", _("a drawn hand has no winning tile: clear the winning tile"))
    return tile


def played_wall(table: Table, set_no: int) -> dict[str, list[str]] | None:
    """The piles (pile name → tile codes) of the wall set ``table`` played as ``set_no``: the
    reserve wall the director ticked for the table (the latest, docs/walls.md, "Reserve walls"),
    else the set's stored wall; None when the set has no stored wall. One query."""
    session = table.group.session
    reserve = ReserveWall.objects.filter(event_id=session.event_id, session_number=session.number, set_no=set_no,
                                         tables=table.pk).order_by("-number").values("piles")[:1]
    row = (WallSet.objects.filter(event_id=session.event_id, session_number=session.number, set_no=set_no)
           .annotate(reserve=Subquery(reserve, output_field=JSONField())).values_list("piles", "reserve").first())
    if row is None:
        return None
    piles, reserve_piles = row
    return reserve_piles or piles


def check_wall(table: Table, set_no: int, stored: dict[str, Any] | None) -> dict[str, Any] | None:
    """The wall flag of an entry or correction (``HandResult.wall_flag``): ``{"problems": [...]}``
    when the winning tile or winning hand of the outcome ``stored`` (its notes ``winning_tile``
    and ``hand``) does not fit the wall ``table`` played as ``set_no`` (:func:`played_wall`,
    :func:`scoring.wall_check.check_entry`; problems as
    :meth:`~scoring.wall_check.WallProblem.to_dict`), else None. Nothing is checked when neither
    is given or the set has no stored wall; one query (the wall) otherwise.

    Never refuses: any answer to a table that varied with the wall would tell the table about a
    wall still in play (docs/security.md, "The wall check"). The entry is stored as typed,
    whether it fits or not, and the flag is kept apart from the outcome for the director."""
    if not stored or (not stored.get("winning_tile") and not stored.get("hand")):
        return None
    piles = played_wall(table, set_no)
    if piles is None:
        return None
    hand = fan_check.parse_hand(stored["hand"]) if stored.get("hand") else None
    winners = stored.get("winners") or []
    problems = wall_check.check_entry(
        table.group.session.event.get_ruleset(), piles, kind=stored["kind"], winner=winners[0] if winners else None,
        discarder=stored.get("discarder"), winning_tile=stored.get("winning_tile"), hand=hand)
    return {"problems": [p.to_dict() for p in problems]} if problems else None


def _prepare(table: Table, set_no: int, *, changes: dict[str, Any] | None, outcome: dict[str, Any] | None,
             deposit: int | None, entered_by_seat: str | None) -> tuple[dict[str, int], dict[str, Any] | None, int]:
    """Validated score changes, the outcome JSON to store (outcome plus notes) and the deposit.
    Not checked against the wall: the caller keeps that apart (:func:`check_wall`)."""
    event = table.group.session.event
    hand_text = str((outcome or {}).get("hand") or "").strip()
    winning_tile = read_winning_tile(outcome)
    cleaned, stored, deposit = compute_changes(event, changes=changes, outcome=outcome, deposit=deposit,
                                               set_ref=(table.group.session.number, set_no))
    if hand_text:
        stored = check_fan(event, set_no, stored, hand_text)
    if winning_tile and stored is not None:
        hand_tile = wall_check.kind_of(fan_check.parse_hand(hand_text).winning_tile) if hand_text else winning_tile
        if hand_tile != winning_tile:
            raise ResultError("winning_tile", _("the winning tile %(tile)s is not the hand's winning tile %(hand)s: give the same "
                                                "tile in both, or clear one") % {"tile": winning_tile, "hand": hand_tile})
        stored = {**stored, "winning_tile": winning_tile}
    if entered_by_seat:
        seats = tuple(event.get_ruleset().seats)
        if entered_by_seat not in seats:
            raise ResultError("entered_by_seat", _("unknown seat %(seat)s: choose one of %(seats)s, or leave it blank")
                              % {"seat": repr(entered_by_seat), "seats": ", ".join(seats)})
        stored = {**(stored or {}), "entered_by_seat": entered_by_seat}
    return cleaned, stored, deposit


def find_table(event: Event, number: Any, session_number: int | None = None) -> Table:
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


def _checks(previous: bool, count_wrong: bool, keyed: bool) -> PreparedQuery:
    """The one read of :func:`_check_set_at_table` (the table's row annotated with what is
    asked), compiled once per process for each choice of what is asked: called with the table's
    id, then the session id, the group and position of the copy's previous table and the set
    (when ``previous``), the device's id (when ``count_wrong``), the request key (when ``keyed``),
    then the sets of the table's earlier blocks."""

    def build(table_id: int, *given: Any) -> QuerySet:
        rest = list(given)
        asked: dict[str, Any] = {}
        if previous:
            session_id, group, position, set_no = rest[:4]
            del rest[:4]
            asked["arrived"] = Exists(HandResult.objects.filter(
                table__group__session_id=session_id, table__group__number=group, table__position=position, set_no=set_no))
        if count_wrong:
            asked.update(pin_count_columns(table_id, rest.pop(0)))
        if keyed:
            asked.update(request_keys.key_columns(rest.pop(0), table=table_id))
        if rest:  # the earlier blocks' sets
            asked["earlier"] = count_of(HandResult.objects.filter(table_id=table_id, set_no__in=rest))
        return Table.objects.filter(pk=table_id).annotate(**asked).values(*asked, "pk")

    return PreparedQuery(Table, build)


_CHECKS = {(p, c, k): _checks(p, c, k) for p in (False, True) for c in (False, True) for k in (False, True)}


def _check_set_at_table(plan: SessionPlan, table: Table, set_no: int, *, at_the_table: bool,
                        count_wrong: Device | None = None, request_key: str | None = None,
                        asked: str = "") -> tuple[PinCounts, int | None]:
    """Refuse a set the movement has not brought to ``table`` (the rule of
    :func:`_refuse_set_not_here`, which names the table holding it). Returns ``(wrong, repeat)``:
    with ``count_wrong`` (the device a PIN was typed on), the table's wrong PINs not yet cleared
    (:class:`~scoring.actions.seats.PinCounts`, what :func:`~scoring.actions.seats.pin_wait` limits),
    else none counted; with ``request_key``, the id of the result this table's entry with that key stored
    (the write is a repeat: nothing is refused, :mod:`scoring.actions.request_keys`), else None.

    One query in all (the table's results on the sets of its earlier blocks, whether the copy's
    previous table has entered the set, the wrong PINs, the key), none when there is nothing to
    ask (a set of the table's first block that no table plays before it, no PINs to count, no
    key); a refusal reads more to name the table holding the set."""
    block = plan.block_of(table, set_no)
    if block is None:
        _refuse_set_not_here(plan, table, set_no, at_the_table=at_the_table)
    earlier = [s for b, sets in plan.blocks(table) if block is not None and b < block for s in sets]
    previous = plan.previous_play(table, set_no) if at_the_table else None
    if not (earlier or previous is not None or count_wrong or request_key):
        return PinCounts(), None
    args: list[Any] = [table.pk]
    if previous is not None:
        args += [table.group.session_id, previous.group, previous.position, set_no]
    if count_wrong:
        args.append(count_wrong.id)
    if request_key:
        args.append(request_key)
    found = _CHECKS[(previous is not None, count_wrong is not None, bool(request_key))](*args, *earlier)[0]
    repeat = request_keys.check_repeat(found, "enter", asked)
    if repeat is None and (found.get("earlier", len(earlier)) < len(earlier) or found.get("arrived", True) is False):
        _refuse_set_not_here(plan, table, set_no, at_the_table=at_the_table)
    return counts_from(found), repeat


def check_set_here(plan: SessionPlan, table: Table, set_no: int) -> None:
    """Refuse, before anything is typed, a set that the movement has not brought to ``table``
    now (a scanned set label: :func:`scoring.table_views.scan`), as an entry at the table would be
    refused (:func:`submit_result`): ResultError ``set`` naming the table that holds it, or the
    table still playing it before. One query; more to name the table in a refusal."""
    _check_set_at_table(plan, table, set_no, at_the_table=True)


def _refuse_set_not_here(plan: SessionPlan, table: Table, set_no: int, *, at_the_table: bool) -> None:
    """Refuse a set the movement has not brought to ``table`` (docs/seating.md, "The table plan"),
    naming the table that holds it: a set of a later block than the table's current one (the
    first with a set not entered), or, for an entry made ``at_the_table`` (a seated player's PIN),
    a set whose physical copy is still at the table that plays it before (that table has not
    entered it). The director, typing from paper score sheets, may enter a block's sets in any
    order. One query (the results of the table and of the
    copy's previous table); one more to name a table in a refusal. Raises the refusal; returns
    None when the set is at the table after all (:func:`_check_set_at_table` asked first)."""
    blocks = plan.blocks(table)
    block = plan.block_of(table, set_no)
    if block is None:
        last = sum(len(sets) for _b, sets in blocks)
        raise ResultError("set", _("set %(set)s is not played in this session: sets are 1 to %(last)s") % {"set": set_no, "last": last})
    previous = plan.previous_play(table, set_no) if at_the_table else None
    session = table.group.session
    wanted = Q(table=table)
    if previous is not None:
        wanted |= Q(table__group__session=session, table__group__number=previous.group, table__position=previous.position,
                    set_no=set_no)
    rows = list(HandResult.objects.filter(wanted).values_list("table_id", "set_no"))
    done = {s for t, s in rows if t == table.pk}
    current = next((b for b, sets in blocks if any(s not in done for s in sets)), None)
    m = plan.movement
    if current is not None and block > current:
        index = m.table_of(set_no, current, table.group.number - 1)
        where = (index // m.n_tables + 1, index % m.n_tables)
    elif previous is not None and not any(t != table.pk for t, _s in rows):
        holder = Table.objects.filter(group__session=session, group__number=previous.group,
                                      position=previous.position).values_list("number", flat=True).first()
        raise ResultError("set", _("set %(set)s is still being played at Table %(holder)s: enter it once Table %(holder)s "
                                   "has entered it") % {"set": set_no, "holder": holder})
    else:
        return
    holder = Table.objects.filter(group__session=session, group__number=where[0], position=where[1]).values_list(
        "number", flat=True).first()
    now = ", ".join(str(s) for s in blocks[current][1]) if current is not None else ""
    raise ResultError("set", _("set %(set)s is at Table %(holder)s now; Table %(table)s plays sets %(sets)s now")
                      % {"set": set_no, "holder": holder, "table": table.number, "sets": now})


def sets_not_arrived(plan: SessionPlan, table: Table, sets: list[int]) -> set[int]:
    """Those of ``sets`` whose physical copy is still at the table that plays it before ``table``
    (that table has not entered it: :meth:`tournament.table_plan.SessionPlan.previous_play`), so an
    entry of them at the table would be refused for now. One query (none when no set of ``sets``
    comes from another table)."""
    before = {s: p for s in sets if (p := plan.previous_play(table, s)) is not None}
    if not before:
        return set()
    wanted = Q()
    for set_no, play in before.items():
        wanted |= Q(table__group__number=play.group, table__position=play.position, set_no=set_no)
    entered = set(HandResult.objects.filter(wanted, table__group__session=table.group.session).values_list("set_no", flat=True))
    return set(before) - entered


_INSERT_RESULT = PreparedInsert(HandResult, ignore_conflicts=True)  # None: the table has a result on the set
_INSERT_REVISION = PreparedInsert(ResultRevision)
_INSERT_ATTEMPT = PreparedInsert(ConfirmationAttempt)


def store_attempt(table: Table, result: HandResult | None, seat: str, *, ok: bool, actor: str | None,
                  device: Device | None = None) -> ConfirmationAttempt:
    """Store a PIN attempt at ``table`` (one INSERT, compiled once per process:
    :class:`tournament.prepared.PreparedInsert`): right (``ok``) or wrong, of ``result`` (None: an
    entry refused before any result), by the player at ``seat`` ("" when the PIN is nobody's),
    ``actor`` cut to the field's 150 characters, typed on ``device``. Wrong ones count towards the
    device's and the table's limits (:func:`~scoring.actions.seats.pin_wait`)."""
    device = device or Device()
    return cast(ConfirmationAttempt, _INSERT_ATTEMPT(  # never None: conflicts are not ignored
        table=table, result=result, seat=seat, ok=ok, actor=(actor or "")[:150], device=device.id[:40],
        address=device.address[:64]))


def _revision(result: HandResult, action: str, actor: str, previous: dict[str, Any] | None = None, reason: str = "",
              request_key: str | None = None, asked: str = "") -> ResultRevision:
    """Store the history row of ``result`` as it is now, with the write's ``request_key`` and the
    digest of what it asked (``asked``: :func:`~scoring.actions.request_keys.digest`; one
    INSERT), and return it."""
    return cast(ResultRevision, _INSERT_REVISION(  # never None: conflicts are not ignored
        result=result, revision=result.revision, action=action, status=result.status, changes=result.changes,
        previous=previous, outcome=result.outcome, actor=actor, reason=reason, request_key=request_key,
        request_digest=asked if request_key else "",
    ))


def submit_result(table: Table, set_no: int, *, changes: dict[str, Any] | None = None, outcome: dict[str, Any] | None = None,
                  deposit: int | None = None, actor: str, entered_by_seat: str | None = None,
                  entry_pin: str | None = None, plan: SessionPlan | None = None,
                  request_key: str | None = None, director: bool = False, device: Device | None = None) -> HandResult:
    """Store a table's result on a set (status *entered*); returns it.

    ``request_key``: the key the device made for this entry (:mod:`scoring.actions.request_keys`).
    An entry of this table with the same key already stored makes this one a repeat: nothing is
    checked or written, and the stored result is returned as it is now, marked ``replayed``
    (also when the repeat races the first sending: the later one meets the stored row). A key
    already used for another write is refused (``request_key``, 422). Finding the key costs no
    statement of its own: it is asked in the checks' read.

    ``plan``: ``table``'s table plan when the caller has read it (:func:`tournament.table_plan.table_plan`,
    read here otherwise, with the table's lock when a PIN is checked): who holds each seat on
    ``set_no``, and whether the movement has brought the set to the table (docs/seating.md, "The
    table plan"). ``table`` comes with ``group__session__event`` loaded.

    **Statements.** At most six besides transaction control: the plan read (with the table's lock
    for a PIN; the lock alone when the plan is given), the checks in one (the movement, the
    table's wrong PINs: :func:`_check_set_at_table`), the result, its revision, the PIN's right
    attempt, the version bump (:meth:`tournament.models.Event.changed`, the last). One more when
    the table has a substitution and the plan is read here. The returned result carries its
    history (:func:`set_history`): the API answers without a read after the commit.

    ``changes``: seat → score change (points), with ``deposit`` (points left on the table, default
    0), or ``outcome``: ``{"kind": "discard"|"self_draw"|"draw", "winners": [...], "discarder":
    seat, "fans": [...], the rule's other inputs (``fu``, ``yakuman``, ``honba``, ``riichi``,
    ``tenpai``, ``shielded``, ``liable``), "hand": optional winning hand, "winning_tile": optional
    tile kind}`` from which the rule set's payment rule computes the changes and
    the deposit (:func:`compute_changes`; with ``hand``, the fan is counted and a difference
    flagged: :func:`~scoring.actions.describe.check_fan`; with ``hand`` or ``winning_tile``, both are
    checked against the wall the table played, one more statement: :func:`check_wall`; an entry
    that does not fit is stored as typed, with ``wall_flag`` for the director, and answered
    exactly as one that fits).
    ``entered_by_seat``: the seat of the player entering, if known; that seat's PIN cannot
    confirm the result.

    **The entering player's PIN.** ``entry_pin``: the PIN the player entering typed, to show the
    seat is theirs (every page a player can reach asks for it: without it, a player could name
    another seat as the entering one and then confirm their own result). When given, it must be
    the PIN of the player seated at ``entered_by_seat`` (which is then required); it is checked
    like a confirmation PIN (:func:`~scoring.actions.confirmation.confirm_result`): a wrong one is stored as a wrong
    :class:`~scoring.models.ConfirmationAttempt` of the table (no result), typed on ``device``, and counts towards
    the device's and the table's limits (:func:`~scoring.actions.seats.pin_wait`), so PINs cannot be guessed
    through entries either; while the device waits, an entry with a PIN is refused (429, not counted). A right one is stored as a right attempt (with the seat) of
    the new result, and the result's ``entered_by`` and its history name the player and seat
    (:func:`~scoring.actions.seats.seat_actor`: ``"Wang Wei (S), Table 6"``; without a PIN, ``actor``). ``None`` or
    blank: not checked (the director, an API scorer account bound to the table, the demo and
    imports).

    **A scorer who plays at the table.** ``director``: the caller is the event's director. Anyone
    else entering without a PIN under an account that holds a seat of the table on ``set_no``
    (a player whose own account is also a scorer of their table) enters as that seat: naming
    another seat is refused (``entered_by_seat``, 403: that seat's PIN is needed), and a blank
    seat is stored as theirs, so their own PIN can never confirm the result
    (docs/security.md, "Threats", one player writing and confirming alone).

    Raises ResultError: set not in the session, or not brought to this table yet: a later block, or
    (an entry with ``entry_pin``) its copy still at the table before (``set``, naming that table), unknown
    seat or non-number (``changes.<seat>``), not zero-sum (``changes``), a hand value outside the
    rule's range or not a number (``fans``) and the other outcome fields of
    :func:`scoring.payments.settle`, a typed deposit that is not the outcome's (``deposit``), a
    winning hand that cannot be read (``hand``), a winning tile that is no tile kind, given with
    a draw or not the hand's (``winning_tile``), an unknown ``entered_by_seat`` or none with an ``entry_pin`` (``entered_by_seat``), a PIN that is not
    the entering seat's player's (``entry_pin``, 400) or a device held back by wrong PINs
    (``entry_pin``, 429), another seat named by a scorer account seated at the table without
    that seat's PIN (``entered_by_seat``, 403), or a result already stored for this table and set (``set``, status
    409, ``existing`` = that result, named in the message). No result is stored on error (a
    refused PIN's attempt is: it is committed, then the refusal raised); of two simultaneous
    entries exactly one is stored.
    """
    entry_pin = str(entry_pin or "").strip()
    request_key = request_keys.clean_key(request_key)
    asked = request_keys.digest("enter", table=table.pk, set=set_no, changes=changes, outcome=outcome, deposit=deposit,
                                seat=entered_by_seat or "") if request_key else ""
    refusal = None
    with transaction.atomic():
        if plan is None:  # the plan read locks the table's row for a PIN check (_check_entry_pin)
            plan = table_plan(table, lock="table" if entry_pin else None)
        elif entry_pin:
            _lock_table(table)
        wrong, repeat = _check_set_at_table(plan, table, set_no, at_the_table=bool(entry_pin),
                                            count_wrong=(device or Device()) if entry_pin else None, request_key=request_key,
                                            asked=asked)
        if repeat is not None:
            return request_keys.replayed(repeat, set_no=set_no)
        if not entry_pin and not director:
            entered_by_seat = _own_seat(plan, table, set_no, actor, entered_by_seat)
        cleaned, stored, deposit = _prepare(table, set_no, changes=changes, outcome=outcome, deposit=deposit,
                                            entered_by_seat=entered_by_seat)
        seat = None
        if entry_pin:
            seat, refusal = _check_entry_pin(plan, table, entered_by_seat, entry_pin, actor, set_no, wrong=wrong, device=device)
        if refusal is None:
            result = _INSERT_RESULT(  # one result per table and set: None when there is one already
                event=table.group.session.event, table=table, session_number=table.group.session.number, set_no=set_no,
                changes=cleaned, outcome=stored, wall_flag=check_wall(table, set_no, stored), deposit=deposit,
                entered_by=seat_actor(seat, table) if seat is not None else actor,
            )
            if result is None:
                existing = HandResult.objects.filter(table=table, set_no=set_no).select_related("event").first()
                if existing is None:  # another constraint refused the row (SQLite's OR IGNORE skips any)
                    raise IntegrityError(f"the result of table {table.number} on set {set_no} was not stored")
                if request_keys.repeat_in(existing, request_key, "enter", asked):  # the first sending won the race
                    return request_keys.replayed(existing.pk)
                values = {"table": table.number, "result": _describe(existing), "set": set_no}
                if existing.status == HandResult.Status.CONFIRMED:
                    message = _("Table %(table)s already has %(result)s for set %(set)s: ask the director to correct it") % values
                else:
                    message = _("Table %(table)s already has %(result)s for set %(set)s: check it and confirm it, or dispute it") % values
                raise ResultError("set", message, existing=existing, status=409)
            set_history(result, [_revision(result, "enter", result.entered_by, request_key=request_key, asked=asked)])
            if seat is not None:
                store_attempt(table, result, seat.seat, ok=True, actor=actor, device=device)
            # the director's live grid shows entered results; the public sees them once the set is released
            result.event.changed(public=visibility.released_now(result.event, result.session_number, set_no))
    if refusal is not None:
        raise refusal
    return cast(HandResult, result)  # stored here, or a repeat or a conflict raised above


def _own_seat(plan: SessionPlan, table: Table, set_no: int, actor: str, entered_by_seat: str | None) -> str | None:
    """The entering seat of an entry without a PIN (:func:`submit_result`): ``entered_by_seat`` as
    given, unless the account ``actor`` holds a seat of ``table`` on ``set_no``: then that seat (a
    blank one filled in), and another seat named is refused (``entered_by_seat``, 403)."""
    own = account_seat(plan, table, set_no, actor)
    if own is None:
        return entered_by_seat
    if entered_by_seat and entered_by_seat != own.seat:
        raise ResultError("entered_by_seat", _(
            "you play at seat %(own)s of this table: enter as seat %(own)s, or give the PIN of the player at seat "
            "%(seat)s (entry_pin)") % {"own": own.seat, "seat": entered_by_seat}, status=403)
    return own.seat


def set_history(result: HandResult, revisions: list[ResultRevision]) -> None:
    """Give ``result`` its history ``revisions`` (oldest first) as if read with
    ``prefetch_related("revisions")``: what the API answers with, from what the write has in
    hand (no read after the commit)."""
    history = ResultRevision._default_manager.get_queryset()
    # filtered as a related manager's prefetched queryset is (Django's deferred filter): the
    # filter is built only if something queries the history further
    history._deferred_filter = (False, (), {"result_id": result.pk})
    history._result_cache, history._prefetch_done = list(revisions), True  # as prefetch_related leaves it
    result._prefetched_objects_cache = {**getattr(result, "_prefetched_objects_cache", {}), "revisions": history}


_HISTORY = PreparedQuery(ResultRevision, lambda result_id: ResultRevision.objects.filter(result_id=result_id))


def read_history(result: HandResult) -> None:
    """Read ``result``'s history (its revisions, oldest first, as ``prefetch_related("revisions")``
    orders them) and give it to ``result`` (:func:`set_history`). One query, compiled once per
    process (:class:`tournament.prepared.PreparedQuery`)."""
    set_history(result, _HISTORY(result.pk))


def _lock_table(table: Table) -> None:
    """Lock ``table``'s row (``FOR NO KEY UPDATE`` where the database has it: inserts referring to
    the table are not blocked): PIN checks at a table run one after the other. One query."""
    _LOCK_TABLE(table.pk)


_LOCK_TABLE = PreparedQuery(Table, lambda table_id: Table.objects.select_for_update(
    no_key=connection.features.has_select_for_no_key_update).filter(pk=table_id).values_list("pk", flat=True))


def _check_entry_pin(plan: SessionPlan, table: Table, entered_by_seat: str | None, entry_pin: str, actor: str,
                     set_no: int | None = None, *, wrong: PinCounts | None = None,
                     device: Device | None = None) -> tuple[SeatHolder | None, ResultError | None]:
    """Check the entering (or correcting: :func:`~scoring.actions.confirmation.correct_result`) player's PIN
    (:func:`submit_result`): ``(the seat assignment, None)`` when ``entry_pin`` is the PIN of the
    player at ``entered_by_seat``, else ``(None, the refusal)``: a wrong PIN stores a wrong attempt
    of the table (``result`` None) typed on ``device``; a device held back by wrong PINs
    (:func:`~scoring.actions.seats.pin_wait`) is refused (429) without a check or an attempt. The
    table's row is locked first (:func:`_lock_table`), so two entries or corrections with a PIN at
    a table are checked one after the other and the limits hold. ``wrong``: the table's wrong
    PINs for ``device``, when the caller has locked the table's row and counted them since
    (:func:`_check_set_at_table`); None: lock and count here (two queries). The player at the
    seat is the one holding it on ``set_no`` in the table plan ``plan`` (a substitute enters with
    their own PIN, on the sets they hold)."""
    if not entered_by_seat:
        raise ResultError("entered_by_seat", _("choose who is entering: the PIN typed is checked against the player at that seat"))
    if wrong is None:
        _lock_table(table)
        wrong = pin_counts(table, device)
    wait = pin_wait(wrong, timezone.now())
    if wait:
        return None, ResultError("entry_pin", pin_refusal_message(wrong, wait), status=429, retry_after=wait)
    holder = plan.holders(table, set_no).get(entered_by_seat)
    seat = SeatHolder(entered_by_seat, holder) if holder is not None and holder.pin == entry_pin else None
    if seat is not None:
        return seat, None
    store_attempt(table, None, "", ok=False, actor=actor, device=device)
    return None, ResultError("entry_pin", _(
        "that is not the PIN of the player at seat %(seat)s: the player entering types their own 4-digit PIN")
        % {"seat": entered_by_seat})
