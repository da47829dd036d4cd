"""The director's settings of an event and its life: change the settings (:func:`update_settings`),
move it between draft, published, finished and archived (:func:`change_status`), record the final
export (:func:`record_final_export`) and delete it (:func:`delete_event`). Each public write is
one transaction and writes an :class:`~tournament.models.AuditEntry` (but the deletion, whose
audit trail goes with the event: it is logged with :mod:`logging`).

Frozen settings (docs/director-guide.md, "Event settings"): the rule set, the hands per session
(rounds) and the conversion method once walls exist, since the walls and their scores were made
with them; the number of sessions and the entrant policy once session 1 is seated, since the
grouping plan of every session is fixed then (docs/seating.md). A refused change raises
:class:`~tournament.seating.SetupError` naming the field and why; nothing is stored then.

Lifecycle (:data:`TRANSITIONS`): a draft is hidden from everyone without a role in the event
(:mod:`tournament.access`); published is listed and public; finished is over (reopen it to
correct); archived is kept off the home page's main list. An event is deleted only once finished
or archived and after its full export was downloaded (``Event.final_export_at``); while the master
seed is not revealed, only after the export with the master seed (:func:`seed_would_be_lost`), so
that no deletion loses the seed (docs/security.md, "Threats and the tests that cover them", threat 6).
"""

from __future__ import annotations

import dataclasses
import logging
from urllib.parse import urlsplit

from django.db import transaction
from django.db.models import Count, Max
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.conversion import PRESETS as CONVERSION_PRESETS
from scoring.conversion_versions import rescore_event
from scoring.models import ConversionTable, HandResult, ResultRevision
from scoring.standings import DEFAULT_TIE_BREAKS, TIE_BREAKS
from tournament.clock import pause_clock
from tournament.models import AuditEntry, Event
from tournament.movement import MovementError, ruleset_movement
from tournament.rooms import rooms_problem
from tournament.seating import SetupError, current_entrants, entrant_policy_error
from walls.printing.i18n import ALIASES as SHEET_LANGUAGE_ALIASES
from walls.printing.i18n import LANGS as SHEET_LANGUAGES
from walls.printing.templates import PRESETS as LABEL_STOCKS
from walls.printing.templates import TemplateError
from walls.printing.tilesize import event_tile, parse_tile_size, stock_problem
from walls.rulesets import PRESETS as RULESET_PRESETS
from walls.rulesets import RuleSet, RuleSetError

log = logging.getLogger(__name__)

SETTINGS = (
    "name", "base_url", "sessions_planned", "rounds", "entrant_policy", "scorer_corrections", "tile_size", "default_label_stock",
    "sheet_language", "tie_breaks", "fouled_min_tables", "fouled_adjusted_points", "ruleset", "conversion",
)
"""The settings :func:`update_settings` takes, in the order it applies them (the rule set before
its rounds)."""

FROZEN_BY_WALLS = ("ruleset", "rounds", "conversion")
"""Settings refused once the event has walls."""
FROZEN_BY_SEATING = ("sessions_planned", "entrant_policy")
"""Settings refused once session 1 is seated."""

Status = Event.Status
TRANSITIONS: dict[str, tuple[str, ...]] = {
    Status.DRAFT: (Status.PUBLISHED,),
    Status.PUBLISHED: (Status.DRAFT, Status.FINISHED),
    Status.FINISHED: (Status.PUBLISHED, Status.ARCHIVED),
    Status.ARCHIVED: (Status.FINISHED,),
}
"""The statuses an event may move to from each status. Published → draft only while no result
is stored (:func:`change_status`)."""

DELETABLE = (Status.FINISHED, Status.ARCHIVED)
"""Statuses in which an event may be deleted (after its final export)."""


def frozen_reasons(event: Event) -> dict[str, str]:
    """``{setting: why it cannot change now}`` for every frozen setting of ``event`` (see the
    module doc): the sentence the settings page shows next to the field and the message of the
    refusal. Two queries."""
    reasons = {}
    if event.wall_sets.exists():
        walls = _("Walls are generated: the rule set, the hands per session and the conversion method they were "
                  "made and scored with can no longer change.")
        reasons.update(dict.fromkeys(FROZEN_BY_WALLS, walls))
    if event.sessions.filter(number=1).exists():
        seated = _("Session 1 is seated: the groups of every session are fixed, so the number of sessions and the "
                   "entrant policy can no longer change.")
        reasons.update(dict.fromkeys(FROZEN_BY_SEATING, seated))
    return reasons


