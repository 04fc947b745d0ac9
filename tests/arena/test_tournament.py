"""Small tournaments: strength ordering, determinism, and records that replay."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from goldfields.arena import GameSpec, Tournament, run_tournament
from goldfields.digging import DiggingState
from goldfields.digging.options import DiggingOptions


def _replay(record: dict) -> DiggingState:
    """Rebuild a game from its record: the decks dealt and the moves played."""
    hands = record["hands"]
    state = DiggingState(record["players"], record["partnership"], DiggingOptions.from_json(record.get("options")),
                         hands[0]["dealer"])
    for hand in hands:
        assert state.is_chance_node()
        state.apply_chance(hand["deck"])
        for move in hand["moves"]:
            state.apply_move(move)
    return state


def test_heuristic_beats_random(tmp_path: Path) -> None:
    t = Tournament(GameSpec.make("digging", 4), ("heuristic", "random"), games=10, seed=11, jobs=1,
                   out=tmp_path)
    result = run_tournament(t, progress=False)
    heuristic = next(e for e in result.summary if e.bot == "heuristic")
    # Generous: the heuristic wins nearly all of these; chance alone would give 50%.
    assert heuristic.games == 10
    assert heuristic.ci_low > 0.6 and heuristic.boot_low > 0.6
    # Two entrants: no Elo, which would only restate the win rate.
    assert heuristic.elo is None


def test_self_play_counts_each_copy_as_an_entrant(tmp_path: Path) -> None:
    t = Tournament(GameSpec.make("digging", 2), ("heuristic", "heuristic"), games=24, seed=1, jobs=1, out=tmp_path)
    result = run_tournament(t, progress=False)
    assert [e.bot for e in result.summary] == ["heuristic #1", "heuristic #2"]
    assert [e.spec for e in result.summary] == ["heuristic", "heuristic"]
    one, two = result.summary
    assert one.games == two.games == 24
    assert one.wins + two.wins == pytest.approx(24)
    # Near 50%: the same bot on both sides of the same deals.
    assert 0.25 <= one.win_rate <= 0.75
    assert one.boot_low <= 0.5 <= one.boot_high  # parity inside the interval (a bound may sit on it)
    rows = (tmp_path / "games.csv").read_text().splitlines()
    assert rows[1].split(",")[3:5] == ["heuristic #1", "heuristic #2"]
    assert rows[2].split(",")[3:5] == ["heuristic #2", "heuristic #1"]


def test_three_entrants_get_an_elo_and_equal_specs_stay_apart(tmp_path: Path) -> None:
    t = Tournament(GameSpec.make("digger", 3), ("heuristic", "random", "random"), games=6, seed=3, jobs=1,
                   out=tmp_path)
    result = run_tournament(t, progress=False)
    assert [e.bot for e in result.summary] == ["heuristic", "random #1", "random #2"]
    assert all(e.elo is not None for e in result.summary)
    assert sum(e.wins for e in result.summary) == pytest.approx(6)


def test_same_seed_same_csv_whatever_the_pool(tmp_path: Path) -> None:
    spec = GameSpec.make("digging", 2)
    lineup = ("heuristic", "ismcts:iterations=20")
    one = Tournament(spec, lineup, games=4, seed=3, jobs=1, out=tmp_path / "one")
    two = Tournament(spec, lineup, games=4, seed=3, jobs=2, out=tmp_path / "two")
    run_tournament(one, progress=False)
    run_tournament(two, progress=False)
    for name in ("games.csv", "summary.csv"):
        assert (tmp_path / "one" / name).read_text() == (tmp_path / "two" / name).read_text()
    other = Tournament(spec, lineup, games=2, seed=4, jobs=1, out=tmp_path / "other")
    run_tournament(other, progress=False)
    first_game = (tmp_path / "one" / "games.csv").read_text().splitlines()[1]
    assert (tmp_path / "other" / "games.csv").read_text().splitlines()[1] != first_game
    if importlib.util.find_spec("matplotlib") is not None:
        assert (tmp_path / "one" / "chart.png").stat().st_size > 1000


@pytest.mark.parametrize(("players", "partnership"), [(4, True), (3, False)])
def test_records_replay_to_the_reported_result(tmp_path: Path, players: int, partnership: bool) -> None:
    lineup = ("heuristic", "random") if partnership else ("heuristic", "random", "random")
    # One deal, played once per rotation of the lineup.
    t = Tournament(GameSpec.make("digging", players, partnership), lineup, games=len(lineup), seed=5, jobs=1,
                   out=tmp_path)
    result = run_tournament(t, progress=False)
    files = sorted((tmp_path / "records").glob("game-*.json"))
    assert len(files) == len(result.results) == len(lineup)
    for path, game in zip(files, result.results, strict=True):
        state = _replay(json.loads(path.read_text()))
        assert state.is_terminal()
        assert tuple(state.scores()) == game.scores
        assert tuple(state.winners() or ()) == game.winners
    # Duplicate deals: every rotation of a deal was dealt the same first deck.
    decks = {" ".join(json.loads(p.read_text())["hands"][0]["deck"]) for p in files}
    assert len(decks) == 1


def test_digger_tournament_heuristic_beats_random_and_records_replay(tmp_path: Path) -> None:
    from goldfields.digger.replay import replay

    t = Tournament(GameSpec.make("digger", 3), ("heuristic", "random", "random"), games=9, seed=2, jobs=1,
                   out=tmp_path)
    result = run_tournament(t, progress=False)
    heuristic = next(e for e in result.summary if e.bot == "heuristic")
    assert heuristic.games == 9 and heuristic.wins >= 7  # chance alone: 3 of 9
    assert [e.bot for e in result.summary] == ["heuristic", "random #1", "random #2"]
    for path, game in zip(sorted((tmp_path / "records").glob("game-*.json")), result.results, strict=True):
        report, status = replay(json.loads(path.read_text()))
        assert status == 0, report["error"]
        assert report["game_over"] and tuple(report["scores"]) == game.scores


def test_goldfields_replay_accepts_arena_records(tmp_path: Path) -> None:
    app_module = pytest.importorskip("goldfields.cli.app")
    from typer.testing import CliRunner

    t = Tournament(GameSpec.make("digging", 2), ("heuristic", "random"), games=2, seed=9, jobs=1, out=tmp_path)
    run_tournament(t, progress=False)
    for path in sorted((tmp_path / "records").glob("game-*.json")):
        result = CliRunner().invoke(app_module.app, ["replay", str(path)])
        assert result.exit_code == 0, result.output
        assert json.loads(result.output)["ok"] is True


def test_results_that_come_out_of_order_are_handed_on_in_order_each_once_those_before_it_came() -> None:
    from goldfields.arena.runner import InOrder

    heard: list[str] = []
    hear = InOrder(heard.append)
    for index, result in [(1, "b"), (3, "d"), (0, "a"), (4, "e"), (2, "c")]:
        hear(index, result)
        # Whatever has come, what has been handed on is the first results and nothing after a gap.
        assert heard == ["a", "b", "c", "d", "e"][: len(heard)]
    assert heard == ["a", "b", "c", "d", "e"]
