"""The positions benchmarks time a bot on: the decisions of a game record where the mover has a choice."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from goldfields.core import registry
from goldfields.core.game import GameState


def choices(record: Mapping[str, Any]) -> Iterator[GameState]:
    """A copy of each position of ``record`` where the seat to move has more than one legal move:
    a forced move costs a bot nothing, and would flatter its time a decision."""
    for state, _, _ in registry.get(record["game"]).walk(record):
        if not state.is_terminal() and not state.is_chance_node() and len(state.legal_actions()) > 1:
            yield state.clone()
