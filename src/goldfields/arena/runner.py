"""Where the games run: this process, a local process pool, or a Ray cluster.

Results come back in any order and are sorted by game index, so the report
does not depend on how the work was spread.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Generic, TypeVar

from ..core.words import is_number
from .schedule import GameJob
from .worker import GameResult, run_job

OnDone = Callable[[GameResult], None]
A = TypeVar("A")
R = TypeVar("R")


def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def run_local(jobs: Sequence[GameJob], workers: int, on_done: OnDone | None = None) -> list[GameResult]:
    """Play the games here (one worker) or in a pool of worker processes.

    However the arena stops (Ctrl-C, SIGTERM turned into KeyboardInterrupt by
    :func:`sigterm_as_interrupt`, an error), the pool's workers are terminated before this returns;
    and were this process killed outright, each worker dies with it (see
    :func:`worker_init`). ``on_done`` sees every game as it finishes.
    """
    results: list[GameResult] = []
    if workers <= 1 or len(jobs) <= 1:
        for job in jobs:
            result = run_job(job)
            results.append(result)
            if on_done:
                on_done(result)
        return results
    # "spawn": fresh interpreters, so no lock held by a thread here (the progress
    # bar's refresher) is copied into a worker half-taken, as fork could.
    context = multiprocessing.get_context("spawn")
    pool = context.Pool(min(workers, len(jobs)), initializer=worker_init, initargs=(os.getpid(),))
    try:
        for result in pool.imap_unordered(run_job, jobs):
            results.append(result)
            if on_done:
                on_done(result)
        pool.close()
    except BaseException:
        # Not close(): that would let the workers finish every queued game first.
        pool.terminate()
        raise
    finally:
        pool.join()
    return sorted(results, key=lambda r: r.index)


def worker_init(parent: int) -> None:
    """Set up a pool worker of process ``parent`` (the arena, or training): Ctrl-C is for the
    parent, and the worker must not outlive it."""
    # Ctrl-C reaches the whole process group; the arena handles it and terminates the
    # pool, so a worker need not print a KeyboardInterrupt traceback of its own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        # If the arena is killed outright (SIGKILL, a crash), the kernel kills its workers.
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - no prctl here
            _watch_parent(parent)
    else:  # pragma: no cover - not on Linux
        _watch_parent(parent)
    if os.getppid() != parent:  # the arena died before the line above could take effect
        os._exit(1)


PR_SET_PDEATHSIG = 1


def _watch_parent(parent: int) -> None:
    """Where the kernel cannot tie a worker's life to the arena's: a thread that checks every second."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, name="goldfields-arena-parent-watch", daemon=True).start()


def run_ray(jobs: Sequence[GameJob], address: str, on_done: OnDone | None = None) -> list[GameResult]:
    """Run the games as Ray tasks on the cluster at ``address`` (``local``: start one here)."""
    return sorted(ray_map(run_job, jobs, address, on_done), key=lambda r: r.index)


class InOrder(Generic[R]):
    """Results that come in any order, handed on in the order of their items: each waits for
    those before it. What has been handed on is then always the first results, as a pool's
    ordered map would give them."""

    def __init__(self, on_each: Callable[[R], None]) -> None:
        self.on_each = on_each
        self.waiting: dict[int, R] = {}
        self.next = 0

    def __call__(self, index: int, result: R) -> None:
        self.waiting[index] = result
        while self.next in self.waiting:
            self.on_each(self.waiting.pop(self.next))
            self.next += 1


class ClusterError(RuntimeError):
    """The Ray cluster cannot be used: no ``ray`` package, or nothing answers at the address."""


def _unreachable(address: str) -> str | None:
    """Why nothing can answer at a Ray ``address`` (None: something listens there, or Ray finds it).

    Ray itself retries an address where nothing listens for minutes, printing warnings; a TCP
    connection says at once."""
    if address in ("local", "auto"):
        return None
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not is_number(port):
        return f"{address!r} is not a Ray address: 'auto', 'local', 'HOST:PORT' or 'ray://HOST:PORT'"
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=10).close()
    except OSError as err:
        return f"nothing answers at {address} ({err.strerror or err}): is the Ray cluster running there?"
    return None


def check_cluster(address: str) -> None:
    """Raise :class:`ClusterError` when the Ray cluster at ``address`` cannot be used: before
    anything is written, so that a run is not replaced or grown for a cluster that is not there."""
    try:
        import ray
    except ImportError:
        raise ClusterError("--ray needs the 'ray' package: pip install 'ray>=2.9'") from None
    if not ray.is_initialized() and (problem := _unreachable(address)) is not None:
        raise ClusterError(problem)


def ray_map(fn: Callable[[A], R], items: Sequence[A], address: str,
            on_each: Callable[[R], None] | None = None, in_order: bool = False) -> list[R]:  # fmt: skip
    """``[fn(x) for x in items]`` as Ray tasks on the cluster at ``address`` (``local``: start
    one here), in the items' order; ``on_each`` hears of each result as it comes (``in_order``:
    once every result before it has come too)."""
    check_cluster(address)
    import ray

    started = False
    if not ray.is_initialized():
        ours = signal.getsignal(signal.SIGTERM) if threading.current_thread() is threading.main_thread() else None
        if address == "local":
            ray.init(include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
        started = True
        if ours is not None:
            # ray.init puts a native crash handler on SIGTERM that aborts the process, skipping
            # ray.shutdown (the local instance's processes are orphaned) and the caller's cleanup.
            signal.signal(signal.SIGTERM, ours)
    hear = None if on_each is None else InOrder(on_each) if in_order else lambda _, result: on_each(result)
    try:
        remote = ray.remote(fn)
        refs = [remote.remote(item) for item in items]
        where = {ref: i for i, ref in enumerate(refs)}
        results: list[R | None] = [None] * len(refs)
        pending = list(refs)
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    result = ray.get(ref)
                    results[where[ref]] = result
                    if hear is not None:
                        hear(where[ref], result)
        except BaseException:
            # Stopped: someone else's cluster should not go on working for nobody.
            # One we started goes with ray.shutdown below; force-cancelling its tasks first
            # races their replies, which can crash Ray's core worker on the way out.
            if not started:
                for ref in pending:
                    with contextlib.suppress(Exception):  # best effort on the way out
                        ray.cancel(ref, force=True)
            raise
    finally:
        if started:
            ray.shutdown()
    return [r for r in results if r is not None]


class Caught:
    """The signal that stopped a run (``SIGINT`` unless SIGTERM did)."""

    signum: int = signal.SIGINT


@contextmanager
def sigterm_as_interrupt() -> Iterator[Caught]:
    """Treat SIGTERM (a time limit, ``kill``) like Ctrl-C: stop the workers, keep what is written.

    Python's default SIGTERM ends the process at once, skipping the cleanup that
    terminates the pool, so the workers would play on orphaned. Only the main
    thread may set handlers; elsewhere the default stays.
    """
    caught = Caught()
    if threading.current_thread() is not threading.main_thread():
        yield caught
        return

    def handler(signum: int, frame: object) -> None:
        caught.signum = signum
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield caught
    finally:
        signal.signal(signal.SIGTERM, previous)
