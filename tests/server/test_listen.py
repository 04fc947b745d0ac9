"""``goldfields serve --host NAME`` listens on every address the name stands for: a browser
that resolves ``localhost`` to ::1 reaches the server as well as one that resolves it to
127.0.0.1. A real server process, and the listening sockets themselves."""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from goldfields.server.listen import ListenError, listen

EXE = shutil.which("goldfields") or str(Path(sys.executable).with_name("goldfields"))


def has_ipv6_loopback() -> bool:
    if not socket.has_ipv6:
        return False
    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
    except OSError:
        return False
    return True


def free_on_both() -> int:
    """A port free on 127.0.0.1 (and on ::1, where there is one), found by listening on both."""
    held = listen("localhost", 0)
    port = held.port
    held.close()
    return port


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[int, list[str]]]:
    """``goldfields serve --host localhost --port 0``: its port and the lines it printed at start."""
    # stderr (uvicorn's log) goes to a file: a pipe nobody reads would stop the server once full.
    log = (tmp_path / "stderr.log").open("w")
    proc = subprocess.Popen([EXE, "serve", "--host", "localhost", "--port", "0", "--bot-delay", "0",
                             "--database", f"sqlite:///{tmp_path / 'g.db'}"],
                            stdout=subprocess.PIPE, stderr=log, text=True,
                            env={**os.environ, "COLUMNS": "300"})  # fmt: skip
    lines: queue.Queue[str] = queue.Queue()
    assert proc.stdout is not None
    out = proc.stdout
    threading.Thread(target=lambda: [lines.put(line) for line in out], daemon=True).start()
    try:
        seen = [lines.get(timeout=120)]  # generous: a loaded machine imports slowly
        match = re.search(r"serving at http://localhost:(\d+)/", seen[0])
        assert match, seen
        while not seen[-1].startswith("Open that address"):
            seen.append(lines.get(timeout=30))
        yield int(match.group(1)), seen
    finally:
        proc.terminate()
        proc.wait(timeout=60)
        log.close()


def test_localhost_is_served_on_127_0_0_1_and_on_ipv6_loopback(served: tuple[int, list[str]]) -> None:
    port, printed = served
    loopbacks = ["127.0.0.1"] + (["::1"] if has_ipv6_loopback() else [])
    listening = next(line for line in printed if line.startswith("Listening on "))
    for address in loopbacks:
        shown = f"[{address}]" if ":" in address else address
        assert f"{shown}:{port}" in listening, printed
        # The page, the API and a table's live socket, over each address.
        assert httpx.get(f"http://{shown}:{port}/", timeout=30).status_code == 200
        created = httpx.post(f"http://{shown}:{port}/api/tables", timeout=30, json={
            "game": "digging", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}], "claim": 0})  # fmt: skip
        assert created.status_code == 201, created.text
        body: dict[str, Any] = created.json()
        with connect(f"ws://{shown}:{port}/api/tables/{body['table']['id']}/ws", open_timeout=30) as ws:
            ws.send(json.dumps({"type": "hello", "seat": 0, "token": body["you"]["token"]}))
            assert json.loads(ws.recv(timeout=30))["type"] == "update"
    if not has_ipv6_loopback():
        pytest.skip("this machine has no IPv6 loopback: 127.0.0.1 alone was checked")


def test_every_address_gets_the_same_port_even_a_free_one_chosen_by_the_system() -> None:
    listening = listen("localhost", 0)
    try:
        ports = {s.getsockname()[1] for s in listening.sockets}
        assert ports == {listening.port} and listening.port != 0
        families = {s.family for s in listening.sockets}
        assert socket.AF_INET in families
        assert (socket.AF_INET6 in families) == has_ipv6_loopback()
    finally:
        listening.close()


def test_a_port_in_use_on_one_address_is_refused_and_leaves_nothing_bound() -> None:
    port = free_on_both()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", port))
        taken.listen()
        with pytest.raises(ListenError, match=rf"^cannot listen on 127\.0\.0\.1:{port}: "):
            listen("localhost", port)
    # The other address was let go: the port can be had again on both.
    listen("localhost", port).close()


def test_an_address_this_machine_lacks_is_skipped_and_named(monkeypatch: pytest.MonkeyPatch) -> None:
    # A name that stands for this machine's loopback and for a documentation address (RFC 5737)
    # that no machine has, as a name with a stale DNS record would.
    real = socket.getaddrinfo

    def two(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host != "twofold.test":
            return real(host, port, *args, **kwargs)
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port)) for a in ("192.0.2.7", "127.0.0.1")]

    monkeypatch.setattr(socket, "getaddrinfo", two)
    listening = listen("twofold.test", 0)
    try:
        assert listening.addresses() == [f"127.0.0.1:{listening.port}"]
        assert len(listening.skipped) == 1 and listening.skipped[0].startswith("192.0.2.7:")
    finally:
        listening.close()


@pytest.mark.parametrize(
    ("host", "reason"),
    [
        ("192.0.2.7", "cannot listen on 192.0.2.7:0: "),
        ("no-such-host.invalid", "cannot listen on no-such-host.invalid:0: "),
    ],
)
def test_a_name_with_no_address_of_this_machine_is_one_clear_error(host: str, reason: str) -> None:
    with pytest.raises(ListenError) as refused:
        listen(host, 0)
    assert str(refused.value).startswith(reason) and "\n" not in str(refused.value)


def test_the_command_says_so_in_one_line_and_status_2(tmp_path: Path) -> None:
    done = subprocess.run([EXE, "serve", "--host", "192.0.2.7", "--database", f"sqlite:///{tmp_path / 'g.db'}"],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 2, done.stdout + done.stderr
    assert "cannot listen on 192.0.2.7:8000:" in done.stderr and "Traceback" not in done.stderr
    assert "serving at" not in done.stdout
