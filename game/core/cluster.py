"""The same games played on a Dask cluster, for matches larger than one machine.

`python -m game simulate --scheduler tcp://HOST:8786` hands the games to a
Dask scheduler (`dask scheduler`) whose workers (`dask worker tcp://HOST:8786`
on each machine) play them. Every game depends only on its item and the
results are gathered in item order, so the output is the one this machine's
processes give. Dask is an optional extra: `pip install '.[distributed]'`.
"""

from __future__ import annotations

import hashlib
import logging
import re
import time
from concurrent.futures import CancelledError
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence, TypeVar

from game.core.state import BadOptionsError, GameError

T = TypeVar("T")
R = TypeVar("R")

INSTALL_DASK = "pip install '.[distributed]'"
CONNECT_SECONDS = 5  # an unreachable scheduler fails this soon
WORKERLESS_SECONDS = 10  # how long a scheduler may have no worker, at the start or mid-run
POLL_SECONDS = 1.0
_ADDRESS = re.compile(r"(?:tcp://)?([A-Za-z0-9][A-Za-z0-9.-]{0,252}|\[[0-9A-Fa-f:.]{2,45}\]):"
                      r"([0-9]{1,5})")


class ClusterError(GameError):
    """The Dask cluster cannot play the games: unreachable, no workers, or lost."""

    default_code = "cluster"


@dataclass(frozen=True)
class DaskScheduler:
    """The address of a Dask scheduler, `tcp://HOST:PORT`."""

    address: str

    def start_hint(self) -> str:
        port = self.address.rsplit(":", 1)[1]
        return (f"start one with `dask scheduler --port {port}` and, on each machine, "
                f"`dask worker {self.address}`")


def parse_scheduler(text: str) -> DaskScheduler:
    """`--scheduler` from a command line: `tcp://HOST:PORT` (or `HOST:PORT`).

    >>> parse_scheduler("10.0.0.5:8786")
    DaskScheduler(address='tcp://10.0.0.5:8786')
    >>> parse_scheduler("http://10.0.0.5")
    Traceback (most recent call last):
    ...
    game.core.state.BadOptionsError: --scheduler must be a Dask scheduler's address ...
    """
    match = _ADDRESS.fullmatch(text)
    if not match or not 1 <= int(match[2]) <= 65535:
        raise BadOptionsError(f"--scheduler must be a Dask scheduler's address tcp://HOST:PORT, "
                              f"e.g. tcp://192.168.1.10:8786, not {text[:100]!r}",
                              code="scheduler_address", params={"scheduler": text[:100]})
    return DaskScheduler(f"tcp://{match[1]}:{int(match[2])}")


