"""Reserve walls (docs/walls.md, "Reserve walls"): a set spoiled before play gets a reserve wall, derived from the same
master seed by the documented extension of docs/walls.md ("Reserve walls"), never equal to the set
it replaces, re-derived by the standalone verifier, printed on demand with its own set code, secret
exactly as its set is, exported and imported.

The doc's reserve vectors are checked here against an independent reimplementation written from
the doc's text with hmac/hashlib alone (tests/test_derivation.py checks them against
walls/derivation.py).
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import itertools
import json
import random
import re
import struct
import subprocess
import sys
from math import factorial
from pathlib import Path

import pytest
from django.urls import reverse
from factories import (
    client_for,
    first_set,
    demo_roster,
    login_as_table,
    play_slots,
    prepared_event,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from pdfcheck import decode_qr, page_count, page_text, render_pages

from scoring.models import SetRelease, SetScore
from tournament.exchange import export_event, import_event, public_export
from tournament.models import AuditEntry, Event, EventRole, Table
from tournament.services import draw_reserve, prepare_session, set_reserve_tables
from walls import derivation as d
from walls.models import ReserveWall
from walls.print_jobs import request_print
from walls.print_kinds.base import PrintError
from walls.rulesets import PRESETS, get_ruleset
from walls.services import WallError
from walls.setcode import SetCodeError, SetId, parse_payload
from walls.verify import verify_export

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "walls.md").read_text(encoding="utf-8")


# --- the doc's vectors, by an independent reimplementation ---------------------------------------

def _reserve_vectors() -> list[dict[str, str]]:
    out = []
    for block in re.findall(r"```vector\n(.*?)```", DOC, re.DOTALL):
        fields = {k.strip(): v.strip() for k, _, v in (line.partition(":") for line in block.strip().splitlines())}
        if "reserve" in fields:
            out.append(fields)
    return out


def _indep_fingerprint(tiles, piles) -> str:
    text = json.dumps({"piles": [list(p) for p in piles], "tiles": [list(t) for t in tiles]}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _indep_shuffle(items: list, key: bytes) -> list:
    """docs/walls.md steps 6-8: SHA-256(key || i) blocks read as big-endian uint32, rejection
    sampling, Fisher-Yates from the end."""
    numbers = (x for i in itertools.count() for x in struct.unpack(">8I", hashlib.sha256(key + i.to_bytes(8, "big")).digest()))
    items = list(items)
    for i in range(len(items) - 1, 0, -1):
        limit = 2**32 - 2**32 % (i + 1)
        x = next(numbers)
        while x >= limit:
            x = next(numbers)
        j = x % (i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def _indep_reserves(seed: str, uid: str, session: int, set_no: int, count: int, tiles, piles) -> list[tuple[int, list, bytes]]:
    """docs/walls.md, "Reserve walls", steps 1-3, for an event without a public value:
    ``[(attempt, wall, reserve key)]`` of reserves 1..count."""
    key, fp = bytes.fromhex(seed), _indep_fingerprint(tiles, piles)
    multiset = [code for code, n in tiles for _ in range(n)]

    def mac(text: str) -> bytes:
        return hmac.new(key, text.encode(), hashlib.sha256).digest()

    taken = [_indep_shuffle(multiset, mac(f"dmj-wall-v1|{uid}|{session}|{set_no}|{fp}"))]
    out = []
    for r in range(1, count + 1):
        for attempt in itertools.count():
            rkey = mac(f"dmj-reserve-v1|{uid}|{session}|{set_no}|{r}|{attempt}|{fp}")
            wall = _indep_shuffle(multiset, rkey)
            if wall not in taken:
                break
        taken.append(wall)
        out.append((attempt, wall, rkey))
    return out


VECTORS = _reserve_vectors()


def test_the_doc_has_the_reserve_vectors_the_issue_asks_for():
    assert {(v.get("rule set", v.get("tiles")), v["set"], v["reserve"]) for v in VECTORS} >= {
        ('[["1m",1],["2m",1],["3m",1],["4m",1],["5m",1]]', "1", "1"),
        ('[["1m",1],["2m",1],["3m",1],["4m",1],["5m",1]]', "1", "2"),
        ("mcr-duplicate", "1", "1"),
    }


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: f"{v.get('rule set') or v['tiles']}-R{v['reserve']}")
def test_a_doc_reserve_vector_is_what_the_doc_s_text_gives(vector):
    assert vector["public value"] == "(none)"
    if "rule set" in vector:
        ruleset = get_ruleset(vector["rule set"])
        tiles, piles = [list(t) for t in ruleset.tiles], [[p.name, p.size] for p in ruleset.piles]
    else:
        tiles, piles = json.loads(vector["tiles"]), json.loads(vector["piles"])
    assert _indep_fingerprint(tiles, piles) == vector["fingerprint"]
    reserves = _indep_reserves(vector["seed"], vector["event uid"], int(vector["session"]), int(vector["set"]),
                               int(vector["reserve"]), tiles, piles)
    attempt, wall, rkey = reserves[-1]
    assert attempt == int(vector["attempt"])
    assert rkey.hex() == vector["reserve key"]
    if "block 0" in vector:
        assert hashlib.sha256(rkey + bytes(8)).hexdigest() == vector["block 0"]
    if "wall" in vector:
        assert " ".join(wall) == vector["wall"]
    start = 0
    for name, size in piles:
        shown = wall[start:start + size]
        start += size
        if name in vector:
            assert " ".join(shown) == vector[name]
        else:
            assert " ".join(shown[:5]) == vector[f"{name} 1-5"]
    # and the product's code agrees
    assert d.derive_reserve(vector["seed"], vector["event uid"], int(vector["session"]), int(vector["set"]),
                            int(vector["reserve"]), tiles, piles) == wall


# --- properties -------------------------------------------------------------------------------------

def _arrangements(multiset) -> int:
    count = factorial(len(multiset))
    for code in set(multiset):
        count //= factorial(multiset.count(code))
    return count


small_tile_sets = st.lists(st.tuples(st.sampled_from(["1m", "2m", "3m", "5z"]), st.integers(1, 3)),
                           min_size=1, max_size=3, unique_by=lambda t: t[0]).filter(
    lambda ts: _arrangements([c for c, n in ts for _ in range(n)]) >= 2)


@settings(max_examples=120, deadline=None)
@given(small_tile_sets, st.binary(min_size=32, max_size=32).map(bytes.hex), st.integers(1, 9), st.integers(1, 20), st.data())
def test_a_reserve_wall_never_equals_its_set_nor_an_earlier_reserve(tiles, seed, session, set_no, data):
    multiset = [c for c, n in tiles for _ in range(n)]
    piles = [("E-hand", 1), ("S-hand", len(multiset) - 1)]
    count = data.draw(st.integers(1, min(4, _arrangements(multiset) - 1)))
    original = d.derive_wall(seed, "prop", session, set_no, tiles, piles)
    reserves = [d.derive_reserve(seed, "prop", session, set_no, r, tiles, piles) for r in range(1, count + 1)]
    walls = [original, *reserves]
    assert len({tuple(w) for w in walls}) == len(walls)
    assert all(sorted(w) == sorted(multiset) for w in reserves)


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(sorted(PRESETS)), st.binary(min_size=32, max_size=32).map(bytes.hex), st.integers(1, 40))
def test_a_preset_s_reserve_walls_are_new_walls_of_the_same_tiles(code, seed, set_no):
    ruleset = PRESETS[code]
    original = d.derive_wall(seed, "prop", 1, set_no, ruleset.tiles, ruleset.piles)
    r1, r2 = (d.derive_reserve(seed, "prop", 1, set_no, r, ruleset.tiles, ruleset.piles) for r in (1, 2))
    assert len({tuple(original), tuple(r1), tuple(r2)}) == 3
    assert sorted(r1) == sorted(r2) == sorted(ruleset.multiset())


def test_a_set_of_one_tile_kind_has_no_reserve_wall():
    with pytest.raises(d.DerivationError, match="reserve 1 cannot differ"):
        d.derive_reserve("00" * 32, "demo", 1, 1, 1, [["1m", 4]], [["E-hand", 4]])
    # two 1m and a 2m: three arrangements, so R1 and R2 exist and R3 does not
    assert d.derive_reserve("00" * 32, "demo", 1, 1, 2, [["1m", 2], ["2m", 1]], [["E-hand", 3]])
    with pytest.raises(d.DerivationError, match="only 3 different ways"):
        d.derive_reserve("00" * 32, "demo", 1, 1, 3, [["1m", 2], ["2m", 1]], [["E-hand", 3]])


# --- the verifier -----------------------------------------------------------------------------------

SEED = "5eed" * 16


def _export(reserves=((1, 3, 1), (1, 3, 2), (2, 1, 1))) -> dict:
    ruleset = get_ruleset("mcr-duplicate")
    piles = ruleset.piles
    return {
        "format": "dmj-event/1",
        "event": {"uid": "verify-me"},
        "ruleset": ruleset.to_dict(),
        "walls": {
            "commitment": d.commitment(SEED), "public_value": None, "seed": None,
            "sets": [{"session": 1, "set": n, "piles": d.lay_out(d.derive_wall(SEED, "verify-me", 1, n, ruleset.tiles, piles), piles)}
                     for n in (1, 2, 3)],
            "reserves": [
                {"session": s, "set": n, "reserve": r, "reason": "dropped", "drawn_by": "d", "tables": [1],
                 "piles": d.lay_out(_indep_reserves(SEED, "verify-me", s, n, r, ruleset.tiles, [(p.name, p.size) for p in piles])[-1][1], piles)}
                for s, n, r in reserves
            ],
        },
    }


def test_the_verifier_passes_an_untouched_export_with_reserve_walls():
    report = verify_export(_export(), SEED)
    assert report.ok and report.checked == 3 and report.reserves_checked == 3 and report.mismatches == []


def test_the_verifier_names_a_changed_reserve_tile():
    export = _export()
    pile = export["walls"]["reserves"][1]["piles"]["S-draw"]
    original = pile[6]
    pile[6] = "1m" if original != "1m" else "2m"
    report = verify_export(export, SEED)
    assert not report.ok
    assert [(m.session, m.set_no, m.reserve, m.pile, m.slot, m.expected, m.found) for m in report.mismatches] == [
        (1, 3, 2, "S-draw", "D7", original, pile[6])]
    assert "set 3 reserve R2 S-draw D7" in str(report.mismatches[0])


def test_the_verifier_names_every_slot_of_a_missing_reserve_pile():
    export = _export()
    del export["walls"]["reserves"][2]["piles"]["N-hand"]
    report = verify_export(export, SEED)
    assert {(m.reserve, m.pile, m.found) for m in report.mismatches} == {(1, "N-hand", None)}
    assert [m.slot for m in report.mismatches] == [f"H{n}" for n in range(1, 14)]


def test_the_verifier_notices_a_reserve_swapped_for_another():
    export = _export()
    first, second = export["walls"]["reserves"][0], export["walls"]["reserves"][1]
    first["piles"], second["piles"] = second["piles"], first["piles"]
    assert not verify_export(export, SEED).ok


def test_an_export_without_reserves_still_verifies():
    export = _export()
    del export["walls"]["reserves"]
    report = verify_export(export, SEED)
    assert report.ok and report.reserves_checked == 0


def test_the_standalone_verifier_checks_reserve_walls_without_third_party_code(tmp_path):
    export = _export()
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export), encoding="utf-8")
    run = [sys.executable, "-S", "-m", "walls.verify", str(path), "--seed", SEED]
    ok = subprocess.run(run, cwd=ROOT, capture_output=True, text=True, check=False)
    assert ok.returncode == 0 and "3 wall sets and 3 reserve walls checked, 0 tiles differ: OK" in ok.stdout
    export["walls"]["reserves"][0]["piles"]["E-hand"][0] = "9z"
    path.write_text(json.dumps(export), encoding="utf-8")
    bad = subprocess.run(run, cwd=ROOT, capture_output=True, text=True, check=False)
    assert bad.returncode == 1 and "MISMATCH session 1 set 3 reserve R1 E-hand H1" in bad.stdout


# --- set codes --------------------------------------------------------------------------------------

def test_a_reserve_wall_has_its_own_code_and_payload():
    # Luhn over "1071" (session 1, set 07, reserve 1): from the right 1→2, 7, 0→0, 1: 10, check 0.
    assert SetId("cup", 1, 7, 1).code == "1-07R1-0"
    # "10721": 1→2, 2, 7→5 (14-9), 0, 1→2: 11, check 9.
    assert SetId("cup", 10, 72, 1).code == "10-72R1-9"
    assert SetId("cup", 1, 7, 1).payload == "DMJ1|cup|1|7|0|R1"
    assert SetId("cup", 1, 7).payload == "DMJ1|cup|1|7|3" and SetId("cup", 1, 7).code == "1-07-3"


@pytest.mark.parametrize("set_id", [SetId("cup", 1, 7, 1), SetId("cup", 3, 12, 2), SetId("cup", 2, 99, 11), SetId("cup", 1, 1)])
def test_set_codes_round_trip_through_payload_and_entry_url(set_id):
    assert parse_payload(set_id.payload) == set_id
    assert parse_payload(set_id.url("https://example.org/e/cup/")) == set_id


@pytest.mark.parametrize("typo", ["DMJ1|cup|1|7|0|R2", "DMJ1|cup|1|8|0|R1", "DMJ1|cup|1|7|1|R1", "DMJ1|cup|1|7|0"])
def test_the_check_digit_catches_a_typo_in_a_reserve_payload(typo):
    with pytest.raises(SetCodeError, match="check digit"):
        parse_payload(typo)


@pytest.mark.parametrize("bad", ["DMJ1|cup|1|7|0|1", "DMJ1|cup|1|7|0|R", "DMJ1|cup|1|7|0|R0", "DMJ1|cup|1|7|0|R1|x"])
def test_a_malformed_reserve_label_is_refused(bad):
    with pytest.raises(SetCodeError):
        parse_payload(bad)


# --- services -----------------------------------------------------------------------------------

@pytest.fixture
def event(db, director):
    """A seated 4-team MCR duplicate event (one group of 4 tables) with session 1's walls."""
    return prepared_event(demo_roster(4), name="Reserve Cup", slug="reserve-cup", sessions=2, director=director)


