"""The Digger replay (``goldfields replay``): the report and its three exit statuses."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from goldfields.clocks import TimeModel
from goldfields.digger import DiggerOptions
from goldfields.digger.replay import ILLEGAL, MALFORMED, OK, replay

from .scenario import random_game

SHORT = {
    "game": "digger",
    "players": 3,
    "crates": {"black": ["A", "C", "E"]},
    "options": {},
    "moves": ["roll YBRRG @0", "take Y", "roll BKKGG @2", "take B", "stop @3", "roll KRRYB @0", "steal Y 0", "take B"],
}


def test_a_legal_record_in_progress_reports_the_position() -> None:
    report, status = replay(SHORT)
    assert status == OK
    assert json.loads(json.dumps(report)) == report
    assert report == {
        "ok": True,
        "error": None,
        "scores": [0, 0, 0],
        "game_over": False,
        "winner": None,
        "state": {
            "to_move": 1,
            "centre": {"B": 8, "Y": 9, "R": 10, "G": 10, "W": 10},
            "crates": [{"Y": 0, "R": 0, "G": 0, "W": 0}] * 3,
            "haul": {"B": 1, "Y": 1, "R": 0, "G": 0, "W": 0},
            "box": {"B": 1},
        },
    }


def test_a_finished_game_replays_ok() -> None:
    state = random_game(4, players=4, model=TimeModel(roll=3.0, jitter=0.5))
    report, status = replay(json.loads(json.dumps(state.record())))
    assert status == OK and report["ok"]
    assert report["game_over"] is True and report["state"]["to_move"] is None
    assert report["scores"] == state.scores() and report["winner"] == state.winners()
    assert report["state"]["centre"]["B"] == 0
    assert (
        sum(report["state"]["centre"].values())
        + sum(report["state"]["haul"].values())
        + report["state"]["box"]["B"]
        + sum(sum(c.values()) for c in report["state"]["crates"])
        == 50
    )


def test_options_replay_with_their_outcomes() -> None:
    state = random_game(7, options=DiggerOptions(knock_probability=0.5, time_limit=12.0))
    record = state.record()
    assert record["options"] == {"knock_probability": 0.5, "time_limit": 12.0}
    assert any({"knock", "safe"} & set(m.split()) for m in record["moves"])  # its outcome, then its time
    report, status = replay(record)
    assert status == OK and report["scores"] == state.scores()


@pytest.mark.parametrize(
    ("index", "move", "rule"),
    [
        (1, "take R", "G2"),  # red shows twice
        (4, "stop @1", "G4"),  # time runs backwards
        (5, "roll KRRYB @3", "G3"),  # a turn's first roll is at 0
        (6, "steal B 0", "G2"),  # blue is never stolen
        (6, "dig Y", "notation"),
        (7, "take B 2", "notation"),
    ],
)
def test_an_illegal_move_exits_1_with_its_index(index: int, move: str, rule: str) -> None:
    record = copy.deepcopy(SHORT)
    record["moves"][index] = move
    report, status = replay(record)
    assert status == ILLEGAL and report["ok"] is False
    assert report["error"]["move"] == index
    assert report["error"]["message"].startswith(f"{move!r}: {rule}: ")
    # The position reported is the one before the illegal move.
    good, _ = replay({**SHORT, "moves": SHORT["moves"][:index]})
    assert report["state"] == good["state"]


def test_a_move_after_the_end_is_illegal() -> None:
    state = random_game(2, players=2)
    record = state.record()
    record["moves"].append("roll KKKKK @0")
    report, status = replay(record)
    assert status == ILLEGAL and report["error"]["move"] == len(record["moves"]) - 1
    assert "G6" in report["error"]["message"] and report["game_over"] is True


def _with(**changes: Any) -> dict[str, Any]:
    record = copy.deepcopy(SHORT)
    for key, value in changes.items():
        if value is None:
            del record[key]
        else:
            record[key] = value
    return record


@pytest.mark.parametrize(
    ("record", "words"),
    [
        ([1, 2], "JSON object"),
        (_with(game="digging"), "not a Digger record"),
        (_with(players=6), "players"),
        (_with(players=1), "players"),
        (_with(players="3"), "players"),
        (_with(players=True), "players"),
        (_with(crates={"black": ["A", "C", "X"]}), "unknown black crate card"),
        (_with(crates={"black": ["A", "C"]}), "one card per seat"),
        (_with(crates={"black": ["A", "A", "C"]}), "different"),
        (_with(crates="grey"), "crates"),
        (_with(crates=None), "crates is missing"),
        (_with(options={"hourglass": 20}), "unknown Digger rule option"),
        (_with(options={"time_limit": "long"}), "time_limit"),
        (_with(options={"knock_probability": 2}), "knock_probability"),
        (_with(options={"crate_values": {"white": {"Y": 1}}}), "crate card white"),
        (_with(options=[1]), "options must be an object"),
        (_with(moves="roll"), "moves"),
        (_with(moves=["roll KRGBY @0", 3]), "moves"),
        (_with(moves=None), "moves"),
        (_with(result="1-0"), "unknown field"),
    ],
)
def test_a_malformed_record_exits_2(record: Any, words: str) -> None:
    report, status = replay(record)
    assert status == MALFORMED
    assert report["ok"] is False and report["error"]["move"] is None
    assert words in report["error"]["message"]
    assert report["state"] is None and report["winner"] is None


def test_the_shared_replay_dispatches_digger_records() -> None:
    records = pytest.importorskip("goldfields.records")
    assert records.replay(SHORT) == replay(SHORT)


def test_the_example_in_the_docs_replays_to_the_output_shown() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "digger.md").read_text(encoding="utf-8")
    section = doc.split("## Records and replay", 1)[1]
    blocks = [block.split("```", 1)[0] for block in section.split("```json")[1:]]
    record, shown = (json.loads(block) for block in blocks[:2])
    assert replay(record) == (shown, OK)
    bad = copy.deepcopy(record)
    bad["moves"][8] = "steal B 0"
    report, status = replay(bad)
    assert status == ILLEGAL
    assert f'`"{report["error"]["message"]}"`' in doc
