"""What the director's page tells about a session's wall stickers before anything is printed
(docs/printing.md, "Row strips" and "Sticker codes"): copies, stickers and sheets, counted by the
layout that prints them, and a warning when the codes would be too small for a phone; and the
sticker's short link, which stays at QR version 4 with any public address of up to 60 characters.

Seams: the line tells nothing about a wall (the same figures for any two unplayed sessions of the
same shape); an address phones cannot open gives the address's own error and no count of sheets."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from walls.print_kinds.walls import first_tables, sticker_paper
from walls.printing.qr import qr_runs, sticker_ecc
from walls.printing.strips import MIN_MODULE, code_module
from walls.printing.tilesize import TILE_SIZES
from walls.setcode import SetId, qr_address

pytestmark = pytest.mark.django_db

LONG = "https://tournaments.mahjong-europe.org/open-championship-202"


def _line(response, session: int = 1) -> str:
    html = response.content.decode()
    match = re.search(rf'id="sticker-paper-{session}">(.*?)</p>', html, re.S)
    assert match, "no sticker line on the director's page"
    return " ".join(re.sub(r"<[^>]+>", "", match[1]).split())


def test_the_director_page_counts_copies_stickers_and_sheets_before_printing(team_event, director_client):
    team_event.base_url = LONG
    team_event.save(update_fields=["base_url"])
    copies = sum(len(names) for names in first_tables(team_event, 1).values())
    paper = sticker_paper(team_event, 1, "a4-strips")
    assert (paper.copies, paper.stickers) == (copies, copies * 136) and paper.sheets == copies * paper.per_copy
    line = _line(director_client.get(reverse("director", args=[team_event.slug])))
    assert line.startswith(f"Wall stickers: 16 sets in {copies} copies = {copies * 136:,} stickers on {paper.sheets} "
                           f"sheets of the default label stock ({paper.per_copy} a copy)")
    assert "QR modules 0.43 mm" in line


def test_codes_too_small_for_a_phone_are_warned_of_before_printing(team_event, director_client):
    """A typed tile of 16 mm leaves a 13 mm code: modules of 0.35 mm with a 60-character address."""
    team_event.base_url, team_event.tile_size = LONG, "16x30"
    team_event.save(update_fields=["base_url", "tile_size"])
    html = director_client.get(reverse("director", args=[team_event.slug])).content.decode()
    warning = re.search(r'id="sticker-code-warning-1">(.*?)</p>', html, re.S)
    assert warning and "0.35 mm" in warning[1] and "shorter public address" in warning[1]
    team_event.tile_size = "wmo-25x34"
    team_event.save(update_fields=["tile_size"])
    assert 'id="sticker-code-warning-1"' not in director_client.get(reverse("director", args=[team_event.slug])).content.decode()


def test_an_address_phones_cannot_open_is_named_instead_of_a_count(team_event, director_client):
    team_event.base_url = ""
    team_event.save(update_fields=["base_url"])
    paper = sticker_paper(team_event, 1, "a4-strips")
    assert paper.sheets == 0 and paper.problem
    html = director_client.get(reverse("director", args=[team_event.slug])).content.decode()
    assert 'id="sticker-code-warning-1"' in html


def test_the_line_is_the_same_for_two_unplayed_sessions(team_event, director_client):
    """Two sessions with different walls and the same shape: the same figures, nothing of a wall."""
    from tournament.services import prepare_session

    prepare_session(team_event, 2)
    response = director_client.get(reverse("director", args=[team_event.slug]))
    assert _line(response, 1) == _line(response, 2)


ADDRESSES = st.builds(
    lambda scheme, host, port, path: f"{scheme}://{host}{port}{path}",
    st.sampled_from(["http", "https"]),
    st.from_regex(r"[a-z0-9]([a-z0-9-]{0,20}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,12}[a-z0-9])?){1,3}", fullmatch=True),
    st.sampled_from(["", ":8000", ":8443"]),
    st.from_regex(r"(/[a-zA-Z0-9_-]{1,15}){0,2}", fullmatch=True),
).filter(lambda url: len(url) <= 60)


@settings(max_examples=200, deadline=None)
@given(address=ADDRESSES, event=st.integers(1, 99999), session=st.integers(1, 9), set_no=st.integers(1, 99),
       reserve=st.integers(0, 9))
def test_a_sticker_code_stays_at_version_4_with_any_address_of_60_characters(address, event, session, set_no, reserve):
    """Every sticker's link on any public address of up to 60 characters: version 4 or less (33
    modules), so 0.43 mm modules on every preset tile; scheme and host in capitals, the path as typed."""
    url = SetId("open", session, set_no, reserve).slot_url(address, "E", "D21", str(event))
    host = url.split("://", 1)[1].split("/", 1)[0]
    assert url.startswith(qr_address(address)) and host == host.upper() and url.endswith(f"/W/{event}/{SetId('open', session, set_no, reserve).code}/E-D21")
    modules, _ = qr_runs(url, sticker_ecc(url), 2)
    assert modules <= 33
    assert all(code_module(tile, url) >= MIN_MODULE for tile in TILE_SIZES.values())


def test_a_stored_tile_size_that_cannot_be_read_is_named_and_the_page_still_opens(team_event, director_client):
    """A value written around the settings form (an old import): the director's page opens and
    says what is wrong with the tile size instead of counting sheets; nothing is changed."""
    from tournament.models import Event

    Event.objects.filter(pk=team_event.pk).update(tile_size="huge tiles")
    response = director_client.get(reverse("director", args=[team_event.slug]))
    assert response.status_code == 200
    warning = re.search(r'id="sticker-code-warning-1">(.*?)</p>', response.content.decode(), re.S)
    assert warning and "tile size" in warning[1]
    assert Event.objects.get(pk=team_event.pk).tile_size == "huge tiles"
