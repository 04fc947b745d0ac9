"""Three server processes on one PostgreSQL database and one Redis: any process serves any table.

Clients of one table are spread over the processes; the owner is killed with
SIGKILL mid-game, in both games, and another process carries on; every
message of every process is checked against what its seat may know; and a
process that lost its lock without noticing cannot apply a move another has.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from databases import fresh_postgres_database, redis_or_skip
from live import BOTS, HUMAN, LiveServer, receive, send
from live_server import free_port
from sqlalchemy import make_url
from test_leaks import states_by_seq, walk
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import connect

from goldfields.core import registry
from goldfields.records import replay

MANY_SOCKETS = {"max_sockets_per_client": 10_000}


def listening(port: int) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=5).close()
            return
        except OSError:
            assert time.monotonic() < deadline, f"nothing listens on port {port}"
            time.sleep(0.05)


@contextlib.contextmanager
def private_redis() -> Iterator[str]:
    """The URL of a Redis of the test's own: what the test counts in it disturbs no other test."""
    redis_or_skip()
    port = free_port()
    command = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    listening(port)
    try:
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(30)


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[list[LiveServer]]:
    redis = redis_or_skip()
    with fresh_postgres_database() as url:
        servers: list[LiveServer] = []
        try:
            for i in range(3):
                # Every test client is 127.0.0.1, and tests running side by side share this Redis.
                server = LiveServer(url, bot_delay=0.02, redis=redis, log=tmp_path / f"server{i}.log", **MANY_SOCKETS)
                servers.append(server.start())
            yield servers
        finally:
            for s in servers:
                s.stop()


def alive(servers: list[LiveServer]) -> list[LiveServer]:
    return [s for s in servers if s.proc is not None and s.proc.poll() is None]


class Roamer(threading.Thread):
    """A player (or a spectator) who plays random legal moves, and who, when their
    process dies, reconnects to the next one still running, as a browser behind a load
    balancer would. Records every message and every acknowledged move."""

    def __init__(self, servers: list[LiveServer], home: int, table: str, seat: int | None, token: str | None) -> None:
        super().__init__(daemon=True)
        self.servers, self.home, self.table, self.seat, self.token = servers, home, table, seat, token
        self.rng = random.Random(seat if seat is not None else 99)
        self.messages: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.acks: list[tuple[int, str]] = []
        self.failure: BaseException | None = None
        self.hold = threading.Event()  # set: stop moving (a test kills a process meanwhile)
        self.hold.set()
        self.sessions = 0  # sockets opened: more than one means it had to reconnect
        self.refusals: list[str] = []  # error codes received

    def server(self) -> LiveServer:
        running = alive(self.servers)
        return self.servers[self.home] if self.servers[self.home] in running else running[self.home % len(running)]

    def run(self) -> None:
        deadline = time.monotonic() + 400
        try:
            while time.monotonic() < deadline:
                try:
                    if self.session():
                        return
                except (ConnectionClosed, OSError, InvalidHandshake, TimeoutError):
                    time.sleep(0.2)  # the process died under us: the next one
            raise TimeoutError("the game did not finish")
        except BaseException as err:
            self.failure = err

    def session(self) -> bool:
        server = self.server()
        self.sessions += 1
        with connect(f"ws://127.0.0.1:{server.port}/api/tables/{self.table}/ws", open_timeout=30) as ws:
            hello: dict[str, Any] = {"type": "hello"}
            if self.seat is not None:
                hello.update(seat=self.seat, token=self.token)
            send(ws, hello)
            pending: str | None = None
            last: dict[str, Any] | None = None
            while True:
                text = ws.recv(timeout=30)
                self.raw.append(text)
                msg = json.loads(text)
                self.messages.append(msg)
                if msg["type"] == "ack":
                    self.acks.append((msg["seq"], msg["move"]))
                    pending = None
                    # Relayed, a move's update can come before its ack (they cross Redis on
                    # different channels): the position to answer may already be here.
                    if last is not None and last["seq"] >= msg["seq"] and self.move(ws, last):
                        pending = "sent"
                elif msg["type"] == "error":
                    self.refusals.append(msg["code"])
                    if msg["code"] == "no_such_table":
                        return True  # finished and archived while we reconnected
                    pending = None
                    if msg["code"] in ("moving", "moved") and last is not None:
                        time.sleep(0.3)  # the table is changing hands: try again
                        self.move(ws, last)
                        pending = "sent"
                    continue
                if msg["type"] != "update":
                    continue
                if msg["table"]["status"] == "finished":
                    return True
                last = msg
                if pending is None and self.move(ws, msg):
                    pending = "sent"

    def story(self) -> str:
        last = next((m for m in reversed(self.messages) if m["type"] == "update"), None)
        at = "no update" if last is None else f"last update seq {last['seq']}, to move {last['view'].get('to_move')}"
        return (
            f"seat {self.seat}: {self.sessions} sessions, {len(self.acks)} acks, {at},"
            f" refusals {self.refusals[-5:]}, last messages {[m['type'] for m in self.messages[-5:]]}"
        )

    def move(self, ws: Any, msg: dict[str, Any]) -> bool:
        view = msg["view"]
        if self.seat is None or view.get("to_move") != self.seat or not view.get("legal"):
            return False
        self.hold.wait(60)
        legal = view["legal"]
        move = "stop" if "stop" in legal and self.rng.random() < 0.3 else self.rng.choice(legal)
        send(ws, {"type": "move", "move": move, "seq": msg["seq"]})
        return True


