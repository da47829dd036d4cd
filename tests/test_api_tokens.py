"""docs/security.md, "Threats and the tests that cover them", threat 2: no API token key is readable after its creation, by anyone; and the first
item of threat 8: the admin lists nothing of a draft to a viewer without a role in it.

Reproduced first as the issue found them: a staff user with only view permissions and no role in
any event read the director's token key in the admin (``/admin/authtoken/tokenproxy/``), a key
that reads every secret wall and writes results; and a draft event's teams and players were
listed in the admin to such a viewer.

Then the token store (tournament/api_tokens.py): a token created on the director's API tokens
page shows its key once, on that answer; a crawl as the superuser, the director, the event's
staff and its scorer of every admin page, every site page and every API path finds neither the
key nor its digest; the key authenticates, a revoked or expired one gets 401; who may create a
token for whom and revoke whose; the same form sent twice makes one token; the keys of the old
plain-text store are carried over hashed by the migration.
"""

from __future__ import annotations

import glob
import importlib.util
import json
import re
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib import admin as django_admin
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import NoReverseMatch, URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone
from knox.crypto import hash_token
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.test import APIRequestFactory

from scoring.actions.entry import submit_result
from tournament import api_tokens, tasks
from tournament.admin import GuardedAdmin
from tournament.event_setup import change_status, deletion_refusal, record_final_export
from tournament.models import ApiToken, AuditEntry, Event, EventRole, Player, Table, Team
from tournament.services import create_event

from factories import api_key, client_for, first_set, first_table, prepared_event, team_roster, blocks

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


# --- the token store: created once, never shown again ---------------------------------------------

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Tokens:
    event: Event
    table: Table
    root: object  # superuser
    director: object  # the event's director (not staff)
    staff: object  # is_staff with every view_* permission, the event's staff role
    scorer: object  # the event's scorer, bound to ``table``, no role elsewhere


def _tokens_world() -> Tokens:
    users = get_user_model().objects
    root = users.create_superuser("root", password="pw-root-1")
    director = users.create_user("director", password="pw-director-1")
    staff = users.create_user("evstaff", password="pw-evstaff-1", is_staff=True)
    staff.user_permissions.set(Permission.objects.filter(codename__startswith="view_"))
    scorer = users.create_user("scorer", password="pw-scorer-1")
    event = prepared_event(team_roster(4), director=director, name="Token Cup", slug="token-cup")
    table = first_table(event)
    EventRole.objects.create(event=event, user=staff, role=EventRole.Role.STAFF)
    EventRole.objects.create(event=event, user=scorer, role=EventRole.Role.SCORER).tables.add(table)
    submit_result(table, first_set(table), changes={"E": 48, "S": -16, "W": -16, "N": -16}, actor="setup")
    return Tokens(event, table, root, director, staff, scorer)


@pytest.fixture
def world():
    return _tokens_world()


def _page(w: Tokens) -> str:
    return reverse("api-tokens", args=[w.event.slug])


def _create_on_page(client, w: Tokens, **data):
    """POST the create form (with the one-time form id of a fresh GET); the response and the key
    it shows (the one ``<code id=api-token-key>``)."""
    form_id = re.search(r'name="form_id" value="([^"]+)"', client.get(_page(w)).content.decode()).group(1)
    response = client.post(_page(w), {"form_id": form_id, **data})
    found = re.search(r'<code id="api-token-key"[^>]*>([0-9a-f]+)</code>', response.content.decode())
    return response, found.group(1) if found else None


def _body(response) -> str:
    content = b"".join(response.streaming_content) if response.streaming else response.content
    return content.decode("utf-8", errors="replace")


def _walk(patterns, namespace=None):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _walk(pattern.url_patterns, pattern.namespace or namespace)
        elif isinstance(pattern, URLPattern):
            yield namespace, pattern


def _site_pages(w: Tokens) -> list[str]:
    """Every page of the site (not the admin) whose URL arguments this world fills: the event's
    slug, session 1, its first table and result, a team and a player, the tokens."""
    result = w.event.results.first()
    values = {"slug": w.event.slug, "event_slug": w.event.slug, "number": 1, "table_id": w.table.pk,
              "result_id": result.pk, "team_id": w.event.teams.first().pk, "player_id": w.event.players.first().pk,
              "token_id": ApiToken.objects.first().pk, "pk": result.pk, "session": 1, "set_no": 1}
    pages = []
    for namespace, pattern in _walk(get_resolver().url_patterns):
        if namespace == "admin" or not pattern.name:
            continue
        wanted = pattern.pattern.converters.keys() if hasattr(pattern.pattern, "converters") else ()
        if any(name not in values for name in wanted):
            continue
        try:
            pages.append(reverse(pattern.name, kwargs={name: values[name] for name in wanted}))
        except NoReverseMatch:  # a name shared by patterns of other arguments (reversed with theirs)
            continue
    return sorted(set(pages))


