"""Playing through a real server: tables, seats, moves, errors, records."""

from __future__ import annotations

import pytest
from live import BOTS, HUMAN, LiveServer, answer, receive, send

from goldfields.records import replay


def play_seat(server: LiveServer, table_id: str, seat: int, token: str, choose=lambda legal: legal[0]) -> list[dict]:
    """Play ``seat`` to the end of the game; returns every message received.

    With two humans at a table, a move can be meant for a position the other has just
    changed: the server answers ``stale``, and the next update brings the position to move in."""
    seen = []
    with server.ws(table_id) as ws:
        send(ws, {"type": "hello", "seat": seat, "token": token})
        while True:
            msg = receive(ws)
            seen.append(msg)
            if msg["type"] == "error" and msg["code"] != "stale":
                raise AssertionError(msg)
            if msg["type"] != "update":
                continue
            if msg["table"]["status"] == "finished":
                return seen
            view = msg["view"]
            if view["to_move"] == seat and view["legal"]:
                send(ws, {"type": "move", "move": choose(view["legal"]), "seq": msg["seq"]})


def test_a_human_plays_a_whole_game_against_bots(server: LiveServer) -> None:
    created = server.create([HUMAN, BOTS, BOTS, BOTS], claim=0, player_name="Ann")
    table = created["table"]
    assert table["status"] == "playing"
    assert created["you"]["seat"] == 0 and "#token=" in created["you"]["link"]
    seen = play_seat(server, table["id"], 0, created["you"]["token"])
    acks = [m for m in seen if m["type"] == "ack"]
    assert acks and all(a["seq"] > 0 for a in acks)
    final = seen[-1]
    assert final["view"]["winners"]
    record = server.get(f"/api/tables/{table['id']}/record").json()
    report, status = replay(record)
    assert status == 0 and report["winner"] == final["view"]["winners"]


def test_the_record_is_withheld_until_the_game_is_over(server: LiveServer) -> None:
    created = server.create([HUMAN, BOTS], claim=0)
    r = server.get(f"/api/tables/{created['table']['id']}/record")
    assert r.status_code == 409
    assert r.json()["code"] == "not_finished"
    assert "deck" not in r.text


def test_two_humans_share_a_table_through_a_claimed_seat(server: LiveServer) -> None:
    created = server.create([HUMAN, HUMAN], claim=0)
    tid = created["table"]["id"]
    assert created["table"]["status"] == "waiting"
    claimed = server.post(f"/api/tables/{tid}/seats/1/claim", {"name": "Bea"})
    assert claimed.status_code == 200
    again = server.post(f"/api/tables/{tid}/seats/1/claim", {"name": "Cid"})
    assert again.status_code == 409 and again.json()["code"] == "seat_taken"
    assert server.get(f"/api/tables/{tid}").json()["status"] == "playing"
    lobby = server.get("/api/tables").json()
    assert any(t["id"] == tid for t in lobby)


def test_a_player_who_gives_no_name_is_left_unnamed_for_each_client_to_name_in_its_language(
    server: LiveServer,
) -> None:
    # Not "player 0" in English: the browser says "Seat 0", "Place 0" or "Platz 0" itself.
    created = server.create([HUMAN, HUMAN], claim=0)
    tid = created["table"]["id"]
    assert server.post(f"/api/tables/{tid}/seats/1/claim", {"name": ""}).status_code == 200
    assert [s["name"] for s in server.get(f"/api/tables/{tid}").json()["seats"]] == ["", ""]


def test_a_game_nobody_is_at_says_it_is_paused_until_a_player_comes(server: LiveServer) -> None:
    created = server.create([HUMAN, BOTS], claim=0)
    tid = created["table"]["id"]
    summary = server.get(f"/api/tables/{tid}").json()
    assert summary["status"] == "playing" and summary["paused"] is True  # Ann has not come
    with server.ws(tid) as ws:
        send(ws, {"type": "hello", "seat": 0, "token": created["you"]["token"]})
        assert receive(ws)["table"]["paused"] is False
        assert server.get(f"/api/tables/{tid}").json()["paused"] is False


