"""docs/security.md, "Entering and confirming at the table": table login codes.

Only a POST logs in (a login link opened by GET shows the code and a confirm button); codes are
looked up in the event of the page; typed codes are normalised; wrong codes are throttled per
client address (429; past the limit codes are checked one at a time, the right code asked to wait
a few seconds, never refused as wrong; other addresses still served);
a login ends when its session is finished or after the maximum age; codes are shown grouped.
"""

import html
import re
import time

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils.http import urlencode

from scoring import visibility
from scoring.models import HandResult
from scoring.actions.confirmation import confirm_result
from scoring.actions.entry import submit_result
from scoring.table_access import TABLE_SESSION_KEY
from tournament.models import EventRole, Table, display_code
from tournament.permissions import normalise_code
from factories import blocks
from walls.print_kinds.tables import score_sheets

from factories import demo_roster, login_as_table, prepared_event, table_url

pytestmark = pytest.mark.django_db

ZERO = {"E": 0, "S": 0, "W": 0, "N": 0}


@pytest.fixture(autouse=True)
def _fresh_counters():
    """The throttle counts in the cache: start and end each test with none."""
    cache.clear()
    yield
    cache.clear()


def logged_in(client, table) -> bool:
    return client.get(table_url(table)).status_code == 200


def test_a_post_of_the_code_logs_in_and_opens_the_table(client, table):
    response = login_as_table(client, table)
    assert response.status_code == 302 and response["Location"] == table_url(table)
    assert logged_in(client, table)


def test_a_login_link_opened_by_get_logs_nobody_in_and_says_nothing_about_the_code(client, table):
    page = client.get(reverse("table-login-code", args=[table.login_code]))
    assert page.status_code == 200
    html = page.content.decode()
    assert f'value="{display_code(table.login_code)}"' in html
    assert "Log in as this table's scorer" in html and 'method="post"' in html
    response = client.get(table_url(table))
    assert response.status_code == 302 and response["Location"].startswith(reverse("table-login"))
    unknown = Client().get(reverse("table-login-code", args=["ZZZZZZZZZZ"]))
    assert unknown.status_code == 200
    def strip(text, code):  # the page without the code itself and the CSRF tokens
        text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", text)
        return text.replace(display_code(code), "").replace(code, "")

    assert strip(unknown.content.decode(), "ZZZZZZZZZZ") == strip(html, table.login_code)
    event_link = client.get(reverse("event-table-login-code", args=[table.group.session.event.slug, table.login_code]))
    assert event_link.status_code == 200 and not logged_in(client, table)


def test_a_cross_site_post_without_the_csrf_token_is_refused(table):
    client = Client(enforce_csrf_checks=True)
    response = client.post(reverse("table-login"), {"code": table.login_code})
    assert response.status_code == 403
    assert not logged_in(client, table)


def test_typed_codes_are_normalised(client, table):
    code = table.login_code
    typed = f" {code[:5].lower()} - {code[5:].lower()} ".replace("1", "l").replace("0", "o")
    assert normalise_code(typed) == code
    assert login_as_table(client, table, code=typed).status_code == 302
    assert normalise_code("k7q2m-9xzl0") == "K7Q2M9XZ10" and display_code("K7Q2M9XZ10") == "K7Q2M-9XZ10"


def test_the_event_login_page_takes_its_own_codes_only(client, table, team_event):
    other_event = prepared_event(demo_roster(), name="Other Cup", slug="other-cup", sessions=1)
    elsewhere = Table.objects.filter(group__session__event=other_event).first()
    refused = client.post(reverse("event-table-login", args=[team_event.slug]), {"code": elsewhere.login_code})
    assert refused.status_code == 400 and "No table has the code" in refused.content.decode()
    assert not logged_in(client, elsewhere)
    taken = login_as_table(client, table, event_scoped=True, code=display_code(table.login_code))
    assert taken.status_code == 302 and taken["Location"] == table_url(table)


@pytest.fixture
def clock(monkeypatch):
    """The throttle's clock, set by the test (seconds since the epoch)."""
    from scoring import login_throttle

    now = [1_800_000_000.0]
    monkeypatch.setattr(login_throttle, "now", lambda: now[0])
    return now


