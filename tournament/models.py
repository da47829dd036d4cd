"""Storage for events, people, rooms, sessions, groups, tables and seat assignments.

The seating and movement rules live in :mod:`tournament.movement` and
:mod:`tournament.regrouping`; these models only store what they decided.
"""

import functools
import json
import secrets
import uuid

from django.conf import settings
from django.db import connection, models, router, transaction
from django.db.models.expressions import RawSQL
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from knox.models import AbstractAuthToken

from walls.rulesets import RuleSet
from tournament.prepared import PreparedQuery


def _uid():
    return uuid.uuid4().hex


LOGIN_CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base 32: no I, L, O, U
LOGIN_CODE_LENGTH = 10  # 50 bits: guessing one table's code takes ~10^15 tries


def new_login_code() -> str:
    """A fresh table login code: :data:`LOGIN_CODE_LENGTH` characters of Crockford's base 32."""
    return "".join(secrets.choice(LOGIN_CODE_ALPHABET) for _ in range(LOGIN_CODE_LENGTH))


_login_code = new_login_code  # the field default named by migration 0001


def display_code(code: str) -> str:
    """A table login code as shown to people: groups of five joined by dashes (``XXXXX-XXXXX``)."""
    return "-".join(code[i:i + 5] for i in range(0, len(code), 5))


def _secret_key():
    return secrets.token_hex(32)


def _pin():
    return f"{secrets.randbelow(10000):04d}"


class EventManager(models.Manager):
    """Events are read without their ``grouping_plan`` (loaded on first use, one more query): every
    page and API request reads its event, and only the seating and the sit-out credit need the
    plan, which grows with entrants times planned sessions (85 KB, 3 ms of JSON decoding per
    read at 256 teams and 60 sessions: docs/performance.md)."""

    def get_queryset(self):
        return super().get_queryset().defer("grouping_plan")


class StoredDefinition(dict):
    """A rule set definition as read from the database (a dict, as ``JSONField`` gives it) that
    remembers the JSON text it was read from, ``stored_text``: :meth:`Event.get_ruleset` finds
    the parsed rule set by that text instead of writing the JSON again (every request reads its
    event afresh). Change a definition by assigning a new dict, never in place (as
    :meth:`Event.get_ruleset`'s own cache already assumes)."""

    stored_text: str


class RuleSetDefinitionField(models.JSONField):
    """The JSON field of :attr:`Event.ruleset`: what it stores and reads is what ``JSONField``
    stores and reads; a definition read from the database comes as a :class:`StoredDefinition`.
    Migrations see a plain ``JSONField`` (:meth:`deconstruct`): the column is the same."""

    def deconstruct(self):
        name, _path, args, kwargs = super().deconstruct()
        return name, "django.db.models.JSONField", args, kwargs

    def from_db_value(self, value, expression, connection):
        parsed = super().from_db_value(value, expression, connection)
        if type(parsed) is dict and isinstance(value, str):
            parsed = StoredDefinition(parsed)
            parsed.stored_text = value
        return parsed


@functools.lru_cache(maxsize=64)
def _stored_ruleset(text: str) -> RuleSet:
    """The rule set of a definition stored as ``text`` (:class:`StoredDefinition`), found once per
    process and text: the same object as :func:`_parsed_ruleset` gives for its JSON with keys
    sorted, so every event with one definition shares one rule set, however it was read."""
    return _parsed_ruleset(json.dumps(json.loads(text), sort_keys=True))


@functools.lru_cache(maxsize=64)
def _parsed_ruleset(definition: str) -> RuleSet:
    """The rule set of ``definition`` (its JSON, keys sorted), parsed once per process: a rule set
    is immutable (frozen dataclasses and tuples), so every event with this definition shares it.
    Every request reads its event afresh, and parsing costs more than writing the JSON key."""
    return RuleSet.from_dict(json.loads(definition))


