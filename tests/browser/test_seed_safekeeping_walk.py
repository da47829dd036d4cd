"""docs/security.md, "Threats and the tests that cover them", threat 6 walked in Chromium as the director: the delete page of a finished event
whose seed is not revealed refuses and offers the reveal or the export with the master seed;
that export allows the deletion; the event imported from it is revealed and every wall verifies.
An event imported from the ordinary (seedless) export asks for the seed at the reveal and
refuses a wrong one. Screenshots: /work/notes/shots-seed/ (SEED_SHOTS overrides).
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from tests.browser.conftest import in_own_connection, once_unlocked

pytestmark = [pytest.mark.browser, pytest.mark.django_db]

SHOTS = Path(os.environ.get("SEED_SHOTS", "/work/notes/shots-seed"))


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def build_finished(slug: str, director: str) -> str:
    """A finished one-session event of 4 teams, every set confirmed, the seed not revealed,
    ``director`` its director; returns its master seed."""
    from django.contrib.auth import get_user_model

    from factories import demo_roster, prepared_event
    from tournament.demo import play_session
    from tournament.event_setup import change_status
    from tournament.models import Event, EventRole

    Event.objects.filter(slug=slug).delete()
    event = prepared_event(demo_roster(4), name=slug.replace("-", " ").title(), slug=slug, sessions=1)
    EventRole.objects.create(event=event, user=get_user_model().objects.get(username=director), role=EventRole.Role.DIRECTOR)
    play_session(event, 1, random.Random(7))
    change_status(event, Event.Status.FINISHED, actor=director)
    return Event.objects.get(pk=event.pk).master_seed


def import_file(path: str) -> None:
    from django.core.management import call_command

    call_command("import_event", path)


def wipe(slug: str) -> None:
    from tournament.models import Event

    Event.objects.filter(slug=slug).delete()


def verified(slug: str) -> tuple[bool, int, str]:
    """(every wall of the event matches its revealed seed, walls checked, the seed)."""
    from tournament.exchange import public_export
    from tournament.models import Event
    from walls.verify import verify_export

    event = Event.objects.get(slug=slug)
    data = public_export(event)
    report = verify_export(data, data["walls"]["seed"])
    return report.ok and report.commitment_ok and event.seed_revealed, report.checked, event.master_seed


def download(page, link_name: str, path: Path) -> dict:
    with page.expect_download() as info:
        page.get_by_role("link", name=link_name).click()
    info.value.save_as(str(path))
    return json.loads(path.read_text(encoding="utf-8"))


def test_delete_with_the_seed_export_then_import_and_reveal_keeps_every_wall_verifiable(director_page, demo_site, tmp_path):
    slug = "seed-walk"
    seed = in_own_connection(build_finished, slug, demo_site.director)
    page = director_page
    try:
        page.goto(demo_site.page(f"/e/{slug}/director/delete/"))
        body = page.locator("main").inner_text()
        assert "Delete for ever" not in body and "Export with the master seed (JSON)" in body, body
        shot(page, "01-delete-page-asks-for-the-seed-export")

        data = download(page, "Export with the master seed (JSON)", tmp_path / "seed-walk.json")
        assert data["walls"]["seed"] == seed and data["roles"]
        page.goto(demo_site.page(f"/e/{slug}/director/delete/"))
        page.fill("#confirm_slug", slug)
        shot(page, "02-delete-page-after-the-seed-export")
        with page.expect_navigation():
            page.get_by_role("button", name="Delete for ever").click()
        assert page.url.rstrip("/") == demo_site.url.rstrip("/"), page.url
        shot(page, "03-deleted")

        in_own_connection(import_file, str(tmp_path / "seed-walk.json"))
        page.goto(demo_site.page(f"/e/{slug}/director/reveal/"))
        assert page.locator("#seed").count() == 0  # the export carried the seed: nothing to type
        page.fill("#confirm_slug", slug)
        shot(page, "04-reveal-page-of-the-restored-event")
        with page.expect_navigation():
            page.locator("main button[type=submit]").click()
        page.goto(demo_site.page(f"/e/{slug}/"))
        assert seed in page.locator("main").inner_text()
        shot(page, "05-event-page-shows-the-revealed-seed")
        ok, checked, revealed = in_own_connection(verified, slug)
        assert ok and checked == 16 and revealed == seed
    finally:
        once_unlocked(wipe, slug)


def test_an_event_imported_without_its_seed_asks_for_it_at_the_reveal(director_page, demo_site, tmp_path):
    slug = "seed-walk-typed"
    seed = in_own_connection(build_finished, slug, demo_site.director)
    page = director_page
    try:
        page.goto(demo_site.page(f"/e/{slug}/director/"))
        # the ordinary export of a finished event: the final one, without the seed
        data = download(page, "Export the event (JSON)", tmp_path / "plain.json")
        assert data["walls"]["seed"] is None
        page.goto(demo_site.page(f"/e/{slug}/director/delete/"))
        body = page.locator("main").inner_text()
        assert "Delete for ever" not in body and "master seed is not revealed yet" in body, body
        shot(page, "06-delete-refused-after-the-seedless-export")

        in_own_connection(wipe, slug)  # the database lost it behind the service's back
        in_own_connection(import_file, str(tmp_path / "plain.json"))
        page.goto(demo_site.page(f"/e/{slug}/director/reveal/"))
        assert page.locator("#seed").count() == 1
        shot(page, "07-reveal-page-asks-for-the-seed")
        page.fill("#confirm_slug", slug)
        page.fill("#seed", "ab" * 32)
        with page.expect_navigation():
            page.locator("main button[type=submit]").click()
        assert "does not match the commitment" in page.locator("#reveal-error").inner_text()
        assert page.locator("#seed").input_value() == "ab" * 32  # kept, to correct a typo
        shot(page, "08-reveal-refuses-a-wrong-seed")
        page.fill("#confirm_slug", slug)
        page.fill("#seed", seed.upper())  # either case
        with page.expect_navigation():
            page.locator("main button[type=submit]").click()
        shot(page, "09-revealed-with-the-typed-seed")
        ok, checked, revealed = in_own_connection(verified, slug)
        assert ok and checked == 16 and revealed == seed
    finally:
        once_unlocked(wipe, slug)
