"""The computer's searches, capped: a fair share of the CPU for everyone.

A search (the Expert level's move; later, any other search such as a
game review) runs in a :class:`SearchPool`: a process pool with one worker
per core, each worker niced (:data:`NICENESS`), so at most as many searches
run at once as there are cores, the web process's threads keep answering
pages first, and the rest wait in line. When the line is long, each search
is given less time — at most ``MAX_WAIT_MS × workers / searches in flight``,
never below :data:`FLOOR_MS` — so a search's wait stays near
:data:`MAX_WAIT_MS` however many players ask at once, while a client that
hammers the Expert still waits its turn (its moves are not made cheaper
than that, which would only let it ask more often). Past
:data:`MAX_IN_FLIGHT` searches in flight, :meth:`SearchPool.run` raises
:class:`SearchBusy` instead of queueing more (the page answers 503, nothing
played).

Only what the search needs crosses to the worker: the level's name, the
random seed and the seat's :class:`~app.engine.Observation` (pickled), never
the game state.
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import multiprocessing.forkserver
import os
import random
import signal
import threading
from collections.abc import Callable
from concurrent.futures import CancelledError, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, TypeVar

from app.ai import BOTS, is_searching, make_bot
from app.ai.review import Step, evaluate
from app.engine import Observation

#: Levels whose move is a search and goes to the pool (the Expert, and
#: Mürüvvet Hanım of the story, who is one); the others decide in
#: microseconds, in the web process.
SEARCHING = frozenset(level for level in BOTS if is_searching(level))
#: Searches waiting or running at most; one more raises :class:`SearchBusy`.
#: Below the server's threads (``app.serve.THREADS``), so waiting searches
#: never take every thread.
MAX_IN_FLIGHT = 24
#: The wait a long line aims at, milliseconds: budgets shrink past it.
MAX_WAIT_MS = 1000.0
#: The least budget a search is given when the line is long, milliseconds
#: (the Expert at 10 ms still beats Medium clearly: BENCHMARKS.md).
FLOOR_MS = 10.0
#: The workers' niceness: below the web process, which serves pages.
NICENESS = 10


def _start_worker(server_alive: Connection | None = None) -> None:
    """Set up a worker process: niced by :data:`NICENESS`, and deaf to
    Ctrl-C, which stops the server (it shuts the pool down); else every
    worker would print its own ``KeyboardInterrupt`` traceback. (Workers
    of a fork server started by :meth:`SearchPool.start` are deaf from
    birth already.)

    With ``server_alive``, the read end of a pipe whose only write end the
    server holds, the worker ends when the server does, however it ended
    (see :func:`_exit_with_server`)."""
    os.nice(NICENESS)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if server_alive is not None:
        threading.Thread(
            target=_exit_with_server, args=(server_alive,), name="server-alive", daemon=True
        ).start()


def _exit_with_server(server_alive: Connection) -> None:
    """End this worker process once ``server_alive`` reads end-of-file: the
    server's write end was closed, by :meth:`SearchPool.shutdown` or by the
    server's death. A server killed outright (SIGKILL, the out-of-memory
    killer) never shuts its pool down, and the workers would wait for work
    forever, each holding the fork server and the resource tracker alive
    too (they hold those processes' pipes): a restarted server would find
    the old ones still there, a ``kill -9`` away. Nothing is ever written
    to the pipe."""
    with contextlib.suppress(EOFError, OSError):
        server_alive.recv_bytes()
    os._exit(0)


T = TypeVar("T")


class SearchBusy(Exception):
    """Too many searches are in flight; this one was not started."""


class SearchWorkerDied(SearchBusy):
    """The worker process running this search died (killed from outside,
    or by the out-of-memory killer) or ran out of memory (a
    ``MemoryError`` under a memory limit such as ``ulimit -v``); the search
    has no answer, and the next one starts new workers."""


def cores() -> int:
    """Return the number of CPU cores this process may use: those it may run
    on (a container's ``cpuset``), fewer when its cgroup's CPU quota (a
    container's ``--cpus``, compose's ``cpus``) allows less, rounded up."""
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        usable = os.cpu_count() or 1
    quota = cpu_quota()
    if quota is not None:
        usable = min(usable, math.ceil(quota))
    return max(1, usable)


#: Where the process's cgroup is mounted (its own, in a container).
CGROUP = Path("/sys/fs/cgroup")


def cpu_quota() -> float | None:
    """Return the cores' worth of CPU time the process's cgroup allows (1.5
    for ``--cpus 1.5``), read from cgroup v2's ``cpu.max`` or v1's
    ``cpu.cfs_quota_us`` over ``cpu.cfs_period_us`` under :data:`CGROUP`;
    ``None`` with no quota or no cgroup to read."""
    try:
        limit, every = (CGROUP / "cpu.max").read_text().split()
        return None if limit == "max" else int(limit) / int(every)
    except (OSError, ValueError):
        pass
    try:
        quota = int((CGROUP / "cpu" / "cpu.cfs_quota_us").read_text())
        period = int((CGROUP / "cpu" / "cpu.cfs_period_us").read_text())
    except (OSError, ValueError):
        return None
    return quota / period if quota > 0 and period > 0 else None


class SearchPool:
    """At most ``processes`` searches at once (default: one per core), in
    niced worker processes started by :meth:`start` or the first search;
    at most ``max_in_flight`` waiting or running.

    Thread-safe: the web threads share one pool.
    """

    def __init__(
        self,
        processes: int | None = None,
        max_in_flight: int = MAX_IN_FLIGHT,
        floor_ms: float = FLOOR_MS,
        max_wait_ms: float = MAX_WAIT_MS,
    ) -> None:
        self.processes = processes or cores()
        self.max_in_flight = max_in_flight
        self.floor_ms = floor_ms
        self.max_wait_ms = max_wait_ms
        self._lock = threading.Lock()
        self._in_flight = 0
        self._executor: ProcessPoolExecutor | None = None
        #: The write end of the pipe the workers of :attr:`_executor` watch
        #: (:func:`_exit_with_server`): closing it ends them.
        self._alive: Connection | None = None

    @property
    def in_flight(self) -> int:
        """Searches waiting or running now."""
        return self._in_flight

    def run(self, search: Callable[..., T], budget_ms: float, *args: Any) -> T:
        """Return ``search(budget, *args)`` computed in a worker process,
        where ``budget`` is ``budget_ms`` or, when the line is long, the
        share described in the module's docstring. ``search`` and ``args`` must pickle (``search`` a
        module-level function). Blocks the calling thread until done.

        Raises:
            SearchBusy: :attr:`max_in_flight` searches are in flight
                already.
            SearchWorkerDied: a worker died, or ran out of memory, while
                this search ran or waited in line (a :class:`SearchBusy`;
                the pool restarts on the next call).
            Exception: whatever else ``search`` raised.
        """
        with self._lock:
            if self._in_flight >= self.max_in_flight:
                raise SearchBusy(f"{self._in_flight} searches in flight")
            self._in_flight += 1
            in_flight = self._in_flight
            executor = self._started()
        try:
            share = self.max_wait_ms * self.processes / in_flight
            budget_ms = min(budget_ms, max(share, self.floor_ms))
            return executor.submit(search, budget_ms, *args).result()
        except BrokenProcessPool as exc:
            self._retire(executor)
            raise SearchWorkerDied(
                "a search worker died (killed from outside, or by the out-of-memory killer: "
                "see the kernel's log); the next search starts new workers"
            ) from exc
        except MemoryError as exc:
            # Under a memory limit (ulimit -v, a host without overcommit)
            # a worker near it fails every search: new workers start with
            # their memory given back.
            self._retire(executor)
            raise SearchWorkerDied(
                "a search worker ran out of memory (a memory limit on the server, such as "
                "ulimit -v, or too little free memory); the next search starts new workers"
            ) from exc
        except CancelledError as exc:
            # In line when another search's workers were retired (above):
            # never begun, and no worker to run it.
            raise SearchWorkerDied(
                "the search workers were stopped before this search began (one died or ran "
                "out of memory); the next search starts new workers"
            ) from exc
        finally:
            with self._lock:
                self._in_flight -= 1

    def _retire(self, executor: ProcessPoolExecutor) -> None:
        """Stop ``executor``'s workers without waiting, so the next search
        starts new ones (another thread may have done so already)."""
        with self._lock:
            alive = None
            if self._executor is executor:
                self._executor, alive = None, self._alive
                self._alive = None
        executor.shutdown(wait=False, cancel_futures=True)
        if alive is not None:
            alive.close()  # the retired pool's workers end too

    def start(self) -> None:
        """Start the worker processes now rather than at the first search
        (which would wait for them); they load the bots' code once. Call
        it from the main thread, before Ctrl-C is given a handler.

        The fork server, and every worker it forks, is started with Ctrl-C
        ignored, which a new process inherits: Ctrl-C stops the server,
        which shuts the pool down, and a worker still importing when it
        came would print a ``KeyboardInterrupt`` traceback before
        :func:`_start_worker` could make it deaf. A Ctrl-C in those few
        milliseconds is lost.
        """
        handler = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            multiprocessing.forkserver.ensure_running()
        finally:
            signal.signal(signal.SIGINT, handler)
        with self._lock:
            executor = self._started()
        for future in [executor.submit(cores) for _ in range(self.processes)]:
            future.result()

    def _started(self) -> ProcessPoolExecutor:
        # Call with the lock held.
        if self._executor is None:
            # The workers get the read end; the write end stays in this
            # process only (not inheritable, never sent), so it closes
            # when this process ends, however it ends.
            server_alive, self._alive = multiprocessing.Pipe(duplex=False)
            self._executor = ProcessPoolExecutor(
                self.processes,
                mp_context=multiprocessing.get_context("forkserver"),
                initializer=_start_worker,
                initargs=(server_alive,),
            )
        return self._executor

    def shutdown(self) -> None:
        """Stop the worker processes (a later :meth:`run` starts new ones)."""
        with self._lock:
            executor, self._executor = self._executor, None
            alive, self._alive = self._alive, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)
        if alive is not None:
            alive.close()


#: The process's pool, shared by every search.
POOL = SearchPool()


def choose(level: str, seed: str, budget_ms: float | None, observation: Observation) -> str:
    """Return the card a bot of ``level`` plays from ``observation``,
    drawing from ``random.Random(seed)``; a level of :data:`SEARCHING`
    searches in :data:`POOL` for ``budget_ms`` (or its fair share).

    Raises:
        SearchBusy: the pool's line is full; nothing was decided.
        app.ai.UnknownLevel: an unknown level.
    """
    if level in SEARCHING and budget_ms is not None:
        return POOL.run(_choose, budget_ms, level, seed, observation)
    return _choose(budget_ms, level, seed, observation)


def shutdown() -> None:
    """Stop :data:`POOL`'s workers (the server calls this when it stops)."""
    POOL.shutdown()


def evaluate_step(_budget_ms: float, observation: Observation, played: str, number: int) -> Step:
    """Return :func:`app.ai.review.evaluate` of a review's decision
    ``number`` (from 1), where ``played`` was played from ``observation``:
    a search of :data:`POOL` (run in a worker process, which imports no
    web code for it); the budget is not used: the review's worlds are
    fixed."""
    return evaluate(observation, played, number)


def _choose(budget_ms: float | None, level: str, seed: str, observation: Observation) -> str:
    return make_bot(level, random.Random(seed), budget_ms).choose(observation)