class Event(models.Model):
    """A duplicate event: its frozen rule set, scoring method, conversion table and walls' secret.

    ``ruleset`` stores ``RuleSet.to_dict()`` at creation so a later change of a preset cannot
    alter a running event. ``master_seed`` is secret until ``seed_revealed``; ``commitment`` (its
    SHA-256) is public from the start (docs/walls.md). ``Event.objects`` leaves the grouping plan
    unread until it is used (:class:`EventManager`).
    """

    objects = EventManager()

    class Method(models.TextChoices):
        TEAM = "team", _("Team")
        INDIVIDUAL = "individual", _("Individual")

    class Datum(models.TextChoices):
        AVERAGE = "average", _("Average")
        BUTLER = "butler", _("Butler (drop top and bottom)")

    class Comparison(models.TextChoices):
        GROUP = "group", _("Within the group")
        FIELD = "field", _("Across every group that played the same walls")

    slug = models.SlugField(_("short name"), unique=True, max_length=40)
    name = models.CharField(_("name"), max_length=200)
    uid = models.CharField(max_length=64, unique=True, default=_uid, editable=False)
    ruleset_code = models.CharField(_("rule set"), max_length=40)
    ruleset = RuleSetDefinitionField(_("rule set definition"))
    method = models.CharField(_("scoring method"), max_length=12, choices=Method.choices, default=Method.TEAM)
    datum_method = models.CharField(_("datum"), max_length=12, choices=Datum.choices, default=Datum.AVERAGE)
    comparison = models.CharField(_("compare against"), max_length=12, choices=Comparison.choices, default=Comparison.GROUP)
    sessions_planned = models.PositiveSmallIntegerField(_("sessions"), default=1)
    class EntrantPolicy(models.TextChoices):
        EXACT = "as-is", _("Entrants fill the groups exactly")
        SUBSTITUTES = "substitutes", _("Add substitutes to fill the groups (not ranked)")
        SIT_OUT_AVERAGE = "sit-out-average", _("Sit out in turn; a sit-out scores the entrant's average")
        SIT_OUT_DATUM = "sit-out-datum", _("Sit out in turn; a sit-out scores 0 (the datum)")

    entrant_policy = models.CharField(
        _("when entrants do not fill the groups"), max_length=20, choices=EntrantPolicy.choices, default=EntrantPolicy.EXACT,
    )
    grouping_plan = models.JSONField(
        null=True, blank=True, editable=False,
        help_text="Groups of every planned session (entrant indices), fixed when session 1 is seated.",
    )
    master_seed = models.CharField(max_length=64, blank=True, editable=False)
    commitment = models.CharField(_("master-seed commitment (SHA-256)"), max_length=64, blank=True)
    public_value_source = models.CharField(
        _("public value to mix in"), max_length=300, blank=True,
        help_text=_("What public value will be mixed into the walls and when, e.g. 'Nikkei 225 close on 2026-12-01'. Blank: none."),
    )
    public_value = models.CharField(_("public value"), max_length=300, blank=True)
    seed_revealed = models.BooleanField(_("master seed revealed"), default=False)
    #: True on a venue's own laptop (imported from its package): the central site releases the
    #: event's sets once every venue has played them, so this copy never does (scoring.visibility)
    releases_held = models.BooleanField(default=False, editable=False)
    base_url = models.URLField(_("public address"), blank=True)
    fouled_min_tables = models.PositiveSmallIntegerField(
        _("tables needed to compare a fouled version"), default=2,
        help_text=_("Law 87: a version of a fouled set played at fewer tables gets the artificial adjusted score instead."),
    )
    fouled_adjusted_points = models.IntegerField(
        _("artificial adjusted score (converted points)"), default=0,
        help_text=_("Given for a play of a fouled set that has too few tables to compare; 0 is an average."),
    )
    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft (hidden)")
        PUBLISHED = "published", _("Published")
        FINISHED = "finished", _("Finished")
        ARCHIVED = "archived", _("Archived")

    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PUBLISHED,
        help_text=_("Draft: only the event's director, staff and scorers see it. Published: listed and public. "
                    "Finished: play is over. Archived: kept, read-only, off the home page's main list."),
    )
    scorer_corrections = models.BooleanField(
        _("scorers may correct unconfirmed results"), default=True,
        help_text=_("Off: only the director changes a result once it is entered."),
    )
    tile_size = models.CharField(
        _("tile size"), max_length=20, blank=True, default="",
        help_text=_("The back of one tile: a preset code of walls.printing.tilesize.TILE_SIZES or width x height "
                    "in mm; empty: the rule set's usual tiles."),
    )
    default_label_stock = models.CharField(_("default label stock"), max_length=40, blank=True, default="")
    sheet_language = models.CharField(_("language of printed sheets"), max_length=10, default="en")
    tie_breaks = models.JSONField(
        _("tie-breaks"), default=list, blank=True,
        help_text="Codes of scoring.standings.TIE_BREAKS in order; empty: the default order.",
    )
    announcement = models.TextField(_("announcement on the projector"), blank=True, default="")
    fixed_counters = models.JSONField(
        _("honba and riichi sticks fixed per set"), default=dict, blank=True,
        help_text="{'<session>-<set>': {'honba': n, 'riichi': n}}: what lies on every table of a set before its hand; "
                  "a set not listed starts at 0 (scoring.payments.counters).",
    )
    final_export_at = models.DateTimeField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return self.name

    def save(self, *args, **kwargs):
        adding = self._state.adding
        super().save(*args, **kwargs)
        if adding:  # its version row, so the first change is one UPDATE like every other (changed())
            EventVersion.objects.get_or_create(event_id=self.pk)

    def log(self, action: str, actor: object, /, **detail) -> "AuditEntry":
        """Audit ``action`` (a short code, e.g. ``"reveal-seed"``) done by ``actor`` (a name, a
        username, or a user: cut to the 150 characters the log keeps) in this event, with
        ``detail`` (plain JSON values). The one way anything is written to the audit log (as
        pretix's ``LoggingMixin.log_action``); result revisions keep their own history
        (:class:`scoring.models.ResultRevision`). Returns the stored :class:`AuditEntry`."""
        name = actor.get_username() if hasattr(actor, "get_username") else str(actor or "")
        entry = AuditEntry.objects.create(event=self, action=action, actor=name[:150], detail=detail)
        self.changed()
        return entry

    def delete(self, using=None, keep_parents=False):
        """Delete the event and everything it holds, as Django's ``Model.delete`` does, its
        converted scores (``set_scores``, rows rescoring writes again) first, in one statement.
        Django's deletion collector would list each of them by id in one statement (they refer to
        the conversion table, a restricted foreign key), and an event of more than 65,535 of them
        would then exceed the values PostgreSQL takes in a statement bound on the server
        (:mod:`tournament.db_backend`). One transaction. Returns what ``Model.delete`` returns."""
        with transaction.atomic(using=using or router.db_for_write(Event, instance=self)):
            self.set_scores.all().delete()
            return super().delete(using=using, keep_parents=keep_parents)

    def changed(self, *, public: "bool | RawSQL" = True) -> None:
        """Bump the event's content version (:class:`EventVersion`) in the current transaction:
        every write that changes what a page, a download or the API shows calls it (an audited
        action through :meth:`log`, a result stored, a set rescored or released). One UPDATE
        (three statements the first time, when the row is made).

        The *public* version (:attr:`EventVersion.public_number`, what public pages are cached
        under) is bumped with it unless the write changed nothing the public sees: ``public``
        False (the caller knows, e.g. a set rescored and still unreleased), or a raw SQL
        expression worth 1 or 0 evaluated in the same UPDATE (e.g. 1 when "this set is released":
        :func:`scoring.visibility.released_now`, for a write that touched one set's results
        only; a result of an unreleased set is never public, docs/security.md). Raises
        TypeError for anything else. The *shared* version (:attr:`EventVersion.shared_number`)
        is bumped with the public version by a ``public`` True, never by an SQL expression: a
        write to one set's results leaves what every other set's page shows alone. The UPDATE is written in SQL, not compiled by the ORM
        (every entry and confirmation bumps the version). It leaves the constraints' modes as
        declared: the deferred foreign-key checks of the rows the transaction wrote run at COMMIT,
        as Django's deletions and bulk writes expect (docs/performance.md, "Entry, pages and
        bulk writes", on the ``SET CONSTRAINTS`` it no longer sends).

        Lock order: the version row is the last lock a write takes, so call it at the end of the
        write's transaction (two writes never wait for each other's version row while holding a
        lock the other needs)."""
        if isinstance(public, bool):
            step_sql, step_params = "%s", (int(public),)
        elif isinstance(public, RawSQL):
            step_sql, step_params = public.sql, tuple(public.params)
        else:
            raise TypeError(f"public: True, False or a RawSQL expression, not {type(public).__name__}")
        shared = int(public) if isinstance(public, bool) else 0  # a RawSQL step: one set's results only
        meta = EventVersion._meta
        number, public_number, shared_number, event_id = (meta.get_field(name).column for name in (
            "number", "public_number", "shared_number", "event"))
        # written out rather than compiled by the ORM: every entry and confirmation bumps it
        sql = (f"UPDATE {meta.db_table} SET {number} = {number} + 1, "  # noqa: S608 - names from the model
               f"{public_number} = {public_number} + ({step_sql}), {shared_number} = {shared_number} + %s WHERE {event_id} = %s")
        with connection.cursor() as cursor:
            cursor.execute(sql, (*step_params, shared, self.pk))
            if cursor.rowcount:
                return
        EventVersion.objects.bulk_create([EventVersion(event_id=self.pk, number=0)], ignore_conflicts=True)
        with connection.cursor() as cursor:
            cursor.execute(sql, (*step_params, shared, self.pk))

    def content_version(self, *, public: bool = False) -> int:
        """The event's content version (:class:`EventVersion`): a number that grows with every
        change of what its pages show, read in one query (0 before the first change); ``public``:
        the public version, which grows only when what the public sees changes (a set
        released, the director's actions: :meth:`changed`). Pages and downloads are cached
        under it and send it in their ETag."""
        return self.content_versions()[1 if public else 0]

    def content_versions(self) -> tuple[int, int]:
        """``(content version, public version)`` of :meth:`content_version`, in one query."""
        rows = _VERSIONS(self.pk)
        return tuple(rows[0]) if rows else (0, 0)

    def get_ruleset(self):
        """The event's :class:`walls.rulesets.RuleSet` (parsed once per instance and definition,
        and once per process for each definition: :func:`_parsed_ruleset`). Raises
        :class:`walls.rulesets.RuleSetError` as :meth:`RuleSet.from_dict` does."""
        cached = getattr(self, "_ruleset_cache", None)
        if cached is None or cached[0] is not self.ruleset:
            text = getattr(self.ruleset, "stored_text", None)  # read from the database: its own text (StoredDefinition)
            cached = (self.ruleset, _stored_ruleset(text) if text is not None else _parsed_ruleset(json.dumps(self.ruleset, sort_keys=True)))
            self._ruleset_cache = cached
        return cached[1]

    @property
    def needs_public_value(self) -> bool:
        return bool(self.public_value_source) and not self.public_value


