"""``goldfields serve`` on bad input: one clear line, exit status 2, and never a password."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
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


@contextlib.contextmanager
def running(tmp_path: Path, *args: str) -> Iterator[int]:
    """``goldfields serve --port 0`` with ``args``, until the block ends; gives its port."""
    import queue
    import threading

    proc = subprocess.Popen([EXE, "serve", "--port", "0", "--database", f"sqlite:///{tmp_path / 'g.db'}", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "COLUMNS": "300"})  # fmt: skip
    lines: queue.Queue[str] = queue.Queue()
    assert proc.stdout is not None
    threading.Thread(target=lambda: [lines.put(line) for line in proc.stdout], daemon=True).start()  # type: ignore[union-attr]
    try:
        # Generous: a loaded machine imports slowly.
        first = lines.get(timeout=120)
        match = re.search(r"serving at http://(?:localhost|\[::1\]|127\.0\.0\.1):(\d+)/", first)
        assert match and match.group(1) != "0", first
        yield int(match.group(1))
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def test_the_server_starts_and_answers(tmp_path: Path) -> None:
    # The command the README's quick start runs, with its database file. Port 0 lets the system
    # choose a free port, so no other test's server can be given the same one meanwhile.
    pytest.importorskip("uvicorn")
    import httpx

    with running(tmp_path) as port:
        games = httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=30)
        assert games.status_code == 200 and {g["name"] for g in games.json()} >= {"digging", "digger"}


def test_a_proxy_on_this_machine_is_trusted_on_a_dual_stack_socket(tmp_path: Path) -> None:
    # With --host ::, IPv4 arrives as ::ffff:127.0.0.1. Were that not trusted as 127.0.0.1 is,
    # a local proxy's X-Forwarded-For would be ignored and every player counted as the proxy:
    # the whole site would share one client's limits (here, one table a minute).
    pytest.importorskip("uvicorn")
    import httpx

    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
            probe.bind(("::", 0))
    except OSError:
        pytest.skip("this machine has no dual-stack IPv6 socket")
    body = {"game": "digger", "seats": [{"kind": "bot", "bot": "random"}] * 2}
    with running(tmp_path, "--host", "::", "--create-rate", "1/minute") as port:
        for player in ("203.0.113.7", "198.51.100.9"):
            made = httpx.post(f"http://127.0.0.1:{port}/api/tables", json=body, timeout=30,
                              headers={"X-Forwarded-For": player})  # fmt: skip
            assert made.status_code == 201, (player, made.text)
        # The limit still holds for each player.
        again = httpx.post(f"http://127.0.0.1:{port}/api/tables", json=body, timeout=30,
                           headers={"X-Forwarded-For": "198.51.100.9"})  # fmt: skip
        assert again.status_code == 429, again.text


def test_an_ipv4_proxy_is_trusted_in_its_mapped_form_too() -> None:
    from goldfields.cli.serve import trusted_proxies

    assert trusted_proxies("127.0.0.1,::1") == "127.0.0.1,::1,::ffff:127.0.0.1"
    assert trusted_proxies("10.0.0.0/8, lb.internal") == "10.0.0.0/8,lb.internal,::ffff:10.0.0.0/104"
    assert trusted_proxies("*") == "*"
    assert trusted_proxies("127.0.0.1,::ffff:127.0.0.1") == "127.0.0.1,::ffff:127.0.0.1"
