"""An executor on a Dask distributed cluster (``fuego forecast --dask ADDRESS``).

The same work units as the process pool (:mod:`fuego.forecast.units`) run as Dask tasks: the
variants are one task (made again if every worker holding them dies), each unit is one task
taking its result and returning its
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
from fuego.files import temporary_folder, working_error
from fuego.forecast.counts import Counts
from fuego.forecast.executors import Progress, chunk_size
from fuego.forecast.interrupts import Interrupts, counted_interrupts
from fuego.forecast.units import Unit, Variant, packed, play_unit, unpacked

__all__ = ["DaskCluster", "STOP_WAIT", "LOCAL", "parse_address"]

#: The address that starts a cluster on this machine for the forecast.
LOCAL = "local"
#: After Ctrl-C, how long to wait for the tasks' finished runs before cancelling them.
STOP_WAIT = 2.0
#: How long the tasks may take to stop after they are cancelled (one run each at most).
QUIET_WAIT = 30.0
#: How long the workers may take to receive the scenario (a Ctrl-C waits for it).
SEND_WAIT = 60.0
#: How long the client may take to reach the scheduler, and to reach it again once lost.
CONNECT_WAIT = 10.0
#: How long a local cluster's workers may take to start, and how often their nannies are asked
#: whether one failed meanwhile.
LOCAL_START_WAIT = 120.0
START_POLL = 0.5
#: How long a scheduler with no worker is given for one to join.
WORKERS_WAIT = 60.0
#: With no unit back for this long, whether the cluster still has a worker is asked (again).
WORKERS_ASK = 5.0
#: How long a finished task's counts may take to come from its worker (a few KB; a worker
#: gone meanwhile has them played again elsewhere): a bound, so no wait is for ever.
RESULT_WAIT = 60.0
#: The most runs in one task: a second or so of a worker's time (progress comes per task).
TASK_RUNS = 20
#: How often a task asks the scheduler whether to stop (between runs; a round trip each).
STOP_POLL = 0.25
TIP = "pip install 'fuego[dask]' (Dask distributed), or use --jobs"
#: What a local cluster keeps in the temporary folder (the errors' words).
SCRATCH = "local Dask cluster's working files"
#: Dask's own setting for its scratch space, which wins over TMPDIR (the errors' words).
DASK_SETTING = "Dask's temporary-directory setting (DASK_TEMPORARY_DIRECTORY)"
#: The tip when the cluster went wrong under the forecast.
AGAIN = "check the workers (their logs, their memory), then run the forecast again; or use --jobs"


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
    setting = dask.config.get("temporary-directory", None)
    scratch = setting or temporary_folder(SCRATCH, tip="use --jobs")
    # the cluster's event-loop thread starts with SIGINT blocked, so the worker processes its
    # nannies start (restarted ones too) keep it blocked; a Ctrl-C meanwhile is acted on once
    # the cluster is there to be closed
    with interrupts.deferred(), _sigint_blocked(), \
            _start_errors(scratch, DASK_SETTING if setting else None):
        cluster = LocalCluster(n_workers=0, threads_per_worker=1, processes=True,
                               # (its logs too: a worker that cannot start is the one line
                               # below once the wait is over)
                               dashboard_address=":0", silence_logs=logging.CRITICAL,
                               preload=[__name__],  # dask_setup
                               local_directory=scratch,
                               scheduler_kwargs={"local_directory": scratch})
    try:
        interrupts.check()
        cluster.scale(n)
        _started(cluster, n, interrupts)
    except BaseException:
        cluster.close()
        raise
    return cluster


def _started(cluster: Any, n: int, interrupts: Interrupts) -> None:
    """Wait for the local cluster's ``n`` workers, at most :data:`LOCAL_START_WAIT` seconds,
    and no longer once a worker's nanny says it failed to start (it does not try again: the
    wait ran to its end for nothing)."""
    from distributed.core import Status

    workers = f"{n} worker{'s' if n != 1 else ''}"
    deadline = time.monotonic() + LOCAL_START_WAIT
    while True:
        try:
            cluster.wait_for_workers(n, timeout=min(START_POLL, deadline - time.monotonic()))
            return
        except TimeoutError:
            pass
        interrupts.check()
        failed = sum(1 for w in list(cluster.workers.values())
                     if getattr(w, "status", None) == Status.failed)
        if failed:
            raise FuegoError(f"{failed} of the local Dask cluster's {workers} failed to start "
                             "(a full disk, too little memory, or a broken install)",
                             tip="use --jobs") from None
        if time.monotonic() >= deadline:
            raise FuegoError(f"the local Dask cluster's {workers} did not start within "
                             f"{LOCAL_START_WAIT:.0f} seconds", tip="use --jobs") from None


@contextlib.contextmanager
def _start_errors(scratch: str, setting: str | None) -> Iterator[None]:
    """A local cluster that fails to start is one line: Dask wraps the cause in a
    RuntimeError (a full disk under its scratch space, say); ``setting``: what named the
    folder, when not the temporary folder's variable."""
    try:
        yield
    except RuntimeError as exc:
        cause = exc.__cause__
        if isinstance(cause, OSError):
            raise working_error(cause, SCRATCH, scratch, tip="use --jobs",
                                name=setting) from None
        raise FuegoError(f"the local Dask cluster did not start ({exc})",
                         tip="use --jobs") from exc