class EventVersion(models.Model):
    """The content version of an event: a counter bumped (:meth:`Event.changed`) in the
    transaction of every write that changes what its pages show. A reader reads the version
    first and the data after, so a value cached under a version is never older than it; caches
    keyed by it need no invalidation."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, primary_key=True, related_name="version_row")
    number = models.PositiveBigIntegerField(default=0)
    #: bumped with ``number`` by every write except those that change only unreleased sets'
    #: results (:meth:`Event.changed`): the version public pages are cached under
    public_number = models.PositiveBigIntegerField(default=0)
    #: bumped with ``public_number`` by every public change (at least) except a write to one set's results
    #: (an entry, a confirmation and the rescoring and release it brings: :meth:`Event.changed`
    #: with an SQL step, which also adds one to a result's revision): what the page of one
    #: released set is kept under, with that set's revisions (:func:`scoring.visibility.traveller_state`)
    shared_number = models.PositiveBigIntegerField(default=0)

    def __str__(self):
        return f"{self.event_id}: {self.number}"

    @staticmethod
    def bump(event_ids) -> None:
        """Bump the content, public and shared versions of the events ``event_ids`` (None ids
        skipped; an event deleted or without a version row yet is left alone: its pages are gone
        or not cached). One UPDATE; for writes that do not go through a service, such as the
        Django admin's (which may change anything the public sees)."""
        ids = {pk for pk in event_ids if pk is not None}
        if ids:
            EventVersion.objects.filter(event_id__in=ids).update(number=models.F("number") + 1,
                                                                 public_number=models.F("public_number") + 1,
                                                                 shared_number=models.F("shared_number") + 1)


