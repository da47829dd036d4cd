"""Luck measured (scoring/luck.py; docs/scoring.md, "Luck measured"): the pure figures, then the
event's page, which reads released sets only."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import luck
from scoring.luck import LuckError, SeatScore, field_scores, luck_by_session, session_luck, sets_to_separate

SEATS = ("E", "S", "W", "N")

# A session: sets × tables × seats of whole-point score changes.
changes = st.integers(min_value=-200, max_value=200)
shapes = st.tuples(st.integers(min_value=2, max_value=6), st.integers(min_value=2, max_value=5))


def rows_of(grid, session=1):
    """SeatScore rows of ``grid[set][table][seat index]``; players rotate with the table so every
    player plays every set (at a different table each time, as a movement would have it)."""
    tables = len(grid[0])
    return [SeatScore(session, s + 1, t + 1, seat, (t + s) % tables * 4 + i, change)
            for s, by_table in enumerate(grid) for t, by_seat in enumerate(by_table)
            for i, (seat, change) in enumerate(zip(SEATS, by_seat))]


@st.composite
def grids(draw):
    sets, tables = draw(shapes)
    return [[[draw(changes) for _seat in SEATS] for _t in range(tables)] for _s in range(sets)]


@settings(max_examples=40, deadline=None)
@given(grids())
def test_identical_results_per_seat_leave_no_field_variance(grid):
    """Every table of a set with the same raw result per seat: nothing is left against the field."""
    same = [[list(by_table[0]) for _t in by_table] for by_table in grid]
    figures = session_luck(rows_of(same), resamples=50)
    assert figures.field_variance == 0 and figures.sigma == 0
    if figures.raw_variance > 0:
        assert figures.ratio == 0 and figures.luck_removed == 1
        assert figures.removed_interval == (1, 1)


@settings(max_examples=40, deadline=None)
@given(grids(), st.data())
def test_a_constant_per_set_and_seat_leaves_the_field_scores_unchanged(grid, data):
    """Pure luck of the tiles (the same points to whoever holds a seat of a set) changes the raw
    scores, never the scores against the field."""
    luck_of = {(s, i): data.draw(changes) for s in range(len(grid)) for i in range(len(SEATS))}
    lucky = [[[x + luck_of[(s, i)] for i, x in enumerate(by_seat)] for by_seat in by_table] for s, by_table in enumerate(grid)]
    before = [pytest.approx(against) for _row, against in field_scores(rows_of(grid))]
    assert [against for _row, against in field_scores(rows_of(lucky))] == before
    assert session_luck(rows_of(lucky), resamples=20).field_variance == pytest.approx(session_luck(rows_of(grid), resamples=20).field_variance)


@settings(max_examples=30, deadline=None)
@given(grids(), st.integers(min_value=0, max_value=10**6))
def test_the_same_seed_gives_the_same_figures_and_the_interval_is_ordered(grid, seed):
    one = session_luck(rows_of(grid), resamples=100, seed=seed)
    assert session_luck(rows_of(grid), resamples=100, seed=seed) == one
    if one.ratio_interval is not None:
        low, high = one.ratio_interval
        assert 0 <= low <= high
        assert one.removed_interval == pytest.approx((1 - high, 1 - low))


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=0, max_value=10**6))
def test_the_interval_contains_the_estimate_on_sets_dealt_alike(seed):
    """Sets dealt by one generator (tile luck per set and seat, a player's skill, noise), enough of
    them: the 95 % interval holds the point estimate. (A percentile interval is not forced to on
    very few or very uneven sets: docs/scoring.md, "Luck measured".)"""
    rng = random.Random(seed)
    tables, sets = 4, 16
    skill = [rng.gauss(0, 5) for _p in range(tables * 4)]
    grid = []
    for s in range(sets):
        tile_luck = [rng.gauss(0, 30) for _seat in SEATS]
        grid.append([[round(tile_luck[i] + skill[(t + s) % tables * 4 + i] + rng.gauss(0, 15)) for i in range(4)]
                     for t in range(tables)])
    figures = session_luck(rows_of(grid), resamples=400, seed=seed)
    low, high = figures.ratio_interval
    assert low <= figures.ratio <= high
    assert figures.removed_interval[0] <= figures.luck_removed <= figures.removed_interval[1]
    assert 0.5 < figures.luck_removed < 1  # most of it was tile luck


def test_results_without_tile_luck_give_a_ratio_near_one():
    """No luck of the tiles: the comparison removes nothing (the datum's degree of freedom is
    counted, so the ratio is not (k - 1) / k)."""
    rng = random.Random(7)
    grid = [[[rng.gauss(0, 20) for _seat in SEATS] for _t in range(4)] for _s in range(400)]
    figures = session_luck(rows_of(grid), resamples=200)
    assert figures.ratio == pytest.approx(1, abs=0.08)
    assert figures.ratio_interval[0] < 1 < figures.ratio_interval[1]


def test_sets_to_separate():
    """n = 2 (1.96 σ / d)²: σ 20, d 4 points → 2 · 9.8² ≈ 192 sets."""
    assert sets_to_separate(20, 4) == pytest.approx(2 * (1.959964 * 20 / 4) ** 2)
    assert sets_to_separate(20, 0) is None
    assert sets_to_separate(0, 3) == 0


def test_a_worked_session():
    """Two sets at two tables; set 1 pure tile luck (East wins 30 at both tables), set 2 the tables
    differ by 10 on East and West."""
    rows = [SeatScore(1, 1, t, seat, p, c) for t, players in ((1, "abcd"), (2, "efgh"))
            for seat, p, c in zip(SEATS, players, (30, -10, -10, -10))]
    rows += [SeatScore(1, 2, 1, seat, p, c) for seat, p, c in zip(SEATS, "efgh", (20, -10, 0, -10))]
    rows += [SeatScore(1, 2, 2, seat, p, c) for seat, p, c in zip(SEATS, "abcd", (10, -10, 10, -10))]
    figures = session_luck(rows, resamples=100)
    assert (figures.sets, figures.tables, figures.players, figures.scores) == (2, 2, 8, 16)
    # against the field: set 1 all 0; set 2 E ±5, W ∓5, S and N 0 → 4 · 25 = 100 over 16 - 8 = 8
    assert figures.field_variance == pytest.approx(12.5)
    raw = [30, -10, -10, -10] * 2 + [20, -10, 0, -10, 10, -10, 10, -10]
    mean = sum(raw) / 16
    assert figures.raw_variance == pytest.approx(sum((x - mean) ** 2 for x in raw) / 15)
    assert figures.sigma == pytest.approx(12.5 ** 0.5)
    # players' means per set: a, c -2.5 / +2.5 ...: e 2.5, g -2.5, a -2.5, c 2.5, the rest 0
    assert figures.spread == 0 and figures.sets_to_separate is None


def test_a_set_at_one_table_is_left_out_and_sessions_come_in_order():
    rows = [SeatScore(2, 1, t, seat, (t, seat), c) for t in (1, 2) for seat, c in zip(SEATS, (t * 8, -8, 4, -4))]
    rows += [SeatScore(2, 2, 1, seat, (1, seat), c) for seat, c in zip(SEATS, (99, -33, -33, -33))]
    rows += [SeatScore(1, 1, t, seat, (t, seat), c) for t in (1, 2) for seat, c in zip(SEATS, (t, -t, 3, -3))]
    rows += [SeatScore(3, 1, 1, seat, (1, seat), 5) for seat in SEATS]  # one table: no field at all
    figures = luck_by_session(rows, resamples=10)
    assert [f.session for f in figures] == [1, 2]
    assert figures[1].sets == 1 and figures[1].scores == 8


@pytest.mark.parametrize(("call", "field"), [
    (lambda: session_luck([]), "rows"),
    (lambda: luck_by_session([]), "rows"),
    (lambda: session_luck([SeatScore(1, 1, 1, "E", "a", 3), SeatScore(2, 1, 1, "E", "b", 3)]), "rows"),
    (lambda: session_luck([SeatScore(4, 1, 1, s, s, 3) for s in SEATS]), "session"),
])
def test_errors_name_their_field(call, field):
    with pytest.raises(LuckError) as caught:
        call()
    assert caught.value.field == field
    assert str(caught.value).startswith(f"{field}: ")


def test_the_defaults_are_the_documented_ones():
    assert (luck.RESAMPLES, luck.CONFIDENCE) == (2000, 0.95)


# --- the event's page ---------------------------------------------------------------------------

@pytest.mark.django_db
def test_the_page_reads_released_sets_only(half_played, client):
    """Session 2 is played by group 1 only (scored, not released): changing one of its results
    changes nothing on the page (the same bytes, built afresh). The page takes no viewer: the
    director reads the same figures."""
    from django.urls import reverse

    from scoring.models import HandResult
    from tournament import cache

    url = reverse("luck", args=[half_played.slug])
    before = client.get(url)
    assert before.status_code == 200
    assert b'id="session-1"' in before.content and b'id="session-2"' not in before.content
    result = HandResult.objects.filter(event=half_played, session_number=2).first()
    result.changes = {seat: (300 if seat == "E" else -100) for seat in result.changes}
    result.save(update_fields=["changes"])
    cache.cache.clear()  # built afresh: the page's bytes come from released sets alone
    assert client.get(url).content == before.content


@pytest.mark.django_db
def test_the_page_figures_are_the_cores(half_played, client):
    from django.urls import reverse

    from scoring.reports.luck import event_luck, luck_rows

    rows = luck_rows(half_played)
    assert rows and {r.session for r in rows} == {1}
    (figures,) = event_luck(half_played)
    assert figures == session_luck(rows)
    assert 0 <= figures.raw_variance and figures.sets == 4
    body = client.get(reverse("luck", args=[half_played.slug])).content.decode()
    assert "Luck measured" in body and f"{figures.sigma:.1f}" in body
