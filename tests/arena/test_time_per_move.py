"""Each seat's thinking time: measured per game, shown per entrant under the table, never saved in the CSV files.

An equal-time match (docs/network.md) gives two searches the iteration budgets that take the same time;
the arena's table shows what each entrant spent a decision where the match was played.
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from goldfields.arena import GameResult, GameSpec, Tournament, run_tournament, time_line, time_per_move
from goldfields.cli.app import app

SPEC = GameSpec.make("digging", 2)


def test_each_seat_s_decisions_are_timed_and_shown_as_the_time_a_decision_of_each_entrant(tmp_path: Path) -> None:
    lineup = ("ismcts:iterations=100", "ismcts:iterations=2")
    t = Tournament(SPEC, lineup, games=2, seed=3, jobs=1, out=tmp_path, records=False)
    result = run_tournament(t, progress=False)
    for r in result.results:
        assert len(r.think) == len(r.moves) == SPEC.players
        assert sum(r.moves) == r.decisions
        assert all(m > 0 for m in r.moves) and all(s > 0 for s in r.think)
        assert sum(r.think) <= r.seconds
    slow, fast = time_per_move(lineup, result.results)
    assert slow is not None and fast is not None
    # Fifty times the iterations: some twenty times the time, measured with both cores busy. Both sides
    # play in turn in the same process, so a busy machine slows both. The margin is wide on purpose:
    # this checks which seat the time goes to, not the speed.
    assert slow > 2 * fast
    line = time_line(lineup, [slow, fast])
    assert line == f"time a decision: {lineup[0]} {1000 * slow:.1f} ms, {lineup[1]} {1000 * fast:.1f} ms"
    # Wall time is not deterministic: the CSV files, which equal seeds make byte-identical, leave it out.
    assert "think" not in (tmp_path / "games.csv").read_text()
    assert "ms" not in (tmp_path / "summary.csv").read_text().splitlines()[0]
    journal = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert [GameResult.from_json(j).think for j in journal] == [r.think for r in result.results]


def test_a_journal_written_before_times_were_measured_still_loads_and_shows_no_time() -> None:
    old = {
        "index": 0, "deal": 0, "rotation": 0, "seat_bots": ["heuristic", "random"], "seat_entrants": [0, 1],
        "scores": [30, 12], "returns": [1.0, 0.0], "winners": [0], "hand_points": [[5, 2]], "decisions": 80,
        "seconds": 0.4,
    }  # fmt: skip
    result = GameResult.from_json(old)
    assert result.think == () and result.moves == ()
    assert time_per_move(("heuristic", "random"), [result]) == [None, None]
    assert time_line(("heuristic", "random"), [None, None]) is None


def test_the_arena_command_prints_each_entrant_s_time_a_decision(tmp_path: Path) -> None:
    out = tmp_path / "run"
    done = CliRunner(env={"COLUMNS": "200"}).invoke(
        app, ["arena", "heuristic", "random", "--players", "2", "--games", "2", "--jobs", "1", "--quiet",
              "--no-records", "--out", str(out)],
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    assert "time a decision: heuristic " in done.output and " ms, random " in done.output
