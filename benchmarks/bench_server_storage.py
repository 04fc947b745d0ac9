"""What a finished game costs the server's database, with its steps and after they are dropped.

    python benchmarks/bench_server_storage.py [--games 40] [--bot heuristic]

A finished table is read from its record alone once it is archived, so the server
deletes its steps (a row a move) then. This stores ``--games`` whole bot games of
each kind, each as the server stores it (the table, its seats, a step row a move and
the final record), in a fresh SQLite file; measures the file (after VACUUM); drops
the steps with the server's own ``Store.drop_steps``; and measures it again. The
figure to read is the ratio of the two sizes, per kind of game.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.progress import track
from rich.table import Table
from sqlalchemy import insert, text

from goldfields.bots import make_bot
from goldfields.server.games import table_game
from goldfields.server.models import SeatRow, StepRow, TableRow
from goldfields.server.store import Store

KINDS = {
    "digging, 2 players": {"game": "digging", "players": 2, "partnership": False},
    "digging, partnership": {"game": "digging", "players": 4},
    "digger, 4 players": {"game": "digger", "players": 4},
}


def bot_game(request: dict, bot: str, seed: int) -> tuple[dict, list[dict], object]:
    """A whole game between bots, as the server stores it: its config, its steps, the final state."""
    game = table_game(request["game"])
    config = game.check_config({**request, "seats": [{"kind": "bot"}] * request["players"]})
    config["move_seconds"] = None
    state = game.new_state(config)
    rng = random.Random(seed)
    players = [make_bot(bot, game.name) for _ in range(config["players"])]
    steps = []
    while not state.is_terminal():
        if state.is_chance_node():
            step = game.chance_step(state, rng)
        else:
            seat = state.current_player
            action = players[seat].act(state.view(seat), rng)
            step = game.bot_step(state, action, 1.0 if game.realtime else None, rng, config)
        game.apply_step(state, step)
        steps.append(step)
    return config, steps, state


def size(db: Path) -> int:
    store = Store(f"sqlite:///{db}")
    with store.engine.connect() as conn:
        conn.execute(text("VACUUM"))
    store.close()
    return db.stat().st_size


def measure(kind: str, request: dict, games: int, bot: str, folder: Path) -> tuple[int, float, int, int]:
    db = folder / f"{request['game']}-{request['players']}.db"
    store = Store(f"sqlite:///{db}", synchronous="OFF")
    old = time.time() - 86_400
    total_steps = 0
    with store.engine.begin() as conn:
        for i in track(range(games), description=kind, transient=True):
            config, steps, state = bot_game(request, bot, i)
            total_steps += len(steps)
            table_id = f"t{i}"
            conn.execute(
                insert(TableRow.__table__).values(
                    id=table_id, game=request["game"], name=table_id, config=config, secret=f"{i:032d}",
                    status="finished", created_at=old + i, updated_at=old + i, finished_at=old + i,
                    record=state.record(), seq=len(steps),
                )
            )
            conn.execute(
                insert(SeatRow.__table__),
                [{"table_id": table_id, "seat": s, "kind": "bot", "bot": bot, "name": f"b{s}"}
                 for s in range(config["players"])],
            )
            conn.execute(
                insert(StepRow.__table__),
                [{"table_id": table_id, "seq": n, "payload": p, "wall": old + i} for n, p in enumerate(steps, 1)],
            )
    store.close()
    before = size(db)
    store = Store(f"sqlite:///{db}")
    asyncio.run(store.drop_steps(finished_before=time.time()))
    store.close()
    return before, total_steps / games, size(db), games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games of each kind")
    parser.add_argument("--bot", default="heuristic", help="the bot at every seat")
    args = parser.parse_args()
    out = Table(title=f"a finished game in the database: {args.games} {args.bot} games of each kind, SQLite")
    for column in ("game", "steps a game", "with steps", "records only", "ratio"):
        out.add_column(column, justify="left" if column == "game" else "right")
    with tempfile.TemporaryDirectory() as folder:
        for kind, request in KINDS.items():
            before, steps, after, games = measure(kind, request, args.games, args.bot, Path(folder))
            out.add_row(kind, f"{steps:.0f}", f"{before / games / 1024:.1f} kB", f"{after / games / 1024:.1f} kB",
                        f"{before / after:.1f}×")
    Console().print(out)


if __name__ == "__main__":
    main()
