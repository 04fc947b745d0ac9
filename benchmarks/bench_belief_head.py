"""Can a network trained on the true hidden cards place them better than the uniform sampler?

Run:  python benchmarks/bench_belief_head.py [--players 4] [--by ismcts:iterations=300] [--games 150]
                                             [--test 0.25] [--seed 11] [--cache PATH] [--epochs 15]
                                             [--deals 64] [--hidden 256] [--train-games N] [--check N]

Defaults: 150 games of the partnership table (``--players 2`` for the 2-player
table), ``ismcts:iterations=300`` on every seat, seed 11, a quarter of the games
held out for the test, 64 deals a position for "cards right".

1. **Positions.** The ``--by`` bot plays every seat of ``--games`` games, dealt
   and searched with one ``random.Random(seed)``. At every decision the seat to
   move records its view, encoded with the policy network's encoding
   (:mod:`goldfields.research.encoding`: the network's input, nothing more),
   and the label the game knows for free: for each other seat, how many copies
   of each card code it holds beyond those the observer knows it holds (the
   partner's passed cards), and the rest of the unseen copies, in the pile.
   A second feature set adds the hand's moves as the seat saw them (``moves``
   in its observation, which the encoding leaves out): per relative seat, how
   many moves of each kind it made this hand, and the kind of its last move.
   The positions are cached (``--cache``, by default under
   /tmp/goldfields-belief-head/) so that the model can be trained again
   without replaying the games.
2. **The belief model.** A small MLP (torch, one thread), fitted on the
   training games, gives for each card code a distribution of its hidden
   copies over the locations (each other seat, or the pile): a softmax per
   code over the locations that can hold it (free slots left in the hand, no
   code the seat showed it cannot hold by skipping), so the copies of each
   code always add up; and, per other seat, the probability that it holds a
   closed-mine card (X). A copy of the per-code marginals is then scaled
   (Sinkhorn) so that the expected cards in each location also add up to its
   free slots ("model+fit").
3. **The baseline.** The view's own sampler (``view.sample``) deals the unseen
   cards uniformly among the consistent deals; where no seat has shown it
   cannot hold a hidden code, that gives every copy the chance
   ``free slots / hidden cards`` of each location, and hypergeometric laws for
   "holds X" and for "cards right", which are used exactly. Where a seat has
   (rare: forced skips), 256 of the sampler's own deals are averaged instead.
   ``--check`` compares the exact formulas with the sampler.

Reported on the held-out games' positions, model against uniform:

- cross-entropy of the true location of each hidden copy, nats per copy, and
  the ratio model / uniform (by card group too);
- "holds X" per other seat: Brier score and accuracy (probability > 0.5);
- **cards right**: copies of each code a deal puts in each other seat's hand
  that it really holds, out of the cards in those hands (as
  benchmarks/bench_belief.py counts them, the partner's known cards
  included): the expectation over uniform deals, against the mean over
  ``--deals`` deals drawn from the model by the proposal a search would use
  (copy by copy, a location drawn in proportion to its free slots left times
  the model's odds for the code there against uniform);
- the games and positions of the training and test sets, and what a belief
  costs (one network call, the fit, a deal).
"""

from __future__ import annotations

import argparse
import math
import random
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from goldfields.bots.registry import make_bot
from goldfields.core.game import SeatView
from goldfields.digging import actions as A
from goldfields.digging import new_game
from goldfields.digging.cards import CLOSE, CODE_OF, FULL_COUNTS, NUM_CODES
from goldfields.digging.state import DiggingState
from goldfields.progress import LoggedProgress
from goldfields.research.encoding import encoding_for

LOCS = 4
"""Locations of a hidden copy: the relative seats 1, 2, 3 (slots 0..2) and the pile (slot 3)."""
PILE = 3
KINDS = 7
"""Kinds of move (draw, skip, pass, open, chest, close, bandit), as :mod:`goldfields.digging.actions` numbers them."""
HISTORY = 4 * (1 + KINDS + KINDS + 1)
"""Per relative seat: moves this hand, moves of each kind, the kind of its last move (or none)."""
GROUPS = {"mines": range(0, 3), "chests": range(3, 9), "X": range(CLOSE, CLOSE + 1), "bandits": range(10, NUM_CODES)}
MC_DEALS = 256
"""Sampler deals averaged for the uniform baseline where the exact formulas do not hold."""

