"""An executor on a Dask distributed cluster (``fuego forecast --dask ADDRESS``).

The same work units as the process pool (:mod:`fuego.forecast.units`) run as Dask tasks: the
variants are scattered to every worker once, each unit is one task returning its
:class:`~fuego.forecast.counts.Counts`, and the counts are added as they come back. A unit's
counts are the same wherever it ran, so a cluster gives the numbers of ``--jobs 1``.

``local`` starts a :class:`distributed.LocalCluster` on this machine for the forecast (one
single-threaded worker process per core; ``local:N`` for N), closed when it ends; any other
address (``tcp://host:8786``) is a running scheduler whose workers have this fuego installed
(docs/maps-and-forecasts.md, "Scaling out").

Ctrl-C sets a stop :class:`distributed.Event` that every task reads between runs: the tasks
running send back the runs they finished, those not started return nothing, and what has not
come back within :data:`STOP_WAIT` seconds is cancelled; the forecast returns once no task of
it runs on any worker, and its event stays set, so a task of it that reaches a worker later
plays no run. The forecast counts its Ctrl-Cs itself
(:class:`~fuego.forecast.interrupts.Interrupts`), so none is lost where Python drops the
:class:`KeyboardInterrupt` (Dask's garbage-collector callback), and a local cluster's workers
never see the terminal's. Dask is optional
(``pip install 'fuego[dask]'``): it is imported only here, when asked for.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import time
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from fuego.errors import FuegoError
from fuego.files import temporary_folder
from fuego.forecast.counts import Counts
from fuego.forecast.executors import Progress, chunk_size
from fuego.forecast.interrupts import Interrupts, counted_interrupts
from fuego.forecast.units import Unit, Variant, play_unit

__all__ = ["DaskCluster", "STOP_WAIT", "LOCAL", "parse_address"]

#: The address that starts a cluster on this machine for the forecast.
LOCAL = "local"
#: After Ctrl-C, how long to wait for the tasks' finished runs before cancelling them.
STOP_WAIT = 2.0
#: How long the tasks may take to stop after they are cancelled (one run each at most).
QUIET_WAIT = 30.0
#: How long the workers may take to receive the scenario (a Ctrl-C waits for it).
SEND_WAIT = 60.0
#: The most runs in one task: a second or so of a worker's time (progress comes per task).
TASK_RUNS = 20
#: How often a task asks the scheduler whether to stop (between runs; a round trip each).
STOP_POLL = 0.25
TIP = "pip install 'fuego[dask]' (Dask distributed), or use --jobs"


def parse_address(text: str) -> tuple[str | None, int | None]:
    """``--dask`` as (scheduler address, None) or (None, local workers; None: one per core)."""
    if text == LOCAL:
        return None, None
    if text.startswith(LOCAL + ":"):
        n = text[len(LOCAL) + 1:]
        if not n.isdigit() or not 1 <= int(n) <= 64:
            raise FuegoError(f"--dask {text!r}: local:N takes 1 to 64 workers, not {n!r}",
                             tip="--dask local (one worker per core) or --dask local:2")
        return None, int(n)
    if "://" not in text and ":" not in text:
        raise FuegoError(f"--dask {text!r} is not a scheduler address",
                         tip="give the scheduler's address (tcp://HOST:8786, as `dask "
                             "scheduler` prints it), or local for a cluster on this machine")
    return text, None


# -- on a worker ----------------------------------------------------------------------------------
class _EventGuard:
    """A task's :class:`~fuego.forecast.units.Guard`: the forecast's stop event, asked at most
    every :data:`STOP_POLL` seconds (a run of the tavern takes about 50 ms)."""

    def __init__(self, name: str) -> None:
        from distributed import Event

        self.event = Event(name)
        self.asked = 0.0
        self.stopped = False
        self.playing = False

    @property
    def stop(self) -> bool:
        now = time.monotonic()
        if not self.stopped and now - self.asked >= STOP_POLL:
            self.asked = now
            self.stopped = bool(self.event.is_set())
        return self.stopped


def _play_task(variants: Sequence[Variant], unit: Unit, stop: str) -> Counts:
    return play_unit(variants, unit, guard=_EventGuard(stop))


def dask_setup(worker: Any) -> None:
    """Run by a local cluster's worker processes as they start (Dask's ``preload``): their own
    logs stay quiet, as a task's error comes back to the forecast, which says it. (A worker
    closing under load logs a failed heartbeat with a traceback, say.)"""
    logging.getLogger("distributed").setLevel(logging.CRITICAL)


def fuego_build(package: Path | None = None) -> tuple[str, str]:
    """This process's fuego: its version, and a digest of its code (every module's source
    under ``package``, by default fuego's own): a worker with the same version but other
    files (an edited checkout, a wheel built from another commit) would give other numbers for
    the same seed, and is told apart. Read afresh each time (~150 files, a few ms a forecast):
    what a worker runs next is what its files say."""
    import hashlib

    import fuego

    root = package or Path(fuego.__file__).parent
    digest = hashlib.sha256()
    for name, path in sorted((p.relative_to(root).as_posix(), p) for p in root.rglob("*.py")):
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return fuego.__version__, digest.hexdigest()[:16]


#: A task's states on a worker once it no longer runs nor waits to.
_SETTLED = frozenset({"memory", "error", "released", "forgotten"})


def _running(prefix: str, dask_worker: Any = None) -> int:
    """This forecast's tasks that a worker runs, or holds to run (``Client.run`` passes the
    worker): a cancelled task still runs until it returns."""
    state = getattr(dask_worker, "state", None)
    tasks = getattr(state, "tasks", {}) or {}
    return sum(1 for key, ts in list(tasks.items())
               if str(key).startswith(prefix) and getattr(ts, "state", "") not in _SETTLED)


# -- in the forecast's process --------------------------------------------------------------------
@contextlib.contextmanager
def _sigint_blocked() -> Iterator[None]:
    """SIGINT blocked in this thread meanwhile, and for good in the threads it starts: a
    thread inherits its creator's signal mask, a process its forking thread's. A Ctrl-C
    meanwhile waits for the unblocking (or another thread takes it): none is lost."""
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no signal masks
        yield
        return
    import multiprocessing.resource_tracker

    # multiprocessing's resource tracker unblocks SIGINT in the thread that starts it (the
    # cluster's, at its first worker's queues); running already, it leaves the masks alone
    multiprocessing.resource_tracker.ensure_running()
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _local_cluster(n: int, interrupts: Interrupts) -> Any:
    """A local cluster of ``n`` single-threaded worker processes (a run is pure Python: the
    GIL lets one thread at a time play), which never get a terminal's Ctrl-C: the forecast
    stops them in order."""
    import dask
    from distributed import LocalCluster

    # its scratch space: Dask's setting, else the folder TMPDIR names (or an error; Dask would
    # quietly take another one: docs/reliability.md)
    scratch = (dask.config.get("temporary-directory", None)
               or temporary_folder("local Dask cluster's working files", tip="use --jobs"))
    # the cluster's event-loop thread starts with SIGINT blocked, so the worker processes its
    # nannies start (restarted ones too) keep it blocked; a Ctrl-C meanwhile is acted on once
    # the cluster is there to be closed
    with interrupts.deferred(), _sigint_blocked():
        cluster = LocalCluster(n_workers=0, threads_per_worker=1, processes=True,
                               dashboard_address=":0", silence_logs=logging.ERROR,
                               preload=[__name__],  # dask_setup
                               local_directory=scratch,
                               scheduler_kwargs={"local_directory": scratch})
    try:
        interrupts.check()
        cluster.scale(n)
        cluster.wait_for_workers(n, timeout=120)
    except BaseException:
        cluster.close()
        raise
    return cluster


class _Pending:
    """The tasks not yet back (future -> unit), and their counts added as they come."""

    def __init__(self, futures: dict, totals: list[Counts], arrived: Any) -> None:
        self.futures = futures
        self.totals = totals
        # the futures as they finish (the client's thread queues them): asking is free,
        # where waiting on all of them each tick would keep this process busy
        self.arrived = arrived
        self.done = 0

    def collect(self, wait: float) -> None:
        """Add the units that came back, waiting ``wait`` seconds if none has."""
        batch = self.arrived.next_batch(block=False)
        if not batch:
            time.sleep(wait)
            batch = self.arrived.next_batch(block=False)
        for future in batch:
            unit = self.futures.pop(future, None)
            if unit is None:
                continue
            if future.status == "error":
                exc = future.exception()
                raise FuegoError(f"a Dask task failed ({type(exc).__name__}: {exc})",
                                 tip="try --jobs, to see the error in this process")
            if future.status == "finished":
                counts = future.result()
                self.totals[unit.variant].add(counts)
                self.done += counts.runs


class DaskCluster:
    """Play the units as tasks on a Dask cluster: ``address`` a scheduler's, or ``local``."""

    def __init__(self, address: str = LOCAL, tick: float = 0.1) -> None:
        self.address, self.workers = parse_address(address)
        self.tick = tick
        self.label = "dask"

    def unit_runs(self, runs: int) -> int:
        return chunk_size(runs, self.workers or 8, TASK_RUNS)

    @contextlib.contextmanager
    def _client(self, interrupts: Interrupts) -> Iterator[Any]:
        try:
            from distributed import Client
        except ImportError as exc:
            raise FuegoError("--dask needs Dask distributed, which is not installed",
                             tip=TIP) from exc
        quiet = logging.getLogger("distributed")
        level = quiet.level
        quiet.setLevel(logging.ERROR)  # its warnings are for a cluster's admin, not the GM
        cluster = None
        try:
            if self.address is None:
                cluster = _local_cluster(self.workers or os.cpu_count() or 1, interrupts)
                where = "a local cluster"
            else:
                where = f"the scheduler at {self.address}"
            try:
                client = Client(cluster if cluster is not None else self.address, timeout=10)
            except (OSError, TimeoutError) as exc:
                raise FuegoError(f"cannot reach {where} ({exc})",
                                 tip="start it with `dask scheduler` and give the address it "
                                     "prints (docs/maps-and-forecasts.md, Scaling out)") from exc
            try:
                yield client
            finally:
                # closing after a Ctrl-C, the scheduler logs the client's cancelled tasks as
                # CRITICAL with a traceback: noise, as every task is accounted for by then
                quiet.setLevel(logging.CRITICAL + 1)
                client.close()
        finally:
            if cluster is not None:
                cluster.close()
            quiet.setLevel(level)

    def _check_workers(self, client: Any) -> int:
        """The workers' count, once each has shown it runs this fuego: its version and its
        code (:func:`fuego_build`)."""
        client.wait_for_workers(1, timeout=60)
        try:
            builds = client.run(fuego_build)
        except Exception as exc:  # noqa: BLE001 - a worker without fuego fails its own way
            raise FuegoError(f"a Dask worker cannot run fuego ({type(exc).__name__}: {exc})",
                             tip="install the same fuego on every worker's machine "
                                 "(pip install 'fuego[dask]')") from exc
        version, code = mine = fuego_build()
        wrong = {w: b for w, b in builds.items() if tuple(b) != mine}
        if wrong:
            who, (theirs, their_code) = next(iter(wrong.items()))
            if theirs != version:
                raise FuegoError(f"the Dask worker {who} has fuego {theirs}, this is {version}",
                                 tip="install the same fuego on every worker's machine")
            raise FuegoError(f"the Dask worker {who} runs other code than this forecast: "
                             f"fuego {version} on both, its files differ (code {their_code}, "
                             f"this is {code}); the same seed would give other numbers",
                             tip="install the same fuego on every worker's machine: one "
                                 "wheel, or one checkout at one commit")
        self.label = f"dask: {len(builds)} worker{'s' if len(builds) != 1 else ''}"
        return len(builds)

    def _send(self, client: Any, variants: Sequence[Variant], interrupts: Interrupts) -> Any:
        """The variants, on every worker: a Ctrl-C meanwhile is acted on once they are (a
        scatter left half done fails on the scheduler as the cluster closes, and says so)."""
        with interrupts.deferred():
            try:
                shared = client.scatter([list(variants)], broadcast=True, timeout=SEND_WAIT)[0]
            except TimeoutError as exc:
                raise FuegoError(f"the Dask workers did not receive the scenario within "
                                 f"{SEND_WAIT:.0f} seconds",
                                 tip="check the workers and the network to them, or use "
                                     "--jobs") from exc
        interrupts.check()
        return shared

    def run(self, variants: Sequence[Variant], units: Sequence[Unit], totals: list[Counts],
            progress: Progress | None = None) -> None:
        runs = sum(u.runs for u in units)
        # (it says so if Dask is not installed)
        with counted_interrupts() as interrupts, self._client(interrupts) as client:
            from distributed import Event, as_completed

            self._check_workers(client)
            token = uuid.uuid4().hex[:12]
            prefix = f"fuego-forecast-{token}-"
            stop = Event(f"fuego-stop-{token}", client=client)
            shared = self._send(client, variants, interrupts)
            futures: dict = {}
            pending = _Pending(futures, totals, as_completed())
            collect = pending.collect

            try:
                # a Ctrl-C is raised here, between two tasks sent (thousands take a while) or
                # at the next tick, whether it came meanwhile or earlier and was dropped
                with interrupts.deferred():
                    for k, unit in enumerate(units):
                        future = client.submit(_play_task, shared, unit, stop.name,
                                               key=f"{prefix}{k}", pure=False)
                        futures[future] = unit
                        pending.arrived.add(future)
                        interrupts.check()
                    while futures:
                        collect(self.tick)
                        if progress:
                            progress(min(pending.done, runs), runs)
                        interrupts.check()
                interrupts.check()
            except KeyboardInterrupt:
                self._stop(client, stop, futures, collect, prefix, interrupts)
                raise
            except BaseException:  # (Stopped, a failed task, or any error of ours: its tasks
                self._stop(client, stop, futures, None, prefix, interrupts)  # go with it)
                raise
            else:
                # every task came back, so none reads the event again: the scheduler forgets
                # it. A stopped forecast's stays set for good (see _stop).
                with contextlib.suppress(Exception):
                    stop.clear()
            if pending.done < runs:
                raise KeyboardInterrupt  # some task was stopped by another hand

    def _stop(self, client: Any, stop: Any, futures: dict, collect: Any, prefix: str,
              interrupts: Interrupts) -> None:
        """Stop the tasks: set the event, keep what comes back within STOP_WAIT, cancel the
        rest, and wait until none of them runs on any worker. Another Ctrl-C cuts either
        wait short.

        The event is never cleared: the cancel goes on the client's message stream to the
        scheduler and a task on the scheduler's stream to its worker, while ``client.run``
        makes calls of its own that can overtake both, so the scheduler may still start tasks
        of the forecast for a moment after it returned. Set, the event stops each before its
        first run (the wait is for the runs under way when it was set).
        """
        with interrupts.deferred():
            with contextlib.suppress(Exception):
                stop.set()
            seen = interrupts.count
            if collect is not None:
                deadline = time.monotonic() + STOP_WAIT
                try:
                    while futures and interrupts.count == seen and time.monotonic() < deadline:
                        collect(min(0.05, max(0.01, deadline - time.monotonic())))
                except (KeyboardInterrupt, FuegoError):
                    pass  # a Ctrl-C raised by another handler, or a failed task: stop waiting
            with contextlib.suppress(Exception):
                client.cancel(list(futures), force=True)
        # a worker's answer may hang: a Ctrl-C raises here, to end the wait
        seen = interrupts.count
        deadline = time.monotonic() + QUIET_WAIT
        with contextlib.suppress(Exception, KeyboardInterrupt):
            while interrupts.count == seen and time.monotonic() < deadline:
                if not sum(client.run(_running, prefix).values()):
                    break
                time.sleep(0.05)
