"""Finished games replayed step by step, their summaries, and rematches, on a real server."""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import httpx
from live import BOTS, HUMAN, LiveServer, receive, send
from test_lifecycle import wait_for
from test_play import play_seat

from goldfields.core import registry


def finished(server: LiveServer, table_id: str) -> bool:
    return server.get(f"/api/tables/{table_id}").json()["status"] == "finished"


def steps_of(record: dict[str, Any]) -> int:
    return sum(1 for _ in registry.get(record["game"]).walk(record))


def test_a_game_in_play_has_no_replay_and_no_summary(server: LiveServer) -> None:
    """A replay shows every hand: before the end it would give the game away."""
    tid = server.create([HUMAN, BOTS], claim=0, partnership=False)["table"]["id"]  # the human never moves
    for path in ("replay", "replay?seat=all", "replay?seat=1", "summary"):
        r = server.get(f"/api/tables/{tid}/{path}")
        assert r.status_code == 409 and r.json()["code"] == "not_finished", (path, r.text)
        assert "hand" not in r.text


def test_a_finished_game_replays_step_by_step_through_any_seat(server: LiveServer) -> None:
    tid = server.create([BOTS, BOTS], partnership=False)["table"]["id"]
    wait_for(lambda: finished(server, tid), "the bots to finish")
    record = server.get(f"/api/tables/{tid}/record").json()
    steps = steps_of(record)

    mine = server.get(f"/api/tables/{tid}/replay?seat=0").json()
    assert mine["seat"] == 0 and len(mine["frames"]) == steps
    assert all(f["view"]["seat"] == 0 and f["view"]["hand"] is not None for f in mine["frames"])
    assert mine["frames"][0]["move"] is None  # the first deal
    assert [f["move"] for f in mine["frames"] if f["move"]] == [m for h in record["hands"] for m in h["moves"]]
    assert mine["frames"][-1]["view"]["winners"] == mine["summary"]["winners"]

    everyone = server.get(f"/api/tables/{tid}/replay?seat=all").json()
    assert all(len(f["view"]["hands"]) == 2 for f in everyone["frames"])
    # Seat 1's hand, seen through all eyes, is the hand seat 1 saw.
    theirs = server.get(f"/api/tables/{tid}/replay?seat=1").json()
    for a, b in zip(everyone["frames"], theirs["frames"], strict=True):
        assert a["view"]["hands"][1] == b["view"]["hand"]

    public = server.get(f"/api/tables/{tid}/replay?seat=public").json()
    assert all(not f["view"].get("hand") for f in public["frames"])
    assert server.get(f"/api/tables/{tid}/replay?seat=seven").status_code == 422
    # A seat the game does not have is named as such, not a server error.
    for seat in ("2", "9", "99"):
        r = server.get(f"/api/tables/{tid}/replay?seat={seat}")
        assert r.status_code == 404 and r.json()["code"] == "no_such_seat", r.text


def test_the_summary_gives_each_hand_the_scores_as_they_went_and_who_won(server: LiveServer) -> None:
    tid = server.create([BOTS, BOTS, BOTS, BOTS])["table"]["id"]
    wait_for(lambda: finished(server, tid), "the bots to finish")
    summary = server.get(f"/api/tables/{tid}/summary").json()
    assert summary["sides"] == [[0, 2], [1, 3]]
    assert len(summary["hands"]) >= 1
    totals = [sum(hand[s] for hand in summary["hands"]) for s in range(4)]
    assert totals == summary["scores"] == summary["progress"][-1]["scores"]
    assert summary["winners"] and summary["finished"]
    team = lambda side: sum(summary["scores"][s] for s in side)  # noqa: E731
    best = max(summary["sides"], key=team)
    assert set(best) <= set(summary["winners"])


