"""An offline venue (docs/director-guide.md, "An event in several clubs"; docs/export.md, "Venue
packages and results bundles"): its package holds its own part of the event and nothing else;
its laptop's results bundle merges at the central site with no edit; an altered, foreign or
misplaced bundle is refused naming the venue, table and set and stores nothing; a bundle sent
twice changes nothing; and bundles merged in any order give the standings of a full recompute."""

from __future__ import annotations

import dataclasses
import datetime
import json
import random

import pytest
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from scoring.actions.rescoring import rescore_set
from scoring.bundles import BundleRow, joined, make_bundle
from scoring.models import HandResult, SetRelease, SetScore
from scoring.reports import event_standings
from tests.factories import client_for, play_slots
from tests.test_venues import _roster
from tournament.exchange import export_event, restore_event
from tournament.models import Event, EventRole, Table, Venue, VenueBundle
from tournament.services import create_event, import_roster, prepare_session
from tournament.venue_exchange import import_package, merge_bundle, queue_bundle, results_bundle, venue_package
from tournament.venues import add_venue, set_schedule
from walls.rulesets import get_ruleset
from walls.verify import verify_export

pytestmark = pytest.mark.django_db

CODES = ("osaka", "paris", "lyon", "kyoto")


def _clubs(ruleset_code: str = "mcr-duplicate", *, venues: int = 2, teams: int = 4, sessions: int = 1,
           comparison: str = Event.Comparison.FIELD) -> Event:
    """``venues`` offline clubs of ``teams`` teams each, one wind round a session, every session
    prepared, the field compared across them all (or each group within itself: ``comparison``)."""
    ruleset = dataclasses.replace(get_ruleset(ruleset_code), rounds=1)
    event = create_event(name="Clubs Cup", slug="clubs-cup", ruleset=ruleset, ruleset_code=ruleset_code, sessions=sessions,
                         comparison=comparison, base_url="http://testserver/")
    for code in CODES[:venues]:
        add_venue(event, name=f"{code.title()} club", code=code, offline=True, actor="d")
    import_roster(event, _roster({code: teams for code in CODES[:venues]}))
    for number in range(1, sessions + 1):
        prepare_session(event, number)
    return event


def _played(event: Event, code: str, rng: random.Random, *, revision: int = 1) -> list[BundleRow]:
    """What a venue's laptop would hold: a zero-sum result for every set at each of its tables."""
    seats = tuple(event.get_ruleset().seats)
    rows = []
    for table in Table.objects.filter(group__session__event=event, group__venue__code=code).select_related("group__session"):
        for set_no in range(1, event.get_ruleset().hands_per_session + 1):
            winner, fan = rng.choice(seats), rng.randint(8, 30)
            changes = {s: (3 * (fan + 8) if s == winner else -(fan + 8)) for s in seats}
            rows.append(BundleRow(table.group.session.number, table.number, set_no, revision, changes, {"kind": "test"}))
    return rows


def _bundle(event: Event, code: str, rows) -> dict:
    venue = event.venues.get(code=code)
    return json.loads(json.dumps(make_bundle(venue.bundle_key, event.uid, code, rows)))


def test_a_package_holds_its_venue_and_nothing_of_another(director):
    event = _clubs(sessions=2)
    paris = event.venues.get(code="paris")
    package = venue_package(event, paris)
    text = json.dumps(package, cls=DjangoJSONEncoder)
    assert package["walls"]["seed"] is None and event.master_seed not in text
    assert [v["code"] for v in package["venues"]] == ["paris"] and package["venues"][0]["bundle_key"] == paris.bundle_key
    assert event.venues.get(code="osaka").bundle_key not in text
    osaka_teams = {t.name for t in event.teams.filter(venue__code="osaka")}
    assert osaka_teams and not any(f'"{name}"' in text for name in osaka_teams)
    assert {t["name"] for t in package["teams"]} == {t.name for t in event.teams.filter(venue=paris)}
    assert all(g["venue"] == "paris" for s in package["sessions"] for g in s["groups"])
    assert len(package["walls"]["sets"]) == 2 * event.get_ruleset().hands_per_session  # every session's walls travel
    assert package["results"] == [] and package["roles"] == [] and package["audit_log"] == []


