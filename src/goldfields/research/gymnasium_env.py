"""A single-agent Gymnasium environment: one seat, the other seats played by goldfields bots.

::

    import gymnasium as gym
    import goldfields.research.gymnasium_env  # noqa: F401  (registers the ids)

    env = gym.make("goldfields/DiggingHand-v0")            # 2 players, one hand, against 'random'
    obs, info = env.reset(seed=0)
    while True:
        legal = info["action_mask"].nonzero()[0]
        obs, reward, terminated, truncated, info = env.step(int(env.np_random.choice(legal)))
        if terminated or truncated:
            break

Observation: the shared encoding (:mod:`goldfields.research.encoding`) of
``state.observation(seat)``, a ``float32`` vector in [0, 1]. Actions: the
engine's ids (``Discrete(207)`` for Digging, ``Discrete(28)`` for Digger).
The mask of legal actions is in ``info["action_mask"]`` (int8) and from
``env.action_masks()`` (bool, the sb3-contrib ``MaskablePPO`` convention).

Other seats are goldfields bots built by the registry
(``goldfields.bots.make_bot``): ``opponents="random"``, ``"heuristic"``, or
one spec per other seat (``["heuristic", "random", "random"]``, in seat order,
skipping the agent's; with ``seat="random"``, from the agent's left, so that
at the partnership table the list is left, partner, right wherever the agent
sits). In the partnership game the agent's partner is one of them. The deal
and the dice draw from the generator seeded by ``reset(seed=...)``; the bots
draw from a generator of their own, seeded from the same seed, so that a bot
is never handed the generator of the cards to come, and how many numbers the
bots draw changes no deal.

Reward: the agent's utility at the end (1 for a win, shared wins split, 1
to each partner of a winning team), 0 before. An illegal action changes
nothing in the game, earns ``illegal_penalty`` (-1 by default) and **ends the
episode** (``terminated=True``, ``info["illegal_action"] = True``, and from
then on an all-zero mask, as at any end); ``illegal_action="raise"`` raises
``ValueError`` instead, naming the rule the action breaks
(``illegal action 1: D2: skip is only allowed when no other action is legal; legal are [0, 24, 25]``).

An action is an integer id: a Python or numpy integer, a 0-d integer array,
or a float with an integral value (``3.0``). Anything else (``0.7``, ``True``,
a string, an array of several ids) is not an element of the action space: it
is the caller's mistake, not the policy's, so it raises ``TypeError`` in both
modes and changes nothing (Gymnasium's own environments assert
``action_space.contains(action)`` for the same reason). An integer outside
the space (``500``) is an illegal action like any other.

Ends of an episode: ``terminated=True`` when the game ends, including a game
cut by the table's own cap (``max_moves``, Digger's ``max_turns``), which is
adjudicated (the side ahead wins) and paid as its outcome, with
``info["adjudicated"] = True``. ``truncated=True`` only comes from the step
cap that the registered ids put on each table (:func:`step_cap`, under
Gymnasium's ``TimeLimit``; ``gym.make(..., max_episode_steps=N)`` lowers it),
and pays nothing extra, so trainers that bootstrap on truncation never count
an outcome twice.

Digger: every decision (the agent's and the bots') is stamped by the
simulated clock ``time_model`` (default ``TimeModel(jitter=0.2)``, the arena's)
when the environment applies it. The agent only ever decides as the digger,
and the digger's observation holds no time: the agent has to judge the
hourglass from the rolls and tokens it has seen, as at the table.

Registered ids: ``goldfields/Digging-v0`` (2 players, a full game),
``goldfields/DiggingHand-v0`` (2 players, one hand), ``goldfields/Digger-v0``
(3 players). ``gym.make_vec(id, num_envs=N)`` builds their batched form,
:class:`goldfields.research.vector_env.GoldfieldsVectorEnv` (its vector entry
point); ``vectorization_mode="sync"`` gives Gymnasium's ``SyncVectorEnv`` instead.
"""

from __future__ import annotations

import json
import operator
import random
from collections.abc import Sequence
from typing import Any, ClassVar

from ._deps import require

gymnasium: Any = require("gymnasium", "goldfields.research.gymnasium_env")
np = require("numpy", "goldfields.research.gymnasium_env")

from gymnasium import spaces  # noqa: E402
from gymnasium.wrappers import TimeLimit  # noqa: E402

from ..bots import make_bot  # noqa: E402
from ..bots.base import Bot  # noqa: E402
from ..bots.registry import bot_for_game  # noqa: E402
from ..core.game import RuleError  # noqa: E402
from ..seeding import sealed_rng  # noqa: E402
from .encoding import action_mask, as_action, encoding_for  # noqa: E402
from .tables import DIGGER, DIGGING, Match, Spec, make_env_spec, refusal  # noqa: E402


