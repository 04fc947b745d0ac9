"""Table chat on a real server: players only, plain text, length and rate limits, quick
phrases, and the history a reconnecting client gets."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from databases import redis_or_skip
from live import BOTS, HUMAN, LiveServer, receive, send
from websockets.sync.client import ClientConnection

from goldfields.server.limits import RateLimits


def next_of(ws: ClientConnection, kind: str) -> dict[str, Any]:
    """The next message of a kind, past updates and acks."""
    while True:
        msg = receive(ws)
        if msg["type"] == kind:
            return msg


@contextmanager
def seated(server: LiveServer, table_id: str, seat: int, token: str) -> Iterator[ClientConnection]:
    """A connection that has said hello for a seat; closed when the block ends."""
    with server.ws(table_id) as ws:
        send(ws, {"type": "hello", "seat": seat, "token": token})
        assert receive(ws)["type"] == "update"
        yield ws


def two_players(server: LiveServer) -> tuple[str, str, str]:
    created = server.create([HUMAN, HUMAN, BOTS], claim=0, player_name="Ann", partnership=False)
    tid = created["table"]["id"]
    bob = server.post(f"/api/tables/{tid}/seats/1/claim", {"name": "Bob"}).json()["token"]
    return tid, created["you"]["token"], bob


def test_players_chat_in_plain_text_and_spectators_only_read(server: LiveServer) -> None:
    tid, ann, bob = two_players(server)
    with seated(server, tid, 0, ann) as a, seated(server, tid, 1, bob) as b, server.ws(tid) as watcher:
        send(watcher, {"type": "hello"})
        assert receive(watcher)["type"] == "update"
        send(a, {"type": "chat", "text": "  <b>good\x07 luck</b>  "})
        for ws in (a, b, watcher):
            msg = next_of(ws, "chat")
            # Control characters go, the rest is kept as text (the page shows it as text, never markup).
            assert msg["seat"] == 0 and msg["name"] == "Ann" and msg["text"] == "<b>good luck</b>"
        send(b, {"type": "chat", "phrase": "gg"})
        assert next_of(a, "chat")["phrase"] == "gg"
        send(watcher, {"type": "chat", "text": "hello"})
        assert next_of(watcher, "error")["code"] == "spectator"
        send(a, {"type": "chat", "text": "x" * 201})
        assert next_of(a, "error")["code"] == "too_long"
        send(a, {"type": "chat", "phrase": "<script>"})
        assert next_of(a, "error")["code"] == "bad_message"
        send(a, {"type": "chat", "text": " \x00 "})
        assert next_of(a, "error")["code"] == "bad_message"
    # A player who comes back reads what was said.
    with server.ws(tid) as again:
        send(again, {"type": "hello", "seat": 1, "token": bob})
        full = receive(again)
        assert [m.get("text") or m.get("phrase") for m in full["chat"]] == ["<b>good luck</b>", "gg"]


@pytest.fixture
def limited(database: Path | str) -> Any:
    live = LiveServer(database, rate_limits=True, chat_rate="3/minute").start()
    yield live
    live.stop()


def test_chat_is_rate_limited(limited: LiveServer) -> None:
    tid, ann, _ = two_players(limited)
    with seated(limited, tid, 0, ann) as a:
        for i in range(3):
            send(a, {"type": "chat", "text": f"hello {i}"})
            assert next_of(a, "chat")["text"] == f"hello {i}"
        send(a, {"type": "chat", "text": "one too many"})
        refused = next_of(a, "error")
        assert refused["code"] == "rate_limited" and refused["retry_after"] > 0


def chat(ws: ClientConnection, text: str) -> dict[str, Any]:
    """Say ``text``: the answer is the message itself, back from the table, or a refusal."""
    send(ws, {"type": "chat", "text": text})
    while True:
        msg = receive(ws)
        if msg["type"] == "error" or (msg["type"] == "chat" and msg.get("text") == text):
            return msg


def test_players_behind_one_address_each_have_their_own_chat_rate(limited: LiveServer) -> None:
    # Every test client is 127.0.0.1, as a family or a school class behind one router would be.
    tid, ann, bob = two_players(limited)
    with seated(limited, tid, 0, ann) as a, seated(limited, tid, 1, bob) as b:
        for i in range(3):
            assert chat(a, f"ann {i}")["type"] == "chat"
        refused = chat(a, "ann, once too often")
        assert refused["code"] == "rate_limited" and "from your seat" in refused["message"]
        for i in range(3):
            assert chat(b, f"bob {i}")["type"] == "chat"
        assert chat(b, "bob, once too often")["code"] == "rate_limited"
    # A second socket of the same seat (another tab, another device) is the same player.
    with seated(limited, tid, 0, ann) as again:
        assert chat(again, "ann from her phone")["code"] == "rate_limited"


def test_an_address_flooding_with_new_seats_meets_a_looser_cap(database: Path | str) -> None:
    # One message a minute per player, so ten from one address (ten players' worth) by default.
    live = LiveServer(database, rate_limits=True, chat_rate="1/minute").start()
    try:
        seats = []
        for _ in range(3):
            created = live.create([HUMAN] * 4, claim=0, partnership=False)
            tid = created["table"]["id"]
            seats.append((tid, 0, created["you"]["token"]))
            for seat in (1, 2, 3):
                seats.append((tid, seat, live.post(f"/api/tables/{tid}/seats/{seat}/claim", {}).json()["token"]))
        answers = []
        for tid, seat, token in seats:
            with seated(live, tid, seat, token) as ws:
                answers.append(chat(ws, f"spam from {tid} {seat}"))
        assert [a["type"] for a in answers] == ["chat"] * 10 + ["error"] * 2
        assert all(a["code"] == "rate_limited" and "from your address" in a["message"] for a in answers[10:])
        assert "at most 10 per 1 minute" in answers[-1]["message"]
    finally:
        live.stop()


def test_the_address_cap_can_be_set_on_its_own(database: Path | str) -> None:
    live = LiveServer(database, rate_limits=True, chat_rate="3/minute", chat_address_rate="4/minute").start()
    try:
        tid, ann, bob = two_players(live)
        with seated(live, tid, 0, ann) as a, seated(live, tid, 1, bob) as b:
            for i in range(3):
                assert chat(a, f"ann {i}")["type"] == "chat"
            assert chat(b, "bob 0")["type"] == "chat"
            refused = chat(b, "bob 1")
            assert refused["code"] == "rate_limited" and "from your address" in refused["message"]
            assert refused["retry_after"] > 0
    finally:
        live.stop()


@pytest.mark.parametrize("counted", ["in memory", "in redis"])
def test_a_message_the_address_cap_refuses_uses_up_nothing_of_the_seat(counted: str) -> None:
    url = redis_or_skip() if counted == "in redis" else None
    rates = RateLimits({"chat": "2/minute", "chat_address": "1/minute"}, storage_url=url)
    run = uuid.uuid4().hex  # Redis outlives the test: keys of their own
    seat, crowded, quiet = f"{run}/table/1", f"{run}-crowded", f"{run}-quiet"

    def say(address: str) -> str | None:
        refused = rates.check_all(("chat", seat, "your seat"), ("chat_address", address, "your address"))
        return None if refused is None else refused.message

    assert rates.check("chat_address", crowded) is None  # another player there used the address's one
    for _ in range(3):
        assert "from your address" in (say(crowded) or "")
    # The seat lost nothing to those refusals: both of its two go through from elsewhere.
    assert say(quiet) is None
    assert rates.check_all(("chat", seat, "your seat")) is None
    refused = rates.check("chat", seat, who="your seat")
    assert refused is not None and "from your seat" in refused.message
