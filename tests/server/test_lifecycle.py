"""A table's life on a real server: waiting tables expire, finished ones are archived with
their records, start-up restores only live tables, and the lobby pages and filters."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy
from live import BOTS, HUMAN, LiveServer, receive, send
from websockets.exceptions import ConnectionClosed

from goldfields.records import replay


def wait_for(check: Callable[[], Any], what: str, timeout: float = 60) -> Any:
    """Poll ``check`` until it answers something true (a generous wait for an event, not a timing)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if result := check():
            return result
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def short_lived(database: Path | str) -> Iterator[LiveServer]:
    """A server whose waiting tables expire after 1 s and whose finished tables are archived at once."""
    live = LiveServer(database, waiting_expiry=1.0, keep_finished=0.0, sweep_every=0.1).start()
    yield live
    live.stop()


def is_live(server: LiveServer, table_id: str) -> bool:
    """Whether the table's WebSocket still serves it (archived and expired tables are not)."""
    try:
        with server.ws(table_id) as ws:
            send(ws, {"type": "hello"})
            msg = receive(ws)
    except ConnectionClosed:
        return False
    # A hello refused for the join rate says nothing of the table: a test that polls needs a larger one.
    assert msg.get("code") != "rate_limited", "this test's hellos passed the server's --join-rate"
    return msg["type"] == "update"


def lobby(server: LiveServer, **params: Any) -> list[dict[str, Any]]:
    r = httpx.get(f"{server.base}/api/tables", params=params, timeout=10)
    assert r.status_code == 200, r.text
    return r.json()


def test_a_waiting_table_expires_and_its_seats_close(short_lived: LiveServer) -> None:
    tid = short_lived.create([HUMAN, HUMAN], claim=0)["table"]["id"]
    wait_for(lambda: short_lived.get(f"/api/tables/{tid}").json()["status"] == "expired", "the table to expire")
    assert tid not in [t["id"] for t in lobby(short_lived)]
    r = short_lived.post(f"/api/tables/{tid}/seats/1/claim", {"name": "late"})
    assert r.status_code == 410 and "expired" in r.json()["message"]
    assert not is_live(short_lived, tid)
    assert short_lived.get(f"/api/tables/{tid}/record").status_code == 409  # an expired table has no record


def test_a_socket_left_open_on_an_expired_table_cannot_move_there(database: Path | str) -> None:
    # 10 s before the table expires: time enough to be seated first, however loaded the machine.
    live = LiveServer(database, waiting_expiry=10.0, sweep_every=0.1).start()
    try:
        created = live.post("/api/tables", {"game": "digger", "seats": [HUMAN, HUMAN], "claim": 0}).json()
        tid = created["table"]["id"]
        with live.ws(tid) as ws:
            send(ws, {"type": "hello", "seat": 0, "token": created["you"]["token"]})
            msg = receive(ws)
            assert msg["table"]["status"] == "waiting"
            while msg["type"] != "update" or msg["table"]["status"] != "expired":  # the sweep tells the sockets
                msg = receive(ws, timeout=60)
            send(ws, {"type": "move", "move": "roll", "seq": msg["table"]["seq"]})
            while (refused := receive(ws))["type"] != "error":
                pass
            assert refused["code"] == "expired" and "waited too long for its players" in refused["message"]
        assert live.get(f"/api/tables/{tid}").json()["seq"] == 0  # nothing was stored
    finally:
        live.stop()


