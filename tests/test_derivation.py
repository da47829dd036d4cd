"""Wall derivation (walls/derivation.py) against its specification docs/walls.md.

The test vectors are read from docs/walls.md itself, so the document and the code cannot drift.
The statistical tests use chi-square goodness of fit at significance 0.001; scipy is not
available, so critical values come from the Wilson–Hilferty approximation (Wilson & Hilferty,
"The distribution of chi-square", PNAS 17, 1931), checked against tabulated values.
"""

import hashlib
import json
import math
import re
import subprocess
import sys
import unicodedata
from collections import Counter
from itertools import permutations
from pathlib import Path
from statistics import NormalDist

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from walls import derivation as d
from walls.rulesets import LAYOUTS, PRESETS, custom_ruleset, get_ruleset
from walls.tiles import ALL_TILES, collapse

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "walls.md").read_text(encoding="utf-8")
SEED0 = "00" * 32
SEED1 = "0123456789abcdef" * 4


def _doc_vectors() -> list[dict[str, str]]:
    blocks = re.findall(r"```vector\n(.*?)```", DOC, re.DOTALL)
    vectors = []
    for block in blocks:
        fields = {}
        for line in block.strip().splitlines():
            key, _, value = line.partition(":")
            fields[key.strip()] = value.strip()
        vectors.append(fields)
    return vectors


VECTORS = [v for v in _doc_vectors() if "reserve" not in v]
RESERVE_VECTORS = [v for v in _doc_vectors() if "reserve" in v]


def _check_piles(vector: dict, laid: dict) -> None:
    """Every pile line of a doc vector (``E-hand`` whole, or ``E-hand 1-5`` its first five) equals
    the laid-out wall, and the vector lists every pile."""
    pile_lines = {k: v for k, v in vector.items() if k in laid or k.removesuffix(" 1-5") in laid}
    assert len(pile_lines) == len(laid)
    for key_text, tiles_text in pile_lines.items():
        name = key_text.removesuffix(" 1-5")
        shown = laid[name][:5] if key_text.endswith(" 1-5") else laid[name]
        assert " ".join(shown) == tiles_text, name


def test_doc_has_vectors():
    assert len(VECTORS) >= 4
    assert sum("public value" in v and v["public value"] != "(none)" for v in VECTORS) >= 1
    assert {(v.get("rule set", "small"), v["reserve"]) for v in RESERVE_VECTORS} >= {("small", "1"), ("small", "2"), ("mcr-duplicate", "1")}
    assert any(v.get("rejected") for v in RESERVE_VECTORS)


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: f"{v['seed'][:4]}-{v['session']}-{v['set']}-{v.get('rule set', 'small')}")
def test_doc_vector(vector):
    public_value = None if vector["public value"] == "(none)" else vector["public value"]
    if "rule set" in vector:
        ruleset = get_ruleset(vector["rule set"])
        tiles, piles = ruleset.tiles, [(p.name, p.size) for p in ruleset.piles]
    else:
        tiles, piles = json.loads(vector["tiles"]), json.loads(vector["piles"])
    session, set_no = int(vector["session"]), int(vector["set"])
    assert d.commitment(vector["seed"]) == vector["commitment"]
    key = d.effective_key(vector["seed"], public_value)
    assert key.hex() == vector["effective key"]
    fingerprint = d.ruleset_fingerprint(tiles, piles)
    assert fingerprint == vector["fingerprint"]
    wkey = d.wall_key(key, vector["event uid"], session, set_no, fingerprint)
    assert wkey.hex() == vector["wall key"]
    if "block 0" in vector:
        assert hashlib.sha256(wkey + bytes(8)).hexdigest() == vector["block 0"]
    if "first integers" in vector:
        stream = d.RandomStream(wkey)
        assert [str(stream.next_uint32()) for _ in range(4)] == vector["first integers"].split()
    if "swaps" in vector:
        stream, trace = d.RandomStream(wkey), []
        for i in range(sum(n for _, n in tiles) - 1, 0, -1):
            trace.append(f"i={i} j={stream.uniform(i + 1)}")
        assert ", ".join(trace) == vector["swaps"]
    wall = d.derive_wall(vector["seed"], vector["event uid"], session, set_no, tiles, piles, public_value)
    if "wall" in vector:
        assert " ".join(wall) == vector["wall"]
    _check_piles(vector, d.lay_out(wall, piles))


