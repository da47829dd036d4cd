"""The phone-first table pages: login by table code, entry by outcome, confirmation by a second
seat (same phone or a second device), the result's history, the QR scan route, and the
director's live grid data."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.http import urlencode

from scoring.models import HandResult
from scoring.actions.confirmation import confirm_result, correct_result, dispute_result
from scoring.actions.entry import submit_result
from factories import blocks
from walls.models import WallSet
from walls.setcode import SetId

from factories import entering, first_set, login_as_table, pin, table_url

pytestmark = pytest.mark.django_db

ZERO = {"E": 0, "S": 0, "W": 0, "N": 0}


def enter_by_outcome(client, table, entered_by_seat="E", **extra):
    data = {"set_no": str(first_set(table)), "mode": "outcome", "kind": "discard", "winners": "E",
            "discarder": "S", "value_E": "10", **entering(table, entered_by_seat), **extra}
    return client.post(table_url(table), data)


def test_table_code_opens_the_tables_page(client, table):
    response = login_as_table(client, table, code=table.login_code.lower())
    assert response["Location"] == table_url(table)
    page = client.get(table_url(table)).content.decode()
    for seat in table.seats.select_related("player"):
        assert seat.player.name in page


def test_an_unknown_table_code_is_refused_with_a_message(client):
    response = client.post(reverse("table-login"), {"code": "NOPE1234"}, REMOTE_ADDR="10.9.9.9")
    assert response.status_code == 400
    assert "No table has the code NOPE1234" in response.content.decode()


def test_table_login_does_not_redirect_off_site(client, table):
    response = client.post(reverse("table-login") + "?" + urlencode({"next": "https://evil.example/"}), {"code": table.login_code})
    assert response["Location"] == table_url(table)


def test_the_table_page_without_the_code_sends_to_the_login(client, table):
    response = client.get(table_url(table))
    assert response.status_code == 302
    assert response["Location"] == reverse("table-login") + "?" + urlencode({"next": table_url(table)})


def test_table_page_queries_do_not_grow_with_the_results(table_client, table):
    url = table_url(table)
    with CaptureQueriesContext(connection) as empty:
        assert table_client.get(url).status_code == 200
    sets = blocks(table)[0][1]
    for set_no in sets[:3]:
        result = submit_result(table, set_no, changes=ZERO, actor="t", entered_by_seat="E")
        if set_no != sets[0]:
            confirm_result(result, actor="d", director=True)
    with CaptureQueriesContext(connection) as busy:
        assert table_client.get(url).status_code == 200
    assert len(busy) == len(empty)


def test_entry_by_outcome_stores_the_paid_changes_and_asks_for_confirmation(table_client, table):
    response = enter_by_outcome(table_client, table, entered_by_seat="E")
    result = HandResult.objects.get()
    assert response["Location"] == f"{table_url(table)}?confirm={result.pk}#confirm-{result.pk}"
    assert result.changes == {"E": 34, "S": -18, "W": -8, "N": -8}
    assert result.outcome["entered_by_seat"] == "E" and result.entered_by == f"{table.seats.get(seat='E').player.name} (E), {table}"
    page = table_client.get(response["Location"]).content.decode()
    assert f'id="confirm-{result.pk}"' in page and "Entered by seat E" in page
    assert f'name="revision" value="{result.revision}"' in page


def test_the_entering_seats_pin_is_refused_and_another_seats_pin_confirms(table_client, table):
    enter_by_outcome(table_client, table, entered_by_seat="E")
    result = HandResult.objects.get()
    url = reverse("table-confirm", args=[table.group.session.event.slug, table.pk, result.pk])
    refused = table_client.post(url, {"pin": pin(table, "E"), "revision": result.revision}, follow=True)
    assert "seat E entered this result" in refused.content.decode()
    assert HandResult.objects.get().status == "entered"
    confirmed = table_client.post(url, {"pin": pin(table, "W"), "revision": result.revision}, follow=True)
    # the message names the set by the code on its label and sheets (1-01-6), as the page does
    assert f"Set {SetId(table.group.session.event.slug, 1, result.set_no).code} confirmed." in confirmed.content.decode()
    result.refresh_from_db()
    assert result.status == "confirmed" and result.confirmed_by.endswith("(W), Table 1")


def test_a_second_device_with_the_same_code_sees_the_pending_result_and_confirms_it(table_client, table):
    enter_by_outcome(table_client, table, entered_by_seat="N")
    result = HandResult.objects.get()
    second = Client()
    login_as_table(second, table)
    page = second.get(table_url(table)).content.decode()
    assert f'id="confirm-{result.pk}"' in page
    second.post(reverse("table-confirm", args=[table.group.session.event.slug, table.pk, result.pk]),
                {"pin": pin(table, "S"), "revision": result.revision})
    result.refresh_from_db()
    assert result.status == "confirmed" and result.confirmed_by.endswith("(S), Table 1")


def test_a_confirmation_of_a_result_changed_meanwhile_is_refused(table_client, table):
    enter_by_outcome(table_client, table)
    result = HandResult.objects.get()
    seen = result.revision
    correct_result(result, actor="scorer", reason="", director=False, changes={"E": 48, "S": -16, "W": -16, "N": -16},
                   **entering(table, "N"))
    response = table_client.post(reverse("table-confirm", args=[table.group.session.event.slug, table.pk, result.pk]),
                           {"pin": pin(table, "S"), "revision": seen}, follow=True)
    assert "the result changed while you confirmed it" in response.content.decode()
    assert HandResult.objects.get().status == "entered"


def test_the_director_confirms_on_the_table_page_without_a_pin(client, director, table):
    result = submit_result(table, first_set(table), changes=ZERO, actor="t")
    client.force_login(director)
    assert "Confirm as director" in client.get(table_url(table)).content.decode()
    client.post(reverse("table-confirm", args=[table.group.session.event.slug, table.pk, result.pk]), {})
    result.refresh_from_db()
    assert result.status == "confirmed" and result.confirmed_by == director.username


def test_result_page_shows_the_history_and_takes_a_dispute(table_client, table):
    enter_by_outcome(table_client, table)
    result = HandResult.objects.get()
    url = reverse("result", args=[table.group.session.event.slug, result.pk])
    refused = table_client.post(url, {"action": "dispute", "reason": ""})
    assert refused.status_code == 400 and 'data-field="reason"' in refused.content.decode()
    table_client.post(url, {"action": "dispute", "reason": "S says W discarded"})
    page = table_client.get(url).content.decode()
    assert "S says W discarded" in page and "dispute" in page
    assert HandResult.objects.get().status == "disputed"


def test_director_corrects_on_the_result_page_and_the_history_keeps_before_and_after(client, director, table):
    result = submit_result(table, first_set(table), changes={"E": 24, "S": -8, "W": -8, "N": -8}, actor="t")
    confirm_result(result, actor="d", director=True)
    client.force_login(director)
    url = reverse("result", args=[table.group.session.event.slug, result.pk])
    client.post(url, {"action": "correct", "reason": "E had 16 fan", "seat_E": "72", "seat_S": "-24", "seat_W": "-24", "seat_N": "-24"})
    result.refresh_from_db()
    assert result.changes == {"E": 72, "S": -24, "W": -24, "N": -24} and result.status == "confirmed"
    rows = list(result.revisions.values_list("action", "previous", "reason"))
    assert rows[-1] == ("correct", {"E": 24, "S": -8, "W": -8, "N": -8}, "E had 16 fan")


def test_scanning_a_set_label_opens_the_table_page_on_that_set(table_client, team_event, table):
    set_no = blocks(table)[0][1][2]
    payload = SetId(team_event.slug, 1, set_no).payload
    response = table_client.get(reverse("scan", args=[payload]))
    assert response["Location"] == f"{table_url(table)}?set={set_no}"
    page = table_client.get(response["Location"]).content.decode()
    assert f'<option value="{set_no}" selected>' in page


def test_scanning_before_the_table_login_asks_for_the_code_first(client, team_event):
    payload = SetId(team_event.slug, 1, 1).payload
    response = client.get(reverse("scan", args=[payload]))
    assert response["Location"].startswith(reverse("table-login") + "?next=")


def test_a_mistyped_set_label_is_refused(client, team_event):
    response = client.get(reverse("scan", args=[f"DMJ1|{team_event.slug}|1|7|0"]))
    assert response.status_code == 400 and "check digit" in response.content.decode()


# The director's live grid.

def test_live_json_reports_each_cells_state_the_counts_and_late_tables(client, director, team_event, table):
    group_tables = list(table.group.tables.order_by("number"))
    sets = blocks(table)[0][1]
    confirmed = confirm_result(submit_result(table, sets[0], changes=ZERO, actor="t"), actor="d", director=True)
    entered = submit_result(table, sets[1], changes=ZERO, actor="t")
    disputed = dispute_result(submit_result(table, sets[2], changes=ZERO, actor="t"), actor="W", reason="check", director=False)
    fourth = submit_result(table, sets[3], changes=ZERO, actor="t")
    client.force_login(director)

    state = client.get(reverse("live-json", args=[team_event.slug])).json()

    row = next(r for r in state["rows"] if r["table"] == table.number)
    cells = {c["set"]: c for c in row["cells"]}
    assert cells[sets[0]] == {"set": sets[0], "status": "confirmed", "id": confirmed.pk, "flags": [], "converted": []}
    assert cells[sets[1]]["status"] == "entered" and cells[sets[1]]["id"] == entered.pk
    assert cells[sets[2]]["status"] == "disputed" and cells[sets[2]]["id"] == disputed.pk
    assert cells[sets[3]]["id"] == fourth.pk
    other_sets = [s for s in range(1, 17) if s not in sets]
    assert all(cells[s] == {"set": s, "status": "missing", "id": None, "flags": [], "converted": []} for s in other_sets)
    assert state["counts"] == {"entered": 2, "confirmed": 1, "disputed": 1, "missing": 16 * 16 - 4, "flagged": 0}
    # One block (4 sets) ahead of the rest of its group: the group's other tables are late.
    assert state["late"] == [t.number for t in group_tables if t != table]
    assert row["late"] is False and row["done"] == 4 and row["group"] == table.group.number


def test_live_json_shows_the_fan_check_flag(client, director, team_event, table):
    pytest.importorskip("MahjongGB", reason="PyMahjongGB is not installed: pip install PyMahjongGB")
    WallSet.objects.filter(event=table.group.session.event).delete()  # the fan check alone: no wall to check the hand against
    result = submit_result(table, 1, outcome={"kind": "discard", "winners": ["E"], "discarder": "S", "fans": [26],
                                              "hand": "123456789m 11z 22z +1z"}, actor="t")
    client.force_login(director)
    state = client.get(reverse("live-json", args=[team_event.slug])).json()
    cell = next(r for r in state["rows"] if r["table"] == table.number)["cells"][0]
    assert cell["id"] == result.pk and cell["flags"] == [result.outcome["flags"][0]["message"]]
    assert state["counts"]["flagged"] == 1
    live = client.get(reverse("live", args=[team_event.slug])).content.decode()
    assert "flagged" in live and "the hand counts 28" in live
    page = client.get(reverse("result", args=[team_event.slug, result.pk])).content.decode()
    assert "fan entered 26, the hand counts 28" in page


def test_table_page_flags_a_fan_that_differs_from_the_hand(table_client, table):
    pytest.importorskip("MahjongGB", reason="PyMahjongGB is not installed: pip install PyMahjongGB")
    WallSet.objects.filter(event=table.group.session.event).delete()  # the fan check alone: no wall to check the hand against
    response = enter_by_outcome(table_client, table, value_E="26", hand="123456789m 11z 22z +1z")
    page = table_client.get(response["Location"]).content.decode()
    assert "fan entered 26, the hand counts 28" in page


def test_the_live_page_and_its_data_are_for_the_director_only(table_client, team_event):
    assert table_client.get(reverse("live", args=[team_event.slug])).status_code == 403
    assert table_client.get(reverse("live-json", args=[team_event.slug])).status_code == 403


def test_a_seated_player_reads_the_result_page_but_cannot_change_it(client, django_user_model, table):
    result = submit_result(table, first_set(table), changes={"E": 24, "S": -8, "W": -8, "N": -8}, actor="t")
    seat = table.seats.select_related("player").get(seat="N")
    seat.player.user = django_user_model.objects.create_user("north", password="pw-north-1")
    seat.player.save(update_fields=["user"])
    client.force_login(seat.player.user)
    url = reverse("result", args=[table.group.session.event.slug, result.pk])
    page = client.get(url)
    assert page.status_code == 200 and 'id="history"' in page.content.decode()
    assert 'name="reason"' not in page.content.decode()
    assert client.post(url, {"action": "dispute", "reason": "no"}).status_code == 403
    assert HandResult.objects.get().status == "entered"


def test_the_table_pages_post_and_redirect_read_the_table_plan_once(table_client, table):
    """An entry from the table page costs the table login's check, one table plan read (one
    statement: the seats with the session's group count and whether the table has a
    substitution) and the write; the page it redirects to, the same login check and plan read
    and the page's own reads. Pinned so the plan is never read twice for one request again (it
    was: 20 queries for the POST, 11 for the redirect; then 18 and 11 with a plan of three
    queries)."""
    data = {"set_no": str(first_set(table)), "mode": "outcome", "kind": "discard", "winners": "E",
            "discarder": "S", "value_E": "10", **entering(table, "E")}
    with CaptureQueriesContext(connection) as post:
        response = table_client.post(table_url(table), data)
    assert response.status_code == 302
    with CaptureQueriesContext(connection) as redirected:
        assert table_client.get(response["Location"]).status_code == 200

    def reads(captured, table_name):
        return sum(f'FROM "{table_name}"' in q["sql"] for q in captured.captured_queries)

    for captured in (post, redirected):
        assert reads(captured, "tournament_seatassignment") == 1
        assert reads(captured, "tournament_substitution") == 1
    login, plan = 3, 1  # login: the table, the session, the releases of the login's session (its table is the one read)
    # the write's savepoint and its release, the table's PIN lock, the set's place in the movement with the PIN
    # limit (one statement), the rows written (result, revision, PIN attempt; the result's INSERT ignores a
    # duplicate, with no savepoint of its own), the version bump
    write = 8
    page = 6  # the table's results, its reserve walls, the PIN locks, the menu's table, the keys answered (the queue), an open call
    # the version bump is one UPDATE on every database, with no SET CONSTRAINTS (Event.changed)
    bump = [q["sql"] for q in post.captured_queries if "eventversion" in q["sql"] and q["sql"].startswith("UPDATE")]
    assert len(bump) == 1 and not any("CONSTRAINTS" in q["sql"] for q in post.captured_queries), bump
    assert len(post) == login + plan + write, [q["sql"][:80] for q in post.captured_queries]
    assert len(redirected) == login + plan + page, [q["sql"][:80] for q in redirected.captured_queries]


def test_the_table_page_and_result_name_sets_as_the_score_sheet_prints_them(table_client, table):
    """One name for a set everywhere (issue 48, item 10): the set picker, the card waiting for
    confirmation and the result page say the code printed on the table's score sheet and labels."""
    import re as regex

    from walls.print_kinds.tables import score_sheets

    event = table.group.session.event
    printed = next(s.sets for s in score_sheets(event, 1) if s.table_label == str(table.number))
    page = table_client.get(table_url(table)).content.decode()
    options = regex.findall(r'<option value="\d+"[^>]*>([^<—]+?)(?: —[^<]*)?</option>', page)
    assert options == list(printed)
    enter_by_outcome(table_client, table)
    result = HandResult.objects.get()
    code = SetId(event.slug, 1, result.set_no).code
    assert f"Set {code} waits for confirmation" in table_client.get(table_url(table)).content.decode()
    assert f"Set {code}" in table_client.get(reverse("result", args=[event.slug, result.pk])).content.decode()