def test_each_change_of_score_names_the_hand_it_belongs_to(server: LiveServer) -> None:
    tid = server.create([BOTS, BOTS], partnership=False)["table"]["id"]
    wait_for(lambda: finished(server, tid), "the bots to finish")
    summary = server.get(f"/api/tables/{tid}/summary").json()
    progress, hands = summary["progress"], summary["hands"]
    assert progress[0] == {"step": 1, "hand": 1, "scores": [0, 0]}  # the start, in the first hand
    for point in progress[1:]:
        # Digging's scores change only when a hand is scored: the totals of the hands up to its own.
        k = point["hand"]
        assert point["scores"] == [sum(h[s] for h in hands[:k]) for s in range(2)], (point, hands)
    assert [p["hand"] for p in progress[1:]] == sorted({p["hand"] for p in progress[1:]})
    assert progress[-1]["hand"] == len(hands)
    # The same in the replay's summary, and in the API's schema.
    assert server.get(f"/api/tables/{tid}/replay?seat=0").json()["summary"]["progress"] == progress
    schema = server.get("/openapi.json").json()["components"]["schemas"]
    assert {"step", "hand", "scores"} <= set(schema["ProgressPoint"]["required"])


def test_a_digger_game_replays_with_its_dice_and_banked_scores(server: LiveServer) -> None:
    tid = server.create([BOTS, BOTS, BOTS], game="digger")["table"]["id"]
    wait_for(lambda: finished(server, tid), "the bots to finish")
    data = server.get(f"/api/tables/{tid}/replay?seat=0").json()
    assert any(f["move"].startswith("roll ") for f in data["frames"])
    assert any(ev["kind"] == "roll" for f in data["frames"] for ev in f["events"])
    progress = data["summary"]["progress"]
    assert len(progress) > 2 and progress[-1]["scores"] == data["summary"]["scores"]
    assert {p["hand"] for p in progress} == {1}  # Digger is one hand: every banked haul is in it


def test_a_record_file_replays_and_a_broken_one_is_refused_clearly(server: LiveServer) -> None:
    tid = server.create([BOTS, BOTS], partnership=False)["table"]["id"]
    wait_for(lambda: finished(server, tid), "the bots to finish")
    record = server.get(f"/api/tables/{tid}/record").json()
    stored = server.get(f"/api/tables/{tid}/replay?seat=all").json()
    sent = server.post("/api/replay", {"record": record, "seat": "all"})
    assert sent.status_code == 200, sent.text
    # The same positions and events; only the log's names differ (a file names no players).
    strip = lambda frames: [{k: v for k, v in f.items() if k != "log"} for f in frames]  # noqa: E731
    assert strip(sent.json()["frames"]) == strip(stored["frames"])

    for seat in (2, 9):
        r = server.post("/api/replay", {"record": record, "seat": seat})
        assert r.status_code == 422 and r.json()["code"] == "no_such_seat" and str(seat) in r.json()["message"]
    assert server.post("/api/replay", {"record": record, "seat": -1}).status_code == 422

    broken = json.loads(json.dumps(record))
    broken["hands"][0]["moves"][0] = "play XX m9"
    r = server.post("/api/replay", {"record": broken})
    assert r.status_code == 422 and r.json()["code"] == "bad_record" and "XX" in r.json()["message"]
    assert "XX" in r.json()["reason"]  # the reason apart, for a page to say in its own language
    r = server.post("/api/replay", {"record": {"game": "chess", "moves": []}})
    assert r.status_code == 422 and "chess" in r.json()["message"] and r.json()["game"] == "'chess'"
    # A record is larger than other requests, but still limited.
    r = httpx.post(f"{server.base}/api/replay", content=b"{" + b" " * 2_000_000 + b"}",
                   headers={"content-type": "application/json"}, timeout=30)
    assert r.status_code == 413