ENCODING = encoding_for("digging")
_UNSEEN = ENCODING.slices["unseen"]
_FULL = np.array(FULL_COUNTS, dtype=np.float64)


# ---------------------------------------------------------------------------
# Positions: what the seat sees, and where the hidden cards really are
# ---------------------------------------------------------------------------
@dataclass
class Positions:
    """Decisions as arrays, one row each; ``game`` numbers the game a row comes from."""

    x: np.ndarray  # (n, E) the policy network's encoding of the mover's observation
    moves: np.ndarray  # (n, HISTORY) the hand's moves as the mover saw them
    hidden: np.ndarray  # (n, 22) hidden copies per code (unseen, less the partner's known cards)
    free: np.ndarray  # (n, 4) hidden slots per location
    allowed: np.ndarray  # (n, 22, 4) locations that can hold a code, by the view
    truth: np.ndarray  # (n, 22, 4) where the hidden copies really are
    known: np.ndarray  # (n, 4) cards the mover knows each location holds (its partner's passed cards)
    x_true: np.ndarray  # (n, 3) each other seat holds a closed-mine card
    x_fixed: np.ndarray  # (n, 3) -1 when "holds X" is open, else its value as the view settles it
    u_marg: np.ndarray  # (n, 22, 4) uniform sampler: chance of each location for a hidden copy
    u_x: np.ndarray  # (n, 3) uniform sampler: chance each other seat holds X
    u_right: np.ndarray  # (n,) uniform sampler: expected cards right
    in_hands: np.ndarray  # (n,) cards in the other seats' hands
    game: np.ndarray  # (n,) game number
    players: int = 4

    def __len__(self) -> int:
        return len(self.x)

    def take(self, rows: np.ndarray) -> Positions:
        fields = {k: v[rows] for k, v in vars(self).items() if isinstance(v, np.ndarray)}
        return Positions(**fields, players=self.players)

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        arrays = {k: v for k, v in vars(self).items() if isinstance(v, np.ndarray)}
        np.savez_compressed(path, players=np.array(self.players), **arrays)  # type: ignore[arg-type]

    @classmethod
    def load(cls, path: Path) -> Positions:
        with np.load(path) as d:
            return cls(**{k: d[k] for k in d.files if k != "players"}, players=int(d["players"]))


def others(seat: int, players: int) -> list[int]:
    """The other seats, in relative order (slot r - 1 for the seat r places after ``seat``)."""
    return [(seat + r) % players for r in range(1, players)]


def history(obs: dict[str, Any]) -> np.ndarray:
    """The hand's moves as the seat saw them (``moves`` in its observation), per relative seat."""
    out = np.zeros((4, 1 + KINDS + KINDS + 1), dtype=np.float32)
    n, me = obs["players"], obs["seat"]
    last = [-1] * 4
    for mover, text in obs.get("moves") or ():
        r = (mover - me) % n
        kind = A.K_PASS if text == "pass" else A.DECODED[A.string_to_action(text, n)][0]
        out[r, 0] += 1.0 / 20.0
        out[r, 1 + kind] += 1.0 / 10.0
        last[r] = kind
    for r in range(4):
        out[r, 1 + KINDS + (KINDS if last[r] < 0 else last[r])] = 1.0
    return np.minimum(out, 1.0).reshape(-1)


