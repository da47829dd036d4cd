"""Self check-in (docs/director-guide.md, "Self check-in"; docs/player-guide.md): a player's card
carries a QR code of their own check-in link with a secret; opening it shows the page (a GET
changes nothing), "Check me in" checks them in (safe to repeat), a wrong link is refused and
throttled like a wrong table code, check-in closes at Prepare, the player sees their own table
and seat and nothing of any set, and the director's check-in page tells self check-ins apart
and follows them live through a small JSON board."""

import re

import pytest
from django.test import Client
from django.urls import reverse
from factories import individual_roster, team_roster

from pdfcheck import decode_qr, render_pages
from tournament.check_in import SELF, card_token, check_in, check_in_board, self_check_in
from tournament.models import AuditEntry, CheckIn, EventRole
from tournament.services import SetupError, create_event, import_roster, prepare_session
from walls.print_kinds.people import check_in_url, player_cards
from walls.printing import render_player_cards

pytestmark = pytest.mark.django_db


def _event(director, roster, **fields):
    event = create_event(base_url="http://testserver", **fields)
    import_roster(event, roster)
    EventRole.objects.create(event=event, user=director, role="director")
    return event


def _link(event, player) -> str:
    return reverse("card-check-in", args=[event.slug, player.number, card_token(player)])


@pytest.fixture
def solo(director):
    return _event(director, individual_roster(16), name="Solo", slug="solo", method="individual", sessions=2)


def test_the_card_qr_code_is_the_players_own_secret_check_in_link(solo):
    cards = player_cards(solo)
    pdf = render_player_cards(cards[:2])
    found = sorted(decode_qr(render_pages(pdf, scale=200 / 72)[0].image))
    players = sorted(solo.players.filter(name__in=[c.player for c in cards[:2]]), key=lambda p: p.number)
    assert found == sorted(check_in_url(solo, p) for p in players)
    for url in found:
        token = url.rstrip("/").rsplit("/", 1)[1]
        assert re.fullmatch(r"[0-9a-f]{20}", token)
    tokens = {card_token(p) for p in solo.players.all()}
    assert len(tokens) == 16  # one secret per player


def test_the_card_secret_comes_from_the_site_secret_not_from_ids(solo, settings):
    player = solo.players.get(number=1)
    before = card_token(player)
    settings.SECRET_KEY = "another-secret-key-for-this-test-only-0123456789"
    assert card_token(player) != before  # whoever knows the ids but not the site's secret cannot make a link


def test_a_get_changes_nothing_and_the_post_checks_in_once(solo):
    player = solo.players.get(number=3)
    phone = Client()
    page = phone.get(_link(solo, player)).content.decode()
    assert player.name in page and "Check me in" in page
    assert not CheckIn.objects.exists()  # a link previewer opening the page checks nobody in
    answer = phone.post(_link(solo, player), follow=True)
    assert "You are checked in for session 1." in answer.content.decode()
    again = phone.post(_link(solo, player), follow=True).content.decode()
    assert "You are checked in for session 1." in again and "Check me in" not in again
    rows = CheckIn.objects.filter(event=solo, session_number=1)
    assert [(r.player_id, r.by) for r in rows] == [(player.pk, SELF)]
    assert AuditEntry.objects.filter(event=solo, action="self-check-in").count() == 1


def test_a_wrong_token_is_refused_and_checks_nobody_in(solo):
    player = solo.players.get(number=3)
    for number, token in ((3, "0" * 20), (4, card_token(player)), (99, card_token(player))):
        answer = Client().post(reverse("card-check-in", args=[solo.slug, number, token]), REMOTE_ADDR=f"10.0.0.{number}")
        assert answer.status_code == 404
        assert "This card link is not valid" in answer.content.decode()
    assert not CheckIn.objects.exists()


