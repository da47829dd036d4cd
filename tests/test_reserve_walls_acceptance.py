"""Acceptance of reserve walls (docs/walls.md): the derivation against a re-implementation of the
documented rule (checked on docs/walls.md's own vectors first), never the set it replaces, the
verifier catching one changed reserve tile in an export, the public export holding no reserve of
an unreleased set, and a reserve wall moving its tables to its version of the set."""

from __future__ import annotations

import json
import random
import re

import pytest
from acceptance import (
    ROOT,
    SET1,
    comparisons,
    current_rows,
    enter,
    new_event,
    random_changes,
    team_scores,
)
from factories import (
    play_up_to,
    team_roster,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import (
    derived_wall,
    laid_out,
    reserve_wall,
    versioned_set_points,
    wall_effective_key,
    wall_fingerprint,
)

from scoring.models import SetScore
from tournament.exchange import export_event, public_export
from tournament.models import Table

pytestmark = pytest.mark.django_db


# === reserve walls ===================================================================================================

DOC = (ROOT / "docs" / "walls.md").read_text(encoding="utf-8")
MCR_JSON = json.loads(re.search(r"```json\n(.*?)\n\s*```", DOC, re.DOTALL).group(1))
MCR_TILES, MCR_PILES = MCR_JSON["tiles"], MCR_JSON["piles"]
SMALL_TILES, SMALL_PILES = [["1m", 2], ["2m", 1], ["3m", 1]], [["E-hand", 2], ["S-hand", 2]]


def _vectors():
    out = []
    for block in re.findall(r"```vector\n(.*?)```", DOC, re.DOTALL):
        fields = {}
        for line in block.strip().splitlines():
            key, _, value = line.partition(":")
            fields[key.strip()] = value.strip()
        out.append(fields)
    return out


def test_the_wall_oracle_reproduces_the_documented_vectors():
    """The re-implementation reserve walls are checked with must first reproduce docs/walls.md."""
    checked = 0
    for v in _vectors():
        if v.get("reserve") or "reserve" in v or "rule set" in v and v["rule set"] != "mcr-duplicate":
            continue
        public = None if v["public value"] == "(none)" else v["public value"]
        if "tiles" in v:
            tiles, piles = json.loads(v["tiles"]), json.loads(v["piles"])
        else:
            tiles, piles = MCR_TILES, MCR_PILES
        assert wall_effective_key(v["seed"], public).hex() == v["effective key"]
        assert wall_fingerprint(tiles, piles) == v["fingerprint"]
        wall = derived_wall(v["seed"], v["event uid"], int(v["session"]), int(v["set"]), tiles, piles, public)
        if "wall" in v:
            assert " ".join(wall) == v["wall"]
        laid = laid_out(wall, piles)
        for name, tiles_text in v.items():
            if name.endswith(" 1-5"):
                assert " ".join(laid[name.removesuffix(" 1-5")][:5]) == tiles_text
        checked += 1
    assert checked >= 4


RESERVE_CASES = [
    ("00" * 32, "demo", 1, 1, 1, None, "small"),
    ("00" * 32, "demo", 1, 1, 2, None, "small"),
    ("0123456789abcdef" * 4, "demo", 2, 5, 1, "DJIA close 2025-01-31: 44544.66", "mcr"),
    ("0123456789abcdef" * 4, "sanya-2015", 1, 16, 3, None, "mcr"),
]


def _derive_reserve(seed, uid, session, set_no, reserve, tiles, piles, public):
    """The product's reserve wall (walls.derivation.derive_reserve), called by keyword."""
    from walls.derivation import derive_reserve

    return list(derive_reserve(seed_hex=seed, event_uid=uid, session=session, set_no=set_no, reserve=reserve, tiles=tiles,
                               piles=piles, public_value=public))


@pytest.mark.parametrize("case", RESERVE_CASES, ids=lambda c: f"{c[1]}-{c[2]}-{c[3]}-R{c[4]}-{c[6]}")
def test_reserve_derivation_follows_the_documented_rule(case):
    from walls.derivation import reserve_wall_key

    seed, uid, session, set_no, reserve, public, kind = case
    tiles, piles = (SMALL_TILES, SMALL_PILES) if kind == "small" else (MCR_TILES, MCR_PILES)
    key = wall_effective_key(seed, public)
    fingerprint = wall_fingerprint(tiles, piles)
    message = f"dmj-reserve-v1|{uid}|{session}|{set_no}|{reserve}|0|{fingerprint}".encode()
    import hashlib
    import hmac

    assert reserve_wall_key(key, uid, session, set_no, reserve, 0, fingerprint) == hmac.new(key, message, hashlib.sha256).digest()
    want = reserve_wall(seed, uid, session, set_no, reserve, tiles, piles, public)
    assert _derive_reserve(seed, uid, session, set_no, reserve, tiles, piles, public) == want
    assert want != derived_wall(seed, uid, session, set_no, tiles, piles, public)


def test_docs_reserve_vectors_agree_with_the_independent_rule():
    """docs/walls.md's "Reserve walls" vectors (```vector blocks naming a reserve) give the keys,
    the rejected attempts and the walls the independent re-implementation derives."""
    import hashlib
    import hmac

    from oracles import keyed_shuffle

    vectors = [v for v in _vectors() if "reserve" in v]
    assert len(vectors) >= 3, "docs/walls.md needs reserve wall vectors"
    assert any("rejected" in v for v in vectors), "a vector should show a rejected attempt"
    for v in vectors:
        public = None if v["public value"] == "(none)" else v["public value"]
        if "tiles" in v:
            tiles, piles = json.loads(v["tiles"]), json.loads(v["piles"])
        else:
            assert v.get("rule set", "mcr-duplicate") == "mcr-duplicate"
            tiles, piles = MCR_TILES, MCR_PILES
        session, set_no, reserve = int(v["session"]), int(v["set"]), int(v["reserve"])
        set_wall = derived_wall(v["seed"], v["event uid"], session, set_no, tiles, piles, public)
        if "set wall" in v:
            assert " ".join(set_wall) == v["set wall"]
        key = wall_effective_key(v["seed"], public)
        fingerprint = wall_fingerprint(tiles, piles)

        def attempt_key(a, v=v, session=session, set_no=set_no, reserve=reserve, key=key, fingerprint=fingerprint):
            message = f"dmj-reserve-v1|{v['event uid']}|{session}|{set_no}|{reserve}|{a}|{fingerprint}"
            return hmac.new(key, message.encode(), hashlib.sha256).digest()

        assert attempt_key(int(v["attempt"])).hex() == v["reserve key"]
        earlier = [reserve_wall(v["seed"], v["event uid"], session, set_no, r, tiles, piles, public) for r in range(1, reserve)]
        multiset = [c for c, n in tiles for _ in range(n)]
        for a in v.get("rejected", "").split():
            assert keyed_shuffle(multiset, attempt_key(int(a))) in [set_wall, *earlier], f"attempt {a} was rejected"
        wall = reserve_wall(v["seed"], v["event uid"], session, set_no, reserve, tiles, piles, public)
        assert wall == keyed_shuffle(multiset, attempt_key(int(v["attempt"])))
        if "wall" in v:
            assert " ".join(wall) == v["wall"]
        laid = laid_out(wall, piles)
        for name, text in v.items():
            if name.endswith(" 1-5") or name in laid:
                assert " ".join(laid[name.removesuffix(" 1-5")][:5 if name.endswith(" 1-5") else None]) == text, name


def test_a_reserve_needing_more_arrangements_than_exist_is_refused():
    """Two 1m and a 2m lay out 3 ways: the set's wall, R1 and R2; R3 cannot differ (docs/walls.md)."""
    from walls.derivation import DerivationError

    tiles, piles = [["1m", 2], ["2m", 1]], [["E-hand", 1], ["S-hand", 2]]
    walls = [derived_wall("00" * 32, "demo", 1, 1, tiles, piles)]
    walls += [_derive_reserve("00" * 32, "demo", 1, 1, r, tiles, piles, None) for r in (1, 2)]
    assert sorted(map(tuple, walls)) == [("1m", "1m", "2m"), ("1m", "2m", "1m"), ("2m", "1m", "1m")]
    with pytest.raises(DerivationError):
        _derive_reserve("00" * 32, "demo", 1, 1, 3, tiles, piles, None)


@settings(max_examples=25, deadline=None)
@given(seed=st.binary(min_size=32, max_size=32), set_no=st.integers(1, 16), reserves=st.integers(1, 2))
def test_property_reserve_wall_never_equals_the_set_it_replaces(seed, set_no, reserves):
    """A 4-tile multiset has only 12 orders, so a first attempt often repeats the set's wall:
    the reserve must still differ from the set's wall and from every earlier reserve."""
    seed_hex = seed.hex()
    original = derived_wall(seed_hex, "tiny", 1, set_no, SMALL_TILES, SMALL_PILES)
    walls = [original]
    for reserve in range(1, reserves + 1):
        wall = _derive_reserve(seed_hex, "tiny", 1, set_no, reserve, SMALL_TILES, SMALL_PILES, None)
        assert wall not in walls
        assert wall == reserve_wall(seed_hex, "tiny", 1, set_no, reserve, SMALL_TILES, SMALL_PILES)
        walls.append(wall)


def test_no_reserve_wall_exists_for_a_single_tile_kind():
    from walls.derivation import DerivationError

    with pytest.raises(DerivationError):
        _derive_reserve("00" * 32, "demo", 1, 1, 1, [["1m", 4]], [["E-hand", 2], ["S-hand", 2]], None)


@pytest.fixture
def reserve_export(director):
    """An event with a reserve wall drawn for session 1, set 3 (tournament.services.draw_reserve),
    exported with its seed."""
    from tournament.services import draw_reserve

    event = new_event(team_roster(4), sessions=1, director=director, slug="reserve")
    reserve = draw_reserve(event, 1, 3, reason="tiles dropped and seen", actor="director")
    assert reserve.label == "R1"
    return event, export_event(event, include_secret=True)


def test_an_exported_reserve_wall_is_the_documented_derivation(reserve_export):
    _, data = reserve_export
    (entry,) = data["walls"]["reserves"]
    assert (entry["session"], entry["set"], entry["reserve"]) == (1, 3, 1)
    tiles = [list(t) for t in data["ruleset"]["tiles"]]
    piles = [[p["name"], p["size"]] for p in data["ruleset"]["piles"]]
    want = reserve_wall(data["walls"]["seed"], data["event"]["uid"], 1, 3, 1, tiles, piles, data["walls"]["public_value"])
    assert entry["piles"] == laid_out(want, piles)
    original = next(w for w in data["walls"]["sets"] if (w["session"], w["set"]) == (1, 3))
    assert entry["piles"] != original["piles"]


def test_the_verifier_catches_one_changed_reserve_tile(reserve_export):
    from walls.verify import verify_export

    _, data = reserve_export
    seed = data["walls"]["seed"]
    untouched = verify_export(data, seed)
    assert untouched.ok and not untouched.mismatches
    spoiled = json.loads(json.dumps(data))
    pile = next(iter(spoiled["walls"]["reserves"][0]["piles"].values()))
    was = pile[4]
    pile[4] = next(t for t in ("1m", "2m", "3z") if t != was)
    report = verify_export(spoiled, seed)
    assert not report.ok
    assert [(m.session, m.set_no, m.reserve, m.expected, m.found) for m in report.mismatches] == [(1, 3, 1, was, pile[4])]


def test_the_public_export_holds_no_reserve_of_an_unreleased_set(reserve_export):
    event, _ = reserve_export
    data = public_export(event)
    assert data["walls"]["reserves"] == []
    assert data["walls"]["sets"] == []


def test_a_reserve_wall_moves_its_tables_to_its_version(director):
    """Tables given a reserve wall play version R1 (scoring.actions.rescoring.play_versions); a fouled mark
    wins over the reserve wall."""
    from scoring.actions.fouled import mark_fouled
    from scoring.actions.rescoring import play_versions
    from tournament.services import draw_reserve

    event = new_event(team_roster(4), sessions=1, director=director, slug="reserve-tables")
    tables = list(Table.objects.filter(group__session__event=event).order_by("number"))
    draw_reserve(event, 1, 1, reason="set lost", actor="director", tables=tables[:2])
    versions = play_versions(event, 1, 1)
    assert {t.number: versions.get(t.pk, "") for t in tables} == {1: "R1", 2: "R1", 3: "", 4: ""}
    rng = random.Random(6)
    play_up_to(tables, 1, lambda table, s: enter(table, s, SET1[table.number] if s == 1 else random_changes(rng, "ESWN")))
    mark_fouled(event, tables[0], 1, reason="tiles exposed", actor="director")
    versions = play_versions(event, 1, 1)
    assert {t.number: versions.get(t.pk, "") for t in tables} == {1: "F1", 2: "R1", 3: "", 4: ""}
    # three versions: "" at tables 3-4 is compared on its own; F1 and R1 (one table each) are short,
    # so every team (one member at each table) is adjusted, with 0 MP extra
    seating, changes = comparisons(event)[(1, 1, 1)]
    oracle = versioned_set_points(seating, changes, {1: "F1", 2: "R1"}, current_rows(event), by_team=True, min_tables=2,
                                  adjusted_points=0)
    stored = team_scores(event)
    assert {n: (s.points, s.adjusted, s.version) for n, s in stored.items()} == {
        n: (p, adj, v) for n, (p, _, adj, v) in oracle.items()}


def test_reserve_tables_changed_after_play_rescore_the_set(director):
    """A reserve wall drawn for a set, its tables chosen later (tournament.services.set_reserve_tables):
    the set is scored again with those tables as version R1, and the change is audited."""
    from tournament.models import AuditEntry
    from tournament.services import draw_reserve, set_reserve_tables

    event = new_event(team_roster(4), sessions=1, director=director, slug="reserve-later")
    tables = list(Table.objects.filter(group__session__event=event).order_by("number"))
    reserve = draw_reserve(event, 1, 1, reason="set lost", actor="director")
    rng = random.Random(7)
    play_up_to(tables, 1, lambda table, s: enter(table, s, SET1[table.number] if s == 1 else random_changes(rng, "ESWN")))
    assert {s.version for s in SetScore.objects.filter(event=event, set_no=1)} == {""}
    set_reserve_tables(reserve, tables[2:], actor="director")
    # "" at tables 1-2, R1 at tables 3-4: the hand computation of the two-version case above
    # (where tables 3-4 were F1) gives the same points: A 9, B 4, C -8, D -5.
    assert {n: (s.points, s.adjusted, s.version) for n, s in team_scores(event).items()} == {
        "Team 1": (9, False, "*"), "Team 2": (4, False, "*"), "Team 3": (-8, False, "*"), "Team 4": (-5, False, "*")}
    assert AuditEntry.objects.filter(event=event, action="reserve-tables").exists()
    assert AuditEntry.objects.filter(event=event, action="reserve-drawn").exists()


def test_a_reserve_wall_needs_a_reason(director):
    from tournament.errors import FieldError
    from tournament.services import draw_reserve

    event = new_event(team_roster(4), sessions=1, director=director, slug="reserve-reason")
    with pytest.raises(FieldError) as err:
        draw_reserve(event, 1, 2, reason=" ", actor="director")
    assert err.value.field == "reason"
    assert not event.reserve_walls.exists()
