"""Par on the pages (docs/scoring.md, "Par: what each seat could have made"): the traveller and
hand record of a set show each seat's par beside each table's score at that seat once the set
is public (the director and staff at once), a player's page shows their results against par,
and the analysis is stored with the wall the first time it is asked for."""

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
