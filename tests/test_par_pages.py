"""Par on the pages (docs/scoring.md, "Par: what each seat could have made"): the traveller and
hand record of a set show each seat's par beside each table's score at that seat once the set
is public (the director and staff at once), a player's page shows their results against par,
and the analysis is stored with the wall the first time it is asked for."""

import copy
import random

import pytest
from django.urls import reverse
from factories import play_slots, prepared_event

from scoring import par as par_core
from scoring.models import HandResult
from walls.models import WallSet

pytestmark = pytest.mark.django_db


def cup(slug, director=None):
    roster = "team,player\n" + "".join(f"Team {t},{t}{m}\n" for t in "ABCD" for m in range(4))
    return prepared_event(roster, name=f"Par {slug}", slug=slug, conversion="mcr-mp", director=director)


def test_par_is_secret_until_the_set_is_public_then_shown_beside_every_table(client, director):
    event = cup("par-secret", director)
    play_slots(event, random.Random(1), slots=[0])
    url = reverse("traveller", args=[event.slug, 1, 1])
    wall = WallSet.objects.get(event=event, session_number=1, set_no=1)

    anonymous = client.get(url)
    assert anonymous.context["report"]["par"] is None
    assert 'id="par"' not in anonymous.content.decode() and "par-row" not in anonymous.content.decode()
    wall.refresh_from_db()
    assert wall.par is None  # nobody allowed asked: not even computed

    client.force_login(director)
    staff = client.get(url)
    assert staff.context["report"]["par"] is not None and 'id="par"' in staff.content.decode()
    client.logout()

    play_slots(event, random.Random(2), slots=[1, 2, 3])
    public = client.get(url)
    html = public.content.decode()
    shown = public.context["report"]["par"]
    expected = par_core.set_par(event.get_ruleset(), wall.piles, prevalent_wind="E")
    for seat in expected.seats:
        row = shown["seats"][seat.seat]
        assert row["shanten"] == seat.shanten
        if seat.par is None:
            assert row["par"] is None
            continue
        assert (row["par"]["draw"], row["par"]["hand"], row["par"]["score"]) == (seat.par.draw, seat.par.hand, seat.par.score)
        assert f'id="par-{seat.seat}"' in html and f"D{seat.par.draw}" in html
        # the tfoot under the tables: each seat's par score in that seat's column
        assert f'{seat.par.score:+d} <small class="muted">D{seat.par.draw}</small>' in html
    wall.refresh_from_db()
    assert wall.par == expected.as_dict()


def test_a_player_s_page_shows_each_result_against_par(client, director):
    event = cup("par-player", director)
    play_slots(event, random.Random(3), slots=range(4))
    response = client.get(reverse("player-results", args=[event.slug, 1]))
    sets = response.context["report"]["sets"]
    assert sets, "the player has played released sets"
    ruleset = event.get_ruleset()
    for row in sets:
        wall = WallSet.objects.get(event=event, session_number=row["session"], set_no=row["set_no"])
        seat = par_core.set_par(ruleset, wall.piles, prevalent_wind=par_core.prevalent_of(row["set_no"], 4)).seat(row["seat"])
        result = HandResult.objects.get(event=event, set_no=row["set_no"], table__number=row["table"],
                                        session_number=row["session"])
        assert row["score_change"] == result.changes[row["seat"]]
        if seat.par is None:
            assert row["par"] is None
        else:
            assert row["par"]["score"] == seat.par.score
            assert row["par"]["versus"] == result.changes[row["seat"]] - seat.par.score
    html = response.content.decode()
    assert "Against par" in html