_VERSIONS = PreparedQuery(EventVersion, lambda event_id: EventVersion.objects.filter(event_id=event_id).values_list(
    "number", "public_number")[:1])  # every cached page asks it: compiled once (tournament.prepared)


class EventRole(models.Model):
    """A user's role in one event: director (everything), staff (walls and printing), scorer
    (result entry at the role's ``tables`` only), player (their own results)."""

    class Role(models.TextChoices):
        DIRECTOR = "director", _("Director")
        STAFF = "staff", _("Staff")
        SCORER = "scorer", _("Scorer")
        PLAYER = "player", _("Player")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="event_roles")
    role = models.CharField(max_length=10, choices=Role.choices)
    tables = models.ManyToManyField(
        "Table", blank=True, related_name="scorer_roles",
        help_text=_("Scorer role: the tables this scorer enters and confirms results for (none: no table)."),
    )

    class Meta:
        unique_together = [("event", "user", "role")]


class Invitation(models.Model):
    """An invitation of an existing account to a role in an event, waiting for the account's
    owner (docs/security.md, "Threats and the tests that cover them", threat 3): the role is granted only when they accept it while logged in
    (:func:`tournament.roles.accept_invitation`). An invitation that creates a new account
    grants the role at once (setting the password through the link is the acceptance) and
    leaves no row here.

    ``username`` is the name as the director typed it, ``user`` the account it matched
    (case-insensitively); ``role`` staff, scorer or director; ``tables`` a scorer's tables;
    ``invited_by`` the director's user name; ``created`` when it was sent; ``status`` pending
    until ``decided_at``, when it was accepted, declined or withdrawn. At most one pending
    invitation per event, account and role."""

    class Status(models.TextChoices):
        PENDING = "pending", _("invited, waiting")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")
        WITHDRAWN = "withdrawn", _("withdrawn")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="invitations")
    username = models.CharField(max_length=150)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations")
    role = models.CharField(max_length=10, choices=EventRole.Role.choices)
    tables = models.ManyToManyField("Table", blank=True, related_name="scorer_invitations")
    invited_by = models.CharField(max_length=150)
    created = models.DateTimeField(default=timezone.now)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "user", "role"], condition=models.Q(status="pending"),
                                    name="one_pending_invitation_per_event_user_role"),
        ]

    def __str__(self):
        return f"{self.username} → {self.role} ({self.status})"