def current_settings(event: Event) -> dict:
    """The value of every setting of :data:`SETTINGS` as :func:`update_settings` compares it:
    ``ruleset`` the rule set's code, ``rounds`` its wind rounds (hands per session = rounds ×
    seats), ``conversion`` the code of the current conversion table ("" without one),
    ``tie_breaks`` the list in force (the stored one, or :data:`scoring.standings.DEFAULT_TIE_BREAKS`
    when none is stored). One query (the conversion table)."""
    table = ConversionTable.objects.current(event)
    values = {name: getattr(event, name) for name in SETTINGS if name not in ("ruleset", "rounds", "conversion")}
    values["tie_breaks"] = list(event.tie_breaks or DEFAULT_TIE_BREAKS)
    values.update(ruleset=event.ruleset_code, rounds=event.get_ruleset().rounds, conversion=table.code if table else "")
    return values


def _whole(field: str, value, minimum: int | None) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise SetupError(field, _("type a whole number")) from None
    if minimum is not None and number < minimum:
        raise SetupError(field, _("type a whole number from %(min)s") % {"min": minimum})
    return number


def _clean(field: str, value, before: dict):
    """``value`` of setting ``field`` checked and normalised; raises SetupError naming it."""
    if field == "name":
        value = str(value).strip()
        if not value:
            raise SetupError(field, _("give the event a name"))
        return value[:200]
    if field == "base_url":
        value = str(value or "").strip()
        parts = urlsplit(value)
        if value and (parts.scheme not in ("http", "https") or not parts.hostname or any(c.isspace() for c in value)):
            raise SetupError(field, _("type the address players open, starting with http:// or https://, e.g. "
                                      "https://mahjong.example.org/"))
        return value[:200]
    if field == "sessions_planned":
        return _whole(field, value, 1)
    if field == "rounds":
        return _whole(field, value, 1)
    if field == "entrant_policy":
        if value not in Event.EntrantPolicy.values:
            raise SetupError(field, _("choose one of %(choices)s") % {"choices": ", ".join(Event.EntrantPolicy.values)})
        return value
    if field == "scorer_corrections":
        return bool(value)
    if field == "tile_size":
        try:
            return parse_tile_size(value, field).code if str(value or "").strip() else ""
        except TemplateError as exc:
            raise SetupError(field, str(exc).split(": ", 1)[1]) from None
    if field == "default_label_stock":
        value = value or ""
        if value and value not in LABEL_STOCKS:
            raise SetupError(field, _("choose one of %(choices)s") % {"choices": ", ".join(LABEL_STOCKS)})
        return value
    if field == "sheet_language":
        value = SHEET_LANGUAGE_ALIASES.get(value, value)  # "zh": an export of an earlier version
        if value not in SHEET_LANGUAGES:
            raise SetupError(field, _("choose one of %(choices)s") % {"choices": ", ".join(SHEET_LANGUAGES)})
        return value
    if field == "tie_breaks":
        codes = [value] if isinstance(value, str) else list(value or [])
        unknown = [c for c in codes if c not in TIE_BREAKS]
        if unknown:
            raise SetupError(field, _("unknown tie-break %(code)s: choose from %(choices)s")
                             % {"code": repr(unknown[0]), "choices": ", ".join(TIE_BREAKS)})
        return list(dict.fromkeys(codes)) or list(DEFAULT_TIE_BREAKS)
    if field == "fouled_min_tables":
        return _whole(field, value, 1)
    if field == "fouled_adjusted_points":
        return _whole(field, value, None)
    if field == "ruleset":
        if value != before["ruleset"] and value not in RULESET_PRESETS:
            raise SetupError(field, _("choose one of %(choices)s") % {"choices": ", ".join(RULESET_PRESETS)})
        return value
    if field == "conversion":
        if value not in CONVERSION_PRESETS and value != before["conversion"]:
            raise SetupError(field, _("choose one of %(choices)s") % {"choices": ", ".join(CONVERSION_PRESETS)})
        return value
    raise TypeError(f"update_settings() got an unknown setting {field!r}")


def _with_rounds(ruleset: RuleSet, rounds: int) -> RuleSet:
    """``ruleset`` playing ``rounds`` wind rounds a session, checked as the seating will move it
    (:func:`tournament.movement.ruleset_movement`). Raises SetupError ("rounds")."""
    try:
        changed = dataclasses.replace(ruleset, rounds=rounds)
        ruleset_movement(changed)
    except (RuleSetError, MovementError) as exc:
        raise SetupError("rounds", str(exc)) from exc
    return changed


