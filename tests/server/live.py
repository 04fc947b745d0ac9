"""A real goldfields server on localhost, with a real SQLite file, and a few client helpers."""

from __future__ import annotations

import json
from typing import Any

import httpx
from live_server import ServerProcess
from websockets.sync.client import ClientConnection, connect


class LiveServer(ServerProcess):
    """The server process, with the HTTP and WebSocket helpers the server tests use."""

    # -- helpers for tests ------------------------------------------------
    def post(self, path: str, body: Any) -> httpx.Response:
        return httpx.post(f"{self.base}{path}", json=body, timeout=10)

    def get(self, path: str) -> httpx.Response:
        return httpx.get(f"{self.base}{path}", timeout=10)

    def create(self, seats: list[dict[str, Any]], claim: int | None = None, **config: Any) -> dict[str, Any]:
        body = {"game": "digging", "players": len(seats), "seats": seats, **config}
        if claim is not None:
            body["claim"] = claim
        r = self.post("/api/tables", body)
        assert r.status_code == 201, r.text
        return r.json()

    def ws(self, table_id: str) -> ClientConnection:
        return connect(f"ws://127.0.0.1:{self.port}/api/tables/{table_id}/ws", open_timeout=30, max_size=None)


def send(ws: ClientConnection, message: dict[str, Any]) -> None:
    ws.send(json.dumps(message))


def receive(ws: ClientConnection, timeout: float = 60) -> dict[str, Any]:
    return json.loads(ws.recv(timeout=timeout))


def answer(ws: ClientConnection, timeout: float = 60) -> dict[str, Any]:
    """The next message that is not an update: the answer to what was sent. (A presence update,
    a socket closed just before, say, may be handled late on a busy machine and come first.)"""
    while (msg := receive(ws, timeout))["type"] == "update":
        pass
    return msg


BOTS = {"kind": "bot", "bot": "random"}
HUMAN = {"kind": "human"}
