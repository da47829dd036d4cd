"""The event's life across the stages: create it, prepare a session (seat it and generate its
walls), record the public value, reveal the master seed. Each public function is one transaction.

This module sits on top of the three stages (docs/architecture.md): it calls
:mod:`tournament.seating`, :mod:`walls.services`, :mod:`scoring.conversion` and
:mod:`scoring.visibility`; nothing below imports it. The seating names are re-exported so callers
import the event's write paths from one module.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Count
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.conversion import family_preset, get_table
from scoring.models import ConversionTable
from scoring.actions.rescoring import rescore_set
from scoring.visibility import sets_to_play
from tournament.models import Event, Session, Table
from tournament.seating import (  # noqa: F401 (re-exported: the event's write paths in one module)
    RosterEntry,
    SetupError,
    add_substitutes,
    import_roster,
    parse_roster,
    refuse_after_reveal,
    seat_session,
    sitting_out,
)
from walls.derivation import DerivationError
from walls.derivation import commitment as seed_commitment
from walls.derivation import new_master_seed
from walls.models import ReserveWall
from walls.rulesets import get_ruleset
from walls.services import assign_reserve_tables, draw_reserve_wall, generate_walls


@transaction.atomic
def create_event(
    *,
    name: str,
    slug: str = "",
    ruleset_code: str = "mcr-duplicate",
    method: str = Event.Method.TEAM,
    conversion: str | None = "wbf-imp",
    sessions: int = 1,
    datum_method: str = Event.Datum.AVERAGE,
    comparison: str = Event.Comparison.GROUP,
    public_value_source: str = "",
    master_seed: str | None = None,
    base_url: str = "",
    entrant_policy: str = Event.EntrantPolicy.EXACT,
    ruleset=None,
    fouled_min_tables: int = 2,
    fouled_adjusted_points: int = 0,
    status: str = Event.Status.PUBLISHED,
    actor: object = "setup",
) -> Event:
    """Create an event with a fresh secret master seed and its public commitment.

    ``conversion`` is a preset code of :data:`scoring.conversion.PRESETS`; the event gets its own
    editable copy (version 1). None (or ""; what the director's new-event form sends unless the
    director picks a table; the default here stays ``wbf-imp`` for scripts): the preset of the
    rule set's family
    (:func:`scoring.conversion.family_preset`: ``mcr-mp`` for MCR, ``riichi-imp`` for riichi...;
    docs/scoring.md, "Conversion presets per rule family"). ``ruleset``, a :class:`walls.rulesets.RuleSet` (e.g. from
    :func:`walls.rulesets.custom_ruleset`), overrides ``ruleset_code``. ``fouled_min_tables``
    and ``fouled_adjusted_points``: the event's Law 87 parameters (docs/scoring.md, "Fouled sets
    and reserve walls"). ``status``: published by default (the demo, the tests, imports); the
    new-event form creates a draft, hidden until published (:mod:`tournament.event_setup`).
    Audited as ``event-created`` signed by ``actor`` (who created it; the default for scripts).
    Raises SetupError for an unknown rule set, table, method or status, a slug already taken,
    or ``fouled_min_tables`` below 1.
    """
    if not name.strip():
        raise SetupError("name", _("give the event a name"))
    slug = slug or slugify(name)[:40]
    if Event.objects.filter(slug=slug).exists():
        raise SetupError("slug", _("an event called %(slug)s exists already: choose another short name") % {"slug": repr(slug)})
    if method not in Event.Method.values:
        raise SetupError("method", _("choose one of %(methods)s") % {"methods": ", ".join(Event.Method.values)})
    try:
        ruleset = ruleset or get_ruleset(ruleset_code)
    except ValueError as exc:
        raise SetupError("ruleset", str(exc)) from exc
    conversion = conversion or family_preset(ruleset.payment_rule)
    try:
        plain_table = get_table(conversion)
    except (KeyError, ValueError) as exc:
        raise SetupError("conversion", str(exc)) from exc
    if sessions < 1:
        raise SetupError("sessions", _("an event has at least one session"))
    if status not in Event.Status.values:
        raise SetupError("status", _("choose one of %(choices)s") % {"choices": ", ".join(Event.Status.values)})
    if fouled_min_tables < 1:
        raise SetupError("fouled_min_tables", _("a version of a fouled set needs at least 1 table to be compared"))
    seed = master_seed or new_master_seed()
    event = Event.objects.create(
        name=name.strip(), slug=slug, ruleset_code=ruleset.code, ruleset=ruleset.to_dict(), method=method,
        datum_method=datum_method, comparison=comparison, sessions_planned=sessions,
        master_seed=seed, commitment=seed_commitment(seed), public_value_source=public_value_source,
        base_url=base_url, entrant_policy=entrant_policy, fouled_min_tables=fouled_min_tables,
        fouled_adjusted_points=fouled_adjusted_points, status=status,
    )
    ConversionTable.objects.create(
        event=event, code=conversion, name=plain_table.name, source=plain_table.source, rows=plain_table.rows(), current=True,
    )
    event.log("event-created", actor, name=event.name, ruleset=ruleset.code, method=method, sessions=sessions,
              conversion=conversion)
    return event


@transaction.atomic
def prepare_session(event: Event, session_number: int, *, actor: str = "prepare") -> Session:
    """Seat session ``session_number`` (1-based) and generate its walls, in one transaction: the
    session is stored with its walls or not at all. What the director's "Prepare" button, the
    demo and the load test do.

    Raises SetupError (from :func:`seat_session`, e.g. once the master seed is revealed) or
    WallError (from :func:`walls.services.generate_walls`, e.g. the public value still missing);
    nothing is stored then. ``actor`` (who pressed Prepare) signs the check-in's audit entry and
    the ``session-prepared`` one, which bumps the event's content version (the tables seated
    show on the public pages).
    """
    session = seat_session(event, session_number, actor=actor)
    generate_walls(event, session_number)
    seated = Table.objects.filter(group__session=session).aggregate(groups=Count("group", distinct=True), tables=Count("id"))
    event.log("session-prepared", actor, session=session_number, **seated)  # the version row last
    return session


@transaction.atomic
def set_public_value(event: Event, value: str) -> Event:
    """Record the announced public value (SquareDeal-style, docs/walls.md) that the walls mix in.

    Raises SetupError if the event announced no public value, the value is empty, or walls were
    already generated (they could no longer depend on it).
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    if not event.public_value_source:
        raise SetupError("public_value", _("this event announced no public value to mix in"))
    if not value.strip():
        raise SetupError("public_value", _("type the value of: %(source)s") % {"source": event.public_value_source})
    if event.wall_sets.exists():
        raise SetupError("public_value", _("walls are already generated; the public value can no longer change them"))
    event.public_value = value.strip()
    event.save(update_fields=["public_value"])
    event.changed()  # shown in the public export
    return event


