"""Player profiles, their history and openskill ratings (teams included), and the
leaderboard, on a real server and both databases."""

from __future__ import annotations

import threading
import time
from typing import Any

import httpx
from live import BOTS, HUMAN, LiveServer
from test_play import play_seat

from goldfields.server.ratings import bot_player_id


def new_player(server: LiveServer, name: str) -> dict[str, Any]:
    r = server.post("/api/players", {"name": name})
    assert r.status_code == 201, r.text
    return r.json()


def wait_finished(server: LiveServer, table_id: str) -> None:
    deadline = time.monotonic() + 300
    while server.get(f"/api/tables/{table_id}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the game did not finish"
        time.sleep(0.2)


def play_together(server: LiveServer, table_id: str, seats: dict[int, str]) -> None:
    """The humans of a table play it out at once (each seat: its token), then it is over."""
    players = [threading.Thread(target=play_seat, args=(server, table_id, s, tok)) for s, tok in seats.items()]
    for p in players:
        p.start()
    for p in players:
        p.join(timeout=300)
    wait_finished(server, table_id)


def me(server: LiveServer, key: str) -> httpx.Response:
    return httpx.get(f"{server.base}/api/players/me", headers={"Authorization": f"Bearer {key}"}, timeout=10)


def test_a_profile_is_a_name_and_a_secret_key_that_signs_in_anywhere(server: LiveServer) -> None:
    ann = new_player(server, "Ann")
    assert len(ann["key"]) >= 30 and ann["id"] != ann["key"]
    mine = me(server, ann["key"])
    assert mine.status_code == 200 and mine.json()["id"] == ann["id"] and mine.json()["name"] == "Ann"
    assert me(server, "not-a-key").status_code == 401
    assert httpx.get(f"{server.base}/api/players/me", timeout=10).status_code == 401
    renamed = httpx.patch(f"{server.base}/api/players/me", json={"name": "Annie"},
                          headers={"Authorization": f"Bearer {ann['key']}"}, timeout=10)
    assert renamed.status_code == 200
    public = server.get(f"/api/players/{ann['id']}").json()
    assert public["name"] == "Annie" and public["ratings"] == [] and public["history"] == []
    assert ann["key"] not in str(public)  # the key never leaves, not even hashed
    assert server.get("/api/players/nobody").status_code == 404
    assert server.post("/api/players", {"name": ""}).status_code == 422
    r = server.post("/api/tables/x/seats/0/claim", {"name": "", "player_key": "wrong"})
    assert r.status_code == 401 and r.json()["code"] == "bad_player_key"


def test_a_rated_game_changes_the_ratings_of_the_player_and_the_bot(server: LiveServer) -> None:
    ann = new_player(server, "Ann")
    r = server.post("/api/tables", {"game": "digging", "players": 2, "partnership": False, "claim": 0,
                                    "player_key": ann["key"], "seats": [HUMAN, {"kind": "bot", "bot": "heuristic"}]})
    assert r.status_code == 201, r.text
    table = r.json()["table"]
    assert table["seats"][0]["player"] == ann["id"] and table["seats"][0]["name"] == "Ann"
    play_seat(server, table["id"], 0, r.json()["you"]["token"])
    wait_finished(server, table["id"])

    profile = server.get(f"/api/players/{ann['id']}").json()
    (rating,) = profile["ratings"]
    assert rating["game"] == "digging" and rating["mode"] == "2p" and rating["games"] == 1
    assert rating["rating"] != 0  # an unrated profile starts at mu 25, sigma 25/3: ordinal 0
    (game,) = profile["history"]
    assert game["table"] == table["id"] and game["rating_after"] == rating["rating"] and game["rating_before"] == 0
    summary = server.get(f"/api/tables/{table['id']}/summary").json()
    assert game["won"] == (0 in summary["winners"])

    board = server.get("/api/leaderboard?game=digging&mode=2p").json()["players"]
    names = {row["name"]: row for row in board}
    assert set(names) == {"Ann", "heuristic"} and names["heuristic"]["bot"] == "heuristic"
    assert [row["rank"] for row in board] == [1, 2]
    assert board[0]["rating"] >= board[1]["rating"]
    winner, loser = ("Ann", "heuristic") if game["won"] else ("heuristic", "Ann")
    assert names[winner]["wins"] == 1 and names[winner]["rating"] > names[loser]["rating"]


def test_partners_are_rated_as_one_team(server: LiveServer) -> None:
    ann, cy = new_player(server, "Ann"), new_player(server, "Cy")
    seats = [HUMAN, {"kind": "bot", "bot": "random"}, HUMAN, {"kind": "bot", "bot": "heuristic"}]
    body = {"game": "digging", "players": 4, "claim": 0, "player_key": ann["key"], "seats": seats}
    r = server.post("/api/tables", body)
    tid, ann_token = r.json()["table"]["id"], r.json()["you"]["token"]
    cy_token = server.post(f"/api/tables/{tid}/seats/2/claim", {"name": "", "player_key": cy["key"]}).json()["token"]
    play_together(server, tid, {0: ann_token, 2: cy_token})
    a = server.get(f"/api/players/{ann['id']}").json()
    c = server.get(f"/api/players/{cy['id']}").json()
    # Two partners who had the same rating get the same new rating, and share the result.
    assert a["ratings"][0]["mode"] == "partnership"
    assert a["ratings"][0]["rating"] == c["ratings"][0]["rating"]
    assert a["history"][0]["won"] == c["history"][0]["won"] and a["history"][0]["score"] == c["history"][0]["score"]
    board = server.get("/api/leaderboard?game=digging&mode=partnership").json()["players"]
    assert {row["name"] for row in board} == {"Ann", "Cy", "random", "heuristic"}


def test_a_game_with_an_anonymous_human_is_kept_in_history_but_not_rated(server: LiveServer) -> None:
    ann = new_player(server, "Ann")
    r = server.post("/api/tables", {"game": "digging", "players": 3, "partnership": False, "claim": 0,
                                    "player_key": ann["key"], "seats": [HUMAN, HUMAN, BOTS]})
    tid, ann_token = r.json()["table"]["id"], r.json()["you"]["token"]
    anon = server.post(f"/api/tables/{tid}/seats/1/claim", {"name": "Guest"}).json()["token"]
    play_together(server, tid, {0: ann_token, 1: anon})
    profile = server.get(f"/api/players/{ann['id']}").json()
    assert profile["ratings"] == []
    assert profile["history"][0]["table"] == tid and profile["history"][0]["rating_after"] is None


def test_a_game_under_a_rule_option_is_kept_in_history_but_not_rated(server: LiveServer) -> None:
    # A ladder compares games of one set of rules: a game to 5 points is not a game to 40.
    ann = new_player(server, "Ann")
    r = server.post("/api/tables", {"game": "digging", "players": 2, "partnership": False, "claim": 0,
                                    "player_key": ann["key"], "options": {"target": 5},
                                    "seats": [HUMAN, {"kind": "bot", "bot": "heuristic"}]})  # fmt: skip
    assert r.status_code == 201, r.text
    tid = r.json()["table"]["id"]
    play_seat(server, tid, 0, r.json()["you"]["token"])
    wait_finished(server, tid)
    profile = server.get(f"/api/players/{ann['id']}").json()
    assert profile["ratings"] == []
    (game,) = profile["history"]
    assert game["table"] == tid and game["rating_before"] is None and game["rating_after"] is None
    board = server.get("/api/leaderboard?game=digging&mode=2p").json()["players"]
    assert all(row["name"] != "Ann" for row in board)


def test_a_bot_at_several_seats_keeps_its_rating_and_the_human_is_rated(server: LiveServer) -> None:
    ann = new_player(server, "Ann")
    body = {"game": "digging", "players": 4, "claim": 0, "player_key": ann["key"], "seats": [HUMAN, BOTS, BOTS, BOTS]}
    r = server.post("/api/tables", body)
    play_seat(server, r.json()["table"]["id"], 0, r.json()["you"]["token"])
    wait_finished(server, r.json()["table"]["id"])
    assert server.get(f"/api/players/{ann['id']}").json()["ratings"][0]["games"] == 1
    board = server.get("/api/leaderboard?game=digging&mode=partnership").json()["players"]
    assert [row["name"] for row in board] == ["Ann"]  # one game cannot tell which random bot was which
    # Its page lists the game at each of its seats, unrated: no "rating 0.0 → 0.0" as if it were rated.
    bot = server.get(f"/api/players/{bot_player_id(BOTS['bot'])}").json()
    assert bot["ratings"] == []
    assert sorted(g["seat"] for g in bot["history"]) == [1, 2, 3]
    assert all(g["rating_before"] is None and g["rating_after"] is None for g in bot["history"])


def test_a_name_shows_as_written_without_invisible_or_direction_turning_characters(server: LiveServer) -> None:
    # A right-to-left override in a name would turn the rest of every log line naming it around, in
    # everyone's browser; a zero-width name would be no name.
    assert new_player(server, "\u202eAnn\u200b ")["name"] == "Ann"
    assert new_player(server, "Zoë ا")["name"] == "Zoë ا"  # every script's letters stay
    for invisible in ("   ", "\u202e\u200b", "\ufeff"):
        r = server.post("/api/players", {"name": invisible})
        assert r.status_code == 422 and "visible character" in r.text, (invisible, r.text)
    created = server.create([HUMAN, BOTS], claim=0, player_name="\u2066Bo\u2069", name="\u202etable",
                            partnership=False)
    assert created["table"]["name"] == "table"
    assert created["table"]["seats"][0]["name"] == "Bo"


def test_control_characters_del_and_c1_are_refused_in_every_name(server: LiveServer) -> None:
    """Unicode's control characters are C0, DEL and C1 (U+0080 to U+009F) alike: U+0085 is a line
    break to some readers, and none of them shows in a name."""
    for control in ("\x07", "\x7f", "\x80", "\x85", "\x9b", "\x9f"):
        name = f"Ann{control}"
        r = server.post("/api/players", {"name": name})
        assert r.status_code == 422, (control, r.text)
        body = {"game": "digging", "players": 2, "partnership": False, "claim": 0}
        for more in ({"name": name}, {"player_name": name}):
            seats = [HUMAN, BOTS]
            r = server.post("/api/tables", {**body, "seats": seats, **more})
            assert r.status_code == 422, (control, more, r.text)
        r = server.post("/api/tables", {**body, "seats": [{"kind": "human", "name": name}, BOTS]})
        assert r.status_code == 422, (control, r.text)
    key = new_player(server, "Ann")["key"]
    renamed = httpx.patch(f"{server.base}/api/players/me", json={"name": "Ann\x85"},
                          headers={"Authorization": f"Bearer {key}"}, timeout=10)  # fmt: skip
    assert renamed.status_code == 422, renamed.text
    assert new_player(server, "Zoë\xa0Ann")["name"] == "Zoë\xa0Ann"  # U+00A0 and Latin-1's letters stay


def test_a_name_of_blank_letters_alone_has_no_visible_character(server: LiveServer) -> None:
    for blank in ("\u3164", "\u2800", "\u115f\u1160", "\uffa0 \u3164", "\u17b4"):
        r = server.post("/api/players", {"name": blank})
        assert r.status_code == 422 and "visible character" in r.text, (blank, r.text)
    assert new_player(server, "\u2800Bo")["name"] == "\u2800Bo"  # beside a letter, it is part of a name


def test_renaming_a_profile_too_fast_is_refused_with_429_and_retry_after(tmp_path: Any) -> None:
    """Each rename is a write to the database: it counts against --claim-rate."""
    server = LiveServer(tmp_path / "rename.db", rate_limits=True, claim_rate="2/minute").start()
    try:
        key = new_player(server, "Ann")["key"]

        def rename(name: str) -> httpx.Response:
            return httpx.patch(f"{server.base}/api/players/me", json={"name": name},
                               headers={"Authorization": f"Bearer {key}"}, timeout=10)  # fmt: skip

        assert rename("Bea").status_code == 200 and rename("Cy").status_code == 200
        r = rename("Di")
        assert r.status_code == 429 and r.json()["code"] == "rate_limited" and int(r.headers["Retry-After"]) > 0
        assert me(server, key).json()["name"] == "Cy"
    finally:
        server.stop()


def test_a_profile_that_never_took_a_seat_is_deleted_after_its_expiry(database: Any) -> None:
    # Profiles cost a request each and were kept for ever: one that never sat down goes after
    # --unused-profile-expiry (30 days by default; 2 s here). One that took a seat stays, and so do
    # the bots' profiles the ratings made.
    server = LiveServer(database, unused_profile_expiry=2.0, sweep_every=0.1).start()
    try:
        idle, player = new_player(server, "Idle"), new_player(server, "Ann")
        r = server.post("/api/tables", {"game": "digger", "players": 2, "seats": [HUMAN, BOTS], "claim": 0,
                                        "player_key": player["key"]})
        assert r.status_code == 201, r.text
        deadline = time.monotonic() + 120
        while me(server, idle["key"]).status_code != 401:
            assert time.monotonic() < deadline, "the unused profile was not deleted"
            time.sleep(0.2)
        assert server.get(f"/api/players/{idle['id']}").status_code == 404
        assert me(server, player["key"]).status_code == 200
        # The key of a deleted profile is refused as any unknown key is (a browser then makes a new one).
        again = server.post("/api/tables", {"game": "digger", "players": 2, "seats": [HUMAN, BOTS], "claim": 0,
                                            "player_key": idle["key"]})
        assert again.status_code == 401 and again.json()["code"] == "bad_player_key"
    finally:
        server.stop()


def test_a_seat_whose_profile_was_deleted_meanwhile_plays_on_unrated() -> None:
    # The sweep may delete an unused profile in the moment between its key's look-up and the seat
    # it takes: the game's end then rates nobody and stores the rest, rather than failing on the row.
    from sqlalchemy import create_engine, event, select
    from sqlalchemy.orm import Session

    from goldfields.server.models import Base, PlayerRow, RatingRow, ResultRow, TableRow
    from goldfields.server.ratings import SeatResult, record_results

    engine = create_engine("sqlite://")
    event.listen(engine, "connect", lambda conn, _: conn.execute("PRAGMA foreign_keys=ON"))
    Base.metadata.create_all(engine)
    with Session(engine) as s:
        s.add(TableRow(id="t", game="digger", name="", config={}, secret="x", status="finished",
                       created_at=0.0, updated_at=0.0))
        s.flush()
        record_results(s, "t", "digger", "2p", [SeatResult(0, "gone", None, 0, 0, 30),
                                                SeatResult(1, None, "random", 1, 1, 20)], now=1.0)  # fmt: skip
        s.commit()
        assert s.scalars(select(RatingRow)).all() == []
        assert [(r.seat, r.rating_before) for r in s.scalars(select(ResultRow))] == [(1, None)]
        assert s.get(PlayerRow, "gone") is None