def _api_paths(w: Tokens) -> list[str]:
    """Every path of the API schema, made concrete with this world's event and first result."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    result = w.event.results.first()
    paths = []
    for path in schema["paths"]:
        paths.append(re.sub(r"\{[^}]+\}", lambda m: str(result.pk) if m.group(0) in ("{id}", "{pk}") else w.event.slug, path))
    return paths


def test_no_page_api_answer_or_admin_page_shows_a_token_key_after_creation(world):
    """Create the director's and the scorer's tokens on the page, then crawl as the superuser,
    the director, the event's staff and its scorer: every admin list and change page, every site
    page (the director's included), every API path: neither key, nor a part of it beyond the
    prefix, nor its digest appears anywhere."""
    director = client_for(world.director)
    response, director_key = _create_on_page(director, world)
    assert response.status_code == 200 and director_key
    response, scorer_key = _create_on_page(director, world, user="scorer", days="2")
    assert response.status_code == 200 and scorer_key
    secrets = {}
    for key in (director_key, scorer_key):
        token = ApiToken.objects.get(digest=hash_token(key))
        secrets[key] = (key, key[15:], key[-20:], token.digest)  # the prefix (15 characters) is public
    pages = _site_pages(world) + ["/api/schema/?format=json"]
    admin_pages = ["/admin/", *list(_admin_pages(limit=60)), "/admin/authtoken/tokenproxy/", "/admin/knox/authtoken/"]
    assert "/admin/tournament/auditentry/" in admin_pages and reverse("api-tokens", args=[world.event.slug]) in pages
    found = {}
    checked = 0
    for who in ("root", "director", "staff", "scorer"):
        user = getattr(world, who)
        client = client_for(user, token=director_key if who == "director" else None)
        for path in admin_pages + pages + _api_paths(world):
            response = client.get(path)
            assert response.status_code < 500, (who, path, response.status_code)
            body = _body(response)
            checked += 1
            for parts in secrets.values():
                if any(part in body for part in parts):
                    found.setdefault(who, []).append(path)
    assert not found, f"a key or digest is shown: {found}"
    assert checked > 4 * 60
    # the admin crawl did reach token-bearing data: the audit of both creations, by prefix
    assert AuditEntry.objects.filter(event=world.event, action="api-token-created").count() == 2


def test_the_create_page_shows_the_key_exactly_once_and_never_again(world):
    client = client_for(world.director)
    response, key = _create_on_page(client, world, days="7")
    body = response.content.decode()
    assert response.status_code == 200 and len(key) == 64
    assert body.count(key) == 1
    assert "shown only this once" in body
    assert "no-store" in response["Cache-Control"]
    token = ApiToken.objects.get(user=world.director)
    assert token.token_key == key[:15] and token.digest == hash_token(key) and key not in token.digest
    assert timedelta(days=6, hours=23) < token.expiry - timezone.now() <= timedelta(days=7)
    assert token.event == world.event and token.created_by == world.director
    again = client.get(_page(world)).content.decode()
    assert key not in again and key[15:] not in again
    assert token.token_key in again  # the list names it by its prefix
    assert key not in json.dumps(list(AuditEntry.objects.values("detail")))


def test_the_same_form_sent_twice_creates_one_token(world):
    client = client_for(world.director)
    form_id = re.search(r'name="form_id" value="([^"]+)"', client.get(_page(world)).content.decode()).group(1)
    first = client.post(_page(world), {"form_id": form_id, "days": "2"})
    key = re.search(r'<code id="api-token-key"[^>]*>([0-9a-f]+)</code>', first.content.decode()).group(1)
    again = client.post(_page(world), {"form_id": form_id, "days": "2"})
    body = again.content.decode()
    assert again.status_code == 200 and key not in body and 'id="api-token-key"' not in body
    assert "This form was sent already" in body and key[:15] in body
    assert ApiToken.objects.filter(user=world.director).count() == 1
    assert AuditEntry.objects.filter(action="api-token-created").count() == 1
    # another director's form id is refused, not answered with that token
    other = get_user_model().objects.create_user("co-director", password="pw")
    EventRole.objects.create(event=world.event, user=other, role=EventRole.Role.DIRECTOR)
    stolen = client_for(other).post(_page(world), {"form_id": form_id, "days": "2"})
    assert stolen.status_code == 400 and key[:15] not in stolen.content.decode().split('id="api-tokens"')[0]
    assert ApiToken.objects.count() == 1


def test_token_auth_works_with_the_key_and_a_revoked_token_gets_401(world):
    director = client_for(world.director)
    _, key = _create_on_page(director, world, user="scorer", days="1")
    results = f"/api/events/{world.event.slug}/results/"
    api = client_for(token=key)
    answer = api.get(results)
    assert answer.status_code == 200 and answer.wsgi_request.user == world.scorer
    assert {row["table"] for row in answer.json()} == {world.table.number}
    set_no = blocks(world.table)[0][1][1]
    write = api.post(results, json.dumps({"table": world.table.number, "set_no": set_no,
                                          "changes": {"E": 48, "S": -16, "W": -16, "N": -16}}), content_type="application/json")
    assert write.status_code == 201  # the scorer's token writes at the scorer's table
    token = ApiToken.objects.get(user=world.scorer)
    assert token.last_used is not None
    assert client_for(token="0" * 64).get(results).status_code == 401
    assert client_for(token=key[:-1] + ("0" if key[-1] != "0" else "1")).get(results).status_code == 401
    revoked = director.post(reverse("api-token-revoke", args=[world.event.slug, token.pk]))
    assert revoked.status_code == 302 and not ApiToken.objects.filter(pk=token.pk).exists()
    refused = api.get(results)
    assert refused.status_code == 401 and refused["WWW-Authenticate"] == "Token"
    assert director.post(reverse("api-token-revoke", args=[world.event.slug, token.pk])).status_code == 302  # again: nothing
    entries = AuditEntry.objects.filter(event=world.event, action="api-token-revoked")
    assert entries.count() == 1 and entries.get().detail["prefix"] == key[:15] and entries.get().detail["user"] == "scorer"


def test_an_expired_token_gets_401_and_the_periodic_task_deletes_it(world):
    key = api_tokens.issue_token(world.scorer, days=1)
    live = api_tokens.issue_token(world.scorer, days=1)
    ApiToken.objects.filter(token_key=key[:15]).update(expiry=timezone.now() - timedelta(seconds=1))
    answer = client_for(token=key).get(f"/api/events/{world.event.slug}/results/")
    assert answer.status_code == 401 and answer.json()["detail"] == "Invalid token."
    assert ApiToken.objects.filter(token_key=key[:15]).exists()  # refused, not deleted by the request
    assert client_for(token=live).get(f"/api/events/{world.event.slug}/results/").status_code == 200  # nor is it by another's
    assert ApiToken.objects.filter(token_key=key[:15]).exists()
    assert tasks.delete_expired_api_tokens.delay().get() == 1  # the beat's task (eager here)
    assert list(ApiToken.objects.filter(user=world.scorer).values_list("token_key", flat=True)) == [live[:15]]
    assert settings.CELERY_BEAT_SCHEDULE["delete-expired-api-tokens"]["task"] == tasks.delete_expired_api_tokens.name


def _authenticate(key: str):
    request = APIRequestFactory().get("/api/", HTTP_AUTHORIZATION=f"Token {key}")
    return api_tokens.TokenAuthentication().authenticate(request)


def test_authentication_is_one_indexed_query_and_a_last_used_update_at_most(world):
    key = api_tokens.issue_token(world.scorer, days=1)
    for _ in range(3):  # other tokens of the account, expired: knox read and deleted them on every request
        api_tokens.issue_token(world.scorer, days=1)
    ApiToken.objects.exclude(token_key=key[:15]).update(expiry=timezone.now() - timedelta(days=1))
    with CaptureQueriesContext(connection) as first:
        user, token = _authenticate(key)
    assert user == world.scorer and token.token_key == key[:15]
    assert len(first) == 2 and first.captured_queries[1]["sql"].startswith("UPDATE")  # last_used, the first time
    with CaptureQueriesContext(connection) as again:
        assert _authenticate(key)[0] == world.scorer
    assert len(again) == 1 and '"token_key" =' in again.captured_queries[0]["sql"]  # within a minute: no write
    assert ApiToken.objects.filter(user=world.scorer).count() == 4  # nothing deleted
    assert any(field.name == "token_key" and field.db_index for field in ApiToken._meta.fields)


def test_a_wrong_key_with_the_right_prefix_a_malformed_key_and_an_inactive_account_are_refused(world):
    key = api_tokens.issue_token(world.scorer, days=1)
    wrong = key[:15] + ("0" if key[15] != "0" else "1") + key[16:]
    for refused, message in ((wrong, "Invalid token."), ("zz" + key[2:], "Invalid token."), ("ü" * 64, "Invalid token.")):
        with CaptureQueriesContext(connection) as queries, pytest.raises(AuthenticationFailed) as failed:
            _authenticate(refused)
        assert str(failed.value.detail) == message and len(queries) <= 1
    world.scorer.is_active = False
    world.scorer.save(update_fields=["is_active"])
    with pytest.raises(AuthenticationFailed) as failed:
        _authenticate(key)
    assert str(failed.value.detail) == "User inactive or deleted."
    assert ApiToken.objects.get(token_key=key[:15]).last_used is None  # a refused request is no use


def test_who_may_create_a_token_for_whom(world):
    users = get_user_model().objects
    other = create_event(name="Other Cup", slug="other-cup")
    both = users.create_user("both", password="pw")  # a scorer here who also directs another event
    EventRole.objects.create(event=world.event, user=both, role=EventRole.Role.SCORER)
    EventRole.objects.create(event=other, user=both, role=EventRole.Role.DIRECTOR)
    stranger = users.create_user("stranger", password="pw")
    holders = {u.get_username() for u in api_tokens.token_holders(world.event, world.director)}
    assert holders == {"director", "scorer"}  # staff accounts, accounts acting elsewhere: not offered
    client = client_for(world.director)
    for name in ("both", "stranger", "evstaff", "root", "nobody"):
        response, key = _create_on_page(client, world, user=name)
        assert response.status_code == 400 and key is None, name
        assert "is not one" in response.content.decode()
    assert not ApiToken.objects.filter(user__in=[both, stranger, world.staff, world.root]).exists()
    response, key = _create_on_page(client, world, days="366")
    assert response.status_code == 400 and key is None and not ApiToken.objects.exists()
    # the event's staff and scorers cannot open the page; another event's director neither
    assert client_for(world.staff).post(_page(world), {"days": "1"}).status_code == 403
    assert client_for(world.scorer).get(_page(world)).status_code == 403
    with pytest.raises(api_tokens.TokenError) as refused:
        api_tokens.create_token(world.event, actor=both, days=1)
    assert refused.value.status == 403
    assert not ApiToken.objects.exists()


def test_who_may_revoke_whose_token(world):
    """A director of this event revokes their own tokens, those created for this event and those
    of accounts acting only here; not a token made elsewhere for an account that acts in another
    event too (that one: its owner or a superuser)."""
    users = get_user_model().objects
    other = create_event(name="Other Cup", slug="other-cup")
    both = users.create_user("both", password="pw")
    EventRole.objects.create(event=world.event, user=both, role=EventRole.Role.SCORER)
    EventRole.objects.create(event=other, user=both, role=EventRole.Role.DIRECTOR)
    elsewhere = ApiToken.objects.get(digest=hash_token(api_tokens.create_token(other, actor=both, days=1)[1]))
    only_here = ApiToken.objects.get(digest=hash_token(api_tokens.issue_token(world.scorer)))
    root_token = ApiToken.objects.get(digest=hash_token(api_tokens.issue_token(world.root)))
    own = ApiToken.objects.get(digest=hash_token(api_tokens.issue_token(world.director)))
    rows = {row.token.pk: row for row in api_tokens.event_tokens(world.event, world.director)}
    assert set(rows) == {elsewhere.pk, only_here.pk, own.pk}  # root holds no role here
    assert (rows[elsewhere.pk].revoke, rows[only_here.pk].revoke, rows[own.pk].revoke) == (False, True, True)
    assert rows[elsewhere.pk].roles == ("scorer",)
    client = client_for(world.director)
    page = client.get(_page(world)).content.decode()
    assert "not yours to revoke" in page and elsewhere.token_key in page

    def revoke(token):
        return client.post(reverse("api-token-revoke", args=[world.event.slug, token.pk]), follow=True)

    assert "acts in another event too" in revoke(elsewhere).content.decode()
    assert ApiToken.objects.filter(pk=elsewhere.pk).exists()
    revoke(root_token)  # not listed for this event: nothing happens
    assert ApiToken.objects.filter(pk=root_token.pk).exists()
    revoke(only_here)
    revoke(own)
    assert not ApiToken.objects.filter(pk__in=[only_here.pk, own.pk]).exists()
    # the owner revokes it from the other event's page, a superuser from this one
    made_here = api_tokens.create_token(world.event, actor=world.director, days=1)[0]
    made_here.user = both  # made for this event (e.g. before "both" took a role elsewhere)
    made_here.save()
    assert api_tokens.revoke_token(world.event, made_here.pk, actor=world.director) is not None
    assert api_tokens.revoke_token(world.event, elsewhere.pk, actor=world.root) is not None
    assert AuditEntry.objects.filter(action="api-token-revoked", event=world.event).count() == 4


def test_a_token_made_or_revoked_after_the_final_export_does_not_ask_for_another(world):
    """Tokens are not in the export: revoking the event's tokens before deleting it is allowed.
    (The seed is not revealed here, so the final export is the one with the seed.)"""
    change_status(world.event, "finished", actor="director")
    record_final_export(world.event, actor="director", seed=True)
    token, _ = api_tokens.create_token(world.event, actor=world.director, days=1)
    api_tokens.revoke_token(world.event, token.pk, actor=world.director)
    assert deletion_refusal(Event.objects.get(pk=world.event.pk)) == ""


def test_a_key_of_the_old_plain_text_store_is_carried_over_hashed(world):
    """The migration to the hashed store: a rest_framework.authtoken key keeps working, hashed,
    and the old table is left empty."""
    path = glob.glob(str(ROOT / "tournament" / "migrations" / "*_tokens_apitoken.py"))[0]
    spec = importlib.util.spec_from_file_location("tokens_migration", path)
    migration = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(migration)
    old_key = "4f" * 20  # 40 hex characters, as rest_framework.authtoken made them
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, created timestamp with time zone, user_id integer)")
        cursor.execute("INSERT INTO authtoken_token (key, created, user_id) VALUES (%s, %s, %s)",
                       [old_key, timezone.now() - timedelta(days=100), world.scorer.pk])

    class Editor:
        connection = connection
        quote_name = staticmethod(connection.ops.quote_name)

    from django.apps import apps

    migration.hash_old_keys(apps, Editor())
    token = ApiToken.objects.get(user=world.scorer)
    assert token.digest == hash_token(old_key) and token.token_key == old_key[:15] and token.expiry is None
    assert token.created < timezone.now() - timedelta(days=99)
    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM authtoken_token")
        assert cursor.fetchone()[0] == 0
    answer = client_for(token=old_key).get(f"/api/events/{world.event.slug}/results/")
    assert answer.status_code == 200 and answer.wsgi_request.user == world.scorer


def test_no_admin_list_shows_a_row_or_the_name_of_a_draft_to_a_viewer_without_a_role():
    """docs/security.md, "Threats and the tests that cover them", threat 8: every per-event admin (tournament, scoring, walls) follows may_see."""
    draft = prepared_event(team_roster(4), name="Hidden Draft Cup", slug="hidden-draft", status="draft")
    EventRole.objects.create(event=draft, user=get_user_model().objects.create_user("draft-scorer"), role="scorer")
    AuditEntry.objects.create(event=draft, action="test-entry", actor="someone")
    prepared_event(team_roster(4), name="Open Cup", slug="open-cup")
    viewer = client_for(_viewer())
    guarded = [(m, a) for m, a in django_admin.site._registry.items() if isinstance(a, GuardedAdmin)]
    assert {m.__name__ for m, _ in guarded} >= {"Event", "Team", "Player", "Table", "Group", "Session", "EventRole",
                                                 "WallSet", "AuditEntry"}
    for model, model_admin in guarded:
        info = (model._meta.app_label, model._meta.model_name)
        response = viewer.get(reverse("admin:%s_%s_changelist" % info))
        assert response.status_code == 200, model
        shown = response.context["cl"].queryset
        assert all(model_admin.event_id_of(obj) != draft.pk for obj in shown), model.__name__
        assert "Hidden Draft Cup" not in response.content.decode(), model.__name__  # nor in a filter's choices
        drafts_rows = [obj for obj in model.objects.all()[:2000] if model_admin.event_id_of(obj) == draft.pk]
        if drafts_rows:
            assert viewer.get(reverse("admin:%s_%s_change" % info, args=[drafts_rows[0].pk])).status_code == 302
