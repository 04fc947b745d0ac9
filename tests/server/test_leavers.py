"""Leavers and clocks: a bot stands in after the grace period or when the move clock
runs out, and the player takes the seat back by coming back."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from live import HUMAN, LiveServer, receive, send

BOT = {"kind": "bot", "bot": "random"}


@pytest.fixture
def quick_grace(database: Path | str) -> Iterator[LiveServer]:
    # Bots that wait a little: with no delay the stand-in and the other bot finish a
    # two-player game in about a second, before the player can come back to it.
    live = LiveServer(database, grace=1.0, bot_delay=0.25).start()
    yield live
    live.stop()


def seat_info(server: LiveServer, table_id: str, seat: int) -> dict:
    return server.get(f"/api/tables/{table_id}").json()["seats"][seat]


def wait_for(predicate, timeout: float = 30.0) -> None:
    deadline = time.time() + timeout
    while not predicate():
        assert time.time() < deadline, "timed out"
        time.sleep(0.1)


def test_a_bot_stands_in_for_a_player_who_left_and_the_player_takes_the_seat_back(quick_grace: LiveServer) -> None:
    server = quick_grace
    # Two humans: a table with one human and bots waits for its player instead (below).
    created = server.create([HUMAN, HUMAN], claim=0)
    tid, token = created["table"]["id"], created["you"]["token"]
    bea = server.post(f"/api/tables/{tid}/seats/1/claim", {"name": "bea"}).json()["token"]
    # Bea stays at the table (a stand-in plays only while someone is there: see below).
    with server.ws(tid) as bea_ws:
        send(bea_ws, {"type": "hello", "seat": 1, "token": bea})
        with server.ws(tid) as ws:
            send(ws, {"type": "hello", "seat": 0, "token": token})
            first = receive(ws)
            assert first["table"]["seats"][0]["connected"] is True
        # Ann is gone: after the grace period a bot plays seat 0, and the game goes on.
        wait_for(lambda: seat_info(server, tid, 0)["standin"])
        assert seat_info(server, tid, 0)["standin_reason"] == "away"
        seq = server.get(f"/api/tables/{tid}").json()["seq"]
        while True:  # Bea plays her own turns
            msg = receive(bea_ws, timeout=60)
            if msg["type"] != "update":
                continue
            if msg["seq"] > seq + 2:
                break
            if msg["view"]["to_move"] == 1 and msg["view"]["legal"]:
                send(bea_ws, {"type": "move", "move": msg["view"]["legal"][0], "seq": msg["seq"]})
    # Bea has gone too (a stand-in plays for her once Ann is back).
    ann_back(server, tid, token)


def ann_back(server: LiveServer, tid: str, token: str) -> None:
    # Back: saying hello takes the seat back from the bot.
    with server.ws(tid) as ws:
        send(ws, {"type": "hello", "seat": 0, "token": token})
        wait_for(lambda: not seat_info(server, tid, 0)["standin"])
        while True:
            msg = receive(ws)
            if msg["type"] == "update" and msg["view"]["to_move"] == 0 and msg["view"]["legal"]:
                break
        # The bot no longer moves for seat 0: the turn waits for the player.
        seq = msg["seq"]
        time.sleep(1.5)
        assert server.get(f"/api/tables/{tid}").json()["seq"] == seq
        send(ws, {"type": "move", "move": msg["view"]["legal"][0], "seq": seq})
        while (reply := receive(ws))["type"] != "ack":
            assert reply["type"] != "error", reply


def test_when_the_move_clock_runs_out_a_bot_makes_that_one_move_and_gives_the_seat_back(server: LiveServer) -> None:
    created = server.create([HUMAN, BOT], claim=0, move_seconds=5)
    tid, token = created["table"]["id"], created["you"]["token"]
    with server.ws(tid) as ws:
        send(ws, {"type": "hello", "seat": 0, "token": token})
        msg = receive(ws)
        assert msg["view"]["to_move"] == 0
        assert 0 < msg["clock"]["move_deadline_in"] <= 5
        first = msg["seq"]
        # The deadline arithmetic (never early, never above move_seconds) is checked exactly,
        # with injected clocks, in test_clocks.py; here, the events, however loaded the machine.
        standin_seen = False
        while True:
            msg = receive(ws, timeout=60)
            if msg["type"] != "update":
                continue
            me = msg["table"]["seats"][0]
            if me["standin"]:
                assert me["standin_reason"] == "timeout"
                standin_seen = True
            if msg["seq"] > first and msg["view"]["to_move"] == 0 and msg["view"]["legal"]:
                break
        assert standin_seen
        # The bot made the one move and gave the seat back: the next move is the player's own.
        assert not msg["table"]["seats"][0]["standin"]
        send(ws, {"type": "move", "move": msg["view"]["legal"][0], "seq": msg["seq"]})
        while (reply := receive(ws))["type"] != "ack":
            assert reply["type"] != "error", reply


def test_a_refused_move_leaves_the_stand_in_to_make_its_move(database: Path | str) -> None:
    # A slow bot (10 s) gives the refused move time to arrive while the stand-in still holds the seat.
    server = LiveServer(database, bot_delay=10.0).start()
    try:
        created = server.create([HUMAN, BOT], claim=0, move_seconds=5)
        tid, token = created["table"]["id"], created["you"]["token"]
        with server.ws(tid) as ws:
            send(ws, {"type": "hello", "seat": 0, "token": token})
            msg = receive(ws)
            first = msg["seq"]
            while not (msg["type"] == "update" and msg["table"]["seats"][0]["standin"]):
                msg = receive(ws, timeout=60)
            send(ws, {"type": "move", "move": "no such move", "seq": first})
            while (refused := receive(ws, timeout=60))["type"] != "error":
                pass
            assert refused["code"] != "stale", refused  # refused for the move itself, the stand-in still there
            # Nothing changed: the stand-in keeps the seat and makes the move the clock gave it.
            assert seat_info(server, tid, 0)["standin"]
            while not (msg["type"] == "update" and msg["seq"] > first):
                msg = receive(ws, timeout=60)
    finally:
        server.stop()


def test_coming_back_does_not_take_a_timed_out_move_from_the_stand_in(database: Path | str) -> None:
    # A slow bot (10 s) holds the timed-out move while the player says resume and opens a
    # second tab. Were the seat given back, a fresh move clock would start for the same
    # decision, and a player answering each timeout so would stall the table for good.
    server = LiveServer(database, bot_delay=10.0).start()
    try:
        created = server.create([HUMAN, BOT], claim=0, move_seconds=5)
        tid, token = created["table"]["id"], created["you"]["token"]
        with server.ws(tid) as ws, server.ws(tid) as tab:
            send(ws, {"type": "hello", "seat": 0, "token": token})
            msg = receive(ws)
            first = msg["seq"]
            while not (msg["type"] == "update" and msg["table"]["seats"][0]["standin"]):
                msg = receive(ws, timeout=60)
            send(ws, {"type": "resume"})
            send(ws, {"type": "ping"})  # answered in order: the resume has been handled
            while receive(ws, timeout=60)["type"] != "pong":
                pass
            send(tab, {"type": "hello", "seat": 0, "token": token})
            while (reply := receive(tab, timeout=60))["type"] != "update":
                pass
            info = seat_info(server, tid, 0)
            assert reply["seq"] > first or (info["standin"] and info["standin_reason"] == "timeout"), info
            # The stand-in makes its one move, and then the seat is the player's.
            while not (msg["type"] == "update" and msg["seq"] > first):
                msg = receive(ws, timeout=60)
            wait_for(lambda: not seat_info(server, tid, 0)["standin"])
    finally:
        server.stop()


def test_a_solo_game_against_bots_pauses_while_its_player_is_away(quick_grace: LiveServer) -> None:
    server = quick_grace
    created = server.create([HUMAN, BOT, BOT], claim=0)
    tid, token = created["table"]["id"], created["you"]["token"]
    with server.ws(tid) as ws:
        send(ws, {"type": "hello", "seat": 0, "token": token})
        while True:
            msg = receive(ws)
            if msg["type"] == "update" and msg["view"]["to_move"] == 0 and msg["view"]["legal"]:
                break
    # Away for many times the grace period (a phone switching apps): no bot takes the seat,
    # and the game waits at the player's turn.
    time.sleep(4 * 1.0)
    table = server.get(f"/api/tables/{tid}").json()
    assert table["seq"] == msg["seq"] and table["to_move"] == 0
    assert not table["seats"][0]["standin"]
    with server.ws(tid) as ws:
        send(ws, {"type": "hello", "seat": 0, "token": token})
        msg = receive(ws)
        send(ws, {"type": "move", "move": msg["view"]["legal"][0], "seq": msg["seq"]})
        while (reply := receive(ws))["type"] != "ack":
            assert reply["type"] != "error", reply


def test_a_table_that_every_player_has_left_pauses_and_its_stand_ins_stop(quick_grace: LiveServer) -> None:
    # Two players who claimed their seats and left (or never came): with nobody at the table,
    # no stand-in plays for them. Otherwise such tables would be bots playing bots by another
    # name, past --max-bot-tables.
    server = quick_grace
    created = server.create([HUMAN, HUMAN], claim=0)
    tid, token = created["table"]["id"], created["you"]["token"]
    bea = server.post(f"/api/tables/{tid}/seats/1/claim", {"name": "bea"}).json()["token"]
    dealt = server.get(f"/api/tables/{tid}").json()
    assert dealt["status"] == "playing"
    time.sleep(4 * 1.0)  # many times the grace period
    table = server.get(f"/api/tables/{tid}").json()
    assert table["seq"] == dealt["seq"] and not any(s["standin"] for s in table["seats"])
    # Bea comes and goes; while she is there a stand-in plays for Ann, once she has gone it stops.
    with server.ws(tid) as ws:
        send(ws, {"type": "hello", "seat": 1, "token": bea})
        standin_turn = standin_played = moved = False
        while not (standin_played and moved):
            msg = receive(ws, timeout=60)
            if msg["type"] != "update":
                continue
            standin_turn |= msg["view"]["to_move"] == 0 and msg["table"]["seats"][0]["standin"]
            standin_played |= standin_turn and msg["view"]["to_move"] == 1  # only the stand-in moves for Ann
            if msg["view"]["to_move"] == 1 and msg["view"]["legal"]:
                send(ws, {"type": "move", "move": msg["view"]["legal"][0], "seq": msg["seq"]})
                moved = True
    wait_for(lambda: not seat_info(server, tid, 1)["connected"])
    time.sleep(4 * 1.0)  # a move a stand-in had begun as she left may end (and a deal follow)
    seq = server.get(f"/api/tables/{tid}").json()["seq"]
    time.sleep(4 * 1.0)
    assert server.get(f"/api/tables/{tid}").json()["seq"] == seq  # then nothing
    ann_back(server, tid, token)
