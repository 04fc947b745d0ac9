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
import contextlib
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
# message per server (with a launch number) and two file descriptors (stdout, stderr); the fork
# server answers with the child's pid, or an error. When a child ends, its exit code goes into
# ``<status dir>/<launch number>``, written before the child is reaped, so that while no file is
# there the pid is still the child's (a zombie at worst), never another process's.
FORK_SERVER = r"""
import ctypes, json, os, select, signal, socket, sys, traceback

signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the test process's to handle, and its servers'
fd, status_dir, preload = int(sys.argv[1]), sys.argv[2], sys.argv[3].split(",")
channel = socket.socket(fileno=fd)
import importlib
for name in filter(None, preload):
    importlib.import_module(name)
children = {}  # pid: launch number
PR_SET_PDEATHSIG = 1
libc = ctypes.CDLL(None, use_errno=True)


def record_ended():
    while True:
        try:
            info = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return
        if info is None:
            return
        code = info.si_status if info.si_code == os.CLD_EXITED else -info.si_status
        path = os.path.join(status_dir, str(children.pop(info.si_pid, f"pid-{info.si_pid}")))
        with open(path + ".tmp", "w") as f:
            f.write(str(code))
        os.replace(path + ".tmp", path)
        os.waitpid(info.si_pid, 0)


def child(request, fds):
    code = 1
    try:
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # the fork server gone (killed): so is this server
        if os.getppid() != fork_server:  # it went between the fork and the prctl, too soon to signal
            os._exit(1)
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
            if isinstance(stop.code, str):
                print(stop.code, file=sys.stderr)
            code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
        except KeyboardInterrupt:  # ends by SIGINT, as the fresh interpreter's would (-2)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGINT)
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
    try:
        request = json.loads(message)
        fork_server = os.getpid()
        pid = os.fork()
        if pid == 0:
            child(request, fds)
        children[pid] = int(request["launch"])
        reply = {"pid": pid}
    except Exception as err:  # a request it cannot serve is refused, and the next served
        reply = {"error": f"{type(err).__name__}: {err}"}
    for f in fds:
        os.close(f)
    channel.send(json.dumps(reply).encode())
"""

# What a server imports before it listens, so that a child finds it already loaded. Keep in
# step with live_server.SERVER: a module left out here is only imported later, in each child.
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
        if self.returncode is None:
            if self._status.exists():
                self.returncode = int(self._status.read_text())
            elif not Path(f"/proc/{self.pid}").exists():
                # The fork server writes the status, then reaps: both may have come between the two
                # looks above (a server that exits at once, its port taken), so look again.
                if self._status.exists():
                    self.returncode = int(self._status.read_text())
                else:
                    # Reaped with no status written: the fork server was killed, and this server
                    # with it (its parent-death signal).
                    self.returncode = -signal.SIGKILL
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
            with contextlib.suppress(ProcessLookupError):  # it has just ended, as Popen allows
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
        self._launches = 0

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

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    def launch(self, script: str, argv: list[str], env: dict[str, str], out: int, err: int) -> Forked:
        with self._lock:
            self._launches += 1
            request = {"script": script, "argv": argv, "env": env, "cwd": os.getcwd(), "launch": self._launches}
            channel = self._ensure()
            try:
                socket.send_fds(channel, [json.dumps(request).encode()], [out, err])
                reply = json.loads(channel.recv(4096))
            except (OSError, ValueError):
                # A reply that came late would be read as the next launch's: start afresh.
                self._stop()
                raise
            if "error" in reply:
                raise RuntimeError(f"the fork server could not start a server: {reply['error']}")
        return Forked(reply["pid"], self._status / str(self._launches))

    def _stop(self) -> None:
        if self._channel is not None:
            self._channel.close()  # the fork server kills what is left and exits
            self._channel = None
        if self._proc is not None:
            try:
                self._proc.wait(10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait(10)
            self._proc = None

    def close(self) -> None:
        self._stop()
        if self._status.exists():
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
