"""Digger tables: the server rolls, keeps the hourglass, and hides it from the digger."""

from __future__ import annotations

import time

from live import HUMAN, LiveServer, receive, send

from goldfields.records import replay

BOT = {"kind": "bot", "bot": "random"}


def create_digger(server: LiveServer, seats: list[dict], **config) -> dict:
    r = server.post("/api/tables", {"game": "digger", "seats": seats, "claim": 0, **config})
    assert r.status_code == 201, r.text
    return r.json()


def until_my_turn(ws, seat: int) -> dict:
    while True:
        msg = receive(ws)
        if msg["type"] == "update" and msg["view"]["to_move"] == seat and msg["view"]["legal"]:
            return msg


def test_the_server_calls_time_and_the_digger_never_sees_the_clock(server: LiveServer) -> None:
    created = create_digger(server, [HUMAN, BOT], options={"time_limit": 2.0})
    tid, token = created["table"]["id"], created["you"]["token"]
    with server.ws(tid) as ws:
        send(ws, {"type": "hello", "seat": 0, "token": token})
        msg = until_my_turn(ws, 0)
        send(ws, {"type": "move", "move": "roll", "seq": msg["seq"]})
        seen = []
        deadline = time.time() + 90
        while time.time() < deadline:
            msg = receive(ws)
            seen.append(msg)
            if msg["type"] == "update" and any(e["kind"] == "timeout" for e in msg["events"]):
                break
            if msg["type"] == "update" and msg["view"]["to_move"] == 0 and msg["view"]["legal"]:
                # Take whatever the dice allow, never stop: the sand must run out.
                takes = [m for m in msg["view"]["legal"] if m.startswith("take")]
                if takes:
                    send(ws, {"type": "move", "move": takes[0], "seq": msg["seq"]})
        else:
            raise AssertionError("the server never called time")
    timeout = next(e for m in seen if m["type"] == "update" for e in m["events"] if e["kind"] == "timeout")
    assert timeout["cause"] == "hourglass"
    for m in seen:
        if m["type"] == "update" and m["view"]["digger"] == 0 and m["view"]["to_move"] != -2:
            assert m["view"]["elapsed"] is None and m["view"]["remaining"] is None
            assert "hourglass_left" not in m["clock"]
            assert all("at" not in e for e in m["events"] if e.get("seat") == 0)


def test_others_see_the_hourglass_run(server: LiveServer) -> None:
    created = create_digger(server, [HUMAN, HUMAN])
    tid = created["table"]["id"]
    other = server.post(f"/api/tables/{tid}/seats/1/claim", {"name": "b"}).json()
    with server.ws(tid) as digger, server.ws(tid) as watcher:
        send(digger, {"type": "hello", "seat": 0, "token": created["you"]["token"]})
        send(watcher, {"type": "hello", "seat": 1, "token": other["token"]})
        msg = until_my_turn(digger, 0)
        send(digger, {"type": "move", "move": "roll", "seq": msg["seq"]})
        while True:
            msg = receive(watcher)
            if msg["type"] == "update" and msg["view"]["rolls"] == 1:
                break
        assert 0 < msg["clock"]["hourglass_left"] <= 30
        assert msg["view"]["remaining"] is not None


def test_players_cannot_roll_their_own_dice_or_call_time(server: LiveServer) -> None:
    created = create_digger(server, [HUMAN, BOT])
    with server.ws(created["table"]["id"]) as ws:
        send(ws, {"type": "hello", "seat": 0, "token": created["you"]["token"]})
        msg = until_my_turn(ws, 0)
        for move, rule in (("roll YYYYY @0", "G2"), ("timeout", "G3"), ("stop @1", "G4"), ("take Y", "G2")):
            send(ws, {"type": "move", "move": move})
            reply = receive(ws)
            assert reply["type"] == "error" and reply["rule"] == rule, reply
        assert server.get(f"/api/tables/{created['table']['id']}").json()["seq"] == msg["seq"]


def test_a_whole_digger_game_with_bots_replays(server: LiveServer) -> None:
    r = server.post("/api/tables", {"game": "digger", "seats": [BOT, BOT, BOT], "crates": {"black": ["A", "C", "E"]}})
    tid = r.json()["table"]["id"]
    deadline = time.time() + 180
    while server.get(f"/api/tables/{tid}").json()["status"] != "finished":
        assert time.time() < deadline
        time.sleep(0.3)
    report, status = replay(server.get(f"/api/tables/{tid}/record").json())
    assert status == 0, report["error"]
    assert report["game_over"] is True


def test_a_digger_who_never_rolls_gets_a_bot_to_roll_once_the_move_clock_runs_out(server: LiveServer) -> None:
    # Else a player at the table who never threw a turn's first roll would hold it for good:
    # the hourglass only starts with that roll. The clock times that roll alone.
    created = create_digger(server, [HUMAN, BOT], move_seconds=5)
    tid, token = created["table"]["id"], created["you"]["token"]
    with server.ws(tid) as ws:
        send(ws, {"type": "hello", "seat": 0, "token": token})
        msg = until_my_turn(ws, 0)
        assert not msg["view"]["started"] and 0 < msg["clock"]["move_deadline_in"] <= 5
        standin_seen = False
        while True:
            msg = receive(ws, timeout=60)
            if msg["type"] != "update":
                continue
            me = msg["table"]["seats"][0]
            standin_seen |= me["standin"] and me["standin_reason"] == "timeout"
            if msg["view"]["started"] and not me["standin"]:
                break
        assert standin_seen
        # The bot threw the roll and gave the turn back: the hourglass runs, and no move clock.
        assert msg["view"]["digger"] == 0 and "move_deadline_in" not in msg["clock"]
