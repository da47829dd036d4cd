"""The pure parts of the event-day simulation behind ``manage.py bench event-day``
(tests/perf/event_day.py, docs/performance.md): the schedule it sends, the goals it judges, the
client's HTTP parsing. The simulation itself is a benchmark run by hand, never a timed test."""

import asyncio
from collections import Counter
from types import SimpleNamespace

import pytest

from tests.perf import event_day
from tests.perf.event_day import Day, Figures, Hand, schedule


class StubEvent:
    """What :func:`schedule` asks of the event: its slug, tables, people and each table's next hand."""

    def __init__(self, tables: int, players: int):
        self.tables = tables
        self.event = SimpleNamespace(slug="day")
        self.people = [(n, (n - 1) // 4 + 1) for n in range(1, players + 1)]
        self.given: Counter = Counter()
        self.handed = self.given  # what schedule() reads: hands given to each table so far

    def next_hand(self, table: int) -> Hand:
        self.given[table] += 1
        return Hand(1, table, self.given[table], {}, "1234", "token")


class RotatingEvent(StubEvent):
    """A room of ``tables`` tables in one rotation of blocks of ``block`` sets: table t plays block
    b's sets after table t-1 (the wall is carried on), as a movement would have it."""

    def __init__(self, tables: int, block: int = 4):
        super().__init__(tables, tables * 4)
        self.block = block
        self.nth: dict[tuple[int, int], int] = {}  # (table, set) -> the table's how-manieth hand

    def next_hand(self, table: int) -> Hand:
        self.given[table] += 1
        n = self.given[table] - 1
        b, i = divmod(n, self.block)
        first = (table - 1 + b) % self.tables  # the block this table plays in its b-th round
        set_no = first * self.block + i + 1 + b * self.tables * self.block
        after = None if b == 0 else (table - 2) % self.tables + 1
        self.nth[(table, set_no)] = n
        return Hand(1, table, set_no, {}, "1234", "token", after_table=after)


def test_the_writers_send_the_play_phase_and_the_round_end_burst():
    day = Day(tables=16, phones=0, scale=1.0, time_scale=6, play_minutes=3, burst_seconds=20)
    stub = StubEvent(16, 64)
    arrivals = schedule(day, stub, phones=False)
    hands = [a for a in arrivals if a.hand]
    assert len(hands) == len(arrivals) == 8 + 16  # 3 of 6 minutes: half the tables; then every table
    assert [a.at for a in arrivals] == sorted(a.at for a in arrivals)
    burst = [a for a in hands if a.at >= day.play_seconds]
    assert len(burst) == 16 and all(a.at < day.play_seconds + day.burst_seconds for a in burst)
    assert {a.hand.table for a in burst} == set(range(1, 17))
    assert max(stub.given.values()) == 2  # a table's second hand is its next set


def test_scale_multiplies_hands_and_phones():
    day = Day(tables=16, phones=10, projectors=1, scale=2.0)
    arrivals = schedule(day, StubEvent(16, 64), phones=True)
    hands = [a for a in arrivals if a.hand]
    assert len(hands) == 2 * (8 + 16)
    phones = {a.phone for a in arrivals if not a.hand and a.phone >= 0}
    assert phones == set(range(20))
    end_reads = Counter(a.phone for a in arrivals if not a.hand and a.phone >= 0
                        and day.play_seconds <= a.at and "projector" not in a.url)
    assert all(count >= 3 for count in end_reads.values())  # standings, team and player page at least


def test_every_phone_reads_its_pages_at_the_round_end():
    day = Day(tables=16, phones=8, projectors=2, phone_play_interval=1e9, phone_break_interval=1e9)
    arrivals = schedule(day, StubEvent(16, 64), phones=True)
    reads = [a for a in arrivals if not a.hand]
    phone_reads = [a for a in reads if a.phone >= 0]
    assert len(phone_reads) == 8 * 3
    assert {a.url for a in phone_reads if a.phone == 4} == {"/e/day/standings/", "/e/day/teams/2/", "/e/day/players/5/"}
    projector = [a for a in reads if a.phone < 0 and a.phone != event_day.DIRECTOR]
    assert projector and all(a.url == "/e/day/projector.json" for a in projector)
    assert all(a.at < day.length for a in projector)
    director = [a.at for a in reads if a.phone == event_day.DIRECTOR]
    assert director and all(a.url == "/e/day/director/live/" for a in reads if a.phone == event_day.DIRECTOR)
    assert all(later - earlier == pytest.approx(day.director_interval) for earlier, later in zip(director, director[1:]))


def test_phones_read_travellers_of_released_sets_the_players_list_and_the_export():
    stub = StubEvent(16, 64)
    stub.released = [(1, 3), (2, 7)]
    day = Day(tables=16, phones=200, projectors=0, phone_play_interval=5, phone_break_interval=5)
    urls = {a.url for a in schedule(day, stub, phones=True) if not a.hand and a.phone >= 0}
    assert {"/e/day/standings/", "/e/day/standings/players/", "/e/day/export.json"} <= urls
    travellers = {url for url in urls if "/travellers/" in url}
    assert travellers == {"/e/day/travellers/1/3/", "/e/day/travellers/2/7/"}


def test_a_run_plays_the_last_hands_of_a_session():
    """Before a run of 3 hands a table, each table plays ahead to 3 hands before its session's
    end (16 hands a session): from its first hand (16 left) 13, from its last (1 left) the rest
    of its session and 13 of the next, from a session not prepared yet (0 left) 13 of it."""
    owed = event_day.hands_ahead({1: 16, 2: 15, 3: 3, 4: 1, 5: 0}, 3, 16)
    assert owed == {1: 13, 2: 12, 3: 0, 4: 14, 5: 13}
    assert all((left - owed[t]) % 16 == 3 for t, left in {1: 16, 2: 15, 3: 3, 4: 1, 5: 0}.items())


def test_the_timeline_names_each_page_a_phone_reads_apart():
    stub = StubEvent(16, 64)
    stub.released = [(1, 3)]
    day = Day(tables=16, phones=200, projectors=1, phone_play_interval=5, phone_break_interval=5)
    kinds = {event_day.page_kind(a.url) for a in schedule(day, stub, phones=True) if not a.hand}
    assert kinds == {"page:standings", "page:teams", "page:players", "page:travellers", "page:standings/players",
                     "page:export.json", "page:director/live", "page:projector.json"}


def test_the_goals_fail_on_a_failed_entry_or_a_slow_p99():
    met = Figures("x1", entry=[20.0] * 100, confirm=[30.0] * 100, page=[100.0] * 100)
    assert met.misses() == []
    failed = Figures("x1", entry=[20.0] * 100, page=[100.0] * 100)
    failed.fail("confirm", "no answer within 10 s")
    assert failed.misses() == ["0 failed entries, 1 failed confirmations"]
    slow = Figures("x1", entry=[20.0] * 98 + [400.0] * 2, page=[100.0] * 98 + [900.0] * 2)
    assert [m.split(" ")[0] for m in slow.misses()] == ["entry", "page"]


def test_the_cpu_of_ended_database_processes_is_not_subtracted():
    before = {"write pool": 1.0, "read pool": 0.0, "nginx": 0.0, "postgresql": {10: 5.0, 11: 2.0}, "client": 1.0, "machine": 50.0}
    after = {"write pool": 3.0, "read pool": 1.0, "nginx": 0.5, "postgresql": {10: 6.0, 12: 0.5}, "client": 1.5, "machine": 60.0}
    used = event_day.cpu_used(before, after)
    assert used["postgresql"] == pytest.approx(1.5) and used["write pool"] == 2.0
    figures = Figures("x1", cpu=used)
    assert figures.server_cpu == pytest.approx(5.0) and figures.other_cpu == pytest.approx(4.5)


def test_the_client_reads_length_and_chunked_answers():
    answers = [
        b"HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: 9\r\n\r\n{\"id\": 7}",
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nETag: \"v3\"\r\n\r\n4\r\nabcd\r\n3\r\nefg\r\n0\r\n\r\n",
        b"HTTP/1.1 304 Not Modified\r\nETag: \"v3\"\r\n\r\n",
    ]
    seen = []

    async def main():
        async def serve(reader, writer):
            seen.append(await reader.readuntil(b"\r\n\r\n"))
            writer.write(answers[len(seen) - 1])
            await writer.drain()
            writer.close()

        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        async with server:
            first = await event_day.request(port, "POST", "/api/x/", body={"a": 1}, headers={"Authorization": "Token t"})
            second = await event_day.request(port, "GET", "/e/x/standings/")
            third = await event_day.request(port, "GET", "/e/x/standings/", headers={"If-None-Match": '"v3"'})
        return first, second, third

    first, second, third = asyncio.run(main())
    assert (first.status, first.body) == (201, b'{"id": 7}')
    assert (second.status, second.body, second.headers["etag"]) == (200, b"abcdefg", '"v3"')
    assert third.status == 304 and third.body == b""
    assert b"Authorization: Token t" in seen[0] and b"Content-Length: 8" in seen[0]
    assert b'If-None-Match: "v3"' in seen[2]



def test_find_max_doubles_then_bisects_and_stops_on_a_narrow_interval():
    tried, best, worst, scale = [], 0.0, float("inf"), 1.0
    while scale is not None and len(tried) < 10:
        tried.append(scale)
        if scale <= 2.6:  # a server that meets the goals up to 2.6 times the load
            best = scale
        else:
            worst = scale
        scale = event_day.next_scale(best, worst)
    assert tried[:3] == [1.0, 2.0, 4.0] and tried[3] == 3.0
    assert 2.0 <= best <= 2.6 and worst - best <= max(0.25, best * 0.15)


def test_find_max_halves_when_the_first_multiple_misses():
    assert event_day.next_scale(0.0, 1.0) == 0.5
    assert event_day.next_scale(0.5, 1.0) == 0.75
    assert event_day.next_scale(0.75, 1.0) is None


@pytest.mark.parametrize("title, database", [
    ("postgres: 15/main: postgres dmj_bench 127.0.0.1(55360) idle", "dmj_bench"),
    ("postgres: dmj dmj_bench [local] idle in transaction", "dmj_bench"),
    ("postgres: 15/main: postgres test_dmj_ci_77 ::1(4242) SELECT", "test_dmj_ci_77"),
    ("postgres: 15/main: checkpointer ", None),
    ("postgres: 15/main: walwriter ", None),
])
def test_the_database_of_a_postgresql_backend_is_read_from_its_title(title, database):
    found = event_day.BACKEND_TITLE.match(title)
    assert (found.group(2) if found else None) == database


@pytest.mark.parametrize("scale", [0.5, 1.0, 1.5, 2.0, 3.0])
def test_a_scaled_run_sends_each_hand_after_the_hands_the_room_plays_first(scale):
    day = Day(tables=16, phones=0, scale=scale)
    room = RotatingEvent(16)
    for run in range(4):  # the bench's runs follow one another on one event: baseline, x1, x2, x1.5
        hands = [a for a in schedule(day, room, phones=False) if a.hand]
        when = {(a.hand.table, a.hand.set_no): a.at for a in hands}
        by_table: dict[int, list] = {}
        for a in hands:
            by_table.setdefault(a.hand.table, []).append(a)
        for table, sent in by_table.items():
            nth = [room.nth[(table, a.hand.set_no)] for a in sent]  # sent is in time order
            assert nth == sorted(nth), (run, table)  # the table's hands go in the order it plays them
        for a in hands:
            carried = when.get((a.hand.after_table, a.hand.set_no))
            if carried is not None:
                assert a.at >= carried + event_day.CARRY_SECONDS, (run, a.hand)
        assert max(room.handed.values()) - min(room.handed.values()) <= 1  # the room plays at one pace


def test_in_play_order_moves_a_hand_only_as_far_as_it_must():
    def hand(table, set_no, after=None):
        return Hand(1, table, set_no, {}, "1234", "token", after_table=after)

    arrivals = [event_day.Arrival(5.0, hand=hand(1, 1)), event_day.Arrival(2.0, hand=hand(1, 2)),
                event_day.Arrival(1.0, hand=hand(2, 2, after=1)), event_day.Arrival(9.0, hand=hand(3, 7))]
    ordered = event_day.in_play_order(arrivals, carry=1.0)
    assert [a.at for a in ordered] == [5.0, 6.0, 7.0, 9.0]  # set 2 after set 1; table 2 after table 1's set 2
    assert [a.hand for a in ordered] == [a.hand for a in arrivals]
