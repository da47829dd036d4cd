"""Admin of results, converted scores and PIN confirmations, kept to the visibility rule
(:mod:`scoring.visibility`; :class:`tournament.admin.GuardedAdmin`): a staff user without
superuser rights sees results and converted scores of the events where they are director or
staff, and of released sets elsewhere; confirmation attempts only of their own events."""

from django.contrib import admin

from scoring.models import ConfirmationAttempt, ConversionTable, HandResult, ResultRevision, SetScore
from scoring.visibility import PUBLIC, visible_results, visible_scores
from tournament.admin import GuardedAdmin, ReadOnlyAdmin, secret_event_ids


class RevisionInline(admin.TabularInline):
    model = ResultRevision
    extra = 0
    can_delete = False
    readonly_fields = ["revision", "action", "status", "changes", "previous", "actor", "reason", "at"]

    def get_queryset(self, request):
        """Revisions of the results the user may see (the parent page is already limited; this
        keeps the rule if the inline is used elsewhere)."""
        queryset = super().get_queryset(request)
        ids = secret_event_ids(request)
        if ids is None:
            return queryset
        results = HandResult.objects.filter(event__in=ids) | visible_results(PUBLIC, HandResult.objects.all())
        return queryset.filter(result__in=results.values("pk"))

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(HandResult)
class HandResultAdmin(GuardedAdmin):
    rows = "released"
    list_display = ["event", "session_number", "set_no", "table", "status", "changes"]
    list_filter = ["event", "status"]
    list_select_related = ["event", "table"]
    inlines = [RevisionInline]

    def public_rows(self, queryset):
        return visible_results(PUBLIC, queryset)

    def has_change_permission(self, request, obj=None):
        return False  # corrections go through scoring.actions.confirmation.correct_result, which keeps the history

    def has_delete_permission(self, request, obj=None):
        return False  # a deleted result would lose its history and leave its set's scores as they were


@admin.register(SetScore)
class SetScoreAdmin(GuardedAdmin):
    rows = "released"
    list_display = ["event", "session_number", "set_no", "team", "player", "score_change", "points"]
    list_filter = ["event"]
    list_select_related = ["event", "team", "player"]

    def public_rows(self, queryset):
        return visible_scores(PUBLIC, queryset)


@admin.register(ConfirmationAttempt)
class ConfirmationAttemptAdmin(ReadOnlyAdmin):
    event_path = "table__group__session__event"
    rows = "secret"
    list_display = ["at", "table", "result", "seat", "ok", "cleared", "actor"]
    list_filter = ["table__group__session__event", "ok", "cleared"]


@admin.register(ConversionTable)
class ConversionTableAdmin(GuardedAdmin):
    list_display = ["__str__", "event", "code", "version"]
    list_filter = ["event"]