def start_table(servers: list[LiveServer], game: str, players: int, **options: Any) -> tuple[str, dict[int, str]]:
    """Created on process 0 (its owner); each other seat claimed through another process."""
    body = {"game": game, "seats": [HUMAN] * players, "claim": 0, **options}
    r = servers[0].post("/api/tables", body)
    assert r.status_code == 201, r.text
    table, tokens = r.json()["table"]["id"], {0: r.json()["you"]["token"]}
    for seat in range(1, players):
        claimed = servers[seat % len(servers)].post(f"/api/tables/{table}/seats/{seat}/claim", {"name": f"p{seat}"})
        assert claimed.status_code == 200, claimed.text
        tokens[seat] = claimed.json()["token"]
    return table, tokens


def finish(clients: list[Roamer]) -> None:
    for c in clients:
        if c.ident is None:  # not started yet
            c.start()
    for c in clients:
        c.join(420)
    # Where each player got to, so that a stalled game can be told apart from a refused one.
    story = "; ".join(c.story() for c in clients)
    for c in clients:
        assert not c.is_alive(), f"the game did not finish: {story}"
        assert c.failure is None, f"{c.failure!r}: {story}"


def record_of(servers: list[LiveServer], table: str) -> dict[str, Any]:
    return alive(servers)[0].get(f"/api/tables/{table}/record").json()


def test_one_table_with_its_players_on_three_processes_plays_to_the_end_and_leaks_nothing(
    cluster: list[LiveServer],
) -> None:
    table, tokens = start_table(cluster, "digging", 4, partnership=True)
    clients = [Roamer(cluster, seat % 3, table, seat, tokens[seat]) for seat in range(4)]
    clients += [Roamer(cluster, home, table, None, None) for home in range(3)]  # a spectator on each
    finish(clients)
    record = record_of(cluster, table)
    states = states_by_seq(record)
    for client in clients:
        seat = client.seat
        for msg in client.messages:
            if msg["type"] == "update":
                # Relayed or not, every view is exactly the engine's observation for that seat.
                assert msg["view"] == states[msg["seq"]].observation(seat)
        others = [t for s, t in tokens.items() if s != seat]
        for text in client.raw:
            assert not any(t in text for t in others)
        for msg in client.messages:
            for path, key, value in walk(msg):
                assert key not in ("deck", "secret", "token", "token_hash"), path
                if key in ("hand", "cards") and value is not None and "events" not in path:
                    assert seat is not None, f"a spectator was sent cards at {path}"


