"""Where the games run: this process, a local process pool, or a Ray cluster.

Results come back in any order and are sorted by game index, so the report
does not depend on how the work was spread.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

from .schedule import GameJob
from .worker import GameResult, run_job

OnDone = Callable[[GameResult], None]


def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def run_local(jobs: Sequence[GameJob], workers: int, on_done: OnDone | None = None) -> list[GameResult]:
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
    with ProcessPoolExecutor(max_workers=min(workers, len(jobs)), mp_context=context) as pool:
        pending = {pool.submit(run_job, job) for job in jobs}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                result = future.result()
                results.append(result)
                if on_done:
                    on_done(result)
    return sorted(results, key=lambda r: r.index)


def run_ray(jobs: Sequence[GameJob], address: str, on_done: OnDone | None = None) -> list[GameResult]:
    """Run the games as Ray tasks on the cluster at ``address`` (``local``: start one here)."""
    try:
        import ray
    except ImportError:
        raise RuntimeError("--ray needs the 'ray' package: pip install 'ray>=2.9'") from None
    started = False
    if not ray.is_initialized():
        if address == "local":
            ray.init(include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
        started = True
    try:
        remote = ray.remote(run_job)
        pending = [remote.remote(job) for job in jobs]
        results: list[GameResult] = []
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                result = ray.get(ref)
                results.append(result)
                if on_done:
                    on_done(result)
    finally:
        if started:
            ray.shutdown()
    return sorted(results, key=lambda r: r.index)
