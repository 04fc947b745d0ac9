"""A relayed request to a table's owner, when for a moment nobody listens for the table."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

pytest.importorskip("redis")

from goldfields.server.cluster import Cluster, Moving


class DeafRedis:
    """Redis as the asking process sees it: nobody subscribed to the table for the first
    ``deaf_for`` publishes (its owner is subscribing still), then the owner answers."""

    def __init__(self, cluster: Cluster, deaf_for: int) -> None:
        self.cluster, self.deaf_for, self.publishes = cluster, deaf_for, 0

    async def publish(self, channel: str, message: str) -> int:
        self.publishes += 1
        if self.publishes <= self.deaf_for:
            return 0
        self.cluster._pending[json.loads(message)["req"]].set_result({"seat": 1})
        return 1


def asking(deaf_for: int, listen_patience: float) -> tuple[Cluster, DeafRedis]:
    # Redis connects lazily; the locks' database is never used by ask().
    cluster = Cluster(None, "redis://127.0.0.1:1/0", "sqlite://", listen_patience=listen_patience)  # type: ignore[arg-type]
    fake = DeafRedis(cluster, deaf_for)
    cluster.redis = fake  # type: ignore[assignment]
    return cluster, fake


def test_a_request_waits_for_an_owner_that_is_still_subscribing() -> None:
    # A seat claimed on another process right after the table was created: CI saw a 503 "moving".
    cluster, fake = asking(deaf_for=3, listen_patience=60.0)
    answer: dict[str, Any] = asyncio.run(cluster.ask("t1", "claim", seat=1))
    assert answer == {"seat": 1} and fake.publishes == 4


def test_a_table_nobody_listens_for_is_moving_after_the_patience() -> None:
    cluster, fake = asking(deaf_for=10**9, listen_patience=0.3)
    with pytest.raises(Moving):
        asyncio.run(cluster.ask("t1", "claim", seat=1))
    assert fake.publishes > 1
    assert not cluster._pending