def _tables(event, session=1) -> list[Table]:
    return list(Table.objects.filter(group__session__event=event, group__session__number=session).order_by("number"))


def test_reserve_walls_are_numbered_1_2_and_derived_as_documented(event):
    t = _tables(event)
    r1 = draw_reserve(event, 1, 7, reason="tiles dropped at table 1", actor="director", tables=[t[0]])
    r2 = draw_reserve(event, 1, 7, reason="set lost", actor="director", tables=[t[1].pk])
    assert (r1.number, r2.number, r1.label, r2.label) == (1, 2, "R1", "R2")
    ruleset = event.get_ruleset()
    piles = [(p.name, p.size) for p in ruleset.piles]
    derived = _indep_reserves(event.master_seed, event.uid, 1, 7, 2, [list(x) for x in ruleset.tiles], piles)
    assert r1.piles == d.lay_out(derived[0][1], piles) and r2.piles == d.lay_out(derived[1][1], piles)
    assert r1.piles != event.wall_sets.get(session_number=1, set_no=7).piles
    assert list(AuditEntry.objects.filter(event=event, action="reserve-drawn").values_list("actor", "detail")) == [
        ("director", {"session": 1, "set": 7, "reserve": 1, "reason": "tiles dropped at table 1", "tables": [t[0].number]}),
        ("director", {"session": 1, "set": 7, "reserve": 2, "reason": "set lost", "tables": [t[1].number]}),
    ]


