"""Expert iteration: self-play with the current network, fit, measure, repeat.

Each round plays ``games`` self-play games in ``jobs`` processes, taking the
tables of ``tables`` in turn (one network plays every table size: its inputs
say how many play and who partners whom). With ``guide`` the search is guided
by the previous round's network from round 2 on. The loop keeps the examples of
the last ``window`` rounds, fits the network further on them, and measures the
``net`` bot against a fixed opponent on each table with the arena's duplicate
deals. Every round's network, the curve (``curve.csv``, ``curve.png``) and
``train.json`` (the command's parameters and seed) are written into ``out``.
"""

from __future__ import annotations

import copy
import csv
import hashlib
import io
import itertools
import json
import math
import multiprocessing
import multiprocessing.pool
import os
import re
import shlex
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from ..arena import GameSpec, Tournament, run_tournament
from ..arena.provenance import code_version
from ..arena.runner import ray_map, worker_init
from ..bots import make_bot
from ..bots.net import GAME, PolicyValueNet, load_net
from ..core import registry
from ..files import write_atomic
from ..research.encoding import encoding_for
from .selfplay import Examples, SelfPlay
from .trainer import SCHEDULES, Fit, TorchNet, losses, train


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
    holdout: int = 10
    """Every ``holdout``-th round of the tables (a game at each) is kept out of fitting and gives
    the validation losses, which show when the network learns games by heart (0: none held out)."""
    eval_games: int = 40
    """Games per table against ``opponent`` after each round."""
    opponent: str = "heuristic"
    tables: tuple[tuple[int, bool], ...] = ((4, True),)
    """``(players, partnership)`` of the self-play tables, played in turn."""
    guide: bool = True
    """From round 2, the self-play search uses the previous round's network (expert iteration)."""
    jobs: int = 2
    ray: str | None = None
    """A Ray cluster's address (``local``: start one here) for the self-play games and the
    measurements, instead of ``jobs`` local processes."""
    seed: int = 0
    init: str | None = None
    """A network (``.npz``) to start from instead of random weights: a finished run's, to go on."""
    warmup: int = 0
    """Games of ``warmup_teacher`` (a quick bot) fitted on before the self-play rounds: its
    choices start the policy, and the many cheap results the value."""
    warmup_teacher: str = "heuristic"
    dagger: int = 0
    """Games per round, after the round's fit, in which that network (the ``net`` bot) plays one
    side against each of ``dagger_opponents`` in turn while the search labels every decision.
    The round's network is then fitted again, from where the round began, on both kinds of games
    (DAgger: the policy also learns in the positions its own play leads to)."""
    dagger_opponents: tuple[str, ...] = ("heuristic",)
    dagger_search: int | None = None
    """ISMCTS iterations of the search that labels the ``dagger`` games (``None``: ``search``). It
    plays none of their moves, so a deeper one costs time a label and leaves who plays as it was
    (the games differ after the first label all the same: the search draws on the game's random
    numbers): labels from a search nearer the budget the network will guide, at the price of
    fewer of them."""
    dagger_passes: int = 1
    """Times per round that the network plays ``dagger`` games and the round is fitted again: each
    pass's games are played by the network the last pass fitted, and every fit is on all the
    round's games so far (DAgger's iterations)."""
    fits: int = 1
    """Fits of each round's network, from the same start on the same games with other seeds: the
    one whose ``net`` bot wins most against ``opponent`` on deals of their own (``eval_games`` a
    table, not the deals the round is measured on) is kept. A fit's strength varies with its
    seed more than its losses show."""
    examples_from: str | None = None
    """An earlier run's folder: games whose ``examples-*.npz`` (or ``dagger-*.npz``) it holds for
    the same plan are read from there instead of being played again. Games a network played or
    guided are read only when the record saved beside them names the same networks (by digest)
    and opponents."""
    fit: Fit = field(default_factory=Fit)

    @property
    def labeller(self) -> int:
        """Iterations of the search that labels the DAgger games."""
        return self.dagger_search or self.search