def test_a_game_nobody_is_at_is_closed_as_abandoned_and_not_restored(database: Path | str) -> None:
    # Ann claimed her seat against a bot and never came (or left): the game pauses at her turn,
    # and after --abandoned-expiry it is closed. Bea, at her own table all along, keeps hers.
    # (The rule's arithmetic, from when the last player left, is in test_abandoned.py.)
    # 8 s: time enough, on a loaded machine, for Bea and the watcher to reach their tables first.
    live = LiveServer(database, abandoned_expiry=8.0, sweep_every=0.1).start()
    try:
        bea = live.create([HUMAN, BOTS], claim=0)
        with live.ws(bea["table"]["id"]) as ws:
            send(ws, {"type": "hello", "seat": 0, "token": bea["you"]["token"]})
            assert receive(ws)["table"]["seats"][0]["connected"]  # Bea is there before the clock matters
            tid = live.create([HUMAN, BOTS], claim=0)["table"]["id"]
            with live.ws(tid) as watcher:
                send(watcher, {"type": "hello"})  # a spectator is nobody the game waits for
                msg = receive(watcher)
                while msg["type"] != "update" or msg["table"]["status"] != "abandoned":  # the sweep tells
                    msg = receive(watcher, timeout=60)
            assert live.get(f"/api/tables/{tid}").json()["status"] == "abandoned"
            assert tid not in [t["id"] for t in lobby(live)]
            assert not is_live(live, tid)
            # It can never go on: its record, which now holds every card, replaces its steps.
            assert step_rows(database, tid) == 0
            record = live.get(f"/api/tables/{tid}/record").json()
            assert record["game"] == "digging" and record["hands"][0]["deck"]
            summary = live.get(f"/api/tables/{tid}/summary").json()
            assert summary["finished"] is False and summary["winners"] is None
            replay = live.get(f"/api/tables/{tid}/replay?seat=0").json()
            assert replay["frames"][0]["events"][0]["kind"] == "deal"  # the deal, up to where Ann stopped
            time.sleep(8.0 + 1.0)  # Bea's table is now twice the expiry old, and still hers
            assert live.get(f"/api/tables/{bea['table']['id']}").json()["status"] == "playing"
        live.stop()
        live = LiveServer(database, abandoned_expiry=3600.0).start()
        assert live.get(f"/api/tables/{tid}").json()["status"] == "abandoned"
        assert not is_live(live, tid)
    finally:
        live.stop()


def test_a_game_of_bots_only_is_never_abandoned(database: Path | str) -> None:
    # Each bot waits 3 s before it moves, three times the expiry: a table of bots only is
    # nobody's to come back to, so it is never closed for being left.
    live = LiveServer(database, abandoned_expiry=1.0, sweep_every=0.1, bot_delay=3.0).start()
    try:
        tid = live.create([BOTS, BOTS])["table"]["id"]
        time.sleep(3 * 1.0)
        assert live.get(f"/api/tables/{tid}").json()["status"] == "playing"
        assert is_live(live, tid)
    finally:
        live.stop()


def step_rows(database: Path | str, table_id: str) -> int:
    """The steps stored for a table, read from the database file itself."""
    engine = sqlalchemy.create_engine(f"sqlite:///{database}" if isinstance(database, Path) else database)
    try:
        with engine.connect() as db:
            query = sqlalchemy.text("SELECT count(*) FROM steps WHERE table_id = :t")
            return int(db.execute(query, {"t": table_id}).scalar_one())
    finally:
        engine.dispose()


def test_a_finished_table_is_archived_and_its_record_stays(short_lived: LiveServer, database: Path | str) -> None:
    tid = short_lived.create([BOTS, BOTS])["table"]["id"]
    wait_for(lambda: not is_live(short_lived, tid), "the finished table to be archived", timeout=120)
    summary = short_lived.get(f"/api/tables/{tid}").json()
    assert summary["status"] == "finished" and summary["seq"] > 0
    # Its steps are gone (the record is what an archived table is read from); a live table keeps its own.
    wait_for(lambda: step_rows(database, tid) == 0, "the archived table's steps to be dropped")
    playing = short_lived.create([HUMAN, BOTS], claim=0)["table"]["id"]
    assert step_rows(database, playing) > 0
    record = short_lived.get(f"/api/tables/{tid}/record").json()
    report, status = replay(record)
    assert status == 0 and report["error"] is None
    view = short_lived.get(f"/api/tables/{tid}/view").json()
    assert view["to_move"] == -2
    assert tid in [t["id"] for t in lobby(short_lived, status="finished")]
    assert tid not in [t["id"] for t in lobby(short_lived)]


