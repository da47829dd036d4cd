"""docs/security.md, "Who sees what": who may do what. A matrix of role × page/endpoint proves each one allowed and refused,
then CSRF, login rate limiting and the production cookie settings.

Roles (tournament/permissions.py): the event's director (everything in their event), staff
(walls and printing), scorer (event role: result entry), a scorer's browser logged in with one
table's code, a player (their own results), anonymous visitors (public pages), and the director
of another event (nothing in this one). API calls of users go with their token.
"""

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from scoring.models import HandResult
from scoring.actions.confirmation import confirm_result
from scoring.actions.entry import submit_result
from tournament.api_tokens import create_token
from tournament.models import Event, EventRole, Table
from factories import blocks
from walls.setcode import SetId

from factories import api_key, client_for, demo_roster, prepared_event, rolled_back

pytestmark = pytest.mark.django_db

ROLES = ("director", "other_director", "staff", "scorer", "table_scorer", "player", "anonymous")
ALLOW, DENY = "allowed", "refused"
CHANGES = {"E": 48, "S": -16, "W": -16, "N": -16}
ROOT = Path(__file__).resolve().parent.parent


@dataclass
class World:
    event: Event
    table: Table  # the table the table_scorer logged into and the player sits at
    other_table: Table
    entered: HandResult  # entered, not yet confirmed, at ``table``
    confirmed: HandResult  # confirmed, at ``table``
    users: dict
    tokens: dict
    pin: str  # PIN of the player at seat S of ``table``


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """One seated event with an entered and a confirmed result, and a user per role; rolled back
    at the end of the module (each test runs in its own nested transaction)."""
    from django.contrib.auth import get_user_model

    from tournament.services import create_event

    with rolled_back(django_db_blocker):
        event = prepared_event(demo_roster(), name="Role Cup", slug="role-cup", sessions=2)
        other = create_event(name="Other Cup", slug="other-cup")
        tables = list(Table.objects.filter(group__session__event=event).order_by("number"))
        table, other_table = tables[0], tables[1]
        users, tokens = {}, {}
        for role in ROLES:
            if role in ("anonymous", "table_scorer"):
                continue
            user = get_user_model().objects.create_user(role, password=f"pw-{role}-1")
            users[role] = user
            tokens[role] = api_key(user)
            if role == "other_director":
                EventRole.objects.create(event=other, user=user, role=EventRole.Role.DIRECTOR)
            else:
                held = EventRole.objects.create(event=event, user=user, role=role)
                if role == "scorer":
                    held.tables.add(table)  # the scorer role is bound to ``table`` only
        seat = table.seats.select_related("player").get(seat="S")
        seat.player.user = users["player"]
        seat.player.save(update_fields=["user"])
        first_sets = blocks(table)[0][1]
        confirmed = submit_result(table, first_sets[0], changes=CHANGES, actor="setup")
        confirm_result(confirmed, actor="setup", director=True)
        entered = submit_result(table, first_sets[1], changes=CHANGES, actor="setup")
        yield World(event, table, other_table, entered, confirmed, users, tokens, seat.player.pin)


def as_role(role: str, world: World) -> Client:
    """A test client acting as ``role``: users by session login and (for the API) their token,
    the table scorer by ``world.table``'s code."""
    return client_for(world.users.get(role), token=world.tokens.get(role),
                      table=world.table if role == "table_scorer" else None)


def verdict(response) -> str:
    """allowed (2xx, or a redirect that is not to a login page) or refused (401, 403, 404 for
    a result hidden from the caller, 429, or a redirect to the account or table login page)."""
    status = response.status_code
    if status in (401, 403, 404, 429):
        return DENY
    if status == 302:
        login_pages = (reverse("login"), reverse("table-login"))
        return DENY if response["Location"].startswith(login_pages) else ALLOW
    if status in (200, 201):
        return ALLOW
    return f"unexpected status {status}: {response.content[:300]!r}"


def _print_retry(w):
    from walls.print_jobs import request_print

    job = request_print(w.event, "movement", {"session": 1})
    return "post", reverse("print-retry", args=[w.event.slug, job.pk]), None


def _print_download(w):
    from walls.print_jobs import request_print

    job = request_print(w.event, "movement", {"session": 1})
    return "get", reverse("print-download", args=[w.event.slug, job.pk]), None


def _own_token_revoke(w):
    """Revoke a token of the event's director: only the director's own POST gets through."""
    token, _key = create_token(w.event, actor=w.users["director"], days=1)
    return "post", reverse("api-token-revoke", args=[w.event.slug, token.pk]), {}


