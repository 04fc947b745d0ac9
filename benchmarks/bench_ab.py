"""Engine speed of two commits, side by side in one run: did a change slow the engines?

    python benchmarks/bench_ab.py --before 9c92751 [--after HEAD] [--rounds 6] [--seconds 2]

Each commit is checked out into a temporary folder (``git worktree``), and
the same random-play loops run against each in turn, in fresh processes,
alternating before/after within every round so that machine noise (other
jobs, frequency scaling) falls on both alike. Reported: the median
decisions per second of each, and the median of the per-round ratios
after/before, the figure to read (1.00 = unchanged).

Loops (one core each, random legal moves):

* Digging, 4-player partnership, whole hands, the deal untimed;
* Digging, 2 players;
* Digger, 4 players, every step stamped by the simulated clock with 20% jitter.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Runs inside the checked-out tree; written for the engine API before and after the game registry.
LOOP = r"""
import json, random, sys, time
from goldfields.digging import DiggingState
from goldfields.digger import DiggerState
try:
    from goldfields.clocks import TimeModel
except ImportError:
    from goldfields.digger import TimeModel

seconds, seed = float(sys.argv[1]), int(sys.argv[2])

def digging(players, partnership):
    rng = random.Random(seed)
    decisions = 0
    playing = 0.0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = DiggingState(players, partnership)
        state.apply_chance(state.sample_chance(rng))
        t0 = time.perf_counter()
        legal_actions, apply_action, randrange = state.legal_actions, state.apply_action, rng.randrange
        while state.current_player >= 0:
            legal = legal_actions()
            apply_action(legal[randrange(len(legal))])
            decisions += 1
        playing += time.perf_counter() - t0
    return decisions / playing

def digger(players):
    rng = random.Random(seed)
    stamp = TimeModel(jitter=0.2).stamp
    decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = DiggerState(players)
        while state.current_player != -2:
            if state.current_player == -1:
                state.apply_chance(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
            state.apply_action(action, stamp(state, action, rng))
            decisions += 1
    return decisions / (time.perf_counter() - start)

print(json.dumps({"digging 4p": digging(4, True), "digging 2p": digging(2, False), "digger 4p": digger(4)}))
"""


def checkout(rev: str, into: Path) -> Path:
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(into), rev], check=True)
    return into


def measure(tree: Path, seconds: float, seed: int) -> dict[str, float]:
    env = {"PYTHONPATH": str(tree / "src"), "PATH": "/usr/bin:/bin"}
    out = subprocess.run(
        [sys.executable, "-c", LOOP, str(seconds), str(seed)], env=env, capture_output=True, text=True, check=True
    )
    result: dict[str, float] = json.loads(out.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", required=True, help="the commit to compare against (e.g. a tag or hash)")
    parser.add_argument("--after", default="HEAD", help="the commit measured (default HEAD)")
    parser.add_argument("--rounds", type=int, default=6, help="alternating rounds (medians reported)")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per loop per measurement")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="goldfields-ab-") as tmp:
        revs = {"before": args.before, "after": args.after}
        trees = {side: checkout(rev, Path(tmp) / side) for side, rev in revs.items()}
        try:
            runs: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
            for r in range(args.rounds):
                # Alternate which goes first, so neither always gets the warmer (or busier) slot.
                order = ("before", "after") if r % 2 == 0 else ("after", "before")
                for side in order:
                    runs[side].append(measure(trees[side], args.seconds, seed=r))
                line = ", ".join(
                    f"{k} {runs['after'][-1][k] / runs['before'][-1][k]:.3f}" for k in runs["before"][-1]
                )
                print(f"round {r + 1}/{args.rounds}: after/before {line}", flush=True)
        finally:
            for tree in trees.values():
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False)

    print(f"\n{args.before} (before) against {args.after} (after): decisions/s, medians of {args.rounds} rounds")
    print(f"{'loop':<12} {'before':>10} {'after':>10} {'after/before':>13}")
    for key in runs["before"][0]:
        before = statistics.median(run[key] for run in runs["before"])
        after = statistics.median(run[key] for run in runs["after"])
        ratio = statistics.median(a[key] / b[key] for a, b in zip(runs["after"], runs["before"], strict=True))
        print(f"{key:<12} {before:>10,.0f} {after:>10,.0f} {ratio:>13.3f}")


if __name__ == "__main__":
    main()
