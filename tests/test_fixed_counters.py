"""Honba and riichi sticks carried into a set are fixed per set (docs/scoring.md, "Fixed honba and
riichi sticks"): 0 unless the director fixes others; a typed honba that differs is refused."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.actions.counters import fix_counters
from scoring.actions.entry import submit_result
from scoring.actions.errors import ResultError
from scoring.models import HandResult
from scoring.payments import PAYMENT_RULES, PaymentError
from scoring.payments.counters import Counters, apply_fixed, carried_inputs, clean_fixed, counters_words, read_fixed
from tournament.models import AuditEntry
from walls.print_kinds.base import set_counters

from factories import entering, first_set, first_table, individual_roster, login_as_table, prepared_event, table_url

RIICHI = PAYMENT_RULES["riichi"]
S3W = {"kind": "discard", "winners": ["S"], "discarder": "W", "fans": [3], "fu": [30]}  # 3,900 from W


# --- the pure rule ------------------------------------------------------------------------------

def test_which_counters_each_family_carries():
    assert carried_inputs(RIICHI) == ("honba", "riichi")
    assert carried_inputs(PAYMENT_RULES["souzu-2p"]) == ("honba", "riichi")
    assert carried_inputs(PAYMENT_RULES["shiragiku-3p"]) == ("honba",)
    assert carried_inputs(PAYMENT_RULES["mcr"]) == () and carried_inputs(PAYMENT_RULES["yangzhou"]) == ()


def test_a_set_not_fixed_starts_at_zero_and_fixed_values_are_read():
    stored = {"1-3": {"honba": 2, "riichi": 1}}
    assert read_fixed(stored, 1, 3) == Counters(2, 1)
    assert read_fixed(stored, 1, 4) == Counters() and read_fixed(None, 2, 1) == Counters()
    assert counters_words(Counters(), ("honba", "riichi")) == "Honba 0 · riichi sticks 0"


def test_the_fixed_honba_are_used_and_a_different_typed_one_is_refused_naming_it():
    assert apply_fixed(S3W, Counters(1, 0), RIICHI, "set 1-3")["honba"] == 1
    assert apply_fixed({**S3W, "honba": "1"}, Counters(1, 0), RIICHI, "set 1-3")["honba"] == 1
    assert apply_fixed({**S3W, "honba": ""}, Counters(0, 0), RIICHI, "set 1-3")["honba"] == 0
    with pytest.raises(PaymentError) as err:
        apply_fixed({**S3W, "honba": 2}, Counters(1, 0), RIICHI, "set 1-3")
    assert err.value.field == "honba" and "fixed at 1" in str(err.value) and "set 1-3" in str(err.value)
    # a rule without honba keeps its own refusal of the input
    assert "honba" not in apply_fixed({"kind": "draw"}, Counters(), PAYMENT_RULES["mcr"], "set 1-1")


def test_the_directors_values_are_checked_and_zero_sets_are_not_stored():
    assert clean_fixed({"1-1": {"honba": "0", "riichi": ""}, "1-2": {"honba": "2", "riichi": 1}}, RIICHI, 1, 8) == {
        "1-2": {"honba": 2, "riichi": 1}}
    for values, field in (({"1-9": {"honba": 1}}, "set"), ({"x": {}}, "set"), ({"1-1": {"honba": -1}}, "honba.1-1"),
                          ({"1-1": {"riichi": "lots"}}, "riichi.1-1"), ({"1-1": {"honba": 100}}, "honba.1-1")):
        with pytest.raises(PaymentError) as err:
            clean_fixed(values, RIICHI, 1, 8)
        assert err.value.field == field
    with pytest.raises(PaymentError) as err:
        clean_fixed({"1-1": {"riichi": 1}}, PAYMENT_RULES["shiragiku-3p"], 1, 9)
    assert err.value.field == "riichi.1-1"


# --- entry ------------------------------------------------------------------------------------

@pytest.fixture
def riichi(db):
    event = prepared_event(individual_roster(16), name="fixed", slug="fixed", ruleset_code="riichi-duplicate",
                           method="individual")
    table = first_table(event)
    return event, table, first_set(table)


def test_entry_takes_zero_honba_by_default_and_refuses_a_typed_one(riichi):
    event, table, set_no = riichi
    with pytest.raises(ResultError) as err:
        submit_result(table, set_no, actor="t", outcome={**S3W, "honba": 1})
    assert err.value.field == "honba" and "fixed at 0" in err.value.message
    result = submit_result(table, set_no, actor="t", outcome=S3W)
    assert result.changes == {"E": 0, "S": 3900, "W": -3900, "N": 0}


def test_entry_uses_the_sets_fixed_honba_and_sticks(riichi):
    event, table, set_no = riichi
    fix_counters(event, {f"1-{set_no}": {"honba": 1, "riichi": 2}}, actor="director")
    table = first_table(event)  # the event as stored now
    # 3,900 + 300 a honba from W; S collects the 2 carried sticks (and N's own declared stick)
    result = submit_result(table, set_no, actor="t", outcome={**S3W, "riichi": ["N"]})
    assert result.changes == {"E": 0, "S": 3900 + 300 + 2000 + 1000, "W": -4200, "N": -1000}
    assert result.outcome["honba"] == 1


def test_a_draw_leaves_the_carried_sticks_on_the_table(riichi):
    event, table, set_no = riichi
    fix_counters(event, {f"1-{set_no}": {"riichi": 1}}, actor="director")
    result = submit_result(first_table(event), set_no, actor="t", outcome={"kind": "draw", "tenpai": ["E"]})
    assert result.changes == {"E": 3000, "S": -1000, "W": -1000, "N": -1000} and result.deposit == 0


def test_typed_changes_may_include_the_carried_sticks(riichi):
    event, table, set_no = riichi
    fix_counters(event, {f"1-{set_no}": {"riichi": 1}}, actor="director")
    table = first_table(event)
    result = submit_result(table, set_no, actor="t", changes={"E": 0, "S": 4900, "W": -3900, "N": 0})
    assert sum(result.changes.values()) == 1000
    with pytest.raises(ResultError):
        submit_result(table, set_no, actor="t", changes={"E": 0, "S": 5900, "W": -3900, "N": 0})


def test_fixing_is_audited_and_refused_once_the_set_has_a_result(riichi):
    event, table, set_no = riichi
    stored = fix_counters(event, {f"1-{set_no}": {"honba": 3}, "1-8": {"honba": 0}}, actor="director")
    assert stored == {f"1-{set_no}": {"honba": 3}}
    entry = AuditEntry.objects.get(event=event, action="fixed-counters")
    assert entry.detail["changed"][f"1-{set_no}"] == {"before": {}, "after": {"honba": 3}}
    submit_result(table, set_no, actor="t", outcome=S3W)
    with pytest.raises(ResultError) as err:
        fix_counters(event, {f"1-{set_no}": {"honba": 0}}, actor="director")
    assert err.value.field == f"honba.1-{set_no}" and err.value.status == 409
    event.refresh_from_db()
    assert event.fixed_counters == {f"1-{set_no}": {"honba": 3}}


def test_the_table_page_shows_the_fixed_values_instead_of_the_honba_input(client, riichi):
    event, table, set_no = riichi
    login_as_table(client, table)
    page = client.get(table_url(table)).content.decode()
    assert 'id="honba"' not in page and "Fixed for every set: Honba 0 · riichi sticks 0" in page
    response = client.post(table_url(table), {"set_no": str(set_no), "mode": "outcome", "kind": "discard", "winners": "S",
                                              "discarder": "W", "value_S": "3", "fu_S": "30", "honba": "2",
                                              **entering(table, "E")})
    assert response.status_code == 400 and "fixed at 0" in response.content.decode()
    assert not HandResult.objects.exists()


def test_the_director_fixes_them_on_a_product_page(client, director, riichi):
    event, table, set_no = riichi
    from tournament.models import EventRole
    EventRole.objects.create(event=event, user=director, role=EventRole.Role.DIRECTOR)
    client.force_login(director)
    url = reverse("fixed-counters", args=[event.slug])
    assert 'name="honba-1-1"' in client.get(url).content.decode()
    response = client.post(url, {"honba-1-2": "1", "riichi-1-2": "1"})
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.fixed_counters == {"1-2": {"honba": 1, "riichi": 1}}
    response = client.post(url, {"honba-1-2": "-1"})
    assert response.status_code == 400 and "honba must be a whole number from 0 to 99" in response.content.decode()


def test_the_set_up_sheet_prints_them(riichi):
    event, table, set_no = riichi
    assert set_counters(event, 1, set_no) == "Honba 0 · Riichi sticks 0"
    fix_counters(event, {"1-2": {"honba": 1, "riichi": 2}}, actor="director")
    event.refresh_from_db()
    assert set_counters(event, 1, 2) == "Honba 1 · Riichi sticks 2"
    assert set_counters(event, 1, 2, "ja").count("·") == 1


def test_an_mcr_set_up_sheet_prints_no_counters(db):
    event = prepared_event(individual_roster(16), name="mcr", slug="mcr-counters", method="individual")
    assert set_counters(event, 1, 1) == ""


def test_fixing_counters_changes_the_public_version_that_visitors_pages_keep_the_par_under(riichi):
    """A stored par that fixed counters clear is read again on a visitor's page: the change moves
    the public version, under which each process keeps the par it read
    (scoring.reports.analysis.set_analyses, ``public``)."""
    event, _table, set_no = riichi
    before = event.content_version(public=True)
    fix_counters(event, {f"1-{set_no}": {"honba": 2}}, actor="director")
    assert event.content_version(public=True) > before
