"""From the laptop to the venue (docs/deploy.md, "From the laptop to the venue"): the event's public
address is asked for and checked, every printed QR code is a link a phone's camera app opens on
the event's site, a scanned set opens only at the table that holds it, and ``manage.py venue``
serves the site to the venue's network with DEBUG off."""

from __future__ import annotations

import io
import os
import socket
import subprocess
import sys
import time
import zipfile
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from factories import TEST_SITE, blocks, client_for, demo_roster, login_as_table, prepared_event
from pdfcheck import decode_qr, render_pages
from scoring.actions.entry import submit_result
from tournament.models import AuditEntry, Event, Table
from tournament.services import draw_reserve
from tournament.venue import address_problem, is_loopback_host, lan_addresses, suggested_address
from walls.print_jobs import request_print
from walls.print_kinds import PRINT_KINDS
from walls.print_kinds.base import PrintError
from walls.setcode import SetId

ROOT = Path(__file__).resolve().parent.parent


# --- the address ------------------------------------------------------------------------------


@pytest.mark.parametrize("url", ["", "   ", "http://127.0.0.1:8000/", "http://localhost:8000/", "https://[::1]/",
                                 "http://0.0.0.0:8000/", "http://127.1.2.3/", "ftp://192.168.1.20/", "192.168.1.20:8000",
                                 "http://LOCALHOST./"])
def test_an_address_a_phone_cannot_open_is_named_with_the_fix(url):
    problem = address_problem(url)
    assert problem and ("Settings" in problem or "http://" in problem)


@pytest.mark.parametrize("url", ["http://192.168.1.20:8000/", "https://mahjong.example.org/", "http://mj-laptop.local:8000/",
                                 "http://10.0.0.5/", "http://[fe80::1]:8000/"])
def test_an_address_on_the_network_is_fine(url):
    assert address_problem(url) is None


def test_the_suggested_address_is_never_this_device_s_own():
    assert all(not is_loopback_host(a) for a in lan_addresses())
    suggested = suggested_address(8123)
    assert address_problem(suggested) is None and suggested.endswith(":8123/")


@pytest.mark.django_db
def test_printing_codes_is_refused_without_an_address_phones_can_open(team_event):
    for address in ("", "http://127.0.0.1:8000/"):
        Event.objects.filter(pk=team_event.pk).update(base_url=address)
        team_event.refresh_from_db()
        for kind in ("score_sheets", "labels", "stickers", "setup", "player_cards", "session_zip"):
            with pytest.raises(PrintError) as refused:
                request_print(team_event, kind, {"session": 1})
            assert refused.value.field == "base_url" and "Settings" in refused.value.message
    assert request_print(team_event, "movement", {"session": 1}).file  # no code on it: printed


@pytest.mark.django_db
def test_the_director_s_print_button_says_why_and_what_to_do(team_event, director_client):
    Event.objects.filter(pk=team_event.pk).update(base_url="http://127.0.0.1:8000/")
    page = director_client.post(reverse("print-request", args=[team_event.slug]),
                                {"kind": "score_sheets", "session": "1"}, follow=True).content.decode()
    assert "127.0.0.1 is the address of the device that opens it" in page and "python manage.py venue" in page


@pytest.mark.django_db
def test_a_new_event_made_on_the_laptop_itself_saves_no_loopback_address(client, organiser):
    response = client.post(reverse("new-event"), {
        "name": "Club Night", "slug": "club-night", "ruleset": "mcr-duplicate", "method": "team", "conversion": "mcr-mp",
        "sessions": 2, "datum_method": "average", "comparison": "group", "public_value_source": "",
        "entrant_policy": "substitutes", "fouled_min_tables": 2, "fouled_adjusted_points": 0,
    }, HTTP_HOST="127.0.0.1:8000", follow=True)
    assert response.status_code == 200, response.content[:300]
    event = Event.objects.get(slug="club-night")
    assert event.base_url == ""  # not 127.0.0.1, saved silently and printed into every code
    assert "no public address is set" in response.content.decode()
    settings_page = client.get(reverse("event-settings", args=[event.slug]), HTTP_HOST="127.0.0.1:8000")
    offered = settings_page.context["form"]["base_url"].value()
    assert address_problem(offered) is None  # this machine's address on its network, not 127.0.0.1
    Event.objects.filter(pk=event.pk).update(base_url="http://localhost:8000/")
    page = client.get(reverse("event-settings", args=[event.slug])).content.decode()
    assert 'id="base-url-problem"' in page and "localhost is the address of the device that opens it" in page