@dataclass
class Round:
    round: int
    stage: str
    """``untrained``, ``warm-up`` (the teacher's cheap games) or ``self-play``."""
    examples: int
    policy_loss: float
    value_loss: float
    val_policy_loss: float
    val_value_loss: float
    """The same losses on held-out games (``nan`` without any)."""
    win_rates: dict[str, float]
    """The ``net`` bot's win rate against the opponent, per table name."""
    games_per_second: float
    seconds: float
    """Wall time since training began."""
    fits: tuple[dict[str, float], ...] = ()
    """With ``Plan.fits`` above 1, each fit's win rates on the deals it was chosen on."""
    fit: int = 1
    """Which of them was kept (from 1)."""


def _play(args: tuple[SelfPlay, int]) -> Examples:
    selfplay, seed = args
    return selfplay.game(seed)


def table_name(players: int, partnership: bool) -> str:
    return f"{players}p-partnership" if partnership else f"{players}p"


def parse_tables(text: str) -> tuple[tuple[int, bool], ...]:
    """``"4p-partnership,2p"`` as ``((4, True), (2, False))``; a clear error for anything else."""
    names = {table_name(p, part): (p, part) for p in (2, 3, 4) for part in (False, True) if not part or p == 4}
    out = []
    for word in (w.strip() for w in text.split(",")):
        if word not in names:
            raise ValueError(f"unknown table {word!r}; tables are {', '.join(names)}")
        out.append(names[word])
    return tuple(out)


def check(plan: Plan, out: Path) -> None:
    """Refuse a plan :func:`run` would refuse, with the same message, before any work: a command
    says what is wrong before its progress bar is drawn."""
    _checked(plan, out)


def _checked(plan: Plan, out: Path) -> tuple[PolicyValueNet | None, Path | None, dict[str, Any]]:
    """The plan's checks: (the starting network or None, the folder games are read from or None,
    what made that folder's games)."""
    specs = [
        ("--opponent", plan.opponent),
        ("--warmup-teacher", plan.warmup_teacher),
        *(("--dagger-opponent", spec) for spec in plan.dagger_opponents),
    ]
    if plan.dagger and not plan.dagger_opponents:
        raise ValueError("--dagger needs at least one --dagger-opponent")
    if plan.fit.schedule not in SCHEDULES:
        raise ValueError(f"--lr-schedule {plan.fit.schedule}: one of {', '.join(SCHEDULES)}")
    _check_seeds(plan)
    if plan.fits < 1:
        raise ValueError(f"--fits {plan.fits}: at least one fit a round")
    if plan.dagger_search is not None and (plan.dagger_search < 1 or not plan.dagger):
        raise ValueError(f"--dagger-search {plan.dagger_search}: give --dagger N too, and at least one iteration")
    if plan.dagger_passes < 1 or (plan.dagger_passes > 1 and not plan.dagger):
        raise ValueError(f"--dagger-passes {plan.dagger_passes}: give --dagger N too, and at least one pass")
    if plan.dagger:
        cycle = len(_dagger_tables(plan, Path("-"), None))
        if plan.dagger % cycle:
            raise ValueError(f"--dagger {plan.dagger}: the games take every side, opponent and table in turn, "
                             f"{cycle} in all; give a multiple of {cycle} so that each is played as often")  # fmt: skip
    for option, spec in specs:
        try:
            make_bot(spec, GAME)  # a typo is refused now, not after the first games are played
        except ValueError as err:
            raise ValueError(f"{option}: {err}") from None
    # A round's unguided games can be read from --examples-from if no network guided them there
    # either; guided ones, if the network that guided them there is this run's (``play``).
    source = None if plan.examples_from is None else Path(plan.examples_from)
    source_made = {} if source is None else _check_source(plan, source)
    if (out / "train.json").is_file() and (source is None or source.resolve() != out.resolve()):
        # Its games may be hours of play: they are overwritten only by a run that reads them.
        raise ValueError(f"{out} holds a training run already; go on with it with --examples-from "
                         f"{shlex.quote(str(out))}, or choose another --out (or delete the folder) "
                         "to start again")  # fmt: skip
    later = _rounds_beyond(out, plan.rounds)
    if later:
        # They would stay beside a run that never made them, its curve and train.json saying otherwise.
        raise ValueError(f"{out} holds networks of round {later[0]} to {later[-1]}, beyond this run's "
                         f"{plan.rounds}; choose another --out (with --examples-from {shlex.quote(str(out))} "
                         "to read its games), or keep --rounds at least that")  # fmt: skip
    # The starting network is read before the folder is claimed: a bad --init leaves no train.json
    # behind to refuse the corrected command.
    try:
        start = None if plan.init is None else load_net(plan.init)
    except ValueError as err:
        raise ValueError(f"--init: {err}") from None
    if out.exists() and not out.is_dir():
        raise ValueError(f"{out} is a file; --out names a folder for the run")
    return start, source, source_made


