"""The public result pages (docs/scoring.md, "Standings") (no login) and the director's conversion table editor: the hand
record beside a traveller only once the wall is public, standings as CSV and XLSX, the inline
SVG chart, and conversion table versions that leave stored scores on their own version."""

import csv
import io
import random
import re

import pytest
from django.urls import reverse
from factories import built_once, event_from, play_slots, prepared_event
from openpyxl import load_workbook
from oracles import convert, datum_of

from scoring import reports
from scoring.models import ConversionTable, HandResult, SetScore
from tournament.models import Event, SeatAssignment
from tournament.services import create_event

pytestmark = pytest.mark.django_db


def cup(slug, director=None):
    """Four teams on 4 tables (one group), session 1 seated with walls; ``director`` holds the role."""
    roster = "team,player\n" + "".join(f"Team {t},{t}{m}\n" for t in "ABCD" for m in range(4))
    return prepared_event(roster, name=f"Cup {slug}", slug=slug, conversion="mcr-mp", director=director)


def team_totals(event, set_no):
    """{team id: total score change} of one set, from the raw results and seating."""
    team_at = {(a.table_id, a.seat): a.team_id for a in SeatAssignment.objects.filter(table__group__session__event=event)}
    totals = {}
    for r in HandResult.objects.filter(event=event, set_no=set_no):
        for seat, change in r.changes.items():
            totals[team_at[(r.table_id, seat)]] = totals.get(team_at[(r.table_id, seat)], 0) + change
    return totals


def _build_played():
    event = cup("played")
    play_slots(event, random.Random(1), slots=range(4))
    return event


_played_rows = built_once(_build_played, name="_played_rows")


@pytest.fixture
def played(director, _played_rows):
    return event_from(_played_rows, _build_played, director)


def test_every_public_page_answers_without_login(client, played):
    slug = played.slug
    urls = [reverse("standings", args=[slug]), reverse("travellers", args=[slug]), reverse("traveller", args=[slug, 1, 4]),
            reverse("players", args=[slug]), reverse("teams", args=[slug]), reverse("team", args=[slug, 2]),
            reverse("player-results", args=[slug, 5]), reverse("standings-csv", args=[slug]),
            reverse("standings-xlsx", args=[slug]), reverse("conversion-csv", args=[slug])]
    for url in urls:
        assert client.get(url).status_code == 200, url
    page = client.get(reverse("standings", args=[slug])).content.decode()
    for name in ("players", "teams", "travellers", "standings-csv", "standings-xlsx"):
        assert reverse(name, args=[slug]) in page
    assert reverse("travellers", args=[slug]) in client.get(reverse("event", args=[slug])).content.decode()


@pytest.mark.parametrize("session, set_no", [(9, 1), (1, 0), (1, 17), (0, 1), (40000, 1), (2**31, 1), (10**20, 1), (1, 10**20)])
def test_a_traveller_of_no_such_session_or_set_is_not_found(client, played, session, set_no):
    """Any number a URL can hold, however large, is a 404, never a database error."""
    assert client.get(reverse("traveller", args=[played.slug, 1, 2])).status_code == 200
    assert client.get(reverse("traveller", args=[played.slug, session, set_no])).status_code == 404


def test_the_hand_record_appears_beside_the_traveller_only_once_every_table_has_played_the_set(client, director):
    event = cup("secret", director)
    play_slots(event, random.Random(1), slots=[0])
    url = reverse("traveller", args=[event.slug, 1, 1])
    wall = event.wall_sets.get(session_number=1, set_no=1)
    first_draws = " ".join(wall.piles["E-draw"][:6])

    anonymous = client.get(url)
    html = anonymous.content.decode()
    assert anonymous.context["report"]["hand_record"] is None
    assert 'id="not-yet"' in html and "East · Starting hand" not in html and "Hand record" not in html
    assert not anonymous.context["report"]["comparisons"]

    client.force_login(director)
    staff = client.get(url).content.decode()
    assert "Hand record" in staff and "East · Starting hand" in staff
    client.logout()

    play_slots(event, random.Random(2), slots=[1, 2, 3])
    public = client.get(url)
    html = public.content.decode()
    assert "Hand record" in html and "East · Starting hand" in html
    shown = {p["name"]: [t["code"] for t in p["tiles"]] for p in public.context["report"]["hand_record"]}
    assert " ".join(shown["E-draw"][:6]) == first_draws
    for table in range(1, 5):
        assert f"<td>{table}</td>" in html
    totals = team_totals(event, 1)
    datum = datum_of(totals.values())
    rows = ConversionTable.objects.current(event).rows
    entries = public.context["report"]["comparisons"][0]["entries"]
    assert sorted(e["points"] for e in entries) == sorted(convert(rows, t - datum) for t in totals.values())


def test_the_chart_is_an_inline_svg_with_one_line_per_team_and_no_script(client, played):
    html = client.get(reverse("teams", args=[played.slug])).content.decode()
    assert html.count("<svg") == 1 and html.count('<polyline class="series"') == 4
    assert "<script" not in html and not re.search(r'src="https?://', html)
    team = client.get(reverse("team", args=[played.slug, 1]))
    assert team.context["chart"]["lines"][[s["name"] for s in team.context["chart"]["lines"]].index("Team A")]["highlight"]
    assert 'stroke-width="4"' in team.content.decode()