# --- every printed code is a link --------------------------------------------------------------


def _codes(data: bytes) -> list[str]:
    return [code for page in render_pages(data, scale=200 / 72) for code in decode_qr(page.image)]


@pytest.mark.django_db
def test_every_qr_code_of_every_printed_document_is_a_link_to_the_event_s_site(team_event):
    reserve = draw_reserve(team_event, 1, 2, reason="dropped", actor="d")
    documents: dict[str, bytes] = {}
    for name, kind in PRINT_KINDS.items():
        params = {"session": 1, "sets": [1, 2]} if "sets" in kind.params else {"session": 1}
        if kind.reserve:
            params = {"reserve": reserve.pk}
        data = request_print(team_event, name, params).file.read()
        if kind.parts:
            for member, part in ((n, zipfile.ZipFile(io.BytesIO(data)).read(n)) for n in zipfile.ZipFile(io.BytesIO(data)).namelist()):
                if member.endswith(".pdf"):
                    documents[f"{name}/{member}"] = part
        else:
            documents[name] = data
    with_codes = set()
    for name, data in documents.items():
        codes = _codes(data)
        for code in codes:  # a sticker's link has its scheme and host in capitals (walls.setcode.qr_address)
            scheme, netloc = urlsplit(code)[:2]
            assert f"{scheme}://{netloc}".lower() == TEST_SITE.rstrip("/"), (name, code)
        if codes:
            with_codes.add(name.split("/")[0])
    assert {n for n, k in PRINT_KINDS.items() if k.prints_codes and not k.parts} <= with_codes
    assert {n for n, k in PRINT_KINDS.items() if not k.prints_codes} & with_codes == set()


@pytest.mark.django_db
def test_each_printed_link_opens_the_right_page(team_event):
    """The score sheet's code opens the table login with the code filled in (a POST logs in); a
    set label's opens the set at the table that holds it now."""
    table = Table.objects.filter(group__session__event=team_event).order_by("number").first()
    phone = client_for()
    sheet_codes = _codes(request_print(team_event, "score_sheets", {"session": 1}).file.read())
    login_link = next(c for c in sheet_codes if c.endswith(table.login_code_display))
    page = phone.get(login_link.removeprefix(TEST_SITE.rstrip("/")))
    assert page.status_code == 200 and table.login_code_display in page.content.decode()
    assert phone.post(reverse("table-login"), {"code": table.login_code_display}).status_code == 302
    first = blocks(table)[0][1][0]
    label = SetId(team_event.slug, 1, first).url(team_event.base_url)
    assert label in _codes(request_print(team_event, "labels", {"session": 1, "sets": [first]}).file.read())
    opened = phone.get(label.removeprefix(TEST_SITE.rstrip("/")))
    assert opened.status_code == 302 and opened["Location"].endswith(f"/table/{table.pk}/?set={first}")


@pytest.mark.django_db
def test_a_scanned_set_that_is_not_at_the_table_now_is_refused_before_anything_is_typed(team_event):
    table = Table.objects.filter(group__session__event=team_event).order_by("number").first()
    later = blocks(table)[1][1][0]
    phone = client_for(table=table)
    page = phone.get(reverse("scan", args=[SetId(team_event.slug, 1, later).payload]), follow=True)
    text = page.content.decode()
    assert page.redirect_chain[-1][0].endswith(f"/table/{table.pk}/")  # nothing chosen for entry
    assert f"Set {SetId(team_event.slug, 1, later).code} is not for Table {table.number} now" in text
    assert "is at Table" in text  # where the set is now
    assert page.context["chosen"] != later


