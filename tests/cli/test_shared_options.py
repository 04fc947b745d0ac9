"""Options that play, demo and arena share, through the real ``goldfields`` app in process:
``--individual`` is refused alike where it means nothing, and ``demo --save`` keeps an existing
file unless told otherwise."""

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
