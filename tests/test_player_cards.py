"""Player cards (docs/director-guide.md, "Itineraries"): one card per player who holds a seat, and
every seat on exactly one card, that of whoever holds it now. A substitution hands the seat (and
its line on a card) to the player coming in; a team withdrawn at check-in gets no cards."""

import io

import pypdfium2
import pytest
from django.contrib.auth import get_user_model

from tournament.models import CheckIn, EventRole, SeatAssignment, Table
from tournament.services import create_event, import_roster, prepare_session
from tournament.substitutions import substitute
from walls.print_jobs import render
from walls.print_kinds.people import player_cards

from factories import team_roster

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    """Eight teams entered, seven checked in: Team 8 is withdrawn at Prepare and a substitute team
    fills the second group. Then at table 1 East a player is replaced for good, and at table 2
    South one for the rest of session 1."""
    director = get_user_model().objects.create_user("cards-dir", password="pw-cards-1")
    event = create_event(name="Card Cup", slug="card-cup", sessions=2, entrant_policy="substitutes", base_url="http://testserver/")
    import_roster(event, team_roster(8))
    EventRole.objects.create(event=event, user=director, role="director")
    for team in event.teams.exclude(name="Team 8"):
        CheckIn.objects.create(event=event, session_number=1, team=team)
    prepare_session(event, 1)
    t1, t2 = (Table.objects.get(group__session__event=event, number=n) for n in (1, 2))
    substitute(event, 1, player_out=SeatAssignment.objects.get(table=t1, seat="E").player, name="For Good",
               for_good=True, reason="left the event", actor="d")
    substitute(event, 1, player_out=SeatAssignment.objects.get(table=t2, seat="S").player, name="Rest Of Day",
               reason="ill for the rest of the session", actor="d")
    return event


def _card_text(event) -> str:
    pdf = pypdfium2.PdfDocument(io.BytesIO(render(event, "player_cards", {"lang": "en"})))
    return "\n".join(page.get_textpage().get_text_range() for page in pdf)


def test_every_seat_is_on_one_card_that_of_its_holder_now(event):
    cards = player_cards(event)
    lines = [(s.session, s.table, s.seat) for card in cards for s in card.seats]
    assert len(lines) == len(set(lines)) == 8 * 4  # 8 tables of 4 seats in session 1, each once
    holder = {(c.player, s.table, s.seat) for c in cards for s in c.seats}
    assert ("For Good", 1, "E") in holder and ("Rest Of Day", 2, "S") in holder
    assert [c.player for c in cards].count("For Good") == 1


def test_no_card_for_a_withdrawn_team_or_a_player_replaced_for_good(event):
    replaced = event.players.get(replaced_by__name="For Good")
    withdrawn = list(event.players.filter(team__name="Team 8").values_list("name", flat=True))
    names = [c.player for c in player_cards(event)]
    assert replaced.name not in names
    assert not set(withdrawn) & set(names)
    assert len(names) == len(set(names))
    text = _card_text(event)  # what the director hands out
    assert "For Good" in text and "Rest Of Day" in text
    assert replaced.name not in text and not any(name in text for name in withdrawn)


def test_a_player_replaced_for_the_rest_of_a_session_keeps_a_card_for_later_sessions(event):
    out = next(c for c in player_cards(event) if c.player == "Rest Of Day")
    assert [(s.session, s.table, s.seat) for s in out.seats] == [(1, 2, "S")]
    replaced = event.players.get(substituted_out__player_in__name="Rest Of Day")
    card = next(c for c in player_cards(event) if c.player == replaced.name)
    assert card.seats == []  # no seat of session 1 any more; session 2 is not seated yet
    prepare_session(event, 2)
    card = next(c for c in player_cards(event) if c.player == replaced.name)
    assert [s.session for s in card.seats] == [2]
