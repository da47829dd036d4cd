"""A table's phone loses the venue's Wi-Fi (Playwright's ``context.set_offline``): it enters and
confirms two hands with the connection gone, reloads the page, and comes back online; exactly
those two results are then stored, once each, entered and confirmed. The page keeps working
offline through its service worker (the table page and its files kept on the phone) and its queue
(static/offline.js: the hands wait, visibly, in local storage, and go in order with their request
keys when the connection returns). A refusal met on the way (a PIN that is not the player's) is
shown next to its hand and not sent again."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from factories import demo_roster, enter_outcome, login_as_table_in_browser, prepared_event, say_who_is_entering

from walls.setcode import set_code

from .conftest import PHONE, SCREENSHOTS, in_own_connection, once_unlocked, phone_offline

pytestmark = [pytest.mark.browser, pytest.mark.django_db]


@dataclass(frozen=True)
class Table:
    slug: str
    table_id: int
    code: str
    sets: tuple[int, ...]
    pins: dict


@pytest.fixture(scope="module")
def queue_table(demo_site, browser, django_db_blocker):
    from factories import blocks
    from tournament.models import Event
    from tournament.models import Table as TableRow

    with django_db_blocker.unblock():
        event = prepared_event(demo_roster(4), name="Queue Cup", slug="queue-cup", sessions=1,
                               base_url="http://192.168.7.20:8000/")
        table = TableRow.objects.filter(group__session__event=event).order_by("number").first()
        values = Table(slug=event.slug, table_id=table.pk, code=table.login_code, sets=tuple(blocks(table)[0][1]),
                       pins={s.seat: s.player.pin for s in table.seats.select_related("player")})
    yield values
    with django_db_blocker.unblock():
        Event.objects.filter(slug="queue-cup").delete()


def _stored(table_id: int) -> dict:
    """The table's results and their history, read on a connection of its own
    (:func:`tests.browser.conftest.in_own_connection`)."""
    from scoring.models import HandResult

    return in_own_connection(lambda: {r.set_no: (r.status, [v.action for v in r.revisions.order_by("id")], r.changes)
                                      for r in HandResult.objects.filter(table_id=table_id)})


def _kept_pins(page) -> list[str]:
    """Every PIN the phone's local storage holds in a queued write (static/offline.js)."""
    return page.evaluate("""() => Object.keys(localStorage).filter(k => k.startsWith('dmj-queue:'))
        .flatMap(k => JSON.parse(localStorage.getItem(k)))
        .flatMap(item => item.fields.filter(f => f[0] === 'entry_pin' || f[0] === 'pin').map(f => f[1]))""")


def _queue_hand(page, set_no: int, fan: int, pin: str) -> None:
    enter_outcome(page, set_no=set_no, kind="discard", winners=("E",), discarder="S", values={"E": fan})
    say_who_is_entering(page, "E", pin)
    page.click("#save")  # offline: queued on the phone, no navigation