def _adopt_conversion(event: Event, code: str) -> None:
    """Make the preset conversion table ``code`` (:data:`scoring.conversion.PRESETS`) the event's
    current one, as its next stored version, and rescore what is scored (nothing, while no walls
    exist): the way :mod:`scoring.conversion_versions` stores a new version."""
    plain = CONVERSION_PRESETS[code]
    highest = event.conversion_tables.filter(code=code).aggregate(v=Max("version"))["v"] or 0
    ConversionTable.objects.filter(event=event, current=True).update(current=False)
    ConversionTable.objects.create(event=event, code=code, name=plain.name, source=plain.source, version=highest + 1,
                                   rows=plain.rows(), current=True)
    rescore_event(event)


def _check_roster_still_fits(event: Event, before: dict, changed: dict) -> None:
    """Refuse (SetupError on the setting changed) a rule set or entrant policy that the imported
    roster or the rooms no longer fit, so that nothing accepted here fails only at Prepare:
    teams must have one member per seat of the new rule set, the entrants must fill its groups
    unless the policy says what to do (:func:`tournament.seating.entrant_policy_error`), and
    the rooms must hold its tables (:func:`tournament.rooms.rooms_problem`). ``event`` holds the
    new values, not yet saved."""
    if not ({"ruleset", "rounds", "entrant_policy"} & set(changed)) or not event.players.exists():
        return
    field = "ruleset" if "ruleset" in changed else "rounds" if "rounds" in changed else "entrant_policy"
    seats = len(event.get_ruleset().seats)
    if event.method == Event.Method.TEAM and "ruleset" in changed:
        # the rule set is frozen once walls exist, so no substitution has added a member yet
        sizes = set(event.teams.filter(withdrawn=False, substitute=False).annotate(n=Count("players")).values_list("n", flat=True))
        if sizes and sizes != {seats}:
            raise SetupError("ruleset", _("the imported teams have %(sizes)s players but this rule set seats %(seats)s: "
                                          "keep the rule set, or import a roster of teams of %(seats)s")
                             % {"sizes": ", ".join(str(n) for n in sorted(sizes)), "seats": seats})
    error = entrant_policy_error(event, len(current_entrants(event)), field)
    if error is not None:
        raise error
    if field != "entrant_policy":
        problem = rooms_problem(event)
        if problem:
            raise SetupError(field, _("the event's rooms cannot hold this rule set's tables: %(problem)s; change the rooms first")
                             % {"problem": problem})


