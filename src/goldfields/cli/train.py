"""``goldfields train``: self-play training of Digging's policy and value network."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

HELP = "\n\n".join(
    [
        "Train the network of the 'net' bot and of 'ismcts:net=...' by self-play (expert iteration).",
        "Each round plays --games games of ISMCTS (guided by the last round's network), fits the network on "
        "the recent rounds' decisions (the search's visit shares and each game's result), and measures the "
        "'net' bot against --opponent on duplicate deals. Writes round-NN.npz networks, curve.csv, curve.png "
        "and train.json into --out. Needs PyTorch: pip install 'goldfields[learn]'.",
        "Use a network with: goldfields arena net:net=OUT/round-08.npz heuristic",
    ]
)


def register(app: typer.Typer) -> None:
    app.command("train", help=HELP)(train)


def train(
    rounds: Annotated[int, typer.Option("--rounds", min=1, help="Self-play rounds.")] = 8,
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Self-play games per round.")] = 24,
    search: Annotated[int, typer.Option("--search", min=1, help="ISMCTS iterations per self-play move.")] = 150,
    hidden: Annotated[str, typer.Option("--hidden", help="Hidden layer sizes, comma-separated.")] = "256,256",
    eval_games: Annotated[int, typer.Option("--eval-games", min=2, help="Games per round against --opponent.")] = 40,
    opponent: Annotated[str, typer.Option("--opponent", help="Bot spec the network is measured against.")] = (
        "heuristic"
    ),
    players: Annotated[int, typer.Option("--players", "-p", min=2, max=4, help="Table size.")] = 4,
    individual: Annotated[bool, typer.Option("--individual", help="4 players each for themselves.")] = False,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="Self-play processes.")] = 2,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Same seed, same games and weights.")] = 0,
    out: Annotated[Path, typer.Option("--out", "-o", help="Folder for networks and the curve.")] = Path(
        "train-results"
    ),
) -> None:
    console = Console()
    try:
        sizes = tuple(int(h) for h in hidden.split(","))
        if not sizes or min(sizes) < 1:
            raise ValueError
    except ValueError:
        console.print(f"[red]error:[/red] --hidden takes layer sizes like 256,256, not {hidden!r}")
        raise typer.Exit(2) from None
    try:
        from ..learn.loop import Plan, Round, run
    except ImportError as err:
        console.print(f"[red]error:[/red] {err}")
        raise typer.Exit(2) from None
    plan = Plan(rounds=rounds, games=games, search=search, hidden=sizes, eval_games=eval_games, opponent=opponent,
                players=players, partnership=players == 4 and not individual, jobs=jobs, seed=seed)  # fmt: skip
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console) as progress:  # fmt: skip
        task = progress.add_task("self-play games", total=rounds * games)

        def on_round(r: Round) -> None:
            progress.console.print(
                f"round {r.round}: {r.examples} examples, loss {r.policy_loss:.3f} (policy) "
                f"{r.value_loss:.3f} (value), {r.games_per_second:.2f} games/s, "
                f"net vs {opponent}: {100 * r.win_rate:.0f}%"
            )

        run(plan, out, on_round=on_round, on_game=lambda: progress.advance(task))
    console.print(f"wrote {out}/round-NN.npz, {out}/curve.csv, {out}/curve.png, {out}/train.json")
