"""Which Digging search plays closest to a much deeper one: a coarse screen for settings and
networks before an arena match at 0.25 s a move.

Run:  python benchmarks/bench_search.py SPEC [SPEC ...] [--players 2 4] [--positions 60]
                                        [--judge ismcts:iterations=40000] [--repeats 2] [--seed 5]
                                        [--cache FILE]

An arena match at 0.25 s a move takes about 7 hours of both cores for 200 games,
so it cannot be how each idea is tried. This script asks a cheaper question of
each bot spec: at positions from whole games, how much of the judge's value does
its move give up? The judge is a search many times deeper (``--judge``); its
value for a move is the mean result of that move's visits at its root. For each
spec and position the spec decides ``--repeats`` times with other seeds, and
the script prints, a table at a time:

- **agrees**: how often the spec plays the judge's move (the judge plays the
  move it visited most, as the bots do);
- **regret**: the judge's value of its move less its value of the spec's move,
  averaged (a move the judge hardly visited has a noisy value, so one position
  says little; hundreds say more);
- **vs first**: the paired difference of regret from the first spec, with its
  standard error over positions: below zero, the spec gives up less.

Positions: decisions with three or more moves from games played by
``ismcts:iterations=300`` on every seat (every tenth such decision, so
neighbours do not repeat each other), partnership and 2 players. Each is
searched from the deciding seat's view alone. The judge is itself a search with
a leaf of its own, so it favours specs that think as it does: a plain judge
favours the plain search. ``--judge`` can be any search spec, and a screen is
worth running with two judges that disagree in kind.

Measured against the arena (docs/network.md, "A screen by a deeper search"): both
judges see the guided search's large 2-player lead at 240 against 300
iterations, neither sees ``prior=own``'s, and at 5,000 iterations they disagree
about plain against guided with two players. Do not choose a setting by it alone.

``--cache FILE`` keeps the judge's values (JSON, keyed by table, seed and judge),
so further specs can be screened against the same positions without judging
them again.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from pathlib import Path

from rich.progress import Progress

from goldfields.bots.ismcts import ISMCTSBot, search_game_for
from goldfields.bots.registry import make_bot
from goldfields.core.game import GameState
from goldfields.digging import new_game
from goldfields.progress import LoggedProgress

PLAYER = "ismcts:iterations=300"
"""The bot that plays the games the positions come from."""
EVERY = 10
"""One decision in ten with three or more moves is taken."""
JUDGE_SEEDS = 1_000_000
"""The judge searches position ``i`` with seed ``i``; the specs' seeds start above this."""


def positions(players: int, count: int, seed: int) -> list[GameState]:
    rng = random.Random(seed)
    player = make_bot(PLAYER, "digging")
    game = search_game_for("digging", "smart")
    out: list[GameState] = []
    seen = 0
    while len(out) < count:
        state = new_game(players, players == 4, rng=rng)
        while not state.is_terminal() and len(out) < count:
            if state.is_chance_node():
                state.apply_chance(state.sample_chance(rng))
                continue
            view = state.view(state.current_player)
            if len(game.root_moves(view, view.legal_actions())) >= 3:
                seen += 1
                if seen % EVERY == 0:
                    out.append(state.clone())
            state.apply_action(player.act(view, rng))
    return out


def judge(spec: str, states: list[GameState], progress: Progress, label: str) -> list[dict[int, float]]:
    """The judge's value of each root move it visited, and its own move under the key -1."""
    bot = make_bot(spec, "digging")
    if not isinstance(bot, ISMCTSBot):
        raise SystemExit(f"--judge must be an ismcts spec, not {spec}")
    out = []
    task = progress.add_task(f"judging {label}", total=len(states))
    for i, state in enumerate(states):
        root = bot.search(state.view(state.current_player), random.Random(i), bot.budget())  # seeds < JUDGE_SEEDS
        q = root.values()
        q[-1] = root.chosen(list(root.children))
        out.append(q)
        progress.advance(task)
    return out


