"""Server processes forked from one that has already imported the server.

Most of a test server's start-up is Python importing FastAPI, SQLAlchemy, Alembic and the
bots: about 2 s on an idle machine, twice that on a busy one, and the suite starts a few
hundred servers. So each test process keeps one *fork server*, a plain Python process that
imports those modules once and then forks a child for each server a test asks for.

Each child is still a real server in a process of its own: it binds its own port, opens its
own database, and runs the same script as a freshly started interpreter would (``script``,
with its own ``sys.argv`` and environment). A test signals it, kills it and waits for it by
its pid, as it would a subprocess.

The fork server is single-threaded and forks before anything runs an event loop, opens a
database or starts a thread, which is what makes forking it safe. The server's bot pool
starts its workers with ``spawn``, so they are fresh interpreters as before.

Output: each request carries the test process's current stdout and stderr (pytest points
them at the running test's capture), so a server's traceback shows in the report of the
test that started it, as it would from a subprocess.
"""

from __future__ import annotations

import atexit
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

# The fork server. Protocol, over a SOCK_SEQPACKET pair: the test process sends one JSON
# message per server with two file descriptors (stdout, stderr); the fork server answers with
# the child's pid. When a child ends, its exit code goes into ``<status dir>/<pid>``, written
# before the child is reaped, so that while no file is there the pid is still the child's.
FORK_SERVER = r"""
import json, os, select, signal, socket, sys, traceback

fd, status_dir, preload = int(sys.argv[1]), sys.argv[2], sys.argv[3].split(",")
channel = socket.socket(fileno=fd)
import importlib
for name in filter(None, preload):
    importlib.import_module(name)
children = set()


def record_ended():
    while True:
        try:
            info = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return
        if info is None:
            return
        code = info.si_status if info.si_code == os.CLD_EXITED else -info.si_status
        path = os.path.join(status_dir, str(info.si_pid))
        with open(path + ".tmp", "w") as f:
            f.write(str(code))
        os.replace(path + ".tmp", path)
        os.waitpid(info.si_pid, 0)
        children.discard(info.si_pid)


def child(request, fds):
    code = 1
    try:
        channel.close()
        os.dup2(fds[0], 1)
        os.dup2(fds[1], 2)
        for f in fds:
            os.close(f)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        os.environ.clear()
        os.environ.update(request["env"])
        os.chdir(request["cwd"])
        sys.argv = ["-c", *request["argv"]]
        try:
            exec(compile(request["script"], "<server>", "exec"), {"__name__": "__main__"})
            code = 0
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
        except BaseException:
            traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
        os._exit(code)


channel.send(b"ready")
while True:
    readable, _, _ = select.select([channel], [], [], 0.05)
    record_ended()
    if not readable:
        continue
    message, fds, _, _ = socket.recv_fds(channel, 1 << 20, 2)
    if not message:  # the test process has gone: so do its servers
        for pid in list(children):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        record_ended()
        break
    request = json.loads(message)
    pid = os.fork()
    if pid == 0:
        child(request, fds)
    for f in fds:
        os.close(f)
    children.add(pid)
    try:
        os.unlink(os.path.join(status_dir, str(pid)))  # a file left by an earlier process with this pid
    except FileNotFoundError:
        pass
    channel.send(json.dumps({"pid": pid}).encode())
"""

# What a server imports before it listens, so that a child finds it already loaded.
PRELOAD = (
    "goldfields.server.app",
    "goldfields.server.listen",
    "goldfields.bots.registry",
    "uvicorn",
    "uvicorn.loops.auto",
    "uvicorn.protocols.http.auto",
    "uvicorn.protocols.websockets.auto",
    "uvicorn.lifespan.on",
)


class Forked:
    """A forked server process, with the parts of :class:`subprocess.Popen` the tests use."""

    def __init__(self, pid: int, status: Path) -> None:
        self.pid = pid
        self._status = status
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None and self._status.exists():
            self.returncode = int(self._status.read_text())
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while (code := self.poll()) is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"server {self.pid}", timeout or 0)
            time.sleep(0.02)
        return code

    def send_signal(self, sig: int) -> None:
        # No status file yet: the pid is still this child's (a zombie at worst), never reused.
        if self.poll() is None:
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class ForkServer:
    """One per test process, started on first use."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._channel: socket.socket | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._status = Path(tempfile.mkdtemp(prefix="goldfields-forks-"))

    def _ensure(self) -> socket.socket:
        if self._channel is not None and self._proc is not None and self._proc.poll() is None:
            return self._channel
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self._proc = subprocess.Popen(
            [sys.executable, "-c", FORK_SERVER, str(theirs.fileno()), str(self._status), ",".join(PRELOAD)],
            pass_fds=[theirs.fileno()],
            env=env,
        )
        theirs.close()
        ours.settimeout(120)  # generous: a loaded 2-core machine imports slowly
        if ours.recv(16) != b"ready":
            raise RuntimeError("the fork server did not start")
        self._channel = ours
        return ours

    def launch(self, script: str, argv: list[str], env: dict[str, str], out: int, err: int) -> Forked:
        request = {"script": script, "argv": argv, "env": env, "cwd": os.getcwd()}
        with self._lock:
            channel = self._ensure()
            socket.send_fds(channel, [json.dumps(request).encode()], [out, err])
            pid = json.loads(channel.recv(256))["pid"]
        return Forked(pid, self._status / str(pid))

    def close(self) -> None:
        if self._channel is not None:
            self._channel.close()  # the fork server kills what is left and exits
        if self._proc is not None:
            try:
                self._proc.wait(10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
        for f in self._status.glob("*"):
            f.unlink(missing_ok=True)
        self._status.rmdir()


_forks: ForkServer | None = None


def fork_server() -> ForkServer | None:
    """This process's fork server; None where a fork is not to be had (not Linux) or the
    environment asks for a fresh interpreter per server (``GOLDFIELDS_TEST_SERVER_FORKS=0``)."""
    global _forks
    if not sys.platform.startswith("linux") or os.environ.get("GOLDFIELDS_TEST_SERVER_FORKS") == "0":
        return None
    if _forks is None:
        _forks = ForkServer()
        atexit.register(_forks.close)
    return _forks
