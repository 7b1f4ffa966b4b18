"""The default executor: worker processes on this machine (``--jobs J``), run by a
:class:`concurrent.futures.ProcessPoolExecutor`, one future per unit.

Worker processes are forked on Linux (fast, and they inherit the warmed-up caches; ``fuego
forecast`` runs no thread while they start: its progress bar refreshes by hand, and the
executor forks them all at the first unit, before its own thread starts) and spawned
elsewhere; each receives the variants once, pickled. ``start_method`` overrides the choice.

Ctrl-C stops every worker at once: each abandons the run it is playing and sends back the runs
it finished, within :data:`STOP_WAIT` seconds, after which the workers are killed. The forecast
counts its Ctrl-Cs itself (:class:`~fuego.forecast.interrupts.Interrupts`), so none is lost
where Python drops the :class:`KeyboardInterrupt` (a garbage collector's callback, a
``__del__``). A worker dies with its parent however that ends (Linux), so none is left behind.

A unit's counts come back by a file in a directory of the forecast's own (``_play``), and
only the unit itself by the executor's pipe: a message that small is written to the pipe whole
or not at all. A worker killed half-way through sending a bigger one (a map of thousands of
areas: the counts of one unit run past the pipe's buffer) left half a message on the pipe, and
the executor's thread waited for its rest for ever, holding the forecast with it. The
directory goes with the forecast; one left by a forecast killed outright (``kill -9``) is
removed by the next one (:func:`_sweep`).

A worker that dies (out of memory, ``kill -9``), whatever it was doing, breaks the executor:
it starts none in its place, ends the others, and every unit not back fails with
``BrokenProcessPool``, a FuegoError here. The forecast never waits on the executor without a
bound: a worker killed while it waits for a unit dies holding the call queue's read lock, and
the executor's own ``shutdown(wait=True)`` can then wait forever for a worker blocked on that
lock (when it learns of the death after being told to shut down); the forecast gives its
workers :data:`STOP_WAIT` seconds to exit and kills the rest (docs/reliability.md).
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from fuego.errors import FuegoError, Stopped
from fuego.files import FULL, replacing, temporary_folder, working_error
from fuego.forecast.counts import Counts
from fuego.forecast.executors import Progress, chunk_size
from fuego.forecast.interrupts import Interrupts, counted_interrupts
from fuego.forecast.units import RunGuard, Unit, Variant, packed, play_unit, unpacked

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor
    from multiprocessing.process import BaseProcess

__all__ = ["ProcessPool", "STOP_WAIT"]

#: How long the workers get to stop on their own before they are killed: after Ctrl-C, to send
#: back the runs they finished; after the last unit, to exit.
STOP_WAIT = 0.6
#: At most how long the executor's thread may take to end once its workers are gone (a bound
#: only: milliseconds).
_THREAD_WAIT = 5.0


# -- in a worker process --------------------------------------------------------------------------
_GUARD = RunGuard()
#: The signals that end a forecast and a worker: SIGTERM and SIGHUP where they exist.
_STOPS = {getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)}
_WORKER: dict[str, Any] = {}


def _on_interrupt(signum: int, frame: Any) -> None:
    """A worker's Ctrl-C: stop taking runs; a run being played stops at once (it is not
    counted), while adding a finished run to the counts it waits until that is done."""
    _GUARD.stop = True
    if _GUARD.playing:
        raise KeyboardInterrupt


def _init_worker(blob: bytes, done: Any, back: str) -> None:
    signal.signal(signal.SIGINT, _on_interrupt)
    # a worker dies at once of SIGTERM (the executor's terminate) and SIGHUP, whatever its parent
    # installed before forking (held until now: _stops_held), and dies with its parent however
    # that ends (kill -9 too)
    for number in _STOPS:
        signal.signal(number, signal.SIG_DFL)
    if _STOPS and hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPS)
    _die_with_parent()
    _GUARD.stop = _GUARD.playing = False
    _WORKER["variants"] = unpacked(blob)
    _WORKER["done"] = done
    _WORKER["back"] = back


def _die_with_parent() -> None:
    """Linux: the kernel sends this worker SIGKILL when its parent dies (``PR_SET_PDEATHSIG``),
    so no worker outlives a forecast killed without a chance to stop them."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG = 1
    except (OSError, AttributeError):
        return
    import multiprocessing

    parent = multiprocessing.parent_process()
    if parent is not None and os.getppid() != parent.pid:  # it died before the call
        os._exit(1)


