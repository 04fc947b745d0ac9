"""Random-play speed of the Digging engine, side by side with OpenSpiel's C++ hearts.

    python benchmarks/bench_digging.py [--seconds 3] [--rounds 5]

A decision is one player's move: ``legal_actions()`` then ``apply_action()``
of a uniformly random choice. Dealing is not counted in decisions per second
(the clock stops around it) but is counted in hands per second. Hearts, when
``open_spiel`` is installed, runs the same loop in the same process,
interleaved round by round with ours, and only its decisions are counted,
not its chance steps (the deal). Figures are medians over the rounds; the
ratios are taken within each round, so machine noise mostly cancels.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

from goldfields.digging import DiggingState


def digging_round(players: int, partnership: bool, seconds: float, seed: int) -> tuple[float, float, float]:
    """Random play for ``seconds``: (decisions/s with the deal untimed,
    decisions/s with the deal timed, hands/s)."""
    rng = random.Random(seed)
    decisions = hands = 0
    playing = 0.0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = DiggingState(players, partnership)
        state.apply_chance(state.sample_chance(rng))
        t0 = time.perf_counter()
        legal_actions, apply_action, randrange = state.legal_actions, state.apply_action, rng.randrange
        while state.current_player >= 0:  # until the hand is over
            legal = legal_actions()
            apply_action(legal[randrange(len(legal))])
            decisions += 1
        playing += time.perf_counter() - t0
        hands += 1
    total = time.perf_counter() - start
    return decisions / playing, decisions / total, hands / total


def hearts_round(seconds: float, seed: int) -> tuple[float, float] | None:
    """(decisions/s timing decision steps only, decisions/s timing the whole loop)."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("hearts")
    rng = random.Random(seed)
    decisions = 0
    playing = 0.0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            t0 = time.perf_counter()
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            playing += time.perf_counter() - t0
            decisions += 1
    return decisions / playing, decisions / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per measurement")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (median reported)")
    args = parser.parse_args()

    keys = ("p4", "p4_all", "p4_hps", "p2", "p2_all", "p2_hps", "hearts", "hearts_all", "ratio", "ratio_all")
    rows: dict[str, list[float]] = {k: [] for k in keys}
    for r in range(args.rounds):
        p4 = digging_round(4, True, args.seconds, seed=r)
        p2 = digging_round(2, False, args.seconds, seed=r)
        hearts = hearts_round(args.seconds, seed=r)
        for key, value in zip(("p4", "p4_all", "p4_hps", "p2", "p2_all", "p2_hps"), p4 + p2, strict=True):
            rows[key].append(value)
        line = f"round {r + 1}/{args.rounds}: 4p {p4[0]:,.0f} dec/s, 2p {p2[0]:,.0f} dec/s"
        if hearts is not None:
            rows["hearts"].append(hearts[0])
            rows["hearts_all"].append(hearts[1])
            rows["ratio"].append(p4[0] / hearts[0])
            rows["ratio_all"].append(p4[1] / hearts[1])
            line += f", hearts {hearts[0]:,.0f} dec/s"
        print(line, flush=True)

    med = {k: statistics.median(v) for k, v in rows.items() if v}
    print(f"\nDigging random play, one core, Python {platform.python_version()}, "
          f"{args.rounds} rounds x {args.seconds:g} s, medians.")
    print("decisions/s timing decision steps only | timing the whole loop (deal/chance included) | hands/s")
    print(f"  Digging 4-player partnership: {med['p4']:>10,.0f} | {med['p4_all']:>10,.0f} | {med['p4_hps']:>6,.0f}")
    print(f"  Digging 2-player:             {med['p2']:>10,.0f} | {med['p2_all']:>10,.0f} | {med['p2_hps']:>6,.0f}")
    if "hearts" in med:
        print(f"  OpenSpiel hearts (C++):       {med['hearts']:>10,.0f} | {med['hearts_all']:>10,.0f}")
        print(f"  ratio Digging 4p / hearts:    {med['ratio']:>10.2f} | {med['ratio_all']:>10.2f}")
    else:
        print("  (open_spiel is not installed, so no hearts comparison: pip install 'goldfields[research]')")


if __name__ == "__main__":
    main()
