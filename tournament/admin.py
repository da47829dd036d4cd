from django.contrib import admin

from tournament.models import Event, EventRole, Group, Player, Room, SeatAssignment, Session, Table, Team


class SeatInline(admin.TabularInline):
    model = SeatAssignment
    extra = 0


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "ruleset_code", "method", "sessions_planned", "seed_revealed"]
    readonly_fields = ["uid", "commitment"]
    exclude = ["master_seed"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["number", "group", "position", "room", "login_code"]
    inlines = [SeatInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["number", "name", "team", "event"]
    list_filter = ["event"]


for model in (EventRole, Room, Team, Session, Group):
    admin.site.register(model)
