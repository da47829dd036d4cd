"""docs/security.md, "Who sees what": the admin keeps duplicate play's secrets (tournament/admin.py).

- The master seed cannot be read, searched, filtered (``?master_seed__startswith=``, also through
  a relation) or ordered by anyone, superusers included.
- A staff user with every ``view_*`` permission but no role in the event sees the walls, results
  and converted scores of released sets only, no PIN, no table login code, no confirmation
  attempt, audit entry or print job; lookups that could probe a secret field are refused.
- The event's staff see its secrets; a superuser sees everything but the seed.

The event is built through the services: 8 teams of the demo roster (two groups of 4 tables),
session 1 played everywhere (every set released), session 2 played by group 1 only (its results
are confirmed and group 1's converted scores computed, but no set is released).
"""

import random
import re
from dataclasses import dataclass

import pytest
from django.contrib import admin as django_admin
from django.contrib.admin.utils import flatten_fieldsets
from django.urls import reverse

from scoring.models import ConfirmationAttempt, HandResult, SetScore
from tournament.models import AuditEntry, Event, EventRole, Player, Table
from walls.models import PrintJob, WallSet

from factories import client_for, demo_roster, play_slots, prepared_event, rolled_back

pytestmark = pytest.mark.django_db

HEX = "0123456789abcdef"


@dataclass
class Built:
    event: Event
    other: Event
    root: object  # superuser
    viewer: object  # staff, every view_* permission, director of another event only
    staff: object  # staff, every view_* permission, the event's staff


@pytest.fixture(scope="module")
def built(django_db_setup, django_db_blocker):
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission

    from tournament.services import create_event, prepare_session

    with rolled_back(django_db_blocker):
        event = prepared_event(demo_roster(8), name="Secret Cup", slug="secret-cup", sessions=2)  # 8 teams: two groups
        rng = random.Random(5)
        play_slots(event, rng, session=1, actor="setup")
        prepare_session(event, 2)
        play_slots(event, rng, session=2, groups=[1], actor="setup")
        table = Table.objects.filter(group__session__event=event).first()
        ConfirmationAttempt.objects.create(table=table, ok=False, actor="someone")
        AuditEntry.objects.create(event=event, action="test-entry", actor="someone", detail={"what": "secret"})
        PrintJob.objects.create(event=event, kind="stickers", params={"session": 2}, params_hash="x" * 64)
        other = create_event(name="Other Cup", slug="other-cup")

        users = get_user_model().objects
        root = users.create_superuser("root", password="pw-root-1")
        viewer = users.create_user("viewer", password="pw-viewer-1", is_staff=True)
        staff = users.create_user("evstaff", password="pw-evstaff-1", is_staff=True)
        views = list(Permission.objects.filter(codename__startswith="view_"))
        viewer.user_permissions.set(views)
        staff.user_permissions.set(views)
        EventRole.objects.create(event=other, user=viewer, role=EventRole.Role.DIRECTOR)
        EventRole.objects.create(event=event, user=staff, role=EventRole.Role.STAFF)
        yield Built(event, other, root, viewer, staff)


def changelist(model):
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")


def change(obj):
    return reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_change", args=[obj.pk])


def rows(response):
    """The primary keys the changelist would show (all pages)."""
    assert response.status_code == 200, response.status_code
    return set(response.context["cl"].queryset.values_list("pk", flat=True))


def secret_models():
    return [WallSet, HandResult, SetScore, Player, Table, ConfirmationAttempt, AuditEntry, PrintJob]


# --- the master seed -----------------------------------------------------------------------------

def test_the_fixture_has_released_and_unreleased_sets(built):
    from scoring.visibility import released_sets

    assert released_sets(built.event) == {(1, s) for s in range(1, 17)}
    assert SetScore.objects.filter(event=built.event, session_number=2).exists()
    assert HandResult.objects.filter(event=built.event, session_number=2, status="confirmed").count() == 64


@pytest.mark.parametrize("who", ["viewer", "root"])
def test_the_seed_cannot_be_found_by_prefix(built, who):
    client = client_for(getattr(built, who))
    seed = built.event.master_seed
    bodies = set()
    for digit in HEX:
        response = client.get(changelist(Event), {"master_seed__startswith": digit})
        assert response.status_code == 400, (digit, response.status_code)
        bodies.add(response.content)
    assert len(bodies) == 1  # the first digit and every other one give the same answer
    for params in ({"master_seed": seed}, {"master_seed__gt": "7"}, {"master_seed__regex": "^a"},
                   {"master_seed__exact": seed}, {"commitment__isnull": "0", "master_seed__lt": "8"}):
        assert client.get(changelist(Event), params).status_code == 400, params
    for model in (WallSet, HandResult, SetScore, Player, Table, AuditEntry, PrintJob):
        path = "group__session__event" if model is Table else "event"
        response = client.get(changelist(model), {f"{path}__master_seed__startswith": seed[0]})
        assert response.status_code == 400, model


