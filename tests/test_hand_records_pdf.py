"""Printed hand records (docs/printing.md, "Hand records"): one page per released set for
players to take home, with the wall, each seat's par and every table's score; nothing before a
set is released, except for the director."""

import io
import random

import pypdfium2 as pdfium
import pytest
from django.urls import reverse
from factories import play_slots, prepared_event

from scoring import par as par_core
from scoring import visibility
from scoring.models import HandResult
from walls.setcode import SetId

pytestmark = pytest.mark.django_db


def pdf_pages(data: bytes) -> list[str]:
    document = pdfium.PdfDocument(io.BytesIO(data))
    return [document[i].get_textpage().get_text_range() for i in range(len(document))]


def cup(slug, director=None):
    roster = "team,player\n" + "".join(f"Team {t},{t}{m}\n" for t in "ABCD" for m in range(4))
    return prepared_event(roster, name=f"Records {slug}", slug=slug, conversion="mcr-mp", director=director)


def test_the_public_gets_one_page_per_released_set_with_par_and_every_table(client, director):
    event = cup("records", director)
    url = reverse("hand-records", args=[event.slug, 1])
    assert client.get(url).status_code == 404  # nothing released yet
    client.force_login(director)
    staff = client.get(url)
    assert staff.status_code == 200 and len(pdf_pages(staff.content)) == event.get_ruleset().hands_per_session
    client.logout()

    play_slots(event, random.Random(5), slots=[0])  # every table has played a block: no set is at every table yet
    assert client.get(url).status_code == 404
    play_slots(event, random.Random(6), slots=[1, 2, 3])  # now every set is released
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    pages = pdf_pages(response.content)
    released = sorted(n for s, n in visibility.released_sets(event) if s == 1)
    assert len(pages) == len(released) == event.get_ruleset().hands_per_session
    ruleset = event.get_ruleset()
    for text, set_no in zip(pages, released, strict=True):
        assert "Hand record" in text and SetId(event.slug, 1, set_no).code in text
        assert "Par" in text and "Results" in text and "East" in text
        wall = event.wall_sets.get(session_number=1, set_no=set_no)
        expected = par_core.set_par(ruleset, wall.piles, prevalent_wind=par_core.prevalent_of(set_no, 4))
        for seat in expected.seats:
            if seat.par is not None:
                assert f"D{seat.par.draw} {seat.par.value.value} fan {seat.par.score:+d}" in text
        for result in HandResult.objects.filter(event=event, session_number=1, set_no=set_no):
            shown = " ".join(f"{result.changes[seat]:+d}" if result.changes[seat] else "0" for seat in ruleset.seats)
            assert f"{result.table.number} {shown}" in text  # the table's row: its number, then each seat


def test_hand_records_print_in_japanese(client, director):
    event = cup("records-ja", director)
    client.force_login(director)
    response = client.get(reverse("hand-records", args=[event.slug, 1]), HTTP_ACCEPT_LANGUAGE="ja")
    text = pdf_pages(response.content)[0]
    assert "東家" in text


@pytest.mark.parametrize(("language", "words"), [
    ("en", ("Par: the earliest self-drawn win", "Best: the most valuable such win", "ippatsu and ura-dora are not",
            "D2 double yakuman +96000")),
    ("ja", ("パー：その席が自分の牌を知ったうえで", "最高：その席の最後のツモまでに", "一発と裏ドラは", "D2 ダブル役満 +96000")),
])
def test_hand_records_say_what_par_and_best_mean_and_name_a_double_yakuman(client, director, language, words):
    from test_par_pages import riichi_cup

    event = riichi_cup(f"records-words-{language}", director)
    client.force_login(director)
    response = client.get(reverse("hand-records", args=[event.slug, 1]), HTTP_ACCEPT_LANGUAGE=language)
    text = pdf_pages(response.content)[0].replace("\r\n", "\n")
    for word in words:
        assert word in text