def test_a_repeated_draw_form_draws_nothing_more(event):
    first = draw_reserve(event, 1, 7, reason="dropped", actor="d", number=1)
    again = draw_reserve(event, 1, 7, reason="dropped", actor="d", number=1)
    assert again.pk == first.pk and ReserveWall.objects.count() == 1
    assert AuditEntry.objects.filter(action="reserve-drawn").count() == 1
    with pytest.raises(WallError) as error:
        draw_reserve(event, 1, 7, reason="dropped", actor="d", number=5)
    assert error.value.field == "number"


@pytest.mark.parametrize("reason", ["", "   "])
def test_drawing_needs_a_reason(event, reason):
    with pytest.raises(WallError) as error:
        draw_reserve(event, 1, 7, reason=reason, actor="d")
    assert error.value.field == "reason" and not ReserveWall.objects.exists()


def test_drawing_is_refused_before_the_set_s_walls_exist(event):
    with pytest.raises(WallError) as error:
        draw_reserve(event, 2, 1, reason="dropped", actor="d")
    assert error.value.field == "set" and "prepare session 2" in error.value.message


def test_drawing_is_refused_after_the_seed_is_revealed(event):
    Event.objects.filter(pk=event.pk).update(seed_revealed=True)
    with pytest.raises(WallError) as error:
        draw_reserve(event, 1, 7, reason="dropped", actor="d")
    assert error.value.field == "seed" and not ReserveWall.objects.exists()


