"""Clients that stop reading. A socket nobody reads cannot even be closed (its data waits to be
taken), so without a deadline such a client held its connection, its place under
``--max-sockets-per-client`` and up to 500 queued updates for good."""

from __future__ import annotations

import asyncio
import json
import platform
import re
import socket
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from live import BOTS, HUMAN, LiveServer
from websockets.client import ClientProtocol
from websockets.sync.client import connect
from websockets.uri import parse_uri

from goldfields.server.app import MAX_QUEUE, Session
from goldfields.server.limits import Quiet, RateLimits
from goldfields.server.listen import give_up_after, listen
from goldfields.server.tables import Settings


class StuckSocket:
    """A WebSocket whose client reads nothing: every send waits for ever."""

    def __init__(self) -> None:
        self.app = SimpleNamespace(state=SimpleNamespace(rates=RateLimits({}, enabled=False), quiet=Quiet("1/minute")))
        self.sent: list[str] = []
        self.stuck = asyncio.Event()

    async def send_text(self, text: str) -> None:
        self.sent.append(text)
        await self.stuck.wait()

    async def close(self, code: int = 1000) -> None:
        await self.stuck.wait()

    async def receive(self) -> dict[str, Any]:
        await asyncio.Event().wait()  # the client sends nothing either
        raise AssertionError


class Access:
    table_id = "t1"

    def __init__(self) -> None:
        self.left = asyncio.Event()

    async def disconnect(self, session: Session) -> None:
        self.left.set()


def session(send_timeout: float) -> tuple[Session, Access]:
    access = Access()
    manager = SimpleNamespace(settings=Settings(send_timeout=send_timeout))
    s = Session(StuckSocket(), manager, access)  # type: ignore[arg-type]
    s.joined = True  # as after hello
    return s, access


def test_a_client_that_takes_nothing_for_the_send_timeout_is_dropped_and_leaves_the_table() -> None:
    async def run() -> None:
        s, access = session(send_timeout=0.2)
        running = asyncio.create_task(s.run())
        s.send({"type": "update"})
        await asyncio.wait_for(running, 60)  # ends by itself, once the send has waited 0.2 s
        assert access.left.is_set()

    asyncio.run(run())


def test_a_client_too_far_behind_is_dropped_at_once_not_after_its_queue() -> None:
    async def run() -> None:
        s, access = session(send_timeout=3600.0)  # only the queue can end it
        running = asyncio.create_task(s.run())
        s.send({"type": "update", "n": 0})
        while not s.ws.sent:  # type: ignore[attr-defined]
            await asyncio.sleep(0)  # the sender is stuck writing the first
        for n in range(1, MAX_QUEUE + 2):  # the sender holds the first; 500 wait; one more is too many
            s.send({"type": "update", "n": n})
        await asyncio.wait_for(running, 60)
        assert access.left.is_set() and len(s.ws.sent) == 1  # type: ignore[attr-defined]

    asyncio.run(run())


def _kernel() -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", platform.release())[:2])


@pytest.mark.skipif(
    not hasattr(socket, "TCP_USER_TIMEOUT") or _kernel() < (5, 11),
    reason="Linux 5.11 and later apply TCP_USER_TIMEOUT to a peer whose window is shut",
)
def test_the_system_drops_a_connection_whose_peer_takes_nothing() -> None:
    # TCP_USER_TIMEOUT on the listening socket: each connection accepted inherits it.
    listening = listen("127.0.0.1", 0, send_timeout=1.0)
    client = socket.socket()
    try:
        client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        client.connect(("127.0.0.1", listening.port))
        conn, _ = listening.sockets[0].accept()
        with conn:
            conn.setblocking(False)
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                try:
                    conn.send(b"x" * 65536)
                except BlockingIOError:
                    time.sleep(0.1)  # the client's window is shut: the clock runs
                except OSError as err:
                    assert isinstance(err, TimeoutError), err
                    break
            else:
                raise AssertionError("the connection was never dropped")
    finally:
        client.close()
        listening.close()


@pytest.mark.skipif(not hasattr(socket, "TCP_USER_TIMEOUT"), reason="TCP_USER_TIMEOUT is Linux's")
def test_give_up_after_is_off_without_a_timeout() -> None:
    with socket.socket() as s:
        assert not give_up_after(s, None)
        before = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT)
        assert before == 0  # the system's default: retransmissions decide
        assert give_up_after(s, 2.5)
        assert s.getsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT) == 2500


def test_a_real_client_that_stops_reading_frees_its_place(tmp_path: Path) -> None:
    # One connection allowed per address. A spectator asks for replies (errors, 4 kB each)
    # and never reads them: once its buffers are full it is dropped, and the address may
    # connect again, where before it was refused for good.
    live = LiveServer(tmp_path / "g.db", send_timeout=2.0, max_sockets_per_client=1).start()
    try:
        tid = live.create([HUMAN, BOTS], claim=0)["table"]["id"]
        raw = socket.socket()
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        raw.connect(("127.0.0.1", live.port))
        ws = ClientProtocol(parse_uri(f"ws://127.0.0.1:{live.port}/api/tables/{tid}/ws"))
        ws.send_request(ws.connect())
        raw.sendall(b"".join(ws.data_to_send()))
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += raw.recv(1)  # the handshake only: nothing after it is read
        ws.receive_data(answer)
        ws.send_text(json.dumps({"type": "hello"}).encode())
        asking = json.dumps({"type": "x" * 4000}).encode()  # answered with an error naming it
        raw.settimeout(1.0)
        for _ in range(150):  # 3,000 asks: more answers than the buffers between us hold
            for _ in range(20):
                ws.send_text(asking)
            try:
                raw.sendall(b"".join(ws.data_to_send()))
            except OSError:
                break  # the server reads no more (perhaps mid-frame: nothing more is sent), or dropped us
            time.sleep(0.02)
        assert wait_for_place(live, tid)
        raw.close()
    finally:
        live.stop()


def refused_or_seated(live: LiveServer, table_id: str) -> str:
    """What a second connection from the same address gets first: an update, or an error."""
    try:
        with connect(f"ws://127.0.0.1:{live.port}/api/tables/{table_id}/ws", open_timeout=10) as other:
            other.send(json.dumps({"type": "hello"}))
            return str(json.loads(other.recv(timeout=10))["type"])
    except Exception:  # refused at the door (1013)
        return "refused"


def wait_for_place(live: LiveServer, table_id: str) -> bool:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if refused_or_seated(live, table_id) == "update":
            return True
        time.sleep(0.2)
    return False