@pytest.mark.parametrize("who", ["viewer", "root"])
def test_the_seed_cannot_order_the_event_list(built, who):
    client = client_for(getattr(built, who))
    assert client.get(changelist(Event), {"ordering": "master_seed"}).status_code == 400
    request = client.get(changelist(Event)).wsgi_request
    model_admin = django_admin.site._registry[Event]
    for name in model_admin.get_sortable_by(request):
        assert "master_seed" not in str(name)
    assert "master_seed" not in [str(c) for c in model_admin.get_list_display(request)]
    base = client.get(changelist(Event))
    for order in ("master_seed", "-master_seed", "7", "99"):
        response = client.get(changelist(Event), {"o": order})
        assert response.status_code == 200 and built.event.master_seed not in response.content.decode()
        assert list(response.context["cl"].result_list) == list(base.context["cl"].result_list)


@pytest.mark.parametrize("who", ["viewer", "root"])
def test_search_does_not_match_the_seed(built, who):
    client = client_for(getattr(built, who))
    seed = built.event.master_seed
    assert rows(client.get(changelist(Event), {"q": "Secret"})) == {built.event.pk}
    for query in (seed, seed[:8], seed.upper()[:8]):
        assert rows(client.get(changelist(Event), {"q": query})) == set(), query


def test_search_fields_never_reach_the_seed_even_when_declared(built, rf):
    from tournament.admin import EventAdmin

    class Careless(EventAdmin):
        search_fields = ["name", "master_seed", "^master_seed", "=slug"]
        list_filter = ["method", "master_seed"]
        list_display = ["name", "master_seed"]
        sortable_by = ["name", "master_seed"]

    request = rf.get("/")
    request.user = built.root
    careless = Careless(Event, django_admin.site)
    assert careless.get_search_fields(request) == ["name", "=slug"]
    assert careless.get_list_filter(request) == ["method"]
    assert careless.get_list_display(request) == ["name"]
    assert careless.get_sortable_by(request) == ["name"]
    assert "master_seed" not in careless.get_fields(request, built.event)
    assert not careless.lookup_allowed("master_seed__startswith", "a", request)


@pytest.mark.parametrize("who", ["viewer", "staff", "root"])
def test_no_admin_page_shows_the_seed(built, who):
    client = client_for(getattr(built, who))
    seed = built.event.master_seed
    pages = [change(built.event), reverse("admin:tournament_event_history", args=[built.event.pk]),
             changelist(Event), reverse("admin:index")]
    pages += [changelist(model) for model in django_admin.site._registry if model._meta.app_label in ("tournament", "scoring", "walls")]
    for page in pages:
        response = client.get(page)
        assert response.status_code == 200, (page, response.status_code)
        body = response.content.decode()
        assert seed not in body and seed.upper() not in body, page
        assert "master_seed" not in body, page


def test_the_superusers_change_form_neither_shows_nor_takes_the_seed(built):
    client = client_for(built.root)
    response = client.get(change(built.event))
    assert "master_seed" not in response.context["adminform"].form.fields
    assert "seed_revealed" not in response.context["adminform"].form.fields  # only the reveal sets it
    data = {"slug": "secret-cup", "name": "Secret Cup", "ruleset_code": built.event.ruleset_code,
            "ruleset": '{"x": 1}', "method": "team", "datum_method": "average", "comparison": "group",
            "sessions_planned": 2, "entrant_policy": "as-is", "master_seed": "0" * 64, "seed_revealed": "on"}
    client.post(change(built.event), data)
    event = Event.objects.get(pk=built.event.pk)
    assert event.master_seed == built.event.master_seed and not event.seed_revealed


# --- secret rows ---------------------------------------------------------------------------------

def test_a_viewer_sees_only_released_walls(built):
    client = client_for(built.viewer)
    walls = WallSet.objects.filter(event=built.event)
    released = set(walls.filter(session_number=1).values_list("pk", flat=True))
    assert rows(client.get(changelist(WallSet))) == released
    hidden = walls.filter(session_number=2).first()
    response = client.get(change(hidden))
    assert response.status_code == 302 and response["Location"] == reverse("admin:index")
    shown = walls.get(session_number=1, set_no=1)
    body = client.get(change(shown)).content.decode()
    assert '"E-hand"' in body or "E-hand" in body
    assert rows(client_for(built.staff).get(changelist(WallSet))) == set(walls.values_list("pk", flat=True))
    assert rows(client_for(built.root).get(changelist(WallSet))) == set(WallSet.objects.values_list("pk", flat=True))