def _api_results(w):
    return f"/api/events/{w.event.slug}/results/"


# name → (request builder: world → (method, path, data), roles allowed)
ENDPOINTS = {
    "home page": (lambda w: ("get", reverse("home"), None), set(ROLES)),
    "event page": (lambda w: ("get", reverse("event", args=[w.event.slug]), None), set(ROLES)),
    "standings page": (lambda w: ("get", reverse("standings", args=[w.event.slug]), None), set(ROLES)),
    "federation results file": (lambda w: ("get", reverse("federation-csv", args=[w.event.slug]), None), set(ROLES)),
    "luck measured page": (lambda w: ("get", reverse("luck", args=[w.event.slug]), None), set(ROLES)),
    "wall list page": (lambda w: ("get", reverse("walls", args=[w.event.slug]), None), set(ROLES)),
    "secret wall page": (lambda w: ("get", reverse("wall", args=[w.event.slug, 1, 16]), None), {"director", "staff"}),
    # no set of the session is released: its hand records (every wall, with par) are the director's and staff's
    "hand records of a session in play": (lambda w: ("get", reverse("hand-records", args=[w.event.slug, 1]), None),
                                          {"director", "staff"}),
    # a wall sticker's page opens for everyone (a neutral page but for staff); its check walk shows tiles: staff only
    "wall sticker page": (lambda w: ("get", reverse("sticker-slot", args=[w.event.slug, SetId(w.event.slug, 1, 16).code, "E-D1"]),
                                     None), set(ROLES)),
    "wall sticker's printed link": (lambda w: ("get", reverse("sticker-short", args=[w.event.pk, SetId(w.event.slug, 1, 16).code,
                                                                                    "E-D1"]), None), set(ROLES)),
    "check a built set": (lambda w: ("get", reverse("sticker-check", args=[w.event.slug, SetId(w.event.slug, 1, 16).code, "E"]),
                                     None), {"director", "staff"}),
    "entry form": (lambda w: ("get", reverse("entry", args=[w.event.slug]), None), {"director", "scorer", "table_scorer"}),
    "table page": (lambda w: ("get", reverse("table", args=[w.event.slug, w.table.pk]), None),
                   {"director", "scorer", "table_scorer"}),
    "another table's page": (lambda w: ("get", reverse("table", args=[w.event.slug, w.other_table.pk]), None),
                             {"director"}),
    "table page: enter a result": (
        lambda w: ("post", reverse("table", args=[w.event.slug, w.table.pk]),
                   {"mode": "changes", "set_no": blocks(w.table)[0][1][2], "entered_by_seat": "S", "entry_pin": w.pin,
                    **{f"seat_{seat}": value for seat, value in CHANGES.items()}}),
        {"director", "scorer", "table_scorer"}),
    "table page: confirm with a PIN": (
        lambda w: ("post", reverse("table-confirm", args=[w.event.slug, w.table.pk, w.entered.pk]), {"pin": w.pin}),
        {"director", "scorer", "table_scorer"}),
    "result detail": (lambda w: ("get", reverse("result", args=[w.event.slug, w.confirmed.pk]), None),
                      {"director", "scorer", "table_scorer", "player"}),
    "result detail: dispute": (
        lambda w: ("post", reverse("result", args=[w.event.slug, w.entered.pk]), {"action": "dispute", "reason": "E says 32"}),
        {"director", "scorer", "table_scorer"}),
    "director page": (lambda w: ("get", reverse("director", args=[w.event.slug]), None), {"director", "staff"}),
    "live grid": (lambda w: ("get", reverse("live", args=[w.event.slug]), None), {"director"}),
    "live grid data": (lambda w: ("get", reverse("live-json", args=[w.event.slug]), None), {"director"}),
    # calling the director from a table (tournament/calls.py): the table's scorers call, the director and staff read
    "table page: call the director": (
        lambda w: ("post", reverse("table-call", args=[w.event.slug, w.table.pk]), {"reason": "dispute"}),
        {"director", "scorer", "table_scorer"}),
    "calls from the tables": (lambda w: ("get", reverse("director-calls", args=[w.event.slug]), None), {"director", "staff"}),
    "table clock": (lambda w: ("get", reverse("table-clock", args=[w.event.slug, w.table.pk]), None),
                    {"director", "scorer", "table_scorer"}),
    "calls from the tables data": (lambda w: ("get", reverse("director-calls-json", args=[w.event.slug]), None),
                                   {"director", "staff"}),
    "seat a session": (lambda w: ("post", reverse("prepare-session", args=[w.event.slug]), {"session": 2}), {"director"}),
    "walls commitment": (
        lambda w: ("post", reverse("walls-commitment", args=[w.event.slug]), {"public_value": "12345"}), {"director"}),
    "print request": (lambda w: ("post", reverse("print-request", args=[w.event.slug]), {"kind": "movement", "session": 1}),
                      {"director", "staff"}),
    # docs/security.md, "Threats and the tests that cover them": the export with the master seed (the event in play: the director is sent back with why)
    "export with the master seed": (lambda w: ("get", reverse("event-export-secret", args=[w.event.slug]), None),
                                    {"director"}),
    "print status": (lambda w: ("get", reverse("print-status", args=[w.event.slug]), None), {"director", "staff"}),
    "print download": (_print_download, {"director", "staff"}),
    "print retry": (_print_retry, {"director", "staff"}),
    # the director's day (docs/director-guide.md)
    "event settings": (lambda w: ("get", reverse("event-settings", args=[w.event.slug]), None), {"director"}),
    "rooms": (lambda w: ("get", reverse("rooms", args=[w.event.slug]), None), {"director"}),
    "people": (lambda w: ("get", reverse("people", args=[w.event.slug]), None), {"director"}),
    "people: withdraw an invitation": (
        lambda w: ("post", reverse("people", args=[w.event.slug]), {"action": "withdraw", "invitation": "999999"}), {"director"}),
    # any account's own invitations (docs/security.md, "Threats and the tests that cover them"); a table login is no account
    "my invitations": (lambda w: ("get", reverse("invitations"), None),
                       {"director", "other_director", "staff", "scorer", "player"}),
    "my invitations: accept": (lambda w: ("post", reverse("invitations"), {"action": "accept", "invitation": "999999"}),
                               {"director", "other_director", "staff", "scorer", "player"}),
    "entrants": (lambda w: ("get", reverse("entrants", args=[w.event.slug]), None), {"director"}),
    "API tokens": (lambda w: ("get", reverse("api-tokens", args=[w.event.slug]), None), {"director"}),
    "API tokens: create one": (lambda w: ("post", reverse("api-tokens", args=[w.event.slug]), {"days": "1"}), {"director"}),
    "API tokens: revoke one": (_own_token_revoke, {"director"}),
    "check-in": (lambda w: ("get", reverse("check-in", args=[w.event.slug, 2]), None), {"director"}),
    "substitutions": (lambda w: ("get", reverse("substitute", args=[w.event.slug, 1]), None), {"director"}),
    "results bundle": (lambda w: ("get", reverse("results-bundle", args=[w.event.slug]), None), {"director"}),
    "venues": (lambda w: ("get", reverse("venues", args=[w.event.slug]), None), {"director"}),
    "penalties": (lambda w: ("get", reverse("penalties", args=[w.event.slug]), None), {"director"}),
    "fixed-counters": (lambda w: ("get", reverse("fixed-counters", args=[w.event.slug]), None), {"director"}),
    "session clock": (lambda w: ("post", reverse("session-clock", args=[w.event.slug, 1]), {"action": "set", "minutes": "90"}),
                      {"director"}),
    "projector": (lambda w: ("get", reverse("projector", args=[w.event.slug]), None), set(ROLES)),
    "find my seat": (lambda w: ("get", reverse("find-seat", args=[w.event.slug]) + "?name=Ro", None), set(ROLES)),
    "seating by room": (lambda w: ("get", reverse("room-seating", args=[w.event.slug, 1]), None), set(ROLES)),
    "API events list": (lambda w: ("get", "/api/events/", None), set(ROLES)),
    "API event": (lambda w: ("get", f"/api/events/{w.event.slug}/", None), set(ROLES)),
    "API standings": (lambda w: ("get", f"/api/events/{w.event.slug}/standings/", None), set(ROLES)),
    "API schema": (lambda w: ("get", "/api/schema/", None), set(ROLES)),
    "API results list": (lambda w: ("get", _api_results(w), None), {"director", "other_director", "staff", "scorer", "player"}),
    "API result (entered)": (lambda w: ("get", f"{_api_results(w)}{w.entered.pk}/", None),
                             {"director", "staff", "scorer", "player"}),
    "API results create": (
        lambda w: ("post", _api_results(w), {"table": w.table.number, "set_no": blocks(w.table)[0][1][2], "changes": CHANGES}),
        {"director", "scorer"}),
    "API confirm": (lambda w: ("post", f"{_api_results(w)}{w.entered.pk}/confirm/", {"pin": w.pin}), {"director", "scorer"}),
    "API correct (entered)": (
        lambda w: ("post", f"{_api_results(w)}{w.entered.pk}/correct/", {"changes": {"E": 32, "S": -16, "W": -8, "N": -8},
                                                                          "entered_by_seat": "S", "entry_pin": w.pin}),
        {"director", "scorer"}),
    "API correct (confirmed)": (
        lambda w: ("post", f"{_api_results(w)}{w.confirmed.pk}/correct/",
                   {"changes": {"E": 32, "S": -16, "W": -8, "N": -8}, "reason": "typo"}),
        {"director"}),
    "API dispute (confirmed)": (
        lambda w: ("post", f"{_api_results(w)}{w.confirmed.pk}/dispute/", {"reason": "E says 32"}), {"director"}),
}


