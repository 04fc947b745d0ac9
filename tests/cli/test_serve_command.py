"""``goldfields serve`` on bad input: one clear line, exit status 2, and never a password."""

from __future__ import annotations

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
    # The command the README's quick start runs, with its database file, on a free port.
    pytest.importorskip("uvicorn")
    import socket
    import time

    import httpx

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proc = subprocess.Popen([EXE, "serve", "--port", str(port), "--database", f"sqlite:///{tmp_path / 'g.db'}"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        deadline = time.monotonic() + 120  # generous: a loaded machine imports slowly
        while True:
            assert proc.poll() is None, proc.communicate()
            try:
                games = httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=5)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.2)
        assert games.status_code == 200 and {g["name"] for g in games.json()} >= {"digging", "digger"}
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=60)
    assert f"serving at http://localhost:{port}/" in " ".join(out.split())
