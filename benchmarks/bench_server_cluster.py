"""One, two and three server processes on PostgreSQL and Redis: tables held, and what relaying costs.

    python benchmarks/bench_server_cluster.py [--processes 1 2 3] [--tables 200 300 400] [--seconds 15]

Needs PostgreSQL and Redis on localhost (scripts/test starts both):
``GOLDFIELDS_BENCH_POSTGRES`` (default ``postgresql+psycopg://goldfields:goldfields@127.0.0.1:5432``,
a server where a database may be created) and ``GOLDFIELDS_BENCH_REDIS`` (default
``redis://127.0.0.1:6379/0``).

For each process count and each table count, a fresh database and that many
``goldfields serve --redis`` processes. That many 4-player Digging tables (a human seat played by this
script beside three ``random`` bots moving after ``--bot-delay``) are created
round robin on the processes, so each is owned by the one it was created on.
With two or more processes, half the human sockets connect to the table's owner
(local moves) and half to another process (relayed moves: the move goes to the
owner through Redis, the acknowledgement and the updates come back the same
way). Latency is from sending a move to its acknowledgement, which the owner
sends once the move is committed; it is measured after ``--warmup`` seconds, as
every table opening at the same instant makes a burst that steady play does not. Server processes and clients share this
machine's cores, so more processes mean more competition for the same two cores:
the figures show what relaying costs, not how a site scales on more machines.
The last lines give, for each process count, the most tables whose p99 stayed
under ``--target`` milliseconds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
import uuid
from typing import Any

import httpx
from bench_server import free_port, player
from sqlalchemy import make_url

SERVER = """
import sys, json, uvicorn
from goldfields.server.app import create_app
from goldfields.server.tables import Settings
url, port, settings = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])
app = create_app(url, Settings(**settings))
uvicorn.run(app, host="127.0.0.1", port=port, ws_max_size=1 << 20, ws_per_message_deflate=False, log_level="warning")
"""


def fresh_database(base: str) -> tuple[str, str]:
    import psycopg

    url = make_url(base)
    admin = url.set(drivername="postgresql", database="postgres").render_as_string(hide_password=False)
    name = f"goldfields_bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return url.set(drivername="postgresql+psycopg", database=name).render_as_string(hide_password=False), admin


def drop_database(admin: str, url: str) -> None:
    import psycopg

    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{make_url(url).database}" WITH (FORCE)')


class Measured(list[float]):
    """Latencies from ``start`` on: every table opens at once, and that first burst is not play."""

    def __init__(self, start: float) -> None:
        super().__init__()
        self.start = start

    def append(self, latency: float) -> None:
        if time.monotonic() >= self.start:
            super().append(latency)


async def level(
    processes: int, tables: int, seconds: float, bot_delay: float, pg: str, redis: str, warmup: float = 3.0
) -> dict[str, Any]:
    url, admin = fresh_database(pg)
    settings = {
        "bot_delay": bot_delay,
        "bot_seconds": 0.05,
        "durability": "process",
        "rate_limits": False,
        "max_sockets_per_client": 100_000,
        "redis": redis,
    }
    ports = [free_port() for _ in range(processes)]
    procs = [
        subprocess.Popen([sys.executable, "-c", SERVER, url, str(port), json.dumps(settings)]) for port in ports
    ]
    try:
        async with httpx.AsyncClient(timeout=30) as http:
            for port in ports:
                for _ in range(600):
                    try:
                        if (await http.get(f"http://127.0.0.1:{port}/api/health")).status_code == 200:
                            break
                    except httpx.HTTPError:
                        await asyncio.sleep(0.1)
            seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3
            created: list[tuple[str, str, int, bool]] = []
            for i in range(tables):
                owner = i % processes
                r = await http.post(
                    f"http://127.0.0.1:{ports[owner]}/api/tables", json={"game": "digging", "seats": seats, "claim": 0}
                )
                r.raise_for_status()
                relayed = processes > 1 and (i // processes) % 2 == 1
                socket_on = (owner + 1) % processes if relayed else owner
                created.append((r.json()["table"]["id"], r.json()["you"]["token"], socket_on, relayed))
        local = Measured(time.monotonic() + warmup)
        relay = Measured(time.monotonic() + warmup)
        until = time.monotonic() + warmup + seconds
        await asyncio.gather(
            *(
                player(f"127.0.0.1:{ports[on]}", t, tok, until, relay if relayed else local, i)
                for i, (t, tok, on, relayed) in enumerate(created)
            )
        )
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        drop_database(admin, url)
    return {"local": local, "relayed": relay}


def q(xs: list[float]) -> tuple[float, float]:
    if len(xs) < 2:
        return float("nan"), float("nan")
    cut = statistics.quantiles(xs, n=100)
    return cut[49] * 1000, cut[98] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--tables", type=int, nargs="+", default=[200, 300, 400])
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--bot-delay", type=float, default=0.6)
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds of play before measuring")
    parser.add_argument("--target", type=float, default=100.0, help="p99 milliseconds a level must stay under")
    args = parser.parse_args()
    pg = os.environ.get("GOLDFIELDS_BENCH_POSTGRES", "postgresql+psycopg://goldfields:goldfields@127.0.0.1:5432")
    redis = os.environ.get("GOLDFIELDS_BENCH_REDIS", "redis://127.0.0.1:6379/0")
    print(
        f"bot delay {args.bot_delay} s, {args.seconds:g} s per level after {args.warmup:g} s of warm-up,"
        f" one {os.cpu_count()}-core machine"
    )
    print(
        f"{'processes':>9} {'tables':>6} {'moves':>6} {'p99 ms':>7} | {'local p50':>9} {'p99':>6}"
        f" | {'relayed p50':>11} {'p99':>6} {'p99 ratio':>9}"
    )
    held: dict[int, int] = {}
    for n in args.processes:
        held[n] = 0
        for tables in args.tables:
            r = asyncio.run(level(n, tables, args.seconds, args.bot_delay, pg, redis, args.warmup))
            both = r["local"] + r["relayed"]
            _, p99 = q(both)
            l50, l99 = q(r["local"])
            r50, r99 = q(r["relayed"])
            ratio = r99 / l99 if r["relayed"] else float("nan")
            print(
                f"{n:>9} {tables:>6} {len(both):>6} {p99:>7.1f} | {l50:>9.1f} {l99:>6.1f}"
                f" | {r50:>11.1f} {r99:>6.1f} {ratio:>9.2f}",
                flush=True,
            )
            if p99 < args.target:
                held[n] = max(held[n], tables)
    for n, tables in held.items():
        print(f"{n} process{'es' if n > 1 else ''}: {tables or 'no level of'} tables with p99 < {args.target:g} ms")


if __name__ == "__main__":
    main()
