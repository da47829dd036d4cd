"""Helpers shared by the test modules: build an event the way a director does (create it, import
its roster, prepare sessions through :func:`tournament.services.prepare_session`), play movement
slots, find a table, its first set, its page and its players' PINs, log a test client in as a
table's scorer the way a phone does (a POST of the table's code to the table login form; a GET
never logs in), and say who is entering a result the way a player does (their seat and their own
PIN). In a Playwright page: enter a hand by its outcome through the table page's DOM contract
(:func:`enter_outcome`, :func:`save_entry`, :func:`fill_discard_win`), confirm with a PIN, and
tell the page's own errors from an expected refusal (:func:`console_error`). The independent
recomputations the tests check results against are in tests/oracles.py."""

from __future__ import annotations

import dataclasses
import itertools
import random
import threading
from collections.abc import Callable, Iterable
from contextlib import contextmanager

from django.db import connections, transaction
from django.test import Client
from django.urls import reverse

from scoring.actions.confirmation import confirm_result
from scoring.actions.entry import submit_result
from scoring.actions.rescoring import rescore_set
from scoring.models import HandResult, ResultRevision
from tournament.api_tokens import issue_token
from tournament.demo import ROSTER, plausible_outcome
from tournament.models import Event, EventRole, Table
from tournament.services import create_event, import_roster, prepare_session
from tournament.table_plan import table_plan
from walls.rulesets import get_ruleset

# --- events ---------------------------------------------------------------------------------------


TEST_SITE = "http://testserver/"
"""The public address of the events the factories make: the test client's host."""


def demo_roster(teams: int | None = None) -> str:
    """The shipped demo roster (tournament/data/demo_roster.csv: 16 teams of 4) as CSV text, or
    its header and first ``teams`` teams (4 teams: one group of 4 tables)."""
    text = ROSTER.read_text(encoding="utf-8")
    if teams is None:
        return text
    return "\n".join(text.splitlines()[:1 + 4 * teams]) + "\n"


def team_roster(teams: int, size: int = 4) -> str:
    """A roster CSV of ``teams`` teams "Team 1", "Team 2", ... of ``size`` players each
    ("Team 1 player 0", ...)."""
    names = [f"Team {t}" for t in range(1, teams + 1)]
    return "team,player\n" + "".join(f"{t},{t} player {m}\n" for t in names for m in range(size))


def individual_roster(players: int) -> str:
    """A roster CSV of an individual event: "Player 1" to "Player ``players``"."""
    return "player\n" + "".join(f"Player {p}\n" for p in range(1, players + 1))


def prepared_event(roster: str, *, prepare: Iterable[int] = (1,), director=None, **fields) -> Event:
    """An event made as a director makes one: :func:`tournament.services.create_event` with
    ``fields`` (``name`` is required), the ``roster`` CSV imported, each session number in
    ``prepare`` prepared (seated and its walls generated) through
    :func:`tournament.services.prepare_session`, and ``director`` (a user), when given, holding
    the director role. The public address defaults to ``http://testserver/``, the test client's
    own (printed QR codes link there: documents with codes refuse an event without one). Raises
    what those services raise (SetupError, WallError)."""
    event = create_event(**{"base_url": TEST_SITE, **fields})
    import_roster(event, roster)
    for number in prepare:
        prepare_session(event, number)
    if director is not None:
        EventRole.objects.create(event=event, user=director, role=EventRole.Role.DIRECTOR)
    return event


