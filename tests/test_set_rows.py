"""The "Set by set" rows of a team's and a player's page, written by
``scoring.result_pages.set_rows_html`` instead of a template loop: the same markup the loop
wrote (the loop kept here as the oracle), every name escaped, in each of the site's languages."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from django.template import Context, Template
from django.urls import reverse
from django.utils import translation
from factories import play_slots, prepared_event

from scoring import reports
from scoring.result_pages import set_rows_html
from tournament.models import Player, Team

pytestmark = pytest.mark.django_db

# templates/scoring/_team_body.html's loops as they were before the rows were written in Python
_TEAM_LOOP = (
    "{% load i18n seats set_codes %}"
    '{% for s in report.sets %}<tr class="set-row"><td><a href="{% url \'traveller\' event.slug s.session s.set_no %}">'
    "{% set_code s.session s.set_no %}</a></td>\n"
    '<td class="num"><strong>{{ s.points|stringformat:"+d" }}</strong></td><td class="num">{{ s.running }}</td>'
    '<td>{{ s.group|default:"–" }}</td>\n'
    '<td class="num">{{ s.score_change|stringformat:"+d" }}</td><td class="num">{{ s.datum|floatformat:2 }}</td>'
    '<td class="num">{{ s.difference|floatformat:2 }}</td>\n'
    "<td><small>{{ s.table_version|conversion_label }}</small></td></tr>\n{% endfor %}")
_PLAYER_LOOP = (
    "{% load i18n seats set_codes %}"
    '{% for s in report.sets %}<tr class="set-row"><td><a href="{% url \'traveller\' event.slug s.session s.set_no %}">'
    "{% set_code s.session s.set_no %}</a></td><td>{{ s.table }}</td><td>{{ s.seat|seat_name }}</td>\n"
    '<td class="num">{{ s.score_change|stringformat:"+d" }}</td><td class="num">{{ s.datum|floatformat:2 }}</td>'
    '<td class="num">{{ s.difference|floatformat:2 }}</td>\n'
    '<td class="num"><strong>{{ s.points|stringformat:"+d" }}</strong></td><td class="num">{{ s.running }}</td>\n'
    '<td class="num par">{% if s.par %}{{ s.par.score|stringformat:"+d" }} <small class="muted">D{{ s.par.draw }}</small>'
    "{% if s.par.label %}<br><small>{{ s.par.label }}</small>{% endif %}{% if s.par.best_score != s.par.score %}"
    '<br><small class="best">{% translate "best" %} {{ s.par.best_score|stringformat:"+d" }} <span class="muted">'
    "D{{ s.par.best_draw }}</span>{% if s.par.best_label %} · {{ s.par.best_label }}{% endif %}</small>{% endif %}"
    "{% else %}<span class=\"muted\" title=\"{% translate 'No call-free win was possible' %}\">–</span>{% endif %}</td>\n"
    '<td class="num">{% if s.par %}{{ s.par.versus|stringformat:"+d" }}{% else %}–{% endif %}</td></tr>\n{% endfor %}')

HOSTILE = '<script>alert("x")</script> & \'Jerry\''


@pytest.fixture
def played(director):
    roster = "team,player\n" + "".join(f"Team {t},{t}{m}\n" for t in "ABCD" for m in range(4))
    event = prepared_event(roster, name="Set rows", slug="set-rows", conversion="mcr-mp", director=director)
    play_slots(event, random.Random(11), slots=range(4))
    return event


def _hostile(sets: list[dict], mode: str) -> list[dict]:
    """``sets`` with the values a page must survive: names with markup, a missing group, no par,
    fractions that round half up, a negative zero and a seat value the filter does not know."""
    assert len(sets) >= 3, "the fixture plays several released sets"
    first, second, third = sets[0], sets[1], sets[2]
    first.update(datum=0.125, difference=-0.001, running=12.5, points=3.7)
    second.update(datum=-2.675, difference=1e-9)
    if mode == "team":
        first.update(group=None, table_version=f"{HOSTILE} v2")
        second["table_version"] = HOSTILE
    else:
        first["seat"] = HOSTILE
        second["par"] = None
        third["par"] = dict(third["par"] or {"draw": 3, "score": 8, "versus": -8},
                            label=HOSTILE, best_score=99, best_draw=7, best_label=HOSTILE)
    return sets


@pytest.mark.parametrize("language", ["en", "ja", "zh-hans"])
def test_the_rows_are_the_markup_the_template_loop_wrote_with_every_name_escaped(played, language):
    team = Team.objects.get(event=played, number=1)
    player = Player.objects.select_related("team").get(event=played, number=1)
    with translation.override(language):
        for mode, report, loop in (("team", reports.team_report(played, team), _TEAM_LOOP),
                                   ("player", reports.player_report(played, player), _PLAYER_LOOP)):
            sets = _hostile(report["sets"], mode)
            written = set_rows_html(sets, mode, played.slug)
            assert written == Template(loop).render(Context({"report": {"sets": sets}, "event": played}))
            assert written.count('<tr class="set-row">') == len(sets)
            assert "<script>" not in written and "&lt;script&gt;" in written
            assert f'href="/e/{played.slug}/travellers/{sets[0]["session"]}/{sets[0]["set_no"]}/"' in written


def test_a_player_reads_each_set_on_their_page_and_a_page_with_no_set_says_so(client, played):
    """What a player sees: one row per released set they played, linking to its traveller,
    with the code printed on the set's label; before any set is released, the sentence."""
    player = Player.objects.get(event=played, number=1)
    html = client.get(reverse("player-results", args=[played.slug, 1])).content.decode()
    rows = reports.player_report(played, player)["sets"]
    assert html.count('<tr class="set-row">') == len(rows) > 0
    assert f'href="{reverse("traveller", args=[played.slug, rows[0]["session"], rows[0]["set_no"]])}">1-01' in html
    roster = "team,player\n" + "".join(f"Team {t},{t}{m}\n" for t in "ABCD" for m in range(4))
    fresh = prepared_event(roster, name="No sets yet", slug="no-sets-yet", conversion="mcr-mp")
    for url in (reverse("player-results", args=[fresh.slug, 1]), reverse("team", args=[fresh.slug, 1])):
        page = client.get(url).content.decode()
        assert '<tr class="set-row">' not in page and "No set finished everywhere yet." in page


@given(figures=st.lists(st.one_of(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False), st.integers(-10**6, 10**6)),
                        min_size=2, max_size=2))
@settings(max_examples=300, deadline=None)
def test_every_figure_is_rounded_as_the_template_rounded_it(figures):
    """Seat averages and differences, any value: the writer's two decimals are floatformat's
    (half up from the shortest decimal, never "-0.00")."""
    row = {"session": 1, "set_no": 2, "group": 1, "score_change": 8, "points": 2, "running": 2, "table_version": "MCR v1",
           "datum": figures[0], "difference": figures[1]}
    with translation.override("en"):
        written = set_rows_html([row], "team", "cup")
        expected = Template(_TEAM_LOOP).render(Context({"report": {"sets": [row]}, "event": {"slug": "cup"}}))
    assert written == expected
