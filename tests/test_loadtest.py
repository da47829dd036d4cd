"""The pure parts of the load test behind ``manage.py loadtest`` (tests/perf/loadtest.py). The
load run itself is a benchmark run by hand against gunicorn and PostgreSQL (docs/deploy.md),
never a timed unit test."""

import os
import statistics
import sys

import pytest
from django.core.management import CommandError, call_command

from tests.perf import loadtest


def _report(**overrides):
    values = dict(scorers=50, tables=52, sessions=4, workers=3, threads=8, requests=1000, duration=10.0, rps=100.0,
                  p50_ms=20.0, p99_ms=80.0, max_ms=90.0, errors=0, error_samples=[], accepted=500, stored=500,
                  confirmed=500, stored_confirmed=500, cpu={"gunicorn": 8.0, "postgresql": 1.5, "client": 0.5})
    values.update(overrides)
    return loadtest.LoadReport(**values)


def test_percentile_is_the_inclusive_quantile_of_the_values():
    values = [float(v) for v in range(1, 202)]
    assert loadtest.percentile(values, 50) == statistics.median(values)
    assert loadtest.percentile(values, 99) == statistics.quantiles(values, n=100, method="inclusive")[98]
    assert loadtest.percentile([7.0], 99) == 7.0
    assert loadtest.percentile([], 50) == 0.0


def test_goal_misses_name_each_part_of_the_goal_missed():
    assert _report(rps=300.0, p99_ms=99.0).goal_misses() == []
    misses = _report(rps=49.0, p99_ms=2700.0, errors=2, accepted=10, stored=9).goal_misses()
    assert misses == ["throughput 49 req/s < 300", "p99 2700 ms >= 100 ms", "2 errors", "1 results and 0 confirmations lost"]


def test_a_report_counts_lost_and_unanswered_results_apart():
    lost = _report(accepted=10, stored=8, confirmed=8, stored_confirmed=7)
    assert (lost.lost, lost.lost_confirmations, lost.unanswered) == (2, 1, 0)
    unanswered = _report(accepted=8, stored=10)
    assert (unanswered.lost, unanswered.unanswered) == (0, 2)


def test_the_report_shows_cpu_per_request_from_the_measured_seconds():
    report = _report(requests=1000, cpu={"gunicorn": 8.0, "postgresql": 1.5, "client": 0.5})
    assert report.cpu_ms_per_request == pytest.approx(10.0)
    line = next(line for line in report.lines() if line.startswith("CPU seconds"))
    assert "gunicorn 8.0" in line and "postgresql 1.5" in line and "(10.0 ms of CPU per request)" in line
    assert not any(line.startswith("CPU seconds") for line in _report(cpu={}).lines())


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="reads /proc")
def test_cpu_seconds_reads_this_process_and_counts_a_busy_loop():
    before = loadtest.cpu_seconds(os.getpid())
    total = 0
    for i in range(3_000_000):
        total += i * i
    after = loadtest.cpu_seconds(os.getpid())
    assert total > 0
    assert after["client"] > before["client"]
    assert after["gunicorn"] >= after["client"] - 0.05  # server_pid = this process: its own time counts there too


def test_roster_csv_has_a_row_per_player_of_each_team():
    rows = loadtest.roster_csv(3, 4).splitlines()
    assert rows[0] == "team,player"
    assert len(rows) == 1 + 12
    assert rows[1] == "Load Team 1,Player 1.1" and rows[-1] == "Load Team 3,Player 3.4"


@pytest.mark.django_db
def test_the_load_test_refuses_anything_but_postgresql_and_out_of_range_durations():
    from django.db import connection

    if connection.vendor != "postgresql":
        with pytest.raises(RuntimeError, match="DATABASE_URL=postgres"):
            loadtest.run(scorers=1, sessions=1, duration=1)
    else:
        with pytest.raises(ValueError, match="duration"):
            loadtest.run(scorers=1, sessions=1, duration=61)


@pytest.mark.parametrize("command, args", [("bench", ["seating"]), ("loadtest", [])])
def test_the_commands_say_where_the_benchmarks_are_when_tests_perf_is_absent(monkeypatch, command, args):
    """An installed application has no tests/perf: the command still loads and says what to do."""
    monkeypatch.setitem(sys.modules, "tests.perf", None)  # any import of tests.perf now fails
    with pytest.raises(CommandError, match=r"tests/perf of a source checkout; install with pip install -e '\.\[bench\]'"):
        call_command(command, *args)
