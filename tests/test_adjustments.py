"""docs/director-guide.md, "9. Penalties and tie-breaks": penalties and adjustments (docs/scoring.md, "Penalties and adjustments") move totals
and ranks in the event and session standings, the public standings, the API and the CSV; undo
restores them; an adjustment in score points is converted with the event's current table. Also
the scorer-corrections setting. Expected totals are recomputed here from the stored converted
scores, without the standings code."""

import csv
import io
import random
from collections import defaultdict

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from factories import (
    client_for,
    entering,
    first_set,
    first_table,
    individual_roster,
    play_slots,
    prepared_event,
    team_roster,
)

from scoring.actions.confirmation import correct_result
from scoring.actions.entry import submit_result
from scoring.actions.errors import ResultError
from scoring.adjustments import AdjustmentError, add_adjustment, undo_adjustment
from scoring.models import Adjustment, HandResult, SetScore
from scoring.reports import cached_standings, event_standings
from tournament.exchange import export_event, import_event, public_export
from tournament.models import AuditEntry, Event

pytestmark = pytest.mark.django_db


def stored_totals(event, session=None):
    """``{team or player pk: converted points}`` from the SetScore rows (released or not)."""
    field = "team_id" if event.method == Event.Method.TEAM else "player_id"
    totals = defaultdict(int)
    scores = SetScore.objects.filter(event=event)
    if session is not None:
        scores = scores.filter(session_number=session)
    for key, points in scores.values_list(field, "points"):
        totals[key] += points
    return dict(totals)


@pytest.fixture
def played(director):
    """Four teams, two sessions planned, session 1 seated and fully played (every set released)."""
    event = prepared_event(team_roster(4), name="Penalty Cup", slug="penalty-cup", conversion="mcr-mp", sessions=2,
                           director=director)
    play_slots(event, random.Random(18))
    return event


def test_a_penalty_moves_the_total_and_the_rank_everywhere_and_undo_restores(played, director):
    event = played
    before = cached_standings(event)
    totals = stored_totals(event)
    leader, last = before[0], before[-1]
    assert [r["points"] for r in before] == sorted(totals.values(), reverse=True)
    swing = totals[leader["key"]] - totals[last["key"]] + 1
    team = event.teams.get(pk=leader["key"])
    adjustment = add_adjustment(event, team=team, unit="mp", amount=-swing, reason="late arrival", actor="director")

    for rows in (cached_standings(event), event_standings(event), cached_standings(event, public=False)):
        row = next(r for r in rows if r["key"] == team.pk)
        assert row["points"] == totals[team.pk] - swing
        assert row["adjustment_points"] == -swing
        assert row["adjustments"][0]["reason"] == "late arrival"
        assert rows[-1]["key"] == team.pk  # last now
    assert cached_standings(event) == event_standings(event)

    # public page, API and CSV
    page = client_for().get(reverse("standings", args=[event.slug])).content.decode()
    assert f"includes {-swing:+d} MP: penalty" in page and "late arrival" in page
    api = client_for().get(reverse("api-standings", args=[event.slug])).json()
    api_row = next(r for r in api if r["name"] == team.name)
    assert api_row["points"] == totals[team.pk] - swing and api_row["adjustment_points"] == -swing
    assert api_row["adjustments"][0]["reason"] == "late arrival"
    parsed = list(csv.DictReader(io.StringIO(client_for().get(reverse("standings-csv", args=[event.slug])).content.decode())))
    csv_row = next(r for r in parsed if r["Team"] == team.name)
    assert (int(csv_row["Points"]), int(csv_row["Adjustment (MP)"])) == (totals[team.pk] - swing, -swing)
    assert "late arrival" in csv_row["Adjustments"]
    assert parsed[-1]["Team"] == team.name

    undo_adjustment(adjustment, actor="director")
    assert cached_standings(event) == before
    assert event_standings(event) == before


