"""The test suite's own live server: a port taken by another process is never mistaken for it,
and a server forked from the suite's fork server is the server a fresh interpreter runs."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
from pathlib import Path

import pytest
from live import LiveServer
from server_forks import Forked, fork_server


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
    # A plug-in game (registered from the environment the test gives) and a setting of its own
    # make the answers depend on what reached the child.
    if fork_server() is None:
        pytest.skip("no fork server here (GOLDFIELDS_TEST_SERVER_FORKS=0, or not Linux)")
    answers = []
    for forks in ("1", "0"):
        monkeypatch.setenv("GOLDFIELDS_TEST_SERVER_FORKS", forks)
        live = LiveServer(tmp_path / f"{forks}.db", plugins=("toy",), max_live_tables=1).start()
        try:
            assert isinstance(live.proc, Forked if forks == "1" else subprocess.Popen)
            games = live.get("/api/games").json()
            assert "toy" in {g["name"] for g in games}
            body = {"game": "digging", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}
            made = [live.post("/api/tables", body) for _ in range(2)]  # the second past the cap
            answers.append([games, [r.status_code for r in made], made[1].json()["code"]])
        finally:
            live.stop()
    assert answers[0] == answers[1]


def test_a_forked_server_exits_and_takes_signals_as_a_subprocess_would(tmp_path: Path) -> None:
    # (Its log reaches the file a test names: test_limits.py reads what garbage writes there.)
    live = LiveServer(tmp_path / "goldfields.db").start()
    assert live.proc is not None and live.proc.poll() is None
    pid = live.proc.pid
    forks = fork_server()
    assert forks is not None and forks.pid is not None and pid != forks.pid
    lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    assert f"PPid:\t{forks.pid}" in lines  # a process of its own, forked by the fork server
    live.kill()
    assert live.proc.poll() == -signal.SIGKILL and live.proc.wait(10) == -signal.SIGKILL
    live.proc.kill()  # after the end, as with Popen, signalling is a no-op, never another process's pid

    # A server that cannot start gives uvicorn's exit status for that (3), as its own process would.
    broken = LiveServer(tmp_path / "no-such-dir" / "x" / "goldfields.db")
    with pytest.raises(RuntimeError, match="exited at start with status 3"):
        broken.start()


def test_a_forked_server_ends_by_sigint_as_a_subprocess_would_and_goes_with_its_fork_server(tmp_path: Path) -> None:
    live = LiveServer(tmp_path / "a.db").start()
    assert live.proc is not None
    live.proc.send_signal(signal.SIGINT)
    assert live.proc.wait(60) == -signal.SIGINT  # uvicorn stops, then ends by the signal it was sent

    # A fork server killed (a test process's Ctrl-C, a crash) takes its servers with it, and a
    # test waiting for one is told it ended; the next server comes from a new fork server.
    live = LiveServer(tmp_path / "b.db").start()
    forks = fork_server()
    assert forks is not None and forks.pid is not None and live.proc is not None
    killed = forks.pid
    os.kill(killed, signal.SIGKILL)
    assert live.proc.wait(60) == -signal.SIGKILL
    live.stop()
    again = LiveServer(tmp_path / "c.db").start()
    try:
        assert again.get("/api/health").status_code == 200 and forks.pid not in (None, killed)
    finally:
        again.stop()
