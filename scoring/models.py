"""Storage for conversion tables, hand results with their history, and converted scores.

The conversion, payment and standings rules live in :mod:`scoring.conversion`,
:mod:`scoring.payments` and :mod:`scoring.standings`.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring import conversion


class ConversionTableQuerySet(models.QuerySet):
    """``ConversionTable.objects``: adds :meth:`current`, the one way to ask for an event's table."""

    def current(self, event) -> "ConversionTable | None":
        """The table ``event`` converts with now (the row marked ``current``; one query), or None
        for an event stored without one."""
        return self.filter(event=event, current=True).first()


class ConversionTable(models.Model):
    """A stored conversion table (score difference → points). Edits create a new ``version``;
    converted scores keep a reference to the version they were computed with.

    ``current`` marks the one version the event converts with now (at most one per event). The
    pointer lives here, on the scoring side, so the event (seating stage) never refers up to
    scoring (docs/architecture.md)."""

    objects = ConversionTableQuerySet.as_manager()

    event = models.ForeignKey("tournament.Event", on_delete=models.CASCADE, null=True, blank=True, related_name="conversion_tables")
    code = models.CharField(max_length=40)
    name = models.CharField(max_length=200)
    source = models.TextField(blank=True)
    version = models.PositiveIntegerField(default=1)
    rows = models.JSONField(help_text="[{'from': 0, 'to': 19, 'points': 0}, ...]")
    current = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["code", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["event"], condition=models.Q(current=True), name="one_current_conversion_table"),
        ]

    def __str__(self):
        return f"{self.name} v{self.version}"

    def as_table(self):
        """The plain :class:`scoring.conversion.ConversionTable`."""
        return conversion.ConversionTable.from_rows(self.rows, name=self.name)


class HandResult(models.Model):
    """One table's result on one set: the score change of each seat (``changes``: seat → points).

    ``changes`` (JSON) and ``deposit`` (points left on the table) are within the rule set's range
    (:func:`scoring.payments.input_ranges`; at most 2,810,800 either way), checked on entry and
    correction by :func:`scoring.actions.entry.compute_changes`: see :class:`SetScore` for the sums.

    ``status``: entered → confirmed (a second seat or the director); disputed when a seat refuses.
    Unique per table and set, so two concurrent submissions cannot both be stored.

    ``wall_flag``: ``{"problems": [...]}`` when the winning tile or hand entered does not fit the
    wall the table played (:func:`scoring.actions.entry.check_wall`, problems as
    :meth:`scoring.wall_check.WallProblem.to_dict`), else None. Kept apart from ``outcome`` because
    it tells about the wall: only the director and staff see it, and everyone once the set is
    released (:func:`scoring.visibility.can_see_set`); no answer to a table carries it before.
    """

    class Status(models.TextChoices):
        ENTERED = "entered", _("Entered")
        CONFIRMED = "confirmed", _("Confirmed")
        DISPUTED = "disputed", _("Disputed")

    # indexed by result_event_set below, which begins with the event
    event = models.ForeignKey("tournament.Event", on_delete=models.CASCADE, related_name="results", db_index=False)
    table = models.ForeignKey("tournament.Table", on_delete=models.CASCADE, related_name="results")
    session_number = models.PositiveSmallIntegerField()
    set_no = models.PositiveSmallIntegerField()
    changes = models.JSONField()
    outcome = models.JSONField(null=True, blank=True)
    wall_flag = models.JSONField(null=True, blank=True, default=None)
    deposit = models.IntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ENTERED)
    revision = models.PositiveIntegerField(default=1)
    entered_by = models.CharField(max_length=150)
    confirmed_by = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["session_number", "set_no", "table__number"]
        constraints = [models.UniqueConstraint(fields=["table", "set_no"], name="one_result_per_table_and_set")]
        # one set's results across the session (a traveller's state: scoring.visibility.traveller_state)
        indexes = [models.Index(fields=["event", "session_number", "set_no"], name="result_event_set")]