def _play(unit: Unit) -> Unit:
    """Play ``unit``; its counts go to its file in the forecast's directory (as every file is
    written, :func:`fuego.files.replacing`: whole or absent), and the unit alone goes back on
    the executor's pipe (the module docstring: a result that small is never half-sent)."""
    done = _WORKER["done"]

    def each() -> None:
        with done.get_lock():
            done.value += 1

    counts = play_unit(_WORKER["variants"], unit, each=each, guard=_GUARD)
    # (an OSError goes back as it is: _counts_folder names the folder, not this file; no
    # fsync: the forecast reads the file back and removes it)
    with replacing(counts_file(_WORKER["back"], unit), mode=0o600, durable=False) as fh:
        pickle.dump(counts, fh, pickle.HIGHEST_PROTOCOL)
    return unit


def counts_file(back: str, unit: Unit) -> str:
    """Where a worker leaves the counts of ``unit`` in the directory ``back``."""
    return os.path.join(back, f"{unit.variant}-{unit.start}.counts")


# -- in the forecast's process --------------------------------------------------------------------
class ProcessPool:
    """``jobs`` worker processes share the units; their counts are added as they come back."""

    def __init__(self, jobs: int, start_method: str | None = None, tick: float = 0.1) -> None:
        self.jobs = jobs
        self.start_method = start_method
        self.tick = tick
        self.label = f"{jobs} job{'s' if jobs != 1 else ''}"

    def unit_runs(self, runs: int) -> int:
        return chunk_size(runs, self.jobs)

    def run(self, variants: Sequence[Variant], units: Sequence[Unit], totals: list[Counts],
            progress: Progress | None = None) -> None:
        """Play the units on the worker processes, each unit's counts added to its variant's
        totals as it comes back. A Ctrl-C keeps what the workers finish within STOP_WAIT
        seconds; SIGTERM or SIGHUP ends them at once; a worker that dies is a FuegoError."""
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool

        blob = packed(variants)
        # the folder TMPDIR names, or an error: never another one, quietly (docs/reliability.md)
        where = temporary_folder(WORKING, tip=WITHOUT)
        _sweep(where)
        with counted_interrupts() as interrupts, _counts_folder(where) as folder:
            ctx = multiprocessing.get_context(self._start_method())
            done = ctx.Value("q", 0)
            back = _Returns(units, totals, progress, done, folder)
            workers = _Workers()
            # a Ctrl-C is raised at the next tick, whether it came meanwhile or earlier and
            # was dropped: never inside the executor's waits or locks (a future's lock left
            # held would stop the executor's thread for good)
            with interrupts.deferred():
                executor = ProcessPoolExecutor(min(self.jobs, len(units)), mp_context=ctx,
                                               initializer=_init_worker,
                                               initargs=(blob, done, folder))
                grace = 0.0  # (after an error or a stop the workers are killed at once)
                try:
                    with _stops_held():  # (the executor starts its workers as units come)
                        back.pending = {executor.submit(_play, unit) for unit in units}
                    back.collect(self.tick, interrupts.check)
                    interrupts.check()
                    grace = STOP_WAIT
                except KeyboardInterrupt:
                    back.last_ones(executor, workers, interrupts)
                    raise
                except Stopped:  # SIGTERM or SIGHUP: the workers go with the forecast, at once
                    raise
                except BrokenProcessPool:
                    raise FuegoError("a worker process stopped unexpectedly (out of memory, "
                                     "or killed)", tip="try fewer --jobs, or --jobs 1") from None
                except FuegoError:
                    raise
                except Exception as exc:
                    if isinstance(exc, OSError) and exc.errno in FULL:
                        raise  # a worker's counts found the disk full: _counts_folder says so
                    raise FuegoError(f"a worker process stopped unexpectedly "
                                     f"({type(exc).__name__}: {exc})",
                                     tip="try fewer --jobs, or --jobs 1") from exc
                finally:
                    workers.end(executor, grace)
        if back.added < back.runs:  # the workers were stopped (a Ctrl-C this process did not see)
            raise KeyboardInterrupt

    def _start_method(self) -> str:
        """The start method asked for, else fork on Linux while this process has one thread
        (forking a threaded process can deadlock), spawn otherwise."""
        if self.start_method is not None:
            return self.start_method
        linux = sys.platform.startswith("linux")
        return "fork" if linux and threading.active_count() == 1 else "spawn"


