"""How much the hand's moves tell about the cards a seat cannot see: belief inference, measured.

Run:  python benchmarks/bench_belief.py [--players 4 2] [--by net:temperature=0.5 ismcts:iterations=300]
                                        [--positions 30] [--deals 128] [--temper 1.0] [--seed 7]

Positions: decisions with a choice, taken at random points of games that the
``--by`` bot plays on every seat. At each, the seat to move draws ``--deals``
determinisations with its view's sampler, and :mod:`goldfields.bots.digging_belief`
weights them by the network's likelihood of the other seats' moves this hand.
Both sets are compared with the true hidden hands:

- **cards right**: copies of each card the determinisation puts in each other
  seat's hand that the seat really holds, summed (the mean over the uniform
  deals, and the weighted mean over the weighted ones), out of the cards hidden;
- **X right**: how often the deals get right, seat by seat, whether it holds a
  closed-mine card (the card that decides most mines);
- the effective number of deals after weighting, and the cost of a weighted
  deal against a plain one.

``--by net:temperature=0.5`` is the case most favourable to inference: the
players play the very network the likelihood reads (sharpened: their policy is
the prior squared and normalised, which ``--temper 2.0`` comes close to).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from rich.progress import Progress

from goldfields.bots import digging_belief as belief
from goldfields.bots.net import evaluator
from goldfields.bots.registry import make_bot
from goldfields.digging import new_game
from goldfields.digging.cards import CLOSE
from goldfields.digging.state import DiggingState
from goldfields.progress import LoggedProgress


def positions(players: int, spec: str, count: int, seed: int) -> list[DiggingState]:
    """``count`` decisions with a choice, one from each of ``count`` games, at a random move of its first hand."""
    rng = random.Random(seed)
    bot = make_bot(spec, "digging")
    out: list[DiggingState] = []
    while len(out) < count:
        state = new_game(players, players == 4, rng=rng)
        stop = rng.randrange(8, 100)
        for _ in range(stop):
            if state.current_player < 0:
                break
            state.apply_action(bot.act(state.view(state.current_player), rng))
        if state.current_player >= 0 and len(state.legal_actions()) > 1:
            out.append(state)
    return out


def cards_right(deal: DiggingState, truth: DiggingState, others: list[int]) -> int:
    """Copies of each card ``deal`` puts in the other seats' hands that they really hold."""
    return sum(min(x, y) for s in others for x, y in zip(deal.hands[s], truth.hands[s], strict=True))


def x_right(deal: DiggingState, truth: DiggingState, others: list[int]) -> float:
    """The share of the other seats for which ``deal`` is right about holding a closed-mine card."""
    return sum((deal.hands[s][CLOSE] > 0) == (truth.hands[s][CLOSE] > 0) for s in others) / len(others)


def measure(
    states: list[DiggingState], deals: int, temper: float, net: str, progress: Progress, label: str
) -> dict[str, float]:
    ev = evaluator(net)
    rows: dict[str, list[float]] = {k: [] for k in ("hidden", "u", "w", "xu", "xw", "ess", "plain", "weighted")}
    task = progress.add_task(label, total=len(states))
    for i, truth in enumerate(states):
        seat = truth.current_player
        view = truth.view(seat)
        others = [s for s in range(truth.num_players) if s != seat]
        t0 = time.perf_counter()
        for k in range(deals):
            view.sample(random.Random(k))
        plain = (time.perf_counter() - t0) / deals
        t0 = time.perf_counter()
        b = belief.weighted_deals(view, random.Random(i), ev, deals, temper=temper)
        weighted = (time.perf_counter() - t0) / deals
        progress.advance(task)
        if b is None:
            continue
        rows["hidden"].append(sum(truth.sizes[s] for s in others))
        rows["u"].append(statistics.fmean(cards_right(d, truth, others) for d in b.states))
        rows["w"].append(sum(w * cards_right(d, truth, others) for d, w in zip(b.states, b.weights, strict=True)))
        rows["xu"].append(statistics.fmean(x_right(d, truth, others) for d in b.states))
        rows["xw"].append(sum(w * x_right(d, truth, others) for d, w in zip(b.states, b.weights, strict=True)))
        rows["ess"].append(b.effective_size)
        rows["plain"].append(plain)
        rows["weighted"].append(weighted)
    return {k: statistics.fmean(v) for k, v in rows.items()} | {"n": len(rows["u"])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[4, 2], choices=[2, 3, 4])
    parser.add_argument("--by", nargs="+", default=["net:temperature=0.5", "ismcts:iterations=300"],
                        help="the bots that play the games the positions come from")
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--deals", type=int, default=128, help="determinisations weighted at each position")
    parser.add_argument("--temper", type=float, default=belief.TEMPER, help="the likelihood's exponent")
    parser.add_argument("--net", default="default")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    results = []
    with LoggedProgress() as progress:
        for spec in args.by:
            for players in args.players:
                states = positions(players, spec, args.positions, args.seed)
                label = f"{players} players, games by {spec}"
                results.append((label, measure(states, args.deals, args.temper, args.net, progress, label)))
    print(f"{args.deals} deals a position, temper {args.temper}, network {args.net}")
    print(f"{'positions':<44} {'n':>3} {'hidden':>6} {'cards right':>17} {'X right':>15} {'ESS':>5} {'ms/deal':>13}")
    for label, r in results:
        print(
            f"{label:<44} {r['n']:>3} {r['hidden']:>6.1f} {r['u']:>7.2f} -> {r['w']:>5.2f}  "
            f"{r['xu']:>6.3f} -> {r['xw']:.3f} {r['ess']:>5.1f} {r['plain'] * 1e3:>5.2f} -> {r['weighted'] * 1e3:.2f}"
        )
    print("(uniform -> weighted; ms/deal: a plain determinisation -> a weighted one)")


if __name__ == "__main__":
    main()