class ResultRevision(models.Model):
    """The audit trail: every entry, confirmation, dispute and correction (who, when, before, after,
    why), with the device's ``request_key`` of the write when it sent one."""

    result = models.ForeignKey(HandResult, on_delete=models.CASCADE, related_name="revisions")
    revision = models.PositiveIntegerField()
    action = models.CharField(max_length=12)
    status = models.CharField(max_length=10)
    changes = models.JSONField()
    previous = models.JSONField(null=True, blank=True)
    outcome = models.JSONField(null=True, blank=True)
    actor = models.CharField(max_length=150)
    reason = models.TextField(blank=True)
    at = models.DateTimeField(auto_now_add=True)
    request_key = models.CharField(
        max_length=64, null=True, blank=True, unique=True,
        help_text="The key the device made for the write that stored this revision (an entry, confirmation, "
                  "correction or dispute sent with an Idempotency-Key): a repeat of the write is answered with the "
                  "stored result instead of being written again (scoring.actions.request_keys).")
    request_digest = models.CharField(
        max_length=32, blank=True, default="",
        help_text="A digest of what the keyed write asked (scoring.actions.request_keys.digest): the same key sent "
                  "again with a different request is refused (422), not answered as a repeat.")

    class Meta:
        ordering = ["result", "id"]


class SetScoreQuerySet(models.QuerySet):
    """Converted scores are inserted and deleted, never updated in place (the kept standings tallies
    find a changed comparison by its rows' count and largest id: :mod:`scoring.reports.standing_rows`)."""

    def update(self, **kwargs):
        raise TypeError("SetScore rows are never updated in place: delete the comparison's rows and insert new ones")

    def bulk_update(self, objs, fields, batch_size=None):
        raise TypeError("SetScore rows are never updated in place: delete the comparison's rows and insert new ones")


class SetScore(models.Model):
    """A converted score: one team's (team method) or player's (individual method) result on a set,
    compared with ``datum`` and converted to ``points`` with ``conversion_table``.

    Sizes (32-bit ``IntegerField``: at most 2,147,483,647 on PostgreSQL): every typed change is
    within the rule set's range (:func:`scoring.payments.input_ranges`: the largest hand it pays
    times its seats), at most 702,700 × 4 = 2,810,800 points over every rule; a computed one is
    at most the largest hand, 702,700. ``score_change``: a player's change, or a team's total of
    one member per seat, at most 4 × 2,810,800 = 11,243,200. ``difference`` (float): at most
    twice that, 22,486,400; ``datum`` (float) within the same bounds. ``points``: the conversion
    table's points of the difference (at most its last step) plus an adjusted score. The
    headroom, 2,147,483,647 // 22,486,400 = 95, is checked by
    :func:`scoring.payments.ranges.storage_headroom` (tests/test_input_ranges.py)."""

    event = models.ForeignKey("tournament.Event", on_delete=models.CASCADE, related_name="set_scores")
    session_number = models.PositiveSmallIntegerField()
    set_no = models.PositiveSmallIntegerField()
    group = models.ForeignKey("tournament.Group", on_delete=models.CASCADE, null=True, related_name="+")
    team = models.ForeignKey("tournament.Team", on_delete=models.CASCADE, null=True, blank=True, related_name="set_scores")
    player = models.ForeignKey("tournament.Player", on_delete=models.CASCADE, null=True, blank=True, related_name="set_scores")
    score_change = models.IntegerField()
    datum = models.FloatField()
    difference = models.FloatField()
    points = models.IntegerField()
    conversion_table = models.ForeignKey(ConversionTable, on_delete=models.RESTRICT, related_name="+")
    version = models.CharField(
        max_length=8, blank=True, default="",
        help_text="The version of the set this score compares (docs/scoring.md, 'Fouled sets and reserve walls'): "
                  "'' as prepared, 'R1' a reserve wall, 'F1' a fouled version; '*' a team score over several versions.",
    )
    adjusted = models.BooleanField(default=False, help_text="An artificial adjusted score (Law 87): its version had too few tables.")

    objects = SetScoreQuerySet.as_manager()

    class Meta:
        ordering = ["session_number", "set_no"]
        indexes = [models.Index(fields=["event", "session_number", "set_no"])]

    def save(self, *args, **kwargs):
        """Insert the row; raises TypeError for a row already stored (:class:`SetScoreQuerySet`)."""
        if not self._state.adding:
            raise TypeError("SetScore rows are never updated in place: delete the comparison's rows and insert new ones")
        super().save(*args, **kwargs)