class GoldfieldsEnv(gymnasium.Env):
    """One seat of any registered goldfields game (``game`` names it).

    The table's arguments go to the game's research spec: Digging takes
    ``players``, ``partnership``, ``single_hand``, ``max_moves``, ``options``;
    Digger ``players``, ``crates``, ``max_turns``, ``options``, ``time_model``
    (default: the simulated clock with the arena's 20% jitter); any other game
    ``players``, ``max_moves`` and its definition's parameters."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        game: str = DIGGING,
        players: int | None = None,
        seat: int | str = 0,
        opponents: str | Sequence[str] | Bot | Sequence[Bot] = "random",
        illegal_action: str = "penalize",
        illegal_penalty: float = -1.0,
        render_mode: str | None = None,
        **table: Any,
    ) -> None:
        super().__init__()
        if players is not None:
            table["players"] = players
        spec: Spec = make_env_spec(game, **table)
        if illegal_action not in ("penalize", "raise"):
            raise ValueError("illegal_action is 'penalize' or 'raise'")
        n = spec.players
        index = 0
        if seat != "random":
            # A numpy integer is a seat as 1 is; True is not, though Python counts it as 1.
            try:
                index = -1 if isinstance(seat, bool) else operator.index(seat)  # type: ignore[arg-type]
            except TypeError:
                index = -1
            if not 0 <= index < n:
                raise ValueError(f"seat must be 0..{n - 1} or 'random', not {seat!r}")
        others = [opponents] * (n - 1) if isinstance(opponents, (str, Bot)) else list(opponents)
        if len(others) != n - 1:
            raise ValueError(f"give one opponent spec per other seat: {n - 1}, not {len(others)}")
        self.table = spec
        self.game = game
        self.seat_choice: int | str = "random" if seat == "random" else index
        self.opponent_specs = others
        self._bots = [bot_for_game(s, game) if isinstance(s, Bot) else make_bot(str(s), game) for s in others]
        self.illegal_action = illegal_action
        self.illegal_penalty = float(illegal_penalty)
        self.render_mode = render_mode
        self.encoding = encoding_for(game)  # looked up once: each step encodes with it
        self.observation_space = spaces.Box(0.0, 1.0, (self.encoding.size,), np.float32)
        self.action_space = spaces.Discrete(spec.num_actions)
        self._rng = random.Random()
        self._bot_rng = random.Random()
        self._match: Match | None = None
        self._ended_illegally = False
        self.seat = index
        """The agent's seat in this episode (drawn at each reset with ``seat="random"``)."""

    # -- helpers ---------------------------------------------------------
    @property
    def match(self) -> Match:
        if self._match is None:
            raise RuntimeError("call reset() first")
        return self._match

    def _bot_for(self, seat: int) -> Any:
        if self.seat_choice == "random":
            # Counted from the agent's left, wherever it sits: a partner stays the partner.
            return self._bots[(seat - self.seat) % self.table.players - 1]
        return self._bots[seat if seat < self.seat else seat - 1]

    def _play_others(self) -> None:
        match = self.match
        while not match.over and match.current_player != self.seat:
            seat = match.current_player
            action = self._bot_for(seat).act(match.state.view(seat), self._bot_rng)
            match.apply(action)

    def _obs(self) -> Any:
        return self.encoding.encode_state(self.match.state, self.seat, over=self.match.over)

    def _legal(self) -> list[int]:
        match = self.match
        # After an illegal action the game is still mid-play, but the episode is over: no action is legal.
        return [] if match.over or self._ended_illegally else list(match.state.legal_actions())

    def _why_illegal(self, action: int) -> str:
        """The engine's refusal of ``action`` here, which names the rule it breaks. Asked of a
        copy of the game, so that the game is left as it was."""
        return str(refusal(self.match.state, action))

    def _info(self, **extra: Any) -> dict[str, Any]:
        info = {"action_mask": action_mask(self._legal(), self.table.num_actions), "seat": self.seat}
        info.update(extra)
        return info

    def action_masks(self) -> Any:
        """The legal actions as a bool vector (sb3-contrib's ``MaskablePPO`` reads this)."""
        return action_mask(self._legal(), self.table.num_actions).astype(bool)

    # -- Gymnasium API ----------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
            self._bot_rng = sealed_rng(f"{seed}/bots")  # the opponents must not read the seed back
        if self.seat_choice == "random":
            self.seat = self._rng.randrange(self.table.players)
        self._match = Match(self.table, self._rng)
        self._ended_illegally = False
        self._play_others()
        if self._match.over:
            # Only a cap this short ends a game before the agent's first move. An episode with no
            # step to take would fail at its first step(), and in a vector env, the whole batch's.
            cap = ", ".join(f"{name}={getattr(self.table, name)}" for name in ("max_moves", "max_turns")
                            if getattr(self.table, name, 0))  # fmt: skip
            raise ValueError(f"the table's cap ({cap}) ends the game before seat {self.seat} has a move: raise it")
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        reward, terminated, extra = self._act(action)
        return self._obs(), reward, terminated, False, self._info(**extra)

    def _check(self, action: Any) -> int:
        """``action`` as an int, raising now whatever :meth:`_act` would raise for it (the
        episode is over; an illegal action under ``illegal_action="raise"``): a batch checks
        every game's action before any game moves."""
        match = self.match
        if match.over or self._ended_illegally:
            raise RuntimeError("the episode is over: call reset()")
        action = as_action(action, self.table.num_actions)
        if self.illegal_action == "raise" and action not in match.state.legal_actions():
            legal = list(match.state.legal_actions())
            raise ValueError(f"illegal action {action}: {self._why_illegal(action)}; legal are {legal}")
        return action

    def _act(self, action: Any) -> tuple[float, bool, dict[str, Any]]:
        """The agent's move and the bots' replies: (reward, terminated, extra info)."""
        match = self.match
        action = self._check(action)
        if action not in match.state.legal_actions():
            # The episode ends here with the penalty: an agent that keeps choosing illegal
            # actions must not spin for ever, nor pile up penalties in one episode.
            self._ended_illegally = True
            return self.illegal_penalty, True, {"illegal_action": True}
        try:
            match.apply(action)
        except RuleError as err:  # pragma: no cover - legal_actions() said yes
            raise ValueError(str(err)) from None
        self._play_others()
        reward = 0.0
        terminated = False
        extra: dict[str, Any] = {}
        if match.over:
            # A game cut by the table's cap is adjudicated (the side ahead wins): that result is
            # its outcome, so the episode *terminates* with it. Reporting it as truncated would
            # make trainers bootstrap V(s') on top of an outcome already paid. Plain truncation
            # (the registered step cap, Gymnasium's TimeLimit) pays nothing extra.
            reward = float(match.returns()[self.seat])
            terminated = True
            extra["adjudicated"] = match.truncated
        return reward, terminated, extra

    def _fill(self, obs: Any, mask: Any) -> None:
        """Write the observation and the legal-action mask into rows of a batch (the vector env's)."""
        match = self.match
        self.encoding.encode_state(match.state, self.seat, out=obs, over=match.over)
        mask.fill(0)
        if not (match.over or self._ended_illegally):
            mask[match.state.legal_actions()] = 1

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        obs = self.match.state.observation(self.seat)
        obs.pop("legal", None)
        return json.dumps(obs, separators=(",", ":"))


