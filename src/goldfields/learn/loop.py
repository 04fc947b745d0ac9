"""Expert iteration: self-play with the current network, fit, measure, repeat.

Each round plays ``games`` self-play games in ``jobs`` processes (the search
guided by the previous round's network from round 2 on), keeps the examples of
the last ``window`` rounds, fits the network further on them, and measures the
``net`` bot against a fixed opponent with the arena's duplicate deals. Every
round's network, the curve (``curve.csv``, ``curve.png``) and ``train.json``
(the command's parameters and seed) are written into ``out``.
"""

from __future__ import annotations

import csv
import json
import multiprocessing
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..arena import GameSpec, Tournament, run_tournament
from ..bots.net import GAME
from .selfplay import Examples, SelfPlay
from .trainer import Fit, TorchNet, train


@dataclass(frozen=True)
class Plan:
    rounds: int = 4
    games: int = 16
    """Self-play games per round."""
    search: int = 200
    """ISMCTS iterations per self-play move."""
    hidden: tuple[int, ...] = (256, 256)
    window: int = 3
    """Rounds of examples kept for fitting."""
    eval_games: int = 40
    opponent: str = "heuristic"
    players: int = 4
    partnership: bool = True
    jobs: int = 2
    seed: int = 0
    fit: Fit = field(default_factory=Fit)


@dataclass
class Round:
    round: int
    examples: int
    policy_loss: float
    value_loss: float
    win_rate: float
    games_per_second: float


def _play(args: tuple[SelfPlay, int]) -> Examples:
    selfplay, seed = args
    return selfplay.game(seed)


def run(plan: Plan, out: Path, on_round: Callable[[Round], None] | None = None,
        on_game: Callable[[], None] | None = None) -> list[Round]:  # fmt: skip
    import time

    out.mkdir(parents=True, exist_ok=True)
    (out / "train.json").write_text(json.dumps(asdict(plan), indent=2) + "\n")
    model: TorchNet | None = None
    buffer: list[Examples] = []
    rounds: list[Round] = []
    net_path: Path | None = None
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(plan.jobs) as pool:
        for r in range(1, plan.rounds + 1):
            guide = None if net_path is None else str(net_path)
            selfplay = SelfPlay(plan.players, plan.partnership, plan.search, guide)
            seeds = [(selfplay, plan.seed * 1_000_003 + r * 10_007 + g) for g in range(plan.games)]
            start = time.perf_counter()
            parts = []
            for part in pool.imap_unordered(_play, seeds):
                parts.append(part)
                if on_game is not None:
                    on_game()
            rate = plan.games / (time.perf_counter() - start)
            buffer = [*buffer, Examples.join(parts)][-plan.window :]
            data = Examples.join(buffer)
            if model is None:
                model = TorchNet(data.x.shape[1], plan.hidden)
            p_loss, v_loss = train(model, data, plan.fit, seed=plan.seed + r)
            net_path = out / f"round-{r:02d}.npz"
            model.to_numpy({"round": r, "examples": len(data), "plan": asdict(plan)}).save(net_path)
            win = _measure(plan, net_path, out / f"arena-{r:02d}")
            row = Round(r, len(data), p_loss, v_loss, win, rate)
            rounds.append(row)
            _write_curve(out, rounds)
            if on_round is not None:
                on_round(row)
    return rounds


def _measure(plan: Plan, net_path: Path, out: Path) -> float:
    spec = GameSpec.make(GAME, plan.players, plan.partnership)
    t = Tournament(spec, (f"net:net={net_path}", plan.opponent), games=plan.eval_games, seed=plan.seed,
                   jobs=plan.jobs, out=out, records=False)  # fmt: skip
    result = run_tournament(t, progress=False)
    return result.summary[0].win_rate


def _write_curve(out: Path, rounds: list[Round]) -> None:
    with (out / "curve.csv").open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["round", "examples", "policy_loss", "value_loss", "win_rate", "games_per_second"])
        for r in rounds:
            w.writerow([r.round, r.examples, f"{r.policy_loss:.4f}", f"{r.value_loss:.4f}", f"{r.win_rate:.4f}",
                        f"{r.games_per_second:.3f}"])  # fmt: skip
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.5))
    xs = [r.round for r in rounds]
    left.plot(xs, [r.policy_loss for r in rounds], marker="o", label="policy")
    left.plot(xs, [r.value_loss for r in rounds], marker="o", label="value")
    left.set_xlabel("round")
    left.set_title("training loss")
    left.legend()
    right.plot(xs, [100 * r.win_rate for r in rounds], marker="o")
    right.axhline(50, color="grey", linestyle="--", linewidth=1, label="parity")
    right.set_ylim(0, 100)
    right.set_xlabel("round")
    right.set_title("net bot's win % against the opponent")
    right.legend()
    fig.tight_layout()
    fig.savefig(out / "curve.png", dpi=100)
    plt.close(fig)
