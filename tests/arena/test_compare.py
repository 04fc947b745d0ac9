"""Saved runs side by side (goldfields arena --standing A --standing B): a designer's variant
against the rules, each figure the one the run's own summary gives."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from goldfields.arena import GameSpec, Tournament, run_tournament
from goldfields.arena.compare import comparison_rows, entrant_columns, standing_of
from goldfields.cli import arena as arena_cli

LINEUP = ("heuristic", "random")


def _app() -> typer.Typer:
    app = typer.Typer()
    arena_cli.register(app)
    app.command("noop", hidden=True)(lambda: None)  # two commands: invoked as "arena ..."
    return app


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    rules, variant = tmp_path_factory.mktemp("rules"), tmp_path_factory.mktemp("hand8")
    spec = GameSpec.make("digging", 2)
    run_tournament(Tournament(spec, LINEUP, games=6, seed=4, jobs=1, out=rules), progress=False)
    run_tournament(Tournament(spec.with_rules({"hand_size": 8}), LINEUP, games=6, seed=4, jobs=1, out=variant),
                   progress=False)  # fmt: skip
    return rules, variant


def test_each_runs_figures_are_those_of_its_own_summary(runs: tuple[Path, Path]) -> None:
    for out in runs:
        run = standing_of(out)
        with (out / "summary.csv").open() as f:
            summary = {row["bot"]: row for row in csv.DictReader(f)}
        assert run.played == run.total == 6
        for e in run.entrants:
            assert e.wins == pytest.approx(float(summary[e.bot]["wins"]))
        with (out / "sides.csv").open() as f:
            assert [float(r["win_rate"]) for r in csv.DictReader(f)] == pytest.approx(
                [r["win_rate"] for r in run.sides], abs=1e-4)  # the file's 4 places
    assert entrant_columns([standing_of(o) for o in runs]) == ["heuristic", "random"]


def test_the_comparison_reads_as_text_outside_the_command_line(runs: tuple[Path, Path]) -> None:
    # A notebook gets the table the command prints, a row a run, each cell the run's own figure.
    standings = [standing_of(o) for o in runs]
    columns, rows = comparison_rows(standings)
    assert columns == ["run", "table", "games", "heuristic win %", "random win %", "win % by side", "decisions",
                       "hands", "margin"]  # fmt: skip
    assert [row[:3] for row in rows] == [[str(runs[0]), "digging 2p individual", "6"],
                                         [str(runs[1]), "digging 2p individual (hand_size=8)", "6"]]  # fmt: skip
    for run, row in zip(standings, rows, strict=True):
        heuristic = run.entrant("heuristic")
        assert heuristic is not None and row[3].startswith(f"{100 * heuristic.win_rate:.1f} (")
        assert row[6] == f"{run.lengths['decisions']['median']:g}"


def test_the_runs_print_side_by_side_with_their_rules_and_draw_a_chart(runs: tuple[Path, Path],
                                                                      tmp_path: Path) -> None:  # fmt: skip
    pytest.importorskip("matplotlib")
    rules, variant = runs
    before = {p: p.read_bytes() for out in runs for p in out.rglob("*") if p.is_file()}
    chart = tmp_path / "variants.png"
    shown = CliRunner(env={"COLUMNS": "250"}).invoke(
        _app(), ["arena", "--standing", str(rules), "--standing", str(variant), "--chart", str(chart)])
    assert shown.exit_code == 0, shown.output
    assert "runs side by side" in shown.output
    assert "digging 2p individual (hand_size=8)" in shown.output and "heuristic win %" in shown.output
    assert chart.read_bytes().startswith(b"\x89PNG")
    assert {p: p.read_bytes() for out in runs for p in out.rglob("*") if p.is_file()} == before  # nothing written


def test_a_chart_needs_two_runs_and_each_folder_must_hold_one(runs: tuple[Path, Path], tmp_path: Path) -> None:
    cli = CliRunner(env={"COLUMNS": "250"})
    one = cli.invoke(_app(), ["arena", "--standing", str(runs[0]), "--chart", str(tmp_path / "c.png")])
    assert one.exit_code == 2 and "--chart draws two or more runs side by side" in one.output
    empty = cli.invoke(_app(), ["arena", "--standing", str(runs[0]), "--standing", str(tmp_path / "nowhere")])
    assert empty.exit_code == 2 and "holds no arena run" in empty.output
    into_folder = cli.invoke(_app(), ["arena", "--standing", str(runs[0]), "--standing", str(runs[1]),
                                      "--chart", str(tmp_path)])  # fmt: skip
    assert into_folder.exit_code == 2 and "--chart:" in into_folder.output and "is a folder" in into_folder.output
    assert not (tmp_path / "c.png").exists()


def test_a_chart_never_lands_on_a_run_nor_replaces_a_file_unless_forced(runs: tuple[Path, Path],
                                                                        tmp_path: Path) -> None:  # fmt: skip
    pytest.importorskip("matplotlib")
    cli = CliRunner(env={"COLUMNS": "250"})
    both = ["arena", "--standing", str(runs[0]), "--standing", str(runs[1])]
    manifest = (runs[0] / "arena.json").read_bytes()
    onto = cli.invoke(_app(), [*both, "--chart", str(runs[0] / "arena.json")])
    assert onto.exit_code == 2 and "is inside the run" in onto.output
    assert (runs[0] / "arena.json").read_bytes() == manifest
    chart = tmp_path / "variants.png"
    chart.write_text("last week's chart")
    kept = cli.invoke(_app(), [*both, "--chart", str(chart)])
    assert kept.exit_code == 2 and "already exists" in kept.output and chart.read_text() == "last week's chart"
    forced = cli.invoke(_app(), [*both, "--chart", str(chart), "--force"])
    assert forced.exit_code == 0, forced.output
    assert chart.read_bytes().startswith(b"\x89PNG")


def test_runs_of_two_games_are_not_put_side_by_side_and_a_run_of_no_games_is(runs: tuple[Path, Path],
                                                                            tmp_path: Path) -> None:  # fmt: skip
    digger = tmp_path / "digger"
    run_tournament(Tournament(GameSpec.make("digger", 2), LINEUP, games=2, seed=1, jobs=1, out=digger),
                   progress=False)  # fmt: skip
    cli = CliRunner(env={"COLUMNS": "250"})
    mixed = cli.invoke(_app(), ["arena", "--standing", str(runs[0]), "--standing", str(digger)])
    assert mixed.exit_code == 2 and "runs side by side are of one game" in mixed.output
    empty = tmp_path / "empty"
    empty.mkdir()
    for name in ("arena.json",):  # a run stopped before its first game: its manifest alone
        (empty / name).write_bytes((runs[0] / name).read_bytes())
    shown = cli.invoke(_app(), ["arena", "--standing", str(runs[0]), "--standing", str(empty),
                                "--chart", str(tmp_path / "c.png")])  # fmt: skip
    assert shown.exit_code == 0, shown.output
    assert "0 of 6" in shown.output