@pytest.mark.django_db
def test_a_scanned_set_the_table_has_entered_opens_its_result(team_event):
    table = Table.objects.filter(group__session__event=team_event).order_by("number").first()
    first = blocks(table)[0][1][0]
    result = submit_result(table, first, changes={"E": 24, "S": -8, "W": -8, "N": -8}, actor="t")
    phone = client_for()
    login_as_table(phone, table)
    response = phone.get(reverse("scan", args=[SetId(team_event.slug, 1, first).payload]))
    assert response["Location"].endswith(f"?confirm={result.pk}#confirm-{result.pk}")


# --- manage.py venue ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_venue_refuses_a_loopback_address_naming_the_option():
    with pytest.raises(CommandError, match="--address: 127.0.0.1 is the address of the device"):
        call_command("venue", "--address", "http://127.0.0.1:8000/", "--check")


@pytest.mark.django_db
def test_venue_sets_the_address_of_events_phones_cannot_open_and_keeps_the_others(team_event, capsys, monkeypatch, settings,
                                                                                  tmp_path):
    monkeypatch.setattr("subprocess.run", lambda *a, **k: subprocess.CompletedProcess(a, 0))  # no collectstatic here
    settings.BASE_DIR = tmp_path  # where the venue's secret key is kept: not the checkout
    other = prepared_event(demo_roster(4), name="Kept Cup", slug="kept-cup", prepare=(), base_url="https://mj.example.org/")
    Event.objects.filter(pk=team_event.pk).update(base_url="http://127.0.0.1:8000/")
    call_command("venue", "--address", "http://192.168.7.20:8000", "--check")
    out = capsys.readouterr().out
    team_event.refresh_from_db()
    other.refresh_from_db()
    assert team_event.base_url == "http://192.168.7.20:8000/" and other.base_url == "https://mj.example.org/"
    assert "Test Cup: public address http://127.0.0.1:8000/ -> http://192.168.7.20:8000/" in out and "DEBUG off" in out
    assert AuditEntry.objects.filter(event=team_event, action="settings-changed", actor="manage.py venue").exists()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("0.0.0.0", 0))
        return s.getsockname()[1]


