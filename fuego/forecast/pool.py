"""The default executor: a pool of worker processes on this machine (``--jobs J``).

Worker processes are forked on Linux (fast, and they inherit the warmed-up caches; ``fuego
forecast`` runs no thread while they start: its progress bar refreshes by hand) and spawned
elsewhere; each receives the variants once, pickled. ``start_method`` overrides the choice.

Ctrl-C stops every worker at once: each abandons the run it is playing and sends back the runs
it finished, within :data:`STOP_WAIT` seconds, after which the pool is terminated. The forecast
counts its Ctrl-Cs itself (:class:`~fuego.forecast.interrupts.Interrupts`), so none is lost
where Python drops the :class:`KeyboardInterrupt` (a garbage collector's callback, a
``__del__``). A worker dies with its parent however that ends (Linux), so none is left behind.
"""

from __future__ import annotations

import contextlib
import functools
import pickle
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from fuego.errors import FuegoError, Stopped
from fuego.forecast.counts import Counts
from fuego.forecast.executors import Progress, chunk_size
from fuego.forecast.interrupts import counted_interrupts
from fuego.forecast.units import RunGuard, Unit, Variant, play_unit

__all__ = ["ProcessPool", "STOP_WAIT"]

#: After Ctrl-C, how long to wait for the workers' finished runs before stopping them.
STOP_WAIT = 0.6


# -- in a worker process --------------------------------------------------------------------------
_GUARD = RunGuard()
_WORKER: dict[str, Any] = {}


def _on_interrupt(signum: int, frame: Any) -> None:
    """A worker's Ctrl-C: stop taking runs; a run being played stops at once (it is not
    counted), while adding a finished run to the counts it waits until that is done."""
    _GUARD.stop = True
    if _GUARD.playing:
        raise KeyboardInterrupt


def _init_worker(blob: bytes, done: Any) -> None:
    import signal

    signal.signal(signal.SIGINT, _on_interrupt)
    # a worker dies at once of SIGTERM (the pool's terminate) and SIGHUP, whatever its parent
    # installed before forking, and dies with its parent however that ends (kill -9 too)
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    _die_with_parent()
    _GUARD.stop = _GUARD.playing = False
    _WORKER["variants"] = pickle.loads(blob)
    _WORKER["done"] = done


def _die_with_parent() -> None:
    """Linux: the kernel sends this worker SIGKILL when its parent dies (``PR_SET_PDEATHSIG``),
    so no worker outlives a forecast killed without a chance to stop them."""
    import os

    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG = 1
    except (OSError, AttributeError):
        return
    import multiprocessing

    parent = multiprocessing.parent_process()
    if parent is not None and os.getppid() != parent.pid:  # it died before the call
        os._exit(1)


def _play(unit: Unit) -> tuple[Unit, Counts]:
    done = _WORKER["done"]

    def each() -> None:
        with done.get_lock():
            done.value += 1

    return unit, play_unit(_WORKER["variants"], unit, each=each, guard=_GUARD)


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

        blob = _pickled(variants)
        with counted_interrupts() as interrupts:
            ctx = multiprocessing.get_context(self._start_method())
            done = ctx.Value("q", 0)
            back = _Returns(units, totals, progress, done)
            before = set(multiprocessing.active_children())
            size = min(self.jobs, len(units))
            pool = _counting_pool()(size, initializer=_init_worker, initargs=(blob, done),
                                    context=ctx)
            # (one killed before this look is reaped by it and is not among them; the pool
            # starts another in its place, which its count of workers started tells)
            workers = [p for p in multiprocessing.active_children() if p not in before]
            try:
                back.results = pool.imap_unordered(_play, list(units))
                # a Ctrl-C is raised at the next tick, whether it came meanwhile or earlier
                # and was dropped: never inside the pool's waits or a library's callback
                with interrupts.deferred():
                    back.collect(workers, lambda: pool.started > size, self.tick,
                                 interrupts.check)
                interrupts.check()
                pool.close()
            except KeyboardInterrupt:
                back.last_ones()
                pool.terminate()
                pool.join()
                raise
            except Stopped:  # SIGTERM or SIGHUP: the workers go with the forecast, at once
                pool.terminate()
                pool.join()
                raise
            except Exception as exc:
                pool.terminate()
                pool.join()
                if isinstance(exc, FuegoError):
                    raise
                raise FuegoError(f"a worker process stopped unexpectedly "
                                 f"({type(exc).__name__}: {exc})",
                                 tip="try fewer --jobs, or --jobs 1") from exc
            pool.join()
        if back.added < back.runs:  # the workers were stopped (a Ctrl-C this process did not see)
            raise KeyboardInterrupt

    def _start_method(self) -> str:
        """The start method asked for, else fork on Linux while this process has one thread
        (forking a threaded process can deadlock), spawn otherwise."""
        if self.start_method is not None:
            return self.start_method
        linux = sys.platform.startswith("linux")
        return "fork" if linux and threading.active_count() == 1 else "spawn"