class _Pending:
    """The tasks not yet back (future -> unit), and their counts added as they come."""

    def __init__(self, futures: dict, totals: list[Counts], arrived: Any, where: str) -> None:
        self.futures = futures
        self.totals = totals
        self.where = where  # the cluster, for the errors: "the scheduler at tcp://..."
        # the futures as they finish (the client's thread queues them): asking is free,
        # where waiting on all of them each tick would keep this process busy
        self.arrived = arrived
        self.done = 0
        self.last = time.monotonic()  # when a unit last came back

    def collect(self, wait: float) -> None:
        """Add the units that came back, waiting ``wait`` seconds if none has."""
        batch = self.arrived.next_batch(block=False)
        if not batch:
            time.sleep(wait)
            batch = self.arrived.next_batch(block=False)
        if batch:
            self.last = time.monotonic()
        for future in batch:
            unit = self.futures.pop(future, None)
            if unit is None:
                continue
            if future.status == "error":
                raise task_error(future.exception())
            if future.status == "cancelled":  # (not by this forecast: it cancels after this)
                raise self._dropped(future)
            if future.status == "finished":
                try:
                    counts = future.result(timeout=RESULT_WAIT)
                except TimeoutError:
                    raise FuegoError(f"a Dask worker of {self.where} did not send back the "
                                     f"runs it played within {RESULT_WAIT:.0f} seconds",
                                     tip=AGAIN) from None
                except OSError as exc:  # (the scheduler or worker gone mid-fetch: CommClosedError)
                    raise FuegoError(f"lost {self.where} while fetching the runs a worker "
                                     f"played: {exc}", tip=AGAIN) from None
                self.totals[unit.variant].add(counts)
                self.done += counts.runs

    def _dropped(self, future: Any) -> FuegoError:
        """The error for a task the cluster cancelled: the scheduler lost (the client gives
        up after CONNECT_WAIT seconds to reconnect), or the data it needs (the scenario, once
        every worker that held it is gone), or another client's cancel. Its counts would be
        missing from the totals: never a forecast cut short as by Ctrl-C."""
        try:
            future.result(timeout=1)
            reason = "unknown"
        except Exception as exc:  # noqa: BLE001 - a cancelled future raises its reason
            reason = str(getattr(exc, "reason", "") or "unknown")
        if reason == "scheduler-connection-lost":
            return FuegoError(f"lost {self.where}: the connection to it broke and did not come "
                              f"back within {CONNECT_WAIT:.0f} seconds",
                              tip="check that the scheduler still runs and the network to it, "
                                  "then run the forecast again; or use --jobs")
        return FuegoError(f"the Dask cluster dropped this forecast's tasks ({reason}): the "
                          "workers that held its scenario stopped (out of memory, or killed), "
                          "or another client cancelled them", tip=AGAIN)


class _Workers:
    """Whether the cluster still has a worker, asked once units stop coming back: with none,
    the scheduler would hold the tasks for ever (remote workers killed, no nanny to start
    them again); a worker that joins within :data:`WORKERS_WAIT` seconds plays them."""

    def __init__(self, client: Any, where: str) -> None:
        self.client, self.where = client, where
        self.asked = 0.0
        self.none_since: float | None = None

    def check(self, last: float) -> None:
        now = time.monotonic()
        if now - last < WORKERS_ASK or now - self.asked < WORKERS_ASK:
            return
        self.asked = now
        try:
            count = len(self.client.nthreads())
        except Exception:  # noqa: BLE001 - a lost scheduler is the cancelled tasks' error
            return
        if count:
            self.none_since = None
        elif self.none_since is None:
            self.none_since = now
        elif now - self.none_since >= WORKERS_WAIT:
            raise FuegoError(f"{self.where} lost every worker: none for "
                             f"{WORKERS_WAIT:.0f} seconds, with runs still to play",
                             tip="start workers again (dask worker ADDRESS --nthreads 1), then "
                                 "run the forecast again; or use --jobs")


def task_error(exc: BaseException | None) -> FuegoError:
    """The error for a task that failed: a worker that died playing it, on as many workers
    as Dask allows (:class:`distributed.KilledWorker`), a FuegoError the task raised as it is
    (the one line it would be with ``--jobs``), or the task's own exception."""
    from distributed import KilledWorker

    if isinstance(exc, FuegoError):
        return exc
    if isinstance(exc, KilledWorker):
        return FuegoError("a Dask task's worker died playing it, on one worker after another "
                          "(out of memory, or killed)", tip=AGAIN)
    return FuegoError(f"a Dask task failed ({type(exc).__name__}: {exc})",
                      tip="try --jobs, to see the error in this process")