def run(plan: Plan, out: Path, on_round: Callable[[Round], None] | None = None,
        on_game: Callable[[], None] | None = None, command: str | None = None) -> list[Round]:  # fmt: skip
    """Train as ``plan`` says, into ``out``; ``command`` (the command line that asked) is written
    into ``train.json`` and every network's description, so that a shipped network says how it was made."""
    began = time.perf_counter()
    start, source, source_made = _checked(plan, out)
    source_plan = source_made.get("plan", source_made)  # older runs wrote the plan alone
    source_guided = bool(source_plan.get("guide", True))
    out.mkdir(parents=True, exist_ok=True)
    planned = asdict(plan)
    # The code that played the games and fitted the network, as a digest (a commit would not say
    # whether the tree was changed), and that of the run whose games were read, if any.
    made = {"plan": planned, "command": command, "goldfields": _version(),
            "code": code_version(GAME, also=("learn",))["code"],
            **({"examples_code": source_made.get("code", "unknown")} if source is not None else {})}  # fmt: skip
    write_atomic(out / "train.json", json.dumps(made, indent=2) + "\n")
    if start is not None:
        model = TorchNet.from_numpy(start)
    else:
        model = TorchNet(encoding_for(GAME).size, plan.hidden, seed=plan.seed)
    buffer: list[Examples] = []
    held: list[Examples] = []
    rounds: list[Round] = []

    def save(name: str, r: int, examples: int, games: int, dagger_games: int = 0,
             chosen: dict[str, Any] | None = None) -> Path:  # fmt: skip
        path = out / f"{name}.npz"
        meta = {"round": r, "examples": examples, "games": games, **(chosen or {}),
                "wall_seconds": round(time.perf_counter() - began), **made,
                **({"dagger_games": dagger_games} if plan.dagger else {}),
                # Where the games were read from is this machine's path, and changes nothing in them.
                "plan": {k: v for k, v in planned.items() if k != "examples_from"}}  # fmt: skip
        model.to_numpy(meta).save(path)
        return path

    def measure(r: int, stage: str, net_path: Path, data: int, losses: tuple[float, float, float, float],
                rate: float, fits: tuple[dict[str, float], ...] = (), fit: int = 1) -> None:  # fmt: skip
        name = f"{r:02d}" if stage != "warm-up" else "warmup"
        wins = {table_name(p, partnership): _measure(plan, net_path, p, partnership,
                                                     out / f"arena-{name}-{table_name(p, partnership)}")
                for p, partnership in plan.tables}  # fmt: skip
        row = Round(r, stage, data, *losses, wins, rate, time.perf_counter() - began, fits, fit)
        rounds.append(row)
        _write_curve(out, rounds, plan.opponent)
        if on_round is not None:
            on_round(row)

    def play(pool: Any, players: list[SelfPlay], first_seed: int, games: int, cache: str,
             readable: bool = True, made_by: dict[str, Any] | None = None,
             ) -> tuple[list[Examples], int, float]:  # fmt: skip
        """The games' examples, one part per game, how many were played here and in how many
        seconds (the others were read). Game ``g`` depends only on the seed, the table, the search
        and what ``made_by`` names (the digests of the networks that play or guide it, the
        opponents' specs), so the games ``examples_from`` holds for them are read from there (a
        shorter run's are the first games of a longer one, and a longer run's first games are a
        shorter one's) and only the rest are played: when they were ``readable`` there, and the
        ``.json`` saved beside them there names the same ``made_by`` (no file: none)."""
        made_by = made_by or {}
        cached = None
        if source is not None and readable and _made_by(source / f"{cache}.json") == made_by:
            cached = source / f"{cache}.npz"
        parts: list[Examples] = []
        if cached is not None and cached.is_file():
            there = Examples.load(cached).split()
            parts = there[:games]
            for _ in parts:
                if on_game is not None:
                    on_game()
            if len(parts) == games:  # this run's folder gets all its games, and no others
                if len(there) > games:
                    Examples.join(parts).save(out / f"{cache}.npz")
                elif cached.resolve() != (out / f"{cache}.npz").resolve():
                    shutil.copyfile(cached, out / f"{cache}.npz")
                _write_made_by(out / f"{cache}.json", made_by)
                return parts, 0, 0.0
        seeds = [(players[g % len(players)], first_seed + g) for g in range(len(parts), games)]
        start = time.perf_counter()

        kept = -1  # games saved here so far (the ones read from elsewhere are not, yet)

        def keep() -> None:
            """Save the games so far: to fit again or study without playing, and, should the run
            stop part-way, for a run with ``--examples-from`` this folder to read instead of playing.
            While the games are replaced (whole, never cut short), what made them says nothing
            that a plan matches, so a run stopped in between plays them again rather than read
            the games of one plan for another's."""
            nonlocal kept
            if parts and len(parts) != kept:  # on Ray, games can finish while none is yet in order
                partial = out / f"{cache}.partial.npz"
                Examples.join(parts).save(partial)  # the slow part, while the last save stays readable
                _write_made_by(out / f"{cache}.json", {"being written": cache})
                partial.replace(out / f"{cache}.npz")
                _write_made_by(out / f"{cache}.json", made_by)
                kept = len(parts)

        saved = time.monotonic()

        def finished(part: Examples) -> None:
            nonlocal saved
            parts.append(part)
            if on_game is not None:
                on_game()
            if time.monotonic() - saved >= SAVE_EVERY:
                keep()
                saved = time.monotonic()

        try:
            if plan.ray is not None:
                # A game that finishes before one dealt earlier waits for it: what is kept is always
                # the first games, in order, as a run with --examples-from reads them.
                ray_map(_play, seeds, plan.ray, on_each=finished, in_order=True)
            else:
                for part in pool.imap(_play, seeds) if seeds else ():  # in order: the same seed, the same weights
                    finished(part)
        finally:  # stopped (Ctrl-C, SIGTERM) or failed: the games finished in order are kept too
            keep()
        return parts, len(seeds), time.perf_counter() - start

    # Round 0 is the untrained network: where the learning curve starts.
    measure(0, "untrained", save("round-00", 0, 0, 0), 0, (math.nan,) * 4, 0.0)
    warm: Examples | None = None
    with _Workers(1 if plan.ray else plan.jobs) as pool:
        if plan.warmup:
            teachers = [SelfPlay(p, partnership, teacher=plan.warmup_teacher) for p, partnership in plan.tables]
            # Another teacher's games are never read, however many there are.
            same_teacher = source_plan.get("warmup_teacher", "heuristic") == plan.warmup_teacher
            parts, played, seconds = play(
                pool, teachers, _first_seeds(plan)["warm-up"], plan.warmup, "examples-warmup", readable=same_teacher
            )
            warm = Examples.join(parts)
            p_loss, v_loss = train(model, warm, plan.fit, seed=plan.seed)
            path = save("warmup", 0, len(warm), plan.warmup)
            measure(0, "warm-up", path, len(warm), (p_loss, v_loss, math.nan, math.nan), _rate(played, seconds))
        for r in range(1, plan.rounds + 1):
            guide = str(out / f"round-{r - 1:02d}.npz") if plan.guide and r > 1 else None
            players = [SelfPlay(p, partnership, plan.search, guide) for p, partnership in plan.tables]
            # Round r > 1 of a guided source is readable only when this run is guided by the same network.
            parts, played, seconds = play(pool, players, _first_seeds(plan)[f"round {r}"], plan.games,
                                          f"examples-{r:02d}", readable=r == 1 or source_guided == (guide is not None),
                                          made_by={} if guide is None else {"guide": _digest(Path(guide))})  # fmt: skip
            fitted, kept_out = split_held_out(parts, len(plan.tables), plan.holdout)
            buffer = [*buffer, Examples.join(fitted)][-plan.window :]
            if kept_out:
                held = [*held, Examples.join(kept_out)][-plan.window :]
            began_round = copy.deepcopy(model.state_dict())
            data = with_warmup_values(Examples.join(buffer), warm, plan.seed + r)
            p_loss, v_loss = train(model, data, plan.fit, seed=plan.seed + r)
            dagger_before = (r - 1) * plan.dagger * plan.dagger_passes
            for k in range(1, plan.dagger_passes + 1) if plan.dagger else ():
                suffix = "" if k == 1 else f"-{k}"
                learner = save(f"round-{r:02d}-learner{suffix}", r, len(data), r * plan.games,
                               dagger_before + (k - 1) * plan.dagger)  # fmt: skip
                # Every (side, opponent, table) in turn, the side changing slowest; the games depend
                # on the network just fitted, so they are read from elsewhere only if it is the same.
                dagger, more, more_seconds = play(
                    pool, _dagger_tables(plan, learner, guide),
                    _first_seeds(plan)[f"round {r} DAgger pass {k}"], plan.dagger,
                    f"dagger-{r:02d}{suffix}", readable=r == 1 or source_guided == (guide is not None),
                    made_by={"learner": _digest(learner), "opponents": list(plan.dagger_opponents),
                             **({} if guide is None else {"guide": _digest(Path(guide))}),
                             # Named only when it differs, so games labelled before the option still read.
                             **({"labelled_by": plan.labeller} if plan.labeller != plan.search else {})})  # fmt: skip
                played, seconds = played + more, seconds + more_seconds
                buffer[-1] = Examples.join([buffer[-1], *dagger])
                model.load_state_dict(began_round)
                data = with_warmup_values(Examples.join(buffer), warm, plan.seed + r)
                p_loss, v_loss = train(model, data, plan.fit, seed=plan.seed + r)
            dagger_games = r * plan.dagger * plan.dagger_passes
            chosen: dict[str, Any] | None = None
            rates: list[dict[str, float]] = []
            best = 0
            if plan.fits > 1:
                fits = [(copy.deepcopy(model.state_dict()), (p_loss, v_loss))]
                for j in range(1, plan.fits):
                    model.load_state_dict(began_round)
                    fit_losses = train(model, data, plan.fit, seed=_fit_seed(plan, r, j))
                    fits.append((copy.deepcopy(model.state_dict()), fit_losses))
                for j, (state, fit_losses) in enumerate(fits, start=1):
                    model.load_state_dict(state)
                    own = {"fit": j, "fit_seed": _fit_seed(plan, r, j - 1), "fit_losses": list(fit_losses)}
                    candidate = save(f"round-{r:02d}-fit-{j}", r, len(data), r * plan.games, dagger_games, own)
                    rates.append({table_name(p, partnership): _measure(
                        plan, candidate, p, partnership, out / f"arena-{r:02d}-fit-{j}-{table_name(p, partnership)}",
                        seed=plan.seed + 7_777) for p, partnership in plan.tables})  # fmt: skip
                best = max(range(plan.fits), key=lambda j: (sum(rates[j].values()), -j))
                model.load_state_dict(fits[best][0])
                p_loss, v_loss = fits[best][1]
                chosen = {"fit": best + 1, "fit_seed": _fit_seed(plan, r, best),
                          "fits": [{"fit": j + 1, "seed": _fit_seed(plan, r, j), "win_rates": w,
                                    "losses": list(fits[j][1])} for j, w in enumerate(rates)]}  # fmt: skip
            val = losses(model, Examples.join(held)) if held else (math.nan, math.nan)
            path = save(f"round-{r:02d}", r, len(data), r * plan.games, dagger_games, chosen)
            measure(r, "self-play", path, len(data), (p_loss, v_loss, *val), _rate(played, seconds),
                    tuple(rates), best + 1)  # fmt: skip
    return rounds


