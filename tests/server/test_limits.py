"""The house's limits, against a real server process: rates, caps, sizes, sockets, headers.

Each test starts a server with the limit under test set low, and waits for
events (a reply, a close) with generous timeouts; nothing here depends on how
fast the machine is.
"""

from __future__ import annotations

import contextlib
import json
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from live import BOTS, HUMAN, LiveServer, receive, send
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

MakeServer = Callable[..., LiveServer]


@pytest.fixture
def make_server(database: Path | str) -> Iterator[MakeServer]:
    """A server with the given settings (a limit set low), on each database."""
    started: list[LiveServer] = []

    def start(**settings: object) -> LiveServer:
        live = LiveServer(database, **settings).start()
        started.append(live)
        return live

    yield start
    for live in started:
        live.stop()


def table_body(seats: list[dict[str, str]]) -> dict[str, object]:
    return {"game": "digging", "seats": seats}


def test_creating_tables_too_fast_is_refused_with_429_and_retry_after(make_server: MakeServer) -> None:
    server = make_server(rate_limits=True, create_rate="3/minute")
    for _ in range(3):
        assert server.post("/api/tables", table_body([HUMAN, HUMAN])).status_code == 201
    r = server.post("/api/tables", table_body([HUMAN, HUMAN]))
    assert r.status_code == 429, r.text
    assert r.json()["code"] == "rate_limited" and "3 per 1 minute" in r.json()["message"]
    assert 1 <= int(r.headers["Retry-After"]) <= 60
    assert r.json()["retry_after"] == int(r.headers["Retry-After"])
    assert len(server.get("/api/tables?status=live").json()) == 3


def test_claiming_seats_too_fast_is_refused_with_429(make_server: MakeServer) -> None:
    server = make_server(rate_limits=True, claim_rate="2/minute")
    table = server.create([HUMAN] * 4)["table"]["id"]
    for seat in (0, 1):
        assert server.post(f"/api/tables/{table}/seats/{seat}/claim", {"name": "x"}).status_code == 200
    r = server.post(f"/api/tables/{table}/seats/2/claim", {"name": "x"})
    assert r.status_code == 429 and "Retry-After" in r.headers
    assert server.get(f"/api/tables/{table}").json()["seats"][2]["open"]


def test_moving_too_fast_gets_a_rate_limited_error_on_the_socket(make_server: MakeServer) -> None:
    server = make_server(rate_limits=True, move_rate="1/minute")
    created = server.create([HUMAN, BOTS], claim=0)
    with server.ws(created["table"]["id"]) as ws:
        send(ws, {"type": "hello", "seat": 0, "token": created["you"]["token"]})
        receive(ws)
        codes = []
        for _ in range(2):
            send(ws, {"type": "move", "move": "draw", "seq": 0})
            while (msg := receive(ws))["type"] == "update":
                pass
            codes.append(msg.get("code"))
        # The first is judged by the rules (whatever they say); the second never reaches them.
        assert codes[0] != "rate_limited" and codes[1] == "rate_limited"
        assert msg["retry_after"] >= 1


def test_joining_a_table_too_often_is_refused_and_the_socket_closed_to_try_later(make_server: MakeServer) -> None:
    # Each hello builds and sends the seat's whole game so far: opening and closing sockets must
    # not keep the server doing it at the message rate.
    server = make_server(rate_limits=True, join_rate="3/minute")
    table = server.create([HUMAN, HUMAN])["table"]["id"]
    for _ in range(3):
        with server.ws(table) as ws:
            send(ws, {"type": "hello"})
            assert receive(ws)["type"] == "update"
    with server.ws(table) as ws:
        send(ws, {"type": "hello"})
        refused = receive(ws)
        assert refused["code"] == "rate_limited" and refused["retry_after"] >= 1
        with pytest.raises(ConnectionClosed) as closed:
            receive(ws)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013


def test_live_tables_and_bot_only_tables_have_global_caps(make_server: MakeServer) -> None:
    server = make_server(max_live_tables=3, max_bot_tables=1)
    assert server.post("/api/tables", table_body([BOTS, BOTS])).status_code == 201
    r = server.post("/api/tables", table_body([BOTS, BOTS]))
    assert r.status_code == 503 and r.json()["code"] == "too_many_bot_tables" and "Retry-After" in r.headers
    for _ in range(2):
        assert server.post("/api/tables", table_body([HUMAN, BOTS])).status_code == 201
    r = server.post("/api/tables", table_body([HUMAN, BOTS]))
    assert r.status_code == 503 and r.json()["code"] == "server_full"


