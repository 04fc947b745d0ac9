"""Optional dependencies: a clear message when one is missing."""

from __future__ import annotations

import importlib
from types import ModuleType

_PIP_NAMES = {
    "numpy": "numpy",
    "pyspiel": "open-spiel",
    "pettingzoo": "pettingzoo",
    "gymnasium": "gymnasium",
    "matplotlib": "matplotlib",
    "stable_baselines3": "stable-baselines3",
    "sb3_contrib": "sb3-contrib",
}


def require(module: str, feature: str) -> ModuleType:
    """Import ``module`` or raise an ImportError telling what to pip install."""
    try:
        return importlib.import_module(module)
    except ImportError as err:
        top = module.split(".")[0]
        pip = _PIP_NAMES.get(top, top)
        raise ImportError(f"{feature} needs the '{pip}' package, which is not installed: pip install {pip}") from err
