"""A director creates an event from the site: preset or custom rule set, roster upload; bad input
is shown on its field and nothing is stored."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scoring.payments import HandOutcome, PaymentError, settle
from tournament.models import Event, EventRole
from walls.rulesets import get_ruleset
from walls.tiles import TileError, parse_counts

from factories import team_roster

pytestmark = pytest.mark.django_db

BASE = {
    "name": "Spring Cup", "slug": "spring", "ruleset": "mcr-duplicate", "method": "team", "conversion": "wbf-imp",
    "sessions": 2, "datum_method": "average", "comparison": "group", "entrant_policy": "as-is",
}
# A custom rule set of four seats with 13-tile hands per seat; each test adds its tiles, draws and payment rule.
CUSTOM = {
    **BASE, "ruleset": "custom", "custom_seats": "E S W N", "custom_layout": "per_seat", "custom_hand_sizes": "13 13 13 13",
    "custom_dead_wall": 0, "custom_rounds": 4, "custom_starting_points": 0, "custom_zero_sum": "on",
}


def roster_file(text):
    return SimpleUploadedFile("roster.csv", text.encode(), content_type="text/csv")


def test_organiser_creates_an_event_with_its_roster_and_becomes_director(client, organiser):
    response = client.post(reverse("new-event"), {**BASE, "roster": roster_file(team_roster(4))})
    assert response.status_code == 302
    event = Event.objects.get(slug="spring")
    assert event.players.count() == 16 and event.teams.count() == 4
    assert EventRole.objects.filter(event=event, user=organiser, role="director").exists()


def test_creation_roster_import_and_prepare_are_in_the_audit_log(client, organiser):
    """The director's audit log starts where the event does: who created it, who imported the
    roster (how many), who pressed Prepare (how many tables), each shown on the director's page."""
    client.post(reverse("new-event"), {**BASE, "roster": roster_file(team_roster(4))})
    event = Event.objects.get(slug="spring")
    assert client.post(reverse("prepare-session", args=["spring"]), {"session": 1}).status_code == 302
    entries = {a.action: a for a in event.audit_entries.all()}
    assert {"event-created", "roster-imported", "session-prepared"} <= set(entries)
    assert all(entries[a].actor == "org" for a in ("event-created", "roster-imported", "session-prepared"))
    assert entries["event-created"].detail["name"] == "Spring Cup"
    assert entries["roster-imported"].detail == {"teams": 4, "players": 16}
    assert entries["session-prepared"].detail == {"session": 1, "groups": 1, "tables": 4}
    page = client.get(reverse("director", args=["spring"])).content.decode()
    log = page[page.index('id="audit-log"'):]
    for action in ("event-created", "roster-imported", "session-prepared"):
        assert action in log
    assert "players: <code>16</code>" in log and "tables: <code>4</code>" in log


def test_a_bad_roster_stores_no_event(client, organiser):
    response = client.post(reverse("new-event"), {**BASE, "roster": roster_file("team,player\nT1,A\nT1,B\n")})
    assert response.status_code == 200
    assert "every team needs exactly 4" in response.content.decode()
    assert not Event.objects.exists()


def test_custom_rule_set_that_cannot_fill_its_layout_names_the_shortfall(client, organiser):
    response = client.post(reverse("new-event"), {
        **CUSTOM, "custom_name": "Short", "custom_tiles": "1m-9m:4 1p-9p:4 1s-9s:4 1z-7z:4",
        "custom_draw_sizes": "22 22 22 22", "custom_payment_rule": "mcr",
    })
    assert response.status_code == 200
    errors = response.context["form"].errors["custom_tiles"][0]
    assert "140" in errors and "136" in errors
    assert not Event.objects.exists()


def test_custom_rule_set_is_frozen_into_the_event(client, organiser):
    response = client.post(reverse("new-event"), {
        **CUSTOM, "custom_name": "Flowers per seat", "custom_tiles": "1m-9m:4 1p-9p:4 1s-9s:4 1z-7z:4 1f-8f:1",
        "custom_draw_sizes": "23 23 23 23", "custom_payment_rule": "typed",
    })
    assert response.status_code == 302, response.context["form"].errors
    ruleset = Event.objects.get(slug="spring").get_ruleset()
    assert ruleset.tile_count == 144 and ruleset.name == "Flowers per seat"


