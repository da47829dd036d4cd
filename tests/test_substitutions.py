"""docs/director-guide.md, "8. Substitutions": substitutions after Prepare (docs/scoring.md, "Substitutions"). A replacement plays the
sets its table has no result on yet: team events credit each set per player to whoever sat there
while the team's score stays the sum of its seats; individual events list the replacement as a
substitute and the replaced player keeps the sets played. Expected figures are recomputed here
from the raw results and the seating, not with the scoring code's helpers."""

import random
from collections import defaultdict

import pytest
from django.urls import reverse
from factories import (
    client_for,
    individual_roster,
    play_slots,
    prepared_event,
    team_roster,
)

from scoring.actions.confirmation import confirm_result
from scoring.actions.entry import submit_result
from scoring.actions.errors import ResultError
from tournament.table_plan import table_plan
from scoring.models import HandResult, SetScore
from scoring.reports import (
    cached_standings,
    event_standings,
    player_standings,
    traveller_report,
)
from scoring.visibility import Viewer
from tournament.demo import plausible_outcome
from tournament.exchange import export_event, import_event, public_export
from tournament.models import AuditEntry, CheckIn, Event, Player, SeatAssignment, Table
from factories import blocks
from tournament.services import prepare_session
from tournament.substitutions import SubstitutionError, substitute

pytestmark = pytest.mark.django_db


def seat_at(table, seat):
    return SeatAssignment.objects.get(table=table, seat=seat)


@pytest.fixture
def team_event(director):
    event = prepared_event(team_roster(4), name="Sub Cup", slug="sub-cup", conversion="mcr-mp", sessions=2,
                           director=director)
    play_slots(event, random.Random(1), slots=[0])
    return event


def test_team_substitution_credits_sets_to_whoever_sat_there_and_keeps_the_team_sum(team_event):
    event = team_event
    table = Table.objects.get(group__session__event=event, group__session__number=1, number=1)
    out = seat_at(table, "E").player
    sub = substitute(event, 1, player_out=out, name="Rin Late", reason="ill", actor="d")
    incoming = sub.player_in
    assert (incoming.team_id, incoming.member, incoming.substitute) == (out.team_id, out.member, False)
    played_before = set(HandResult.objects.filter(table=table).values_list("set_no", flat=True))
    schedule = [s for _slot, block in blocks(table) for s in block]
    assert sub.sets == [s for s in schedule if s not in played_before] and sub.sets
    play_slots(event, random.Random(7), skip_entered=True)

    # the team's score on each set is still the sum of its seats' changes (seating's team column)
    results = {(r.table_id, r.set_no): r.changes for r in HandResult.objects.filter(event=event)}
    team_of = {(a.table_id, a.seat): a.team_id for a in SeatAssignment.objects.filter(table__group__session__event=event)}
    sums = defaultdict(int)
    for (table_id, set_no), changes in results.items():
        for seat, change in changes.items():
            sums[(team_of[(table_id, seat)], set_no)] += change
    for score in SetScore.objects.filter(event=event):
        assert score.score_change == sums[(score.team_id, score.set_no)]

    # per player: each set is credited to whoever sat there
    per_player = {r["player"]: r for r in player_standings(event, public=False)}
    changes_at_e = [results[(table.pk, s)]["E"] for s in schedule]
    assert per_player[incoming.pk]["sets_played"] == len(sub.sets)
    assert per_player[incoming.pk]["score_total"] == sum(results[(table.pk, s)]["E"] for s in sub.sets)
    assert per_player[out.pk]["sets_played"] == len(schedule) - len(sub.sets)
    assert per_player[out.pk]["score_total"] + per_player[incoming.pk]["score_total"] == sum(changes_at_e)
    assert cached_standings(event) == event_standings(event)

    # travellers name the replacement on its sets and the player out on the others
    viewer = Viewer(secrets=True, director=True)
    for set_no, name in ((sub.sets[0], "Rin Late"), (min(played_before), out.name)):
        report = traveller_report(event, 1, set_no, viewer)
        names = {s["seat"]: s["player"] for c in report["comparisons"] for t in c["tables"] if t["id"] == table.pk
                 for s in t["seats"]}
        assert names["E"] == name

    entry = AuditEntry.objects.get(event=event, action="player-substituted")
    assert entry.detail["player_in"] == "Rin Late" and entry.detail["sets"] == sub.sets