STEP_CAP_UNBOUNDED = 5000
"""The step cap of a registered id whose game has no bound of its own (the OpenSpiel game's, too)."""


def step_cap(table: Spec) -> int:
    """The step cap for games of ``table``: no episode can take more agent steps than the table
    has decisions, and a game with no bound of its own gets :data:`STEP_CAP_UNBOUNDED`."""
    try:
        return int(table.max_game_length())
    except ValueError:  # a full game of Digging has no bound of its own (a tie deals again)
        return STEP_CAP_UNBOUNDED


def make_capped(**kwargs: Any) -> gymnasium.Env[Any, Any]:
    """The registered ids' entry point: :class:`GoldfieldsEnv` under a ``TimeLimit`` at its own
    table's :func:`step_cap`. A cap fixed in the registry would be the default table's, and a
    ``gym.make`` of another table (four players, a longer ``max_moves``) would cut its games there."""
    env = GoldfieldsEnv(**kwargs)
    return TimeLimit(env, max_episode_steps=step_cap(env.table))


def _register() -> None:
    ids = {
        "goldfields/Digging-v0": {"game": DIGGING, "players": 2},
        "goldfields/DiggingHand-v0": {"game": DIGGING, "players": 2, "single_hand": True},
        "goldfields/Digger-v0": {"game": DIGGER, "players": 3},
    }
    for env_id, kwargs in ids.items():
        if env_id not in gymnasium.registry:
            # No max_episode_steps here: the entry point caps each table at its own (make_capped),
            # and the vector entry point does the same for a batch.
            gymnasium.register(id=env_id, entry_point="goldfields.research.gymnasium_env:make_capped", kwargs=kwargs,
                               vector_entry_point="goldfields.research.vector_env:GoldfieldsVectorEnv")


_register()

__all__ = ["GoldfieldsEnv", "as_action", "make_capped", "step_cap"]
