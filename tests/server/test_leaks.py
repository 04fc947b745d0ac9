"""Hidden information never leaves the server.

Whole games are played through a real server by one client per seat plus a
spectator. Afterwards the game is rebuilt from its record, step by step, and
every message each client received is checked against what the engine says
that seat may know at that step; then scanned for anything secret.
"""

from __future__ import annotations

import json
import random
import threading
from typing import Any

import pytest
from live import HUMAN, LiveServer, receive, send
from websockets.exceptions import ConnectionClosed

from goldfields.digging import DiggingState


class Player(threading.Thread):
    def __init__(self, server: LiveServer, table_id: str, seat: int | None, token: str | None, seed: int) -> None:
        super().__init__(daemon=True)
        self.server, self.table_id, self.seat, self.token = server, table_id, seat, token
        self.rng = random.Random(seed)
        self.messages: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.failure: BaseException | None = None

    def run(self) -> None:
        try:
            with self.server.ws(self.table_id) as ws:
                hello: dict[str, Any] = {"type": "hello"}
                if self.seat is not None:
                    hello.update(seat=self.seat, token=self.token)
                send(ws, hello)
                while True:
                    text = ws.recv(timeout=60)
                    self.raw.append(text)
                    msg = json.loads(text)
                    self.messages.append(msg)
                    if msg["type"] == "update" and msg["table"]["status"] == "finished":
                        return
                    if msg["type"] == "update" and self.seat is not None and msg["view"]["to_move"] == self.seat:
                        legal = msg["view"]["legal"]
                        if legal:
                            send(ws, {"type": "move", "move": self.rng.choice(legal), "seq": msg["seq"]})
        except (ConnectionClosed, TimeoutError) as err:
            self.failure = err


def states_by_seq(record: dict[str, Any]) -> dict[int, DiggingState]:
    """The engine's state after every stored step (a deal or a move)."""
    state = DiggingState(record["players"], record["partnership"], dealer=record["hands"][0]["dealer"])
    out = {0: state.clone()}
    seq = 0
    for hand in record["hands"]:
        state.apply_chance(hand["deck"])
        seq += 1
        out[seq] = state.clone()
        for move in hand["moves"]:
            state.apply_move(move)
            seq += 1
            out[seq] = state.clone()
    return out


def walk(node: Any, path: str = ""):
    if isinstance(node, dict):
        for k, v in node.items():
            yield f"{path}.{k}", k, v
            yield from walk(v, f"{path}.{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from walk(v, f"{path}[{i}]")


@pytest.mark.parametrize(("players", "partnership"), [(4, True), (3, False)])
def test_every_message_holds_only_what_its_seat_may_know(server: LiveServer, players: int, partnership: bool) -> None:
    created = server.create([HUMAN] * players, claim=0, partnership=partnership)
    tid = created["table"]["id"]
    tokens = {0: created["you"]["token"]}
    for seat in range(1, players):
        tokens[seat] = server.post(f"/api/tables/{tid}/seats/{seat}/claim", {"name": f"p{seat}"}).json()["token"]
    clients = [Player(server, tid, seat, tokens[seat], seed=seat) for seat in range(players)]
    clients.append(Player(server, tid, None, None, seed=99))
    for c in clients:
        c.start()
    for c in clients:
        c.join(300)
        assert c.failure is None and not c.is_alive()

    record = server.get(f"/api/tables/{tid}/record").json()
    states = states_by_seq(record)
    for client in clients:
        seat = client.seat
        shown: list[Any] = []  # every event view this client was sent, in order
        for msg in client.messages:
            if msg["type"] != "update":
                continue
            state = states[msg["seq"]]
            # The view is exactly the engine's observation for this seat at this step.
            assert msg["view"] == state.observation(seat)
            shown = msg["events"] if msg["full"] else shown + msg["events"]
        # And the events, in order, are exactly the engine's events as this seat may see them.
        replayed = DiggingState(record["players"], record["partnership"], dealer=record["hands"][0]["dealer"])
        expected = []
        for hand in record["hands"]:
            expected += [e.view(seat) for e in replayed.apply_chance(hand["deck"])]
            for move in hand["moves"]:
                expected += [e.view(seat) for e in replayed.apply_move(move)]
        assert shown == expected[: len(shown)]

        # Scan: no other seat's token, no deck, no pile order, no secret, no other hand.
        others = [t for s, t in tokens.items() if s != seat]
        for text in client.raw:
            assert not any(t in text for t in others)
            if seat is not None:
                assert tokens[seat] not in text
        for msg in client.messages:
            for path, key, value in walk(msg):
                assert key not in ("deck", "secret", "token", "token_hash"), path
                if key == "pile":
                    assert isinstance(value, int), path
                if key in ("hand", "cards") and value is not None and "events" not in path:
                    assert seat is not None, f"a spectator was sent cards at {path}"


def test_http_endpoints_show_no_hand(server: LiveServer) -> None:
    created = server.create([HUMAN, HUMAN], claim=0)
    tid = created["table"]["id"]
    server.post(f"/api/tables/{tid}/seats/1/claim", {"name": "b"})
    for path in ("/api/tables", f"/api/tables/{tid}", f"/api/tables/{tid}/view"):
        body = server.get(path).json()
        for where, key, value in walk(body):
            assert key not in ("deck", "secret", "token", "token_hash", "cards"), where
            if key == "hand":
                assert value is None, where


def test_a_refused_move_tells_nothing_of_where_the_card_is(server: LiveServer) -> None:
    # Playing a card you do not hold is refused alike whether the other seat holds it or it lies in
    # the pile: the reply names your move and the rule, never whose hand the card is in.
    created = server.create([HUMAN, HUMAN], claim=0)
    tid = created["table"]["id"]
    other = server.post(f"/api/tables/{tid}/seats/1/claim", {"name": "Bea"}).json()
    with server.ws(tid) as ws1:
        send(ws1, {"type": "hello", "seat": 1, "token": other["token"]})
        theirs = set(receive(ws1)["view"]["hand"])
    with server.ws(tid) as ws0:
        send(ws0, {"type": "hello", "seat": 0, "token": created["you"]["token"]})
        first = receive(ws0)
        mine = set(first["view"]["hand"])
        assert first["view"]["to_move"] == 0
        replies: dict[str, dict[str, Any]] = {}
        codes = ["MG", "MS", "MC", "G", "S", "C", "GG", "SS", "CC", "X"] + [f"B{v}" for v in range(1, 13)]
        for code in codes:
            if code in mine:
                continue
            move = f"play {code} 1" if code.startswith("M") else f"play {code} m1"
            send(ws0, {"type": "move", "move": move, "seq": first["seq"]})
            reply = receive(ws0)
            assert reply["type"] == "error", reply
            replies[code] = reply
    held, unseen = [c for c in replies if c in theirs], [c for c in replies if c not in theirs]
    assert held and unseen  # both kinds were tried

    def shape(code: str) -> tuple[Any, ...]:
        r = replies[code]
        return (r["code"], r["rule"], r.get("reason"), r["message"].replace(code, "<card>"))

    for kind in ("M", "B", ""):  # like with like: mines, bandits, the other cards
        same = [c for c in replies if (c[0] == kind if kind else c[0] not in "MB")]
        assert len({shape(c) for c in same}) <= 1, {c: shape(c) for c in same}
    assert server.get(f"/api/tables/{tid}").json()["seq"] == first["seq"]
