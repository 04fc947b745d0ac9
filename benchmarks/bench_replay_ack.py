"""What replays cost the live tables of the server that computes them: a move's acknowledgement,
with and without a replay being computed at the same moment, under each GIL switch interval.

    python benchmarks/bench_replay_ack.py [--tables 4] [--seconds 20] [--intervals 0.005 0.001]

A replay is computed on a thread of the server process, and shares the GIL with the event loop
that answers every table's moves. For each switch interval (``sys.setswitchinterval``; Python's
default is 0.005 s; the server sets ``goldfields.server.app.SWITCH_INTERVAL`` as it starts), a
fresh server process gets ``--tables`` 4-player Digging tables, each with three ``random`` bots
and one player this script moves over a WebSocket (as bench_server.py), and is measured twice:
alone, then while a client asks for the replay of a finished 2-player game again and again, one
at a time (the replay line's own pace). The figure to read is each row's acknowledgement against
the quiet one's, and the busy rows against each other. Server and clients share this machine's
cores.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from bench_server import free_port, player
from rich.console import Console
from rich.table import Table

from goldfields.core import registry
from goldfields.digging import new_game

SERVER = """
import sys, uvicorn
from goldfields.server import app
from goldfields.server.tables import Settings
url, port, interval = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
app.SWITCH_INTERVAL = interval  # what the server sets as it starts
server = app.create_app(url, Settings(bot_delay=0.3, bot_seconds=0.05, rate_limits=False,
                                      max_sockets_per_client=100_000))
uvicorn.run(server, host="127.0.0.1", port=port, ws_max_size=1 << 20, ws_per_message_deflate=False,
            log_level="warning")
"""


def long_record(seed: int = 7) -> dict[str, Any]:
    """A whole 2-player game between random players: some hundreds of steps to replay."""
    rng = random.Random(seed)
    state = new_game(2, False, seed=seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state.record()


async def replays(base: str, record: dict[str, Any], until: float, spent: list[float]) -> None:
    async with httpx.AsyncClient(base_url=f"http://{base}", timeout=60) as http:
        while time.monotonic() < until:
            began = time.monotonic()
            r = await http.post("/api/replay", json={"record": record, "seat": "all"})
            r.raise_for_status()
            spent.append(time.monotonic() - began)


async def measure(interval: float, tables: int, seconds: float, record: dict[str, Any]) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        proc = subprocess.Popen([sys.executable, "-c", SERVER, f"sqlite:///{Path(tmp) / 'bench.db'}", str(port),
                                 str(interval)], env={**os.environ, "PYTHONUNBUFFERED": "1"})  # fmt: skip
        base = f"127.0.0.1:{port}"
        try:
            async with httpx.AsyncClient(base_url=f"http://{base}", timeout=30) as http:
                for _ in range(600):
                    try:
                        if (await http.get("/api/health")).status_code == 200:
                            break
                    except httpx.HTTPError:
                        pass
                    await asyncio.sleep(0.1)
                else:
                    raise SystemExit(f"the server on port {port} did not answer in a minute")
                seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3
                for load in ("quiet", "replaying"):
                    made = []
                    for _ in range(tables):  # new tables each time: a finished one takes no move
                        r = await http.post("/api/tables", json={"game": "digging", "seats": seats, "claim": 0})
                        made.append((r.json()["table"]["id"], r.json()["you"]["token"]))
                    latencies: list[float] = []
                    spent: list[float] = []
                    until = time.monotonic() + seconds
                    work = [player(base, t, tok, until, latencies, i) for i, (t, tok) in enumerate(made)]
                    if load == "replaying":
                        work.append(replays(base, record, until, spent))
                    await asyncio.gather(*work)
                    q = statistics.quantiles(latencies, n=100)
                    out[load] = {"moves": len(latencies), "p50": 1000 * q[49], "p95": 1000 * q[94],
                                 "replays": len(spent)}  # fmt: skip
        finally:
            proc.terminate()
            proc.wait(10)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=4, help="live tables with a player of this script's (4)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measuring time per row (20)")
    parser.add_argument("--intervals", type=float, nargs="+", default=[0.005, 0.001],
                        help="GIL switch intervals to measure, in seconds (0.005, Python's default, and 0.001)")
    args = parser.parse_args()
    record = long_record()
    steps = registry.get("digging").steps(record)
    table = Table(title=f"a move's acknowledgement, {args.tables} live tables; replays of a {steps}-step game")
    for column in ("switch interval", "load", "moves", "p50 ms", "p95 ms", "p50 × quiet", "replays"):
        table.add_column(column, justify="left" if column == "load" else "right")
    for interval in args.intervals:
        rows = asyncio.run(measure(interval, args.tables, args.seconds, record))
        for load, r in rows.items():
            table.add_row(f"{1000 * interval:g} ms", load, str(int(r["moves"])), f"{r['p50']:.1f}", f"{r['p95']:.1f}",
                          f"{r['p50'] / rows['quiet']['p50']:.1f}", str(int(r["replays"])) if load != "quiet" else "")
    Console().print(table)


if __name__ == "__main__":
    main()