def test_wrong_codes_are_throttled_per_address(table, settings, clock):
    """docs/security.md, "Threats and the tests that cover them": past the address limit wrong codes get 429 and codes are checked one per
    TABLE_LOGIN_SLOW_SECONDS; the right code is asked to wait, never refused as wrong."""
    assert settings.TABLE_LOGIN_RATE_PER_ADDRESS == "10/10m"
    client = Client()
    statuses = []
    for n in range(200):
        statuses.append(client.post(reverse("table-login"), {"code": f"WR0NGC0DE{n:02d}"}, REMOTE_ADDR="10.1.2.3").status_code)
        if statuses[-1] == 429:
            break
    assert statuses.count(400) == 10 and statuses[-1] == 429 and len(statuses) == 11
    limited = client.post(reverse("table-login"), {"code": "WR0NGC0DE99"}, REMOTE_ADDR="10.1.2.3")
    assert limited.status_code == 429 and "Too many wrong table codes" in limited.content.decode()
    right = login_as_table(client, table, REMOTE_ADDR="10.1.2.3")
    assert right.status_code == 429 and int(right["Retry-After"]) <= settings.TABLE_LOGIN_SLOW_SECONDS
    assert not logged_in(client, table)
    other = Client()
    assert login_as_table(other, table, REMOTE_ADDR="10.1.2.4").status_code == 302
    assert logged_in(other, table)
    clock[0] += int(right["Retry-After"])
    assert login_as_table(client, table, REMOTE_ADDR="10.1.2.3").status_code == 302
    assert logged_in(client, table)


def test_two_hundred_wrong_codes_are_answered_429_long_before_the_end(table):
    client = Client()
    statuses = [client.post(reverse("table-login"), {"code": f"{n:010d}"}, REMOTE_ADDR="10.5.5.5").status_code
                for n in range(200)]
    assert statuses.index(429) <= 10 and set(statuses[statuses.index(429):]) == {429}
    assert not HandResult.objects.exists()


def test_the_event_page_shares_the_address_limit_and_the_total_limit_slows_without_locking(table, team_event, settings, clock):
    settings.TABLE_LOGIN_RATE_TOTAL = "15/10m"
    settings.TABLE_LOGIN_SLOW_TOTAL_PER_SECOND = 1
    url = reverse("event-table-login", args=[team_event.slug])
    for n in range(10):
        assert Client().post(url, {"code": f"BADC0DE{n}"}, REMOTE_ADDR="10.7.0.1").status_code == 400
    assert Client().post(reverse("table-login"), {"code": "BADC0DE10"}, REMOTE_ADDR="10.7.0.1").status_code == 429
    for n in range(4):
        assert Client().post(url, {"code": f"BADC0DE2{n}"}, REMOTE_ADDR=f"10.7.1.{n}").status_code == 400
    assert Client().post(url, {"code": "BADC0DE30"}, REMOTE_ADDR="10.7.2.1").status_code == 429  # over the total
    clock[0] += 1
    assert login_as_table(Client(), table, event_scoped=True, REMOTE_ADDR="10.7.3.1").status_code == 302


def test_right_codes_do_not_count(client, table):
    for _ in range(30):
        assert login_as_table(Client(), table, REMOTE_ADDR="10.8.8.8").status_code == 302


def test_behind_the_proxy_the_limit_follows_the_reported_client_address(table, settings, clock):
    settings.AXES_IPWARE_META_PRECEDENCE_ORDER = ["HTTP_X_REAL_IP", "REMOTE_ADDR"]
    for n in range(12):  # the 12th takes the address's one check slot
        Client().post(reverse("table-login"), {"code": f"BADC0DE{n}"}, REMOTE_ADDR="127.0.0.1", HTTP_X_REAL_IP="192.168.1.20")
    assert login_as_table(Client(), table, REMOTE_ADDR="127.0.0.1", HTTP_X_REAL_IP="192.168.1.20").status_code == 429
    assert login_as_table(Client(), table, REMOTE_ADDR="127.0.0.1", HTTP_X_REAL_IP="192.168.1.21").status_code == 302


