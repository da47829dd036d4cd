"""Confirming, disputing and correcting a stored hand result, and the director's unlocking of
PIN confirmation at a table.

Every function is one transaction; every change writes a :class:`~scoring.models.ResultRevision`
(who, when, before, after, why) and rescores the set (:func:`scoring.actions.rescoring.rescore_set`)
when its comparison was complete before the change or is complete after it (only then can a
converted score or a release change); otherwise it bumps the event's version alone. A
confirmation that leaves its comparison open is six statements (the table plan read with the
scope's lock, the result row locked with its wrong PINs and the scope's counts, the PIN's
attempt, the result, its revision, the version: one more when the table has a substitution); the
one that completes it adds the set's scoring for the scope, bounded by the scope's size.

**The answer without a read after the commit.** When the caller read the result with its
history (``prefetch_related("revisions")``, as the API does) the returned result carries that
history and the new revision, so the API answers from what is in hand.

Concurrency: confirm, dispute and correct lock the comparison scope (group or session row,
:func:`scoring.actions.locks.lock_scope`) and then the result row (``select_for_update``): they
run one after the other on a set, so the set is rescored with every committed confirmation, and
a confirmation given for revision *n* is refused once a correction made revision *n+1*.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import OuterRef, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import visibility
from scoring.actions import request_keys
from scoring.actions.describe import _describe, result_notes
from scoring.actions.entry import _check_entry_pin, _prepare, _revision, check_wall, read_history, set_history, store_attempt
from scoring.actions.errors import ResultError
from scoring.actions.rescoring import rescore_scope
from scoring.actions.seats import (Device, PinCounts, account_seat, count_of, counts_from, holder_for_pin, pin_count_columns,
                                   pin_refusal_message, pin_wait, seat_actor)
from scoring.models import ConfirmationAttempt, HandResult, ResultRevision
from tournament.i18n import seat_label
from tournament.models import Event, Group, Session, Table
from tournament.prepared import PreparedQuery, PreparedUpdate
from tournament.table_plan import SessionPlan, table_plan


@dataclass(frozen=True)
class Locked:
    """A result locked for a change (:func:`_lock`): the row as stored now (with its table, group,
    session and event loaded), the table's plan, and what the change needs to know, read under
    the locks: the table's wrong PINs not yet cleared, for the device asking (``pins``:
    :func:`~scoring.actions.seats.pin_wait` limits them), how many tables the result's comparison scope has and how many of the others have a confirmed
    result on its set."""

    result: HandResult
    plan: SessionPlan
    pins: PinCounts
    scope_tables: int
    others_confirmed: int
    key_found: dict[str, Any]

    def repeat(self, action: str, asked: str = "") -> HandResult | None:
        """The result as stored now when this write is a repeat of ``action`` with the same request
        key that asked the same (``asked``; :func:`scoring.actions.request_keys.check_repeat`:
        refused when the key was used for another write or another request), else None."""
        repeat = request_keys.check_repeat(self.key_found, action, asked)
        return None if repeat is None else request_keys.replayed(repeat)

    def complete(self, confirmed: bool) -> bool:
        """Whether the comparison of the result's set is complete (every table of the scope has a
        confirmed result on it) when the result is ``confirmed`` or not."""
        return self.others_confirmed + int(confirmed) >= self.scope_tables


def _table_of(result: HandResult) -> Table:
    """``result``'s table with its group, session and event: as the caller loaded it, else read
    (one query)."""
    table = result.table if HandResult.table.is_cached(result) else None
    if table is None or not Table.group.is_cached(table) or not Group.session.is_cached(table.group) \
            or not Session.event.is_cached(table.group.session):
        table = Table.objects.select_related("group__session__event").defer("group__session__event__grouping_plan").get(
            pk=result.table_id)
    return table


def _locked_row(field: bool) -> PreparedQuery:
    """The result row :func:`_lock` reads under its lock, compiled once per process: called with
    ``(result id, table id, scope id, device id)`` (the scope: the session when the whole field is
    compared, else the group) and the write's request key, if any."""

    def build(result_id: int, table_id: int, scope_id: int, device_id: str, request_key: str | None = None) -> QuerySet:
        scope = Q(group__session_id=scope_id) if field else Q(group_id=scope_id)
        scope_results = Q(table__group__session_id=scope_id) if field else Q(table__group_id=scope_id)
        return HandResult.objects.select_for_update(of=("self",)).annotate(
            **pin_count_columns(table_id, device_id),
            scope_tables=count_of(Table.objects.filter(scope)),
            others_confirmed=count_of(HandResult.objects.filter(scope_results, set_no=OuterRef("set_no"),
                                                                status=HandResult.Status.CONFIRMED).exclude(pk=result_id)),
            **request_keys.key_columns(request_key, result=result_id),
        ).filter(pk=result_id)

    return PreparedQuery(HandResult, build)


