"""docs/security.md, "Threats and the tests that cover them", threat 6 and the restore part of threat 8: the master seed cannot be lost by a
deletion, a reveal checks the seed against the published commitment, and a restore keeps the
audit log, the confirmation attempts (PIN locks) and the event roles.

The issue's sequence: finish, download the final export (``walls.seed`` null: not revealed yet),
delete the event, import the export, reveal. Before the fix the deletion went through and the
reveal accepted the empty seed (the API then said ``seed_revealed: true, master_seed: ""``), so
nobody could verify the walls again.
"""

import html
import json
import random

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse
from factories import (
    blocks,
    built_once,
    client_for,
    demo_roster,
    event_from,
    first_table,
    prepared_event,
    team_roster,
)

from scoring.models import ConfirmationAttempt, HandResult
from scoring.actions.confirmation import confirm_result, unlock_confirmation
from scoring.actions.entry import submit_result
from scoring.actions.errors import ResultError
from scoring.actions.seats import Device, pin_counts
from tournament import exchange
from tournament.demo import play_session
from tournament.event_setup import change_status, delete_event
from tournament.exchange import ExchangeError, export_event, import_event, public_export
from tournament.models import AuditEntry, Event, EventRole, Table
from tournament.seating import SetupError
from tournament.services import reveal_seed
from walls.derivation import derive_wall, lay_out
from walls.models import WallSet
from walls.verify import main as verify_main
from walls.verify import verify_export

pytestmark = pytest.mark.django_db

SLUG = "seed-cup"


def _build_finished():
    event = prepared_event(demo_roster(4), name="Seed Cup", slug=SLUG, sessions=1)
    play_session(event, 1, random.Random(25))
    change_status(event, Event.Status.FINISHED, actor="director")
    return Event.objects.get(pk=event.pk)


_finished_rows = built_once(_build_finished, name="_finished_rows")


@pytest.fixture
def finished(director, _finished_rows):
    """A one-session event of 4 teams, every set played and confirmed, status finished, the seed
    not revealed; ``director`` holds its director role. Built once per test session."""
    return event_from(_finished_rows, _build_finished, director)


def wipe(event):
    """Delete every row of ``event`` as a fresh database would be without it (the service refuses
    a deletion that loses the seed; the database is emptied of the event instead)."""
    Event.objects.filter(pk=event.pk).delete()
    assert not Event.objects.filter(slug=event.slug).exists()
    assert not HandResult.objects.exists() and not WallSet.objects.exists() and not AuditEntry.objects.exists()


def stored_walls_match_the_seed(event, seed) -> int:
    """Re-derive every stored wall of ``event`` from ``seed`` (walls.derivation) and compare it
    with the stored piles; returns how many walls were compared."""
    tiles, piles = event.ruleset["tiles"], event.ruleset["piles"]
    compared = 0
    for wall in WallSet.objects.filter(event=event):
        derived = lay_out(derive_wall(seed, event.uid, wall.session_number, wall.set_no, tiles, piles,
                                      event.public_value or None), piles)
        assert derived == wall.piles, (wall.session_number, wall.set_no)
        compared += 1
    return compared


# --- deleting a finished event whose seed is not revealed ---------------------------------------------


def test_deleting_before_the_reveal_after_the_seedless_final_export_is_refused(finished, director):
    """The issue's sequence up to the deletion: the final export holds no seed, so the deletion
    is refused with what to do (reveal first, or download the secret export)."""
    client = client_for(director)
    export = client.get(reverse("event-export", args=[SLUG])).json()
    assert export["walls"]["seed"] is None  # not revealed: the director's ordinary export holds no seed
    response = client.post(reverse("event-delete", args=[SLUG]), {"confirm_slug": SLUG})
    assert Event.objects.filter(slug=SLUG).exists(), "the event was deleted with its seed in no export"
    assert response.status_code == 409
    body = response.content.decode()
    assert "Reveal the master seed" in body and "export with the master seed" in body
    with pytest.raises(SetupError) as refused:
        delete_event(finished, confirm_slug=SLUG, actor="director")
    assert refused.value.field == "seed"


