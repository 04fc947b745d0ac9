"""Writing a file so that no reader ever sees half of it.

A record, a run's report or a network may be read while it is written (a replay
opened, an arena resumed, a bot loading the network a training run just saved).
Each is written to a temporary file beside it and renamed over it: a rename is
atomic, so a reader finds the old file or the new one, never a mix.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def _umask() -> int:
    # Read once, at import: os.umask can only be read by setting it, which is not thread-safe later.
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


_MODE = 0o666 & ~_umask()


def write_atomic(path: Path, text: str | bytes) -> None:
    """Write ``text`` (or bytes) to ``path`` by renaming a finished temporary file over it.

    The temporary file has a name of its own (``.<name>.<random>``), so that no file of the
    user's (``game.json.tmp``) is overwritten and two writers of one path do not collide. It is
    flushed to disk before the rename: after a crash, ``path`` holds the old file or the new one.
    """
    data = text if isinstance(text, bytes) else text.encode("utf-8")
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    tmp = Path(name)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        # mkstemp makes the file readable by its owner alone; a record is as readable as any file made here.
        os.chmod(tmp, _MODE)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


__all__ = ["write_atomic"]