def test_a_viewer_sees_only_released_results_and_their_revisions(built):
    client = client_for(built.viewer)
    results = HandResult.objects.filter(event=built.event)
    assert rows(client.get(changelist(HandResult))) == set(results.filter(session_number=1).values_list("pk", flat=True))
    hidden = results.filter(session_number=2).first()
    assert client.get(change(hidden)).status_code == 302
    assert client.get(reverse("admin:scoring_handresult_history", args=[hidden.pk])).status_code == 302
    shown = results.filter(session_number=1).first()
    response = client.get(change(shown))
    assert response.status_code == 200
    inline = next(f for f in response.context["inline_admin_formsets"])
    assert {form.original.result_id for form in inline} == {shown.pk}
    assert rows(client_for(built.staff).get(changelist(HandResult))) == set(results.values_list("pk", flat=True))


def test_a_viewer_sees_only_released_scores(built):
    client = client_for(built.viewer)
    scores = SetScore.objects.filter(event=built.event)
    assert rows(client.get(changelist(SetScore))) == set(scores.filter(session_number=1).values_list("pk", flat=True))
    assert client.get(change(scores.filter(session_number=2).first())).status_code == 302
    assert rows(client_for(built.staff).get(changelist(SetScore))) == set(scores.values_list("pk", flat=True))


def test_logs_and_print_jobs_only_for_the_events_director_and_staff(built):
    viewer, staff, root = client_for(built.viewer), client_for(built.staff), client_for(built.root)
    for model, own in ((ConfirmationAttempt, ConfirmationAttempt.objects.filter(table__group__session__event=built.event)),
                       (AuditEntry, AuditEntry.objects.filter(event=built.event)),
                       (PrintJob, PrintJob.objects.filter(event=built.event))):
        assert own.exists()
        # the viewer directs the other event only: none of this event's rows (the other's own audit, its creation, it may see)
        assert not rows(viewer.get(changelist(model))) & set(own.values_list("pk", flat=True)), model
        assert viewer.get(change(own.first())).status_code == 302, model
        assert rows(staff.get(changelist(model))) == set(own.values_list("pk", flat=True)), model
        assert rows(root.get(changelist(model))) >= set(own.values_list("pk", flat=True)), model


@pytest.mark.parametrize("model", [AuditEntry, ConfirmationAttempt])
def test_logs_are_read_only_for_everyone(built, model):
    client = client_for(built.root)
    obj = model.objects.first()
    meta = model._meta
    assert client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_add")).status_code == 403
    assert client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_delete", args=[obj.pk])).status_code == 403
    page = client.get(change(obj))
    assert page.status_code == 200 and not page.context["has_change_permission"]
    assert client.post(change(obj), {"actor": "forged"}).status_code == 403
    assert model.objects.get(pk=obj.pk).actor == obj.actor


# --- secret fields -------------------------------------------------------------------------------

def test_a_viewer_sees_no_pin(built):
    client = client_for(built.viewer)
    player = Player.objects.filter(event=built.event).first()
    response = client.get(change(player))
    body = response.content.decode()
    assert response.status_code == 200 and "field-pin" not in body and 'name="pin"' not in body
    assert "pin" not in flatten_fieldsets(response.context["adminform"].fieldsets)
    listing = client.get(changelist(Player)).content.decode()
    assert "field-pin" not in listing
    staff_body = client_for(built.staff).get(change(player)).content.decode()
    assert "field-pin" in staff_body and player.pin in staff_body


def test_a_viewer_sees_no_table_login_code(built):
    client = client_for(built.viewer)
    tables = list(Table.objects.filter(group__session__event=built.event))
    listing = client.get(changelist(Table), {"all": ""}).content.decode()
    for table in tables:
        assert table.login_code not in listing
    page = client.get(change(tables[0])).content.decode()
    assert tables[0].login_code not in page and "field-login_code" not in page
    staff_listing = client_for(built.staff).get(changelist(Table), {"all": ""}).content.decode()
    assert all(t.login_code in staff_listing for t in tables[:5])
    assert tables[0].login_code in client_for(built.staff).get(change(tables[0])).content.decode()


