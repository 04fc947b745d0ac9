"""N games stepped as one batch, with Gymnasium's ``VectorEnv`` API and action masks.

::

    from goldfields.research.vector_env import GoldfieldsVectorEnv

    envs = GoldfieldsVectorEnv(16, "digging", players=2, single_hand=True, opponents="heuristic")
    obs, infos = envs.reset(seed=0)                       # obs: (16, 391) float32
    while True:
        masks = envs.action_masks()                       # (16, 207) bool
        # A finished game's row is all False: its action is ignored (it restarts on this step).
        actions = [envs.np_random.choice(m.nonzero()[0]) if m.any() else 0 for m in masks]
        obs, rewards, terminations, truncations, infos = envs.step(actions)

Each of the ``num_envs`` games is a :class:`~goldfields.research.gymnasium_env.GoldfieldsEnv`
(one seat, the other seats played by bots; every keyword argument goes to it),
so a game in the batch behaves exactly as the single environment: same
rewards, same ends, same seeding. What the batch adds is the batch: the
observations are encoded straight into one ``(num_envs, size)`` float32 array
and the masks into one ``(num_envs, num_actions)`` array, without the
per-environment copies, info dictionaries and wrappers of
``gymnasium.vector.SyncVectorEnv`` over ``gym.make``. That saves little time:
a game step costs far more (docs/research.md measures 0.9 to 1.1 times the
rate of ``gym.make_vec(id, vectorization_mode="sync")``).

- **Spaces.** ``single_observation_space`` is ``Box(0, 1, (size,), float32)``,
  ``single_action_space`` ``Discrete(num_actions)``; ``observation_space`` and
  ``action_space`` are their batches (``Box`` of shape ``(num_envs, size)``,
  ``MultiDiscrete``).
- **Masks.** ``infos["action_mask"]`` is ``(num_envs, num_actions)`` int8 (with
  ``infos["_action_mask"]`` all True, Gymnasium's convention for vector infos),
  and :meth:`action_masks` gives the same as bool (sb3-contrib's convention).
  After a game ends its row is all 0 until the reset (next-step autoreset), as Gymnasium's
  ``SyncVectorEnv`` over the single environment gives. The next step ignores the action for
  that game, but a policy that masks with ``-inf`` turns an all-0 row into NaN: mask with a
  large negative number instead (sb3-contrib's -1e8), or skip the finished rows.
- **Autoreset** (``autoreset_mode=``: an ``AutoresetMode``, its name ``"NEXT_STEP"``
  or its value ``"NextStep"``; reported in ``metadata["autoreset_mode"]``), as in Gymnasium 1.x:
  ``NEXT_STEP`` (the default) resets a finished game on the *next* ``step``,
  whose action for it is ignored and which returns the first observation of
  the new game with reward 0, ``terminated=False`` and ``truncated=False``.
  ``SAME_STEP`` resets it within the step that ended it: the step returns the
  new game's first observation, and the last one of the old game is in
  ``infos["final_obs"]`` (with ``infos["final_info"]``, masked by ``"_final_obs"``).
  ``DISABLED`` never resets: call ``reset(options={"reset_mask": mask})``.
- **Step cap.** ``max_episode_steps`` (default: the table's own, as ``gym.make`` gives
  it, e.g. 86 for one 2-player hand) truncates a game, paying nothing,
  exactly as Gymnasium's ``TimeLimit`` does on the single environment.
- **Mixed tables.** ``per_env`` gives each game keyword arguments of its own on
  top of the shared ones, e.g. half the games against ``random`` and half
  against ``heuristic``: ``per_env=[{"opponents": "random"}, {"opponents": "heuristic"}] * 8``.
  Every game must keep the same spaces.
- **Seeding.** ``reset(seed=s)`` seeds game ``i`` with ``s + i`` (a list seeds
  each); a game reset automatically draws on from its own generator, so a run
  is a function of the first seed.

Infos also carry ``"adjudicated"`` and ``"illegal_action"`` (bool per game,
each with its ``_`` mask) on the step that ends a game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ._deps import require

gymnasium: Any = require("gymnasium", "goldfields.research.vector_env")
np = require("numpy", "goldfields.research.vector_env")

from gymnasium import spaces  # noqa: E402
from gymnasium.vector import AutoresetMode, VectorEnv  # noqa: E402
from gymnasium.vector.utils import batch_space  # noqa: E402

from .gymnasium_env import GoldfieldsEnv, step_cap  # noqa: E402
from .tables import DIGGING  # noqa: E402


def autoreset_mode_of(mode: AutoresetMode | str) -> AutoresetMode:
    """``mode`` as an ``AutoresetMode``: the enum itself, its member's name (``"NEXT_STEP"``,
    as the docs write it) or Gymnasium's value (``"NextStep"``, what ``make_vec`` passes on)."""
    if isinstance(mode, AutoresetMode):
        return mode
    if isinstance(mode, str):
        if mode in AutoresetMode.__members__:
            return AutoresetMode[mode]
        try:
            return AutoresetMode(mode)
        except ValueError:
            pass
    known = ", ".join(f"{m.name} ({m.value!r})" for m in AutoresetMode)
    raise ValueError(f"autoreset_mode {mode!r} is none of Gymnasium's autoreset modes: {known}")