def test_two_hands_entered_and_confirmed_offline_are_stored_once_each(browser, demo_site, queue_table):
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        table_url = demo_site.page(f"/e/{queue_table.slug}/table/{queue_table.table_id}/")
        login_as_table_in_browser(page, demo_site.page(f"/e/{queue_table.slug}/entry/login/{queue_table.code}"))
        assert page.url == table_url
        page.wait_for_selector("#queue[data-ready='1']", state="attached", timeout=20_000)  # page and files kept

        context.set_offline(True)
        phone_offline(page)
        first, second = queue_table.sets[0], queue_table.sets[1]
        _queue_hand(page, first, 10, queue_table.pins["E"])
        page.wait_for_function("document.getElementById('queue-count').textContent.includes('1 hand waiting')")
        page.locator("#queue-items li").nth(0).locator(".queued-pin").fill(queue_table.pins["S"])
        page.locator("#queue-items li").nth(0).locator(".queued-confirm").click()
        _queue_hand(page, second, 12, queue_table.pins["E"])
        page.wait_for_function("document.getElementById('queue-count').textContent.includes('2 hands waiting')")
        hand2 = page.locator("#queue-items li.queued-waiting").filter(has_text=f"Set {set_code(1, second)}")  # named as on its label
        hand2.locator(".queued-pin").fill(queue_table.pins["W"])
        hand2.locator(".queued-confirm").click()
        assert _stored(queue_table.table_id) == {}  # nothing reached the server

        page.reload()  # still offline: the service worker serves the kept page, the queue is in local storage
        phone_offline(page)
        page.wait_for_function("document.getElementById('queue-count').textContent.includes('2 hands waiting')")
        assert page.locator("#queue-items li").count() == 4  # two hands, two confirmations
        assert page.locator("#set_no").input_value() not in (str(first), str(second))  # the next set is offered
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(SCREENSHOTS / "table-offline-queue-phone.png"))
        assert _stored(queue_table.table_id) == {}

        with page.expect_navigation(url=table_url, timeout=30_000):  # sent in order, then the page as stored
            context.set_offline(False)
        assert _kept_pins(page) == []  # no PIN stays on the phone once sent
        page.wait_for_selector("#table-results")
        stored = _stored(queue_table.table_id)
        assert set(stored) == {first, second}
        for set_no in (first, second):
            status, history, _changes = stored[set_no]
            assert status == "confirmed" and history == ["enter", "confirm"], (set_no, stored[set_no])
        assert page.locator("#queue").is_hidden()
        assert page.locator(f"#played-{first}").count() == 1 and page.locator(f"#played-{second}").count() == 1
    finally:
        context.close()


def test_a_refusal_met_when_the_connection_returns_is_shown_next_to_its_hand(browser, demo_site, queue_table):
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        login_as_table_in_browser(page, demo_site.page(f"/e/{queue_table.slug}/entry/login/{queue_table.code}"))
        context.set_offline(True)
        phone_offline(page)
        third = queue_table.sets[2]
        wrong = next(p for p in ("1111", "2222", "3333") if p not in queue_table.pins.values())
        _queue_hand(page, third, 8, wrong)
        page.wait_for_function("document.getElementById('queue-count').textContent.includes('1 hand waiting')")
        assert _kept_pins(page) == [wrong]  # waiting: the PIN goes with the hand
        context.set_offline(False)
        refused = page.locator("#queue-items li.queued-refused")
        refused.wait_for(timeout=20_000)
        assert "not the PIN of the player at seat" in refused.inner_text()
        assert third not in _stored(queue_table.table_id)
        assert _kept_pins(page) == []  # refused: its PIN is gone from the phone
        refused.get_by_role("button").click()  # Remove
        assert page.locator("#queue").is_hidden()
    finally:
        context.close()


def test_the_same_request_sent_twice_stores_one_result_and_answers_it_both_times(browser, demo_site, queue_table):
    """What the queue relies on, from the phone's own session: the table page's entry posted twice
    with one request key (a sending the phone could not see answered, sent again) is stored once,
    and both answers name the same stored result."""
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        table_url = demo_site.page(f"/e/{queue_table.slug}/table/{queue_table.table_id}/")
        login_as_table_in_browser(page, demo_site.page(f"/e/{queue_table.slug}/entry/login/{queue_table.code}"))
        token = page.locator("input[name=csrfmiddlewaretoken]").first.input_value()
        set_no = queue_table.sets[3]
        form = {"csrfmiddlewaretoken": token, "request_key": "phone-twice-0001", "set_no": str(set_no), "mode": "outcome",
                "kind": "draw", "entered_by_seat": "E", "entry_pin": queue_table.pins["E"]}
        answers = [page.request.post(table_url, form=form, headers={"Accept": "application/json", "Referer": table_url})
                   for _ in range(2)]
        assert [a.status for a in answers] == [200, 200]
        bodies = [a.json() for a in answers]
        assert bodies[0]["stored"] and bodies[1]["stored"] and bodies[0]["result"] == bodies[1]["result"]
        stored = _stored(queue_table.table_id)
        assert stored[set_no][1] == ["enter"]  # one result, one revision
    finally:
        context.close()