def test_standings_downloads_hold_the_standings(client, played):
    standings = reports.cached_standings(played)
    response = client.get(reverse("standings-csv", args=[played.slug]))
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert [(r[1], int(r[2]), int(r[3])) for r in rows[1:]] == [(r["name"], r["points"], r["score_total"]) for r in standings]
    response = client.get(reverse("standings-xlsx", args=[played.slug]) + "?session=1")
    sheet = load_workbook(io.BytesIO(response.content))["Standings"]
    assert [(r[1], r[2]) for r in sheet.iter_rows(min_row=2, values_only=True)] == [(r["name"], r["points"]) for r in standings]


def test_my_results_opens_the_team_of_a_linked_player_and_the_list_for_anyone_else(client, played, django_user_model):
    user = django_user_model.objects.create_user("player-b1", password="x-pass-1234")
    player = played.players.get(name="B1")
    player.user = user
    player.save()
    url = reverse("my-results", args=[played.slug])
    assert client.get(url)["Location"] == reverse("teams", args=[played.slug])
    client.force_login(user)
    assert client.get(url)["Location"] == reverse("team", args=[played.slug, player.team.number])
    assert client.get(reverse("entrant", args=[played.slug, player.team.pk]))["Location"] == \
        reverse("team", args=[played.slug, player.team.number])


def test_only_the_director_opens_the_conversion_editor(client, played, django_user_model):
    url = reverse("conversion", args=[played.slug])
    assert client.get(url).status_code == 403
    client.force_login(django_user_model.objects.create_user("someone", password="x-pass-1234"))
    assert client.get(url).status_code == 403
    assert client.post(reverse("conversion-rescore", args=[played.slug])).status_code == 403


def test_a_conversion_edit_is_a_new_version_and_rescores_every_score_at_once(client, played, director):
    client.force_login(director)
    url = reverse("conversion", args=[played.slug])
    original = ConversionTable.objects.current(played)
    page = client.get(url)
    assert page.status_code == 200 and "0,7,0" in page.context["form"].initial["csv_text"]
    edited = "from,to,points\n0,9,0\n10,29,2\n30,59,5\n60,,9\n"
    response = client.post(url, {"name": "Steeper MP", "csv_text": edited, "source": "trial"})
    assert response.status_code == 302
    played.refresh_from_db()
    new = ConversionTable.objects.current(played)
    assert (new.code, new.version, new.name, new.source) == (original.code, 2, "Steeper MP", "trial")
    assert ConversionTable.objects.filter(pk=original.pk, version=1).exists()
    # the save rescored every set in the same transaction: no score keeps the old version
    assert set(SetScore.objects.filter(event=played).values_list("conversion_table_id", flat=True)) == {new.pk}
    old_csv = client.get(reverse("conversion-csv", args=[played.slug]) + "?version=1").content.decode()
    assert old_csv == original.as_table().to_csv()
    assert client.get(reverse("conversion-csv", args=[played.slug])).content.decode() == edited

    assert client.post(reverse("conversion-rescore", args=[played.slug])).status_code == 302  # still safe to repeat
    scores = list(SetScore.objects.filter(event=played))
    assert len(scores) == 16 * 4 and {s.conversion_table_id for s in scores} == {new.pk}
    rows = [{"from": 0, "points": 0}, {"from": 10, "points": 2}, {"from": 30, "points": 5}, {"from": 60, "points": 9}]
    for set_no in range(1, 17):
        totals = team_totals(played, set_no)
        datum = datum_of(totals.values())
        for s in (s for s in scores if s.set_no == set_no):
            assert s.points == convert(rows, totals[s.team_id] - datum)
    versions = client.get(url).context["versions"]
    assert [(v["table"].version, v["current"], v["scores"]) for v in versions] == [(2, True, 64), (1, False, 0)]


def test_a_refused_table_names_its_row_and_stores_nothing(client, played, director):
    client.force_login(director)
    url = reverse("conversion", args=[played.slug])
    before = ConversionTable.objects.count()
    response = client.post(url, {"name": "Gappy", "csv_text": "from,to,points\n0,7,0\n8,15,1\n20,,2\n"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "row 3" in html and "16-19 are not covered" in html and "Nothing was saved" in html
    assert response.context["error"].row == 3
    assert ConversionTable.objects.count() == before
    played.refresh_from_db()
    assert ConversionTable.objects.current(played).version == 1


def test_a_conversion_table_is_imported_from_a_csv_file(client, played, director):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(director)
    upload = SimpleUploadedFile("table.csv", "\ufefffrom,to,points\n0,15,0\n16,,1\n".encode("utf-8"), content_type="text/csv")
    response = client.post(reverse("conversion", args=[played.slug]), {"name": "Two steps", "csv_file": upload})
    assert response.status_code == 302
    played.refresh_from_db()
    assert ConversionTable.objects.current(played).rows == [{"from": 0, "to": 15, "points": 0}, {"from": 16, "to": None, "points": 1}]


def test_players_page_of_an_individual_event_is_its_standings(client):
    event = create_event(name="Solo", slug="solo-pages", method=Event.Method.INDIVIDUAL)
    assert client.get(reverse("players", args=[event.slug]))["Location"] == reverse("standings", args=[event.slug])