@functools.cache
def _counting_pool() -> type:
    """multiprocessing's pool (imported with the first forecast on workers) counting the
    worker processes it starts, through ``Process`` (the hook its own thread pool overrides):
    it starts one in place of any that dies, so more than its size means one died, whenever
    that was."""
    from multiprocessing.pool import Pool

    class CountingPool(Pool):
        started = 0

        # (a static method there, but always called as self.Process, the bound method handed
        # to the pool's worker-handler thread too: so each pool counts its own)
        def Process(  # type: ignore[override]  # noqa: N802 - the pool's name for it
                self, ctx: Any, *args: Any, **kwds: Any) -> Any:
            self.started += 1
            return ctx.Process(*args, **kwds)

    return CountingPool


def _pickled(variants: Sequence[Variant]) -> bytes:
    """The variants as the workers receive them (a scenario that cannot be pickled cannot be
    sent: --jobs 1 plays it here)."""
    try:
        return pickle.dumps(list(variants))
    except Exception as exc:  # noqa: BLE001 - any pickling failure means the same thing
        raise FuegoError(f"this scenario cannot be sent to worker processes ({exc})",
                         tip="use --jobs 1") from exc


class _Returns:
    """The units' counts as the workers send them back, added to the totals; the runs done
    so far shown (``done``: the workers' shared count)."""

    def __init__(self, units: Sequence[Unit], totals: list[Counts], progress: Progress | None,
                 done: Any) -> None:
        self.units, self.totals, self.progress, self.done = units, totals, progress, done
        self.runs = sum(u.runs for u in units)
        self.results: Any = None  # the pool's results, in the order they finish
        self.finished = 0
        self.added = 0

    def add(self, unit: Unit, counts: Counts) -> None:
        """One unit's counts into its variant's totals (integer sums: the order they come
        back in is no matter)."""
        self.totals[unit.variant].add(counts)
        self.added += counts.runs

    def show(self) -> None:
        """The runs done so far, to the progress line."""
        if self.progress:
            self.progress(min(self.done.value, self.runs), self.runs)

    def collect(self, workers: list, replaced: Callable[[], bool], tick: float,
                check: Callable[[], None]) -> None:
        """Every unit's counts as it comes back, ``check()`` at each tick (it raises for a
        Ctrl-C); a worker killed (out of memory, kill -9) loses the unit it plays for good,
        or the pool's lock it held while it waited for one, and the pool would wait forever:
        a FuegoError, whether one of ``workers`` ended or the pool ``replaced()`` one that
        died before they were listed."""
        import multiprocessing

        while self.finished < len(self.units):
            try:
                unit, counts = self.results.next(timeout=tick)
            except multiprocessing.TimeoutError:
                if any(p.exitcode not in (None, 0) for p in workers) or replaced():
                    raise FuegoError("a worker process stopped unexpectedly (out of "
                                     "memory, or killed)",
                                     tip="try fewer --jobs, or --jobs 1") from None
            else:
                self.add(unit, counts)
                self.finished += 1
            self.show()
            check()

    def last_ones(self) -> None:
        """After a Ctrl-C: every worker stops its run now and sends back the runs it finished
        (a terminal's Ctrl-C reaches them too; a SIGINT to this process alone is passed on);
        what has not come back within STOP_WAIT seconds is dropped with the workers."""
        import multiprocessing
        import os
        import signal

        for child in multiprocessing.active_children():
            with contextlib.suppress(OSError):
                os.kill(child.pid or 0, signal.SIGINT)
        if self.results is None:
            return
        deadline = time.monotonic() + STOP_WAIT
        try:
            while self.finished < len(self.units) and time.monotonic() < deadline:
                try:
                    unit, counts = self.results.next(timeout=max(0.01,
                                                                 deadline - time.monotonic()))
                except multiprocessing.TimeoutError:
                    break
                except Exception:  # noqa: BLE001 - a worker stopped between runs: nothing
                    self.finished += 1
                    continue
                self.finished += 1
                self.add(unit, counts)
        except KeyboardInterrupt:
            pass  # a second Ctrl-C: stop waiting