def test_a_package_waits_for_every_session_to_be_prepared(director):
    ruleset = dataclasses.replace(get_ruleset("mcr-duplicate"), rounds=1)
    event = create_event(name="Clubs", slug="clubs", ruleset=ruleset, sessions=2)
    add_venue(event, name="Paris club", code="paris", offline=True, actor="d")
    import_roster(event, _roster({"paris": 4}))
    prepare_session(event, 1)
    from tournament.seating import SetupError
    with pytest.raises(SetupError) as caught:
        venue_package(event, event.venues.get())
    assert caught.value.field == "venue"


def test_an_offline_venue_plays_on_its_laptop_and_its_bundle_merges_with_no_edit(director):
    """The whole trip on one database: the central event kept as its full export, the laptop's
    copy imported from the package and played as the room plays (entries confirmed with PINs),
    the central event restored, the bundle merged."""
    event = _clubs()
    central = export_event(event, include_secret=True)
    package = json.loads(json.dumps(venue_package(event, event.venues.get(code="paris")), cls=DjangoJSONEncoder))
    event.delete()
    laptop = import_package(package)
    assert list(laptop.venues.values_list("code", flat=True)) == ["paris"] and laptop.master_seed == ""
    play_slots(laptop, random.Random(5))
    hands = laptop.get_ruleset().hands_per_session
    # the laptop never releases (the central site does, once every venue has played): no wall, result or
    # score is public there; the club's people read its provisional standings
    assert not SetRelease.objects.filter(event=laptop).exists()
    standings_page = client_for().get(reverse("standings", args=[laptop.slug]))
    assert b'id="provisional"' in standings_page.content and b"Paris club" in standings_page.content
    assert client_for().get(reverse("hand-records", args=[laptop.slug, 1])).status_code == 404
    seated = client_for(table=Table.objects.filter(group__session__event=laptop).first())
    provisional = seated.get(reverse("venue-standings", args=[laptop.slug, "paris"]))
    assert provisional.status_code == 200 and {r.sets for r in provisional.context["rows"]} == {hands}
    bundle = json.loads(json.dumps(results_bundle(laptop), cls=DjangoJSONEncoder))
    played = {(r.table.number, r.set_no): r.changes for r in HandResult.objects.filter(event=laptop).select_related("table")}
    laptop.delete()
    event = restore_event(central).event
    upload = queue_bundle(event.venues.get(code="paris"), bundle, actor="central")
    assert upload.status == VenueBundle.Status.MERGED, upload.report
    assert upload.report["new"] == 4 * hands
    merged = {(r.table.number, r.set_no): r.changes for r in HandResult.objects.filter(event=event).select_related("table")}
    assert merged == played
    assert not SetRelease.objects.filter(event=event).exists()  # held back: Osaka has not played


def _snapshot(event: Event) -> tuple:
    results = sorted((r.table_id, r.set_no, r.revision, json.dumps(r.changes, sort_keys=True))
                     for r in HandResult.objects.filter(event=event))
    return results, [(r["name"], r["points"], r["rank"]) for r in event_standings(event, public=True)]


def test_a_changed_score_is_refused_naming_venue_table_and_set_and_nothing_is_stored(director):
    event = _clubs()
    bundle = _bundle(event, "paris", _played(event, "paris", random.Random(1)))
    row = bundle["results"][5]
    row["changes"]["E"] += 8
    row["changes"]["S"] -= 8
    upload = queue_bundle(event.venues.get(code="paris"), bundle, actor="central")
    assert upload.status == VenueBundle.Status.REFUSED
    message = upload.report["error"]
    assert "paris" in message and f"table {row['table']}" in message and f"set {row['set']}" in message
    assert not HandResult.objects.filter(event=event).exists()