@pytest.fixture(scope="module")
def riichi_queue_table(demo_site, browser, django_db_blocker):
    from factories import blocks
    from tournament.models import Event
    from tournament.models import Table as TableRow

    with django_db_blocker.unblock():
        event = prepared_event(demo_roster(4), name="Riichi Queue Cup", slug="riichi-queue-cup", ruleset_code="riichi-duplicate",
                               sessions=1, base_url="http://192.168.7.20:8000/")
        table = TableRow.objects.filter(group__session__event=event).order_by("number").first()
        values = Table(slug=event.slug, table_id=table.pk, code=table.login_code, sets=tuple(blocks(table)[0][1]),
                       pins={s.seat: s.player.pin for s in table.seats.select_related("player")})
    yield values
    with django_db_blocker.unblock():
        Event.objects.filter(slug="riichi-queue-cup").delete()


@pytest.mark.parametrize(("language", "kind", "tenpai", "expected"), [
    # the case: a drawn riichi hand read only "Draw (no winner)"; two tenpai share the noten payment
    ("ja", "draw", ("E", "S"), {"E": 1500, "S": 1500, "W": -1500, "N": -1500}),
    # East wins 3 han 40 fu on West's discard with a riichi of its own: 5,200 and the stick back
    ("en", "discard", (), {"E": 7700, "S": 0, "W": -7700, "N": 0}),
])
def test_a_hand_confirmed_offline_shows_the_score_changes_the_server_then_stores(browser, demo_site, riichi_queue_table,
                                                                                 language, kind, tenpai, expected):
    """Issue 48: the player who confirms a hand queued offline approves changes they must have
    seen. The queued hand reads its score changes, computed on the phone (static/payments.js),
    in the page's language, next to the PIN box; once the connection returns, the server stores
    exactly those changes."""
    from scoring.models import HandResult

    once_unlocked(lambda: HandResult.objects.filter(table_id=riichi_queue_table.table_id).delete())
    context = browser.new_context(viewport=PHONE)
    context.add_cookies([{"name": "django_language", "value": language, "url": demo_site.url}])
    try:
        page = context.new_page()
        table_url = demo_site.page(f"/e/{riichi_queue_table.slug}/table/{riichi_queue_table.table_id}/")
        login_as_table_in_browser(page, demo_site.page(f"/e/{riichi_queue_table.slug}/entry/login/{riichi_queue_table.code}"))
        page.wait_for_selector("#queue[data-ready='1']", state="attached", timeout=20_000)
        context.set_offline(True)
        phone_offline(page)
        set_no = riichi_queue_table.sets[0]
        if kind == "draw":
            enter_outcome(page, set_no=set_no, kind="draw", tenpai=tenpai)
        else:
            enter_outcome(page, set_no=set_no, kind="discard", winners=("E",), discarder="W", values={"E": 3}, fu={"E": 40},
                          riichi=("E",))
        say_who_is_entering(page, "E", riichi_queue_table.pins["E"])
        page.click("#save")
        item = page.locator("#queue-items li").first
        item.locator(".queued-pin").wait_for()
        labels = {"ja": {"E": "東", "S": "南", "W": "西", "N": "北"}, "en": {s: s for s in "ESWN"}}[language]
        words = ", ".join(f"{labels[s]} {v:+d}" if v else f"{labels[s]} 0" for s, v in expected.items())
        read = item.inner_text().replace("\xa0", " ")
        assert words in read, read  # what the confirming player reads before typing their PIN
        if language == "ja":
            assert "流局" in read and "Draw" not in read
        page.screenshot(path=str(SCREENSHOTS / f"table-offline-confirm-{language}.png"))
        item.locator(".queued-pin").fill(riichi_queue_table.pins["S"])
        item.locator(".queued-confirm").click()
        with page.expect_navigation(url=table_url, timeout=30_000):
            context.set_offline(False)
        stored = _stored(riichi_queue_table.table_id)
        assert stored[set_no][0] == "confirmed" and stored[set_no][2] == expected
    finally:
        context.close()
