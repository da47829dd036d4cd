"""A venue that plays offline (docs/director-guide.md, "An event in several clubs"; docs/export.md,
"Venue packages and results bundles"; docs/security.md, "Venues").

1. The central site makes the venue's **package** (:func:`venue_package`): the event as the export
   format ``dmj-event/1`` holds it, cut to what the venue's sessions need: its rooms, entrants,
   groups, tables and seats, the walls of every session (the venue builds them), the conversion
   table, and the venue itself with the key that signs its bundles. Nothing of another venue, no
   result, no master seed, no account, no audit log.
2. The venue's laptop imports it (:func:`import_package`, the event restore), plays on the
   embedded default, phones entering there (its groups numbered from 1, its tables keeping the
   numbers the central site gave them), and exports its **results bundle**
   (:func:`results_bundle`: its confirmed results, each signed, :mod:`scoring.bundles`).
3. The central site takes the bundle (:func:`queue_bundle`; a Celery job runs
   :func:`merge_bundle`), checks every signature and that each result is of one of the venue's
   own tables, stores what is new or newer, rescores the sets it touched and releases those every
   venue has now played. A merge is idempotent and order-independent; an altered, replayed-over
   or foreign bundle is refused naming the venue, table and set, and stores nothing.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable

from celery import current_app
from django.core.cache import cache
from django.db import transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import visibility
from scoring.actions.rescoring import rescore_set
from scoring.bundles import BundleError, BundleRow, make_bundle, merge, read_bundle
from scoring.models import HandResult, ResultRevision, SetScore
from tournament.exchange import ExchangeError, export_event, restore_event
from tournament.models import Event, Table, Venue, VenueBundle
from tournament.seating import SetupError

MERGE_TASK = "tournament.merge_venue_bundle"


def venue_package(event: Event, venue: Venue) -> dict:
    """The package of ``venue`` (offline) as a JSON-safe dict: :func:`tournament.exchange.export_event`
    without the master seed, cut to the venue (see the module's docstring), with ``package``:
    ``{"venue", "made_at"}``. Raises SetupError ("venue") when a planned session is not prepared
    yet: an offline venue cannot seat a session on its own, so every session travels in the
    package."""
    if event.sessions.count() < event.sessions_planned:
        raise SetupError("venue", _("prepare every session before making a venue package: an offline venue cannot seat "
                                    "a session on its own"))
    data = export_event(event)
    code, made_at = venue.code, timezone.now()
    data["walls"]["seed"] = None
    data["walls"]["reserves"] = []
    data["event"]["grouping_plan"] = None  # the plan's indices are the whole field's
    data["event"]["base_url"] = ""  # the laptop's own address, set there (python manage.py venue)
    data["event"]["releases_held"] = True  # the central site releases, once every venue has played
    data["venues"] = [dict(v, package_made_at=made_at.isoformat())
                      for v in data["venues"] if v["code"] == code]
    data["rooms"] = [r for r in data["rooms"] if r["venue"] == code]
    data["teams"] = [t for t in data["teams"] if t["venue"] == code]
    data["players"] = [dict(p, user=None) for p in data["players"] if p["venue"] == code]
    for session in data["sessions"]:  # its groups numbered from 1 (the movement's places), its tables keep their numbers
        session["groups"] = [dict(g, number=k) for k, g in enumerate((g for g in session["groups"] if g["venue"] == code),
                                                                      start=1)]
    for private in ("results", "scores", "released", "standings", "fouled", "adjustments", "substitutions", "check_ins",
                    "audit_log", "confirmation_attempts", "roles", "invitations"):
        data[private] = []
    data["package"] = {"venue": code, "made_at": made_at.isoformat()}
    return data


def import_package(data: dict, *, slug: str | None = None) -> Event:
    """The event of a venue package (:func:`venue_package`) restored on the venue's laptop. Raises
    ExchangeError for a file that is not a venue package, or as the restore does."""
    if not isinstance(data, dict) or not isinstance(data.get("package"), dict) or len(data.get("venues") or []) != 1:
        raise ExchangeError("package: this is not a venue package: ask the central director for the package of your venue")
    return restore_event(data, slug=slug).event


def venue_copy(event: Event) -> Venue | None:
    """The venue whose laptop holds ``event`` (imported from its package), or None on the central
    site (one query)."""
    return event.venues.exclude(package_made_at=None).first()


def results_bundle(event: Event) -> dict:
    """The results bundle of the venue whose laptop holds ``event``: every confirmed result of its
    tables, signed with the venue's key (:func:`scoring.bundles.make_bundle`). Raises SetupError
    ("venue") on a site that is not a venue's laptop."""
    venue = venue_copy(event)
    if venue is None:
        raise SetupError("venue", _("this site is not a venue's laptop: import the venue package first"))
    rows = [BundleRow(session, table, set_no, revision, changes, outcome)
            for session, table, set_no, revision, changes, outcome in HandResult.objects.filter(
                event=event, status=HandResult.Status.CONFIRMED).values_list(
                "session_number", "table__number", "set_no", "revision", "changes", "outcome")]
    return make_bundle(venue.bundle_key, event.uid, venue.code, rows, timezone.now().isoformat())


def queue_bundle(venue: Venue, data: object, *, actor: object) -> VenueBundle:
    """Keep the uploaded bundle ``data`` (parsed JSON) of ``venue`` and merge it: in the request
    with Celery eager (the embedded default), else on a worker once the upload is stored
    (:data:`MERGE_TASK`). Returns the stored upload (its status tells the outcome)."""
    name = actor.get_username() if hasattr(actor, "get_username") else str(actor or "")
    digest = hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
    bundle = VenueBundle.objects.create(venue=venue, digest=digest, data=data, uploaded_by=name[:150])
    if current_app.conf.task_always_eager:
        return merge_bundle(bundle.pk)
    transaction.on_commit(lambda: current_app.send_task(MERGE_TASK, args=[bundle.pk]))
    return bundle


def progress_key(bundle_id: int) -> str:
    """The cache key of a merge's progress in percent (written outside its transaction)."""
    return f"venue-bundle-progress:{bundle_id}"


def merge_bundle(bundle_id: int) -> VenueBundle:
    """Merge upload ``bundle_id`` (:class:`~tournament.models.VenueBundle`) into its event: the
    whole merge in one transaction, or nothing. Marks it merged with its ``report`` (``new``,
    ``newer``, ``same``, ``older`` results, ``sets`` rescored, ``released`` sets) or refused with
    ``report["error"]`` (the BundleError's message, naming the venue, table and set). Idempotent:
    a merged upload is returned as it is."""
    bundle = VenueBundle.objects.select_related("venue__event").get(pk=bundle_id)
    if bundle.status != VenueBundle.Status.QUEUED:
        return bundle
    try:
        with transaction.atomic():  # the results and the upload's status together: a merge is never half recorded
            report = _merge(bundle.venue, bundle.data, lambda pct: cache.set(progress_key(bundle.pk), pct, 3600))
            bundle.status, bundle.progress, bundle.report = VenueBundle.Status.MERGED, 100, report
            bundle.save(update_fields=["status", "progress", "report"])
    except BundleError as exc:
        bundle.status, bundle.report = VenueBundle.Status.REFUSED, {"error": exc.message}
        bundle.save(update_fields=["status", "report"])
        bundle.venue.event.log("bundle-refused", bundle.uploaded_by, venue=bundle.venue.code, error=exc.message)
    return bundle


def _to_rescore(event: Event, touched: set[tuple[int, int, int]]) -> list[tuple[int, int, int | None]]:
    """The comparisons to rescore after results of ``touched`` ``(session, set, group id)`` were
    stored: ``(session, set, group id)`` (group None when the field is compared), each one only if
    every table in it now has a confirmed result or it has stored scores to replace. A comparison
    still waiting for tables (another venue's, hours later) has nothing to score and nothing to
    release: skipping it saves the rescoring a partial bundle would otherwise cost. Three queries."""
    field = event.comparison == Event.Comparison.FIELD
    scopes = sorted({(s, n, None if field else g) for s, n, g in touched}, key=lambda k: (k[0], k[1], k[2] or 0))
    sessions = {s for s, _n, _g in scopes}
    by = "group__session__number" if field else "group_id"
    tables = dict(Table.objects.filter(group__session__event=event, group__session__number__in=sessions).order_by()
                  .values_list(by).annotate(n=Count("id")).values_list(by, "n"))
    results = HandResult.objects.filter(event=event, status=HandResult.Status.CONFIRMED, session_number__in=sessions).order_by()
    if field:
        confirmed = {(s, n, s): c for s, n, c in results.values_list("session_number", "set_no").annotate(c=Count("id"))
                     .values_list("session_number", "set_no", "c")}
    else:
        confirmed = {(s, n, g): c for s, n, g, c in results.values_list("session_number", "set_no", "table__group_id")
                     .annotate(c=Count("id")).values_list("session_number", "set_no", "table__group_id", "c")}
    scored = set(SetScore.objects.filter(event=event, session_number__in=sessions).order_by()
                 .values_list("session_number", "set_no", "group_id").distinct())
    return [(s, n, g) for s, n, g in scopes
            if confirmed.get((s, n, s if field else g), 0) >= tables.get(s if field else g, 0) or (s, n, g) in scored]


def _merge(venue: Venue, data: object, progress: Callable[[int], None]) -> dict:
    event = Event.objects.select_for_update().get(pk=venue.event_id)  # one merge of an event at a time
    rows = read_bundle(data, key=venue.bundle_key, event_uid=event.uid, venue=venue.code)
    tables = {(t.group.session.number, t.number): t for t in Table.objects.filter(group__session__event=event)
              .select_related("group__session", "group__venue")}
    seats, hands = set(event.get_ruleset().seats), event.get_ruleset().hands_per_session
    for row in rows:
        table = tables.get((row.session, row.table))
        where = {"venue": venue.code, "table": row.table, "set": row.set_no, "session": row.session}
        if table is None or table.group.venue_id != venue.pk:
            raise BundleError("bundle", _("venue %(venue)s, table %(table)s, set %(set)s (session %(session)s): that table "
                                          "is not one of this venue's; nothing was merged") % where)
        if row.set_no > hands or set(row.changes) != seats:
            raise BundleError("bundle", _("venue %(venue)s, table %(table)s, set %(set)s (session %(session)s): not a result "
                                          "of this event's rule set (its sets and seats); nothing was merged") % where)
    stored_rows = {(r.session_number, r.table.number, r.set_no): r for r in HandResult.objects.filter(
        event=event, table__group__venue=venue).select_related("table")}
    stored = {slot: BundleRow(*slot, r.revision, r.changes, r.outcome) for slot, r in stored_rows.items()}
    plan = merge(stored, rows, venue.code)
    actor = f"venue {venue.code}"[:150]
    reason = _("merged from the venue's results bundle")
    confirmed = HandResult.Status.CONFIRMED
    created = HandResult.objects.bulk_create(  # the new results: a few statements however many
        HandResult(event=event, table=tables[(row.session, row.table)], session_number=row.session, set_no=row.set_no,
                   changes=dict(row.changes), outcome=row.outcome, revision=row.revision, status=confirmed,
                   entered_by=actor, confirmed_by=actor) for row in plan.new)
    history = [(result, None) for result in created]
    for row in plan.newer:  # a correction made at the venue: rare, one by one
        result = stored_rows[row.slot]
        history.append((result, result.changes))
        result.changes, result.outcome, result.revision = dict(row.changes), row.outcome, row.revision
        result.status, result.confirmed_by = confirmed, actor
        result.save(update_fields=["changes", "outcome", "revision", "status", "confirmed_by", "updated_at"])
    ResultRevision.objects.bulk_create(
        ResultRevision(result=result, revision=result.revision, action="bundle", status=confirmed, changes=result.changes,
                       previous=previous, outcome=result.outcome, actor=actor, reason=reason)
        for result, previous in history)
    scopes = _to_rescore(event, {(row.session, row.set_no, tables[(row.session, row.table)].group_id) for row in plan.writes})
    for k, (session, set_no, group_id) in enumerate(scopes, start=1):
        rescore_set(event, session, set_no, group_id)  # releases the set once every venue has played it
        progress(round(100 * k / len(scopes)))
    touched = {(row.session, row.set_no) for row in plan.writes}
    public = visibility.released_sets(event)
    released = sum(1 for key in touched if key in public)
    report = {"new": len(plan.new), "newer": len(plan.newer), "same": plan.same, "older": plan.older, "sets": len(scopes)}
    event.log("bundle-merged", actor, venue=venue.code, **report)
    return report | {"released": released}
