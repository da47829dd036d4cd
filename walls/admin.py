"""Admin of wall sets and print jobs, kept to the visibility rule (:mod:`scoring.visibility`;
:class:`tournament.admin.GuardedAdmin`): a staff user without superuser rights reads the walls
of the events where they are director or staff and of released sets elsewhere, and the print
jobs (stickers and set-up sheets show every tile) only of their own events."""

from django.contrib import admin

from scoring.visibility import PUBLIC, visible_walls
from tournament.admin import GuardedAdmin
from walls.models import PrintJob, WallSet


@admin.register(WallSet)
class WallSetAdmin(GuardedAdmin):
    rows = "released"
    list_display = ["event", "session_number", "set_no", "created_at"]
    list_filter = ["event"]
    list_select_related = ["event"]

    def public_rows(self, queryset):
        return visible_walls(PUBLIC, queryset)


@admin.register(PrintJob)
class PrintJobAdmin(GuardedAdmin):
    rows = "secret"
    list_display = ["event", "kind", "status", "progress", "total", "created_at"]
    list_filter = ["event", "status"]