def _vector_rule_set(vector):
    if "rule set" in vector:
        ruleset = get_ruleset(vector["rule set"])
        return ruleset.tiles, [(p.name, p.size) for p in ruleset.piles]
    return json.loads(vector["tiles"]), json.loads(vector["piles"])


@pytest.mark.parametrize("vector", RESERVE_VECTORS,
                         ids=lambda v: f"{v.get('rule set') or v['tiles']}-R{v['reserve']}")
def test_doc_reserve_vector(vector):
    public_value = None if vector["public value"] == "(none)" else vector["public value"]
    tiles, piles = _vector_rule_set(vector)
    multiset = [code for code, count in tiles for _ in range(count)]
    session, set_no, reserve = int(vector["session"]), int(vector["set"]), int(vector["reserve"])
    key = d.effective_key(vector["seed"], public_value)
    assert key.hex() == vector["effective key"]
    fingerprint = d.ruleset_fingerprint(tiles, piles)
    assert fingerprint == vector["fingerprint"]
    set_wall = d.derive_wall(vector["seed"], vector["event uid"], session, set_no, tiles, piles, public_value)
    if "set wall" in vector:
        assert " ".join(set_wall) == vector["set wall"]
    sequence = d.reserve_sequence(key, vector["event uid"], session, set_no, reserve, multiset, fingerprint)
    if "earlier" in vector:
        assert [f"R{r} {' '.join(w)}" for r, (_, w) in enumerate(sequence[:-1], 1)] == [vector["earlier"]]
    attempt, wall = sequence[-1]
    assert attempt == int(vector["attempt"])
    rkey = d.reserve_wall_key(key, vector["event uid"], session, set_no, reserve, attempt, fingerprint)
    assert rkey.hex() == vector["reserve key"]
    taken = [set_wall] + [w for _, w in sequence[:-1]]
    for rejected in vector.get("rejected", "").split():
        earlier = d.reserve_wall_key(key, vector["event uid"], session, set_no, reserve, int(rejected), fingerprint)
        assert d.shuffle(multiset, earlier) in taken
    if "block 0" in vector:
        assert hashlib.sha256(rkey + bytes(8)).hexdigest() == vector["block 0"]
    if "first integers" in vector:
        stream = d.RandomStream(rkey)
        assert [str(stream.next_uint32()) for _ in range(4)] == vector["first integers"].split()
    if "swaps" in vector:
        stream, trace = d.RandomStream(rkey), []
        for i in range(len(multiset) - 1, 0, -1):
            trace.append(f"i={i} j={stream.uniform(i + 1)}")
        assert ", ".join(trace) == vector["swaps"]
    assert d.derive_reserve(vector["seed"], vector["event uid"], session, set_no, reserve, tiles, piles, public_value) == wall
    if "wall" in vector:
        assert " ".join(wall) == vector["wall"]
    _check_piles(vector, d.lay_out(wall, piles))


def test_doc_canonical_json_of_mcr_duplicate():
    shown = re.search(r"```json\n(.*?)\n\s*```", DOC, re.DOTALL).group(1).strip()
    ruleset = get_ruleset("mcr-duplicate")
    document = {"tiles": [list(t) for t in ruleset.tiles], "piles": [[p.name, p.size] for p in ruleset.piles]}
    assert shown == json.dumps(document, sort_keys=True, separators=(",", ":"))
    assert hashlib.sha256(shown.encode()).hexdigest() == ruleset.fingerprint


# --- inputs --------------------------------------------------------------------------------------


def test_new_master_seed_is_fresh_hex():
    seeds = {d.new_master_seed() for _ in range(20)}
    assert len(seeds) == 20
    assert all(len(s) == 64 and int(s, 16) >= 0 for s in seeds)


def test_commitment_hashes_seed_bytes_not_text():
    assert d.commitment(SEED0) == hashlib.sha256(bytes(32)).hexdigest()
    assert d.commitment(SEED0) != hashlib.sha256(SEED0.encode()).hexdigest()
    assert d.commitment(SEED1.upper()) == d.commitment(SEED1)


@pytest.mark.parametrize("seed", ["", "00" * 31, "00" * 33, "zz" * 32, None, b"\x00" * 32])
def test_malformed_seed_is_refused(seed):
    with pytest.raises(d.DerivationError, match="master seed"):
        d.commitment(seed)


def test_public_value_is_stripped_and_nfc_normalised():
    decomposed = unicodedata.normalize("NFD", "Café 1.234")
    assert decomposed != "Café 1.234"
    assert d.effective_key(SEED1, f"  {decomposed}\n") == d.effective_key(SEED1, "Café 1.234")
    assert d.effective_key(SEED1, "Café 1.234") != d.effective_key(SEED1, "Cafe 1.234")
    assert d.effective_key(SEED1, None) == bytes.fromhex(SEED1)