def test_a_table_of_another_session_cannot_play_a_reserve(event):
    prepare_session(event, 2)
    other = _tables(event, 2)[0]
    with pytest.raises(WallError) as error:
        draw_reserve(event, 1, 7, reason="dropped", actor="d", tables=[_tables(event)[0], other])
    assert error.value.field == "tables" and str(other.number) in error.value.message
    assert not ReserveWall.objects.exists()
    reserve = draw_reserve(event, 1, 7, reason="dropped", actor="d")
    with pytest.raises(WallError):
        set_reserve_tables(reserve, [other], actor="d")


def test_a_table_plays_one_reserve_of_a_set_and_changes_are_audited(event):
    t = _tables(event)
    r1 = draw_reserve(event, 1, 7, reason="dropped", actor="d", tables=[t[0], t[1]])
    r2 = draw_reserve(event, 1, 7, reason="seen", actor="d")
    set_reserve_tables(r2, [t[1]], actor="chief")
    assert [x.number for x in r1.tables.all()] == [t[0].number] and [x.number for x in r2.tables.all()] == [t[1].number]
    set_reserve_tables(r2, [t[1]], actor="chief")  # the same again: nothing changes
    assert list(AuditEntry.objects.filter(action="reserve-tables").values_list("actor", "detail")) == [
        ("chief", {"session": 1, "set": 7, "reserve": 2, "before": [], "tables": [t[1].number]})]


