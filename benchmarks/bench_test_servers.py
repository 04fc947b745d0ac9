"""How long the test suite takes to start one of its servers: a fresh interpreter against a
fork of the suite's fork server, side by side.

    python benchmarks/bench_test_servers.py [--repeats 10]

Each start is timed from the request until /api/health answers, on a fresh SQLite file,
then the server is stopped. The two ways take turns, so that the machine's noise falls on
both alike; the figure to read is the ratio of the medians. The fork server's own start
(one import of everything, once per test process) is reported apart.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.progress import track
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))
from live_server import ServerProcess
from server_forks import fork_server


def start_once(forked: bool, folder: Path) -> float:
    os.environ["GOLDFIELDS_TEST_SERVER_FORKS"] = "1" if forked else "0"
    server = ServerProcess(folder / f"{time.monotonic_ns()}.db")
    began = time.perf_counter()
    server.start()
    took = time.perf_counter() - began
    server.stop()
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=10, help="starts of each kind (default 10)")
    args = parser.parse_args()
    if fork_server() is None:
        sys.exit("the fork server needs Linux")
    folder = Path(tempfile.mkdtemp())
    began = time.perf_counter()
    start_once(True, folder)  # the fork server starts here, with its imports
    first = time.perf_counter() - began
    times: dict[bool, list[float]] = {True: [], False: []}
    for _ in track(range(args.repeats), description="starting servers"):
        for forked in (False, True):
            times[forked].append(start_once(forked, folder))
    table = Table(title=f"a test server's start, {args.repeats} of each, in turns")
    for column in ("start", "median s", "min s", "max s"):
        table.add_column(column, justify="right" if column != "start" else "left")
    for forked, label in ((False, "fresh interpreter"), (True, "forked")):
        t = times[forked]
        table.add_row(label, f"{statistics.median(t):.2f}", f"{min(t):.2f}", f"{max(t):.2f}")
    console = Console()
    console.print(table)
    ratio = statistics.median(times[False]) / statistics.median(times[True])
    console.print(f"fresh / forked: {ratio:.1f}x; the fork server's first start (its imports, once): {first:.2f} s")


if __name__ == "__main__":
    main()
