"""PettingZoo AEC environments for Digging and Digger, with action masks.

::

    from goldfields.research.pettingzoo_env import digging_env, digger_env

    env = digging_env(players=4)          # partnership: player_0 + player_2 against player_1 + player_3
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

Agents are ``player_0`` ... ``player_{n-1}``, the seats. An observation is
``{"observation": float32 vector, "action_mask": int8 vector}``: the shared
encoding (:mod:`goldfields.research.encoding`) of ``state.observation(seat)``,
and 1 for each legal action id (all 0 for an agent that is not to move).

Chance (the deal, the dice, a knock) is drawn inside the environment with the
generator seeded by ``reset(seed=...)``; only seats' decisions are steps.
Digger's clock is simulated: each decision of the digger is stamped with
``time_model`` (default: the arena's clock, ``TimeModel(jitter=0.2)``, the
jitter drawn with the same generator) when the environment applies it. The
digger's observation carries no time (the engine hides the hourglass from
it); the other agents' observations carry elapsed and remaining seconds.
Only the digger acts in Digger, so ``agent_selection`` is always the digger.

Rewards come once, at the end: the engine's utilities (1 for a win, shared
wins split, each partner of a winning team 1). A game cut by ``max_moves`` /
``max_turns`` is adjudicated, won by the side then ahead: it *terminates*
(``infos[agent]["adjudicated"]`` is True), since its result is paid as an
outcome. The environments themselves never report a truncation.

``digging_env`` / ``digger_env`` wrap the raw environment as PettingZoo's
classic games do: an illegal action ends the game with reward -1 for its
author (``TerminateIllegalWrapper``). That wrapper is PettingZoo's, and it
sets **both** ``terminated`` and ``truncated`` for every agent after an
illegal action: the one source of a truncation here. The raw environments (``DiggingAEC`` /
``DiggerAEC``) raise ``ValueError`` on an illegal action, naming the rule.
"""

from __future__ import annotations

import json
import random
from typing import Any, ClassVar

from ._deps import require

pettingzoo: Any = require("pettingzoo", "goldfields.research.pettingzoo_env")
gymnasium = require("gymnasium", "goldfields.research.pettingzoo_env")
np = require("numpy", "goldfields.research.pettingzoo_env")

from gymnasium import spaces  # noqa: E402
from pettingzoo.utils import wrappers  # noqa: E402

from ..core.game import RuleError  # noqa: E402
from .encoding import action_mask, as_action, encoding_for  # noqa: E402
from .tables import (  # noqa: E402
    DIGGER,
    DIGGING,
    DiggerSpec,
    DiggingSpec,
    Match,
    Spec,
    clock_refusal,
    env_time_model,
    make_env_spec,
    refuse_unknown,
)


