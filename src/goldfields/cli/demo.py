"""``goldfields demo``: watch a whole game of Digging between bots, narrated."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from ..digging import DiggingState
from ..digging.narrate import event_text
from ..records import save

console = Console(highlight=False)


def _seat_name(partnership: bool):
    def name(seat: int) -> str:
        return f"seat {seat} (team {'AB'[seat % 2]})" if partnership else f"seat {seat}"

    return name


def _scoreboard(state: DiggingState) -> Table:
    table = Table(title="Scores", show_edge=False)
    table.add_column("hand")
    for s in range(state.num_players):
        table.add_column(f"seat {s}", justify="right")
    for i, points in enumerate(state.history):
        table.add_row(str(i + 1), *map(str, points))
    table.add_row("total", *map(str, state.totals), style="bold")
    return table


def demo_command(
    players: Annotated[int, typer.Option("--players", "-n", min=2, max=4, help="2, 3 or 4 players.")] = 4,
    individual: Annotated[bool, typer.Option("--individual", help="With 4 players: each for themselves.")] = False,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed for the shuffles and the bots.")] = 2026,
    delay: Annotated[float, typer.Option("--delay", "-d", min=0.0, help="Seconds to pause after each move.")] = 0.0,
    save_to: Annotated[Path | None, typer.Option("--save", help="Write the game record (JSON) to this file.")] = None,
) -> None:
    """Play one game of Digging between bots and narrate every move.

    Each line shows the move in the project's notation, then what happened.
    The record can be saved and checked with `goldfields replay`.
    """
    partnership = players == 4 and not individual
    rng = random.Random(seed)
    state = DiggingState(players, partnership)
    name = _seat_name(partnership)
    mode = "partnership (0+2 against 1+3)" if partnership else "individual"
    console.print(f"[bold]Digging[/bold], {players} players, {mode}; target {state.target} points.\n")
    while not state.is_terminal():
        if state.is_chance_node():
            if state.hand_no >= 0:
                console.print(_scoreboard(state))
            events = state.apply_chance(state.sample_chance(rng))
            console.rule(event_text(events[0].view(None), name))
            continue
        seat = state.current_player
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        move = state.action_to_string(action)
        for ev in state.apply_action(action):
            console.print(f"[cyan]{move:<14}[/cyan] {event_text(ev.view(None), name)}")
            move = ""
        if delay:
            time.sleep(delay)
        del seat
    console.print(_scoreboard(state))
    if save_to is not None:
        path = save(state.record(), save_to)
        console.print(f"Record saved to {path}; check it with: goldfields replay {path}")


def register(app: typer.Typer) -> None:
    app.command("demo")(demo_command)
