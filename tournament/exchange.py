"""The event export format ``dmj-event/1`` (docs/export.md): backup, interchange and the input of
the standalone wall verifier. :func:`export_event` and :func:`import_event` round-trip an event
without loss.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.color import no_style
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import timezone

from scoring.models import (
    Adjustment,
    ConfirmationAttempt,
    ConversionTable,
    FouledPlay,
    HandResult,
    ResultRevision,
    SetRelease,
    SetScore,
)
from scoring import par as par_core
from scoring import visibility
from scoring.actions.request_keys import KEY as REQUEST_KEY
from scoring.payments import PAYMENT_RULES, PaymentError
from scoring.payments.counters import clean_fixed
from scoring.reports import event_standings
from tournament.models import (
    LOGIN_CODE_LENGTH,
    AuditEntry,
    CheckIn,
    Event,
    EventRole,
    Group,
    Invitation,
    Player,
    Room,
    SeatAssignment,
    Session,
    Substitution,
    Table,
    Team,
    Venue,
    VenueSession,
    new_login_code,
)
from walls.derivation import DerivationError
from walls.derivation import commitment as seed_commitment
from walls.models import ReserveWall, WallSet
from walls.rulesets.model import RuleSet, RuleSetError
from walls.printing.i18n import ALIASES as SHEET_LANGUAGE_ALIASES
from walls.printing.templates import TemplateError
from walls.printing.tilesize import parse_tile_size

FORMAT = "dmj-event/1"
EVENT_FIELDS = [
    "uid", "slug", "name", "ruleset_code", "method", "datum_method", "comparison", "sessions_planned", "entrant_policy", "grouping_plan",
    "commitment", "public_value_source", "public_value", "seed_revealed", "base_url", "fouled_min_tables", "fouled_adjusted_points",
    "status", "scorer_corrections", "tile_size", "default_label_stock", "sheet_language", "tie_breaks", "announcement",
    "fixed_counters", "releases_held",
]


class ExchangeError(ValueError):
    """An export file that cannot be imported; the message names the field and the fix."""


def read_export_file(path: str, field: str = "file") -> dict:
    """The JSON document in the file ``path`` (a dmj-event/1 export, docs/export.md), for the
    commands that read one (import_event, verify_walls, fit_conversion). Raises ExchangeError
    naming ``field`` (the command's argument) and the path when the file cannot be read, is not
    UTF-8 or is not JSON."""
    try:
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ExchangeError(f"{field}: {path} is not a readable dmj-event/1 JSON export ({exc})") from exc


@contextmanager
def one_snapshot() -> Iterator[None]:
    """Read everything inside from one snapshot of the database, so that an export made while
    tables enter results holds no revision or PIN attempt of a result it does not hold (such a
    backup could not be imported): a transaction of its own, on PostgreSQL at ``REPEATABLE
    READ`` (on SQLite it holds the write lock, so a writer waits the export's time). Inside a
    caller's transaction, the caller's."""
    if connection.in_atomic_block:
        yield
        return
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        yield


def export_event(event: Event, *, include_secret: bool = False) -> dict:
    """The whole event as a JSON-safe dict (docs/export.md): the director's and staff's export,
    read from one snapshot of the database (:func:`one_snapshot`).

    The master seed is included only once revealed or with ``include_secret`` (a full backup:
    the director's export with the master seed); every wall, result and score, the audit log,
    the confirmation attempts (PIN locks) and the event roles (by username) are included, so this
    export is staff-only: :func:`public_export` is what everyone else gets. Tables and results
    carry their ``id`` and each revision its device's ``request_key``, so that a restore answers
    the phones' queued writes as it did before (:func:`restore_event`).
    """
    with one_snapshot():
        return _export(event, include_secret)


def _export(event: Event, include_secret: bool) -> dict:
    # Read as rows (values), not model instances: at 256 teams and 8 sessions the export holds
    # 2,048 tables, 8,192 seats and results and some 40,000 scores, and building an instance per row
    # (and a queryset per prefetched relation) cost most of its time (docs/performance.md).
    rooms = list(event.rooms.all())
    venues = list(event.venues.prefetch_related("schedule"))
    venue_codes = {v.pk: v.code for v in venues}
    sessions = _sessions(event, {r.pk: r.number for r in rooms}, venue_codes)
    results = _results(event)
    tables = list(event.conversion_tables.order_by("code", "version"))
    conversion = {t.pk: {"code": t.code, "version": t.version} for t in tables}
    return {
        "format": FORMAT,
        "exported_at": timezone.now().isoformat(),
        "event": {field: getattr(event, field) for field in EVENT_FIELDS},
        "ruleset": event.ruleset,
        "conversion_tables": [
            {"code": t.code, "name": t.name, "source": t.source, "version": t.version, "rows": t.rows,
             "current": t.current}
            for t in tables
        ],
        "walls": {
            "commitment": event.commitment,
            "public_value": event.public_value or None,
            "seed": event.master_seed if (event.seed_revealed or include_secret) else None,
            "sets": [
                {"session": w.session_number, "set": w.set_no, "piles": w.piles,
                 **({"par": w.par} if par_core.is_current(w.par) else {})}  # an outdated par is computed again
                for w in event.wall_sets.order_by("session_number", "set_no")
            ],
            "reserves": [
                {"session": r.session_number, "set": r.set_no, "reserve": r.number, "piles": r.piles, "reason": r.reason,
                 "drawn_by": r.drawn_by, "tables": sorted(t.number for t in r.tables.all())}
                for r in event.reserve_walls.prefetch_related("tables").order_by("session_number", "set_no", "number")
            ],
        },
        "venues": [
            {"number": v.number, "code": v.code, "name": v.name, "country": v.country, "offline": v.offline,
             "bundle_key": v.bundle_key, "package_made_at": v.package_made_at.isoformat() if v.package_made_at else None,
             "schedule": [{"session": w.session_number, "starts_at": w.starts_at.isoformat(), "ends_at": w.ends_at.isoformat()}
                          for w in v.schedule.all()]}
            for v in venues
        ],
        "rooms": [{"number": r.number, "name": r.name, "capacity": r.capacity, "venue": venue_codes.get(r.venue_id)}
                  for r in rooms],
        "teams": [{"number": t.number, "name": t.name, "substitute": t.substitute, "withdrawn": t.withdrawn,
                   "venue": venue_codes.get(t.venue_id)}
                  for t in event.teams.all()],
        "players": [
            {"number": p.number, "name": p.name, "team": p.team.number if p.team_id else None, "member": p.member,
             "pin": p.pin, "substitute": p.substitute, "withdrawn": p.withdrawn,
             "replaced_by": p.replaced_by.number if p.replaced_by_id else None,
             "user": p.user.get_username() if p.user_id else None, "country": p.country,
             "venue": venue_codes.get(p.venue_id)}
            for p in event.players.select_related("team", "replaced_by", "user")
        ],
        "sessions": sessions,
        "results": results,
        "scores": _scores(event, conversion),
        "released": [[s, n] for s, n in sorted(visibility.released_sets(event))],
        "standings": [{k: v for k, v in row.items() if k != "key"} for row in event_standings(event, public=False)],
        "fouled": [
            {"session": f.session_number, "set": f.set_no, "table": f.table.number, "version": f.version,
             "reason": f.reason, "marked_by": f.marked_by, "marked_at": f.marked_at.isoformat()}
            for f in FouledPlay.objects.filter(event=event).select_related("table")
            .order_by("session_number", "set_no", "table__number")
        ],
        "adjustments": [
            {"team": a.team.number if a.team_id else None, "player": a.player.number if a.player_id else None,
             "session": a.session_number, "unit": a.unit, "amount": a.amount, "reason": a.reason, "actor": a.actor,
             "at": a.at.isoformat(), "undone_at": a.undone_at.isoformat() if a.undone_at else None, "undone_by": a.undone_by}
            for a in Adjustment.objects.filter(event=event).select_related("team", "player").order_by("id")
        ],
        "substitutions": [
            {"session": s.session_number, "table": s.table.number, "seat": s.seat, "player_out": s.player_out.number,
             "player_in": s.player_in.number, "sets": list(s.sets), "for_good": s.for_good, "reason": s.reason,
             "actor": s.actor, "at": s.at.isoformat()}
            for s in Substitution.objects.filter(event=event).select_related("table", "player_out", "player_in").order_by("id")
        ],
        "check_ins": [
            {"session": c.session_number, "team": c.team.number if c.team_id else None,
             "player": c.player.number if c.player_id else None, "by": c.by, "at": c.at.isoformat()}
            for c in CheckIn.objects.filter(event=event).select_related("team", "player").order_by("session_number", "id")
        ],
        "audit_log": [
            {"action": a.action, "actor": a.actor, "detail": a.detail, "at": a.at.isoformat()}
            for a in AuditEntry.objects.filter(event=event).order_by("id")
        ],
        "confirmation_attempts": [
            {"session": c.table.group.session.number, "table": c.table.number,
             "set": c.result.set_no if c.result_id else None, "seat": c.seat, "ok": c.ok, "cleared": c.cleared,
             "actor": c.actor, "device": c.device, "address": c.address, "at": c.at.isoformat()}
            for c in ConfirmationAttempt.objects.filter(table__group__session__event=event)
            .select_related("table__group__session", "result").order_by("id")
        ],
        "roles": [
            {"username": r.user.get_username(), "role": r.role,
             "tables": sorted([t.group.session.number, t.number] for t in r.tables.all())}
            for r in EventRole.objects.filter(event=event).select_related("user")
            .prefetch_related("tables__group__session").order_by("role", "user__username")
        ],
        "invitations": [
            {"username": i.username, "account": i.user.get_username(), "role": i.role,
             "tables": sorted([t.group.session.number, t.number] for t in i.tables.all()),
             "invited_by": i.invited_by, "created": i.created.isoformat(), "status": i.status,
             "decided_at": i.decided_at.isoformat() if i.decided_at else None}
            for i in Invitation.objects.filter(event=event).select_related("user")
            .prefetch_related("tables__group__session").order_by("id")
        ],
    }


def _sessions(event: Event, room_numbers: dict[int, int], venue_codes: dict[int, str]) -> list[dict]:
    """The export's ``sessions``: each with its groups (and the code of the venue a group plays
    at, None in an event played in one place), their tables and each table's seats (``{seat letter:
    player number}``), in number order; ``room_numbers`` maps a room's id to its number,
    ``venue_codes`` a venue's id to its code. Five queries whatever the event's size (the seats' players joined, never prefetched:
    SQLite refuses an OR of more than 1,000 equalities)."""
    tables_of: dict[int, list[dict]] = {}
    seats_of: dict[int, dict] = {}
    for table_id, seat, player in (SeatAssignment.objects.filter(table__group__session__event=event)
                                   .order_by("id").values_list("table_id", "seat", "player__number")):
        seats_of.setdefault(table_id, {})[seat] = player
    for pk, group_id, number, position, room_id, login_code in (
            Table.objects.filter(group__session__event=event).order_by("number")
            .values_list("pk", "group_id", "number", "position", "room_id", "login_code")):
        tables_of.setdefault(group_id, []).append({
            "id": pk, "number": number, "position": position, "room": room_numbers.get(room_id),
            "login_code": login_code, "seats": seats_of.get(pk, {}),
        })
    groups_of: dict[int, list[dict]] = {}
    for pk, session_id, number, venue_id in (Group.objects.filter(session__event=event).order_by("number")
                                             .values_list("pk", "session_id", "number", "venue_id")):
        groups_of.setdefault(session_id, []).append({"number": number, "venue": venue_codes.get(venue_id),
                                                     "tables": tables_of.get(pk, [])})
    return [
        {"number": s.number, "regrouping_method": s.regrouping_method, "repeat_meetings": s.repeat_meetings,
         "repeat_lower_bound": s.repeat_lower_bound, "groups": groups_of.get(s.pk, [])}
        for s in event.sessions.order_by("number")
    ]


def _results(event: Event) -> list[dict]:
    """The export's ``results``, each with its ``history`` (every revision, oldest first), in the
    results' order (session, set, table number). Two queries."""
    history: dict[int, list[dict]] = {}
    for h in (ResultRevision.objects.filter(result__event=event).order_by("result", "id")
              .values("result_id", "revision", "action", "status", "changes", "previous", "outcome", "actor", "reason",
                      "at", "request_key", "request_digest")):
        history.setdefault(h.pop("result_id"), []).append(h | {"at": h["at"].isoformat()})
    return [
        {"id": r["pk"], "session": r["session_number"], "set": r["set_no"], "table": r["table__number"],
         "changes": r["changes"], "outcome": r["outcome"], "wall_flag": r["wall_flag"], "deposit": r["deposit"],
         "status": r["status"], "revision": r["revision"], "entered_by": r["entered_by"],
         "confirmed_by": r["confirmed_by"], "created_at": r["created_at"].isoformat(), "history": history.get(r["pk"], [])}
        for r in HandResult.objects.filter(event=event).values(
            "pk", "session_number", "set_no", "table__number", "changes", "outcome", "wall_flag", "deposit", "status",
            "revision", "entered_by", "confirmed_by", "created_at")
    ]


