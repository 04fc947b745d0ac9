"""How long does the lobby's Hard bot take a move on the server, at each kind of table?

    python benchmarks/bench_levels.py [--bot-seconds 0.5] [--positions 20] [--seed 1]

For each game and kind of table (the partnership game, 2, 3... players), the Hard level's bot
(``GameDefinition.levels_for``) moves on positions of games the heuristic played, through the
server's own worker pool (:class:`goldfields.server.botpool.BotPool`, one search worker as on a
2-core machine) at ``--bot-seconds``, as a table's bot does. Where a kind of table has a Hard of
its own, the general one is timed beside it, on the same positions in alternation, so that a change
in the machine's load hits both alike. Each decision is timed from asking the pool to its answer;
a spec's first decision (in a fresh worker: imports, and a network's loading) is shown apart.

Reported per spec: the first decision, the median, the 95th percentile and the longest of the rest,
the median as a ratio of ``--bot-seconds``, and the moves the fallback made (a bot that failed, or
overran the hard deadline, ``--bot-deadline``, 5 s by default).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
from typing import Any

from decisions import choices
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from goldfields.bots import make_bot
from goldfields.core import registry
from goldfields.core.definition import mode_of
from goldfields.core.game import GameState
from goldfields.play import play_game
from goldfields.server.botpool import BotPool, PoolSettings


def positions(game: str, params: Any, count: int, seed: int) -> list[GameState]:
    """``count`` positions with a choice, drawn from heuristic games of ``params``."""
    definition = registry.get(game)
    found: list[GameState] = []
    rng = random.Random(seed)
    while len(found) < 4 * count:
        bots = [make_bot("heuristic", game) for _ in range(params.players)]
        final = play_game(lambda: definition.new_state(params), bots, random.Random(rng.getrandbits(32)))
        found.extend(choices(final.record()))
    return rng.sample(found, count)


async def time_specs(pool: BotPool, game: str, specs: list[str], states: list[GameState], seconds: float,
                     progress: Progress, task: Any) -> tuple[dict[str, list[float]], dict[str, int]]:  # fmt: skip
    """Each spec's time a decision on ``states``, and the moves its fallback made."""
    spent: dict[str, list[float]] = {spec: [] for spec in specs}
    fallbacks = dict.fromkeys(specs, 0)
    for i, state in enumerate(states):
        view = state.view(state.current_player)
        for spec in specs if i % 2 == 0 else specs[::-1]:
            failures, t0 = pool.failures, time.perf_counter()
            await pool.decide(spec, game, view, random.Random(i), seconds)
            spent[spec].append(time.perf_counter() - t0)
            fallbacks[spec] += pool.failures - failures
            progress.advance(task)
    return spent, fallbacks


def cases() -> list[tuple[str, Any, list[str]]]:
    """Each game's kinds of table, with the Hard spec there (and the general one beside an own)."""
    out: list[tuple[str, Any, list[str]]] = []
    for game in registry.names():
        definition = registry.get(game)
        kinds: dict[str, Any] = {}
        for players in range(definition.min_players, definition.max_players + 1):
            # Digging's 4 players play the partnership game unless told not to: its 4p table too.
            for apart in ({}, {"partnership": False}) if game == "digging" and players == 4 else ({},):
                params = definition.params(players=players, **apart)
                kinds.setdefault(mode_of(params.to_json()), params)
        for params in kinds.values():
            hard, usual = definition.levels_for(params)["hard"], definition.levels["hard"]
            out.append((game, params, [hard] if hard == usual else [hard, usual]))
    return out


async def run(args: argparse.Namespace, console: Console) -> Table:
    table = Table(title=f"The Hard level's thinking time on the server, at --bot-seconds {args.bot_seconds}")
    for column in ("game", "table", "spec", "first", "median", "95th", "longest", "median / budget", "fallbacks"):
        table.add_column(column, justify="left" if column in ("game", "table", "spec") else "right")
    todo = cases()
    pool = BotPool(PoolSettings(workers=1))
    try:
        with Progress(console=console, transient=True) as progress:
            task = progress.add_task("decisions", total=sum(args.positions * len(s) for _, _, s in todo))
            for game, params, specs in todo:
                states = positions(game, params, args.positions, args.seed)
                spent, fallbacks = await time_specs(pool, game, specs, states, args.bot_seconds, progress, task)
                for spec in specs:
                    first, rest = spent[spec][0], sorted(spent[spec][1:])
                    median = statistics.median(rest)
                    table.add_row(
                        game, mode_of(params.to_json()), spec, f"{first:.3f} s", f"{median:.3f} s",
                        f"{rest[int(0.95 * (len(rest) - 1))]:.3f} s", f"{rest[-1]:.3f} s",
                        f"{median / args.bot_seconds:.2f}", str(fallbacks[spec]),
                    )  # fmt: skip
    finally:
        pool.close()
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bot-seconds", type=float, default=0.5, help="the server's thinking budget a move")
    parser.add_argument("--positions", type=int, default=20, help="decisions timed per spec and kind of table")
    parser.add_argument("--seed", type=int, default=1, help="which games and positions")
    args = parser.parse_args()
    console = Console(width=None if Console().is_terminal else 140)  # a file or pipe gets the whole table
    console.print(asyncio.run(run(args, console)))

if __name__ == "__main__":
    main()
