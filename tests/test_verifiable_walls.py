"""Issues 4 and 11: commitment, SquareDeal-style public value, reveal, and re-derivation."""

import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tournament.exchange import export_event
from tournament.services import SetupError, create_event, import_roster, reveal_seed, set_public_value
from walls.derivation import commitment
from walls.services import WallError, generate_walls
from walls.verify import verify_export

from factories import demo_roster

pytestmark = pytest.mark.django_db


def test_commitment_is_the_sha256_of_the_seed(team_event):
    assert team_event.commitment == commitment(team_event.master_seed)


def test_generation_is_refused_until_the_public_value_is_entered():
    event = create_event(name="Square", slug="square", public_value_source="Nikkei 225 close on 2026-12-01")
    import_roster(event, demo_roster())
    with pytest.raises(WallError) as err:
        generate_walls(event, 1)
    assert err.value.field == "public_value" and "Nikkei" in err.value.message
    assert not event.wall_sets.exists()
    event = set_public_value(event, "38,512.04")
    walls = generate_walls(event, 1)
    assert len(walls) == 16
    with pytest.raises(SetupError):
        set_public_value(event, "38,000.00")  # too late: walls exist


def test_the_public_value_changes_every_wall():
    from walls.services import wall_deriver

    event = create_event(name="A", slug="a", public_value_source="lottery draw", master_seed="ab" * 32)
    event = set_public_value(event, "1 2 3 4 5 6")
    before = [wall_deriver(event)(1, s) for s in (1, 2)]
    event.public_value = "1 2 3 4 5 7"
    after = [wall_deriver(event)(1, s) for s in (1, 2)]
    assert all(a != b for a, b in zip(before, after))


def test_reveal_is_refused_while_results_are_missing(team_event):
    with pytest.raises(SetupError) as err:
        reveal_seed(team_event, actor="director")
    assert "80 sets of the planned sessions are still to be played" in err.value.message  # 5 sessions of 16 sets
    team_event.refresh_from_db()
    assert not team_event.seed_revealed


def test_export_verifies_with_the_revealed_seed_and_one_changed_tile_is_found(team_event, tmp_path):
    data = export_event(team_event, include_secret=True)
    report = verify_export(data, team_event.master_seed)
    assert report.ok and report.checked == 16 and report.commitment_ok
    path = tmp_path / "export.json"
    wall = data["walls"]["sets"][3]
    first, second = wall["piles"]["S-draw"][0], wall["piles"]["S-draw"][1]
    wall["piles"]["S-draw"][0] = next(t for t in ("1m", "2m", "3m", "4m") if t != first)
    path.write_text(json.dumps(data))
    with pytest.raises(CommandError, match="verification failed"):
        call_command("verify_walls", str(path), seed=team_event.master_seed)
    assert second  # the rest of the pile is untouched
    report = verify_export(data, team_event.master_seed)
    assert [(m.session, m.set_no, m.pile, m.slot) for m in report.mismatches] == [(1, 4, "S-draw", "D1")]


def test_verify_walls_command_passes_on_an_untouched_export(team_event, tmp_path, capsys):
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export_event(team_event, include_secret=True)))
    call_command("verify_walls", str(path), seed=team_event.master_seed)
    out = capsys.readouterr().out
    assert "commitment matches" in out and "16 wall sets checked, 0 mismatches" in out