def test_session_and_event_wide_adjustments_count_where_the_rule_says(played):
    event = played
    team = event.teams.order_by("number").first()
    base_total, base_session = stored_totals(event)[team.pk], stored_totals(event, 1)[team.pk]
    add_adjustment(event, team=team, session_number=1, unit="mp", amount=-2, reason="slow play", actor="d")
    add_adjustment(event, team=team, unit="mp", amount=-3, reason="dress code", actor="d")
    overall = {r["key"]: r for r in cached_standings(event)}
    session1 = {r["key"]: r for r in cached_standings(event, 1)}
    assert overall[team.pk]["points"] == base_total - 5
    assert session1[team.pk]["points"] == base_session - 2
    assert [a["reason"] for a in session1[team.pk]["adjustments"]] == ["slow play"]
    assert cached_standings(event, 1) == event_standings(event, 1)


def test_an_adjustment_in_points_is_converted_with_the_current_table(played):
    """mcr-mp (docs/scoring.md): a difference of 88 to 111 points is 9 MP; the score total moves by
    the points themselves."""
    event = played
    team = event.teams.order_by("number").last()
    before = next(r for r in event_standings(event) if r["key"] == team.pk)
    add_adjustment(event, team=team, unit="points", amount=-100, reason="chombo, set 5", actor="d")
    after = next(r for r in cached_standings(event) if r["key"] == team.pk)
    assert after["points"] == before["points"] - 9
    assert after["score_total"] == before["score_total"] - 100
    assert (after["adjustment_points"], after["adjustment_score"]) == (-9, -100)


def test_refusals_name_the_field(played):
    event = played
    team = event.teams.first()
    other = prepared_event(team_roster(4), name="Other Cup", slug="other-cup", prepare=())
    cases = [
        ({"team": team, "unit": "mp", "amount": 0, "reason": "x"}, "amount"),
        ({"team": None, "unit": "mp", "amount": -1, "reason": "x"}, "entrant"),
        ({"team": other.teams.first(), "unit": "mp", "amount": -1, "reason": "x"}, "entrant"),
        ({"team": team, "session_number": 3, "unit": "mp", "amount": -1, "reason": "x"}, "session"),
        ({"team": team, "unit": "mp", "amount": -1, "reason": "  "}, "reason"),
        ({"team": team, "unit": "fan", "amount": -1, "reason": "x"}, "unit"),
    ]
    for kwargs, field in cases:
        with pytest.raises(AdjustmentError) as caught:
            add_adjustment(event, actor="d", **kwargs)
        assert caught.value.field == field
    assert not Adjustment.objects.filter(event=event).exists()


def test_add_is_safe_to_repost_and_undo_twice_is_a_no_op(played):
    event = played
    team = event.teams.first()
    first = add_adjustment(event, team=team, unit="mp", amount=-5, reason="late", actor="d")
    again = add_adjustment(event, team=team, unit="mp", amount=-5, reason="late", actor="d")
    assert again.pk == first.pk
    undo_adjustment(first, actor="d")
    undo_adjustment(first, actor="d")
    actions = list(AuditEntry.objects.filter(event=event, action__startswith="adjustment-").values_list("action", flat=True))
    assert actions == ["adjustment-added", "adjustment-undone"]


def test_the_penalties_page_applies_and_undoes(played, director):
    event = played
    team = event.teams.order_by("number").first()
    assert client_for().get(reverse("penalties", args=[event.slug])).status_code == 302  # login first
    stranger = get_user_model().objects.create_user("not-the-director")
    assert client_for(stranger).get(reverse("penalties", args=[event.slug])).status_code == 403
    client = client_for(director)
    response = client.post(reverse("penalties", args=[event.slug]), {
        "entrant": team.pk, "amount": "-5", "unit": "mp", "session": "", "reason": "late arrival"}, follow=True)
    page = response.content.decode()
    assert response.status_code == 200 and 'id="adjustments"' in page and "late arrival" in page and ">Undo<" in page
    adjustment = Adjustment.objects.get(event=event)
    refused = client.post(reverse("penalties", args=[event.slug]), {
        "entrant": team.pk, "amount": "0", "unit": "mp", "session": "", "reason": "x"})
    assert refused.status_code == 400 and "changes nothing" in refused.content.decode()
    page = client.post(reverse("penalty-undo", args=[event.slug, adjustment.pk]), follow=True).content.decode()
    assert "undone" in page
    adjustment.refresh_from_db()
    assert adjustment.undone_at is not None