def test_the_analysis_is_computed_once_and_then_read(client, director, monkeypatch):
    event = cup("par-once", director)
    play_slots(event, random.Random(4), slots=range(4))
    url = reverse("traveller", args=[event.slug, 1, 2])
    first = client.get(url).context["report"]["par"]
    stored = WallSet.objects.get(event=event, session_number=1, set_no=2).par
    assert stored is not None and [s["seat"] for s in stored["seats"]] == ["E", "S", "W", "N"]

    def refuse(*args, **kwargs):
        raise AssertionError("the stored analysis should have been read, not computed again")

    monkeypatch.setattr(par_core, "set_par", refuse)
    event.changed(public=True)  # a new page version: the page is built again, the analysis read
    again = client.get(url, HTTP_ACCEPT_LANGUAGE="en").context["report"]["par"]
    assert again == first


def test_fixing_a_sets_honba_clears_its_stored_par_which_counted_the_old_ones(client, director):
    from scoring.actions.counters import fix_counters

    roster = "team,player\n" + "".join(f"Team {t},{t}{m}\n" for t in "ABCD" for m in range(4))
    event = prepared_event(roster, name="Par counters", slug="par-counters", ruleset_code="riichi-duplicate", director=director)
    client.force_login(director)
    before = client.get(reverse("traveller", args=[event.slug, 1, 2])).context["report"]["par"]
    assert WallSet.objects.get(event=event, session_number=1, set_no=2).par is not None
    fix_counters(event, {"1-2": {"honba": 1}}, actor="td")
    assert WallSet.objects.get(event=event, session_number=1, set_no=2).par is None
    event.refresh_from_db()
    after = client.get(reverse("traveller", args=[event.slug, 1, 2])).context["report"]["par"]
    for seat in ("E", "S", "W", "N"):
        old, new = before["seats"][seat]["par"], after["seats"][seat]["par"]
        if old is not None:
            assert new["score"] == old["score"] + 300  # a self-draw collects 100 a honba from each of three


# --- par in words a player reads: a riichi event whose set 1 gives East a double yakuman ---------


def riichi_cup(slug, director):
    """A riichi-duplicate event whose set 1 is rebuilt by hand: East holds four concealed pungs
    and a single 5z, draws 9s then the second 5z (Suu Ankou Tanki at D2, a double yakuman)."""
    from test_par import full_wall, tiles

    roster = "team,player\n" + "".join(f"Team {t},{t}{m}\n" for t in "ABCD" for m in range(4))
    event = prepared_event(roster, name=f"Par {slug}", slug=slug, ruleset_code="riichi-duplicate", director=director)
    wall = WallSet.objects.get(event=event, session_number=1, set_no=1)
    wall.piles = full_wall(event.get_ruleset(), {"E-hand": tiles("111m 222p 333s 444m 5z"), "E-draw": tiles("9s 5z")})
    wall.par = None
    wall.save(update_fields=["piles", "par"])
    return event


PAR_MEANING = {"en": "Par: the earliest self-drawn win the seat could make alone, knowing its own tiles, without calls.",
               "ja": "パー：その席が自分の牌を知ったうえで、鳴かずに単独で達成できる最も早いツモ和了。"}
BEST_MEANING = {"en": "Best: the most valuable such win by the seat's last draw.",
                "ja": "最高：その席の最後のツモまでに達成できる、そうした和了のうち最も高いもの。"}
LUCK = {"en": "ippatsu and ura-dora are not, since no player can count on them",
        "ja": "一発と裏ドラは誰にも当てにできないため数えません"}
