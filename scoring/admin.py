from django.contrib import admin

from scoring.models import ConversionTable, HandResult, ResultRevision, SetScore


class RevisionInline(admin.TabularInline):
    model = ResultRevision
    extra = 0
    can_delete = False
    readonly_fields = ["revision", "action", "status", "changes", "previous", "actor", "reason", "at"]


@admin.register(HandResult)
class HandResultAdmin(admin.ModelAdmin):
    list_display = ["event", "session_number", "set_no", "table", "status", "changes"]
    list_filter = ["event", "status"]
    inlines = [RevisionInline]

    def has_change_permission(self, request, obj=None):
        return False  # corrections go through scoring.services.correct_result, which keeps the history


admin.site.register(ConversionTable)
admin.site.register(SetScore)
