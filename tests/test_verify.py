"""Export verification (walls/verify.py) on exports shaped as docs/walls.md specifies."""

import copy
import json

import pytest

from walls.derivation import DerivationError, commitment, derive_wall, lay_out
from walls.rulesets import get_ruleset
from walls.verify import ExportError, Mismatch, main, verify_export

SEED = "0123456789abcdef" * 4
OTHER_SEED = "fedcba9876543210" * 4


def make_export(code="mcr-duplicate", seed=SEED, public_value=None, sessions=1, sets=3, reveal=False):
    ruleset = get_ruleset(code)
    wall_sets = []
    for session in range(1, sessions + 1):
        for set_no in range(1, sets + 1):
            wall = derive_wall(seed, "cup-2025", session, set_no, ruleset.tiles, ruleset.piles, public_value)
            wall_sets.append({"session": session, "set": set_no, "piles": lay_out(wall, ruleset.piles)})
    export = {
        "format": "dmj-event/1",
        "event": {"uid": "cup-2025", "name": "Test Cup"},
        "ruleset": ruleset.to_dict(),
        "walls": {"commitment": commitment(seed), "public_value": public_value, "seed": seed if reveal else None, "sets": wall_sets},
    }
    return json.loads(json.dumps(export))


@pytest.mark.parametrize("code", ["mcr-duplicate", "riichi-red4", "souzu-2p", "shiragiku-3p-112-r2p1s", "yangzhou"])
def test_untouched_export_verifies(code):
    report = verify_export(make_export(code, sessions=2), SEED)
    assert (report.ok, report.checked, report.mismatches, report.commitment_ok) == (True, 6, [], True)


def test_public_value_is_used():
    export = make_export(public_value="Nikkei 225 close 2025-03-31: 35617.56")
    assert verify_export(export, SEED).ok
    export["walls"]["public_value"] = "Nikkei 225 close 2025-03-31: 35617.57"
    report = verify_export(export, SEED)
    assert report.commitment_ok and not report.ok and len(report.mismatches) > 100


def test_one_changed_tile_is_found():
    export = make_export()
    pile = export["walls"]["sets"][1]["piles"]["S-draw"]
    original = pile[6]
    pile[6] = "1m" if original != "1m" else "2m"
    report = verify_export(export, SEED)
    assert not report.ok and report.commitment_ok and report.checked == 3
    assert report.mismatches == [Mismatch(1, 2, "S-draw", "D7", original, pile[6])]
    assert str(report.mismatches[0]) == f"session 1 set 2 S-draw D7: expected {original}, found {pile[6]}"


def test_missing_extra_and_unknown_piles_are_reported():
    export = make_export("riichi", sets=1)
    piles = export["walls"]["sets"][0]["piles"]
    dead = piles.pop("dead")
    piles["E-hand"].append("1z")
    piles["spare"] = ["7z"]
    found = {(m.pile, m.slot, m.expected, m.found) for m in verify_export(export, SEED).mismatches}
    assert found == {
        *{("dead", f"X{n}", tile, None) for n, tile in enumerate(dead, 1)},
        ("E-hand", "H14", None, "1z"),
        ("spare", "#1", None, "7z"),
    }


def test_wrong_seed_fails_the_commitment_and_the_walls():
    report = verify_export(make_export(), OTHER_SEED)
    assert not report.ok and not report.commitment_ok
    assert report.checked == 3 and len(report.mismatches) > 300


def test_wrong_commitment_alone_fails():
    export = make_export()
    export["walls"]["commitment"] = commitment(OTHER_SEED)
    report = verify_export(export, SEED)
    assert (report.ok, report.commitment_ok, report.mismatches) == (False, False, [])


def test_commitment_may_be_upper_case():
    export = make_export()
    export["walls"]["commitment"] = export["walls"]["commitment"].upper()
    assert verify_export(export, SEED).ok


def test_edited_rule_set_is_caught():
    export = make_export()
    export["ruleset"]["piles"][0]["size"] = 14
    export["ruleset"]["piles"][1]["size"] = 20
    report = verify_export(export, SEED)
    assert not report.ok and report.mismatches


@pytest.mark.parametrize(
    "edit, error, message",
    [
        (lambda e: e.update(format="dmj-event/2"), ExportError, "this verifier reads 'dmj-event/1'"),
        (lambda e: e.pop("event"), ExportError, "export lacks event"),
        (lambda e: e["event"].pop("uid"), ExportError, "export lacks event.uid"),
        (lambda e: e["walls"].pop("public_value"), ExportError, "walls.public_value"),
        (lambda e: e["ruleset"].pop("piles"), ExportError, "ruleset.piles"),
        (lambda e: e["walls"]["sets"][0].pop("set"), ExportError, r"walls.sets\[\].set"),
        (lambda e: e["walls"]["sets"].append(copy.deepcopy(e["walls"]["sets"][0])), ExportError, "session 1 set 1 twice"),
        (lambda e: e["walls"]["sets"][0].update(piles=[]), ExportError, "piles must map pile names"),
        (lambda e: e["event"].update(uid="a|b"), DerivationError, "event uid"),
    ],
)
def test_malformed_export_is_refused(edit, error, message):
    export = make_export()
    edit(export)
    with pytest.raises(error, match=message):
        verify_export(export, SEED)


def test_malformed_seed_is_refused():
    with pytest.raises(DerivationError, match="master seed"):
        verify_export(make_export(), "abc")


def test_command_line_exit_codes(tmp_path, capsys):
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    export = make_export()
    good.write_text(json.dumps(export), encoding="utf-8")
    export["walls"]["sets"][0]["piles"]["E-hand"][0] = "7z" if export["walls"]["sets"][0]["piles"]["E-hand"][0] != "7z" else "6z"
    bad.write_text(json.dumps(export), encoding="utf-8")
    assert main([str(good), "--seed", SEED]) == 0
    assert "3 wall sets checked, 0 tiles differ: OK" in capsys.readouterr().out
    assert main([str(bad), "--seed", SEED]) == 1
    assert "MISMATCH session 1 set 1 E-hand H1" in capsys.readouterr().out
    assert main([str(good), "--seed", OTHER_SEED]) == 1
    assert "DOES NOT MATCH" in capsys.readouterr().out
    assert main([str(good)]) == 2
    assert "pass --seed" in capsys.readouterr().err
    assert main([str(tmp_path / "missing.json"), "--seed", SEED]) == 2


def test_command_line_uses_the_revealed_seed_in_the_export(tmp_path, capsys):
    path = tmp_path / "export.json"
    path.write_text(json.dumps(make_export(reveal=True)), encoding="utf-8")
    assert main([str(path)]) == 0
