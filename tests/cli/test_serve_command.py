"""``goldfields serve`` on bad input: one clear line, exit status 2, and never a password."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SECRET = "s3cret-pw"
EXE = shutil.which("goldfields") or str(Path(sys.executable).with_name("goldfields"))


def serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [EXE, "serve", *args], capture_output=True, text=True, timeout=120
    )


def test_an_unreachable_database_is_named_with_its_password_hidden() -> None:
    pytest.importorskip("psycopg")
    done = serve("--database", f"postgresql+psycopg://someone:{SECRET}@127.0.0.1:1/none", "--port", "1")
    out = done.stdout + done.stderr
    assert done.returncode == 2, out
    assert SECRET not in out
    assert "postgresql+psycopg://someone:***@127.0.0.1:1/none" in " ".join(out.split())
    assert "Traceback" not in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--database", "nonsense"], "is not a database URL"),
        (["--create-rate", "lots"], "is not a rate"),
    ],
)
def test_bad_settings_are_refused_in_one_line(args: list[str], message: str) -> None:
    done = serve(*args)
    out = " ".join((done.stdout + done.stderr).split())
    assert done.returncode == 2 and message in out and "Traceback" not in out


def test_a_port_in_use_is_refused_before_serving_is_announced() -> None:
    pytest.importorskip("uvicorn")
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = serve("--port", str(port), "--database", "sqlite://")
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"cannot listen on 127.0.0.1:{port}:" in done.stderr
    assert "serving at" not in done.stdout and "Traceback" not in done.stderr


def test_the_server_starts_and_answers(tmp_path: Path) -> None:
    # The command the README's quick start runs, with its database file. Port 0 lets the system
    # choose a free port, so no other test's server can be given the same one meanwhile.
    pytest.importorskip("uvicorn")
    import queue
    import re
    import threading

    import httpx

    proc = subprocess.Popen([EXE, "serve", "--port", "0", "--database", f"sqlite:///{tmp_path / 'g.db'}"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "COLUMNS": "300"})  # fmt: skip
    lines: queue.Queue[str] = queue.Queue()
    assert proc.stdout is not None
    threading.Thread(target=lambda: [lines.put(line) for line in proc.stdout], daemon=True).start()  # type: ignore[union-attr]
    try:
        # Generous: a loaded machine imports slowly.
        first = lines.get(timeout=120)
        match = re.search(r"serving at http://localhost:(\d+)/", first)
        assert match and match.group(1) != "0", first
        games = httpx.get(f"http://127.0.0.1:{match.group(1)}/api/games", timeout=30)
        assert games.status_code == 200 and {g["name"] for g in games.json()} >= {"digging", "digger"}
    finally:
        proc.terminate()
        proc.wait(timeout=60)
