"""docs/deploy.md, "Reserved capacity for result entry": the reverse proxy's map
(deploy/nginx/dmj-pools.conf) sends result entry to the write pool and every other page to the
read pool, checked against the project's own URLs; the gunicorn config gives each pool its
defaults; nginx accepts the configuration the event-day bench builds from the same files."""

import configparser
import re
import os
import runpy
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.urls import reverse

from tests.perf.event_day import DEPLOY, ROOT, nginx_config, pool_for, pool_rules, upstream_keepalive
from tests.perf.loadtest import free_port

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


@pytest.mark.parametrize("pool, bind, threads", [("write", "127.0.0.1:8001", 4), ("read", "127.0.0.1:8000", 3)])
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


def _nginx_binary() -> str:
    binary = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")
    if binary is None:
        pytest.skip("nginx is not installed (apt-get install nginx)")
    return binary


def test_nginx_accepts_the_bench_configuration(tmp_path):
    binary = _nginx_binary()
    conf = tmp_path / "nginx.conf"
    conf.write_text(nginx_config(tmp_path, proxy=18080, read=18000, write=18001))
    checked = subprocess.run([binary, "-t", "-c", str(conf), "-p", str(tmp_path)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr


def test_nginx_closes_an_idle_connection_to_gunicorn_before_gunicorn_does():
    """docs/deploy.md, step 9: the proxy's idle connections to gunicorn end on nginx's side, so
    nginx never sends a request (a POST it could not send again) on one gunicorn is closing."""
    config = runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))
    directives = upstream_keepalive()
    assert directives[0] == "keepalive 16;"
    nginx_idle = float(re.fullmatch(r"keepalive_timeout (\d+(?:\.\d+)?)s;", directives[1]).group(1))
    site = (DEPLOY / "nginx" / "dmj.conf").read_text()
    assert site.count(directives[1]) == 2  # both pools
    assert nginx_idle < config["keepalive"] and nginx_idle < 2  # 2 s: how long a stopping gthread worker keeps one
    proxy = (DEPLOY / "nginx" / "dmj-proxy.conf").read_text()
    assert "proxy_http_version 1.1;" in proxy and 'proxy_set_header Connection "";' in proxy


# --- docs/deploy.md, "Restarts" and "Backups": the units of deploy/systemd/


def _unit(name: str) -> configparser.ConfigParser:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # systemd's keys are case-sensitive
    unit.read_string((DEPLOY / "systemd" / name).read_text(encoding="utf-8"))
    return unit


@pytest.mark.parametrize("pool, address", [("write", "127.0.0.1:8001"), ("read", "127.0.0.1:8000")])
def test_a_pools_unit_stops_every_process_it_started_and_listens_on_a_socket_systemd_holds(pool, address, monkeypatch):
    service, sock = _unit(f"dmj-web-{pool}.service"), _unit(f"dmj-web-{pool}.socket")
    assert service["Service"]["KillMode"] == "control-group"  # never process or none: no worker outlives its master
    assert service["Service"]["Restart"] == "always" and service["Service"].get("Type", "simple") in ("simple", "notify")
    assert f"dmj-web-{pool}.socket" in service["Unit"]["Requires"].split()
    assert f"dmj-web-{pool}.socket" in service["Unit"]["After"].split()
    assert sock["Socket"]["ListenStream"] == address and f"DMJ_BIND={address}" in service["Service"]["Environment"].split()
    assert f"server {address};" in (DEPLOY / "nginx" / "dmj.conf").read_text()
    command = service["Service"]["ExecStart"].split()
    assert command[1:] == ["-c", "deploy/gunicorn.conf.py"]  # in the foreground: the unit's main process is the master
    monkeypatch.setenv("DMJ_POOL", pool)
    assert not runpy.run_path(str(DEPLOY / "gunicorn.conf.py")).get("daemon")


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


SLOW_APP = '''
import os, time


def app(environ, start_response):
    if environ["PATH_INFO"] == "/slow":
        time.sleep(float(environ["QUERY_STRING"]))
    environ["wsgi.input"].read()
    # the API's answer: the client port of the connection it came on (nginx's, behind the proxy)
    body = (environ["REMOTE_PORT"] if environ["PATH_INFO"].startswith("/api/") else str(os.getpid())).encode()
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
    return [body]
'''