def checked_seed(event: Event, typed: str = "") -> str:
    """The master seed to reveal for ``event``: the stored one, or, when the event holds none
    (imported from an export made before the reveal, which carries no seed), the seed the
    director ``typed`` (64 hex characters, either case, spaces around ignored). Either must hash
    to the event's published commitment (:func:`walls.derivation.commitment`), so a reveal can
    never publish an empty or a wrong seed. Returns the seed in lowercase hex. Raises SetupError
    ("seed") saying what to do: type the seed (none stored, none typed), or that it is malformed
    or does not match the commitment."""
    stored, typed = event.master_seed or "", (typed or "").strip().lower()
    if not stored and not typed:
        raise SetupError("seed", _(
            "This event holds no master seed (it was imported from an export made before the reveal): type the "
            "master seed you kept, or import the export with the master seed (Export with the master seed), then reveal."))
    seed = typed or stored
    if typed and stored and typed != stored.lower():
        raise SetupError("seed", _("The seed you typed is not this event's master seed; leave the field empty to reveal "
                                   "the stored one."))
    try:
        matches = seed_commitment(seed) == (event.commitment or "").lower()
    except DerivationError:
        raise SetupError("seed", _("A master seed is 64 hexadecimal characters (0-9, a-f): check what you typed.")) from None
    if not matches:
        raise SetupError("seed", _(
            "This seed does not match the commitment published before the event, %(commitment)s: it is not the "
            "event's master seed; nothing was revealed. Type the seed you kept, or import the export with the master "
            "seed.") % {"commitment": event.commitment or "-"})
    return seed.lower()