@pytest.mark.parametrize("game", ["digging", "digger"])
def test_the_owner_killed_mid_game_another_process_carries_on_and_no_acknowledged_move_is_lost(
    cluster: list[LiveServer], game: str
) -> None:
    options = {"options": {"time_limit": 5.0}} if game == "digger" else {}
    table, tokens = start_table(cluster, game, 2, **options)
    # Both players on the processes that do not own the table: they see it change hands.
    clients = [Roamer(cluster, 1 + seat, table, seat, tokens[seat]) for seat in range(2)]
    for c in clients:
        c.start()
    deadline = time.monotonic() + 120
    while sum(len(c.acks) for c in clients) < 6:
        assert time.monotonic() < deadline, "no moves were made"
        assert all(c.failure is None for c in clients), [c.failure for c in clients]
        time.sleep(0.05)
    cluster[0].kill()  # the owner: SIGKILL, mid-game
    for c in clients:
        c.join(420)
        assert not c.is_alive() and c.failure is None, repr(c.failure)
    survivors = alive(cluster)
    summary = survivors[0].get(f"/api/tables/{table}").json()
    assert summary["status"] == "finished"
    record = record_of(cluster, table)
    report, status = replay(record)
    assert status == 0 and report["ok"], report
    # Every acknowledged move is in the record at the step it was acknowledged as, once.
    definition = registry.get(game)
    moves = _moves_by_seq(definition.name, record)
    for c in clients:
        for seq, move in c.acks:
            assert seq in moves and _verb(moves[seq]) == _verb(move), (seq, move, moves.get(seq))
    acked = [seq for c in clients for seq, _ in c.acks]
    assert len(acked) == len(set(acked)), "a step was acknowledged twice"


def _verb(move: str) -> str:
    """A move's first word (a record's Digger roll adds its time and faces to "roll")."""
    return re.match(r"[a-z]*", move.strip().lower()).group(0)  # type: ignore[union-attr]


def _moves_by_seq(game: str, record: dict[str, Any]) -> dict[int, str]:
    """The step number of every move in a record (deals and rolls are steps too)."""
    out: dict[int, str] = {}
    if game == "digging":
        seq = 0
        for hand in record["hands"]:
            seq += 1  # the deal
            for move in hand["moves"]:
                seq += 1
                out[seq] = move
        return out
    # Digger: each recorded move is one step, chance included (a roll's dice are in its text).
    for seq, move in enumerate(record["moves"], start=1):
        out[seq] = move
    return out


def test_a_process_that_lost_its_lock_cannot_apply_a_move_another_process_owns(
    cluster: list[LiveServer],
) -> None:
    table, tokens = start_table(cluster, "digging", 2)
    owner = cluster[0]
    # Cut the owner's locking connection from the database's side, as a network fault
    # would: the owner still holds the table in memory, and another process takes it over.
    url = make_url(owner.url).set(drivername="postgresql")
    with psycopg.connect(url.render_as_string(hide_password=False), autocommit=True) as conn:
        # Only this cluster's database: pg_locks lists every database's locks, and a server of a
        # test running beside this one (its own database) may hold an advisory lock as it starts.
        killed = conn.execute(
            "SELECT pg_terminate_backend(l.pid) FROM pg_locks l JOIN pg_database d ON d.oid = l.database "
            "WHERE l.locktype = 'advisory' AND l.granted AND d.datname = current_database()"
        ).fetchall()
    assert killed, "no process held an advisory lock"
    # Both players now play through the old owner and a new one at once.
    clients = [Roamer(cluster, seat, table, seat, tokens[seat]) for seat in range(2)]
    finish(clients)
    # The old owner notices on its next claim round (the game may have ended before it).
    assert owner.log is not None
    deadline = time.monotonic() + 60
    while "lock connection was lost" not in owner.log.read_text():
        assert time.monotonic() < deadline, "the old owner never noticed it lost its locks"
        time.sleep(0.1)
    record = record_of(cluster, table)
    report, status = replay(record)
    assert status == 0 and report["ok"], report
    moves = _moves_by_seq("digging", record)
    acked = [(seq, move) for c in clients for seq, move in c.acks]
    assert len({seq for seq, _ in acked}) == len(acked), "two processes acknowledged the same step"
    for seq, move in acked:
        assert seq in moves and _verb(moves[seq]) == _verb(move)


def test_the_lobby_lists_every_process_s_tables(cluster: list[LiveServer]) -> None:
    made = [s.create([HUMAN, HUMAN])["table"]["id"] for s in cluster]
    for server in cluster:
        listed = {t["id"] for t in httpx.get(f"{server.base}/api/tables?status=open", timeout=10).json()}
        assert set(made) <= listed