def finish_session(event, session_number=1, unconfirmed=None):
    """Enter and confirm every set at every table, except ``unconfirmed`` ((table, set): entered only)."""
    for table in Table.objects.filter(group__session__event=event, group__session__number=session_number):
        for _, sets in blocks(table):
            for set_no in sets:
                if not HandResult.objects.filter(table=table, set_no=set_no).exists():
                    result = submit_result(table, set_no, changes=ZERO, actor="t", entered_by_seat="E")
                    if (table, set_no) != unconfirmed:
                        confirm_result(result, actor="d", director=True)


def test_a_login_ends_when_its_session_is_finished(client, table, team_event):
    login_as_table(client, table)
    assert logged_in(client, table)
    finish_session(team_event)
    response = client.get(table_url(table))
    assert response.status_code == 302 and response["Location"].startswith(reverse("table-login"))
    assert client.session[TABLE_SESSION_KEY] == {}
    again = login_as_table(client, table)
    assert again.status_code == 403 and "finished its session" in again.content.decode()


def test_a_session_with_one_result_unconfirmed_is_not_finished(client, table, team_event):
    """The session runs until every set of it is released (docs/security.md): one set still
    waiting for its last confirmation keeps every table login of the session."""
    login_as_table(client, table)
    last = blocks(table)[-1][1][-1]
    finish_session(team_event, unconfirmed=(table, last))
    assert HandResult.objects.get(table=table, set_no=last).status == HandResult.Status.ENTERED
    assert not visibility.session_finished(team_event, 1)
    assert logged_in(client, table)


def test_a_login_expires_after_the_maximum_age(client, table, settings, monkeypatch):
    login_as_table(client, table)
    assert logged_in(client, table)
    later = time.time() + settings.TABLE_LOGIN_MAX_AGE.total_seconds() + 60
    monkeypatch.setattr(time, "time", lambda: later)
    assert not logged_in(client, table)


def test_an_old_style_stored_login_is_not_honoured(client, table):
    session = client.session
    session["scorer_tables"] = [table.pk]
    session[TABLE_SESSION_KEY] = [table.pk]
    session.save()
    assert not logged_in(client, table)


def test_a_login_link_keeps_the_next_page_through_the_confirm_button(client, table):
    target = table_url(table) + "?set=3"
    page = client.get(reverse("table-login-code", args=[table.login_code]) + "?" + urlencode({"next": target}))
    action = re.search(r'<form method="post" action="([^"]+)"', page.content.decode()).group(1)
    assert action.startswith(reverse("table-login") + "?next=")
    response = client.post(html.unescape(action), {"code": display_code(table.login_code)})
    assert response.status_code == 302 and response["Location"] == target


def test_codes_are_shown_grouped_on_the_director_page_and_the_score_sheets(client, director, team_event, table):
    client.force_login(director)
    page = client.get(reverse("director", args=[team_event.slug])).content.decode()
    assert f"{table.login_code[:5]}-{table.login_code[5:]}" in page
    sheets = score_sheets(team_event, 1)
    assert sheets[0].code == display_code(table.login_code)  # printed as text under the code
    assert sheets[0].login == f"{team_event.base_url}e/{team_event.slug}/entry/login/{display_code(table.login_code)}"
    team_event.base_url = "https://mj.example.org/"
    team_event.save(update_fields=["base_url"])
    sheets = score_sheets(team_event, 1)
    assert sheets[0].login == f"https://mj.example.org/e/{team_event.slug}/entry/login/{display_code(table.login_code)}"
    link = client.get(sheets[0].login.removeprefix("https://mj.example.org"))
    assert link.status_code == 200 and display_code(table.login_code) in link.content.decode()


def test_a_scorer_role_is_not_a_table_login(client, team_event, table, django_user_model):
    user = django_user_model.objects.create_user("scorer-none", password="pw-scorer-1")
    EventRole.objects.create(event=team_event, user=user, role=EventRole.Role.SCORER)
    client.force_login(user)
    assert client.get(table_url(table)).status_code == 302  # a role bound to no table scores nowhere
    assert client.get(reverse("entry", args=[team_event.slug])).status_code == 403
