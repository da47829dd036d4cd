"""The wall check is no oracle (docs/security.md, "The wall check"): the same probing entries, by
the same seated player with the right PIN, sent to two sets no table has played get the same
answer, ids and set numbers aside, on every path a player can reach: the table page (its page
and the offline queue's JSON answer), the API as a scorer account bound to the table (no PIN; by
session and by API token, as a script sends it) and as a player's own account that is a scorer of its table (with its PIN), and a correction.
Probes: a self-draw and a discard win naming every tile kind, concealed kongs, thirteen orphans.
The director sees the flags; the table sees its own once the set is released."""

from __future__ import annotations

import difflib
import json
import re

import pytest
from django.urls import reverse

from factories import api_key, blocks, client_for, entering, first_table, table_url
from scoring.actions.confirmation import confirm_result
from scoring.models import ConfirmationAttempt, HandResult, SetRelease
from scoring.wall_check import KINDS
from tournament.models import EventRole
from walls.models import WallSet
from walls.setcode import SetId

pytestmark = pytest.mark.django_db

HANDS = [
    ("self_draw", "W", None, "ckong:1s ckong:2s ckong:3s ckong:4s 5s +5s"),  # the probe: West's tiles counted
    ("self_draw", "W", None, "ckong:1m ckong:9p ckong:7z 123s 5p +5p"),
    ("self_draw", "W", None, "19m 19p 19s 1234567z +1m"),  # thirteen orphans
    ("discard", "E", "S", "19m 19p 19s 1234567z +7z"),
    ("discard", "E", "S", "1122334455667m +7m"),  # seven pairs
]


def _outcome(kind: str, winner: str, discarder: str | None, *, tile: str | None = None, hand: str | None = None) -> dict:
    outcome = {"kind": kind, "winners": [winner], "fans": [8]}
    if discarder:
        outcome["discarder"] = discarder
    if tile:
        outcome["winning_tile"] = tile
    if hand:
        outcome["hand"] = hand
    return outcome


def probes(with_hands: bool) -> list[dict]:
    """Every tile kind self-drawn by West and won by East on South's discard; then whole hands."""
    out = [_outcome("self_draw", "W", None, tile=k) for k in KINDS]
    out += [_outcome("discard", "E", "S", tile=k) for k in KINDS]
    if with_hands:
        out += [_outcome(kind, winner, discarder, hand=hand) for kind, winner, discarder, hand in HANDS]
    return out


def _form(outcome: dict, set_no: int, table) -> dict:
    """The table page's form for ``outcome``, entered by West with West's own PIN."""
    data = {"set_no": str(set_no), "mode": "outcome", "kind": outcome["kind"], "winners": outcome["winners"][0],
            f"value_{outcome['winners'][0]}": "8", **entering(table, "W")}
    if outcome.get("discarder"):
        data["discarder"] = outcome["discarder"]
    if outcome.get("winning_tile"):
        data["winning_tile"] = outcome["winning_tile"]
    if outcome.get("hand"):
        data["hand"] = outcome["hand"]
    return data


def _normalised(text: str, set_no: int, ids: list[int]) -> str:
    """``text`` with what may differ between two sets but says nothing of their walls taken out:
    the result's id, the set's number, tokens and keys made per page, times."""
    text = text.replace(SetId("-", 1, set_no).code, "<code>")  # the set's printed code (1-07-3), check digit and all
    text = re.sub(rf"([Ss]et |played-|set_no=|set=|\"set\": ?|\"set_no\": ?|<option value=\"){set_no}\b", r"\1<set>", text)
    text = re.sub(r"\b1-0?%d\b" % set_no, "<code>", text)
    for pk in ids:
        text = re.sub(rf"(confirm=|confirm-|pin-|/confirm/|/results/|/result/|\"id\": ?|\"result\": ?|#){pk}\b", r"\1<id>", text)
    text = re.sub(r"[0-9a-f]{32}", "<key>", text)
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "<csrf>", text)
    return re.sub(r"\d{4}-\d\d-\d\d[T ][\d:.]+(Z|[+-]\d\d:\d\d)?", "<time>", text)


def _card_and_messages(page: str) -> str:
    """What the table page answers a stored entry with: its message and the result's card."""
    messages = re.findall(r'<ul class="messages">.*?</ul>', page, re.S)
    cards = re.findall(r'<form [^>]*id="confirm-\d+".*?</form>', page, re.S)
    played = re.findall(r'<section id="table-results">.*?</section>', page, re.S)
    return "\n".join(messages + cards + played)


def _reset(table) -> None:
    """Back to no result at the table (the next probe meets two unplayed sets again)."""
    HandResult.objects.filter(table=table).delete()


@pytest.fixture
def probed(team_event, django_user_model):
    """Table 1, two sets of its first block (no table has played them), a scorer account bound to
    the table, and West's own account, a scorer of its table too."""
    table = first_table(team_event)
    set_a, set_b = blocks(table)[0][1][:2]
    walls = {w.set_no: w.piles for w in WallSet.objects.filter(event=team_event, session_number=1, set_no__in=(set_a, set_b))}
    assert walls[set_a] != walls[set_b]
    scorer = django_user_model.objects.create_user("scorer-probe", password="pw-probe-1")
    EventRole.objects.create(event=team_event, user=scorer, role=EventRole.Role.SCORER).tables.add(table)
    west = table.seats.select_related("player").get(seat="W").player
    player_user = django_user_model.objects.create_user("west-own", password="pw-west-1")
    west.user = player_user
    west.save(update_fields=["user"])
    EventRole.objects.create(event=team_event, user=player_user, role=EventRole.Role.SCORER).tables.add(table)
    return table, (set_a, set_b), scorer, player_user


