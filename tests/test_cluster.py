"""Games on a Dask cluster (`--scheduler`): the local run's results, and a clear
message for everything that can go wrong with the cluster.

Each cluster is what the README starts by hand: a `dask scheduler` process and
`dask worker` processes, here on 127.0.0.1 and free ports.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

import pytest
from distributed import Client

from game.core import cluster
from game.core.cluster import ClusterError, DaskScheduler
from game.core.match import map_in_order, simulate
from game.core.state import GameError
from tests.command_line import run_main

ROOT = Path(__file__).resolve().parent.parent
START_SECONDS = 120  # a loaded machine may take long to start Python processes
SLOW_MATCH = ("dracula", ["strong:iterations=15", "heuristic"])  # ~0.3 s a game here


@dataclass
class Cluster:
    """A scheduler and its workers, processes of this test."""

    folder: Path
    scheduler_env: dict[str, str] = field(default_factory=dict)
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    workers: list[subprocess.Popen[bytes]] = field(default_factory=list)
    address: str = ""

    def start_scheduler(self) -> None:
        address_file = self.folder / "scheduler.json"
        self._start(["scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                     "--scheduler-file", str(address_file)],
                    {"PYTHONPATH": str(ROOT), **self.scheduler_env})
        deadline = time.monotonic() + START_SECONDS
        while not address_file.exists() or not address_file.read_text():
            assert time.monotonic() < deadline, "the Dask scheduler did not start"
            time.sleep(0.1)
        self.address = json.loads(address_file.read_text())["address"]

    def start_workers(self, count: int, nanny: bool = False, project: Path = ROOT) -> None:
        for _ in range(count):
            self.workers.append(self._start(
                ["worker", self.address, "--nthreads", "1", "--no-dashboard",
                 "--host", "127.0.0.1", "--nanny" if nanny else "--no-nanny"],
                {"PYTHONPATH": str(project)}))
        with Client(self.address, timeout=START_SECONDS) as client:
            client.wait_for_workers(len(self.workers), timeout=START_SECONDS)

    def _start(self, command: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
        log = open(self.folder / f"dask-{len(self.processes)}.log", "wb")
        process = subprocess.Popen([sys.executable, "-m", "dask", *command], cwd=self.folder,
                                   env={**os.environ, **env}, stdout=log, stderr=log)
        log.close()
        self.processes.append(process)
        return process

    def stop(self) -> None:
        for process in reversed(self.processes):
            process.kill()
            process.wait(timeout=30)


@pytest.fixture
def new_cluster(tmp_path: Path) -> Iterator[Cluster]:
    """A scheduler of this test's own, to start workers for and break."""
    started = Cluster(tmp_path)
    started.start_scheduler()
    yield started
    started.stop()


@pytest.fixture(scope="module")
def two_workers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DaskScheduler]:
    """A scheduler with two workers, shared by the tests that only use it."""
    started = Cluster(tmp_path_factory.mktemp("cluster"))
    started.start_scheduler()
    started.start_workers(2)
    yield DaskScheduler(started.address)
    started.stop()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# The tests on `two_workers` start a cluster (seconds) and play whole matches
# there: the full run; the quick run keeps the messages that need no cluster.
@pytest.mark.slow
@pytest.mark.parametrize("game, bots, games, options", [
    ("jekyll-hyde", "heuristic,random", 6, {"players": 3}),
    ("dracula", "strong:iterations=10,heuristic", 5, None),
])
def test_a_cluster_plays_the_same_games_as_one_process(two_workers, game, bots, games, options):
    here, there = [], []
    local = simulate(game, bots.split(","), games, 8, options, here.append, 1)
    remote = simulate(game, bots.split(","), games, 8, options, there.append, two_workers)
    assert remote.to_json() == local.to_json() and remote.games == games
    assert there == here == list(range(1, games + 1))


