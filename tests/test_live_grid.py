"""The director's live grid shows the converted scores: each cell of a scored set names the points
of its table's teams (or players) seat by seat, and a "Converted scores" table gives every team's
points set by set with their sum; the grid's query count does not grow with the results."""

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import SetScore
from scoring.reports import cached_standings
from scoring.table_views import live_state
from tournament.models import SeatAssignment

from factories import client_for, individual_roster, play_slots, prepared_event, team_roster

pytestmark = pytest.mark.django_db


@pytest.fixture
def small_team_event(director):
    """Four teams: one group of four tables, so the whole session is 64 results."""
    return prepared_event(team_roster(4), name="Live Cup", slug="live-cup", director=director)


def _stored_points(event, key: str) -> dict:
    """(set, team or player id) -> converted points, read from the stored set scores."""
    return {(s.set_no, getattr(s, key)): s.points for s in SetScore.objects.filter(event=event, session_number=1)}


def test_nothing_is_converted_before_a_set_is_played_at_every_table(small_team_event):
    play_slots(small_team_event, random.Random(1), slots=[0])  # each table its first block: no set complete
    state = live_state(small_team_event, 1)
    assert state["team_method"] is True
    assert all(cell["converted"] == [] for row in state["rows"] for cell in row["cells"])
    assert {entry["name"] for entry in state["scores"]} == {"Team 1", "Team 2", "Team 3", "Team 4"}
    assert all(entry["points"] == [None] * 16 and entry["total"] == 0 for entry in state["scores"])


def test_each_cell_names_its_seats_teams_and_their_converted_points(small_team_event):
    play_slots(small_team_event, random.Random(7))
    state = live_state(small_team_event, 1)
    stored = _stored_points(small_team_event, "team_id")
    seats = {(a.table_id, a.seat): a.team for a in SeatAssignment.objects.filter(table__group__session__event=small_team_event)}
    for row in state["rows"]:
        for cell in row["cells"]:
            assert [p["seat"] for p in cell["converted"]] == ["E", "S", "W", "N"]
            for p in cell["converted"]:
                team = seats[(row["table_id"], p["seat"])]
                assert p["name"] == team.name and p["label"] == p["seat"]
                assert p["points"] == stored[(cell["set"], team.pk)]


def test_the_converted_scores_table_sums_to_the_session_standings(small_team_event):
    play_slots(small_team_event, random.Random(7))
    state = live_state(small_team_event, 1)
    standings = {row["name"]: row["points"] for row in cached_standings(small_team_event, 1)}
    assert {entry["name"]: entry["total"] for entry in state["scores"]} == standings
    assert [entry["total"] for entry in state["scores"]] == sorted(standings.values(), reverse=True)
    assert all(None not in entry["points"] for entry in state["scores"])


def test_the_grid_costs_the_same_queries_empty_and_full(small_team_event):
    """Polled every few seconds: once the session's standings are cached (the first poll after a
    change computes them), a poll costs the table plan (3), the results, the scores and the
    standings' cache check, however many results there are."""
    live_state(small_team_event, 1)
    with CaptureQueriesContext(connection) as empty:
        live_state(small_team_event, 1)
    play_slots(small_team_event, random.Random(3))
    live_state(small_team_event, 1)
    with CaptureQueriesContext(connection) as full:
        live_state(small_team_event, 1)
    assert len(full) == len(empty) == 6, [q["sql"] for q in full.captured_queries]


def test_an_individual_event_converts_per_player(director):
    event = prepared_event(individual_roster(16), name="Solo Live", slug="solo-live", method="individual", director=director)
    play_slots(event, random.Random(4))
    state = live_state(event, 1)
    stored = _stored_points(event, "player_id")
    names = {(a.table_id, a.seat): a.player for a in SeatAssignment.objects.filter(table__group__session__event=event)}
    cell = state["rows"][0]["cells"][0]
    assert [p["name"] for p in cell["converted"]] == [names[(state["rows"][0]["table_id"], s)].name for s in "ESWN"]
    assert [p["points"] for p in cell["converted"]] == [stored[(cell["set"], names[(state["rows"][0]["table_id"], s)].pk)]
                                                       for s in "ESWN"]
    assert len(state["scores"]) == 16 and state["team_method"] is False


def test_the_live_page_shows_the_converted_scores_to_the_director(small_team_event, director):
    play_slots(small_team_event, random.Random(7))
    client = client_for(director)
    html = client.get(reverse("live", args=[small_team_event.slug])).content.decode()
    best = live_state(small_team_event, 1)["scores"][0]
    assert 'id="converted"' in html and "Converted scores" in html
    assert f'<th scope="row">{best["name"]}</th>' in html and f"<strong>{best['total']:+d}</strong>" in html
    data = client.get(reverse("live-json", args=[small_team_event.slug])).json()
    assert data["scores"][0] == best
    assert " · E " in html  # the cell's title names its seats
    cell = live_state(small_team_event, 1)["rows"][0]["cells"][0]
    link = reverse("result", args=[small_team_event.slug, cell["id"]])
    assert f'href="{link}"' in html and client.get(link).status_code == 200  # a cell opens its result


