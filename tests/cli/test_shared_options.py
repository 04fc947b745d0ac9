"""Options that play, demo and arena share, through the real ``goldfields`` app in process:
``--individual`` is refused alike where it means nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from goldfields.cli.app import app


def invoke(*args: str) -> Result:
    return CliRunner(env={"COLUMNS": "400", "NO_COLOR": "1"}).invoke(app, list(args))


def said(result: Result) -> str:
    """The output with Rich's wrapping and error box undone."""
    return " ".join(result.output.replace("│", " ").split())


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