def _scores(event: Event, conversion: dict[int, dict]) -> list[dict]:
    """The export's ``scores`` (every stored set score), ordered by session, set, group, team and
    player number; ``conversion`` maps a conversion table's id to its ``{"code", "version"}`` (the
    event's tables; any other a score names is read too). One query, two with such a table."""
    rows = list(SetScore.objects.filter(event=event)
                .order_by("session_number", "set_no", "group__number", "team__number", "player__number")
                .values_list("session_number", "set_no", "group__number", "team__number", "player__number",
                             "score_change", "datum", "difference", "points", "conversion_table_id", "version", "adjusted"))
    missing = {row[9] for row in rows} - conversion.keys()
    if missing:
        conversion = conversion | {pk: {"code": code, "version": version} for pk, code, version in
                                   ConversionTable.objects.filter(pk__in=missing).values_list("pk", "code", "version")}
    return [
        {"session": session, "set": set_no, "group": group, "team": team, "player": player, "score_change": change,
         "datum": datum, "difference": difference, "points": points, "conversion_table": dict(conversion[table_id]),
         "version": version, "adjusted": adjusted}
        for (session, set_no, group, team, player, change, datum, difference, points, table_id, version, adjusted) in rows
    ]


@dataclass
class Restored:
    """What :func:`restore_event` made: the ``event``; ``roles`` attached to existing accounts
    (``[{"username" (the account's, as stored), "role", "tables"}]``); ``missing_roles``, the
    export's roles whose username has no account here, and ``ambiguous_roles``, those matching
    several accounts (usernames differing only in case), as in the export
    (``[{"username", "role", "tables"}]``): not attached, for the operator to give by hand;
    ``missing_players``, the players whose linked account (``players[].user``) was not found
    the same way (``[{"player" (number), "username"}]``); ``ids_kept``, whether the tables and
    results kept their exported ids (False: renumbered, as some were taken in this database or
    the export had none); ``keys_restored``, how many request keys came back, and
    ``keys_dropped``, how many were left out as already stored in this database (another
    event's writes: that event keeps answering for them)."""

    event: Event
    roles: list = field(default_factory=list)
    missing_roles: list = field(default_factory=list)
    ambiguous_roles: list = field(default_factory=list)
    missing_players: list = field(default_factory=list)
    missing_invitations: list = field(default_factory=list)
    ids_kept: bool = False
    keys_restored: int = 0
    keys_dropped: int = 0