def test_the_reveal_of_an_event_imported_without_its_seed_refuses_the_empty_seed(finished, director):
    """The issue's sequence from the import on (the deletion done behind the service's back, as
    a lost database would be): the reveal refuses the empty seed and the API says nothing was
    revealed."""
    export = client_for(director).get(reverse("event-export", args=[SLUG])).json()
    wipe(finished)
    restored = import_event(export)
    assert restored.master_seed == ""
    with pytest.raises(SetupError) as refused:
        reveal_seed(restored, actor="director")
    assert refused.value.field == "seed" and "type the master seed" in refused.value.message
    api = client_for().get(f"/api/events/{SLUG}/").json()
    assert api["seed_revealed"] is False and api["master_seed"] is None


def test_the_reveal_page_of_a_seedless_import_asks_for_the_seed_and_checks_it(finished, director):
    seed = finished.master_seed
    export = client_for(director).get(reverse("event-export", args=[SLUG])).json()
    wipe(finished)
    restored = import_event(export)
    assert EventRole.objects.get(event=restored, role=EventRole.Role.DIRECTOR).user == director  # restored with it
    client = client_for(director)
    url = reverse("reveal-seed", args=[SLUG])
    assert 'name="seed"' in client.get(url).content.decode()
    for typed, why in (("", "type the master seed"), ("ab" * 32, "does not match the commitment"),
                       (seed[:-1], "64 hexadecimal"), ("not hex", "64 hexadecimal")):
        response = client.post(url, {"confirm_slug": SLUG, "seed": typed})
        assert response.status_code == 409 and why in html.unescape(response.content.decode()), typed
        assert not Event.objects.get(pk=restored.pk).seed_revealed
    response = client.post(url, {"confirm_slug": SLUG, "seed": " " + seed.upper() + " "})
    assert response.status_code == 302
    event = Event.objects.get(pk=restored.pk)
    assert event.seed_revealed and event.master_seed == seed
    assert stored_walls_match_the_seed(event, event.master_seed) == 16


def test_a_reveal_refuses_a_typed_seed_that_does_not_match_the_commitment_and_a_stored_one_too(finished):
    with pytest.raises(SetupError, match="not this event's master seed"):
        reveal_seed(finished, actor="d", seed="00" * 32)
    Event.objects.filter(pk=finished.pk).update(master_seed="11" * 32)  # a seed that is not the committed one
    with pytest.raises(SetupError, match="commitment"):
        reveal_seed(Event.objects.get(pk=finished.pk), actor="d")
    assert not Event.objects.get(pk=finished.pk).seed_revealed


def test_an_import_refuses_a_seed_that_does_not_match_the_commitment(finished):
    export = export_event(finished, include_secret=True)
    wipe(finished)
    bad = json.loads(json.dumps(export))
    bad["walls"]["seed"] = "22" * 32
    with pytest.raises(ExchangeError, match="walls.seed"):
        import_event(bad)
    bad["walls"]["seed"], bad["event"]["seed_revealed"] = None, True
    with pytest.raises(ExchangeError, match="walls.seed"):
        import_event(bad)
    assert not Event.objects.exists()
    assert import_event(export).master_seed == export["walls"]["seed"]