def test_the_replacement_enters_and_confirms_with_their_own_pin(team_event):
    event = team_event
    seats = tuple(event.get_ruleset().seats)
    table = Table.objects.get(group__session__event=event, group__session__number=1, number=2)
    out = seat_at(table, seats[2]).player
    sub = substitute(event, 1, player_out=out, name="Kai New", reason="left", actor="d")
    set_no = sub.sets[0]
    assert table_plan(table).holders(table)[seats[2]].name == "Kai New"
    result = submit_result(table, set_no, outcome=plausible_outcome(random.Random(2), seats), actor="t",
                           entered_by_seat=seats[0], entry_pin=seat_at(table, seats[0]).player.pin)
    with pytest.raises(ResultError):
        confirm_result(result, actor="t", pin=out.pin)  # no longer at the table
    confirmed = confirm_result(HandResult.objects.get(pk=result.pk), actor="t", pin=sub.player_in.pin)
    assert confirmed.status == HandResult.Status.CONFIRMED and "Kai New" in confirmed.confirmed_by
    page = client_for(table=table).get(reverse("table", args=[event.slug, table.pk])).content.decode()
    assert "Kai New" in page and out.name not in page  # the table page names who sits there now


def test_refusals_and_a_repeated_form(team_event):
    event = team_event
    table = Table.objects.get(group__session__event=event, group__session__number=1, number=3)
    out = seat_at(table, "S").player
    with pytest.raises(SubstitutionError) as caught:
        substitute(event, 1, player_out=out, name="", reason="ill", actor="d")
    assert caught.value.field == "name"
    with pytest.raises(SubstitutionError) as caught:
        substitute(event, 2, player_out=out, name="X", reason="ill", actor="d")
    assert caught.value.field == "session"
    first = substitute(event, 1, player_out=out, name="Ana Sub", reason="ill", actor="d")
    again = substitute(event, 1, player_out=out, name="Ana Sub", reason="ill", actor="d")
    assert again.pk == first.pk and Player.objects.filter(event=event, name="Ana Sub").count() == 1
    with pytest.raises(SubstitutionError) as caught:
        substitute(event, 1, player_out=out, name="Someone Else", reason="ill", actor="d")
    assert caught.value.field == "player_out"  # holds no seat now
    play_slots(event, random.Random(7), skip_entered=True)
    with pytest.raises(SubstitutionError) as caught:
        substitute(event, 1, player_out=first.player_in, name="Third", reason="ill", actor="d")
    assert caught.value.field == "player_out" and "nothing left" in caught.value.message


def test_individual_replacement_is_unranked_and_the_replaced_player_keeps_played_sets(director):
    event = prepared_event(individual_roster(16), name="Solo Sub", slug="solo-sub", method=Event.Method.INDIVIDUAL,
                           conversion="mcr-mp", director=director)
    play_slots(event, random.Random(5), slots=[0])
    table = Table.objects.get(group__session__event=event, number=1)
    out = seat_at(table, "E").player
    sub = substitute(event, 1, player_out=out, name="Walk In", reason="no-show after set 4", actor="d")
    assert sub.player_in.substitute and sub.player_in.team_id is None
    play_slots(event, random.Random(7), skip_entered=True)
    rows = {r["key"]: r for r in event_standings(event)}
    schedule = [s for _slot, block in blocks(table) for s in block]
    assert rows[sub.player_in.pk]["rank"] is None and rows[sub.player_in.pk]["substitute"]
    assert rows[sub.player_in.pk]["sets_played"] == len(sub.sets)
    assert rows[out.pk]["sets_played"] == len(schedule) - len(sub.sets) and rows[out.pk]["rank"] is not None
    assert max(r["rank"] for r in rows.values() if r["rank"] is not None) <= 16
    assert cached_standings(event) == event_standings(event)


