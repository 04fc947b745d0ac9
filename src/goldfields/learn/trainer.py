"""Fitting the policy and value network with PyTorch on the CPU (the ``learn`` extra).

The model is the plain perceptron of :class:`goldfields.bots.net.PolicyValueNet`,
so its weights export as they are and the bots run them with numpy alone.
Loss: cross-entropy of the masked policy against the search's visit shares,
plus the binary cross-entropy of each seat's value against its result.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..bots.net import SEATS, PolicyValueNet
from ..digging.actions import NUM_ACTIONS
from .selfplay import Examples

try:
    import torch
    from torch import nn
except ImportError as err:  # pragma: no cover - the message is the point
    raise ImportError("training needs PyTorch: pip install 'goldfields[learn]' (torch==2.13.0, CPU)") from err


class TorchNet(nn.Module):
    def __init__(self, inputs: int, hidden: tuple[int, ...], seed: int | None = None) -> None:
        super().__init__()
        if seed is not None:  # the initial weights are part of "same seed, same network"
            torch.manual_seed(seed)
        sizes = (inputs, *hidden)
        self.hidden = nn.ModuleList(nn.Linear(a, b) for a, b in itertools.pairwise(sizes))
        self.policy = nn.Linear(sizes[-1], NUM_ACTIONS)
        self.value = nn.Linear(sizes[-1], SEATS)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        for layer in self.hidden:
            x = torch.relu(layer(x))
        return self.policy(x), self.value(x)

    @classmethod
    def from_numpy(cls, net: PolicyValueNet) -> TorchNet:
        model = cls(net.inputs, tuple(int(w.shape[1]) for w, _ in net.hidden))
        with torch.no_grad():
            for layer, (w, b) in zip(model.hidden, net.hidden, strict=True):
                layer.weight.copy_(torch.from_numpy(w.T.copy()))
                layer.bias.copy_(torch.from_numpy(b))
            for layer, (w, b) in ((model.policy, net.policy), (model.value, net.value)):
                layer.weight.copy_(torch.from_numpy(w.T.copy()))
                layer.bias.copy_(torch.from_numpy(b))
        return model

    def to_numpy(self, meta: Mapping[str, Any]) -> PolicyValueNet:
        def pair(layer: nn.Linear) -> tuple[np.ndarray, np.ndarray]:
            return (layer.weight.detach().numpy().T.copy(), layer.bias.detach().numpy().copy())

        hidden = tuple(pair(layer) for layer in self.hidden)
        return PolicyValueNet(hidden, pair(self.policy), pair(self.value), dict(meta))


@dataclass(frozen=True)
class Fit:
    epochs: int = 4
    batch: int = 256
    lr: float = 1e-3
    weight_decay: float = 1e-4
    value_weight: float = 1.0
    schedule: str = "constant"
    """``constant`` keeps ``lr`` throughout; ``cosine`` lowers it along a half cosine, to zero just
    after the last batch, so the weights settle instead of ending wherever the last batches threw them."""


SCHEDULES = ("constant", "cosine")


def learning_rate(fit: Fit, step: int, steps: int) -> float:
    """The rate of batch ``step`` (from 0) of a fit of ``steps`` batches."""
    return fit.lr * _share(fit, step, steps)


def _share(fit: Fit, step: int, steps: int) -> float:
    if fit.schedule == "cosine":  # zero is reached just after the last batch
        return 0.5 * (1 + math.cos(math.pi * min(step, steps) / max(steps, 1)))
    return 1.0


def _policy_loss(target: torch.Tensor, masked_logits: torch.Tensor) -> torch.Tensor:
    """Cross-entropy against the targets, over the decisions that have one (a row of zeros
    teaches the value alone)."""
    per_row = -(target * torch.log_softmax(masked_logits, dim=1)).sum(dim=1)
    has = target.sum(dim=1) > 0
    return per_row[has].mean() if bool(has.any()) else per_row.sum() * 0.0


def losses(model: TorchNet, data: Examples) -> tuple[float, float]:
    """The mean policy and value losses of ``model`` on ``data``, without fitting."""
    with torch.no_grad():
        logits, v = model(torch.from_numpy(data.x))
        logits = logits.masked_fill(~(torch.from_numpy(data.mask) > 0), -1e9)
        lp = _policy_loss(torch.from_numpy(data.policy), logits)
        lv = nn.BCEWithLogitsLoss()(v, torch.from_numpy(data.value))
    return float(lp), float(lv)


def train(model: TorchNet, data: Examples, fit: Fit, seed: int,
          on_epoch: Callable[[int, float, float], None] | None = None) -> tuple[float, float]:  # fmt: skip
    """Fit ``model`` on ``data``; returns the last epoch's mean policy and value losses."""
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    x = torch.from_numpy(data.x)
    mask = torch.from_numpy(data.mask) > 0
    target = torch.from_numpy(data.policy)
    value = torch.from_numpy(data.value)
    if fit.schedule not in SCHEDULES:
        raise ValueError(f"unknown learning-rate schedule {fit.schedule!r}; one of {', '.join(SCHEDULES)}")
    opt = torch.optim.AdamW(model.parameters(), lr=fit.lr, weight_decay=fit.weight_decay)
    steps = fit.epochs * -(-len(x) // fit.batch)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda step: _share(fit, step, steps))
    bce = nn.BCEWithLogitsLoss()
    p_loss = v_loss = 0.0
    for epoch in range(fit.epochs):
        order = torch.randperm(len(x), generator=gen)
        p_sum = v_sum = 0.0
        batches = 0
        for start in range(0, len(x), fit.batch):
            idx = order[start : start + fit.batch]
            logits, v = model(x[idx])
            logits = logits.masked_fill(~mask[idx], -1e9)
            lp = _policy_loss(target[idx], logits)
            lv = bce(v, value[idx])
            loss = lp + fit.value_weight * lv
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            p_sum += lp.item()
            v_sum += lv.item()
            batches += 1
        p_loss, v_loss = p_sum / max(batches, 1), v_sum / max(batches, 1)
        if on_epoch is not None:
            on_epoch(epoch, p_loss, v_loss)
    return p_loss, v_loss
