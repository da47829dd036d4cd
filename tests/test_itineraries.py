"""Players' itineraries: the player cards PDF (print kind "player_cards"), the public "find my
seat" page and the next seat on a player's own results page. Seats are checked against the
stored seat assignments, read here directly."""

import random
import re

import pytest
from django.urls import reverse
from factories import play_slots, prepared_event
from pdfcheck import TextPages, decode_qr, page_count, render_pages

from tournament.i18n import seat_name
from tournament.models import Player, SeatAssignment
from walls.print_kinds.people import check_in_url
from walls.printing import player_cards as cards_module
from walls.printing.i18n import seat_name as printed_seat
from walls.print_jobs import request_print

pytestmark = pytest.mark.django_db

ROSTER = "team,player\n" + "".join(
    f"{team},{player}\n" for team, players in (
        ("Kanto", ["山田 太郎", "Hanako Sato", "Ken Ito", "Yui Mori"]),
        ("Kansai", ["Taro Yamamoto", "Aki Kato", "Jun Ono", "Rin Abe"]),
        ("Beijing", ["王 伟", "Li Na", "Zhang Wei", "Chen Jie"]),
        ("Paris", ["Yamina Roux", "Paul Martin", "Léa Petit", "Hugo Blanc"]),
    ) for player in players)


@pytest.fixture
def event(director):
    event = prepared_event(ROSTER, name="Itinerary Open", slug="itin", sessions=3, prepare=(1, 2), director=director)
    event.base_url = "https://mahjong.example.org"
    event.save(update_fields=["base_url"])
    return event


def _seats(player) -> list[tuple[int, int, str, str]]:
    """(session, table, room, seat) of ``player`` from the stored assignments, by session."""
    rows = SeatAssignment.objects.filter(player=player).select_related("table__group__session", "table__room")
    return sorted((s.table.group.session.number, s.table.number, s.table.room.name if s.table.room_id else "", s.seat)
                  for s in rows)


def _card_texts(data: bytes) -> list[str]:
    pages = TextPages(data)
    texts = []
    for index in range(len(pages)):
        width, height = pages.doc[index].get_size()
        w, h = width / cards_module.COLUMNS, height / cards_module.ROWS
        for i in range(cards_module.COLUMNS * cards_module.ROWS):
            col, row = i % cards_module.COLUMNS, i // cards_module.COLUMNS
            text = pages.box(index, col * w + 1, height - (row + 1) * h + 1, w - 2, h - 2)
            if text.strip():
                texts.append(text)
    return texts


def test_player_cards_hold_name_pin_and_every_seated_session(event):
    job = request_print(event, "player_cards", {"lang": "en"})
    data = job.file.read()
    players = list(Player.objects.filter(event=event))
    assert page_count(data) == 2  # 16 players, 8 cards a page
    texts = _card_texts(data)
    assert len(texts) == len(players)
    for player in players:
        card = next(t for t in texts if player.name in t)
        flat = " ".join(card.split())
        assert f"PIN: {player.pin}" in flat and "Keep your PIN to yourself" in flat
        assert player.team.name in flat
        seats = _seats(player)
        assert [s[0] for s in seats] == [1, 2]
        for session, table, room, seat in seats:
            assert re.search(rf"(^|\s){session}\s+{table}\s+{re.escape(room)}\s+{printed_seat(seat, 'en')}(\s|$)", flat), (player.name, flat)
        assert "Find my seat: https://mahjong.example.org/e/itin/find/" in flat
    # each card's QR code is its player's own check-in link (docs/director-guide.md, "Self check-in")
    urls = {code for page in render_pages(data, scale=200 / 72) for code in decode_qr(page.image)}
    assert urls == {check_in_url(event, p) for p in Player.objects.filter(event=event, withdrawn=False, replaced_by=None)}


def test_player_cards_in_japanese_name_the_seats_in_japanese(event):
    data = request_print(event, "player_cards", {"lang": "ja"}).file.read()
    text = " ".join(" ".join(_card_texts(data)).split())
    player = Player.objects.get(event=event, name="山田 太郎")
    assert "山田 太郎" in text and "王 伟" in text
    for _session, _table, _room, seat in _seats(player):
        assert printed_seat(seat, "ja") in text
    assert "East" not in text and "PINは他人に教えないでください" in text


def test_player_cards_are_staff_only(client, event, django_user_model):
    someone = django_user_model.objects.create_user("someone", password="pw-someone-1")
    client.force_login(someone)
    assert client.post(reverse("print-request", args=[event.slug]), {"kind": "player_cards"}).status_code == 403


def test_find_my_seat_lists_every_matching_player_and_nothing_secret(client, event):
    url = reverse("find-seat", args=[event.slug])
    page = client.get(url)
    assert page.status_code == 200 and 'name="name"' in page.content.decode()
    html = client.get(url, {"name": "ＹＡＭ"}).content.decode()  # full-width, upper case
    for name in ("Taro Yamamoto", "Yamina Roux", "山田 太郎"):
        assert (name in html) == (name != "山田 太郎")
    assert "PIN" not in html
    yamamoto = Player.objects.get(event=event, name="Taro Yamamoto")
    section = html.split("Taro Yamamoto", 1)[1].split("</section>", 1)[0]
    for session, table, room, seat in _seats(yamamoto):
        assert re.search(rf"<td>{session}</td><td><strong>{table}</strong></td><td>{re.escape(room)}</td><td><strong>{seat_name(seat)}</strong></td>",
                         section)
    html = client.get(url, {"name": "山田"}).content.decode()
    assert "山田 太郎" in html and "Taro Yamamoto" not in html
    assert "Type at least 2 characters" in client.get(url, {"name": "y"}).content.decode()
    assert "No player's name contains" in client.get(url, {"name": "zzz"}).content.decode()


def test_the_event_menu_links_find_my_seat(client, event):
    html = client.get(reverse("standings", args=[event.slug])).content.decode()
    assert f'href="{reverse("find-seat", args=[event.slug])}"' in html and "Find my seat" in html


def test_my_results_shows_my_next_seat_until_i_have_played_everything(client, event, django_user_model):
    user = django_user_model.objects.create_user("ken", password="pw-ken-1234")
    ken = Player.objects.get(event=event, name="Ken Ito")
    ken.user = user
    ken.save()
    client.force_login(user)

    def next_seat_text():
        html = client.get(reverse("my-results", args=[event.slug]), follow=True).content.decode()
        match = re.search(r'<p class="card" id="next-seat">(.*?)</p>', html, re.DOTALL)
        return " ".join(re.sub(r"<[^>]+>", " ", match.group(1)).split()) if match else None

    (s1, s2) = _seats(ken)
    assert f"Session {s1[0]} · Table {s1[1]} · {s1[2]} · {seat_name(s1[3])}" in next_seat_text()
    play_slots(event, random.Random(1), session=1)
    assert f"Session {s2[0]} · Table {s2[1]} · {s2[2]} · {seat_name(s2[3])}" in next_seat_text()
    play_slots(event, random.Random(2), session=2)
    assert "Your next seat: none" in next_seat_text()
    # someone else's page shows no next seat
    other = Player.objects.exclude(team=ken.team).filter(event=event).first()
    html = client.get(reverse("player-results", args=[event.slug, other.number])).content.decode()
    assert 'id="next-seat"' not in html
