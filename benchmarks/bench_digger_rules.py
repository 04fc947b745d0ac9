"""Does the Digger heuristic's planning for the rule options pay? It against itself blind to them.

Run:  python benchmarks/bench_digger_rules.py [--games 400] [--seed 1] [--players 2]

Under ``knock_probability`` (G5) a steal may lose the whole haul, and under
``stack_seconds`` (G3) a stop keeps only the tokens stacked before the sand runs
out. The heuristic plans with both (src/goldfields/bots/digger_heuristic.py). This
script plays it, in one arena per rule setting, against the same bot with the
options hidden from it (``blind``: what it was before it read them), every deal in
both rotations, and prints its win rate with the Wilson interval. Under standard
rules the two are the same bot, so that row must read exactly 50%.

The figures are in docs/digger.md ("Bots under the rule options").
"""

from __future__ import annotations

import argparse
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from rich.console import Console
from rich.progress import track
from rich.table import Table

from goldfields.arena import GameSpec, Tournament, run_tournament
from goldfields.bots.digger_heuristic import DiggerHeuristic
from goldfields.digger.definition import DIGGER

SETTINGS: tuple[dict[str, float], ...] = (
    {},
    {"stack_seconds": 0.5},
    {"stack_seconds": 1.0},
    {"knock_probability": 0.2},
    {"knock_probability": 0.5},
)


@dataclass
class Blind(DiggerHeuristic):
    """The heuristic with the table's rule options hidden from it."""

    name: ClassVar[str] = "blind"

    def choose(self, d: dict[str, Any], legal: list[int]) -> int:
        return super().choose({**d, "options": {}}, legal)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)  # fmt: skip
    parser.add_argument("--games", type=int, default=400, help="games per rule setting")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=2, help="one heuristic, the other seats blind")
    args = parser.parse_args()
    # The blind bot is this script's, so the games run in this process (jobs=1).
    type(DIGGER).bots = {**type(DIGGER).bots, "blind": f"{__name__}:Blind"}
    table = Table(title=f"heuristic against itself blind to the rule options, {args.players} players")
    for column in ("rules", "games", "heuristic wins", "win %", "Wilson 95%", "parity"):
        table.add_column(column, justify="left" if column == "rules" else "right")
    with tempfile.TemporaryDirectory() as scratch:
        for rules in track(SETTINGS, description="rule settings"):
            spec = GameSpec.make("digger", args.players, None, rules)
            lineup = ("heuristic", *["blind"] * (args.players - 1))
            t = Tournament(spec, lineup, games=args.games, seed=args.seed, jobs=1, out=Path(scratch) / "run",
                           records=False)  # fmt: skip
            result = run_tournament(t, progress=False, replace=True)
            mine = next(e for e in result.summary if e.bot == "heuristic")
            table.add_row(
                ", ".join(f"{k}={v:g}" for k, v in rules.items()) or "standard",
                str(mine.games), f"{mine.wins:g}", f"{100 * mine.win_rate:.1f}",
                f"{100 * mine.ci_low:.0f}–{100 * mine.ci_high:.0f}", f"{100 / args.players:.0f}",
            )
    Console().print(table)


if __name__ == "__main__":
    main()