def test_play_again_keeps_the_seats_bots_and_options_and_each_player_accepts(server: LiveServer) -> None:
    created = server.create([HUMAN, HUMAN, BOTS], claim=0, player_name="Ann", partnership=False)
    old = created["table"]
    ann = created["you"]["token"]
    bob = server.post(f"/api/tables/{old['id']}/seats/1/claim", {"name": "Bob"}).json()["token"]

    asking = server.post(f"/api/tables/{old['id']}/rematch", {"seat": 0, "token": ann})
    assert asking.status_code == 409 and asking.json()["code"] == "not_finished"

    failures: list[BaseException] = []

    def play(seat: int, token: str) -> None:
        try:
            play_seat(server, old["id"], seat, token)
        except BaseException as err:  # reported below, in the test's own thread
            failures.append(err)

    players = [threading.Thread(target=play, args=(s, tok)) for s, tok in ((0, ann), (1, bob))]
    for p in players:
        p.start()
    for p in players:
        p.join(timeout=300)
    assert not failures, failures
    assert finished(server, old["id"])

    # Bob watches the old table; Ann asks for a rematch.
    with server.ws(old["id"]) as ws:
        send(ws, {"type": "hello", "seat": 1, "token": bob})
        assert receive(ws)["type"] == "update"
        assert server.post(f"/api/tables/{old['id']}/rematch", {"seat": 0, "token": bob}).status_code == 403
        got = server.post(f"/api/tables/{old['id']}/rematch", {"seat": 0, "token": ann})
        assert got.status_code == 200, got.text
        new_id = got.json()["link"].split("t=")[1].split("&")[0]
        offer = receive(ws)
        while not offer["table"].get("rematch"):  # a presence update may come first on a busy machine
            offer = receive(ws)
        assert offer["table"]["rematch"] == {"table": new_id, "by": 0}

    new = server.get(f"/api/tables/{new_id}").json()
    assert new["status"] == "waiting" and new["config"]["rematch_of"] == old["id"]
    assert [(s["kind"], s["bot"]) for s in new["seats"]] == [(s["kind"], s["bot"]) for s in old["seats"]]
    assert new["seats"][0]["name"] == "Ann" and not new["seats"][2]["open"]  # the bot sat down at once
    # Bob's seat is kept for him: a stranger cannot take it.
    stranger = server.post(f"/api/tables/{new_id}/seats/1/claim", {"name": "Eve"})
    assert stranger.status_code == 409 and stranger.json()["code"] == "reserved"
    # ... and the lobby does not offer it to strangers as a free seat.
    kept = server.get(f"/api/tables/{new_id}").json()["seats"][1]
    assert kept["open"] and kept["reserved"]
    assert new_id not in [t["id"] for t in server.get("/api/tables?status=open").json()]
    assert new_id in [t["id"] for t in server.get("/api/tables?status=live").json()]
    again = server.post(f"/api/tables/{old['id']}/rematch", {"seat": 1, "token": bob})
    assert again.status_code == 200 and f"t={new_id}&seat=1" in again.json()["link"]
    started = server.get(f"/api/tables/{new_id}").json()
    assert started["status"] == "playing" and started["seats"][1]["name"] == "Bob"
    # Asking twice gives no second seat: the same one, with the same token.
    twice = server.post(f"/api/tables/{old['id']}/rematch", {"seat": 1, "token": bob})
    assert twice.status_code == 200 and twice.json() == again.json()


def test_a_game_longer_than_a_replay_is_built_for_is_refused_with_413(tmp_path: Any) -> None:
    """Hands that score nothing let a legal record run on for ever, and every frame is a whole
    view: an audit's 973 kB record took 68 s and 5.4 GB to replay. Past --max-replay-steps,
    a stored game's replay (one played before the caps were lowered) and a record sent are both
    refused, and the server answers on."""
    server = LiveServer(tmp_path / "long.db").start()
    try:
        tid = server.create([BOTS, BOTS], partnership=False)["table"]["id"]
        wait_for(lambda: finished(server, tid), "the bots to finish")
    finally:
        server.stop()
    server = LiveServer(tmp_path / "long.db", max_game_steps=100, max_replay_steps=100).start()
    try:
        record = server.get(f"/api/tables/{tid}/record").json()
        assert sum(len(hand["moves"]) for hand in record["hands"]) > 100
        for r in (server.get(f"/api/tables/{tid}/replay?seat=0"), server.post("/api/replay", {"record": record})):
            assert r.status_code == 413, r.text
            assert r.json()["code"] == "too_long" and "more than 100 steps" in r.json()["message"]
        assert server.get(f"/api/tables/{tid}/summary").status_code == 200
    finally:
        server.stop()


