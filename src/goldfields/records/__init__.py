"""Game records: reading them from disk and replaying them, for either game.

A record is a JSON object whose ``game`` field names the game; the formats
are in docs/records.md. ``replay`` never raises on bad input: it reports.
Input that names no known game gets a report of ``ok`` and ``error`` alone:
which other keys to print is the game's to say, and there is no game.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..core import registry
from ..files import write_atomic

OK, ILLEGAL, MALFORMED = 0, 1, 2


def _malformed(message: str, **where: Any) -> tuple[dict[str, Any], int]:
    return {"ok": False, "error": {**where, "move": None, "message": message}}, MALFORMED


def replay(record: Any) -> tuple[dict[str, Any], int]:
    """Check a record (already parsed from JSON): (report, exit status)."""
    if not isinstance(record, dict):
        return _malformed("a record is a JSON object")
    try:
        game = registry.get(record.get("game"))  # type: ignore[arg-type]
    except registry.UnknownGame as err:
        return _malformed(f"{err} (a record names its game in the field 'game')")
    return game.replay(record)


def replay_file(path: str | Path) -> tuple[dict[str, Any], int]:
    """Read and check the record in ``path`` (a missing or broken file is malformed)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as err:
        return _malformed(f"cannot read {path}: {err.strerror or err}")
    except UnicodeDecodeError:
        return _malformed(f"{path} is not a UTF-8 text file")
    try:
        record = json.loads(text)
    except json.JSONDecodeError as err:
        return _malformed(f"{path} is not valid JSON: {err.msg} at line {err.lineno}, column {err.colno}")
    return replay(record)


def save(record: dict[str, Any], path: str | Path) -> Path:
    """Write a record as JSON into an existing folder.

    A folder that does not exist is an error (FileNotFoundError naming it),
    not created: a typo in a path must not hide the record somewhere new."""
    path = Path(path)
    folder = path.parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise FileNotFoundError(2, f"the folder {folder} {what}", str(folder))
    if path.is_dir():
        raise IsADirectoryError(21, f"{path} is a folder; name a file in it", str(path))
    write_atomic(path, json.dumps(record, indent=1) + "\n")  # never leave a half-written record behind
    return path
