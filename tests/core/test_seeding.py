"""No generator handed to a bot gives back the text it was seeded from (goldfields.seeding).

A bot can read a text seed back out of its generator's state (tests/support/seed_recovery.py
does it in a few milliseconds). Where that text names a table's secret or a run's deal, the
bot could deal every card still to come, so those generators are sealed."""

from __future__ import annotations

import random
import secrets
import types
from typing import Any, ClassVar

import pytest
from seed_recovery import text_seed

from goldfields.arena import worker
from goldfields.arena.games import GameSpec
from goldfields.arena.schedule import schedule
from goldfields.bots.random_bot import RandomBot
from goldfields.seeding import sealed_rng
from goldfields.server.tables import LiveTable


def test_a_text_seed_can_be_read_back_out_of_its_generator() -> None:
    # The attack the tests below defend against, shown to work: without it they prove nothing.
    secret = secrets.token_hex(16)
    assert text_seed(random.Random(f"{secret}:bot:57")) == f"{secret}:bot:57"
    assert text_seed(sealed_rng(f"{secret}:bot:57")) is None


def test_a_server_bots_generator_does_not_give_the_tables_secret_back() -> None:
    table: Any = types.SimpleNamespace(secret=secrets.token_hex(16), seq=57)
    for purpose in ("bot", "move", "chance"):
        rng = LiveTable.rng(table, purpose)
        assert text_seed(rng) is None
        assert rng.getstate() == LiveTable.rng(table, purpose).getstate()  # still one stream per step


class Keeper(RandomBot):
    """A random bot that keeps the state of each generator it is handed, as it was before the
    first draw from it (where the seeding is read back)."""

    seen: ClassVar[dict[int, Any]] = {}

    def act(self, view: Any, rng: random.Random, budget: Any = None) -> int:
        Keeper.seen.setdefault(id(rng), rng.getstate())
        return super().act(view, rng, budget)


def read_back(state: Any) -> str | None:
    rng = random.Random()
    rng.setstate(state)
    return text_seed(rng)


def test_an_arena_bots_generator_does_not_give_the_run_and_deal_back(monkeypatch: Any) -> None:
    monkeypatch.setattr(worker, "_bot", lambda spec, game: Keeper())
    Keeper.seen = {}
    spec = GameSpec.make("digging", players=2)
    job = schedule(spec, ("random", "random"), 3, 8172631)[-1]
    worker.run_job(job)
    assert len(Keeper.seen) == 2  # one generator a seat
    assert [read_back(state) for state in Keeper.seen.values()] == [None, None]


def test_the_gymnasium_opponents_generator_does_not_give_the_seed_back() -> None:
    pytest.importorskip("gymnasium")
    from goldfields.research.gymnasium_env import GoldfieldsEnv

    Keeper.seen = {}
    env = GoldfieldsEnv("digging", players=2, opponents=Keeper())
    env.reset(seed=8172631)
    while not Keeper.seen:
        _, _, terminated, truncated, _ = env.step(int(env.action_masks().argmax()))
        assert not (terminated or truncated)
    assert [read_back(state) for state in Keeper.seen.values()] == [None]