class GoldfieldsVectorEnv(VectorEnv):
    """``num_envs`` games of one table, each a ``GoldfieldsEnv(game, **kwargs)``, stepped as a batch."""

    def __init__(
        self,
        num_envs: int,
        game: str = DIGGING,
        *,
        max_episode_steps: int | None = None,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        per_env: Sequence[Mapping[str, Any]] | None = None,
        **kwargs: Any,
    ) -> None:
        if num_envs < 1:
            raise ValueError("num_envs must be at least 1")
        if per_env is not None and len(per_env) != num_envs:
            raise ValueError(f"per_env needs one dict per game: {num_envs}, not {len(per_env)}")
        self.envs = [GoldfieldsEnv(game, **{**kwargs, **(per_env[i] if per_env else {})}) for i in range(num_envs)]
        first = self.envs[0]
        for env in self.envs[1:]:
            if env.observation_space != first.observation_space or env.action_space != first.action_space:
                raise ValueError("every game of a batch must have the same observation and action spaces")
        self.num_envs = num_envs
        self.game = game
        self.metadata = {"autoreset_mode": autoreset_mode_of(autoreset_mode), "render_modes": []}
        self.autoreset_mode = self.metadata["autoreset_mode"]
        self.render_mode = None
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        assert isinstance(self.single_action_space, spaces.Discrete)
        self.num_actions = int(self.single_action_space.n)
        self.max_episode_steps = step_cap(first.table) if max_episode_steps is None else int(max_episode_steps)
        size = first.encoding.size
        self._obs = np.zeros((num_envs, size), np.float32)
        self._masks = np.zeros((num_envs, self.num_actions), np.int8)
        self._rewards = np.zeros(num_envs, np.float64)
        self._terminations = np.zeros(num_envs, np.bool_)
        self._truncations = np.zeros(num_envs, np.bool_)
        self._steps = np.zeros(num_envs, np.int64)
        self._needs_reset = np.zeros(num_envs, np.bool_)
        self._started = False

    # -- helpers ---------------------------------------------------------
    def _reset_one(self, i: int, seed: int | None) -> None:
        env = self.envs[i]
        env.reset(seed=seed)
        env._fill(self._obs[i], self._masks[i])
        self._steps[i] = 0
        self._needs_reset[i] = False

    def _infos(self, ended: Any = None, adjudicated: Any = None, illegal: Any = None) -> dict[str, Any]:
        every = np.ones(self.num_envs, np.bool_)
        infos: dict[str, Any] = {"action_mask": self._masks.copy(), "_action_mask": every}
        if ended is not None:  # said for the games that ended in this step
            infos["adjudicated"], infos["_adjudicated"] = adjudicated, ended
            infos["illegal_action"], infos["_illegal_action"] = illegal, ended
        return infos

    def action_masks(self) -> Any:
        """The legal actions of every game, ``(num_envs, num_actions)`` bool (sb3-contrib reads this)."""
        return self._masks.astype(np.bool_)

    # -- VectorEnv API ----------------------------------------------------
    def reset(
        self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(self.num_envs)]
            self._np_random, self._np_random_seed = gymnasium.utils.seeding.np_random(seed)
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"give one seed per game: {self.num_envs}, not {len(seeds)}")
        which = np.ones(self.num_envs, np.bool_)
        if options and "reset_mask" in options:
            which = np.asarray(options["reset_mask"], np.bool_)
            if which.shape != (self.num_envs,):
                raise ValueError("reset_mask must be a bool array of shape (num_envs,)")
        for i in np.flatnonzero(which):
            self._reset_one(int(i), seeds[i])
        self._started = True
        return self._obs.copy(), self._infos()

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        if not self._started:
            raise RuntimeError("call reset() first")
        actions = np.asarray(actions)
        if actions.size != self.num_envs:
            raise ValueError(f"step takes one action per game: {self.num_envs} of them, not {actions.size} "
                             f"(an array of shape {actions.shape})")
        actions = actions.reshape(self.num_envs)
        # Everything that could stop the step is checked before any game moves: an error half-way
        # through would leave the batch half stepped, the moves made so far and their rewards lost.
        if self.autoreset_mode == AutoresetMode.DISABLED and self._needs_reset.any():
            over = [str(i) for i in np.flatnonzero(self._needs_reset)]
            which = f"game {over[0]} is" if len(over) == 1 else f"games {', '.join(over)} are"
            raise RuntimeError(f"{which} over: reset {'it' if len(over) == 1 else 'them'} (autoreset is disabled); "
                               "no game moved")  # fmt: skip
        checked: list[int | None] = []
        for i, env in enumerate(self.envs):
            try:
                checked.append(None if self._needs_reset[i] else env._check(actions[i]))
            except (TypeError, ValueError) as err:
                if type(err) in (TypeError, ValueError):
                    raise type(err)(f"game {i}: {err}; no game moved") from None
                # A subclass may need other arguments, or carry attributes (a RuleError's rule):
                # raised as it is, with a note saying which game.
                err.add_note(f"game {i}; no game moved")
                raise
        actions = checked
        rewards, terminations, truncations = self._rewards, self._terminations, self._truncations
        rewards.fill(0.0)
        terminations.fill(False)
        truncations.fill(False)
        adjudicated = np.zeros(self.num_envs, np.bool_)
        illegal = np.zeros(self.num_envs, np.bool_)
        same_step = self.autoreset_mode == AutoresetMode.SAME_STEP
        final_obs: Any = None
        final_info: Any = None
        ended = np.zeros(self.num_envs, np.bool_)
        for i, env in enumerate(self.envs):
            if self._needs_reset[i]:
                self._reset_one(i, None)  # NEXT_STEP: this step only starts the new game
                continue
            reward, terminated, extra = env._act(actions[i])
            self._steps[i] += 1
            rewards[i] = reward
            terminations[i] = terminated
            truncations[i] = self._steps[i] >= self.max_episode_steps  # as TimeLimit: even on the last step
            env._fill(self._obs[i], self._masks[i])
            if terminated or truncations[i]:
                ended[i] = True
                adjudicated[i] = bool(extra.get("adjudicated", False))
                illegal[i] = bool(extra.get("illegal_action", False))
                if same_step:
                    if final_obs is None:
                        final_obs = np.full(self.num_envs, None, dtype=object)
                        final_info = np.full(self.num_envs, None, dtype=object)
                    final_obs[i] = self._obs[i].copy()
                    final_info[i] = {**extra, "action_mask": self._masks[i].copy()}
                    self._reset_one(i, None)
                else:
                    self._needs_reset[i] = True
        infos = self._infos(ended, adjudicated, illegal) if ended.any() else self._infos()
        if final_obs is not None:
            infos["final_obs"], infos["_final_obs"] = final_obs, ended
            infos["final_info"], infos["_final_info"] = final_info, ended
        return self._obs.copy(), rewards.copy(), terminations.copy(), truncations.copy(), infos

    def close_extras(self, **kwargs: Any) -> None:
        for env in self.envs:
            env.close()

    def __repr__(self) -> str:
        return f"GoldfieldsVectorEnv({self.game}, num_envs={self.num_envs})"


__all__ = ["GoldfieldsVectorEnv", "autoreset_mode_of"]