def test_the_view_of_an_archived_game_counts_against_the_replay_rate(database: Path | str) -> None:
    # Reading a stored game's position replays its record: the first time, as any replay, it counts.
    server = LiveServer(database, keep_finished=0.0, sweep_every=0.1, rate_limits=True,
                        replay_rate="1/minute", join_rate="100000/minute").start()  # is_live polls by hello
    try:
        tables = [server.create([BOTS, BOTS])["table"]["id"] for _ in range(2)]
        for tid in tables:
            wait_for(lambda tid=tid: not is_live(server, tid), "the finished table to be archived", timeout=120)
        assert server.get(f"/api/tables/{tables[0]}/view").status_code == 200
        refused = server.get(f"/api/tables/{tables[1]}/view")
        assert refused.status_code == 429 and refused.json()["code"] == "rate_limited", refused.text
        assert server.get(f"/api/tables/{tables[0]}/view").json()["to_move"] == -2  # kept: free
    finally:
        server.stop()


def test_start_up_restores_only_live_and_recently_finished_tables(database: Path | str) -> None:
    server = LiveServer(database, keep_finished=3600.0).start()
    try:
        done = server.create([BOTS, BOTS])["table"]["id"]
        waiting = server.create([HUMAN, HUMAN], claim=0)["table"]["id"]
        wait_for(lambda: server.get(f"/api/tables/{done}").json()["status"] == "finished", "the bots' game")
        server.stop()
        server = LiveServer(database, keep_finished=3600.0).start()
        assert is_live(server, done) and is_live(server, waiting)  # finished a moment ago: still live
        server.stop()
        assert step_rows(database, done) > 0
        server = LiveServer(database, keep_finished=0.0).start()
        assert not is_live(server, done) and is_live(server, waiting)  # now archived: not restored
        assert step_rows(database, done) == 0  # archived while no server ran: its steps go at start-up
        server.stop()
        # A server with a longer --keep-finished (or another process's clock) would take it for
        # recently finished: with its steps gone it stays archived, read from its record.
        server = LiveServer(database, keep_finished=1e9).start()
        assert not is_live(server, done) and step_rows(database, done) == 0
        assert server.get(f"/api/tables/{done}").json()["status"] == "finished"
        assert replay(server.get(f"/api/tables/{done}/record").json())[1] == 0
    finally:
        server.stop()


def test_the_lobby_pages_and_filters_so_spam_cannot_hide_a_table(server: LiveServer) -> None:
    real = server.create([HUMAN, HUMAN], claim=0, name="the real one")["table"]["id"]
    digger = server.post("/api/tables", {"game": "digger", "seats": [HUMAN, HUMAN], "claim": 0}).json()["table"]["id"]
    spam = [server.create([HUMAN, BOTS])["table"]["id"] for _ in range(12)]  # newer than the real table
    full = server.create([HUMAN, BOTS], claim=0)["table"]["id"]  # playing

    # Every live table is reached by following the pages, newest first, each once.
    seen: list[dict[str, Any]] = []
    url: str | None = f"{server.base}/api/tables?limit=5"
    pages = 0
    while url is not None:
        r = httpx.get(url, timeout=10)
        assert r.status_code == 200 and len(r.json()) <= 5
        seen += r.json()
        pages += 1
        url = f"{server.base}{r.links['next']['url']}" if "next" in r.links else None
    ids = [t["id"] for t in seen]
    assert len(ids) == len(set(ids)) and set(ids) >= {real, digger, full, *spam}
    assert pages >= 3
    created = [t["created_at"] for t in seen]
    assert created == sorted(created, reverse=True)

    assert [t["id"] for t in lobby(server, game="digger")] == [digger]
    assert all(t["game"] == "digging" for t in lobby(server, game="digging"))
    open_tables = lobby(server, status="open", limit=200)
    assert real in [t["id"] for t in open_tables] and full not in [t["id"] for t in open_tables]
    assert all(any(s["open"] for s in t["seats"]) for t in open_tables)
    assert [t["id"] for t in lobby(server, status="playing")] == [full]

    for bad in ({"status": "everything"}, {"limit": 0}, {"limit": 1000}, {"before": "nonsense"}, {"game": "Dig ging"}):
        r = httpx.get(f"{server.base}/api/tables", params=bad, timeout=10)
        assert r.status_code == 422, (bad, r.text)