def test_only_computing_a_replay_counts_against_the_replay_rate(tmp_path: Any) -> None:
    """A replay already computed is served as it was kept, encoded, to any number of viewers;
    computing one (a new seat's, or a record sent) counts against --replay-rate."""
    server = LiveServer(tmp_path / "rate.db", rate_limits=True, replay_rate="2/minute").start()
    try:
        tid = server.create([BOTS, BOTS], partnership=False)["table"]["id"]
        wait_for(lambda: finished(server, tid), "the bots to finish")
        first = server.get(f"/api/tables/{tid}/replay?seat=0")
        assert first.status_code == 200
        for _ in range(4):  # the same replay again: free, and the same bytes
            again = server.get(f"/api/tables/{tid}/replay?seat=0")
            assert again.status_code == 200 and again.json() == first.json()
        assert server.get(f"/api/tables/{tid}/replay?seat=1").status_code == 200  # computed: the second
        r = server.get(f"/api/tables/{tid}/replay?seat=public")
        assert r.status_code == 429 and r.json()["code"] == "rate_limited" and "Retry-After" in r.headers
        record = server.get(f"/api/tables/{tid}/record").json()
        assert server.post("/api/replay", {"record": record}).status_code == 429
        assert server.get(f"/api/tables/{tid}/replay?seat=0").status_code == 200  # kept: still free
    finally:
        server.stop()


def test_a_replay_is_sent_compressed_to_a_client_that_takes_gzip_and_plain_to_one_that_does_not(
    server: LiveServer,
) -> None:
    tid = server.create([BOTS, BOTS], partnership=False)["table"]["id"]
    wait_for(lambda: finished(server, tid), "the bots to finish")
    url = f"{server.base}/api/tables/{tid}/replay?seat=all"
    packed = httpx.get(url, headers={"Accept-Encoding": "gzip"}, timeout=30)
    plain = httpx.get(url, headers={"Accept-Encoding": "identity"}, timeout=30)
    assert packed.headers["content-encoding"] == "gzip" and "content-encoding" not in plain.headers
    assert int(packed.headers["content-length"]) * 4 < int(plain.headers["content-length"])
    assert packed.json() == plain.json() and plain.headers["content-type"] == "application/json"
    assert packed.headers["x-content-type-options"] == "nosniff"


def test_the_summary_and_replay_leave_an_unnamed_seat_unnamed_for_the_client_to_name() -> None:
    # The browser names such a seat in its reader's language; the server's own English log
    # lines still need a word for it.
    import random

    from goldfields.bots import make_bot
    from goldfields.play import play_game
    from goldfields.server import replays

    game = registry.get("digger")
    final = play_game(lambda: game.new_state(game.params(players=2)), [make_bot("random", "digger")] * 2,
                      random.Random(4))  # fmt: skip
    names = {0: "", 1: "Bea"}
    assert replays.summary(game, final.record(), names)["names"] == ["", "Bea"]
    shown = replays.frames(game, final.record(), None, names)
    assert shown["summary"]["names"] == ["", "Bea"]
    assert any("seat 0" in line for frame in shown["frames"] for line in frame["log"])


def long_record(steps: int) -> dict[str, Any]:
    """A legal 2-player Digging record of hands that score nothing (every player draws or
    passes whenever the rules let them), of about ``steps`` steps: a game may run on for ever."""
    import random

    from walks import random_walk

    def idle(state: Any, legal: list[int]) -> int:
        return next((a for a in legal if state.action_to_string(a).split()[0] in ("draw", "pass", "skip")), legal[0])

    game = registry.get("digging")
    state = game.new_state(game.params(players=2, partnership=False))
    return random_walk(state, random.Random(3), steps, choose=idle).record()


