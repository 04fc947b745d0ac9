"""``goldfields serve`` on bad input: one clear line, exit status 2, and never a password."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SECRET = "s3cret-pw"
EXE = shutil.which("goldfields") or str(Path(sys.executable).with_name("goldfields"))


def serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [EXE, "serve", *args], capture_output=True, text=True, timeout=120
    )


def test_an_unreachable_database_is_named_with_its_password_hidden() -> None:
    pytest.importorskip("psycopg")
    done = serve("--database", f"postgresql+psycopg://someone:{SECRET}@127.0.0.1:1/none", "--port", "1")
    out = done.stdout + done.stderr
    assert done.returncode == 2, out
    assert SECRET not in out
    assert "postgresql+psycopg://someone:***@127.0.0.1:1/none" in " ".join(out.split())
    assert "Traceback" not in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--database", "nonsense"], "is not a database URL"),
        (["--create-rate", "lots"], "is not a rate"),
    ],
)
def test_bad_settings_are_refused_in_one_line(args: list[str], message: str) -> None:
    done = serve(*args)
    out = " ".join((done.stdout + done.stderr).split())
    assert done.returncode == 2 and message in out and "Traceback" not in out