_LOCKED = {field: _locked_row(field) for field in (False, True)}
_SAVE_CONFIRMED = PreparedUpdate(HandResult, ("status", "confirmed_by", "revision", "updated_at"))  # one UPDATE, compiled once


def _lock(result: HandResult, request_key: str | None = None, device: Device | None = None) -> Locked:
    """Lock the result's comparison scope (its group, or its session when the whole field is
    compared: :func:`scoring.actions.locks.lock_scope`), then the result row, and return the row
    as stored now with what the change needs (:class:`Locked`). Two queries when ``result`` comes
    with ``table__group__session__event`` loaded (one more otherwise): the table's plan read with
    the scope's lock (:func:`tournament.table_plan.table_plan`; one more when the table has a
    substitution), then the result row locked with the wrong PINs and the scope's counts.

    ``request_key``: the write's key; the row read says whether it was used already
    (:func:`scoring.actions.request_keys.key_columns`, :meth:`Locked.repeat`). ``device``: where a
    PIN is typed, whose wrong PINs the row read counts (:class:`~scoring.actions.seats.PinCounts`).

    Confirm, dispute and correct all take the locks in this order, so two of them on the same set
    run one after the other: the later one sees the earlier one's result when it rescores the set
    (otherwise the last two confirmations of a set, each seeing the other uncommitted, would both
    leave it unscored), and they cannot deadlock.
    """
    table = _table_of(result)
    session = table.group.session
    field = session.event.comparison == Event.Comparison.FIELD
    plan = table_plan(table, lock="session" if field else "group")
    args = (result.pk, table.pk, session.pk if field else table.group_id, (device or Device()).id) + (
        (request_key,) if request_key else ())
    found = _LOCKED[field](*args)
    if not found:
        raise HandResult.DoesNotExist(f"result {result.pk} is gone")
    locked = found[0]
    locked.table, locked.event = table, session.event
    key_found = {name: getattr(locked, name, None) for name in ("replay_of", "replay_action", "replay_digest", "key_used")}
    return Locked(locked, plan, counts_from(locked), locked.scope_tables or 0, locked.others_confirmed or 0, key_found)


def _keep_history(given: HandResult, locked: HandResult, revision: ResultRevision) -> None:
    """When the caller read ``given`` with its history (``prefetch_related("revisions")``, as the
    API does) and nothing changed it before the lock, give the ``locked`` row that history and the
    new ``revision`` (the answer needs no read after the commit); when it changed, read the
    history again (one query, inside the transaction)."""
    history = getattr(given, "_prefetched_objects_cache", {}).get("revisions")
    if history is None:
        return
    if given.revision + 1 != locked.revision:  # changed between the caller's read and the lock
        read_history(locked)
    else:
        set_history(locked, [*history, revision])


