"""``goldfields demo``: watch a whole game between bots, narrated move by move."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..arena.games import GameSpec
from ..bots.registry import BotSpecError, make_bot, misnamed, spec_or_level
from ..core import registry
from ..core.game import Event, GameState
from ..play.driver import play_game
from ..records import save
from .options import (
    FIRST_GAME,
    BotsOption,
    DelayOption,
    GameName,
    IndividualOption,
    PlayersOption,
    RuleOption,
    free_path,
    individual_problem,
    output_problem,
    parse_rules,
    print_error,
    wrote_note,
)

DEFAULT_SEED = 2026

# One line a paragraph: Typer keeps a help text's line breaks, and Rich wraps the lines again.
HELP = "\n\n".join([
    "Watch bots play a whole game, every move in the notation and in words.",
    "The demo is a spectator's commentary with every card face up: each line shows the move as you would type "
    "it in `goldfields play`, then in words. A game record writes Digger's rolls and stops with their dice and "
    "times as well (`roll BYGGW @0`, `stop @28`). Save the record with --save and check it with "
    "`goldfields replay`.",
])


def _scoreboard(state: GameState) -> Table:
    table = Table(title="Scores", show_edge=False)
    table.add_column("")
    for s in range(state.num_players):
        table.add_column(f"seat {s}", justify="right")
    hands = registry.game_of(state).hand_points(state)
    if hands != [list(state.scores())]:  # a game of several hands: each hand's points
        for i, points in enumerate(hands):
            table.add_row(f"hand {i + 1}", *map(str, points))
    table.add_row("total", *map(str, state.scores()), style="bold")
    return table


def demo_command(
    game: Annotated[GameName, typer.Argument(metavar="[GAME]", help="The game to watch.",
                                                       case_sensitive=False)] = GameName[FIRST_GAME],
    players: PlayersOption = None,
    individual: IndividualOption = False,
    rule: RuleOption = None,
    bots: BotsOption = None,
    seed: Annotated[int | None, typer.Option(
        "--seed", "-s", metavar="N", show_default=False,
        help=f"Seed for the deals, the dice and the bots: the same seed plays the same game. Without it, "
             f"{DEFAULT_SEED}: a demo is the same game each time; give another seed for another game.")] = None,
    delay: DelayOption = 0.0,
    save_to: Annotated[Path | None, typer.Option("--save", metavar="FILE", show_default=False,
                                                 help="Write the game record (JSON) to FILE. An existing FILE "
                                                      "is refused before the game is played, unless --force.")
                       ] = None,
    force: Annotated[bool, typer.Option("--force", help="Let --save replace an existing FILE.")] = False,
) -> None:
    """Watch bots play a whole game (``HELP``)."""
    definition = registry.get(game.value)
    seed = DEFAULT_SEED if seed is None else seed
    problem = individual_problem(definition.name, individual, players)
    if problem is not None:
        refuse(problem)
    try:
        params = definition.params(players=players, **({"partnership": False} if individual else {}))
    except ValueError as err:
        refuse(err)
    try:
        rules = parse_rules(rule)
    except ValueError as err:
        refuse(err)
    table = GameSpec(definition.name, params)
    try:
        # The arena's reading of the rules, so that one --rule means the same in every command.
        table = table.with_rules(rules) if rules else table
    except ValueError as err:
        refuse(f"--rule: {err}")
    params = table.params
    asked = [spec for item in (bots or ["heuristic"]) for spec in item.split()]
    levels = definition.levels_for(params)
    try:
        state = definition.new_state(params)
        specs = [spec_or_level(spec, levels, definition.name) for spec in asked]
        if len(specs) == 1:
            specs *= params.players
        if len(specs) != params.players:
            raise ValueError(f"{params.players} seats need one bot spec for all or one each; got {len(specs)}")
        seat_bots = [make_bot(spec, definition.name) for spec in specs]
    except BotSpecError as err:
        wrong = (misnamed(spec, definition.name, levels) for spec in asked if spec.lower() not in levels)
        refuse(next(filter(None, wrong), err))
    except ValueError as err:
        refuse(err)
    # Said before the game, not after it: a record written over is gone.
    problem = None if save_to is None else output_problem(save_to, force=force)
    if problem is not None:
        refuse(f"--save: {problem}")
    # Made for each demo, so that it reads the terminal's width (COLUMNS) as it is now.
    console = Console(highlight=False)
    narrate = definition.narrate
    sides = definition.sides(params)

    def name(seat: int) -> str:
        if len(sides) < params.players:
            return f"seat {seat} (team {'ABCDEFGH'[definition.side_of(params, seat)]})"
        return f"seat {seat}"

    teams = " against ".join("+".join(map(str, side)) for side in sides)
    mode = f", partnership ({teams})" if len(sides) < params.players else ""
    # Bracketed values (crate_values=[...]) are text, not Rich markup.
    changed = escape(table.rules_text())
    console.print(f"[bold]{definition.title}[/bold], {params.players} players{mode}: {definition.summary}."
                  + (f" Rules: {changed}." if changed else "") + "\n")
    shown_at = -1  # the step after which the scores were last shown

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
                nonlocal shown_at
                console.print(_scoreboard(now))
                shown_at = steps[0]
        steps[0] += 1
        if delay and action is not None:
            time.sleep(delay)

    steps = [0]
    final = play_game(lambda: state, seat_bots, random.Random(seed), on_step=on_step)
    if shown_at < steps[0] - 1:  # not already shown as the last hand was scored
        console.print(_scoreboard(final))
    if save_to is not None:
        path = free_path(save_to, force)
        try:
            save(final.record(), path)
        except OSError as err:  # checked before the game, but the folder can go, or the disk fill
            print_error(f"--save: the game was played, but its record could not be written to {path}: "
                        f"{err.strerror or err}")  # fmt: skip
            raise typer.Exit(1) from None
        console.print(f"Record saved to {path}{wrote_note(save_to, path)}; check it with: goldfields replay {path}")


def refuse(message: object) -> NoReturn:
    """One ``error:`` line and status 2, as ``play`` and ``arena`` refuse what they are given."""
    print_error(message)
    raise typer.Exit(2)


def register(app: typer.Typer) -> None:
    app.command("demo", help=HELP)(demo_command)