@pytest.mark.parametrize("value", ["", "   \t\n"])
def test_empty_public_value_is_refused(value):
    with pytest.raises(d.DerivationError, match="public value is empty"):
        d.effective_key(SEED0, value)


@pytest.mark.parametrize(
    "args, message",
    [
        ((b"short", "demo", 1, 1, "0" * 64), "32 bytes"),
        ((bytes(32), "", 1, 1, "0" * 64), "event uid"),
        ((bytes(32), "a|b", 1, 1, "0" * 64), "event uid"),
        ((bytes(32), "demo", 0, 1, "0" * 64), "session"),
        ((bytes(32), "demo", 1, 0, "0" * 64), "set number"),
        ((bytes(32), "demo", 1, True, "0" * 64), "set number"),
        ((bytes(32), "demo", 1, 1, "0" * 63), "fingerprint"),
        ((bytes(32), "demo", 1, 1, "A" * 64), "fingerprint"),
    ],
)
def test_wall_key_refuses_bad_inputs(args, message):
    with pytest.raises(d.DerivationError, match=message):
        d.wall_key(*args)


def test_lay_out_refuses_sizes_not_matching_the_wall():
    with pytest.raises(d.DerivationError, match="pile sizes sum to 4 but the wall has 5 tiles"):
        d.lay_out(["1m"] * 5, [("a", 2), ("b", 2)])
    with pytest.raises(d.DerivationError, match="unique"):
        d.lay_out(["1m"] * 4, [("a", 2), ("a", 2)])


def test_derive_wall_refuses_piles_not_matching_tiles():
    with pytest.raises(d.DerivationError, match="pile sizes sum to 135 but the wall has 136"):
        d.derive_wall(SEED0, "demo", 1, 1, get_ruleset("riichi").tiles, [("a", 135)])


def test_uniform_rejects_the_biased_top_of_the_range():
    class Scripted(d.RandomStream):
        def __init__(self, values):
            self._integers = iter(values)

    # n = 3: 2**32 % 3 == 1, so limit = 2**32 - 1 and 2**32 - 1 itself is rejected.
    assert Scripted([2**32 - 1, 5]).uniform(3) == 2
    assert Scripted([2**32 - 2]).uniform(3) == (2**32 - 2) % 3
    # n = 2**31 + 1: limit = 2**31 + 1, about half of all draws are rejected.
    assert Scripted([2**31 + 1, 2**32 - 1, 7]).uniform(2**31 + 1) == 7
    assert Scripted([2**32 - 1]).uniform(1) == 0
    with pytest.raises(d.DerivationError, match="uniform range"):
        d.RandomStream(b"k").uniform(0)


def test_stream_reads_blocks_in_order():
    key = b"any key"
    stream = d.RandomStream(key)
    expected = hashlib.sha256(key + (0).to_bytes(8, "big")).digest() + hashlib.sha256(key + (1).to_bytes(8, "big")).digest()
    assert [stream.next_uint32() for _ in range(16)] == [int.from_bytes(expected[i : i + 4], "big") for i in range(0, 64, 4)]


# --- properties ------------------------------------------------------------------------------------

seeds = st.binary(min_size=32, max_size=32).map(bytes.hex)
event_uids = st.text(st.characters(blacklist_characters="|", blacklist_categories=("Cs",)), min_size=1, max_size=20)
numbers = st.integers(1, 40)
public_values = st.none() | st.text(min_size=1, max_size=20).filter(lambda t: t.strip())


def _normal(public_value):
    return None if public_value is None else unicodedata.normalize("NFC", public_value.strip())


def _derive(ruleset, seed, event, session, set_no, public_value):
    return d.derive_wall(seed, event, session, set_no, ruleset.tiles, ruleset.piles, public_value)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(sorted(PRESETS)), seeds, event_uids, numbers, numbers, public_values)