def test_fault_delete_import_reveal_on_a_fresh_database_keeps_every_wall_verifiable(finished, director, tmp_path):
    """The fault test the issue asks for, through the director's pages: the secret export
    (with the master seed) allows the deletion; the import into a database without the event
    and the reveal keep every wall verifiable from the revealed seed."""
    seed, walls_before = finished.master_seed, {
        (w.session_number, w.set_no): w.piles for w in WallSet.objects.filter(event=finished)}
    client = client_for(director)
    response = client.get(reverse("event-export-secret", args=[SLUG]))
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    path = tmp_path / "seed-cup.json"
    path.write_bytes(response.content)
    assert json.loads(path.read_text(encoding="utf-8"))["walls"]["seed"] == seed
    response = client.post(reverse("event-delete", args=[SLUG]), {"confirm_slug": SLUG})
    assert response.status_code == 302
    assert not Event.objects.exists() and not WallSet.objects.exists() and not HandResult.objects.exists()

    call_command("import_event", str(path))
    restored = Event.objects.get(slug=SLUG)
    assert EventRole.objects.get(event=restored).user == director  # the role came back with the restore
    response = client.post(reverse("reveal-seed", args=[SLUG]), {"confirm_slug": SLUG})
    assert response.status_code == 302
    restored.refresh_from_db()
    assert restored.seed_revealed and restored.master_seed == seed
    assert {(w.session_number, w.set_no): w.piles for w in WallSet.objects.filter(event=restored)} == walls_before
    assert stored_walls_match_the_seed(restored, restored.master_seed) == 16
    public = client_for().get(reverse("event-export", args=[SLUG])).json()
    report = verify_export(public, public["walls"]["seed"])
    assert report.ok and report.commitment_ok and report.checked == 16
    out = tmp_path / "public.json"
    out.write_text(json.dumps(public), encoding="utf-8")
    assert verify_main([str(out)]) == 0
    api = client_for().get(f"/api/events/{SLUG}/").json()
    assert api["seed_revealed"] is True and api["master_seed"] == seed


def test_the_secret_export_is_the_directors_only_and_only_after_play(finished, django_user_model, director):
    staff = django_user_model.objects.create_user("seed-staff", password="pw-seed-staff-1")
    EventRole.objects.create(event=finished, user=staff, role=EventRole.Role.STAFF)
    url = reverse("event-export-secret", args=[SLUG])
    assert client_for(staff).get(url).status_code == 403
    assert client_for().get(url).status_code in (302, 403)
    change_status(finished, Event.Status.PUBLISHED, actor="d")
    response = client_for(director).get(url)
    assert response.status_code == 302  # not finished: no seed file while it could still be played
    assert not AuditEntry.objects.filter(event=finished, action="final-export").exists()


def test_a_revealed_event_is_deleted_after_its_ordinary_final_export(finished, director):
    reveal_seed(finished, actor="director")
    client = client_for(director)
    assert client.get(reverse("event-export", args=[SLUG])).json()["walls"]["seed"] == finished.master_seed
    assert client.post(reverse("event-delete", args=[SLUG]), {"confirm_slug": SLUG}).status_code == 302
    assert not Event.objects.exists()


def test_an_ordinary_export_after_the_secret_one_asks_for_the_secret_one_again(finished, director):
    client = client_for(director)
    client.get(reverse("event-export-secret", args=[SLUG]))
    client.get(reverse("event-export", args=[SLUG]))
    with pytest.raises(SetupError) as refused:
        delete_event(finished, confirm_slug=SLUG, actor="director")
    assert refused.value.field == "seed"


# --- a restore loses nothing -----------------------------------------------------------------------


def wrong_pin(table) -> str:
    """A 4-digit PIN of nobody seated at ``table``."""
    taken = set(table.seats.values_list("player__pin", flat=True))
    return next(f"{n:04d}" for n in range(10000) if f"{n:04d}" not in taken)


