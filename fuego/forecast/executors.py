"""Who plays a forecast's work units: this process, a pool of worker processes
(:mod:`fuego.forecast.pool`) or a Dask cluster (:mod:`fuego.forecast.cluster`).

An :class:`Executor` plays every :class:`~fuego.forecast.units.Unit` and adds its counts to
the totals of its variant. The totals are integer sums, so which executor played which unit,
and in what order they came back, changes nothing in the numbers. On Ctrl-C an executor stops
its workers, adds the runs they finished and raises :class:`KeyboardInterrupt`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Protocol

from fuego.forecast.counts import Counts
from fuego.forecast.interrupts import counted_interrupts
from fuego.forecast.units import Unit, Variant, play_unit

__all__ = ["Executor", "Progress", "InProcess", "chunk_size"]

#: ``progress(runs done, runs in all)``, called after runs finish (and meanwhile, so a clock
#: can tick).
Progress = Callable[[int, int], None]


def chunk_size(runs: int, workers: int, most: int = 250) -> int:
    """Runs per work unit: about eight units per worker (so the last ones finish together),
    at most ``most`` runs each (so progress and Ctrl-C stay prompt)."""
    return max(1, min(most, math.ceil(runs / (workers * 8))))


class Executor(Protocol):
    #: How the summary names it ("1 job", "2 jobs", "dask: 4 workers").
    label: str

    def unit_runs(self, runs: int) -> int:
        """How many runs of ``runs`` one work unit should hold."""
        ...

    def run(self, variants: Sequence[Variant], units: Sequence[Unit], totals: list[Counts],
            progress: Progress | None = None) -> None:
        """Play ``units``, adding each one's counts to ``totals[unit.variant]``."""
        ...


class InProcess:
    """Every unit in this process, one after the other (``--jobs 1``)."""

    label = "1 job"

    def unit_runs(self, runs: int) -> int:
        return chunk_size(runs, 1)

    def run(self, variants: Sequence[Variant], units: Sequence[Unit], totals: list[Counts],
            progress: Progress | None = None) -> None:
        done = 0
        total = sum(u.runs for u in units)
        with counted_interrupts() as interrupts:

            def each() -> None:
                nonlocal done
                done += 1
                if progress:
                    progress(done, total)
                interrupts.check()  # (a Ctrl-C Python dropped in a gc callback: raised here)

            for unit in units:
                # a unit's counts join the total only when whole; an interrupted unit's
                # finished runs are kept by adding them as they are
                part = variants[unit.variant].counts()
                try:
                    play_unit(variants, unit, part, each)
                finally:
                    totals[unit.variant].add(part)