def import_event(data: dict, *, slug: str | None = None) -> Event:
    """Recreate an event from :func:`export_event` output; returns it (:func:`restore_event`,
    without its report of the roles). Nothing is stored on error."""
    return restore_event(data, slug=slug).event


def _checked_seed(data: dict) -> str:
    """The export's ``walls.seed`` ("" when it holds none), checked against ``walls.commitment``
    (falling back to ``event.commitment``). Raises ExchangeError naming ``walls.seed`` for a
    seed that is malformed or does not match the commitment, or for an export that says the
    seed is revealed (``event.seed_revealed``) and holds none: imported, that event could never
    be verified."""
    walls, event = data.get("walls") or {}, data.get("event") or {}
    seed = walls.get("seed") or ""
    committed = str(walls.get("commitment") or event.get("commitment") or "").lower()
    if not seed:
        if event.get("seed_revealed"):
            raise ExchangeError("walls.seed: the export says the master seed is revealed but holds no seed: import an "
                                "export made after the reveal (it holds walls.seed)")
        return ""
    try:
        matches = seed_commitment(str(seed)) == committed
    except DerivationError as exc:
        raise ExchangeError(f"walls.seed: {exc}") from None
    if not matches:
        raise ExchangeError(f"walls.seed: this seed does not match the commitment {committed or '(none)'}: it is not the "
                            "event's master seed; import the export as downloaded")
    return str(seed).lower()


