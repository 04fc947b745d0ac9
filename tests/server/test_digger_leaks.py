"""The Digger hourglass reaches no one who could be the digger (rule G2, online).

Whole Digger games are played through a real server: one client per seat, a
spectator socket, and an anonymous poller of every HTTP view. Afterwards the
game is rebuilt from its record, and every message is checked against the
engine's observation for its seat at that step. The digger's own socket and
everything anyone can read without a seat's token (spectator sockets, the
lobby, the table summary, ``/view``) must carry no time while a turn runs;
the seated players who are not digging see the hourglass.
"""

from __future__ import annotations

import json
import random
import threading
import time
from typing import Any

from live import HUMAN, LiveServer, send
from websockets.exceptions import ConnectionClosed

from goldfields.core import registry

TIME_KEYS = ("elapsed", "remaining", "hourglass_left", "at", "move_deadline_in")


class Client(threading.Thread):
    def __init__(
        self, server: LiveServer, table_id: str, seat: int | None, token: str | None, seed: int, polled: threading.Event
    ) -> None:
        super().__init__(daemon=True)
        self.server, self.table_id, self.seat, self.token = server, table_id, seat, token
        self.polled = polled
        self.rng = random.Random(seed)
        self.messages: list[dict[str, Any]] = []
        self.failure: BaseException | None = None

    def run(self) -> None:
        try:
            with self.server.ws(self.table_id) as ws:
                hello: dict[str, Any] = {"type": "hello"}
                if self.seat is not None:
                    hello.update(seat=self.seat, token=self.token)
                send(ws, hello)
                while True:
                    msg = json.loads(ws.recv(timeout=60))
                    self.messages.append(msg)
                    if msg["type"] == "update" and msg["table"]["status"] == "finished":
                        return
                    view = msg.get("view") or {}
                    if msg["type"] == "update" and self.seat is not None and view["to_move"] == self.seat:
                        # Stop sometimes, dig on sometimes: turns end by "stop" and by the sand running out.
                        legal = view["legal"]
                        if view["started"] and not self.polled.is_set():
                            self.polled.wait(20)  # hold the first running turn until the poller has read it
                        if legal:
                            move = "stop" if "stop" in legal and self.rng.random() < 0.3 else self.rng.choice(legal)
                            send(ws, {"type": "move", "move": move, "seq": msg["seq"]})
        except (ConnectionClosed, TimeoutError) as err:
            self.failure = err


class Poller(threading.Thread):
    """Anyone on the internet: reads every HTTP view of the table until the game ends."""

    def __init__(self, server: LiveServer, table_id: str, polled: threading.Event) -> None:
        super().__init__(daemon=True)
        self.server, self.table_id, self.polled = server, table_id, polled
        self.bodies: list[tuple[str, Any]] = []

    def run(self) -> None:
        paths = ("/api/tables", f"/api/tables/{self.table_id}", f"/api/tables/{self.table_id}/view")
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            for path in paths:
                body = self.server.get(path).json()
                self.bodies.append((path, body))
                if path.endswith("/view") and body["started"] and body["to_move"] != -2:
                    self.polled.set()
            if self.server.get(f"/api/tables/{self.table_id}").json()["status"] == "finished":
                return
            time.sleep(0.05)


def walk(node: Any, path: str = ""):
    if isinstance(node, dict):
        for k, v in node.items():
            yield f"{path}.{k}", k, v
            yield from walk(v, f"{path}.{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from walk(v, f"{path}[{i}]")


def no_time(body: Any, where: str) -> None:
    for path, key, value in walk(body):
        if key in TIME_KEYS:
            assert value is None, f"{where}: live time at {path}"


def states_by_seq(record: dict[str, Any]) -> list[Any]:
    """The engine's state after every stored step: the server stores one step per recorded move."""
    definition = registry.get("digger")
    state = definition.new_state(definition.params_from_json({k: record[k] for k in ("players", "crates", "options")}))
    out = [state.clone()]
    for move in record["moves"]:
        definition.apply_move(state, move)
        out.append(state.clone())
    return out


def test_the_digger_clock_reaches_no_one_who_could_be_the_digger(server: LiveServer) -> None:
    r = server.post(
        "/api/tables", {"game": "digger", "seats": [HUMAN, HUMAN, HUMAN], "claim": 0, "options": {"time_limit": 3.0}}
    )
    assert r.status_code == 201, r.text
    tid, tokens = r.json()["table"]["id"], {0: r.json()["you"]["token"]}
    for seat in (1, 2):
        tokens[seat] = server.post(f"/api/tables/{tid}/seats/{seat}/claim", {"name": f"p{seat}"}).json()["token"]
    polled = threading.Event()
    clients = [Client(server, tid, seat, tokens[seat], seed=seat, polled=polled) for seat in range(3)]
    clients.append(Client(server, tid, None, None, seed=9, polled=polled))
    poller = Poller(server, tid, polled)
    for c in (*clients, poller):
        c.start()
    for c in (*clients, poller):
        c.join(360)
        assert not c.is_alive(), "the game did not finish"
    assert all(c.failure is None for c in clients)

    record = server.get(f"/api/tables/{tid}/record").json()
    states = states_by_seq(record)
    assert len(states) - 1 == server.get(f"/api/tables/{tid}").json()["seq"]
    timeouts = seen_running = 0
    for client in clients:
        for msg in client.messages:
            if msg["type"] != "update":
                continue
            state = states[msg["seq"]]
            view = msg["view"]
            # Each view is the engine's own observation for that seat: nothing more, nothing less.
            assert view == state.observation(client.seat)
            running = view["started"] and view["to_move"] != -2
            blind = client.seat is None or client.seat == view["digger"]
            timeouts += sum(e["kind"] == "timeout" for e in msg["events"])
            if running and blind:
                no_time({k: v for k, v in msg.items() if k != "table"}, f"seat {client.seat}")
                # Events of earlier, finished turns may keep their times; this turn's may not.
                assert all(e.get("at") is None for e in msg["events"] if e.get("seat") == view["digger"])
            elif running:
                seen_running += 1
                assert msg["clock"]["hourglass_left"] <= 3.0
                assert view["remaining"] is not None
        # A spectator is told nothing timed at all, even from finished turns.
        if client.seat is None:
            for msg in client.messages:
                if msg["type"] == "update" and msg["view"]["to_move"] != -2:
                    no_time({k: v for k, v in msg.items() if k != "table"}, "spectator")
    assert seen_running > 0, "no seated non-digger ever saw the hourglass run"
    assert timeouts > 0 or "stop" in " ".join(record["moves"])
    # Nothing anyone can read without a token carries the time while the game runs.
    for path, body in poller.bodies:
        if not (path.endswith("/view") and body["to_move"] == -2):  # once the game is over, times are public
            no_time(body, path)
    assert polled.is_set(), "the poller never read a running turn"