def test_bad_table_configurations_are_refused_clearly(server: LiveServer) -> None:
    r = server.post("/api/tables", {"game": "digging", "players": 3, "partnership": True, "seats": [HUMAN] * 3})
    assert r.status_code == 422 and "partnership" in r.json()["message"]
    r = server.post("/api/tables", {"game": "digging", "players": 2, "seats": [HUMAN, {"kind": "bot", "bot": "nope"}]})
    assert r.status_code == 422 and "nope" in r.json()["message"]
    r = server.post("/api/tables", {"game": "digging", "players": 2, "seats": [HUMAN]})
    assert r.status_code == 422
    r = server.post("/api/tables", {"game": "digging", "players": 2, "seats": [HUMAN, HUMAN], "claim": 5})
    assert r.status_code == 422


@pytest.mark.parametrize(
    "message",
    [
        "not json",
        "[1, 2]",
        '{"type": 5}',
        '{"type": "move", "move": 17}',
        '{"type": "move", "move": "play B99 m1"}',
        '{"type": "move", "move": "draw", "seq": "x"}',
        '{"type": "hello", "seat": 1, "token": "stolen"}',
        '{"type": "teleport"}',
        "x" * 100_000,
    ],
)
def test_garbage_gets_an_error_and_changes_nothing(server: LiveServer, message: str) -> None:
    created = server.create([HUMAN, HUMAN], claim=0)
    tid = created["table"]["id"]
    server.post(f"/api/tables/{tid}/seats/1/claim", {"name": "Bea"})
    with server.ws(tid) as ws:
        send(ws, {"type": "hello", "seat": 0, "token": created["you"]["token"]})
        first = receive(ws)
        ws.send(message)
        reply = receive(ws)
        assert reply["type"] == "error" and reply["message"]
        send(ws, {"type": "ping"})
        assert receive(ws)["type"] == "pong"  # the connection is still up
    assert server.get(f"/api/tables/{tid}").json()["seq"] == first["seq"]


def test_moves_out_of_turn_and_for_old_positions_are_refused(server: LiveServer) -> None:
    created = server.create([HUMAN, HUMAN], claim=0)
    tid = created["table"]["id"]
    other = server.post(f"/api/tables/{tid}/seats/1/claim", {"name": "Bea"}).json()
    with server.ws(tid) as ws:
        send(ws, {"type": "hello", "seat": 1, "token": other["token"]})
        first = receive(ws)
        assert first["view"]["to_move"] == 0
        send(ws, {"type": "move", "move": "draw"})
        reply = answer(ws)
        assert reply["type"] == "error" and reply["rule"] == "turn"
    with server.ws(tid) as ws:
        send(ws, {"type": "hello", "seat": 0, "token": created["you"]["token"]})
        first = receive(ws)
        send(ws, {"type": "move", "move": "draw", "seq": first["seq"] - 1})
        reply = answer(ws)  # (Bea's socket, closed above, may be told of first)
        assert reply["type"] == "error" and reply["code"] == "stale"
        send(ws, {"type": "move", "move": "pass G"})
        reply = answer(ws)
        assert reply["type"] == "error" and reply["rule"] == "D2"
        # The same for a program: a reason and its values, for the client to translate.
        assert reply["reason"] in ("not_in_hand", "pass_partnership") and reply["params"]["move"] == "pass G"
    assert server.get(f"/api/tables/{tid}").json()["seq"] == first["seq"]


def test_spectators_see_the_public_view_only(server: LiveServer) -> None:
    created = server.create([HUMAN, BOTS], claim=0)
    with server.ws(created["table"]["id"]) as ws:
        send(ws, {"type": "hello"})
        msg = receive(ws)
        assert msg["seat"] is None and msg["view"]["hand"] is None
        assert all("cards" not in e for e in msg["events"])
        send(ws, {"type": "move", "move": "draw"})
        assert receive(ws)["code"] == "spectator"