@transaction.atomic
def restore_event(data: dict, *, slug: str | None = None) -> Restored:
    """Recreate an event from :func:`export_event` output; returns it with what became of its
    roles (:class:`Restored`). Nothing is stored on error.

    ``slug`` imports under another short name (and a fresh uid is *not* made: the uid is part of
    every wall's derivation). The audit log, the confirmation attempts (so a PIN lock stays
    locked) and the roles come back too (older exports: none). A role goes back to the account
    whose username equals the exported one ignoring case, when exactly one does; no account is
    ever created. Tables and results keep their exported ids when none is taken in this database
    (a fresh one, or the event deleted first), so the addresses a phone holds (its table page,
    a result's confirmation) still lead to them; each revision keeps its device's request key
    unless this database holds it already (:func:`_restorable_keys`), so a write a phone sends
    again after the restore is answered as the replay it is (scoring.actions.request_keys).
    Raises ExchangeError for another format, an event that exists, a seed that is not the
    committed one (:func:`_checked_seed`), or a request key that is not one.
    """
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ExchangeError(f"format: expected {FORMAT!r}, got {data.get('format') if isinstance(data, dict) else type(data).__name__!r}")
    fields = {k: v for k, v in data["event"].items() if k in EVENT_FIELDS}  # older exports: scorer_corrections
    if "sheet_language" in fields:  # older exports: "zh", now spelt as the site's "zh-hans"
        fields["sheet_language"] = SHEET_LANGUAGE_ALIASES.get(fields["sheet_language"], fields["sheet_language"])
    if fields.get("tile_size"):
        try:
            fields["tile_size"] = parse_tile_size(str(fields["tile_size"])).code
        except TemplateError as exc:
            raise ExchangeError(f"event.tile_size: {exc.message}") from None
    elif "tile_size" in fields:
        fields["tile_size"] = ""
    if "fixed_counters" in fields:  # older exports: none (every set at 0 honba and 0 sticks)
        fields["fixed_counters"] = _checked_counters(data, fields)
    if slug:
        fields["slug"] = slug
    if Event.objects.filter(slug=fields["slug"]).exists():
        raise ExchangeError(f"event.slug: an event {fields['slug']!r} exists already: import with another slug")
    if Event.objects.filter(uid=fields["uid"]).exists():
        raise ExchangeError(f"event.uid: this event ({fields['uid']}) is already in the database")
    walls = data["walls"]
    event = Event.objects.create(ruleset=data["ruleset"], master_seed=_checked_seed(data), **fields)
    current = next((i for i, t in enumerate(data["conversion_tables"]) if t.get("current")), None)
    tables = {(t["code"], t["version"]): row for t, row in zip(data["conversion_tables"], ConversionTable.objects.bulk_create(
        ConversionTable(event=event, code=t["code"], name=t["name"], source=t["source"], version=t["version"], rows=t["rows"],
                        current=i == current)
        for i, t in enumerate(data["conversion_tables"])))}
    WallSet.objects.bulk_create([
        WallSet(event=event, session_number=w["session"], set_no=w["set"], piles=w["piles"], par=_checked_par(w, i))
        for i, w in enumerate(walls["sets"])
    ])
    venues = _restore_venues(event, data.get("venues", []))  # older exports: none
    rooms = {r["number"]: row for r, row in zip(data["rooms"], Room.objects.bulk_create(
        Room(event=event, number=r["number"], name=r["name"], capacity=r["capacity"], venue=_venue_of(venues, r, "rooms"))
        for r in data["rooms"]))}
    teams = {t["number"]: row for t, row in zip(data["teams"], Team.objects.bulk_create(
        Team(event=event, number=t["number"], name=t["name"], substitute=t.get("substitute", False),
             withdrawn=t.get("withdrawn", False), venue=_venue_of(venues, t, "teams"))
        for t in data["teams"]))}
    new_players = [Player(event=event, number=p["number"], name=p["name"], member=p["member"], pin=p["pin"],
                          team=teams.get(p["team"]), substitute=p.get("substitute", False), withdrawn=p.get("withdrawn", False),
                          country=str(p.get("country") or "")[:3], venue=_venue_of(venues, p, "players"))
                   for p in data["players"]]
    Player.unique_pins(new_players, set())  # as Player.save does, one by one in the export's order
    players = {p["number"]: row for p, row in zip(data["players"], Player.objects.bulk_create(new_players))}
    replaced = []
    for p in data["players"]:
        if p.get("replaced_by") is not None:
            players[p["number"]].replaced_by = players[p["replaced_by"]]
            replaced.append(players[p["number"]])
    Player.objects.bulk_update(replaced, ["replaced_by"])
    sessions = Session.objects.bulk_create(
        Session(event=event, number=s["number"], regrouping_method=s["regrouping_method"],
                repeat_meetings=s["repeat_meetings"], repeat_lower_bound=s["repeat_lower_bound"])
        for s in data["sessions"])
    group_rows = {(s["number"], g["number"]): row for s, g, row in zip(
        [s for s in data["sessions"] for _ in s["groups"]], [g for s in data["sessions"] for g in s["groups"]],
        Group.objects.bulk_create(Group(session=session, number=g["number"], venue=_venue_of(venues, g, "sessions.groups"))
                                  for s, session in zip(data["sessions"], sessions) for g in s["groups"]))}
    exported_tables = [(s["number"], g["number"], t) for s in data["sessions"] for g in s["groups"] for t in g["tables"]]
    keep_ids = bool(exported_tables) and _ids_free(Table, [t.get("id") for _, _, t in exported_tables]) and _ids_free(
        HandResult, [r.get("id") for r in data["results"]])  # older exports: none
    table_rows = {(number, t["number"]): row for (number, _, t), row in zip(exported_tables, Table.objects.bulk_create(
        Table(id=t["id"] if keep_ids else None, group=group_rows[(number, group)], position=t["position"], number=t["number"],
              room=rooms.get(t["room"]), login_code=_login_code_of(t))
        for number, group, t in exported_tables))}
    SeatAssignment.objects.bulk_create(
        SeatAssignment(table=table_rows[(number, t["number"])], seat=seat, player=players[player], team=players[player].team)
        for number, _, t in exported_tables for seat, player in t["seats"].items())
    reserves = walls.get("reserves", [])  # older exports: none
    reserve_rows = ReserveWall.objects.bulk_create(
        ReserveWall(event=event, session_number=r["session"], set_no=r["set"], number=r["reserve"], piles=r["piles"],
                    reason=r.get("reason", ""), drawn_by=r.get("drawn_by", ""))
        for r in reserves)
    ReserveWall.tables.through.objects.bulk_create(
        ReserveWall.tables.through(reservewall=reserve, table=table_rows[(r["session"], n)])
        for r, reserve in zip(reserves, reserve_rows) for n in dict.fromkeys(r.get("tables", [])))
    result_rows = {(r["session"], r["table"], r["set"]): row for r, row in zip(data["results"], _bulk_dated(HandResult, "created_at", [
        (HandResult(id=r["id"] if keep_ids else None, event=event, table=table_rows[(r["session"], r["table"])],
                    session_number=r["session"], set_no=r["set"],
                    changes=r["changes"], outcome=r["outcome"], wall_flag=_checked_wall_flag(r), deposit=r["deposit"],
                    status=r["status"], revision=r["revision"],
                    entered_by=r["entered_by"], confirmed_by=r["confirmed_by"]), r["created_at"])
        for r in data["results"]]))}
    if keep_ids and connection.vendor != "sqlite":  # SQLite's AUTOINCREMENT follows the ids inserted
        with connection.cursor() as cursor:
            for sql in connection.ops.sequence_reset_sql(no_style(), [Table, HandResult]):
                cursor.execute(sql)
    keys, dropped = _restorable_keys(data["results"])
    _bulk_dated(ResultRevision, "at", [
        (ResultRevision(result=result_rows[(r["session"], r["table"], r["set"])],
                        **{k: v for k, v in h.items() if k not in ("at", "request_key", "request_digest")},
                        request_key=h.get("request_key") if h.get("request_key") in keys else None,
                        request_digest=str(h.get("request_digest") or "")[:32] if h.get("request_key") in keys else ""),
         h["at"])
        for r in data["results"] for h in r["history"]])
    SetScore.objects.bulk_create([
        SetScore(event=event, session_number=s["session"], set_no=s["set"],
                 group=group_rows.get((s["session"], s["group"])), team=teams.get(s["team"]),
                 player=players.get(s["player"]), score_change=s["score_change"], datum=s["datum"],
                 difference=s["difference"], points=s["points"],
                 conversion_table=tables[(s["conversion_table"]["code"], s["conversion_table"]["version"])],
                 version=s.get("version", ""), adjusted=s.get("adjusted", False))
        for s in data["scores"]
    ])
    _bulk_dated(FouledPlay, "marked_at", [
        (FouledPlay(event=event, table=table_rows[(f["session"], f["table"])], session_number=f["session"], set_no=f["set"],
                    version=f["version"], reason=f["reason"], marked_by=f["marked_by"]), f["marked_at"])
        for f in data.get("fouled", [])])
    _bulk_dated(Adjustment, "at", [  # older exports: none
        (Adjustment(event=event, team=teams.get(a["team"]) if a.get("team") is not None else None,
                    player=players.get(a["player"]) if a.get("player") is not None else None, session_number=a.get("session"),
                    unit=a["unit"], amount=a["amount"], reason=a["reason"], actor=a.get("actor", ""),
                    undone_at=a.get("undone_at"), undone_by=a.get("undone_by", "")), a.get("at"))
        for a in data.get("adjustments", [])])
    _bulk_dated(Substitution, "at", [
        (Substitution(event=event, session_number=sub["session"], table=table_rows[(sub["session"], sub["table"])],
                      seat=sub["seat"], player_out=players[sub["player_out"]], player_in=players[sub["player_in"]],
                      sets=sub["sets"], for_good=sub.get("for_good", False), reason=sub.get("reason", ""),
                      actor=sub.get("actor", "")), sub.get("at"))
        for sub in data.get("substitutions", [])])
    _bulk_dated(CheckIn, "at", [
        (CheckIn(event=event, session_number=c["session"], team=teams.get(c["team"]) if c.get("team") is not None else None,
                 player=players.get(c["player"]) if c.get("player") is not None else None, by=c.get("by", "")), c.get("at"))
        for c in data.get("check_ins", [])])
    SetRelease.objects.bulk_create([SetRelease(event=event, session_number=n, set_no=k) for n, k in _released(data)])
    visibility.sync_releases(event)  # exports made before releases were stored
    _bulk_dated(AuditEntry, "at", [
        (AuditEntry(event=event, action=a["action"], actor=a.get("actor", ""), detail=a.get("detail") or {}), a.get("at"))
        for a in data.get("audit_log", [])])  # older exports: none
    _bulk_dated(ConfirmationAttempt, "at", [
        (ConfirmationAttempt(table=table_rows[(c["session"], c["table"])],
                             result=result_rows[(c["session"], c["table"], c["set"])] if c.get("set") is not None else None,
                             seat=c.get("seat", ""), ok=c["ok"], cleared=c.get("cleared", False), actor=c.get("actor", ""),
                             device=c.get("device", ""), address=c.get("address", "")),
         c.get("at"))
        for c in data.get("confirmation_attempts", [])])  # older exports: none
    restored = Restored(event, ids_kept=keep_ids, keys_restored=len(keys), keys_dropped=dropped)
    roles, invitations = data.get("roles", []), data.get("invitations", [])  # older exports: none
    accounts = _accounts([entry["username"] for entry in roles]
                         + [entry.get("account") or entry["username"] for entry in invitations]
                         + [p["user"] for p in data["players"] if p.get("user")])
    _restore_roles(restored, roles, table_rows, accounts)
    _restore_invitations(restored, invitations, table_rows, accounts)
    linked = []
    for p in data["players"]:
        if p.get("user"):  # older exports: none
            account = accounts.get(p["user"].lower(), [])
            if len(account) != 1:
                restored.missing_players.append({"player": p["number"], "username": p["user"]})
            else:
                players[p["number"]].user = account[0]
                linked.append(players[p["number"]])
    Player.objects.bulk_update(linked, ["user"])
    return restored


