"""docs/deploy.md, "Reserved capacity for result entry": the reverse proxy's map
(deploy/nginx/dmj-pools.conf) sends result entry to the write pool and every other page to the
read pool, checked against the project's own URLs; the gunicorn config gives each pool its
defaults; nginx accepts the configuration the event-day bench builds from the same files."""

import configparser
import runpy
import shutil
import subprocess

import pytest
from django.urls import reverse

from tests.perf.event_day import DEPLOY, ROOT, nginx_config, pool_for, pool_rules

SLUG = "open-2026"


def _url(name: str, *args) -> tuple[str, tuple]:
    """A URL by name, reversed when the test runs."""
    return name, args


def _path(where) -> str:
    return where if isinstance(where, str) else reverse(where[0], args=where[1])


WRITES = [
    ("POST", f"/api/events/{SLUG}/results/"),
    ("POST", f"/api/events/{SLUG}/results/12/confirm/"),
    ("PATCH", f"/api/events/{SLUG}/results/12/"),
    ("DELETE", f"/api/events/{SLUG}/results/12/"),
    ("GET", _url("table", SLUG, 3)),
    ("POST", _url("table", SLUG, 3)),
    ("POST", _url("table-confirm", SLUG, 3, 12)),
    ("GET", _url("entry", SLUG)),
    ("POST", _url("event-table-login", SLUG)),
    ("GET", _url("table-login-code", "ABCD1234")),
    ("POST", _url("table-login")),
    ("GET", _url("scan", "payload/x")),
    ("POST", _url("result", SLUG, 12)),
]
READS = [
    ("GET", f"/api/events/{SLUG}/results/"),
    ("GET", f"/api/events/{SLUG}/standings/"),
    ("HEAD", f"/api/events/{SLUG}/results/12/"),
    ("GET", _url("standings", SLUG)),
    ("GET", _url("team", SLUG, 4)),
    ("GET", _url("player-results", SLUG, 17)),
    ("GET", _url("players", SLUG)),
    ("GET", _url("traveller", SLUG, 1, 2)),
    ("GET", _url("projector-json", SLUG)),
    ("GET", _url("live", SLUG)),
    ("GET", _url("event-export", SLUG)),
    ("GET", _url("find-seat", SLUG)),
    ("POST", _url("penalties", SLUG)),
    ("POST", "/accounts/login/"),
    ("GET", "/static/site.css"),
]


@pytest.mark.parametrize("method, path", WRITES)
def test_result_entry_goes_to_the_write_pool(method, path):
    assert pool_for(method, _path(path)) == "dmj_write"


@pytest.mark.parametrize("method, path", READS)
def test_everything_else_goes_to_the_read_pool(method, path):
    assert pool_for(method, _path(path)) == "dmj_read"


def test_the_map_ends_with_its_default_and_names_only_the_two_pools():
    rules = pool_rules()
    assert rules[-1][1] == "dmj_read" and {pool for _, pool in rules} == {"dmj_read", "dmj_write"}
    site = (DEPLOY / "nginx" / "dmj.conf").read_text()
    assert "upstream dmj_write" in site and "upstream dmj_read" in site and "proxy_pass http://$dmj_pool;" in site


@pytest.mark.parametrize("pool, bind, threads", [("write", "127.0.0.1:8001", 4), ("read", "127.0.0.1:8000", 8)])
def test_the_gunicorn_config_gives_each_pool_its_address(pool, bind, threads, monkeypatch):
    for name in ("DMJ_BIND", "DMJ_WORKERS", "DMJ_THREADS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DMJ_POOL", pool)
    config = runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))
    assert config["bind"] == [bind] and config["threads"] == threads and config["worker_class"] == "gthread"
    assert config["wsgi_app"] == "tournament.wsgi:application"


def test_an_unknown_pool_is_refused(monkeypatch):
    monkeypatch.setenv("DMJ_POOL", "both")
    with pytest.raises(RuntimeError, match="DMJ_POOL"):
        runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))


def test_nginx_accepts_the_bench_configuration(tmp_path):
    binary = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")
    if binary is None:
        pytest.skip("nginx is not installed (apt-get install nginx)")
    conf = tmp_path / "nginx.conf"
    conf.write_text(nginx_config(tmp_path, proxy=18080, read=18000, write=18001))
    checked = subprocess.run([binary, "-t", "-c", str(conf), "-p", str(tmp_path)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr


# --- docs/deploy.md, "Backups": the unit of deploy/systemd/


def _unit(name: str) -> configparser.ConfigParser:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # systemd's keys are case-sensitive
    unit.read_string((DEPLOY / "systemd" / name).read_text(encoding="utf-8"))
    return unit


def test_the_backup_timer_runs_the_documented_backup_every_15_minutes():
    from tests.test_restore import documented

    timer, service = _unit("dmj-backup.timer"), _unit("dmj-backup.service")
    assert timer["Timer"]["OnCalendar"] == "*:0/15" and timer["Timer"]["Persistent"] == "true"
    assert service["Service"]["Type"] == "oneshot" and service["Service"]["User"] == "dmj"
    (documented_command,) = documented("## Backups", "backup_events")
    assert service["Service"]["ExecStart"].split() == documented_command
    cron = [line for line in (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8").splitlines()
            if line.startswith("*/15 * * * * ")]
    assert len(cron) == 1 and "manage.py backup_events" in cron[0] and "--keep-hours 48" in cron[0]
