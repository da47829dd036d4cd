"""Pages served from the cache keyed by the event's content version (tournament.cache):
query counts that do not grow with the event, 304 answers to a repeated ETag, a director's
cached page never served to the public, and every director action that changes a page bumping
the version so the page changes with it."""

from __future__ import annotations

import gzip
import json
import re
import random

import pytest
from django.core.cache import cache
from django.db import connection
from django.http import HttpResponse
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.actions.confirmation import confirm_result, correct_result
from scoring.actions.entry import submit_result
from scoring.adjustments import add_adjustment, undo_adjustment
from scoring.conversion_versions import save_table_csv
from scoring.models import Adjustment, ConversionTable, HandResult
from scoring.reports import cached_standings, event_standings
from tournament.cache import forget_kept
from scoring.visibility import released_sets
from tests.factories import login_as_table, play_slots, played_event, rolled_back
from tournament import clock
from tournament.check_in import check_in
from tournament.entrants import rename_team, update_player
from tournament.event_setup import update_settings
from tournament.models import EventRole, EventVersion, Table
from tournament.services import create_event, prepare_session
from tournament.substitutions import substitute
from tournament.table_plan import table_plan

pytestmark = pytest.mark.django_db

# --- one small and one large played event per module ---------------------------------------------


@pytest.fixture(scope="module")
def sizes(django_db_setup, django_db_blocker):
    """``{16: event, 256: event}``: team events with session 1 played, built once for the module
    (rolled back after it)."""
    with rolled_back(django_db_blocker):
        yield {teams: played_event(teams, 1, slug=f"sizes-{teams}") for teams in (16, 256)}


def _count(client: Client, url: str) -> tuple[int, object]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(queries), response


def _main(response) -> bytes:
    return response.content.split(b"<main", 1)[1]


PAGES = {
    "team": lambda slug: reverse("team", args=[slug, 3]),
    "player": lambda slug: reverse("player-results", args=[slug, 9]),
    "standings": lambda slug: reverse("standings", args=[slug]),
}
# queries of an anonymous request: first after a change (computing what the page shows), then
# repeated (the event and the version; the page itself, whole, from the cache: a team or player
# is looked up only when its page is built)
# (the player page: 2 of them for the par of the player's sets, read and, the first time any
# page asks, stored with the walls: docs/scoring.md, "Par: what each seat could have made")
# (a cold process computes the per-seat rows set by set: four queries a set not yet kept, none
# for a set kept, so the first request after a release reads its one released set)
# (standings: one for the venue whose laptop this is, if any: the provisional banner)
FIRST = {"team": 30, "player": 26, "standings": 10}
WARM = {"team": 2, "player": 2, "standings": 2}


@pytest.mark.parametrize("page", sorted(PAGES))
def test_a_page_costs_the_same_queries_at_16_and_256_teams(sizes, django_db_blocker, page):
    counts = {}
    with django_db_blocker.unblock():
        for teams, event in sizes.items():
            cache.clear()
            forget_kept()
            client = Client()
            url = PAGES[page](event.slug)
            first, response = _count(client, url)
            warm, again = _count(client, url)
            assert _main(again) == _main(response)  # the same page (the header's CSRF token differs)
            counts[teams] = (first, warm)
    assert counts[16] == counts[256] == (FIRST[page], WARM[page]), counts


def test_the_team_page_shows_its_members_from_the_whole_event_ranking(sizes, django_db_blocker):
    with django_db_blocker.unblock():
        event = sizes[16]
        cache.clear()
        html = Client().get(reverse("team", args=[event.slug, 2])).content.decode()
        names = list(event.players.filter(team__number=2).values_list("name", flat=True))
    assert names and all(name in html for name in names)


# --- ETags --------------------------------------------------------------------------------------


@pytest.fixture
def small(db):
    return played_event(4, 2, slug="small-played")


def test_a_repeated_etag_is_answered_304_until_the_event_changes(small):
    client = Client()
    url = reverse("standings", args=[small.slug])
    first = client.get(url)
    tag = first.headers["ETag"]
    assert tag.startswith('W/"') and "no-cache" in first.headers["Cache-Control"]
    again = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again.headers["ETag"] == tag and not again.content

    rename_team(small.teams.get(number=1), name="Renamed Team", actor="director")
    changed = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and changed.headers["ETag"] != tag
    assert "Renamed Team" in changed.content.decode()