def test_individual_event_penalties_go_to_players(director):
    event = prepared_event(individual_roster(16), name="Solo Penalty", slug="solo-penalty", method=Event.Method.INDIVIDUAL,
                           conversion="mcr-mp")
    play_slots(event, random.Random(3))
    player = event.players.order_by("number").first()
    with pytest.raises(AdjustmentError) as caught:
        add_adjustment(event, team=None, player=None, unit="mp", amount=-1, reason="x", actor="d")
    assert caught.value.field == "entrant"
    add_adjustment(event, player=player, unit="mp", amount=-4, reason="phone rang", actor="d")
    row = next(r for r in cached_standings(event) if r["key"] == player.pk)
    assert row["points"] == stored_totals(event)[player.pk] - 4


def test_adjustments_and_new_settings_survive_export_and_import(played):
    event = played
    Event.objects.filter(pk=event.pk).update(tie_breaks=["best_set"], scorer_corrections=False, announcement="Lunch at 1")
    event.refresh_from_db()
    team = event.teams.first()
    kept = add_adjustment(event, team=team, session_number=1, unit="points", amount=-100, reason="chombo", actor="d")
    gone = add_adjustment(event, team=team, unit="mp", amount=-1, reason="typo", actor="d")
    undo_adjustment(gone, actor="d")
    standings = [{k: v for k, v in r.items() if k != "key"} for r in event_standings(event)]
    public = public_export(event)
    assert [a["reason"] for a in public["adjustments"]] == ["chombo", "typo"]
    assert "actor" not in public["adjustments"][0] and "check_ins" not in public
    before = export_event(event, include_secret=True)
    Event.objects.filter(pk=event.pk).delete()
    restored = import_event(before)
    after = export_event(restored, include_secret=True)
    before.pop("exported_at"), after.pop("exported_at")
    assert after == before
    assert (restored.tie_breaks, restored.scorer_corrections, restored.announcement) == (["best_set"], False, "Lunch at 1")
    assert restored.adjustments.get(reason="typo").undone_at is not None
    assert restored.adjustments.get(reason="chombo").amount == kept.amount
    assert [{k: v for k, v in r.items() if k != "key"} for r in event_standings(restored)] == standings


def test_scorers_may_not_correct_when_the_setting_is_off():
    event = prepared_event(team_roster(4), name="Strict Cup", slug="strict-cup")
    table = first_table(event)
    seats = tuple(event.get_ruleset().seats)
    result = submit_result(table, first_set(table), changes={s: 0 for s in seats}, actor="scorer")
    changes = {s: (24 if s == seats[0] else -8) for s in seats}
    allowed = correct_result(result, actor="scorer", reason="", director=False, changes=changes,  # the default: on
                             **entering(table, seats[0]))
    assert allowed.changes == changes and allowed.status == HandResult.Status.ENTERED
    Event.objects.filter(pk=event.pk).update(scorer_corrections=False)
    result = HandResult.objects.get(pk=result.pk)
    with pytest.raises(ResultError) as caught:
        correct_result(result, actor="scorer", reason="", director=False, changes={s: 0 for s in seats}, **entering(table, seats[1]))
    assert caught.value.status == 403 and "scorers may correct unconfirmed results" in caught.value.message
    assert HandResult.objects.get(pk=result.pk).changes == changes
    corrected = correct_result(HandResult.objects.get(pk=result.pk), actor="director", reason="fix", director=True,
                               changes={s: 0 for s in seats})
    assert corrected.status == HandResult.Status.CONFIRMED
