"""Writing a file so that no reader ever sees half of it.

A record, a run's report or a network may be read while it is written (a replay
opened, an arena resumed, a bot loading the network a training run just saved).
Each is written to a temporary file beside it and renamed over it: a rename is
atomic, so a reader finds the old file or the new one, never a mix.
"""

from __future__ import annotations

import os
from pathlib import Path


def write_atomic(path: Path, text: str | bytes) -> None:
    """Write ``text`` (or bytes) to ``path`` by renaming a finished temporary file over it."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        if isinstance(text, bytes):
            tmp.write_bytes(text)
        else:
            with tmp.open("w", newline="", encoding="utf-8") as f:
                f.write(text)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


__all__ = ["write_atomic"]