def _cases():
    for name, (_, allowed) in ENDPOINTS.items():
        for role in ROLES:
            expected = ALLOW if role in allowed else DENY
            yield pytest.param(name, role, expected, id=f"{name} | {role} | {expected}")


@pytest.mark.parametrize(("endpoint", "role", "expected"), list(_cases()))
def test_role_is_allowed_or_refused(world, endpoint, role, expected):
    build, _ = ENDPOINTS[endpoint]
    method, path, data = build(world)
    client = as_role(role, world)
    if method == "get":
        response = client.get(path)
    elif path.startswith("/api/"):
        response = client.post(path, json.dumps(data), content_type="application/json")
    else:
        response = client.post(path, data)
    assert verdict(response) == expected


def test_every_endpoint_allows_some_role_and_every_write_refuses_anonymous_visitors(world):
    """The matrix itself: an endpoint refused to everyone would hide a broken URL."""
    for name, (build, allowed) in ENDPOINTS.items():
        assert allowed, name
        if build(world)[0] == "post":
            assert "anonymous" not in allowed, name


@pytest.mark.parametrize(("role", "sees_table"), [
    ("director", True), ("staff", True), ("scorer", True), ("player", True), ("other_director", False),
])
def test_api_results_of_a_set_in_play_go_to_director_staff_and_the_table_only(world, role, sees_table):
    """docs/security.md: until every table has played the set, a result is seen by the director,
    staff and its own table (the scorer bound to it, a player seated there), entered or confirmed."""
    rows = as_role(role, world).get(_api_results(world)).json()
    ids = {row["id"] for row in rows}
    assert (world.confirmed.pk in ids) is sees_table
    assert (world.entered.pk in ids) is sees_table