def test_each_game_counts_a_records_steps_as_its_replay_walks_them() -> None:
    import random

    from goldfields.bots import make_bot
    from goldfields.play import play_game

    for name in ("digging", "digger"):
        game = registry.get(name)
        final = play_game(lambda game=game: game.new_state(game.params(players=2)),
                          [make_bot("random", name)] * 2, random.Random(5))  # fmt: skip
        record = final.record()
        assert game.steps(record) == steps_of(record) > 0, name
    assert registry.get("digging").steps(long_record(700)) == steps_of(long_record(700))
    # Parts that are not what they should be count as nothing (the walk refuses them).
    assert registry.get("digging").steps({"game": "digging", "hands": [1, {"moves": 3}]}) == 1
    assert registry.get("digger").steps({"game": "digger", "moves": "play"}) == 0


def test_a_record_past_the_step_cap_is_refused_before_any_of_it_is_replayed(monkeypatch: Any) -> None:
    """Checking and walking a record of thousands of steps costs seconds of CPU: a record the
    cap refuses in the end is refused first, from its count of moves."""
    from goldfields.core.definition import GameDefinition
    from goldfields.server import replays

    record = long_record(700)
    game = registry.get("digging")

    def replayed(*_args: Any) -> Any:
        raise AssertionError("the record was replayed")

    monkeypatch.setattr(GameDefinition, "replay", replayed)
    monkeypatch.setattr(GameDefinition, "walk", replayed)
    try:
        replays.frames(game, record, "all", {}, max_steps=100)
    except replays.TooLong as err:
        assert "more than 100 steps" in str(err)
    else:
        raise AssertionError("a record past the cap was replayed")


def test_replays_are_computed_one_at_a_time_a_few_wait_and_one_more_is_refused_with_503(
    tmp_path: Any, monkeypatch: Any
) -> None:
    """Every replay is CPU work that shares the interpreter with the tables in play: a few clients
    sending long records at once must not take the CPU from them. Replays are computed on a
    thread of their own, a few more wait in line, and past that one more (of a record sent, or a
    finished table's) is refused at once with 503 and Retry-After."""
    from concurrent.futures import ThreadPoolExecutor

    from fastapi.testclient import TestClient

    from goldfields.server import app as server_app
    from goldfields.server import replays
    from goldfields.server.tables import Settings

    monkeypatch.setattr(server_app, "REPLAYS_WAITING", 2)
    room = server_app.REPLAYS_AT_ONCE + 2
    release = threading.Event()
    running = threading.Semaphore(0)
    real = replays.frames

    def slow(*args: Any, **kwargs: Any) -> Any:
        running.release()
        assert release.wait(60), "the test never let the replay finish"
        return real(*args, **kwargs)

    monkeypatch.setattr(replays, "frames", slow)
    app = server_app.create_app(f"sqlite:///{tmp_path / 'busy.db'}", Settings(bot_workers=1, rate_limits=False))
    record = long_record(200)
    with TestClient(app) as client, ThreadPoolExecutor(room) as pool:
        # Each from an address of its own: a client has one place in the line at a time.
        senders = [TestClient(app, client=(f"10.0.0.{i + 1}", 50000)) for i in range(room)]
        held = [pool.submit(sender.post, "/api/replay", json={"record": record}) for sender in senders]
        for _ in range(server_app.REPLAYS_AT_ONCE):
            assert running.acquire(timeout=60), "a replay did not start"
        wait_for(lambda: app.state.replaying.queued == room, "the others to wait in line")
        assert not running.acquire(timeout=0.2), "more replays ran at once than the server computes"
        again = senders[-1].post("/api/replay", json={"record": record})  # its first still waits
        assert again.status_code == 503 and "of yours" in again.json()["message"], again.text
        refused = client.post("/api/replay", json={"record": record})
        assert refused.status_code == 503, refused.text
        assert refused.json()["code"] == "too_many_replays" and int(refused.headers["Retry-After"]) > 0
        release.set()
        assert [f.result(timeout=120).status_code for f in held] == [200] * room
        # The line is empty again: the next one is computed.
        assert client.post("/api/replay", json={"record": record}).status_code == 200