def test_preset_walls_are_the_multiset_laid_out_as_declared(code, seed, event, session, set_no, public_value):
    ruleset = PRESETS[code]
    wall = _derive(ruleset, seed, event, session, set_no, public_value)
    assert sorted(wall) == sorted(ruleset.multiset())
    assert wall == _derive(ruleset, seed, event, session, set_no, public_value)
    laid = d.lay_out(wall, ruleset.piles)
    assert list(laid) == [p.name for p in ruleset.piles]
    assert [len(tiles) for tiles in laid.values()] == [p.size for p in ruleset.piles]
    assert [t for tiles in laid.values() for t in tiles] == wall
    assert {s.label: wall[s.index_in_wall] for s in ruleset.slots() if s.pile.name == ruleset.piles[0].name} == {
        f"{ruleset.piles[0].slot_prefix}{n}": t for n, t in enumerate(laid[ruleset.piles[0].name], 1)
    }


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(sorted(PRESETS)), seeds, seeds, event_uids, event_uids, numbers, numbers, public_values, st.data())
def test_changing_any_one_input_changes_the_wall(code, seed, seed2, event, event2, session, set_no, public_value, data):
    ruleset = PRESETS[code]
    base = _derive(ruleset, seed, event, session, set_no, public_value)
    assume(seed2 != seed and event2 != event)
    assert _derive(ruleset, seed2, event, session, set_no, public_value) != base
    assert _derive(ruleset, seed, event2, session, set_no, public_value) != base
    assert _derive(ruleset, seed, event, session + 1, set_no, public_value) != base
    assert _derive(ruleset, seed, event, session, set_no + 1, public_value) != base
    other_value = data.draw(public_values)
    assume(_normal(other_value) != _normal(public_value))
    assert _derive(ruleset, seed, event, session, set_no, other_value) != base


def test_changing_the_rule_set_changes_the_wall():
    # Same 136 tiles, different piles: the fingerprint differs, so the walls differ.
    same_tiles = [PRESETS[c] for c in ("riichi", "riichi-duplicate", "riichi-duplicate-dead14", "shield-tile", "yangzhou", "mcr-duplicate")]
    assert len({r.tiles for r in same_tiles}) == 1
    walls = {tuple(_derive(r, SEED1, "demo", 1, 1, None)) for r in same_tiles}
    assert len(walls) == len(same_tiles)


@st.composite
def custom_rulesets(draw):
    n = draw(st.integers(2, 4))
    seats = tuple(draw(st.permutations(("E", "S", "W", "N")))[:n])
    layout = draw(st.sampled_from(LAYOUTS))
    hands = draw(st.lists(st.integers(1, 6), min_size=n, max_size=n))
    if layout == "per_seat":
        draws = draw(st.lists(st.integers(1, 6), min_size=n, max_size=n))
        dead = draw(st.integers(0, 4) | st.lists(st.integers(0, 3), min_size=n, max_size=n))
        total = sum(hands) + sum(draws) + (dead if isinstance(dead, int) else sum(dead))
    else:
        draws, dead = None, draw(st.integers(0, 6))
        total = sum(hands) + dead + draw(st.integers(1, 10))
    tiles = collapse(draw(st.lists(st.sampled_from(ALL_TILES), min_size=total, max_size=total)))
    return custom_ruleset(
        "random", "random", seats, tiles, layout, hands, draws, dead,
        rounds=1, starting_points=0, zero_sum=True, payment_rule="typed", end_rule="ends when the wall is empty",
    )  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(custom_rulesets(), seeds, numbers)
def test_custom_rule_set_walls_are_the_multiset_laid_out_as_declared(ruleset, seed, set_no):
    wall = _derive(ruleset, seed, "custom", 1, set_no, None)
    assert sorted(wall) == sorted(ruleset.multiset())
    laid = d.lay_out(wall, ruleset.piles)
    assert [len(v) for v in laid.values()] == [p.size for p in ruleset.piles]
    assert [t for tiles in laid.values() for t in tiles] == wall


# --- statistics --------------------------------------------------------------------------------------


def chi2_critical(df: int, alpha: float) -> float:
    """Upper-``alpha`` critical value of chi-square with ``df`` degrees of freedom, by the
    Wilson–Hilferty approximation: ``df * (1 - 2/(9 df) + z * sqrt(2/(9 df)))**3`` with ``z`` the
    upper-``alpha`` standard normal quantile."""
    z = NormalDist().inv_cdf(1 - alpha)
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def chi2_statistic(observed: Counter, cells: list, total: int) -> float:
    expected = total / len(cells)
    return sum((observed[c] - expected) ** 2 / expected for c in cells)


@pytest.mark.parametrize(
    "df, tabulated",
    # NIST/SEMATECH e-Handbook of Statistical Methods, table 1.3.6.7.4 (upper critical values
    # of the chi-square distribution), column 0.001.
    [(10, 29.588), (23, 49.728), (50, 86.661), (100, 149.449)],
)
def test_wilson_hilferty_matches_tables(df, tabulated):
    assert chi2_critical(df, 0.001) == pytest.approx(tabulated, rel=0.01)