def _rounds_beyond(out: Path, rounds: int) -> list[int]:
    """The rounds past ``rounds`` whose networks ``out`` holds (round-NN.npz and its fits)."""
    found = {int(m.group(1)) for p in out.glob("round-*.npz") if (m := re.match(r"round-(\d+)", p.name))}
    return sorted(r for r in found if r > rounds)


def _fit_seed(plan: Plan, r: int, j: int) -> int:
    """The seed of round ``r``'s fit ``j`` (from 0; fit 0 is the round's only fit without ``--fits``)."""
    return plan.seed + r + j * 1_009


def _first_seeds(plan: Plan) -> dict[str, int]:
    """The seed of the first game of each batch of games the plan plays (game ``g`` of a batch
    is dealt from its first seed plus ``g``)."""
    base = plan.seed * 1_000_003
    seeds = {"warm-up": base + 999_983} if plan.warmup else {}
    for r in range(1, plan.rounds + 1):
        seeds[f"round {r}"] = base + r * 10_007
        for k in range(1, plan.dagger_passes + 1) if plan.dagger else ():
            seeds[f"round {r} DAgger pass {k}"] = base + r * 10_007 + 500_009 + (k - 1) * 100_003
    return seeds


def _check_seeds(plan: Plan) -> None:
    """Refuse a plan two of whose batches of games would deal the same deals."""
    counts = {"warm-up": plan.warmup}
    spans = sorted((first, first + counts.get(name, plan.dagger if "DAgger" in name else plan.games), name)
                   for name, first in _first_seeds(plan).items())  # fmt: skip
    for (_, end, name), (start, _, other) in itertools.pairwise(spans):
        if start < end:
            raise ValueError(f"the {name} games and the {other} games would be dealt from the same seeds; "
                             "play fewer games a round, fewer rounds or fewer DAgger passes")  # fmt: skip