# What systemd does for a socket unit: the listening socket as fd 3, LISTEN_FDS=1 and LISTEN_PID
# the pid of the process it runs (exec keeps it), then gunicorn as the unit's ExecStart runs it.
ON_SOCKET = ("import os, sys; os.dup2(int(sys.argv[1]), 3); os.environ.update(LISTEN_FDS='1', LISTEN_PID=str(os.getpid())); "
             "os.execv(sys.executable, [sys.executable, '-m', 'gunicorn', *sys.argv[2:]])")


def _gunicorn(tmp_path, port: int, log: str, listening: socket.socket | None = None) -> subprocess.Popen:
    """gunicorn as the write pool's unit starts it (``-c deploy/gunicorn.conf.py``, one worker
    here), serving :data:`SLOW_APP`, in a process group of its own (the unit's control group):
    on ``listening`` handed over as systemd hands its socket, else binding ``DMJ_BIND`` itself."""
    env = {**os.environ, "DMJ_POOL": "write", "DMJ_BIND": f"127.0.0.1:{port}", "DMJ_WORKERS": "1", "DMJ_THREADS": "4"}
    args = ["-c", str(DEPLOY / "gunicorn.conf.py"), "--chdir", str(tmp_path), "--log-level", "info", "slowapp:app"]
    command = ([sys.executable, "-c", ON_SOCKET, str(listening.fileno()), *args] if listening is not None
               else [sys.executable, "-m", "gunicorn", *args])
    with open(tmp_path / log, "wb") as out:
        return subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
                                pass_fds=(listening.fileno(),) if listening is not None else ())


def _get(port: int, path: str = "/", timeout: float = 30) -> tuple[int, str]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=timeout) as answer:
        return answer.status, answer.read().decode()


def _serving(port: int, within: float = 30) -> tuple[int, str]:
    deadline = time.monotonic() + within
    while True:
        try:
            return _get(port, timeout=5)
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def _left_in(group: int) -> list[int]:
    """The live processes of process group ``group`` (zombies left out: nobody may reap an orphan here)."""
    left = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[2]) == group:
            left.append(int(stat.parent.name))
    return left


def _stop_group(group: int, within: float) -> None:
    """What systemd does with KillMode=control-group once the main process is gone: SIGTERM to
    every process left, and wait for them (SIGKILL after ``within`` seconds)."""
    for pid in _left_in(group):
        os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + within
    while _left_in(group) and time.monotonic() < deadline:
        time.sleep(0.1)
    for pid in _left_in(group):
        os.kill(pid, signal.SIGKILL)


def _noticed(log: Path, within: float = 20) -> None:
    """Wait until the worker logging to ``log`` has seen its master die (gunicorn checks once a
    second), and then stopped taking requests (at once after saying so)."""
    deadline = time.monotonic() + within
    while "Parent changed, shutting down" not in log.read_text():
        assert time.monotonic() < deadline, log.read_text()
        time.sleep(0.05)
    time.sleep(0.3)


def _in_background(call) -> dict:
    out: dict = {}

    def run():
        try:
            out["answer"] = call()
        except Exception as exc:  # noqa: BLE001
            out["error"] = exc

    out["thread"] = threading.Thread(target=run, daemon=True)
    out["thread"].start()
    return out


needs_proc = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads process groups from /proc (Linux)")


@needs_proc
def test_without_the_socket_unit_a_new_master_meets_connection_in_use_while_the_old_worker_finishes(tmp_path):
    """The fault as found: gunicorn's master killed with SIGKILL, its worker goes on holding the
    port for the request it serves, and a master started meanwhile on the port gives up."""
    (tmp_path / "slowapp.py").write_text(SLOW_APP)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    old = _gunicorn(tmp_path, port, "old.log")
    try:
        _serving(port)
        slow = _in_background(lambda: _get(port, "/slow?12"))  # longer than the new master's five tries
        time.sleep(0.5)
        os.kill(old.pid, signal.SIGKILL)
        old.wait()
        assert _left_in(old.pid), "the worker outlives its master"
        new = _gunicorn(tmp_path, port, "new.log")
        assert new.wait(timeout=30) != 0
        assert "Connection in use" in (tmp_path / "new.log").read_text()
        _stop_group(old.pid, within=30)  # KillMode=control-group: systemd stops what is left before restarting
        restarted = _gunicorn(tmp_path, port, "restarted.log")
        try:
            assert _serving(port)[0] == 200
        finally:
            restarted.terminate()
            restarted.wait(timeout=30)
        slow["thread"].join(timeout=30)
        assert slow.get("answer", (None,))[0] == 200  # the old worker finished the request it held
    finally:
        _stop_group(old.pid, within=0)