def test_a_bundle_sent_twice_changes_nothing(director):
    event = _clubs()
    bundle = _bundle(event, "paris", _played(event, "paris", random.Random(1)))
    first = queue_bundle(event.venues.get(code="paris"), bundle, actor="central")
    before = _snapshot(event), list(SetScore.objects.filter(event=event).values_list("pk", flat=True))
    again = queue_bundle(event.venues.get(code="paris"), bundle, actor="central")
    assert first.status == again.status == VenueBundle.Status.MERGED
    assert again.report["new"] == again.report["newer"] == again.report["sets"] == 0 and again.report["same"] == first.report["new"]
    assert (_snapshot(event), list(SetScore.objects.filter(event=event).values_list("pk", flat=True))) == before
    assert merge_bundle(again.pk).report == again.report  # a merged upload is not merged again


def test_a_foreign_or_misplaced_bundle_is_refused_naming_it(director):
    event = _clubs()
    paris, osaka = event.venues.get(code="paris"), event.venues.get(code="osaka")
    bundle = _bundle(event, "paris", _played(event, "paris", random.Random(1)))
    upload = queue_bundle(osaka, bundle, actor="central")  # Paris's bundle under Osaka
    assert upload.status == VenueBundle.Status.REFUSED and "paris" in upload.report["error"]
    # signed with Paris's own key, but a result of an Osaka table: refused naming the table
    stray = _played(event, "osaka", random.Random(2))[:1]
    upload = queue_bundle(paris, _bundle(event, "paris", stray), actor="central")
    assert upload.status == VenueBundle.Status.REFUSED
    assert f"table {stray[0].table}" in upload.report["error"] and "not one of this venue's" in upload.report["error"]
    # signed with another key: the venue's signature does not hold
    forged = make_bundle("00" * 32, event.uid, "paris", _played(event, "paris", random.Random(1)))
    upload = queue_bundle(paris, json.loads(json.dumps(forged)), actor="central")
    assert upload.status == VenueBundle.Status.REFUSED and "paris" in upload.report["error"]
    assert not HandResult.objects.filter(event=event).exists()