def play_slots(event: Event, rng: random.Random, *, session: int = 1, slots: Iterable[int] | None = None,
               groups: Iterable[int] | None = None, tables: Iterable[int] | None = None,
               through_set: int | None = None, changes=None,
               director: bool = False, entered_by_seat: str | None = None, skip_entered: bool = False,
               actor: str = "t") -> None:
    """Play ``session`` of ``event`` the way the room does, movement slot by slot and, in each
    slot, table by table in table-number order: enter and confirm a result for every set of the
    movement ``slots`` (indexes into each table's schedule; None: every slot) at every table (only
    of the group numbers in ``groups``, and of the table numbers in ``tables``, when given).

    - the result: a plausible outcome (:func:`tournament.demo.plausible_outcome`, drawn from
      ``rng``), or, with ``changes``, the typed score changes ``changes(rng, seats)`` returns
      (``{seat: points}``, summing to 0), ``seats`` being the rule set's seat letters;
    - ``through_set``: each table stops after the block that holds that set (its own slot);
    - ``entered_by_seat``: the seat recorded as entering (none by default);
    - confirmed with the PIN of the player at the rule set's second seat on that set (substitutes
      counted: :func:`tournament.table_plan.table_plan`), or by the director with ``director``;
    - ``skip_entered``: sets that already have a result are left as they are.

    ``actor`` is recorded as who entered and confirmed. Raises what
    :func:`scoring.actions.entry.submit_result` / :func:`scoring.actions.confirmation.confirm_result` raise (ResultError)."""
    seats = tuple(event.get_ruleset().seats)
    chosen = Table.objects.filter(group__session__event=event, group__session__number=session).order_by("number")
    if groups is not None:
        chosen = chosen.filter(group__number__in=groups)
    if tables is not None:
        chosen = chosen.filter(number__in=tables)
    tables = list(chosen.select_related("group__session__event"))
    schedules = {t.pk: blocks(t) for t in tables}
    plans = {t.pk: table_plan(t) for t in tables}
    last = {t.pk: len(schedules[t.pk]) - 1 for t in tables}
    if through_set is not None:
        last = {t.pk: next(i for i, (_, sets) in enumerate(schedules[t.pk]) if through_set in sets) for t in tables}
    if slots is None:
        slots = range(max(len(s) for s in schedules.values()))
    for slot in slots:
        for table in tables:
            if slot > last[table.pk]:
                continue
            for set_no in schedules[table.pk][slot][1]:
                if skip_entered and table.results.filter(set_no=set_no).exists():
                    continue
                typed = {"outcome": plausible_outcome(rng, seats)} if changes is None else {"changes": changes(rng, seats)}
                if entered_by_seat is not None:
                    typed["entered_by_seat"] = entered_by_seat
                result = submit_result(table, set_no, actor=actor, **typed)
                if director:
                    confirm_result(result, actor=actor, director=True)
                else:
                    confirm_result(result, actor=actor, pin=plans[table.pk].holders(table, set_no)[seats[1]].pin)


def bulk_results(event: Event, rng: random.Random, *, session: int = 1, actor: str = "t") -> int:
    """Store a confirmed result of every set at every table of ``session`` in a few statements, as
    a room would have entered and confirmed them (each with its "enter" and "confirm" revisions),
    without going through entry: for tests and benchmarks that need a played event of hundreds of
    tables (scores and releases are left to :func:`scoring.conversion_versions.rescore_event`).
    Each hand is an MCR hand drawn from ``rng`` (:func:`tournament.demo.plausible_outcome`): the
    winner takes the fan value from the discarder and 8 from every other seat (or the fan value
    plus 8 from every seat on a self-draw); a draw changes nothing. Returns the number of results."""
    seats = tuple(event.get_ruleset().seats)
    sets = event.get_ruleset().hands_per_session
    tables = list(Table.objects.filter(group__session__event=event, group__session__number=session).order_by("number"))
    results = []
    for table in tables:
        for set_no in range(1, sets + 1):
            outcome = plausible_outcome(rng, seats)
            changes = dict.fromkeys(seats, 0)
            if outcome["kind"] != "draw":
                winner, fan = outcome["winners"][0], outcome["fans"][0]
                for seat in seats:
                    if seat != winner:
                        paid = fan + 8 if outcome["kind"] == "self_draw" or seat == outcome["discarder"] else 8
                        changes[seat] -= paid
                        changes[winner] += paid
            results.append(HandResult(event=event, table=table, session_number=session, set_no=set_no, changes=changes,
                                      outcome=outcome, status=HandResult.Status.CONFIRMED, revision=1,
                                      entered_by=actor, confirmed_by=actor))
    results = HandResult.objects.bulk_create(results)
    if any(r.pk is None for r in results):  # a backend that returns no ids from a bulk insert
        results = list(HandResult.objects.filter(event=event, session_number=session))
    ResultRevision.objects.bulk_create(
        ResultRevision(result=r, revision=1, action=action, status=status, changes=r.changes, outcome=r.outcome,
                       actor=actor)
        for r in results for action, status in (("enter", HandResult.Status.ENTERED), ("confirm", HandResult.Status.CONFIRMED)))
    return len(results)


