"""The test suite's own live server: a port taken by another process is never mistaken for it,
and a server forked from the suite's fork server is the server a fresh interpreter runs."""

from __future__ import annotations

import signal
import socket
import subprocess
from pathlib import Path

import pytest
from live import LiveServer
from server_forks import Forked


def test_a_port_taken_before_the_server_binds_it_is_traded_for_another(tmp_path: Path) -> None:
    # Tests on two workers choose ports the same way; another process may take the chosen one
    # before this server binds it. Its answer to /api/health must not pass for this server's.
    live = LiveServer(tmp_path / "goldfields.db")
    with socket.socket() as squatter:
        squatter.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        squatter.bind(("127.0.0.1", live.port))
        squatter.listen()
        taken = live.port
        live.start()
        try:
            assert live.port != taken
            assert live.get("/api/health").status_code == 200
        finally:
            live.stop()


def test_a_forked_server_answers_as_a_fresh_interpreter_does(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The suite forks its servers from a process that imported the server once (server_forks.py).
    # What they answer must not depend on that: the same games, bots and settings as a server
    # started the slow way, in a fresh interpreter.
    forked = LiveServer(tmp_path / "forked.db").start()
    try:
        assert isinstance(forked.proc, Forked)
        answers = [forked.get(path).json() for path in ("/api/games", "/api/tables")]
    finally:
        forked.stop()
    monkeypatch.setenv("GOLDFIELDS_TEST_SERVER_FORKS", "0")
    fresh = LiveServer(tmp_path / "fresh.db").start()
    try:
        assert isinstance(fresh.proc, subprocess.Popen)
        assert [fresh.get(path).json() for path in ("/api/games", "/api/tables")] == answers
    finally:
        fresh.stop()


def test_a_forked_server_exits_and_takes_signals_as_a_subprocess_would(tmp_path: Path) -> None:
    # (Its log reaches the file a test names: test_limits.py reads what garbage writes there.)
    live = LiveServer(tmp_path / "goldfields.db").start()
    assert live.proc is not None and live.proc.poll() is None
    pid = live.proc.pid
    assert Path(f"/proc/{pid}/status").exists()  # a process of its own
    live.kill()
    assert live.proc.poll() == -signal.SIGKILL and live.proc.wait(10) == -signal.SIGKILL
    live.proc.kill()  # after the end, as with Popen, signalling is a no-op, never another process's pid

    # A server that cannot start gives uvicorn's exit status for that (3), as its own process would.
    broken = LiveServer(tmp_path / "no-such-dir" / "x" / "goldfields.db")
    with pytest.raises(RuntimeError, match="exited at start with status 3"):
        broken.start()
