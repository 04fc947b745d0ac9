"""A finished game's costly moves, judged on a real server for the replay viewer."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from live import BOTS, HUMAN, LiveServer
from test_lifecycle import wait_for
from test_replays import finished

from goldfields.core import registry
from goldfields.server import analysis as analysis_jobs
from goldfields.server.settings import Settings


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


def test_the_shipped_network_plays_at_a_table_alone_and_guiding_the_search(database: Path | str) -> None:
    # No fallback may move for the network bots, so the deadline is generous: on a loaded
    # 2-core machine a fresh worker's first move (numpy, the weights) can take seconds.
    # 80 moves (a hand or two), not a whole game: a search's reply waits for the next quarter
    # second (so that its timing tells nothing), and a whole game spent a minute on that alone.
    # A network game's end is played in test_stalling.py, off the server.
    server = LiveServer(database, bot_deadline=300.0).start()
    try:
        games = {g["name"]: g for g in server.get("/api/games").json()}
        assert "net" in games["digging"]["bots"] and games["digging"]["analysis"]
        seats = [{"kind": "bot", "bot": "net"}, {"kind": "bot", "bot": "ismcts:net=default"}]
        tid = server.create(seats, partnership=False)["table"]["id"]
        wait_for(lambda: finished(server, tid) or server.get(f"/api/tables/{tid}").json()["seq"] >= 80,
                 "the network bots to make 80 moves", timeout=600)  # fmt: skip
        assert server.get("/api/health").json()["bot_fallbacks"] == 0
    finally:
        server.stop()


@pytest.fixture
def limited(database: Path | str) -> Iterator[LiveServer]:
    live = LiveServer(database, rate_limits=True, analysis_rate="2/hour").start()
    yield live
    live.stop()


def test_starting_an_analysis_is_rate_limited_and_asking_again_is_free(limited: LiveServer) -> None:
    tid = limited.create([BOTS, BOTS], partnership=False)["table"]["id"]
    wait_for(lambda: finished(limited, tid), "the bots to finish")
    for seat in (0, 1):
        assert limited.get(f"/api/tables/{tid}/analysis?seat={seat}").status_code in (200, 202)
    for _ in range(3):  # as the browser does while it waits
        assert limited.get(f"/api/tables/{tid}/analysis?seat=0").status_code in (200, 202)
    # Both done, so that this address's analyses under way (two at most) do not answer first.
    for seat in (0, 1):
        wait_for(lambda s=seat: limited.get(f"/api/tables/{tid}/analysis?seat={s}").status_code == 200,
                 "the analysis to finish", timeout=600)  # fmt: skip
    other = limited.create([BOTS, BOTS], partnership=False)["table"]["id"]
    wait_for(lambda: finished(limited, other), "the bots to finish")
    r = limited.get(f"/api/tables/{other}/analysis?seat=0")
    assert r.status_code == 429 and r.json()["code"] == "rate_limited", r.text
    assert "too many analyses" in r.json()["message"] and int(r.headers["Retry-After"]) > 0


def test_analyses_wait_their_turn_up_to_a_cap_and_read_no_record_while_waiting(monkeypatch: pytest.MonkeyPatch) -> None:
    read: list[int] = []
    forever = asyncio.Event()

    class Judge:
        async def judge(self, *args: Any) -> tuple[int, float, float]:
            await forever.wait()
            raise AssertionError("never")

    def positions(definition: Any, record: Any, seat: int) -> list[Any]:
        read.append(seat)
        return [SimpleNamespace(view=None, played=0, step=1)]

    monkeypatch.setattr(analysis_jobs, "decisions", positions)
    definition = registry.get("digging")

    async def main() -> None:
        jobs = analysis_jobs.Analyses(Judge(), 0.1)  # type: ignore[arg-type]
        for seat in range(analysis_jobs.WAITING):
            jobs.start("t", seat, definition, {})
        with pytest.raises(analysis_jobs.Busy):
            jobs.start("u", 0, definition, {})
        async with asyncio.timeout(60):
            while not read:
                await asyncio.sleep(0.01)
        # The first is judging (its judge never answers); the others wait without reading their records.
        assert read == [0]
        assert jobs.get("t", 3) is not None and jobs.get("u", 0) is None
        await jobs.close()

    asyncio.run(main())


def test_one_address_may_have_only_so_many_analyses_under_way(monkeypatch: pytest.MonkeyPatch) -> None:
    # Else one address, within its rate, could hold every place in the line for most of an hour.
    forever = asyncio.Event()

    class Judge:
        async def judge(self, *args: Any) -> tuple[int, float, float]:
            await forever.wait()
            raise AssertionError("never")

    monkeypatch.setattr(analysis_jobs, "decisions", lambda *_: [SimpleNamespace(view=None, played=0, step=1)])
    definition = registry.get("digging")

    async def main() -> None:
        jobs = analysis_jobs.Analyses(Judge(), 0.1)  # type: ignore[arg-type]
        for seat in range(analysis_jobs.PER_CLIENT):
            jobs.start("t", seat, definition, {}, client="1.2.3.4")
        assert jobs.busy_for("1.2.3.4") and not jobs.busy()
        with pytest.raises(analysis_jobs.Busy):
            jobs.start("u", 0, definition, {}, client="1.2.3.4")
        jobs.start("u", 0, definition, {}, client="5.6.7.8")  # another address is not held up
        jobs.start("v", 0, definition, {})  # nor one not counted (the rate limits off)
        assert not jobs.busy_for(None)
        await jobs.close()

    asyncio.run(main())


def test_analysis_seconds_must_fit_inside_the_bot_deadline() -> None:
    with pytest.raises(ValueError, match=r"--analysis-seconds .* less than --bot-deadline"):
        Settings(analysis_seconds=6.0, bot_deadline=5.0)
    with pytest.raises(ValueError, match="more than 0"):
        Settings(analysis_seconds=-1.0)