def _rate(played: int, seconds: float) -> float:
    """Games a second over the games played here (``nan`` when all were read from elsewhere)."""
    return played / seconds if played else math.nan


def _dagger_tables(plan: Plan, learner: Path, guide: str | None) -> list[SelfPlay]:
    """One DAgger game's set-up per (side, opponent, table): the learner takes every side of every
    table in turn (at a table of three, each seat)."""
    definition = registry.get(GAME)
    sides = {t: len(definition.sides(definition.params(players=t[0], partnership=t[1]))) for t in plan.tables}
    return [SelfPlay(p, partnership, plan.labeller, guide, learner=str(learner), learner_side=side, opponent=opponent)
            for side in range(max(sides.values())) for opponent in plan.dagger_opponents
            for p, partnership in plan.tables if side < sides[(p, partnership)]]  # fmt: skip


def with_warmup_values(data: Examples, warm: Examples | None, seed: int) -> Examples:
    """The warm-up games go on teaching the value (there are many of them) but no longer the
    policy: the search's choices are better than the teacher's."""
    return data if warm is None else Examples.join([data, warm.values_only(len(data), seed=seed)])


T = TypeVar("T")


def split_held_out(parts: list[T], tables: int, holdout: int) -> tuple[list[T], list[T]]:
    """A round's games (one part each) as those fitted on and those held out: every ``holdout``-th
    cycle of the ``tables`` is held out whole, so that every table is in the validation."""
    out = [holdout > 1 and (g // tables) % holdout == holdout - 1 for g in range(len(parts))]
    return [p for p, o in zip(parts, out, strict=True) if not o], [p for p, o in zip(parts, out, strict=True) if o]


SAVE_EVERY = 300.0
"""Seconds between saves of a batch's finished games while it plays: a run killed outright loses
at most this much play (a stopped one loses none). Each save writes every game so far again."""

SAME_GAMES = ("seed", "tables", "search")
"""What makes the self-play games of two plans the same (with no network guiding them): game ``g``
of a round depends on these alone, whatever the number of games."""


def _digest(net: Path) -> str:
    """A saved network's weights as a SHA-256 (its description left out): two networks with the
    same digest compute the same thing. Read from the file each time, never from a cache."""
    h = hashlib.sha256()
    with np.load(net) as arrays:
        for name in sorted(arrays.files):
            a = np.ascontiguousarray(arrays[name])
            h.update(f"{name}:{a.dtype.str}:{a.shape}".encode())
            h.update(a.tobytes())
    return h.hexdigest()


def _made_by(path: Path) -> dict[str, Any]:
    """What made the games saved beside ``path`` (networks, opponents); none when there is no file,
    as for the games of runs before these files, which no network played or guided."""
    try:
        return dict(json.loads(path.read_text()))
    except FileNotFoundError:
        return {}
    except (OSError, json.JSONDecodeError, TypeError, ValueError):
        return {"unreadable": str(path)}  # matches nothing, so the games are played again


def _write_made_by(path: Path, made_by: dict[str, Any]) -> None:
    write_atomic(path, json.dumps(made_by, indent=2) + "\n")


class _Workers:
    """The self-play processes, started when a game is first to be played: a run that reads every
    game from ``--examples-from`` starts none (a spawned worker's imports take seconds). The
    workers ignore Ctrl-C (it is this process's to handle) and die with this process."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self._pool: multiprocessing.pool.Pool | None = None

    def imap(self, fn: Callable[[Any], T], items: list[Any]) -> Iterator[T]:
        if self._pool is None:
            ctx = multiprocessing.get_context("spawn")
            self._pool = ctx.Pool(self.jobs, initializer=worker_init, initargs=(os.getpid(),))
        return self._pool.imap(fn, items)

    def __enter__(self) -> _Workers:
        return self

    def __exit__(self, *stopped: object) -> None:
        if self._pool is not None:
            self._pool.terminate()  # as the pool's own ``with`` ends it


def _check_source(plan: Plan, source: Path) -> dict[str, Any]:
    """Refuse ``--examples-from`` a run whose games are not the ones this plan would play; that
    run's ``train.json`` (whose plan's ``guide`` says whether its network guided its rounds after
    the first)."""
    try:
        made = json.loads((source / "train.json").read_text())
    except (OSError, json.JSONDecodeError) as err:
        raise ValueError(f"--examples-from {source}: no readable train.json there ({err})") from None
    theirs = made.get("plan", made)  # older runs wrote the plan alone
    ours = json.loads(json.dumps(asdict(plan)))  # tuples as lists, as the file has them
    differ = [k for k in SAME_GAMES if k in theirs and theirs[k] != ours[k]]
    if differ:
        raise ValueError(f"--examples-from {source}: its games differ from this plan's in "
                         f"{', '.join(f'{k} ({theirs[k]} there, {ours[k]} here)' for k in differ)}")  # fmt: skip
    return dict(made)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("goldfields")
    except PackageNotFoundError:
        return "unknown"


def _measure(plan: Plan, net_path: Path, players: int, partnership: bool, out: Path,
             seed: int | None = None) -> float:  # fmt: skip
    # The folder is this run's scratch: a measurement a stop cut short is played again, not resumed.
    shutil.rmtree(out, ignore_errors=True)
    spec = GameSpec.make(GAME, players, partnership)
    sides = 2 if partnership else players  # the net against one team, or against every other seat
    lineup = (f"net:net={net_path}", *[plan.opponent] * (sides - 1))
    t = Tournament(spec, lineup, games=plan.eval_games, seed=plan.seed if seed is None else seed,
                   jobs=plan.jobs, out=out, records=False, ray_address=plan.ray, chart=False)  # fmt: skip
    result = run_tournament(t, progress=False)
    return result.summary[0].win_rate


def _write_curve(out: Path, rounds: list[Round], opponent: str) -> None:
    f = io.StringIO()
    w = csv.writer(f)
    tables = list(rounds[0].win_rates)
    w.writerow(["round", "stage", "examples", "policy_loss", "value_loss", "val_policy_loss", "val_value_loss",
                *(f"win_rate_{t}" for t in tables),
                "games_per_second", "seconds"])  # fmt: skip
    for r in rounds:
        w.writerow([r.round, r.stage, r.examples, f"{r.policy_loss:.4f}", f"{r.value_loss:.4f}",
                    f"{r.val_policy_loss:.4f}", f"{r.val_value_loss:.4f}",
                    *(f"{r.win_rates[t]:.4f}" for t in tables), f"{r.games_per_second:.3f}",
                    f"{r.seconds:.0f}"])  # fmt: skip
    write_atomic(out / "curve.csv", f.getvalue())
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8))
    xs = list(range(len(rounds)))
    ticks = ["W" if r.stage == "warm-up" else str(r.round) for r in rounds]
    # The warm-up fits the teacher's one move, self-play the search's visit shares: a loss against
    # other targets, so its points stand apart (squares), not joined to the self-play rounds' line.
    warm = [r.stage == "warm-up" for r in rounds]

    def losses(get: Callable[[Round], float], warm_up: bool) -> list[float]:
        return [get(r) if w == warm_up else math.nan for r, w in zip(rounds, warm, strict=True)]

    series = [("policy", lambda r: r.policy_loss, "-", "C0"), ("value", lambda r: r.value_loss, "-", "C1"),
              ("policy, held out", lambda r: r.val_policy_loss, "--", "C0"),
              ("value, held out", lambda r: r.val_value_loss, "--", "C1")]  # fmt: skip
    for label, get, style, colour in series:
        left.plot(xs, losses(get, False), marker="o", linestyle=style, color=colour, label=label)
        if any(warm):
            left.plot(xs, losses(get, True), marker="s", linestyle="none", color=colour)
    left.set_xlabel("round (W: warm-up)" if "W" in ticks else "round")
    left.set_xticks(xs, ticks)
    left.set_title("training loss" + (" (W: against the teacher's moves)" if any(warm) else ""))
    left.legend()
    for table in rounds[0].win_rates:
        right.plot(xs, [100 * r.win_rates[table] for r in rounds], marker="o", label=table)
    right.axhline(50, color="grey", linestyle="--", linewidth=1, label="parity")
    right.set_ylim(0, 100)
    right.set_xlabel("round (W: warm-up)" if "W" in ticks else "round")
    right.set_xticks(xs, ticks)
    right.set_ylabel("win %")
    right.set_title(f"net bot's win % against {opponent}")
    right.legend()
    fig.tight_layout()
    png = io.BytesIO()
    fig.savefig(png, format="png", dpi=100)
    write_atomic(out / "curve.png", png.getvalue())  # a viewer never opens half a picture
    plt.close(fig)