def _rescore_if_complete(lock: Locked, was_confirmed: bool, now_confirmed: bool) -> None:
    """Rescore the result's comparison on its set (:func:`scoring.actions.rescoring.rescore_scope`:
    what :func:`~scoring.actions.rescoring.rescore_set` stores for the group, read in one
    statement under the locks this write holds; it bumps the event's version last) when the
    comparison was complete before the change or is complete after it: only then can a
    converted score or a release change (an incomplete comparison has no converted scores). Otherwise only the version is bumped (:meth:`tournament.models.Event.changed`:
    the live grid shows every state), the last statement of the write."""
    result = lock.result
    if lock.complete(was_confirmed) or lock.complete(now_confirmed):
        rescore_scope(result.table, result.set_no, lock.scope_tables)
    else:  # an incomplete comparison: its set cannot be released yet; the UPDATE checks it all the same
        result.event.changed(public=visibility.released_now(result.event, result.session_number, result.set_no))


def confirm_result(result: HandResult, *, actor: str, pin: str | None = None, director: bool = False,
                   revision: int | None = None, plan: SessionPlan | None = None,
                   request_key: str | None = None, device: Device | None = None) -> HandResult:
    """Confirm an entered result: the director, or a PIN of a player seated at the table at
    another seat than the one that entered it (bridge: the opponents confirm). ``revision``: the
    revision the confirming player saw; if the result changed since, nothing is confirmed. Then
    rescores the set when this confirmation completes its comparison (every table of the scope
    has a confirmed result on the set); otherwise nothing is scored or removed. ``actor``: who is typing (the account, or the table's scorer), for the
    attempt's record; a PIN confirmation is recorded as by the PIN's player.

    **The entering seat.** The PIN of the seat that entered the result never confirms it. Every
    page a player can reach asks who is entering and that player's own PIN, and requires both
    (the table page, the entry form of a table login or scorer; :func:`~scoring.actions.entry.submit_result` checks the
    PIN), so a player cannot name another seat as the entering one and then confirm their own
    result. A result without an entering seat was entered by the
    director, by an account through the API (where ``entered_by_seat`` stays optional for a
    scorer role bound to the table) or by the demo and imports. For such a result the seat of a
    player whose account entered it (``entered_by`` is that account's name) counts as the
    entering seat; any other seated player's PIN confirms it.

    **Wrong PINs** are counted per device (``device``: the phone or account it was typed on) and
    table (:func:`~scoring.actions.seats.pin_wait`): a device with too many waits, doubling with
    each further one, and once the table has too many from all devices together, so does every
    device that has not typed a right PIN there; the table's own phone keeps confirming, so a code
    holder cannot lock a table's players out. A PIN typed while its device waits is refused (429,
    ``retry_after``) without being checked or counted. The director clears the counts
    (:func:`unlock_confirmation`); the director's own confirmation never waits. Every PIN checked
    at a result that a PIN could confirm is stored as a :class:`~scoring.models.ConfirmationAttempt`
    (``ok`` when it confirmed, with the seat and the device); a refused one is stored too (the
    attempt is committed, then the refusal raised). Refusals that come before any PIN is read
    (confirmed, changed, disputed, no PIN typed, waiting) store none. Wrong PINs typed by the
    player entering (:func:`~scoring.actions.entry.submit_result`) count the same way.

    ``plan``: unused (kept for callers that pass it): the plan is read here with the scope's lock
    (:func:`_lock`), who holds each seat on the result's set.

    ``request_key``: the device's key of this confirmation (:mod:`scoring.actions.request_keys`):
    a repeat of a confirmation stored with it is answered with the result as stored now
    (``replayed``), nothing checked or written; a key used for another write is refused
    (``request_key``, 422). The same for :func:`dispute_result` and :func:`correct_result`.

    Raises ResultError: already confirmed (``status``, 409), disputed and not the director
    (``status``, 409), changed since ``revision`` (``revision``, 409), no PIN (``pin``, 400),
    a device held back by wrong PINs (``pin``, 429, ``retry_after``), a PIN of nobody at the table or of the entering seat
    (``pin``, 400).
    """
    refusal = None
    given = result
    request_key = request_keys.clean_key(request_key)
    with transaction.atomic():
        lock = _lock(result, request_key, device)
        asked = request_keys.digest("confirm", result=result.pk, revision=revision) if request_key else ""
        if (repeat := lock.repeat("confirm", asked)) is not None:
            return repeat
        result = lock.result
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
            plan = lock.plan
            entering = result_notes(result)["entered_by_seat"]
            if not entering and result.entered_by:
                known = account_seat(plan, table, result.set_no, result.entered_by)
                entering = known.seat if known else None
            seat = None
            wait = pin_wait(lock.pins, timezone.now())
            if wait:  # held back: the PIN is not checked, and nothing is counted
                raise ResultError("pin", pin_refusal_message(lock.pins, wait), status=429, retry_after=wait)
            seat = holder_for_pin(plan, table, pin, exclude_seat=entering, set_no=result.set_no)
            if seat is None:
                if entering and holder_for_pin(plan, table, pin, set_no=result.set_no) is not None:
                    refusal = ResultError("pin", _("seat %(seat)s entered this result: a player of another seat confirms it with their PIN")
                                          % {"seat": seat_label(entering)})
                else:
                    refusal = ResultError("pin", _("that PIN belongs to no player at this table: the confirming player types their own 4-digit PIN"))
            store_attempt(table, result, seat.seat if seat else "", ok=seat is not None, actor=actor, device=device)
            if seat is not None:
                actor = seat_actor(seat, table)
        if refusal is None:
            result.status = HandResult.Status.CONFIRMED
            result.confirmed_by = actor
            result.revision += 1
            _SAVE_CONFIRMED(result)
            _keep_history(given, result, _revision(result, "confirm", actor, request_key=request_key, asked=asked))
            _rescore_if_complete(lock, False, True)
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
    table.group.session.event.log("unlock-confirmation", actor, table=table.number, table_id=table.pk,
                                  result=result.pk if result else None, set=result.set_no if result else None,
                                  cleared=cleared)
    return cleared


