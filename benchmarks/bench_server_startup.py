"""Server start-up time with a short and a long history of finished tables, side by side.

    python benchmarks/bench_server_startup.py [--finished 10 1000] [--live 20] [--repeats 3]

For each count, a fresh SQLite file gets that many finished tables (whole
random 2-player Digging games, every step stored as the server stores it, and
the archived record) plus ``--live`` tables in play. Then, in turns, so that
the machine's noise falls on every count alike, it measures:

- ``restore``: TableManager.restore() in this process, the part that depends on the database;
- ``process``: a fresh ``goldfields serve`` process, from its launch until /api/health answers;
- for comparison, restore() replaying every table, finished ones too, as start-up did before.

Start-up reads only live (and recently finished) tables, so both should be flat
in the number of finished tables: the figure to read is the ratio of the
largest count to the smallest.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from rich.console import Console
from rich.progress import track
from rich.table import Table
from sqlalchemy import insert

from goldfields.server.games import table_game
from goldfields.server.models import SeatRow, StepRow, TableRow
from goldfields.server.store import Store
from goldfields.server.tables import Settings, TableManager

CONFIG = {"game": "digging", "players": 2, "seats": [{"kind": "bot"}, {"kind": "bot"}]}


def random_game(seed: int) -> tuple[dict, list[dict], list]:
    """A whole random game as the server stores it: its config, its steps and the final state."""
    game = table_game("digging")
    config = game.check_config(CONFIG)
    config["move_seconds"] = None
    state = game.new_state(config)
    rng = random.Random(seed)
    steps = []
    while not state.is_terminal():
        if state.is_chance_node():
            step = game.chance_step(state, rng)
        else:
            step = game.bot_step(state, rng.choice(state.legal_actions()), None, rng, config)
        game.apply_step(state, step)
        steps.append(step)
    return config, steps, state


def build(db: Path, finished: int, live: int) -> None:
    store = Store(f"sqlite:///{db}", synchronous="OFF")
    old = time.time() - 86_400  # finished yesterday: archived, not restored
    with store.engine.begin() as conn:
        for i in track(range(finished + live), description=f"{finished} finished + {live} live tables", transient=True):
            config, steps, state = random_game(i)
            done = i < finished
            if not done:
                steps = steps[: len(steps) // 2]  # a game in the middle
            table_id = f"t{i}"
            conn.execute(
                insert(TableRow.__table__).values(
                    id=table_id, game="digging", name=table_id, config=config, secret=f"{i:032d}",
                    status="finished" if done else "playing", created_at=old + i, updated_at=old + i,
                    finished_at=old + i if done else None, record=state.record() if done else None,
                    seq=len(steps) if done else None,
                )
            )
            conn.execute(
                insert(SeatRow.__table__),
                [{"table_id": table_id, "seat": s, "kind": "bot", "bot": "random", "name": f"b{s}"} for s in (0, 1)],
            )
            conn.execute(
                insert(StepRow.__table__),
                [{"table_id": table_id, "seq": n, "payload": p, "wall": old + i} for n, p in enumerate(steps, 1)],
            )
    store.close()


async def restore_seconds(db: Path, everything: bool = False) -> float:
    # A bot delay of an hour: the restored tables' bots do not start playing while we time.
    # ``everything``: keep finished tables live forever, so every table is replayed, as
    # start-up did before tables were archived (for comparison).
    settings = Settings(bot_delay=3600.0, keep_finished=1e12 if everything else 600.0)
    manager = TableManager(Store(f"sqlite:///{db}"), settings)
    start = time.perf_counter()
    await manager.restore()
    took = time.perf_counter() - start
    await manager.shutdown()
    manager.store.close()
    return took


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def process_seconds(db: Path) -> float:
    port = free_port()
    start = time.perf_counter()
    proc = subprocess.Popen(
        [str(Path(sys.executable).with_name("goldfields")), "serve", "--port", str(port),
         "--database", f"sqlite:///{db}", "--bot-delay", "3600"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                    return time.perf_counter() - start
            except httpx.HTTPError:
                if proc.poll() is not None:
                    raise RuntimeError("the server exited at start") from None
                time.sleep(0.01)
    finally:
        proc.terminate()
        proc.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--finished", type=int, nargs="+", default=[10, 1000])
    parser.add_argument("--live", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    console = Console()
    with tempfile.TemporaryDirectory() as tmp:
        dbs = {n: Path(tmp) / f"history-{n}.db" for n in args.finished}
        for n, db in dbs.items():
            build(db, n, args.live)
        restore: dict[int, list[float]] = {n: [] for n in dbs}
        replay_all: dict[int, list[float]] = {n: [] for n in dbs}
        process: dict[int, list[float]] = {n: [] for n in dbs}
        for _ in track(range(args.repeats), description="measuring, in turns", transient=True):
            for n, db in dbs.items():
                restore[n].append(asyncio.run(restore_seconds(db)))
                replay_all[n].append(asyncio.run(restore_seconds(db, everything=True)))
                process[n].append(process_seconds(db))
    table = Table(title=f"start-up with {args.live} live tables, median of {args.repeats}")
    table.add_column("finished tables", justify="right")
    table.add_column("restore (s)", justify="right")
    table.add_column("process to ready (s)", justify="right")
    table.add_column("replaying every table, as before (s)", justify="right")
    smallest = min(dbs)
    for n in dbs:
        r, p, a = (statistics.median(x[n]) for x in (restore, process, replay_all))
        r0, p0, a0 = (statistics.median(x[smallest]) for x in (restore, process, replay_all))
        table.add_row(str(n), f"{r:.3f} ({r / r0:.2f}x)", f"{p:.2f} ({p / p0:.2f}x)", f"{a:.3f} ({a / a0:.2f}x)")
    console.print(table)


if __name__ == "__main__":
    main()