def test_a_viewer_cannot_change_a_pin_or_a_login_code_through_the_form(built):
    from django.contrib.auth.models import Permission

    built.viewer.user_permissions.add(*Permission.objects.filter(codename__in=["change_player", "change_table"]))
    client = client_for(built.viewer)
    player = Player.objects.filter(event=built.event).first()
    form = client.get(change(player)).context["adminform"].form
    assert "pin" not in form.fields
    table = Table.objects.filter(group__session__event=built.event).first()
    assert "login_code" not in client.get(change(table)).context["adminform"].form.fields


# --- lookups that could probe secret fields ------------------------------------------------------

@pytest.mark.parametrize("who", ["viewer", "root"])
@pytest.mark.parametrize(("model", "params"), [
    (WallSet, {"piles__contains": "1m"}),
    (WallSet, {"piles__E-hand__0": "1m"}),
    (HandResult, {"changes__E": "48"}),
    (HandResult, {"changes__E__gt": "0", "session_number": "2"}),
    (HandResult, {"outcome__kind": "draw"}),
    (SetScore, {"points__gt": "0"}),
    (Player, {"pin": "1234"}),
    (Player, {"pin__startswith": "1"}),
    (Table, {"login_code__startswith": "A"}),
    (Table, {"seats__player__pin": "1234"}),
    (HandResult, {"table__login_code__startswith": "A"}),
    (ConfirmationAttempt, {"result__changes__E": "48"}),
])
def test_lookups_on_secret_fields_are_refused(built, who, model, params):
    response = client_for(getattr(built, who)).get(changelist(model), params)
    assert response.status_code == 400


def test_declared_filters_still_work(built):
    client = client_for(built.viewer)
    response = client.get(changelist(HandResult), {"event__id__exact": built.event.pk, "status__exact": "confirmed"})
    assert rows(response) == set(HandResult.objects.filter(event=built.event, session_number=1).values_list("pk", flat=True))
    assert client.get(changelist(Player), {"event__id__exact": built.other.pk}).status_code == 200
    assert client.get(changelist(Event), {"seed_revealed__exact": "0"}).status_code == 200


def test_facet_counts_follow_the_rows(built):
    client = client_for(built.viewer)
    body = client.get(changelist(HandResult), {"_facets": "True"}).content.decode()
    counts = [int(n) for n in re.findall(r"Confirmed \((\d+)\)", body)]
    assert counts and max(counts) == HandResult.objects.filter(event=built.event, session_number=1).count()


def test_admin_rights_never_reach_another_events_roles_seats_or_players(world_for_writes):
    """A staff user with every admin permission but no role in the event cannot make themselves
    its director, seat or link themselves, or pick the event in a new row."""
    client, event, user = world_for_writes
    role = EventRole.objects.filter(event=event).first()
    player = event.players.first()
    assert client.post(reverse("admin:tournament_eventrole_add"),
                       {"event": event.pk, "user": user.pk, "role": "director"}).status_code == 200  # form error: not a choice
    assert not EventRole.objects.filter(event=event, user=user).exists()
    assert client.get(reverse("admin:tournament_eventrole_change", args=[role.pk])).status_code in (200, 403)
    assert client.post(reverse("admin:tournament_eventrole_change", args=[role.pk]),
                       {"event": event.pk, "user": user.pk, "role": "director"}).status_code == 403
    assert client.post(reverse("admin:tournament_player_change", args=[player.pk]),
                       {"event": event.pk, "number": player.number, "name": player.name, "member": 0, "user": user.pk}).status_code == 403
    player.refresh_from_db()
    assert player.user_id is None


@pytest.fixture
def world_for_writes(db, django_user_model):
    from django.contrib.auth.models import Permission

    director = django_user_model.objects.create_user("write-director", password="pw")
    event = prepared_event(demo_roster(), prepare=(), director=director, name="Write Cup", slug="write-cup")
    user = django_user_model.objects.create_user("admin-writer", password="pw", is_staff=True)
    user.user_permissions.set(Permission.objects.filter(content_type__app_label="tournament"))
    return client_for(user), event, user


def test_nobody_deletes_a_result_in_the_admin(admin_client, team_event):
    play_slots(team_event, random.Random(1), groups=[1], through_set=1)
    result = HandResult.objects.filter(event=team_event).first()
    page = admin_client.get(reverse("admin:scoring_handresult_delete", args=[result.pk]))
    assert page.status_code == 403
    answer = admin_client.post(reverse("admin:scoring_handresult_changelist"),
                               {"action": "delete_selected", "_selected_action": [result.pk], "post": "yes"})
    assert answer.status_code in (200, 302)
    assert HandResult.objects.filter(pk=result.pk).exists()  # kept, with its history
