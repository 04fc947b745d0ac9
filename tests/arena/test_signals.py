"""Stopping a real arena process: its pool workers go with it, its finished games stay.

Each test starts ``goldfields arena`` as a subprocess, waits (by events, with
generous timeouts) until games are being written and both pool workers are up,
then signals it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from goldfields.arena import GameSpec, Tournament, run_tournament

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")

TIMEOUT = 120.0
"""Seconds to wait for an event: the machine may be busy."""


def _command() -> list[str]:
    script = Path(sys.executable).with_name("goldfields")
    return [str(script)] if script.exists() else [sys.executable, "-m", "goldfields.cli.app"]


def _start(out: Path, *args: str) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    return subprocess.Popen(
        [*_command(), "arena", *args, "--jobs", "2", "--quiet", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
        start_new_session=True,  # its own process group, as a shell job would be
        # A suite started in the background (`scripts/test &`) inherits SIGINT ignored, and so would
        # the arena: give it the Ctrl-C a user's terminal gives it.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip


def _wait_for(what: str, check: Callable[[], object], proc: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + TIMEOUT
    while not check():
        if proc.poll() is not None:
            pytest.fail(f"the arena ended (code {proc.returncode}) before {what}: {proc.stdout.read()}")  # type: ignore[union-attr]
        if time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"no {what} within {TIMEOUT:.0f} s")
        time.sleep(0.05)


def _stat(pid: int) -> tuple[str, int] | None:
    """(state, parent pid) of a process, or None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return fields[0], int(fields[1])


def _alive(pid: int) -> bool:
    stat = _stat(pid)
    return stat is not None and stat[0] not in ("Z", "X")  # a zombie has exited: only its entry is left


def _children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            stat = _stat(int(entry.name))
            if stat is not None and stat[1] == pid and stat[0] != "Z":
                out.append(int(entry.name))
    return out


def _workers(pid: int) -> list[int]:
    workers = []
    for child in _children(pid):
        try:
            cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in cmdline:
            workers.append(child)
    return workers


def _journal_lines(out: Path) -> int:
    path = out / "results.jsonl"
    return len(path.read_text().splitlines()) if path.exists() else 0


def _start_and_wait(out: Path, *args: str) -> tuple[subprocess.Popen[str], list[int]]:
    proc = _start(out, *args)
    _wait_for("two pool workers", lambda: len(_workers(proc.pid)) == 2, proc)
    workers = _workers(proc.pid)
    # The signal follows the first game at once: a short run must not finish first on a busy machine.
    _wait_for("finished game", lambda: _journal_lines(out) >= 1, proc)
    return proc, workers


def _assert_gone(pids: list[int], wait: float = 30.0) -> None:
    deadline = time.monotonic() + wait
    while any(_alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    survivors = {p: _cmdline(p) for p in pids if _alive(p)}
    for p in survivors:  # do not leave them running whatever the verdict
        os.kill(p, signal.SIGKILL)
    assert not survivors, f"processes outlived the arena: {survivors}"


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")[:200]
    except OSError:
        return "?"


def _assert_saved(out: Path) -> int:
    """Every game in the journal has its row and record; returns how many."""
    done = _journal_lines(out)
    assert done >= 1
    assert len((out / "games.csv").read_text().splitlines()) == 1 + done
    assert len(list((out / "records").glob("game-*.json"))) == done
    return done


LONG_RUN = ("heuristic", "random", "--players", "2", "--games", "4000", "--seed", "1")
"""Far more games than are played before the signal: the run is always stopped part-way."""


@pytest.mark.parametrize(("signum", "group"), [(signal.SIGTERM, False), (signal.SIGINT, True)],
                         ids=["sigterm", "ctrl-c"])  # fmt: skip
def test_a_signal_stops_the_workers_and_keeps_the_games(tmp_path: Path, signum: int, group: bool) -> None:
    proc, workers = _start_and_wait(tmp_path, *LONG_RUN)
    if group:  # Ctrl-C in a terminal signals the whole foreground process group
        os.killpg(proc.pid, signum)
    else:
        os.kill(proc.pid, signum)
    output, _ = proc.communicate(timeout=TIMEOUT)
    assert proc.returncode == 128 + signum, output
    assert "--resume" in output
    _assert_gone(workers)
    _assert_saved(tmp_path)


def _cpu_seconds(pid: int) -> float:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = text[text.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the kernel's parent-death signal is Linux's")
def test_workers_die_with_an_arena_killed_outright(tmp_path: Path) -> None:
    # Games of minutes each: a worker left alone would play on long after the arena died
    # (a pool worker only notices its parent is gone when it next reads or writes the pipe).
    proc = _start(tmp_path, "ismcts:iterations=5000", "heuristic", "--players", "2", "--games", "8")
    _wait_for("two pool workers", lambda: len(_workers(proc.pid)) == 2, proc)
    workers = _workers(proc.pid)
    # Past their start-up (imports take about a second of CPU): deep in a game.
    _wait_for("workers playing", lambda: all(_cpu_seconds(w) > 2.5 for w in workers), proc)
    assert _journal_lines(tmp_path) == 0
    proc.kill()  # SIGKILL: no handler runs, as in a crash or an out-of-memory kill
    proc.communicate(timeout=TIMEOUT)
    _assert_gone(workers)


def test_a_run_killed_part_way_resumes_to_the_uninterrupted_results(tmp_path: Path) -> None:
    args = ("ismcts:iterations=20", "heuristic", "--players", "2", "--games", "24", "--seed", "5")
    proc, workers = _start_and_wait(tmp_path / "stopped", *args)
    proc.terminate()
    output, _ = proc.communicate(timeout=TIMEOUT)
    assert proc.returncode == 128 + signal.SIGTERM, output
    _assert_gone(workers)
    done = _assert_saved(tmp_path / "stopped")
    assert done < 24
    resumed = subprocess.run(
        [*_command(), "arena", "--resume", str(tmp_path / "stopped"), "--jobs", "1", "--quiet"],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    said = "1 game was" if done == 1 else f"{done} games were"
    assert f"resumed: {said} already played" in " ".join(resumed.stdout.split())
    whole = Tournament(GameSpec.make("digging", 2), ("ismcts:iterations=20", "heuristic"), games=24, seed=5, jobs=1,
                       out=tmp_path / "whole")  # fmt: skip
    run_tournament(whole, progress=False)
    for name in ("games.csv", "summary.csv"):
        assert (tmp_path / "stopped" / name).read_text() == (tmp_path / "whole" / name).read_text(), name


@pytest.mark.skipif(bool(os.environ.get("GOLDFIELDS_SKIP_RAY")), reason="GOLDFIELDS_SKIP_RAY is set")
def test_sigterm_stops_a_local_ray_run_and_its_processes(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    proc = subprocess.Popen(
        [*_command(), "arena", *LONG_RUN, "--ray", "local", "--quiet", "--out", str(tmp_path)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
    )  # fmt: skip
    _wait_for("finished game", lambda: _journal_lines(tmp_path) >= 1, proc)
    children = _children(proc.pid)  # Ray's own processes (gcs, raylet, workers...) started by ray.init
    proc.terminate()
    output, _ = proc.communicate(timeout=TIMEOUT)
    assert proc.returncode == 128 + signal.SIGTERM, output[-2000:]
    _assert_gone(children, wait=60.0)  # ray.shutdown stops its processes one by one
    _assert_saved(tmp_path)
