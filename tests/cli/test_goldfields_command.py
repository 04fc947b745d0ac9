"""The installed `goldfields` command, run as a user runs it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

EXE = shutil.which("goldfields") or str(Path(sys.executable).with_name("goldfields"))


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([EXE, *args], capture_output=True, text=True, timeout=120,
                          env=None if env is None else {**os.environ, **env})  # fmt: skip


def test_help_lists_the_commands() -> None:
    out = run("--help")
    assert out.returncode == 0
    for command in ("replay", "demo"):
        assert command in out.stdout


@pytest.mark.parametrize("command", [[], ["play"], ["arena"]], ids=lambda c: " ".join(c) or "goldfields")
def test_a_command_given_nothing_to_do_shows_its_help_as_a_usage_error(command: list[str]) -> None:
    # Scripts see a status of 2 wherever a command was missing what it needs; --help itself is 0.
    out = run(*command)
    assert out.returncode == 2
    assert "Usage: goldfields" in out.stdout + out.stderr


def test_demo_plays_a_game_and_its_record_replays(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    out = run("demo", "--seed", "7", "--save", str(record))
    assert out.returncode == 0, out.stderr
    assert "Game over" in out.stdout
    check = run("replay", str(record))
    assert check.returncode == 0
    report = json.loads(check.stdout)
    assert report["ok"] is True and report["winner"]


@pytest.mark.parametrize("players", ["2", "3"])
def test_demo_individual_games(players: str) -> None:
    out = run("demo", "--players", players, "--seed", "1", "--bots", "random")
    assert out.returncode == 0, out.stderr
    assert "Game over" in out.stdout


def test_demo_takes_a_level_in_place_of_a_bot_spec() -> None:
    out = run("demo", "--players", "2", "--seed", "1", "--bots", "Easy medium")  # random against heuristic
    assert out.returncode == 0, out.stderr
    assert "Game over" in out.stdout


def test_demo_digger_game_and_its_record(tmp_path: Path) -> None:
    record = tmp_path / "digger.json"
    out = run("demo", "digger", "--players", "3", "--seed", "2", "--save", str(record))
    assert out.returncode == 0, out.stderr
    assert "game over" in out.stdout.lower()
    check = run("replay", str(record))
    assert check.returncode == 0
    assert json.loads(check.stdout)["game_over"] is True


def test_demo_rejects_unknown_bots() -> None:
    out = run("demo", "--bots", "genius")
    assert out.returncode == 2
    said = " ".join(out.stderr.split())
    # The right names, as play and arena give them: the bots with what each is, and the levels.
    assert "unknown bot 'genius'; known bots for digging: random (uniformly random" in said
    assert said.endswith("or a level: easy, medium, hard")


def test_replay_exit_statuses(tmp_path: Path) -> None:
    missing = run("replay", str(tmp_path / "nope.json"))
    assert missing.returncode == 2
    assert json.loads(missing.stdout)["ok"] is False
    record = tmp_path / "g.json"
    run("demo", "--seed", "3", "--save", str(record))
    data = json.loads(record.read_text())
    data["hands"][0]["moves"][0] = "play B1 m5"
    record.write_text(json.dumps(data))
    bad = run("replay", str(record))
    assert bad.returncode == 1
    assert json.loads(bad.stdout)["error"]["move"] == 0


def test_demo_rejects_bad_options() -> None:
    out = run("demo", "--players", "7")
    assert out.returncode == 2
    assert "players" in (out.stderr + out.stdout).lower()


def test_errors_show_brackets_as_written() -> None:
    # Rich reads "[a]" as a style tag and drops it: an error quoting the user's input, or naming an extra
    # like goldfields[learn], must print it as text.
    out = run("arena", "digging", "heuristic", "net=[a]", "--games", "2")
    assert out.returncode == 2
    assert "unknown bot 'net=[a]'" in out.stdout + out.stderr


def test_help_shows_brackets_as_written() -> None:
    # Help is Rich markup too: the extra to install and the defaults the help text spells out are kept.
    wide = {"COLUMNS": "250"}
    assert "pip install 'goldfields[learn]'" in run("train", "--help", env=wide).stdout
    arena = run("arena", "--help", env=wide).stdout
    for shown in ("[default: 0]", "arena-results-N not in use]", "[default: records]"):
        assert shown in arena
    # A demo without --seed is the same game each time: its help says so.
    assert "Without it, 2026: a demo is the same game each time" in " ".join(
        run("demo", "--help", env=wide).stdout.replace("│", " ").split())


def test_errors_go_to_standard_error_and_name_what_was_wrong(tmp_path: Path) -> None:
    # Redirecting a run's output to a file must not hide why it stopped.
    out = run("arena", "chess", "heuristic", "random")
    assert out.returncode == 2
    assert "error" not in out.stdout
    assert "'chess' is neither a game (digging, digger) nor a bot of digging" in " ".join(out.stderr.split())
    missing = run("analyze", str(tmp_path / "nowhere.json"))
    assert missing.returncode == 2 and not missing.stdout.strip()
    assert f"cannot read {tmp_path / 'nowhere.json'}: No such file or directory" in " ".join(missing.stderr.split())
    assert "Errno" not in missing.stderr
    broken = tmp_path / "broken.json"
    broken.write_text('{"game": "digging", "pla')
    out = run("analyze", str(broken))
    assert out.returncode == 2 and "is not a game record (JSON)" in " ".join(out.stderr.split())
    empty = tmp_path / "empty.json"
    empty.write_text('{"game": "digging", "players": 4, "hands": []}')
    out = run("analyze", str(empty), "--seat", "7")
    assert out.returncode == 2 and "--seat: the game in" in out.stderr and "has seats 0 to 3, not 7" in out.stderr
    # A record wrong in its players is named as the record's fault, not the seat's.
    for players in ("true", '"4"'):
        empty.write_text(f'{{"game": "digging", "players": {players}, "hands": []}}')
        out = run("analyze", str(empty), "--seat", "1", env={"COLUMNS": "400"})
        assert out.returncode == 2 and "players" in out.stderr and "seat must be" not in out.stderr, out.stderr
    # A record with no decision yet: said in words, not an empty table.
    empty.write_text('{"game": "digging", "players": 4, "hands": []}')
    out = run("analyze", str(empty), env={"COLUMNS": "400"})
    assert out.returncode == 0 and "seat 0 had no decision with a choice" in out.stdout, out.stdout + out.stderr


def test_errors_say_where_and_what_once(tmp_path: Path) -> None:
    wide = {"COLUMNS": "400"}
    record = tmp_path / "game.json"
    assert run("demo", "DIGGING", "-n", "2", "-b", "random", "--save", str(record)).returncode == 0  # any case
    data = json.loads(record.read_text())
    data["hands"][0]["moves"][0] = "play B1 m5"
    record.write_text(json.dumps(data))
    # A broken record is told before the search, with the place replay gives.
    out = run("analyze", str(record), env=wide)
    assert out.returncode == 2 and f"error: {record}: hand 0, move 0: " in out.stderr, out.stderr
    # A file where a folder should be is called a file.
    out = run("demo", "-b", "random", "--save", str(record / "x.json"), env=wide)
    assert out.returncode == 2 and f"the folder {record} is a file, not a folder" in out.stderr
    # The game is named once, and a device is not read whole.
    out = run("arena", "digging", "random", "random", "-n", "7", env=wide)
    assert out.returncode == 2 and "error: players: Digging is for 2, 3 or 4 players, not 7" in out.stderr
    out = run("replay", "/dev/zero")
    assert out.returncode == 2 and "it is larger than 64 MB" in json.loads(out.stdout)["error"]["message"]


def test_analyze_says_which_games_it_analyses(tmp_path: Path) -> None:
    digger = tmp_path / "game.json"
    digger.write_text(json.dumps({"game": "digger", "players": 2, "moves": []}))
    out = run("analyze", str(digger), env={"COLUMNS": "400"})
    assert out.returncode == 2
    assert f"{digger} is a Digger record, not a Digging record: analysis is available for Digging only" in out.stderr
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"moves": []}))
    out = run("analyze", str(other), env={"COLUMNS": "400"})
    assert out.returncode == 2 and "is not a game record goldfields knows" in out.stderr


def test_analyze_refuses_a_judge_that_is_no_search_before_it_starts(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    assert run("demo", "-n", "2", "-b", "random", "--save", str(record)).returncode == 0
    for bot, said in (("foo", "--bot: unknown bot 'foo'"), ("random", "--bot: analysis needs a search bot")):
        out = run("analyze", str(record), "--bot", bot, env={"COLUMNS": "400"})
        assert out.returncode == 2 and said in out.stderr and out.stdout == "", (out.stdout, out.stderr)


def test_an_output_that_cannot_be_written_is_refused_before_the_work(tmp_path: Path) -> None:
    # A folder, a missing folder, or the record being read: said at once, and nothing is written.
    folder = run("demo", "-b", "random", "--save", str(tmp_path), env={"COLUMNS": "400"})
    assert folder.returncode == 2 and "is a folder; name a file in it" in folder.stderr
    assert "Game over" not in folder.stdout
    assert not list(tmp_path.parent.glob(f".{tmp_path.name}.*.part"))
    record = tmp_path / "game.json"
    assert run("demo", "-n", "2", "-b", "random", "--save", str(record)).returncode == 0
    before = record.read_text()
    same = run("analyze", str(record), "--json", str(record))
    assert same.returncode == 2 and "is the file being read; name another file" in " ".join(same.stderr.split())
    assert record.read_text() == before
    into_folder = run("analyze", str(record), "--json", str(tmp_path))
    assert into_folder.returncode == 2 and "is a folder" in into_folder.stderr
    # A folder that takes no new file (/proc, even for root): refused before the game, not after it.
    for command in (["demo", "-b", "random", "--save", "/proc/game.json"],
                    ["analyze", str(record), "--json", "/proc/analysis.json"]):
        locked = run(*command, env={"COLUMNS": "400"})
        assert locked.returncode == 2 and "cannot write in /proc" in locked.stderr and "Traceback" not in locked.stderr
        assert "Game over" not in locked.stdout


def test_individual_is_refused_for_a_game_without_partnerships() -> None:
    said = "--individual is for games with partnerships; Digger is always each for themselves"
    arena = run("arena", "digger", "heuristic", "random", "--individual")
    assert arena.returncode == 2 and said in arena.stderr and "known bots" not in arena.stderr
    demo = run("demo", "digger", "--individual", env={"COLUMNS": "400"})
    assert demo.returncode == 2 and said in " ".join(demo.stderr.split())


def test_train_names_the_files_it_wrote(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("torch")
    from typer.testing import CliRunner

    import goldfields.learn.loop
    from goldfields.cli.app import app

    def run(plan: goldfields.learn.loop.Plan, out: Path, **_: object) -> list[object]:
        # What a run of plan.rounds rounds with --warmup leaves, without the hours of play.
        assert plan.games == 6  # -g, as the arena's games
        out.mkdir()
        for name in [f"round-{r:02d}.npz" for r in range(plan.rounds + 1)] + ["warmup.npz", "curve.csv",
                                                                               "train.json"]:
            (out / name).write_text("")
        return []

    monkeypatch.setattr(goldfields.learn.loop, "run", run)
    out = tmp_path / "tr"
    result = CliRunner(env={"COLUMNS": "200"}).invoke(app, ["train", "--rounds", "3", "--warmup", "2", "-g", "6",
                                                            "--out", str(out)])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert f"wrote into {out}: round-00.npz to round-03.npz, warmup.npz, curve.csv, train.json" in result.output
    assert f"goldfields arena net:net={out / 'round-03.npz'} heuristic" in result.output
    assert "NN" not in result.output


def test_train_says_what_is_wrong_before_its_progress_bar(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    record = tmp_path / "g.json"
    record.write_text("{}")
    for args, said in ((["--opponent", "bogus", "--out", str(tmp_path / "run")], "--opponent: unknown bot 'bogus'"),
                       (["--out", str(record)], "is a file; --out names a folder for the run")):
        out = run("train", *args, env={"COLUMNS": "400"})
        assert out.returncode == 2 and said in out.stderr, out.stderr
        assert "games" not in out.stdout + out.stderr.replace(said, "")  # no bar drawn
    assert not (tmp_path / "run").exists()
