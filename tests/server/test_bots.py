"""Bots on the server: checked specs, worker processes, a deadline per move and a fallback.

A bot spec comes from anyone who can create a table, so its parameters are
refused out of range before the table exists; and whatever a bot does in its
worker (overrun, crash), the table goes on and the server keeps answering.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from live import HUMAN, LiveServer, receive, send

from goldfields.server.store import Store
from goldfields.server.tables import Settings, TableManager


@pytest.mark.parametrize(
    ("spec", "parameter", "allowed"),
    [
        ("heuristic:samples=3000000", "samples", "from 1 to 256"),
        ("ismcts:c=nan", "c", "a finite number from 0 to 10"),
        ("ismcts:c=inf", "c", "a finite number from 0 to 10"),
        ("ismcts:c=-1", "c", "from 0 to 10"),
        ("ismcts:policy=bogus", "policy", "one of smart, fast"),
        ("ismcts:depth=100000", "depth", "from 0 to 200"),
        ("ismcts:net=/etc/passwd", "net", "(file paths are not accepted here)"),
    ],
)
def test_a_bot_parameter_out_of_range_is_refused_with_422_naming_the_parameter_and_its_range(
    server: LiveServer, spec: str, parameter: str, allowed: str
) -> None:
    r = server.post("/api/tables", {"game": "digging", "seats": [HUMAN, {"kind": "bot", "bot": spec}]})
    assert r.status_code == 422, r.text
    body = r.json()
    assert body["code"] == "bad_bot_parameter"
    assert body["seat"] == 1 and body["parameter"] == parameter
    assert allowed in body["allowed"] and allowed in body["message"], body
    assert f"{parameter}=" in body["message"]
    # Nothing was created.
    assert server.get("/api/tables?status=live").json() == []


def test_a_seat_asked_at_a_level_gets_that_levels_bot_for_its_kind_of_table(server: LiveServer) -> None:
    digging = next(g for g in server.get("/api/games").json() if g["name"] == "digging")
    hard, partnership_hard = digging["levels"]["hard"], digging["table_levels"]["partnership"]["hard"]
    assert partnership_hard != hard
    level = {"kind": "bot", "level": "hard"}

    def bots(**table: Any) -> list[str | None]:
        r = server.post("/api/tables", {"game": "digging", **table})
        assert r.status_code == 201, r.text
        return [s["bot"] for s in r.json()["table"]["seats"]]

    assert bots(seats=[level, level, level, level]) == [partnership_hard] * 4
    assert bots(seats=[level, level, level, level], partnership=False) == [hard] * 4
    assert bots(seats=[level, {"kind": "bot", "level": "easy"}]) == [hard, digging["levels"]["easy"]]

    def tables() -> set[str]:  # the bot tables above play on meanwhile: their ids, not their states
        return {t["id"] for status in ("live", "finished") for t in server.get(f"/api/tables?status={status}").json()}

    before = tables()
    for seats, message in [
        ([level, {"kind": "bot", "level": "hard", "bot": "random"}], "seat 1: give a bot or a level, not both"),
        ([level, {"kind": "bot", "level": "hard", "bot": ""}], "seat 1: give a bot or a level, not both"),
        ([level, {"kind": "bot", "level": "expert"}], "seat 1: Digging has no level 'expert': its levels are easy"),
        ([level, {"kind": "bot", "level": "Hard"}], "seat 1: Digging has no level 'Hard': its levels are easy"),
        ([{"kind": "human", "level": "hard"}, level], "seat 0: a level is for a bot seat, not a human one"),
        ([{"kind": "human", "bot": "random"}, level], "seat 0: a bot is for a bot seat, not a human one"),
        ([{"kind": "human", "bot": ""}, level], "seat 0: a bot is for a bot seat, not a human one"),
        ([level, {"kind": "bot", "bot": "Hard"}], 'seat 1: \'Hard\' is a level, not a bot: ask for "level": "hard"'),
    ]:
        r = server.post("/api/tables", {"game": "digging", "seats": seats})
        assert r.status_code == 422 and r.json()["code"] == "bad_config", r.text
        assert message in r.json()["message"]
    assert tables() == before


@pytest.fixture
def toy_server(tmp_path: Path) -> Iterator[LiveServer]:
    from toy import register_toy, unregister_toy

    register_toy()
    live = LiveServer(tmp_path / "goldfields.db", plugins=("toy",), bot_deadline=1.0).start()
    yield live
    live.stop()
    unregister_toy()


def _play_as_seat_0(server: LiveServer, bot: str) -> dict[str, Any]:
    r = server.post("/api/tables", {"game": "toy", "seats": [HUMAN, {"kind": "bot", "bot": bot}], "claim": 0})
    assert r.status_code == 201, r.text
    table, token = r.json()["table"]["id"], r.json()["you"]["token"]
    with server.ws(table) as ws:
        send(ws, {"type": "hello", "seat": 0, "token": token})
        while (msg := receive(ws))["type"] != "update" or msg["view"]["to_move"] != 0:
            pass
        send(ws, {"type": "move", "move": "keep", "seq": msg["seq"]})
        # The bot's move: it overruns or crashes in its worker; the fallback moves instead.
        while True:
            msg = receive(ws, timeout=60)
            assert msg["type"] != "error", msg
            if msg["type"] == "update" and msg["table"]["status"] == "finished":
                break
    return server.get(f"/api/tables/{table}").json()


@pytest.mark.parametrize("bot", ["sleeper", "crasher"])
def test_a_bot_that_overruns_or_crashes_is_replaced_for_its_move_and_the_table_finishes(
    toy_server: LiveServer, bot: str
) -> None:
    summary = _play_as_seat_0(toy_server, bot)
    assert summary["status"] == "finished"
    assert toy_server.get("/api/health").json()["bot_fallbacks"] >= 1


def test_a_search_that_answers_at_once_is_held_to_its_budget_so_its_time_tells_nothing(tmp_path: Path) -> None:
    # A search with one legal move (in Digging: a hand with nothing to lay, so it must draw)
    # answers at once; otherwise it thinks for its whole budget. Held to that budget, the
    # time of its reply says nothing about its hand. A lower bound: safe on a loaded machine.
    from toy import register_toy, unregister_toy

    register_toy()
    budget = 1.5
    server = LiveServer(tmp_path / "goldfields.db", plugins=("toy",), bot_seconds=budget, bot_deadline=30).start()
    try:
        started = time.monotonic()
        summary = _play_as_seat_0(server, "snap")  # the human moves at once, then the bot
        assert time.monotonic() - started >= budget
        assert summary["status"] == "finished"
        assert server.get("/api/health").json()["bot_fallbacks"] == 0
    finally:
        server.stop()
        unregister_toy()


def test_the_server_answers_while_a_bot_overruns(toy_server: LiveServer) -> None:
    r = toy_server.post("/api/tables", {"game": "toy", "seats": [{"kind": "bot", "bot": "sleeper"}] * 2})
    assert r.status_code == 201, r.text
    table = r.json()["table"]["id"]
    # While the sleeper holds its worker, every request is answered; the table still ends.
    deadline = time.monotonic() + 120
    while toy_server.get(f"/api/tables/{table}").json()["status"] != "finished":
        assert toy_server.get("/api/health").status_code == 200
        assert time.monotonic() < deadline, "the table stalled"
        time.sleep(0.2)
    assert toy_server.get("/api/health").json()["bot_fallbacks"] == 2


def test_a_table_stored_with_a_bot_spec_that_is_now_refused_still_plays_to_the_end(tmp_path: Path) -> None:
    # A database from before bot parameters were checked: a table of bots asking for three
    # million samples a move. On restart it must neither freeze the server nor stall.
    db = tmp_path / "goldfields.db"
    server = LiveServer(db, bot_delay=30).start()  # slow bots: the table is still live when stopped
    try:
        r = server.post("/api/tables", {"game": "digging", "seats": [{"kind": "bot", "bot": "heuristic"}] * 2})
        assert r.status_code == 201, r.text
        table = r.json()["table"]["id"]
    finally:
        server.stop()
    with sqlite3.connect(db) as con:
        con.execute("UPDATE seats SET bot = 'heuristic:samples=3000000' WHERE table_id = ?", (table,))
    server = LiveServer(db).start()
    try:
        deadline = time.monotonic() + 300
        while server.get(f"/api/tables/{table}").json()["status"] != "finished":
            assert server.get("/api/health").status_code == 200
            assert time.monotonic() < deadline, "the table stalled"
            time.sleep(0.2)
        assert server.get("/api/health").json()["bot_fallbacks"] > 0
    finally:
        server.stop()


def test_health_reports_the_fallback_count(server: LiveServer) -> None:
    body = httpx.get(f"{server.base}/api/health", timeout=10).json()
    assert body == {"status": "ok", "bot_fallbacks": 0}


def test_a_quick_bot_never_waits_behind_a_search(tmp_path: Path) -> None:
    from toy import register_toy, unregister_toy

    register_toy()
    # One search worker, held by a bot that overruns a long deadline: if quick bots shared
    # its line, the human's random opponent would move only after that deadline, when the
    # sleeper's fallback has been counted.
    server = LiveServer(tmp_path / "goldfields.db", plugins=("toy",), bot_workers=1, bot_deadline=600).start()
    try:
        r = server.post("/api/tables", {"game": "toy", "seats": [{"kind": "bot", "bot": "sleeper"}] * 2})
        assert r.status_code == 201, r.text
        summary = _play_as_seat_0(server, "random")
        assert summary["status"] == "finished"
        assert server.get("/api/health").json()["bot_fallbacks"] == 0
    finally:
        server.stop()
        unregister_toy()


def test_a_network_bot_on_a_digger_table_is_refused_before_the_table_exists(server: LiveServer) -> None:
    # The networks are Digging's: on a Digger table every move would fail and fall back.
    r = server.post("/api/tables", {"game": "digger", "seats": [HUMAN, {"kind": "bot", "bot": "ismcts:net=default"}]})
    assert r.status_code == 422, r.text
    assert "seat 1" in r.json()["message"] and "digging only" in r.json()["message"]
    assert server.get("/api/tables?status=live").json() == []


def test_a_forced_reply_and_a_search_just_past_its_budget_are_sent_at_the_same_moment() -> None:
    # A search stops an iteration after its budget and its worker takes a few ms to answer;
    # a forced move held to the budget alone would be those ms early, every time.
    from goldfields.server.tables import reply_after

    assert reply_after(0.0, 0.5) == reply_after(0.503, 0.5) == reply_after(0.54, 0.5) == 0.75
    assert reply_after(0.8, 0.5) == 1.0  # a search slowed by a loaded machine: later, never sooner


def test_a_player_reconnecting_during_a_bots_turn_starts_no_second_search(tmp_path: Path) -> None:
    """Every hello used to start another search for the same position: a client saying hello
    over and over could fill the bot workers with copies (an audit's probe made 21 of one)."""

    class Client:
        def __init__(self, seat: int) -> None:
            self.seat = seat

        def send(self, message: dict[str, Any]) -> None:
            pass

        def close_soon(self, code: int) -> None:
            pass

    async def run() -> None:
        manager = TableManager(Store(f"sqlite:///{tmp_path / 'bots.db'}"), Settings(bot_delay=0.0))
        asked: list[int] = []
        go_on = asyncio.Event()
        real = manager.bots.decide

        async def decide(spec: str, game: str, view: Any, rng: Any, seconds: float, who: str | None = None) -> int:
            asked.append(table.seq)
            await go_on.wait()
            return await real(spec, game, view, rng, seconds, who)

        manager.bots.decide = decide  # type: ignore[method-assign]
        seats = [{"kind": "bot", "bot": "random"}, {"kind": "human"}]  # the bot in seat 0 moves first
        table, _ = await manager.create({"game": "digging", "players": 2, "seats": seats})
        await manager.claim(table, 1, "ann")
        await asyncio.wait_for(_until(lambda: asked), 60)
        first = asked[0]
        for _ in range(5):
            await manager.connect(table, Client(1))
        await asyncio.sleep(0)
        go_on.set()
        await asyncio.wait_for(_until(lambda: table.seq > first), 60)
        assert asked.count(first) == 1
        await manager.shutdown()
        manager.store.close()

    asyncio.run(run())


def test_a_quick_bots_move_comes_its_delay_after_it_fell_due_however_long_it_thought(tmp_path: Path) -> None:
    """The heuristic samples deals only for some hands, so the time it thinks tells what it holds.
    A quick bot is asked as soon as its move falls due, and its move is played when the delay
    is up: its thinking hides inside the delay (bounds that hold on a loaded machine)."""
    delay = 4.0

    async def run() -> None:
        manager = TableManager(Store(f"sqlite:///{tmp_path / 'quick.db'}"), Settings(bot_delay=delay))
        asked: list[float] = []
        go_on = asyncio.Event()
        real = manager.bots.decide

        async def decide(spec: str, game: str, view: Any, rng: Any, seconds: float, who: str | None = None) -> int:
            asked.append(time.monotonic())
            await go_on.wait()  # thinks until the test lets it answer
            return await real(spec, game, view, rng, seconds, who)

        manager.bots.decide = decide  # type: ignore[method-assign]
        seats = [{"kind": "bot", "bot": "heuristic"}, {"kind": "human"}]  # the bot in seat 0 moves first
        table, _ = await manager.create({"game": "digging", "players": 2, "seats": seats})
        due = time.monotonic()
        await manager.claim(table, 1, "ann")
        first = table.seq
        await asyncio.wait_for(_until(lambda: asked), 60)
        assert asked[0] - due < delay, "the quick bot was asked only once its delay was over"
        assert table.seq == first
        go_on.set()
        await asyncio.wait_for(_until(lambda: table.seq > first), 60)
        assert time.monotonic() - due >= delay, "the quick bot's move came before its delay was up"
        await manager.shutdown()
        manager.store.close()

    asyncio.run(run())


async def _until(done: Any) -> None:
    while not done():
        await asyncio.sleep(0.01)


def test_one_creators_searches_wait_in_their_own_line_not_ahead_of_everyone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Twenty tables of search bots from one address, all to move at once, have as many searches in
    the lane as there are workers (one here): another address's is scheduled at once, not behind
    nineteen."""
    import concurrent.futures
    import random
    from types import SimpleNamespace

    from goldfields.server import botpool

    scheduled: list[concurrent.futures.Future[int]] = []

    class Lane:
        def schedule(self, fn: Any, args: Any, timeout: float) -> concurrent.futures.Future[int]:
            scheduled.append(future := concurrent.futures.Future())
            return future

    async def main() -> None:
        pool = botpool.BotPool(botpool.PoolSettings(workers=1))  # one search worker, as on two cores
        monkeypatch.setattr(pool, "_pool", lambda quick: Lane())
        view = SimpleNamespace(legal_actions=lambda: [0])

        def move(who: str | None) -> asyncio.Task[int]:
            return asyncio.ensure_future(pool.decide("ismcts", "digging", view, random.Random(0), 0.5, who))

        async def settle() -> None:  # every task runs as far as it can: no clock, only the loop's turns
            for _ in range(50):
                await asyncio.sleep(0)

        hog = [move("1.2.3.4") for _ in range(20)]
        await settle()
        assert len(scheduled) == 1  # the hog's first; the other nineteen wait in its line
        other, unlimited = move("5.6.7.8"), move(None)  # None: a server without the rate limits
        await settle()
        assert len(scheduled) == 3
        for future in scheduled[:]:
            future.set_result(0)
        assert await other == 0 and await unlimited == 0
        while not all(t.done() for t in hog):  # the hog's go one at a time, each as the last ends
            await settle()
            assert sum(not f.done() for f in scheduled) <= 1
            for future in scheduled:
                if not future.done():
                    future.set_result(0)
        assert len(scheduled) == 22 and [t.result() for t in hog] == [0] * 20
        assert pool._lines == {}  # an empty line is forgotten

    asyncio.run(main())
