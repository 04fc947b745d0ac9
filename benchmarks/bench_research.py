"""Decisions per second: the raw engines beside their OpenSpiel, PettingZoo and Gymnasium adapters.

    python benchmarks/bench_research.py [--seconds 3] [--rounds 3]

Every interface plays the same random games (uniformly random legal
decisions, chance drawn by its probabilities) of two tables, in one process,
one after the other, so the ratios compare like with like:

* **Digging, 2 players, one hand** (the training example's table);
* **Digger, 3 players, white crates** (a whole game).

Rows:

* ``engine``: ``legal_actions`` / ``apply_action`` / ``sample_chance`` on the
  engine state (Digger stamped with the default ``TimeModel``);
* ``engine + tensor``: the same, plus the mover's observation encoded at each
  decision with ``encode_state(state, seat)``: what every adapter pays;
* ``engine + tensor via observation()``: the same with the reference path,
  ``encode(state.observation(seat))`` (the JSON observation, then the encoder
  reading it back), which the adapters used before ``encode_state``;
* ``openspiel``: ``pyspiel.load_game(...)`` states, chance from
  ``chance_outcomes()`` (Digging dealt card by card), no tensor;
* ``openspiel + tensor``: plus ``observation_tensor(player)`` at each decision;
* ``pettingzoo``: the AEC loop ``env.last()`` (observation and mask) and
  ``env.step`` on the raw environment;
* ``gymnasium``: ``env.step`` with a random legal action, the other seats played
  by the ``random`` bot (through ``state.view(seat)``, as every bot is). Its
  figure counts every decision of the game, the bots' included; the agent's
  own steps per second are printed beside it.

Figures are medians over the rounds; the ratio is to the raw engine of the
same table. The machine's load average is printed: the figures are only
comparable within one run.

A second table times the encoding alone, per call, on the positions of the
same random games (every decision's mover): the reference path
``encoding.encode(state.observation(seat))`` against ``encoding.encode_state(state, seat)``,
which reads the engine's state directly and gives the same vector (tested), in
alternating rounds (at least 5, twice ``--rounds``), each path's best round,
with the ratio.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import shlex
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np
import pyspiel

import goldfields.research.openspiel_games  # noqa: F401  (registers the games)
from goldfields.clocks import TimeModel
from goldfields.research.encoding import encode, encode_state, encoding_for
from goldfields.research.gymnasium_env import GoldfieldsEnv
from goldfields.research.pettingzoo_env import DiggerAEC, DiggingAEC
from goldfields.research.tables import DiggerSpec, DiggingSpec

Runner = Callable[[float, int], tuple[int, int]]  # (seconds, seed) -> (decisions, agent steps)

TABLES = {
    "digging 2p, one hand": {
        "spec": lambda: DiggingSpec(2, single_hand=True),
        "openspiel": "python_goldfields_digging(players=2,single_hand=True)",
        "pettingzoo": lambda: DiggingAEC(players=2, single_hand=True),
        "gymnasium": lambda: GoldfieldsEnv("digging", players=2, single_hand=True),
    },
    "digger 3p": {
        "spec": lambda: DiggerSpec(3, time_model=TimeModel()),
        "openspiel": "python_goldfields_digger(players=3)",
        "pettingzoo": lambda: DiggerAEC(players=3, time_model=TimeModel()),
        "gymnasium": lambda: GoldfieldsEnv("digger", players=3, time_model=TimeModel()),
    },
}


def engine_runner(make_spec: Callable[[], object], tensor: bool, reference: bool = False) -> Runner:
    def run(seconds: float, seed: int) -> tuple[int, int]:
        spec = make_spec()
        rng = random.Random(seed)
        decisions = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            state = spec.new_state()  # type: ignore[attr-defined]
            dealt = 0
            while not state.is_terminal():
                if state.is_chance_node():
                    if spec.name == "digging" and dealt:  # type: ignore[attr-defined]
                        break  # one hand
                    state.apply_chance(state.sample_chance(rng))
                    dealt += 1
                    continue
                seat = state.current_player
                if tensor:
                    if reference:
                        encode(state.observation(seat))
                    else:
                        encode_state(state, seat)
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
                state.apply_action(action, spec.stamp(state, action, rng))  # type: ignore[attr-defined]
                decisions += 1
        return decisions, decisions

    return run


def openspiel_runner(name: str, tensor: bool) -> Runner:
    game = pyspiel.load_game(name)

    def run(seconds: float, seed: int) -> tuple[int, int]:
        rng = random.Random(seed)
        decisions = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    actions, probs = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(rng.choices(actions, probs)[0])
                    continue
                if tensor:
                    state.observation_tensor(state.current_player())
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                decisions += 1
        return decisions, decisions

    return run


def pettingzoo_runner(make: Callable[[], object]) -> Runner:
    def run(seconds: float, seed: int) -> tuple[int, int]:
        env = make()
        rng = np.random.default_rng(seed)
        decisions = 0
        game = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            env.reset(seed=seed + game)  # type: ignore[attr-defined]
            game += 1
            for _agent in env.agent_iter():  # type: ignore[attr-defined]
                obs, _, terminated, truncated, _ = env.last()  # type: ignore[attr-defined]
                if terminated or truncated:
                    env.step(None)  # type: ignore[attr-defined]
                    continue
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))  # type: ignore[attr-defined]
                decisions += 1
        return decisions, decisions

    return run


def gymnasium_runner(make: Callable[[], object]) -> Runner:
    def run(seconds: float, seed: int) -> tuple[int, int]:
        env = make()
        rng = np.random.default_rng(seed)
        decisions = agent_steps = 0
        game = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            _, info = env.reset(seed=seed + game)  # type: ignore[attr-defined]
            game += 1
            done = False
            while not done:
                action = int(rng.choice(np.flatnonzero(info["action_mask"])))
                _, _, terminated, truncated, info = env.step(action)  # type: ignore[attr-defined]
                agent_steps += 1
                done = terminated or truncated
            decisions += env.match.moves  # type: ignore[attr-defined]
        return decisions, agent_steps

    return run


def positions(spec: object, games: int, seed: int = 0) -> list[tuple[object, int]]:
    """Every decision of ``games`` random games, as (a copy of the state, the seat to move)."""
    from goldfields.research.tables import Match

    rng = random.Random(seed)
    out = []
    for _ in range(games):
        match = Match(spec, rng)  # type: ignore[arg-type]
        while not match.over:
            out.append((match.state.clone(), match.state.current_player))
            legal = match.state.legal_actions()
            match.apply(legal[rng.randrange(len(legal))])
    return out


def time_encodings(spec: object, rounds: int, games: int = 30) -> tuple[float, float, int]:
    """Best µs per call over the rounds (as ``timeit`` reports: the least disturbed by other jobs)
    of the reference path and of encode_state, in alternating rounds."""
    encoding = encoding_for(spec.name)  # type: ignore[attr-defined]
    states = positions(spec, games)
    for state, seat in states:  # warm both paths (the state encoders cache rows of a table)
        encoding.encode_state(state, seat)
    old, new = [], []
    for _ in range(max(5, 2 * rounds)):
        start = time.perf_counter()
        for state, seat in states:
            encoding.encode(state.observation(seat))  # type: ignore[attr-defined]
        old.append((time.perf_counter() - start) / len(states) * 1e6)
        start = time.perf_counter()
        for state, seat in states:
            encoding.encode_state(state, seat)
        new.append((time.perf_counter() - start) / len(states) * 1e6)
    return min(old), min(new), len(states)


def measure(run: Runner, seconds: float, rounds: int) -> tuple[float, float]:
    rates, agent_rates = [], []
    for r in range(rounds):
        start = time.perf_counter()
        decisions, agent = run(seconds, 1000 * r)
        elapsed = time.perf_counter() - start
        rates.append(decisions / elapsed)
        agent_rates.append(agent / elapsed)
    return statistics.median(rates), statistics.median(agent_rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per round and row")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"$ python benchmarks/bench_research.py {shlex.join(sys.argv[1:])}".rstrip())
    print(
        f"python {platform.python_version()}, {platform.machine()}, "
        f"pyspiel {getattr(pyspiel, '__version__', '?')}, load average at start {os.getloadavg()[0]:.1f}"
    )
    for table, parts in TABLES.items():
        rows: list[tuple[str, Runner]] = [
            ("engine", engine_runner(parts["spec"], tensor=False)),
            ("engine + tensor", engine_runner(parts["spec"], tensor=True)),
            ("engine + tensor via observation()", engine_runner(parts["spec"], tensor=True, reference=True)),
            ("openspiel", openspiel_runner(parts["openspiel"], tensor=False)),
            ("openspiel + tensor", openspiel_runner(parts["openspiel"], tensor=True)),
            ("pettingzoo", pettingzoo_runner(parts["pettingzoo"])),
            ("gymnasium", gymnasium_runner(parts["gymnasium"])),
        ]
        print(f"\n{table}")
        print("| interface | decisions/s | ratio to engine | agent steps/s |")
        print("|---|---:|---:|---:|")
        base = None
        for name, run in rows:
            rate, agent_rate = measure(run, args.seconds, args.rounds)
            base = base or rate
            extra = f"{agent_rate:,.0f}" if name == "gymnasium" else ""
            print(f"| {name} | {rate:,.0f} | {rate / base:.2f} | {extra} |", flush=True)
    print("\nencoding one observation (µs per call, best of the rounds; the same positions for both)")
    print("| table | positions | encode(state.observation(seat)) | encode_state(state, seat) | speed-up |")
    print("|---|---:|---:|---:|---:|")
    for table, parts in TABLES.items():
        old, new, count = time_encodings(parts["spec"](), args.rounds)
        print(f"| {table} | {count:,} | {old:.1f} | {new:.1f} | **{old / new:.1f}x** |", flush=True)
    print(f"\nload average at end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
