"""Issue 25, finding 2: no API token key is readable after its creation, by anyone.

Reproduced first as the issue found it: a staff user with only view permissions and no role in
any event read the director's token key in the admin (``/admin/authtoken/tokenproxy/``), a key
that reads every secret wall and writes results. And (finding 8) a draft event's teams and
players were listed in the admin to such a viewer.
"""

from __future__ import annotations

import pytest
from django.contrib import admin as django_admin
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.urls import reverse

from tournament.models import EventRole, Player, Team

from factories import api_key, client_for, prepared_event, team_roster

pytestmark = pytest.mark.django_db


def _viewer():
    """A staff user with every view_* permission of the admin and no role in any event."""
    viewer = get_user_model().objects.create_user("viewer", password="pw-viewer-1", is_staff=True)
    viewer.user_permissions.set(Permission.objects.filter(codename__startswith="view_"))
    return viewer


def _admin_pages(limit: int = 20):
    """Every registered admin's changelist and the change pages of its first ``limit`` rows."""
    for model in django_admin.site._registry:
        info = (model._meta.app_label, model._meta.model_name)
        yield reverse("admin:%s_%s_changelist" % info)
        for pk in model.objects.values_list("pk", flat=True)[:limit]:
            yield reverse("admin:%s_%s_change" % info, args=[pk])


def test_a_viewer_without_a_role_reads_no_token_key_in_the_admin():
    director = get_user_model().objects.create_user("director", password="pw-director-1")
    prepared_event(team_roster(4), prepare=(), director=director, name="Key Cup", slug="key-cup")
    key = api_key(director)
    client = client_for(_viewer())
    pages = ["/admin/authtoken/tokenproxy/", "/admin/authtoken/token/", *_admin_pages()]
    shown = []
    for page in pages:
        response = client.get(page)
        assert response.status_code < 500, page
        if key in response.content.decode():
            shown.append(page)
    assert shown == [], f"the director's token key is shown at {shown}"


def test_a_drafts_teams_and_players_are_not_listed_to_a_viewer_without_a_role():
    director = get_user_model().objects.create_user("director", password="pw-director-1")
    draft = prepared_event(team_roster(4), prepare=(), director=director, name="Draft Cup", slug="draft-cup",
                           status="draft")
    public = prepared_event(team_roster(4), prepare=(), name="Open Cup", slug="open-cup")
    client = client_for(_viewer())
    for model in (Team, Player):
        info = (model._meta.app_label, model._meta.model_name)
        response = client.get(reverse("admin:%s_%s_changelist" % info))
        assert response.status_code == 200
        listed = set(response.context["cl"].queryset.values_list("event_id", flat=True))
        assert draft.pk not in listed, f"the draft's {model.__name__} rows are listed"
        assert public.pk in listed  # the published event's rows still are
        hidden = model.objects.filter(event=draft).first()
        assert client.get(reverse("admin:%s_%s_change" % info, args=[hidden.pk])).status_code == 302
        # the draft's own director (no superuser) sees them
        director.is_staff = True
        director.save()
        director.user_permissions.set(Permission.objects.filter(codename__startswith="view_"))
        mine = client_for(director).get(reverse("admin:%s_%s_changelist" % info))
        assert draft.pk in set(mine.context["cl"].queryset.values_list("event_id", flat=True))
