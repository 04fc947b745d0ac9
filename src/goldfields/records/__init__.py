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
    if "game" not in record:
        return _malformed(f"the record has no field 'game', which names its game ({', '.join(registry.names())})")
    if not isinstance(record["game"], str):
        shown = json.dumps(record["game"], default=repr)[:60]  # a caller's dict may hold what JSON cannot
        return _malformed(f"the field 'game' names a game, as text, not {shown}")
    try:
        game = registry.get(record["game"])
    except registry.UnknownGame as err:
        return _malformed(f"{err} (a record names its game in the field 'game')")
    return game.replay(record)


FORMATS = "see docs/records.md"
"""Where the record formats are described: said with a file that is not one."""


class UnreadableRecord(ValueError):
    """A record file that cannot be read as JSON; the message names the file and why."""


MAX_FILE = 64 * 1024 * 1024
"""The largest file read as a record: the longest games stored are some hundred kilobytes, and a
device or a wrong file (``/dev/zero``, a disk image) must be refused, not read into memory whole."""


def read(path: str | Path) -> Any:
    """The JSON value in the file ``path``, not yet checked as a record: :class:`UnreadableRecord`
    if the file cannot be read, is larger than :data:`MAX_FILE`, is not UTF-8 text or is not JSON."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_FILE + 1)
        if len(data) > MAX_FILE:
            raise UnreadableRecord(f"{path} is not a game record: it is larger than {MAX_FILE >> 20} MB; {FORMATS}")
        text = data.decode("utf-8")
    except OSError as err:
        raise UnreadableRecord(f"cannot read {path}: {err.strerror or err}") from None
    except UnicodeDecodeError:
        raise UnreadableRecord(f"{path} is not a game record (JSON): it is not UTF-8 text; {FORMATS}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise UnreadableRecord(f"{path} is not a game record (JSON): {err.msg} "
                               f"(line {err.lineno}, column {err.colno}); {FORMATS}") from None  # fmt: skip
    except RecursionError:  # brackets nested some thousands deep: valid JSON, but no record is
        raise UnreadableRecord(f"{path} is not a game record: its JSON is nested too deeply; {FORMATS}") from None


def replay_file(path: str | Path) -> tuple[dict[str, Any], int]:
    """Read and check the record in ``path`` (a missing or broken file is malformed)."""
    try:
        record = read(path)
    except UnreadableRecord as err:
        return _malformed(str(err))
    return replay(record)


def save(record: dict[str, Any], path: str | Path) -> Path:
    """Write a record as JSON into an existing folder.

    A folder that does not exist is an error (FileNotFoundError naming it),
    not created: a typo in a path must not hide the record somewhere new."""
    path = Path(path)
    folder = path.parent
    if not folder.is_dir():
        what = "is a file, not a folder" if folder.exists() else "does not exist"
        raise FileNotFoundError(2, f"the folder {folder} {what}", str(folder))
    if path.is_dir():
        raise IsADirectoryError(21, f"{path} is a folder; name a file in it", str(path))
    write_atomic(path, json.dumps(record, indent=1) + "\n")  # never leave a half-written record behind
    return path
