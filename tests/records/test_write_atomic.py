"""Files written whole or not at all (goldfields.files.write_atomic)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from goldfields.files import write_atomic


def leftovers(folder: Path) -> list[Path]:
    return list(folder.glob(".*.part"))


def test_a_file_is_written_whole_and_nothing_is_left_beside_it(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    write_atomic(path, "first\n")
    write_atomic(path, b"second\n")
    assert path.read_text() == "second\n"
    assert leftovers(tmp_path) == []


def test_a_users_file_named_like_a_temporary_one_is_left_alone(tmp_path: Path) -> None:
    # Once the temporary file was always "<name>.tmp": a user's notes by that name were lost,
    # and a folder by that name made a finished game's save fail.
    notes = tmp_path / "game.json.tmp"
    notes.write_text("my notes\n")
    (tmp_path / "other.json.tmp").mkdir()
    write_atomic(tmp_path / "game.json", "{}\n")
    write_atomic(tmp_path / "other.json", "{}\n")
    assert notes.read_text() == "my notes\n"
    assert (tmp_path / "other.json").read_text() == "{}\n"


def test_a_write_that_fails_leaves_the_old_file_and_no_temporary_one(tmp_path: Path) -> None:
    folder = tmp_path / "game.json"
    folder.mkdir()  # a rename cannot put a file over a folder
    with pytest.raises(OSError):
        write_atomic(folder, "{}\n")
    assert folder.is_dir()
    assert leftovers(tmp_path) == []


def test_a_written_file_is_as_readable_as_any_other_made_here(tmp_path: Path) -> None:
    # The temporary file is made for its owner alone; the finished one follows the umask.
    plain = tmp_path / "plain"
    plain.write_text("x")
    write_atomic(tmp_path / "atomic", "x")
    assert stat.S_IMODE(os.stat(tmp_path / "atomic").st_mode) == stat.S_IMODE(os.stat(plain).st_mode)


def test_a_replaced_file_keeps_its_mode_and_a_link_keeps_pointing_at_it(tmp_path: Path) -> None:
    private = tmp_path / "private.json"
    private.write_text("old")
    os.chmod(private, 0o600)
    link = tmp_path / "link.json"
    link.symlink_to(private)
    write_atomic(link, "new")
    assert link.is_symlink() and private.read_text() == "new"
    assert stat.S_IMODE(os.stat(private).st_mode) == 0o600
    assert leftovers(tmp_path) == []


def test_a_name_near_the_systems_limit_still_has_room_for_its_temporary_file(tmp_path: Path) -> None:
    long = tmp_path / ("g" * 250 + ".json")
    write_atomic(long, "{}")
    assert long.read_text() == "{}"