def test_for_good_seats_the_replacement_in_session_2(team_event):
    event = team_event
    table = Table.objects.get(group__session__event=event, group__session__number=1, number=1)
    out = seat_at(table, "W").player
    sub = substitute(event, 1, player_out=out, name="Mo Stay", for_good=True, reason="went home", actor="d")
    out.refresh_from_db()
    assert out.replaced_by_id == sub.player_in_id
    play_slots(event, random.Random(7), skip_entered=True)
    prepare_session(event, 2)
    seated = set(SeatAssignment.objects.filter(table__group__session__event=event, table__group__session__number=2)
                 .values_list("player_id", flat=True))
    assert sub.player_in_id in seated and out.pk not in seated


def test_the_substitute_page_lists_seated_players_and_substitutes(team_event, director):
    event = team_event
    table = Table.objects.get(group__session__event=event, group__session__number=1, number=4)
    out = seat_at(table, "N").player
    client = client_for(director)
    page = client.get(reverse("substitute", args=[event.slug, 1])).content.decode()
    assert f"{out.name} — Table 4, North" in page and ">Substitute<" in page
    response = client.post(reverse("substitute", args=[event.slug, 1]),
                           {"player_out": out.pk, "name": "Page Sub", "reason": "ill", "for_good": "1"}, follow=True)
    page = response.content.decode()
    assert response.status_code == 200 and 'id="substitutions"' in page and "Page Sub" in page
    assert "Page Sub — Table 4, North" in page
    refused = client.post(reverse("substitute", args=[event.slug, 1]), {"player_out": out.pk, "name": "", "reason": "x"})
    assert refused.status_code == 400
    assert client_for().get(reverse("substitute", args=[event.slug, 1])).status_code == 302


def test_substitutions_and_check_ins_survive_export_and_import(team_event):
    event = team_event
    table = Table.objects.get(group__session__event=event, group__session__number=1, number=1)
    sub = substitute(event, 1, player_out=seat_at(table, "E").player, name="Exported Sub", for_good=True,
                     reason="ill", actor="d")
    CheckIn.objects.create(event=event, session_number=1, team=event.teams.first(), by="d")
    public = public_export(event)
    released = {tuple(pair) for pair in public["released"]}
    assert all((1, s) in released for entry in public["substitutions"] for s in entry["sets"])
    assert "check_ins" not in public
    play_slots(event, random.Random(7), skip_entered=True)
    per_player = {r["name"]: r for r in player_standings(event, public=False)}
    before = export_event(event, include_secret=True)
    assert before["substitutions"][0]["sets"] == sub.sets
    Event.objects.filter(pk=event.pk).delete()
    restored = import_event(before)
    after = export_event(restored, include_secret=True)
    before.pop("exported_at"), after.pop("exported_at")
    assert after == before
    assert {r["name"]: r for r in player_standings(restored, public=False)} == \
        {name: {**row, "player": Player.objects.get(event=restored, name=name).pk} for name, row in per_player.items()}


def test_a_substitute_with_an_account_reads_their_own_tables_results_and_no_other(team_event, django_user_model):
    """The visibility rule's viewer (docs/security.md, "Who sees what"): a player seated at a table
    reads its results, released or not; a substitute who came in there is seated at it too, and
    still reads nothing of another table."""
    from scoring.visibility import viewer_for

    t1, t2 = (Table.objects.get(group__session__event=team_event, number=n) for n in (1, 2))
    sub = substitute(team_event, 1, player_out=seat_at(t1, "E").player, name="Kai New", reason="ill", actor="d")
    account = django_user_model.objects.create_user("kai-new", password="pw-kai-new-1")
    Player.objects.filter(pk=sub.player_in.pk).update(user=account)
    seen = viewer_for(account, team_event)
    assert t1.pk in seen.tables and t2.pk not in seen.tables and not seen.secrets