@pytest.mark.parametrize("role", ROLES)
def test_export_carries_pins_and_table_codes_only_for_director_and_staff(world, role):
    data = as_role(role, world).get(reverse("event-export", args=[world.event.slug])).json()
    full = role in ("director", "staff")
    assert all(("pin" in p) is full for p in data["players"])
    codes = [t.get("login_code") for g in data["sessions"][0]["groups"] for t in g["tables"]]
    assert all((code is not None) is full for code in codes)


def test_refused_writes_store_nothing(world):
    before = HandResult.objects.filter(event=world.event).count()
    for role in ("staff", "player", "other_director", "anonymous"):
        response = as_role(role, world).post(
            _api_results(world),
            json.dumps({"table": world.table.number, "set_no": blocks(world.table)[0][1][2], "changes": CHANGES}),
            content_type="application/json",
        )
        assert response.status_code in (401, 403)
    assert HandResult.objects.filter(event=world.event).count() == before


# CSRF


def test_a_form_post_without_its_csrf_token_is_refused(world):
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.users["director"])
    response = client.post(reverse("prepare-session", args=[world.event.slug]), {"session": 2})
    assert response.status_code == 403
    assert not world.event.sessions.filter(number=2).exists()


def test_a_session_api_post_without_csrf_is_refused_but_a_token_post_needs_none(world):
    body = json.dumps({"table": world.table.number, "set_no": blocks(world.table)[0][1][2], "changes": CHANGES})
    session_client = Client(enforce_csrf_checks=True)
    session_client.force_login(world.users["scorer"])
    assert session_client.post(_api_results(world), body, content_type="application/json").status_code == 403
    token_client = Client(enforce_csrf_checks=True, HTTP_AUTHORIZATION=f"Token {world.tokens['scorer']}")
    assert token_client.post(_api_results(world), body, content_type="application/json").status_code == 201


# Login rate limiting (django-axes)