def seen(view: SeatView, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """What the view says of the hidden cards: copies per code, slots per location, which location
    may hold which code, and the cards the seat knows each location holds. Read from the encoded
    observation and the observation alone."""
    obs = view.data
    n, me = obs["players"], view.seat
    unseen = np.rint(x[_UNSEEN] * _FULL).astype(np.int64)
    partner = np.zeros(NUM_CODES, dtype=np.int64)
    for c in obs.get("partner_holds") or ():
        partner[CODE_OF[c]] += 1
    hidden = unseen - partner
    free = np.zeros(LOCS, dtype=np.int64)
    known = np.zeros(LOCS, dtype=np.int64)
    allowed = np.zeros((NUM_CODES, LOCS), dtype=bool)
    mate = (me + 2) % 4 if obs["partnership"] else None
    for slot, s in enumerate(others(me, n)):
        known[slot] = int(partner.sum()) if s == mate else 0
        free[slot] = obs["hand_sizes"][s] - known[slot]
        allowed[:, slot] = free[slot] > 0
        for c in obs["cannot_hold"][s]:
            allowed[CODE_OF[c], slot] = False
    free[PILE] = obs["pile"]
    allowed[:, PILE] = free[PILE] > 0
    allowed &= (hidden > 0)[:, None]
    assert hidden.min() >= 0 and hidden.sum() == free.sum(), "the view's counts do not add up"
    return hidden, free, allowed, known


def truth_of(state: DiggingState, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """Where the hidden copies are (per code and location), and which other seats hold X."""
    n = state.num_players
    mate = state.partner(seat)
    truth = np.zeros((NUM_CODES, LOCS), dtype=np.int64)
    x_true = np.zeros(3, dtype=bool)
    for slot, s in enumerate(others(seat, n)):
        hand = np.array(state.hands[s], dtype=np.int64)
        x_true[slot] = hand[CLOSE] > 0
        if s == mate:
            hand = hand - np.array(state.known[seat], dtype=np.int64)
        truth[:, slot] = hand
    for c in state.pile:
        truth[c, PILE] += 1
    return truth, x_true


def x_settled(hidden: np.ndarray, free: np.ndarray, known_x: np.ndarray, players: int) -> np.ndarray:
    """Per other seat, whether it holds X as far as the view alone settles it (-1: open)."""
    out = np.full(3, -1, dtype=np.int8)
    for slot in range(3):
        if slot >= players - 1:
            out[slot] = 0
        elif known_x[slot] > 0:
            out[slot] = 1
        elif hidden[CLOSE] == 0 or free[slot] == 0:
            out[slot] = 0
    return out


def hypergeom(total: int, good: int, drawn: int) -> list[float]:
    """P(k good among ``drawn`` of ``total`` with ``good`` good), k = 0..drawn."""
    den = math.comb(total, drawn)
    return [math.comb(good, k) * math.comb(total - good, drawn - k) / den for k in range(drawn + 1)]


def uniform_exact(
    hidden: np.ndarray, free: np.ndarray, truth: np.ndarray, known: np.ndarray, x_fix: np.ndarray
) -> tuple[np.ndarray, np.ndarray, float]:
    """The uniform sampler's marginals, "holds X" and expected cards right, when no seat has shown
    it cannot hold a hidden code: then the deal is a uniform shuffle of the hidden copies into the
    free slots."""
    total = int(free.sum())
    marg = np.zeros((NUM_CODES, LOCS))
    if total:
        marg[hidden > 0] = free / total
    px = np.where(x_fix >= 0, x_fix, 0).astype(np.float64)
    right = float(known[:PILE].sum())
    for slot in range(PILE):
        f = int(free[slot])
        if f == 0:
            continue
        if x_fix[slot] < 0:
            px[slot] = 1.0 - hypergeom(total, int(hidden[CLOSE]), f)[0]
        for c in np.flatnonzero(hidden):
            t = int(truth[c, slot])
            if t:
                pmf = hypergeom(total, int(hidden[c]), f)
                right += sum(p * min(k, t) for k, p in enumerate(pmf))
    return marg, px, right


def uniform_sampled(
    view: SeatView, seat: int, truth: np.ndarray, known: np.ndarray, x_fix: np.ndarray, deals: int
) -> tuple[np.ndarray, np.ndarray, float]:
    """The same three from ``deals`` of the view's own sampler (marginals lightly smoothed)."""
    n = view.num_players
    counts = np.zeros((NUM_CODES, LOCS))
    xs = np.zeros(3)
    right = 0.0
    slots = others(seat, n)
    for k in range(deals):
        det: DiggingState = view.sample(random.Random(k))  # type: ignore[assignment]
        mate = det.partner(seat)
        for slot, s in enumerate(slots):
            hand = np.array(det.hands[s], dtype=np.int64)
            xs[slot] += hand[CLOSE] > 0
            if s == mate:
                hand = hand - np.array(det.known[seat], dtype=np.int64)
            counts[:, slot] += hand
            right += float(np.minimum(hand, truth[:, slot]).sum())
        for c in det.pile:
            counts[c, PILE] += 1
    hidden = truth.sum(1)
    free = truth.sum(0)
    share = free / max(1, free.sum())
    marg = (counts + share) / (deals * hidden[:, None] + 1.0).clip(min=1.0)
    marg[hidden == 0] = 0.0
    px = np.where(x_fix >= 0, x_fix, xs / deals)
    return marg, px, float(known[:PILE].sum()) + right / deals


def play(
    players: int, spec: str, games: int, seed: int, progress: LoggedProgress, check: int = 0
) -> tuple[Positions, list[tuple[float, ...]]]:
    """Every decision of ``games`` games of ``spec`` on every seat, as the mover saw it; and, for
    ``check`` of them, how far the exact uniform figures are from 2000 of the view's own deals."""
    gaps: list[tuple[float, ...]] = []
    rng = random.Random(seed)
    bot = make_bot(spec, "digging")
    rows: dict[str, list[Any]] = {k: [] for k in Positions.__dataclass_fields__ if k != "players"}
    task = progress.add_task(f"{players} players, {spec}", total=games)
    for g in range(games):
        state = new_game(players, players == 4, rng=rng)
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_chance(state.sample_chance(rng))
                continue
            seat = state.current_player
            view = state.view(seat)
            x = ENCODING.encode(view.data)
            hidden, free, allowed, known = seen(view, x)
            truth, x_true = truth_of(state, seat)
            assert (truth.sum(1) == hidden).all() and (truth.sum(0) == free).all()
            assert not (truth > 0)[~allowed].any(), "a hidden card where the view says it cannot be"
            known_x = np.zeros(3, dtype=np.int64)
            if players == 4:  # the partner, relative seat 2, holds the X the seat passed it
                known_x[1] = sum(c == "X" for c in view.data.get("partner_holds") or ())
            x_fix = x_settled(hidden, free, known_x, players)
            constrained = any(
                hidden[CODE_OF[c]] > 0 for s in others(seat, players) for c in view.data["cannot_hold"][s]
            )
            if constrained:
                u = uniform_sampled(view, seat, truth, known, x_fix, MC_DEALS)
            else:
                u = uniform_exact(hidden, free, truth, known, x_fix)
                if len(gaps) < check and decisions % 7 == 3:
                    mc = uniform_sampled(view, seat, truth, known, x_fix, 2000)
                    gaps.append(tuple(float(np.abs(np.asarray(a) - b).max()) for a, b in zip(u, mc, strict=True)))
            row = {"x": x, "moves": history(view.data), "hidden": hidden, "free": free, "allowed": allowed,
                   "truth": truth, "known": known, "x_true": x_true, "x_fixed": x_fix, "u_marg": u[0],
                   "u_x": u[1], "u_right": u[2], "game": g,
                   "in_hands": sum(state.sizes[s] for s in others(seat, players))}  # fmt: skip
            for k, v in row.items():
                rows[k].append(v)
            state.apply_action(bot.act(view, rng))
            decisions += 1
            if decisions > 20_000:
                raise RuntimeError(f"game {g} is still going after {decisions} decisions")
        progress.advance(task)
    arrays = {k: np.asarray(v) for k, v in rows.items()}
    arrays["x"] = arrays["x"].astype(np.float32)
    arrays["moves"] = arrays["moves"].astype(np.float32)
    arrays["u_marg"] = arrays["u_marg"].astype(np.float32)
    return Positions(**arrays, players=players), gaps


def check(pos: Positions, count: int, seed: int) -> tuple[float, float]:
    """Largest gaps between the exact uniform marginals and cards right and those of the proposal
    with even odds (which, copy by copy in proportion to the free slots left, is the uniform
    shuffle), over ``count`` positions spread over the file."""
    gen = np.random.default_rng(seed)
    worst = [0.0, 0.0]
    for i in np.linspace(0, len(pos) - 1, min(count, len(pos))).astype(int):
        deals = propose(pos.hidden[i], pos.free[i], pos.allowed[i].astype(np.float64), 4000, gen)
        marg = deals.mean(0) / np.maximum(pos.hidden[i], 1)[:, None]
        right = np.minimum(deals[:, :, :PILE], pos.truth[i][None, :, :PILE]).sum((1, 2)).mean()
        right += pos.known[i, :PILE].sum()
        worst[0] = max(worst[0], float(np.abs(marg - pos.u_marg[i]).max()))
        worst[1] = max(worst[1], abs(float(right) - float(pos.u_right[i])))
    return worst[0], worst[1]


# ---------------------------------------------------------------------------
# The belief model
# ---------------------------------------------------------------------------
class BeliefNet(nn.Module):
    """An MLP: the seat's encoded view in, a logit per (code, location) and per other seat for X out."""

    def __init__(self, inputs: int, hidden: int) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(inputs, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.locs = nn.Linear(hidden, NUM_CODES * LOCS)
        self.x = nn.Linear(hidden, 3)

    def forward(self, x: torch.Tensor, allowed: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Log-probabilities ``(batch, 22, 4)`` of each location per code (-inf where it cannot be),
        and the X logits ``(batch, 3)``."""
        h = self.body(x)
        logits = self.locs(h).view(-1, NUM_CODES, LOCS).masked_fill(~allowed, -1e9)
        return torch.log_softmax(logits, dim=2), self.x(h)


def features(pos: Positions, with_moves: bool) -> np.ndarray:
    return np.concatenate([pos.x, pos.moves], axis=1) if with_moves else pos.x


def losses(model: BeliefNet, x: torch.Tensor, allowed: torch.Tensor, truth: torch.Tensor,
           x_true: torch.Tensor, x_open: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:  # fmt: skip
    """Cross-entropy per hidden copy, and the BCE of "holds X" where the view leaves it open."""
    logp, xl = model(x, allowed)
    ce = -(truth * logp.clamp(min=-1e4)).sum() / truth.sum().clamp(min=1.0)
    bce = nn.functional.binary_cross_entropy_with_logits(xl, x_true, weight=x_open, reduction="sum")
    return ce, bce / x_open.sum().clamp(min=1.0)


def tensors(pos: Positions, with_moves: bool) -> tuple[torch.Tensor, ...]:
    return (
        torch.from_numpy(features(pos, with_moves)),
        torch.from_numpy(pos.allowed),
        torch.from_numpy(pos.truth.astype(np.float32)),
        torch.from_numpy(pos.x_true.astype(np.float32)),
        torch.from_numpy((pos.x_fixed < 0).astype(np.float32)),
    )


def fit(train: Positions, valid: Positions, with_moves: bool, hidden: int, epochs: int, seed: int,
        progress: LoggedProgress, label: str) -> tuple[BeliefNet, int, float]:  # fmt: skip
    """The model fitted on ``train``, at the epoch with the lowest cross-entropy on ``valid``."""
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    t = tensors(train, with_moves)
    v = tensors(valid, with_moves)
    model = BeliefNet(t[0].shape[1], hidden)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=1e-4)
    steps = epochs * -(-len(train) // 256)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=2e-3, total_steps=steps)
    best: tuple[float, int, dict[str, torch.Tensor]] = (math.inf, -1, {})
    task = progress.add_task(label, total=epochs)
    for epoch in range(epochs):
        model.train()
        order = torch.randperm(len(train), generator=gen)
        for start in range(0, len(train), 256):
            idx = order[start : start + 256]
            ce, bce = losses(model, *(a[idx] for a in t))
            opt.zero_grad()
            (ce + 0.5 * bce).backward()
            opt.step()
            sched.step()
        model.eval()
        with torch.no_grad():
            ce, _ = losses(model, *v)
        if float(ce) < best[0]:
            best = (float(ce), epoch, {k: w.clone() for k, w in model.state_dict().items()})
        progress.update(task, advance=1, description=f"{label} (valid {float(ce):.4f})")
    model.load_state_dict(best[2])
    return model, best[1], best[0]


def predict(model: BeliefNet, pos: Positions, with_moves: bool) -> tuple[np.ndarray, np.ndarray]:
    """Per-code location probabilities and "holds X" per other seat (the view's certainties kept)."""
    with torch.no_grad():
        logp, xl = model(torch.from_numpy(features(pos, with_moves)), torch.from_numpy(pos.allowed))
    marg = logp.exp().numpy().astype(np.float64) * pos.allowed
    px = torch.sigmoid(xl).numpy().astype(np.float64)
    px = np.where(pos.x_fixed >= 0, pos.x_fixed, px)
    return marg, px


def sinkhorn(marg: np.ndarray, hidden: np.ndarray, free: np.ndarray, rounds: int = 50) -> np.ndarray:
    """``marg`` (per code over locations) scaled so that the expected copies also fill each
    location's free slots: rows add up to the hidden copies, columns to the slots."""
    m = marg * hidden[..., :, None]
    for _ in range(rounds):
        col = m.sum(-2, keepdims=True)
        m = m * np.where(col > 0, free[..., None, :] / np.maximum(col, 1e-300), 0.0)
        row = m.sum(-1, keepdims=True)
        m = m * np.where(row > 0, hidden[..., :, None] / np.maximum(row, 1e-300), 0.0)
    out: np.ndarray = m / np.maximum(hidden[..., :, None], 1)
    return out


def propose(hidden: np.ndarray, free: np.ndarray, odds: np.ndarray, deals: int,
            gen: np.random.Generator) -> np.ndarray:  # fmt: skip
    """``deals`` consistent deals ``(deals, 22, 4)``: copy by copy (the codes most confined
    first), a location drawn in proportion to its free slots left times ``odds`` for the code
    there (even odds on the allowed locations: the uniform shuffle). Should odds leave a copy
    nowhere to go, it goes to any free slot."""
    out = np.zeros((deals, NUM_CODES, LOCS), dtype=np.int64)
    left = np.tile(free.astype(np.float64), (deals, 1))
    rows = np.arange(deals)
    codes = sorted(np.flatnonzero(hidden), key=lambda c: (odds[c] > 0).sum())
    for c in codes:
        for _ in range(int(hidden[c])):
            w = left * odds[c]
            dead = w.sum(1) <= 0
            if dead.any():
                w[dead] = left[dead]
            cum = w.cumsum(1)
            u = gen.random(deals) * cum[:, -1]
            loc = np.minimum((cum <= u[:, None]).sum(1), LOCS - 1)
            out[rows, c, loc] += 1
            left[rows, loc] -= 1
    return out


# ---------------------------------------------------------------------------
# Measures
# ---------------------------------------------------------------------------
def cross_entropy(marg: np.ndarray, truth: np.ndarray, codes: Sequence[int] | range = range(NUM_CODES)) -> float:
    """Nats per hidden copy of ``codes``."""
    t = truth[:, list(codes)]
    p = np.clip(marg[:, list(codes)], 1e-12, 1.0)
    return float(-(t * np.log(p)).sum() / max(1, t.sum()))


def x_scores(px: np.ndarray, pos: Positions) -> tuple[float, float, int]:
    """Brier score and accuracy of "holds X" over the other seats at the table, and their number."""
    seats = np.arange(3)[None, :] < pos.players - 1
    seats = np.broadcast_to(seats, px.shape)
    y = pos.x_true.astype(np.float64)
    brier = float(((px - y) ** 2)[seats].mean())
    acc = float(((px > 0.5) == (y > 0.5))[seats].mean())
    return brier, acc, int(seats.sum())


def cards_right(marg_fit: np.ndarray, pos: Positions, deals: int, seed: int) -> float:
    """Mean cards right over ``deals`` deals a position drawn by the proposal with the model's odds."""
    gen = np.random.default_rng(seed)
    total = 0.0
    for i in range(len(pos)):
        hidden, free = pos.hidden[i], pos.free[i]
        share = free / max(1, free.sum())
        odds = np.where(pos.allowed[i], marg_fit[i] / np.where(share > 0, share, 1.0)[None, :], 0.0)
        d = propose(hidden, free, odds, deals, gen)
        right = np.minimum(d[:, :, :PILE], pos.truth[i][None, :, :PILE]).sum((1, 2)).mean()
        total += float(right) + float(pos.known[i, :PILE].sum())
    return total / max(1, len(pos))


def timing(model: BeliefNet, pos: Positions, with_moves: bool, deals: int) -> tuple[float, float, float]:
    """Milliseconds for one position's network call, its fit, and one proposed deal."""
    x = torch.from_numpy(features(pos, with_moves)[:1])
    allowed = torch.from_numpy(pos.allowed[:1])
    n = 200
    with torch.no_grad():
        t0 = time.perf_counter()
        for _ in range(n):
            logp, _ = model(x, allowed)
        call = (time.perf_counter() - t0) / n
    marg = logp.exp().numpy()[0].astype(np.float64)
    t0 = time.perf_counter()
    for _ in range(n):
        m = sinkhorn(marg, pos.hidden[0], pos.free[0])
    fitted = (time.perf_counter() - t0) / n
    gen = np.random.default_rng(0)
    t0 = time.perf_counter()
    propose(pos.hidden[0], pos.free[0], np.where(pos.allowed[0], m + 1e-9, 0.0), deals, gen)
    deal = (time.perf_counter() - t0) / deals
    return call * 1e3, fitted * 1e3, deal * 1e3


def split(pos: Positions, test: float, seed: int) -> tuple[Positions, Positions, Positions]:
    """Train, validation (a tenth of the training games, to pick the epoch) and test, by game."""
    games = np.unique(pos.game)
    order = np.random.default_rng(seed).permutation(games)
    n_test = max(1, round(len(games) * test))
    n_valid = max(1, round((len(games) - n_test) * 0.1))
    test_g, valid_g, train_g = order[:n_test], order[n_test : n_test + n_valid], order[n_test + n_valid :]
    return tuple(pos.take(np.isin(pos.game, g)) for g in (train_g, valid_g, test_g))  # type: ignore[return-value]


def default_cache(players: int, spec: str, games: int, seed: int) -> Path:
    name = re.sub(r"[^A-Za-z0-9=.]+", "_", spec)
    return Path("/tmp/goldfields-belief-head") / f"{players}p-{name}-{games}g-seed{seed}.npz"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4, choices=[2, 3, 4])
    parser.add_argument("--by", default="ismcts:iterations=300", help="the bot on every seat")
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--test", type=float, default=0.25, help="share of the games held out")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--cache", type=Path, default=None, help="positions file (read if present, else written)")
    parser.add_argument("--epochs", type=int, default=15)
    parser.add_argument("--train-games", type=int, default=0, help="train on only this many of the training games")
    parser.add_argument("--hidden", type=int, default=256, help="width of the MLP's two hidden layers")
    parser.add_argument("--deals", type=int, default=64, help="model deals a test position, for cards right")
    parser.add_argument("--check", type=int, default=0, help="positions on which to check the exact uniform formulas")
    args = parser.parse_args()
    torch.set_num_threads(1)
    cache = args.cache or default_cache(args.players, args.by, args.games, args.seed)
    t_start = time.perf_counter()
    with LoggedProgress() as progress:
        if cache.is_file():
            pos = Positions.load(cache)
            progress.console.print(f"positions read from {cache}")
        else:
            pos, gaps = play(args.players, args.by, args.games, args.seed, progress, args.check)
            if gaps:
                worst = np.max(np.array(gaps), axis=0)
                progress.console.print(
                    f"exact uniform vs 2000 of the view's deals, {len(gaps)} positions: largest gap "
                    f"{worst[0]:.4f} in a marginal, {worst[1]:.4f} in 'holds X', {worst[2]:.3f} in cards right"
                )
            pos.save(cache)
            progress.console.print(f"positions written to {cache} ({time.perf_counter() - t_start:.0f} s of play)")
        if args.check:
            worst = check(pos, args.check, args.seed)
            progress.console.print(
                f"exact uniform vs the proposal at even odds, 4000 deals, {args.check} positions: largest gap "
                f"{worst[0]:.4f} in a marginal, {worst[1]:.3f} in cards right"
            )
        train, valid, test = split(pos, args.test, args.seed)
        if args.train_games:  # a learning curve: the same test, fewer training games
            keep = np.unique(train.game)[: args.train_games]
            train = train.take(np.isin(train.game, keep))
        fitted = {}
        for with_moves in (False, True):
            label = "encoding + moves" if with_moves else "encoding"
            fitted[with_moves] = fit(train, valid, with_moves, args.hidden, args.epochs, args.seed, progress, label)
    n_games = {k: len(np.unique(p.game)) for k, p in (("train", train), ("valid", valid), ("test", test))}
    print(f"{args.players} players, games by {args.by}, seed {args.seed}: "
          f"train {n_games['train']} games / {len(train)} positions, valid {n_games['valid']} / {len(valid)}, "
          f"test {n_games['test']} / {len(test)}")  # fmt: skip
    hidden_pp = test.hidden.sum(1).mean()
    print(f"test positions: {hidden_pp:.1f} hidden copies, {test.in_hands.mean():.1f} cards in the other hands "
          f"(of which {test.known[:, :PILE].sum(1).mean():.2f} known), "
          f"{np.mean([(test.x_fixed[i, : args.players - 1] < 0).any() for i in range(len(test))]):.2f} "
          "with 'holds X' open")  # fmt: skip
    u_ce = cross_entropy(test.u_marg.astype(np.float64), test.truth)
    u_brier, u_acc, seats = x_scores(test.u_x, test)
    header = f"{'':<26} {'CE nats/copy':>12} {'ratio':>6} {'X Brier':>8} {'X acc':>6} {'cards right':>11}"
    groups = "  ".join(f"{g:>7}" for g in GROUPS)
    rows = [("uniform (view's sampler)", u_ce, u_brier, u_acc, float(test.u_right.mean()),
             [cross_entropy(test.u_marg.astype(np.float64), test.truth, r) for r in GROUPS.values()])]  # fmt: skip
    costs = []
    for with_moves, (model, epoch, vce) in fitted.items():
        name = "model: encoding + moves" if with_moves else "model: encoding"
        marg, px = predict(model, test, with_moves)
        marg_fit = sinkhorn(marg, test.hidden, test.free)
        brier, acc, _ = x_scores(px, test)
        right = cards_right(marg_fit, test, args.deals, args.seed)
        rows.append((name, cross_entropy(marg, test.truth), brier, acc, math.nan,
                     [cross_entropy(marg, test.truth, r) for r in GROUPS.values()]))  # fmt: skip
        rows.append((f"  {'+fit, proposal deals'}", cross_entropy(marg_fit, test.truth), brier, acc, right,
                     [cross_entropy(marg_fit, test.truth, r) for r in GROUPS.values()]))  # fmt: skip
        costs.append((name, epoch, vce, *timing(model, test, with_moves, args.deals)))
    print(f"{header}   CE by group: {groups}")
    for name, ce, brier, acc, right, by_group in rows:
        r = "" if math.isnan(right) else f"{right:.2f}"
        print(f"{name:<26} {ce:>12.4f} {ce / u_ce:>6.3f} {brier:>8.4f} {acc:>6.3f} {r:>11}   "
              + "  ".join(f"{g:>7.4f}" for g in by_group))  # fmt: skip
    print(f"(X scores over {seats} seat-positions; cards right out of {test.in_hands.mean():.2f} a position, "
          f"the model's from {args.deals} proposal deals a position)")  # fmt: skip
    for name, epoch, vce, call, fit_ms, deal in costs:
        print(
            f"{name}: best epoch {epoch + 1}/{args.epochs} (valid CE {vce:.4f}); "
            f"a network call {call:.3f} ms, the fit {fit_ms:.3f} ms, a proposed deal {deal:.3f} ms"
        )
    print(f"wall time {time.perf_counter() - t_start:.0f} s")


if __name__ == "__main__":
    main()
