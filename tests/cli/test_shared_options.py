"""Options that play, demo and arena share, through the real ``goldfields`` app in process:
``--rule`` means the same in each, ``--individual`` is refused alike where it means nothing, and
``demo --save`` keeps an existing file unless told otherwise."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from goldfields.cli.app import app


def invoke(*args: str) -> Result:
    return CliRunner(env={"COLUMNS": "400", "NO_COLOR": "1"}).invoke(app, list(args))


def said(result: Result) -> str:
    """The output with Rich's wrapping and error box undone."""
    return " ".join(result.output.replace("│", " ").split())


# -- --rule ------------------------------------------------------------------------------------------


def test_demo_plays_under_a_rule_and_its_record_replays_under_it(tmp_path: Path) -> None:
    record = tmp_path / "short.json"
    out = invoke("demo", "digger", "-n", "2", "-b", "random", "--rule", "time_limit=20", "-r", "crates=black",
                 "--save", str(record))  # fmt: skip
    assert out.exit_code == 0, out.output
    assert "Rules: crates=black, time_limit=20.0." in said(out)  # a variant never reads as the standard game
    data = json.loads(record.read_text())
    assert data["options"] == {"time_limit": 20.0} and "black" in data["crates"]
    checked = invoke("replay", str(record))
    assert checked.exit_code == 0 and json.loads(checked.stdout)["ok"] is True


def test_demo_of_digging_under_a_rule_option(tmp_path: Path) -> None:
    record = tmp_path / "deck.json"
    out = invoke("demo", "digging", "-n", "2", "-b", "random", "--rule", "full_deck=true", "--save", str(record))
    assert out.exit_code == 0, out.output
    assert "Rules: full_deck=true." in said(out)
    assert json.loads(record.read_text())["options"] == {"full_deck": True}
    assert invoke("replay", str(record)).exit_code == 0


@pytest.mark.parametrize("command", [["demo", "digging", "-n", "2"], ["play", "digging", "-n", "2"]],
                         ids=lambda c: c[0])  # fmt: skip
@pytest.mark.parametrize(("rule", "message"), [
    ("nope=1", "Digging has no rule or parameter 'nope'; its rules: close_needs_chest"),
    ("full_deck=maybe", "rule option full_deck must be true or false, not 'maybe'"),
    ("full_deck", "--rule 'full_deck': write NAME=VALUE"),
])  # fmt: skip
def test_a_bad_rule_is_named_with_status_2_as_in_the_arena(command: list[str], rule: str, message: str) -> None:
    out = invoke(*command, "--rule", rule)
    assert out.exit_code == 2 and message in said(out)
    assert "Game over" not in out.output


def test_a_bad_digger_rule_value_is_named() -> None:
    for command in (["demo", "digger"], ["play", "digger"]):
        out = invoke(*command, "--rule", "time_limit=abc")
        assert out.exit_code == 2 and "time_limit must be a positive number of seconds, not 'abc'" in said(out)


def test_play_digger_refuses_a_rule_that_contradicts_its_own_option() -> None:
    out = invoke("play", "digger", "--time-limit", "25", "--rule", "time_limit=20")
    assert out.exit_code == 2 and "--time-limit 25 and --rule time_limit=20 disagree" in said(out)
    out = invoke("play", "digger", "--crates", "black", "--rule", "crates=white")
    assert out.exit_code == 2 and "--crates black and --rule crates=white disagree" in said(out)