def _login(client, username, password, address):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address)


def test_login_works_with_the_right_password(world):
    response = _login(Client(), "director", "pw-director-1", "10.0.0.1")
    assert response.status_code == 302 and not response["Location"].startswith(reverse("login"))


def test_repeated_wrong_passwords_lock_that_user_name_from_that_address(world):
    limit = settings.AXES_FAILURE_LIMIT
    client = Client()
    for _ in range(limit - 1):
        assert _login(client, "director", "wrong", "10.0.0.1").status_code == 200  # the form again, with its error
    assert _login(client, "director", "wrong", "10.0.0.1").status_code == 429
    locked = _login(client, "director", "pw-director-1", "10.0.0.1")
    assert locked.status_code == 429
    assert "too many login attempts" in locked.content.decode().lower()


def test_a_lockout_does_not_block_other_addresses_or_other_users(world):
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _login(client, "director", "wrong", "10.0.0.1")
    assert _login(Client(), "director", "pw-director-1", "10.0.0.2").status_code == 302
    assert _login(Client(), "staff", "pw-staff-1", "10.0.0.1").status_code == 302


def test_behind_the_proxy_a_lockout_follows_the_client_address_the_proxy_reports(world, settings):
    settings.AXES_IPWARE_META_PRECEDENCE_ORDER = ["HTTP_X_REAL_IP", "REMOTE_ADDR"]  # as with BEHIND_PROXY=1

    def via_proxy(password, phone):
        return Client().post(reverse("login"), {"username": "director", "password": password},
                             REMOTE_ADDR="127.0.0.1", HTTP_X_REAL_IP=phone)

    for _ in range(settings.AXES_FAILURE_LIMIT):
        via_proxy("wrong", "192.168.1.20")
    assert via_proxy("pw-director-1", "192.168.1.20").status_code == 429
    assert via_proxy("pw-director-1", "192.168.1.21").status_code == 302


def test_a_success_before_the_limit_resets_the_count(world):
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        _login(client, "director", "wrong", "10.0.0.1")
    assert _login(Client(), "director", "pw-director-1", "10.0.0.1").status_code == 302
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _login(client, "director", "wrong", "10.0.0.1").status_code == 200


# Production settings


def _settings_in(env: dict) -> subprocess.CompletedProcess:
    code = (
        "import json, django; from django.conf import settings as s; django.setup(); "
        "print(json.dumps({k: getattr(s, k) for k in ('SESSION_COOKIE_SECURE', 'CSRF_COOKIE_SECURE', "
        "'SESSION_COOKIE_HTTPONLY', 'SECURE_SSL_REDIRECT', 'SECURE_HSTS_SECONDS', 'SECURE_PROXY_SSL_HEADER', "
        "'AXES_IPWARE_META_PRECEDENCE_ORDER', 'DEBUG')}, default=list))"
    )
    base = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECURE", "SECRET_KEY", "BEHIND_PROXY")}
    return subprocess.run([sys.executable, "-c", code], env={**base, "DJANGO_SETTINGS_MODULE": "tournament.settings", **env},
                          cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_production_settings_send_cookies_only_over_https_behind_the_proxy():
    run = _settings_in({"DEBUG": "0", "SECURE": "1", "SECRET_KEY": "x" * 50})
    assert run.returncode == 0, run.stderr
    values = json.loads(run.stdout)
    assert values["DEBUG"] is False
    assert values["SESSION_COOKIE_SECURE"] and values["CSRF_COOKIE_SECURE"] and values["SESSION_COOKIE_HTTPONLY"]
    assert values["SECURE_SSL_REDIRECT"] and values["SECURE_HSTS_SECONDS"] > 0
    assert values["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert values["AXES_IPWARE_META_PRECEDENCE_ORDER"] == ["HTTP_X_REAL_IP", "REMOTE_ADDR"]


def test_without_a_proxy_the_client_address_is_the_peer_address():
    run = _settings_in({})
    assert run.returncode == 0, run.stderr
    values = json.loads(run.stdout)
    assert values["SESSION_COOKIE_SECURE"] is False  # the embedded default serves plain HTTP on a laptop
    assert values["SECURE_PROXY_SSL_HEADER"] is None
    assert values["AXES_IPWARE_META_PRECEDENCE_ORDER"] == ["REMOTE_ADDR"]


def test_production_refuses_to_start_with_the_development_secret_key():
    run = _settings_in({"DEBUG": "0"})
    assert run.returncode != 0
    assert "SECRET_KEY" in run.stderr
