"""Which keys `goldfields replay` prints, whatever the input: a script reads them without guessing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from goldfields.records import MALFORMED, OK, replay, replay_file

GAME_KEYS = {
    "digging": {"ok", "error", "hands", "totals", "winner", "state"},
    "digger": {"ok", "error", "scores", "game_over", "winner", "state"},
}

VALID = {
    "digging": {"game": "digging", "players": 2, "hands": []},
    "digger": {"game": "digger", "players": 3, "crates": "white", "moves": ["roll YBRRG @0", "take Y"]},
}


@pytest.mark.parametrize(
    "text",
    ["{not json", "[1, 2]", '"digging"', "null", '{"players": 4}', '{"game": "chess", "moves": []}', '{"game": 7}',
     '{"game": ["digging"]}', "[" * 100_000 + "]" * 100_000],
    ids=["not-json", "list", "string", "null", "no-game", "unknown-game", "game-not-a-name", "game-a-list",
         "nested-too-deep"],
)
def test_input_naming_no_known_game_prints_ok_and_error_alone(text: str, tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    path.write_text(text)
    report, status = replay_file(path)
    assert status == MALFORMED
    assert report["ok"] is False and set(report) == {"ok", "error"}
    assert set(report["error"]) == {"move", "message"} and report["error"]["move"] is None


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('{"game": "digging", "pla', "(JSON): Unterminated string starting at (line 1, column 21)"),
        ("[" * 100_000 + "]" * 100_000, "is not a game record: its JSON is nested too deeply"),
        (b"\xff\xfe{}", "is not a game record (JSON): it is not UTF-8 text"),
        ("{}", "the record has no field 'game', which names its game (digging, digger)"),
        ('{"game": ["digging"]}', 'the field \'game\' names a game, as text, not ["digging"]'),
    ],
    ids=["truncated", "nested-too-deep", "not-utf8", "no-game", "game-a-list"],
)
def test_a_file_that_is_no_record_is_told_what_is_wrong(text: str | bytes, said: str, tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    assert said in replay_file(path)[0]["error"]["message"]


def test_a_missing_file_prints_ok_and_error_alone(tmp_path: Path) -> None:
    report, status = replay_file(tmp_path / "nope.json")
    assert status == MALFORMED and set(report) == {"ok", "error"}
    assert "cannot read" in report["error"]["message"]


@pytest.mark.parametrize("game", sorted(GAME_KEYS))
def test_a_valid_record_prints_its_games_keys(game: str) -> None:
    report, status = replay(VALID[game])
    assert status == OK and set(report) == GAME_KEYS[game]


@pytest.mark.parametrize(
    ("game", "change"),
    [
        ("digging", {"players": 9}),
        ("digging", {"hands": "none"}),
        ("digging", {"options": {"no_such_rule": True}}),
        ("digger", {"players": 9}),
        ("digger", {"crates": None}),
        ("digger", {"moves": "roll"}),
    ],
)
def test_a_malformed_record_of_a_known_game_prints_every_key_of_that_game(game: str, change: dict[str, Any]) -> None:
    record = {k: v for k, v in {**VALID[game], **change}.items() if v is not None}
    report, status = replay(json.loads(json.dumps(record)))
    assert status == MALFORMED
    assert set(report) == GAME_KEYS[game]
    assert report["ok"] is False and report["error"]["move"] is None and report["state"] is None


def test_the_docs_name_every_key_of_each_games_report() -> None:
    docs = Path(__file__).parents[2] / "docs"
    tables = {"digging": (docs / "records.md").read_text(), "digger": (docs / "digger.md").read_text()}
    for game, text in tables.items():
        for key in GAME_KEYS[game]:
            assert f"| `{key}` |" in text, (game, key)