def test_the_tables_of_a_reserve_play_their_own_version_of_the_set(event):
    t = _tables(event)
    draw_reserve(event, 1, 1, reason="dropped", actor="d", tables=[t[0], t[1]])
    play_slots(event, random.Random(5))
    # team method (docs/scoring.md): a team whose members all sat at tables of one version is
    # scored as that version; one with members at both carries "*". Each version has 2 tables,
    # enough to be compared on its own (fouled_min_tables 2): no adjusted score.
    played: dict[int, set[str]] = {}
    for table in t:
        for seat in table.seats.all():
            played.setdefault(seat.team_id, set()).add("R1" if table in t[:2] else "")
    expected = {team: labels.pop() if len(labels) == 1 else "*" for team, labels in played.items()}
    scores = SetScore.objects.filter(event=event, session_number=1, set_no=1)
    assert {s.team_id: s.version for s in scores} == expected
    assert not scores.filter(adjusted=True).exists()


# --- secrecy -------------------------------------------------------------------------------------

def _player_client(event):
    """A client logged in with table 1's code: sees its own entries, nothing secret."""
    return client_for(table=_tables(event)[0])


def test_a_player_cannot_see_a_reserve_wall_before_its_set_is_released(event):
    reserve = draw_reserve(event, 1, 1, reason="tiles seen at table 1", actor="d", tables=[_tables(event)[0]])
    tile_run = " ".join(reserve.piles["E-draw"][:8])
    for viewer in (client_for(), _player_client(event)):
        assert viewer.get(reverse("wall", args=[event.slug, 1, 1])).status_code == 403
        traveller = viewer.get(reverse("traveller", args=[event.slug, 1, 1])).content.decode()
        assert "reserve-hand-records" not in traveller and "tiles seen at table 1" not in traveller
        walls = viewer.get(reverse("walls", args=[event.slug])).content.decode()
        # The page's visible text, not its CSRF token (random letters that may hold "R1").
        assert "reserve walls" not in walls and not re.search(r"\bR1\b", walls)
        exported = viewer.get(reverse("event-export", args=[event.slug])).json()
        assert exported["walls"]["reserves"] == []
        assert tile_run not in json.dumps(exported)
    assert public_export(event)["walls"]["reserves"] == []


