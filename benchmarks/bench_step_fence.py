"""What the abandon fence costs each stored step: the server's step insert against a bare one.

    python benchmarks/bench_step_fence.py [--url postgresql+psycopg://user:pw@127.0.0.1:5432/db]
                                          [--tables 200] [--batches 400] [--sizes 1 20]

A step is stored only if its table is still in play: ``Store._insert_steps`` inserts each step
from its table's row, read ``FOR KEY SHARE`` in the same statement, so that another server
process's abandon cannot close a game while a step of it is being stored (see
``Store.abandon``). Only the processes of a cluster can race that way, so only they pay for the
fence (``Store.fenced``); a server of one process stores its steps with the bare ``INSERT``.
This times the two side by side in one run: each round stores one batch of steps each way, on
the same tables, in rotating order, each batch its own transaction, as the server's group commit
does. A third way is there for reference: the bare insert after a trivial ``SELECT 1``, which
shows what one more round trip to the database costs alone. The figures to read are the ratios
of the medians to the bare insert's, for a lone step (``--sizes 1``: a quiet server) and for a
batch of steps from many tables at once (a busy one).

Without ``--url`` it runs on a fresh SQLite file (synchronous=FULL, as the server runs it); with
one, it creates a scratch database on that PostgreSQL server and drops it afterwards.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
import uuid
from functools import partial
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import track
from rich.table import Table
from sqlalchemy import insert, literal, make_url, select
from sqlalchemy.orm import Session

from goldfields.server.models import StepRow, TableRow
from goldfields.server.store import Store


def bare_insert(session: Session, rows: list[dict[str, Any]]) -> None:
    session.execute(insert(StepRow), rows)


def round_trip_insert(session: Session, rows: list[dict[str, Any]]) -> None:
    """The bare insert and one trivial statement: what a second round trip alone costs."""
    session.execute(select(literal(1))).scalar()
    session.execute(insert(StepRow), rows)


def scratch_postgres(base: str) -> tuple[str, str, str]:
    """A new database on the server at ``base``: its URL, the admin URL and its name."""
    import psycopg

    url = make_url(base)
    admin = url.set(drivername="postgresql", database="postgres").render_as_string(hide_password=False)
    name = f"goldfields_bench_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return url.set(drivername="postgresql+psycopg", database=name).render_as_string(hide_password=False), admin, name


def measure(url: str, tables: int, batches: int, sizes: list[int]) -> list[tuple[int, float, float, float]]:
    """For each batch size: the median seconds of a bare insert, of a bare insert with one more
    (trivial) statement, and of the fenced insert."""
    store = Store(url)
    ids = [f"bench{i:05d}" for i in range(tables)]
    store._in_session(lambda s: s.add_all(
        TableRow(id=i, game="digging", config={}, secret="x" * 64, status="playing", created_at=0.0) for i in ids
    ))  # fmt: skip
    seq = dict.fromkeys(ids, 0)
    payload = {"move": "m", "t": 1.5}
    out = []
    try:
        for size in sizes:
            ways = {"bare": bare_insert, "round trip": round_trip_insert, "fenced": store._insert_steps}
            times: dict[str, list[float]] = {way: [] for way in ways}
            for n in track(range(batches), description=f"batches of {size}"):
                for way in list(ways)[n % 3 :] + list(ways)[: n % 3]:  # each way first as often
                    rows = []
                    for k in range(size):
                        table = ids[(n * size + k) % tables]
                        seq[table] += 1
                        rows.append({"table_id": table, "seq": seq[table], "payload": payload, "wall": 0.0})
                    start = time.perf_counter()
                    store._in_session(partial(ways[way], rows=rows))
                    times[way].append(time.perf_counter() - start)
            out.append((size, *(statistics.median(times[way]) for way in ways)))
    finally:
        store.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", help="a PostgreSQL server (a scratch database is made on it); default: SQLite")
    parser.add_argument("--tables", type=int, default=200, help="tables in play the steps go to")
    parser.add_argument("--batches", type=int, default=400, help="batches stored each way, per size")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 20], help="steps a batch (a transaction)")
    args = parser.parse_args()
    console = Console()
    with tempfile.TemporaryDirectory() as tmp:
        if args.url:
            url, admin, name = scratch_postgres(args.url)
            backend = "PostgreSQL"
        else:
            url, admin, name = f"sqlite:///{Path(tmp) / 'bench.db'}", "", ""
            backend = "SQLite (synchronous=FULL)"
        try:
            results = measure(url, args.tables, args.batches, args.sizes)
        finally:
            if admin:
                import psycopg

                with psycopg.connect(admin, autocommit=True) as conn:
                    conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    table = Table(title=f"storing a batch of steps, {backend}: median of {args.batches} transactions each way")
    columns = ("steps a batch", "bare insert", "+ SELECT 1", "fenced insert", "+ SELECT 1 / bare", "fenced / bare")
    for column in columns:
        table.add_column(column, justify="right")
    for size, bare, trip, fenced in results:
        table.add_row(str(size), *(f"{t * 1e3:.3f} ms" for t in (bare, trip, fenced)), f"{trip / bare:.2f}",
                      f"{fenced / bare:.2f}")  # fmt: skip
    console.print(table)


if __name__ == "__main__":
    main()