def play_up_to(tables: list[Table], set_no: int, enter) -> None:
    """Bring every table of ``tables`` (of one session) to ``set_no`` the way play goes, slot by
    slot in movement order: each table enters every set of its blocks before the one holding
    ``set_no``, then ``set_no`` itself, skipping sets it already has a result on.
    ``enter(table, set_no)`` stores (and, as the test needs, confirms) one result."""
    schedules = {t.pk: blocks(t) for t in tables}
    for slot in range(max(len(s) for s in schedules.values())):
        for table in tables:
            target = next(i for i, (_, sets) in enumerate(schedules[table.pk]) if set_no in sets)
            if slot > target:
                continue
            for s in schedules[table.pk][slot][1]:
                if (s == set_no or slot < target) and not table.results.filter(set_no=s).exists():
                    enter(table, s)


def sets_through(table: Table, set_no: int) -> list[int]:
    """The sets ``table`` plays, in movement order, from its first up to the end of the block
    that holds ``set_no``. Raises ValueError when the table does not play ``set_no``."""
    played = []
    for _, sets in blocks(table):
        played += sets
        if set_no in sets:
            return played
    raise ValueError(f"table {table.number} does not play set {set_no}")


@contextmanager
def rolled_back(django_db_blocker):
    """For a fixture built once per module: the database open (``django_db_blocker``, pytest-django's
    fixture) inside a transaction that is rolled back when the block ends, so what the fixture
    built is gone after the module's last test."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield
        transaction.set_rollback(True)


class Snapshot:
    """The rows some fixture data adds to the test database, captured once per test session and
    written back by each test that asks for the data: for data that takes seconds to build
    (the 16-team ``team_event``: ~0.4 s) and that ~190 tests read. Built by
    :meth:`capture`; :meth:`restore` inserts the rows, with the primary keys they had, inside the
    calling test's database (its transaction, rolled back after a ``db`` test; flushed after a
    ``transactional_db`` one), so nothing is shared between tests.

    Only on SQLite (the suite's database): there each build runs with every table's AUTOINCREMENT
    counter raised to a range of its own (:attr:`FIRST_PK`, then :attr:`RANGE` higher for each
    further snapshot), so the captured rows never meet rows a test made before asking for the
    data nor the rows of another snapshot, and rows made after a restore continue above them. On
    another database :meth:`capture` returns None and the fixture builds its data per test as
    before (:func:`built_once`)."""

    FIRST_PK = 1_000_000
    RANGE = 1_000_000
    _captured = itertools.count()

    def __init__(self, tables: list[tuple[str, list[str], list[tuple]]], value):
        self.tables = tables  # (table, column names, rows) in insertion order
        self.value = value  # what the builder returned, reduced to plain data (e.g. a pk)

    @classmethod
    def capture(cls, django_db_blocker, build) -> Snapshot | None:
        """Run ``build()`` (returns plain data, e.g. a pk) in a transaction that is rolled back and
        return the rows it added; None off SQLite, or when ``build`` changed or deleted a row that
        was there before (a snapshot could not replay that)."""
        from django.core.cache import cache
        from django.db import connection

        with django_db_blocker.unblock():
            if connection.vendor != "sqlite":
                return None
            with transaction.atomic():
                with connection.cursor() as cursor:
                    names = [t for t in connection.introspection.table_names(cursor) if t != "sqlite_sequence"]
                    before = {t: set(cls._rows(cursor, t)[1]) for t in names}
                    base = cls.FIRST_PK + cls.RANGE * next(cls._captured)
                    cursor.execute("SELECT name, seq FROM sqlite_sequence")
                    seqs = dict(cursor.fetchall())
                    for t in names:
                        cursor.execute("DELETE FROM sqlite_sequence WHERE name = %s", [t])
                        cursor.execute("INSERT INTO sqlite_sequence (name, seq) VALUES (%s, %s)",
                                       [t, max(base, seqs.get(t) or 0)])
                value = build()
                tables, complete = [], True
                with connection.cursor() as cursor:
                    for t in names:
                        columns, rows = cls._rows(cursor, t)
                        if not before[t] <= set(rows):
                            complete = False
                        added = [r for r in rows if r not in before[t]]
                        if added:
                            tables.append((t, columns, added))
                transaction.set_rollback(True)
            cache.clear()
        return cls(tables, value) if complete else None

    @staticmethod
    def _rows(cursor, table: str) -> tuple[list[str], list[tuple]]:
        from django.db import connection

        cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)}")
        return [c[0] for c in cursor.description], [tuple(r) for r in cursor.fetchall()]

    def restore(self):
        """Insert the captured rows into the current test's database (foreign keys are checked
        at the end of the block) and return the builder's value."""
        from django.db import connection

        quote = connection.ops.quote_name
        with transaction.atomic(), connection.cursor() as cursor:
            for table, columns, rows in self.tables:
                marks = ", ".join(["%s"] * len(columns))
                cursor.executemany(f"INSERT INTO {quote(table)} ({', '.join(map(quote, columns))}) VALUES ({marks})", rows)
        return self.value


