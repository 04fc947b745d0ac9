"""The vector environment as a Stable-Baselines3 ``VecEnv``, for sb3-contrib's ``MaskablePPO``.

::

    from sb3_contrib import MaskablePPO
    from goldfields.research.sb3 import SB3VecEnv
    from goldfields.research.vector_env import GoldfieldsVectorEnv

    venv = SB3VecEnv(GoldfieldsVectorEnv(16, "digging", players=2, single_hand=True))
    model = MaskablePPO("MlpPolicy", venv, n_steps=256).learn(100_000)

SB3 expects its own conventions, which differ from Gymnasium's vector API: a
finished game is reset within the step that ended it (Gymnasium's
``SAME_STEP`` autoreset), its last observation is in
``infos[i]["terminal_observation"]``, ``infos[i]["TimeLimit.truncated"]`` tells a
truncation (on which SB3 bootstraps) from a termination, ``dones`` is
``terminated | truncated``, and infos are one dict per game. ``MaskablePPO``
reads the masks through ``env_method("action_masks")``, answered from the
batch's mask array. Needs ``stable-baselines3`` (``pip install 'goldfields[train]'``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ._deps import require

np = require("numpy", "goldfields.research.sb3")
require("stable_baselines3", "goldfields.research.sb3")

from gymnasium.vector import AutoresetMode  # noqa: E402
from stable_baselines3.common.vec_env import VecEnv  # noqa: E402

from .vector_env import GoldfieldsVectorEnv  # noqa: E402


class SB3VecEnv(VecEnv):
    """A :class:`GoldfieldsVectorEnv` seen through SB3's ``VecEnv`` (switched to same-step autoreset)."""

    def __init__(self, envs: GoldfieldsVectorEnv) -> None:
        envs.autoreset_mode = envs.metadata["autoreset_mode"] = AutoresetMode.SAME_STEP
        self.envs = envs
        super().__init__(envs.num_envs, envs.single_observation_space, envs.single_action_space)
        self._actions: Any = None
        self._seed: int | None = None

    def reset(self) -> Any:
        seed, self._seed = self._seed, None
        obs, _ = self.envs.reset(seed=seed)
        return obs

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        self._seed = seed
        return [None if seed is None else seed + i for i in range(self.num_envs)]

    def step_async(self, actions: Any) -> None:
        self._actions = actions

    def step_wait(self) -> tuple[Any, Any, Any, list[dict[str, Any]]]:
        obs, rewards, terminated, truncated, infos = self.envs.step(self._actions)
        dones = terminated | truncated
        out: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            out[i]["terminal_observation"] = infos["final_obs"][i]
            out[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
            out[i].update({k: v for k, v in infos["final_info"][i].items() if k != "action_mask"})
        return obs, rewards.astype(np.float32), dones, out

    def close(self) -> None:
        self.envs.close()

    def _indices(self, indices: Any) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    def has_attr(self, attr_name: str) -> bool:
        return attr_name == "action_masks" or hasattr(self.envs.envs[0], attr_name)

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        return [getattr(self.envs.envs[i], attr_name) for i in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        for i in self._indices(indices):
            setattr(self.envs.envs[i], attr_name, value)

    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any) -> list[Any]:
        if method_name == "action_masks":  # from the batch's array, not game by game
            masks = self.envs.action_masks()
            return [masks[i] for i in self._indices(indices)]
        return [getattr(self.envs.envs[i], method_name)(*args, **kwargs) for i in self._indices(indices)]

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False] * len(self._indices(indices))


__all__ = ["SB3VecEnv"]
