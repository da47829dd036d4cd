from django.contrib import admin

from walls.models import PrintJob, WallSet


@admin.register(WallSet)
class WallSetAdmin(admin.ModelAdmin):
    list_display = ["event", "session_number", "set_no", "created_at"]


@admin.register(PrintJob)
class PrintJobAdmin(admin.ModelAdmin):
    list_display = ["event", "kind", "status", "progress", "total", "created_at"]
