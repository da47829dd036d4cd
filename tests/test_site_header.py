"""The site header: the menu folds behind a "Menu" button (a <details>, no script needed), a phone
logged in as a table shows its table instead of "Log in", and "Result entry" leads each visitor
where they can enter results (the director to the entry page, a table's phone to its table, anyone
else to the event's table login, not the account login)."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from tournament.models import EventRole

from factories import client_for, first_table, table_url

pytestmark = pytest.mark.django_db


def _header(html: str) -> str:
    return html[html.index('<header class="site">'):html.index("</header>")]


def _entry_href(html: str) -> str:
    return re.search(r'<a href="([^"]+)">Result entry</a>', _header(html)).group(1)


def test_a_visitor_is_offered_the_account_login_and_led_to_the_table_login(team_event):
    html = Client().get(reverse("event", args=[team_event.slug])).content.decode()
    header = _header(html)
    assert reverse("login") in header
    assert _entry_href(html) == reverse("event-table-login", args=[team_event.slug])


def test_a_phone_logged_in_as_a_table_shows_its_table_and_no_login(team_event):
    table = first_table(team_event)
    phone = client_for(table=table)
    for url in (table_url(table), reverse("standings", args=[team_event.slug])):
        header = _header(phone.get(url).content.decode())
        assert f'<a class="table-badge" href="{table_url(table)}"' in header
        assert f">Table {table.number}</a>" in header
        assert reverse("login") not in header and "Log in" not in header
    assert _entry_href(phone.get(reverse("event", args=[team_event.slug])).content.decode()) == table_url(table)


def test_the_table_badge_names_the_table_in_the_page_language(team_event):
    table = first_table(team_event)
    phone = client_for(table=table)
    phone.cookies["django_language"] = "ja"
    header = _header(phone.get(table_url(table), HTTP_ACCEPT_LANGUAGE="ja").content.decode())
    assert f">第 {table.number} 卓</a>" in header


def test_the_director_enters_results_on_the_entry_page(team_event, director):
    html = client_for(director).get(reverse("event", args=[team_event.slug])).content.decode()
    assert _entry_href(html) == reverse("entry", args=[team_event.slug])
    assert 'action="/accounts/logout/"' in _header(html) and "table-badge" not in _header(html)


def test_staff_without_a_table_is_led_to_the_table_login(team_event, django_user_model):
    staff = django_user_model.objects.create_user("staff-1", password="pw-staff-1")
    EventRole.objects.create(event=team_event, user=staff, role=EventRole.Role.STAFF)
    html = client_for(staff).get(reverse("event", args=[team_event.slug])).content.decode()
    assert _entry_href(html) == reverse("event-table-login", args=[team_event.slug])


def test_the_menu_folds_into_a_details_element_after_a_skip_link(team_event):
    html = Client().get(reverse("standings", args=[team_event.slug])).content.decode()
    assert html.index('<a class="skip-link" href="#main">') < html.index('<header class="site">')
    header = _header(html)
    menu = header[header.index('<details class="site-menu"'):header.index("</details>")]
    assert "<summary>Menu</summary>" in menu
    for inside in ('<nav aria-label="Main">', 'id="lang-select"', ">Standings</a>", ">Log in</a>"):
        assert inside in menu
    assert "<script" not in header  # folds and unfolds without JavaScript
    assert '<main id="main"' in html
