"""A failure the server did not expect (here, a database it cannot write to) answers each
request with a JSON 500, and is logged once a minute, not once a request."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from live import BOTS, HUMAN, LiveServer

from goldfields.server.limits import Quiet


def test_a_database_that_cannot_be_written_gives_json_500s_and_one_traceback(tmp_path: Path) -> None:
    db, log = tmp_path / "goldfields.db", tmp_path / "server.log"
    server = LiveServer(db, log=log).start()
    try:
        assert server.post("/api/tables", {"game": "digging", "seats": [HUMAN, BOTS]}).status_code == 201
        # Another program holds the database's write lock: every write waits for it, then fails.
        blocker = sqlite3.connect(db, timeout=0)
        blocker.execute("BEGIN EXCLUSIVE")
        try:
            for _ in range(3):
                r = server.post("/api/tables", {"game": "digging", "seats": [HUMAN, BOTS]})
                assert r.status_code == 500, r.text
                assert r.json()["code"] == "server" and "nothing changed" in r.json()["message"]
                assert r.headers["x-content-type-options"] == "nosniff"  # still inside the security headers
        finally:
            blocker.rollback()
            blocker.close()
        # The lock is gone: the server carries on.
        assert server.post("/api/tables", {"game": "digging", "seats": [HUMAN, BOTS]}).status_code == 201
    finally:
        server.stop()
    text = log.read_text()
    # One report of the three failures, with its traceback; none from the server underneath.
    assert text.count("POST /api/tables failed") == 1 and "database is locked" in text, text[-3000:]
    assert "Exception in ASGI application" not in text
    # Nor what the statement held: a table's secret seeds its chance, a deal's step is the deck.
    assert "[SQL parameters hidden due to hide_parameters=True]" in text and "[parameters:" not in text


def test_quiet_counts_the_lines_it_left_out_by_kind() -> None:
    quiet = Quiet("1/minute")
    assert quiet.allow("a") and quiet.allow("b")
    assert not quiet.allow("a") and not quiet.allow("a") and not quiet.allow("b")
    assert quiet.left_out("a") == 2 and quiet.left_out("a") == 0 and quiet.left_out("b") == 1