def built_once(build, *, name: str):
    """A session-scoped fixture called ``name`` holding the :class:`Snapshot` of the event
    ``build()`` (no arguments; returns an Event) makes, for :func:`event_from` in a
    function-scoped fixture of the same data::

        def _build(): return prepared_event(...)
        _rows = built_once(_build, name="_rows")

        @pytest.fixture
        def event(director, _rows):
            return event_from(_rows, _build, director)
    """
    import pytest

    @pytest.fixture(scope="session", name=name)
    def snapshot(django_db_setup, django_db_blocker):
        return Snapshot.capture(django_db_blocker, lambda: build().pk)

    return snapshot


def event_from(snapshot: Snapshot | None, build, director=None) -> Event:
    """The event of ``snapshot`` written into this test's database (``build()`` run here when
    there is no snapshot: off SQLite), ``director`` (a user), when given, holding its director
    role."""
    event = build() if snapshot is None else Event.objects.get(pk=snapshot.restore())
    if director is not None:
        EventRole.objects.create(event=event, user=director, role=EventRole.Role.DIRECTOR)
    return event


# --- tables and people ------------------------------------------------------------------------------


def first_table(event: Event) -> Table:
    """The event's lowest-numbered table (table 1 of session 1 in an event seated once)."""
    return Table.objects.filter(group__session__event=event).order_by("number").first()


def blocks(table: Table) -> list[tuple[int, tuple[int, ...]]]:
    """``table``'s blocks of sets in play order, ``[(block, (set_no, ...))]``, from its table plan
    (:meth:`tournament.table_plan.SessionPlan.blocks`)."""
    return table_plan(table).blocks(table)


def first_set(table: Table) -> int:
    """The first set ``table`` plays: the first of its first block in movement order."""
    return blocks(table)[0][1][0]


def pin(table: Table, seat: str) -> str:
    """The PIN of the player at ``seat`` of ``table``."""
    return table.seats.get(seat=seat).player.pin


def table_url(table: Table) -> str:
    """The path of ``table``'s page (result entry and confirmation)."""
    return reverse("table", args=[table.group.session.event.slug, table.pk])


def api_key(user) -> str:
    """A new API token of ``user`` (:func:`tournament.api_tokens.issue_token`: stored hashed):
    its key, to send as ``Authorization: Token <key>`` (``client_for(token=...)``)."""
    return issue_token(user)


def scorer_of_every_table(event: Event, username: str):
    """A new account (``username``, password ``pw-<username>``) holding the scorer role of
    ``event`` for every one of its tables, as a venue's scoring script's account does."""
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(username, password=f"pw-{username}")
    EventRole.objects.create(event=event, user=user, role=EventRole.Role.SCORER).tables.set(
        Table.objects.filter(group__session__event=event))
    return user


def client_for(user=None, *, token: str | None = None, table: Table | None = None) -> Client:
    """A fresh test client: logged in as ``user`` (a session login, no password check) when
    given; sending ``token`` as its API token (``Authorization: Token ...``) when given; logged in
    with ``table``'s code, as a phone does (:func:`login_as_table`), when given — AssertionError
    if that login is refused. With none of them: an anonymous visitor."""
    client = Client()
    if user is not None:
        client.force_login(user)
    if token is not None:
        client.defaults["HTTP_AUTHORIZATION"] = f"Token {token}"
    if table is not None:
        assert login_as_table(client, table).status_code == 302
    return client


# --- logging in and entering ------------------------------------------------------------------------


def login_as_table(client, table, *, event_scoped: bool = False, code: str | None = None, **extra):
    """POST ``table``'s login code (or ``code``) to the table login form and return the response
    (a redirect to the table's page when the code was taken). ``event_scoped``: use the table's
    event's own login page. ``extra``: request headers, e.g. ``REMOTE_ADDR``."""
    if event_scoped:
        url = reverse("event-table-login", args=[table.group.session.event.slug])
    else:
        url = reverse("table-login")
    return client.post(url, {"code": table.login_code if code is None else code}, **extra)