def _restore_venues(event: Event, venues: list) -> dict[str, Venue]:
    """The export's ``venues`` stored for ``event`` (with their schedules), by code."""
    rows = Venue.objects.bulk_create(
        Venue(event=event, number=v["number"], code=v["code"], name=v["name"], country=v.get("country", ""),
              offline=v.get("offline", False), bundle_key=v.get("bundle_key") or Venue._meta.get_field("bundle_key").default(),
              package_made_at=v.get("package_made_at"))
        for v in venues)
    VenueSession.objects.bulk_create(
        VenueSession(venue=row, session_number=w["session"], starts_at=w["starts_at"], ends_at=w["ends_at"])
        for v, row in zip(venues, rows) for w in v.get("schedule", []))
    return {row.code: row for row in rows}


def _venue_of(venues: dict[str, Venue], entry: dict, where: str) -> Venue | None:
    """The venue ``entry`` (a room, team, player or group of the export) names by code; raises
    ExchangeError naming ``where`` for a code the export's ``venues`` do not hold."""
    code = entry.get("venue")
    if code is None:
        return None
    if code not in venues:
        raise ExchangeError(f"{where}: venue {code!r} is not in the export's venues: export the event again")
    return venues[code]


def _ids_free(model, ids: list) -> bool:
    """Whether rows of ``model`` can keep the exported ``ids``: every one given (a whole number
    from 1; an older export has none), none twice, and none taken in this database (one query
    per 10,000; none without rows)."""
    if not all(isinstance(i, int) and not isinstance(i, bool) and 0 < i < 2**63 for i in ids) or len(set(ids)) != len(ids):
        return False
    return not any(model.objects.filter(pk__in=ids[start:start + 10000]).exists() for start in range(0, len(ids), 10000))