@pytest.fixture
def in_play(django_user_model):
    """A seated event with one result entered and locked by wrong PINs, another table whose
    wrong PIN was cleared by the director, and the roles of three accounts."""
    event = prepared_event(team_roster(4), name="Lock Cup", slug="lock-cup", sessions=1)
    users = django_user_model.objects
    director = users.create_user("Dora.Director", password="pw-dora-1")
    staff = users.create_user("sam.staff", password="pw-sam-1")
    scorer = users.create_user("scott.scorer", password="pw-scott-1")
    EventRole.objects.create(event=event, user=director, role=EventRole.Role.DIRECTOR)
    EventRole.objects.create(event=event, user=staff, role=EventRole.Role.STAFF)
    table = first_table(event)
    other = Table.objects.filter(group__session__event=event).exclude(pk=table.pk).order_by("number").first()
    EventRole.objects.create(event=event, user=scorer, role=EventRole.Role.SCORER).tables.add(table, other)
    for seat, name in (("E", "Pia.Player"), ("S", "gone.player")):
        player = table.seats.get(seat=seat).player
        player.user = users.create_user(name, password=f"pw-{name}-1")
        player.save(update_fields=["user"])
    result = submit_result(table, blocks(table)[0][1][0], changes={"E": 48, "S": -16, "W": -16, "N": -16}, actor="t")
    for _ in range(5):
        with pytest.raises(ResultError):
            confirm_result(result, actor="phone", pin=wrong_pin(table), device=PHONE)
    assert pin_counts(table, PHONE).device_wrong == 5
    entry = submit_result(other, blocks(other)[0][1][0], changes={"E": 8, "S": -8, "W": 0, "N": 0}, actor="t")
    with pytest.raises(ResultError):
        confirm_result(entry, actor="phone", pin=wrong_pin(other))
    unlock_confirmation(other, entry, actor="Dora.Director")
    return event, table, result, other


PHONE = Device("phone:restored", "10.0.0.9")


def test_a_restore_keeps_the_audit_log_the_confirmation_attempts_and_the_roles(in_play, django_user_model):
    event, table, result, other = in_play
    attempts_before = list(ConfirmationAttempt.objects.filter(table__group__session__event=event)
                           .values_list("table__number", "result__set_no", "seat", "ok", "cleared", "actor"))
    audit_before = list(AuditEntry.objects.filter(event=event).values_list("action", "actor", "detail"))
    assert ("unlock-confirmation", "Dora.Director") in [(a, b) for a, b, _ in audit_before]
    export = export_event(event)
    wipe(event)
    event = import_event(export)

    assert list(AuditEntry.objects.filter(event=event).values_list("action", "actor", "detail")) == audit_before
    assert list(ConfirmationAttempt.objects.filter(table__group__session__event=event)
                .values_list("table__number", "result__set_no", "seat", "ok", "cleared", "actor")) == attempts_before
    new_table = Table.objects.get(group__session__event=event, number=table.number)
    new_result = HandResult.objects.get(table=new_table, set_no=result.set_no)
    assert pin_counts(new_table, PHONE).device_wrong == 5  # the phone still waits after the restore
    with pytest.raises(ResultError) as locked:
        confirm_result(new_result, actor="phone", pin=new_table.seats.get(seat="S").player.pin, device=PHONE)
    assert locked.value.status == 429
    new_other = Table.objects.get(group__session__event=event, number=other.number)
    assert not pin_counts(new_other, None).table_wrong  # the cleared wrong PIN stays cleared

    roles = {(r.user.username, r.role): sorted(t.number for t in r.tables.all())
             for r in EventRole.objects.filter(event=event).select_related("user")}
    assert roles == {("Dora.Director", "director"): [], ("sam.staff", "staff"): [],
                     ("scott.scorer", "scorer"): sorted([table.number, other.number])}
    players = dict(event.players.filter(user__isnull=False).values_list("number", "user__username"))
    assert players == {new_table.seats.get(seat=seat).player.number: name
                       for seat, name in (("E", "Pia.Player"), ("S", "gone.player"))}


def test_a_restore_reports_the_roles_and_player_links_it_could_not_attach_and_creates_no_account(in_play):
    event, table = in_play[0], in_play[1]
    export = export_event(event)
    wipe(event)
    get_user_model().objects.filter(username="sam.staff").delete()  # accounts gone from the new site
    get_user_model().objects.filter(username="gone.player").delete()
    get_user_model().objects.filter(username="Pia.Player").update(username="pia.player")  # matched ignoring case
    restored = exchange.restore_event(export)
    event = restored.event
    assert {(r.user.username, r.role) for r in EventRole.objects.filter(event=event)} == {
        ("Dora.Director", "director"), ("scott.scorer", "scorer")}
    assert restored.missing_roles == [{"username": "sam.staff", "role": "staff", "tables": []}]
    assert not get_user_model().objects.filter(username__iexact="sam.staff").exists()  # no account made
    new_table = Table.objects.get(group__session__event=event, number=table.number)
    players = dict(event.players.filter(user__isnull=False).values_list("number", "user__username"))
    assert players == {new_table.seats.get(seat="E").player.number: "pia.player"}
    assert restored.missing_players == [{"player": new_table.seats.get(seat="S").player.number, "username": "gone.player"}]