def test_the_server_hands_the_gil_over_every_millisecond_while_it_runs(tmp_path: Any) -> None:
    """A replay's thread holds the GIL for up to a switch interval at a time, and the event loop
    that answers every table waits that long each time: the server shortens the interval while it
    runs (benchmarks/bench_replay_ack.py measures it), and gives the process its own back."""
    import sys

    from fastapi.testclient import TestClient

    from goldfields.server import app as server_app
    from goldfields.server.tables import Settings

    before = sys.getswitchinterval()
    assert before != server_app.SWITCH_INTERVAL  # Python's 0.005 s in the test process
    settings = Settings(bot_workers=1, rate_limits=False)
    first = server_app.create_app(f"sqlite:///{tmp_path / 'a.db'}", settings)
    second = server_app.create_app(f"sqlite:///{tmp_path / 'b.db'}", settings)
    # Two apps whose lifespans overlap, the first started the first to stop: the one still
    # serving keeps the short interval, and the process has its own back after both.
    one, other = TestClient(first), TestClient(second)
    with one:
        assert one.get("/api/health").status_code == 200
        assert abs(sys.getswitchinterval() - server_app.SWITCH_INTERVAL) < 1e-9
        other.__enter__()
    try:
        assert abs(sys.getswitchinterval() - server_app.SWITCH_INTERVAL) < 1e-9
    finally:
        other.__exit__(None, None, None)
    assert sys.getswitchinterval() == before


