"""Which code played a run: a digest of the files that decide its games, kept in its manifest.

A run can be stopped and resumed days later, after the rules, the bots or a
network have changed. Its parameters still match, so ``--resume`` goes on, but
its games would then come from two programs. The manifest keeps the digest of
each version that played games into the run, so the mix is said when it is
made and seen afterwards.

The digest covers what can change a game of the run's game and nothing else: the
shared engine core, the driver, the clocks, the bots with their networks, the
arena's own seeding and table choices, and the game's own package (a plug-in
game: its top-level package). Another game's code, or a plug-in registered in
one session and not the next, does not count.
"""

from __future__ import annotations

import hashlib
import re
import sys
from functools import cache
from pathlib import Path
from typing import Any

from .. import __version__
from ..core import registry

PACKAGE = Path(__file__).resolve().parent.parent
"""The installed ``goldfields`` package."""

SHARED = ("core", "bots", "play", "clocks.py", "research/encoding.py", "arena/games.py", "arena/schedule.py",
          "arena/worker.py")  # fmt: skip
"""What beside the game's own package can change its moves: bots/models holds the shipped networks,
and research/encoding.py the observation they read; the arena's files choose the seeds, the clock's
jitter and the step guard. A network the lineup names by its path counts as well (:func:`code_version`)."""

UNKNOWN = {"goldfields": "unknown", "code": "unknown"}
"""Stands for the version of games played before manifests recorded it."""


def _files(root: Path) -> list[Path]:
    if root.is_file():
        return [root]
    return sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc")


def _game_root(game: str) -> Path:
    """The package (or single module) that holds ``game``'s definition."""
    top = type(registry.get(game)).__module__.split(".")
    if top[0] == "goldfields":
        return PACKAGE / top[1] if len(top) > 2 else PACKAGE / f"{top[1]}.py"
    module = sys.modules.get(top[0])
    path = Path(getattr(module, "__file__", "") or "")
    return path.parent if path.name == "__init__.py" else path


def code_version(game: str, lineup: tuple[str, ...] = (), also: tuple[str, ...] = ()) -> dict[str, str]:
    """The package version and a digest of the files that decide ``game``'s games (names and
    contents), with the network files that the bot specs of ``lineup`` name by path.

    The code is read once a process (the modules it loaded are what plays); the network files
    each time, as the bots read a network again once its file changes (``bots.net.load_net``)."""
    digest = _code_digest(game).copy()
    for part in also:  # more of the package: the training code, for a network it fits
        _add(digest, part, PACKAGE / part)
    for name in _network_paths(lineup):
        _add(digest, name, Path(name))
    return {"goldfields": __version__, "code": digest.hexdigest()[:12]}


@cache
def _code_digest(game: str) -> Any:
    digest = hashlib.sha256()
    for label, root in [(part, PACKAGE / part) for part in SHARED] + [(game, _game_root(game))]:
        _add(digest, label, root)
    return digest


def _add(digest: Any, label: str, root: Path) -> None:
    for path in _files(root):
        name = f"{label}/{path.relative_to(root)}" if root.is_dir() else label
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")


def _network_paths(lineup: tuple[str, ...]) -> list[str]:
    """The network files (``.npz`` and the ``.json`` beside it) that bot specs name by path
    (``net:net=runs/round-05.npz``): retraining one changes the games as a code change would."""
    found: list[str] = []
    for spec in lineup:
        for word in re.split(r"[:,=]", spec):
            if word.endswith(".npz") and Path(word).is_file():
                found += [word, *([meta] if Path(meta := word[:-4] + ".json").is_file() else [])]
    return sorted(set(found))


def versions_of(manifest: dict[str, Any]) -> list[dict[str, str]]:
    """The versions that have played games into a saved run, oldest first (:data:`UNKNOWN` for
    games played before manifests kept them; empty for a run with no games yet)."""
    made = manifest.get("made_with")
    return [v for v in made if isinstance(v, dict)] if isinstance(made, list) else []


def played_by(manifest: dict[str, Any], played: int) -> list[dict[str, str]]:
    """The versions of the ``played`` games of a saved run: :data:`UNKNOWN` for a run saved before
    manifests kept them."""
    return versions_of(manifest) or ([UNKNOWN] if played else [])


def with_this_version(made: list[dict[str, str]], game: str, lineup: tuple[str, ...] = ()) -> list[dict[str, str]]:
    """``made`` once this version has played a game of ``game`` (by ``lineup``) into the run."""
    now = code_version(game, lineup)
    return made if made[-1:] == [now] else [*made, now]


def version_label(version: dict[str, str]) -> str:
    """A version as the notes name it."""
    if version == UNKNOWN:
        return "a version that did not record itself"
    return f"goldfields {version.get('goldfields')} (code {version.get('code')})"


def change_note(saved: dict[str, Any], played: int) -> str | None:
    """What to tell someone resuming ``saved`` (with ``played`` games) with this code, or None when
    nothing differs."""
    if not played:
        return None
    before, now = played_by(saved, played), code_version(saved["game"], tuple(saved.get("lineup", ())))
    last = before[-1]
    if last == now:
        return None
    # A run resumed before may already mix versions: name them all, so the count is the run's.
    programs = len({tuple(sorted(v.items())) for v in [*before, now]})
    mix = "two programs" if programs == 2 else f"{programs} programs"
    named = ", ".join(version_label(v) for v in before)
    if len(before) > 1:
        named = f"{len(before)} versions: {named}"
    if before == [UNKNOWN]:
        return (f"the games played so far came from {named}; if the rules, bots or networks changed since, "
                f"the run will mix {mix}")  # fmt: skip
    return (f"the games played so far came from {named}; this is {now['goldfields']} (code {now['code']}): "
            f"the rules, bots or networks changed, so the run will mix {mix}")
