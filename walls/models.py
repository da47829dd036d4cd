"""Storage for wall sets and print jobs. Derivation lives in :mod:`walls.derivation`."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class WallSet(models.Model):
    """One hand's prepared wall set: ``piles`` maps pile name (``"E-hand"``) to its tiles in order.

    Secret: only the event's director and staff may read it until its set is released (every
    table that plays it has a confirmed result): :mod:`scoring.visibility`.
    """

    event = models.ForeignKey("tournament.Event", on_delete=models.CASCADE, related_name="wall_sets")
    session_number = models.PositiveSmallIntegerField()
    set_no = models.PositiveSmallIntegerField()
    piles = models.JSONField()
    par = models.JSONField(
        null=True, blank=True,
        help_text="The solo par of each seat (scoring.par.SetPar.as_dict()), computed the first time a page that may "
                  "show it asks (scoring.reports.analysis); None until then. As secret as the piles.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["session_number", "set_no"]
        unique_together = [("event", "session_number", "set_no")]

    def __str__(self):
        return f"{self.event.slug} {self.session_number}-{self.set_no:02d}"


class ReserveWall(models.Model):
    """A reserve wall drawn by the director for a set spoiled before play (docs/walls.md, "Reserve
    walls"): ``number`` 1, 2... per set, ``piles`` as :class:`WallSet`'s, derived from the same
    master seed by the documented extension, so the verifier re-derives it. ``tables`` are the
    tables that play it instead of the set as prepared; a table's play of it is scored as version
    ``R<number>`` (docs/scoring.md). Secret exactly as its set's WallSet is
    (:mod:`scoring.visibility`)."""

    event = models.ForeignKey("tournament.Event", on_delete=models.CASCADE, related_name="reserve_walls")
    session_number = models.PositiveSmallIntegerField()
    set_no = models.PositiveSmallIntegerField()
    number = models.PositiveSmallIntegerField()
    piles = models.JSONField()
    reason = models.TextField()
    drawn_by = models.CharField(max_length=150)
    tables = models.ManyToManyField("tournament.Table", blank=True, related_name="reserve_walls")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["session_number", "set_no", "number"]
        constraints = [models.UniqueConstraint(fields=["event", "session_number", "set_no", "number"], name="one_reserve_number_per_set")]

    def __str__(self):
        return f"{self.event.slug} {self.session_number}-{self.set_no:02d} R{self.number}"

    @property
    def label(self) -> str:
        """The version's short label, as stored on SetScore.version: ``R1``, ``R2``..."""
        return f"R{self.number}"


class PrintJob(models.Model):
    """A PDF rendering job run by Celery. Same event, kind and parameters reuse the stored file
    (``params_hash``); ``progress``/``total`` feed the director's progress bar; ``heartbeat_at``
    shows the worker is still rendering (:func:`walls.print_jobs.stalled`)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting")
        RUNNING = "running", _("Rendering")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    event = models.ForeignKey("tournament.Event", on_delete=models.CASCADE, related_name="print_jobs")
    kind = models.CharField(max_length=30)
    params = models.JSONField(default=dict)
    params_hash = models.CharField(max_length=64)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    progress = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    file = models.FileField(upload_to="prints/", blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True, help_text=(
        "Refreshed while a worker renders the job (walls.print_jobs): a job rendering without it for "
        "PRINT_STALL_SECONDS is shown stalled, with a retry."))

    class Meta:
        ordering = ["-created_at"]
        unique_together = [("event", "kind", "params_hash")]