class Venue(models.Model):
    """A club that plays the event's walls (docs/director-guide.md, "An event in several clubs"):
    every venue plays the same committed walls, each on its own schedule (:class:`VenueSession`),
    with its own rooms, entrants and groups, and directors limited to it (:class:`VenueRole`).
    An event without venues is played in one place, as before. ``bundle_key`` signs the results
    bundles of a venue that plays offline (hex, 32 bytes; secret: the central director and the
    venue's package hold it)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="venues")
    number = models.PositiveSmallIntegerField()
    code = models.SlugField(_("code"), max_length=20, help_text=_("A short name for files and addresses, e.g. 'osaka'."))
    name = models.CharField(_("venue"), max_length=100)
    country = models.CharField(_("country"), max_length=3, blank=True, default="",
                               help_text=_("ISO 3166 code of the venue's country, e.g. JPN; blank: none."))
    offline = models.BooleanField(_("plays offline (venue package and results bundle)"), default=False)
    bundle_key = models.CharField(max_length=64, default=_secret_key, editable=False)
    #: set on a venue's own laptop only: when the central site made the package this copy of the
    #: event was imported from (its standings are the venue's, provisional)
    package_made_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["number"]
        unique_together = [("event", "number"), ("event", "code")]

    def __str__(self):
        return self.name


class VenueBundle(models.Model):
    """A results bundle uploaded for an offline venue, and what its merge did: queued, then merged
    (``report``: counts of new, newer, same and older results, sets rescored) or refused
    (``report["error"]`` names the venue, table and set). Kept as the receipt of every upload."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        MERGED = "merged", _("Merged")
        REFUSED = "refused", _("Refused")

    venue = models.ForeignKey(Venue, on_delete=models.CASCADE, related_name="bundles")
    digest = models.CharField(max_length=64)
    data = models.JSONField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveSmallIntegerField(default=0)
    report = models.JSONField(default=dict, blank=True)
    uploaded_by = models.CharField(max_length=150)
    uploaded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-uploaded_at", "-id"]


