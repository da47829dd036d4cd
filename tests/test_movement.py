"""Seats in a group, the rotation of wall sets (docs/rules.md, "Duplicate MCR: rotation of the sets"), copies and rooms (tournament/movement.py, tournament/seats.py)."""

import dataclasses
import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.movement import MovementError, assign_rooms, rotation_movement
from tournament.seats import balance_seats, individual_group_seating, latin_square, team_group_seating

from oracles import movement_fault, rooms_can_hold

seats_n = st.sampled_from([2, 3, 4])
sessions = st.integers(min_value=0, max_value=20)


def movement_args():
    return st.tuples(seats_n, st.integers(1, 5), st.integers(1, 6), st.booleans(), st.integers(0, 2))


def build(args):
    n, block, groups, stagger, rebuild = args
    return rotation_movement(n, n * block, n_groups=groups, stagger=stagger, rebuild_hands=rebuild)


@pytest.mark.parametrize("n", range(1, 7))
def test_latin_square_rows_and_columns_are_permutations(n):
    square = latin_square(n)
    assert all(sorted(row) == list(range(n)) for row in square)
    assert all(sorted(col) == list(range(n)) for col in zip(*square))


def test_latin_square_first_table_seats_teams_in_order():
    assert latin_square(4)[0] == [0, 1, 2, 3]


@given(seats_n, sessions)
def test_team_seating_each_table_has_every_seat_once_by_distinct_teams(n, session):
    placements = team_group_seating(n, session)
    assert len(placements) == n * n
    for table in range(n):
        here = [p for p in placements if p.table == table]
        assert sorted(p.seat for p in here) == list(range(n))
        assert sorted(p.team_slot for p in here) == list(range(n))


@given(seats_n, sessions)
def test_team_seating_each_team_plays_every_seat_of_every_set_once(n, session):
    placements = team_group_seating(n, session)
    for slot in range(n):
        team = [p for p in placements if p.team_slot == slot]
        assert sorted(p.seat for p in team) == list(range(n))
        assert sorted(p.table for p in team) == list(range(n))
        assert sorted(p.member for p in team) == list(range(n))


@given(seats_n, sessions)
def test_team_members_turn_through_every_seat_over_n_sessions(n, first):
    seen = {(slot, member): [] for slot in range(n) for member in range(n)}
    for session in range(first, first + n):
        for p in team_group_seating(n, session):
            seen[(p.team_slot, p.member)].append(p.seat)
    assert all(sorted(winds) == list(range(n)) for winds in seen.values())


@given(seats_n, sessions)
def test_individual_seating_each_seat_of_each_set_is_played_by_n_players(n, session):
    triples = individual_group_seating(n, session)
    assert sorted(p for _, _, p in triples) == list(range(n * n))
    for table in range(n):
        assert sorted(seat for t, seat, _ in triples if t == table) == list(range(n))
    for seat in range(n):
        assert sorted(t for t, s, _ in triples if s == seat) == list(range(n))


@given(seats_n, sessions)
def test_individual_player_slot_turns_one_seat_each_session(n, session):
    now = {p: seat for _, seat, p in individual_group_seating(n, session)}
    after = {p: seat for _, seat, p in individual_group_seating(n, session + 1)}
    assert all(after[p] == (now[p] + 1) % n for p in now)


def seat_counts(seated, n):
    counts = {}
    for s, groups in enumerate(seated):
        seat_of_slot = {p: seat for _, seat, p in individual_group_seating(n, s)}
        for group in groups:
            for slot, player in enumerate(group):
                counts.setdefault(player, [0] * n)[seat_of_slot[slot]] += 1
    return counts


@given(seats_n, st.integers(1, 3), st.randoms(use_true_random=False))
def test_balance_seats_keeps_groups_and_fills_each_seat_n_times(n, n_groups, rnd):
    players = list(range(n * n * n_groups))
    sessions_ = []
    for _ in range(n + 1):
        rnd.shuffle(players)
        sessions_.append([players[g * n * n:(g + 1) * n * n] for g in range(n_groups)])
    seated = balance_seats(sessions_, n)
    for groups, placed in zip(sessions_, seated):
        assert [sorted(g) for g in groups] == [sorted(g) for g in placed]
    for s, groups in enumerate(seated):
        seat_of_slot = {p: seat for _, seat, p in individual_group_seating(n, s)}
        for group in groups:
            assert sorted(seat_of_slot[slot] for slot in range(len(group))) == sorted(list(range(n)) * n)


