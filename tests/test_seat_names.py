"""Seats are named in the page's language: tournament.i18n's ``seat_name`` / ``seat_label`` (the
pure core's, also used by result sentences), the ``seats`` template filters, and the pages that
show a seat (traveller, team page, seating); the regrouping method of a session too."""

import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils import translation
from factories import (
    built_once,
    demo_roster,
    event_from,
    individual_roster,
    play_slots,
    prepared_event,
)

from tournament import i18n
from tournament.templatetags.regrouping_words import regrouping_method
from tournament.templatetags.seats import pile_title

NAMES = {
    "en": ("East", "South", "West", "North"),
    "ja": ("東家", "南家", "西家", "北家"),
    "zh-hans": ("东家", "南家", "西家", "北家"),
}
LABELS = {"en": ("E", "S", "W", "N"), "ja": ("東", "南", "西", "北"), "zh-hans": ("东", "南", "西", "北")}


@pytest.mark.parametrize("language", NAMES)
def test_seats_are_named_in_the_active_language(language):
    with translation.override(language):
        assert tuple(i18n.seat_name(s) for s in "ESWN") == NAMES[language]
        assert tuple(i18n.seat_label(s) for s in "ESWN") == LABELS[language]


def test_outside_django_seats_stay_english_and_unknown_letters_pass_through(monkeypatch):
    monkeypatch.setattr(i18n, "_translate", None)  # a script outside the project: nothing installed
    assert i18n.seat_name("W") == "West" and i18n.seat_label("W") == "W"
    assert i18n.seat_name("X") == "X" and i18n.seat_label("") == ""


@pytest.mark.parametrize("language", NAMES)
def test_template_filters_name_seats_like_the_core(language):
    template = Template("{% load seats %}{% for s in seats %}{{ s|seat_label }}={{ s|seat_name }};{% endfor %}")
    with translation.override(language):
        shown = template.render(Context({"seats": ["E", "S", "W", "N"]}))
    assert shown == "".join(f"{label}={name};" for label, name in zip(LABELS[language], NAMES[language]))


def test_hand_record_piles_read_as_seat_and_pile():
    with translation.override("ja"):
        assert pile_title({"name": "E-hand", "seat": "E", "kind": "hand"}) == "東家 · 配牌"
        assert pile_title({"name": "dead", "seat": None, "kind": "dead"}) == "王牌"
    assert pile_title({"name": "odd", "seat": "E", "kind": "odd"}) == "odd"


@pytest.mark.parametrize(("stored", "language", "shown"), [
    ("affine geometry AG(2,4)", "ja", "アフィン幾何 AG(2,4)"),
    ("affine geometry AG(2,4)", "zh-hans", "仿射几何 AG(2,4)"),
    ("affine geometry AG(2,4)", "en", "affine geometry AG(2,4)"),
    ("transversal design TD(4,5) repeated", "ja", "横断デザイン TD(4,5)(繰り返し)"),
    ("affine geometry AG(3,4) + tabu search (time limit)", "zh-hans", "仿射几何 AG(3,4),再尽量减少重复相遇的座位安排(达到时间限制后停止)"),
    ("tabu search", "ja", "同じ相手との再対戦を少なくする席決め"),
    ("tabu search", "en", "seating that keeps repeat meetings few"),  # plain words, not the algorithm's name
    ("round robin (circle method)", "ja", "総当たり(サークル法)"),
    ("something new", "ja", "something new"),  # a name the filter does not know is shown as stored
])
def test_the_regrouping_method_is_said_in_the_page_language(stored, language, shown):
    with translation.override(language):
        assert regrouping_method(stored) == shown


# --- pages -----------------------------------------------------------------------------------------

def _build_played():
    import random

    event = prepared_event(demo_roster(), name="Seat Cup", slug="seat-cup")
    play_slots(event, random.Random(5), slots=[0])
    return event


_played_rows = built_once(_build_played, name="_played_rows")


@pytest.fixture
def played(director, _played_rows):
    """A 16-team event with its first movement slot played (sets scored), director holding the role."""
    return event_from(_played_rows, _build_played, director)


def _get(client, url, language):
    client.cookies["django_language"] = language
    return client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()


def test_seating_page_names_seats_and_method_in_japanese(client, played):
    session = played.sessions.get(number=1)
    assert session.regrouping_method == "affine geometry AG(2,4)"  # 16 teams in groups of 4
    html = _get(client, reverse("seating", args=[played.slug, 1]), "ja")
    assert "<th>東家</th><th>南家</th><th>西家</th><th>北家</th>" in html
    assert "アフィン幾何 AG(2,4)" in html and "affine geometry" not in html


def test_director_page_names_the_method_in_chinese(client, played, director):
    client.force_login(director)
    html = _get(client, reverse("director", args=[played.slug]), "zh-hans")
    assert "仿射几何 AG(2,4)" in html and "affine geometry" not in html


def test_seating_page_lets_staff_choose_the_sheet_language(client, played, director):
    client.force_login(director)
    html = _get(client, reverse("seating", args=[played.slug, 1]), "ja")
    assert 'name="lang"' in html and '<option value="ja" selected>' in html


def test_traveller_heads_its_seats_in_the_page_language(client, played, director):
    client.force_login(director)  # the director sees a set still in play, with its hand record
    html = _get(client, reverse("traveller", args=[played.slug, 1, 1]), "zh-hans")
    assert '<abbr title="东家">东</abbr>' in html and '<abbr title="北家">北</abbr>' in html
    assert "东家 · 起手牌" in html  # the hand record's piles


def test_a_player_page_names_the_seat_held_on_each_set(client, db, director):
    import random

    event = prepared_event(individual_roster(16), name="Solo", slug="solo", method="individual", director=director)
    play_slots(event, random.Random(2))  # the whole session: sets are shown once played everywhere
    html = _get(client, reverse("player-results", args=[event.slug, 1]), "ja")
    seats = [cell for cell in ("東家", "南家", "西家", "北家") if f"<td>{cell}</td>" in html]
    assert seats, "the player's set rows name no seat in Japanese"
    assert "<td>E</td>" not in html and "<td>N</td>" not in html
