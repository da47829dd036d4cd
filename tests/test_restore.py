"""docs/deploy.md, "Backups" and "Restoring an event", followed literally: the commands are read
from the doc's own blocks. A backup made in the middle of a session (hands entered and confirmed,
a hand entered and not yet confirmed, through a phone's table page and a scorer's API token) and
restored into an empty database answers a phone's resend of a stored write, with its original
request key, as the old server did: the stored result, replayed, never a 409 and never a second
copy. Once the phone has logged in again and the scorer has a new token, as the doc says."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.db import connection
from django.test import Client

from factories import api_key, client_for, entering, first_set, login_as_table, pin, scorer_of_every_table, table_url
from scoring.models import HandResult, ResultRevision
from tournament.models import Event, EventRole, Table

ROOT = Path(__file__).resolve().parent.parent
DEPLOY_DOC = ROOT / "docs" / "deploy.md"
DOC_FOLDER = "/srv/dmj-backups"  # the backup folder the doc's commands name
CHANGES = {"E": 48, "S": -16, "W": -16, "N": -16}


def _section(heading: str) -> str:
    """The text of docs/deploy.md from ``heading`` (a whole line) to the next heading of its level or above."""
    text = DEPLOY_DOC.read_text(encoding="utf-8")
    level = heading.split(" ", 1)[0]
    start = text.index(f"\n{heading}\n") + 1
    ends = [m.start() for m in re.finditer(r"^#{1,%d} " % len(level), text[start + len(heading):], re.M)]
    return text[start:start + len(heading) + (ends[0] if ends else len(text))]


def documented(heading: str, command: str | None = None) -> list[list[str]]:
    """The ``manage.py`` command lines of the ```sh blocks of docs/deploy.md's section
    ``heading``, each split as the shell splits it (``[".venv/bin/python", "manage.py", name,
    *arguments]``); only those running ``command`` when given."""
    lines = []
    for block in re.findall(r"```sh\n(.*?)```", _section(heading), re.S):
        for line in block.splitlines():
            words = shlex.split(line, comments=True)
            if "manage.py" in words and (command is None or words[words.index("manage.py") + 1] == command):
                lines.append(words[words.index("manage.py") - 1:])
    return lines


def _in(folder: Path, words: list[str], slug: str) -> list[str]:
    """``words`` with the doc's backup folder made ``folder`` and its ``<time>``/``<slug>`` the
    newest backup file there (AssertionError when none is)."""
    out = []
    for word in words:
        word = word.replace(DOC_FOLDER, str(folder))
        if "<time>" in word:
            found = sorted(Path(word).parent.glob(Path(word).name.replace("<slug>", slug).replace("<time>", "*")))
            assert found, f"no backup file for {word}"
            word = str(found[-1])
        out.append(word)
    return out


def _run(words: list[str]) -> None:
    """A documented ``manage.py`` command run in this process, as typed."""
    assert words[1] == "manage.py", words
    call_command(words[2], *words[3:])


def _backup(folder: Path) -> None:
    (command,) = documented("## Backups", "backup_events")
    _run(_in(folder, command, ""))


@pytest.fixture
def scorer(team_event):
    """A scorer account of every table of the event, and its API client (token)."""
    return client_for(token=api_key(scorer_of_every_table(team_event, "restored-scorer")))


def _api(client, url, body, key):
    return client.post(url, json.dumps(body), content_type="application/json", HTTP_IDEMPOTENCY_KEY=key)


def _entry(table) -> dict:
    return {"table": table.number, "set_no": first_set(table), "changes": CHANGES, "entered_by_seat": "E",
            "entry_pin": pin(table, "E")}


def _phone_form(table, key: str) -> dict:
    return {"set_no": str(first_set(table)), "mode": "changes", "request_key": key,
            **{f"seat_{seat}": str(value) for seat, value in CHANGES.items()}, **entering(table, "E")}


def test_the_doc_names_the_commands_this_test_runs():
    assert [words[2] for words in documented("### Restoring an event")] == ["migrate", "loaddata", "import_event"]
    assert documented("## Backups", "backup_events") == [
        ["/srv/dmj/.venv/bin/python", "manage.py", "backup_events", DOC_FOLDER, "--keep-hours", "48"]]


@pytest.mark.django_db
def test_a_phones_resend_after_the_documented_restore_is_a_replay_not_a_conflict(team_event, scorer, tmp_path,
                                                                                  django_user_model):
    slug = team_event.slug
    one, two, three, four = Table.objects.filter(group__session__event=team_event).order_by("number")[:4]
    # the middle of session 1: table 1's phone enters and confirms on its page, table 2's scorer
    # enters through the API and nobody has confirmed yet, table 3's enters and confirms there
    phone = client_for(table=one)
    entry_form = _phone_form(one, "phone-entry-0001")
    entered = phone.post(table_url(one), entry_form)
    result = HandResult.objects.get(table=one)
    confirm_url = f"/e/{slug}/table/{one.pk}/confirm/{result.pk}/"
    confirm_form = {"pin": pin(one, "S"), "revision": "1", "request_key": "phone-confirm-0001"}
    confirmed = phone.post(confirm_url, confirm_form)
    results = f"/api/events/{slug}/results/"
    waiting = _api(scorer, results, _entry(two), "api-entry-0002")
    done = _api(scorer, results, _entry(three), "api-entry-0003")
    done_confirmed = _api(scorer, f"{results}{done.json()['id']}/confirm/", {"pin": pin(three, "S")}, "api-confirm-0003")
    assert entered.status_code == confirmed.status_code == 302 and "confirm=" in entered["Location"]
    assert waiting.status_code == done.status_code == 201 and done_confirmed.json()["status"] == "confirmed"
    resends = [(results, _entry(two), "api-entry-0002"), (results, _entry(three), "api-entry-0003"),
               (f"{results}{done.json()['id']}/confirm/", {"pin": pin(three, "S")}, "api-confirm-0003")]
    before = [_api(scorer, *resend) for resend in resends]  # the old server's answers: each result as stored
    assert [b.status_code for b in before] == [200, 200, 200]
    revisions = ResultRevision.objects.filter(result__event=team_event).count()

    _backup(tmp_path)
    # an empty database as far as this event goes: the event, every account (tokens with them), every login
    Event.objects.filter(pk=team_event.pk).delete()
    django_user_model.objects.all().delete()
    Session.objects.all().delete()
    if connection.vendor == "postgresql":  # as in an empty database, the next id would be 1
        with connection.cursor() as cursor:
            for model in (Table, HandResult):
                cursor.execute("SELECT setval(pg_get_serial_sequence(%s, 'id'), 1, false)", [model._meta.db_table])
    for command in documented("### Restoring an event"):
        _run(_in(tmp_path, command, slug))

    restored = Event.objects.get(slug=slug)
    assert ResultRevision.objects.filter(result__event=restored).count() == revisions
    # what the doc says to rebuild: the phone logs in again with its table's code, the director
    # gives the scorer a new token (the account came back with the accounts file)
    scorer = client_for(token=api_key(django_user_model.objects.get(username="restored-scorer")))
    for old, resend in zip(before, resends):
        replay = _api(scorer, *resend)
        assert replay.status_code == 200 and replay["Idempotent-Replayed"] == "true", replay.content
        # the same answer, but for updated_at: the export keeps no such time, the import is the last write
        assert {**replay.json(), "updated_at": None} == {**old.json(), "updated_at": None}
    phone = Client()
    assert login_as_table(phone, Table.objects.get(group__session__event=restored, number=one.number)).status_code == 302
    again = phone.post(table_url(one), entry_form)  # the address the phone's queue holds
    assert again.status_code == 302 and again["Location"] == entered["Location"]
    again = phone.post(confirm_url, confirm_form)
    assert again.status_code == 302 and again["Location"] == confirmed["Location"]
    assert ResultRevision.objects.filter(result__event=restored).count() == revisions  # nothing stored twice
    changed = _api(scorer, results, {**_entry(two), "changes": {"E": 8, "S": 0, "W": -8, "N": 0}}, "api-entry-0002")
    assert changed.status_code == 422  # the key's request came back with it: another body is still refused
    assert HandResult.objects.get(pk=waiting.json()["id"]).status == "entered"
    go_on = _api(scorer, f"{results}{waiting.json()['id']}/confirm/", {"pin": pin(two, "S")}, "api-confirm-0002")
    assert go_on.status_code == 200 and go_on.json()["status"] == "confirmed"  # and the session goes on
    four = Table.objects.get(group__session__event=restored, number=four.number)
    assert _api(scorer, results, _entry(four), "api-entry-0004").status_code == 201  # new rows take new ids
    assert EventRole.objects.filter(event=restored, user__username="restored-scorer").exists()


REPLAY = """
import json, os, sys
import django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
django.setup()
from django.test import Client
asked = json.loads(sys.argv[1])
phone = Client()
login = phone.post("/entry/login/", {"code": asked["code"]})
answer = phone.post(asked["url"], asked["form"])
print(json.dumps({"login": login.status_code, "status": answer.status_code, "location": answer.get("Location")}))
"""


@pytest.mark.django_db
def test_the_documented_restore_into_an_empty_database_file_answers_the_phones_resend_as_stored(team_event, tmp_path):
    """The restore runs as typed, in its own processes, against a new SQLite file; so does the
    phone's resend."""
    table = Table.objects.filter(group__session__event=team_event).order_by("number").first()
    phone = client_for(table=table)
    form = _phone_form(table, "phone-entry-0101")
    first = phone.post(table_url(table), form)
    assert first.status_code == 302
    _backup(tmp_path / "backups")
    env = {k: v for k, v in os.environ.items() if k not in ("CELERY_BROKER_URL", "CACHE_URL")}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    for command in documented("### Restoring an event"):
        words = _in(tmp_path / "backups", command, team_event.slug)
        done = subprocess.run([sys.executable, *words[1:]], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
    said = done.stdout
    asked = {"code": table.login_code, "url": table_url(table), "form": form}
    answer = subprocess.run([sys.executable, "-c", REPLAY, json.dumps(asked)], cwd=ROOT, env=env, capture_output=True,
                            text=True, timeout=120)
    assert answer.returncode == 0, answer.stderr
    replay = json.loads(answer.stdout.strip().splitlines()[-1])
    assert replay == {"login": 302, "status": 302, "location": first["Location"]}
    assert "tables and results keep their ids" in said and "request keys restored: 1 " in said