class VenueSession(models.Model):
    """When a venue plays one session: its time window (the venue's own, in UTC). The last venue to
    finish a set holds it back for every venue (:mod:`scoring.visibility`)."""

    venue = models.ForeignKey(Venue, on_delete=models.CASCADE, related_name="schedule")
    session_number = models.PositiveSmallIntegerField()
    starts_at = models.DateTimeField(_("starts"))
    ends_at = models.DateTimeField(_("ends"))

    class Meta:
        ordering = ["venue", "session_number"]
        unique_together = [("venue", "session_number")]


class VenueRole(models.Model):
    """A user's role limited to one venue: its director or staff. Apart from the event's own
    roles (:class:`EventRole`): a venue role never sees another venue's results, walls still in
    play or field scores before their release (docs/security.md, "Venues")."""

    class Role(models.TextChoices):
        DIRECTOR = "director", _("Venue director")
        STAFF = "staff", _("Venue staff")

    venue = models.ForeignKey(Venue, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="venue_roles")
    role = models.CharField(max_length=10, choices=Role.choices)

    class Meta:
        unique_together = [("venue", "user", "role")]


class Room(models.Model):
    """A room of the venue; ``capacity`` is how many tables it holds (docs/rules.md, "Duplicate MCR: rooms and separation": one table a room)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rooms")
    number = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=100)
    capacity = models.PositiveSmallIntegerField(default=1)
    venue = models.ForeignKey(Venue, on_delete=models.RESTRICT, null=True, blank=True, related_name="rooms")

    class Meta:
        ordering = ["number"]
        unique_together = [("event", "number")]

    def __str__(self):
        return self.name


class Team(models.Model):
    """A team of a team event. ``withdrawn``: did not check in before session 1 was prepared (or
    left): it is not seated again and is listed nowhere it has no result."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="teams")
    number = models.PositiveIntegerField()
    name = models.CharField(_("team"), max_length=100)
    substitute = models.BooleanField(_("substitute (not ranked)"), default=False)
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    venue = models.ForeignKey(Venue, on_delete=models.RESTRICT, null=True, blank=True, related_name="teams")

    class Meta:
        ordering = ["number"]
        unique_together = [("event", "number"), ("event", "name")]

    def __str__(self):
        return self.name


