"""The work units of a forecast: what an executor hands out and gets back.

A forecast (or a sweep, :mod:`fuego.forecast.sweep`) is a list of :class:`Variant` (a
scenario, the shape of its counts, the heroes' plans), sent to each worker once, and a list of
:class:`Unit` (runs ``start..stop-1`` of one variant), each played by :func:`play_unit` into a
:class:`~fuego.forecast.counts.Counts`. Both pickle small (a scenario is about 13 KB, a unit's
counts about 2 KB), so a unit runs the same in this process, a worker process or on a Dask
cluster, and its counts are the same wherever it ran.
"""

from __future__ import annotations

import gc
import pickle
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from fuego.errors import FuegoError
from fuego.forecast.counts import Counts
from fuego.forecast.play import Buildable, play_run, run_seed

if TYPE_CHECKING:
    from fuego.engine.plans import HeroPlans

__all__ = ["Variant", "Unit", "Guard", "RunGuard", "play_unit", "units_of", "packed", "unpacked"]

#: (rounds, number of areas, room keys, hero names): what a variant's Counts are made with.
Shape = tuple[int, int, list[str], list[str]]


@dataclass(frozen=True)
class Variant:
    """One scenario as the workers receive it: what to build, the counts' shape, the plans."""

    scenario: Buildable
    shape: Shape
    plans: HeroPlans | None = None

    def counts(self) -> Counts:
        return Counts(*self.shape)


@dataclass(frozen=True)
class Unit:
    """Runs ``start`` to ``stop - 1`` of variant ``variant``, seeded from ``seed``."""

    variant: int
    seed: int
    start: int
    stop: int

    @property
    def runs(self) -> int:
        return self.stop - self.start


def units_of(variant: int, seed: int, runs: int, chunk: int) -> list[Unit]:
    """The runs of one variant cut into units of ``chunk`` runs (the last may be shorter)."""
    return [Unit(variant, seed, s, min(runs, s + chunk)) for s in range(0, runs, chunk)]


class Guard(Protocol):
    """How a worker is told to stop: ``stop`` is read before each run; ``playing`` is set
    while a run is played (a Ctrl-C then abandons that run, which is not counted)."""

    @property
    def stop(self) -> bool: ...

    playing: bool


@dataclass
class RunGuard:
    """A :class:`Guard` set by a signal handler (a worker process's Ctrl-C)."""

    stop: bool = False
    playing: bool = False


def play_unit(variants: Sequence[Variant], unit: Unit, counts: Counts | None = None,
              each: Callable[[], None] | None = None, guard: Guard | None = None) -> Counts:
    """Play ``unit`` and return its counts (added to ``counts`` when given). ``each()`` is
    called after each run. Without a ``guard`` a Ctrl-C propagates (the runs finished are in
    ``counts``); with one, the unit stops at the guard's word and returns what it finished."""
    variant = variants[unit.variant]
    counts = counts if counts is not None else variant.counts()
    scenario, plans = variant.scenario, variant.plans
    # A run allocates a building, its events and caches that live until it ends, and the
    # collector would walk them over and over meanwhile (~10 % of a tavern run): collect once
    # after each run instead, which also frees the run's own cycles.
    collecting = gc.isenabled()
    gc.disable()
    try:
        for i in range(unit.start, unit.stop):
            if guard is not None:
                if guard.stop:
                    break  # Ctrl-C: send back the runs finished
                guard.playing = True
                try:
                    run = play_run(scenario, run_seed(unit.seed, i), counts, plans)
                except KeyboardInterrupt:
                    break
                finally:
                    guard.playing = False
            else:
                run = play_run(scenario, run_seed(unit.seed, i), counts, plans)
            counts.add_run(run)  # only whole runs are counted (an interrupted one is not)
            del run
            gc.collect(1)
            if each is not None:
                each()
    finally:
        if collecting:
            gc.enable()
    return counts


def packed(variants: Sequence[Variant]) -> bytes:
    """The variants as the workers receive them, pickled once (a scenario that cannot be
    pickled cannot be sent: --jobs 1 plays it here)."""
    try:
        return pickle.dumps(list(variants))
    except Exception as exc:  # noqa: BLE001 - any pickling failure means the same thing
        raise FuegoError(f"this scenario cannot be sent to worker processes ({exc})",
                         tip="use --jobs 1") from exc


def unpacked(blob: bytes) -> list[Variant]:
    """The variants :func:`packed` sent, on a worker."""
    variants: list[Variant] = pickle.loads(blob)
    return variants