DOUBLE_YAKUMAN = {"en": "double yakuman", "ja": "ダブル役満"}


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_traveller_says_what_par_and_best_mean_and_names_a_double_yakuman(client, director, language):
    event = riichi_cup(f"par-words-{language}", director)
    client.force_login(director)
    response = client.get(reverse("traveller", args=[event.slug, 1, 1]), HTTP_ACCEPT_LANGUAGE=language)
    html = response.content.decode()
    east = response.context["report"]["par"]["seats"]["E"]
    assert (east["par"]["draw"], east["par"]["yakuman"], east["par"]["score"]) == (2, 2, 96000)
    section = html[html.index('id="par-E"'):]
    section = section[:section.index("</tr>")]
    assert f"D2</strong> · {DOUBLE_YAKUMAN[language]} · +96000" in section
    assert "26" not in section.replace("+96000", "")  # the 26 han of two yakuman never shows
    for sentence in (PAR_MEANING, BEST_MEANING, LUCK):
        assert sentence[language] in html


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_player_s_page_says_what_par_and_best_mean_and_names_a_double_yakuman(client, director, language):
    from tournament.models import Table
    from tournament.table_plan import table_plan

    event = riichi_cup(f"par-player-words-{language}", director)
    play_slots(event, random.Random(7), slots=range(4), director=True,
               changes=lambda rng, seats: {"E": 1000, "S": -1000, "W": 0, "N": 0})
    table = Table.objects.filter(group__session__event=event, group__session__number=1).order_by("number").first()
    east = table_plan(table).holders(table, 1)["E"]
    response = client.get(reverse("player-results", args=[event.slug, east.number]), HTTP_ACCEPT_LANGUAGE=language)
    row = next(r for r in response.context["report"]["sets"] if (r["session"], r["set_no"]) == (1, 1))
    assert row["seat"] == "E"
    assert (row["par"]["score"], row["par"]["label"]) == (96000, DOUBLE_YAKUMAN[language])
    html = response.content.decode()
    assert f'+96000 <small class="muted">D2</small><br><small>{DOUBLE_YAKUMAN[language]}</small>' in html
    for sentence in (PAR_MEANING, BEST_MEANING, LUCK):
        assert sentence[language] in html


def test_a_par_stored_by_an_older_version_is_computed_again(client, director):
    event = riichi_cup("par-version", director)
    wall = WallSet.objects.get(event=event, session_number=1, set_no=1)
    current = par_core.set_par(event.get_ruleset(), wall.piles, prevalent_wind="E").as_dict()
    assert current["version"] == par_core.PAR_VERSION
    old = copy.deepcopy({key: value for key, value in current.items() if key != "version"})  # as the first version stored
    old["seats"][0]["par"] = {**old["seats"][0]["par"], "yakuman": 1, "score": 48000}
    wall.par = old
    wall.save(update_fields=["par"])
    client.force_login(director)
    shown = client.get(reverse("traveller", args=[event.slug, 1, 1])).context["report"]["par"]
    assert shown["seats"]["E"]["par"]["score"] == 96000
    wall.refresh_from_db()
    assert wall.par == current


def test_a_visitor_s_par_is_read_once_per_release_not_once_per_entry(director):
    """The player pages built after each entry elsewhere (the round's end: every phone's page,
    while the other tables enter) read their sets' par once per public version: a released
    set's par cannot change (tests/test_fixed_counters.py: fixed counters are refused once a set
    has a result). The director's view, which shows sets still in play, reads it again at every
    content version."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from scoring.reports import player_report
    from scoring.reports.analysis import against_par
    from tournament.models import Player

    event = cup("par-per-release", director)
    play_slots(event, random.Random(5), slots=range(4))
    player = Player.objects.get(event=event, number=1)
    rows = player_report(event, player)["sets"]
    assert rows and any(r["par"] for r in rows)  # sets with a par to read

    def walls_read(public: bool) -> int:
        with CaptureQueriesContext(connection) as sent:
            shown = against_par(event, [{k: v for k, v in r.items() if k != "par"} for r in rows], public=public)
        assert [r["par"] for r in shown] == [r["par"] for r in rows]  # the same par, read or kept
        return sum('"walls_wallset"' in q["sql"] for q in sent.captured_queries)

    assert walls_read(public=True) == 0  # the page above read it at this public version
    event.changed(public=False)  # an entry at a table still playing: the public version stays
    assert walls_read(public=True) == 0
    assert walls_read(public=False) == 1  # the director's scope: read at the new content version
    event.changed(public=True)  # a release
    assert walls_read(public=True) == 1