class Player(models.Model):
    """An entrant. ``member`` is the 0-based position inside the team (team events); ``pin`` is the
    4-digit code with which the player confirms a result at the table."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="players")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, null=True, blank=True, related_name="players")
    number = models.PositiveIntegerField()
    member = models.PositiveSmallIntegerField(default=0)
    name = models.CharField(_("player"), max_length=100)
    pin = models.CharField(max_length=4, default=_pin)
    substitute = models.BooleanField(_("substitute (not ranked)"), default=False)
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    replaced_by = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="replaces",
        help_text="Set by a substitution 'for good': the player who takes this one's place in later sessions.",
    )
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True)
    country = models.CharField(_("country"), max_length=3, blank=True, default="")
    venue = models.ForeignKey(Venue, on_delete=models.RESTRICT, null=True, blank=True, related_name="players")

    class Meta:
        ordering = ["number"]
        unique_together = [("event", "number")]

    def __str__(self):
        return self.name

    def save(self, *args, **kwargs):
        """A new player's PIN is unique in the event: two players of one table sharing a PIN
        would let one confirm as the other (docs/security.md)."""
        if self._state.adding and self.event_id:
            Player.unique_pins([self], set(Player.objects.filter(event_id=self.event_id).values_list("pin", flat=True)))
        super().save(*args, **kwargs)

    @staticmethod
    def unique_pins(players: list["Player"], taken: set[str]) -> None:
        """Give each of ``players`` (new, unsaved) a PIN that is not in ``taken`` (the PINs of the
        event's stored players) nor another's of ``players``, drawing again where its PIN is: what
        :meth:`save` does for one player, for a bulk insert. ``taken`` grows with the PINs given."""
        for player in players:
            for _attempt in range(100):  # 10,000 PINs: free ones are found at once below thousands of players
                if player.pin not in taken:
                    break
                player.pin = _pin()
            taken.add(player.pin)


class Session(models.Model):
    """One hanchan of the event; its groups, tables and seats, and how the regrouping did."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="sessions")
    number = models.PositiveSmallIntegerField()
    regrouping_method = models.CharField(max_length=80, blank=True)
    repeat_meetings = models.PositiveIntegerField(default=0)
    repeat_lower_bound = models.PositiveIntegerField(default=0)
    staggered = models.BooleanField(
        default=False,
        help_text="The groups play their blocks in turned orders (tournament.movement.place_tables): the rooms needed it.")
    clock_duration = models.PositiveIntegerField(
        _("playing time (seconds)"), default=0, help_text="The session clock's planned time; 0: no clock set.")
    clock_extra = models.IntegerField(_("extra time (seconds)"), default=0)
    clock_elapsed = models.FloatField(default=0, help_text="Seconds run before the clock was last started.")
    clock_started_at = models.DateTimeField(null=True, blank=True, help_text="When the clock was last started; null: paused or not started.")

    class Meta:
        ordering = ["number"]
        unique_together = [("event", "number")]

    def __str__(self):
        return f"{self.event.slug} session {self.number}"


class Group(models.Model):
    """A group of a session: tables compared with each other (docs/rules.md). In an event of
    several clubs every group is at one ``venue``."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="groups")
    number = models.PositiveSmallIntegerField()
    venue = models.ForeignKey(Venue, on_delete=models.RESTRICT, null=True, blank=True, related_name="groups")

    class Meta:
        ordering = ["number"]
        unique_together = [("session", "number")]

    def __str__(self):
        return f"Group {self.number}"


class Table(models.Model):
    """A table of a group in a session. ``position`` is the 0-based table index inside the group
    that the movement uses (table k starts with block k); ``number`` is the event-wide table
    number printed on the table card; ``login_code`` is the scorer's per-table code."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="tables")
    position = models.PositiveSmallIntegerField()
    number = models.PositiveIntegerField()
    room = models.ForeignKey(Room, on_delete=models.SET_NULL, null=True, blank=True, related_name="tables")
    login_code = models.CharField(max_length=16, unique=True, default=_login_code)
    clock_extra = models.PositiveIntegerField(
        default=0, help_text="Seconds of extra time the director gave this table alone, on top of its session's clock "
                             "(tournament.clock.give_table_time).")

    class Meta:
        ordering = ["number"]
        unique_together = [("group", "position")]

    def __str__(self):
        return f"Table {self.number}"

    @property
    def login_code_display(self) -> str:
        """The login code as printed and shown (:func:`display_code`)."""
        return display_code(self.login_code)

    @property
    def session(self):
        return self.group.session


class SeatAssignment(models.Model):
    """Who sits where: one row per table and seat (wind letter)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    seat = models.CharField(max_length=1)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="seatings")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, null=True, blank=True, related_name="seatings")

    class Meta:
        unique_together = [("table", "seat"), ("table", "player")]


class AuditEntry(models.Model):
    """One audited action of an event that is not a result revision: the seed reveal, a PIN lock
    cleared, a table login refused... ``action`` is a short code, ``detail`` plain JSON."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="audit_entries")
    action = models.CharField(max_length=40)
    actor = models.CharField(max_length=150)
    detail = models.JSONField(default=dict, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "id"]
        verbose_name_plural = "audit entries"

    def __str__(self):
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor}: {self.action}"