def test_resume_refuses_other_rules_the_saved_game_keeps_its_own(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    record.write_text("{}")  # refused before the file is read: whatever is in it
    out = invoke("play", "--resume", str(record), "--rule", "full_deck=true")
    assert out.exit_code == 2
    assert f"--rule: the game in {record} keeps the rules it was started with" in said(out)


def test_a_table_option_before_the_game_is_told_to_go_after_it_and_a_saved_game_keeps_its_table(
    tmp_path: Path,
) -> None:
    # -n works after the game in play, demo and arena alike (README); before it, it is not "no such option".
    for given in (["-n", "3", "digger"], ["--individual", "digging"], ["--crates", "black", "digger"]):
        out = invoke("play", *given)
        assert out.exit_code == 2 and f"options go after the game: goldfields play {given[-1]} ..." in said(out)
    record = tmp_path / "game.json"
    record.write_text("{}")
    out = invoke("play", "--resume", str(record), "-n", "2", "--time-limit", "20")
    assert out.exit_code == 2
    assert f"--players, --time-limit: the game in {record} keeps the table it was started at" in said(out)


@pytest.mark.parametrize("command", [["play", "digging"], ["play", "digger"], ["demo"]], ids=" ".join)
def test_help_offers_the_rule_option(command: list[str]) -> None:
    out = invoke(*command, "--help")
    assert out.exit_code == 0
    assert "--rule" in out.output and "NAME=VALUE" in out.output and "time_limit=20" in said(out)


def test_demo_shows_the_moves_as_typed_and_its_help_says_how_the_record_differs(tmp_path: Path) -> None:
    record = tmp_path / "digger.json"
    out = invoke("demo", "digger", "-n", "2", "-b", "random", "-s", "4", "--save", str(record))
    assert out.exit_code == 0, out.output
    # Each move's line: the move in a column of 16, then the words (other lines begin with a blank or
    # a capital: the header, the scores, the note of the saved record).
    shown = [line[:16].strip() for line in out.output.splitlines()
             if line[:1].islower() and line[16:17] == " "]  # fmt: skip

    def typed(move: str) -> str:
        """The record's move as a player types it: 'roll BYGGW @0' is 'roll', 'stop @28' is 'stop'."""
        move = move.split(" @")[0]
        return "roll" if move.startswith("roll") else move

    assert shown == [typed(m) for m in json.loads(record.read_text())["moves"]]
    assert "roll BYGGW @0" in said(invoke("demo", "--help"))


# -- demo --save over an existing file ---------------------------------------------------------------


def test_demo_refuses_to_save_over_an_existing_file_before_playing(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    record.write_text("another game's only copy\n")
    out = invoke("demo", "-n", "2", "-b", "random", "--save", str(record))
    assert out.exit_code == 2
    assert f"{record} already exists; name another file, or add --force to replace it" in said(out)
    assert "Game over" not in out.output  # refused before the game, not after it
    assert record.read_text() == "another game's only copy\n"
    forced = invoke("demo", "-n", "2", "-b", "random", "--save", str(record), "--force")
    assert forced.exit_code == 0, forced.output
    assert json.loads(record.read_text())["game"] == "digging"
    assert "--force" in said(invoke("demo", "--help"))


def test_a_file_that_appears_while_demo_plays_is_kept_and_the_record_saved_beside_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import goldfields.cli.demo as demo

    record = tmp_path / "game.json"
    played = demo.play_game

    def meanwhile(*args: object, **kwargs: object) -> object:
        final = played(*args, **kwargs)  # type: ignore[arg-type]
        record.write_text("written by someone else during the game\n")
        return final

    monkeypatch.setattr(demo, "play_game", meanwhile)
    out = invoke("demo", "-n", "2", "-b", "random", "--save", str(record))
    assert out.exit_code == 0, out.output
    assert record.read_text() == "written by someone else during the game\n"
    beside = tmp_path / "game-2.json"
    assert json.loads(beside.read_text())["game"] == "digging"
    assert f"Record saved to {beside} ({record} appeared while this ran, and was left as it was)" in said(out)


def test_analyze_json_refuses_an_existing_file_unless_force(tmp_path: Path) -> None:
    record, analysis = tmp_path / "game.json", tmp_path / "analysis.json"
    assert invoke("demo", "-n", "2", "-b", "random", "--save", str(record)).exit_code == 0
    analysis.write_text("last week's analysis\n")
    out = invoke("analyze", str(record), "--bot", "ismcts:iterations=20", "--json", str(analysis))
    assert out.exit_code == 2
    assert f"--json: {analysis} already exists; name another file, or add --force to replace it" in said(out)
    assert analysis.read_text() == "last week's analysis\n"
    forced = invoke("analyze", str(record), "--bot", "ismcts:iterations=20", "--json", str(analysis), "--force")
    assert forced.exit_code == 0, forced.output
    assert json.loads(analysis.read_text())["seat"] == 0
    assert not list(tmp_path.glob(".*.part"))


def test_an_output_that_fails_after_the_work_is_one_error_line_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Checked before the work, a folder can still go, or a disk fill, before the file is written:
    the command says so in one line with status 1, no traceback and no half-written file."""
    import goldfields.files

    def full(src: object, dst: object) -> None:  # the temporary file is written; the rename fails
        raise OSError(28, "No space left on device", str(dst))

    record = tmp_path / "game.json"
    assert invoke("demo", "-n", "2", "-b", "random", "--save", str(record)).exit_code == 0
    monkeypatch.setattr(goldfields.files.os, "replace", full)
    demo = invoke("demo", "-n", "2", "-b", "random", "--save", str(tmp_path / "again.json"))
    assert demo.exit_code == 1 and isinstance(demo.exception, SystemExit), demo.output  # no other exception
    assert ("--save: the game was played, but its record could not be written to "
            f"{tmp_path / 'again.json'}: No space left on device") in said(demo)  # fmt: skip
    analysis = tmp_path / "analysis.json"
    judged = invoke("analyze", str(record), "--bot", "ismcts:iterations=5", "--json", str(analysis))
    assert judged.exit_code == 1 and isinstance(judged.exception, SystemExit), judged.output
    assert (f"--json: the decisions above were judged, but could not be written to {analysis}: "
            "No space left on device") in said(judged)  # fmt: skip
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


# -- --individual -----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", ["2", "3"])
@pytest.mark.parametrize("command", [["play", "digging"], ["demo", "digging"],
                                     ["arena", "digging", "random", "random"]], ids=lambda c: c[0])  # fmt: skip
def test_individual_is_refused_where_every_seat_plays_for_itself_already(
    tmp_path: Path, command: list[str], players: str
) -> None:
    out = invoke(*command, "-n", players, "--individual", *(["-o", str(tmp_path)] if command[0] == "arena" else []))
    assert out.exit_code == 2
    assert (f"--individual is for Digging with 4 players (partnerships by default); with {players} players each "
            "plays for themselves already") in said(out)  # fmt: skip
    assert "known bots" not in out.output and not (tmp_path / "arena.json").exists()


def test_individual_with_four_players_still_plays() -> None:
    out = invoke("demo", "digging", "-n", "4", "--individual", "-b", "random")
    assert out.exit_code == 0, out.output
    assert out.output.startswith("Digging, 4 players: ")  # and not "4 players, partnership (...)"
