"""Random positions of both games, reached through the engine interface only."""

from __future__ import annotations

import random

from goldfields.research.tables import DiggerSpec, DiggingSpec, Match


def random_matches(spec, seeds, max_steps=400):
    """For each seed, a match stopped at a random decision point of a random game."""
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        match = Match(spec, rng)
        stop = rng.randrange(1, max_steps)
        for _ in range(stop):
            if match.over:
                break
            legal = match.state.legal_actions()
            match.apply(legal[rng.randrange(len(legal))])
        if not match.over:
            out.append(match)
    return out


DIGGING_SPECS = [DiggingSpec(2), DiggingSpec(3), DiggingSpec(4, partnership=True), DiggingSpec(4, partnership=False)]
DIGGER_SPECS = [DiggerSpec(2), DiggerSpec(3, "black"), DiggerSpec(5)]
