"""Kill the server with SIGKILL mid-game, restart it, and lose nothing acknowledged."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

from live import BOTS, HUMAN, LiveServer, receive, send
from websockets.exceptions import ConnectionClosed

from goldfields.records import replay


class Watcher(threading.Thread):
    """A spectator that records every event it is sent until its connection dies."""

    def __init__(self, server: LiveServer, table_id: str) -> None:
        super().__init__(daemon=True)
        self.server, self.table_id = server, table_id
        self.events: list[dict] = []
        self.seq = 0

    def run(self) -> None:
        try:
            with self.server.ws(self.table_id) as ws:
                send(ws, {"type": "hello"})
                while True:
                    msg = receive(ws, timeout=60)
                    if msg["type"] == "update":
                        self.events = msg["events"] if msg["full"] else self.events + msg["events"]
                        self.seq = msg["seq"]
        except (ConnectionClosed, OSError, TimeoutError):
            return


def full_log(server: LiveServer, table_id: str) -> tuple[int, list[dict]]:
    with server.ws(table_id) as ws:
        send(ws, {"type": "hello"})
        msg = receive(ws)
        return msg["seq"], msg["events"]


def wait_finished(server: LiveServer, table_id: str, timeout: float = 120) -> None:
    deadline = time.time() + timeout
    while server.get(f"/api/tables/{table_id}").json()["status"] != "finished":
        assert time.time() < deadline, "the game did not finish"
        time.sleep(0.2)


def test_sigkill_and_restart_lose_nothing_acknowledged(database: Path | str) -> None:
    db = database
    server = LiveServer(db, bot_delay=0.01).start()
    try:
        tables = [
            server.create([BOTS, BOTS, BOTS, BOTS])["table"]["id"],
            server.create([BOTS, BOTS, BOTS])["table"]["id"],
            server.create([BOTS, BOTS])["table"]["id"],
            server.post("/api/tables", {"game": "digger", "seats": [BOTS, BOTS, BOTS]}).json()["table"]["id"],
        ]
        human = server.create([HUMAN, BOTS], claim=0)
        hid, token = human["table"]["id"], human["you"]["token"]
        rng = random.Random(5)
        acked = 0
        for _round in range(3):
            watchers = [Watcher(server, t) for t in tables]
            for w in watchers:
                w.start()
            # The human plays a few moves, each acknowledged.
            with server.ws(hid) as ws:
                send(ws, {"type": "hello", "seat": 0, "token": token})
                moves = 0
                while moves < 5:
                    msg = receive(ws)
                    if msg["type"] == "ack":
                        acked = msg["seq"]
                        moves += 1
                    elif msg["type"] == "update" and msg["view"]["legal"] and msg["view"]["to_move"] == 0:
                        send(ws, {"type": "move", "move": rng.choice(msg["view"]["legal"]), "seq": msg["seq"]})
            time.sleep(rng.uniform(0.05, 0.6))  # somewhere in the middle of the bots' games
            server.kill()
            for w in watchers:
                w.join(10)
            server = LiveServer(db, bot_delay=0.01).start()
            for w in watchers:
                seq, events = full_log(server, w.table_id)
                assert seq >= w.seq, "a step that was sent to a client was lost"
                assert events[: len(w.events)] == w.events
            seq, _ = full_log(server, hid)
            assert seq >= acked, "an acknowledged move was lost"
        for t in tables:
            wait_finished(server, t)
            report, status = replay(server.get(f"/api/tables/{t}/record").json())
            assert status == 0, report["error"]
    finally:
        server.stop()