class GoldfieldsAEC(pettingzoo.AECEnv):
    """An AEC environment over a :class:`~goldfields.research.tables.Match`."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "goldfields", "is_parallelizable": False}

    def __init__(self, spec: Spec, render_mode: str | None = None) -> None:
        super().__init__()
        self.table = spec
        self.render_mode = render_mode
        self.metadata = {**GoldfieldsAEC.metadata, "name": f"goldfields_{spec.name}_v0"}  # type: ignore[misc]
        n = spec.players
        self.possible_agents = [f"player_{s}" for s in range(n)]
        self.agents = self.possible_agents[:]
        self.encoding = encoding_for(spec.name)  # looked up once: each observation encodes with it
        size = self.encoding.size
        self._num_actions = spec.num_actions
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (self._num_actions,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self._num_actions) for a in self.possible_agents}
        self._rng = random.Random()
        self._match: Match | None = None

    # -- spaces -------------------------------------------------------------
    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    # -- the game -------------------------------------------------------------
    @property
    def match(self) -> Match:
        if self._match is None:
            raise RuntimeError("call reset() first")
        return self._match

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self._match = Match(self.table, self._rng)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self._match.current_player]

    def _seat(self, agent: str) -> int:
        return int(agent.rsplit("_", 1)[1])

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._seat(agent)
        state = self.match.state
        obs = self.encoding.encode_state(state, seat, over=self.match.over)
        if agent == self.agent_selection and not self.match.over:
            mask = action_mask(state.legal_actions(), self._num_actions)
        else:
            mask = np.zeros(self._num_actions, np.int8)
        return {"observation": obs, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        match = self.match
        seat = self._seat(agent)
        if match.current_player != seat:
            raise RuntimeError(f"{agent} is not to move")
        action = as_action(action, self._num_actions)  # a float or a bool is the caller's mistake
        try:
            if (clock := clock_refusal(match.state, action)) is not None:
                raise clock
            match.apply(action)
        except RuleError as err:
            raise ValueError(f"illegal action {action} for {agent}: {err}") from None
        # Only a move that was made clears the rewards: a refused one leaves everything as it was.
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if match.over:
            returns = match.returns()
            for s, a in enumerate(self.possible_agents):
                self.rewards[a] = float(returns[s])
            # A game cut by the table's cap is adjudicated: that is its outcome, so it
            # terminates (a truncation would let trainers bootstrap on top of a paid outcome).
            self.terminations = dict.fromkeys(self.agents, True)
            for a in self.agents:
                self.infos[a] = {**self.infos.get(a, {}), "adjudicated": match.truncated}
            self.agent_selection = self.possible_agents[(seat + 1) % self.table.players]
        else:
            self.agent_selection = self.possible_agents[match.current_player]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; use render_mode='ansi'")
            return None
        obs = self.match.state.observation(None)
        obs.pop("legal", None)
        return json.dumps(obs, separators=(",", ":"))

    def close(self) -> None:
        pass


class DiggingAEC(GoldfieldsAEC):
    """Digging: 2-4 players; ``partnership`` (4 players) pairs seats 0+2 and 1+3."""

    def __init__(
        self,
        players: int = 4,
        partnership: bool = True,
        single_hand: bool = False,
        max_moves: int = 0,
        options: Any = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__(DiggingSpec(players, partnership, single_hand, max_moves, options), render_mode)


class DiggerAEC(GoldfieldsAEC):
    """Digger: 2-5 players, the simulated clock stamping each decision."""

    def __init__(
        self,
        players: int = 3,
        crates: str = "white",
        max_turns: int = 0,
        options: Any = None,
        time_model: Any = None,
        render_mode: str | None = None,
    ) -> None:
        model = time_model if time_model is not None else env_time_model()
        super().__init__(DiggerSpec(players, crates, max_turns, options, model), render_mode)


def _wrap(env: GoldfieldsAEC) -> Any:
    env = wrappers.TerminateIllegalWrapper(env, illegal_reward=-1)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)


def env(game: str, render_mode: str | None = None, **table: Any) -> Any:
    """A wrapped AEC environment of any registered game (the table's arguments
    as for :class:`~goldfields.research.gymnasium_env.GoldfieldsEnv`)."""
    return _wrap(GoldfieldsAEC(make_env_spec(game, **table), render_mode))


def digging_env(render_mode: str | None = None, **table: Any) -> Any:
    """A wrapped Digging AEC environment (see :class:`DiggingAEC` for the arguments)."""
    refuse_unknown(DIGGING, table)  # a rule option passed on its own is told where it goes
    return _wrap(DiggingAEC(**table, render_mode=render_mode))


def digger_env(render_mode: str | None = None, **table: Any) -> Any:
    """A wrapped Digger AEC environment (see :class:`DiggerAEC` for the arguments)."""
    refuse_unknown(DIGGER, table)
    return _wrap(DiggerAEC(**table, render_mode=render_mode))


__all__ = ["DiggerAEC", "DiggingAEC", "GoldfieldsAEC", "digger_env", "digging_env", "env"]