def screen(spec: str, states: list[GameState], values: list[dict[int, float]], repeats: int,
           progress: Progress, label: str) -> tuple[list[float], float, float]:  # fmt: skip
    """Per position, the mean regret of the spec's moves; how often it agreed; seconds a move."""
    bot = make_bot(spec, "digging")
    regrets, agrees, spent = [], [], 0.0
    task = progress.add_task(f"{label} {spec}", total=len(states) * repeats)
    for i, (state, q) in enumerate(zip(states, values, strict=True)):
        view = state.view(state.current_player)
        best = int(q[-1])
        mine = []
        for r in range(repeats):
            t0 = time.perf_counter()
            # Never the judge's seed: a search of the judge's kind would grow the first part of
            # the judge's own tree, and agree with it for that alone.
            move = bot.act(view, random.Random(JUDGE_SEEDS + 1000 * (r + 1) + i))
            spent += time.perf_counter() - t0
            # A move the judge never visited it valued below all it did: charge the worst it saw.
            mine.append(q[best] - q.get(move, min(v for a, v in q.items() if a >= 0)))
            agrees.append(float(move == best))
            progress.advance(task)
        regrets.append(statistics.fmean(mine))
    return regrets, statistics.fmean(agrees), spent / (len(states) * repeats)


def cached(path: Path | None, key: str) -> list[dict[int, float]] | None:
    if path is None or not path.exists():
        return None
    data = json.loads(path.read_text()).get(key)
    return None if data is None else [{int(a): v for a, v in q.items()} for q in data]


def store(path: Path | None, key: str, values: list[dict[int, float]]) -> None:
    if path is None:
        return
    data = json.loads(path.read_text()) if path.exists() else {}
    data[key] = values
    path.write_text(json.dumps(data))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("specs", nargs="+", help="bot specs to screen (the first is the baseline)")
    parser.add_argument("--players", type=int, nargs="+", default=[4, 2], choices=[2, 4],
                        help="tables: 4 is the partnership game")  # fmt: skip
    parser.add_argument("--positions", type=int, default=60, help="positions a table")
    parser.add_argument("--judge", default="ismcts:iterations=40000", help="the deep search that judges")
    parser.add_argument("--repeats", type=int, default=2, help="decisions a spec makes at each position")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--cache", type=Path, help="a JSON file keeping the judge's values between runs")
    args = parser.parse_args()
    for spec in [*args.specs, args.judge]:
        make_bot(spec, "digging")  # a bad spec fails now, not after the judging
    results = {}
    with LoggedProgress() as progress:
        for players in args.players:
            label = f"{players}p"
            states = positions(players, args.positions, args.seed + players)
            key = f"{players}p seed={args.seed} positions={args.positions} judge={args.judge}"
            values = cached(args.cache, key)
            if values is None:
                values = judge(args.judge, states, progress, label)
                store(args.cache, key, values)
            results[players] = [(spec, *screen(spec, states, values, args.repeats, progress, label))
                                for spec in args.specs]  # fmt: skip
    print(f"judge {args.judge}; {args.positions} positions a table, {args.repeats} decisions each")
    for players, rows in results.items():
        table = "partnership" if players == 4 else "2 players"
        print(f"\n{table}: {'agrees':>7} {'regret':>8} {'vs first':>17} {'ms/move':>8}  spec")
        first = rows[0][1]
        for spec, regrets, agree, seconds in rows:
            diff = [a - b for a, b in zip(regrets, first, strict=True)]
            se = statistics.stdev(diff) / math.sqrt(len(diff)) if any(diff) else 0.0
            print(
                f"{'':>12} {agree:>7.2f} {statistics.fmean(regrets):>8.4f}"
                f" {statistics.fmean(diff):>+9.4f} ± {se:.4f} {1000 * seconds:>8.1f}  {spec}"
            )
    print("\n(regret: the judge's value given up by the spec's move; vs first: paired, ± one standard error)")


if __name__ == "__main__":
    main()