def code_fingerprint() -> str:
    """A hash of the package's source: workers with other code would play other games."""
    package = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def map_on_cluster(function: Callable[[T], R], items: Sequence[T], scheduler: DaskScheduler,
                   progress: Callable[[int], None] | None = None) -> list[R]:
    """`[function(item) for item in items]`, computed by the workers of `scheduler`.

    Items go out in batches (a task costs the scheduler about a millisecond);
    a batch lost with its worker is played again by another, with the same result.
    """
    try:
        from distributed import Client
    except ImportError as e:
        raise ClusterError(f"--scheduler needs Dask, which is not installed: {INSTALL_DASK}",
                           code="dask_missing") from e
    try:
        client = Client(scheduler.address, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError) as e:
        raise ClusterError(f"no Dask scheduler answers at {scheduler.address} within "
                           f"{CONNECT_SECONDS} s: {scheduler.start_hint()}",
                           code="scheduler_unreachable",
                           params={"scheduler": scheduler.address}) from e
    with _dask_quiet(), client:
        threads = _check_cluster(client, scheduler)
        size = max(1, min(50, len(items) // (threads * 16)))
        batches = [list(items[start:start + size]) for start in range(0, len(items), size)]
        futures = client.map(_call_batch, [function] * len(batches), batches, pure=False)
        return _gather_in_order(client, scheduler, futures, len(items), progress)


@contextmanager
def _dask_quiet() -> Iterator[None]:
    """Dask's client logs a traceback when it loses the scheduler; the
    ClusterError raised then says what happened in one line."""
    loggers = [logging.getLogger(name) for name in ("distributed", "distributed.client")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels):
            logger.setLevel(level)


def _check_cluster(client: Any, scheduler: DaskScheduler) -> int:
    """The workers' thread count, once one has come and the scheduler (which
    unpickles the tasks) and every worker run this very code."""
    try:
        client.wait_for_workers(1, timeout=WORKERLESS_SECONDS)
    except TimeoutError as e:
        raise ClusterError(f"the Dask scheduler at {scheduler.address} has no worker after "
                           f"{WORKERLESS_SECONDS} s: start `dask worker {scheduler.address}` "
                           "on each machine", code="no_workers",
                           params={"scheduler": scheduler.address}) from e
    try:
        theirs = {f"the scheduler {scheduler.address}": client.run_on_scheduler(code_fingerprint)}
        theirs.update((f"the worker {worker}", fingerprint)
                      for worker, fingerprint in client.run(code_fingerprint).items())
    except Exception as e:  # what failed on the far side comes back as a bare Exception
        reason = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise ClusterError(f"the Dask cluster at {scheduler.address} cannot load this "
                           f"project's code ({reason}): on the scheduler's and every worker's "
                           f"machine, {INSTALL_DASK} in a checkout of the same commit",
                           code="cluster_without_project") from e
    ours = code_fingerprint()
    others = sorted(name for name, fingerprint in theirs.items() if fingerprint != ours)
    if others:
        raise ClusterError(f"{', '.join(others)} of the Dask cluster run other code than this "
                           "checkout, so they would play other games: give every machine the "
                           "same commit", code="cluster_code_differs", params={"machines": others})
    return sum(client.nthreads().values()) or 1


def _gather_in_order(client: Any, scheduler: DaskScheduler, futures: list[Any], count: int,
                     progress: Callable[[int], None] | None) -> list[R]:
    from distributed import wait
    from distributed.scheduler import KilledWorker

    batches: dict[int, list[R]] = {}
    number = {future.key: n for n, future in enumerate(futures)}
    pending, played = set(futures), 0
    workerless_since: float | None = None
    while pending:
        try:
            try:
                done, pending = wait(pending, timeout=POLL_SECONDS, return_when="FIRST_COMPLETED")
            except TimeoutError:  # nothing done in this poll
                done = set()
            for future in done:
                batch = batches[number[future.key]] = future.result()
                played += len(batch)
                if progress is not None:
                    progress(played)
            working = bool(done) or bool(client.nthreads())
        except KilledWorker as e:
            raise ClusterError(f"Dask workers of {scheduler.address} died on the same "
                               f"batch again and again ({e}); {played} of {count} done",
                               code="worker_died") from e
        except (OSError, CancelledError) as e:
            raise ClusterError(f"lost the Dask scheduler at {scheduler.address} mid-run "
                               f"({played} of {count} done): {scheduler.start_hint()}, "
                               "then run again", code="scheduler_lost") from e
        if working:
            workerless_since = None
        elif workerless_since is None:
            workerless_since = time.monotonic()
        elif time.monotonic() - workerless_since > WORKERLESS_SECONDS:
            raise ClusterError(f"every Dask worker of {scheduler.address} left mid-run and none "
                               f"came back within {WORKERLESS_SECONDS} s ({played} of {count} "
                               f"done): start `dask worker {scheduler.address}` on each "
                               "machine, then run again", code="workers_lost")
    return [result for n in range(len(futures)) for result in batches[n]]


def _call_batch(function: Callable[[T], R], batch: list[T]) -> list[R]:
    return [function(item) for item in batch]
