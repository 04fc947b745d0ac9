"""Writing a file so that no reader ever sees half of it.

A record, a run's report or a network may be read while it is written (a replay
opened, an arena resumed, a bot loading the network a training run just saved).
Each is written to a temporary file beside it and renamed over it: a rename is
atomic, so a reader finds the old file or the new one, never a mix.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

_NAME_KEPT = 64
"""Characters of the target's name kept in the temporary file's: a name near the system's limit
(255 bytes) must still leave room for the rest."""


def write_atomic(path: Path, text: str | bytes) -> None:
    """Write ``text`` (or bytes) to ``path`` by renaming a finished temporary file over it.

    The temporary file has a name of its own (``.<name>.<random>.part``), so that no file of the
    user's (``game.json.tmp``) is overwritten and two writers of one path do not collide. It is
    flushed to disk before the rename: after a crash, ``path`` holds the old file or the new one.
    A file replaced keeps its permissions; a new one gets those any file made here gets. A symbolic
    link is followed: the file it points to is replaced, and the link stays.
    """
    data = text if isinstance(text, bytes) else text.encode("utf-8")
    target = Path(os.path.realpath(path))
    try:
        mode: int | None = target.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = None
    while True:
        tmp = target.with_name(f".{target.name[:_NAME_KEPT]}.{secrets.token_hex(4)}.part")
        try:
            # 0o666 less the umask, as open() makes any file: no umask to read and set back.
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666 if mode is None else mode)
            break
        except FileExistsError:
            continue
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if mode is not None:
            os.chmod(tmp, mode)  # the umask may have taken bits the file had
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


__all__ = ["write_atomic"]