def test_everyone_sees_a_reserve_wall_once_its_set_is_released(event, director):
    t = _tables(event)
    reserve = draw_reserve(event, 1, 1, reason="tiles seen at table 1", actor="d", tables=[t[0]])
    staff_page = client_for(director).get(reverse("wall", args=[event.slug, 1, 1])).content.decode()
    assert "Reserve wall R1" in staff_page and "tiles seen at table 1" in staff_page
    play_slots(event, random.Random(1))
    assert SetRelease.objects.filter(event=event, session_number=1, set_no=1).exists()
    anyone = client_for()
    page = anyone.get(reverse("wall", args=[event.slug, 1, 1])).content.decode()
    assert "Reserve wall R1" in page and 'id="draw-reserve"' not in page and "reserve-print" not in page
    traveller = anyone.get(reverse("traveller", args=[event.slug, 1, 1])).content.decode()
    assert 'id="reserve-hand-records"' in traveller and SetId(event.slug, 1, 1, 1).code in traveller
    exported = public_export(event)["walls"]["reserves"]
    assert exported == [{"session": 1, "set": 1, "reserve": 1, "piles": reserve.piles, "reason": "tiles seen at table 1",
                         "drawn_by": "d", "tables": [t[0].number]}]


# --- pages ---------------------------------------------------------------------------------------

def test_the_director_draws_a_reserve_and_changes_its_tables_on_the_wall_page(event, director):
    t = _tables(event)
    browser = client_for(director)
    url = reverse("wall", args=[event.slug, 1, 7])
    page = browser.get(url).content.decode()
    assert 'id="draw-reserve"' in page and "Draw reserve wall R1" in page
    response = browser.post(reverse("reserve-draw", args=[event.slug, 1, 7]),
                            {"reason": "dropped", "tables": [t[2].pk], "number": "1"})
    assert response.status_code == 302 and response["Location"] == url + "#reserve-1"  # at the new reserve's card
    reserve = ReserveWall.objects.get()
    assert [x.number for x in reserve.tables.all()] == [t[2].number] and reserve.drawn_by == "director"
    browser.post(reverse("reserve-draw", args=[event.slug, 1, 7]), {"reason": "dropped", "tables": [t[2].pk], "number": "1"})
    assert ReserveWall.objects.count() == 1  # the form sent twice draws once
    browser.post(reverse("reserve-tables", args=[event.slug, reserve.pk]), {"tables": [t[0].pk, t[3].pk]})
    assert [x.number for x in reserve.tables.order_by("number")] == [t[0].number, t[3].number]
    page = browser.get(url).content.decode()
    assert "1-07R1-" in page and "Draw reserve wall R2" in page
    refused = browser.post(reverse("reserve-draw", args=[event.slug, 1, 7]), {"reason": "", "number": "2"}, follow=True)
    assert "say why the set needs a reserve wall" in refused.content.decode()