def _restorable_keys(results: list) -> tuple[set[str], int]:
    """The request keys of the exported ``results``' history (``history[].request_key``, older
    exports: none) to store again, and how many were left out because this database holds them
    already (another event's writes, made into this file by hand or by an export edited into
    another event: that event keeps answering for them, a key being unique; one query per
    10,000 keys, none without keys). Raises ExchangeError naming the revision for a key that is
    not 8 to 64 letters, digits and ``._:-`` or is given twice."""
    keys: dict[str, str] = {}
    for r in results:
        for h in r.get("history", []):
            key = h.get("request_key")
            if key is None:
                continue
            where = f"results (session {r.get('session')}, set {r.get('set')}, table {r.get('table')}).history[revision {h.get('revision')}].request_key"
            if not (isinstance(key, str) and REQUEST_KEY.fullmatch(key)):
                raise ExchangeError(f"{where}: {key!r} is not a request key (8 to 64 letters, digits and ._:-): leave it out or null")
            if key in keys:
                raise ExchangeError(f"{where}: {key!r} is given twice (also {keys[key]}): a key belongs to one write; leave one out")
            keys[key] = where
    wanted = list(keys)
    used: set[str] = set()
    for start in range(0, len(wanted), 10000):
        used.update(ResultRevision.objects.filter(request_key__in=wanted[start:start + 10000]).values_list("request_key", flat=True))
    return set(wanted) - used, len(used)


def _checked_counters(data: dict, fields: dict) -> dict:
    """The export's ``event.fixed_counters`` (docs/scoring.md, "Fixed honba and riichi sticks")
    checked against its rule set and sessions as the director's page checks them
    (:func:`scoring.payments.counters.clean_fixed`). Raises ExchangeError naming
    ``event.fixed_counters`` and the fix."""
    try:
        ruleset = RuleSet.from_dict(data["ruleset"])
        return clean_fixed(fields["fixed_counters"] or {}, PAYMENT_RULES[ruleset.payment_rule],
                           int(fields.get("sessions_planned") or 1), ruleset.hands_per_session)
    except (PaymentError, RuleSetError, AttributeError, TypeError, ValueError) as exc:
        raise ExchangeError(f"event.fixed_counters: {exc}: give {{\"<session>-<set>\": {{\"honba\": n, \"riichi\": n}}}} "
                            "for the sets that do not start at 0") from None