@transaction.atomic
def update_settings(event: Event, *, actor: str, **changes) -> Event:
    """Change the settings named in ``changes`` (keys of :data:`SETTINGS`) of ``event``; returns
    the stored event.

    ``name``, ``base_url`` (the public address QR codes and score sheets link to; "" none),
    ``sessions_planned`` (≥ 1), ``rounds`` (wind rounds per session: hands per session = rounds ×
    seats, checked with :func:`tournament.movement.ruleset_movement`), ``entrant_policy``
    (``Event.EntrantPolicy``), ``scorer_corrections`` (bool), ``tile_size`` (a preset code of
    :data:`walls.printing.tilesize.TILE_SIZES`, a typed ``"W x H"`` in mm, or "" for the rule set's
    usual tiles), ``default_label_stock`` (a name of :data:`walls.printing.templates.PRESETS` or ""
    for the default; refused, naming it, when its labels overhang the tiles' backs:
    :func:`walls.printing.tilesize.stock_problem`), ``sheet_language`` (en, ja,
    zh-hans; "zh" is read as zh-hans), ``tie_breaks`` (codes of :data:`scoring.standings.TIE_BREAKS` in order; [] means
    the default order),
    ``fouled_min_tables`` (≥ 1), ``fouled_adjusted_points`` (converted points), ``ruleset`` (a
    preset code of :data:`walls.rulesets.PRESETS`; the event's own rule set stays allowed) and
    ``conversion`` (a preset code of :data:`scoring.conversion.PRESETS`: the event adopts a copy
    as its next conversion table version). ``rounds`` is compared with the rule set the event
    had before: a changed ``ruleset`` with the old ``rounds`` takes the preset's rounds.

    Only settings whose value differs are stored; they go into one AuditEntry
    ``settings-changed`` with ``{setting: [old, new]}``; nothing is written when nothing
    changed. Raises SetupError naming the setting: a value that cannot be used, a frozen
    setting (:func:`frozen_reasons`), a rule set or entrant policy the imported roster or the
    rooms do not fit (:func:`_check_roster_still_fits`), or any change of an archived event;
    nothing is stored then. Raises TypeError for a name not in :data:`SETTINGS`.
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    unknown = set(changes) - set(SETTINGS)
    if unknown:
        raise TypeError(f"update_settings() got unknown settings {sorted(unknown)}")
    before = current_settings(event)
    changed = {}
    for field in SETTINGS:
        if field in changes:
            value = _clean(field, changes[field], before)
            if value != before[field]:
                changed[field] = value
    if not changed:
        return event
    if {"tile_size", "default_label_stock", "ruleset"} & set(changed):  # the stock must fit the tiles
        stock = LABEL_STOCKS.get(changed.get("default_label_stock", before["default_label_stock"]) or "")
        ruleset = RULESET_PRESETS.get(changed.get("ruleset", "")) or event.get_ruleset()
        tile = event_tile(changed.get("tile_size", before["tile_size"]), ruleset, lenient=True)
        if stock is not None and stock_problem(stock, tile):
            raise SetupError("default_label_stock", stock_problem(stock, tile))
    if event.status == Status.ARCHIVED:
        raise SetupError("status", _("the event is archived: move it back to finished to change its settings"))
    frozen = frozen_reasons(event)
    for field in changed:
        if field in frozen:
            raise SetupError(field, frozen[field])
    fields = []
    for field, value in changed.items():
        if field in ("ruleset", "rounds", "conversion"):
            continue
        setattr(event, field, value)
        fields.append(field)
    if "ruleset" in changed or "rounds" in changed:
        ruleset = RULESET_PRESETS[changed["ruleset"]] if "ruleset" in changed else event.get_ruleset()
        if "rounds" in changed:
            ruleset = _with_rounds(ruleset, changed["rounds"])
        event.ruleset_code, event.ruleset = ruleset.code, ruleset.to_dict()
        fields += ["ruleset_code", "ruleset"]
    _check_roster_still_fits(event, before, changed)
    if fields:
        event.save(update_fields=fields)
    if "conversion" in changed:
        _adopt_conversion(event, changed["conversion"])
    after = current_settings(event)
    detail = {field: [before[field], after[field]] for field in changed if before[field] != after[field]}
    event.log("settings-changed", actor, **detail)
    return event


def allowed_statuses(event: Event) -> tuple[str, ...]:
    """The statuses ``event`` may move to now (:data:`TRANSITIONS`; back to draft only while no
    result is stored). One query for a published event."""
    allowed = TRANSITIONS.get(event.status, ())
    if Status.DRAFT in allowed and HandResult.objects.filter(event=event).exists():
        allowed = tuple(s for s in allowed if s != Status.DRAFT)
    return allowed


@transaction.atomic
def change_status(event: Event, status: str, *, actor: str) -> Event:
    """Move ``event`` to ``status`` (draft, published, finished, archived) along
    :data:`TRANSITIONS`; returns the stored event. Writes an AuditEntry ``status-changed``
    ``{"status": [old, new]}``. Reopening a finished event (back to published) clears the final
    export time, since later results make that export stale. Asking for the status it has
    changes and writes nothing (a re-posted form). Finishing or archiving pauses every running
    session clock (:func:`tournament.clock.pause_clock`). Raises SetupError ("status") for an unknown
    status, a move not allowed, or back to draft once a result is stored."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if status not in Status.values:
        raise SetupError("status", _("choose one of %(choices)s") % {"choices": ", ".join(Status.values)})
    if status == event.status:
        return event
    if status not in TRANSITIONS[event.status]:
        raise SetupError("status", _("a %(old)s event cannot become %(new)s; it can become: %(choices)s") % {
            "old": event.get_status_display(), "new": Status(status).label,
            "choices": ", ".join(str(Status(s).label) for s in TRANSITIONS[event.status])})
    if status not in allowed_statuses(event):
        raise SetupError("status", _("results are already entered: a published event with results cannot go back to "
                                     "draft (finish it, or keep it published)"))
    old = event.status
    event.status = status
    fields = ["status"]
    if old == Status.FINISHED and status == Status.PUBLISHED and event.final_export_at is not None:
        event.final_export_at = None
        fields.append("final_export_at")
    event.save(update_fields=fields)
    event.log("status-changed", actor, status=[old, status])
    if status in (Status.FINISHED, Status.ARCHIVED):  # play is over: no clock keeps running on the projector
        for session in event.sessions.filter(clock_started_at__isnull=False):
            pause_clock(session, actor=actor)
    return event