def test_only_the_director_draws_a_reserve_wall(event, django_user_model):
    staff = django_user_model.objects.create_user("staff", password="pw-staff-1")
    EventRole.objects.create(event=event, user=staff, role=EventRole.Role.STAFF)
    browser = client_for(staff)
    assert browser.post(reverse("reserve-draw", args=[event.slug, 1, 7]), {"reason": "dropped"}).status_code == 403
    assert 'id="draw-reserve"' not in browser.get(reverse("wall", args=[event.slug, 1, 7])).content.decode()
    assert _player_client(event).post(reverse("reserve-draw", args=[event.slug, 1, 7]), {"reason": "x"}).status_code in (302, 403)
    assert not ReserveWall.objects.exists()


def test_scanning_a_reserve_label_opens_the_set_s_entry_and_says_which_reserve(event):
    table, other = _tables(event)[0], _tables(event)[1]
    n = first_set(table)  # a set the table plays now: the scan opens it
    draw_reserve(event, 1, n, reason="dropped", actor="d", tables=[table])
    code = SetId(event.slug, 1, n, 1).code
    scorer = client_for()
    login_as_table(scorer, table)
    response = scorer.get(reverse("scan", args=[SetId(event.slug, 1, n, 1).payload]), follow=True)
    assert response.redirect_chain[0][0].endswith(f"?set={n}")
    page = response.content.decode()
    assert f"reserve wall R1 of set {SetId(event.slug, 1, n).set_code}" in page
    # the phone's list of sets names the code on the reserve wall's stickers, so players can match it
    assert f">{code}, reserve wall R1</option>" in page.replace(" selected", "")

    # the set as prepared scanned at a table that plays the reserve, and the reserve at one that does not
    page = scorer.get(reverse("scan", args=[SetId(event.slug, 1, n).payload]), follow=True).content.decode()
    assert f"This label is {SetId(event.slug, 1, n).code}, but table {table.number} is listed as playing {code}, reserve wall R1" in page
    elsewhere = client_for()
    login_as_table(elsewhere, other)
    page = elsewhere.get(reverse("scan", args=[SetId(event.slug, 1, n, 1).payload]), follow=True).content.decode()
    assert f"This label is {code}, reserve wall R1, but table {other.number} is listed as playing {SetId(event.slug, 1, n).code}" in page


# --- printing --------------------------------------------------------------------------------------

def _text(data: bytes) -> str:
    return " ".join(" ".join(page_text(data, i) for i in range(page_count(data))).split())


def test_a_reserve_set_up_sheet_shows_its_code_heading_and_tiles(event):
    reserve = draw_reserve(event, 1, 7, reason="dropped", actor="d")
    job = request_print(event, "reserve_setup", {"reserve": reserve.pk})
    data = job.file.read()
    text = _text(data)
    code = SetId(event.slug, 1, 7, 1).code
    assert code == f"1-07R1-{SetId(event.slug, 1, 7, 1).check}" and code in text
    assert "RESERVE WALL R1 for set 1-07" in text
    assert decode_qr(render_pages(data, pages=[0])[0].image) == [SetId(event.slug, 1, 7, 1).url(event.base_url)]
    assert job.params == {"reserve": reserve.pk, "session": 1, "lang": "en"}