@pytest.mark.parametrize("name", ["api-standings", "standings-csv", "event-export"])
def test_json_and_downloads_answer_304_too(small, name, settings):
    settings.PUBLIC_DOWNLOAD_RATE = None
    client = Client()
    url = reverse(name, args=[small.slug])
    tag = client.get(url).headers["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    update_player(small.players.get(number=1), name="Someone Else", actor="director")
    assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 200


def test_a_logged_in_page_gets_no_etag(small, director):
    EventRole.objects.create(event=small, user=director, role=EventRole.Role.DIRECTOR)
    client = Client()
    client.force_login(director)
    response = client.get(reverse("standings", args=[small.slug]))
    assert response.status_code == 200 and "ETag" not in response.headers


# --- secrecy: a director's cached page never reaches the public -----------------------------------


def test_the_public_never_gets_the_directors_cached_standings(half_played, director):
    staff = Client()
    staff.force_login(director)
    url = reverse("standings", args=[half_played.slug])
    secret = staff.get(url + "?all=1").content.decode()
    assert "Director's view" in secret
    public = Client().get(url + "?all=1")  # asking for everything does not make it so
    html = public.content.decode()
    assert "Director's view" not in html
    public_rows = event_standings(half_played, public=True)
    every_rows = event_standings(half_played, public=False)
    assert public_rows != every_rows  # the unreleased session counts for the director only
    assert cached_standings(half_played, public=True) == public_rows
    api = json.loads(Client().get(reverse("api-standings", args=[half_played.slug]) + "?all=1").content)
    assert [r["points"] for r in api] == [r["points"] for r in public_rows]


def test_the_public_never_gets_the_live_grid_or_an_unreleased_traveller(half_played, director):
    staff = Client()
    staff.force_login(director)
    live = reverse("live", args=[half_played.slug]) + "?session=2"
    assert staff.get(live).status_code == 200
    assert Client().get(live).status_code in (302, 403)
    assert Client().get(reverse("live-json", args=[half_played.slug]) + "?session=2").status_code in (302, 403)

    traveller = reverse("traveller", args=[half_played.slug, 2, 1])
    table = Table.objects.get(group__session__event=half_played, group__session__number=2, number=1)
    secret = staff.get(traveller).content.decode()
    public = Client().get(traveller).content.decode()
    assert secret != public
    # the table's own scorer sees its own entry, nobody else's before the release
    scorer = Client()
    login_as_table(scorer, table)
    own = scorer.get(traveller).content.decode()
    assert own != public and own != secret


# --- every change of what a page shows bumps the version ------------------------------------------


def _page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def test_director_actions_bump_the_version_and_the_cached_pages_follow(db, director, settings):
    settings.PUBLIC_DOWNLOAD_RATE = None
    event = played_event(8, 1, slug="actions")
    event.sessions_planned = 2
    event.save(update_fields=["sessions_planned"])
    EventRole.objects.create(event=event, user=director, role=EventRole.Role.DIRECTOR)
    public = Client()
    slug = event.slug
    standings = reverse("standings", args=[slug])
    team = reverse("team", args=[slug, 1])
    projector = reverse("projector-json", args=[slug])
    export = reverse("event-export", args=[slug])

    def changes(action, url, before_after=None):
        """Run ``action``; the version grows and the page at ``url`` (None: no page to check)
        changes."""
        version, public_version = event.content_versions()
        before = _page(public, url) if url else None
        action()
        assert event.content_versions() > (version, public_version), action  # both: the public sees it
        assert event.content_versions()[1] > public_version, action
        if url is None:
            return
        after = _page(public, url)
        assert after != before, action
        if before_after:
            assert before_after(after), action

    team_row = event.teams.get(number=1)
    changes(lambda: rename_team(team_row, name="The Renamed", actor="d"), team, lambda html: "The Renamed" in html)
    player = event.players.get(number=1)
    changes(lambda: update_player(player, name="Ada Renamed", actor="d"), team, lambda html: "Ada Renamed" in html)
    changes(lambda: add_adjustment(event, team=team_row, unit="mp", amount=-7, reason="late", actor="d"), standings)
    adjustment = Adjustment.objects.get(event=event)
    changes(lambda: undo_adjustment(adjustment, actor="d"), standings)
    changes(lambda: update_settings(event, actor="d", tie_breaks=["positive_sets", "score_total"]), standings)
    changes(lambda: clock.set_announcement(event, "Lunch at one", actor="d"), projector,
            lambda text: "Lunch at one" in text)
    csv_text = ConversionTable.objects.current(event).as_table().to_csv()
    changes(lambda: save_table_csv(event, csv_text, name="Edited table", actor="d"), standings,
            lambda html: "Edited table" in html)
    changes(lambda: check_in(event, 2, list(event.teams.values_list("pk", flat=True)), actor="d"), None)
    changes(lambda: prepare_session(event, 2), export)
    seated = Table.objects.filter(group__session__event=event, group__session__number=2).first()
    out = table_plan(seated).holders(seated, 1)["E"]
    changes(lambda: substitute(event, 2, player_out=out, name="Sub Stitute", reason="ill", actor="d"), export,
            lambda text: "Sub Stitute" in text)
    # a result entered and confirmed: the director's live grid follows (a new version each time)
    staff = Client()
    staff.force_login(director)
    live = reverse("live-json", args=[slug]) + "?session=2"
    before = staff.get(live).content
    version = event.content_version()
    result = submit_result(seated, 1, actor="t", changes={"E": 30, "S": -10, "W": -10, "N": -10})
    assert event.content_version() > version
    entered = staff.get(live).content
    assert entered != before
    confirm_result(result, actor="t", director=True)
    assert staff.get(live).content != entered
    # the clock is not cached: it shows at once, and its actions are audited (version bumped too)
    session = event.sessions.get(number=2)
    version = event.content_version()
    clock.start_clock(session, minutes=90, actor="d")
    assert event.content_version() > version
    assert json.loads(_page(public, projector))["clock"]["running"] is True


def test_an_edit_in_the_django_admin_is_seen_by_the_cached_pages(small, django_user_model):
    """The admin is not the director's tool, but a superuser's edit there must not leave a public
    page stale: saving or deleting a row of an event bumps its content version."""
    root = django_user_model.objects.create_superuser("root", password="pw-root-1")
    admin = Client()
    admin.force_login(root)
    url = reverse("standings", args=[small.slug])
    public = Client()
    assert "Admin Renamed" not in public.get(url).content.decode()
    team = small.teams.get(number=1)
    change = reverse("admin:tournament_team_change", args=[team.pk])
    form = admin.get(change).context["adminform"].form
    data = {name: form.initial.get(name, "") for name in form.fields}
    data = {k: ("" if v is None else v) for k, v in data.items()}
    data["name"] = "Admin Renamed"
    response = admin.post(change, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert "Admin Renamed" in public.get(url).content.decode()


# --- the public version: results of unreleased sets change no public page -------------------------

PUBLIC_PAGES = ("standings", "team", "player", "players", "teams", "api-standings", "standings-csv", "event-export")


def _public_url(event, name: str) -> str:
    if name == "team":
        return reverse("team", args=[event.slug, 2])
    if name == "player":
        return reverse("player-results", args=[event.slug, 5])
    return reverse(name, args=[event.slug])


def test_results_of_unreleased_sets_leave_public_pages_304_and_their_release_changes_them(half_played, director,
                                                                                            settings):
    settings.PUBLIC_DOWNLOAD_RATE = None
    phone = Client()
    tags = {name: phone.get(_public_url(half_played, name)).headers["ETag"] for name in PUBLIC_PAGES}
    staff = Client()
    staff.force_login(director)
    live = reverse("live-json", args=[half_played.slug]) + "?session=2"
    live_before = staff.get(live).content
    versions = half_played.content_versions()

    # a table of another group enters and confirms set 1: scored for nobody yet, not released
    table = Table.objects.select_related("group__session__event").filter(
        group__session__event=half_played, group__session__number=2).exclude(group__number=1).first()
    set_no = table_plan(table).blocks(table)[0][1][0]
    result = submit_result(table, set_no, actor="t", changes={"E": 30, "S": -10, "W": -10, "N": -10})
    confirm_result(result, actor="t", director=True)
    assert not any(s == 2 for s, _n in released_sets(half_played))
    now = half_played.content_versions()
    assert now[0] > versions[0] and now[1] == versions[1]
    for name in PUBLIC_PAGES:  # a phone polling through the round is answered 304, nothing built
        assert phone.get(_public_url(half_played, name), HTTP_IF_NONE_MATCH=tags[name]).status_code == 304, name
    # the director's live grid follows every result
    assert staff.get(live).content != live_before

    play_slots(half_played, random.Random(5), session=2, skip_entered=True)  # session 2 complete: released
    assert (2, set_no) in released_sets(half_played)
    assert half_played.content_versions()[1] > versions[1]
    for name in PUBLIC_PAGES:
        response = phone.get(_public_url(half_played, name), HTTP_IF_NONE_MATCH=tags[name])
        assert response.status_code == 200 and response.headers["ETag"] != tags[name], name


def test_a_correction_of_a_released_set_changes_the_public_pages(small):
    result = HandResult.objects.filter(event=small, session_number=1, set_no=1).select_related(
        "table__group__session__event").first()
    url = reverse("standings", args=[small.slug])
    before = Client().get(url)
    public = small.content_versions()[1]
    seats = list(result.changes)
    changes = {seat: 0 for seat in seats}
    changes[seats[0]], changes[seats[1]] = 96, -96
    correct_result(result, actor="director", reason="misread", director=True, changes=changes)
    assert small.content_versions()[1] > public
    after = Client().get(url, HTTP_IF_NONE_MATCH=before.headers["ETag"])
    assert after.status_code == 200 and _main(after) != _main(before)


# --- one reader builds, the others wait for it ------------------------------------------------------


def test_readers_of_a_value_being_built_wait_for_it_instead_of_building_it_again(small, monkeypatch):
    import contextvars
    import threading
    import time

    from tournament import cache as reports_cache

    built = []
    started = threading.Event()

    def slow():
        built.append(threading.get_ident())
        started.set()
        time.sleep(0.3)
        return ["the rows"]

    answers = []
    pinned = reports_cache.reading(small)  # the threads read no database: the version is pinned here
    pinned.__enter__()

    def reader() -> threading.Thread:  # in a copy of this context: the version pinned
        context = contextvars.copy_context()
        return threading.Thread(target=lambda: answers.append(context.run(reports_cache.cached, small, "slow", slow,
                                                                          public=True)))

    first = reader()
    first.start()
    started.wait(5)
    others = [reader() for _ in range(4)]
    for t in others:
        t.start()
    for t in [first, *others]:
        t.join(10)
    pinned.__exit__(None, None, None)
    assert answers == [["the rows"]] * 5 and len(built) == 1

    # a builder that never finishes (a process killed): the others build it themselves after the wait
    monkeypatch.setattr(reports_cache, "WAIT_FOR_OTHERS", 0.1)
    key = reports_cache.cache_key(small, "stuck", public=True)
    cache.add(f"{key}:building", 1, 60)
    assert reports_cache.cached(small, "stuck", lambda: "built here", public=True) == "built here"


def test_a_part_missing_after_the_parts_were_built_is_built_again_not_waited_for(small):
    from tournament import cache as reports_cache

    calls = []

    def parts():
        calls.append(1)
        return {"a": [1], "b": [2]}

    assert reports_cache.cached_parts(small, "parts", "a", parts, []) == [1]
    assert reports_cache.cached_parts(small, "parts", "b", parts, []) == [2] and len(calls) == 1
    assert reports_cache.cached_parts(small, "parts", "zzz", parts, []) == [] and len(calls) == 2


# --- whole pages for visitors -----------------------------------------------------------------------

CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@pytest.mark.parametrize("page", ["standings", "team", "player", "players", "traveller"])
def test_a_visitors_page_is_built_once_sent_compressed_and_its_language_form_works_without_a_token(small, page,
                                                                                                  monkeypatch):
    from django.template import loader

    urls = {**{k: v(small.slug) for k, v in PAGES.items()}, "players": reverse("players", args=[small.slug]),
            "traveller": reverse("traveller", args=[small.slug, 1, 1])}
    url = urls[page]
    first = Client(enforce_csrf_checks=True)
    html = _page(first, url)
    rendered = []
    real = loader.render_to_string
    monkeypatch.setattr("django.shortcuts.loader.render_to_string",
                        lambda *a, **k: rendered.append(a[0]) or real(*a, **k))
    phone = Client(enforce_csrf_checks=True, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    packed = phone.get(url)
    assert rendered == []  # the whole page came from the cache
    assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
    assert len(packed.content) < len(html.encode())
    assert gzip.decompress(packed.content).decode() == html == _page(Client(), url)  # the same page for every visitor
    assert not CSRF_INPUT.search(html) and "csrftoken" not in phone.cookies
    assert phone.get(url, HTTP_IF_NONE_MATCH=packed["ETag"]).status_code == 304  # one ETag for both encodings
    # the language form needs no token: it works for a visitor whose client checks CSRF
    switched = phone.post(reverse("set_language"), {"language": "ja", "next": url})
    assert switched.status_code == 302 and switched["Location"] == url and phone.cookies["django_language"].value == "ja"
    assert 'lang="ja"' in gzip.decompress(phone.get(url).content).decode()
    # a visitor with a table login, or a logged-in account, gets the page rendered for them
    scorer = Client()
    login_as_table(scorer, Table.objects.filter(group__session__event=small).first())
    _page(scorer, url)
    assert rendered


def test_a_form_on_a_visitors_page_keeps_a_token_of_each_visitors_own(small):
    """A visitor's page that holds a form with a CSRF token is cached with the token cut out and
    each visitor's own put back (a token made from that visitor's CSRF secret), sent as it is."""
    from django.contrib.auth.models import AnonymousUser
    from django.contrib.messages.storage.fallback import FallbackStorage
    from django.contrib.sessions.backends.db import SessionStore
    from django.middleware.csrf import _unmask_cipher_token
    from django.template import RequestContext, Template
    from django.test import RequestFactory

    from tournament.cache import Page

    page = Page("form-page")
    del Page.declared["form-page"]  # a page of this test only
    built = []

    def visit():
        request = RequestFactory(HTTP_ACCEPT_ENCODING="gzip").get("/form/")
        request.user, request.session = AnonymousUser(), SessionStore()
        request._messages = FallbackStorage(request)

        def build():
            built.append(1)
            return HttpResponse(Template("<form>{% csrf_token %}</form>").render(RequestContext(request)))

        response = page.respond(request, small, "public", build, public=True)
        return request, response

    answers = [visit() for _ in range(2)]
    assert len(built) == 1
    tokens = []
    for request, response in answers:
        assert response.status_code == 200 and not response.has_header("Content-Encoding")
        token = CSRF_INPUT.search(response.content.decode()).group(1)
        assert _unmask_cipher_token(token) == request.META["CSRF_COOKIE"]  # made from this visitor's secret
        tokens.append(token)
    assert tokens[0] != tokens[1]


def test_a_visitors_cached_page_keeps_its_own_path_in_the_language_form(small):
    url = reverse("standings", args=[small.slug])
    _page(Client(), url)
    session_one = _page(Client(), url + "?session=1")
    assert f'name="next" type="hidden" value="{url}?session=1"' in session_one
    assert f'name="next" type="hidden" value="{url}"' in _page(Client(), url)


def test_an_unknown_team_or_player_is_404_every_time(small):
    for url in (reverse("team", args=[small.slug, 99]), reverse("player-results", args=[small.slug, 999])):
        assert [Client().get(url).status_code for _ in range(2)] == [404, 404]


def test_while_a_page_is_rebuilt_after_a_change_other_visitors_get_the_page_as_it_was_with_its_etag(small, monkeypatch):
    from tournament import cache as reports_cache

    url = reverse("team", args=[small.slug, 1])
    before = Client().get(url)
    assert before.status_code == 200 and "ETag" in before.headers
    old_name = small.teams.get(number=1).name
    rename_team(small.teams.get(number=1), name="Renamed While Busy", actor="director")
    # another reader is building what the team page needs at the new version (the standings)
    with reports_cache.reading(small):
        busy = reports_cache.cache_key(small, "standings:all:public", public=True) + ":building"
    cache.add(busy, 1, 60)
    older = Client().get(url)
    assert older.status_code == 200 and older.headers["ETag"] == before.headers["ETag"] and "Age" in older.headers
    assert old_name in older.content.decode() and "Renamed While Busy" not in older.content.decode()
    # a page never built before has nothing older: it waits for the builder (here, one that
    # never finishes: it builds it itself after the wait), and shows the new name
    monkeypatch.setattr(reports_cache, "WAIT_FOR_OTHERS", 0.2)
    never_built = Client().get(reverse("team", args=[small.slug, 2]))
    assert "Renamed While Busy" in never_built.content.decode() and "ETag" in never_built.headers
    cache.delete(busy)
    fresh = Client().get(url)
    assert "Renamed While Busy" in fresh.content.decode() and "ETag" in fresh.headers


def test_the_public_export_is_sent_compressed_to_a_client_that_accepts_gzip(small, settings):
    """A phone or browser (Accept-Encoding: gzip) gets the public export compressed as kept, the
    same JSON once decoded, with its own ETag (each encoding a representation of its own, both
    answering 304) and Vary: Accept-Encoding; a client that does not accept gzip, or refuses it
    (q=0), gets the JSON itself."""
    import gzip

    settings.PUBLIC_DOWNLOAD_RATE = None
    client = Client()
    url = reverse("event-export", args=[small.slug])
    plain = client.get(url)
    packed = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    refused = client.get(url, HTTP_ACCEPT_ENCODING="gzip;q=0, identity")
    assert plain.status_code == packed.status_code == refused.status_code == 200
    assert "Content-Encoding" not in plain.headers and "Content-Encoding" not in refused.headers
    assert packed.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed.headers["Vary"]
    assert "Accept-Encoding" in plain.headers["Vary"]
    assert gzip.decompress(packed.content) == plain.content == refused.content
    assert json.loads(gzip.decompress(packed.content))["event"]["slug"] == small.slug
    assert len(packed.content) * 4 < len(plain.content)  # what is read and sent: a fraction of the JSON
    assert packed.headers["ETag"] != plain.headers["ETag"]
    assert client.get(url, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=packed.headers["ETag"]).status_code == 304
    assert client.get(url, HTTP_IF_NONE_MATCH=plain.headers["ETag"]).status_code == 304
    assert client.get(url, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=plain.headers["ETag"]).status_code == 200
    update_player(small.players.get(number=1), name="Someone Else", actor="director")
    again = client.get(url, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=packed.headers["ETag"])
    assert again.status_code == 200 and b"Someone Else" in gzip.decompress(again.content)


def test_the_standings_api_is_sent_compressed_as_kept_to_a_client_that_accepts_gzip(small):
    """The standings JSON is rendered and compressed once per version (tournament.cache.kept_bytes): a
    client that accepts gzip gets the compressed bytes, the same JSON once decoded; one that
    does not, the JSON; both with Vary: Accept-Encoding and answered 304 to their ETag."""
    url = reverse("api-standings", args=[small.slug])
    client = Client()
    plain = client.get(url)
    packed = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert plain.status_code == packed.status_code == 200
    assert "Content-Encoding" not in plain.headers and packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in plain.headers["Vary"] and "Accept-Encoding" in packed.headers["Vary"]
    assert gzip.decompress(packed.content) == plain.content
    assert [row["name"] for row in json.loads(plain.content)] == [row["name"] for row in event_standings(small)]
    assert client.get(url, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=packed.headers["ETag"]).status_code == 304


def test_the_version_bump_is_one_statement_and_makes_its_row_the_first_time(db):
    """:meth:`Event.changed`: the first bump makes the version row; each bump after it is one
    UPDATE and nothing else, on every database: no ``SET CONSTRAINTS`` (the constraints' modes
    stay as declared for the rest of the transaction)."""
    event = create_event(name="Bump", slug="bump", sessions=1)
    EventVersion.objects.filter(event=event).delete()
    event.changed()
    assert EventVersion.objects.get(event=event).number == 1 and event.content_versions() == (1, 1)
    with CaptureQueriesContext(connection) as captured:
        event.changed(public=False)
    assert event.content_versions() == (2, 1)
    sql = [q["sql"] for q in captured.captured_queries]
    assert len(sql) == 1 and sql[0].startswith("UPDATE") and "eventversion" in sql[0], sql


# --- Issue 44, item 3: one page per known parameter, and a limit on pages built per address ------


def _whole_page_keys() -> list[str]:
    return [key for key in cache._cache if "whole-page" in key]  # the local-memory cache of the tests


def test_a_thousand_query_strings_make_one_cached_page_not_a_thousand(small):
    cache.clear()
    url = reverse("players", args=[small.slug])
    client = Client()
    assert client.get(url).status_code == 200
    before = len(_whole_page_keys())
    for n in range(1000):
        answer = client.get(f"{url}?r={n}")
        assert answer.status_code == 302 and answer["Location"] == url
    assert len(_whole_page_keys()) == before  # nothing stored for the made-up parameter
    assert len(cache._cache) < 60


def test_a_known_parameter_is_kept_once_and_in_order_and_the_page_is_cached_under_it(small):
    url = reverse("players", args=[small.slug])
    client = Client()
    assert client.get(f"{url}?order=points&order=score&x=1")["Location"] == f"{url}?order=score"  # the value the view reads
    page = client.get(f"{url}?order=score")
    assert page.status_code == 200 and b"Score" in page.content
    cache.clear()
    for n in range(200):  # a value the page ignores is no new page either
        assert client.get(f"{url}?order=r{n}")["Location"] == url
    assert _whole_page_keys() == []
    standings = reverse("standings", args=[small.slug])
    assert client.get(f"{standings}?all=1")["Location"] == standings  # "all" is the director's: a visitor's page has none
    assert client.get(f"{standings}?r=1&session=1")["Location"] == f"{standings}?session=1"
    assert small.sessions_planned == 2
    beyond = client.get(f"{standings}?session=3")  # no third session: a 400 naming it, nothing cached
    assert beyond.status_code == 400 and "session" in beyond.content.decode()
    assert Client().get(reverse("api-standings", args=[small.slug]) + "?session=3").status_code == 400


def test_the_director_is_never_redirected_or_limited(small, director, settings):
    EventRole.objects.create(event=small, user=director, role=EventRole.Role.DIRECTOR)
    settings.PUBLIC_PAGE_BUILD_RATE = "1/m"
    client = Client()
    client.force_login(director)
    url = reverse("standings", args=[small.slug])
    for query in ("?all=1", "?r=1", "?session=1", "?session=2"):
        assert client.get(url + query).status_code == 200


def test_one_address_cannot_make_the_site_build_page_after_page_but_built_pages_are_served(small, settings):
    cache.clear()
    settings.PUBLIC_PAGE_BUILD_RATE = "3/m"
    url = reverse("standings", args=[small.slug])
    players = reverse("players", args=[small.slug])
    hall = Client(REMOTE_ADDR="203.0.113.7")
    assert [hall.get(f"{url}?session={n}").status_code for n in (1, 2)] == [200, 200]
    assert hall.get(url).status_code == 200
    refused = hall.get(players)  # a fourth page to build from this address
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert "try again in" in refused.content.decode()
    for _ in range(50):  # the pages already built: every phone behind the address reads them
        assert hall.get(f"{url}?session=1").status_code == 200
    assert Client(REMOTE_ADDR="198.51.100.9").get(players).status_code == 200  # another address builds it
    assert hall.get(players).status_code == 200  # and then it is served to this one too


def test_a_travellers_etag_follows_what_the_public_sees_not_every_write(half_played):
    """Issue 44, item 7: a visitor watching a traveller's ETag learned of every entry, confirmation
    and correction anywhere in the event. Now it changes only with the public version and with
    this set's count of tables confirmed (what the page says)."""
    unplayed = Table.objects.select_related("group__session__event").filter(
        group__session__event=half_played, group__session__number=2).exclude(group__number=1).order_by("group__number", "number")
    table = unplayed.first()
    sets = table_plan(table).blocks(table)[0][1]
    url = reverse("traveller", args=[half_played.slug, 2, sets[0]])
    phone = Client()
    tag = phone.get(url).headers["ETag"]
    elsewhere = unplayed.exclude(pk=table.pk).first()
    other_set = next(s for s in table_plan(elsewhere).blocks(elsewhere)[0][1] if s != sets[0])
    entered = submit_result(elsewhere, other_set, actor="t",
                            changes={"E": 30, "S": -10, "W": -10, "N": -10})  # another set: entered, corrected
    correct_result(entered, actor="td", reason="typo", director=True, changes={"E": 20, "S": -10, "W": -10, "N": 0})
    result = submit_result(table, sets[0], actor="t", changes={"E": 30, "S": -10, "W": -10, "N": -10})  # this set: entered
    for _ in range(2):
        assert phone.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    confirm_result(result, actor="t", director=True)  # one more table has confirmed this set: the page says so
    changed = phone.get(url, HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and changed.headers["ETag"] != tag
    assert phone.get(url, HTTP_IF_NONE_MATCH=changed.headers["ETag"]).status_code == 304


def test_past_its_build_limit_an_address_is_served_the_page_as_it_was_not_refused(small, settings):
    """A hall behind one address, after a change (a renamed team) has outdated every page: past its
    limit of pages built, it is served each page as it was a moment before, with that page's ETag
    and its age."""
    cache.clear()
    settings.PUBLIC_PAGE_BUILD_RATE = "2/m"
    url, players = reverse("standings", args=[small.slug]), reverse("players", args=[small.slug])
    hall = Client(REMOTE_ADDR="203.0.113.8")
    old = hall.get(url)
    assert old.status_code == 200 and hall.get(players).status_code == 200  # the address's two builds
    team = small.teams.order_by("pk").first()
    rename_team(team, name="Renamed Sparrows", actor="td")
    served = hall.get(url)
    assert served.status_code == 200 and served["ETag"] == old["ETag"] and b"Renamed Sparrows" not in _main(served)
    assert int(served["Age"]) < 60
    assert _main(served) == _main(old)
    assert b"Renamed Sparrows" in _main(Client(REMOTE_ADDR="198.51.100.7").get(url))  # another address builds it
    fresh = hall.get(url)
    assert fresh.status_code == 200 and fresh["ETag"] != old["ETag"] and b"Renamed Sparrows" in _main(fresh)
    assert "Age" not in fresh


def test_a_released_sets_traveller_is_built_again_only_when_the_set_or_the_event_changes(half_played, settings, monkeypatch):
    """A visitor's traveller of a released set is kept under that set's own stamp (the event's
    shared version and the sum of the set's revisions), not under the public version: the round's end,
    when other sets are entered, confirmed and released, leaves it built, while a correction of
    the set itself or a change every page shows (a renamed team) builds it again, and its ETag
    still follows the public version."""
    from scoring import reports

    settings.PUBLIC_PAGE_STALE_SECONDS = 0  # no page served as it was: every miss is a build
    cache.clear()
    built = []
    real = reports.traveller_report
    monkeypatch.setattr(reports, "traveller_report", lambda *args: built.append(args[1:3]) or real(*args))
    url = reverse("traveller", args=[half_played.slug, 1, 1])
    phone = Client()
    first = phone.get(url)
    assert first.status_code == 200 and built == [(1, 1)]
    public = half_played.content_versions()[1]
    shared = EventVersion.objects.get(event=half_played).shared_number
    play_slots(half_played, random.Random(5), session=2, groups=[2])  # the other group plays: session 2 released
    assert {(2, n) for n in range(1, 5)} <= released_sets(half_played)
    assert half_played.content_versions()[1] > public
    assert EventVersion.objects.get(event=half_played).shared_number == shared  # one set's writes each
    again = phone.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and again["ETag"] != first["ETag"]  # the public version moved on
    assert _main(again) == _main(first) and built == [(1, 1)]  # the same page, not built again
    assert phone.get(reverse("traveller", args=[half_played.slug, 2, 1])).status_code == 200  # a newly released set
    assert built == [(1, 1), (2, 1)]

    results = HandResult.objects.filter(event=half_played, session_number=1).order_by("table__number")
    other = results.filter(set_no=2).first()  # another released set corrected: this one is left built
    correct_result(other, actor="td", reason="typo", director=True, changes={"E": 20, "S": -10, "W": -10, "N": 0})
    assert phone.get(url).status_code == 200 and len(built) == 2
    correct_result(results.filter(set_no=1).first(), actor="td", reason="typo", director=True,
                   changes={"E": 20, "S": -10, "W": -10, "N": 0})
    assert EventVersion.objects.get(event=half_played).shared_number == shared  # the set's revisions moved its stamp
    corrected = phone.get(url)
    assert built[-1] == (1, 1) and len(built) == 3 and _main(corrected) != _main(first)
    assert phone.get(url).status_code == 200 and len(built) == 3  # kept again

    team = half_played.teams.order_by("pk").first()
    rename_team(team, name="Renamed Sparrows", actor="td")
    renamed = phone.get(url)
    assert len(built) == 4 and b"Renamed Sparrows" in _main(renamed)


def test_a_correction_while_a_traveller_is_read_never_leaves_its_etag_on_the_page_before(half_played, settings, monkeypatch):
    """A correction committed between the traveller's read of its set's stamp and the rest of the
    request: the page may be the one before it, but its ETag then names the version before it
    too, so the phone's next read gets the corrected page (not a 304 that keeps the old one
    until the next release)."""
    from scoring import visibility

    settings.PUBLIC_PAGE_STALE_SECONDS = 0  # no page served as it was: the ETag alone decides
    cache.clear()
    url = reverse("traveller", args=[half_played.slug, 1, 1])
    phone = Client()
    phone.get(url)  # the page as it is, kept under the set's stamp
    result = HandResult.objects.filter(event=half_played, session_number=1, set_no=1).order_by("table__number").first()
    real = visibility.traveller_state

    def read_then_corrected(*args):
        state = real(*args)
        monkeypatch.setattr(visibility, "traveller_state", real)
        correct_result(result, actor="td", reason="typo", director=True, changes={"E": 20, "S": -10, "W": -10, "N": 0})
        return state

    monkeypatch.setattr(visibility, "traveller_state", read_then_corrected)
    raced = phone.get(url)
    assert raced.status_code == 200
    after = phone.get(url, HTTP_IF_NONE_MATCH=raced["ETag"])
    assert after.status_code == 200 and after["ETag"] != raced["ETag"]
    assert _main(after) != _main(raced) and _main(after) == _main(Client().get(url))  # the corrected page


def test_a_process_reads_the_seat_rows_another_process_computed(small, monkeypatch):
    """The per-seat rows of a set (a player's page, the players list) are computed by one process
    and kept in the cache under the set's score state: another process (nothing in its memory)
    reads them, and after a correction only the corrected set is computed again."""
    from scoring.reports import entrant_reports

    cache.clear()
    forget_kept()
    computed = []
    real = entrant_reports.set_scopes
    monkeypatch.setattr(entrant_reports, "set_scopes", lambda *args: computed.append(args[1:3]) or real(*args))
    url = reverse("player-results", args=[small.slug, 9])
    first = Client().get(url)
    assert first.status_code == 200 and computed and len(computed) == len(set(computed))  # each scored set once
    team = small.teams.order_by("pk").first()
    rename_team(team, name="Renamed Sparrows", actor="td")  # every page out of date, no set rescored
    forget_kept()  # another process
    computed.clear()
    assert Client().get(url).status_code == 200 and computed == []
    result = HandResult.objects.filter(event=small, session_number=1, set_no=1).order_by("table__number").first()
    correct_result(result, actor="td", reason="typo", director=True, changes={"E": 20, "S": -10, "W": -10, "N": 0})
    forget_kept()
    computed.clear()
    assert Client().get(url).status_code == 200 and computed == [(1, 1)]