@given(seats_n)
def test_balance_seats_with_fixed_groups_gives_every_player_every_seat_once(n):
    group = list(range(n * n))[::-1]
    counts = seat_counts(balance_seats([[group]] * n, n), n)
    assert all(c == [1] * n for c in counts.values())


def test_balance_seats_rejects_a_short_group():
    with pytest.raises(MovementError, match="group 1.*16 players"):
        balance_seats([[list(range(15))]], 4)


def test_seed_001_rotation_table_k_starts_with_wind_round_k():
    m = rotation_movement(4, 16)
    assert [list(row) for row in m.plan] == [
        [(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12), (13, 14, 15, 16)],
        [(5, 6, 7, 8), (9, 10, 11, 12), (13, 14, 15, 16), (1, 2, 3, 4)],
        [(9, 10, 11, 12), (13, 14, 15, 16), (1, 2, 3, 4), (5, 6, 7, 8)],
        [(13, 14, 15, 16), (1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12)],
    ]
    # table k starts with block k (docs/rules.md, "Duplicate MCR: rotation of the sets")
    assert [(m.plan[0][t][0] - 1) // m.block_size for t in range(4)] == [0, 1, 2, 3]
    assert (m.block_size, m.slots, m.copies) == (4, 4, 1)


def test_seed_001_blocks_move_to_the_previous_table_after_each_round():
    plan = rotation_movement(4, 16).plan
    assert all(plan[slot + 1][(table - 1) % 4] == plan[slot][table] for slot in range(3) for table in range(4))


@given(movement_args())
@settings(max_examples=150)
def test_generated_movements_are_valid_and_every_table_plays_every_set_once(args):
    m = build(args)
    assert movement_fault(m) is None
    for table in range(m.total_tables):
        played = [s for slot in range(m.slots) for s in m.sets_at(table, slot)]
        assert sorted(played) == list(range(1, m.sets_per_session + 1))


@given(movement_args())
def test_table_of_finds_the_table_that_plays_the_set(args):
    m = build(args)
    for slot in range(m.slots):
        for group in range(m.n_groups):
            for set_no in range(1, m.sets_per_session + 1):
                table = m.table_of(set_no, slot, group)
                assert table // m.n_tables == group and set_no in m.sets_at(table, slot)


@given(movement_args())
def test_without_stagger_each_group_needs_its_own_copies(args):
    n, block, groups, _, rebuild = args
    m = rotation_movement(n, n * block, n_groups=groups, stagger=False, rebuild_hands=rebuild)
    assert m.copies == groups * min(n, math.ceil((rebuild + 1) / block))


@given(movement_args())
def test_stagger_shares_copies_between_groups(args):
    n, block, groups, _, rebuild = args
    plain = rotation_movement(n, n * block, n_groups=groups, stagger=False, rebuild_hands=rebuild)
    staggered = rotation_movement(n, n * block, n_groups=groups, stagger=True, rebuild_hands=rebuild)
    assert staggered.copies <= plain.copies
    if groups <= block // (rebuild + 1):
        assert staggered.copies == 1


def test_mcr_two_groups_share_one_copy_when_staggered():
    assert rotation_movement(4, 16, n_groups=2, stagger=True).copies == 1
    assert rotation_movement(4, 16, n_groups=2).copies == 2


def test_one_hand_blocks_alternate_two_copies_so_each_can_be_rebuilt():
    assert rotation_movement(4, 4).copies == 2


def test_the_movement_oracle_finds_each_fault():
    """The oracle that checks every generated movement above sees each kind of fault."""
    m = rotation_movement(4, 16)
    plan = [list(row) for row in m.plan]
    plan[1][0] = (1, 6, 7, 8)
    assert "table 0 must play every set once" in movement_fault(dataclasses.replace(m, plan=tuple(tuple(r) for r in plan)))
    two = rotation_movement(2, 2)
    assert "tables 0 and 1 of group 0 both play set" in movement_fault(dataclasses.replace(two, plan=(((1,), (1,)), ((2,), (2,)))))
    groups = rotation_movement(4, 16, n_groups=2)
    one_copy = dataclasses.replace(groups, copy_plan=tuple(tuple((0,) * 4 for _ in row) for row in groups.copy_plan))
    assert re.search("copy 0 of set 1 is needed at table 0.*table 4", movement_fault(one_copy))
    quick = rotation_movement(4, 4)
    assert "copy 1 does not exist" in movement_fault(dataclasses.replace(quick, copies=1))
    assert "rebuild" in movement_fault(dataclasses.replace(quick, copies=1, copy_plan=tuple(tuple((0,) for _ in row) for row in quick.copy_plan)))
    assert "slots" in movement_fault(dataclasses.replace(m, plan=m.plan[:3]))


@pytest.mark.parametrize("sets, advice", [(15, "use 12 or 16"), (3, "use 4 sets"), (17, "use 16 or 20")])
def test_sets_not_a_multiple_of_the_tables_say_what_would_rotate(sets, advice):
    with pytest.raises(MovementError, match=advice):
        rotation_movement(4, sets)


@pytest.mark.parametrize("bad", [0, -1, 2.5, True])
def test_odd_sizes_raise_a_movement_error(bad):
    with pytest.raises(MovementError, match="tables per group"):
        rotation_movement(bad, 16)


def test_out_of_range_lookups_name_the_field():
    m = rotation_movement(4, 16)
    with pytest.raises(MovementError, match="slot must be 0 to 3"):
        m.sets_at(0, 4)
    with pytest.raises(MovementError, match="set number must be 1 to 16"):
        m.table_of(17, 0)


def clash_pairs(m):
    at = {}
    pairs = set()
    for set_no, _, time, table in m.uses():
        for other in at.setdefault((set_no, time), []):
            pairs.add((other, table))
        at[(set_no, time)].append(table)
    return pairs


@given(movement_args(), st.integers(1, 8))
def test_rooms_keep_tables_playing_the_same_set_at_once_apart(args, n_rooms):
    m = build(args)
    pairs = clash_pairs(m)
    try:
        rooms = assign_rooms(m.total_tables, n_rooms, m)
    except MovementError as error:
        assert "too few" in str(error)
        return
    assert len(rooms) == m.total_tables and set(rooms) <= set(range(n_rooms))
    assert all(rooms[a] != rooms[b] for a, b in pairs)
    sizes = [rooms.count(r) for r in range(n_rooms)]
    assert max(sizes) - min(sizes) <= 1


def test_a_group_alone_fits_in_one_room_and_seed_001_one_table_per_room_always_fits():
    m = rotation_movement(4, 16)
    assert assign_rooms(4, 1, m) == [0, 0, 0, 0]
    two = rotation_movement(4, 16, n_groups=2)
    assert sorted(assign_rooms(8, [1] * 8, two)) == list(range(8))


def test_unstaggered_groups_need_as_many_rooms_as_groups():
    m = rotation_movement(4, 16, n_groups=3)
    with pytest.raises(MovementError, match=r"tables 1, 5, 9 play the same sets .* need 3 different rooms"):
        assign_rooms(12, 2, m)
    staggered = rotation_movement(4, 16, n_groups=3, stagger=True)
    assert assign_rooms(12, 1, staggered) == [0] * 12


def test_rooms_reject_a_table_count_that_is_not_the_movement():
    with pytest.raises(MovementError, match="tables \\(5\\) must be"):
        assign_rooms(5, 2, rotation_movement(4, 16))


@given(st.sampled_from([2, 3]), st.integers(1, 3), st.lists(st.integers(0, 4), min_size=1, max_size=4))
@settings(max_examples=200)
def test_room_capacities_are_met_exactly_when_a_placement_exists(n, groups, capacity):
    m = rotation_movement(n, n * 2, n_groups=groups)
    classes = [[g * n + t for g in range(groups)] for t in range(n)]
    try:
        rooms = assign_rooms(m.total_tables, capacity, m)
    except MovementError:
        assert not rooms_can_hold(classes, capacity)
        return
    assert rooms_can_hold(classes, capacity)
    assert all(rooms.count(r) <= c for r, c in enumerate(capacity))
    assert all(len({rooms[t] for t in cls}) == len(cls) for cls in classes)


def test_room_capacity_errors_name_the_fix():
    m = rotation_movement(4, 16, n_groups=2)
    with pytest.raises(MovementError, match="add rooms or capacity"):
        assign_rooms(8, [4, 3], m)
    with pytest.raises(MovementError, match="room capacities"):
        assign_rooms(8, [4, -1], m)


def test_random_room_plans_are_deterministic():
    m = rotation_movement(3, 9, n_groups=4, stagger=True)
    assert assign_rooms(12, 3, m) == assign_rooms(12, 3, m)
