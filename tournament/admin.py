"""The admin, kept to the secrecy of duplicate play (docs/rules.md, "Secrecy in duplicate play";
:mod:`scoring.visibility`).

- **The master seed** is never readable, searchable, filterable or orderable here, by anyone,
  superusers included: it is not a form, readonly or list field of any admin, and every lookup
  path that touches it (``?master_seed__startswith=``, ``?event__master_seed=``) is refused.
- **Lookups**: a query string filters only by the declared ``list_filter`` paths (for everyone);
  any other lookup (``?piles__contains=``, ``?changes__E=``, ``?pin=``,
  ``?login_code__startswith=``) is refused with 400, so no secret field can be probed row by row.
- **Rows** of secret data follow the visibility rule for a staff user without superuser rights:
  wall sets, hand results (with their revisions) and converted scores of the events where the
  user is director or staff, and of released sets elsewhere; audit entries, confirmation attempts
  and print jobs only of the events where the user is director or staff.
- **Drafts** follow :func:`tournament.access.may_see`: no row of a draft event (the event, its
  teams, players, tables, roles...) is listed, shown or offered in a filter to a staff user
  without a role in it (:meth:`GuardedAdmin.visible_rows`).
- **API tokens** have no admin page: only a digest and a prefix of a key are stored, and the
  director's API tokens page (:mod:`tournament.token_views`) lists and revokes them.
- **Fields** that are secret per event (a player's PIN, a table's login code) are shown, and
  editable, only for the events where the user is director or staff (superusers: every event).
"""

from __future__ import annotations

from django.contrib import admin
from django.contrib.admin.utils import get_fields_from_path, label_for_field
from django.db.models import Q
from django.db.models.constants import LOOKUP_SEP

from scoring.visibility import SECRET_ROLES
from tournament.access import visible_events
from tournament.models import AuditEntry, Event, EventRole, EventVersion, Group, Player, Room, SeatAssignment, Session, Table, Team

NEVER_SHOWN = "master_seed"  # no admin shows, searches, filters or orders by it
HIDDEN = "—"
# How list filters name their query parameters (django.contrib.admin.filters): field path plus one of these.
FILTER_SUFFIXES = ("", "__exact", "__isnull", "__gte", "__lt", "__isempty")


def touches_seed(path) -> bool:
    """Whether a field path, lookup or search field (``event__master_seed__startswith``,
    ``^master_seed``) reaches the master seed."""
    name = path[0] if isinstance(path, (list, tuple)) else path
    if not isinstance(name, str):
        return False
    return NEVER_SHOWN in name.lstrip("^=@").split(LOOKUP_SEP)


def secret_event_ids(request) -> frozenset[int] | None:
    """Primary keys of the events whose secrets ``request.user`` sees in the admin: where they
    hold a role of :data:`scoring.visibility.SECRET_ROLES` (director, staff); ``None`` for a
    superuser (every event). One query, remembered on the request."""
    user = getattr(request, "user", None)
    if user is None or not user.is_active or not user.is_staff:
        return frozenset()
    if user.is_superuser:
        return None
    cached = request.__dict__.get("_admin_secret_events")
    if cached is None:
        cached = frozenset(EventRole.objects.filter(user=user, role__in=SECRET_ROLES).values_list("event_id", flat=True))
        request.__dict__["_admin_secret_events"] = cached
    return cached