@transaction.atomic
def dispute_result(result: HandResult, *, actor: str, reason: str, director: bool,
                   plan: SessionPlan | None = None, request_key: str | None = None) -> HandResult:
    """Mark a result disputed (a seat disagrees); the director then corrects or confirms it.
    ``plan``: the table's plan when the caller has read it (the lock reads it anyway: :func:`_lock`).
    Once a result is confirmed only the director reopens it. When ``actor`` is the account of a
    player seated at the table on that set, the history names that player and seat
    (:func:`~scoring.actions.seats.seat_actor`); a table login's dispute carries no seat. Raises ResultError
    (``reason``) without a reason, (``status``, 403) for a confirmed result and not the
    director."""
    if not reason.strip():
        raise ResultError("reason", _("say what is disputed"))
    given = result
    request_key = request_keys.clean_key(request_key)
    lock = _lock(result, request_key)
    asked = request_keys.digest("dispute", result=result.pk, reason=reason) if request_key else ""
    if (repeat := lock.repeat("dispute", asked)) is not None:
        return repeat
    result = lock.result
    if result.status == HandResult.Status.CONFIRMED and not director:
        raise ResultError("status", _("this result is confirmed: only the director can dispute it now"), status=403)
    was_confirmed = result.status == HandResult.Status.CONFIRMED
    result.status = HandResult.Status.DISPUTED
    result.revision += 1
    result.save(update_fields=["status", "revision", "updated_at"])
    known = None if director else account_seat(plan or lock.plan, result.table, result.set_no, actor)
    _keep_history(given, result, _revision(result, "dispute", seat_actor(known, result.table) if known else actor, reason=reason,
                                           request_key=request_key, asked=asked))
    _rescore_if_complete(lock, was_confirmed, False)
    return result