@transaction.atomic
def reveal_seed(event: Event, *, actor: str, seed: str = "") -> Event:
    """Publish the master seed after the event so anyone can re-derive every wall
    (docs/walls.md); ``actor`` (who revealed it) goes into the event's audit log.

    Only once the event is finished: every set of every *planned* session is public
    (:func:`scoring.visibility.event_finished`). Revealing earlier would let anyone derive the
    walls of every set still to be played. Afterwards no session can be prepared
    (:func:`seat_session`, :func:`walls.services.generate_walls`). The seed revealed is the
    stored one, or ``seed`` (typed by the director) for an event that holds none; either is
    checked against the published commitment (:func:`checked_seed`). Raises SetupError ("seed")
    naming how many sets are still to be played, when the seed is already revealed, or when no
    seed, a malformed one or one that does not match the commitment would be revealed; nothing
    changes then. Stores an :class:`~tournament.models.AuditEntry` ``reveal-seed`` in the same
    transaction (``detail.typed``: true when the director typed the seed).
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.seed_revealed:
        raise SetupError("seed", _("the master seed is already revealed; nothing changed"))
    remaining = sets_to_play(event)
    if remaining > 0:
        raise SetupError("seed", ngettext(
            "%(count)s set of the planned sessions is still to be played at every table; reveal the master seed after the event",
            "%(count)s sets of the planned sessions are still to be played at every table; reveal the master seed after the event",
            remaining,
        ) % {"count": remaining})
    typed = not event.master_seed
    event.master_seed = checked_seed(event, seed)
    event.seed_revealed = True
    event.save(update_fields=["seed_revealed", "master_seed"])
    detail = {"commitment": event.commitment}
    if typed:
        detail["typed"] = True
    event.log("reveal-seed", actor, **detail)
    return event


@transaction.atomic
def draw_reserve(event: Event, session_number: int, set_no: int, *, reason: str, actor: str, tables=(),
                 number: int | None = None) -> ReserveWall:
    """Draw a reserve wall for a set spoiled before play (docs/walls.md, "Reserve walls") and
    rescore the set, so the ``tables`` that play it are compared as the version ``R<n>``
    (docs/scoring.md, "Fouled sets and reserve walls"); writes an AuditEntry ``reserve-drawn``
    (detail: session, set, reserve, reason, tables by number). A repeat of the same form
    (``number`` already drawn) changes nothing and writes nothing. Raises WallError as
    :func:`walls.services.draw_reserve_wall` does; nothing is stored then.
    """
    drawn_before = ReserveWall.objects.filter(event=event, session_number=session_number, set_no=set_no).count()
    reserve = draw_reserve_wall(event, session_number, set_no, reason=reason, actor=actor, tables=tables, number=number)
    if reserve.number <= drawn_before:
        return reserve
    rescore_set(event, session_number, set_no)
    event.log("reserve-drawn", actor, session=session_number, set=set_no, reserve=reserve.number,
              reason=reserve.reason, tables=sorted(reserve.tables.values_list("number", flat=True)))
    return reserve


@transaction.atomic
def set_reserve_tables(reserve: ReserveWall, tables, *, actor: str) -> ReserveWall:
    """Change which tables (Table rows or ids, of the reserve's session) play ``reserve`` and
    rescore its set; writes an AuditEntry ``reserve-tables`` (detail: session, set, reserve,
    tables by number before and after) when the tables change. Safe to repeat. Raises WallError
    ("tables") for a table of another session; nothing changes then."""
    before = sorted(reserve.tables.values_list("number", flat=True))
    after = [t.number for t in assign_reserve_tables(reserve, tables)]
    if after != before:
        rescore_set(reserve.event, reserve.session_number, reserve.set_no)
        reserve.event.log("reserve-tables", actor, session=reserve.session_number, set=reserve.set_no,
                          reserve=reserve.number, before=before, tables=after)
    return reserve