def test_redis_going_away_and_back_pauses_relayed_play_and_loses_nothing(tmp_path: Path) -> None:
    redis_or_skip()
    port = free_port()
    command = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    redis = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    listening(port)
    generous = {"create_rate": "1000/minute", "claim_rate": "1000/minute", "move_rate": "1000/second",
                "join_rate": "1000/minute"}  # the roamers say hello again after every drop
    with fresh_postgres_database() as url:
        servers: list[LiveServer] = []
        try:
            for i in range(2):
                server = LiveServer(
                    url,
                    bot_delay=0.02,
                    redis=f"redis://127.0.0.1:{port}/0",
                    log=tmp_path / f"server{i}.log",
                    rate_limits=True,  # counted in Redis, then in each process while it is away
                    message_rate="1000/second",
                    **generous,
                )
                servers.append(server.start())
            table, tokens = start_table(servers, "digging", 2)
            # Seat 0 plays on the owner; seat 1 through the other process, relayed by Redis.
            clients = [Roamer(servers, seat, table, seat, tokens[seat]) for seat in range(2)]
            for c in clients:
                c.start()
            deadline = time.monotonic() + 120
            while sum(len(c.acks) for c in clients) < 6:
                assert time.monotonic() < deadline, "no moves were made"
                time.sleep(0.05)
            redis.terminate()
            redis.wait(30)
            for i, server in enumerate(servers):
                # Without Redis every process still answers, creates tables and counts rates itself.
                assert server.get("/api/health").status_code == 200
                assert server.post("/api/tables", {"game": "digging", "seats": [HUMAN, HUMAN]}).status_code == 201
                log = tmp_path / f"server{i}.log"
                deadline = time.monotonic() + 60
                while "Redis cannot be read" not in log.read_text():
                    assert time.monotonic() < deadline, "the process did not notice Redis had gone"
                    time.sleep(0.1)
            time.sleep(2)  # an outage long enough for the relayed player to be refused
            redis = subprocess.Popen(command, stdout=subprocess.DEVNULL)
            finish(clients)
            record = record_of(servers, table)
        finally:
            for s in servers:
                s.stop()
            redis.terminate()
            redis.wait(30)
    log1 = (tmp_path / "server1.log").read_text()
    assert "Redis is back" in log1 and "Traceback" not in log1
    # The relayed player's socket stayed open: it was resynced, not left waiting for updates
    # published while Redis was away.
    assert clients[1].sessions == 1, clients[1].refusals
    report, status = replay(record)
    assert status == 0 and report["ok"], report
    acked = [seq for c in clients for seq, _ in c.acks]
    assert len(acked) == len(set(acked)), "a step was acknowledged twice"


@pytest.mark.parametrize("game", ["digging", "digger"])
def test_a_bot_seat_moves_again_on_the_new_owner(cluster: list[LiveServer], game: str) -> None:
    options: dict[str, Any] = {"options": {"time_limit": 5.0}} if game == "digger" else {}
    r = cluster[0].post("/api/tables", {"game": game, "seats": [HUMAN, BOTS], "claim": 0, **options})
    assert r.status_code == 201, r.text
    table, token = r.json()["table"]["id"], r.json()["you"]["token"]
    human = Roamer(cluster, 1, table, 0, token)  # relayed: the owner is process 0
    human.start()
    deadline = time.monotonic() + 120
    while len(human.acks) < 3:
        assert time.monotonic() < deadline and human.failure is None, human.failure
        time.sleep(0.05)
    cluster[0].kill()
    finish([human])
    record = record_of(cluster, table)
    # Finished: the bot kept moving on the new owner, as the game cannot end without it.
    assert alive(cluster)[0].get(f"/api/tables/{table}").json()["status"] == "finished"
    report, status = replay(record)
    assert status == 0 and report["ok"], report


def test_one_address_may_hold_only_so_many_sockets_over_all_processes(tmp_path: Path) -> None:
    with private_redis() as redis, fresh_postgres_database() as url:
        servers = [LiveServer(url, redis=redis, max_sockets_per_client=2).start() for _ in range(2)]
        try:
            table = servers[0].create([HUMAN, HUMAN])["table"]["id"]
            with servers[0].ws(table) as first, servers[1].ws(table) as second:
                for ws in (first, second):
                    send(ws, {"type": "hello"})
                    assert receive(ws)["type"] == "update"
                # Each process holds one socket of this address: together they are at the cap.
                for server in servers:
                    with server.ws(table) as extra:
                        assert receive(extra)["code"] == "too_many_sockets"
                        with pytest.raises(ConnectionClosed) as closed:
                            extra.recv(timeout=60)
                        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
                first.close()
                deadline = time.monotonic() + 60
                while True:  # the place is given back once the first process sees the close
                    with servers[1].ws(table) as again:
                        try:
                            send(again, {"type": "hello"})
                            if receive(again)["type"] == "update":
                                break
                        except ConnectionClosed:  # still refused: closed before the hello went out
                            pass
                    assert time.monotonic() < deadline, "the closed socket was never given back"
                    time.sleep(0.1)
        finally:
            for s in servers:
                s.stop()