class GuardedAdmin(admin.ModelAdmin):
    """A ModelAdmin that keeps the master seed out and the event's secrets to those who see them.

    ``event_path``: the lookup path from the model to its :class:`Event` (``None``: the model is
    the event). ``secret_fields``: fields shown (in lists, forms, search, filters, ordering) only
    for the events whose secrets the user sees. ``rows``: ``"all"`` (the rows are not secret),
    ``"released"`` (secret until the set is released: :meth:`public_rows` says which rows are
    public) or ``"secret"`` (only the event's director and staff).
    """

    event_path: str | None = "event"
    secret_fields: tuple[str, ...] = ()
    rows = "all"

    # --- who sees what --------------------------------------------------------------------

    def event_id_of(self, obj) -> int | None:
        if self.event_path is None:
            return obj.pk
        *relations, last = self.event_path.split(LOOKUP_SEP)
        for name in relations:
            obj = getattr(obj, name, None)
            if obj is None:
                return None
        return getattr(obj, f"{last}_id", None)

    def sees_secrets(self, request, obj=None) -> bool:
        """Whether the user sees ``obj``'s event's secrets (without ``obj``: of every event)."""
        ids = secret_event_ids(request)
        if ids is None:
            return True
        return obj is not None and self.event_id_of(obj) in ids

    def public_rows(self, queryset):
        """The rows of ``queryset`` everyone may see (``rows = "released"``)."""
        return queryset.none()

    # --- writes: the pages cached under the event's content version see them ----------------

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        EventVersion.bump([self.event_id_of(obj)])

    def delete_model(self, request, obj):
        event_id = self.event_id_of(obj)
        super().delete_model(request, obj)
        EventVersion.bump([event_id])

    def delete_queryset(self, request, queryset):
        event_ids = [self.event_id_of(obj) for obj in queryset]
        super().delete_queryset(request, queryset)
        EventVersion.bump(event_ids)

    def get_queryset(self, request):
        """The rows the user may see: none of an event they may not see at all (a draft where
        they hold no role: :func:`tournament.access.visible_events`, the admin's :func:`may_see`),
        then, by ``rows``, the event's secret rows only to its director and staff."""
        queryset = super().get_queryset(request)
        ids = secret_event_ids(request)
        if ids is None:
            return queryset
        queryset = self.visible_rows(request, queryset)
        if self.rows == "all":
            return queryset
        own = queryset.filter(**{f"{self.event_path}__in": ids})
        if self.rows == "released":
            return own | self.public_rows(queryset)
        return own

    def visible_rows(self, request, queryset):
        """``queryset`` without the rows of events ``request.user`` may not see (drafts without a
        role); rows of no event (a shared conversion table) stay."""
        visible = visible_events(request.user).values("pk")
        if self.event_path is None:
            return queryset.filter(pk__in=visible)
        field = get_fields_from_path(self.model, self.event_path)[-1]
        shown = Q(**{f"{self.event_path}__in": visible})
        if field.null:
            shown |= Q(**{f"{self.event_path}__isnull": True})
        return queryset.filter(shown)

    def _hidden(self, request, obj=None) -> set[str]:
        """Fields not to show for ``obj`` (the master seed always)."""
        hidden = {NEVER_SHOWN}
        if not self.sees_secrets(request, obj):
            hidden |= set(self.secret_fields)
        return hidden

    # --- lookups, search, filters, ordering ------------------------------------------------

    def _filter_parameters(self, request) -> set[str]:
        allowed = set()
        for item in self.get_list_filter(request):
            if isinstance(item, (list, tuple)):
                item = item[0]
            if isinstance(item, type) and issubclass(item, admin.SimpleListFilter):
                allowed.add(item.parameter_name)
                continue
            if not isinstance(item, str):
                continue
            allowed.update(item + suffix for suffix in FILTER_SUFFIXES)
            field = get_fields_from_path(self.model, item)[-1]
            if field.is_relation:
                allowed.add(f"{item}{LOOKUP_SEP}{field.target_field.name}__exact")
        if self.date_hierarchy and not touches_seed(self.date_hierarchy):
            allowed.update(f"{self.date_hierarchy}__{part}" for part in ("year", "month", "day"))
        return allowed

    def lookup_allowed(self, lookup, value, request=None):
        """Only the parameters of the declared list filters, for everyone; never a path through
        the master seed."""
        if touches_seed(lookup):
            return False
        return lookup in self._filter_parameters(request)

    def get_list_filter(self, request):
        """The declared filters but those of hidden fields; a filter by event lists only the
        events of the rows shown (so a draft's name is not offered to a viewer without a role)."""
        hidden = self._hidden(request)
        filters = []
        for item in super().get_list_filter(request):
            if touches_seed(item) or (isinstance(item, str) and item.split(LOOKUP_SEP)[0] in hidden):
                continue
            if isinstance(item, str) and get_fields_from_path(self.model, item)[-1].related_model is Event:
                item = (item, admin.RelatedOnlyFieldListFilter)
            filters.append(item)
        return filters

    def get_search_fields(self, request):
        hidden = self._hidden(request)
        return [f for f in super().get_search_fields(request)
                if not touches_seed(f) and f.lstrip("^=@").split(LOOKUP_SEP)[0] not in hidden]

    def get_sortable_by(self, request):
        hidden = self._hidden(request)
        return [f for f in super().get_sortable_by(request)
                if not (isinstance(f, str) and (touches_seed(f) or f.lstrip("-").split(LOOKUP_SEP)[0] in hidden))]

    def get_list_display(self, request):
        """The list columns; a secret field's column shows its value only on the rows of events
        whose secrets the user sees."""
        columns = []
        for column in super().get_list_display(request):
            if isinstance(column, str) and touches_seed(column):
                continue
            if isinstance(column, str) and column in self.secret_fields and secret_event_ids(request) is not None:
                column = self._masked_column(request, column)
            columns.append(column)
        return columns

    def _masked_column(self, request, name):
        def column(obj):
            return getattr(obj, name) if self.sees_secrets(request, obj) else HIDDEN

        column.short_description = label_for_field(name, self.model, self)
        column.__name__ = f"{name}_if_allowed"
        return column

    # --- writes ---------------------------------------------------------------------------

    def may_write(self, request, obj) -> bool:
        """Whether the user may change or delete ``obj``: superusers, and the director and staff
        of its event. Roles, seats and a player's linked account are the keys to an event's
        secrets, so a staff user's admin permissions never reach another event's rows."""
        ids = secret_event_ids(request)
        return ids is None or self.event_id_of(obj) in ids

    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) and (obj is None or self.may_write(request, obj))

    def has_delete_permission(self, request, obj=None):
        return super().has_delete_permission(request, obj) and (obj is None or self.may_write(request, obj))

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        """A new or edited row can name only the events the user may write to."""
        ids = secret_event_ids(request)
        if db_field.related_model is Event and ids is not None:
            kwargs["queryset"] = Event.objects.filter(pk__in=ids)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    # --- forms ----------------------------------------------------------------------------

    def get_exclude(self, request, obj=None):
        excluded = list(super().get_exclude(request, obj) or [])
        field_names = {f.name for f in self.model._meta.get_fields()}
        return excluded + sorted(name for name in self._hidden(request, obj) if name in field_names and name not in excluded)

    def get_fields(self, request, obj=None):
        hidden = self._hidden(request, obj)
        return [f for f in super().get_fields(request, obj) if f not in hidden]

    def get_readonly_fields(self, request, obj=None):
        hidden = self._hidden(request, obj)
        return [f for f in super().get_readonly_fields(request, obj) if f not in hidden]