#: The start of the name of a forecast's directory of counts (then its process id).
_FOLDER = "fuego-forecast-"
#: What the forecast keeps in the temporary folder, and how to do without (the errors' words).
WORKING = "forecast's working files"
WITHOUT = "use --jobs 1, which writes none"


@contextlib.contextmanager
def _counts_folder(where: str) -> Iterator[str]:
    """The forecast's directory of counts (module docstring), in the temporary folder
    ``where``, removed after; a full disk there, making it or writing a unit's counts into it
    (the worker's error comes back here), is the one line of a full disk naming that folder."""
    try:
        with tempfile.TemporaryDirectory(prefix=f"{_FOLDER}{os.getpid()}-", dir=where,
                                         ignore_cleanup_errors=True) as folder:
            yield folder  # (one it could not remove goes with the next forecast: _sweep)
    except OSError as exc:
        raise working_error(exc, WORKING, where, tip=WITHOUT) from None


def _sweep(where: str) -> None:
    """Remove the directories of counts of forecasts that were killed outright: those whose
    process is gone (at most a unit's counts or two were in them)."""
    import shutil

    with contextlib.suppress(OSError), os.scandir(where) as entries:
        for entry in entries:
            pid = entry.name[len(_FOLDER):].partition("-")[0]
            if (entry.name.startswith(_FOLDER) and pid.isdigit()
                    and entry.is_dir(follow_symlinks=False) and not _running(int(pid))):
                shutil.rmtree(entry.path, ignore_errors=True)


def _running(pid: int) -> bool:
    """Whether process ``pid`` still runs (another user's counts: it does)."""
    if pid <= 0:  # (0 would ask this process's whole group)
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


@contextlib.contextmanager
def _stops_held() -> Iterator[None]:
    """SIGTERM and SIGHUP held (blocked) meanwhile, and raised after it if one came: a
    worker started meanwhile holds them until it has reset them to their default (a SIGTERM
    from the executor ending it as it starts would run this process's handler in it, whose
    exception it prints). A worker's Ctrl-C needs no such care: the forecast's handler it
    starts with only counts."""
    if not (_STOPS and hasattr(signal, "pthread_sigmask")):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


