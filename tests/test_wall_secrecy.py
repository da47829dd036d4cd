"""docs/security.md, "Who sees what": walls are readable only by staff until every table has played the set; then they are
public (hand record). API, pages, PDFs and exports refuse them to scorers, players and visitors."""

import json

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.actions.confirmation import confirm_result
from scoring.actions.entry import submit_result
from tournament.models import EventRole, Table
from walls.models import WallSet
from walls.print_jobs import request_print

from factories import login_as_table, play_up_to

pytestmark = pytest.mark.django_db

ROLES = ["anonymous", "scorer", "player", "table-login"]


@pytest.fixture
def people(team_event, django_user_model):
    users = {}
    for role in ("staff", "scorer", "player"):
        user = django_user_model.objects.create_user(role, password="pw-" + role)
        EventRole.objects.create(event=team_event, user=user, role=role)
        users[role] = user
    return users


def client_as(client, people, role, event):
    if role in people:
        client.force_login(people[role])
    elif role == "table-login":
        table = Table.objects.filter(group__session__event=event).first()
        assert login_as_table(client, table).status_code == 302
    return client


def play_set_everywhere(event, set_no):
    """Enter and confirm a result on ``set_no`` at every table, in movement order."""
    def enter(table, s):
        confirm_result(submit_result(table, s, changes={"E": 0, "S": 0, "W": 0, "N": 0}, actor="t"), actor="d", director=True)

    play_up_to(list(Table.objects.filter(group__session__event=event)), set_no, enter)


@pytest.mark.parametrize("role", ROLES)
def test_secret_wall_page_is_refused(client, team_event, people, role):
    client_as(client, people, role, team_event)
    assert client.get(reverse("wall", args=[team_event.slug, 1, 1])).status_code == 403


def test_staff_and_director_read_a_secret_wall(client, team_event, people, director):
    wall = WallSet.objects.get(event=team_event, session_number=1, set_no=1)
    for user in (people["staff"], director):
        client.force_login(user)
        page = client.get(reverse("wall", args=[team_event.slug, 1, 1])).content.decode()
        assert wall.piles["E-hand"][0] in page and "D21" in page


@pytest.mark.parametrize("role", ROLES)
def test_secret_walls_are_null_in_the_api(client, team_event, people, role):
    client_as(client, people, role, team_event)
    rows = client.get(f"/api/events/{team_event.slug}/walls/").json()
    assert len(rows) == 16
    assert all(row["piles"] is None and row["public"] is False for row in rows)


def test_staff_sees_walls_in_the_api(team_event, people):
    api = APIClient()
    api.force_authenticate(people["staff"])
    rows = api.get(f"/api/events/{team_event.slug}/walls/").json()
    assert all(len(row["piles"]["E-draw"]) == 21 for row in rows)


@pytest.mark.parametrize("role", ROLES)
def test_export_hides_secret_walls_pins_and_table_codes(client, team_event, people, role):
    client_as(client, people, role, team_event)
    data = json.loads(client.get(reverse("event-export", args=[team_event.slug])).content)
    assert data["walls"]["sets"] == []
    assert data["walls"]["seed"] is None
    assert all("pin" not in p for p in data["players"])
    assert all("login_code" not in t for s in data["sessions"] for g in s["groups"] for t in g["tables"])


@pytest.mark.parametrize("role", ROLES)
def test_wall_pdfs_are_refused(client, team_event, people, role):
    job = request_print(team_event, "stickers", {"session": 1, "sets": [1]})
    client_as(client, people, role, team_event)
    response = client.get(reverse("print-download", args=[team_event.slug, job.pk]))
    assert response.status_code in (302, 403)  # login redirect for visitors, refusal for others
    assert not response.get("Content-Type", "").startswith("application/pdf")


def test_staff_downloads_the_sticker_pdf(client, team_event, people):
    job = request_print(team_event, "stickers", {"session": 1, "sets": [1]})
    client.force_login(people["staff"])
    response = client.get(reverse("print-download", args=[team_event.slug, job.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"


def test_a_wall_becomes_public_once_every_table_confirmed_it(client, team_event):
    play_set_everywhere(team_event, 1)
    rows = {row["set"]: row for row in client.get(f"/api/events/{team_event.slug}/walls/").json()}
    assert rows[1]["public"] is True and len(rows[1]["piles"]["E-hand"]) == 13
    assert rows[5]["piles"] is None  # set 5 (South round) not played yet everywhere
    assert client.get(reverse("wall", args=[team_event.slug, 1, 1])).status_code == 200
    data = json.loads(client.get(reverse("event-export", args=[team_event.slug])).content)
    assert [(w["session"], w["set"]) for w in data["walls"]["sets"]] == [(1, 1)]
