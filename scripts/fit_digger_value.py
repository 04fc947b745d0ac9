"""Fit the Digger search bot's position evaluation to heuristic self-play.

The search bot (``goldfields.bots.digger_search``) plays its own turn out and
then has to say how good the position is for each seat. Scores alone say
little in Digger: every digger steals from the leader, and the seat about to
dig gains most. So the evaluation is a win probability fitted to games,

    P(seat s wins) = softmax over seats of  score_s / T + alpha[position of s]

where ``T = a + c * sqrt(blue + w * gems)`` shrinks as the centre empties (the
end of the game nears) and ``position`` counts the turns until the seat digs
(0 = digs next). The fit maximises the likelihood of who won (a shared win
counts its share) over the position at every turn start of heuristic self-play
on the arena's jittered clock, half the positions held out for a test score.

Run it after changing the heuristic or the arena's clock, and paste the
printed table into ``VALUE_MODEL`` in ``digger_search.py``::

    python scripts/fit_digger_value.py --games 1000 --seed 0

It needs numpy and scipy (``pip install scipy``), which the package itself does not.
"""

from __future__ import annotations

import argparse
import random
import sys

import numpy as np
from rich.progress import track

from goldfields.arena.games import GameSpec
from goldfields.bots import make_bot
from goldfields.digger.dice import BLUE, GEMS
from goldfields.digger.state import DiggerState
from goldfields.play.driver import play_game

try:
    from scipy.optimize import minimize
except ImportError:  # pragma: no cover - a maintainer's tool
    sys.exit("fit_digger_value.py needs scipy: pip install scipy")


def positions(players: int, games: int, seed: int) -> list[tuple[list[int], int, int, int, list[float]]]:
    """(scores, blue left, gems left, digger, win share per seat) at every turn start."""
    spec = GameSpec.make("digger", players)
    bots = [make_bot("heuristic", "digger") for _ in range(players)]
    rows = []
    for g in track(range(games), description=f"{players} players: self-play"):
        snaps: list[tuple[list[int], int, int, int]] = []
        seen = [-1]

        def hook(st: DiggerState, action: int | None, events: list, snaps: list = snaps, seen: list = seen) -> None:
            if st.turn != seen[0] and not st.is_terminal():
                seen[0] = st.turn
                snaps.append((st.scores(), st.centre[BLUE], sum(st.centre[c] for c in GEMS), st.digger))

        final = play_game(spec.new_state, bots, random.Random(f"fit/{seed}/{g}"), clock=spec.stamper(), on_step=hook)
        winners = final.winners() or []
        share = [1 / len(winners) if s in winners else 0.0 for s in range(players)]
        rows.extend((sc, b, gm, d, share) for sc, b, gm, d in snaps)
    return rows


def fit(players: int, rows: list) -> tuple[list[float], float, float, float]:
    S = np.array([r[0] for r in rows], float)
    B = np.array([r[1] for r in rows], float)
    G = np.array([r[2] for r in rows], float)
    D = np.array([r[3] for r in rows])
    Y = np.array([r[4] for r in rows], float)
    pos = (np.arange(players)[None, :] - D[:, None]) % players
    half = len(rows) // 2
    train, test = np.arange(half), np.arange(half, len(rows))

    def loss(p: np.ndarray, idx: np.ndarray) -> float:
        a, c, w, *alpha = p
        T = abs(a) + abs(c) * np.sqrt(B[idx] + abs(w) * G[idx])
        al = np.concatenate([[0.0], alpha])[pos[idx]]
        z = S[idx] / T[:, None] + al
        z -= z.max(1, keepdims=True)
        logp = z - np.log(np.exp(z).sum(1, keepdims=True))
        return float(-(Y[idx] * logp).sum() / len(idx))

    start = np.array([10.0, 10.0, 0.3] + [-0.2] * (players - 1))
    res = minimize(loss, start, args=(train,), method="Nelder-Mead",
                   options={"maxiter": 20000, "xatol": 1e-5, "fatol": 1e-8})
    a, c, w, *alpha = res.x
    params = [abs(a), abs(c), abs(w), *alpha]
    uniform = float(np.log(players))
    return params, loss(res.x, train), loss(res.x, test), uniform


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="self-play games per table size")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5])
    args = parser.parse_args()
    table = {}
    for n in args.players:
        rows = positions(n, args.games, args.seed)
        params, train, test, uniform = fit(n, rows)
        table[n] = tuple(round(float(x), 4) for x in params)
        print(f"{n} players: {len(rows)} positions; cross-entropy train {train:.4f}, held-out {test:.4f}, "
              f"uniform guess {uniform:.4f}")
    print("VALUE_MODEL = {")
    for n, p in table.items():
        print(f"    {n}: {p},")
    print("}")


if __name__ == "__main__":
    main()
