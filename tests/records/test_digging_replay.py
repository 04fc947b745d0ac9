"""`goldfields replay` on Digging records: the report, the exit statuses, the errors."""

from __future__ import annotations

import copy
import json
import random

import pytest

from goldfields.digging import DiggingState
from goldfields.records import ILLEGAL, MALFORMED, OK, replay, replay_file


def play_random(players: int, partnership: bool, seed: int, stop_after: int | None = None) -> DiggingState:
    rng = random.Random(seed)
    state = DiggingState(players, partnership)
    steps = 0
    while not state.is_terminal() and (stop_after is None or steps < stop_after):
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        steps += 1
    return state


@pytest.fixture(scope="module")
def finished() -> DiggingState:
    return play_random(4, True, seed=11)


def test_a_finished_game_replays_ok(finished: DiggingState) -> None:
    report, status = replay(finished.record())
    assert status == OK
    assert report["ok"] is True and report["error"] is None
    assert report["totals"] == finished.scores()
    assert report["winner"] == finished.winners()
    assert [h["points"] for h in report["hands"]] == finished.history
    assert all(h["over"] for h in report["hands"])
    assert report["state"]["to_move"] is None


def test_a_game_in_progress_reports_its_position() -> None:
    state = play_random(3, False, seed=5, stop_after=40)
    report, status = replay(state.record())
    assert status == OK
    now = report["state"]
    assert now["to_move"] == state.current_player
    assert now["pile"] == state.pile_size
    assert now["hands"] == [state.hand_codes(s) for s in range(3)]
    assert now["mines"] == [m.to_json() for m in state.mines]
    assert report["hands"][-1] == {"points": state.hand_points(), "over": False}


def test_an_illegal_move_is_named_with_its_hand_and_index(finished: DiggingState) -> None:
    record = copy.deepcopy(finished.record())
    record["hands"][0]["moves"][5] = "play B12 m9"
    report, status = replay(record)
    assert status == ILLEGAL
    assert report["ok"] is False
    assert report["error"]["hand"] == 0 and report["error"]["move"] == 5
    assert "B12" in report["error"]["message"]
    # The position reported is the one before the bad move.
    assert report["state"]["to_move"] is not None


def test_a_move_after_the_hand_is_over_is_illegal(finished: DiggingState) -> None:
    record = copy.deepcopy(finished.record())
    record["hands"][-1]["moves"].append("draw")
    report, status = replay(record)
    assert status == ILLEGAL
    assert report["error"]["move"] == len(record["hands"][-1]["moves"]) - 1
    assert report["error"]["message"].startswith("'draw': D7")


@pytest.mark.parametrize(
    ("mutate", "hand"),
    [
        (lambda r: r.update(game="chess"), None),
        (lambda r: r.update(players=5), None),
        (lambda r: r.update(partnership="yes"), None),
        (lambda r: r.update(options={"no_such_rule": True}), None),
        (lambda r: r.update(hands=[]), None),
        (lambda r: r["hands"][0]["deck"].pop(), 0),
        (lambda r: r["hands"][0]["deck"].__setitem__(0, "ZZ"), 0),
        (lambda r: r["hands"][0].update(moves="draw"), 0),
        (lambda r: r["hands"].append(copy.deepcopy(r["hands"][0])), -1),
    ],
    ids=["game", "players", "partnership", "option", "no-hands", "short-deck", "bad-card", "moves", "after-end"],
)
def test_malformed_records_exit_2(finished: DiggingState, mutate, hand) -> None:
    record = copy.deepcopy(finished.record())
    mutate(record)
    report, status = replay(record)
    assert status == MALFORMED
    assert report["ok"] is False and report["error"]["move"] is None
    if hand is not None:
        assert report["error"]["hand"] == (hand if hand >= 0 else len(record["hands"]) - 1)


def test_the_dealer_must_move_on(finished: DiggingState) -> None:
    if len(finished.record()["hands"]) < 2:
        pytest.skip("one-hand game")
    record = copy.deepcopy(finished.record())
    record["hands"][1]["dealer"] = (record["hands"][1]["dealer"] + 1) % 4
    report, status = replay(record)
    assert status == MALFORMED
    assert report["error"]["hand"] == 1 and "D9" in report["error"]["message"]


def test_unreadable_files_are_malformed(tmp_path) -> None:
    report, status = replay_file(tmp_path / "missing.json")
    assert status == MALFORMED and "cannot read" in report["error"]["message"]
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    report, status = replay_file(broken)
    assert status == MALFORMED and "not valid JSON" in report["error"]["message"]


def test_records_are_plain_json(finished: DiggingState) -> None:
    record = finished.record()
    assert json.loads(json.dumps(record)) == record
    assert set(record) == {"game", "players", "partnership", "hands"}
    assert all(set(h) == {"dealer", "deck", "moves"} for h in record["hands"])