def _checked_wall_flag(result: dict) -> dict | None:
    """A result's ``wall_flag`` as exported (``{"problems": [...]}`` or null; missing in exports
    made before it was kept apart from the outcome). Raises ExchangeError naming the result for
    anything else."""
    flag = result.get("wall_flag")
    if flag is None:
        return None
    if not (isinstance(flag, dict) and isinstance(flag.get("problems"), list) and all(isinstance(p, dict) for p in flag["problems"])):
        raise ExchangeError(f"results (session {result.get('session')}, set {result.get('set')}, table {result.get('table')}).wall_flag: "
                            "not a wall flag ({\"problems\": [...]}, docs/export.md): leave it out or null")
    return flag


def _checked_par(wall: dict, index: int) -> dict | None:
    """A wall set's exported ``par`` (docs/export.md, "Par"), or None when it has none or was
    written by another version of the analysis (no ``"version"``, or not
    :data:`scoring.par.PAR_VERSION`: it is computed again when a page asks): the shape the pages
    read (``{"seats": [{"seat", "par", "best", ...}]}``). Raises ExchangeError naming
    ``walls.sets[<index>].par`` for anything else (leave it out: it is computed again)."""
    par = wall.get("par")
    if par is None:
        return None
    seats = par.get("seats") if isinstance(par, dict) else None
    if not isinstance(seats, list) or not all(isinstance(s, dict) and {"seat", "par", "best", "shanten"} <= set(s)
                                              for s in seats):
        raise ExchangeError(f"walls.sets[{index}].par: not a par analysis (docs/export.md, \"Par\"): leave it out, "
                            "it is computed again when a page asks for it")
    return par if par_core.is_current(par) else None


def _accounts(usernames: list[str]) -> dict[str, list]:
    """The accounts whose username equals one of ``usernames`` ignoring case (the database's
    ``iexact``), by lowercased username: ``{username.lower(): [account, …]}``. A name with one
    account there has its account; none or several (differing only in case): not attached
    (:func:`restore_event`). One query for the names in ASCII (``LOWER(username) IN …``), and one
    per 200 of the others (rare: ``iexact`` each, as the database folds their case); none
    without usernames."""
    wanted = {name.lower(): name for name in usernames}
    model = get_user_model()
    field = model.USERNAME_FIELD
    ascii_names = [key for key in wanted if key.isascii()]
    others = [name for key, name in wanted.items() if not key.isascii()]
    found: dict[int, Any] = {}
    if ascii_names:
        found.update((a.pk, a) for a in model.objects.annotate(_lower=Lower(field)).filter(_lower__in=ascii_names))
    for start in range(0, len(others), 200):
        match = Q()
        for name in others[start:start + 200]:
            match |= Q(**{f"{field}__iexact": name})
        found.update((a.pk, a) for a in model.objects.filter(match))
    out: dict[str, list] = {}
    for pk in sorted(found):
        account = found[pk]
        out.setdefault(account.get_username().lower(), []).append(account)
    return out


def _bulk_dated(model, field: str, rows: list) -> list:
    """Store ``rows`` (``[(unsaved instance, ISO time or None)]``) of a model whose ``field`` is set
    to now on creation (``auto_now_add``) in one bulk insert, then give each row with a time its
    exported one in one UPDATE per 10,000 rows (``UPDATE … FROM (VALUES …)``, PostgreSQL and
    SQLite 3.33 on); returns the stored instances, in order, with their ids."""
    created = model.objects.bulk_create([obj for obj, _ in rows])
    if any(obj.pk is None for obj in created):
        raise ExchangeError(f"{model._meta.db_table}: this database does not return the ids of a bulk insert")
    column = model._meta.get_field(field)
    dated = []
    for obj, (_, at) in zip(created, rows):
        if at:
            value = column.to_python(at)
            setattr(obj, field, value)
            dated.append((obj.pk, column.get_db_prep_value(value, connection)))
    quote = connection.ops.quote_name
    table, pk = quote(model._meta.db_table), quote(model._meta.pk.column)
    with connection.cursor() as cursor:
        for start in range(0, len(dated), 10000):
            chunk = dated[start:start + 10000]
            cursor.execute(
                f"UPDATE {table} SET {quote(column.column)} = v.column2 FROM (VALUES {', '.join(['(%s, %s)'] * len(chunk))}) AS v "
                f"WHERE {table}.{pk} = v.column1",
                [value for row in chunk for value in row])
    return created


def _restore_roles(restored: Restored, roles: list, table_rows: dict, accounts: dict[str, list]) -> None:
    """Attach each exported role (``{"username", "role", "tables": [[session, table], …]}``) to
    the one account whose username equals it ignoring case (``accounts``: :func:`_accounts`);
    list the others in ``restored``. A role named twice for one account is stored once, with the
    tables of its last entry. Two bulk inserts (the roles, their tables)."""
    stored: dict[tuple[int, str], tuple[EventRole, list]] = {}
    for entry in roles:
        if entry.get("role") not in EventRole.Role.values:
            raise ExchangeError(f"roles: {entry.get('role')!r} is not one of {', '.join(EventRole.Role.values)}: fix or remove it")
        report = {"username": entry["username"], "role": entry["role"], "tables": [list(t) for t in entry.get("tables", [])]}
        account = accounts.get(entry["username"].lower(), [])
        if len(account) != 1:
            (restored.ambiguous_roles if account else restored.missing_roles).append(report)
            continue
        key = (account[0].pk, entry["role"])
        role = stored[key][0] if key in stored else EventRole(event=restored.event, user=account[0], role=entry["role"])
        stored[key] = (role, [table_rows[tuple(t)] for t in report["tables"]])
        restored.roles.append(report | {"username": account[0].get_username()})
    EventRole.objects.bulk_create([role for role, _ in stored.values()])
    EventRole.tables.through.objects.bulk_create(
        EventRole.tables.through(eventrole=role, table=table) for role, tables in stored.values() for table in dict.fromkeys(tables))