def test_venue_serves_the_network_with_debug_off(tmp_path):
    """The command as a director runs it, on a database of its own, told the address phones will
    open (here a venue address no traffic is sent to: the test talks to 127.0.0.1 only, naming
    that address in the Host header, as a phone's request would). It listens on every network of
    the machine (0.0.0.0), allows the venue address and refuses other hosts, answers a missing
    page with a plain 404 (DEBUG off: no settings or URL list shown), serves the static files,
    and shows the table login."""
    psutil = pytest.importorskip("psutil")
    port = _free_port()
    venue = f"192.168.7.20:{port}"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'venue.sqlite3'}", "STATIC_ROOT": str(tmp_path / "static"),
           "MEDIA_ROOT": str(tmp_path / "media"), "SECRET_KEY": "venue-test-" + "k" * 50}
    env.pop("DEBUG", None)
    env.pop("ALLOWED_HOSTS", None)
    log = (tmp_path / "venue.log").open("wb")
    server = subprocess.Popen([sys.executable, "manage.py", "venue", "--port", str(port), "--address", f"http://{venue}/",
                               "--workers", "1"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    local = f"http://127.0.0.1:{port}"
    phone = {"Host": venue}
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                home = httpx.get(f"{local}/", headers=phone, timeout=5)
                break
            except httpx.TransportError:
                assert server.poll() is None and time.monotonic() < deadline, (tmp_path / "venue.log").read_text()[-3000:]
                time.sleep(0.5)
        assert home.status_code == 200
        listening = {c.laddr for c in psutil.net_connections("tcp") if c.status == psutil.CONN_LISTEN and c.laddr.port == port}
        assert ("0.0.0.0", port) in {(a.ip, a.port) for a in listening}  # every network of the machine
        assert httpx.get(f"{local}/", headers={"Host": "elsewhere.example"}, timeout=5).status_code == 400
        missing = httpx.get(f"{local}/no-such-page/", headers=phone, timeout=5)
        assert missing.status_code == 404 and "URLconf" not in missing.text and "DEBUG" not in missing.text
        login = httpx.get(f"{local}/entry/login/", headers=phone, timeout=5)
        assert login.status_code == 200
        css = [line.split('href="', 1)[1].split('"', 1)[0] for line in login.text.splitlines()
               if 'rel="stylesheet"' in line and "/static/" in line]
        assert css and httpx.get(f"{local}{css[0]}", headers=phone, timeout=5).status_code == 200
    finally:
        os.killpg(server.pid, 15)
        server.wait(timeout=30)
    out = (tmp_path / "venue.log").read_text()
    assert f"Phones on the venue's network open http://{venue}/" in out


# --- HTTPS at the venue ---------------------------------------------------------------------------


def _handshake(cert: Path, key: Path, ca: Path, host: str) -> str:
    """A TLS handshake of a client that trusts only the venue authority ``ca`` (as a phone that
    installed it) with a server holding ``cert``/``key``, for ``host``: returns the protocol
    version; raises ssl.SSLCertVerificationError when the certificate does not cover ``host``."""
    import ssl
    import threading

    server_context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server_context.load_cert_chain(cert, key)
    client_context = ssl.create_default_context(cafile=str(ca))
    ours, theirs = socket.socketpair()
    errors = []

    def serve():
        try:
            with server_context.wrap_socket(theirs, server_side=True) as s:
                s.recv(1)
        except (ssl.SSLError, OSError) as exc:
            errors.append(exc)

    thread = threading.Thread(target=serve)
    thread.start()
    try:
        with client_context.wrap_socket(ours, server_hostname=host) as s:
            version = s.version()
            s.sendall(b"x")
            return version
    finally:
        thread.join(timeout=10)


@pytest.mark.parametrize("address, host", [("https://192.168.7.20:8443/", "192.168.7.20"),
                                           ("https://mj-laptop.local:8443/", "mj-laptop.local")])
def test_a_phone_that_installed_the_venue_certificate_opens_the_address_and_the_laptop_its_own(tmp_path, address, host):
    import ssl

    from tournament.venue import certificate_hosts, venue_certificate

    cert, key, new = venue_certificate(tmp_path / "tls", certificate_hosts(address))
    ca = tmp_path / "tls" / "venue-ca.crt"
    assert new and _handshake(cert, key, ca, host).startswith("TLS")
    assert _handshake(cert, key, ca, "127.0.0.1") and _handshake(cert, key, ca, "localhost")  # the laptop itself
    with pytest.raises(ssl.SSLCertVerificationError):
        _handshake(cert, key, ca, "192.168.7.99")  # another address: not covered


def test_the_venue_keys_are_readable_by_this_user_only_and_the_certificate_is_kept(tmp_path):
    import stat

    from tournament.venue import certificate_hosts, venue_certificate

    folder = tmp_path / "tls"
    cert, key, _ = venue_certificate(folder, certificate_hosts("https://192.168.7.20:8443/"))
    for secret in (key, folder / "venue-ca.key"):
        assert stat.S_IMODE(secret.stat().st_mode) == 0o600
        assert b"PRIVATE KEY" in secret.read_bytes()
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    again = venue_certificate(folder, certificate_hosts("https://192.168.7.20:9000/"))  # another port: same host
    assert not again[2] and {p.name: p.read_bytes() for p in folder.iterdir()} == before  # a restart keeps it
    moved = venue_certificate(folder, certificate_hosts("https://10.0.0.5:8443/"))  # the laptop on another network
    after = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert not moved[2] and after["venue-ca.crt"] == before["venue-ca.crt"]  # phones keep the certificate they installed
    assert after["venue.crt"] != before["venue.crt"] and _handshake(moved[0], moved[1], folder / "venue-ca.crt", "10.0.0.5")


def test_a_key_file_is_created_private_from_the_start(tmp_path, monkeypatch):
    """The key is never written to a file others may read, not even before a chmod: the file is
    created with mode 0600 (os.open), whatever the umask, and an old readable file is replaced."""
    import stat

    from tournament.venue import write_private

    old = os.umask(0)
    try:
        path = tmp_path / "k.key"
        path.write_bytes(b"old")
        path.chmod(0o644)
        opened = []
        real_open = os.open
        monkeypatch.setattr(os, "open", lambda p, flags, mode=0o777: opened.append(mode) or real_open(p, flags, mode))
        write_private(path, b"secret")
    finally:
        os.umask(old)
    assert opened == [0o600] and stat.S_IMODE(path.stat().st_mode) == 0o600 and path.read_bytes() == b"secret"


def test_a_write_cut_short_leaves_no_readable_file_to_write_the_key_into(tmp_path, monkeypatch):
    """A ``.tmp`` left by an earlier write (any mode, even 0644) is never reused: the key goes
    into a new file made 0600 (``O_EXCL``)."""
    import stat

    from tournament.venue import write_private

    path = tmp_path / "k.key"
    left = tmp_path / "k.key.tmp"
    left.write_bytes(b"half")
    left.chmod(0o644)
    opened = []
    real_open = os.open
    monkeypatch.setattr(os, "open", lambda p, flags, mode=0o777: opened.append((flags, mode)) or real_open(p, flags, mode))
    write_private(path, b"secret")
    assert [(bool(flags & os.O_EXCL), mode) for flags, mode in opened] == [(True, 0o600)]
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and path.read_bytes() == b"secret" and not left.exists()


def test_the_venue_secret_key_file_is_created_0600_from_its_creation(tmp_path, monkeypatch):
    import stat

    from tournament.management.commands.venue import KEY_FILE, secret_key

    monkeypatch.delenv("SECRET_KEY", raising=False)
    opened = []
    real_open = os.open
    monkeypatch.setattr(os, "open", lambda p, flags, mode=0o777: opened.append((Path(p).name, mode)) or real_open(p, flags, mode))
    old = os.umask(0)  # a umask that would leave a plain open() readable by everyone
    try:
        key = secret_key(tmp_path)
    finally:
        os.umask(old)
    path = tmp_path / KEY_FILE
    assert opened == [(KEY_FILE + ".tmp", 0o600)]  # created with its mode, not chmod-ed after
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and len(key) > 50
    assert secret_key(tmp_path) == key  # kept: logins survive a restart


@pytest.mark.django_db
def test_a_venue_secret_key_file_others_may_read_is_made_0600_and_the_director_told(tmp_path, monkeypatch, settings,
                                                                                    capsys):
    import stat

    from tournament.management.commands.venue import KEY_FILE, secret_key

    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.setattr("subprocess.run", lambda *a, **k: subprocess.CompletedProcess(a, 0))  # no collectstatic here
    settings.BASE_DIR = tmp_path
    path = tmp_path / KEY_FILE
    path.write_text("copied-key-" + "x" * 60)
    path.chmod(0o644)
    with pytest.MonkeyPatch.context() as refused:
        refused.setattr(os, "chmod", lambda *a, **k: (_ for _ in ()).throw(PermissionError(1, "Operation not permitted")))
        with pytest.raises(CommandError, match=r"mode 0644\) and cannot be made 0600 \(Operation not permitted\)"):
            secret_key(tmp_path)
    call_command("venue", "--address", "http://192.168.7.20:8000", "--check")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and path.read_text() == "copied-key-" + "x" * 60  # the same key
    said = capsys.readouterr().err
    assert f"{path} could be read by other users (mode 0644): it is now 0600" in said and "delete it" in said
    said = io.StringIO()
    call_command("venue", "--address", "http://192.168.7.20:8000", "--check", stderr=said)
    assert "could be read" not in said.getvalue()  # told once


def test_the_fingerprint_is_the_one_a_phone_and_openssl_show(tmp_path):
    import shutil

    from tournament.venue import certificate_hosts, fingerprint, venue_certificate

    venue_certificate(tmp_path, certificate_hosts("https://192.168.7.20/"))
    ca = tmp_path / "venue-ca.crt"
    shown = fingerprint(ca.read_bytes())
    assert len(shown.split(":")) == 32
    if shutil.which("openssl"):
        out = subprocess.run(["openssl", "x509", "-in", str(ca), "-noout", "-fingerprint", "-sha256"], capture_output=True,
                             text=True, check=True).stdout
        assert out.strip().split("=", 1)[1] == shown


@pytest.mark.django_db
def test_venue_serves_https_by_default_and_prints_the_fingerprint_and_the_phone_s_steps(capsys, monkeypatch, settings, tmp_path,
                                                                                       client):
    from tournament.venue import fingerprint

    monkeypatch.setattr("subprocess.run", lambda *a, **k: subprocess.CompletedProcess(a, 0))
    settings.BASE_DIR = tmp_path
    settings.VENUE_TLS_DIR = tmp_path / "tls"
    call_command("venue", "--port", "8443", "--check")
    out = capsys.readouterr().out
    ca = (tmp_path / "tls" / "venue-ca.crt").read_bytes()
    assert f"Phones on the venue's network open https://{lan_addresses()[0] if lan_addresses() else ''}" in out
    assert fingerprint(ca) in out and "venue-certificate.crt" in out and "Certificate Trust Settings" in out
    download = client.get("/venue-certificate.crt")
    assert download.status_code == 200 and download.content == ca and b"PRIVATE" not in download.content
    assert download["Content-Type"] == "application/x-x509-ca-cert"
    call_command("venue", "--port", "8000", "--http", "--check")
    assert "open http://" in capsys.readouterr().out


@pytest.mark.django_db
def test_no_certificate_to_download_without_a_venue_certificate(client, settings, tmp_path):
    settings.VENUE_TLS_DIR = tmp_path / "none"
    assert client.get("/venue-certificate.crt").status_code == 404


# --- the venue's address follows its port ---------------------------------------------------------


def test_an_address_naming_this_machine_follows_the_venue_and_a_public_one_stays():
    from tournament.venue import follows_venue

    new = "https://192.168.7.20:8301/"
    hosts = {"192.168.7.20", "mj-laptop", "mj-laptop.local"}
    for url in ("", "http://127.0.0.1:8000/", "http://localhost:8000/", "http://192.168.7.20:8000/", "https://192.168.7.20/",
                "http://mj-laptop.local:8000/"):
        assert follows_venue(url, new, hosts), url
    for url in (new, "https://192.168.7.20:8301", "https://mj.example.org/", "http://192.168.7.99:8000/"):
        assert not follows_venue(url, new, hosts), url


@pytest.mark.django_db
def test_venue_on_another_port_moves_every_event_of_this_machine_and_prints_each(team_event, capsys, monkeypatch, settings,
                                                                                 tmp_path):
    """`--port 8301` after a day on 8000: the demo's loopback address and the old venue address
    both follow; a public site's address and an archived event's stay."""
    monkeypatch.setattr("subprocess.run", lambda *a, **k: subprocess.CompletedProcess(a, 0))
    settings.BASE_DIR = tmp_path
    settings.VENUE_TLS_DIR = tmp_path / "tls"
    prepared_event(demo_roster(4), name="Old Port Cup", slug="old-port", prepare=(), base_url="http://192.168.7.20:8000/")
    prepared_event(demo_roster(4), name="Kept Cup", slug="kept-cup", prepare=(), base_url="https://mj.example.org/")
    archived = prepared_event(demo_roster(4), name="Past Cup", slug="past-cup", prepare=(), base_url="http://127.0.0.1:8000/")
    Event.objects.filter(pk=archived.pk).update(status=Event.Status.ARCHIVED)
    Event.objects.filter(pk=team_event.pk).update(base_url="http://127.0.0.1:8000/")
    call_command("venue", "--address", "https://192.168.7.20:8301", "--check")
    out = capsys.readouterr().out
    new = "https://192.168.7.20:8301/"
    assert {e.slug: e.base_url for e in Event.objects.all()} == {
        team_event.slug: new, "old-port": new, "kept-cup": "https://mj.example.org/", "past-cup": "http://127.0.0.1:8000/"}
    assert f"Test Cup: public address http://127.0.0.1:8000/ -> {new}" in out
    assert f"Old Port Cup: public address http://192.168.7.20:8000/ -> {new}" in out
    assert "Kept Cup" not in out and "Past Cup" not in out
    call_command("venue", "--address", new, "--check")
    assert "public address" not in capsys.readouterr().out  # nothing left to move
    call_command("venue", "--address", new, "--event", "kept-cup", "--check")  # named: it moves too
    assert Event.objects.get(slug="kept-cup").base_url == new


# --- the first director ----------------------------------------------------------------------------

VENUE_KEY = "venue-test-" + "s" * 50


@pytest.mark.django_db
def test_a_fresh_site_offers_the_first_director_page_and_the_code_makes_one(client, settings, django_user_model):
    from tournament.venue import setup_code

    settings.SECRET_KEY = VENUE_KEY
    home = client.get("/").content.decode()
    assert 'id="first-run"' in home and reverse("first-director") in home
    page = client.get(reverse("first-director"))
    assert page.status_code == 200 and "Setup code" in page.content.decode()
    form = {"username": "td", "password1": "a-long-venue-pw-42", "password2": "a-long-venue-pw-42"}
    wrong = client.post(reverse("first-director"), {**form, "code": "0000-0000-0000"})
    assert wrong.status_code == 200 and "not the code python manage.py venue printed" in wrong.content.decode()
    assert not django_user_model.objects.exists()
    made = client.post(reverse("first-director"), {**form, "code": setup_code(VENUE_KEY).upper().replace("-", " ")})
    assert made.status_code == 302 and made["Location"] == reverse("home")
    user = django_user_model.objects.get()
    assert user.username == "td" and user.is_superuser and user.is_staff and user.check_password("a-long-venue-pw-42")
    home = client.get("/").content.decode()
    assert "first director" in home and 'id="first-run"' not in home and reverse("new-event") in home  # logged in
    assert client.get(reverse("new-event")).status_code == 200
    stranger = client_for()
    assert stranger.get(reverse("first-director")).status_code == 404
    assert stranger.post(reverse("first-director"), {**form, "username": "x", "code": setup_code(VENUE_KEY)}).status_code == 404
    assert django_user_model.objects.count() == 1 and 'id="first-run"' not in stranger.get("/").content.decode()


@pytest.mark.django_db
def test_the_first_director_page_is_closed_once_anyone_may_run_events(client, settings, django_user_model, team_event):
    settings.SECRET_KEY = VENUE_KEY
    assert client.get(reverse("first-director")).status_code == 404  # the event's director (fixture) exists
    assert 'id="first-run"' not in client.get("/").content.decode()


@pytest.mark.django_db
def test_the_first_director_is_made_once_when_two_ask_together(settings, django_user_model):
    """The second of two requests that both saw an empty site when their page opened finds the
    first director under the lock and creates nothing."""
    from django.contrib.auth.forms import UserCreationForm

    from tournament.venue import FirstDirectorTaken, create_first_director

    first = UserCreationForm({"username": "a", "password1": "a-long-venue-pw-42", "password2": "a-long-venue-pw-42"})
    second = UserCreationForm({"username": "b", "password1": "a-long-venue-pw-42", "password2": "a-long-venue-pw-42"})
    assert first.is_valid() and second.is_valid()
    create_first_director(first)
    with pytest.raises(FirstDirectorTaken):
        create_first_director(second)
    assert list(django_user_model.objects.values_list("username", flat=True)) == ["a"]


@pytest.mark.django_db
def test_with_the_development_key_the_page_sends_to_the_venue_command(client, settings):
    settings.SECRET_KEY = settings.DEV_SECRET_KEY  # public in the source: its code is no secret
    page = client.get(reverse("first-director"))
    assert page.status_code == 403 and "python manage.py venue" in page.content.decode()


@pytest.mark.django_db
def test_venue_prints_the_first_director_address_with_its_code_while_there_is_none(capsys, monkeypatch, settings, tmp_path):
    from tournament.venue import setup_code

    monkeypatch.setattr("subprocess.run", lambda *a, **k: subprocess.CompletedProcess(a, 0))
    monkeypatch.setenv("SECRET_KEY", VENUE_KEY)
    settings.BASE_DIR = tmp_path
    call_command("venue", "--address", "http://192.168.7.20:8000/", "--check")
    assert f"http://192.168.7.20:8000/first-director/?code={setup_code(VENUE_KEY)}" in capsys.readouterr().out
