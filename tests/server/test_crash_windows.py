"""Crash atomicity: the server is killed (SIGKILL) inside each window of a table's creation,
a seat claim, the start of a game and its end, on each database; the restarted server
always holds a consistent table that plays on.

The server kills itself at a named point when ``GOLDFIELDS_CRASH_AT`` names it (see
goldfields.server.store.CRASH_VARIABLE): just before a transaction commits, or just after.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from live import BOTS, HUMAN, LiveServer, receive, send

from goldfields.records import replay
from goldfields.server.store import CRASH_VARIABLE


def crashing(database: Path | str, point: str) -> LiveServer:
    return LiveServer(database, env={CRASH_VARIABLE: point}).start()


def died(server: LiveServer, request: Any) -> None:
    """Make ``request``, which must kill the server before it answers."""
    with pytest.raises(httpx.TransportError):
        request()
    assert server.proc is not None
    assert server.proc.wait(30) == -9  # SIGKILL, at the crash point


def wait_status(server: LiveServer, table_id: str, status: str, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while server.get(f"/api/tables/{table_id}").json()["status"] != status:
        assert time.monotonic() < deadline, f"table {table_id} never became {status}"
        time.sleep(0.1)


def test_a_crash_before_a_new_table_commits_leaves_no_trace(database: Path | str) -> None:
    server = crashing(database, "create:before-commit")
    died(server, lambda: server.post("/api/tables", {"game": "digging", "seats": [HUMAN, BOTS], "claim": 0}))
    server = LiveServer(database).start()
    try:
        assert server.get("/api/tables").json() == []
        assert server.get("/api/tables?status=finished").json() == []
    finally:
        server.stop()


@pytest.mark.parametrize("seats", [[BOTS, BOTS], [HUMAN, BOTS]], ids=["bots", "creator-claims-the-last-seat"])
def test_a_crash_after_a_new_table_commits_leaves_a_started_game(database: Path | str, seats: list[Any]) -> None:
    server = crashing(database, "create:after-commit")
    claim = 0 if seats[0] == HUMAN else None
    body = {"game": "digging", "seats": seats, **({"claim": claim} if claim is not None else {})}
    died(server, lambda: server.post("/api/tables", body))
    server = LiveServer(database).start()
    try:
        (table,) = server.get("/api/tables").json()
        # Table, seats, the claim and the start were one transaction: the game is under way.
        assert table["status"] == "playing"
        assert not any(s["open"] for s in table["seats"])
        if claim is None:
            wait_status(server, table["id"], "finished")
        else:
            assert server.get(f"/api/tables/{table['id']}").json()["seq"] >= 1  # dealt on restore
    finally:
        server.stop()


@pytest.mark.parametrize("point", ["claim:before-commit", "claim:after-commit"])
def test_a_crash_in_the_claim_that_starts_a_game(database: Path | str, point: str) -> None:
    server = crashing(database, point)
    created = server.create([HUMAN, HUMAN], claim=0)  # no claim point is passed on the way
    tid, token = created["table"]["id"], created["you"]["token"]
    died(server, lambda: server.post(f"/api/tables/{tid}/seats/1/claim", {"name": "bea"}))
    server = LiveServer(database).start()
    try:
        table = server.get(f"/api/tables/{tid}").json()
        if point == "claim:before-commit":
            # Nothing of the claim was kept: the seat is open and the game has not started.
            assert table["status"] == "waiting" and table["seats"][1]["open"]
            r = server.post(f"/api/tables/{tid}/seats/1/claim", {"name": "bea"})
            assert r.status_code == 200, r.text
        else:
            # The claim and the start were one transaction: never a full table that does not start.
            assert table["status"] == "playing" and not table["seats"][1]["open"]
        with server.ws(tid) as ws:
            send(ws, {"type": "hello", "seat": 0, "token": token})
            msg = receive(ws)
            while not (msg["type"] == "update" and msg["table"]["status"] == "playing" and msg["view"]["legal"]):
                if msg["type"] == "update" and msg["view"]["to_move"] == 1:
                    break  # seat 1 to move first: the game is on
                msg = receive(ws)
            assert msg["seq"] >= 1
    finally:
        server.stop()


def test_a_crash_as_a_game_ends_keeps_the_end_and_the_record(database: Path | str) -> None:
    server = crashing(database, "finish:before-commit")
    tid = server.create([BOTS, BOTS])["table"]["id"]
    assert server.proc is not None
    assert server.proc.wait(180) == -9  # the bots play to the end; the server dies storing it
    server = LiveServer(database).start()
    try:
        wait_status(server, tid, "finished")
        report, status = replay(server.get(f"/api/tables/{tid}/record").json())
        assert status == 0 and report["error"] is None
    finally:
        server.stop()