def _restore_invitations(restored: Restored, invitations: list, table_rows: dict, accounts: dict[str, list]) -> None:
    """Store each exported invitation (``{"username", "account", "role", "tables", "invited_by",
    "created", "status", "decided_at"}``) again for the one account whose username equals
    ``account`` ignoring case (``accounts``: :func:`_accounts`), so a pending invitation still
    waits for its owner after a restore and the history of the others is kept; the others are
    listed in ``restored.missing_invitations`` (``[{"username", "role", "status"}]``). Raises
    ExchangeError for an unknown role or status. Two bulk inserts (the invitations, their tables)."""
    stored: list[tuple[Invitation, list]] = []
    for entry in invitations:
        if entry.get("role") not in EventRole.Role.values:
            raise ExchangeError(f"invitations: {entry.get('role')!r} is not one of {', '.join(EventRole.Role.values)}: fix or remove it")
        if entry.get("status") not in Invitation.Status.values:
            raise ExchangeError(f"invitations: status {entry.get('status')!r} is not one of {', '.join(Invitation.Status.values)}: fix or remove it")
        account = accounts.get((entry.get("account") or entry["username"]).lower(), [])
        if len(account) != 1:
            restored.missing_invitations.append({"username": entry["username"], "role": entry["role"], "status": entry["status"]})
            continue
        invitation = Invitation(
            event=restored.event, username=entry["username"], user=account[0], role=entry["role"],
            invited_by=entry.get("invited_by", ""), status=entry["status"],
            **({"created": entry["created"]} if entry.get("created") else {}), decided_at=entry.get("decided_at"))
        stored.append((invitation, [table_rows[tuple(t)] for t in entry.get("tables", [])]))
    Invitation.objects.bulk_create([invitation for invitation, _ in stored])
    Invitation.tables.through.objects.bulk_create(
        Invitation.tables.through(invitation=invitation, table=table)
        for invitation, tables in stored for table in dict.fromkeys(tables))


def _login_code_of(table: dict) -> str:
    """An exported table's login code, or a new one when the export holds a code of the old
    32-bit kind (docs/security.md: codes are 50 bits)."""
    code = str(table.get("login_code") or "")
    return code if len(code) >= LOGIN_CODE_LENGTH else new_login_code()


def _released(data: dict) -> list[tuple[int, int]]:
    """The export's ``released`` sets as ``[(session, set)]``; raises ExchangeError naming the
    entry that is not a pair of whole numbers."""
    out = []
    for entry in data.get("released", []):
        if not (isinstance(entry, (list, tuple)) and len(entry) == 2 and all(isinstance(v, int) and v > 0 for v in entry)):
            raise ExchangeError(f"released: {entry!r} is not [session, set] (two whole numbers from 1): fix or remove it")
        out.append(tuple(entry))
    return sorted(set(out))


def public_export(event: Event) -> dict:
    """The export as anyone may read it (:mod:`scoring.visibility`): walls, results and converted
    scores of released sets only, standings of released sets, no player PINs, no table login
    codes, no master seed until revealed. Adjustments are public (penalties are announced), the
    director's name left out; a substitution is listed with its released sets only (none
    released: left out), so the public per-player figures follow it and nothing is told about
    sets still in play; check-ins, the audit log, the confirmation attempts, the roles and the
    devices' request keys are left out. Read from one snapshot (:func:`one_snapshot`)."""
    with one_snapshot():
        return _public(export_event(event), event)


def public_export_bytes(event: Event) -> bytes:
    """:func:`public_export` as the UTF-8 JSON the download sends: compact, no indentation or spaces
    after separators (a machine's file: indenting it cost four times its serialisation at 256
    teams, docs/performance.md). Built uncached; the download keeps it (:mod:`tournament.cache`)."""
    return json.dumps(public_export(event), ensure_ascii=False, separators=(",", ":"), cls=DjangoJSONEncoder).encode()


def _public(data: dict, event: Event) -> dict:
    public = visibility.released_sets(event)
    data["walls"]["sets"] = [w for w in data["walls"]["sets"] if (w["session"], w["set"]) in public]
    data["walls"]["reserves"] = [r for r in data["walls"]["reserves"] if (r["session"], r["set"]) in public]
    data["results"] = [r for r in data["results"] if (r["session"], r["set"]) in public]
    data["scores"] = [s for s in data["scores"] if (s["session"], s["set"]) in public]
    data["fouled"] = [f for f in data["fouled"] if (f["session"], f["set"]) in public]
    data["standings"] = [{k: v for k, v in row.items() if k != "key"} for row in event_standings(event, public=True)]
    for adjustment in data["adjustments"]:
        adjustment.pop("actor", None)
        adjustment.pop("undone_by", None)
    substitutions = []
    for sub in data["substitutions"]:
        sets = [n for n in sub["sets"] if (sub["session"], n) in public]
        if sets:
            substitutions.append({k: v for k, v in sub.items() if k != "actor"} | {"sets": sets})
    data["substitutions"] = substitutions
    data.pop("check_ins", None)
    for private in ("audit_log", "confirmation_attempts", "roles", "invitations"):
        data.pop(private, None)
    for result in data["results"]:
        for revision in result["history"]:
            revision.pop("request_key", None)  # a device's own key: a repeat of its write is answered with the result
            revision.pop("request_digest", None)  # what that keyed write asked: the device's business too
    for player in data["players"]:
        player.pop("pin", None)
        player.pop("user", None)
    for venue in data.get("venues", []):
        venue.pop("bundle_key", None)  # signs the venue's results bundles (docs/security.md, "Venues")
    for session in data["sessions"]:
        for group in session["groups"]:
            for table in group["tables"]:
                table.pop("login_code", None)
    return data
