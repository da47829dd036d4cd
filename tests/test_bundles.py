"""Results bundles, the pure part (:mod:`scoring.bundles`): signed rows, refused alterations, and a
merge that is a join, so that any order of merges gives the same results."""

from __future__ import annotations


import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.bundles import BundleError, BundleRow, joined, make_bundle, merge, read_bundle

KEY, OTHER_KEY, UID = "ab" * 32, "cd" * 32, "e" * 32

changes = st.lists(st.integers(-500, 500), min_size=3, max_size=3).map(
    lambda v: {"E": v[0], "S": v[1], "W": v[2], "N": -sum(v)})
rows = st.builds(BundleRow, st.integers(1, 2), st.integers(1, 6), st.integers(1, 4), st.integers(1, 3), changes,
                 st.sampled_from([None, {"kind": "ron"}, {"kind": "tsumo", "fan": 8}]))


def _unique(items: list[BundleRow]) -> list[BundleRow]:
    """One row per slot and revision (what an honest laptop sends)."""
    return list({(r.slot, r.revision): r for r in items}.values())


@given(st.lists(rows, max_size=30).map(_unique))
def test_a_bundle_reads_back_as_signed(items):
    bundle = make_bundle(KEY, UID, "paris", items)
    assert sorted(read_bundle(bundle, key=KEY, event_uid=UID, venue="paris"), key=lambda r: r.slot) == sorted(
        items, key=lambda r: r.slot)


def test_a_changed_row_or_a_reordered_bundle_is_refused():
    items = [BundleRow(1, t, s, 1, {"E": 30, "S": -10, "W": -10, "N": -10}) for t in (5, 6) for s in (1, 2)]
    bundle = make_bundle(KEY, UID, "paris", items)
    bundle["results"][2]["changes"]["E"] = 38
    with pytest.raises(BundleError) as caught:
        read_bundle(bundle, key=KEY, event_uid=UID, venue="paris")
    assert "paris" in caught.value.message and "table 6" in caught.value.message and "set 1" in caught.value.message
    bundle = make_bundle(KEY, UID, "paris", items)
    bundle["results"].pop()  # a row removed: each row still signed, the bundle not
    with pytest.raises(BundleError, match="signed together"):
        read_bundle(bundle, key=KEY, event_uid=UID, venue="paris")
    for key, uid, venue in ((OTHER_KEY, UID, "paris"), (KEY, "f" * 32, "paris"), (KEY, UID, "lyon")):
        with pytest.raises(BundleError):
            read_bundle(make_bundle(KEY, UID, "paris", items), key=key, event_uid=uid, venue=venue)


@settings(max_examples=100)
@given(st.lists(st.lists(rows, max_size=12).map(_unique), min_size=1, max_size=5), st.randoms(use_true_random=False))
def test_any_order_of_merges_gives_the_same_results(bundles, rng):
    """A join: per slot the highest revision; the same revision the same result (rows of a slot and
    revision made equal first, as an honest laptop's would be)."""
    canonical: dict = {}
    bundles = [[canonical.setdefault((r.slot, r.revision), r) for r in b] for b in bundles]
    expected = joined(bundles)
    shuffled = bundles[:]
    rng.shuffle(shuffled)
    assert joined(shuffled) == expected
    assert joined(shuffled + shuffled) == expected  # every bundle sent twice
    for slot, row in expected.items():
        assert row.revision == max(r.revision for b in bundles for r in b if r.slot == slot)


def test_the_same_revision_with_another_result_is_a_conflict_naming_it():
    first = BundleRow(1, 5, 3, 1, {"E": 30, "S": -10, "W": -10, "N": -10})
    other = BundleRow(1, 5, 3, 1, {"E": -30, "S": 10, "W": 10, "N": 10})
    with pytest.raises(BundleError) as caught:
        merge({first.slot: first}, [other], "paris")
    assert "table 5" in caught.value.message and "set 3" in caught.value.message
    plan = merge({first.slot: first}, [first, BundleRow(1, 5, 3, 2, other.changes)], "paris")
    assert [r.revision for r in plan.newer] == [2] and plan.same == 0


def test_a_malformed_bundle_names_the_field():
    for bad in (None, {"format": "x"}, {"format": "dmj-venue-results/1", "event": UID, "venue": "paris", "results": 3}):
        with pytest.raises(BundleError):
            read_bundle(bad, key=KEY, event_uid=UID, venue="paris")
    bundle = make_bundle(KEY, UID, "paris", [BundleRow(1, 5, 3, 1, {"E": 0, "S": 0, "W": 0, "N": 0})])
    bundle["results"][0]["set"] = 0
    with pytest.raises(BundleError, match="set must be a whole number"):
        read_bundle(bundle, key=KEY, event_uid=UID, venue="paris")
