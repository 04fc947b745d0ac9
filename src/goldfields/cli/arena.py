"""``goldfields arena``: tournaments between bots, with duplicate deals."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from ..arena import GameSpec, Tournament, run_tournament, summary_table
from ..arena.runner import default_jobs
from ..bots.registry import BotSpecError, known_bots
from ..core import registry

HELP = "\n\n".join(
    [
        "Play a tournament between bots and report who is stronger.",
        "Name one bot per side: per team in the Digging partnership game (a bot plays both seats of its team), "
        "per seat otherwise. Each deal is played once per rotation of the bots around the table with the same "
        "decks and dice (duplicate deals), so the luck of the deal cancels out.",
        "Bots take parameters: random, heuristic, ismcts:iterations=2000,c=0.7, ismcts:seconds=1, and for Digger "
        "search. A budget in seconds makes results depend on the machine; an iteration budget keeps them "
        "reproducible (same --seed, same results).",
        "Prints win rates with Wilson 95% intervals, points per hand and per game, and Elo; writes games.csv, "
        "summary.csv, chart.png and one JSON game record per game (records/, readable by 'goldfields replay') "
        "into --out.",
        "Examples:",
        "goldfields arena heuristic random --games 200",
        "goldfields arena ismcts:iterations=500 heuristic --players 2 --games 100",
        "goldfields arena heuristic random random --game digger --players 3",
    ]
)


FIRST_GAME = registry.names()[0]


def register(app: typer.Typer) -> None:
    app.command("arena", help=HELP, no_args_is_help=True)(arena)


def arena(
    bots: Annotated[list[str], typer.Argument(help="One bot spec per team/seat, e.g. heuristic random.",
                                              show_default=False)],
    game: Annotated[str, typer.Option("--game", "-g", help=f"One of: {', '.join(registry.names())}.")] = FIRST_GAME,
    players: Annotated[int | None, typer.Option("--players", "-p",
                                                help="Table size (default: Digging 4, Digger 3).")] = None,
    individual: Annotated[bool, typer.Option("--individual",
                                             help="Digging with 4 players each for themselves.")] = False,
    games: Annotated[int, typer.Option("--games", "-n", min=1,
                                       help="Games to play, rounded up to whole duplicate sets.")] = 100,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Tournament seed: same seed, same results.")] = 0,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", min=1,
                                             help="Worker processes (default: all local cores).")] = None,
    ray: Annotated[str | None, typer.Option("--ray", metavar="ADDRESS",
                                            help="Run on the Ray cluster at ADDRESS ('auto', 'ray://host:10001', "
                                                 "or 'local' to start one here).")] = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="Folder for CSV, chart and records.")] = Path(
        "arena-results"),
    records: Annotated[bool, typer.Option("--records/--no-records", help="Save every game record.")] = True,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    console = Console()
    try:
        spec = GameSpec.make(game, players, False if individual else None)
        t = Tournament(spec, tuple(bots), games=games, seed=seed, jobs=jobs or default_jobs(), ray_address=ray,
                       out=out, records=records)
        t.validate()
        if len(bots) != spec.sides:
            what = "team" if spec.partnership else "seat"
            raise ValueError(f"{spec.label} needs {spec.sides} bots, one per {what}; got {len(bots)}: "
                             f"{' '.join(bots)}")
    except (BotSpecError, ValueError) as err:
        console.print(f"[red]error:[/red] {err}")
        names = ", ".join(f"{k} ({v})" for k, v in known_bots(game if game in registry.names() else None).items())
        console.print(f"known bots: {names}")
        raise typer.Exit(2) from None
    where = f"Ray cluster {ray}" if ray else f"{t.jobs} local process{'es' if t.jobs > 1 else ''}"
    console.print(f"{spec.label}: {' vs '.join(bots)}; {t.deals} deals x {len(bots)} rotations on {where}")
    result = run_tournament(t, console, progress=not quiet)
    console.print(summary_table(t, result.summary, len(result.results)))
    console.print(f"wrote {out}/games.csv, {out}/summary.csv, {out}/chart.png"
                  + (f", {len(result.results)} records in {out}/records/" if records else ""))