class DaskCluster:
    """Play the units as tasks on a Dask cluster: ``address`` a scheduler's, or ``local``."""

    def __init__(self, address: str = LOCAL, tick: float = 0.1) -> None:
        self.address, self.workers = parse_address(address)
        self.tick = tick
        self.label = "dask"
        self.where = "a local cluster" if self.address is None else f"the scheduler at {address}"

    def unit_runs(self, runs: int) -> int:
        return chunk_size(runs, self.workers or 8, TASK_RUNS)

    @contextlib.contextmanager
    def _client(self, interrupts: Interrupts) -> Iterator[Any]:
        try:
            from distributed import Client
        except ImportError as exc:
            raise FuegoError("--dask needs Dask distributed, which is not installed",
                             tip=TIP) from exc
        # its warnings and errors are for a cluster's admin, not the GM: what goes wrong for
        # the forecast (a lost scheduler, a failed task) is fuego's own one line (Dask's
        # configuration gives the client's logger a level of its own)
        quiet = [logging.getLogger(name) for name in ("distributed", "distributed.client")]
        levels = [logger.level for logger in quiet]
        for logger in quiet:
            logger.setLevel(logging.CRITICAL)
        cluster = None
        try:
            if self.address is None:
                cluster = _local_cluster(self.workers or os.cpu_count() or 1, interrupts)
            try:
                client = Client(cluster if cluster is not None else self.address,
                                timeout=CONNECT_WAIT)
            except (OSError, TimeoutError) as exc:
                raise FuegoError(f"cannot reach {self.where} ({exc})",
                                 tip="start it with `dask scheduler` and give the address it "
                                     "prints (docs/maps-and-forecasts.md, Scaling out)") from exc
            except (ValueError, TypeError) as exc:
                # an address Dask cannot use (a scheme it does not know, a port not a number,
                # tls:// without its settings): the other arguments are fixed
                raise FuegoError(f"--dask {self.address!r}: Dask cannot use this address "
                                 f"({exc})", tip="give the scheduler's address as `dask "
                                 "scheduler` prints it (tcp://HOST:8786); tls:// needs Dask's "
                                 "TLS settings") from exc
            try:
                yield client
            finally:
                # closing after a Ctrl-C, the scheduler logs the client's cancelled tasks as
                # CRITICAL with a traceback: noise, as every task is accounted for by then
                for logger in quiet:
                    logger.setLevel(logging.CRITICAL + 1)
                client.close()
        finally:
            if cluster is not None:
                cluster.close()
            for logger, level in zip(quiet, levels):
                logger.setLevel(level)

    def _check_workers(self, client: Any) -> int:
        """The workers' count, once each has shown it runs this fuego: its version and its
        code (:func:`fuego_build`)."""
        try:
            client.wait_for_workers(1, timeout=WORKERS_WAIT)
        except TimeoutError:
            raise FuegoError(f"{self.where} has no worker (none came within "
                             f"{WORKERS_WAIT:.0f} seconds)",
                             tip="start them on the machines that will play: dask worker "
                                 "ADDRESS --nthreads 1 (docs/maps-and-forecasts.md, Scaling "
                                 "out)") from None
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

    def _send(self, client: Any, variants: Sequence[Variant], token: str,
              interrupts: Interrupts) -> Any:
        """The variants, as a task of their own whose result every unit's task takes: a task,
        not scattered data, so that when every worker holding them dies (a lone worker killed,
        its nanny starting another) the scheduler makes them again from the task, where
        scattered data would be lost and every task cancelled with it. A Ctrl-C meanwhile is
        acted on once they are there (a send left half done fails on the scheduler as the
        cluster closes, and says so)."""
        from distributed import wait

        blob = packed(variants)
        with interrupts.deferred():
            shared = client.submit(unpacked, blob, key=f"fuego-scenario-{token}", pure=False)
            try:
                wait([shared], timeout=SEND_WAIT)
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
            shared = self._send(client, variants, token, interrupts)
            futures: dict = {}
            # (on this client's loop: as_completed() alone takes the process's default
            # client, which may be another one, and a future then waits on two loops)
            pending = _Pending(futures, totals, as_completed(loop=client.loop), self.where)
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
                    workers = _Workers(client, self.where)
                    while futures:
                        collect(self.tick)
                        workers.check(pending.last)
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
            if pending.done < runs:  # (its stop event set by another client: no Ctrl-C here)
                raise FuegoError(f"{self.where} played {pending.done} of the {runs} runs: "
                                 "another client stopped this forecast's tasks", tip=AGAIN)

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
