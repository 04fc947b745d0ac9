"""Does a human's move wait for search bots? Human move latency with and without 20 ISMCTS tables.

    python benchmarks/bench_server_bots.py [--humans 20] [--search-tables 0 20] [--seconds 20] [--repeats 2]

Each run starts a fresh server process (uvicorn, SQLite file) with ``--humans``
4-player Digging tables, each a human seat played by this script over a
WebSocket beside three ``random`` bots, and ``N`` tables of four
``ismcts`` bots that think for ``--bot-seconds`` each move with no delay, so
every worker process is busy all the time. The script's players move as soon
as it is their turn; latency is from sending a move to receiving its
acknowledgement (sent once the move is committed). The load levels alternate
in one run (0, 20, 0, 20, ...) so that a change in the machine's load hits
both alike; the table reports each level's pooled figures and their ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from bench_server import free_port, player

SERVER = """
import sys, uvicorn
from goldfields.server.app import create_app
from goldfields.server.tables import Settings
url, port, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
app = create_app(url, Settings(bot_delay=0.0, bot_seconds=seconds, durability="process", rate_limits=False))
uvicorn.run(app, host="127.0.0.1", port=port, ws_max_size=1 << 20, ws_per_message_deflate=False, log_level="warning")
"""


async def run(humans: int, search_tables: int, seconds: float, bot_seconds: float) -> tuple[list[float], int]:
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        url = f"sqlite:///{Path(tmp) / 'bench.db'}"
        proc = subprocess.Popen([sys.executable, "-c", SERVER, url, str(port), str(bot_seconds)])
        try:
            base = f"127.0.0.1:{port}"
            async with httpx.AsyncClient(base_url=f"http://{base}", timeout=30) as http:
                for _ in range(300):
                    try:
                        if (await http.get("/api/health")).status_code == 200:
                            break
                    except httpx.HTTPError:
                        await asyncio.sleep(0.1)
                searchers = [{"kind": "bot", "bot": "ismcts"}] * 4
                for _ in range(search_tables):
                    r = await http.post("/api/tables", json={"game": "digging", "seats": searchers})
                    r.raise_for_status()
                seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3
                created = []
                for _ in range(humans):
                    r = await http.post("/api/tables", json={"game": "digging", "seats": seats, "claim": 0})
                    r.raise_for_status()
                    created.append((r.json()["table"]["id"], r.json()["you"]["token"]))
                latencies: list[float] = []
                until = time.monotonic() + seconds
                await asyncio.gather(*(player(base, t, tok, until, latencies, i) for i, (t, tok) in enumerate(created)))
                fallbacks = (await http.get("/api/health")).json()["bot_fallbacks"]
        finally:
            proc.terminate()
            proc.wait(10)
    return latencies, fallbacks


def quantiles(xs: list[float]) -> tuple[float, float]:
    q = statistics.quantiles(xs, n=100)
    return q[49] * 1000, q[98] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--humans", type=int, default=20, help="tables with a human seat played by this script")
    parser.add_argument("--search-tables", type=int, nargs="+", default=[0, 20])
    parser.add_argument("--seconds", type=float, default=20.0, help="measuring time per run")
    parser.add_argument("--bot-seconds", type=float, default=0.5, help="thinking time of each ismcts move")
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    print(
        f"{args.humans} human tables, ismcts thinking {args.bot_seconds} s a move, {args.seconds:g} s per run,"
        f" {args.repeats} runs per level, alternating; server and clients on one {os.cpu_count()}-core machine"
    )
    pooled: dict[int, list[float]] = {n: [] for n in args.search_tables}
    fallbacks: dict[int, int] = dict.fromkeys(args.search_tables, 0)
    for _ in range(args.repeats):
        for n in args.search_tables:
            latencies, failed = asyncio.run(run(args.humans, n, args.seconds, args.bot_seconds))
            pooled[n] += latencies
            fallbacks[n] += failed
            p50, p99 = quantiles(latencies)
            print(f"  ismcts tables {n:>3}: {len(latencies):>5} human moves, p50 {p50:6.1f} ms, p99 {p99:6.1f} ms")
    _, base99 = quantiles(pooled[args.search_tables[0]])
    print(f"{'ismcts tables':>13} {'human moves':>12} {'p50 ms':>8} {'p99 ms':>8} {'p99 ratio':>10} {'fallbacks':>10}")
    for n in args.search_tables:
        p50, p99 = quantiles(pooled[n])
        print(f"{n:>13} {len(pooled[n]):>12} {p50:>8.1f} {p99:>8.1f} {p99 / base99:>10.2f} {fallbacks[n]:>10}")


if __name__ == "__main__":
    main()
