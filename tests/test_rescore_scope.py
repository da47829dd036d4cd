"""The confirmation that completes a comparison rescores it in the write
(:func:`scoring.actions.rescoring.rescore_scope`, a few statements under the write's locks): the
converted scores it stores, the sets it releases and the public version it bumps are those of a
from-scratch rescore (:func:`scoring.actions.rescoring.rescore_set`,
:func:`scoring.conversion_versions.rescore_event`), checked on whole played sessions of team
and individual events, average and Butler datums, group and whole-field comparisons, with a
fouled mark, a reserve wall and a substitution."""

from __future__ import annotations

import random

import pytest
from factories import individual_roster, play_slots, play_up_to, prepared_event, team_roster

from scoring.actions.confirmation import confirm_result
from scoring.actions.entry import submit_result
from scoring.actions.fouled import mark_fouled
from scoring.actions.rescoring import rescore_scope, rescore_set
from scoring.conversion_versions import rescore_event
from scoring.models import HandResult, SetRelease, SetScore
from tournament.models import Event, EventVersion, Player, Table
from tournament.substitutions import substitute
from walls.models import ReserveWall

pytestmark = pytest.mark.django_db

FIELDS = ("session_number", "set_no", "group_id", "team_id", "player_id", "score_change", "datum", "difference", "points",
          "conversion_table_id", "version", "adjusted")


def _scores(event: Event) -> list[tuple]:
    return sorted(SetScore.objects.filter(event=event).values_list(*FIELDS), key=repr)


def _releases(event: Event) -> set[tuple[int, int]]:
    return set(SetRelease.objects.filter(event=event).values_list("session_number", "set_no"))


def _tables(event: Event) -> list[Table]:
    return list(Table.objects.filter(group__session__event=event).select_related("group__session__event").order_by("number"))


def _versions_and_substitution(event: Event) -> None:
    """Table 1 fouled on set 2 (version 1) and table 2 too, table 3 on a reserve wall of set 3,
    and a player of table 4 replaced before play."""
    tables = _tables(event)
    for table in tables[:2]:
        mark_fouled(event, table, 2, version=1, reason="two tiles swapped", actor="director")
    reserve = ReserveWall.objects.create(event=event, session_number=1, set_no=3, number=1, piles=[], reason="dropped",
                                         drawn_by="director")
    reserve.tables.set([tables[2]])
    out = Player.objects.get(seatings__table=tables[3], seatings__seat="W")
    substitute(event, 1, player_out=out, name="Late Arrival", reason="ill", actor="director")


CASES = {
    "team-average-group": (team_roster(8), {}),
    "team-butler-group": (team_roster(8), {"datum_method": Event.Datum.BUTLER}),
    "team-field": (team_roster(8), {"comparison": Event.Comparison.FIELD}),
    "individual-group": (individual_roster(32), {"method": Event.Method.INDIVIDUAL}),
    "individual-field-butler": (individual_roster(32), {"method": Event.Method.INDIVIDUAL, "comparison": Event.Comparison.FIELD,
                                                        "datum_method": Event.Datum.BUTLER}),
}


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("versions", [False, True], ids=["as-prepared", "fouled-reserve-substitute"])
def test_the_scores_a_session_s_confirmations_stored_are_a_from_scratch_rescore_s(case, versions):
    roster, fields = CASES[case]
    event = prepared_event(roster, name=f"Rescore {case}", slug=f"rescore-{case}-{int(versions)}", **fields)
    if versions:
        _versions_and_substitution(event)
    play_slots(event, random.Random(11))  # the session, PIN confirmations: some complete a comparison, the last of a set release it
    stored, released = _scores(event), _releases(event)
    assert stored and released  # something was scored and released along the way
    if versions:
        assert {s[-2] for s in stored} - {""} and any(s[-1] for s in stored)  # versions, the reserve's lone table adjusted
    for set_no in sorted({s[1] for s in stored}):
        rescore_set(event, 1, set_no)
    assert _scores(event) == stored and _releases(event) == released
    rescore_event(event)
    assert _scores(event) == stored and _releases(event) == released


def _play_holding(event: Event, group: int, set_no: int) -> HandResult:
    """Play ``group``'s tables up to ``set_no`` (every result confirmed by the director) but leave
    the result of its last table on ``set_no`` entered, waiting for its confirmation."""
    tables = [t for t in _tables(event) if t.group.number == group]
    held = {}

    def enter(table: Table, s: int) -> None:
        result = submit_result(table, s, changes={"E": 24, "S": -8, "W": -8, "N": -8} if s == set_no else CHANGES, actor="t")
        if (table.pk, s) == (tables[-1].pk, set_no):
            held["result"] = result
        else:
            confirm_result(result, actor="d", director=True)

    play_up_to(tables, set_no, enter)
    return held["result"]


CHANGES = {"E": 8, "S": -8, "W": 0, "N": 0}


def test_the_release_and_the_public_version_follow_the_last_group():
    """A group completing its set scores it and bumps the version without releasing the set (the
    public version stays); the last group's completing confirmation releases the set and bumps
    the public version with it; a repeat rescore of the scope stores the same rows again."""
    event = prepared_event(team_roster(8), name="Release", slug="release-follows")
    version = lambda: EventVersion.objects.filter(event=event).values_list("number", "public_number").get()  # noqa: E731
    first, second = _play_holding(event, 1, 1), _play_holding(event, 2, 1)
    before = version()
    confirm_result(first, actor="d", director=True)
    after = version()
    assert after == (before[0] + 1, before[1]) and (1, 1) not in _releases(event)
    assert SetScore.objects.filter(event=event, set_no=1, group=first.table.group).count() == 4
    confirm_result(second, actor="d", director=True)
    assert version() == (after[0] + 1, after[1] + 1) and (1, 1) in _releases(event)
    assert SetScore.objects.filter(event=event, set_no=1).count() == 8
    stored, released = _scores(event), _releases(event)
    table = Table.objects.select_related("group__session__event").get(pk=second.table_id)
    assert rescore_scope(table, 1, 4) == 4  # safe to repeat: the same rows, the release kept
    assert _scores(event) == stored and _releases(event) == released