class _Workers:
    """The executor's worker processes and threads, told from this process's others by
    multiprocessing's list of its children and threading's of threads (the executor's own
    are private); the processes alive when asked."""

    def __init__(self) -> None:
        import multiprocessing

        self.before = set(multiprocessing.active_children())
        self.threads_before = set(threading.enumerate())

    def alive(self) -> list[BaseProcess]:
        import multiprocessing

        return [p for p in multiprocessing.active_children() if p not in self.before]

    def interrupt(self) -> None:
        """SIGINT to each: it stops its run and sends back the runs it finished."""
        for child in self.alive():
            if child.pid:  # (never 0: that would be this process's whole group)
                with contextlib.suppress(OSError):
                    os.kill(child.pid, signal.SIGINT)

    def end(self, executor: ProcessPoolExecutor, grace: float) -> None:
        """Shut the executor down without waiting for it, give the workers ``grace`` seconds
        to exit and kill the rest: one blocked on the lock of a worker that died with it would
        wait forever, and the executor (and this process's exit) with it. Then wait for the
        executor's thread, which ends once its workers have (bounded all the same): Python's
        exit would race it (its exit hook writes to a pipe the thread closes: "Exception
        ignored ... Bad file descriptor")."""
        executor.shutdown(wait=False, cancel_futures=True)
        deadline = time.monotonic() + grace
        try:
            for child in self.alive():
                child.join(max(0.0, deadline - time.monotonic()))
        finally:  # (a SIGTERM meanwhile too)
            for child in self.alive():
                with contextlib.suppress(OSError):
                    child.kill()
        deadline = time.monotonic() + _THREAD_WAIT
        for thread in set(threading.enumerate()) - self.threads_before:
            thread.join(max(0.0, deadline - time.monotonic()))


class _Returns:
    """The units' counts as the workers send them back, added to the totals; the runs done
    so far shown (``done``: the workers' shared count)."""

    def __init__(self, units: Sequence[Unit], totals: list[Counts], progress: Progress | None,
                 done: Any, folder: str) -> None:
        self.units, self.totals, self.progress, self.done = units, totals, progress, done
        self.folder = folder  # where the workers leave each unit's counts
        self.runs = sum(u.runs for u in units)
        self.pending: set[Future[Unit]] = set()  # the units not back yet
        self.added = 0

    def add(self, future: Future[Unit]) -> None:
        """One unit's counts, from the file its worker left, into its variant's totals (integer
        sums: the order they come back in is no matter). The unit's exception is raised."""
        unit = future.result()
        path = counts_file(self.folder, unit)
        with open(path, "rb") as fh:
            counts: Counts = pickle.load(fh)
        os.unlink(path)
        self.totals[unit.variant].add(counts)
        self.added += counts.runs

    def show(self) -> None:
        """The runs done so far, to the progress line."""
        if self.progress:
            # (read past its lock: a worker killed holding it would stop this process for good)
            self.progress(min(self.done.get_obj().value, self.runs), self.runs)

    def collect(self, tick: float, check: Callable[[], None]) -> None:
        """Every unit's counts as it comes back, ``check()`` at each tick (it raises for a
        Ctrl-C). A unit's exception is raised: ``BrokenProcessPool`` for every unit not back
        once a worker died (out of memory, kill -9), whether it played or waited for one."""
        from concurrent.futures import FIRST_COMPLETED, wait

        while self.pending:
            finished, self.pending = wait(self.pending, timeout=tick,
                                          return_when=FIRST_COMPLETED)
            for future in finished:
                self.add(future)
            self.show()
            check()

    def last_ones(self, executor: ProcessPoolExecutor, workers: _Workers,
                  interrupts: Interrupts) -> None:
        """After a Ctrl-C: every worker stops its run now and sends back the runs it finished
        (a terminal's Ctrl-C reaches them too; a SIGINT to this process alone is passed on);
        the units no worker has taken are cancelled, and what has not come back within
        STOP_WAIT seconds, or by a second Ctrl-C, is dropped with the workers."""
        from concurrent.futures import FIRST_COMPLETED, wait

        executor.shutdown(wait=False, cancel_futures=True)
        workers.interrupt()
        deadline = time.monotonic() + STOP_WAIT
        asked = interrupts.count  # (one more is a second Ctrl-C: stop waiting)
        try:
            while (self.pending and interrupts.count == asked
                   and (left := deadline - time.monotonic()) > 0):
                finished, self.pending = wait(self.pending, timeout=min(left, 0.05),
                                              return_when=FIRST_COMPLETED)
                for future in finished:
                    # (cancelled, or the executor broke: a worker stopped between runs)
                    with contextlib.suppress(Exception):
                        self.add(future)
        except KeyboardInterrupt:
            pass  # a second Ctrl-C where SIGINT's handler is not the forecast's
