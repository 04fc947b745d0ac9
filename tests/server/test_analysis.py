"""A finished game's costly moves, judged on a real server for the replay viewer."""

from __future__ import annotations

from typing import Any

from live import BOTS, HUMAN, LiveServer
from test_lifecycle import wait_for
from test_replays import finished

from goldfields.core import registry


def analysed(server: LiveServer, tid: str, seat: int) -> dict[str, Any] | None:
    r = server.get(f"/api/tables/{tid}/analysis?seat={seat}")
    assert r.status_code in (200, 202), r.text
    body = r.json()
    if r.status_code == 202:
        assert body["status"] == "running" and "decisions" not in body
        assert body["total"] is None or 0 <= body["judged"] <= body["total"]
        return None
    return body


def test_a_seats_decisions_are_judged_once_the_game_is_over(server: LiveServer) -> None:
    tid = server.create([BOTS, BOTS], partnership=False)["table"]["id"]
    wait_for(lambda: finished(server, tid), "the bots to finish")
    record = server.get(f"/api/tables/{tid}/record").json()
    body = wait_for(lambda: analysed(server, tid, 0), "the analysis", timeout=300)
    assert body["status"] == "done" and body["seat"] == 0 and body["judge"].startswith("ismcts")

    # One entry per decision of seat 0 that had a choice, at the replay viewer's step.
    walked = [(state.clone(), move) for state, move, _ in registry.get("digging").walk(record)]
    choices = [i + 1 for i, (state, _) in enumerate(walked[:-1])
               if state.current_player == 0 and len(state.legal_actions()) > 1 and not state.is_terminal()]  # fmt: skip
    assert [d["step"] for d in body["decisions"]] == choices
    for d in body["decisions"]:
        assert d["played"] == walked[d["step"]][1]
        assert 0.0 <= d["played_win"] <= 1.0 and 0.0 <= d["best_win"] <= 1.0
        assert d["drop"] == round(max(0.0, d["best_win"] - d["played_win"]), 4)
    # Kept: the next ask is answered at once, with the same figures.
    assert server.get(f"/api/tables/{tid}/analysis?seat=0").json() == body


def test_analysis_is_refused_before_the_end_for_a_seat_that_is_not_there_and_for_digger(server: LiveServer) -> None:
    playing = server.create([HUMAN, BOTS], claim=0, partnership=False)["table"]["id"]
    r = server.get(f"/api/tables/{playing}/analysis?seat=0")
    assert r.status_code == 409 and r.json()["code"] == "not_finished"

    tid = server.create([BOTS, BOTS], partnership=False)["table"]["id"]
    wait_for(lambda: finished(server, tid), "the bots to finish")
    r = server.get(f"/api/tables/{tid}/analysis?seat=2")
    assert r.status_code == 404 and "no seat 2" in r.json()["message"]
    assert server.get(f"/api/tables/{tid}/analysis").status_code == 422

    dice = server.create([BOTS, BOTS, BOTS], game="digger")["table"]["id"]
    wait_for(lambda: finished(server, dice), "the Digger bots to finish")
    r = server.get(f"/api/tables/{dice}/analysis?seat=0")
    assert r.status_code == 404 and r.json()["code"] == "no_analysis"


def test_the_shipped_network_plays_at_a_table_alone_and_guiding_the_search(server: LiveServer) -> None:
    games = {g["name"]: g for g in server.get("/api/games").json()}
    assert "net" in games["digging"]["bots"] and games["digging"]["analysis"]
    seats = [{"kind": "bot", "bot": "net"}, {"kind": "bot", "bot": "ismcts:net=default"}]
    tid = server.create(seats, partnership=False)["table"]["id"]
    wait_for(lambda: finished(server, tid), "the network bots to finish", timeout=300)
    assert server.get("/api/health").json()["bot_fallbacks"] == 0