@pytest.mark.slow  # a cluster (see above)
def test_the_command_line_prints_the_same_on_a_cluster(two_workers):
    match = ["simulate", "--game", "jekyll-vs-hyde", "--bots", "heuristic,easy", "--games", "9",
             "--seed", "3", "--json"]
    local = run_main(*match, "--workers", "1")
    remote = run_main(*match, "--scheduler", two_workers.address)
    assert (remote.returncode, remote.stderr) == (0, "")
    assert remote.stdout == local.stdout and json.loads(remote.stdout)["games"] == 9


@pytest.mark.slow  # a cluster of its own, broken on purpose
def test_a_worker_dying_mid_run_loses_no_game(new_cluster):
    """The scheduler gives a dead worker's games to the other: the same results."""
    new_cluster.start_workers(2)
    game, bots = SLOW_MATCH
    expected = simulate(game, bots, 6, 5, workers=1).to_json()

    def kill_a_worker(played: int) -> None:
        if played == 1:
            new_cluster.workers[0].kill()

    result = simulate(game, bots, 6, 5, progress=kill_a_worker,
                      workers=DaskScheduler(new_cluster.address))
    assert new_cluster.workers[0].poll() is not None
    assert result.to_json() == expected


@pytest.mark.slow  # a cluster of its own, broken on purpose
def test_every_worker_leaving_mid_run_is_one_clear_error(new_cluster, monkeypatch):
    monkeypatch.setattr(cluster, "WORKERLESS_SECONDS", 1)
    new_cluster.start_workers(1)
    game, bots = SLOW_MATCH

    def kill_the_worker(played: int) -> None:
        if played == 1:
            new_cluster.workers[0].kill()

    with pytest.raises(ClusterError) as error:
        simulate(game, bots, 6, 5, progress=kill_the_worker,
                 workers=DaskScheduler(new_cluster.address))
    assert error.value.code == "workers_lost"
    assert str(error.value).startswith(f"every Dask worker of {new_cluster.address} left mid-run")
    assert f"start `dask worker {new_cluster.address}`" in str(error.value)


@pytest.mark.slow  # a cluster of its own, broken on purpose
def test_a_worker_killed_by_its_task_is_one_clear_error(tmp_path):
    """A task that kills its worker (here `os._exit`) is not retried for ever."""
    broken = Cluster(tmp_path, {"DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES": "0"})
    try:
        broken.start_scheduler()
        broken.start_workers(1, nanny=True)  # the nanny starts it again
        with pytest.raises(ClusterError) as error:
            map_in_order(os._exit, [3], DaskScheduler(broken.address))
    finally:
        broken.stop()
    assert error.value.code == "worker_died"
    assert f"Dask workers of {broken.address} died on the same batch" in str(error.value)


@pytest.mark.slow  # a cluster of its own, broken on purpose
def test_losing_the_scheduler_mid_run_is_one_clear_error(new_cluster, caplog):
    """One line, and not Dask's traceback of its attempts to reconnect before it."""
    dask_client_log = logging.getLogger("distributed.client")  # does not propagate
    dask_client_log.addHandler(caplog.handler)
    new_cluster.start_workers(1)
    game, bots = SLOW_MATCH

    def kill_the_scheduler(played: int) -> None:
        if played == 1:
            new_cluster.processes[0].kill()

    try:
        with pytest.raises(ClusterError) as error:
            simulate(game, bots, 6, 5, progress=kill_the_scheduler,
                     workers=DaskScheduler(new_cluster.address))
    finally:
        dask_client_log.removeHandler(caplog.handler)
    assert error.value.code == "scheduler_lost"
    assert str(error.value).startswith(f"lost the Dask scheduler at {new_cluster.address} mid-run")
    assert caplog.records == []


@pytest.mark.slow  # a cluster of its own, broken on purpose
def test_a_scheduler_without_workers_is_one_clear_error(new_cluster, monkeypatch):
    monkeypatch.setattr(cluster, "WORKERLESS_SECONDS", 1)
    with pytest.raises(ClusterError) as error:
        simulate("dracula", ["random", "random"], 2, 1, workers=DaskScheduler(new_cluster.address))
    assert error.value.code == "no_workers"
    assert f"start `dask worker {new_cluster.address}` on each machine" in str(error.value)