def test_one_address_may_have_only_so_many_live_tables(make_server: MakeServer) -> None:
    # Else one address, creating at --create-rate, would soon hold every place under --max-live-tables.
    server = make_server(rate_limits=True, max_tables_per_client=2)
    for _ in range(2):
        assert server.post("/api/tables", table_body([HUMAN, BOTS])).status_code == 201
    r = server.post("/api/tables", table_body([HUMAN, BOTS]))
    assert r.status_code == 429 and r.json()["code"] == "too_many_tables" and "Retry-After" in r.headers
    assert "2 tables waiting or in play" in r.json()["message"]


def rss_kib(server: LiveServer) -> int:
    assert server.proc is not None
    for line in Path(f"/proc/{server.proc.pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def test_a_huge_body_is_refused_with_413_before_it_is_read(make_server: MakeServer) -> None:
    server = make_server(max_body=4096)
    before = rss_kib(server)
    # Announced as 200 MB, and only a little is sent: the answer must come without the rest.
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as s:
        s.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 200000000\r\n\r\n" + b"{" * 1000
        )
        answer = b""
        while b"too_large" not in answer and (chunk := s.recv(65536)):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b"too_large" in answer

    # Streamed (chunked, no length): refused once it passes the limit.
    def chunks() -> Iterator[bytes]:
        for _ in range(50_000):
            yield b" " * 4096  # 200 MB if it were all read

    r = httpx.post(f"{server.base}/api/tables", content=chunks(), timeout=60)
    assert r.status_code == 413 and r.json()["code"] == "too_large"
    assert rss_kib(server) - before < 50_000, "the body was read into memory"
    assert server.get("/api/health").status_code == 200


GARBAGE = [
    ("binary", None),
    ("too_big", json.dumps({"type": "hello", "token": "x" * 20_000})),
    ("too_deep", "[" * 4000 + "]" * 4000),
    ("too_deep", '{"type": "hello", "seat": ' + "[" * 50 + "]" * 50 + "}"),
    ("bad_json", '{"type": "move", "seq": ' + "9" * 4400 + "}"),
    ("bad_text", '{"type": "hello", "seat": 0, "token": "\\ud800"}'),
    ("bad_json", "not json"),
    ("bad_message", '{"type": 5}'),
    ("bad_message", '{"type": "hello", "seat": "zero", "token": 7}'),
]


@pytest.mark.parametrize(("code", "text"), GARBAGE, ids=[f"{c}-{i}" for i, (c, _) in enumerate(GARBAGE)])
def test_websocket_garbage_gets_an_error_and_the_session_goes_on(
    server: LiveServer, code: str, text: str | None
) -> None:
    table = server.create([HUMAN, HUMAN])["table"]["id"]
    with server.ws(table) as ws:
        if text is None:
            ws.send(b"\x00\xff\x00binary")
        else:
            ws.send(text)
        reply = receive(ws)
        assert reply["type"] == "error" and reply["code"] == code, reply
        send(ws, {"type": "ping"})
        assert receive(ws)["type"] == "pong"  # still open, still answering


def test_invalid_utf8_is_closed_with_1007(server: LiveServer) -> None:
    table = server.create([HUMAN, HUMAN])["table"]["id"]
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as s:
        s.sendall(
            f"GET /api/tables/{table}/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        assert b" 101 " in s.recv(4096)
        payload = b"\xff\xfe{}"
        mask = b"\x01\x02\x03\x04"
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        s.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + masked)  # a text frame that is not UTF-8
        frame = b""
        while len(frame) < 4:
            chunk = s.recv(4096)
            assert chunk, "closed without a close frame"
            frame += chunk
    assert frame[0] == 0x88 and int.from_bytes(frame[2:4], "big") == 1007


def test_garbage_writes_a_few_short_log_lines_not_tracebacks(make_server: MakeServer, tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    server = make_server(log=log)
    table = server.create([HUMAN, HUMAN])["table"]["id"]
    for i in range(200):
        with server.ws(table) as ws:
            ws.send(GARBAGE[i % len(GARBAGE)][1] or b"\x00")
            assert receive(ws)["type"] == "error"
    text = log.read_text()
    assert "Traceback" not in text
    assert len(text) < 20_000, f"{len(text)} bytes of log for 200 bad messages"
    assert all(len(line) < 300 for line in text.splitlines())


def test_a_socket_that_never_says_hello_is_closed(make_server: MakeServer) -> None:
    server = make_server(hello_timeout=1.0)
    table = server.create([HUMAN, HUMAN])["table"]["id"]
    with server.ws(table) as ws:
        assert receive(ws, timeout=60)["code"] == "hello_timeout"
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=60)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008


def test_one_address_may_hold_only_so_many_sockets(make_server: MakeServer) -> None:
    server = make_server(max_sockets_per_client=3)
    table = server.create([HUMAN, HUMAN])["table"]["id"]
    with contextlib.ExitStack() as stack:
        held = [stack.enter_context(server.ws(table)) for _ in range(3)]
        for ws in held:
            send(ws, {"type": "hello"})
            receive(ws)
        with server.ws(table) as extra:
            assert receive(extra)["code"] == "too_many_sockets"
            with pytest.raises(ConnectionClosed) as closed:
                extra.recv(timeout=60)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        held[0].close()
        deadline = time.monotonic() + 60
        while True:  # the freed place is given back once the server sees the close
            with server.ws(table) as again:
                try:
                    send(again, {"type": "hello"})
                    if receive(again)["type"] == "update":
                        break
                except ConnectionClosed:  # still refused: closed before the hello went out
                    pass
            assert time.monotonic() < deadline
            time.sleep(0.1)


def test_a_spectator_coming_and_going_sends_the_players_nothing(make_server: MakeServer) -> None:
    # Else anyone could make every socket at a table take an update per socket they open and close.
    server = make_server(max_sockets_per_client=2)
    created = server.create([HUMAN, HUMAN], claim=0)
    table, token = created["table"]["id"], created["you"]["token"]
    with server.ws(table) as player:
        send(player, {"type": "hello", "seat": 0, "token": token})
        assert receive(player)["type"] == "update"
        admitted = 0
        deadline = time.monotonic() + 60
        while admitted < 4:
            # With two places, a spectator is let in only once the server has seen the last one
            # go: so every close before it has been handled (and would have been announced).
            with server.ws(table) as watcher:
                try:
                    send(watcher, {"type": "hello"})
                    if receive(watcher)["type"] == "update":
                        admitted += 1
                except ConnectionClosed:
                    pass
            assert time.monotonic() < deadline
        send(player, {"type": "ping"})
        seen = []
        while (msg := receive(player, timeout=60))["type"] != "pong":
            seen.append(msg["type"])
        assert seen == []


def test_a_players_second_tab_coming_and_going_sends_the_others_nothing(server: LiveServer) -> None:
    # A seat already held by one socket is not newly present when a second says hello: nothing the
    # others see has changed, so nothing is sent (else a player could flood the table by reopening tabs).
    created = server.create([HUMAN, HUMAN], claim=0)
    table, token = created["table"]["id"], created["you"]["token"]
    other = server.post(f"/api/tables/{table}/seats/1/claim", {"name": "Bo"}).json()["token"]
    with server.ws(table) as ann, server.ws(table) as bo:
        send(ann, {"type": "hello", "seat": 0, "token": token})
        assert receive(ann)["type"] == "update"
        send(bo, {"type": "hello", "seat": 1, "token": other})
        assert receive(bo)["table"]["status"] == "playing"
        send(bo, {"type": "ping"})
        while receive(bo, timeout=60)["type"] != "pong":
            pass
        for _ in range(5):
            with server.ws(table) as tab:
                send(tab, {"type": "hello", "seat": 0, "token": token})
                assert receive(tab)["type"] == "update"
        send(ann, {"type": "ping"})  # the last tab's close is seen once Ann's ping is answered...
        while receive(ann, timeout=60)["type"] != "pong":
            pass
        send(bo, {"type": "ping"})  # ...and anything sent to Bo for it would come before his pong
        seen = []
        while (msg := receive(bo, timeout=60))["type"] != "pong":
            seen.append(msg["type"])
        assert seen == []


def test_websockets_from_another_site_are_refused_unless_allowed(make_server: MakeServer) -> None:
    server = make_server(allowed_origins=["https://friend.example"])
    table = server.create([HUMAN, HUMAN])["table"]["id"]
    url = f"ws://127.0.0.1:{server.port}/api/tables/{table}/ws"
    with pytest.raises(InvalidStatus) as refused:
        connect(url, origin="https://evil.example", open_timeout=30)  # type: ignore[arg-type]
    assert refused.value.response.status_code == 403
    for origin in (f"http://127.0.0.1:{server.port}", "https://friend.example"):
        with connect(url, origin=origin, open_timeout=30) as ws:  # type: ignore[arg-type]
            send(ws, {"type": "hello"})
            assert receive(ws)["type"] == "update"


def test_only_the_allowed_hosts_are_answered(make_server: MakeServer) -> None:
    server = make_server(allowed_hosts=["play.example"])
    assert httpx.get(f"{server.base}/api/health", timeout=10).status_code == 400
    assert httpx.get(f"{server.base}/api/health", headers={"Host": "play.example"}, timeout=10).status_code == 200


@pytest.mark.parametrize("path", ["/", "/table.html", "/api/health", "/api/tables", "/api/tables/nope"])
def test_every_response_carries_the_security_headers(server: LiveServer, path: str) -> None:
    headers = server.get(path).headers
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["Referrer-Policy"] == "no-referrer"


def test_no_page_of_the_server_loads_another_sites_script(server: LiveServer) -> None:
    # FastAPI's /docs and /redoc pull their scripts from a CDN: blocked by the policy above, they
    # came up blank, and allowed they would run a third party's code beside the players' keys.
    for path in ("/docs", "/redoc"):
        assert server.get(path).status_code == 404, path
    schema = server.get("/openapi.json")
    assert schema.status_code == 200 and "/api/tables" in schema.json()["paths"]


def test_pages_answer_head_as_they_answer_get(server: LiveServer) -> None:
    for path in ("/", "/index.html", "/table.html"):
        head = httpx.head(f"{server.base}{path}", timeout=10)
        assert head.status_code == 200 and head.content == b"", path
        assert head.headers["content-type"].startswith("text/html")
    assert httpx.head(f"{server.base}/nope.html", timeout=10).status_code == 404


def test_a_page_that_does_not_exist_is_a_page_saying_so_and_an_api_path_a_json_error(server: LiveServer) -> None:
    page = server.get("/nothing.html")
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert "Nothing here" in page.text and "script-src 'self'" in page.headers["Content-Security-Policy"]
    api = server.get("/api/nothing")
    assert api.status_code == 404 and api.json()["code"] == "not_found"


def test_a_refusal_names_an_unknown_id_without_echoing_all_of_it(server: LiveServer) -> None:
    long = "x" * 3000
    for path in (f"/api/tables/{long}", f"/api/tables/{long}/view", f"/api/players/{long}"):
        r = server.get(path)
        assert r.status_code == 404 and r.json()["code"] in ("no_such_table", "no_such_player"), path
        assert len(r.json()["message"]) < 100 and "xxx…" in r.json()["message"]
    assert "'abc'" in server.get("/api/tables/abc").json()["message"]  # a short one, as it came


def test_settings_that_contradict_each_other_are_named_as_the_command_line_spells_them() -> None:
    from goldfields.server.settings import Settings

    with pytest.raises(ValueError, match=r"--bot-deadline \(5.0 s\) must be longer than --bot-seconds \(10.0 s\)"):
        Settings(bot_deadline=5.0, bot_seconds=10.0)
    with pytest.raises(ValueError, match=r"--analysis-seconds \(0.0 s\) must be more than 0"):
        Settings(analysis_seconds=0.0)
    # A game the server lets run must be one it can replay.
    with pytest.raises(ValueError, match=r"--max-replay-steps \(100\) must be at least --max-game-steps \(6000\)"):
        Settings(max_replay_steps=100)
    assert Settings(max_game_steps=100, max_replay_steps=100).max_replay_steps == 100


@pytest.mark.parametrize(
    ("host", "key"),
    [
        ("203.0.113.7", "203.0.113.7"),
        ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff:ffff:ffff:fffe", "2001:db8:1:2::/64"),  # the same home: one key
        ("2001:db8:1:3::1", "2001:db8:1:3::/64"),
        ("::ffff:198.51.100.2", "198.51.100.2"),
        ("testclient", "testclient"),
    ],
)
def test_an_ipv6_client_is_counted_by_its_64_so_it_cannot_pass_its_limits_by_changing_address(
    host: str, key: str
) -> None:
    from goldfields.server.limits import address_key

    assert address_key(host) == key


def from_address(server: LiveServer, host: str) -> httpx.Response:
    """A table created by ``host``, as a proxy on the same machine names the client (uvicorn
    trusts X-Forwarded-For from 127.0.0.1)."""
    return httpx.post(f"{server.base}/api/tables", json=table_body([HUMAN, BOTS]),
                      headers={"X-Forwarded-For": host}, timeout=30)  # fmt: skip


def test_an_ipv6_network_may_have_ten_times_the_live_tables_of_one_64_not_one_per_64(
    make_server: MakeServer,
) -> None:
    """A customer given a /56 holds 256 /64s: counted by its /64s alone, it could take every
    place under --max-live-tables. Its /48 may have ten times the tables of one /64."""
    server = make_server(rate_limits=True, max_tables_per_client=1, create_rate="1000/minute")
    for k in range(10):
        assert from_address(server, f"2001:db8:1:{k:x}::1").status_code == 201
    assert from_address(server, "2001:db8:1:0::2").json()["code"] == "too_many_tables"  # its /64's cap
    r = from_address(server, "2001:db8:1:ff::1")  # an eleventh /64 of the same /48
    assert r.status_code == 429 and r.json()["code"] == "too_many_tables" and "Retry-After" in r.headers
    assert "network" in r.json()["message"] and "10 tables" in r.json()["message"]
    assert from_address(server, "2001:db8:2::1").status_code == 201  # another network
    assert from_address(server, "198.51.100.7").status_code == 201  # an IPv4 address is one client


def test_an_ipv6_network_creates_tables_at_ten_times_the_rate_of_one_64(make_server: MakeServer) -> None:
    server = make_server(rate_limits=True, create_rate="1/minute")
    for k in range(10):
        assert from_address(server, f"2001:db8:1:{k:x}::1").status_code == 201
    r = from_address(server, "2001:db8:1:ff::1")
    assert r.status_code == 429 and r.json()["code"] == "rate_limited" and "Retry-After" in r.headers
    assert "your network" in r.json()["message"]
    assert from_address(server, "2001:db8:2::1").status_code == 201


def test_an_ipv6_network_may_hold_ten_times_the_sockets_of_one_64() -> None:
    from goldfields.server.limits import Sockets, network_key

    assert network_key("2001:db8:1:2::/64") == "2001:db8:1::/48"
    assert network_key("198.51.100.2") is None and network_key("testclient") is None
    sockets = Sockets(per_client=2, total=1000)
    for k in range(10):
        for _ in range(2):
            assert sockets.admit(f"2001:db8:1:{k:x}::/64") is None
    refused = sockets.admit("2001:db8:1:ff::/64")
    assert refused is not None and refused.code == "too_many_sockets" and "network" in refused.message
    assert sockets.admit("2001:db8:2::/64") is None and sockets.admit("198.51.100.2") is None
    sockets.release("2001:db8:1:0::/64")  # a place of the network is given back
    assert sockets.admit("2001:db8:1:ff::/64") is None


def test_malformed_requests_write_a_line_a_second_to_the_log_not_one_each(
    make_server: MakeServer, tmp_path: Path
) -> None:
    """uvicorn logs a warning for each malformed request: without a limit a client sending
    garbage writes the log full. At most one line of a kind a second, saying how many were left out."""
    log = tmp_path / "server.log"
    server = make_server(log=log)
    sent = 300
    started = time.monotonic()
    for _ in range(sent):
        with socket.create_connection(("127.0.0.1", server.port), timeout=30) as s:
            s.sendall(b"GARBAGE\r\n\r\n")
            with contextlib.suppress(OSError):
                s.recv(100)  # the answer (400) or the close: the server has read it
    seconds = time.monotonic() - started
    assert httpx.get(f"{server.base}/api/health", timeout=30).status_code == 200
    lines = [line for line in log.read_text().splitlines() if "Invalid HTTP request" in line]
    assert 1 <= len(lines) <= seconds + 2, f"{len(lines)} lines for {sent} bad requests in {seconds:.1f} s"
    assert len(lines) < sent / 2


def test_the_quiet_log_filter_lets_one_line_of_a_kind_through_and_counts_the_rest() -> None:
    import logging

    from goldfields.server.limits import Quiet, QuietLog

    quiet = QuietLog(Quiet("1/hour"))
    record = lambda msg: logging.LogRecord("uvicorn.error", logging.WARNING, "", 0, msg, (), None)  # noqa: E731
    assert quiet.filter(record("Invalid HTTP request received."))
    assert not any(quiet.filter(record("Invalid HTTP request received.")) for _ in range(50))
    assert quiet.filter(record("Unsupported upgrade request."))  # another kind has its own count
    assert quiet.quiet.left_out("Invalid HTTP request received.") == 50


def test_the_quiet_log_filter_lets_every_error_through() -> None:
    # uvicorn logs each crash of a WebSocket handler as "Exception in ASGI application": each
    # traceback is its own, and none may be counted away as a repeat.
    import logging

    from goldfields.server.limits import Quiet, QuietLog

    quiet = QuietLog(Quiet("1/hour"))
    error = logging.LogRecord("uvicorn.error", logging.ERROR, "", 0, "Exception in ASGI application", (), None)
    assert all(quiet.filter(error) for _ in range(5))