def _wall_keys(count: int, event: str):
    fingerprint = get_ruleset("mcr-duplicate").fingerprint
    key = d.effective_key(SEED1)
    return (d.wall_key(key, event, 1 + k // 100, 1 + k % 100, fingerprint) for k in range(count))


def test_no_bias_over_permutations_of_four_tiles():
    """24,000 shuffles of 4 distinct tiles: all 24 orders equally likely (df 23, alpha 0.001)."""
    items = ("1m", "2m", "3m", "4m")
    cells = list(permutations(items))
    total = 24_000
    observed = Counter(tuple(d.shuffle(items, key)) for key in _wall_keys(total, "stat-perm"))
    assert chi2_statistic(observed, cells, total) < chi2_critical(len(cells) - 1, 0.001)


def test_no_position_bias_in_the_136_wall():
    """13,600 walls of 136: the first and the last tile of the canonical multiset land on each
    of the 136 positions equally often (df 135, alpha 0.001, 100 expected per position)."""
    total = 13_600
    first, last = Counter(), Counter()
    for key in _wall_keys(total, "stat-pos"):
        wall = d.shuffle(range(136), key)
        first[wall.index(0)] += 1
        last[wall.index(135)] += 1
    critical = chi2_critical(135, 0.001)
    assert chi2_statistic(first, list(range(136)), total) < critical
    assert chi2_statistic(last, list(range(136)), total) < critical


# --- command line ------------------------------------------------------------------------------------


def test_cli_prints_piles(tmp_path, capsys):
    ruleset = get_ruleset("mcr-duplicate")
    path = tmp_path / "ruleset.json"
    path.write_text(json.dumps(ruleset.to_dict()), encoding="utf-8")
    assert d.main(["--seed", SEED0, "--event", "demo", "--session", "1", "--set", "1", "--ruleset-json", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["commitment", d.commitment(SEED0)]
    assert lines[1].split() == ["fingerprint", ruleset.fingerprint]
    assert lines[2].split()[:6] == ["E-hand", "8p", "3s", "2z", "2s", "6s"]
    assert len(lines) == 2 + len(ruleset.piles)


def test_cli_prints_a_reserve_wall(tmp_path, capsys):
    ruleset = get_ruleset("mcr-duplicate")
    path = tmp_path / "ruleset.json"
    path.write_text(json.dumps(ruleset.to_dict()), encoding="utf-8")
    args = ["--seed", SEED0, "--event", "demo", "--session", "1", "--set", "1", "--ruleset-json", str(path)]
    assert d.main([*args, "--reserve", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2].split() == ["reserve", "R1"]
    assert lines[3].split()[:6] == ["E-hand", "7s", "2m", "3m", "3s", "5s"]  # the mcr-duplicate R1 vector of docs/walls.md
    assert len(lines) == 3 + len(ruleset.piles)


def test_cli_reports_a_reserve_that_cannot_differ(tmp_path, capsys):
    path = tmp_path / "ruleset.json"
    path.write_text(json.dumps({"tiles": [["1m", 4]], "piles": [["a", 4]]}), encoding="utf-8")
    with pytest.raises(SystemExit) as exit_info:
        d.main(["--seed", SEED0, "--event", "demo", "--session", "1", "--set", "1", "--reserve", "1", "--ruleset-json", str(path)])
    assert exit_info.value.code == 2
    assert "reserve 1 cannot differ" in capsys.readouterr().err


def test_cli_reports_bad_input(tmp_path, capsys):
    path = tmp_path / "ruleset.json"
    path.write_text(json.dumps({"tiles": [["1m", 2]], "piles": [["a", 3]]}), encoding="utf-8")
    with pytest.raises(SystemExit) as exit_info:
        d.main(["--seed", SEED0, "--event", "demo", "--session", "1", "--set", "1", "--ruleset-json", str(path)])
    assert exit_info.value.code == 2
    assert "pile sizes sum to 3" in capsys.readouterr().err


def test_derivation_and_verifier_use_only_the_standard_library():
    # -S: no site-packages, so any third-party import would fail outright.
    code = (
        "import sys, walls.derivation, walls.verify; "
        "print(sorted({m.split('.')[0] for m in sys.modules} - set(sys.stdlib_module_names) - {'walls', '__main__'}))"
    )
    out = subprocess.run([sys.executable, "-S", "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