def _answers(channel, table, set_no: int, outcome: dict) -> str:
    """Send ``outcome`` on ``set_no`` through ``channel`` and return the answer, normalised."""
    ids: list[int] = []
    if channel["kind"] == "page":
        response = channel["client"].post(table_url(table), _form(outcome, set_no, table))
        ids = list(HandResult.objects.filter(table=table).values_list("pk", flat=True))
        follow = channel["client"].get(response["Location"]) if response.status_code == 302 else response
        text = f"{response.status_code} {response.get('Location', '')}\n{_card_and_messages(follow.content.decode())}"
    elif channel["kind"] == "json":
        response = channel["client"].post(table_url(table), _form(outcome, set_no, table), HTTP_ACCEPT="application/json")
        ids = list(HandResult.objects.filter(table=table).values_list("pk", flat=True))
        text = f"{response.status_code} {response.content.decode()}"
    else:
        body = {"table": table.number, "set_no": set_no, "outcome": outcome, **channel.get("extra", {})}
        response = channel["client"].post(f"/api/events/{table.group.session.event.slug}/results/", json.dumps(body),
                                          content_type="application/json")
        ids = list(HandResult.objects.filter(table=table).values_list("pk", flat=True))
        read = channel["client"].get(f"/api/events/{table.group.session.event.slug}/results/{ids[0]}/") if ids else None
        text = f"{response.status_code} {response.content.decode()}\n{read.content.decode() if read else ''}"
    return _normalised(text, set_no, ids)


def test_the_same_probes_on_two_unplayed_sets_get_the_same_answers_on_every_path(probed, settings):
    from scoring import fan_check

    table, (set_a, set_b), scorer, player_user = probed
    settings.CONFIRM_PIN_LIMIT_PER_TABLE = 10
    phone = client_for(table=table)
    west_pin = entering(table, "W")["entry_pin"]
    channels = [
        {"kind": "page", "client": phone},
        {"kind": "json", "client": phone},
        {"kind": "api", "client": client_for(scorer)},  # a scorer account: no PIN
        {"kind": "api", "client": client_for(token=api_key(scorer))},  # the same with its API token, as a script sends it
        {"kind": "api", "client": client_for(player_user), "extra": {"entered_by_seat": "W", "entry_pin": west_pin}},
    ]
    differed, flagged = [], 0
    for outcome in probes(with_hands=fan_check.available()):
        for channel in channels:
            answers = []
            for set_no in (set_a, set_b):
                answers.append(_answers(channel, table, set_no, outcome))
                flagged += HandResult.objects.filter(table=table).exclude(wall_flag=None).count()
                _reset(table)
            if answers[0] != answers[1]:
                differed.append((channel["kind"], outcome, answers))
    assert not differed, "\n".join(difflib.unified_diff(*(a.splitlines() for a in differed[0][2]), lineterm="")) + repr(differed[0][:2])
    # the probes did meet the wall: many were flagged for the director, and none locked the table
    assert flagged > len(channels) * 10
    assert not ConfirmationAttempt.objects.filter(table=table, ok=False).exists()


def test_a_correction_is_answered_the_same_on_two_unplayed_sets(probed):
    table, (set_a, set_b), _scorer, _player = probed
    phone = client_for(table=table)
    answers = []
    for set_no in (set_a, set_b):
        texts = []
        for tile in KINDS:
            phone.post(table_url(table), _form(_outcome("self_draw", "W", None, tile="1m"), set_no, table))
            result = HandResult.objects.get(table=table)
            data = {"action": "correct", "reason": "typo", **_form(_outcome("self_draw", "W", None, tile=tile), set_no, table)}
            response = phone.post(reverse("result", args=[table.group.session.event.slug, result.pk]), data)
            page = phone.get(response["Location"]).content.decode() if response.status_code == 302 else response.content.decode()
            body = re.search(r'<main.*</main>', page, re.S)
            texts.append(_normalised(f"{response.status_code}\n{body.group(0) if body else page}", set_no, [result.pk]))
            _reset(table)
        answers.append(texts)
    for a, b in zip(*answers, strict=True):
        assert a == b, "\n".join(difflib.unified_diff(a.splitlines(), b.splitlines(), lineterm=""))


def test_the_director_sees_the_flag_at_once_and_the_table_once_the_set_is_released(probed, director):
    table, (set_a, _set_b), _scorer, _player = probed
    piles = WallSet.objects.get(event=table.group.session.event, session_number=1, set_no=set_a).piles
    drawn = {t[:2].replace("0", "5") for t in piles["W-draw"]}
    absent = next(k for k in KINDS if k not in drawn)
    phone = client_for(table=table)
    assert phone.post(table_url(table), _form(_outcome("self_draw", "W", None, tile=absent), set_a, table)).status_code == 302
    result = HandResult.objects.get(table=table)
    assert result.wall_flag and result.outcome["winning_tile"] == absent
    words = f"the winning tile {absent} is not among West"
    assert words not in phone.get(table_url(table)).content.decode()
    result_url = reverse("result", args=[table.group.session.event.slug, result.pk])
    assert words not in phone.get(result_url).content.decode()
    director_client = client_for(director)
    assert words in director_client.get(table_url(table)).content.decode()
    assert words in director_client.get(result_url).content.decode()
    live = director_client.get(reverse("live", args=[table.group.session.event.slug])).content.decode()
    assert "⚑" in live and words in live
    confirm_result(result, actor="director", director=True)
    SetRelease.objects.create(event=table.group.session.event, session_number=1, set_no=set_a)
    table.group.session.event.changed(public=True)
    assert words in phone.get(table_url(table)).content.decode()
    assert words in phone.get(result_url).content.decode()
