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


# --- docs/deploy.md, "Backups": the backup every 15 minutes, and what a copy beside its original keeps


def _keyed_entry(event, key="backup-key-0001"):
    from factories import entering, first_set, first_table
    from scoring.actions.entry import submit_result

    table = first_table(event)
    return submit_result(table, first_set(table), changes={"E": 48, "S": -16, "W": -16, "N": -16}, actor="t",
                         request_key=key, **entering(table, "E"))


def test_backup_events_writes_each_event_and_the_accounts_readable_by_their_owner_only(team_event, tmp_path):
    import stat

    _keyed_entry(team_event)
    archived = prepared_event(demo_roster(4), name="Old Cup", slug="old-cup", prepare=())
    Event.objects.filter(pk=archived.pk).update(status=Event.Status.ARCHIVED)
    folder = tmp_path / "backups"
    call_command("backup_events", str(folder), "--keep-hours", "48")
    names = sorted(p.name for p in folder.iterdir() if p.name.startswith(("accounts-", f"event-{team_event.slug}-")))
    assert [n.rsplit("-", 1)[0] for n in names] == ["accounts", f"event-{team_event.slug}"]
    assert not any(archived.slug in p.name for p in folder.iterdir())  # an archived event changes no more
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in folder.iterdir())
    backup = json.loads((folder / names[1]).read_text(encoding="utf-8"))
    assert backup["walls"]["seed"] == team_event.master_seed  # a restored event still derives its walls
    assert [h["request_key"] for r in backup["results"] for h in r["history"]] == ["backup-key-0001"]
    accounts = json.loads((folder / names[0]).read_text(encoding="utf-8"))
    assert {a["fields"]["username"] for a in accounts if a["model"] == "auth.user"} == {"director"}


def test_backup_events_deletes_its_own_old_files_but_the_newest_of_each_and_nothing_else(tmp_path):
    from datetime import UTC, datetime, timedelta

    from tournament.management.commands.backup_events import expired

    now = datetime(2026, 5, 3, 12, 0, tzinfo=UTC)
    names = ["event-cup-20260501T120000Z.json", "event-cup-20260503T114500Z.json", "event-cup-20260501T100000Z.json",
             "event-gone-20260401T000000Z.json", "accounts-20260501T115959Z.json", "accounts-20260503T114500Z.json",
             "notes.txt", "event-cup-20260501T100000Z.json.tmp", "event-cup-2026.json"]
    assert expired(names, now, timedelta(hours=48)) == [
        "accounts-20260501T115959Z.json", "event-cup-20260501T100000Z.json"]  # 48 h and 1 s old; the archived event keeps its last
    assert expired(names, now, timedelta(0)) == [
        "accounts-20260501T115959Z.json", "event-cup-20260501T100000Z.json", "event-cup-20260501T120000Z.json"]


def test_keys_another_event_holds_are_left_to_it_and_taken_ids_renumbered(team_event, capsys, tmp_path):
    """An export made into another event (a new uid and slug) imported beside the original: the
    ids are taken, so its rows are numbered anew; its keys stay the original's, whose writes they
    were (a key is unique in the database)."""
    result = _keyed_entry(team_event)
    data = export_event(team_event, include_secret=True)
    data["event"]["uid"], data["event"]["slug"] = "0" * 32, "other-cup"
    data["walls"]["seed"] = None
    data["event"]["seed_revealed"] = False
    for table in (t for session in data["sessions"] for group in session["groups"] for t in group["tables"]):
        table["login_code"] = ""  # codes are unique too: the import makes new ones
    path = tmp_path / "other.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    call_command("import_event", str(path))
    out = capsys.readouterr().out
    assert "renumbered" in out and "request keys not restored: 1 " in out
    other = HandResult.objects.get(event__slug="other-cup")
    assert other.pk != result.pk and other.revisions.get().request_key is None
    assert result.revisions.get().request_key == "backup-key-0001"


def test_the_public_export_holds_no_request_key(team_event, monkeypatch):
    from scoring import visibility
    from tournament.exchange import public_export

    result = _keyed_entry(team_event)
    assert export_event(team_event)["results"][0]["history"][0]["request_key"] == "backup-key-0001"
    monkeypatch.setattr(visibility, "released_sets", lambda event: {(result.session_number, result.set_no)})
    public = public_export(team_event)
    history = public["results"][0]["history"][0]
    assert len(public["results"]) == 1 and "request_key" not in history and "request_digest" not in history


def test_an_import_refuses_a_request_key_that_is_not_one_or_is_given_twice(team_event):
    from tournament.exchange import ExchangeError, import_event

    _keyed_entry(team_event, "backup-key-0001")
    exported = export_event(team_event, include_secret=True)
    team_event.delete()
    bad = json.loads(json.dumps(exported))
    bad["results"][0]["history"][0]["request_key"] = "short"
    with pytest.raises(ExchangeError, match=r"history\[revision 1\]\.request_key: 'short' is not a request key"):
        import_event(bad)
    twice = json.loads(json.dumps(exported))
    twice["results"][0]["history"].append({**twice["results"][0]["history"][0], "revision": 2, "action": "confirm"})
    with pytest.raises(ExchangeError, match="given twice"):
        import_event(twice)
    assert not Event.objects.filter(uid=exported["event"]["uid"]).exists()


@pytest.mark.django_db(transaction=True)
def test_an_export_is_read_from_one_snapshot(team_event, monkeypatch):
    """A backup made while tables enter results must import: every query of the export reads
    the same state of the database (one transaction; PostgreSQL: repeatable read)."""
    from django.db import connection

    from tournament import exchange

    seen = []

    def standings(*args, **kwargs):
        level = None
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SHOW transaction_isolation")
                level = cursor.fetchone()[0]
        seen.append((connection.in_atomic_block, level))
        return []

    monkeypatch.setattr(exchange, "event_standings", standings)
    exchange.export_event(team_event)
    exchange.public_export(team_event)
    expected = "repeatable read" if connection.vendor == "postgresql" else None
    assert seen == [(True, expected)] * 3
