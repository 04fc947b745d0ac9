"""``goldfields analyze``: the strong bot's opinion of each decision one seat made in a game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from .. import records
from ..core import registry
from .options import free_path, output_problem, print_error, wrote_note

if TYPE_CHECKING:
    from ..bots.analysis import Decision

JUDGES = ", ".join(f"{d.analyst} for {d.title}" for d in registry.games() if d.analyst is not None)
"""The bot that judges each game's decisions unless --bot names another."""
HELP = "\n\n".join(
    [
        "Go through a game record (Digging; finished or not) and judge every decision of one seat.",
        "For each move with a choice, the search bot (--bot; by default " + JUDGES + ") looks at the "
        "position from that seat's view only, as it was then, and reports its own choice and the "
        "estimated drop in the chance of winning of the move played. Prints the decisions that cost "
        "the most, and writes them all as JSON with --json.",
        "Example: goldfields analyze game.json --seat 0 --json analysis.json",
    ]
)

COSTLY = 0.10
"""A drop worth counting in the summary line: ten points of estimated winning chance."""


def register(app: typer.Typer) -> None:
    app.command("analyze", help=HELP)(analyze)


def analyze(
    record: Annotated[Path, typer.Argument(metavar="RECORD", help="A Digging game record (JSON).",
                                                    show_default=False)],
    seat: Annotated[int, typer.Option("--seat", min=0, help="Whose decisions to judge.")] = 0,
    bot: Annotated[str | None, typer.Option("--bot", help="The judging search bot (an ismcts spec); by default "
                                            f"{JUDGES}.", show_default=False)] = None,
    top: Annotated[int, typer.Option("--top", min=1, help="Decisions to print, costliest first.")] = 10,
    json_out: Annotated[Path | None, typer.Option("--json", help="Write every decision to this file.",
                                                  show_default=False)] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", help="The search's seed.")] = 0,
    force: Annotated[bool, typer.Option("--force", help="Let --json replace an existing file.")] = False,
) -> None:
    from ..bots.analysis import analyst, searcher_for
    from ..bots.analysis import analyze as run_analysis
    from ..core.definition import RecordError

    console = Console()
    try:
        data = records.read(record)
    except records.UnreadableRecord as err:
        print_error(err)
        raise typer.Exit(2) from None
    game = data.get("game") if isinstance(data, dict) else None
    judges = [d.title for d in registry.games() if d.analyst is not None]
    definition = registry.get(str(game)) if isinstance(game, str) and game in registry.names() else None
    if definition is None or definition.analyst is None:
        only = f"analysis is available for {' and '.join(judges)} only"
        if definition is None:
            print_error(f"{record} is not a game record goldfields knows; {only}")
        else:
            print_error(f"{record} is a {definition.title} record, not a {' or '.join(judges)} record: {only}")
        raise typer.Exit(2)
    # Checked whole before the search: a broken record is told where it breaks, as replay tells it.
    report, status = records.replay(data)
    if status:
        where = report["error"]
        at = ", ".join(f"{k} {where[k]}" for k in ("hand", "move") if where.get(k) is not None)
        at = f"{at}: " if at else ""
        print_error(f"{record}: {at}{where['message']}")
        raise typer.Exit(2)
    players = data.get("players")
    if isinstance(players, int) and not isinstance(players, bool) and not 0 <= seat < players:
        # Said before the search starts, in the option's name.
        print_error(f"--seat: the game in {record} has seats 0 to {players - 1}, not {seat}")
        raise typer.Exit(2)
    bot = bot or analyst(definition)
    try:
        searcher_for(bot, definition.name)  # a wrong spec is told before the progress bar starts
    except ValueError as err:
        print_error(f"--bot: {err}")
        raise typer.Exit(2) from None
    problem = None if json_out is None else output_problem(json_out, reading=record, force=force)
    if problem is not None:
        print_error(f"--json: {problem}")
        raise typer.Exit(2)
    try:
        with Progress(console=console, transient=True) as progress:
            task = progress.add_task(f"seat {seat}'s decisions", total=None)
            decisions = run_analysis(data, seat, bot, seed, on_step=lambda: progress.advance(task),
                                     on_total=lambda n: progress.update(task, total=n))  # fmt: skip
    except (ValueError, RecordError) as err:
        print_error(err)
        raise typer.Exit(2) from None
    if decisions:
        console.print(_table(decisions, seat, top))
    else:
        console.print(f"seat {seat} had no decision with a choice in {record}: nothing to judge")
    if json_out is not None:
        from ..files import write_atomic

        path = free_path(json_out, force)
        try:
            write_atomic(path, json.dumps({"seat": seat, "bot": bot, "decisions": [d.to_json() for d in decisions]},
                                          indent=1) + "\n")  # fmt: skip
        except OSError as err:  # checked before the search, but the folder can go, or the disk fill
            print_error(f"--json: the decisions above were judged, but could not be written to {path}: "
                        f"{err.strerror or err}")  # fmt: skip
            raise typer.Exit(1) from None
        console.print(f"wrote {path}{wrote_note(json_out, path)}")


def _table(decisions: list[Decision], seat: int, top: int) -> Table:
    """The summary line and the ``top`` costliest decisions."""
    agree = sum(1 for d in decisions if d.played == d.best)
    # Counted, not summed: each drop is its own position's estimate, and a sum of them is no
    # chance of anything (over a hundred decisions it passes 100 points).
    costly = sum(1 for d in decisions if d.drop >= COSTLY)
    table = Table(title=f"seat {seat}: {len(decisions)} decisions, the bot agrees with {agree}; {costly} cost "
                        f"an estimated {100 * COSTLY:.0f} points of winning chance or more")  # fmt: skip
    for col in ("hand", "move", "played", "bot's choice", "win % played", "win % best", "drop"):
        table.add_column(col, justify="right" if col in ("hand", "move") or "%" in col or col == "drop" else "left")
    for d in sorted(decisions, key=lambda d: -d.drop)[:top]:
        # Counted from 1, as players count; the JSON keeps the indices from 0.
        table.add_row(str(d.hand + 1), str(d.move + 1), d.played, d.best, f"{100 * d.played_win:.0f}",
                      f"{100 * d.best_win:.0f}", f"{100 * d.drop:.0f}")  # fmt: skip
    return table