@pytest.mark.slow  # a cluster of its own, broken on purpose
def test_workers_with_other_code_are_refused(new_cluster, tmp_path):
    """Other code would play other games: the run stops before the first one."""
    other = tmp_path / "other"
    shutil.copytree(ROOT / "game", other / "game", ignore=shutil.ignore_patterns("__pycache__"))
    with open(other / "game" / "core" / "match.py", "a", encoding="utf-8") as changed:
        changed.write("\n# a change\n")
    new_cluster.start_workers(1, project=other)
    with pytest.raises(ClusterError) as error:
        simulate("dracula", ["random", "random"], 2, 1, workers=DaskScheduler(new_cluster.address))
    assert error.value.code == "cluster_code_differs"
    assert str(error.value).startswith("the worker tcp://127.0.0.1:")
    assert "of the Dask cluster run other code than this checkout" in str(error.value)


@pytest.mark.slow  # a cluster of its own, broken on purpose
def test_workers_without_the_project_are_told_to_install_it(new_cluster, tmp_path):
    """A worker whose `game` is another version of the package (here an empty
    one, down to the module the cluster calls first) cannot load ours. Empty
    modules, not a missing one: this checkout's own editable install would
    answer for a missing module."""
    core = tmp_path / "elsewhere" / "game" / "core"
    core.mkdir(parents=True)
    for module in (core.parent / "__init__.py", core / "__init__.py", core / "cluster.py"):
        module.write_text("")
    new_cluster.start_workers(1, project=tmp_path / "elsewhere")
    with pytest.raises(ClusterError) as error:
        simulate("dracula", ["random", "random"], 2, 1, workers=DaskScheduler(new_cluster.address))
    assert error.value.code == "cluster_without_project"
    assert str(error.value).startswith(f"the Dask cluster at {new_cluster.address} cannot load "
                                       "this project's code (")
    assert "pip install '.[distributed]' in a checkout of the same commit" in str(error.value)


@pytest.mark.slow  # a cluster of its own, broken on purpose
def test_an_unreachable_scheduler_is_one_line_naming_it(monkeypatch):
    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 1)
    address = f"tcp://127.0.0.1:{free_port()}"
    done = run_main("simulate", "--game", "dracula", "--bots", "random,random", "--games", "2",
                    "--scheduler", address)
    assert (done.returncode, done.stdout) == (2, "") and done.stderr.count("\n") == 1
    assert done.stderr.startswith(f"error: no Dask scheduler answers at {address} within ")
    assert "start one with `dask scheduler --port" in done.stderr


@pytest.mark.parametrize("address", ["", "8786", "tcp://", "http://10.0.0.5:8786", "host:0",
                                     "host:65536", "host:port", "tcp://a b:8786", "x" * 5000])
def test_a_malformed_scheduler_address_is_one_line(address):
    done = run_main("simulate", "--game", "dracula", "--bots", "random,random", "--games", "2",
                    "--scheduler", address)
    assert (done.returncode, done.stdout) == (2, "") and done.stderr.count("\n") == 1
    assert done.stderr.startswith("error: --scheduler must be a Dask scheduler's address "
                                  "tcp://HOST:PORT, e.g. tcp://192.168.1.10:8786, not ")


def test_workers_and_a_scheduler_exclude_each_other():
    done = run_main("simulate", "--game", "dracula", "--bots", "random,random",
                    "--workers", "2", "--scheduler", "tcp://127.0.0.1:8786")
    assert done.returncode == 2 and done.stdout == ""
    assert "argument --scheduler: not allowed with argument --workers" in done.stderr


def test_without_dask_the_message_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` fails
    with pytest.raises(GameError, match=r"^--scheduler needs Dask, which is not installed: "
                                        r"pip install '\.\[distributed\]'$"):
        map_in_order(abs, [1], DaskScheduler("tcp://127.0.0.1:8786"))
