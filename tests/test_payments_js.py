"""The browser's copy of the payment rules (static/payments.js), which shows the score changes of a
hand queued on a phone without a connection (issue 48: an offline confirmation showed only "Draw
(no winner)"), agrees with the payment rules of scoring/payments to the point: hypothesis draws
outcomes of every computed rule, those the Python rules accept are priced by both, with the riichi
sticks a set may carry in (scoring/payments/counters.py, added as the entry service adds them).
node runs the script as the phone does (one process for the module, one JSON line per outcome)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scoring.payments import HandOutcome, PaymentError, settle
from scoring.payments.counters import carried_sticks_to
from scoring.payments.registry import PAYMENT_RULES

SCRIPT = Path(__file__).resolve().parent.parent / "static" / "payments.js"
SEATS = {"shiragiku-3p": ("E", "S", "W"), "souzu-2p": ("E", "S"), "souzu-2p-honba-whole": ("E", "S")}
COMPUTED = sorted(code for code, rule in PAYMENT_RULES.items() if rule.computed)
RUNNER = """
require(process.argv[1]);
const rl = require('readline').createInterface({input: process.stdin});
rl.on('line', (line) => {
  const q = JSON.parse(line);
  process.stdout.write(JSON.stringify(globalThis.dmjPayments.settle(q.code, q.seats, q.outcome, q.carried)) + '\\n');
});
"""


@pytest.fixture(scope="module")
def browser_rules():
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    process = subprocess.Popen([node, "-e", RUNNER, str(SCRIPT)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(code, seats, outcome, carried):
        process.stdin.write(json.dumps({"code": code, "seats": list(seats), "outcome": outcome, "carried": carried}) + "\n")
        process.stdin.flush()
        return json.loads(process.stdout.readline())

    yield ask
    process.stdin.close()
    process.wait(timeout=10)


@st.composite
def outcomes(draw, code: str):
    rule = PAYMENT_RULES[code]
    seats = SEATS.get(code, ("E", "S", "W", "N"))
    kind = draw(st.sampled_from(("discard", "self_draw", "draw")))
    data = {"kind": kind}
    if kind != "draw":
        most = len(seats) - 1 if kind == "discard" and rule.multiple_winners else 1
        winners = draw(st.lists(st.sampled_from(seats), min_size=1, max_size=most, unique=True))
        data["winners"] = winners
        if kind == "discard":
            data["discarder"] = draw(st.sampled_from([s for s in seats if s not in winners]))
        low, high = rule.value_range
        data["fans"] = [draw(st.integers(low, min(high, 60))) for _ in winners]
        if "fu" in rule.inputs:
            data["fu"] = [draw(st.sampled_from(rule.fu_choices)) for _ in winners]
        if "yakuman" in rule.inputs and draw(st.booleans()):
            data["yakuman"] = [draw(st.integers(0, 2)) for _ in winners]
    for name in ("riichi", "tenpai", "shielded"):
        if name in rule.inputs:
            data[name] = draw(st.lists(st.sampled_from(seats), max_size=len(seats), unique=True))
    if "honba" in rule.inputs:
        data["honba"] = draw(st.integers(0, 8))
    if "open_riichi" in rule.inputs:
        data["open_riichi"] = draw(st.booleans())
    if "liable" in rule.inputs and kind != "draw":
        data["liable"] = draw(st.one_of(st.none(), st.sampled_from(seats)))
    return code, seats, data


@pytest.mark.parametrize("code", COMPUTED)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.filter_too_much])
@given(data=st.data())
def test_the_browser_prices_every_accepted_outcome_as_the_server_does(browser_rules, code, data):
    code, seats, outcome = data.draw(outcomes(code))
    carried = data.draw(st.integers(0, 3))
    hand = HandOutcome.from_dict(outcome)
    try:
        settled = settle(code, seats, hand, min_fan=None)
    except PaymentError:
        assume(False)
    expected = dict(settled.changes)
    collector = carried_sticks_to(seats, hand) if carried and PAYMENT_RULES[code].stick else None
    if collector is not None:
        expected[collector] += carried * PAYMENT_RULES[code].stick
    shown = browser_rules(code, seats, hand.to_dict(), carried)
    assert shown == {"changes": expected, "deposit": settled.deposit}, (outcome, carried)


def test_the_browser_prices_no_typed_rule_and_no_half_given_outcome(browser_rules):
    assert browser_rules("typed", ("E", "S", "W", "N"), {"kind": "draw"}, 0) is None
    assert browser_rules("riichi", ("E", "S", "W", "N"), {"kind": "discard", "winners": [], "fans": []}, 0) is None
    assert browser_rules("mcr", ("E", "S", "W", "N"), {"kind": "discard", "winners": ["E"], "fans": [8]}, 0) is None