def entering(table, seat: str) -> dict:
    """The form data that says the player at ``seat`` of ``table`` is entering: the seat and that
    player's own PIN (``entered_by_seat``, ``entry_pin``), for a POST to the table page or the
    entry form."""
    return {"entered_by_seat": seat, "entry_pin": table.seats.select_related("player").get(seat=seat).player.pin}


def login_as_table_in_browser(page, url: str | None = None, code: str | None = None) -> None:
    """In a Playwright ``page``, log in as a table's scorer the way a phone does: open ``url`` (a
    login link holding the code, as the score sheet's QR code gives, or the bare login form; None:
    the page already shows it), type ``code`` when given, press the page's one button ("Log in as
    this table's scorer" / "Open my table") and wait for the page it leads to."""
    if url is not None:
        page.goto(url)
    if code is not None:
        page.fill("#code", code)
    with page.expect_navigation():
        page.click("main form[method=post] button[type=submit]")


def say_who_is_entering(page, seat: str, pin: str) -> None:
    """On the table page in a Playwright ``page``: choose ``seat`` as the one entering and type
    that player's own ``pin`` ("Your PIN (the player entering)")."""
    page.select_option("#entered_by_seat", seat)
    page.fill("#entry_pin", pin)


def _tick(page, name: str, seats) -> None:
    """Tick exactly ``seats`` among the table page's ``input[name=<name>]`` boxes (seat buttons)."""
    boxes = page.locator(f"input[name={name}]")
    for i in range(boxes.count()):
        box = boxes.nth(i)
        wanted = box.get_attribute("value") in seats
        if box.is_checked() != wanted:
            box.set_checked(wanted)


def enter_outcome(page, *, set_no: int | None = None, kind: str, winners=(), discarder: str | None = None,
                  values: dict | None = None, fu: dict | None = None, yakuman: dict | None = None, honba: int = 0,
                  riichi=(), tenpai=(), shielded=(), liable: str | None = None) -> None:
    """On the table page (or a result's correction form) in a Playwright ``page``: enter a hand by
    its outcome the way a scorer does, through the page's DOM contract (docs/scoring.md, "Payment rules"): choose
    set ``set_no`` (None: leave it), the outcome mode where the rule set offers modes, the kind
    button (``discard``, ``self_draw``, ``draw``), the winners and the discarder seat buttons, each
    winner's value (``values``: {seat: fan or han}), ``fu`` and ``yakuman`` ({seat: int}), the honba
    counters (where the page asks: in duplicate rule sets they are fixed per set by the director,
    docs/scoring.md, "Fixed honba and riichi sticks"), and the riichi, tenpai and shielded seats, and the liable seat (bao). Inputs the rule
    does not take must be left at their defaults. Save is left to the caller (:func:`save_entry`)."""
    if set_no is not None:
        page.select_option("#set_no", str(set_no))
    mode = page.locator("input[name=mode][value=outcome]")
    if mode.count():
        mode.check()
    page.click(f"label[for=kind-{kind}]")
    for seat in winners:
        page.check(f"#win-{seat}")
    if discarder is not None:
        page.check(f"#discarder-{discarder}")
    for seat, value in (values or {}).items():
        page.fill(f"#value_{seat}", str(value))
    for seat, value in (fu or {}).items():
        page.select_option(f"#fu_{seat}", str(value))
    for seat, value in (yakuman or {}).items():
        page.select_option(f"#yakuman_{seat}", str(value))
    if page.locator("#honba").count() and (honba or page.locator("#honba").is_visible()):
        page.fill("#honba", str(honba))  # a rule set whose honba are fixed per set shows them as text instead
    for name, seats in (("riichi", riichi), ("tenpai", tenpai), ("shielded", shielded)):
        if seats or page.locator(f"input[name={name}]").count():
            _tick(page, name, seats)
    if liable is not None or page.locator("#liable").is_visible():
        page.select_option("#liable", liable or "")


def save_entry(page) -> None:
    """Press the table page's Save button and wait for the page it leads to."""
    with page.expect_navigation():
        page.click("#save")