@transaction.atomic
def record_final_export(event: Event, *, actor: str, seed: bool = False) -> Event:
    """Record that the full export of ``event`` (finished or archived) was downloaded now:
    ``Event.final_export_at``, which allows :func:`delete_event`. ``seed``: the export carried
    the master seed (the director's export with the master seed,
    :func:`tournament.exchange.export_event` with ``include_secret``), which allows deleting an
    event whose seed is not revealed yet. Writes an AuditEntry ``final-export`` each time
    (``detail``: ``at``, and ``seed: true`` for an export with the seed; the latest is kept).
    Raises SetupError ("status") when the event is not finished or archived (an export during
    play is not final)."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status not in DELETABLE:
        raise SetupError("status", _("only the export of a finished or archived event is final"))
    event.final_export_at = timezone.now()
    event.save(update_fields=["final_export_at"])
    detail = {"at": event.final_export_at.isoformat()}
    if seed:
        detail["seed"] = True
    event.log("final-export", actor, **detail)
    return event


def seed_would_be_lost(event: Event) -> bool:
    """True when deleting ``event`` now would lose its master seed: the seed is not revealed
    (so the ordinary export holds none), the event holds one, and the latest final export
    (:func:`record_final_export`) was not the export with the master seed. One query."""
    if event.seed_revealed or not event.master_seed:
        return False
    latest = AuditEntry.objects.filter(event=event, action="final-export").order_by("-id").first()
    return not (latest and latest.detail.get("seed") is True)


def _deletion_refusal(event: Event) -> tuple[str, str] | None:
    """``(field, message)`` of :func:`deletion_refusal`, or None when ``event`` may be deleted."""
    if event.status not in DELETABLE:
        return "status", _("Only a finished or archived event can be deleted: finish the event first.")
    if event.final_export_at is None:
        return "status", _("Download the event's full export first (Export the event (JSON), on the director's page): "
                           "it is the only copy left once the event is deleted.")
    changed_since = (
        AuditEntry.objects.filter(event=event, at__gt=event.final_export_at).exclude(action__in=NOT_CHANGES).exists()
        or ResultRevision.objects.filter(result__event=event, at__gt=event.final_export_at).exists()
    )
    if changed_since:
        return "status", _("The event changed after its last full export (a result, a penalty, a setting...): download "
                           "the export again, so that it holds everything, then delete.")
    if seed_would_be_lost(event):
        return "seed", _("The master seed is not revealed yet and your last export does not hold it: deleted now, the "
                         "walls could never be verified. Reveal the master seed first, or download the export with "
                         "the master seed (keep it as safely as the seed), then delete.")
    return None


def deletion_refusal(event: Event) -> str:
    """Why ``event`` cannot be deleted now ("" when it can): it must be finished or archived and
    its full export downloaded since (:func:`record_final_export`), with no result revision and
    no audited action (but :data:`NOT_CHANGES`) after that download; and, while the master seed
    is not revealed, that export must be the one with the master seed
    (:func:`seed_would_be_lost`), so a restore can still reveal it. Four queries at most."""
    refusal = _deletion_refusal(event)
    return refusal[1] if refusal else ""


NOT_CHANGES = ("final-export", "status-changed", "api-token-created", "api-token-revoked")
"""Audited actions that change nothing an export holds apart from the status: archiving an event
after its final export, or revoking an API token then, does not ask for another."""


@transaction.atomic
def delete_event(event: Event, *, confirm_slug: str, actor: str) -> None:
    """Delete ``event`` and everything stored with it (people, seating, walls, results, audit
    trail, print files), once :func:`deletion_refusal` allows it and ``confirm_slug`` is the event's short
    name. The deletion is logged (logger ``tournament.event_setup``, level WARNING) since the
    event's audit trail goes with it. Raises SetupError ("confirm_slug" for a mistyped short
    name, "status" when not allowed yet, "seed" when the master seed would be lost:
    :func:`seed_would_be_lost`); nothing is deleted then."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if (confirm_slug or "").strip() != event.slug:
        raise SetupError("confirm_slug", _("Type the event's short name, %(slug)s, to confirm; nothing was deleted.")
                         % {"slug": event.slug})
    refusal = _deletion_refusal(event)
    if refusal:
        raise SetupError(*refusal)
    log.warning("event %s (%r, uid %s, %s) deleted by %s; final export downloaded at %s", event.slug, event.name,
                event.uid, event.status, actor, event.final_export_at.isoformat())
    files = [(job.file.storage, job.file.name) for job in event.print_jobs.exclude(file="")]
    event.delete()
    transaction.on_commit(lambda: _remove_files(files))


def _remove_files(files) -> None:
    """Remove a deleted event's print files (set-up sheets show walls, player cards PINs) from
    storage, once the deletion is committed; a file already gone is skipped."""
    for storage, name in files:
        try:
            storage.delete(name)
        except OSError:
            log.warning("could not remove print file %s of a deleted event", name)
