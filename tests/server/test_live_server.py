"""The test suite's own live server: a port taken by another process is never mistaken for it."""

from __future__ import annotations

import socket
from pathlib import Path

from live import LiveServer


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