def correct_result(result: HandResult, *, actor: str, reason: str, director: bool, changes: dict[str, Any] | None = None,
                   outcome: dict[str, Any] | None = None, deposit: int | None = None, entered_by_seat: str | None = None,
                   entry_pin: str | None = None, plan: SessionPlan | None = None,
                   request_key: str | None = None, device: Device | None = None) -> HandResult:
    """Change a stored result, keeping the old one in the history. ``plan``: the table's plan when
    the caller has read it (:func:`tournament.table_plan.table_plan`; the lock reads it anyway: :func:`_lock`).

    **The director** may always correct, without a PIN (the result stays or becomes confirmed,
    the entering seat stays recorded; ``entered_by_seat`` and ``entry_pin`` are ignored).
    **Anyone else** (a table login, a scorer role, an API scorer) corrects only an unconfirmed
    result, unless the event's ``scorer_corrections``
    setting is off (then only the director corrects: ``status``, 403), and a correction at the
    table is as strong as an entry: ``entered_by_seat`` names the seat of the player correcting
    and ``entry_pin`` is that player's own PIN, both required. The PIN is checked exactly like
    the entry PIN (:func:`~scoring.actions.entry._check_entry_pin`: the player holding the seat on this set, a
    substitute included; a wrong one stored as a wrong :class:`~scoring.models.ConfirmationAttempt` of the table
    typed on ``device`` and counted towards its limits; refused with 429 while the device waits:
    :func:`~scoring.actions.seats.pin_wait`). The corrected result becomes that seat's entry: ``entered_by_seat`` is the
    correcting seat, ``entered_by`` and the revision's actor name the player and seat
    (:func:`~scoring.actions.seats.seat_actor`), the status is *entered*, and it needs the PIN of another seat (or the
    director) to be confirmed — so no player can both change a result and confirm it. Once a
    result is confirmed only the director reopens it (docs/security.md).

    A reason is required once a result is confirmed or disputed. A new winning tile or hand is
    checked against the wall again (:func:`~scoring.actions.entry.check_wall`: never refused, the
    flag kept for the director). ``changes`` or ``outcome`` as for :func:`~scoring.actions.entry.submit_result`; typed changes keep the stored
    ``deposit`` unless one is given, an outcome computes its own.

    Raises ResultError: ``status`` (403), ``reason``, the hand's fields of
    :func:`~scoring.actions.entry.submit_result`, no correcting seat or an unknown one (``entered_by_seat``, 400), no
    PIN (``entry_pin``, 400: nothing stored, no attempt), a PIN not the correcting seat's
    player's (``entry_pin``, 400) or a device held back by wrong PINs (``entry_pin``, 429). Nothing
    is changed on error; a refused PIN's attempt is stored (committed, then the refusal raised).
    """
    entry_pin = str(entry_pin or "").strip()
    refusal = None
    given = result
    request_key = request_keys.clean_key(request_key)
    with transaction.atomic():
        lock = _lock(result, request_key, device)
        asked = request_keys.digest("correct", result=result.pk, reason=reason, changes=changes, outcome=outcome,
                                    deposit=deposit, seat=entered_by_seat or "") if request_key else ""
        if (repeat := lock.repeat("correct", asked)) is not None:
            return repeat
        result = lock.result
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
            seat, refusal = _check_entry_pin(plan or lock.plan, result.table, entered_by_seat, entry_pin,
                                             actor, result.set_no, wrong=lock.pins, device=device)
        if refusal is None:
            who = seat_actor(seat, result.table) if seat is not None else actor
            previous = result.changes
            result.changes, result.outcome, result.deposit = cleaned, stored, deposit
            result.wall_flag = check_wall(result.table, result.set_no, stored)  # kept apart, for the director
            result.status = HandResult.Status.CONFIRMED if director else HandResult.Status.ENTERED
            result.confirmed_by = actor if director else ""
            if seat is not None:
                result.entered_by = who
            result.revision += 1
            result.save()
            _keep_history(given, result, _revision(result, "correct", who, previous=previous, reason=reason,
                                                   request_key=request_key, asked=asked))
            if seat is not None:
                store_attempt(result.table, result, seat.seat, ok=True, actor=actor, device=device)
            _rescore_if_complete(lock, confirmed, director)
    if refusal is not None:
        raise refusal
    return result