class ReadOnlyAdmin(GuardedAdmin):
    """A log: nobody adds, changes or deletes its rows here (superusers included)."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class SeatInline(admin.TabularInline):
    model = SeatAssignment
    extra = 0


@admin.register(Event)
class EventAdmin(GuardedAdmin):
    event_path = None
    list_display = ["name", "slug", "ruleset_code", "method", "sessions_planned", "seed_revealed"]
    list_filter = ["method", "seed_revealed"]
    search_fields = ["name", "slug"]
    # seed_revealed: set by the reveal (tournament.services.reveal_seed), with its confirmation and audit entry
    readonly_fields = ["uid", "commitment", "seed_revealed"]
    exclude = [NEVER_SHOWN]


@admin.register(Table)
class TableAdmin(GuardedAdmin):
    event_path = "group__session__event"
    secret_fields = ("login_code",)
    list_display = ["number", "group", "position", "room", "login_code"]
    list_filter = ["group__session__event"]
    list_select_related = ["group__session", "room"]
    inlines = [SeatInline]


@admin.register(Player)
class PlayerAdmin(GuardedAdmin):
    secret_fields = ("pin",)
    list_display = ["number", "name", "team", "event"]
    list_filter = ["event"]


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    rows = "secret"
    list_display = ["at", "event", "actor", "action"]
    list_filter = ["event", "action"]


@admin.register(EventRole)
class EventRoleAdmin(GuardedAdmin):
    """Roles: granted by superusers and by the event's director, never by its staff (a staff
    user could otherwise make themselves director)."""

    list_display = ["event", "user", "role"]
    list_filter = ["event", "role"]

    def _directed(self, request) -> set[int] | None:
        if request.user.is_superuser:
            return None
        return set(EventRole.objects.filter(user=request.user, role=EventRole.Role.DIRECTOR).values_list("event_id", flat=True))

    def may_write(self, request, obj) -> bool:
        directed = self._directed(request)
        return directed is None or obj.event_id in directed

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        directed = self._directed(request)
        if db_field.related_model is Event and directed is not None:
            kwargs["queryset"] = Event.objects.filter(pk__in=directed)
            return super(GuardedAdmin, self).formfield_for_foreignkey(db_field, request, **kwargs)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


@admin.register(Room, Team, Session)
class EventPartAdmin(GuardedAdmin):
    list_filter = ["event"]


@admin.register(Group)
class GroupAdmin(GuardedAdmin):
    event_path = "session__event"
    list_display = ["__str__", "session"]
    list_filter = ["session__event"]

