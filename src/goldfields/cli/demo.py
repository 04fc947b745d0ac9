"""``goldfields demo``: watch a whole game between bots, narrated move by move."""

from __future__ import annotations

import random
import time
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from ..bots.registry import BotSpecError, make_bot
from ..core.game import Event, GameState
from ..digger import DiggerState
from ..digger.narrate import event_text as digger_text
from ..digging import DiggingState
from ..digging.narrate import event_text as digging_text
from ..play.driver import play_game
from ..records import save

console = Console(highlight=False)


class GameName(StrEnum):
    digging = "digging"
    digger = "digger"


def _scoreboard(state: GameState) -> Table:
    table = Table(title="Scores", show_edge=False)
    table.add_column("")
    for s in range(state.num_players):
        table.add_column(f"seat {s}", justify="right")
    if isinstance(state, DiggingState):
        for i, points in enumerate(state.history):
            table.add_row(f"hand {i + 1}", *map(str, points))
    table.add_row("total", *map(str, state.scores()), style="bold")
    return table


def demo_command(
    game: Annotated[GameName, typer.Argument(help="digging or digger.")] = GameName.digging,
    players: Annotated[int | None, typer.Option("--players", "-n", help="Digging 2-4 (4), Digger 2-5 (3).")] = None,
    individual: Annotated[bool, typer.Option(help="Digging with 4 players: each for themselves.")] = False,
    bots: Annotated[str, typer.Option(help="Bot spec for every seat, e.g. heuristic, random, ismcts:seconds=0.2.")] = (
        "heuristic"
    ),
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed for the shuffles, the dice and the bots.")] = 2026,
    delay: Annotated[float, typer.Option("--delay", "-d", min=0.0, help="Seconds to pause after each move.")] = 0.0,
    save_to: Annotated[Path | None, typer.Option("--save", help="Write the game record (JSON) to this file.")] = None,
) -> None:
    """Watch bots play a whole game, every move in the notation and in words.

    The demo is a spectator's commentary with every card face up: each line
    shows the move as a game record writes it. Save the record with --save
    and check it with `goldfields replay`.
    """
    n = players if players is not None else (4 if game is GameName.digging else 3)
    try:
        state = _new_state(game, n, individual)
        seat_bots = [make_bot(bots, game.value) for _ in range(n)]
    except (ValueError, BotSpecError) as err:
        raise typer.BadParameter(str(err)) from None
    narrate = digging_text if game is GameName.digging else digger_text

    def name(seat: int) -> str:
        if isinstance(state, DiggingState) and state.partnership:
            return f"seat {seat} (team {'AB'[seat % 2]})"
        return f"seat {seat}"

    console.print(_title(state))

    def on_step(now: GameState, action: int | None, events: list[Event]) -> None:
        move = "" if action is None else now.action_to_string(action)
        for ev in events:
            if ev.kind == "deal":
                console.rule(narrate(ev.view(None), name))
                continue
            # The commentary shows every card: merge every seat's private details.
            seen = ev.view(None)
            for details in (ev.private or {}).values():
                seen.update(details)
            console.print(f"[cyan]{move:<16}[/cyan] {narrate(seen, name)}")
            move = ""
            if ev.kind == "hand_scored":
                console.print(_scoreboard(now))
        if delay and action is not None:
            time.sleep(delay)

    final = play_game(lambda: state, seat_bots, random.Random(seed), on_step=on_step)
    if isinstance(final, DiggerState):  # Digging's board was shown as the last hand was scored
        console.print(_scoreboard(final))
    if save_to is not None:
        path = save(final.record(), save_to)
        console.print(f"Record saved to {path}; check it with: goldfields replay {path}")


def _new_state(game: GameName, players: int, individual: bool) -> GameState:
    if game is GameName.digging:
        return DiggingState(players, players == 4 and not individual)
    return DiggerState(players)


def _title(state: GameState) -> str:
    if isinstance(state, DiggingState):
        mode = "partnership (0+2 against 1+3)" if state.partnership else "each for themselves"
        return f"[bold]Digging[/bold], {state.num_players} players, {mode}; target {state.target} points.\n"
    return f"[bold]Digger[/bold], {state.num_players} players; the game ends when the centre has no blue left.\n"


def register(app: typer.Typer) -> None:
    app.command("demo")(demo_command)