def test_roles_are_matched_to_accounts_case_insensitively(in_play, django_user_model):
    event = in_play[0]
    export = export_event(event)
    wipe(event)
    django_user_model.objects.filter(username="Dora.Director").update(username="dora.director")
    restored = exchange.restore_event(export)
    assert EventRole.objects.get(event=restored.event, role="director").user.username == "dora.director"


def test_the_import_command_reports_the_roles_it_could_not_attach(in_play, tmp_path, capsys):
    event = in_play[0]
    path = tmp_path / "lock.json"
    path.write_text(json.dumps(export_event(event)), encoding="utf-8")
    wipe(event)
    get_user_model().objects.filter(username="scott.scorer").delete()
    call_command("import_event", str(path))
    out = capsys.readouterr().out
    assert "scott.scorer" in out and "scorer" in out and "not attached" in out


def test_the_public_export_holds_no_audit_log_attempts_or_roles(in_play):
    event = in_play[0]
    full, public = export_event(event), public_export(event)
    assert full["audit_log"] and full["confirmation_attempts"] and full["roles"]
    assert {p["user"] for p in full["players"]} >= {"Pia.Player", "gone.player"}
    assert not {"audit_log", "confirmation_attempts", "roles"} & set(public)
    assert not any("user" in p for p in public["players"])


def test_an_export_without_the_new_keys_still_imports(in_play):
    event = in_play[0]
    export = export_event(event)
    for key in ("audit_log", "confirmation_attempts", "roles"):
        export.pop(key)
    wipe(event)
    restored = exchange.restore_event(export)
    assert restored.event.slug == "lock-cup" and restored.missing_roles == []
    assert not AuditEntry.objects.filter(event=restored.event).exists()


def test_a_restore_keeps_a_pending_invitation_waiting_for_its_owner(in_play, django_user_model):
    """A pending invitation (docs/security.md, "Threats and the tests that cover them", threat 3: a role given only when the account's owner
    accepts) is part of the event: after export, wipe and import it still waits, the owner can
    accept it on the restored event, and an invitation of an account not on this site is
    reported, never made into an account."""
    from tournament.models import Invitation
    from tournament.roles import accept_invitation, invite

    event, table = in_play[0], in_play[1]
    owner = django_user_model.objects.create_user("Olga.Owner", password="pw-olga-1")
    django_user_model.objects.create_user("far.away", password="pw-far-1")
    invite(event, username="olga.owner", role=EventRole.Role.SCORER, tables=[table], actor="Dora.Director")
    invite(event, username="far.away", role=EventRole.Role.STAFF, actor="Dora.Director")
    export = export_event(event)
    assert {(i["username"], i["status"]) for i in export["invitations"]} == {("olga.owner", "pending"), ("far.away", "pending")}
    assert "invitations" not in public_export(event)
    wipe(event)
    django_user_model.objects.filter(username="far.away").delete()

    restored = exchange.restore_event(export)
    event = restored.event
    assert restored.missing_invitations == [{"username": "far.away", "role": "staff", "status": "pending"}]
    assert not django_user_model.objects.filter(username__iexact="far.away").exists()
    waiting = Invitation.objects.get(event=event)
    assert (waiting.user, waiting.status, waiting.invited_by) == (owner, Invitation.Status.PENDING, "Dora.Director")
    assert not EventRole.objects.filter(event=event, user=owner).exists()  # still no role before accepting
    role = accept_invitation(waiting.pk, user=owner)
    new_table = Table.objects.get(group__session__event=event, number=table.number)
    assert role.role == EventRole.Role.SCORER and list(role.tables.all()) == [new_table]