def test_a_reserve_label_s_qr_code_is_the_reserve_payload(event):
    reserve = draw_reserve(event, 1, 7, reason="dropped", actor="d")
    data = request_print(event, "reserve_label", {"reserve": reserve.pk, "lang": "ja"}).file.read()
    assert page_count(data) == 1
    found = decode_qr(render_pages(data)[0].image)
    assert found == [f"{event.base_url}entry/scan/DMJ1%7Creserve-cup%7C1%7C7%7C0%7CR1"]
    assert parse_payload(found[0]) == SetId(event.slug, 1, 7, 1)
    text = _text(data)
    assert "1-07R1-0" in text and "予備牌山 R1 — セット 1-07 の代替" in text


def test_reserve_stickers_carry_the_reserve_code_and_payload_and_no_tile(event):
    reserve = draw_reserve(event, 1, 7, reason="dropped", actor="d")
    data = request_print(event, "reserve_stickers", {"reserve": reserve.pk}).file.read()
    payloads = set()
    for page in render_pages(data, scale=200 / 72):
        payloads.update(decode_qr(page.image))
    reserve = SetId(event.slug, 1, 7, 1)  # each sticker links its own slot of the reserve wall
    assert payloads == {reserve.slot_url(event.base_url, s.pile.seat, s.label, str(event.pk)) for s in event.get_ruleset().slots()}
    text = _text(data)
    assert text.count("1-07R1-0") >= event.get_ruleset().tile_count and "RESERVE WALL R1 for set 1-07" in text
    assert not re.search(r"\b[1-9][mpsz]\b", text)  # a sticker names no tile


def test_a_reserve_print_names_a_reserve_of_the_event(event, db):
    other = prepared_event(demo_roster(4), name="Other Cup", slug="other-cup")
    foreign = draw_reserve(other, 1, 1, reason="dropped", actor="d")
    for bad in (foreign.pk, None, "x"):
        with pytest.raises(PrintError) as error:
            request_print(event, "reserve_setup", {"reserve": bad})
        assert error.value.field == "reserve"


def test_the_wall_page_s_print_buttons_queue_the_reserve_s_prints(event, director):
    reserve = draw_reserve(event, 1, 7, reason="dropped", actor="d")
    browser = client_for(director)
    url = reverse("wall", args=[event.slug, 1, 7])
    response = browser.post(reverse("print-request", args=[event.slug]),
                            {"kind": "reserve_label", "reserve": reserve.pk, "lang": "en", "next": url})
    assert response["Location"] == url
    job = event.print_jobs.get(kind="reserve_label")
    assert job.params["reserve"] == reserve.pk
    page = browser.get(url).content.decode()
    assert reverse("print-download", args=[event.slug, job.pk]) in page
    director_page = browser.get(reverse("director", args=[event.slug])).content.decode()
    assert 'value="reserve_label"' not in director_page  # not in the session menu


# --- export and import -------------------------------------------------------------------------------

def test_reserve_walls_survive_export_and_import_and_verify(event):
    t = _tables(event)
    draw_reserve(event, 1, 7, reason="dropped", actor="d", tables=[t[1], t[2]])
    draw_reserve(event, 1, 7, reason="seen", actor="e")
    data = export_event(event, include_secret=True)
    assert [(r["reserve"], r["tables"]) for r in data["walls"]["reserves"]] == [(1, [t[1].number, t[2].number]), (2, [])]
    report = verify_export(data, event.master_seed)
    assert report.ok and report.reserves_checked == 2
    before = copy.deepcopy(data["walls"]["reserves"])
    Event.objects.filter(pk=event.pk).delete()
    imported = import_event(data)
    assert export_event(imported, include_secret=True)["walls"]["reserves"] == before
    assert [r.drawn_by for r in imported.reserve_walls.all()] == ["d", "e"]
