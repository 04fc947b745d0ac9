"""Which code played a run: a digest of the packages that decide its games, kept in its manifest.

A run can be stopped and resumed days later, after the rules, the bots or a
network have changed. Its parameters still match, so ``--resume`` goes on, but
its games would then come from two programs. The manifest keeps the digest of
each version that played into the run, so the mix is said when it is made and
seen afterwards.
"""

from __future__ import annotations

import hashlib
import sys
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from .. import __version__
from ..core import registry

SHARED = ("core", "bots", "play", "clocks.py")
"""The modules beside the games' own packages whose code or data can change a game's moves
(bots/models holds the networks)."""


def deciding() -> list[str]:
    """What decides games, under the package: :data:`SHARED` and each registered game's own package."""
    modules = [type(registry.get(name)).__module__.split(".") for name in registry.names()]
    return [*SHARED, *sorted({m[1] for m in modules if m[0] == "goldfields" and len(m) > 2})]


def _plugins() -> list[tuple[str, Traversable]]:
    """The module files of games registered from outside the package (a plug-in's definition)."""
    out: list[tuple[str, Traversable]] = []
    for name in registry.names():
        module = sys.modules.get(type(registry.get(name)).__module__)
        path = getattr(module, "__file__", None)
        if module is not None and not module.__name__.startswith("goldfields.") and path:
            out.append((module.__name__, Path(path)))
    return out


@cache
def code_version() -> dict[str, str]:
    """The package version and a digest of the files that decide games (names and contents)."""
    digest = hashlib.sha256()
    root = resources.files("goldfields")
    entries: list[tuple[str, Traversable]] = []
    for part in deciding():
        entries += _files(root / part, part) if (root / part).is_dir() else [(part, root / part)]
    for name, entry in sorted(entries, key=lambda e: e[0]) + sorted(_plugins(), key=lambda e: e[0]):
        digest.update(name.encode() + b"\0" + entry.read_bytes() + b"\0")
    return {"goldfields": __version__, "code": digest.hexdigest()[:12]}


def _files(folder: Traversable, prefix: str) -> list[tuple[str, Traversable]]:
    out: list[tuple[str, Traversable]] = []
    for entry in folder.iterdir():
        name = f"{prefix}/{entry.name}"
        if entry.is_dir():
            if entry.name != "__pycache__":
                out.extend(_files(entry, name))
        elif not entry.name.endswith((".pyc", ".pyo")):
            out.append((name, entry))
    return out


def versions_of(manifest: dict[str, Any]) -> list[dict[str, str]]:
    """The versions that have played into a saved run, oldest first (empty for a run saved before
    manifests kept them)."""
    made = manifest.get("made_with")
    return [v for v in made if isinstance(v, dict)] if isinstance(made, list) else []


def with_this_version(manifest: dict[str, Any]) -> list[dict[str, str]]:
    """The run's versions with this one added, if it is not the last already."""
    made = versions_of(manifest)
    return made if made and made[-1] == code_version() else [*made, code_version()]


def change_note(saved: dict[str, Any]) -> str | None:
    """What to tell someone resuming ``saved`` with this code, or None when it is the same code."""
    made = versions_of(saved)
    if not made:
        return ("the games played so far were played by a version that did not record itself; if the "
                "rules, bots or networks changed since, the run will mix two programs")  # fmt: skip
    last = made[-1]
    if last == code_version():
        return None
    return (f"the games played so far came from goldfields {last.get('goldfields')} (code {last.get('code')}); "
            f"this is {code_version()['goldfields']} (code {code_version()['code']}): the rules, bots or networks "
            f"changed, so the run will mix two programs")