def fill_discard_win(page, set_no: int, winner: str, discarder: str, fan: int) -> None:
    """On the table page in a Playwright ``page``: choose set ``set_no`` and enter a discard win
    by its outcome (``winner`` won on ``discarder``'s discard for ``fan``, in the rule's unit);
    Save is left to the test."""
    enter_outcome(page, set_no=set_no, kind="discard", winners=(winner,), discarder=discarder, values={winner: fan})


def console_error(message) -> bool:
    """Whether a Playwright console ``message`` is an error of the page (a script error, a
    resource that failed to load), leaving out the page's own answer to a refused form: the table
    page answers a refused entry with 400 (409, 429) and the form to fix, which Chromium logs as a
    failed load of the document itself."""
    if message.type != "error":
        return False
    own_answer = message.text.startswith("Failed to load resource") and (message.location or {}).get("url") == message.page.url
    return not own_answer


def confirm_with_pin(page, pin: str) -> None:
    """Type ``pin`` into the first result waiting for confirmation on the table page and press Confirm."""
    card = page.locator("#pending form").first
    card.locator("input[name=pin]").fill(pin)
    with page.expect_navigation():
        card.get_by_role("button", name="Confirm").click()


def standings_rows(page) -> list[list[str]]:
    """The standings page's table as text: one list of cell texts per row (rank, name, points,
    score total, sets); the note cell (substitute, sit-out credit) is read by :func:`standings_notes`."""
    rows = page.locator("#standings tbody tr")
    return [[cell.strip() for cell in rows.nth(i).locator("td:not(.note)").all_inner_texts()] for i in range(rows.count())]


def standings_notes(page) -> dict[str, str]:
    """The standings page's note per entrant name (e.g. "substitute, not ranked"), "" for none."""
    rows = page.locator("#standings tbody tr")
    return {rows.nth(i).locator("td").nth(1).inner_text().strip(): rows.nth(i).locator("td.note").inner_text().strip()
            for i in range(rows.count())}


# --- a large played event, fast ---------------------------------------------------------------------


def played_event(teams: int, sessions: int, *, slug: str, seed: int = 27, director=None) -> Event:
    """A team event of ``teams`` teams (MCR, one wind round: 4 sets a session) with ``sessions``
    sessions prepared through :func:`tournament.services.prepare_session` and every set of them
    played, confirmed, scored and released — the results written in bulk (one INSERT per session,
    random zero-sum score changes, no hand details), then scored set by set through
    :func:`scoring.actions.rescoring.rescore_set`, the path every confirmation takes. For pages
    measured or counted at 16 and 256 teams (1,024 players) without entering 8,192 results one
    by one. ``director`` (a user), when given, holds the director role."""
    rng = random.Random(seed)
    ruleset = dataclasses.replace(get_ruleset("mcr-duplicate"), rounds=1)
    event = create_event(name=f"Played {slug}", slug=slug, ruleset=ruleset, sessions=sessions)
    import_roster(event, team_roster(teams))
    seats = tuple(ruleset.seats)
    hands = event.get_ruleset().hands_per_session
    for number in range(1, sessions + 1):
        prepare_session(event, number)
        tables = Table.objects.filter(group__session__event=event, group__session__number=number)
        rows = []
        for table in tables:
            for set_no in range(1, hands + 1):
                winner = rng.choice(seats)
                fan = 8 + int(rng.expovariate(1 / 6))
                changes = {seat: (3 * (fan + 8) if seat == winner else -(fan + 8)) for seat in seats}
                rows.append(HandResult(event=event, table=table, session_number=number, set_no=set_no, changes=changes,
                                       status=HandResult.Status.CONFIRMED, entered_by="bulk", confirmed_by="bulk"))
        HandResult.objects.bulk_create(rows)
        for set_no in range(1, hands + 1):
            rescore_set(event, number, set_no)
    if director is not None:
        EventRole.objects.create(event=event, user=director, role=EventRole.Role.DIRECTOR)
    return event


def in_threads(call: Callable[[], object], n: int) -> tuple[list, list]:
    """Run ``call()`` in ``n`` threads started together (a barrier), each closing its database
    connections when done; returns ``(what the calls returned, the exceptions they raised)``."""
    answers: list = []
    errors: list = []
    start = threading.Barrier(n)

    def run():
        try:
            start.wait()
            answers.append(call())
        except Exception as exc:  # noqa: BLE001 - returned to the test
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return answers, errors
