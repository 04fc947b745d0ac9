from __future__ import annotations

import importlib.util
from collections.abc import Callable
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from goldfields.cli import arena


def _app() -> typer.Typer:
    app = typer.Typer(add_completion=False)
    arena.register(app)

    @app.command("other")
    def other() -> None:  # a second command, so "arena" stays a sub-command
        pass

    return app


def test_help_describes_the_arena() -> None:
    result = CliRunner(env={"COLUMNS": "120"}).invoke(_app(), ["arena", "--help"])
    assert result.exit_code == 0
    text = " ".join(result.output.split())  # undo Rich's wrapping
    assert "duplicate deals" in text
    assert "--ray" in text and "--jobs" in text


def test_a_level_plays_the_lobbys_bot_of_that_level_for_the_table(tmp_path: Path) -> None:
    from goldfields.arena.store import read_manifest

    result = CliRunner(env={"COLUMNS": "200"}).invoke(
        _app(), ["arena", "Easy", "medium", "-g", "2", "--jobs", "1", "-q", "--no-records", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert list(read_manifest(tmp_path)["lineup"]) == ["random", "heuristic"]


@pytest.mark.parametrize(
    ("table", "kind"), [([], "partnership"), (["-n", "3"], "3p"), (["-n", "4", "--individual"], "4p")]
)
def test_a_level_is_the_bot_of_its_kind_of_table_and_says_it_plays_for_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, table: list[str], kind: str
) -> None:
    from goldfields.core import registry
    from goldfields.core.definition import LEVEL_SECONDS

    asked: list[tuple[str, ...]] = []

    def capture(t: arena.Tournament, *args: object, announce: Callable[[], None], **kwargs: object) -> None:
        asked.append(t.lineup)  # the lineup the run would play: no game is played
        announce()
        raise typer.Exit(0)

    monkeypatch.setattr(arena, "run_tournament", capture)
    sides = 2 if kind == "partnership" else int(kind[0])
    result = CliRunner(env={"COLUMNS": "400"}).invoke(
        _app(), ["arena", "hard", *["heuristic"] * (sides - 1), *table, "-g", "2", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    hard = registry.get("digging").kind_levels(kind)["hard"]
    assert asked == [(f"{hard},seconds={LEVEL_SECONDS:g}", *["heuristic"] * (sides - 1))]
    said = " ".join(result.output.split())
    assert f"hard thinks {LEVEL_SECONDS:g} s a move, so the results depend on this machine" in said
    assert f"give the search an iteration budget ({hard},iterations=N)" in said


def test_bad_bot_spec_is_a_clear_error(tmp_path: Path) -> None:
    result = CliRunner(env={"COLUMNS": "120"}).invoke(
        _app(), ["arena", "heuristic", "ismcts:iters=3", "--out", str(tmp_path)]
    )
    assert result.exit_code == 2
    assert "no parameter 'iters'" in result.output and "its parameters: iterations" in result.output
    assert "known bots" not in result.output  # the bot is known: only its parameter was wrong
    result = CliRunner(env={"COLUMNS": "120"}).invoke(
        _app(), ["arena", "heuristic", "ismcs", "--out", str(tmp_path)]
    )
    assert result.exit_code == 2 and "known bots" in result.output


def test_wrong_number_of_bots(tmp_path: Path) -> None:
    result = CliRunner(env={"COLUMNS": "120"}).invoke(_app(), ["arena", "heuristic", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "2 bots" in result.output


def test_small_run_writes_everything(tmp_path: Path) -> None:
    result = CliRunner(env={"COLUMNS": "120"}).invoke(
        _app(), ["arena", "heuristic", "random", "--players", "2", "--games", "2", "--jobs", "1", "--quiet",
                 "--out", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    assert "heuristic" in result.output and "Elo" in result.output
    names = ["games.csv", "summary.csv", "records/game-00001.json", "records/game-00002.json"]
    if importlib.util.find_spec("matplotlib") is not None:
        names.append("chart.png")
    for name in names:
        assert (tmp_path / name).exists(), name


def test_self_play_prints_two_rows_and_no_elo(tmp_path: Path) -> None:
    result = CliRunner(env={"COLUMNS": "160"}).invoke(
        _app(), ["arena", "heuristic", "heuristic", "--games", "8", "--seed", "1", "--jobs", "1", "--quiet",
                 "--out", str(tmp_path)]
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    rows = [line for line in result.output.splitlines() if line.strip().startswith("heuristic #")]
    assert len(rows) == 2
    assert "no Elo" in " ".join(result.output.split())


def test_piped_output_is_not_clipped_at_80_columns(tmp_path: Path) -> None:
    # No COLUMNS, and CliRunner's output is no terminal: as with `goldfields arena ... | tee log`.
    bot = "ismcts:iterations=3,c=0.7"
    result = CliRunner(env={"COLUMNS": None}).invoke(
        _app(), ["arena", bot, "random", "--players", "2", "--games", "2", "--jobs", "1", "--quiet",
                 "--out", str(tmp_path)]
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    rows = [line for line in result.output.splitlines() if line.strip().startswith(bot)]
    assert rows and max(len(line) for line in result.output.splitlines()) > 80
    assert "Wilson" in result.output and "deal" in result.output and "95% intervals" in result.output
    assert "pts/hand" in result.output  # Digging is scored hand by hand


def test_the_table_fits_an_80_column_terminal(tmp_path: Path) -> None:
    result = CliRunner(env={"COLUMNS": "80"}).invoke(
        _app(), ["arena", "digger", "heuristic", "random", "random", "--games", "3", "--jobs", "1",
                 "--quiet", "--out", str(tmp_path)]
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert max(len(line) for line in result.output.splitlines()) <= 80
    header = next(line for line in result.output.splitlines() if line.strip().startswith("bot "))
    # Nothing squeezed: every column keeps its whole name.
    # Digger is one long hand: points per hand would only repeat points per game.
    assert header.split() == ["bot", "games", "wins", "win", "%", "Wilson", "deal", "pts/game", "Elo"]


def test_a_run_logged_to_a_file_shows_how_far_it_has_got_as_it_goes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # CliRunner's output is no terminal, as with `nohup goldfields arena ... > log`: Rich alone would
    # print the bar once, at the end; the log gets a line as the games finish (here, after each).
    import goldfields.progress

    monkeypatch.setattr(goldfields.progress, "EVERY", 0.0)
    result = CliRunner(env={"COLUMNS": "120"}).invoke(
        _app(), ["arena", "heuristic", "random", "--players", "2", "--games", "4", "--jobs", "1",
                 "--out", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    for done in range(1, 4):
        assert f"{done}/4" in result.output, result.output


def test_games_rounded_up_to_whole_deals_are_said(tmp_path: Path) -> None:
    """Five Digger seats in every ordering are 120 games a deal: asking for 10 plays 120."""
    cli = CliRunner(env={"COLUMNS": "200"})
    many = cli.invoke(_app(), ["arena", "digger", "random", "random", "random", "random", "heuristic",
                               "--seatings", "all", "-g", "10", "--jobs", "1", "-q", "-o", str(tmp_path / "all")])
    assert many.exit_code == 0, many.output
    said = " ".join(many.output.split())
    assert "10 games asked; a deal is 120 seatings, so 120 games are played" in said
    whole = cli.invoke(_app(), ["arena", "digger", "random", "heuristic", "-n", "2", "-g", "4", "--jobs", "1",
                                "-q", "-o", str(tmp_path / "whole")])  # fmt: skip
    assert whole.exit_code == 0 and "note:" not in whole.output
    one = cli.invoke(_app(), ["arena", "random", "random", "-g", "1", "--jobs", "1", "-q", "-o", str(tmp_path / "one")])
    assert one.exit_code == 0 and "note: 1 game asked; a deal is 2 rotations, so 2 games are played" in one.output
    resumed = cli.invoke(_app(), ["arena", "--resume", str(tmp_path / "one"), "--jobs", "1", "-q"])
    assert resumed.exit_code == 0 and "note:" not in resumed.output


def test_the_default_games_rounded_up_say_they_were_not_asked_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(arena, "DEFAULT_GAMES", 4)  # 100 in use; 4 keeps the test short
    result = CliRunner(env={"COLUMNS": "200"}).invoke(
        _app(), ["arena", "digger", *["random"] * 3, "--jobs", "1", "-q", "--no-records", "-o", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert "note: 4 games (the default); a deal is 3 rotations, so 6 games are played" in said


@pytest.mark.parametrize(("game", "bots", "table"), [
    ("digging", 3, "digging 3p individual"), ("digging", 4, "digging 4p individual"),
    ("digging", 2, "digging 4p partnership"), ("digger", 4, "digger 4p"), ("digger", 3, "digger 3p")])  # fmt: skip
def test_without_players_a_longer_lineup_seats_one_bot_a_player(tmp_path: Path, game: str, bots: int,
                                                                 table: str) -> None:  # fmt: skip
    result = CliRunner(env={"COLUMNS": "200"}).invoke(
        _app(), ["arena", game, *["random"] * bots, "-g", "1", "--jobs", "1", "-q", "--no-records", "-o", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"{table}:")


@pytest.mark.parametrize(("bots", "rule", "said"), [
    (3, "full_deck=true", "digging 3p individual (full_deck=true):"),  # a rule of the table the lineup makes
    (4, "target_exceeded=true", "target_exceeded changes nothing at a digging 4p individual table"),
])  # fmt: skip
def test_a_rule_is_checked_on_the_table_the_lineup_seats(tmp_path: Path, bots: int, rule: str, said: str) -> None:
    result = CliRunner(env={"COLUMNS": "300"}).invoke(
        _app(), ["arena", "digging", *["random"] * bots, "--rule", rule, "-g", "1", "--jobs", "1", "-q",
                 "--no-records", "-o", str(tmp_path)])  # fmt: skip
    assert said in " ".join(result.output.split()), result.output


@pytest.mark.parametrize(("args", "said"), [
    (["digger", "random", "random"], "digger 3p needs 3 bots, one per seat; got 2: random random; or -n 2 for a "
                                     "2-player table"),
    (["digger", *["random"] * 6], "got 6: " + " ".join(["random"] * 6) + "; more bots than that sit one a player, "
                                  "up to Digger's 5"),
    (["digging", *["random"] * 5], "digging 4p partnership needs 2 bots, one per team; got 5"),
    (["digging", "random", "random", "random", "--individual"], "digging 4p individual needs 4 bots, one per seat; "
                                                                 "got 3: random random random; or -n 3 for a 3-player "
                                                                 "table without --individual"),
])  # fmt: skip
def test_a_lineup_no_table_seats_is_refused_with_the_tables_that_would(tmp_path: Path, args: list[str],
                                                                      said: str) -> None:  # fmt: skip
    """Fewer bots than the default table are a mistake, not a smaller game; more than the game seats, too."""
    result = CliRunner(env={"COLUMNS": "300"}).invoke(_app(), ["arena", *args, "-o", str(tmp_path)])
    assert result.exit_code == 2 and said in " ".join(result.output.split())
    assert not (tmp_path / "arena.json").exists()


def test_a_ray_address_where_nothing_answers_is_refused_at_once(tmp_path: Path) -> None:
    # Ray would retry it for minutes, printing warnings; and the run it never began keeps no folder.
    has_ray = importlib.util.find_spec("ray") is not None
    for address, said in (("127.0.0.1:1", "nothing answers at 127.0.0.1:1"), ("banana", "is not a Ray address")):
        result = CliRunner(env={"COLUMNS": "250"}).invoke(
            _app(), ["arena", "digging", "random", "random", "-n", "2", "-g", "2", "--ray", address,
                     "-o", str(tmp_path / "run"), "-q"])  # fmt: skip
        assert result.exit_code == 2, result.output
        assert (said if has_ray else "needs the 'ray' package") in result.output


def test_a_designer_sets_the_rules_from_the_command_line_and_the_report_names_them(tmp_path: Path) -> None:
    import json

    runner = CliRunner(env={"COLUMNS": "200"})
    out = tmp_path / "short-hourglass"
    args = ["arena", "digger", "heuristic", "heuristic", "heuristic", "--rule", "time_limit=20",
            "-r", "crates=black", "--games", "3", "--jobs", "1", "-q", "--out", str(out)]
    result = runner.invoke(_app(), args)
    assert result.exit_code == 0, result.output
    assert "digger 3p (crates=black, time_limit=20.0)" in result.output  # runs under other rules read apart
    # Rotations put every bot on every seat, so the per-bot table cannot show a seat's edge: this can.
    import re

    line = next(x for x in result.output.splitlines() if x.startswith("wins by side, whoever sat there:"))
    # At black crates each seat holds its own card, which the line names beside the seat.
    shares = [float(x) for x in re.findall(r"seat \d \(card [ABC]\) ([\d.]+)%", line)]
    assert len(shares) == 3 and abs(sum(shares) - 100) < 0.2
    assert "decisions a game: median" in result.output
    # Three heuristics on one deal replay one game in every rotation: the side figures count it once.
    assert "(over 1 distinct game: 2 replayed another move for move" in " ".join(result.output.split())
    # The same figures, in a file a designer's own tools can read.
    import csv

    with (out / "sides.csv").open(newline="") as f:
        sides = list(csv.DictReader(f))
    assert [row["side"] for row in sides] == ["seat 0", "seat 1", "seat 2"]
    assert [row["holds"] for row in sides] == ["card A", "card B", "card C"]
    assert all(row["games"] == "1" and row["parity"] == "0.3333" for row in sides)
    assert all(float(row["deal_ci95_low"]) <= float(row["win_rate"]) <= float(row["deal_ci95_high"]) for row in sides)
    assert [round(100 * float(row["win_rate"]), 1) for row in sides] == shares
    params = json.loads((out / "arena.json").read_text())["params"]
    assert params["crates"] == "black" and params["options"] == {"time_limit": 20.0}
    record = json.loads(next((out / "records").glob("*.json")).read_text())
    assert record["crates"] == {"black": ["A", "B", "C"]} and record["options"] == {"time_limit": 20.0}  # replayed so

    # A rule the game does not have, or one written without its value, is named with the known ones.
    bad = runner.invoke(_app(), ["arena", "digging", "heuristic", "random", "-n", "2", "--rule", "nope=1",
                                 "--out", str(tmp_path / "bad")])
    assert bad.exit_code == 2 and "Digging has no rule or parameter 'nope'; its rules: close_needs_chest" in bad.output
    # Digger's rules include a parameter that is not a rule option (crates): both kinds are named.
    bad = runner.invoke(_app(), ["arena", "digger", "heuristic", "random", "random", "--rule", "nope=1",
                                 "--out", str(tmp_path / "bad")])
    assert bad.exit_code == 2, bad.output
    assert "its rules: crate_values, crates, knock_probability, stack_seconds, time_limit" in bad.output
    bare = runner.invoke(_app(), ["arena", "digging", "heuristic", "random", "-n", "2", "--rule", "full_deck",
                                  "--out", str(tmp_path / "bad")])
    assert bare.exit_code == 2 and "write NAME=VALUE" in bare.output
    twice = runner.invoke(_app(), ["arena", "digging", "heuristic", "random", "-n", "2", "-r", "full_deck=true",
                                   "-r", "full_deck=false", "--out", str(tmp_path / "bad")])
    assert twice.exit_code == 2 and "--rule full_deck is given twice" in twice.output
    capital = runner.invoke(_app(), ["arena", "Digging", "heuristic", "random", "-n", "2", "-g", "2", "-q",
                                     "--jobs", "1", "--out", str(tmp_path / "capital")])
    assert capital.exit_code == 0, capital.output
    short = runner.invoke(_app(), ["arena", "Digging", "heuristic", "-n", "2", "--out", str(tmp_path / "bad")])
    assert short.exit_code == 2 and "needs 2 bots" in short.output and "neither a game" not in short.output
    mixed = runner.invoke(_app(), ["arena", "digging", "heuristic", "random", "-n", "2", "--seatings", "one",
                                   "--out", str(tmp_path / "bad")])
    assert mixed.exit_code == 2 and "--seatings one is for the same bot on every side" in mixed.output
    assert not (tmp_path / "bad").exists()
    # A run goes on under its own rules: other rules given with --resume are refused.
    other = runner.invoke(_app(), ["arena", "--resume", str(out), "--rule", "time_limit=25"])
    assert other.exit_code == 2 and "other parameters" in other.output