def test_an_individual_events_substitute_is_in_the_grid_with_the_points_of_the_sets_they_played(director):
    """A player replaced before the first set: the substitute plays all 16 sets at East of table 1.
    The grid's scores list them with their points, and every scored cell of table 1 names them at
    East with the points stored for them (the seat's holder on that set, not the seat as prepared)."""
    from tournament.models import Event, Table
    from tournament.substitutions import substitute

    event = prepared_event(individual_roster(16), name="Live Solo", slug="live-solo", method=Event.Method.INDIVIDUAL,
                           conversion="mcr-mp", director=director)
    table = Table.objects.get(group__session__event=event, number=1)
    replaced = SeatAssignment.objects.get(table=table, seat="E").player
    sub = substitute(event, 1, player_out=replaced, name="Walk In", reason="did not come", actor="d")
    assert len(sub.sets) == 16
    play_slots(event, random.Random(11))
    stored = _stored_points(event, "player_id")
    state = live_state(event, 1)
    board = {entry["name"]: entry for entry in state["scores"]}
    assert board["Walk In"]["points"] == [stored[(s, sub.player_in.pk)] for s in range(1, 17)]
    assert board["Walk In"]["total"] == sum(stored[(s, sub.player_in.pk)] for s in range(1, 17))
    row = next(r for r in state["rows"] if r["table"] == 1)
    for cell in row["cells"]:
        east = [c for c in cell["converted"] if c["seat"] == "E"]
        assert east == [{"seat": "E", "label": east[0]["label"], "name": "Walk In",
                         "points": stored[(cell["set"], sub.player_in.pk)]}], cell
        assert len(cell["converted"]) == 4


def test_the_cached_live_page_keeps_the_directors_menu(small_team_event, director_client):
    """The grid's body is cached without the request; the director's menu on top of it is not, so
    the live page links to the director's pages like every other director page, on the first
    view and on a view served from the cache."""
    url = reverse("live", args=[small_team_event.slug])
    settings_link = reverse("event-settings", args=[small_team_event.slug])
    for _view in ("first", "cached"):
        page = director_client.get(url).content.decode()
        assert 'id="director-menu"' in page
        assert f'href="{settings_link}"' in page
        assert 'id="live-session"' in page


def test_the_grid_warns_not_to_project_it_while_other_groups_play_the_sets_it_scores(director, client):
    """Two groups: once group 1 has played the session, its converted points show on the
    director's grid while group 2 still plays those sets; the page says not to project it until
    they are released everywhere."""
    event = prepared_event(team_roster(8), name="Two Groups", slug="two-groups", director=director)
    play_slots(event, random.Random(5), groups=[1])
    state = live_state(event, 1)
    assert state["private_sets"], "group 1's first block is scored and not released"
    client.force_login(director)
    page = client.get(reverse("live", args=[event.slug])).content.decode()
    assert 'id="do-not-project"' in page and "Do not project this page" in page
    assert all(str(s) in page.split('id="do-not-project"')[1].split("</p>")[0] for s in state["private_sets"])
    play_slots(event, random.Random(6), groups=[2])
    assert live_state(event, 1)["private_sets"] == []


# the rows as the template loop wrote them before they were written in Python (the oracle)
_GRID_TEMPLATE = (
    '{% for row in state.rows %}<tr data-table="{{ row.table }}"{% if row.late %} class="late"{% endif %}><th scope="row">'
    '{% if row.late %}<mark>{{ row.table }}</mark>{% else %}{{ row.table }}{% endif %}</th>\n{% for c in row.cells %}'
    '<td class="num status-{{ c.status }}{% if c.flags %} flagged{% endif %}" data-set="{{ c.set }}" title="{{ c.status }}'
    '{% for f in c.flags %} · {{ f }}{% endfor %}{% for p in c.converted %} · {{ p.label }} {{ p.name }} '
    '{{ p.points|stringformat:"+d" }}{% endfor %}">{% if c.id %}<a href="{{ result_path }}{{ c.id }}/">'
    '{{ c.status|first|upper }}</a>{% if c.flags %}<mark>⚑</mark>{% endif %}{% else %}·{% endif %}</td>{% endfor %}'
    '</tr>{% endfor %}')
_SCORES_TEMPLATE = (
    '{% for entry in state.scores %}<tr><td class="num">{{ entry.rank|default_if_none:"–" }}</td><th scope="row">'
    '{{ entry.name }}</th>{% for p in entry.points %}<td class="num">{% if p is None %}·{% else %}'
    '{{ p|stringformat:"+d" }}{% endif %}</td>{% endfor %}<td class="num"><strong>{{ entry.total|stringformat:"+d" }}'
    '</strong></td></tr>{% endfor %}')


def test_the_grid_rows_are_the_markup_the_template_wrote_with_every_name_and_flag_escaped(small_team_event):
    from django.template import Context, Template

    from scoring.table_views import live_rows_html

    play_slots(small_team_event, random.Random(7))
    state = live_state(small_team_event, 1)
    hostile = '<script>alert("x")</script> & \'Jerry\''
    first = state["rows"][0]
    first["late"] = True
    first["cells"][0]["flags"] = [hostile, "fan check: 8 < 8"]
    first["cells"][1].update(status="missing", id=None, converted=[])
    for cell in first["cells"]:
        for seat in cell["converted"]:
            seat["name"] = hostile
    state["scores"][0].update(name=hostile, rank=None, total=12.5)
    state["scores"][1]["points"][0] = None
    grid, scores = live_rows_html(state, "/e/x/results/")
    context = Context({"state": state, "result_path": "/e/x/results/"})
    assert grid == Template(_GRID_TEMPLATE).render(context)
    assert scores == Template(_SCORES_TEMPLATE).render(context)
    assert "<script>" not in grid + scores and "&lt;script&gt;" in grid and "&lt;script&gt;" in scores