@needs_proc
def test_on_the_socket_systemd_holds_a_master_killed_with_sigkill_is_replaced_and_no_request_is_refused(tmp_path):
    """The restart as the units make it: the socket stays with systemd (here: this test), the
    killed master's service is stopped whole (KillMode=control-group: its worker finishes the
    request it holds), a request arriving meanwhile waits in the socket's queue, and the new
    master, handed the same socket, answers it."""
    (tmp_path / "slowapp.py").write_text(SLOW_APP)
    listening = socket.socket()
    listening.bind(("127.0.0.1", 0))
    listening.listen(2048)
    port = listening.getsockname()[1]
    old = _gunicorn(tmp_path, port, "old.log", listening)
    new = None
    try:
        _serving(port)
        slow = _in_background(lambda: _get(port, "/slow?4"))
        time.sleep(0.5)
        os.kill(old.pid, signal.SIGKILL)
        old.wait()
        _noticed(tmp_path / "old.log")  # the old worker takes no more requests, and finishes the one it holds
        stopping = _in_background(lambda: _stop_group(old.pid, within=30))
        between = _in_background(lambda: _get(port, timeout=60))
        stopping["thread"].join(timeout=40)
        assert not _left_in(old.pid) and not between["thread"].join(timeout=0.5) and "answer" not in between
        new = _gunicorn(tmp_path, port, "new.log", listening)
        between["thread"].join(timeout=30)
        status, pid = between["answer"]
        assert status == 200 and os.getpgid(int(pid)) == new.pid  # answered by the new master's worker
        slow["thread"].join(timeout=30)
        assert slow.get("answer", (None,))[0] == 200
        assert "Connection in use" not in (tmp_path / "new.log").read_text()
    finally:
        for process in (old, new):
            if process is not None:
                _stop_group(process.pid, within=10)
        listening.close()


def test_posts_through_the_bench_proxy_reuse_a_connection_and_none_fails_after_a_pause(tmp_path):
    """nginx as the bench runs it (the production map, headers and upstream keep-alive) in front of
    gunicorn started with deploy/gunicorn.conf.py: two POSTs in a row, and one more after half a
    second, reach gunicorn on one connection (the same client port), and POSTs after pauses
    either side of nginx's 1 s idle limit are all answered 200, never 502 (the pause beyond
    gunicorn's own 5 s would catch nginx's limit raised above it)."""
    binary = _nginx_binary()
    (tmp_path / "slowapp.py").write_text(SLOW_APP)
    write, read, proxy = free_port(), free_port(), free_port()
    pool = _gunicorn(tmp_path, write, "gunicorn.log")
    conf = tmp_path / "nginx.conf"
    conf.write_text(nginx_config(tmp_path, proxy=proxy, read=read, write=write))
    server = subprocess.Popen([binary, "-c", str(conf), "-p", str(tmp_path)], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, start_new_session=True)
    url = f"http://127.0.0.1:{proxy}/api/events/{SLUG}/results/"

    def post() -> tuple[int, str]:
        request = urllib.request.Request(url, data=b"{}", method="POST")
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as refused:
            return refused.code, ""

    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                first = post()
                if first[0] == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, (tmp_path / "gunicorn.log").read_text()
            time.sleep(0.1)
        second = post()
        assert second == (200, first[1])  # the same connection to gunicorn
        answers = []
        for pause in (0.5, 0.95, 1.1, 1.6, 2.1, 5.2):
            time.sleep(pause)
            answers.append(post())
        assert [status for status, _port in answers] == [200] * 6, answers
        assert answers[0][1] == second[1]  # half a second idle: still the same connection
        assert answers[3][1] != answers[2][1]  # after more than 1 s idle, nginx opened another
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        _stop_group(pool.pid, within=10)