def test_one_address_may_have_only_so_many_tables_over_all_processes_and_a_restart(tmp_path: Path) -> None:
    cap = {"rate_limits": True, "max_tables_per_client": 2, "create_rate": "1000/minute", **MANY_SOCKETS}
    body = {"game": "digging", "players": 2, "seats": [HUMAN, HUMAN]}
    with private_redis() as redis, fresh_postgres_database() as url:
        servers = [LiveServer(url, redis=redis, **cap).start() for _ in range(2)]
        try:
            for server in servers:  # one table on each process: together at the cap
                assert server.post("/api/tables", body).status_code == 201
            for server in servers:
                r = server.post("/api/tables", body)
                assert r.status_code == 429 and r.json()["code"] == "too_many_tables", r.text
                assert "2 tables waiting or in play" in r.json()["message"]
            # A process started afresh on the same database counts them too.
            servers[0].stop()
            servers[0] = LiveServer(url, redis=redis, **cap).start()
            r = servers[0].post("/api/tables", body)
            assert r.status_code == 429 and r.json()["code"] == "too_many_tables", r.text

            # An IPv6 /48 may have ten times the tables of one /64 (20 here) over all processes, not
            # 20 on each: ten /64s of it make two tables each, one on each process.
            def from_address(server: LiveServer, host: str) -> httpx.Response:
                return httpx.post(f"{server.base}/api/tables", json=body, headers={"X-Forwarded-For": host}, timeout=30)

            for k in range(10):
                for server in servers:
                    assert from_address(server, f"2001:db8:1:{k:x}::1").status_code == 201
            for server in servers:
                r = from_address(server, "2001:db8:1:ff::1")  # an eleventh /64 of the same /48
                assert r.status_code == 429 and "network" in r.json()["message"], r.text
                assert "20 tables" in r.json()["message"]
            assert from_address(servers[1], "2001:db8:2::1").status_code == 201  # another network
        finally:
            for s in servers:
                s.stop()


def test_a_relayed_refusal_names_its_rule_once_with_its_reason(cluster: list[LiveServer]) -> None:
    table, tokens = start_table(cluster, "digging", 2)
    with connect(f"ws://127.0.0.1:{cluster[1].port}/api/tables/{table}/ws", open_timeout=30) as ws:
        send(ws, {"type": "hello", "seat": 0, "token": tokens[0]})  # relayed: process 0 owns the table
        while (msg := receive(ws))["type"] != "update":
            pass
        send(ws, {"type": "move", "move": "pass G", "seq": msg["seq"]})
        while (reply := receive(ws))["type"] != "error":
            pass
    assert reply["code"] == "illegal" and reply["rule"] == "D2"
    assert reply["message"].startswith("D2: ") and not reply["message"].startswith("D2: D2")
    assert reply["reason"] and reply["params"]["move"] == "pass G"


def test_chat_crosses_processes_and_a_reconnecting_player_reads_it(cluster: list[LiveServer]) -> None:
    table, tokens = start_table(cluster, "digging", 2)

    @contextlib.contextmanager
    def hello(server: LiveServer, seat: int) -> Iterator[Any]:
        with connect(f"ws://127.0.0.1:{server.port}/api/tables/{table}/ws", open_timeout=30) as ws:
            send(ws, {"type": "hello", "seat": seat, "token": tokens[seat]})
            while receive(ws)["type"] != "update":
                pass
            yield ws

    # Both players on processes that do not own the table: the chat goes through the owner.
    with hello(cluster[1], 0) as a, hello(cluster[2], 1) as b:
        send(a, {"type": "chat", "text": "hello from process 1"})
        while (msg := receive(b))["type"] != "chat":
            pass
        assert msg["seat"] == 0 and msg["text"] == "hello from process 1"
    # Seat 1 comes back through the other process: the full update brings what was said.
    with connect(f"ws://127.0.0.1:{cluster[1].port}/api/tables/{table}/ws", open_timeout=30) as ws:
        send(ws, {"type": "hello", "seat": 1, "token": tokens[1]})
        while (full := receive(ws))["type"] != "update":
            pass
    assert [m["text"] for m in full["chat"]] == ["hello from process 1"]