def test_players_cannot_create_events(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("p", password="pw-p-1"))
    assert client.post(reverse("new-event"), BASE).status_code == 403
    assert not Event.objects.exists()


def test_tile_counts_parse_ranges_and_refuse_bad_items():
    assert parse_counts("1z-3z:2, 0p:1") == (("0p", 1), ("1z", 2), ("2z", 2), ("3z", 2))
    assert dict(parse_counts("1m-9m:4"))["5m"] == 4
    for bad, word in (("1m-9p:4", "one suit"), ("9x:4", "not a tile"), ("1m:0", "at least 1"), ("1m:4 1m:4", "twice")):
        with pytest.raises(TileError, match=word):
            parse_counts(bad)


# --- the minimum hand value agreed for the event ------------------------------------------------

def test_a_preset_takes_the_minimum_agreed_for_the_event(client, organiser):
    """Yangzhou's minimum is agreed per event (docs/rules.md, "Yangzhou: minimum": 7, 13 or 18 fan); the event keeps its
    own copy of the preset with that minimum, and the payment rule refuses a smaller hand."""
    response = client.post(reverse("new-event"), {**BASE, "ruleset": "yangzhou", "min_fan": "13"})
    assert response.status_code == 302, response.context["form"].errors
    ruleset = Event.objects.get(slug="spring").get_ruleset()
    assert ruleset.code == "yangzhou" and ruleset.min_fan == 13
    assert ruleset.name == get_ruleset("yangzhou").name and ruleset.piles == get_ruleset("yangzhou").piles
    seats = ruleset.seats
    with pytest.raises(PaymentError) as refused:
        settle("yangzhou", seats, HandOutcome(kind="discard", winners=(seats[0],), discarder=seats[1], fans=(12,)),
               min_fan=ruleset.min_fan)
    assert refused.value.field == "fans" and "13" in str(refused.value)
    paid = settle("yangzhou", seats, HandOutcome(kind="discard", winners=(seats[0],), discarder=seats[1], fans=(13,)),
                  min_fan=ruleset.min_fan)
    assert paid.changes[seats[0]] == 26 and paid.changes[seats[1]] == -26  # the discarder pays twice the value


def test_an_empty_minimum_keeps_the_rule_set_s_own(client, organiser):
    assert client.post(reverse("new-event"), {**BASE, "min_fan": ""}).status_code == 302
    assert Event.objects.get(slug="spring").get_ruleset().min_fan == get_ruleset("mcr-duplicate").min_fan == 8


@pytest.mark.parametrize(("ruleset", "value", "words"), [
    ("riichi", "100", "1 to 99 han"),  # 13 and more is a counted yakuman, entered as counted
    ("mcr-duplicate", "6", "8 to 400 fan"),  # MCR's 8-fan minimum cannot be lowered
    ("yangzhou", "-1", None),
])
def test_a_minimum_outside_the_payment_rule_s_range_is_refused_on_its_field(client, organiser, ruleset, value, words):
    response = client.post(reverse("new-event"), {**BASE, "ruleset": ruleset, "min_fan": value})
    assert response.status_code == 200
    errors = response.context["form"].errors["min_fan"]
    assert errors and (words is None or words in errors[0])
    assert not Event.objects.exists()


def test_a_custom_rule_set_takes_the_minimum_too(client, organiser):
    response = client.post(reverse("new-event"), {
        **CUSTOM, "custom_name": "Home rules", "custom_tiles": "1m-9m:4 1p-9p:4 1s-9s:4 1z-7z:4",
        "custom_draw_sizes": "21 21 21 21", "custom_payment_rule": "typed", "min_fan": "3",
    })
    assert response.status_code == 302, response.context["form"].errors
    assert Event.objects.get(slug="spring").get_ruleset().min_fan == 3
