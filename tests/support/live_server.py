"""A real goldfields server process on localhost with a real SQLite file, for tests.

Shared by the server tests and the browser tests: the app runs in its own
process (uvicorn), so a test can kill it with SIGKILL as a crash would.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from server_forks import Forked, fork_server

SERVER = """
import socket, sys
# The port first, before the slow imports: the parent waits for the file this writes before it
# asks for /api/health, so a port another process took meanwhile is a failed start (status 98),
# never that process answering for this one.
sock = socket.socket()
sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
try:
    sock.bind(("127.0.0.1", int(sys.argv[2])))
except OSError:
    sys.exit(98)
# As `goldfields serve` listens: the system drops a peer that takes no data for send_timeout.
import json
from goldfields.server.listen import give_up_after
give_up_after(sock, json.loads(sys.argv[3]).get("send_timeout", 30.0))
sock.listen(2048)
open(sys.argv[4], "w").close()
import importlib, os, uvicorn
for name in filter(None, os.environ.get("GOLDFIELDS_TEST_PLUGINS", "").split(",")):
    # A module of the test suite's that registers a game (the toy game), as a plug-in would.
    sys.path.insert(0, os.environ["GOLDFIELDS_TEST_SUPPORT"])
    importlib.import_module(name).register_toy()
import json
from goldfields.server.app import create_app
from goldfields.server.tables import Settings
url, settings = sys.argv[1], json.loads(sys.argv[3])
app = create_app(url, Settings(**settings))
config = uvicorn.Config(app, ws_max_size=1 << 20, ws_per_message_deflate=False, log_level="warning")
uvicorn.Server(config).run(sockets=[sock])
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerProcess:
    """``db`` is an SQLite file, or any SQLAlchemy URL; ``settings`` are more fields of the
    server's Settings; ``env`` more environment variables (such as a crash point); ``log``
    a file for the server's output."""

    def __init__(
        self,
        db: Path | str,
        bot_delay: float = 0.0,
        grace: float = 30.0,
        plugins: tuple[str, ...] = (),
        env: dict[str, str] | None = None,
        log: Path | None = None,
        **settings: object,
    ) -> None:
        self.db = db
        self.plugins = plugins
        self.url = f"sqlite:///{db}" if isinstance(db, Path) else db
        # Rate limits off unless a test turns them on: every test client is the same address.
        self.settings = {
            "bot_delay": bot_delay,
            "grace_seconds": grace,
            "bot_seconds": 0.05,
            "analysis_seconds": 0.01,
            "rate_limits": False,
            **settings,
        }
        self.env = env or {}
        self.log = log
        self.port = free_port()
        self.started = False
        self.proc: subprocess.Popen[bytes] | Forked | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        """Start the server and wait until it answers. A first start whose port another process
        took since :func:`free_port` chose it tries another; a restart keeps its port (clients
        come back to it), so there it is an error."""
        for _ in range(5):
            if self._launch():
                self.started = True
                return self._wait_until_healthy()
            if self.started:
                raise RuntimeError(f"port {self.port} was taken while the server was down")
            self.port = free_port()
        raise RuntimeError("no free port for the server after 5 tries")

    def _launch(self) -> bool:
        """Run the server process; False when its port was taken before it could bind it."""
        bound = Path(tempfile.mkdtemp()) / "bound"
        argv = [self.url, str(self.port), json.dumps(self.settings), str(bound)]
        env = {
            **os.environ,
            **self.env,
            "PYTHONUNBUFFERED": "1",
            "GOLDFIELDS_TEST_PLUGINS": ",".join(self.plugins),
            "GOLDFIELDS_TEST_SUPPORT": str(Path(__file__).parent),
        }
        # The server's log, for tests that read it; else this process's output, as pytest has it now.
        with self.log.open("ab") if self.log is not None else contextlib.nullcontext() as out:
            forks = fork_server()
            if forks is not None:
                # Without a log, fds 1 and 2 as a subprocess would inherit them.
                out_fd, err_fd = (out.fileno(), out.fileno()) if out is not None else (1, 2)
                self.proc = forks.launch(SERVER, argv, env, out_fd, err_fd)
            else:
                self.proc = subprocess.Popen(
                    [sys.executable, "-c", SERVER, *argv],
                    stdout=out,
                    stderr=subprocess.STDOUT if out is not None else None,
                    env=env,
                )
        deadline = time.time() + 90  # generous: a loaded 2-core machine starts Python slowly
        try:
            while not bound.exists():
                code = self.proc.poll()
                if code == 98:
                    return False
                if code is not None:
                    raise RuntimeError(f"the server exited at start with status {code}")
                if time.time() > deadline:
                    raise RuntimeError("the server did not start")
                time.sleep(0.05)
            return True
        finally:
            bound.unlink(missing_ok=True)
            bound.parent.rmdir()

    def _wait_until_healthy(self) -> ServerProcess:
        assert self.proc is not None
        # Generous: a loaded 2-core machine can take a while to import everything.
        deadline = time.time() + 90
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited at start with status {self.proc.returncode}")
            try:
                if httpx.get(f"{self.base}/api/health", headers=self._host(), timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def _host(self) -> dict[str, str]:
        """A Host header the server answers to, when it answers only some."""
        hosts = self.settings.get("allowed_hosts")
        return {"Host": hosts[0]} if isinstance(hosts, list | tuple) and "*" not in hosts else {}

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
                self.proc.wait(5)
