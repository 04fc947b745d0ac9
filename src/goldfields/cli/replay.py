"""``goldfields replay FILE``: check a game record and report where it stands."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from ..records import replay_file


def replay_command(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="A game record (JSON) of Digging or Digger.")],
    indent: Annotated[int | None, typer.Option("--indent", "-i", min=0,
                                               help="Indent the JSON by this many spaces.")] = None,
) -> None:
    """Replay a game record move by move and print one JSON object.

    The object says whether every move was legal (ok), the first illegal move
    or malformed part (error), the points and totals, the winner, and the
    position reached. Exit status: 0 legal, 1 an illegal move, 2 a malformed
    record. See docs/records.md.
    """
    report, status = replay_file(file)
    typer.echo(json.dumps(report, indent=indent))
    raise typer.Exit(status)


def register(app: typer.Typer) -> None:
    app.command("replay")(replay_command)