def test_players_asking_at_once_for_a_finished_games_summary_share_one_computation(
    tmp_path: Any, monkeypatch: Any
) -> None:
    """The players of a table that has just ended all ask for its summary at the same moment:
    one computation answers them all, and none is refused for want of room in the line."""
    from concurrent.futures import ThreadPoolExecutor

    from fastapi.testclient import TestClient

    from goldfields.server import app as server_app
    from goldfields.server import replays
    from goldfields.server.tables import Settings

    calls: list[int] = []
    real = replays.summary
    release = threading.Event()

    def slow(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        assert release.wait(60), "the test never let the summary finish"
        return real(*args, **kwargs)

    monkeypatch.setattr(replays, "summary", slow)
    monkeypatch.setattr(server_app, "REPLAYS_WAITING", 0)  # a second computation would be refused
    # Each request that waits for the computation awaits it through asyncio.shield: counted, so
    # that the summary is let finish only once every request waits for it (on a loaded machine,
    # a late request would otherwise find it kept and share nothing).
    shield, waiting = asyncio.shield, []

    def counted(future: Any) -> Any:
        waiting.append(future)
        return shield(future)

    monkeypatch.setattr(server_app.asyncio, "shield", counted)
    app = server_app.create_app(f"sqlite:///{tmp_path / 'ended.db'}", Settings(bot_delay=0.0, rate_limits=False))
    asking = 6
    with TestClient(app) as client, ThreadPoolExecutor(asking) as pool:
        r = client.post("/api/tables", json={"game": "digging", "players": 2, "seats": [BOTS, BOTS]})
        assert r.status_code == 201, r.text
        tid = r.json()["table"]["id"]
        wait_for(lambda: client.get(f"/api/tables/{tid}").json()["status"] == "finished", "the bots to finish", 300)
        asks = [pool.submit(client.get, f"/api/tables/{tid}/summary") for _ in range(asking)]
        # (The computation starts on the replay thread, so it may begin after the last request waits.)
        wait_for(lambda: len(waiting) == asking and calls, "every request to wait for the one computation")
        assert len(calls) == 1 and len(set(waiting)) == 1
        release.set()
        answers = [a.result(timeout=120) for a in asks]
        assert [a.status_code for a in answers] == [200] * asking, [a.text for a in answers]
        assert len(calls) == 1
        assert client.get(f"/api/tables/{tid}/summary").status_code == 200 and len(calls) == 1  # kept


def test_a_long_replay_is_encoded_to_the_same_bytes_a_frame_at_a_time() -> None:
    """A replay is encoded an item of a long list at a time (one call of the C encoder held the
    GIL, and stopped every table, for most of a second): the bytes are those of one call."""
    from goldfields.server import replays
    from goldfields.server.responses import Encoded

    record = long_record(300)
    data = {"table": None, "seat": "all", **replays.frames(registry.get("digging"), record, "all", {})}
    whole = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()
    assert Encoded.of(data).body == whole
    for other in ({}, [], [1] * 100, {"a": [{"b": "é"}] * 100, "c": {"d": None}}, {"1": [2] * 65}, "x", None):
        assert Encoded.of(other).body == json.dumps(other, ensure_ascii=False, separators=(",", ":")).encode()


def test_a_player_asking_twice_for_a_rematch_keeps_the_seat_with_the_same_token(server: LiveServer) -> None:
    """A second request of the old seat's player, racing the first or after its response was
    lost, is answered with the seat and token the first was given, never seat_taken."""
    from concurrent.futures import ThreadPoolExecutor

    created = server.create([HUMAN, HUMAN, BOTS], claim=0, player_name="Ann", partnership=False)
    old = created["table"]["id"]
    ann = created["you"]["token"]
    bob = server.post(f"/api/tables/{old}/seats/1/claim", {"name": "Bob"}).json()["token"]
    players = [threading.Thread(target=play_seat, args=(server, old, s, tok)) for s, tok in ((0, ann), (1, bob))]
    for p in players:
        p.start()
    for p in players:
        p.join(timeout=300)
    wait_for(lambda: finished(server, old), "the game to finish")

    def ask(seat: int, token: str) -> httpx.Response:
        return server.post(f"/api/tables/{old}/rematch", {"seat": seat, "token": token})

    with ThreadPoolExecutor(4) as pool:  # Ann, twice at once (the table is made by one of them)
        answers = list(pool.map(lambda _: ask(0, ann), range(4)))
    assert [r.status_code for r in answers] == [200] * 4, [r.text for r in answers]
    assert len({r.json()["token"] for r in answers}) == 1
    first = answers[0].json()
    assert ask(0, ann).json() == first  # and again later, as after a lost response
    with ThreadPoolExecutor(2) as pool:  # Bob takes his kept seat, twice at once
        bobs = list(pool.map(lambda _: ask(1, bob), range(2)))
    assert [r.status_code for r in bobs] == [200, 200] and bobs[0].json() == bobs[1].json(), [r.text for r in bobs]
    assert ask(1, ann).status_code == 403  # another seat's old token still opens nothing
    new_id = first["link"].split("t=")[1].split("&")[0]
    for seat, answer in ((0, first), (1, bobs[0].json())):  # each token opens its seat
        with server.ws(new_id) as ws:
            send(ws, {"type": "hello", "seat": seat, "token": answer["token"]})
            assert receive(ws)["type"] == "update"
    assert server.get(f"/api/tables/{new_id}").json()["status"] == "playing"


def test_replays_are_kept_up_to_a_count_and_a_size_the_oldest_going_first() -> None:
    """One replay at the step cap holds about 11 MB; kept by count alone, one client's sixteen
    would hold 170 MB. The bytes are counted too, and a small answer (a summary) costs none."""
    from goldfields.server.responses import Encoded, Kept

    kept = Kept(items=4, max_bytes=3 * 200_000)
    big = {i: Encoded.of({"frames": [{"n": i, "x": "y" * 1000} for _ in range(180)]}) for i in range(5)}
    assert all(150_000 < e.size < 200_000 for e in big.values())
    for i in range(3):
        kept.put(("replay", i), big[i])
    kept.put(("summary", 0), {"winners": [0]})
    assert len(kept) == 4 and kept.bytes == sum(big[i].size for i in range(3))
    kept.get(("replay", 0))  # used again: now the newest
    kept.put(("replay", 3), big[3])  # one too many bytes: the oldest unused (replay 1) goes
    assert ("replay", 1) not in kept and ("replay", 0) in kept and kept.bytes <= kept.max_bytes
    kept.put(("replay", 4), big[4])
    assert len(kept) <= 4 and kept.bytes <= kept.max_bytes and ("replay", 4) in kept
    huge = Kept(items=4, max_bytes=10)
    huge.put("one", big[0])  # larger than the budget alone: kept, the newest, until another comes
    assert "one" in huge