class FouledPlay(models.Model):
    """One table's play of a set marked fouled by the director (Laws of Duplicate Bridge, Law 87
    "fouled board", adapted: docs/scoring.md). ``version`` (1, 2...) groups the tables that played
    the same wrong deal, so several tables can share one fouled version (a set built wrongly and
    moved on). Deleting the row (the director's undo) restores the table to the version it played
    before."""

    event = models.ForeignKey("tournament.Event", on_delete=models.CASCADE, related_name="fouled_plays")
    table = models.ForeignKey("tournament.Table", on_delete=models.CASCADE, related_name="fouled_plays")
    session_number = models.PositiveSmallIntegerField()
    set_no = models.PositiveSmallIntegerField()
    version = models.PositiveSmallIntegerField(default=1)
    reason = models.TextField()
    marked_by = models.CharField(max_length=150)
    marked_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["session_number", "set_no", "table__number"]
        constraints = [models.UniqueConstraint(fields=["table", "set_no"], name="one_fouled_mark_per_table_and_set")]

    @property
    def label(self) -> str:
        """The version's short label, as stored on SetScore.version: ``F1``, ``F2``..."""
        return f"F{self.version}"


class SetRelease(models.Model):
    """The moment a set became public (:mod:`scoring.visibility`): every table that holds its
    walls, in every group, had a confirmed result. Written once and never withdrawn: a later
    correction or dispute does not hide again what players have already seen (docs/security.md).
    """

    event = models.ForeignKey("tournament.Event", on_delete=models.CASCADE, related_name="set_releases")
    session_number = models.PositiveSmallIntegerField()
    set_no = models.PositiveSmallIntegerField()
    released_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["session_number", "set_no"]
        constraints = [models.UniqueConstraint(fields=["event", "session_number", "set_no"], name="one_release_per_set")]


class ConfirmationAttempt(models.Model):
    """One PIN typed to enter, correct or confirm a result at a table, right or wrong (the audit of
    opponent confirmation). Wrong attempts count towards the per-device and per-table limits of
    :func:`scoring.actions.seats.pin_wait` until the director clears them (``cleared``);
    ``device`` and ``address`` say where it was typed (:class:`scoring.actions.seats.Device`)."""

    table = models.ForeignKey("tournament.Table", on_delete=models.CASCADE, related_name="confirmation_attempts")
    result = models.ForeignKey(HandResult, on_delete=models.CASCADE, null=True, blank=True, related_name="confirmation_attempts")
    seat = models.CharField(max_length=1, blank=True, help_text="The seat whose PIN it was, when it was right.")
    ok = models.BooleanField()
    cleared = models.BooleanField(default=False)
    actor = models.CharField(max_length=150, blank=True)
    device = models.CharField(max_length=40, blank=True, default="", help_text="The device it was typed on: phone:<id> or account:<id>.")
    address = models.CharField(max_length=64, blank=True, default="", help_text="The client address it came from.")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["table", "device"], name="attempt_table_device")]


class Adjustment(models.Model):
    """A penalty or adjustment given by the director (docs/scoring.md, "Penalties and
    adjustments"): ``amount`` in ``unit`` (``mp``: converted points added to the total; ``points``:
    score points, added to the score total and converted with the event's conversion table) to a
    team (team method) or player (individual method), for one session or the whole event
    (``session_number`` null). Undone, not deleted: ``undone_at`` set."""

    class Unit(models.TextChoices):
        MP = "mp", _("MP (converted points)")
        POINTS = "points", _("score points")

    event = models.ForeignKey("tournament.Event", on_delete=models.CASCADE, related_name="adjustments")
    team = models.ForeignKey("tournament.Team", on_delete=models.CASCADE, null=True, blank=True, related_name="adjustments")
    player = models.ForeignKey("tournament.Player", on_delete=models.CASCADE, null=True, blank=True, related_name="adjustments")
    session_number = models.PositiveSmallIntegerField(null=True, blank=True)
    unit = models.CharField(max_length=8, choices=Unit.choices, default=Unit.MP)
    amount = models.IntegerField()
    reason = models.CharField(max_length=300)
    actor = models.CharField(max_length=150)
    at = models.DateTimeField(auto_now_add=True)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.CharField(max_length=150, blank=True)

    class Meta:
        ordering = ["id"]
