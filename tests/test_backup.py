"""docs/deploy.md, "Backups": backups. ``export_event`` / ``import_event`` round-trip a played event without loss,
a corrected result keeps its whole history, and the walls of the restored event re-derive from
the revealed seed with the standalone verifier."""

import json
import random

import pytest
from django.core.management import call_command

from scoring.models import HandResult
from scoring.reports import event_standings
from scoring.actions.confirmation import correct_result
from tournament.demo import play_session
from tournament.exchange import export_event
from tournament.models import Event
from walls.verify import main as verify_main
from walls.verify import verify_export

from factories import demo_roster, prepared_event, rolled_back

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def built(django_db_setup, django_db_blocker):
    """A 16-team event with session 1 fully played and confirmed, then one result corrected by the
    director; built once for the module and rolled back at its end."""
    with rolled_back(django_db_blocker):
        event = prepared_event(demo_roster(), name="Backup Cup", slug="backup-cup", sessions=2)
        play_session(event, 1, random.Random(9))
        result = HandResult.objects.filter(event=event).order_by("table__number", "set_no").first()
        old = dict(result.changes)
        seats = list(old)
        new = {seat: 0 for seat in seats}
        new[seats[0]], new[seats[1]] = 8, -8
        correct_result(result, actor="director", reason="fan miscounted at the table", director=True, changes=new)
        yield event, result.pk, old, new


@pytest.fixture
def played(built):
    event, result_pk, old, new = built
    return Event.objects.get(pk=event.pk), result_pk, old, new


def _backup_and_restore(event, path):
    call_command("export_event", event.slug, output=str(path), include_secret=True)
    before = json.loads(path.read_text(encoding="utf-8"))
    Event.objects.filter(pk=event.pk).delete()
    assert not HandResult.objects.exists()
    call_command("import_event", str(path))
    return before, Event.objects.get(slug=before["event"]["slug"])


def test_a_played_event_with_a_correction_round_trips_without_loss(played, tmp_path):
    event, _, _, _ = played
    standings = event_standings(event)
    before, restored = _backup_and_restore(event, tmp_path / "backup.json")
    after = export_event(restored, include_secret=True)
    before.pop("exported_at"), after.pop("exported_at")
    assert after == before
    assert len(before["results"]) == 16 * 16
    assert [{k: v for k, v in row.items() if k != "key"} for row in event_standings(restored)] == \
           [{k: v for k, v in row.items() if k != "key"} for row in standings]


def test_the_corrected_result_keeps_its_history_after_a_restore(played, tmp_path):
    event, result_pk, old, new = played
    original = HandResult.objects.get(pk=result_pk)
    table_number, set_no = original.table.number, original.set_no
    _, restored = _backup_and_restore(event, tmp_path / "backup.json")
    result = HandResult.objects.get(event=restored, table__number=table_number, set_no=set_no)
    assert result.changes == new
    assert result.status == HandResult.Status.CONFIRMED
    history = list(result.revisions.order_by("revision").values("action", "changes", "previous", "reason", "actor"))
    assert [h["action"] for h in history] == ["enter", "confirm", "correct"]
    assert history[0]["changes"] == old
    assert history[-1] == {"action": "correct", "changes": new, "previous": old,
                           "reason": "fan miscounted at the table", "actor": "director"}


def test_the_restored_walls_re_derive_from_the_seed(played, tmp_path):
    event, _, _, _ = played
    seed = event.master_seed
    _, restored = _backup_and_restore(event, tmp_path / "backup.json")
    exported = export_event(restored, include_secret=True)
    report = verify_export(exported, seed)
    assert report.ok and report.commitment_ok
    assert report.checked == 16
    path = tmp_path / "restored.json"
    path.write_text(json.dumps(exported), encoding="utf-8")
    assert verify_main([str(path), "--seed", seed]) == 0


def test_a_backup_whose_wall_was_altered_fails_verification(played, tmp_path):
    event, _, _, _ = played
    seed = event.master_seed
    exported = export_event(event, include_secret=True)
    piles = exported["walls"]["sets"][0]["piles"]
    first, second = list(piles)[:2]
    other = next(i for i, tile in enumerate(piles[second]) if tile != piles[first][0])
    piles[first][0], piles[second][other] = piles[second][other], piles[first][0]
    report = verify_export(exported, seed)
    assert not report.ok
    assert {(m.pile, m.set_no) for m in report.mismatches} == {(first, 1), (second, 1)}


def test_an_import_keeps_the_releases_refuses_a_bad_one_and_renews_old_short_table_codes(team_event):
    from scoring import visibility
    from tournament.exchange import ExchangeError, import_event
    from tournament.models import LOGIN_CODE_LENGTH, Table

    data = export_event(team_event)
    team_event.delete()  # restored into a database without it, as a backup is
    data["released"] = [[1, 1]]
    data["sessions"][0]["groups"][0]["tables"][0]["login_code"] = "DEADBEEF"  # an old 32-bit code
    bad = json.loads(json.dumps(data))
    bad["released"] = [[1, "x"]]
    with pytest.raises(ExchangeError, match="released"):
        import_event(bad, slug="bad-copy")
    copy = import_event(data, slug="good-copy")
    assert visibility.released_sets(copy) == {(1, 1)}
    codes = Table.objects.filter(group__session__event=copy).values_list("login_code", flat=True)
    assert "DEADBEEF" not in codes and all(len(code) == LOGIN_CODE_LENGTH for code in codes)