class CheckIn(models.Model):
    """An entrant (a team in team events, a player in individual events) present for session
    ``session_number``, ticked by the director before Prepare."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="check_ins")
    session_number = models.PositiveSmallIntegerField()
    team = models.ForeignKey(Team, on_delete=models.CASCADE, null=True, blank=True, related_name="check_ins")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, null=True, blank=True, related_name="check_ins")
    by = models.CharField(max_length=150, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["session_number", "id"]
        constraints = [
            models.UniqueConstraint(fields=["session_number", "team"], name="one_check_in_per_team_session"),
            models.UniqueConstraint(fields=["session_number", "player"], name="one_check_in_per_player_session"),
        ]


class DirectorCall(models.Model):
    """A table calling the director from its phone (:mod:`tournament.calls`): why (``reason``, with
    an optional ``note``), when, and once the director has gone to the table, who answered and
    when. ``request_key``: the key the phone made for the call, so a call sent again after a
    lost connection (or from the page's offline queue) is stored once. A table has at most one
    open call (a constraint): calling again while it is open counts a repeat on it
    (``repeats``, ``last_called_at``) instead of adding a call."""

    class Reason(models.TextChoices):
        DISPUTE = "dispute", _("A dispute at the table")
        FOULED = "fouled", _("A fouled set (tiles wrong or mixed)")
        MISSING = "missing", _("A tile missing or a sticker wrong")
        OTHER = "other", _("Something else")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="director_calls")
    table = models.ForeignKey("Table", on_delete=models.CASCADE, related_name="director_calls")
    reason = models.CharField(max_length=10, choices=Reason.choices)
    note = models.CharField(max_length=200, blank=True)
    called_by = models.CharField(max_length=150, blank=True)
    called_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)
    answered_by = models.CharField(max_length=150, blank=True)
    request_key = models.CharField(max_length=64, null=True, blank=True, unique=True)
    repeats = models.PositiveIntegerField(default=0, help_text="Times the table called again while this call was open.")
    last_called_at = models.DateTimeField(null=True, blank=True, help_text="When the table last called again.")

    class Meta:
        ordering = ["called_at", "id"]
        indexes = [models.Index(fields=["event", "answered_at"])]
        constraints = [models.UniqueConstraint(fields=["table"], condition=models.Q(answered_at__isnull=True),
                                               name="one_open_call_per_table")]


class TableCallWindow(models.Model):
    """How many times ``table`` has called the director (:mod:`tournament.calls`) since
    ``started_at``, its first call of the window: the count the per-table limit of calls reads,
    kept in the database so the limit holds whatever the cache does. The director answering the
    table's call starts a new window."""

    table = models.OneToOneField("Table", on_delete=models.CASCADE, related_name="call_window")
    started_at = models.DateTimeField()
    calls = models.PositiveIntegerField(default=0)


class Substitution(models.Model):
    """A player replaced after Prepare (docs/scoring.md, "Substitutions"): at ``table``'s ``seat``
    of session ``session_number``, ``player_in`` plays the sets listed in ``sets`` (those the
    table had no result on yet) instead of ``player_out``. ``for_good``: ``player_out`` is also
    replaced in later sessions (``Player.replaced_by``)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="substitutions")
    session_number = models.PositiveSmallIntegerField()
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="substitutions")
    seat = models.CharField(max_length=1)
    player_out = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="substituted_out")
    player_in = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="substituted_in")
    sets = models.JSONField(default=list)
    for_good = models.BooleanField(default=False)
    reason = models.CharField(max_length=300)
    actor = models.CharField(max_length=150)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["session_number", "id"]


class ApiToken(AbstractAuthToken):
    """An API token (``Authorization: Token <key>``), kept by django-rest-knox as this project's
    ``KNOX_TOKEN_MODEL``: only the SHA-512 ``digest`` of the key and its first 15 characters
    (``token_key``, shown as the token's prefix) are stored, so no page, admin or database dump
    can show the key again; it is shown once, on the page that created it
    (:func:`tournament.api_tokens.create_token`). ``expiry``: after it the key is refused and the
    row deleted (None: never, only for keys carried over from the old plain-text store).

    ``event``: the event whose director page created it (None: made elsewhere, or that event is
    deleted); ``created_by``: who created it; ``last_used``: its last accepted request (updated
    at most once a minute); ``form_id``: the one-time id of the form that created it, so the same
    form sent twice (a reload) creates one token."""

    id = models.BigAutoField(primary_key=True)
    digest = models.CharField(max_length=128, unique=True)
    event = models.ForeignKey(Event, null=True, blank=True, on_delete=models.SET_NULL, related_name="api_tokens")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    last_used = models.DateTimeField(null=True, blank=True)
    form_id = models.CharField(max_length=64, unique=True, null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = _("API token")

    def __str__(self):
        return f"{self.token_key}…"
