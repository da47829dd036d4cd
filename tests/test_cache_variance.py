"""Every cached page declares what it varies by (tournament.cache.Page), and that variance keeps the
director, staff, a table and a visitor apart: walked over every declared page, as variants and as
the responses a visitor gets after each of the others has filled the cache.

The event: session 1 played everywhere; session 2 played by group 1 only, so its sets are scored
for the director and staff and for group 1's tables, and secret from everyone else."""

from __future__ import annotations

import io
import json
from urllib.parse import urlencode

import pypdfium2
import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook

import scoring.api  # noqa: F401 - the modules that declare the pages
import scoring.result_pages  # noqa: F401
import scoring.table_views  # noqa: F401
import scoring.views  # noqa: F401
import tournament.views  # noqa: F401
from scoring.visibility import Viewer
from tests.factories import login_as_table
from tournament.cache import Page
from tournament.models import EventRole, Table

pytestmark = pytest.mark.django_db

DIRECTOR = Viewer(secrets=True, director=True)
STAFF = Viewer(secrets=True)
TABLE = Viewer(tables=frozenset({7}))
VISITOR = Viewer()

#: each declared page: (its URL's name, its arguments after the slug, the query asking for every set)
URLS = {
    "standings": ("standings", (), {"all": 1}),
    "api-standings": ("api-standings", (), {"all": 1}),
    "standings.csv": ("standings-csv", (), {"all": 1}),
    "standings.xlsx": ("standings-xlsx", (), {"all": 1}),
    "federation.csv": ("federation-csv", (), {}),
    "players": ("players", (), {"all": 1}),
    "teams": ("teams", (), {"all": 1}),
    "team": ("team", (1,), {"all": 1}),
    "player": ("player-results", (1,), {"all": 1}),
    "traveller": ("traveller", (2, 1), {}),
    "hand-records.pdf": ("hand-records", (2,), {}),
    "live": ("live", (), {"session": 2}),
    "live.json": ("live-json", (), {"session": 2}),
    "export.json": ("event-export", (), {}),
}


def test_every_declared_page_is_walked_here():
    assert set(Page.declared) == set(URLS)


@pytest.mark.parametrize("name", sorted(URLS))
def test_a_declared_variance_keeps_director_staff_table_and_visitor_apart(name):
    page = Page.declared[name]
    every = {who: page.variant(viewer, False, 2) for who, viewer in
             (("director", DIRECTOR), ("staff", STAFF), ("table", TABLE), ("visitor", VISITOR))}
    assert len({every["director"], every["staff"], every["visitor"]}) == 3, every
    assert every["director"] != every["table"] and every["staff"] != every["table"]
    # a viewer who may see only what is public is keyed public whatever the view asks
    assert page.variant(VISITOR, False, 2) == page.variant(VISITOR, True, 2)
    assert page.variant(TABLE, False, 2) == page.variant(TABLE, True, 2)
    if page.tables:  # a table sees its own entries before the release: never the visitors' page
        assert every["table"] != every["visitor"]
    # the director's and staff's public scope is theirs too (their own links and forms)
    assert page.variant(DIRECTOR, True, 2) not in (every["visitor"], every["director"])


def _seen(response) -> object:
    """What a person reads in a response: its status and its text (an XLSX's cell values, a PDF's
    text, a gzip-free body), leaving out the per-visitor CSRF token."""
    kind = response.get("Content-Type", "")
    if response.status_code != 200:
        return response.status_code
    if "spreadsheetml" in kind:
        book = load_workbook(io.BytesIO(response.content), read_only=True)
        return [[c for c in row] for sheet in book.worksheets for row in sheet.iter_rows(values_only=True)]
    if "pdf" in kind:
        pdf = pypdfium2.PdfDocument(response.content)
        return [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
    if "json" in kind:
        data = json.loads(response.content)
        if isinstance(data, dict):
            data.pop("exported_at", None)  # the time the export was built
        return data
    text = response.content.decode()
    return [line for line in text.splitlines() if "csrfmiddlewaretoken" not in line]


def _url(event, name: str, everything: bool) -> str:
    url_name, args, query = URLS[name]
    url = reverse(url_name, args=[event.slug, *args])
    return url + ("?" + urlencode(query) if everything and query else "")


def _client(kind: str, event, director, staff_user) -> Client:
    """A browser of ``kind``: the director, a staff member, group 1's first table of session 2 (it
    has played the secret sets), group 2's first table (it has not) or a visitor."""
    client = Client()
    if kind in ("table", "other table"):
        group = 1 if kind == "table" else 2
        login_as_table(client, Table.objects.filter(group__session__event=event, group__session__number=2,
                                                    group__number=group).order_by("number").first())
    elif kind != "visitor":
        client.force_login(director if kind == "director" else staff_user)
    return client


@pytest.mark.parametrize("observer", ["visitor", "other table"])
@pytest.mark.parametrize("name", sorted(URLS))
def test_a_public_viewer_after_the_director_staff_and_a_table_sees_what_they_see_alone(half_played, director,
                                                                                    django_user_model, name, observer,
                                                                                    settings):
    settings.PUBLIC_DOWNLOAD_RATE = None
    settings.PUBLIC_PAGE_BUILD_RATE = None
    staff_user = django_user_model.objects.create_user("scorekeeper", password="pw-staff-1")
    EventRole.objects.create(event=half_played, user=staff_user, role=EventRole.Role.STAFF)
    cache.clear()
    alone = _seen(_client(observer, half_played, director, staff_user).get(_url(half_played, name, everything=False)))

    cache.clear()
    others = [_seen(_client(kind, half_played, director, staff_user).get(_url(half_played, name, everything)))
              for kind in ("director", "staff", "table") for everything in (True, False)]
    after = _seen(_client(observer, half_played, director, staff_user).get(_url(half_played, name, everything=False)))
    assert after == alone
    # and the walk means something: someone else was shown more than the visitor (the federation
    # file is the public one for every viewer, the director included)
    if name not in ("export.json", "federation.csv"):
        assert any(seen != alone for seen in others), name


def test_a_deploy_never_serves_what_the_code_before_it_kept(half_played, settings):
    """Every key starts with the release (a digest of the code unless RELEASE names it): a value kept
    by the code before a deploy is built again by the code after it, not read."""
    from tournament import cache as kept

    built = []
    settings.RELEASE = "before"
    kept.release.cache_clear()
    try:
        assert kept.cached(half_played, "value", lambda: built.append(1) or "old code's") == "old code's"
        assert kept.cached(half_played, "value", lambda: built.append(1) or "old code's") == "old code's"
        settings.RELEASE = "after"
        kept.release.cache_clear()
        assert kept.cached(half_played, "value", lambda: built.append(1) or "new code's") == "new code's"
        assert len(built) == 2
    finally:
        kept.release.cache_clear()
    settings.RELEASE = ""
    assert len(kept.release()) == 12  # the code's own digest when none is named


def test_a_stored_converted_score_is_never_updated_in_place(half_played):
    """The kept standings tallies find a changed comparison by its rows' count and largest id, so a
    rescore deletes and inserts; the model refuses an update (scoring.models.SetScore)."""
    from scoring.models import SetScore

    score = SetScore.objects.filter(event=half_played).first()
    score.points += 1
    with pytest.raises(TypeError, match="never updated in place"):
        score.save()
    with pytest.raises(TypeError, match="never updated in place"):
        SetScore.objects.filter(pk=score.pk).update(points=0)
    with pytest.raises(TypeError, match="never updated in place"):
        SetScore.objects.bulk_update([score], ["points"])