@pytest.mark.parametrize(("ruleset_code", "comparison"), [("mcr-duplicate", "field"), ("riichi-duplicate", "group")])
def test_bundles_merged_in_any_order_give_the_standings_of_a_full_recompute(director, ruleset_code, comparison):
    """4 venues × 8 tables, the last venue playing 24 hours after the first; each venue sends the
    results of its first tables, then everything, then a correction (revision 2 of one result): 12
    uploads, merged in 100 random orders, the last venue's bundles as likely first as last. No set
    is public before every venue's complete bundle is in. The combined standings after every order equal those of a full
    recompute from the raw bundles (every result inserted at once, every set scored afresh). Duplicate
    MCR compared across the field, riichi duplicate within each group."""
    event = _clubs(ruleset_code, venues=4, teams=8, comparison=comparison)
    rng = random.Random(47)
    uploads = []
    for code in CODES:
        rows = _played(event, code, rng)
        corrected = dataclasses.replace(rows[3], revision=2, changes={s: -v for s, v in rows[3].changes.items()})
        uploads += [(code, _bundle(event, code, rows[: len(rows) // 2])), (code, _bundle(event, code, rows)),
                    (code, _bundle(event, code, [corrected]))]
    venues = {v.code: v for v in Venue.objects.filter(event=event)}
    hands = event.get_ruleset().hands_per_session

    # the full recompute: the raw bundles joined, inserted at once, every set scored from scratch
    with transaction.atomic():
        state = joined(rows_of(bundle) for _code, bundle in uploads)
        tables = {(t.group.session.number, t.number): t for t in Table.objects.filter(group__session__event=event)
                  .select_related("group__session")}
        HandResult.objects.bulk_create(
            HandResult(event=event, table=tables[(r.session, r.table)], session_number=r.session, set_no=r.set_no,
                       changes=dict(r.changes), outcome=r.outcome, revision=r.revision, status=HandResult.Status.CONFIRMED,
                       entered_by="recompute", confirmed_by="recompute") for r in state.values())
        for set_no in range(1, hands + 1):
            rescore_set(event, 1, set_no)
        expected = _snapshot(event)[1]
        assert SetRelease.objects.filter(event=event).count() == hands and len(expected) == 32
        transaction.set_rollback(True)

    start = timezone.now()
    for k, code in enumerate(CODES):  # the last venue plays 24 hours after the first
        set_schedule(venues[code], 1, start + datetime.timedelta(hours=8 * k),
                     start + datetime.timedelta(hours=8 * k + 4), actor="central")
    full = {id(bundle) for k, (_code, bundle) in enumerate(uploads) if k % 3 == 1}
    orders = random.Random(7)
    for _k in range(100):
        order = orders.sample(uploads, len(uploads))
        with transaction.atomic():
            merged: set[int] = set()
            for code, bundle in order:
                assert queue_bundle(venues[code], bundle, actor="central").status == VenueBundle.Status.MERGED
                merged.add(id(bundle))
                # held back until every venue's every table has played: nothing public before the last venue
                assert SetRelease.objects.filter(event=event).exists() == (full <= merged)
            assert _snapshot(event)[1] == expected
            transaction.set_rollback(True)


def rows_of(bundle: dict) -> list[BundleRow]:
    return [BundleRow(r["session"], r["table"], r["set"], r["revision"], r["changes"], r["outcome"]) for r in bundle["results"]]


def test_the_director_downloads_a_package_and_merges_a_bundle_on_the_venues_page(director):
    event = _clubs()
    EventRole.objects.create(event=event, user=director, role=EventRole.Role.DIRECTOR)
    client = client_for(director)
    response = client.get(reverse("venue-package", args=[event.slug, "paris"]))
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    assert json.loads(response.content)["package"]["venue"] == "paris"
    bundle = _bundle(event, "paris", _played(event, "paris", random.Random(3)))
    from django.core.files.uploadedfile import SimpleUploadedFile
    page = client.post(reverse("venues", args=[event.slug]), {
        "action": "bundle", "venue": "paris",
        "bundle": SimpleUploadedFile("paris.json", json.dumps(bundle).encode(), "application/json")}, follow=True)
    text = page.content.decode()
    assert "merged" in text and HandResult.objects.filter(event=event).count() == len(bundle["results"])
    page = client.post(reverse("venues", args=[event.slug]), {
        "action": "bundle", "venue": "paris", "bundle": SimpleUploadedFile("x.json", b"not json", "application/json")},
        follow=True)
    assert "not JSON" in page.content.decode()


def test_after_the_reveal_every_venues_walls_re_derive_from_the_one_seed(director):
    """The walls each club built are those of its package; after the reveal the standalone
    verifier re-derives every one of them from the master seed behind the one commitment."""
    event = _clubs(sessions=2)
    for code in CODES[:2]:
        package = json.loads(json.dumps(venue_package(event, event.venues.get(code=code)), cls=DjangoJSONEncoder))
        assert package["walls"]["commitment"] == event.commitment and package["walls"]["seed"] is None
        report = verify_export(package, event.master_seed)
        assert report.ok and report.commitment_ok and report.checked == 2 * event.get_ruleset().hands_per_session
        package["walls"]["sets"][0]["piles"]["E-hand"][0] = "9s" if package["walls"]["sets"][0]["piles"]["E-hand"][0] != "9s" else "1s"
        assert not verify_export(package, event.master_seed).ok  # a tile changed in a club's package is found