def test_wrong_links_many_times_are_throttled_like_wrong_table_codes(solo, settings):
    """Past the table-login limit per address (scoring.login_throttle), wrong links get 429 with
    Retry-After; another address's right link still checks in."""
    assert settings.TABLE_LOGIN_RATE_PER_ADDRESS == "10/10m"
    statuses = []
    for n in range(30):
        statuses.append(Client().get(reverse("card-check-in", args=[solo.slug, 1, f"{n:020x}"]),
                                     REMOTE_ADDR="10.9.9.9").status_code)
        if statuses[-1] == 429:
            break
    assert statuses.count(404) == 10 and statuses[-1] == 429
    limited = Client().get(reverse("card-check-in", args=[solo.slug, 1, "f" * 20]), REMOTE_ADDR="10.9.9.9")
    assert limited.status_code == 429 and int(limited["Retry-After"]) >= 1
    assert "Too many wrong card links" in limited.content.decode()
    player = solo.players.get(number=1)
    assert Client().post(_link(solo, player), REMOTE_ADDR="10.9.9.10").status_code == 302
    assert CheckIn.objects.filter(player=player).exists()


def test_check_in_closes_at_prepare_and_then_the_player_reads_their_table_and_seat_only(solo):
    player = solo.players.get(number=5)
    self_check_in(solo, player)
    check_in(solo, 1, [p.pk for p in solo.players.all()], actor="director")
    prepare_session(solo, 1)
    prepare_session(solo, 2)
    with pytest.raises(SetupError, match="Check-in is closed"):
        self_check_in(solo, player)
    answer = Client().post(_link(solo, player), follow=True)
    page = answer.content.decode()
    assert "Check-in is closed" in page
    seat = player.seatings.select_related("table__group__session").get(table__group__session__number=2)
    seat_word = {"E": "East", "S": "South", "W": "West", "N": "North"}[seat.seat]
    assert f"Session 2: you play at table {seat.table.number}, seat {seat_word}." in page
    # nothing about a set: no set code, no word "set", no tile
    text = re.sub(r"<[^>]+>", " ", page)
    assert not re.search(r"\b\d-\d\d-\d\b", text) and not re.search(r"\bset\b", text, re.I)


def test_a_team_players_self_check_in_marks_the_team_present_and_the_player_here(director, director_client):
    event = _event(director, team_roster(4), name="Teams", slug="teams", sessions=1)
    player = event.players.get(number=6)
    assert self_check_in(event, player) == (1, True)
    assert self_check_in(event, player) == (1, False)  # idempotent
    board = check_in_board(event, 1)
    assert board == {"closed": False, "entrants": {str(player.team_id): "self"}, "players": {str(player.pk): "self"}}
    page = director_client.get(reverse("check-in", args=[event.slug, 1])).content.decode()
    shown = re.findall(r'class="muted by-self" data-(\w+)="(\d+)">', page)  # the marks not hidden
    assert sorted(shown) == [("entrant", str(player.team_id)), ("player", str(player.pk))]
    assert page.count("(checked in themselves)") == 4 + 16  # a mark per team and player, the others hidden


def test_the_board_tells_self_check_ins_from_the_directors_and_the_director_undoes(solo, director_client):
    me, other = solo.players.get(number=1), solo.players.get(number=2)
    Client().post(_link(solo, me))
    board_url = reverse("check-in-board", args=[solo.slug, 1])
    director_client.post(reverse("check-in", args=[solo.slug, 1]), {"action": "save", "present": [me.pk, other.pk]})
    assert director_client.get(board_url).json()["entrants"] == {str(me.pk): "self", str(other.pk): "director"}
    # undo: untick and save
    director_client.post(reverse("check-in", args=[solo.slug, 1]), {"action": "save", "present": [other.pk]})
    assert director_client.get(board_url).json()["entrants"] == {str(other.pk): "director"}
    page = Client().get(_link(solo, me)).content.decode()
    assert "Check me in" in page  # the player sees they are not checked in any more


def test_the_board_is_the_directors_only(solo):
    url = reverse("check-in-board", args=[solo.slug, 1])
    assert Client().get(url).status_code in (302, 403)


@pytest.mark.parametrize(("language", "button", "seated"), [
    ("ja", "受付する", "あなたは"), ("zh-hans", "我要签到", "你在"),
])
def test_the_players_page_speaks_their_language(solo, language, button, seated):
    player = solo.players.get(number=2)
    phone = Client()
    phone.cookies["django_language"] = language
    assert button in phone.get(_link(solo, player)).content.decode()
    check_in(solo, 1, [p.pk for p in solo.players.all()], actor="director")
    prepare_session(solo, 1)
    page = phone.get(_link(solo, player)).content.decode()
    assert seated in page and "Check me in" not in page and "Session 1: you play" not in page
