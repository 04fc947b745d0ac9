"""What counting an IPv6 /48's live tables costs a table's creation, read from the indexed
``creator_network`` column against parsing every live IPv6 creator (the way it was counted
before revision 0005).

    python benchmarks/bench_network_cap.py [--tables 2000] [--repeat 200] [--url postgresql+psycopg://...]

The cap on one /48's live tables is counted twice when a table is made, the second time in
the transaction that stores it, under the lock every process creates under: what it costs
there, every creation waits for. This fills a fresh database (a SQLite file unless ``--url``
names another) with ``--tables`` live tables made from IPv6 /64s spread over 50 /48s, the
worst case the default ``--max-live-tables`` allows, and times both counts, in turn, in one
run. The figure to read is the ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.progress import track
from rich.table import Table
from sqlalchemy import insert, select
from sqlalchemy.orm import Session

from goldfields.server.limits import network_key
from goldfields.server.models import TableRow
from goldfields.server.store import LIVE, Store, _count_in_network


def scanned(s: Session, network: str) -> int:
    """The count as it was made before the column: every live IPv6 creator read and parsed."""
    query = select(TableRow.creator).where(TableRow.status.in_(LIVE), TableRow.creator.contains("/"))
    return sum(network_key(creator) == network for creator in s.scalars(query) if creator is not None)


def fill(store: Store, tables: int) -> None:
    rows = []
    for i in range(tables):
        creator = f"2001:db8:{i % 50:x}:{i // 50:x}::/64"
        rows.append({"id": f"t{i}", "game": "digging", "name": "", "config": {}, "secret": "s" * 32,
                     "status": "waiting", "created_at": 0.0, "creator": creator,
                     "creator_network": network_key(creator)})  # fmt: skip
    with store.engine.begin() as conn:
        conn.execute(insert(TableRow.__table__), rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=2000, help="live IPv6 tables (default 2000)")
    parser.add_argument("--repeat", type=int, default=200, help="counts of each kind (default 200)")
    parser.add_argument("--url", help="a fresh, empty database to fill (default a new SQLite file)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = Store(args.url or f"sqlite:///{Path(folder) / 'cap.db'}")
        fill(store, args.tables)
        network = "2001:db8:7::/48"

        counts = {"indexed column": lambda s: _count_in_network(s, network),
                  "parse every creator": lambda s: scanned(s, network)}  # fmt: skip
        times: dict[str, list[float]] = {name: [] for name in counts}
        found: dict[str, int] = {}

        def both(s: Session) -> None:
            # Timed inside one session, in turn, so that both see the same machine and neither
            # pays for the hop to the database thread or for opening the transaction.
            s.scalar(select(1))
            for name, count in counts.items():
                began = time.perf_counter()
                found[name] = count(s)
                times[name].append(time.perf_counter() - began)

        async def measure() -> None:
            for _ in track(range(args.repeat), description="counting"):
                await store.run(both)

        asyncio.run(measure())
        store.close()
    assert len(set(found.values())) == 1, found
    table = Table(title=f"one /48's live tables ({found['indexed column']}) among {args.tables} live IPv6 tables")
    table.add_column("count")
    table.add_column("median ms", justify="right")
    table.add_column("× indexed", justify="right")
    base = statistics.median(times["indexed column"])
    for name, spent in times.items():
        table.add_row(name, f"{1000 * statistics.median(spent):.2f}", f"{statistics.median(spent) / base:.1f}")
    Console().print(table)


if __name__ == "__main__":
    main()
