"""A game the server has never heard of, registered as a plug-in, is hosted and played to the end."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from live import HUMAN, LiveServer, receive, send

from goldfields.records import replay


@pytest.fixture
def toy_server(tmp_path: Path) -> Iterator[LiveServer]:
    from toy import register_toy, unregister_toy

    register_toy()  # here too, so that this process can replay the toy's record
    live = LiveServer(tmp_path / "goldfields.db", plugins=("toy",)).start()
    yield live
    live.stop()
    unregister_toy()


def test_a_toy_table_is_created_and_played_to_the_end_over_the_websocket(toy_server: LiveServer) -> None:
    server = toy_server
    games = {g["name"]: g for g in server.get("/api/games").json()}
    assert games["toy"]["min_players"] == 2 and "random" in games["toy"]["bots"]
    r = server.post("/api/tables", {"game": "toy", "seats": [HUMAN, HUMAN], "claim": 0, "player_name": "ann"})
    assert r.status_code == 201, r.text
    table = r.json()["table"]
    ann = r.json()["you"]["token"]
    bob = server.post(f"/api/tables/{table['id']}/seats/1/claim", {"name": "bob"}).json()["token"]
    with server.ws(table["id"]) as ws0, server.ws(table["id"]) as ws1:
        send(ws0, {"type": "hello", "seat": 0, "token": ann})
        send(ws1, {"type": "hello", "seat": 1, "token": bob})
        first = receive(ws0)
        assert first["view"]["cards"][0] in (1, 2, 3) and first["view"]["cards"][1] is None  # only your own card
        # ``first`` may already be seat 0's turn: when bob's hello is handled before ann's, no
        # later update reaches ann before she moves, so it is looked at, not thrown away.
        unread = {0: first}
        for seat, ws, move in ((0, ws0, "swap"), (1, ws1, "keep")):
            msg = unread.pop(seat, None) or receive(ws)
            while msg["type"] != "update" or msg["view"]["to_move"] != msg["seat"]:
                msg = receive(ws)
            send(ws, {"type": "move", "move": move, "seq": msg["seq"]})
            while (reply := receive(ws))["type"] != "ack":
                assert reply["type"] != "error", reply
    summary = server.get(f"/api/tables/{table['id']}").json()
    assert summary["status"] == "finished"
    report, status = replay(server.get(f"/api/tables/{table['id']}/record").json())
    assert status == 0 and report["game_over"], report


def test_bad_toy_parameters_are_refused_naming_the_parameter(toy_server: LiveServer) -> None:
    r = toy_server.post("/api/tables", {"game": "toy", "seats": [HUMAN, HUMAN], "colour": "red"})
    assert r.status_code == 422 and "colour" in r.text, r.text
    r = toy_server.post("/api/tables", {"game": "chess", "seats": [HUMAN, HUMAN]})
    assert r.status_code == 422 and "unknown game 'chess'" in r.text, r.text


def test_a_toy_table_with_a_bot_seat_is_played_to_the_end(toy_server: LiveServer) -> None:
    """The server's bot decides for the toy from its seat's view, as for any game."""
    server = toy_server
    bot = {"kind": "bot", "bot": "random"}
    r = server.post("/api/tables", {"game": "toy", "seats": [HUMAN, bot], "claim": 0})
    assert r.status_code == 201, r.text
    table, token = r.json()["table"], r.json()["you"]["token"]
    assert [s["label"] for s in table["seats"]] == ["", ""]  # no teams: every seat plays alone
    with server.ws(table["id"]) as ws:
        send(ws, {"type": "hello", "seat": 0, "token": token})
        while (msg := receive(ws))["type"] != "update" or msg["view"]["to_move"] != 0:
            pass
        send(ws, {"type": "move", "move": "keep", "seq": msg["seq"]})
        while not ((msg := receive(ws))["type"] == "update" and msg["table"]["status"] == "finished"):
            assert msg["type"] != "error", msg
    assert msg["view"]["moves"][0] == "keep" and None not in msg["view"]["cards"]
    report, status = replay(server.get(f"/api/tables/{table['id']}/record").json())
    assert status == 0 and report["game_over"], report
