"""How many bot-filled tables one server holds, and how fast it answers a move.

    python benchmarks/bench_server.py [--tables 50 100 200 300] [--seconds 20] [--bot-delay 0.6]

For each load level, a fresh server process (uvicorn, SQLite file with
synchronous=FULL) gets that many 4-player Digging tables, each with three
`random` bots and one scripted human played by this script over a WebSocket.
Each level runs once per durability setting (``full`` and ``process``, see
``goldfields serve --help``), side by side. The script's players move as soon as it is their turn; the latency of a move
is the time from sending it to receiving its acknowledgement, which the
server sends only once the move is committed to disk. Bots move after
``--bot-delay`` seconds, as on a real server, so the load is what that many
live tables make. Both processes share this machine's cores, so the figures
are a lower bound for a server alone.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

SERVER = """
import sys, uvicorn
from goldfields.server.app import create_app
from goldfields.server.tables import Settings
url, port, delay, durability = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
app = create_app(url, Settings(bot_delay=delay, bot_seconds=0.05, durability=durability, rate_limits=False,
                                max_sockets_per_client=100_000))
uvicorn.run(app, host="127.0.0.1", port=port, ws_max_size=1 << 20, ws_per_message_deflate=False, log_level="warning")
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def player(base: str, table: str, token: str, until: float, latencies: list[float], seed: int) -> int:
    rng = random.Random(seed)
    moves = 0
    sent_at: float | None = None
    async with websockets.connect(f"ws://{base}/api/tables/{table}/ws", max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "seat": 0, "token": token}))
        while time.monotonic() < until:
            try:
                msg = json.loads(await asyncio.wait_for(ws.recv(), timeout=max(0.1, until - time.monotonic())))
            except TimeoutError:
                break
            if msg["type"] == "ack" and sent_at is not None:
                latencies.append(time.monotonic() - sent_at)
                sent_at = None
                moves += 1
            elif msg["type"] == "update":
                if msg["table"]["status"] == "finished":
                    break
                view = msg["view"]
                if view["to_move"] == 0 and view["legal"] and sent_at is None:
                    sent_at = time.monotonic()
                    await ws.send(json.dumps({"type": "move", "move": rng.choice(view["legal"]), "seq": msg["seq"]}))
            elif msg["type"] == "error":
                sent_at = None  # a race with the table moving on; try the next update
    return moves


async def load_level(tables: int, seconds: float, bot_delay: float, durability: str) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        proc = subprocess.Popen(
            [
                sys.executable,
                "-c",
                SERVER,
                f"sqlite:///{Path(tmp) / 'bench.db'}",
                str(port),
                str(bot_delay),
                durability,
            ],
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        try:
            base = f"127.0.0.1:{port}"
            async with httpx.AsyncClient(base_url=f"http://{base}", timeout=30) as http:
                for _ in range(300):
                    try:
                        if (await http.get("/api/health")).status_code == 200:
                            break
                    except httpx.HTTPError:
                        await asyncio.sleep(0.1)
                seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3
                created = []
                for _ in range(tables):
                    r = await http.post("/api/tables", json={"game": "digging", "seats": seats, "claim": 0})
                    created.append((r.json()["table"]["id"], r.json()["you"]["token"]))
            latencies: list[float] = []
            start = time.monotonic()
            until = start + seconds
            moves = await asyncio.gather(
                *(player(base, t, tok, until, latencies, i) for i, (t, tok) in enumerate(created))
            )
            elapsed = time.monotonic() - start
        finally:
            proc.terminate()
            proc.wait(10)
    latencies.sort()
    q = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else [latencies[0]] * 99
    return {
        "tables": tables,
        "human_moves": sum(moves),
        "p50_ms": q[49] * 1000,
        "p99_ms": q[98] * 1000,
        "moves_per_s": sum(moves) / elapsed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, nargs="+", default=[50, 100, 200, 300])
    parser.add_argument("--seconds", type=float, default=20.0, help="measuring time per load level")
    parser.add_argument("--bot-delay", type=float, default=0.6, help="seconds a bot waits before moving")
    parser.add_argument(
        "--durability",
        nargs="+",
        default=["full", "process"],
        choices=["full", "process"],
        help="server durability settings to measure (see goldfields serve --help)",
    )
    args = parser.parse_args()
    cores = os.cpu_count()
    print(f"bot delay {args.bot_delay} s, {args.seconds:g} s per level, server and clients on one {cores}-core machine")
    print(f"{'durability':>10} {'tables':>7} {'human moves':>12} {'p50 ms':>8} {'p99 ms':>8} {'human moves/s':>14}")
    for n in args.tables:
        for durability in args.durability:
            r = asyncio.run(load_level(n, args.seconds, args.bot_delay, durability))
            print(
                f"{durability:>10} {r['tables']:>7} {r['human_moves']:>12} {r['p50_ms']:>8.1f} {r['p99_ms']:>8.1f}"
                f" {r['moves_per_s']:>14.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
