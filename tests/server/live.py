"""A real goldfields server on localhost, with a real SQLite file, and a few client helpers."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

SERVER = """
import sys, uvicorn
from goldfields.server.app import create_app
from goldfields.server.tables import Settings
url, port, delay, grace = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
app = create_app(url, Settings(bot_delay=delay, grace_seconds=grace, bot_seconds=0.05))
uvicorn.run(app, host="127.0.0.1", port=port, ws_max_size=1 << 20, log_level="warning")
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    def __init__(self, db: Path, bot_delay: float = 0.0, grace: float = 30.0) -> None:
        self.db = db
        self.url = f"sqlite:///{db}"
        self.bot_delay = bot_delay
        self.grace = grace
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> LiveServer:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", SERVER, self.url, str(self.port), str(self.bot_delay), str(self.grace)],
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        deadline = time.time() + 90
        while time.time() < deadline:
            try:
                if httpx.get(f"{self.base}/api/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as in a crash."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()

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
        return connect(f"ws://127.0.0.1:{self.port}/api/tables/{table_id}/ws", open_timeout=10, max_size=None)


def send(ws: ClientConnection, message: dict[str, Any]) -> None:
    ws.send(json.dumps(message))


def receive(ws: ClientConnection, timeout: float = 20) -> dict[str, Any]:
    return json.loads(ws.recv(timeout=timeout))


BOTS = {"kind": "bot", "bot": "random"}
HUMAN = {"kind": "human"}
